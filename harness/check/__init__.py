"""``harness check``: a game's self-test, above the search.

It walks a game's trees (:mod:`harness.check.walk`) and compares every variant with minimax
on its positions (:mod:`harness.check.search`), so it imports both the games and the
search; :mod:`harness.check.game` is its entry (``check_game`` for a plug-in's tests,
``self_test`` for the command). The games themselves import no search.
"""
