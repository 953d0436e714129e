"""The project's performance benchmarks (scripts, not tests): ``python -m benchmarks.run``
and ``python -m benchmarks.headline`` from the repository root. See ``benchmarks/README.md``."""
