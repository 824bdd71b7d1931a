"""Pig's options (imported by the game and, without the game, by the command line)."""

from itertools import combinations

from sim.games.options import Option

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
TITLE = "Pig"  # the game's name as people read it (Game.title; describe's text heads with it)
# describe's headings where a key alone cannot say it (sim.cli.work.describe_text)
DESCRIBE_WORDS = {"bust_probability": "Bust chance of a roll", "mean_scoring_roll": "Mean scoring roll (points)",
                  "break_even_turn_total": "Break-even turn total (points)",
                  "hold_at_expected_turn_score": "Expected turn score (points) when holding at",
                  "expected_turn_score": "Expected turn score (points)",
                  "holds_from_by_own_score": "Holds from (turn total) by own score, for points up to the goal (not "
                                             "the win: optimal-win's); — rolls on to the goal"}
POLICY_NAMES = ('hold-20', 'optimal-turn', 'optimal-win')
REPORT_POLICIES = ("hold-20", "optimal-turn", "optimal-win")  # the default report's (its runs counted early)
CONFIG = "sim.games.pig.config:PigConfig"  # Game.Config: --set is checked without the game
CAPABILITIES = frozenset({"replay_row", "solve"})  # the game's capabilities (Game.capabilities)
OBJECTIVES = ("turn", "win")
PLAYERS = 2  # Pig is a duel: the turn order alternates between two seats (rules.PLAYERS)
# solved policies that maximise something other than the win (the points a turn adds): a simple policy that wins
# more often than they do is no degenerate strategy (sim.report.findings.strategy)
OTHER_GOAL = ("optimal-turn",)
# what only some policies read of the rules (sim.games.options.policy_readers): calibrate, tune, a sweep and a target
# refuse such a field when no seat plays one of them (every evaluation would play the same)
POLICY_READS = {"policies.hold_at": ("hold-20",), "solver": ("optimal-win",)}
OPTIONS = (Option("objective", None, str, "Pig solve: turn | win (default turn)", OBJECTIVES,  # off in play
                  commands=("solve",)),)


def seat_count(options: dict) -> int:
    """The seats a ``--policy`` value fills (``Game.seat_count``): Pig's two."""
    return PLAYERS


def plan_seats(policy: str, options: dict) -> list[str]:
    """The seats one ``--policy`` value plays (``Game.compare_plan``): it plays itself."""
    return [policy] * PLAYERS


def compare_plan(policies: list[str], options: dict) -> list[tuple[str, list[str]]]:
    """``Game.compare_plan`` of checked names: one policy plays itself; several, every pair head to head, seats
    alternated on shared dice."""
    if len(policies) == 1:
        return [(policies[0], plan_seats(policies[0], options))]
    return [(f"{a} vs {b}", [a, b]) for a, b in combinations(policies, 2)]


# describe computes in plain Python from describe.py (sim.cli.work.tables); it reads no option
PLAIN_DESCRIBE = ()
# what solve reads of the options (sim.games.options.unread_option): the goal of the solve
SOLVE_OPTIONS = ("objective",)
# what solve never reads of the rules (sim.games.options.check_solve_sets): a section -> why
SOLVE_UNREAD = {"policies": "it sets the play of hold-20",
                "game": "a solve plays no game to its turn limit: the limit draws games in play"}


def solve_seats(options: dict) -> list[str]:
    """The policy whose solution ``dicesim solve`` computes for ``--objective`` (``POLICY_READS`` then says which
    solver fields it reads: the win solve's alone)."""
    return ["optimal-win" if options.get("objective") == "win" else "optimal-turn"]
