"""Connect Four: positions in Pons's notation, exact scores in his convention.

``tree`` is the game's tree in Python; ``_board.c`` the same tree compiled (boards of at
most 64 bits), which ``compiled`` chooses where it was built."""
