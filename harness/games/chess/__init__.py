"""Chess: positions from EPD suites searched by python-chess with a compiled move generator."""
