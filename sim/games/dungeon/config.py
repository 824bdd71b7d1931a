"""Würfel Dungeon's config model: every rule number, and the fitted policy weights (``[policies]``).

The pydantic sections below validate the TOML and are the one declaration of the rule numbers: ``RULES``
generates from them the record ``rp`` the kernels read by config path (``rp.path_elite_attack``), with the
derived numbers declared beside it. ``freeze`` (module ``freeze``) turns a model into the arrays the kernels read;
it and the layouts (``layout``, ``rows``) are re-exported here because most callers reach the game's numbers
through this module.
"""

from __future__ import annotations

import itertools
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, model_validator

from sim.core.config import GameConfig, NonNegative, Prices, Strict, Weights
from sim.core.record import Derived, RuleRecord
from sim.core.skill import SKILL_RECORD, Skill
from sim.games.dungeon.labels import DIFFICULTY_WORDS, FACTOR_WORDS
from sim.games.dungeon.layout import *  # noqa: F403 - the index names, re-exported
from sim.games.dungeon.layout import DIFFICULTIES, KINDS, MAX_DICE, MAX_JOKERS, MAX_OFFERS, MAX_STOCK, RARITIES
from sim.games.dungeon.rows import Effects, Intent


class Start(Strict):
    lp: int = Field(50, ge=1, le=10_000)
    dice: int = Field(5, ge=1, le=MAX_DICE)
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


ComboNumber = Annotated[float, Field(ge=0, le=10_000)]
"""A combo's multiplier or flat amount: a negative one would heal the enemy or hurt the player."""


class ComboKind(Strict):
    tier: int = Field(ge=1, le=10)
    attack: list[ComboNumber] = Field(min_length=2, max_length=2, description="[× W, + flat]")
    shield: list[ComboNumber] = Field(min_length=2, max_length=2)
    heal: list[ComboNumber] = Field(min_length=2, max_length=2)
    coin_bonus: int = Field(ge=0, le=10_000)


class FullHouse(Strict):
    tier: int = Field(ge=1, le=10)
    attack: list[ComboNumber] = Field(min_length=3, max_length=3, description="[× a (pair), × b (triple), + flat]")
    shield: list[ComboNumber] = Field(min_length=3, max_length=3)
    heal: list[ComboNumber] = Field(min_length=3, max_length=3)
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
    boss_rerolls: int = Field(-1, ge=-1, le=10, description="-1: no cap; else the player's rerolls against a "
                              "boss (no extra rolls: no Letzte Chance, extra-reroll joker or dice bonus)")


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
    weights: Weights = Field(min_length=3, max_length=3, description="opferaltar, joker_haendler, verfluchte_truhe")
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
    steps: list[NonNegative] = Field(min_length=1, max_length=20)
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


class Challenges(Strict):
    """Readings of the room challenges (``coins.challenges`` lists them)."""

    joker_heal_counts: bool = Field(True, description="a heal joker drunk in the fight counts as healing for "
                                                      "'ohne Heilung' (the literal reading); false: only heal combos")


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
    rarity_weights: Weights = Field(min_length=3, max_length=3, description="haeufig, selten, episch")
    item_chance: float = Field(0.25, ge=0, le=1, description="a slot from item_from_slot on is a joker/dice bonus")
    item_from_slot: int = Field(2, ge=1, le=MAX_OFFERS)
    joker_share: float = Field(0.5, ge=0, le=1, description="an item slot is a joker with this chance, else dice bonus")
    distinct: bool = True
    max_jokers: int = Field(3, ge=0, le=MAX_JOKERS)


class Market(Strict):
    enabled: bool = True
    after_rooms: list[int] = Field(default_factory=list,
                                   description="rooms after which the market opens, each once (before the last room)")
    upgrades: int = Field(3, ge=0, le=MAX_STOCK - 2)
    prices: Prices = Field(min_length=3, max_length=3, description="haeufig, selten, episch")
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


class Enemy(Strict):
    hp: float = Field(gt=0, le=1e6)
    damage: float = Field(ge=0, le=1e6)
    boss: bool = False
    mode: Literal["cycle", "random"] = "cycle"
    intents: list[Intent] = Field(min_length=1)



class VorschlagWeights(Strict):
    """The Vorschlag offer rating and the thresholds of its joker and hero decisions (``policies.dungeon.run``,
    ``policies.dungeon.turn``). Fitted, not from the seed: the upgrade weights were fitted to each upgrade's
    measured win-rate lift (``sim.games.dungeon.upgrade_lift``, Spearman rank agreement 0.89 at fit time); the
    rest are assumed. Expectimax shares the non-attack terms and the joker/hero thresholds."""

    att_combos: float = Field(1.15, ge=0, le=1e3, description="per flat attack: attack combos per turn")
    shield: float = Field(1.25, ge=0, le=1e3, description="per point of shield per shield combo")
    heal: float = Field(0.95, ge=0, le=1e3, description="per point of heal per heal combo (and max LP's heal)")
    poison: float = Field(1.6, ge=0, le=1e3, description="per point of poison per attack combo")
    pasch: float = Field(6.0, ge=0, le=1e3, description="per x step of Pasch attack")
    e_att: float = Field(22.0, ge=0, le=1e4, description="expected attack of a turn (crit, Berserker terms)")
    crit: float = Field(0.8, ge=0, le=1e3, description="share of the crit's expected extra attack that counts")
    berserk: float = Field(1.6, ge=0, le=1e3, description="Berserker: boost x LP threshold share x turn attack x this")
    adjust: float = Field(2.9, ge=0, le=1e3, description="per extra adjust per fight")
    keep: float = Field(0.11, ge=0, le=1e3, description="per point of shield kept between turns")
    lucky: float = Field(5.0, ge=0, le=1e3, description="Glückssieben")
    dice: float = Field(11.0, ge=0, le=1e3, description="per extra die")
    maxlp: float = Field(0.15, ge=0, le=1e3, description="per max LP (plus its heal weighted by the missing share)")
    joker_set: float = Field(5.0, ge=0, le=1e3, description="a set-a-die joker")
    joker_reroll: float = Field(4.0, ge=0, le=1e3, description="an extra-reroll joker")
    joker_heal: float = Field(0.45, ge=0, le=1e3, description="a heal joker, per LP (x 0.5 + missing share)")
    dice_bonus: float = Field(1.5, ge=0, le=1e3, description="the dice bonus, per extra reroll per turn")
    per_coin: float = Field(0.035, ge=0, le=1e3, description="market: least rating per coin worth buying")
    reserve: float = Field(20.0, ge=0, le=1e6, description="market: coins kept after a buy (a last chance)")
    joker_heal_share: float = Field(0.3, ge=0, le=1, description="heal joker: drink at or below this LP share")
    joker_set_gain: float = Field(10.0, ge=0, le=1e4, description="set-a-die joker: least shown-attack gain")
    hero_gain: float = Field(18.0, ge=0, le=1e4, description="hero ability: least rating gain")


class Rollout(Strict):
    """The ``rollout`` policy (``sim.games.dungeon.rollout``): at each run-level decision it plays ``k``
    continuations per option with ``base`` and takes the option that wins most (ties: score)."""

    base: Literal["vorschlag", "greedy", "expectimax", "random"] = Field(
        "vorschlag", description="the policy that plays the continuations and every in-fight decision (not rollout)")
    k: int = Field(16, ge=1, le=4096, description="continuations per option (the same k futures for every option)")


class Policies(Strict):
    """Policy parameters, frozen into the kernel's rule parameters (``rp``) so sweeps and ``--set`` reach them."""

    vorschlag: VorschlagWeights = VorschlagWeights()


PATH_KINDS = ("kampf", "elite", "rastplatz", "geheimnis")  # the path cards, as ``table.PATH_KINDS``
PROGRESSION = ("rewards", "upgrades_gained", "jokers_gained", "jokers_used", "jokers_set", "jokers_reroll",
               "jokers_heal", "jokers_sold", "dice_bonuses", "hero_uses", "crits", "poison_damage", "market_spent",
               "market_buys")
UPGRADE_STATS = ("offer_rate", "offers", "pick_rate", "buy_rate", "win_rate_picked", "win_rate_not_picked", "win_lift",
                 "dominant", "trap")  # ``upgrade_stats.upgrade_stats``' numbers per upgrade


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
    challenges: Challenges = Challenges()
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
    policies: Policies = Policies()
    skill: Skill = Skill()
    rollout: Rollout = Rollout()
    enemies: dict[str, Enemy]

    def metric_names(self, options: dict[str, Any], seats: list[str]) -> list[str]:
        """By room (``rooms.count``), combo kind, path card, market room (``market.after_rooms``) and
        upgrade (``[upgrades]``): the per-run table's own groups (``table.columns``)."""
        rooms = range(1, self.rooms.count + 1)
        names = ["win_rate", "mean_rooms_cleared", "mean_score", "score_p10", "score_p50", "score_p90",
                 *(f"mean_{m}" for m in ("turns_per_fight", "coins", "final_lp", "seconds", "last_chances", "adjusts",
                                         "challenges", "coins_stolen"))]
        names += [f"{m}_room_{r}" for m in ("death", "survival") for r in rooms]
        names += [f"{col}_{r}_{q}" for col in ("lp_room", "coins_room") for r in rooms for q in ("p10", "p50", "p90")]
        names += [f"combos_{k}" for k in KINDS] + [f"path_{p}" for p in PATH_KINDS]
        names += [f"mean_{c}" for c in PROGRESSION]
        names += [f"coins_spent_market_{r}" for r in sorted(self.market.after_rooms)]
        return names + [f"upgrade_{u}_{k}" for u in self.upgrades for k in UPGRADE_STATS]

    def notes(self) -> list[str]:
        """A level whose factor lies below the easier level's: the seed's table grows each factor (enemy LP, damage,
        boss, score) from Leicht to Normal to Schwer, so a calibration that moved one there flips the order."""
        out = []
        for f, said in FACTOR_WORDS.items():
            levels = [(DIFFICULTY_WORDS[k], k, getattr(getattr(self.difficulty, k), f)) for k in DIFFICULTY_WORDS]
            for (easy, _, a), (hard, code, b) in itertools.pairwise(levels):
                if b < a:
                    out.append(f"{hard}'s {said} {b:.4g} (difficulty.{code}.{f}) lies below {easy}'s {a:.4g}: the "
                               "seed's table raises it from Leicht to Normal to Schwer")
        return out

    def too_many_dice(self, upgrades: list[str] | tuple[str, ...] = ()) -> str | None:
        """What is wrong when a run would start with more than ``MAX_DICE`` dice: start.dice plus the extra dice of
        the loadout and of ``upgrades`` (a policy's ``@`` upgrades); ``None`` when it fits. The kernel's hand holds
        six, so a seventh die would be dropped without a word."""
        owned = [*self.loadout.upgrades, *upgrades]
        extra = [self.upgrades[u] for u in owned if u in self.upgrades] + [
            self.talents[t] for t in self.loadout.talents if t in self.talents]
        dice = self.start.dice + sum(e.extra_dice for e in extra)
        return None if dice <= MAX_DICE else (f"start.dice {self.start.dice} and the extra dice of the start "
                                              f"loadout make {dice}: a hand holds at most {MAX_DICE} dice")

    @model_validator(mode="after")
    def _links(self):
        for name in self.loadout.upgrades:
            if name not in self.upgrades:
                raise ValueError(f"loadout.upgrades names unknown upgrade {name!r} (see [upgrades])")
            if self.upgrades[name].unique and self.loadout.upgrades.count(name) > 1:
                raise ValueError(f"loadout.upgrades names the unique upgrade {name!r} "
                                 f"{self.loadout.upgrades.count(name)} times: a hero owns it once")
        for room, boss in self.rooms.bosses.items():
            # the room as the game looks it up (str(r)): "05" or a non-ASCII digit passed isdigit() and left room 5
            # without its boss
            if room not in {str(r) for r in range(1, self.rooms.count + 1)}:
                beyond = room.isascii() and room.isdigit() and not room.startswith("0")  # rooms.count cut it off
                raise ValueError(f"rooms.bosses names room {room}, beyond rooms.count = {self.rooms.count}: give "
                                 f"the bosses rooms 1..{self.rooms.count}" if beyond else
                                 f"rooms.bosses: {room!r} is not a room number 1..{self.rooms.count}")
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
            if self.loadout.talents.count(name) > 1:
                raise ValueError(f"loadout.talents names the talent {name!r} twice: a talent is learnt once")
        for name in self.loadout.jokers:
            if name not in self.jokers:
                raise ValueError(f"loadout.jokers names unknown joker {name!r}")
        if said := self.too_many_dice():
            raise ValueError(said)
        if len(self.loadout.jokers) > self.rewards.max_jokers:
            raise ValueError(f"loadout.jokers holds {len(self.loadout.jokers)} jokers, more than rewards.max_jokers "
                             f"= {self.rewards.max_jokers}")
        if self.mastery.kind and self.mastery.kind not in KINDS:
            raise ValueError(f"mastery.kind: {self.mastery.kind!r} is not '' or a combo kind ({', '.join(KINDS)})")
        if len(set(self.market.after_rooms)) != len(self.market.after_rooms):
            raise ValueError(f"market.after_rooms names a room twice: {self.market.after_rooms}")
        for r in self.market.after_rooms:  # after the last room the run is over: that market would never open
            if not 1 <= r < self.rooms.count:
                last = "the last room: the run ends there" if r == self.rooms.count else "not a room number"
                raise ValueError(f"market.after_rooms: {r} is {last} (a market opens after rooms "
                                 f"1..{self.rooms.count - 1})")
        held = {u.rarity for u in self.upgrades.values()}  # an offer draws a rarity by weight among those held
        rw = self.rewards
        items = rw.item_chance > 0 and rw.item_from_slot <= rw.offers  # a slot may hold a joker or a dice bonus
        if rw.enabled and self.upgrades and not items and not any(
                w > 0 and r in held for r, w in zip(RARITIES, rw.rarity_weights, strict=True)):
            weighted = ", ".join(r for r, w in zip(RARITIES, self.rewards.rarity_weights, strict=True) if w > 0)
            raise ValueError(f"rewards.rarity_weights weigh only rarities no upgrade has ({weighted or 'none'}) and no "
                             "slot holds an item (rewards.item_chance): no reward would ever be offered; weigh one the "
                             "upgrades have, or set rewards.enabled=false")
        if self.rewards.max_jokers > 0 and not self.jokers:
            raise ValueError("rewards.max_jokers > 0 needs at least one joker in [jokers]")
        lucky = {e.in_straights for e in (*self.upgrades.values(), *self.talents.values()) if e.glueckssieben}
        if len(lucky) > 1:
            raise ValueError("the upgrades and talents with glueckssieben must agree on in_straights")
        return self


def path_rooms(cfg: DungeonConfig) -> list[int]:
    """Rooms preceded by a path choice: every room ("Vor jedem Raum liegen drei Karten"), or with
    ``path.boss_rooms`` false (an older reading) every room that is not a boss room."""
    return [r for r in range(1, cfg.rooms.count + 1) if cfg.path.boss_rooms or str(r) not in cfg.rooms.bosses]


def _at_difficulty(key: str) -> Derived:
    """``difficulty.<played>.<key>``: the difficulty's number of the run (freeze's context ``difficulty``)."""
    return lambda cfg, difficulty: getattr(getattr(cfg.difficulty, difficulty), key)


def _config_only(f: Derived) -> Derived:
    """A derived number of the config alone, taking (and ignoring) freeze's context."""
    return lambda cfg, **_: f(cfg)


_DERIVED: dict[str, Derived] = {
    # the played difficulty's numbers (``rp.difficulty_hp`` …, one per field of ``Difficulty``) and its code
    **{f"difficulty_{key}": _at_difficulty(key) for key in Difficulty.model_fields},
    "difficulty": lambda cfg, difficulty: DIFFICULTIES.index(difficulty),
    **{name: _config_only(f) for name, f in {
        # the turn-end delay played: the fast one with fast animations
        "time_turn_end": lambda cfg: cfg.time.fast_turn_end_delay if cfg.time.fast_animations
        else cfg.time.turn_end_delay,
        # an item slot's joker share (none without jokers) and the joker pack's price (-1: none on sale)
        "joker_slot_share": lambda cfg: cfg.rewards.joker_share if cfg.jokers else 0.0,
        "joker_pack_price": lambda cfg: cfg.market.joker_pack if cfg.jokers and cfg.rewards.max_jokers > 0 else -1.0,
        "n_up": lambda cfg: len(cfg.upgrades),  # the upgrade catalog's size (rows of ``Frozen.up_eff`` before talents)
        "n_jk": lambda cfg: len(cfg.jokers),
        "talent_coins": lambda cfg: sum(cfg.talents[n].coins for n in cfg.loadout.talents),
        # modifier profiles: one per Opferaltar level a run can reach (start altar + one per path choice + none)
        "n_prof": lambda cfg: cfg.loadout.altar + len(path_rooms(cfg)) + 1,
        **SKILL_RECORD,  # the levels in parts per million (``rp.skill_level_ppm``)
    }.items()},
}
RULES = RuleRecord(DungeonConfig, skip=("difficulty", "skill", "analysis"), dtype=np.float64, derived=_DERIVED)
"""The rule record ``rp``: every scalar of the model by config path (``rp.path_elite_attack``; a bool as 0/1, a
choice as its code, ``rp.rollout_base`` a policy id), then the derived numbers above; float64 like the kernels'
arithmetic. ``[difficulty]`` is read at the played difficulty (``rp.difficulty_hp``), ``[skill]`` as the levels
in parts per million; ``[analysis]`` holds the report's thresholds, no rule."""



__all__ = ["RULES", "DungeonConfig", "Effects", "Intent", "Policies", "Rollout", "VorschlagWeights", "path_rooms"]
