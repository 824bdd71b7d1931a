"""Würfel Dungeon rules: the seed's tables as golden values, and the partition against brute force."""

from __future__ import annotations

import itertools
import json
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.config import ConfigError, load_config
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.freeze import base_values, freeze, profile_tables
from sim.games.dungeon.rows import EFF

CFG = load_config(DungeonConfig, "dungeon")
FZ = freeze(CFG, "leicht")
BASE = base_values(CFG, False)

# the seed's "Werte nach Augenzahl": attack · shield · heal per face 1..6
SEED_TABLE = {
    R.PASCH: ["2 2 1", "4 4 2", "6 5 3", "8 6 4", "10 7 5", "12 8 6"],
    R.DRILLING: ["4 4 2", "8 7 4", "12 9 6", "16 11 8", "20 14 10", "24 16 12"],
    R.VIERLING: ["7 7 3", "14 11 6", "21 15 9", "28 19 12", "35 23 15", "42 28 18"],
    R.FUENFLING: ["12 11 5", "24 18 10", "36 25 15", "48 32 20", "60 40 25", "72 47 30"],
    R.SECHSLING: ["18 16 7", "36 26 14", "54 37 21", "72 48 28", "90 59 35", "108 70 42"],
}


def cid(kind, a, b=0):
    return R.C_INDEX[(kind, a, b)]


@pytest.mark.parametrize("kind", sorted(SEED_TABLE))
def test_values_by_face(kind):
    for w in range(1, 7):
        assert BASE[cid(kind, w)].tolist() == [int(x) for x in SEED_TABLE[kind][w - 1].split()]


def test_straights():
    for s in (1, 2, 3):
        assert BASE[cid(R.KLEINE, s)].tolist() == [14, 10, 7]
    for s in (1, 2):
        assert BASE[cid(R.GROSSE, s)].tolist() == [22, 16, 11]


def test_full_house_example():
    # drei Fünfen und zwei Zweien: 32 Angriff, 22 Schild, 16 Heilung; getrennt 20 + 4 = 24
    fh = cid(R.FULL_HOUSE, 2, 5)
    assert BASE[fh].tolist() == [32, 22, 16]
    d, p = R.C_SPLIT[fh]
    assert BASE[d, 0] + BASE[p, 0] == 24
    k = R.ms_index([5, 2, 5, 2, 5])
    assert FZ.part[0, k, 0] == 1 and FZ.part[0, k, 1] == fh


def test_full_house_formula_all_faces():
    for b in range(1, 7):
        for a in range(1, 7):
            if a != b:
                att, sh, he = BASE[cid(R.FULL_HOUSE, a, b)]
                shield = int(np.floor((2 * a + 4 * b + 12) * 0.6 + 0.5))
                assert (att, sh, he) == (2 * a + 4 * b + 8, shield, a + 2 * b + 4)


def test_glueckssieben_counts_one_as_seven():
    lucky = base_values(CFG, True)
    assert lucky[cid(R.PASCH, 1), 0] == 14
    assert lucky[cid(R.DRILLING, 1)].tolist() == [28, 19, 14]
    assert lucky[cid(R.FULL_HOUSE, 1, 5), 0] == 2 * 7 + 20 + 8
    assert lucky[cid(R.KLEINE, 1), 0] == 14
    # the partition follows the lucky values: 1,1,1,5,5 is a Full House with b = 7
    mods = FZ.mods.copy()
    mods[EFF.glueckssieben] = 1
    cv, part = profile_tables(CFG, mods, [0])
    k = R.ms_index([1, 1, 1, 5, 5])
    assert cv[0, part[0, k, 1], 0] == 2 * 5 + 4 * 7 + 8


def test_coin_base_and_steps():
    # 6 + combo bonus + pip sum: Full House 5,5,5,2,2 -> 6 + 12 + 19 = 37
    assert FZ.cvals[0, cid(R.FULL_HOUSE, 2, 5), 3] == 37
    assert FZ.cvals[0, cid(R.PASCH, 6), 3] == 6 + 2 + 12
    assert FZ.cvals[0, cid(R.GROSSE, 2), 3] == 6 + 18 + 20
    steps = FZ.steps
    assert [R.action_coins(37, i, steps, True) for i in range(5)] == [37, 18, 9, 0, 0]
    assert [R.action_coins(37, i, steps, False) for i in range(4)] == [37, 19, 9, 0]


def test_boss_lp_golden():
    for diff, wf, auge in (("leicht", 65, 109), ("normal", 71, 120), ("schwer", 71, 120)):
        f = freeze(CFG, diff)
        rp = f.rp[0]
        from sim.games.dungeon import config as C

        vals = []
        for room in (5, 10):
            e = f.en[f.rooms[room - 1, C.RM_BOSS]]
            vals.append(R.enemy_hp(e[C.EN_HP], room, True, False, rp.scaling_hp_per_room, rp.scaling_hp_factor,
                                   rp.difficulty_hp, rp.difficulty_boss, rp.path_elite_hp))
        assert vals == [wf, auge]


def test_normal_enemy_hp_and_damage():
    # round((base + 2·room) × 1.12 × stage) [× 1.25 elite]
    assert R.enemy_hp(20, 1, False, False, 2, 1.12, 1.05, 1.05, 1.25) == round((20 + 2) * 1.12 * 1.05)
    assert R.enemy_hp(20, 3, False, False, 2, 1.12, 1.17, 1.15, 1.25) == 34  # 26 × 1.12 × 1.17 = 34.07
    # the Elite's × 1.25 is of the LP the game shows ("Gegner-LP ×1,25"): 38 × 1.12 × 1.25 = 53.2 → 53 → 66.25 → 66
    assert R.enemy_hp(24, 7, False, True, 2, 1.12, 1.25, 1.15, 1.25) == 66  # (53.2 × 1.25 = 66.5 read 67)
    assert R.enemy_hp(62, 5, True, True, 2, 1.12, 1.05, 109.2 / 62, 1.25) == 136  # the Auge der Sechs 109 → 136
    # damage: × difficulty × (1 + 3 % per room), on an Elite that hit × 1.15 rounded again, + 1 in Aschehallen
    s = R.damage_scale(1, 1.10, 0.03, False, False, 1.05, False)
    assert s == pytest.approx(1.10)
    s9 = R.damage_scale(9, 1.40, 0.03, False, False, 1.15, False)
    assert s9 == pytest.approx(1.40 * 1.24)
    plain = int(np.floor(10 * 1.40 * 1.24 + 0.5))  # 17.36 → 17
    assert R.hit_damage(10, 1.0, s9, 1.0, 1, 0) == plain + 1
    assert R.hit_damage(10, 1.0, s9, 1.15, 1, 0) == int(np.floor(plain * 1.15 + 0.5)) + 1 == 21  # 17 × 1.15 = 19.55
    assert R.hit_damage(10, 0.0, s9, 1.15, 1, 0) == 0
    assert R.damage_scale(3, 1.2, 0.03, True, False, 1.15, False) == pytest.approx(1.2 * 1.03**2)


def test_boss_scaling_uses_the_boss_factor_only():
    """"Bosse nutzen nur den Boss-Faktor": no +2 LP per room, no × 1.12, no stage factors, no room growth;
    the Elite card multiplies LP × 1.25 and each attack × 1.15; the "stage" reading scales like a normal enemy."""
    p = CFG.path
    for diff in ("leicht", "normal", "schwer"):
        d = getattr(CFG.difficulty, diff)
        for room in (5, 10):
            assert R.damage_scale(room, d.damage, 0.03, False, True, d.boss, False) == d.boss
            assert R.damage_scale(room, d.damage, 0.03, False, True, d.boss, True) == (
                pytest.approx(d.damage * (1 + 0.03 * (room - 1))))
            assert R.enemy_hp(62, room, True, True, 2, 1.12, d.hp, d.boss, p.elite_hp) == R.round_half_up(
                R.round_half_up(62 * d.boss) * p.elite_hp)


def test_sections_and_difficulty_tables():
    from sim.games.dungeon import config as C

    f = freeze(CFG, "leicht")
    assert [int(x) for x in f.rooms[:, C.RM_EBLOCK]] == [0] * 4 + [3] * 4 + [0] * 2
    assert [int(x) for x in f.rooms[:, C.RM_PSHIELD]] == [0] * 4 + [3] * 4 + [0] * 2
    assert [int(x) for x in f.rooms[:, C.RM_ATTBONUS]] == [0] * 8 + [1] * 2
    assert [int(x) for x in f.rooms[:, C.RM_PATH]] == [1] * 10  # "Vor jedem Raum liegen drei Karten"
    old = freeze(load_config(DungeonConfig, "dungeon", None, ["path.boss_rooms=false"]), "leicht")
    assert [int(x) for x in old.rooms[:, C.RM_PATH]] == [1, 1, 1, 1, 0, 1, 1, 1, 1, 0]
    assert [int(x) for x in f.rooms[:, C.RM_CHALLENGE]] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    table = {"leicht": (1.05, 1.10, 1.05, 1.0, -1), "normal": (1.17, 1.20, 1.15, 1.25, -1),
             "schwer": (1.25, 1.40, 1.15, 1.5, 2)}
    for d, row in table.items():
        rp = freeze(CFG, d).rp[0]
        assert (rp.difficulty_hp, rp.difficulty_damage, rp.difficulty_boss, rp.difficulty_points,
                rp.difficulty_boss_rerolls) == row
    with pytest.raises(ConfigError):
        freeze(CFG, "mittel")


def test_score_formula():
    # (10·100 + 30·5 + (600 − 400) + 500) × 1.25 = 2312.5 -> 2313
    assert R.score(10, 30, 400.0, True, 100, 5, 600, 500, 1.25) == 2313
    assert R.score(4, 0, 700.0, False, 100, 5, 600, 500, 1.5) == 600
    assert R.score(0, 0, 0.0, False, 100, 5, 600, 500, 1.0) == 600


def test_bad_configs():
    for item, msg in (("combos.pasch.attack=[2.0]", "combos.pasch.attack"), ("start.lp=0", "start.lp"),
                      ("rooms.count=12", "room 11"), ("loadout.upgrades=['nix']", "nix"), ("foo=1", "foo")):
        with pytest.raises(ConfigError, match=msg):
            load_config(DungeonConfig, "dungeon", None, [item])


# --- the partition against a brute-force search -------------------------------------------


def _is_combo(group):
    g = sorted(group)
    n = len(g)
    if n >= 2 and len(set(g)) == 1:
        return {2: R.PASCH, 3: R.DRILLING, 4: R.VIERLING, 5: R.FUENFLING, 6: R.SECHSLING}[n], g[0], 0
    if n in (4, 5) and len(set(g)) == n and g[-1] - g[0] == n - 1:
        return (R.KLEINE if n == 4 else R.GROSSE), g[0], 0
    if n == 5:
        vals = sorted(set(g), key=g.count)
        if len(vals) == 2 and g.count(vals[0]) == 2:
            return R.FULL_HOUSE, vals[0], vals[1]
    return None


def _seed_values(kind, a, b):
    """Attack, shield + heal straight from the seed's formulas (independent of the catalog)."""
    w = a
    att = {R.PASCH: 2 * w, R.DRILLING: 4 * w, R.KLEINE: 14, R.FULL_HOUSE: 2 * a + 4 * b + 8, R.VIERLING: 7 * w,
           R.GROSSE: 22, R.FUENFLING: 12 * w, R.SECHSLING: 18 * w}[kind]
    sh = {R.PASCH: 2 * w + 2, R.DRILLING: 4 * w + 3, R.KLEINE: 17, R.FULL_HOUSE: 2 * a + 4 * b + 12,
          R.VIERLING: 7 * w + 4, R.GROSSE: 26, R.FUENFLING: 12 * w + 6, R.SECHSLING: 18 * w + 8}[kind]
    he = {R.PASCH: w, R.DRILLING: 2 * w, R.KLEINE: 7, R.FULL_HOUSE: a + 2 * b + 4, R.VIERLING: 3 * w, R.GROSSE: 11,
          R.FUENFLING: 5 * w, R.SECHSLING: 7 * w}[kind]
    return att, int(np.floor(sh * 0.6 + 0.5)) + he


@cache
def brute_force(dice: tuple[int, ...]):
    """Best (total attack, -combos, shield + heal) over every labelling of the dice into groups."""
    best = None
    n = len(dice)
    for labels in itertools.product(range(4), repeat=n):  # 0 = unused, 1..3 = group
        combos = []
        ok = True
        for g in (1, 2, 3):
            grp = [dice[i] for i in range(n) if labels[i] == g]
            if not grp:
                continue
            c = _is_combo(grp)
            if c is None:
                ok = False
                break
            combos.append(c)
        if not ok:
            continue
        ds = {c[1] for c in combos if c[0] == R.DRILLING}
        ps = {c[1] for c in combos if c[0] == R.PASCH}
        if any(d != p for d in ds for p in ps):
            continue  # the game merges those into a Full House
        vals = [_seed_values(*c) for c in combos]
        key = (sum(v[0] for v in vals), -len(combos), sum(v[1] for v in vals))
        if best is None or key > best:
            best = key
    return best


def shown(dice, part=FZ.part[0], cv=FZ.cvals[0]):
    k = R.ms_index(dice)
    ids = [int(c) for c in part[k, 1 : 1 + part[k, 0]]]
    used = np.zeros(6, np.int64)
    for c in ids:
        used += R.C_COUNTS[c]
    assert (used <= np.bincount(np.array(dice) - 1, minlength=6)).all()
    return ids, (sum(cv[c, 0] for c in ids), -len(ids), sum(cv[c, 1] + cv[c, 2] for c in ids))


def test_partition_all_5_dice_rolls_match_brute_force():
    for roll in itertools.product(range(1, 7), repeat=5):
        _, key = shown(roll)
        assert key == brute_force(tuple(sorted(roll))), roll


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=6, max_size=6))
def test_partition_6_dice_matches_brute_force(dice):
    _, key = shown(dice)
    assert key == brute_force(tuple(sorted(dice)))


def test_partition_of_smaller_hands_matches_brute_force():
    """start.dice is 1..6: every roll of 1 to 4 dice is partitioned as the brute force says."""
    for m in range(1, 5):
        for roll in itertools.product(range(1, 7), repeat=m):
            _, key = shown(roll)
            assert key == brute_force(tuple(sorted(roll))), roll


def test_combos_shows_a_hand_of_four_under_start_dice_4():
    """``dicesim combos`` refused a cup of 4 dice even where the rules deal 4 (``start.dice=4``): it takes any hand
    of 1 to 6, and says when the dice hold no combo."""
    from tests.conftest import cli_here

    out = cli_here("combos", "5", "5", "5", "2", "--set", "start.dice=4", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"dice": [5, 5, 5, 2], "total_attack": 20, "combos": [
        {"name": "Drilling", "dice": [5, 5, 5], "attack": 4 * 5, "shield": int(np.floor((4 * 5 + 3) * 0.6 + 0.5)),
         "heal": 2 * 5}]}
    none = cli_here("combos", "1", "2", "4")
    assert none.returncode == 0 and none.stdout.splitlines() == ["dice 1 2 4 · total attack 0",
                                                                 "  no combo in these dice"], none.stdout


@pytest.mark.parametrize(
    "dice, expected",
    [
        ([5, 5, 5, 2, 2], [("Full House", [2, 2, 5, 5, 5])]),
        ([1, 2, 3, 4, 4], [("Kleine Straße", [1, 2, 3, 4])]),
        ([2, 3, 4, 5, 6], [("Große Straße", [2, 3, 4, 5, 6])]),
        ([6, 6, 6, 6, 1], [("Vierling", [6, 6, 6, 6])]),
        ([3, 3, 6, 6, 1], [("Pasch", [3, 3]), ("Pasch", [6, 6])]),
        ([1, 2, 4, 5, 6], []),
        ([2, 3, 4, 5, 5, 5], [("Pasch", [5, 5]), ("Kleine Straße", [2, 3, 4, 5])]),
        ([1, 1, 3, 3, 5, 5], [("Pasch", [1, 1]), ("Pasch", [3, 3]), ("Pasch", [5, 5])]),
        ([4, 4, 4, 4, 2, 2], [("Pasch", [2, 2]), ("Vierling", [4, 4, 4, 4])]),
        ([2, 2, 2, 5, 5, 5], [("Full House", [2, 2, 5, 5, 5])]),
        ([3, 3, 3, 5, 5, 5], [("Full House", [3, 3, 5, 5, 5])]),
        ([6, 6, 6, 6, 6, 6], [("Sechsling", [6] * 6)]),
        ([1, 2, 3, 4, 5, 6], [("Große Straße", [2, 3, 4, 5, 6])]),
    ],
)
def test_hand_picked_partitions(dice, expected):
    ids, _ = shown(dice)
    assert [(R.combo_name(c), R.combo_dice(c)) for c in ids] == expected


def test_upgrades_change_the_partition():
    # Paschmeister (Pasch attack × 2): a Vierling of 4s shows as two Pasch (16 + 16 > 28)
    mods = FZ.mods.copy()
    mods[EFF.pasch_attack_mul] = 2.0
    cv, part = profile_tables(CFG, mods, [0])
    ids, key = shown([4, 4, 4, 4, 1], part[0], cv[0])
    assert [R.combo_name(c) for c in ids] == ["Pasch", "Pasch"] and key[0] == 32
    # 6,6,6,5,5: two Pasch (24 + 20) beat the Full House (42); a Drilling and a Pasch of different faces
    # never stand side by side in any shown partition (they would be the Full House)
    ids, key = shown([6, 6, 6, 5, 5], part[0], cv[0])
    assert [R.combo_name(c) for c in ids] == ["Pasch", "Pasch"] and key[0] == 44
    for k in range(R.N_MS):
        kinds = {(int(R.C_KIND[c]), int(R.C_FA[c])) for c in part[0, k, 1 : 1 + part[0, k, 0]]}
        ds = {a for kk, a in kinds if kk == R.DRILLING}
        ps = {a for kk, a in kinds if kk == R.PASCH}
        assert not any(d != p for d in ds for p in ps)
    # Opferaltar +1 per combo: three Pasch (18 + 3) beat nothing else; Wetzstein-like bonuses favour more combos
    cv, part = profile_tables(CFG, FZ.mods, [0, 4])
    ids, key = shown([2, 3, 4, 5, 5, 5], part[1], cv[1])
    assert key[0] == 10 + 14 + 8


def test_assumed_paths_name_config_fields():
    data = CFG.model_dump()
    assert CFG.assumed
    for path in CFG.assumed:
        node = data
        for key in path.split("."):
            assert key in node, path
            node = node[key]


def test_combo_cup_with_glueckssieben_loadout():
    from sim.games.dungeon.game import combos_json

    cfg = load_config(DungeonConfig, "dungeon", None, ["loadout.upgrades=['glueckssieben']"])
    cup = combos_json([1, 1, 1, 5, 5], cfg)
    assert cup["combos"] == [{"name": "Full House", "dice": [1, 1, 1, 5, 5], "attack": 2 * 5 + 4 * 7 + 8,
                              "shield": int(np.floor((2 * 5 + 4 * 7 + 12) * 0.6 + 0.5)), "heal": 5 + 14 + 4}]
    assert combos_json([1, 1, 2, 3, 4], cfg)["total_attack"] == 14


def test_an_enemy_has_at_least_one_lp():
    """A stage LP factor near 0 (calibrate walks down to 1e-06) rounded every normal enemy to 0 LP."""
    assert R.enemy_hp(20, 1, False, False, 2, 1.12, 1e-6, 1.05, 1.25) == 1
    assert R.enemy_hp(20, 1, False, True, 2, 1.12, 0.02, 1.05, 1.25) == 1  # round(0.616) would be 1 anyway
    assert R.enemy_hp(62, 9, True, False, 2, 1.12, 1e-6, 1e-9, 1.25) == 1  # a boss alike
