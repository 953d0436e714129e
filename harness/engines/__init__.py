"""Real UCI chess engines (Stockfish, GNU Chess, Toga II, ...) as subjects of a run: named
by a spec, started, asked one position at a time through python-chess's ``chess.engine``."""
