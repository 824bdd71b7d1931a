"""Kniffel's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option

OPTIONS = (Option("players", 1, int, "Kniffel, Dadox: players per game", bounds=(1, 8)),)
