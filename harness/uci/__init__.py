"""``harness uci``: the harness as a UCI chess engine, for a GUI or python-chess."""
