"""OpenSpiel's games (``openspiel:NAME``) as trees, through pyspiel (an optional install).

``game`` is the tree and the game; ``cursor`` the per-node methods (``_cursor.c`` the
same compiled, which ``cursor`` chooses where it was built); ``evaluations`` the scores at
a search's horizon (``eval=NAME``; entry-point group ``harness.evaluations``)."""
