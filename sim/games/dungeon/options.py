"""The Würfel Dungeon's options (imported by the game and, without the game, by the command line)."""

from numbers import Integral

from sim.core.errors import DicesimError
from sim.games.options import Option, cycled

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
TITLE = "Würfel Dungeon"  # the game's name as people read it (Game.title; describe's text heads with it)
# describe's headings where a key alone cannot say it (sim.cli.work.describe_text)
DESCRIBE_WORDS = {"difficulty_factors": "Difficulty factors (boss rerolls: the player's rerolls against a boss, "
                                        "no extra rolls; — for no cap)",
                  "rooms": "Rooms (each enemy a room may hold, with its chance; base hit: the scale of its "
                           "intents, the hit of an intent of multiple ×1, which it need not have; largest hit: "
                           "before the enemy's own buffs; mean hit: per enemy turn over one pass of its intents, a "
                           "buff raising the later hits, before shields)",
                  # "Damage" beside "Largest hit" read as a hit the enemy deals (Rostratte: damage 13, largest 11)
                  "rooms.damage": "Base hit (×1)", "rooms.elite_damage": "Elite base hit (×1)",
                  "chance": "Chance",
                  "hp": "LP", "elite_hp": "Elite LP",
                  "max_hit": "Largest hit", "mean_hit": "Mean hit",
                  "elite_max_hit": "Elite largest hit", "elite_mean_hit": "Elite mean hit",
                  "path_choice": "Path card", "combos": "Combo values by dice"}
POLICY_NAMES = ('vorschlag', 'greedy', 'expectimax', 'random', 'rollout')
REPORT_POLICIES = ("vorschlag", "greedy", "expectimax", "random")  # the default report's (its runs counted early)
# skill.level makes the first seat's moves worse; random's moves are random at every level (the same numbers)
# (sim.games.options.policy_readers: a field only some policies read). Vorschlag's weights rate offers and set the
# joker, hero and market thresholds of vorschlag and expectimax (policies/dungeon/run.py, turn.py: greedy and random
# decide before reading them, a lapse plays random's move); rollout plays its base policy, vorschlag by default.
# rollout.* is the rollout driver's alone (runs.py). A declared reader only where the code reads it: a wrong one
# would refuse a run that moves.
POLICY_READS = {"skill.level": tuple(p for p in POLICY_NAMES if p != "random"),
                "policies.vorschlag": ("vorschlag", "expectimax", "rollout"), "rollout": ("rollout",)}
CONFIG = "sim.games.dungeon.config:DungeonConfig"  # Game.Config: --set is checked without the game
CAPABILITIES = frozenset({"combos", "replay_row"})  # the game's capabilities (Game.capabilities)
POLICY_VARIANT = "@"  # name@loadout: the upgrades after it are the rules' (check_variant)
DIFFICULTIES = ("leicht", "normal", "schwer")  # layout.DIFFICULTIES, in its order (checked by the game at import)
OPTIONS = (Option("difficulty", "leicht", str, "Würfel Dungeon: leicht | normal | schwer (default leicht)",
                  DIFFICULTIES, words={"leicht": "Leicht", "normal": "Normal", "schwer": "Schwer"}),)  # as written
# describe and combos compute in plain Python from describe.py (sim.cli.work.tables), reading these options
PLAIN_DESCRIBE = ("difficulty",)
CUP_SIZES = (1, 2, 3, 4, 5, 6)  # the dice a cup holds (``dicesim combos``): any hand a run can deal, 1..layout.MAX_DICE
# (start.dice is 1..6; five by the rule page, six with Extra-Würfel), checked by the game at import


def check_difficulty(options: dict) -> str:
    """The ``--difficulty`` option's value (default leicht), refused when it is not one of ``DIFFICULTIES``."""
    d = options.get("difficulty", "leicht")
    if d not in DIFFICULTIES:
        raise DicesimError(f"--difficulty must be one of {', '.join(DIFFICULTIES)}, got {d!r}")
    return d


def check_cup(dice: object) -> None:
    """The dice ``dicesim combos`` takes: 1 to 6 faces 1..6, any hand ``start.dice`` and the extra dice can make
    (refused here, before the game is imported)."""
    if not isinstance(dice, (list, tuple)) or len(dice) not in CUP_SIZES:
        raise DicesimError(f"combos takes 1 to {CUP_SIZES[-1]} dice (a hand: start.dice and the extra dice), got "
                           f"{len(dice) if isinstance(dice, (list, tuple)) else dice!r}")
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, Integral) or not 1 <= int(d) <= 6:
            raise DicesimError(f"a die shows 1..6, got {d!r}")


def check_variant(cfg: object, policy: str) -> None:
    """``vorschlag@wetzstein+paschmeister``: the upgrades after ``@`` are the config's (``loadout.with_loadout``
    adds them to the start loadout); checked here so the command line refuses a wrong one before the game loads."""
    if "@" not in policy:
        return
    upgrades = cfg.upgrades  # type: ignore[attr-defined]
    names = [u.strip() for u in policy.split("@", 1)[1].split("+")]
    for u in names:
        if u and u not in upgrades:
            raise DicesimError(f"unknown upgrade {u!r} in policy {policy!r} (choose from {', '.join(upgrades)})")
    if any(names) and not all(names):  # 'greedy@' alone is the policy check's to refuse
        raise DicesimError(f"policy {policy!r} has an empty upgrade name between its '+'")
    owned = [*cfg.loadout.upgrades, *names]  # type: ignore[attr-defined]
    for u in dict.fromkeys(names):
        if upgrades[u].unique and owned.count(u) > 1:
            raise DicesimError(f"upgrade {u!r} is unique: a hero owns it once (policy {policy!r}"
                               + (", and loadout.upgrades has it" if u in cfg.loadout.upgrades else "") + ")")
    said = cfg.too_many_dice(names)  # type: ignore[attr-defined]
    if said:
        raise DicesimError(f"policy {policy!r}: {said}")


def check_plan(cfg: object, seats: list[str]) -> None:
    """``Game.check_plan``: each seat's upgrades after ``@`` are these rules' (``check_variant``)."""
    for p in seats:
        check_variant(cfg, p)


def seat_count(options: dict) -> int:
    """The seats a ``--policy`` value fills (``Game.seat_count``): one hero."""
    return 1


def plan_seats(policy: str, options: dict) -> list[str]:
    """The seats one ``--policy`` value plays (``Game.compare_plan``): one hero."""
    return cycled(policy, seat_count(options))
