"""Würfel Dungeon's config frozen into the numpy arrays the kernels read (``freeze(cfg, difficulty)``).

``freeze`` resolves the difficulty and turns the model into the arrays of ``Frozen``; the kernel reads scalars
from ``rp`` at the ``RP_*`` indices of ``layout`` (or as the record ``rp.view(layout.RP_DTYPE)[0]``), enemies
from ``en``/``intents`` (``EN_*``, ``IN_*``), rooms from ``rooms`` (``RM_*``), upgrades from ``up_eff`` (rows of
``rules.EFF_*`` effects) and the start loadout ``loadout``. Per modifier *profile* (the Opferaltar level
``0..n_prof-1`` on top of the start loadout) it precomputes the combo values ``cvals`` and the shown partition
``part`` of every dice multiset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from policies.skill import SK_OPPONENTS, SK_PLAYER
from sim.core.config import ConfigError
from sim.core.skill import freeze_skill
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R

if TYPE_CHECKING:
    from sim.games.dungeon.config import Difficulty, DungeonConfig


class Frozen(NamedTuple):
    """Everything the kernels read (numpy arrays only)."""

    rp: np.ndarray  # float64 [C.RP_SIZE]
    steps: np.ndarray  # float64 coin steps
    ev_weights: np.ndarray  # float64 [3]
    cvals: np.ndarray  # float64 [n_prof, N_COMBO, 4]: att, shield, heal, coins
    part: np.ndarray  # int64 [n_prof, N_MS, 4]: n, combo ids
    pclass: np.ndarray  # int64 [n_prof, N_MS]: class of equal shown partitions (for memoised leaf values)
    mods: np.ndarray  # float64 [N_EFF]: the start loadout folded
    up_eff: np.ndarray  # float64 [n_up + n_talents, N_EFF]: upgrades, then talents
    loadout: np.ndarray  # int64 [n_up + n_talents]: owned at the start
    base2: np.ndarray  # int64 [2, N_COMBO, 5]: base att, shield, heal (Kombomeisterschaft folded), coin pip
    #                    sum and whether the row is a combo, without / with Glückssieben
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
    en: np.ndarray  # float64 [n_en, C.EN_SIZE]
    intents: np.ndarray  # float64 [n_int, C.IN_SIZE]
    rooms: np.ndarray  # int64 [n_rooms, C.RM_SIZE]
    pool: np.ndarray  # int64 enemy ids of the room pools
    rpr: np.ndarray  # ``rp`` seen as one record (``layout.RP_DTYPE``): the kernel reads ``rpr[0].n_rooms``


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


def glueckssieben_in_straights(cfg: DungeonConfig) -> bool:
    """Whether Glückssieben's 1 counts as 7 in straights too (``upgrades.<name>.in_straights`` of the upgrades and
    talents that carry ``glueckssieben``; the config model makes them agree)."""
    return all(e.in_straights for e in (*cfg.upgrades.values(), *cfg.talents.values()) if e.glueckssieben)


def base_table(cfg: DungeonConfig, lucky: bool) -> np.ndarray:
    """``base_values`` with the coin pip sums and whether the row is a combo (``rules.combo_valid``) as the fourth
    and fifth columns: one row of ``Frozen.base2``."""
    valid = R.combo_valid(lucky, glueckssieben_in_straights(cfg)).astype(np.int64)
    return np.column_stack([base_values(cfg, lucky), pip_sums(cfg, lucky), valid])


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
    if difficulty not in C.DIFFICULTIES:
        raise ConfigError(f"invalid difficulty {difficulty!r} (choose from {', '.join(C.DIFFICULTIES)})")


def path_rooms(cfg: DungeonConfig) -> list[int]:
    """Rooms preceded by a path choice: every room ("Vor jedem Raum liegen drei Karten"), or with
    ``path.boss_rooms`` false (an older reading) every room that is not a boss room."""
    return [r for r in range(1, cfg.rooms.count + 1) if cfg.path.boss_rooms or str(r) not in cfg.rooms.bosses]


def freeze(cfg: DungeonConfig, difficulty: str = "leicht") -> Frozen:
    """The rule numbers at ``difficulty`` as the arrays the kernels read."""
    check_difficulty(difficulty)
    d: Difficulty = getattr(cfg.difficulty, difficulty)
    rp = np.zeros(C.RP_SIZE)
    rp[C.RP_LP] = cfg.start.lp
    rp[C.RP_DICE] = cfg.start.dice
    rp[C.RP_COINS] = cfg.start.coins
    rp[C.RP_ROLLS] = cfg.turn.rolls
    rp[C.RP_ADJUSTS] = cfg.turn.adjusts
    rp[C.RP_ADJ_STEP] = cfg.turn.adjust_step
    rp[C.RP_LC_COST] = cfg.turn.last_chance_cost
    rp[C.RP_LC_N] = cfg.turn.last_chance_per_fight
    rp[C.RP_MAX_TURNS] = cfg.turn.max_turns
    rp[C.RP_DIFF_HP] = d.hp
    rp[C.RP_DIFF_DMG] = d.damage
    rp[C.RP_DIFF_BOSS] = d.boss
    rp[C.RP_POINTS] = d.points
    rp[C.RP_BOSS_REROLLS] = d.boss_rerolls
    rp[C.RP_HP_PER_ROOM] = cfg.scaling.hp_per_room
    rp[C.RP_HP_FACTOR] = cfg.scaling.hp_factor
    rp[C.RP_GROWTH] = cfg.scaling.damage_growth
    rp[C.RP_COMPOUND] = float(cfg.scaling.damage_growth_compound)
    rp[C.RP_N_ROOMS] = cfg.rooms.count
    rp[C.RP_ELITE_HP] = cfg.path.elite_hp
    rp[C.RP_ELITE_ATT] = cfg.path.elite_attack
    rp[C.RP_ELITE_COINS] = cfg.path.elite_coins
    rp[C.RP_REST_HEAL] = cfg.path.rest_heal
    rp[C.RP_REST_COINS] = cfg.path.rest_win_coins
    rp[C.RP_REST_CHANCE] = cfg.path.rest_chance
    ev = cfg.path.events
    rp[C.RP_ALTAR_LP] = ev.altar_lp
    rp[C.RP_ALTAR_ATT] = ev.altar_attack
    rp[C.RP_JH_COINS] = ev.joker_haendler_coins
    rp[C.RP_TRUHE_COINS] = ev.truhe_coins
    rp[C.RP_TRUHE_DIE] = ev.truhe_cursed_die
    c = cfg.coins
    rp[C.RP_ACTION_BASE] = c.action_base
    rp[C.RP_STEP_FLOOR] = float(c.step_rounding == "floor")
    rp[C.RP_CAP] = c.fight_cap
    rp[C.RP_BOSS_CAP] = c.boss_fight_cap
    rp[C.RP_WIN] = c.win
    rp[C.RP_BOSS_WIN] = c.boss_win
    rp[C.RP_CHALLENGE] = c.challenge
    rp[C.RP_CH_COMBOS] = c.challenge_combos
    rp[C.RP_CH_TURNS] = c.challenge_turns
    rp[C.RP_SHIELD_NEEDS_ATT] = float(c.useful_shield_needs_attack_intent)
    rp[C.RP_STEAL_RETURN] = float(c.steal_returned_on_win)
    rp[C.RP_POISON_DECAY] = cfg.poison.decay
    s = cfg.score
    rp[C.RP_SC_ROOM] = s.per_room
    rp[C.RP_SC_LP] = s.per_lp
    rp[C.RP_SC_BUDGET] = s.time_budget
    rp[C.RP_SC_WIN] = s.win
    t = cfg.time
    rp[C.RP_T_ROLL] = t.seconds_per_roll
    rp[C.RP_T_ASSIGN] = t.seconds_per_assignment
    rp[C.RP_T_TURN] = t.fast_turn_end_delay if t.fast_animations else t.turn_end_delay
    rp[C.RP_T_PATH] = t.seconds_per_path_choice
    rp[C.RP_T_REWARD] = t.seconds_per_reward_choice
    rp[C.RP_T_INTRO] = t.seconds_per_fight_intro
    rp[C.RP_START_ALTAR] = cfg.loadout.altar
    rp[C.RP_DIFFICULTY] = C.DIFFICULTIES.index(difficulty)
    rp[C.RP_WEAK_MUL] = cfg.combat.weak_mul
    rp[C.RP_CRIT_MUL] = cfg.combat.crit_mul
    rw, mk = cfg.rewards, cfg.market
    rp[C.RP_REWARDS_ON] = float(rw.enabled)
    rp[C.RP_OFFERS] = rw.offers
    rp[C.RP_ITEM_CHANCE] = rw.item_chance
    rp[C.RP_ITEM_FROM] = rw.item_from_slot
    rp[C.RP_JOKER_SHARE] = rw.joker_share if cfg.jokers else 0.0
    rp[C.RP_DISTINCT] = float(rw.distinct)
    rp[C.RP_MAX_JOKERS] = rw.max_jokers
    rp[C.RP_MARKET_ON] = float(mk.enabled)
    rp[C.RP_MK_UPGRADES] = mk.upgrades
    rp[C.RP_JOKER_PACK] = mk.joker_pack if cfg.jokers and rw.max_jokers > 0 else -1.0
    rp[C.RP_JOKER_PACK_N] = mk.joker_pack_size
    rp[C.RP_DICE_PACK] = mk.dice_pack
    rp[C.RP_DB_REROLLS] = cfg.dice_bonus.rerolls
    rp[C.RP_DB_FIGHTS] = cfg.dice_bonus.fights
    rp[C.RP_HERO_ON] = float(cfg.hero.enabled)
    rp[C.RP_HERO_FACTOR] = cfg.hero.factor
    rp[C.RP_HERO_N] = cfg.hero.per_fight
    rp[C.RP_N_UP] = len(cfg.upgrades)
    rp[C.RP_N_JK] = len(cfg.jokers)
    rp[C.RP_TALENT_COINS] = sum(cfg.talents[n].coins for n in cfg.loadout.talents)
    rp[C.RP_BOSS_STAGE] = float(cfg.scaling.boss_damage == "stage")
    rp[C.RP_BOSS_REST_COINS] = cfg.path.boss_rest_win_coins
    rp[C.RP_T_DECIDE] = t.seconds_per_decision
    vw = cfg.policies.vorschlag
    rp[C.RP_VW_ATT_COMBOS] = vw.att_combos
    rp[C.RP_VW_SHIELD] = vw.shield
    rp[C.RP_VW_HEAL] = vw.heal
    rp[C.RP_VW_POISON] = vw.poison
    rp[C.RP_VW_PASCH] = vw.pasch
    rp[C.RP_VW_E_ATT] = vw.e_att
    rp[C.RP_VW_CRIT] = vw.crit
    rp[C.RP_VW_BERSERK] = vw.berserk
    rp[C.RP_VW_ADJUST] = vw.adjust
    rp[C.RP_VW_KEEP] = vw.keep
    rp[C.RP_VW_LUCKY] = vw.lucky
    rp[C.RP_VW_DICE] = vw.dice
    rp[C.RP_VW_MAXLP] = vw.maxlp
    rp[C.RP_VW_JOKER_SET] = vw.joker_set
    rp[C.RP_VW_JOKER_REROLL] = vw.joker_reroll
    rp[C.RP_VW_JOKER_HEAL] = vw.joker_heal
    rp[C.RP_VW_DICE_BONUS] = vw.dice_bonus
    rp[C.RP_VW_PER_COIN] = vw.per_coin
    rp[C.RP_VW_RESERVE] = vw.reserve
    rp[C.RP_VW_JOKER_HEAL_SHARE] = vw.joker_heal_share
    rp[C.RP_VW_JOKER_SET_GAIN] = vw.joker_set_gain
    rp[C.RP_VW_HERO_GAIN] = vw.hero_gain
    sk = freeze_skill(cfg.skill)
    rp[C.RP_SK_PLAYER] = sk[SK_PLAYER]
    rp[C.RP_SK_OPPONENTS] = sk[SK_OPPONENTS]
    rp[C.RP_RO_BASE] = C.ROLLOUT_BASES.index(cfg.rollout.base)
    rp[C.RP_RO_K] = cfg.rollout.k
    rp[C.RP_JOKER_HEAL_COUNTS] = float(cfg.challenges.joker_heal_counts)

    enemy_names = list(cfg.enemies)
    en = np.zeros((len(enemy_names), C.EN_SIZE))
    intents = []
    for i, name in enumerate(enemy_names):
        e = cfg.enemies[name]
        en[i] = (e.hp, e.damage, float(e.boss), len(intents), len(e.intents), float(e.mode == "random"))
        for it in e.intents:
            intents.append((it.damage, it.hits, it.block, it.heal, it.weaken, it.curse, it.steal, it.buff, it.eat,
                            it.weight))
    rooms = np.zeros((cfg.rooms.count, C.RM_SIZE), np.int64)
    pool: list[int] = []
    sec_names = list(cfg.sections)
    for r in range(1, cfg.rooms.count + 1):
        si = next(i for i, sn in enumerate(sec_names) if cfg.sections[sn].first_room <= r <= cfg.sections[sn].last_room)
        sec = cfg.sections[sec_names[si]]
        boss = cfg.rooms.bosses.get(str(r))
        row = rooms[r - 1]
        row[C.RM_SECTION] = si
        row[C.RM_BOSS] = enemy_names.index(boss) if boss else -1
        row[C.RM_POOL0] = len(pool)
        if boss is None:
            pool.extend(enemy_names.index(n) for n in sec.roster)
        row[C.RM_POOLN] = len(pool) - row[C.RM_POOL0]
        row[C.RM_PATH] = int(boss is None or cfg.path.boss_rooms)
        row[C.RM_CHALLENGE] = C.CHALLENGES.index(c.challenges[(r - 1) % len(c.challenges)])
        row[C.RM_EBLOCK] = sec.enemy_block
        row[C.RM_PSHIELD] = sec.player_shield
        row[C.RM_ATTBONUS] = sec.attack_bonus
        row[C.RM_MARKET] = int(r in cfg.market.after_rooms and r < cfg.rooms.count)

    eff, owned, mods = fold_loadout(cfg)
    n_prof = cfg.loadout.altar + len(path_rooms(cfg)) + 1
    rp[C.RP_N_PROF] = n_prof
    cvals, part = profile_tables(cfg, mods, list(range(n_prof)))
    jnames = list(cfg.jokers)
    jk = np.array([(C.JOKER_KINDS.index(j.kind), j.amount, j.weight) for j in cfg.jokers.values()], np.float64)
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
        intents=np.array(intents, np.float64).reshape(len(intents), C.IN_SIZE),
        rooms=rooms,
        pool=np.array(pool, np.int64),
        base2=np.stack([base_table(cfg, False), base_table(cfg, True)]),
        up_rarity=np.array([C.RARITIES.index(u.rarity) for u in cfg.upgrades.values()], np.int64),
        up_unique=np.array([int(u.unique) for u in cfg.upgrades.values()], np.int64),
        rarity_w=np.array(rw.rarity_weights, np.float64),
        prices=np.array(mk.prices, np.float64),
        jk=jk.reshape(len(jnames), 3),
        start_jokers=np.array([jnames.index(j) for j in cfg.loadout.jokers], np.int64),
        cstart=cstart,
        cn=cn,
        cand=cand,
        coin_bonus=coin_bonus(cfg),
        rpr=rp.view(C.RP_DTYPE),
    )
