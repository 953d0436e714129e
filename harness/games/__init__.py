"""Games from outside the harness, each seen as a search tree (harness.games.base.Tree)."""
