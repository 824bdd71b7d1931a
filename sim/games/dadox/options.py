"""Dadox's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
POLICY_NAMES = ('threshold', 'greedy', 'optimal-turn', 'optimal-win', 'random', 'leader-win')
OBJECTIVES = ("turn", "win")
# the policies' display names (``labels`` reads them from here): the opponent option names its policy so
POLICY_WORDS = {"threshold": "Threshold", "greedy": "Greedy", "optimal-turn": "Optimal turn",
                "optimal-win": "Optimal win", "random": "Random", "leader-win": "Leader win"}
OPTIONS = (
    Option("players", 2, int, "Kniffel, Dadox: players per game", bounds=(1, 8)),
    Option("opponent", None, str, "two-player games: the opponent's policy", words=POLICY_WORDS),
    Option("objective", "turn", str, "Dadox solve: turn | win", OBJECTIVES, commands=("solve",)),
)
