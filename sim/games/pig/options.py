"""Pig's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
POLICY_NAMES = ('hold-20', 'optimal-turn', 'optimal-win')
OBJECTIVES = ("turn", "win")
OPTIONS = (Option("objective", None, str, "Pig solve: turn | win (default turn)", OBJECTIVES,  # off in play
                  commands=("solve",)),)
