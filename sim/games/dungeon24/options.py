"""Dungeon24's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option, policy_names

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
POLICY_NAMES = ('random', 'greedy', 'heuristic', 'exact-exchange', 'expectimax')
PEOPLES = ("gruenlinge", "untote", "dunkelelfen")  # the order of config.PEOPLES (checked by the game at import)
PEOPLE_WORDS = {"gruenlinge": "Grünlinge", "untote": "Untote", "dunkelelfen": "Dunkelelfen"}
# the policies' display names (``labels`` reads them from here): the opponent option names its policy so
POLICY_WORDS = {"random": "Random", "greedy": "Greedy", "heuristic": "Heuristic", "exact-exchange": "Exact exchange",
                "expectimax": "Expectimax"}
OPTIONS = (
    Option("opponent", "greedy", str, "two-player games: the opponent's policy", label="opponent",
           words=POLICY_WORDS),
    Option("people", "gruenlinge", str, "Dungeon24: your people", PEOPLES, "your people", PEOPLE_WORDS),
    Option("opponent_people", "gruenlinge", str, "Dungeon24: the opponent's people", PEOPLES, "opponent's people",
           PEOPLE_WORDS),
    Option("arrangement", "policy", str, "Dungeon24: policy | search | a card order like 2,0,1,4,3",
           label="card order", words={"policy": "by the policy", "search": "best by search"}),
)
# describe computes in plain Python from describe.py (sim.cli.work.tables); it reads no option
PLAIN_DESCRIBE = ()


def plan_seats(policy: str, options: dict) -> list[str]:
    """The seats one ``--policy`` value plays (``Game.compare_plan``): ``a,b`` both, ``a`` against ``--opponent``."""
    names = policy_names(policy)
    return names if len(names) == 2 else [names[0], options.get("opponent") or "greedy"]
