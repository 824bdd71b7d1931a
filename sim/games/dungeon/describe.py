"""Plain-Python views of the rules the CLI prints: the combo cup (``dicesim combos``) and ``describe``."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from sim.core.config import config_hash
from sim.games.dungeon import config as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.freeze import fold_loadout, freeze, glueckssieben_in_straights
from sim.games.dungeon.labels import ENEMY_WORDS, SECTION_WORDS
from sim.games.dungeon.options import CUP_SIZES, check_cup, check_difficulty
from sim.games.dungeon.rows import EFF, IN
from sim.games.dungeon.table_schema import table_columns as table_columns

CONFIG = DungeonConfig  # the rules these tables read (sim.cli.work.tables loads them without the game)


def combos_json(dice: list[int], cfg: DungeonConfig) -> dict[str, Any]:
    """The seed's "Zum Ausprobieren" cup: the shown combos of 1 to 6 dice with their values."""
    check_cup(dice)
    return {"dice": [int(d) for d in dice], **_shown(*_cup_tables(cfg), dice)}


def cup_json(cfg: DungeonConfig) -> dict[str, dict[str, Any]]:
    """Every cup at once: ``combos_json`` of each multiset of ``CUP_SIZES`` dice, keyed by its faces in order
    ("1 2 2 5 5"), without the dice. ``dicesim combos`` keeps it per config, so any later cup is read, not played."""
    part, cv = _cup_tables(cfg)
    return {" ".join(map(str, faces)): _shown(part, cv, list(faces))
            for m in CUP_SIZES for faces in combinations_with_replacement(range(1, 7), m)}


def _cup_tables(cfg: DungeonConfig) -> tuple[np.ndarray, np.ndarray]:
    """The shown partitions and combo values at the start loadout's Opferaltar level (the cup's rules)."""
    fz = freeze(cfg, "leicht")
    prof = min(cfg.loadout.altar, fz.part.shape[0] - 1)
    return fz.part[prof], fz.cvals[prof]


def _shown(part: np.ndarray, cv: np.ndarray, dice: list[int]) -> dict[str, Any]:
    """The combos the game shows for ``dice`` with their values, and their total attack."""
    row = part[R.ms_index([int(d) for d in dice])]
    combos = [{"name": R.combo_name(int(c)), "dice": R.combo_dice(int(c)), "attack": int(cv[c, 0]),
               "shield": int(cv[c, 1]), "heal": int(cv[c, 2])} for c in row[1 : 1 + row[0]]]
    return {"combos": combos, "total_attack": int(sum(x["attack"] for x in combos))}


def enemy_names(cfg: DungeonConfig) -> list[str]:
    return list(cfg.enemies)


def mean_hit(intents: np.ndarray, i0: int, ni: int, random_mode: bool, base: float, scale: float,
             bonus: int, elite_mul: float = 1.0) -> float:
    """Mean damage per enemy turn over one pass of the intent cycle (its ``ni`` turns from the fight's start),
    before shields, as the kernel deals it (``R.hit_damage`` × hits; a buff raises the later hits of the fight).

    Cycle: the intents in order, buff 0 at the start. Random: the expectation over ``ni`` draws by weight; a
    turn's hit is linear in the buff, so turn t's mean is Σ w·hits·(hit + buff so far) with the buff so far
    (t − 1) × the mean buff per draw. Block, heal, curse, weaken, steal and eat turns deal 0."""
    rows = intents[i0 : i0 + ni]
    if not random_mode:
        buff, total = 0, 0
        for it in rows:
            total += int(it[IN.hits]) * int(R.hit_damage(base, it[IN.damage], scale, elite_mul, bonus, buff))
            buff += int(it[IN.buff])
        return total / ni
    w = rows[:, IN.weight] / rows[:, IN.weight].sum()
    hits = rows[:, IN.hits].astype(np.int64)
    plain = np.array([int(R.hit_damage(base, it[IN.damage], scale, elite_mul, bonus, 0)) for it in rows])
    att = rows[:, IN.damage] > 0
    buff_per_draw = float((w * rows[:, IN.buff]).sum())
    return float((w * hits * plain).sum() + buff_per_draw * (ni - 1) / 2 * (w * hits * att).sum())


def describe(cfg: DungeonConfig, options: dict[str, Any]) -> dict[str, Any]:
    """Derived rule tables: combo values (per face, as the seed's table), enemy LP/damage per room.

    Each room row names its enemy and section by code (``enemy``, ``section``: the config's keys) and as the rules
    page does (``enemy_name``, ``section_name``: "Höhlentroll", "Kristallhöhlen"), for a reader of the JSON.

    Per room and enemy: ``hp``, ``damage`` (one hit of an intent with multiple 1), ``max_hit`` (the largest
    hit of its intents, before buffs), ``mean_hit`` (mean damage per enemy turn over one pass of its intents, a buff
    raising the later hits of the pass, before shields), and the same with ``elite_`` where a path choice offers the
    Elite card."""
    diff = check_difficulty(options)
    fz = freeze(cfg, diff)
    rp = fz.rp[0]
    cv = fz.cvals[min(cfg.loadout.altar, fz.part.shape[0] - 1)]
    combo_table = []
    _, _, mods = fold_loadout(cfg)  # the start loadout decides which rows are combos (straights through 7 or from 1)
    valid = R.combo_valid(bool(mods[EFF.glueckssieben] > 0), glueckssieben_in_straights(cfg))
    for kind in range(R.N_KIND):
        rows = [c for c in range(R.N_COMBO) if R.C_KIND[c] == kind and valid[c]]
        entry: dict[str, Any] = {"combo": R.KIND_LABELS[kind], "kind": R.KINDS[kind],
                                 "tier": getattr(cfg.combos, R.KINDS[kind]).tier,
                                 "coin_bonus": getattr(cfg.combos, R.KINDS[kind]).coin_bonus, "values": []}
        for c in rows:
            entry["values"].append({"dice": R.combo_dice(c), "attack": int(cv[c, 0]), "shield": int(cv[c, 1]),
                                    "heal": int(cv[c, 2]), "coins": int(cv[c, 3])})
        combo_table.append(entry)
    names = enemy_names(cfg)
    sec_names = list(cfg.sections)
    rooms = []
    for r in range(1, cfg.rooms.count + 1):
        row = fz.rooms[r - 1]
        p0, pn = int(row[C.RM_POOL0]), int(row[C.RM_POOLN])
        pool = [int(row[C.RM_BOSS])] if row[C.RM_BOSS] >= 0 else [int(e) for e in fz.pool[p0 : p0 + pn]]
        for e in pool:
            en = fz.en[e]
            boss = bool(en[C.EN_BOSS] > 0)
            sec = sec_names[int(row[C.RM_SECTION])]
            item = {"room": r, "section": sec, "section_name": SECTION_WORDS.get(sec, sec), "enemy": names[e],
                    "enemy_name": ENEMY_WORDS.get(names[e], names[e])}
            for tag, elite in (("", False), ("elite_", True)):
                if elite and not row[C.RM_PATH]:
                    continue
                hp = R.enemy_hp(en[C.EN_HP], r, boss, elite, rp.scaling_hp_per_room, rp.scaling_hp_factor,
                                rp.difficulty_hp, rp.difficulty_boss, rp.path_elite_hp)
                scale = R.damage_scale(r, rp.difficulty_damage, rp.scaling_damage_growth,
                                       rp.scaling_damage_growth_compound > 0, boss, rp.difficulty_boss,
                                       rp.scaling_boss_damage == R.BOSS_DAMAGE_STAGE)
                em = rp.path_elite_attack if elite else 1.0
                item[f"{tag}hp"] = int(hp)
                item[f"{tag}damage"] = int(R.hit_damage(en[C.EN_DMG], 1.0, scale, em, int(row[C.RM_ATTBONUS]), 0))
                i0, ni = int(en[C.EN_I0]), int(en[C.EN_IN])
                item[f"{tag}max_hit"] = max(int(R.hit_damage(en[C.EN_DMG], fz.intents[i, IN.damage], scale, em,
                                                             int(row[C.RM_ATTBONUS]), 0)) for i in range(i0, i0 + ni))
                item[f"{tag}mean_hit"] = mean_hit(fz.intents, i0, ni, bool(en[C.EN_RANDOM] > 0), en[C.EN_DMG],
                                                  scale, int(row[C.RM_ATTBONUS]), em)
            item["boss"] = boss
            item["chance"] = 1.0 / len(pool)
            item["enemy_block"] = int(row[C.RM_EBLOCK])
            item["player_shield"] = int(row[C.RM_PSHIELD])
            item["challenge"] = C.CHALLENGES[int(row[C.RM_CHALLENGE])]
            item["path_choice"] = bool(row[C.RM_PATH])
            rooms.append(item)
    d = getattr(cfg.difficulty, diff)
    return {
        "game": "dungeon",
        "difficulty": diff,
        "config_hash": config_hash(cfg),
        "assumed": list(cfg.assumed),
        "difficulty_factors": {"hp": d.hp, "damage": d.damage, "boss": d.boss, "points": d.points,
                               "boss_rerolls": None if d.boss_rerolls < 0 else d.boss_rerolls},  # None: no cap
        "combos": combo_table,
        "rooms": rooms,
        "loadout": {"upgrades": list(cfg.loadout.upgrades), "altar": cfg.loadout.altar},
        "config": cfg.model_dump(mode="json"),
    }
