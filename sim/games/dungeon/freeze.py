"""Würfel Dungeon's config frozen into the numpy arrays the kernels read (``freeze(cfg, difficulty)``).

``freeze`` resolves the difficulty and turns the model into the arrays of ``Frozen``; the kernel reads scalars
by config path from the record ``rp[0]`` (``config.RULES``: ``rp[0].path_elite_attack``), enemies from
``en``/``intents`` (``layout.EN_*``, ``rows.IN``), rooms from ``rooms`` (``layout.RM_*``), upgrades from
``up_eff`` (rows of ``rows.EFF`` effects) and the start loadout ``loadout``. Per modifier *profile* (the
Opferaltar level ``0..n_prof-1`` on top of the start loadout) it precomputes the combo values ``cvals`` and the
shown partition ``part`` of every dice multiset.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from sim.core.cache import load_table, save_table, table_path
from sim.core.config import ConfigError
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import RULES
from sim.games.dungeon.rows import EFF, N_EFF, N_IN
from sim.jit.codehash import code_version

if TYPE_CHECKING:
    from sim.games.dungeon.config import DungeonConfig


class Frozen(NamedTuple):
    """Everything the kernels read (numpy arrays only)."""

    rp: np.ndarray  # the rule record (``config.RULES``), a one-element np.recarray: kernels read ``rp[0].turn_rolls``
    steps: np.ndarray  # float64 coin steps
    ev_weights: np.ndarray  # float64 [3]
    cvals: np.ndarray  # float64 [n_prof, N_COMBO, 4]: att, shield, heal, coins
    part: np.ndarray  # int64 [n_prof, N_MS, 4]: n, combo ids
    pclass: np.ndarray  # int64 [n_prof, N_MS]: class of equal shown partitions (for memoised leaf values)
    mods: np.ndarray  # float64 [N_EFF]: the start loadout folded (columns ``rows.EFF``)
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
    intents: np.ndarray  # float64 [n_int, N_IN]: the ``rows.Intent`` fields (``rows.IN``)
    rooms: np.ndarray  # int64 [n_rooms, C.RM_SIZE]
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
    eff = np.array(rows, np.float64).reshape(len(rows), N_EFF)
    owned = np.zeros(len(rows), np.int64)
    for n in cfg.loadout.upgrades:
        owned[names.index(n)] += 1
    for n in cfg.loadout.talents:
        owned[len(names) + tal.index(n)] = 1
    mods = np.zeros(N_EFF)
    R.fold_mods(eff, owned, mods)
    return eff, owned, mods


@cache
def partition_candidates() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``rules.partition_candidates`` from the table cache: they follow from the rules module's code alone, so the
    file is keyed by its code version; reading it takes milliseconds where building it takes ~0.14 s of Python in
    every process that plays (a damaged file is removed and rebuilt)."""
    path = table_path("dungeon", "partitions", "structure", code_version("sim.games.dungeon.rules"))
    stored = load_table(path)
    if stored is not None and {"cstart", "cn", "cand"} <= stored.keys():
        return stored["cstart"], stored["cn"], stored["cand"]
    cstart, cn, cand = R.partition_candidates()
    save_table(path, {"cstart": cstart, "cn": cn, "cand": cand})
    return cstart, cn, cand


def profile_tables(cfg: DungeonConfig, mods: np.ndarray, altars: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Combo values and shown partitions for each Opferaltar level in ``altars``."""
    base = base_table(cfg, bool(mods[EFF.glueckssieben] > 0))
    cstart, cn, cand = partition_candidates()
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


def freeze(cfg: DungeonConfig, difficulty: str = "leicht") -> Frozen:
    """The rule numbers at ``difficulty`` as the arrays the kernels read."""
    check_difficulty(difficulty)
    rp = RULES.freeze(cfg, difficulty=difficulty).view(np.recarray)
    c, ev = cfg.coins, cfg.path.events

    enemy_names = list(cfg.enemies)
    en = np.zeros((len(enemy_names), C.EN_SIZE))
    intents = []
    for i, name in enumerate(enemy_names):
        e = cfg.enemies[name]
        en[i] = (e.hp, e.damage, float(e.boss), len(intents), len(e.intents), float(e.mode == "random"))
        intents.extend(it.row() for it in e.intents)
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
        row[C.RM_MARKET] = int(r in cfg.market.after_rooms)

    eff, owned, mods = fold_loadout(cfg)
    n_prof = int(rp[0].n_prof)
    cvals, part = profile_tables(cfg, mods, list(range(n_prof)))
    jnames = list(cfg.jokers)
    jk = np.array([(C.JOKER_KINDS.index(j.kind), j.amount, j.weight) for j in cfg.jokers.values()], np.float64)
    cstart, cn, cand = partition_candidates()
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
        intents=np.array(intents, np.float64).reshape(len(intents), N_IN),
        rooms=rooms,
        pool=np.array(pool, np.int64),
        base2=np.stack([base_table(cfg, False), base_table(cfg, True)]),
        up_rarity=np.array([C.RARITIES.index(u.rarity) for u in cfg.upgrades.values()], np.int64),
        up_unique=np.array([int(u.unique) for u in cfg.upgrades.values()], np.int64),
        rarity_w=np.array(cfg.rewards.rarity_weights, np.float64),
        prices=np.array(cfg.market.prices, np.float64),
        jk=jk.reshape(len(jnames), 3),
        start_jokers=np.array([jnames.index(j) for j in cfg.loadout.jokers], np.int64),
        cstart=cstart,
        cn=cn,
        cand=cand,
        coin_bonus=coin_bonus(cfg),
    )

