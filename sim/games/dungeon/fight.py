"""One Würfel Dungeon fight as the seed's turn: player turn (roll, hold, adjust, jokers, assign), resolution, enemy
turn, until the enemy or the hero falls.

``fight`` plays the fight of the room in ``s`` (the run record, ``state.RUN_DTYPE``) on the fight record ``f``
(``state.FIGHT_DTYPE``) and leaves the outcome in ``s`` (``won``, ``turn``, LP, coins, stolen coins, kinds used,
healed) for ``after_room``. Each step of a turn is a small helper on those records; the policy is asked through
its dispatchers (``policies.dungeon``), one per decision kind. Dice of the fight come from stream (2, room), the
enemy's random choices from (5, room), Glücksklee crits from (4, room).

Helpers are inlined into ``fight`` (``inline="always"``): they take the shared tables (multiset tables ``tm``,
the profile's partitions and holds), and an array argument of a separately compiled call costs atomic reference
counts; records and scalars cost none.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.dungeon import (
    EXPECTIMAX,
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
)
from sim.games.dungeon import eventlog as L
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon import table as T
from sim.games.dungeon import words as W
from sim.games.dungeon.draws import draw_intent, find_joker, pop_joker
from sim.rng import below, die, stream_key, uniform
from sim.scalar import smax, smin, trunc

KERNEL = {"cache": True, "error_model": "numpy"}
INLINE = {"cache": True, "error_model": "numpy", "inline": "always"}


@njit(**INLINE)
def multiset(dice, nd, mask, want, ioc):
    """Multiset index of the dice whose bit in ``mask`` equals ``want`` (``want`` -1: all dice)."""
    code = 0
    for i in range(nd):
        if want < 0 or ((mask >> i) & 1) == want:
            code += R.POW7_T[dice[i] - 1]
    return ioc[code]


@njit(**INLINE)
def reroll(dice, nd, cursed_mask, keep, counts, st, kc):
    """Reroll every die not in multiset ``keep`` (cursed dice are kept first). Returns the held mask."""
    for f in range(6):
        kc[f] = counts[keep, f]
    held = 0
    for i in range(nd):
        if (cursed_mask >> i) & 1:
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
    return held


@njit(**INLINE)
def roll_again(s, f, rp, keep, counts, out, log, how):
    """One more roll of the turn: reroll all but multiset ``keep``, count, time and log it (``how``: 0 a reroll,
    1 the last chance, 2 a joker's extra reroll)."""
    f.nroll += 1
    s.seconds += rp.t_roll
    held = reroll(f.dice, f.nd, f.cmask, keep, counts, s.st_dice, f.kc)
    out[T.O_ROLLS] += 1
    if log.shape[0] > 0:
        s.nl = L.log_event(log, s.nl, L.LG_ROLL, s.room, s.turn, f.nroll, L.pack_dice(f.dice, f.nd), held, f.nd, how,
                           0, 0, 0, 0)


# --- the fight begins --------------------------------------------------------------------------


@njit(**INLINE)
def begin_fight(s, f, rp, en, intents, mods, eblock, pshield, attbonus, out, log):
    """The enemy of room ``s.room`` at full LP, the fight's allowances (adjusts, rerolls, last chance, hero) and
    its first intent."""
    room = s.room
    e = s.enemy
    f.elite = s.card == W.ELITE
    f.boss = en[e, C.EN_BOSS] > 0
    f.ehp = float(R.enemy_hp(en[e, C.EN_HP], room, f.boss, f.elite, rp.hp_per_room, rp.hp_factor, rp.diff_hp,
                             rp.diff_boss, rp.elite_hp))
    f.ehp_max = f.ehp
    f.eblock = float(eblock)
    f.scale = R.damage_scale(room, rp.diff_dmg, rp.growth, rp.compound > 0, f.elite, rp.elite_att, f.boss,
                             rp.diff_boss, rp.boss_stage > 0)
    f.sec_bonus = attbonus
    f.ebase = en[e, C.EN_DMG]
    f.i0 = trunc(en[e, C.EN_I0])
    f.ni = trunc(en[e, C.EN_IN])
    f.rnd_mode = en[e, C.EN_RANDOM] > 0
    s.st_en[0] = stream_key(s.seed, s.run, 5, room)
    s.st_dice[0] = stream_key(s.seed, s.run, 2, room)
    s.st_crit[0] = stream_key(s.seed, s.run, 4, room)
    f.ii = draw_intent(intents, f.i0, f.ni, s.st_en) if f.rnd_mode else 0
    f.ebuff = 0
    f.epoison = 0.0
    f.shield = float(pshield)
    f.adjusts = trunc(rp.adjusts + mods[R.EFF_ADJUSTS])
    f.rerolls = trunc(rp.rolls) - 1
    if s.db_left > 0:
        f.rerolls += trunc(rp.db_rerolls)
        s.db_left -= 1
    f.lc_left = trunc(rp.lc_n)
    f.extra_ok = True
    if f.boss and rp.boss_rerolls >= 0:
        f.rerolls = smin(f.rerolls, trunc(rp.boss_rerolls))
        f.lc_left = 0
        f.extra_ok = False
    f.hero_left = trunc(rp.hero_n) if rp.hero_on > 0 else 0
    f.cap = rp.boss_cap if f.boss else rp.cap
    s.fight_coins = 0.0
    for q in range(4):
        f.nact[q] = 0
    s.healed = False
    s.kinds_used = 0
    s.stolen = 0.0
    f.cursed_next = s.truhe_mask
    s.truhe_mask = 0
    f.eat_next = 0
    f.weak = 0
    s.turn = 0
    s.won = False
    s.seconds += rp.t_intro
    out[T.O_FIGHTS] += 1
    if log.shape[0] > 0:
        s.nl = L.log_event(log, s.nl, L.LG_ROOM, room, 0, s.card, e, trunc(f.ehp), trunc(f.eblock), s.third,
                           trunc(s.lp), trunc(s.coins), trunc(f.elite), s.nd_base)


# --- the player's turn -------------------------------------------------------------------------


@njit(**INLINE)
def turn_start(s, f, rp, intents, mods, fs, log):
    """Shield carried over, dice eaten and cursed, the announced intent; fills the fight-state vector ``fs``."""
    if s.turn > 1:
        f.shield = R.turn_start_shield(f.shield, mods)
    f.nd = smax(1, s.nd_base - f.eat_next)
    f.eat_next = 0
    f.cmask = f.cursed_next & ((1 << f.nd) - 1)
    f.cursed_next = 0
    it = f.i0 + f.ii
    f.it = it
    f.hit = R.hit_damage(f.ebase, intents[it, C.IN_DMG], f.scale, f.sec_bonus, f.ebuff)
    f.hits = trunc(intents[it, C.IN_HITS])
    f.berserk = R.berserk_factor(s.lp, s.maxlp, mods)
    f.weak_mul = rp.weak_mul if f.weak > 0 else 1.0
    fs[W.FS_EHP] = f.ehp
    fs[W.FS_EBLOCK] = f.eblock
    fs[W.FS_EPOISON] = f.epoison
    fs[W.FS_LP] = s.lp
    fs[W.FS_MAXLP] = s.maxlp
    fs[W.FS_SHIELD] = f.shield
    fs[W.FS_INCOMING] = f.hit * f.hits
    fs[W.FS_ATT_MUL] = f.weak_mul * f.berserk
    fs[W.FS_COINS] = s.coins
    fs[W.FS_LC_COST] = rp.lc_cost
    fs[W.FS_LC_OK] = 0.0
    if log.shape[0] > 0:
        s.nl = L.log_event(log, s.nl, L.LG_TURN, s.room, s.turn, trunc(s.lp), trunc(f.shield), trunc(f.ehp),
                         trunc(f.eblock), it, trunc(f.hit * f.hits), f.weak, f.nd, f.cmask)


@njit(**INLINE)
def roll_and_hold(pid, s, f, rp, fs, tm, hp_tab, part, pcl, cv, etabs, scratch, memo, work, out, log):
    """The first roll, then each reroll: Justieren before the hold decision (the seed's long press at any moment
    of the turn), the hold, the reroll. Expectimax first builds its tables of this turn. Returns the expectation
    table of the adjusts left (expectimax; a dummy otherwise)."""
    counts = tm[0]
    ioc = tm[4]
    dice = f.dice
    nd = f.nd
    for i in range(nd):
        dice[i] = die(s.st_dice)
    out[T.O_ROLLS] += 1
    s.seconds += rp.t_roll
    f.nroll = 1
    if log.shape[0] > 0:
        s.nl = L.log_event(log, s.nl, L.LG_ROLL, s.room, s.turn, 1, L.pack_dice(dice, nd), 0, nd, 0, 0, 0, 0, 0)
    f.cursed = multiset(dice, nd, f.cmask, 1, ioc)
    ncursed = 0
    for i in range(nd):
        ncursed += (f.cmask >> i) & 1
    # expectimax: tables for 0 .. na adjusts left (``etab``: the one of the adjusts left now)
    na = 0
    etab = etabs[0]
    if pid == EXPECTIMAX:
        levels = smax(1, smin(f.rerolls, MAX_LEVELS))
        na = smin(f.adjusts, MAX_ADJ)
        expectation_tables(fs, f.cursed, nd - ncursed, levels, na, trunc(rp.adj_step), part, pcl, cv, tm, etabs,
                           scratch, memo, work)
        etab = etabs[na]
    f.na = na
    for r in range(f.rerolls, 0, -1):
        if adjust_hold_considered(pid, r, f.adjusts):
            ai, af = decide_adjust_hold(pid, dice, nd, f.cmask, trunc(rp.adj_step), r, f.adjusts, na, part, cv,
                                        etabs, tm, work)
            if ai >= 0:
                if log.shape[0] > 0:
                    s.nl = L.log_event(log, s.nl, L.LG_ADJ, s.room, s.turn, ai, dice[ai], af, r, 0, 0, 0, 0, 0)
                dice[ai] = af
                f.adjusts -= 1
                out[T.O_ADJUSTS] += 1
                if pid == EXPECTIMAX:
                    etab = etabs[smin(f.adjusts, na)]
        roll = multiset(dice, nd, 0, -1, ioc)
        keep = decide_keep(pid, roll, f.cursed, r, hp_tab, etab, tm, s.st_pol, work)
        if keep != roll:
            roll_again(s, f, rp, keep, counts, out, log, 0)
    return etab


@njit(**INLINE)
def extra_rolls(pid, s, f, rp, fs, jk, tm, hp_tab, part, cv, etab, work, out, log):
    """After the turn's rerolls: a joker's extra reroll(s), then the paid last chance."""
    counts = tm[0]
    ioc = tm[4]
    if s.nj > 0 and f.extra_ok:
        q = find_joker(s.jokers, s.nj, jk, C.JK_REROLL)
        if q >= 0:
            roll = multiset(f.dice, f.nd, 0, -1, ioc)
            if decide_joker_reroll(pid, fs, roll, f.cursed, part, cv, etab, tm, s.st_pol, work):
                jid = s.jokers[q]
                s.nj = pop_joker(s.jokers, s.nj, q)
                out[T.O_JK_USED] += 1
                out[T.O_JK_REROLL] += 1
                if log.shape[0] > 0:
                    s.nl = L.log_event(log, s.nl, L.LG_JOKER, s.room, s.turn, jid, C.JK_REROLL, 0, 0, 0, 0, 0, 0, 0)
                for _ in range(trunc(jk[jid, C.JK_AMOUNT])):
                    roll = multiset(f.dice, f.nd, 0, -1, ioc)
                    keep = decide_keep(pid, roll, f.cursed, 1, hp_tab, etab, tm, s.st_pol, work)
                    roll_again(s, f, rp, keep, counts, out, log, 2)
    if f.lc_left > 0 and s.coins >= rp.lc_cost:
        fs[W.FS_LC_OK] = 1.0
        roll = multiset(f.dice, f.nd, 0, -1, ioc)
        if decide_last_chance(pid, fs, roll, f.cursed, part, cv, etab, tm, work):
            s.coins -= rp.lc_cost
            f.lc_left -= 1
            out[T.O_LC] += 1
            keep = decide_keep(pid, roll, f.cursed, 1, hp_tab, etab, tm, s.st_pol, work)
            if log.shape[0] > 0:
                s.nl = L.log_event(log, s.nl, L.LG_LC, s.room, s.turn, trunc(s.coins), 0, 0, 0, 0, 0, 0, 0, 0)
            roll_again(s, f, rp, keep, counts, out, log, 1)
        fs[W.FS_LC_OK] = 0.0
        fs[W.FS_COINS] = s.coins


@njit(**INLINE)
def adjust_and_jokers(pid, s, f, rp, fs, jk, tm, part, pcl, cv, work, out, log):
    """After the last roll: the adjusts the policy wants, a set-a-die joker, a heal joker (before the assignment)."""
    dice = f.dice
    while f.adjusts > 0:
        ai, af = decide_adjust(pid, fs, dice, f.nd, f.cmask, trunc(rp.adj_step), part, pcl, cv, tm, work)
        if ai < 0:
            break
        if log.shape[0] > 0:
            s.nl = L.log_event(log, s.nl, L.LG_ADJ, s.room, s.turn, ai, dice[ai], af, 0, 0, 0, 0, 0, 0)
        dice[ai] = af
        f.adjusts -= 1
        out[T.O_ADJUSTS] += 1
    if s.nj > 0:
        q = find_joker(s.jokers, s.nj, jk, C.JK_SET)
        if q >= 0:
            si, sf = decide_set_die(pid, fs, dice, f.nd, f.cmask, part, cv, tm, s.st_pol, work, rp.vw_joker_set_gain)
            if si >= 0:
                jid = s.jokers[q]
                s.nj = pop_joker(s.jokers, s.nj, q)
                out[T.O_JK_USED] += 1
                out[T.O_JK_SET] += 1
                if log.shape[0] > 0:
                    s.nl = L.log_event(log, s.nl, L.LG_JOKER, s.room, s.turn, jid, C.JK_SET, si, dice[si], sf, 0, 0,
                                       0, 0)
                dice[si] = sf
    if s.nj > 0:
        q = find_joker(s.jokers, s.nj, jk, C.JK_HEAL)
        if q >= 0 and decide_joker_heal(pid, fs, jk[s.jokers[q], C.JK_AMOUNT], s.st_pol, rp.vw_joker_heal_share):
            jid = s.jokers[q]
            s.nj = pop_joker(s.jokers, s.nj, q)
            before = s.lp
            s.lp = smin(s.maxlp, s.lp + jk[jid, C.JK_AMOUNT])
            out[T.O_HEALED] += s.lp - before
            fs[W.FS_LP] = s.lp
            out[T.O_JK_USED] += 1
            out[T.O_JK_HEAL] += 1
            if log.shape[0] > 0:
                s.nl = L.log_event(log, s.nl, L.LG_JOKER, s.room, s.turn, jid, C.JK_HEAL, trunc(s.lp - before),
                                 trunc(s.lp), 0, 0, 0, 0, 0)


@njit(**INLINE)
def assign(pid, s, f, rp, fs, tm, part, cv, work, out, log):
    """The combos of the dice to attack, shield or heal (the policy's assignment), then the hero ability."""
    k = multiset(f.dice, f.nd, 0, -1, tm[4])
    m = decide_assign(pid, fs, part[k, 1:], part[k, 0], cv, f.aid, f.arole, s.st_pol, work)
    f.m = m
    f.hero_j = -1
    if f.hero_left > 0 and m > 0:
        f.hero_j = decide_hero(pid, fs, f.aid, f.arole, m, cv, rp.hero_factor, s.turn, s.st_pol, rp.vw_hero_gain)
        if f.hero_j >= 0:
            f.hero_left -= 1
            out[T.O_HERO] += 1
            if log.shape[0] > 0:
                s.nl = L.log_event(log, s.nl, L.LG_HERO, s.room, s.turn, f.aid[f.hero_j], f.arole[f.hero_j], 0, 0, 0, 0,
                                 0, 0, 0)


# --- resolution ----------------------------------------------------------------------------------


@njit(**INLINE)
def resolve(s, f, rp, mods, cv, steps, out, log):
    """Attack (combo by combo, block first), heal, shield; then coins and statistics per action in assignment
    order, and the turn's thinking time."""
    m = f.m
    aid = f.aid
    arole = f.arole
    hero_j = f.hero_j
    hero_f = rp.hero_factor
    lp_start = s.lp
    for j in range(m):
        f.cdraw[j] = 1.0
        if arole[j] == R.ATTACK and mods[R.EFF_CRIT] > 0:
            f.cdraw[j] = uniform(s.st_crit)
        f.crit[j] = 0
    f.rstate[0] = f.ehp
    f.rstate[1] = f.eblock
    f.rstate[2] = f.epoison
    out[T.O_DEALT] += R.resolve_attacks(cv, aid, arole, m, hero_j, hero_f, mods, f.weak_mul, f.berserk, rp.crit_mul,
                                      f.cdraw, f.rstate, f.dealt, f.crit)
    f.ehp = f.rstate[0]
    f.eblock = f.rstate[1]
    f.epoison = f.rstate[2]
    for j in range(m):
        c = aid[j]
        if arole[j] == R.HEAL:
            h = cv[c, 2] * (hero_f if j == hero_j else 1.0)
            before = s.lp
            s.lp = smin(s.maxlp, s.lp + h)
            out[T.O_HEALED] += s.lp - before
            s.healed = True
    for j in range(m):
        c = aid[j]
        if arole[j] == R.SHIELD:
            f.shield += cv[c, 1] * (hero_f if j == hero_j else 1.0)
    maxlp = s.maxlp
    lp_run = lp_start
    for j in range(m):
        c = aid[j]
        role = arole[j]
        hf = hero_f if j == hero_j else 1.0
        if role == R.ATTACK:
            useful = True
            eff = f.dealt[j]
            out[T.O_CRITS] += f.crit[j]
        elif role == R.HEAL:
            useful = lp_run < maxlp
            eff = trunc(smin(maxlp, lp_run + cv[c, 2] * hf) - lp_run)
            lp_run = smin(maxlp, lp_run + cv[c, 2] * hf)
        else:
            useful = f.ehp > 0 and (f.hit * f.hits > 0 or rp.shield_needs_att == 0)
            eff = trunc(cv[c, 1] * hf)
        pay = 0.0
        if useful:
            pay = float(R.action_coins(cv[c, 3], f.nact[role], steps, rp.step_floor > 0))
            f.nact[role] += 1
            pay = smin(pay, f.cap - s.fight_coins)
            s.fight_coins += pay
            s.coins += pay
            out[T.O_EARNED] += pay
        kind = R.C_KIND[c]
        out[s.b_combo + kind] += 1
        s.kinds_used |= 1 << kind
        was_crit = f.crit[j] if role == R.ATTACK else 0
        if log.shape[0] > 0:
            s.nl = L.log_event(log, s.nl, L.LG_COMBO, s.room, s.turn, c, role, eff, trunc(pay), was_crit, 0, 0, 0, 0)
    # thinking time: a hold decision before each roll after the first, and the assignment
    s.seconds += m * rp.t_assign + rp.t_turn + f.nroll * rp.t_decide
    if f.weak > 0:
        f.weak -= 1
    if log.shape[0] > 0:
        s.nl = L.log_event(log, s.nl, L.LG_RESOLVE, s.room, s.turn, trunc(f.ehp), trunc(f.eblock), trunc(s.lp),
                         trunc(f.shield), trunc(f.epoison), 0, 0, 0, 0)


# --- the enemy's turn ----------------------------------------------------------------------------


@njit(**INLINE)
def enemy_turn(s, f, rp, intents, out, log):
    """Block drops, poison ticks, the announced intent (hits, block, heal, weaken, curse, steal, buff, eat), the
    next intent. Returns True when the fight is over (poison killed the enemy, or the hero fell)."""
    f.eblock = 0.0
    pdmg = 0
    it = f.it
    if f.epoison > 0:
        pdmg = trunc(f.epoison)
        f.ehp -= f.epoison
        out[T.O_POISON] += f.epoison
        f.epoison = smax(0.0, f.epoison - rp.poison_decay)
        if f.ehp <= 0:
            s.won = True
            if log.shape[0] > 0:
                s.nl = L.log_event(log, s.nl, L.LG_ENEMY, s.room, s.turn, it, 0, trunc(s.lp), trunc(f.shield), 0,
                                 trunc(f.ehp), 0, pdmg, 0)
            return True
    taken = 0.0
    hit = f.hit
    if hit > 0:
        for _ in range(f.hits):
            a = smin(f.shield, float(hit))
            f.shield -= a
            s.lp -= hit - a
            taken += hit - a
    out[T.O_TAKEN] += taken
    f.eblock += intents[it, C.IN_BLOCK]
    f.ehp = smin(f.ehp_max, f.ehp + intents[it, C.IN_HEAL])
    f.weak = smax(f.weak, trunc(intents[it, C.IN_WEAKEN]))
    ncurse = trunc(intents[it, C.IN_CURSE])
    if ncurse > 0:
        # k distinct random dice (partial Fisher-Yates over the dice indices)
        nd_base = s.nd_base
        idx = f.idx
        for q in range(nd_base):
            idx[q] = q
        for q in range(smin(ncurse, nd_base)):
            w = q + below(s.st_en, nd_base - q)
            tq = idx[q]
            idx[q] = idx[w]
            idx[w] = tq
            f.cursed_next |= 1 << idx[q]
    st = smin(s.coins, intents[it, C.IN_STEAL])
    s.coins -= st
    s.stolen += st
    out[T.O_STOLEN] += st
    f.ebuff += trunc(intents[it, C.IN_BUFF])
    f.eat_next = trunc(intents[it, C.IN_EAT])
    if log.shape[0] > 0:
        s.nl = L.log_event(log, s.nl, L.LG_ENEMY, s.room, s.turn, it, trunc(taken), trunc(s.lp), trunc(f.shield),
                         trunc(f.eblock), trunc(f.ehp), trunc(st), pdmg, 0)
    if s.lp <= 0:
        return True
    f.ii = draw_intent(intents, f.i0, f.ni, s.st_en) if f.rnd_mode else (f.ii + 1) % f.ni
    return False


# --- the whole fight -------------------------------------------------------------------------------


@njit(**INLINE)
def fight(pid, s, f, rp, en, intents, jk, steps, mods, eblock, pshield, attbonus, tm, hp_tab, part, pcl, cv, etabs,
          scratch, memo, fs, work, out, log):
    """Play the fight of room ``s.room`` against ``s.enemy`` to its end; ``s.won`` says how it ended (the hero
    falls: LP 0 or below, or the turn limit)."""
    begin_fight(s, f, rp, en, intents, mods, eblock, pshield, attbonus, out, log)
    while True:
        s.turn += 1
        if s.turn > rp.max_turns:
            s.lp = 0.0
            break
        turn_start(s, f, rp, intents, mods, fs, log)
        etab = roll_and_hold(pid, s, f, rp, fs, tm, hp_tab, part, pcl, cv, etabs, scratch, memo, work, out, log)
        extra_rolls(pid, s, f, rp, fs, jk, tm, hp_tab, part, cv, etab, work, out, log)
        adjust_and_jokers(pid, s, f, rp, fs, jk, tm, part, pcl, cv, work, out, log)
        assign(pid, s, f, rp, fs, tm, part, cv, work, out, log)
        resolve(s, f, rp, mods, cv, steps, out, log)
        if f.ehp <= 0:
            s.won = True
            break
        if enemy_turn(s, f, rp, intents, out, log):
            break


__all__ = ["KERNEL", "fight", "np"]
