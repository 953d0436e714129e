"""English draughts (American checkers): PDN positions, a bitboard tree, an evaluation.

``board`` holds the rules, ``tree`` the game's tree in Python (the reference), and
``_board.c`` the same tree compiled, which ``compiled`` chooses where it was built."""
