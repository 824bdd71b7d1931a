"""Pig's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option

OBJECTIVES = ("turn", "win")
OPTIONS = (Option("objective", None, str, "Pig solve: turn | win (default turn)", OBJECTIVES,  # off in play
                  commands=("solve",)),)
