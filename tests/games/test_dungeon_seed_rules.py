"""The seed's rules as the run kernel plays them, read turn by turn from its event logs (the log ``replay``
renders, written by the same code path as the batch). Every expected number is read from the config."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from sim.games.dungeon import config as C
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon import runs as RUNS
from sim.games.dungeon.game import GAME, TM, frozen
from sim.games.dungeon.rows import IN

CFG = GAME.load()
# rewards and market off: between two fights only the path (Rastplatz, Geheimnis) changes LP and coins
BARE = GAME.load(overrides=["rewards.enabled=false", "market.enabled=false",
                            "loadout.jokers=['wuerfel_setzen', 'wuerfel_setzen', 'extra_wurf']"])


@cache
def logs(policy: str, seed: int, n: int, bare: bool = True, diff: str = "leicht"):
    cfg = BARE if bare else CFG
    fz, hold = frozen(cfg, diff)
    n_cols = P.n_columns(fz)
    return tuple(RUNS.run_one(GAME.policies.index(policy), seed, r, fz, hold, TM, n_cols, 20_000)[1] for r in range(n))


def rows(log, kind):
    return [r for r in log if r[0] == kind]


def before_room(log, room, start):
    """(LP, coins) when the path of ``room`` is chosen: after the previous fight (BARE config)."""
    ends = [r for r in rows(log, P.LG_END) if r[1] == room - 1]
    if not ends:
        return start
    return ends[0][7], ends[0][6]


def test_resolution_order_attack_heal_shield_enemy_and_the_lethal_skip():
    """Attack first (a kill skips the enemy turn), then heal, then shield, then the enemy's hits take shield
    first: the LP and shield after our actions and after the enemy's turn follow exactly from the log."""
    fz, _ = frozen(BARE, "leicht")
    checked = lethal = 0
    for log in logs("vorschlag", 7, 60):
        turns = {(r[1], r[2]): r for r in rows(log, P.LG_TURN)}
        enemy = {(r[1], r[2]): r for r in rows(log, P.LG_ENEMY)}
        combos: dict[tuple[int, int], list] = {}
        for c in rows(log, P.LG_COMBO):
            combos.setdefault((c[1], c[2]), []).append(c)
        for res in rows(log, P.LG_RESOLVE):
            key = (res[1], res[2])
            tr = turns[key]
            cs = combos.get(key, [])
            healed = sum(c[5] for c in cs if c[4] == R.HEAL)
            shielded = sum(c[5] for c in cs if c[4] == R.SHIELD)
            assert res[5] == tr[3] + healed  # heal (eff: LP actually healed) lands on the turn's LP
            assert res[6] == tr[4] + shielded  # shield adds to what is left of the turn-start shield
            if res[3] <= 0:  # attack killed it: no enemy turn ("Tödlich")
                assert key not in enemy
                lethal += 1
                continue
            en = enemy[key]
            if en[10] > 0 and en[8] <= 0:
                continue  # poison finished it before it could act
            it = tr[7]
            hits = int(fz.intents[it, IN.hits])
            per_hit = tr[8] // hits if tr[8] > 0 else 0
            shield, taken = float(res[6]), 0.0
            for _ in range(hits if per_hit > 0 else 0):
                a = min(shield, per_hit)
                shield -= a
                taken += per_hit - a
            assert en[4] == taken and en[5] == res[5] - taken and en[6] == shield
            checked += 1
    assert checked > 200 and lethal > 50


def test_rastplatz_heals_before_the_fight():
    rest = CFG.path.rest_heal
    start = (CFG.start.lp, CFG.start.coins)
    seen = 0
    for log in logs("vorschlag", 3, 150):
        for rm in rows(log, P.LG_ROOM):
            if rm[3] == 2:  # Rastplatz
                lp0, _ = before_room(log, rm[1], start)
                assert rm[8] == min(CFG.start.lp, lp0 + rest)
                seen += 1
    assert seen > 20


def test_geheimnis_events_pay_and_cost_what_the_seed_says():
    """Opferaltar: −6 LP and +1 attack on every combo for the rest of the run; Joker-Händler: the last joker
    for +70 coins; Verfluchte Truhe: +45 coins and die 1 cursed in the first turn of the next fight."""
    ev = CFG.path.events
    start = (CFG.start.lp, CFG.start.coins)
    seen = {C.EV_ALTAR: 0, C.EV_JOKER: 0, C.EV_TRUHE: 0}
    for log in logs("random", 5, 800):  # random opens every Geheimnis card it draws and accepts half
        for e in rows(log, P.LG_EVENT):
            room, event, acc, lp, coins = e[1], e[3], e[4], e[5], e[6]
            lp0, coins0 = before_room(log, room, start)
            if not acc:
                assert (lp, coins) == (lp0, coins0)
                continue
            seen[event] += 1
            if event == C.EV_ALTAR:
                assert (lp, coins) == (lp0 - ev.altar_lp, coins0)
            elif event == C.EV_JOKER:
                assert (lp, coins) == (lp0, coins0 + ev.joker_haendler_coins) and e[7] >= 0
            else:
                assert (lp, coins) == (lp0, coins0 + ev.truhe_coins)
                first = [t for t in rows(log, P.LG_TURN) if t[1] == room and t[2] == 1][0]
                assert (first[11] >> (ev.truhe_cursed_die - 1)) & 1
    assert min(seen.values()) >= 5, seen
    # the altar's +1 per combo: the profile of altar level a adds a × altar_attack to every combo's attack (the
    # rows that are no combo without Glückssieben, its straights through 7, stay 0)
    fz, _ = frozen(CFG, "leicht")
    combo = R.combo_valid(False, True)
    for a in range(1, 4):
        assert np.array_equal(fz.cvals[a, combo, 0], fz.cvals[0, combo, 0] + a * ev.altar_attack)
        assert not fz.cvals[a, ~combo].any()
        assert np.array_equal(fz.cvals[a, :, 1:], fz.cvals[0, :, 1:])


def test_letzte_chance_costs_its_coins():
    cost = CFG.turn.last_chance_cost
    seen = 0
    for log in logs("expectimax", 9, 150):  # buys the last chance whenever it pays
        for lc in rows(log, P.LG_LC):
            if lc[2] == 1:  # first turn: the coins at the room's start are the coins before buying
                rm = [r for r in rows(log, P.LG_ROOM) if r[1] == lc[1]][0]
                assert lc[3] == rm[9] - cost
                seen += 1
    assert seen > 5


def test_justieren_bounds():
    """±adjust_step within 1..6, never a cursed die, at most turn.adjusts per fight (without Glücksmünze)."""
    step = CFG.turn.adjust_step
    n = 0
    for log in logs("expectimax", 2, 40):
        per_fight: dict[int, int] = {}
        turns = {(r[1], r[2]): r for r in rows(log, P.LG_TURN)}
        for a in rows(log, P.LG_ADJ):
            room, turn, die, old, new = a[1], a[2], a[3], a[4], a[5]
            assert 1 <= new <= 6 and abs(new - old) == step
            assert not (turns[(room, turn)][11] >> die) & 1
            per_fight[room] = per_fight.get(room, 0) + 1
            n += 1
        assert all(v <= CFG.turn.adjusts for v in per_fight.values())
    assert n > 20


def test_action_coins_exactly():
    """Per action kind in a fight: 100 %, 50 %, 25 %, then 0 of (6 + combo bonus + pip sum), rounded down, cut at
    the fight cap; ``greedy`` assigns attack only (always useful), so every paid coin is predicted exactly, and
    the fight's total is the sum."""
    fz, _ = frozen(BARE, "leicht")
    cv = fz.cvals[0]
    steps = np.array(CFG.coins.steps)
    nth_seen = set()
    for log in logs("greedy", 4, 60):
        if rows(log, P.LG_EVENT):
            continue  # an accepted altar changes the combo values' profile
        paid: dict[int, float] = {}
        nth: dict[int, int] = {}
        for c in rows(log, P.LG_COMBO):
            room = c[1]
            if c[4] != R.ATTACK:  # greedy's rare survival assignment: its coins count toward the cap
                paid[room] = paid.get(room, 0) + c[6]
                continue
            cap = CFG.coins.boss_fight_cap if str(room) in CFG.rooms.bosses else CFG.coins.fight_cap
            k = nth.get(room, 0)
            base = CFG.coins.action_base + getattr(CFG.combos, R.KINDS[R.C_KIND[c[3]]]).coin_bonus + R.C_PIPS[c[3]]
            assert cv[c[3], 3] == base
            want = int(np.floor(base * steps[k])) if k < len(steps) else 0
            want = min(want, cap - paid.get(room, 0))
            assert c[6] == want, (room, k, base)
            nth_seen.add(k)
            nth[room] = k + 1
            paid[room] = paid.get(room, 0) + want
        for end in rows(log, P.LG_END):
            assert end[8] == paid.get(end[1], 0)
    assert {0, 1, 2, 3} <= nth_seen


def test_glueckssieben_counts_a_one_as_seven_in_the_coin_pips():
    lucky = GAME.load(overrides=["loadout.upgrades=['glueckssieben']", "combos.glueckssieben_coins=true"])
    plain = GAME.load(overrides=["loadout.upgrades=['glueckssieben']", "combos.glueckssieben_coins=false"])
    face = CFG.combos.glueckssieben_face
    cl = frozen(lucky, "leicht")[0].cvals[0]
    cp = frozen(plain, "leicht")[0].cvals[0]
    combo = R.combo_valid(True, lucky.upgrades["glueckssieben"].in_straights)
    for c in range(R.N_COMBO):
        ones = int(R.C_COUNTS[c, 0])
        if not combo[c]:  # a straight from 1, none when the 1 is a 7: worth nothing
            assert cl[c, 3] == cp[c, 3] == 0
            continue
        assert cl[c, 3] == cp[c, 3] + ones * (face - 1)
    drilling_1 = R.C_INDEX[(R.DRILLING, 1, 0)]
    assert cl[drilling_1, 3] == CFG.coins.action_base + CFG.combos.drilling.coin_bonus + 3 * face


def test_reward_item_slots_statistically():
    """Slot 1 is always an upgrade; slots 2 and 3 are a joker or dice bonus with 25 % each (fixed seed,
    4 standard errors)."""
    n_up = len(CFG.upgrades)
    p = CFG.rewards.item_chance
    first = 0
    later = []
    for log in logs("vorschlag", 12, 400, bare=False):
        for r in rows(log, P.LG_REWARD):
            first += r[3] >= n_up
            later += [r[4] >= n_up, r[5] >= n_up]
    assert first == 0
    k = len(later)
    assert k > 1000
    assert abs(np.mean(later) - p) < 4 * np.sqrt(p * (1 - p) / k)


@pytest.mark.parametrize("diff", C.DIFFICULTIES)
def test_boss_rooms_have_a_path_and_elite_bosses(diff):
    """A path before the boss rooms: Elite is the boss with LP × 1.25 (+40 coins), Rastplatz +8 LP first."""
    fz, _ = frozen(CFG, diff)
    d = getattr(CFG.difficulty, diff)
    seen = set()
    for log in logs("vorschlag", 21, 300, bare=False, diff=diff) + logs("greedy", 21, 300, bare=False, diff=diff):
        for rm in rows(log, P.LG_ROOM):
            if str(rm[1]) in CFG.rooms.bosses:
                base = CFG.enemies[CFG.rooms.bosses[str(rm[1])]].hp
                want = R.round_half_up(base * d.boss)  # the boss's LP, and an Elite's × 1.25 of it, rounded again
                want = R.round_half_up(want * CFG.path.elite_hp) if rm[3] == 1 else want
                assert rm[5] == want
                seen.add(rm[3])
    assert seen == {0, 1, 2, 3}


def test_thinking_time_per_decision():
    """The time model adds ``time.seconds_per_decision`` per decision: a hold before each roll after the
    first and each turn's assignment, i.e. once per roll of the run; play itself does not change."""
    from sim.core.batch import run_batch

    think = CFG.time.seconds_per_decision
    assert think > 0
    fast = GAME.load(overrides=["time.seconds_per_decision=0.0"])
    a = run_batch(GAME, CFG, ["vorschlag"], 500, 3, {"difficulty": "leicht"}, progress=False).table
    b = run_batch(GAME, fast, ["vorschlag"], 500, 3, {"difficulty": "leicht"}, progress=False).table
    assert (a["rolls"] == b["rolls"]).all() and (a["win"] == b["win"]).all()
    assert np.allclose(a["seconds"] - b["seconds"], think * a["rolls"])
