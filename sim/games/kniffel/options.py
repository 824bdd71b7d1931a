"""Kniffel's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option, cycled

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
TITLE = "Kniffel"  # the game's name as people read it (Game.title; describe's text heads with it)
# describe's headings where a key alone cannot say it (sim.cli.work.describe_text)
DESCRIBE_WORDS = {"solver_states": "States the exact solver fills", "categories": "Boxes",
                  "box": "Box", "section": "Section", "scores": "Scores", "bonuses": "Bonuses and joker"}
POLICY_NAMES = ('random', 'greedy', 'optimal')
REPORT_POLICIES = ("random", "greedy", "optimal")  # the default report's (its runs counted early)
# skill.level makes the first seat's moves worse; random's moves are random at every level (the same numbers)
# (sim.games.options.policy_readers: a field only some policies read)
POLICY_READS = {"skill.level": tuple(p for p in POLICY_NAMES if p != "random")}
CONFIG = "sim.games.kniffel.config:KniffelConfig"  # Game.Config: --set is checked without the game
CAPABILITIES = frozenset({"replay_row", "solve"})  # the game's capabilities (Game.capabilities)
# seats keep their policies in every game (``--policy optimal,greedy``: seat 1 always plays optimal): on a mixed table
# the first seat's win rate is its policy's, no seat order's (``sim.report.pages.seat_sentence`` says nothing of it)
SEATS_ROTATE = False
OPTIONS = (Option("players", 1, int, "Kniffel, Dadox: players per game", bounds=(1, 8)),)
# describe computes in plain Python from describe.py (sim.cli.work.tables), reading these options
PLAIN_DESCRIBE = ("players",)
# what solve reads of the options (sim.games.options.unread_option): the one-sheet solve reads none
SOLVE_OPTIONS = ()
# what solve never reads of the rules (sim.games.options.check_solve_sets): a section -> why
SOLVE_UNREAD = {"skill": "the exact solution plays without lapses; skill is a player's in play"}


def solve_seats(options: dict) -> list[str]:
    """The policy whose table ``dicesim solve`` computes (its reads are the solve's, skill aside): optimal."""
    return ["optimal"]


def seat_count(options: dict) -> int:
    """The seats a ``--policy`` value fills (``Game.seat_count``): ``--players``."""
    return int(options.get("players", OPTIONS[0].default))


def plan_seats(policy: str, options: dict) -> list[str]:
    """The seats one ``--policy`` value plays (``Game.compare_plan``): its names cycled over ``--players``."""
    return cycled(policy, seat_count(options))
