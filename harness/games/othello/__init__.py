"""Othello: positions one a line, exact values at the end of the game.

``tree`` is the game's tree in Python; ``_board.c`` the same tree compiled, which
``compiled`` chooses where it was built."""
