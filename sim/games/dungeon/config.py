"""Würfel Dungeon's config model (every rule number) and its frozen arrays for the kernels.

``freeze(cfg, difficulty)`` resolves the difficulty and turns the model into the numpy arrays of
``Frozen``; the kernel reads scalars from ``rp`` at the ``RP_*`` indices, enemies from ``en``/``intents``
(``EN_*``, ``IN_*``), rooms from ``rooms`` (``RM_*``), upgrades from ``up_eff`` (rows of
``rules.EFF_*`` effects) and the start loadout ``loadout``. Per modifier *profile* (the Opferaltar
level ``0..n_prof-1`` on top of the start loadout) it precomputes the combo values ``cvals`` and the
shown partition ``part`` of every dice multiset.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np
from pydantic import Field, model_validator

from sim.config import ConfigError, GameConfig, Strict
from sim.games.dungeon import rules as R

DIFFICULTIES = ("leicht", "normal", "schwer")
CHALLENGES = ("ohne_heilung", "drei_kombos", "schnell")
EVENTS = ("opferaltar", "joker_haendler", "verfluchte_truhe")
EV_ALTAR, EV_JOKER, EV_TRUHE = 0, 1, 2
RARITIES = ("haeufig", "selten", "episch")
JOKER_KINDS = ("set_die", "reroll", "heal")
JK_SET, JK_REROLL, JK_HEAL = 0, 1, 2
MAX_OFFERS = 5
MAX_STOCK = 8
MAX_JOKERS = 8


class Start(Strict):
    lp: int = Field(50, ge=1, le=10_000)
    dice: int = Field(5, ge=1, le=6)
    coins: int = Field(100, ge=0, le=1_000_000)


class Turn(Strict):
    rolls: int = Field(3, ge=1, le=10, description="rolls per turn, the first included")
    adjusts: int = Field(1, ge=0, le=10)
    adjust_step: int = Field(1, ge=0, le=5)
    last_chance_cost: int = Field(20, ge=0, le=10_000)
    last_chance_per_fight: int = Field(1, ge=0, le=1)
    max_turns: int = Field(100, ge=1, le=10_000)


class Combat(Strict):
    weak_mul: float = Field(0.7, ge=0, le=10)
    crit_mul: float = Field(2.0, ge=0, le=10)


class ComboKind(Strict):
    tier: int = Field(ge=1, le=10)
    attack: list[float] = Field(min_length=2, max_length=2, description="[× W, + flat]")
    shield: list[float] = Field(min_length=2, max_length=2)
    heal: list[float] = Field(min_length=2, max_length=2)
    coin_bonus: int = Field(ge=0, le=10_000)


class FullHouse(Strict):
    tier: int = Field(ge=1, le=10)
    attack: list[float] = Field(min_length=3, max_length=3, description="[× a (pair), × b (triple), + flat]")
    shield: list[float] = Field(min_length=3, max_length=3)
    heal: list[float] = Field(min_length=3, max_length=3)
    coin_bonus: int = Field(ge=0, le=10_000)


class Combos(Strict):
    shield_factor: float = Field(0.6, ge=0, le=10)
    glueckssieben_face: int = Field(7, ge=1, le=100)
    glueckssieben_coins: bool = Field(True, description="with Glückssieben a 1 counts as 7 in the coin pip sum too")
    pasch: ComboKind
    drilling: ComboKind
    kleine_strasse: ComboKind
    full_house: FullHouse
    vierling: ComboKind
    grosse_strasse: ComboKind
    fuenfling: ComboKind
    sechsling: ComboKind


class Difficulty(Strict):
    hp: float = Field(gt=0, le=100)
    damage: float = Field(gt=0, le=100)
    boss: float = Field(gt=0, le=100)
    points: float = Field(ge=0, le=100)
    boss_rerolls: int = Field(-1, ge=-1, le=10, description="-1: no cap; else the reroll cap vs bosses (no extras)")


class Difficulties(Strict):
    leicht: Difficulty
    normal: Difficulty
    schwer: Difficulty


class Scaling(Strict):
    hp_per_room: float = Field(2, ge=0, le=1000)
    hp_factor: float = Field(1.12, gt=0, le=100)
    damage_growth: float = Field(0.03, ge=0, le=10)
    damage_growth_compound: bool = False
    boss_damage: Literal["boss", "stage"] = Field(
        "boss", description="boss damage × the boss factor only (seed), or × stage damage factor and room growth")


class Rooms(Strict):
    count: int = Field(10, ge=1, le=50)
    bosses: dict[str, str] = Field(default_factory=dict, description="room number -> boss enemy")


class Section(Strict):
    first_room: int = Field(ge=1, le=50)
    last_room: int = Field(ge=1, le=50)
    enemy_block: int = Field(0, ge=0, le=10_000)
    player_shield: int = Field(0, ge=0, le=10_000)
    attack_bonus: int = Field(0, ge=-100, le=10_000)
    roster: list[str] = Field(min_length=1)


class Events(Strict):
    weights: list[float] = Field(min_length=3, max_length=3, description="opferaltar, joker_haendler, verfluchte_truhe")
    altar_lp: int = Field(6, ge=0, le=10_000)
    altar_attack: int = Field(1, ge=0, le=1000)
    joker_haendler_coins: int = Field(70, ge=0, le=10_000)
    truhe_coins: int = Field(45, ge=0, le=10_000)
    truhe_cursed_die: int = Field(1, ge=1, le=6)


class Path(Strict):
    elite_hp: float = Field(1.25, gt=0, le=100)
    elite_attack: float = Field(1.15, gt=0, le=100)
    elite_coins: int = Field(40, ge=0, le=10_000)
    rest_heal: int = Field(8, ge=0, le=10_000)
    rest_win_coins: int = Field(10, ge=0, le=10_000)
    rest_chance: float = Field(0.5, ge=0, le=1)
    boss_rooms: bool = Field(True, description="the three cards lie before the boss rooms too (seed)")
    boss_rest_win_coins: int = Field(25, ge=0, le=10_000, description="boss win coins after a Rastplatz")
    events: Events


class Coins(Strict):
    action_base: int = Field(6, ge=0, le=10_000)
    steps: list[float] = Field(min_length=1, max_length=20)
    step_rounding: Literal["floor", "round"] = "floor"
    fight_cap: int = Field(120, ge=0, le=1_000_000)
    boss_fight_cap: int = Field(160, ge=0, le=1_000_000)
    win: int = Field(20, ge=0, le=10_000)
    boss_win: int = Field(35, ge=0, le=10_000)
    challenge: int = Field(20, ge=0, le=10_000)
    challenges: list[Literal["ohne_heilung", "drei_kombos", "schnell"]] = Field(min_length=1)
    challenge_combos: int = Field(3, ge=1, le=8)
    challenge_turns: int = Field(4, ge=1, le=1000)
    useful_shield_needs_attack_intent: bool = True
    steal_returned_on_win: bool = False


class Poison(Strict):
    decay: int = Field(1, ge=0, le=1000)


class Score(Strict):
    per_room: float = Field(100, ge=0, le=1e6)
    per_lp: float = Field(5, ge=0, le=1e6)
    time_budget: float = Field(600, ge=0, le=1e6)
    win: float = Field(500, ge=0, le=1e6)


class Time(Strict):
    seconds_per_roll: float = Field(1.2, ge=0, le=1000)
    seconds_per_assignment: float = Field(0.8, ge=0, le=1000)
    turn_end_delay: float = Field(0.6, ge=0, le=1000)
    fast_animations: bool = False
    fast_turn_end_delay: float = Field(0.3, ge=0, le=1000)
    seconds_per_path_choice: float = Field(3.0, ge=0, le=1000)
    seconds_per_reward_choice: float = Field(4.0, ge=0, le=1000)
    seconds_per_fight_intro: float = Field(2.0, ge=0, le=1000)
    seconds_per_decision: float = Field(1.5, ge=0, le=1000, description="thinking time per hold or assignment")


class Loadout(Strict):
    upgrades: list[str] = Field(default_factory=list)
    altar: int = Field(0, ge=0, le=100)
    talents: list[str] = Field(default_factory=list)
    jokers: list[str] = Field(default_factory=list)


class Effects(Strict):
    """Effect fields an upgrade or talent carries (folded by ``rules.fold_mods``; ``rules.EFF_*``)."""

    attack_flat: float = 0
    shield_flat: float = 0
    heal_flat: float = 0
    pasch_attack_mul: float = Field(1.0, ge=0, le=100)
    crit_chance: float = Field(0, ge=0, le=1)
    extra_adjusts: int = Field(0, ge=0, le=10)
    shield_keep: int = Field(0, ge=0, le=10_000)
    poison: int = Field(0, ge=0, le=1000)
    berserker_mul: float = Field(1.0, ge=0, le=100)
    berserker_lp: float = Field(0, ge=0, le=1)
    glueckssieben: bool = False
    extra_dice: int = Field(0, ge=0, le=1)
    max_lp: int = Field(0, ge=0, le=10_000)

    def effects(self) -> list[float]:
        return [
            self.attack_flat, self.shield_flat, self.heal_flat, self.pasch_attack_mul, self.crit_chance,
            self.extra_adjusts, self.shield_keep, self.poison, self.berserker_mul, self.berserker_lp,
            float(self.glueckssieben), self.extra_dice, self.max_lp,
        ]


class Upgrade(Effects):
    rarity: Literal["haeufig", "selten", "episch"]
    unique: bool = False


class Talent(Effects):
    """A Lager talent: permanent between runs, so a run-start option (``loadout.talents``)."""

    coins: int = Field(0, ge=0, le=1_000_000, description="extra start coins")


class Joker(Strict):
    kind: Literal["set_die", "reroll", "heal"]
    amount: int = Field(1, ge=0, le=10_000, description="rerolls (reroll) or LP (heal); set_die ignores it")
    weight: float = Field(1.0, gt=0, le=1e6, description="draw weight among jokers")


class DiceBonus(Strict):
    rerolls: int = Field(1, ge=0, le=3, description="extra rerolls per turn")
    fights: int = Field(1, ge=1, le=100, description="for this many fights from the next one")


class Rewards(Strict):
    enabled: bool = True
    offers: int = Field(3, ge=1, le=MAX_OFFERS)
    rarity_weights: list[float] = Field(min_length=3, max_length=3, description="haeufig, selten, episch")
    item_chance: float = Field(0.25, ge=0, le=1, description="a slot from item_from_slot on is a joker/dice bonus")
    item_from_slot: int = Field(2, ge=1, le=MAX_OFFERS)
    joker_share: float = Field(0.5, ge=0, le=1, description="an item slot is a joker with this chance, else dice bonus")
    distinct: bool = True
    max_jokers: int = Field(3, ge=0, le=MAX_JOKERS)


class Market(Strict):
    enabled: bool = True
    after_rooms: list[int] = Field(default_factory=list)
    upgrades: int = Field(3, ge=0, le=MAX_STOCK - 2)
    prices: list[float] = Field(min_length=3, max_length=3, description="haeufig, selten, episch")
    joker_pack: float = Field(40, ge=0, le=1e6)
    joker_pack_size: int = Field(1, ge=1, le=MAX_JOKERS)
    dice_pack: float = Field(60, ge=0, le=1e6)


class Hero(Strict):
    enabled: bool = False
    factor: float = Field(2.0, ge=0, le=100, description="× one combo's value")
    per_fight: int = Field(1, ge=0, le=10)


class Mastery(Strict):
    """Kombomeisterschaft: +15 % on one chosen combo kind (attack, shield and heal)."""

    kind: str = Field("", description="'' (none) or a combo kind: pasch, drilling, …")
    factor: float = Field(1.15, ge=0, le=100)


class Analysis(Strict):
    """Thresholds of the per-upgrade flags in ``metrics``."""

    dominant_lift: float = Field(0.05, ge=0, le=1, description="lift CI lower bound above this: dominant")
    trap_lift: float = Field(0.0, ge=-1, le=1, description="lift CI upper bound below this …")
    trap_pick_rate: float = Field(0.2, ge=0, le=1, description="… while picked at least this often: trap")
    min_offers: int = Field(200, ge=1, le=10**9, description="offers needed before a flag is set")


class Intent(Strict):
    damage: float = Field(0.0, ge=0, le=100, description="per hit, × the enemy's base damage")
    hits: int = Field(1, ge=1, le=20)
    block: int = Field(0, ge=0, le=10_000)
    heal: int = Field(0, ge=0, le=10_000)
    weaken: int = Field(0, ge=0, le=100, description="player turns weakened")
    curse: int = Field(0, ge=0, le=6, description="random dice cursed next turn")
    steal: int = Field(0, ge=0, le=10_000)
    buff: int = Field(0, ge=0, le=1000, description="+damage per hit from now on")
    eat: int = Field(0, ge=0, le=5, description="dice fewer next turn")
    weight: float = Field(1.0, gt=0, le=1e6, description="draw weight in mode 'random'")


class Enemy(Strict):
    hp: float = Field(gt=0, le=1e6)
    damage: float = Field(ge=0, le=1e6)
    boss: bool = False
    mode: Literal["cycle", "random"] = "cycle"
    intents: list[Intent] = Field(min_length=1)


class DungeonConfig(GameConfig):
    name: str = "dungeon"
    start: Start = Start()
    turn: Turn = Turn()
    combat: Combat = Combat()
    combos: Combos
    difficulty: Difficulties
    scaling: Scaling = Scaling()
    rooms: Rooms = Rooms()
    sections: dict[str, Section]
    path: Path
    coins: Coins
    poison: Poison = Poison()
    score: Score = Score()
    time: Time = Time()
    loadout: Loadout = Loadout()
    upgrades: dict[str, Upgrade] = Field(default_factory=dict)
    talents: dict[str, Talent] = Field(default_factory=dict)
    jokers: dict[str, Joker] = Field(default_factory=dict)
    dice_bonus: DiceBonus = DiceBonus()
    rewards: Rewards
    market: Market
    hero: Hero = Hero()
    mastery: Mastery = Mastery()
    analysis: Analysis = Analysis()
    enemies: dict[str, Enemy]

    @model_validator(mode="after")
    def _links(self):
        for name in self.loadout.upgrades:
            if name not in self.upgrades:
                raise ValueError(f"loadout.upgrades names unknown upgrade {name!r}")
        for room, boss in self.rooms.bosses.items():
            if not room.isdigit() or not 1 <= int(room) <= self.rooms.count:
                raise ValueError(f"rooms.bosses: {room!r} is not a room number 1..{self.rooms.count}")
            if boss not in self.enemies:
                raise ValueError(f"rooms.bosses names unknown enemy {boss!r}")
        for r in range(1, self.rooms.count + 1):
            hits = [s for s, sec in self.sections.items() if sec.first_room <= r <= sec.last_room]
            if len(hits) != 1:
                raise ValueError(f"room {r} must lie in exactly one section (found {len(hits)})")
        for s, sec in self.sections.items():
            for e in sec.roster:
                if e not in self.enemies:
                    raise ValueError(f"sections.{s}.roster names unknown enemy {e!r}")
        for name in self.loadout.talents:
            if name not in self.talents:
                raise ValueError(f"loadout.talents names unknown talent {name!r}")
        for name in self.loadout.jokers:
            if name not in self.jokers:
                raise ValueError(f"loadout.jokers names unknown joker {name!r}")
        if len(self.loadout.jokers) > self.rewards.max_jokers:
            raise ValueError("loadout.jokers holds more than rewards.max_jokers")
        if self.mastery.kind and self.mastery.kind not in R.KINDS:
            raise ValueError(f"mastery.kind must be '' or one of {', '.join(R.KINDS)}, got {self.mastery.kind!r}")
        for r in self.market.after_rooms:
            if not 1 <= r <= self.rooms.count:
                raise ValueError(f"market.after_rooms: {r} is not a room number 1..{self.rooms.count}")
        if sum(self.rewards.rarity_weights) <= 0:
            raise ValueError("rewards.rarity_weights must not all be 0")
        if self.rewards.max_jokers > 0 and not self.jokers:
            raise ValueError("rewards.max_jokers > 0 needs at least one joker in [jokers]")
        if sum(self.path.events.weights) <= 0:
            raise ValueError("path.events.weights must not all be 0")
        return self


# --- frozen arrays ----------------------------------------------------------------------------
(RP_LP, RP_DICE, RP_COINS, RP_ROLLS, RP_ADJUSTS, RP_ADJ_STEP, RP_LC_COST, RP_LC_N, RP_MAX_TURNS, RP_DIFF_HP,
 RP_DIFF_DMG, RP_DIFF_BOSS, RP_POINTS, RP_BOSS_REROLLS, RP_HP_PER_ROOM, RP_HP_FACTOR, RP_GROWTH, RP_COMPOUND,
 RP_N_ROOMS, RP_ELITE_HP, RP_ELITE_ATT, RP_ELITE_COINS, RP_REST_HEAL, RP_REST_COINS, RP_REST_CHANCE, RP_ALTAR_LP,
 RP_ALTAR_ATT, RP_JH_COINS, RP_TRUHE_COINS, RP_TRUHE_DIE, RP_ACTION_BASE, RP_STEP_FLOOR, RP_CAP, RP_BOSS_CAP,
 RP_WIN, RP_BOSS_WIN, RP_CHALLENGE, RP_CH_COMBOS, RP_CH_TURNS, RP_SHIELD_NEEDS_ATT, RP_STEAL_RETURN,
 RP_POISON_DECAY, RP_SC_ROOM, RP_SC_LP, RP_SC_BUDGET, RP_SC_WIN, RP_T_ROLL, RP_T_ASSIGN, RP_T_TURN, RP_T_PATH,
 RP_T_REWARD, RP_T_INTRO, RP_START_ALTAR, RP_DIFFICULTY, RP_WEAK_MUL, RP_CRIT_MUL, RP_N_PROF) = range(57)
# progression (rewards, market, jokers, dice bonus, hero)
(RP_REWARDS_ON, RP_OFFERS, RP_ITEM_CHANCE, RP_ITEM_FROM, RP_JOKER_SHARE, RP_DISTINCT, RP_MAX_JOKERS, RP_MARKET_ON,
 RP_MK_UPGRADES, RP_JOKER_PACK, RP_JOKER_PACK_N, RP_DICE_PACK, RP_DB_REROLLS, RP_DB_FIGHTS, RP_HERO_ON,
 RP_HERO_FACTOR, RP_HERO_N, RP_N_UP, RP_N_JK, RP_TALENT_COINS) = range(57, 77)
# boss scaling, boss-room Rastplatz, thinking time
RP_BOSS_STAGE, RP_BOSS_REST_COINS, RP_T_DECIDE = range(77, 80)
RP_SIZE = 80

EN_HP, EN_DMG, EN_BOSS, EN_I0, EN_IN, EN_RANDOM = range(6)
EN_SIZE = 6
IN_DMG, IN_HITS, IN_BLOCK, IN_HEAL, IN_WEAKEN, IN_CURSE, IN_STEAL, IN_BUFF, IN_EAT, IN_WEIGHT = range(10)
IN_SIZE = 10
(RM_SECTION, RM_BOSS, RM_POOL0, RM_POOLN, RM_PATH, RM_CHALLENGE, RM_EBLOCK, RM_PSHIELD, RM_ATTBONUS,
 RM_MARKET) = range(10)
RM_SIZE = 10
JK_KIND, JK_AMOUNT, JK_WEIGHT = range(3)


class Frozen(NamedTuple):
    """Everything the kernels read (numpy arrays only)."""

    rp: np.ndarray  # float64 [RP_SIZE]
    steps: np.ndarray  # float64 coin steps
    ev_weights: np.ndarray  # float64 [3]
    cvals: np.ndarray  # float64 [n_prof, N_COMBO, 4]: att, shield, heal, coins
    part: np.ndarray  # int64 [n_prof, N_MS, 4]: n, combo ids
    pclass: np.ndarray  # int64 [n_prof, N_MS]: class of equal shown partitions (for memoised leaf values)
    mods: np.ndarray  # float64 [N_EFF]: the start loadout folded
    up_eff: np.ndarray  # float64 [n_up + n_talents, N_EFF]: upgrades, then talents
    loadout: np.ndarray  # int64 [n_up + n_talents]: owned at the start
    base2: np.ndarray  # int64 [2, N_COMBO, 4]: base att, shield, heal (Kombomeisterschaft folded) and coin pip
    #                    sum, without / with Glückssieben
    up_rarity: np.ndarray  # int64 [n_up]
    up_unique: np.ndarray  # int64 [n_up]
    rarity_w: np.ndarray  # float64 [3]
    prices: np.ndarray  # float64 [3]
    jk: np.ndarray  # float64 [n_jk, 3]: kind, amount, weight
    start_jokers: np.ndarray  # int64 joker ids held at the start
    cstart: np.ndarray  # partition candidates (rules.partition_candidates) for in-kernel table builds
    cn: np.ndarray
    cand: np.ndarray
    coin_bonus: np.ndarray  # float64 [N_KIND]
    en: np.ndarray  # float64 [n_en, EN_SIZE]
    intents: np.ndarray  # float64 [n_int, IN_SIZE]
    rooms: np.ndarray  # int64 [n_rooms, RM_SIZE]
    pool: np.ndarray  # int64 enemy ids of the room pools


def coef_array(cfg: DungeonConfig) -> np.ndarray:
    """``coef[kind, role, 0..2]`` = (× W or × a, × b, + flat) for attack, shield, heal."""
    coef = np.zeros((R.N_KIND, 3, 3))
    for k, name in enumerate(R.KINDS):
        ck = getattr(cfg.combos, name)
        for r, role in enumerate(("attack", "shield", "heal")):
            v = getattr(ck, role)
            coef[k, r] = v if len(v) == 3 else (v[0], 0.0, v[1])
    return coef


def coin_bonus(cfg: DungeonConfig) -> np.ndarray:
    return np.array([getattr(cfg.combos, n).coin_bonus for n in R.KINDS], np.float64)


def base_values(cfg: DungeonConfig, lucky: bool) -> np.ndarray:
    """Base (att, shield, heal) of every catalog combo, int64 [N_COMBO, 3] (Kombomeisterschaft folded in)."""
    out = np.zeros((R.N_COMBO, 3), np.int64)
    R.combo_values(coef_array(cfg), cfg.combos.shield_factor, lucky, cfg.combos.glueckssieben_face,
                   R.C_KIND, R.C_FA, R.C_FB, out)
    if cfg.mastery.kind:
        k = R.KINDS.index(cfg.mastery.kind)
        rows = R.C_KIND == k
        out[rows] = np.floor(out[rows] * cfg.mastery.factor + 0.5).astype(np.int64)
    return out


def pip_sums(cfg: DungeonConfig, lucky: bool) -> np.ndarray:
    """Pip sum of every catalog combo for its coins, int64 [N_COMBO]; with ``lucky`` (Glückssieben) and
    ``combos.glueckssieben_coins`` a 1 counts as ``glueckssieben_face``."""
    one = cfg.combos.glueckssieben_face if lucky and cfg.combos.glueckssieben_coins else 1
    return (R.C_COUNTS @ np.array([one, 2, 3, 4, 5, 6])).astype(np.int64)


def base_table(cfg: DungeonConfig, lucky: bool) -> np.ndarray:
    """``base_values`` with the coin pip sums as a fourth column: one row of ``Frozen.base2``."""
    return np.column_stack([base_values(cfg, lucky), pip_sums(cfg, lucky)])


def upgrade_names(cfg: DungeonConfig) -> list[str]:
    return list(cfg.upgrades)


def fold_loadout(cfg: DungeonConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(effect matrix, owned counts, folded modifier vector) of the start loadout; rows: upgrades, then talents."""
    names = upgrade_names(cfg)
    tal = list(cfg.talents)
    rows = [cfg.upgrades[n].effects() for n in names] + [cfg.talents[n].effects() for n in tal]
    eff = np.array(rows, np.float64).reshape(len(rows), R.N_EFF)
    owned = np.zeros(len(rows), np.int64)
    for n in cfg.loadout.upgrades:
        owned[names.index(n)] += 1
    for n in cfg.loadout.talents:
        owned[len(names) + tal.index(n)] = 1
    mods = np.zeros(R.N_EFF)
    R.fold_mods(eff, owned, mods)
    return eff, owned, mods


def profile_tables(cfg: DungeonConfig, mods: np.ndarray, altars: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Combo values and shown partitions for each Opferaltar level in ``altars``."""
    base = base_table(cfg, bool(mods[R.EFF_LUCKY] > 0))
    cstart, cn, cand = R.partition_candidates()
    cvals = np.zeros((len(altars), R.N_COMBO, 4))
    part = np.zeros((len(altars), R.N_MS, 4), np.int64)
    cb = coin_bonus(cfg)
    for i, a in enumerate(altars):
        R.effective_values(base, R.C_KIND, mods, float(a), float(cfg.coins.action_base), cb, cvals[i])
        R.best_partitions(cstart, cn, cand, cvals[i, :, 0].copy(), cvals[i, :, 1].copy(), cvals[i, :, 2].copy(),
                          cvals[i, :, 3].copy(), part[i])
    return cvals, part


def partition_classes(part: np.ndarray) -> np.ndarray:
    """``pclass[p, k]``: multisets with the same shown partition share a class id."""
    out = np.zeros(part.shape[:2], np.int64)
    for p in range(part.shape[0]):
        out[p] = np.unique(part[p], axis=0, return_inverse=True)[1].ravel()
    return out


def check_difficulty(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise ConfigError(f"invalid difficulty {difficulty!r} (choose from {', '.join(DIFFICULTIES)})")


def path_rooms(cfg: DungeonConfig) -> list[int]:
    """Rooms preceded by a path choice: every room ("Vor jedem Raum liegen drei Karten"), or with
    ``path.boss_rooms`` false (an older reading) every room that is not a boss room."""
    return [r for r in range(1, cfg.rooms.count + 1) if cfg.path.boss_rooms or str(r) not in cfg.rooms.bosses]


def freeze(cfg: DungeonConfig, difficulty: str = "leicht") -> Frozen:
    """The rule numbers at ``difficulty`` as the arrays the kernels read."""
    check_difficulty(difficulty)
    d: Difficulty = getattr(cfg.difficulty, difficulty)
    rp = np.zeros(RP_SIZE)
    rp[RP_LP] = cfg.start.lp
    rp[RP_DICE] = cfg.start.dice
    rp[RP_COINS] = cfg.start.coins
    rp[RP_ROLLS] = cfg.turn.rolls
    rp[RP_ADJUSTS] = cfg.turn.adjusts
    rp[RP_ADJ_STEP] = cfg.turn.adjust_step
    rp[RP_LC_COST] = cfg.turn.last_chance_cost
    rp[RP_LC_N] = cfg.turn.last_chance_per_fight
    rp[RP_MAX_TURNS] = cfg.turn.max_turns
    rp[RP_DIFF_HP] = d.hp
    rp[RP_DIFF_DMG] = d.damage
    rp[RP_DIFF_BOSS] = d.boss
    rp[RP_POINTS] = d.points
    rp[RP_BOSS_REROLLS] = d.boss_rerolls
    rp[RP_HP_PER_ROOM] = cfg.scaling.hp_per_room
    rp[RP_HP_FACTOR] = cfg.scaling.hp_factor
    rp[RP_GROWTH] = cfg.scaling.damage_growth
    rp[RP_COMPOUND] = float(cfg.scaling.damage_growth_compound)
    rp[RP_N_ROOMS] = cfg.rooms.count
    rp[RP_ELITE_HP] = cfg.path.elite_hp
    rp[RP_ELITE_ATT] = cfg.path.elite_attack
    rp[RP_ELITE_COINS] = cfg.path.elite_coins
    rp[RP_REST_HEAL] = cfg.path.rest_heal
    rp[RP_REST_COINS] = cfg.path.rest_win_coins
    rp[RP_REST_CHANCE] = cfg.path.rest_chance
    ev = cfg.path.events
    rp[RP_ALTAR_LP] = ev.altar_lp
    rp[RP_ALTAR_ATT] = ev.altar_attack
    rp[RP_JH_COINS] = ev.joker_haendler_coins
    rp[RP_TRUHE_COINS] = ev.truhe_coins
    rp[RP_TRUHE_DIE] = ev.truhe_cursed_die
    c = cfg.coins
    rp[RP_ACTION_BASE] = c.action_base
    rp[RP_STEP_FLOOR] = float(c.step_rounding == "floor")
    rp[RP_CAP] = c.fight_cap
    rp[RP_BOSS_CAP] = c.boss_fight_cap
    rp[RP_WIN] = c.win
    rp[RP_BOSS_WIN] = c.boss_win
    rp[RP_CHALLENGE] = c.challenge
    rp[RP_CH_COMBOS] = c.challenge_combos
    rp[RP_CH_TURNS] = c.challenge_turns
    rp[RP_SHIELD_NEEDS_ATT] = float(c.useful_shield_needs_attack_intent)
    rp[RP_STEAL_RETURN] = float(c.steal_returned_on_win)
    rp[RP_POISON_DECAY] = cfg.poison.decay
    s = cfg.score
    rp[RP_SC_ROOM] = s.per_room
    rp[RP_SC_LP] = s.per_lp
    rp[RP_SC_BUDGET] = s.time_budget
    rp[RP_SC_WIN] = s.win
    t = cfg.time
    rp[RP_T_ROLL] = t.seconds_per_roll
    rp[RP_T_ASSIGN] = t.seconds_per_assignment
    rp[RP_T_TURN] = t.fast_turn_end_delay if t.fast_animations else t.turn_end_delay
    rp[RP_T_PATH] = t.seconds_per_path_choice
    rp[RP_T_REWARD] = t.seconds_per_reward_choice
    rp[RP_T_INTRO] = t.seconds_per_fight_intro
    rp[RP_START_ALTAR] = cfg.loadout.altar
    rp[RP_DIFFICULTY] = DIFFICULTIES.index(difficulty)
    rp[RP_WEAK_MUL] = cfg.combat.weak_mul
    rp[RP_CRIT_MUL] = cfg.combat.crit_mul
    rw, mk = cfg.rewards, cfg.market
    rp[RP_REWARDS_ON] = float(rw.enabled)
    rp[RP_OFFERS] = rw.offers
    rp[RP_ITEM_CHANCE] = rw.item_chance
    rp[RP_ITEM_FROM] = rw.item_from_slot
    rp[RP_JOKER_SHARE] = rw.joker_share if cfg.jokers else 0.0
    rp[RP_DISTINCT] = float(rw.distinct)
    rp[RP_MAX_JOKERS] = rw.max_jokers
    rp[RP_MARKET_ON] = float(mk.enabled)
    rp[RP_MK_UPGRADES] = mk.upgrades
    rp[RP_JOKER_PACK] = mk.joker_pack if cfg.jokers and rw.max_jokers > 0 else -1.0
    rp[RP_JOKER_PACK_N] = mk.joker_pack_size
    rp[RP_DICE_PACK] = mk.dice_pack
    rp[RP_DB_REROLLS] = cfg.dice_bonus.rerolls
    rp[RP_DB_FIGHTS] = cfg.dice_bonus.fights
    rp[RP_HERO_ON] = float(cfg.hero.enabled)
    rp[RP_HERO_FACTOR] = cfg.hero.factor
    rp[RP_HERO_N] = cfg.hero.per_fight
    rp[RP_N_UP] = len(cfg.upgrades)
    rp[RP_N_JK] = len(cfg.jokers)
    rp[RP_TALENT_COINS] = sum(cfg.talents[n].coins for n in cfg.loadout.talents)
    rp[RP_BOSS_STAGE] = float(cfg.scaling.boss_damage == "stage")
    rp[RP_BOSS_REST_COINS] = cfg.path.boss_rest_win_coins
    rp[RP_T_DECIDE] = t.seconds_per_decision

    enemy_names = list(cfg.enemies)
    en = np.zeros((len(enemy_names), EN_SIZE))
    intents = []
    for i, name in enumerate(enemy_names):
        e = cfg.enemies[name]
        en[i] = (e.hp, e.damage, float(e.boss), len(intents), len(e.intents), float(e.mode == "random"))
        for it in e.intents:
            intents.append((it.damage, it.hits, it.block, it.heal, it.weaken, it.curse, it.steal, it.buff, it.eat,
                            it.weight))
    rooms = np.zeros((cfg.rooms.count, RM_SIZE), np.int64)
    pool: list[int] = []
    sec_names = list(cfg.sections)
    for r in range(1, cfg.rooms.count + 1):
        si = next(i for i, sn in enumerate(sec_names) if cfg.sections[sn].first_room <= r <= cfg.sections[sn].last_room)
        sec = cfg.sections[sec_names[si]]
        boss = cfg.rooms.bosses.get(str(r))
        row = rooms[r - 1]
        row[RM_SECTION] = si
        row[RM_BOSS] = enemy_names.index(boss) if boss else -1
        row[RM_POOL0] = len(pool)
        if boss is None:
            pool.extend(enemy_names.index(n) for n in sec.roster)
        row[RM_POOLN] = len(pool) - row[RM_POOL0]
        row[RM_PATH] = int(boss is None or cfg.path.boss_rooms)
        row[RM_CHALLENGE] = CHALLENGES.index(c.challenges[(r - 1) % len(c.challenges)])
        row[RM_EBLOCK] = sec.enemy_block
        row[RM_PSHIELD] = sec.player_shield
        row[RM_ATTBONUS] = sec.attack_bonus
        row[RM_MARKET] = int(r in cfg.market.after_rooms and r < cfg.rooms.count)

    eff, owned, mods = fold_loadout(cfg)
    n_prof = cfg.loadout.altar + len(path_rooms(cfg)) + 1
    rp[RP_N_PROF] = n_prof
    cvals, part = profile_tables(cfg, mods, list(range(n_prof)))
    jnames = list(cfg.jokers)
    jk = np.array([(JOKER_KINDS.index(j.kind), j.amount, j.weight) for j in cfg.jokers.values()], np.float64)
    cstart, cn, cand = R.partition_candidates()
    return Frozen(
        rp=rp,
        steps=np.array(c.steps, np.float64),
        ev_weights=np.array(ev.weights, np.float64),
        cvals=cvals,
        part=part,
        pclass=partition_classes(part),
        mods=mods,
        up_eff=eff,
        loadout=owned,
        en=en,
        intents=np.array(intents, np.float64).reshape(len(intents), IN_SIZE),
        rooms=rooms,
        pool=np.array(pool, np.int64),
        base2=np.stack([base_table(cfg, False), base_table(cfg, True)]),
        up_rarity=np.array([RARITIES.index(u.rarity) for u in cfg.upgrades.values()], np.int64),
        up_unique=np.array([int(u.unique) for u in cfg.upgrades.values()], np.int64),
        rarity_w=np.array(rw.rarity_weights, np.float64),
        prices=np.array(mk.prices, np.float64),
        jk=jk.reshape(len(jnames), 3),
        start_jokers=np.array([jnames.index(j) for j in cfg.loadout.jokers], np.int64),
        cstart=cstart,
        cn=cn,
        cand=cand,
        coin_bonus=coin_bonus(cfg),
    )
