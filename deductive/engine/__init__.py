"""Games, solvers and players: the public API (re-exported by :mod:`deductive.wordle`)."""
