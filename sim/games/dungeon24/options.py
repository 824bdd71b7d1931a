"""Dungeon24's options (imported by the game and, without the game, by the command line)."""

from sim.core.errors import DicesimError
from sim.games.dungeon24.codes import N_BASIC
from sim.games.options import Option, policy_names

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
# the share of games the first to move wins (a fair 50 %), where the game has no seat columns: said as the seats'
# fairness beside the answer (sim.report.pages)
FIRST_MOVER = ("first_attacker_win_rate", "the first attacker wins")
TITLE = "Dungeon24"  # the game's name as people read it (Game.title; describe's text heads with it)
# describe's headings where a key alone cannot say it (sim.cli.work.describe_text)
DESCRIBE_WORDS = {"exchange_by_advantage": "One exchange by attack advantage (the dice alone, before any focus reroll)",
                  "hit": "Hit chance",
                  "lp_loss_given_hit": "LP lost when hit", "a": "Attack", "v": "Defence",
                  "sum_a": "Attack sum (basic cards)", "sum_v": "Defence sum (basic cards)",  # the boss apart
                  "hit_chance_vs": "Hit chance against each people (row: own card, column: theirs)",
                  "decks": "Peoples and their decks"}
POLICY_NAMES = ('random', 'greedy', 'heuristic', 'exact-exchange', 'expectimax')
REPORT_POLICIES = ("random", "greedy", "heuristic", "exact-exchange")  # the default report's (its runs counted early)
# skill.level makes the first seat's moves worse; random's moves are random at every level (the same numbers)
# (sim.games.options.policy_readers: a field only some policies read)
POLICY_READS = {"skill.level": tuple(p for p in POLICY_NAMES if p != "random")}
CONFIG = "sim.games.dungeon24.config:Dungeon24Config"  # Game.Config: --set is checked without the game
CAPABILITIES = frozenset({"matchup", "replay_row", "solve"})  # the game's capabilities (Game.capabilities)
PEOPLES = ("gruenlinge", "untote", "dunkelelfen")  # the order of config.PEOPLES (checked by the game at import)
PEOPLE_WORDS = {"gruenlinge": "Grünlinge", "untote": "Untote", "dunkelelfen": "Dunkelelfen"}
# the policies' display names (``labels`` reads them from here): the opponent option names its policy so
POLICY_WORDS = {"random": "Random", "greedy": "Greedy", "heuristic": "Heuristic", "exact-exchange": "Exact exchange",
                "expectimax": "Expectimax"}


def arrangement_order(value: str) -> tuple[int, ...] | None:
    """``--arrangement``: ``policy``/``search`` -> None; ``"i,j,k,l,m"`` -> that order of the five basic cards."""
    if value in ("policy", "search"):
        return None
    parts = str(value).split(",")  # ASCII digits only: int() reads ٤ and ０ too, which no other count accepts
    perm = tuple(int(x) for x in parts) if all(x.strip().isascii() and x.strip().isdigit() for x in parts) else ()
    if sorted(perm) != list(range(N_BASIC)):
        raise DicesimError(
            f"--arrangement must be policy, search or a permutation of 0..4 like 2,0,1,4,3, got {value!r}"
        )
    return perm


def arrangement_spelled(value: str) -> str:
    """``Search`` and `` 2, 0,1,4,3`` as the option keeps them (``search``, ``2,0,1,4,3``): its words in any case,
    as every other name is read, and a card order without the spaces a report would echo."""
    word = value.strip().casefold()
    return word if word in ("policy", "search") else ",".join(p.strip() for p in value.split(","))


OPTIONS = (
    Option("opponent", "greedy", str, "two-player games: the opponent's policy", label="opponent",
           words=POLICY_WORDS, names_policy=True),
    Option("people", "gruenlinge", str, "Dungeon24: your people", PEOPLES, "your people", PEOPLE_WORDS),
    Option("opponent_people", "gruenlinge", str, "Dungeon24: the opponent's people", PEOPLES, "opponent's people",
           PEOPLE_WORDS),
    Option("arrangement", "policy", str, "Dungeon24: policy | search | a card order like 2,0,1,4,3",
           label="card order", words={"policy": "by the policy", "search": "best by search"}, valid=arrangement_order,
           spell=arrangement_spelled),
)
# describe computes in plain Python from describe.py (sim.cli.work.tables); it reads no option
PLAIN_DESCRIBE = ()
# what solve reads of the options (sim.games.options.unread_option): the pairing it searches the best pyramid for
SOLVE_OPTIONS = ("opponent", "people", "opponent_people")


def solve_seats(options: dict) -> list[str]:
    """The seats ``dicesim solve`` plays its search with (sim.games.options.check_solve_sets): ``--opponent`` at both
    (``Dungeon24Game.solve``), so a field only other policies read moves nothing."""
    return [options.get("opponent") or "greedy"] * SEATS


SEATS = 2  # the player and the opponent
ABILITY_NAMES = ("blutrausch", "auferstehung", "schattenschmerz")  # config.ABILITIES but none: abilities.<name>_*


def unread_set(cfg: object, path: str, options: dict) -> str | None:
    """Why a run of these peoples never reads ``abilities.<ability>_<field>`` (``abilities.auferstehung_count`` with
    Grünlinge, Blutrausch, on both sides: only a people with the ability fires it, ``rules.fire``), else None.
    Read from the rules given (``peoples.<people>.ability``), as a config may give a people another ability."""
    keys = path.split(".")
    ability = next((a for a in ABILITY_NAMES if len(keys) > 1 and keys[1].startswith(a + "_")), None)
    if keys[0] != "abilities" or ability is None:
        return None
    own, other = options.get("people") or "gruenlinge", options.get("opponent_people") or "gruenlinge"
    has = [p for p in PEOPLES if getattr(cfg.peoples, p).ability == ability]  # type: ignore[attr-defined]
    if own in has or other in has:
        return None
    how = (f"set it with --people {has[0]} or --opponent-people {has[0]}" if has else
           "no people has it in these rules (peoples.*.ability)")
    return f"{path} is not used by this run ({PEOPLE_WORDS[own]} vs {PEOPLE_WORDS[other]}: no {ability}): {how}"


def seat_count(options: dict) -> int:
    """The seats a ``--policy`` value fills (``Game.seat_count``): ``a,b`` names both, ``a`` meets ``--opponent``."""
    return SEATS


def plan_seats(policy: str, options: dict) -> list[str]:
    """The seats one ``--policy`` value plays (``Game.compare_plan``): ``a,b`` both, ``a`` against ``--opponent``."""
    names = policy_names(policy)
    return names if len(names) == SEATS else [names[0], options.get("opponent") or "greedy"]
