"""Dadox's options (imported by the game and, without the game, by the command line)."""

from itertools import combinations

from sim.core.errors import DicesimError
from sim.games.options import Option, check_opponent, cycled, policy_names

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
TITLE = "Dadox"  # the game's name as people read it (Game.title; describe's text heads with it)
# describe's headings where a key alone cannot say it (sim.cli.work.describe_text)
DESCRIBE_WORDS = {"bust_probability": "Bust chance by dice thrown",
                  "bust_probability_later_throws": "Bust chance of a later throw (1 or 5 needed) by dice thrown",
                  "bust_probability_confirmation_throws": "Bust chance of a confirmation throw by dice thrown",
                  "strong": "Strong selections (confirmed by a throw)", "must_throw_on": "Must throw on after",
                  "scoring": "Scoring groups", "expected_turn_score": "Expected turn score (points)",
                  "bank_thresholds": "Banks from (turn total, points) by dice it would throw next (goal not counted)",
                  "optimal_turn": "Optimal turn (the most points a turn adds in expectation, far from the goal)"}
POLICY_NAMES = ('threshold', 'greedy', 'optimal-turn', 'optimal-win', 'random', 'leader-win')
REPORT_POLICIES = ("threshold", "greedy", "optimal-turn")  # the default report's (its runs counted early)
CONFIG = "sim.games.dadox.config:DadoxConfig"  # Game.Config: --set is checked without the game
CAPABILITIES = frozenset({"replay_row", "solve"})  # the game's capabilities (Game.capabilities)
OBJECTIVES = ("turn", "win")
WIN_POLICIES = ("optimal-win", "leader-win")  # the policies that read the two-player solution
# solved policies that maximise something other than the win (the points a turn adds): a simple policy that wins
# more often than they do is no degenerate strategy (sim.report.findings.strategy)
OTHER_GOAL = ("optimal-turn",)
# what only some policies read of the rules (sim.games.options.policy_readers): calibrate, tune, a sweep and a target
# refuse such a field when no seat plays one of them (every evaluation would play the same). ``policies.random_bank``
# is not here: every policy below full skill reads it (its lapses are random's moves, policies/dadox/skill.py).
# skill.level makes the first seat's moves worse; random's moves are random at every level (the same numbers)
POLICY_READS = {"skill.level": tuple(p for p in POLICY_NAMES if p != "random"),
                "policies.threshold": ("threshold",), "policies.greedy_bank_at": ("greedy",),
                "solver.turn_cap": ("optimal-turn",), "solver.score_floor": WIN_POLICIES,
                "solver.tolerance": WIN_POLICIES}
# the policies' display names (``labels`` reads them from here): the opponent option names its policy so
POLICY_WORDS = {"threshold": "Threshold", "greedy": "Greedy", "optimal-turn": "Optimal turn",
                "optimal-win": "Optimal win", "random": "Random", "leader-win": "Leader win"}
OPTIONS = (
    Option("players", 2, int, "Kniffel, Dadox: players per game", bounds=(1, 8)),
    Option("opponent", None, str, "two-player games: the opponent's policy", words=POLICY_WORDS, names_policy=True),
    Option("objective", "turn", str, "Dadox solve: turn | win", OBJECTIVES, commands=("solve",)),
)

# describe computes from describe.py without the game (sim.cli.work.tables) and reads no option; its optimal turn is
# a solve of the compiled rule kernels (numba loads, the play kernels, the policies and pandas do not)
PLAIN_DESCRIBE = ()
# what solve reads of the options (sim.games.options.unread_option): the goal of the solve
SOLVE_OPTIONS = ("objective",)
# what solve never reads of the rules (sim.games.options.check_solve_sets): a section -> why
SOLVE_UNREAD = {"skill": "the exact solution plays without lapses; skill is a player's in play",
                "policies": "it sets the play of threshold, greedy and random",
                "game": "a solve plays no game to its turn limit: the limit draws games in play"}
# why solve leaves an option unread, where "the same for every value" would mislead (the win solve is two players')
SOLVE_UNREAD_WHY = {"players": "the turn solve is one player's turn, the win solve always two players' duel"}
DESCRIBE_COMPILED = True
# what those tables read of the rules (sim.cli.work.tables keeps them under these alone; tests/test_plain_tables.py
# checks that no other field moves them): a new goal, policy setting or solver tolerance answers without a solve
DESCRIBE_READS = ("scoring", "turn", "bust", "solver.turn_cap")


def solve_seats(options: dict) -> list[str]:
    """The policy whose solution ``dicesim solve`` computes for ``--objective`` (``POLICY_READS`` then says which
    solver fields it reads: the turn solve not the win solve's)."""
    return ["optimal-win" if options.get("objective") == "win" else "optimal-turn"]


def check_table_size(policies: list[str]) -> None:
    """optimal-win is the two-player solution: refuse it at other table sizes (leader-win plays that
    plan against the leading opponent at any size of two or more)."""
    k = len(policies)
    if any(p in WIN_POLICIES for p in policies) and k < 2:
        raise DicesimError("optimal-win and leader-win play against an opponent: use --players 2 or more")
    if "optimal-win" in policies and k > 2:
        raise DicesimError(
            f"optimal-win is a two-player solution, not optimal with {k} players: use --players 2, or leader-win "
            "(the two-player plan against the leading opponent)"
        )


def check_plan(cfg: object, seats: list[str]) -> None:
    """``Game.check_plan``: a table size the seats' policies play (``check_table_size``)."""
    check_table_size(seats)


def with_opponent(seats: list[str], options: dict, policy: str) -> list[str]:
    """``--opponent x``: the first seat's policy, then ``x`` at every other seat (``Game.seat_policies``); a
    ``policy`` list naming several seats beside it is refused (its later names would be dropped in silence)."""
    check_opponent(policy, options.get("opponent"))
    check_lone_opponent(len(seats), options)
    return [seats[0]] + [options["opponent"]] * (len(seats) - 1) if options.get("opponent") else seats


def check_lone_opponent(k: object, options: dict) -> None:
    """``--opponent`` with ``--players 1``: no seat after the first for it to fill, so it was dropped in silence (a
    report headed "opponent: Random", a comparison "each against Greedy", over a lone player's numbers)."""
    if k == 1 and options.get("opponent"):
        raise DicesimError(f"--opponent {options['opponent']} fills the seats after the first, and --players 1 has "
                           "none: leave --opponent out, or play --players 2 or more")


def seat_count(options: dict) -> int:
    """The seats a ``--policy`` value fills (``Game.seat_count``): ``--players``."""
    return int(options.get("players", OPTIONS[0].default))


def check_seats(policy: str, options: dict) -> None:
    """``check_table_size`` on the seats a ``--policy`` value fills with ``--players`` and ``--opponent`` (as
    ``Game.seat_policies`` fills them), for the command line to refuse before the game loads."""
    k = options.get("players", OPTIONS[0].default)
    check_lone_opponent(k, options)  # compare's list too: it names no seat there
    if not policy_names(policy) or not isinstance(k, int) or not 1 <= k <= 8 or len(policy_names(policy)) > k:
        return  # the game refuses these in its own words
    check_table_size(with_opponent(cycled(policy, k), options, policy))


def plan_seats(policy: str, options: dict) -> list[str]:
    """The seats one ``--policy`` value plays (``Game.compare_plan``): alone its names, else itself at every seat."""
    k = seat_count(options)
    return cycled(policy, 1) if k == 1 else [policy] * k


def compare_plan(policies: list[str], options: dict) -> list[tuple[str, list[str]]]:
    """``Game.compare_plan`` of checked names: alone (or a single policy) each plays its seats; otherwise every pair
    head to head, seats rotated on shared deals."""
    k = seat_count(options)
    if k == 1 or len(policies) == 1:
        return [(p, plan_seats(p, options)) for p in policies]
    return [(f"{a} vs {b}", [(a, b)[i % 2] for i in range(k)]) for a, b in combinations(policies, 2)]
