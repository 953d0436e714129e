"""``python -m harness``."""

from harness.cli import main

main()
