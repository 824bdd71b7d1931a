"""The player's turn in a Würfel Dungeon fight, step by step as the seed's turn goes.

1. ``open_turn``: the shield kept, the dice this turn (an eaten die is missing, cursed dice stay as rolled), the
   enemy's announced hit and the fight state the policies read;
2. ``roll_and_hold``: the first roll, then each reroll: Justieren before the hold decision, the hold, the reroll;
3. ``extra_rolls``: a joker's extra rerolls, then the last chance bought with coins;
4. ``set_faces``: the adjusts left, then the joker that sets one die to any face;
5. ``heal_joker``: a heal joker before the assignment;
6. ``assign``: the dice become combos with roles, and the hero ability may boost one.

Every decision is the policy's (``policies.dungeon.bots``'s dispatchers), or below full skill possibly random's move
(``_who``). The steps read and write the fight record ``f`` and the run record ``rs`` (``runstate``) and are
inlined into the fight (``fight``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.dungeon.bots import (
    MAX_ADJ,
    MAX_LEVELS,
    adjust_hold_considered,
    decide_adjust,
    decide_adjust_hold,
    decide_assign,
    decide_hero,
    decide_joker_heal,
    decide_joker_reroll,
    decide_keep,
    decide_last_chance,
    decide_set_die,
    expectation_tables,
    last_chance_considered,
    needs_etab,
)
from policies.dungeon.skill import who
from sim.core.rng import die
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.draws import find_joker, pop_joker
from sim.games.dungeon.eventlog import (
    LG_ADJ,
    LG_HERO,
    LG_JOKER,
    LG_LC,
    LG_ROLL,
    LG_TURN,
    log_event,
    pack_dice,
)
from sim.games.dungeon.rows import IN
from sim.games.dungeon.table import (
    O_ADJUSTS,
    O_HEALED,
    O_HERO,
    O_ILLEGAL,
    O_JK_HEAL,
    O_JK_REROLL,
    O_JK_SET,
    O_JK_USED,
    O_LC,
    O_ROLLS,
)
from sim.games.dungeon.words import (
    FS_ATT_MUL,
    FS_COINS,
    FS_EBLOCK,
    FS_EHP,
    FS_EPOISON,
    FS_INCOMING,
    FS_LC_COST,
    FS_LC_OK,
    FS_LP,
    FS_MAXLP,
    FS_SHIELD,
)
from sim.jit.scalar import smax, smin, trunc
from sim.jit.tier import INLINE

# int64 constants, not literals: a literal argument compiles a called helper once per value (the quick tier calls)
REROLL, LAST_CHANCE, JOKER_ROLL = np.int64(0), np.int64(1), np.int64(2)  # how a roll came (``_roll_again``)
LAST_ROLL = np.int64(1)  # rolls left at the hold before a last chance or a joker's extra roll


@njit(cache=True, error_model="numpy", inline=INLINE)
def _ms(dice, nd, mask, want, ioc):
    """Multiset index of the dice whose bit in ``mask`` equals ``want`` (``want`` -1: all dice)."""
    code = 0
    for i in range(nd):
        if want < 0 or ((mask >> i) & 1) == want:
            code += R.POW7_T[dice[i] - 1]
    return ioc[code]


@njit(cache=True, error_model="numpy", inline=INLINE)
def _reroll(dice, nd, cursed_mask, keep, counts, st, kc):
    """Reroll every die not in multiset ``keep`` (cursed dice are kept first, whatever the hold asks). Returns the
    held mask and whether the hold was one the rules forbid (it rerolls a cursed die, or holds dice that are not
    there): refused, the cursed dice stay and the rest rolls as asked."""
    for f in range(6):
        kc[f] = counts[keep, f]
    held = 0
    bad = False
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            if kc[dice[i] - 1] <= 0:
                bad = True
            kc[dice[i] - 1] -= 1
            held |= 1 << i
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            continue
        if kc[dice[i] - 1] > 0:
            kc[dice[i] - 1] -= 1
            held |= 1 << i
        else:
            dice[i] = die(st)
    for f in range(6):
        if kc[f] > 0:
            bad = True
    return held, bad


@njit(cache=True, error_model="numpy", inline=INLINE)
def adjust_allowed(face, new_face, cursed, step, adjusts):
    """Whether turning a die from ``face`` to ``new_face`` is an adjust the rules allow: one left this fight, a die
    that is not cursed, a turn by 1..``step`` pips, a face within 1..6 (scalars only: the kernel asks it per
    request)."""
    d = new_face - face
    return adjusts > 0 and cursed == 0 and 1 <= new_face <= 6 and d != 0 and -step <= d <= step


@njit(cache=True, error_model="numpy", inline=INLINE)
def _roll_again(dice, nd, cursed_mask, keep, counts, st, kc, out, log, nl, room, turn, nroll, how):
    """Roll number ``nroll`` of the turn: reroll all but multiset ``keep``, count it and log it (``how``:
    ``REROLL``, ``LAST_CHANCE`` or a joker's extra reroll, ``JOKER_ROLL``; 0, 1, 2 in the log). Returns the log
    length."""
    held, bad = _reroll(dice, nd, cursed_mask, keep, counts, st, kc)
    out[O_ROLLS] += 1
    if bad:
        out[O_ILLEGAL] += 1
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_ROLL, room, turn, nroll, pack_dice(dice, nd), held, nd, how, 0, 0, 0, 0)
    return nl



@njit(cache=True, error_model="numpy", inline="always")
def _who(pid, full, rp, sc):
    """Who makes this decision: the policy, or below full skill possibly random's move (the skill stream)."""
    return pid if full else who(pid, rp.skill_level_ppm, sc.st_sk)


@njit(cache=True, error_model="numpy", inline="always")
def _etab(f, sc):
    """Expectimax's expectation table for the adjusts left (``sc.etabs[0]``, unused, for the other policies)."""
    return sc.etabs[smin(f.adjusts, f.na)]


# --- the player's turn: the intent shown, roll, hold, adjust, jokers, assign --------------------------------

@njit(cache=True, error_model="numpy", inline="always")
def open_turn(room, fz, rs, f, log, sc):
    """The turn opens: the shield kept from the last one, the dice (an eaten die is missing, cursed dice stay as
    rolled), the enemy's announced hit, the attack factors; the fight state the policies read (``sc.fs``)."""
    rp = fz.rp[0]
    intents = fz.intents
    fs = sc.fs
    if f.turn > 1:
        f.shield = R.turn_start_shield(f.shield, sc.mods)
    nd = smax(1, rs.nd_base - f.eat_next)
    f.nd = nd
    f.eat_next = 0
    f.cmask = f.cursed_next & ((1 << nd) - 1)
    f.cursed_next = 0
    it = f.i0 + f.ii
    f.it = it
    hit = R.hit_damage(f.ebase, intents[it, IN.damage], f.scale, rp.path_elite_attack if f.elite else 1.0,
                       f.sec_bonus, f.ebuff)
    hits = trunc(intents[it, IN.hits])
    f.hit = hit
    f.hits = hits
    f.berserk = R.berserk_factor(rs.lp, rs.maxlp, sc.mods)
    f.weak_mul = rp.combat_weak_mul if f.weak > 0 else 1.0
    fs[FS_EHP] = f.ehp
    fs[FS_EBLOCK] = f.eblock
    fs[FS_EPOISON] = f.epoison
    fs[FS_LP] = rs.lp
    fs[FS_MAXLP] = rs.maxlp
    fs[FS_SHIELD] = f.shield
    fs[FS_INCOMING] = hit * hits
    fs[FS_ATT_MUL] = f.weak_mul * f.berserk
    fs[FS_COINS] = rs.coins
    fs[FS_LC_COST] = rp.turn_last_chance_cost
    fs[FS_LC_OK] = 0.0
    if log.shape[0] > 0:
        rs.nl = log_event(log, rs.nl, LG_TURN, room, f.turn, trunc(rs.lp), trunc(f.shield), trunc(f.ehp),
                          trunc(f.eblock), it, hit * hits, f.weak, nd, f.cmask)


@njit(cache=True, error_model="numpy", inline="always")
def roll_and_hold(pid, room, fz, rs, f, part, pcl, hp_tab, tm, out, log, sc):
    """The first roll, then each reroll left: Justieren before the hold decision (the seed's long press at any
    moment of the turn), the hold, the reroll of the rest. Expectimax first builds its tables for 0 .. the adjusts
    left. (The loop's counters are locals, written back at the end: in the records they would be memory.)"""
    rp = fz.rp[0]
    dice = sc.dice
    nd = f.nd
    turn = f.turn
    full = f.full
    ioc = tm[4]
    adj_step = trunc(rp.turn_adjust_step)
    t_roll = rp.time_seconds_per_roll
    for i in range(nd):
        dice[i] = die(sc.st_dice)
    out[O_ROLLS] += 1
    seconds = rs.seconds + t_roll
    nroll = 1
    nl = rs.nl
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_ROLL, room, turn, 1, pack_dice(dice, nd), 0, nd, 0, 0, 0, 0, 0)
    cmask = f.cmask
    cursed = _ms(dice, nd, cmask, 1, ioc)
    ncursed = 0
    for i in range(nd):
        ncursed += (cmask >> i) & 1
    rerolls = f.rerolls
    adjusts = f.adjusts
    na = 0
    if needs_etab(pid):
        levels = smax(1, smin(rerolls, MAX_LEVELS))
        na = smin(adjusts, MAX_ADJ)
        expectation_tables(sc.fs, cursed, nd - ncursed, levels, na, adj_step, part, pcl, sc.cv, tm, sc.etabs,
                           sc.exp_scratch, sc.memo, sc.work)
    etab = sc.etabs[na]
    for r in range(rerolls, 0, -1):
        dp = _who(pid, full, rp, sc)
        if adjust_hold_considered(dp, r, adjusts):
            ai, af = decide_adjust_hold(dp, dice, nd, cmask, adj_step, r, adjusts, na, part, sc.cv, sc.etabs, tm,
                                        sc.work)
            if ai >= 0:
                if ai < nd and adjust_allowed(dice[ai], af, (cmask >> ai) & 1, adj_step, adjusts):
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_ADJ, room, turn, ai, dice[ai], af, r, 0, 0, 0, 0, 0)
                    dice[ai] = af
                    adjusts -= 1
                    out[O_ADJUSTS] += 1
                    etab = sc.etabs[smin(adjusts, na)]
                else:
                    out[O_ILLEGAL] += 1
        roll = _ms(dice, nd, 0, -1, ioc)
        dp = _who(pid, full, rp, sc)
        keep = decide_keep(dp, roll, cursed, r, hp_tab, etab, tm, sc.st_pol, sc.work)
        if keep != roll:
            nroll += 1
            seconds += t_roll
            nl = _roll_again(dice, nd, cmask, keep, tm[0], sc.st_dice, sc.kc6, out, log, nl, room, turn, nroll, REROLL)
    f.cursed = cursed
    f.adjusts = adjusts
    f.na = na
    f.nroll = nroll
    rs.seconds = seconds
    rs.nl = nl


@njit(cache=True, error_model="numpy", inline="always")
def extra_rolls(pid, room, fz, rs, f, part, hp_tab, tm, out, log, sc):
    """Rolls beyond the rerolls: a joker's extra rerolls (not in a boss fight that caps them), then the last
    chance bought with coins."""
    rp = fz.rp[0]
    jk = fz.jk
    dice = sc.dice
    nd = f.nd
    ioc = tm[4]
    cursed = f.cursed
    if rs.nj > 0 and f.extra_ok:
        q = find_joker(sc.jokers, rs.nj, jk, C.JK_REROLL)
        if q >= 0:
            roll = _ms(dice, nd, 0, -1, ioc)
            dp = _who(pid, f.full, rp, sc)
            if decide_joker_reroll(dp, sc.fs, roll, cursed, part, sc.cv, _etab(f, sc), tm, sc.st_pol, sc.work):
                jid = sc.jokers[q]
                rs.nj = pop_joker(sc.jokers, rs.nj, q)
                out[O_JK_USED] += 1
                out[O_JK_REROLL] += 1
                if log.shape[0] > 0:
                    rs.nl = log_event(log, rs.nl, LG_JOKER, room, f.turn, jid, C.JK_REROLL, 0, 0, 0, 0, 0, 0, 0)
                for _ in range(trunc(jk[jid, C.JK_AMOUNT])):
                    roll = _ms(dice, nd, 0, -1, ioc)
                    dp = _who(pid, f.full, rp, sc)
                    keep = decide_keep(dp, roll, cursed, LAST_ROLL, hp_tab, _etab(f, sc), tm, sc.st_pol, sc.work)
                    f.nroll += 1
                    rs.seconds += rp.time_seconds_per_roll
                    rs.nl = _roll_again(dice, nd, f.cmask, keep, tm[0], sc.st_dice, sc.kc6, out, log, rs.nl, room,
                                        f.turn, f.nroll, JOKER_ROLL)
    lc_ok = f.lc_left > 0 and rs.coins >= rp.turn_last_chance_cost  # once per fight, for its coins
    if last_chance_considered(pid, f.lc_left, rs.coins, rp.turn_last_chance_cost):
        fs = sc.fs
        fs[FS_LC_OK] = 1.0 if lc_ok else 0.0
        roll = _ms(dice, nd, 0, -1, ioc)
        dp = _who(pid, f.full, rp, sc)
        asked = decide_last_chance(dp, fs, roll, cursed, part, sc.cv, _etab(f, sc), tm, sc.work)
        if asked and not lc_ok:
            out[O_ILLEGAL] += 1  # refused: a second last chance in the fight, or one without the coins
        elif asked:
            rs.coins -= rp.turn_last_chance_cost
            f.lc_left -= 1
            out[O_LC] += 1
            dp = _who(pid, f.full, rp, sc)
            keep = decide_keep(dp, roll, cursed, LAST_ROLL, hp_tab, _etab(f, sc), tm, sc.st_pol, sc.work)
            if log.shape[0] > 0:
                rs.nl = log_event(log, rs.nl, LG_LC, room, f.turn, trunc(rs.coins), 0, 0, 0, 0, 0, 0, 0, 0)
            f.nroll += 1
            rs.seconds += rp.time_seconds_per_roll
            rs.nl = _roll_again(dice, nd, f.cmask, keep, tm[0], sc.st_dice, sc.kc6, out, log, rs.nl, room, f.turn,
                                f.nroll, LAST_CHANCE)
        fs[FS_LC_OK] = 0.0
        fs[FS_COINS] = rs.coins


@njit(cache=True, error_model="numpy", inline="always")
def set_faces(pid, room, fz, rs, f, part, pcl, tm, out, log, sc):
    """The dice the player sets after the last roll: the adjusts left (Justieren), then a joker that sets one die
    to any face."""
    rp = fz.rp[0]
    dice = sc.dice
    nd = f.nd
    adj_step = trunc(rp.turn_adjust_step)
    while f.adjusts > 0:
        dp = _who(pid, f.full, rp, sc)
        ai, af = decide_adjust(dp, sc.fs, dice, nd, f.cmask, adj_step, part, pcl, sc.cv, tm, sc.work)
        if ai < 0:
            break
        if not (ai < nd and adjust_allowed(dice[ai], af, (f.cmask >> ai) & 1, adj_step, f.adjusts)):
            out[O_ILLEGAL] += 1  # refused
            break
        if log.shape[0] > 0:
            rs.nl = log_event(log, rs.nl, LG_ADJ, room, f.turn, ai, dice[ai], af, 0, 0, 0, 0, 0, 0)
        dice[ai] = af
        f.adjusts -= 1
        out[O_ADJUSTS] += 1
    if rs.nj > 0:
        q = find_joker(sc.jokers, rs.nj, fz.jk, C.JK_SET)
        if q >= 0:
            dp = _who(pid, f.full, rp, sc)
            si, sf = decide_set_die(dp, sc.fs, dice, nd, f.cmask, part, sc.cv, tm, sc.st_pol, sc.work,
                                    rp.policies_vorschlag_joker_set_gain)
            if si >= nd or (si >= 0 and (((f.cmask >> si) & 1) != 0 or sf < 1 or sf > 6)):
                out[O_ILLEGAL] += 1  # refused: no such die, a cursed one, or no face
            elif si >= 0:
                jid = sc.jokers[q]
                rs.nj = pop_joker(sc.jokers, rs.nj, q)
                out[O_JK_USED] += 1
                out[O_JK_SET] += 1
                if log.shape[0] > 0:
                    rs.nl = log_event(log, rs.nl, LG_JOKER, room, f.turn, jid, C.JK_SET, si, dice[si], sf, 0, 0, 0,
                                      0)
                dice[si] = sf


@njit(cache=True, error_model="numpy", inline="always")
def heal_joker(pid, room, fz, rs, f, out, log, sc):
    """A heal joker, played before the assignment."""
    rp = fz.rp[0]
    jk = fz.jk
    jokers = sc.jokers
    if rs.nj > 0:
        q = find_joker(jokers, rs.nj, jk, C.JK_HEAL)
        if q >= 0 and decide_joker_heal(_who(pid, f.full, rp, sc), sc.fs, jk[jokers[q], C.JK_AMOUNT], sc.st_pol,
                                        rp.policies_vorschlag_joker_heal_share):
            jid = jokers[q]
            rs.nj = pop_joker(jokers, rs.nj, q)
            before = rs.lp
            rs.lp = smin(rs.maxlp, rs.lp + jk[jid, C.JK_AMOUNT])
            out[O_HEALED] += rs.lp - before
            # Berserker is judged at the attack, after this heal ("Am Zugende … Berserker hebt auf 125 %"): a potion
            # that lifts LP above half ends it for this turn's attack
            f.berserk = R.berserk_factor(rs.lp, rs.maxlp, sc.mods)
            sc.fs[FS_ATT_MUL] = f.weak_mul * f.berserk
            if rp.challenges_joker_heal_counts > 0:  # "ohne Heilung": the joker heals too
                f.healed = True
            sc.fs[FS_LP] = rs.lp
            out[O_JK_USED] += 1
            out[O_JK_HEAL] += 1
            if log.shape[0] > 0:
                rs.nl = log_event(log, rs.nl, LG_JOKER, room, f.turn, jid, C.JK_HEAL, trunc(rs.lp - before),
                                  trunc(rs.lp), 0, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy", inline="always")
def assign(pid, room, fz, rs, f, part, tm, out, log, sc):
    """The dice become combos, each with a role (attack, shield, heal: ``sc.aid``, ``sc.arole``, ``f.m`` of them);
    the hero ability may boost one."""
    rp = fz.rp[0]
    k = _ms(sc.dice, f.nd, 0, -1, tm[4])
    dp = _who(pid, f.full, rp, sc)
    m = decide_assign(dp, sc.fs, part[k, 1:], part[k, 0], sc.cv, sc.aid, sc.arole, sc.st_pol, sc.work)
    f.m = m
    f.hero_j = -1
    if f.hero_left > 0 and m > 0:
        dp = _who(pid, f.full, rp, sc)
        f.hero_j = decide_hero(dp, sc.fs, sc.aid, sc.arole, m, sc.cv, rp.hero_factor, f.turn, sc.st_pol,
                               rp.policies_vorschlag_hero_gain)
        if f.hero_j >= 0:
            f.hero_left -= 1
            out[O_HERO] += 1
            if log.shape[0] > 0:
                rs.nl = log_event(log, rs.nl, LG_HERO, room, f.turn, sc.aid[f.hero_j], sc.arole[f.hero_j], 0, 0, 0,
                                  0, 0, 0, 0)


@njit(cache=True, error_model="numpy", inline="always")
def player_turn(pid, room, fz, rs, f, cache, t, tm, out, log, sc):
    """The player's turn: roll and hold, the extra rolls, set faces, a heal joker, the assignment."""
    slot = rs.slot
    part = cache[1][t, slot]
    pcl = cache[2][t, slot]
    hp_tab = cache[3][t, slot]
    roll_and_hold(pid, room, fz, rs, f, part, pcl, hp_tab, tm, out, log, sc)
    extra_rolls(pid, room, fz, rs, f, part, hp_tab, tm, out, log, sc)
    set_faces(pid, room, fz, rs, f, part, pcl, tm, out, log, sc)
    heal_joker(pid, room, fz, rs, f, out, log, sc)
    assign(pid, room, fz, rs, f, part, tm, out, log, sc)


