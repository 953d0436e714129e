"""The one exception the harness raises for bad input."""

from __future__ import annotations


class HarnessError(ValueError):
    """Bad input: a malformed tree or spec, an unknown variant or option, an impossible depth.

    The message is one line that names the file (and line) or the option and says what is
    wrong; the CLI prints it as it is and exits with code 2.
    """
