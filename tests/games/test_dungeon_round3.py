"""Würfel Dungeon, rules round 3 (issue 27): stacked upgrades add, Glückssieben in straights, a heal joker as
healing, Vereinen, and the kernel's refusal of requests the rules forbid."""

from __future__ import annotations

import itertools
import json
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.dungeon.bots import BROKEN, POLICIES
from policies.dungeon.rating import RATING, best_assignment
from sim.core.batch import run_batch
from sim.core.config import load_config
from sim.games.dungeon import layout as L
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon import runs as RUNS
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.freeze import freeze
from sim.games.dungeon.game import GAME, TM, combos_json, frozen
from sim.games.dungeon.rows import EFF, N_EFF
from sim.games.dungeon.table import O_ILLEGAL
from sim.games.dungeon.table_schema import column_names
from sim.games.dungeon.words import FS_ATT_MUL, FS_EHP, FS_INCOMING, FS_LP, FS_MAXLP, FS_SHIELD, FS_SIZE
from tests.conftest import run_cli

CFG = load_config(DungeonConfig, "dungeon")
GCFG = GAME.load()
FZ = freeze(CFG, "leicht")
UP = list(CFG.upgrades)


def cid(kind, a, b=0):
    return R.C_INDEX[(kind, a, b)]


def mods_of(*names):
    owned = np.zeros(FZ.up_eff.shape[0], np.int64)
    for n in names:
        owned[UP.index(n)] += 1
    m = np.zeros(N_EFF)
    R.fold_mods(FZ.up_eff, owned, m)
    return m


# --- 1. a non-unique upgrade taken again adds its effect, a multiplier additively ------------------------------

def test_paschmeister_stacks_additively():
    assert [mods_of(*["paschmeister"] * n)[EFF.pasch_attack_mul] for n in range(5)] == [1.0, 2.0, 3.0, 4.0, 5.0]
    # the other stacking effects add as before; a unique upgrade cannot be owned twice
    m = mods_of("wetzstein", "wetzstein", "giftdolch", "giftdolch", "berserker")
    assert m[EFF.attack_flat] == 4 and m[EFF.poison] == 4 and m[EFF.berserker_mul] == 1.25


def test_three_paschmeister_pasch_of_sixes():
    # Pasch 6-6: 12 base; three Paschmeister ×4 = 48 (×8 = 96 when multipliers compounded), 96 with a crit
    three = "loadout.upgrades=['paschmeister','paschmeister','paschmeister']"
    cfg = load_config(DungeonConfig, "dungeon", None, [three])
    cv = freeze(cfg, "leicht").cvals[0]
    assert cv[cid(R.PASCH, 6), 0] == 48
    assert R.player_attack(cv[cid(R.PASCH, 6), 0], 1.0, 1.0, CFG.combat.crit_mul) == 96


def test_combos_command_with_two_paschmeister():
    res = run_cli("combos", "6", "6", "1", "3", "5", "--set", "loadout.upgrades=['paschmeister','paschmeister']",
                  "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["total_attack"] == 36
    assert out["combos"] == [{"name": "Pasch", "dice": [6, 6], "attack": 36, "shield": 8, "heal": 6}]
    cfg = load_config(DungeonConfig, "dungeon", None, ["loadout.upgrades=['paschmeister','paschmeister']"])
    assert combos_json([6, 6, 1, 3, 5], cfg)["total_attack"] == 36


# --- 2. Glückssieben: a 1 counts as 7 in straights too (``upgrades.glueckssieben.in_straights``) ----------------

LUCKY = "loadout.upgrades=['glueckssieben']"


def lucky_cfg(in_straights: bool = True, *more: str):
    return load_config(DungeonConfig, "dungeon", None,
                       [LUCKY, f"upgrades.glueckssieben.in_straights={str(in_straights).lower()}", *more])


def _group(dice, lucky, in_straights):
    """(kind, a, b) of a group of dice by the seed's words, with the 1 as 7 where Glückssieben says so."""
    g = sorted(dice)
    n = len(g)
    if n >= 2 and len(set(g)) == 1:
        return {2: R.PASCH, 3: R.DRILLING, 4: R.VIERLING, 5: R.FUENFLING, 6: R.SECHSLING}[n], g[0], 0
    ranks = sorted(7 if (d == 1 and lucky and in_straights) else d for d in g)
    if n in (4, 5) and len(set(ranks)) == n and ranks[-1] - ranks[0] == n - 1:
        return (R.KLEINE if n == 4 else R.GROSSE), ranks[0], 0
    if n == 5:
        vals = sorted(set(g), key=g.count)
        if len(vals) == 2 and g.count(vals[0]) == 2:
            return R.FULL_HOUSE, vals[0], vals[1]
    return None


def _worth(kind, a, b, lucky):
    """Attack and shield + heal from the seed's formulas, W = 7 for a 1 with Glückssieben."""
    a = 7 if lucky and a == 1 and kind not in (R.KLEINE, R.GROSSE) else a
    b = 7 if lucky and b == 1 else b
    att = {R.PASCH: 2 * a, R.DRILLING: 4 * a, R.KLEINE: 14, R.FULL_HOUSE: 2 * a + 4 * b + 8, R.VIERLING: 7 * a,
           R.GROSSE: 22, R.FUENFLING: 12 * a, R.SECHSLING: 18 * a}[kind]
    sh = {R.PASCH: 2 * a + 2, R.DRILLING: 4 * a + 3, R.KLEINE: 17, R.FULL_HOUSE: 2 * a + 4 * b + 12,
          R.VIERLING: 7 * a + 4, R.GROSSE: 26, R.FUENFLING: 12 * a + 6, R.SECHSLING: 18 * a + 8}[kind]
    he = {R.PASCH: a, R.DRILLING: 2 * a, R.KLEINE: 7, R.FULL_HOUSE: a + 2 * b + 4, R.VIERLING: 3 * a, R.GROSSE: 11,
          R.FUENFLING: 5 * a, R.SECHSLING: 7 * a}[kind]
    return att, int(np.floor(sh * 0.6 + 0.5)) + he


def _brute(dice, lucky, in_straights):
    """Best (attack, -combos, shield + heal) over every labelling of the dice into at most three groups."""
    best = None
    n = len(dice)
    for labels in itertools.product(range(4), repeat=n):
        combos = []
        for g in (1, 2, 3):
            grp = [dice[i] for i in range(n) if labels[i] == g]
            if grp:
                combos.append(_group(grp, lucky, in_straights))
        if None in combos:
            continue
        ds = {c[1] for c in combos if c[0] == R.DRILLING}
        ps = {c[1] for c in combos if c[0] == R.PASCH}
        if any(d != p for d in ds for p in ps):
            continue
        vals = [_worth(*c, lucky) for c in combos]
        key = (sum(v[0] for v in vals), -len(combos), sum(v[1] for v in vals))
        best = key if best is None or key > best else best
    return best


def _shown(fz, dice):
    k = R.ms_index(dice)
    part, cv = fz.part[0], fz.cvals[0]
    ids = [int(c) for c in part[k, 1 : 1 + part[k, 0]]]
    return ids, (sum(cv[c, 0] for c in ids), -len(ids), sum(cv[c, 1] + cv[c, 2] for c in ids))


def test_glueckssieben_straights_hand_picked():
    on, off = freeze(lucky_cfg(True), "leicht"), freeze(lucky_cfg(False), "leicht")

    def names(fz, dice):
        return [(R.combo_name(c), R.combo_dice(c)) for c in _shown(fz, dice)[0]]

    assert names(on, [3, 4, 5, 6, 1]) == [("Große Straße", [3, 4, 5, 6, 1])]  # 3-4-5-6-7
    assert names(off, [3, 4, 5, 6, 1]) == [("Kleine Straße", [3, 4, 5, 6])]
    assert names(on, [4, 5, 6, 1, 2]) == [("Kleine Straße", [4, 5, 6, 1])]  # 4-5-6-7
    assert names(on, [1, 2, 3, 4, 6]) == []  # 2-3-4-6-7: no straight when the 1 is a 7
    assert names(off, [1, 2, 3, 4, 6]) == [("Kleine Straße", [1, 2, 3, 4])]
    assert names(on, [1, 2, 3, 4, 5]) == [("Kleine Straße", [2, 3, 4, 5])]
    assert names(off, [1, 2, 3, 4, 5]) == [("Große Straße", [1, 2, 3, 4, 5])]
    assert names(on, [1, 1, 2, 3, 4]) == [("Pasch", [1, 1])]  # the Pasch of 7s (14) is all that is left
    assert _shown(on, [3, 4, 5, 6, 1])[1][0] == 22 and _shown(on, [1, 1, 2, 3, 4])[1][0] == 14
    # a straight through 7 pays the 1 as 7 in its coins: 6 + 18 + 3 + 4 + 5 + 6 + 7
    assert on.cvals[0, cid(R.GROSSE, 3), 3] == 6 + 18 + 25
    # without Glückssieben the straights through 7 are no combos, whatever the switch
    assert names(FZ, [3, 4, 5, 6, 1]) == [("Kleine Straße", [3, 4, 5, 6])]
    assert names(FZ, [1, 2, 3, 4, 6]) == [("Kleine Straße", [1, 2, 3, 4])]


def test_glueckssieben_partition_of_every_5_dice_roll_matches_brute_force():
    for in_straights in (True, False):
        fz = freeze(lucky_cfg(in_straights), "leicht")
        for roll in itertools.combinations_with_replacement(range(1, 7), 5):
            assert _shown(fz, list(roll))[1] == _brute(roll, True, in_straights), (in_straights, roll)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=6, max_size=6), st.booleans())
def test_glueckssieben_partition_6_dice_matches_brute_force(dice, in_straights):
    fz = _lucky_frozen(in_straights)
    assert _shown(fz, dice)[1] == _brute(tuple(sorted(dice)), True, in_straights)


@cache
def _lucky_frozen(in_straights):
    return freeze(lucky_cfg(in_straights), "leicht")


def test_no_shown_partition_holds_a_straight_that_is_none():
    cases = ((_lucky_frozen(True), R.C_ONE_STRAIGHT), (_lucky_frozen(False), R.C_SEVEN), (FZ, R.C_SEVEN))
    for fz, bad in cases:
        ids = fz.part[0, :, 1:][fz.part[0, :, 1:] >= 0]
        assert not bad[ids].any()
    assert (R.C_SEVEN.sum(), R.C_ONE_STRAIGHT.sum()) == (2, 2)


def test_glueckssieben_straights_in_played_runs():
    """The kernel plays them: with the switch a straight through 7 is played and none from 1, without it the
    reverse (event logs of whole runs with Glückssieben from the start)."""
    for in_straights in (True, False):
        cfg = lucky_cfg(in_straights)
        fz, hold = frozen(cfg, "leicht")
        played = set()
        for run in range(40):
            _, log = RUNS.run_one(POLICIES["vorschlag"], 5, run, fz, hold, TM, len(column_names(cfg)), 20_000)
            played |= {int(r[3]) for r in log if r[0] == P.LG_COMBO}
        played = np.array(sorted(played))
        seven, one = R.C_SEVEN[played].any(), R.C_ONE_STRAIGHT[played].any()
        assert (seven, one) == ((True, False) if in_straights else (False, True))


# --- 3. "ohne Heilung": a heal joker counts as healing (``challenges.joker_heal_counts``) ------------------------

def _joker_rooms(joker_heal_counts: bool):
    """(met, heal joker drunk, heal combos played) of every won room whose challenge is "ohne Heilung", from whole
    runs that start with three heal jokers."""
    cfg = load_config(DungeonConfig, "dungeon", None, ["loadout.jokers=['heiltrank','heiltrank','heiltrank']",
                                                       f"challenges.joker_heal_counts={str(joker_heal_counts).lower()}"])
    fz, hold = frozen(cfg, "leicht")
    out = []
    for run in range(60):
        _, log = RUNS.run_one(POLICIES["vorschlag"], 3, run, fz, hold, TM, len(column_names(cfg)), 20_000)
        for end in (r for r in log if r[0] == P.LG_END and r[3] == 1):
            room = int(end[1])
            if L.CHALLENGES[fz.rooms[room - 1, L.RM_CHALLENGE]] != "ohne_heilung":
                continue
            joker = any(r[0] == P.LG_JOKER and r[1] == room and r[4] == L.JK_HEAL for r in log)
            combo = any(r[0] == P.LG_COMBO and r[1] == room and r[4] == R.HEAL for r in log)
            out.append((bool(end[5]), joker, combo))
    return out


def test_a_heal_joker_breaks_ohne_heilung():
    rooms = _joker_rooms(True)
    assert any(j and not c for _, j, c in rooms)  # the case the reading decides occurs
    assert all(met == (not j and not c) for met, j, c in rooms)
    rooms = _joker_rooms(False)  # the other reading: only heal combos count
    assert any(j and not c for _, j, c in rooms)
    assert all(met == (not c) for met, j, c in rooms)


# --- 4. Vereinen: a Vierling or larger that the shown partition splits may be rejoined --------------------------

def _fs(ehp, lp, incoming, maxlp=50.0, shield=0.0):
    fs = np.zeros(FS_SIZE)
    fs[FS_EHP], fs[FS_LP], fs[FS_MAXLP], fs[FS_INCOMING], fs[FS_SHIELD], fs[FS_ATT_MUL] = ehp, lp, maxlp, incoming, \
        shield, 1.0
    return fs


def _assign(fz, dice, fs):
    k = R.ms_index(dice)
    part, cv = fz.part[0], fz.cvals[0]
    ids, roles = np.zeros(4, np.int64), np.zeros(4, np.int64)
    m, v = best_assignment(fs, part[k, 1:], part[k, 0], cv, ids, roles, RATING, np.zeros(16, np.int64))
    return [(R.combo_name(int(c)), int(r)) for c, r in zip(ids[:m], roles[:m], strict=True)], v


def test_vereinen_rejoins_a_split_vierling_for_shield():
    fz = freeze(load_config(DungeonConfig, "dungeon", None, ["loadout.upgrades=['paschmeister']"]), "leicht")
    k = R.ms_index([4, 4, 4, 4, 1])
    assert [R.combo_name(int(c)) for c in fz.part[0, k, 1 : 1 + fz.part[0, k, 0]]] == ["Pasch", "Pasch"]  # 16 + 16
    cv = fz.cvals[0]
    assert (cv[cid(R.PASCH, 4), 1] * 2, cv[cid(R.VIERLING, 4), 1]) == (12, 19)  # the whole shields more
    # a hit of 25 at 20 LP: two Pasch on shield leave 7 LP, the Vierling 14; attack cannot kill (1000 LP)
    combos, v = _assign(fz, [4, 4, 4, 4, 1], _fs(1000.0, 20.0, 25.0))
    assert combos == [("Vierling", R.SHIELD)]
    # where the parts are worth more, they stay apart: a kill this turn
    assert _assign(fz, [4, 4, 4, 4, 1], _fs(30.0, 20.0, 25.0))[0] == [("Pasch", R.ATTACK), ("Pasch", R.ATTACK)]
    # six dice: Pasch 5 + Pasch 5 + Pasch 2 (48 attack) -> the Vierling of 5s (shield 23) survives a hit of 40
    combos, _ = _assign(fz, [5, 5, 5, 5, 2, 2], _fs(1000.0, 20.0, 40.0))
    assert ("Vierling", R.SHIELD) in combos and len(combos) == 2
    # three Paschmeister split a Sechsling of 6s into three Pasch (3 x 48 > 108); rejoined it heals 42, and only
    # the whole survives a hit of 40 at 8 LP
    three = "loadout.upgrades=['paschmeister','paschmeister','paschmeister']"
    fz3 = freeze(load_config(DungeonConfig, "dungeon", None, [three]), "leicht")
    assert [R.combo_name(int(c)) for c in fz3.part[0, R.ms_index([6] * 6), 1:4]] == ["Pasch"] * 3
    combos, _ = _assign(fz3, [6] * 6, _fs(1000.0, 8.0, 40.0))
    assert combos == [("Sechsling", R.HEAL)]


def test_vereinen_in_played_runs():
    """With Paschmeister every Vierling is split when shown (8W > 7W), so each one played was rejoined: on shield or
    heal, where the whole is worth more (event logs of whole runs)."""
    cfg = load_config(DungeonConfig, "dungeon", None, ["loadout.upgrades=['paschmeister']"])
    fz, hold = frozen(cfg, "leicht")
    roles = []
    for run in range(80):
        _, log = RUNS.run_one(POLICIES["vorschlag"], 7, run, fz, hold, TM, len(column_names(cfg)), 20_000)
        roles += [int(r[4]) for r in log if r[0] == P.LG_COMBO and R.C_KIND[r[3]] == R.VIERLING]
    assert roles and set(roles) <= {R.SHIELD, R.HEAL}


# --- 5. the kernel enforces the rules: what a policy asks and the rules forbid is refused and counted ------------

def _logs(cfg, pid, seed, runs, difficulty="leicht"):
    fz, hold = frozen(cfg, difficulty)
    return [RUNS.run_one(pid, seed, r, fz, hold, TM, len(column_names(cfg)), 20_000) for r in runs]


def _rows(log, kind):
    return [r for r in log if r[0] == kind]


@pytest.mark.parametrize("policy, n, difficulty, more", [
    ("vorschlag", 400, "leicht", []),
    ("greedy", 400, "normal", []),
    ("random", 400, "leicht", []),
    ("expectimax", 40, "leicht", []),
    ("vorschlag@gluecksmuenze", 300, "schwer", []),
    ("greedy@gluecksmuenze", 300, "leicht", []),
    ("expectimax@gluecksmuenze", 30, "normal", []),
    ("vorschlag", 300, "leicht", ["skill.level=0.5", "loadout.jokers=['wuerfel_setzen','extra_wurf','heiltrank']"]),
    ("rollout", 4, "leicht", ["rollout.k=2"]),
])
def test_shipped_policies_make_no_forbidden_request(policy, n, difficulty, more):
    cfg = GAME.load(overrides=more) if more else GCFG
    t = run_batch(GAME, cfg, [policy], n, 27, {"difficulty": difficulty}, progress=False).table
    assert (t["illegal_requests"] == 0).all()
    assert t["adjusts"].sum() > 0 or policy in ("random", "rollout")  # the bots did ask


def test_a_broken_policy_is_refused_and_counted():
    """The test policy ``BROKEN`` asks for an adjust past the budget, beyond ±1, out of 1..6 or on a cursed die at
    every hold, holds that reroll cursed dice, and a last chance after every turn's rolls: the kernel refuses each,
    counts it, and the run still keeps the rules (event logs)."""
    cfg = GAME.load(overrides=["start.coins=0"])  # no last chance can be paid at first
    total = 0
    for row, log in _logs(cfg, BROKEN, 4, range(12)):
        total += row[O_ILLEGAL]
        cursed = {(r[1], r[2]): int(r[11]) for r in _rows(log, P.LG_TURN)}
        lcs = [r[1] for r in _rows(log, P.LG_LC)]
        assert all(lcs.count(room) <= 1 for room in lcs)  # one last chance per fight
        assert all(r[3] >= 0 for r in _rows(log, P.LG_LC))  # never without the coins
        adj = [r for r in _rows(log, P.LG_ADJ)]
        assert not adj  # every adjust it asks is forbidden: none happens
        for r in _rows(log, P.LG_ROLL):
            if r[3] > 1:  # a reroll: the cursed dice are held
                assert r[5] & cursed[(r[1], r[2])] == cursed[(r[1], r[2])]
        assert row[O_ILLEGAL] > 0
    # the batch counts the same refusals as the single run
    fz, cache = frozen(cfg, "leicht")
    out = np.zeros((12, len(column_names(cfg))))
    RUNS.play_batch(BROKEN, 4, 0, 12, fz, cache, TM, out)
    assert out[:, O_ILLEGAL].sum() == total


def test_a_second_last_chance_is_refused_in_the_fight():
    """With coins to spare ``BROKEN`` buys the fight's one last chance in its first turn; its ask after every later
    turn is refused and counted."""
    cfg = GAME.load(overrides=["start.coins=100000"])
    later = 0
    for row, log in _logs(cfg, BROKEN, 6, range(8)):
        turns = {}
        for r in _rows(log, P.LG_TURN):
            turns[r[1]] = max(turns.get(r[1], 0), r[2])
        assert sorted(r[1] for r in _rows(log, P.LG_LC)) == sorted(turns)  # one per fight, no more
        assert all(r[2] == 1 for r in _rows(log, P.LG_LC))
        later += sum(n - 1 for n in turns.values())
        assert row[O_ILLEGAL] >= sum(n - 1 for n in turns.values())
    assert later > 0


def test_shield_drops_at_the_next_turn_eherne_mauer_keeps_15():
    """At every turn after the first the shield is what the enemy's turn left, cut to 0 (Eherne Mauer: to at most
    15). The Kristallhöhlen's start shield is raised to 40 so that more than 15 is often left; no rewards or market,
    so the loadout stays the start's."""
    for upgrades, keep in (("['eherne_mauer','dicke_haut']", 15), ("['dicke_haut']", 0)):
        cfg = GAME.load(overrides=[f"loadout.upgrades={upgrades}", "sections.kristallhoehlen.player_shield=40",
                                   "rewards.enabled=false", "market.enabled=false"])
        above = kept = 0
        for _, log in _logs(cfg, POLICIES["vorschlag"], 2, range(40)):
            after = {}
            for r in log:
                if r[0] == P.LG_ENEMY:
                    after[(r[1], r[2])] = int(r[6])  # shield after the enemy's turn
                elif r[0] == P.LG_TURN and r[2] > 1:
                    prev = after[(r[1], r[2] - 1)]
                    assert r[4] == min(prev, keep)
                    above += prev > 15
                    kept += r[4] > 0
        assert above > 0 and (kept > 0) == (keep > 0)


def test_coin_caps_120_and_160_at_their_defaults():
    cfg = GAME.load(overrides=["coins.action_base=200"])  # every action would pay more than a fight's cap
    assert (cfg.coins.fight_cap, cfg.coins.boss_fight_cap) == (120, 160)
    per_fight = {}
    for i, (_, log) in enumerate(_logs(cfg, POLICIES["vorschlag"], 3, range(30))):
        for r in _rows(log, P.LG_COMBO):
            per_fight[(i, r[1])] = per_fight.get((i, r[1]), 0) + int(r[6])
    boss = {(i, room): v for (i, room), v in per_fight.items() if room in (5, 10)}
    normal = {k: v for k, v in per_fight.items() if k not in boss}
    assert boss and max(boss.values()) == 160 and max(normal.values()) == 120


def test_rostratte_steals_at_most_12_a_turn():
    rat = list(GCFG.enemies).index("rostratte")
    steals = []
    for _, log in _logs(GCFG, POLICIES["vorschlag"], 5, range(60)):
        rooms = {r[1] for r in _rows(log, P.LG_ROOM) if r[4] == rat}
        steals += [int(r[9]) for r in _rows(log, P.LG_ENEMY) if r[1] in rooms]
        assert all(r[9] <= 12 for r in _rows(log, P.LG_ENEMY))
    assert steals and max(steals) == 12


def test_what_an_adjust_may_be():
    """The kernel's check of one adjust request: ±1 within 1..6, a die that is not cursed, one adjust left."""
    from sim.games.dungeon.player import adjust_allowed

    assert adjust_allowed(3, 4, 0, 1, 1) and adjust_allowed(3, 2, 0, 1, 1) and adjust_allowed(6, 5, 0, 1, 2)
    assert not adjust_allowed(3, 5, 0, 1, 1)  # beyond ±1
    assert not adjust_allowed(6, 7, 0, 1, 1) and not adjust_allowed(1, 0, 0, 1, 1)  # outside 1..6
    assert not adjust_allowed(3, 4, 1, 1, 1)  # a cursed die
    assert not adjust_allowed(3, 4, 0, 1, 0)  # past the budget
    assert not adjust_allowed(3, 3, 0, 1, 1)  # no turn at all
    assert adjust_allowed(3, 5, 0, 2, 1)  # turn.adjust_step = 2 allows ±2


def _events(sets: list[str], seed: int, run: int, difficulty: str = "normal") -> list[dict]:
    from sim.core.events import replay_json

    opts = GAME.check_options({"difficulty": difficulty})
    cfg = GAME.load(None, sets)
    seats = GAME.seat_policies("vorschlag", opts)
    GAME.prepare(cfg, seats, opts)
    return replay_json(GAME, cfg, seats, seed, run, opts)["sections"][0]["events"]


def test_berserker_is_judged_at_the_attack_after_a_heal_joker():
    """"Am Zugende rechnet das Spiel … ab: Angriff … Berserker hebt auf 125 %": a Heiltrank that lifts LP from 16 to
    28 of 50 in the same turn ends Berserker for that attack (the kernel judged it at the turn's start: a Pasch of 6s
    dealt 15, not 12). Without the potion, at 16 of 50, the same Pasch deals 15."""
    sets = ["loadout.upgrades=['berserker']", "loadout.jokers=['heiltrank','heiltrank','heiltrank']"]
    ev = _events(sets, 5, 1)
    at = next(i for i, e in enumerate(ev) if e["event"] == "joker" and (e["room"], e["turn"]) == (1, 3))
    assert ev[at]["detail"][:2] == [12, 28]  # +12 LP → 28 of 50: above half
    (pasch,) = [e for e in ev[at:] if e["event"] == "combo" and (e["room"], e["turn"]) == (1, 3) and e["role"] == 1]
    assert (R.combo_name(pasch["combo"]), R.combo_dice(pasch["combo"]), pasch["crit"]) == ("Pasch", [6, 6], 0)
    assert pasch["amount"] == 2 * 6  # the seed's Pasch 2W, no Berserker
    half = [e for e in _events(sets[:1], 5, 1) if e["event"] == "combo" and e["role"] == 1 and not e["crit"]]
    turns = {(e["room"], e["turn"]): e for e in _events(sets[:1], 5, 1) if e["event"] == "turn"}
    low = [e for e in half if R.combo_dice(e["combo"]) == [6, 6]
           and turns[(e["room"], e["turn"])]["lp"] <= 25 and not turns[(e["room"], e["turn"])]["weakened"]]
    assert low and all(e["amount"] == 15 for e in low)  # 12 × 1.25 where LP stays at half or below
