"""The suites the project makes: seeded games played with the harness's own search, one
module a suite kind, each writing a file whose header is the command that remakes it.

``chess_bench`` is ``harness suites generate`` (``bench.epd``); ``chess_selfplay``,
``checkers`` and ``othello`` run as ``python -m harness.suites.NAME``. The files they
wrote stay in ``harness/games/<game>/positions/``, with the games that read them."""
