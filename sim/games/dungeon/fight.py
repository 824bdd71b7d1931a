"""The fight of one Würfel Dungeon room, turn by turn, as the seed plays it.

1. the player's turn: roll, hold (with Justieren before a reroll), joker rerolls, the last chance, adjusts,
   the set-die and heal jokers, the assignment, the hero ability;
2. resolution: the attacks combo by combo (block first), heals, shields; coins per action;
3. the enemy's turn: block drops, poison ticks, the announced intent (hits, block, heal, weaken, curse, steal,
   buff, eat a die).

Why one function for the whole fight: the policy decisions are inlined here (each once), and the turn's values
(enemy LP, shield, dice, rolls left) live in registers across the three steps; per-turn phase functions on records
measured 9-15 % slower (history: commit 59a3549). The fight is one call per room; what it reads and leaves for the
rest of the run is in the run record ``rs`` (``runstate``).

Draws: the dice from the stream (2, room), crits (4, room), the enemy's random choices (5, room), each keyed with
``rs.sa`` added in a rollout's continuation (``rollctl``).
"""

from __future__ import annotations

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
from policies.dungeon_skill import full_skill, who
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.draws import draw_intent, find_joker, pop_joker
from sim.games.dungeon.eventlog import (
    LG_ADJ,
    LG_COMBO,
    LG_ENEMY,
    LG_HERO,
    LG_JOKER,
    LG_LC,
    LG_RESOLVE,
    LG_ROLL,
    LG_ROOM,
    LG_TURN,
    log_event,
    pack_dice,
)
from sim.games.dungeon.table import (
    O_ADJUSTS,
    O_CRITS,
    O_DEALT,
    O_EARNED,
    O_FIGHTS,
    O_HEALED,
    O_HERO,
    O_JK_HEAL,
    O_JK_REROLL,
    O_JK_SET,
    O_JK_USED,
    O_LC,
    O_POISON,
    O_ROLLS,
    O_STOLEN,
    O_TAKEN,
    O_TURNS,
)
from sim.games.dungeon.words import (
    ELITE,
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
    FS_SIZE,
)
from sim.rng import below, die, stream_key, uniform
from sim.scalar import smax, smin, trunc
from sim.tier import INLINE


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


@njit(cache=True, error_model="numpy", inline=INLINE)
def _roll_again(dice, nd, cursed_mask, keep, counts, st, kc, out, log, nl, room, turn, nroll, how):
    """Roll number ``nroll`` of the turn: reroll all but multiset ``keep``, count it and log it (``how``: 0 a
    reroll, 1 the last chance, 2 a joker's extra reroll). Returns the log length."""
    held = _reroll(dice, nd, cursed_mask, keep, counts, st, kc)
    out[O_ROLLS] += 1
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_ROLL, room, turn, nroll, pack_dice(dice, nd), held, nd, how, 0, 0, 0, 0)
    return nl



@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def fight(pid, seed, run, room, fz, rs, cache, t, tm, out, log, sc):
    """Play the fight of room ``room`` (its path card, enemy and the loadout's profile slot are in ``rs``):
    leaves LP, coins, jokers and the outcome (won, turns, coins earned, stolen, combos used, healed) in ``rs``
    and the fight's columns in ``out``."""
    rp = fz.rpr[0]
    en = fz.en
    intents = fz.intents
    rooms = fz.rooms
    jk = fz.jk
    steps = fz.steps
    counts = tm[0]
    ioc = tm[4]
    fbuf, ibuf, ubuf, etabs, scratch, memo, cv, obuf, items, ofl, rsa = sc
    mods = fbuf[:R.N_EFF]
    fs = fbuf[R.N_EFF : R.N_EFF + FS_SIZE]
    dice = ibuf[0:6]
    aid = ibuf[6:10]
    arole = ibuf[10:14]
    work = ibuf[14:30]
    kc6 = ibuf[30:36]
    dealt_j = ibuf[36:40]
    crit_j = ibuf[40:44]
    nact = ibuf[44:48]
    idx = ibuf[48:54]
    jokers = items[3 * C.MAX_STOCK : 3 * C.MAX_STOCK + C.MAX_JOKERS]
    cdraw = ofl[2 * C.MAX_STOCK : 2 * C.MAX_STOCK + 4]
    rstate = ofl[3 * C.MAX_STOCK : 3 * C.MAX_STOCK + 3]
    st_pol = ubuf[0:1]
    st_dice = ubuf[2:3]
    st_en = ubuf[3:4]
    st_crit = ubuf[4:5]
    st_sk = ubuf[6:7]
    slot = rs.slot
    part = cache[1][t, slot]
    pcl = cache[2][t, slot]
    hp_tab = cache[3][t, slot]
    sk = rp.sk_player
    full = full_skill(pid, sk)
    want_etab = pid == EXPECTIMAX
    adj_step = trunc(rp.adj_step)
    step_floor = rp.step_floor > 0
    etab = etabs[0]  # expectimax's table of the adjusts left (taken again every turn)
    rr = room - 1
    card = rs.card
    e = rs.enemy
    third = rs.third
    nd_base = rs.nd_base
    sa = rs.sa
    lp = rs.lp
    maxlp = rs.maxlp
    coins = rs.coins
    seconds = rs.seconds
    nj = rs.nj
    db_left = rs.db_left
    truhe_mask = rs.truhe_mask
    nl = rs.nl
    elite = card == ELITE
    boss = en[e, C.EN_BOSS] > 0
    ehp = float(R.enemy_hp(en[e, C.EN_HP], room, boss, elite, rp.hp_per_room, rp.hp_factor,
                           rp.diff_hp, rp.diff_boss, rp.elite_hp))
    ehp_max = ehp
    eblock = float(rooms[rr, C.RM_EBLOCK])
    scale = R.damage_scale(room, rp.diff_dmg, rp.growth, rp.compound > 0, elite,
                           rp.elite_att, boss, rp.diff_boss, rp.boss_stage > 0)
    sec_bonus = rooms[rr, C.RM_ATTBONUS]
    ebase = en[e, C.EN_DMG]
    i0 = trunc(en[e, C.EN_I0])
    ni = trunc(en[e, C.EN_IN])
    rnd_mode = en[e, C.EN_RANDOM] > 0
    st_en[0] = stream_key(seed, run, 5 + sa, room)
    st_dice[0] = stream_key(seed, run, 2 + sa, room)
    st_crit[0] = stream_key(seed, run, 4 + sa, room)
    ii = draw_intent(intents, i0, ni, st_en) if rnd_mode else 0
    ebuff = 0
    epoison = 0.0
    shield = float(rooms[rr, C.RM_PSHIELD])
    adjusts = trunc(rp.adjusts + mods[R.EFF_ADJUSTS])
    rerolls = trunc(rp.rolls) - 1
    if db_left > 0:
        rerolls += trunc(rp.db_rerolls)
        db_left -= 1
    lc_left = trunc(rp.lc_n)
    extra_ok = True
    if boss and rp.boss_rerolls >= 0:
        rerolls = smin(rerolls, trunc(rp.boss_rerolls))
        lc_left = 0
        extra_ok = False
    hero_left = trunc(rp.hero_n) if rp.hero_on > 0 else 0
    cap = rp.boss_cap if boss else rp.cap
    fight_coins = 0.0
    nact[:] = 0
    healed = False
    kinds_used = 0
    stolen = 0.0
    cursed_next = truhe_mask
    truhe_mask = 0
    eat_next = 0
    weak = 0
    turn = 0
    won = False
    seconds += rp.t_intro
    out[O_FIGHTS] += 1
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_ROOM, room, 0, card, e, trunc(ehp), trunc(eblock), third, trunc(lp),
                       trunc(coins), trunc(elite), nd_base)
    while True:
        # --- 3a. the player's turn: roll, hold, adjust, jokers, assign ---
        turn += 1
        if turn > rp.max_turns:
            lp = 0.0
            break
        if turn > 1:
            shield = R.turn_start_shield(shield, mods)
        nd = smax(1, nd_base - eat_next)
        eat_next = 0
        cmask = cursed_next & ((1 << nd) - 1)
        cursed_next = 0
        it = i0 + ii
        hit = R.hit_damage(ebase, intents[it, C.IN_DMG], scale, sec_bonus, ebuff)
        hits = trunc(intents[it, C.IN_HITS])
        berserk = R.berserk_factor(lp, maxlp, mods)
        weak_mul = rp.weak_mul if weak > 0 else 1.0
        fs[FS_EHP] = ehp
        fs[FS_EBLOCK] = eblock
        fs[FS_EPOISON] = epoison
        fs[FS_LP] = lp
        fs[FS_MAXLP] = maxlp
        fs[FS_SHIELD] = shield
        fs[FS_INCOMING] = hit * hits
        fs[FS_ATT_MUL] = weak_mul * berserk
        fs[FS_COINS] = coins
        fs[FS_LC_COST] = rp.lc_cost
        fs[FS_LC_OK] = 0.0
        if log.shape[0] > 0:
            nl = log_event(log, nl, LG_TURN, room, turn, trunc(lp), trunc(shield), trunc(ehp), trunc(eblock), it,
                      hit * hits, weak, nd, cmask)
        for i in range(nd):
            dice[i] = die(st_dice)
        out[O_ROLLS] += 1
        seconds += rp.t_roll
        nroll = 1
        if log.shape[0] > 0:
            nl = log_event(log, nl, LG_ROLL, room, turn, 1, pack_dice(dice, nd), 0, nd, 0, 0, 0, 0, 0)
        cursed = _ms(dice, nd, cmask, 1, ioc)
        ncursed = 0
        for i in range(nd):
            ncursed += (cmask >> i) & 1
        # expectimax: tables for 0 .. na adjusts left (``etab``: the one of the adjusts left now; views are taken
        # only for expectimax: each costs a reference count)
        na = 0
        if want_etab:
            levels = smax(1, smin(rerolls, MAX_LEVELS))
            na = smin(adjusts, MAX_ADJ)
            expectation_tables(fs, cursed, nd - ncursed, levels, na, adj_step, part, pcl, cv, tm, etabs, scratch,
                               memo, work)
            etab = etabs[na]
        for r in range(rerolls, 0, -1):
            # Justieren before the hold decision (the seed's long press at any moment of the turn)
            dp = pid if full else who(pid, sk, st_sk)
            if adjust_hold_considered(dp, r, adjusts):
                ai, af = decide_adjust_hold(dp, dice, nd, cmask, adj_step, r, adjusts, na, part, cv, etabs, tm,
                                            work)
                if ai >= 0:
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_ADJ, room, turn, ai, dice[ai], af, r, 0, 0, 0, 0, 0)
                    dice[ai] = af
                    adjusts -= 1
                    out[O_ADJUSTS] += 1
                    if want_etab:
                        etab = etabs[smin(adjusts, na)]
            roll = _ms(dice, nd, 0, -1, ioc)
            dp = pid if full else who(pid, sk, st_sk)
            keep = decide_keep(dp, roll, cursed, r, hp_tab, etab, tm, st_pol, work)
            if keep != roll:
                nroll += 1
                seconds += rp.t_roll
                nl = _roll_again(dice, nd, cmask, keep, counts, st_dice, kc6, out, log, nl, room, turn, nroll, 0)
        # joker: extra reroll(s) this turn
        if nj > 0 and extra_ok:
            q = find_joker(jokers, nj, jk, C.JK_REROLL)
            if q >= 0:
                roll = _ms(dice, nd, 0, -1, ioc)
                dp = pid if full else who(pid, sk, st_sk)
                if decide_joker_reroll(dp, fs, roll, cursed, part, cv, etab, tm, st_pol, work):
                    jid = jokers[q]
                    nj = pop_joker(jokers, nj, q)
                    out[O_JK_USED] += 1
                    out[O_JK_REROLL] += 1
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_JOKER, room, turn, jid, C.JK_REROLL, 0, 0, 0, 0, 0, 0, 0)
                    for _ in range(trunc(jk[jid, C.JK_AMOUNT])):
                        roll = _ms(dice, nd, 0, -1, ioc)
                        dp = pid if full else who(pid, sk, st_sk)
                        keep = decide_keep(dp, roll, cursed, 1, hp_tab, etab, tm, st_pol, work)
                        nroll += 1
                        seconds += rp.t_roll
                        nl = _roll_again(dice, nd, cmask, keep, counts, st_dice, kc6, out, log, nl, room, turn,
                                         nroll, 2)
        if lc_left > 0 and coins >= rp.lc_cost:
            fs[FS_LC_OK] = 1.0
            roll = _ms(dice, nd, 0, -1, ioc)
            dp = pid if full else who(pid, sk, st_sk)
            if decide_last_chance(dp, fs, roll, cursed, part, cv, etab, tm, work):
                coins -= rp.lc_cost
                lc_left -= 1
                out[O_LC] += 1
                dp = pid if full else who(pid, sk, st_sk)
                keep = decide_keep(dp, roll, cursed, 1, hp_tab, etab, tm, st_pol, work)
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_LC, room, turn, trunc(coins), 0, 0, 0, 0, 0, 0, 0, 0)
                nroll += 1
                seconds += rp.t_roll
                nl = _roll_again(dice, nd, cmask, keep, counts, st_dice, kc6, out, log, nl, room, turn, nroll, 1)
            fs[FS_LC_OK] = 0.0
            fs[FS_COINS] = coins
        while adjusts > 0:
            dp = pid if full else who(pid, sk, st_sk)
            ai, af = decide_adjust(dp, fs, dice, nd, cmask, adj_step, part, pcl, cv, tm, work)
            if ai < 0:
                break
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_ADJ, room, turn, ai, dice[ai], af, 0, 0, 0, 0, 0, 0)
            dice[ai] = af
            adjusts -= 1
            out[O_ADJUSTS] += 1
        # joker: set one die to any face
        if nj > 0:
            q = find_joker(jokers, nj, jk, C.JK_SET)
            if q >= 0:
                dp = pid if full else who(pid, sk, st_sk)
                si, sf = decide_set_die(dp, fs, dice, nd, cmask, part, cv, tm, st_pol, work,
                                    rp.vw_joker_set_gain)
                if si >= 0:
                    jid = jokers[q]
                    nj = pop_joker(jokers, nj, q)
                    out[O_JK_USED] += 1
                    out[O_JK_SET] += 1
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_JOKER, room, turn, jid, C.JK_SET, si, dice[si], sf, 0, 0, 0, 0)
                    dice[si] = sf
        # joker: heal before the assignment
        if nj > 0:
            q = find_joker(jokers, nj, jk, C.JK_HEAL)
            if q >= 0 and decide_joker_heal(pid if full else who(pid, sk, st_sk), fs, jk[jokers[q], C.JK_AMOUNT],
                                            st_pol, rp.vw_joker_heal_share):
                jid = jokers[q]
                nj = pop_joker(jokers, nj, q)
                before = lp
                lp = smin(maxlp, lp + jk[jid, C.JK_AMOUNT])
                out[O_HEALED] += lp - before
                fs[FS_LP] = lp
                out[O_JK_USED] += 1
                out[O_JK_HEAL] += 1
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_JOKER, room, turn, jid, C.JK_HEAL, trunc(lp - before), trunc(lp), 0,
                                   0, 0, 0, 0)
        k = _ms(dice, nd, 0, -1, ioc)
        dp = pid if full else who(pid, sk, st_sk)
        m = decide_assign(dp, fs, part[k, 1:], part[k, 0], cv, aid, arole, st_pol, work)
        hero_j = -1
        hero_f = rp.hero_factor
        if hero_left > 0 and m > 0:
            dp = pid if full else who(pid, sk, st_sk)
            hero_j = decide_hero(dp, fs, aid, arole, m, cv, hero_f, turn, st_pol, rp.vw_hero_gain)
            if hero_j >= 0:
                hero_left -= 1
                out[O_HERO] += 1
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_HERO, room, turn, aid[hero_j], arole[hero_j], 0, 0, 0, 0, 0, 0, 0)
        # --- 3b. resolution: attack (combo by combo, block first), heal, shield
        lp_start = lp
        for j in range(m):
            cdraw[j] = 1.0
            if arole[j] == R.ATTACK and mods[R.EFF_CRIT] > 0:
                cdraw[j] = uniform(st_crit)
            crit_j[j] = 0
        rstate[0] = ehp
        rstate[1] = eblock
        rstate[2] = epoison
        out[O_DEALT] += R.resolve_attacks(cv, aid, arole, m, hero_j, hero_f, mods, weak_mul, berserk,
                                          rp.crit_mul, cdraw, rstate, dealt_j, crit_j)
        ehp = rstate[0]
        eblock = rstate[1]
        epoison = rstate[2]
        for j in range(m):
            c = aid[j]
            if arole[j] == R.HEAL:
                h = cv[c, 2] * (hero_f if j == hero_j else 1.0)
                before = lp
                lp = smin(maxlp, lp + h)
                out[O_HEALED] += lp - before
                healed = True
        for j in range(m):
            c = aid[j]
            if arole[j] == R.SHIELD:
                shield += cv[c, 1] * (hero_f if j == hero_j else 1.0)
        # coins and stats per action (in assignment order)
        lp_run = lp_start
        for j in range(m):
            c = aid[j]
            role = arole[j]
            hf = hero_f if j == hero_j else 1.0
            if role == R.ATTACK:
                useful = True
                eff = dealt_j[j]
                out[O_CRITS] += crit_j[j]
            elif role == R.HEAL:
                useful = lp_run < maxlp
                eff = trunc(smin(maxlp, lp_run + cv[c, 2] * hf) - lp_run)
                lp_run = smin(maxlp, lp_run + cv[c, 2] * hf)
            else:
                useful = ehp > 0 and (hit * hits > 0 or rp.shield_needs_att == 0)
                eff = trunc(cv[c, 1] * hf)
            pay = 0.0
            if useful:
                pay = float(R.action_coins(cv[c, 3], nact[role], steps, step_floor))
                nact[role] += 1
                pay = smin(pay, cap - fight_coins)
                fight_coins += pay
                coins += pay
                out[O_EARNED] += pay
            kind = R.C_KIND[c]
            out[rs.b_combo + kind] += 1
            kinds_used |= 1 << kind
            was_crit = crit_j[j] if role == R.ATTACK else 0
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_COMBO, room, turn, c, role, eff, trunc(pay), was_crit, 0, 0, 0, 0)
        # thinking time: a hold decision before each roll after the first, and the assignment
        seconds += m * rp.t_assign + rp.t_turn + nroll * rp.t_decide
        if weak > 0:
            weak -= 1
        if log.shape[0] > 0:
            nl = log_event(log, nl, LG_RESOLVE, room, turn, trunc(ehp), trunc(eblock), trunc(lp), trunc(shield),
                      trunc(epoison), 0, 0, 0, 0)
        if ehp <= 0:
            won = True
            break
        # --- 3c. the enemy's turn: block drops, poison ticks, the announced intent
        eblock = 0.0
        pdmg = 0
        if epoison > 0:
            pdmg = trunc(epoison)
            ehp -= epoison
            out[O_POISON] += epoison
            epoison = smax(0.0, epoison - rp.poison_decay)
            if ehp <= 0:
                won = True
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_ENEMY, room, turn, it, 0, trunc(lp), trunc(shield), 0, trunc(ehp), 0,
                              pdmg, 0)
                break
        taken = 0.0
        if hit > 0:
            for _ in range(hits):
                a = smin(shield, float(hit))
                shield -= a
                lp -= hit - a
                taken += hit - a
        out[O_TAKEN] += taken
        eblock += intents[it, C.IN_BLOCK]
        ehp = smin(ehp_max, ehp + intents[it, C.IN_HEAL])
        weak = smax(weak, trunc(intents[it, C.IN_WEAKEN]))
        ncurse = trunc(intents[it, C.IN_CURSE])
        if ncurse > 0:
            # k distinct random dice (partial Fisher-Yates over the dice indices)
            for q in range(nd_base):
                idx[q] = q
            for q in range(smin(ncurse, nd_base)):
                w = q + below(st_en, nd_base - q)
                tq = idx[q]
                idx[q] = idx[w]
                idx[w] = tq
                cursed_next |= 1 << idx[q]
        steal = smin(coins, intents[it, C.IN_STEAL])
        coins -= steal
        stolen += steal
        out[O_STOLEN] += steal
        ebuff += trunc(intents[it, C.IN_BUFF])
        eat_next = trunc(intents[it, C.IN_EAT])
        if log.shape[0] > 0:
            nl = log_event(log, nl, LG_ENEMY, room, turn, it, trunc(taken), trunc(lp), trunc(shield), trunc(eblock),
                      trunc(ehp), trunc(steal), pdmg, 0)
        if lp <= 0:
            break
        ii = draw_intent(intents, i0, ni, st_en) if rnd_mode else (ii + 1) % ni
    out[O_TURNS] += turn
    out[rs.b_turns + room - 1] = turn
    rs.lp = lp
    rs.coins = coins
    rs.seconds = seconds
    rs.nj = nj
    rs.db_left = db_left
    rs.truhe_mask = truhe_mask
    rs.nl = nl
    rs.won = won
    rs.elite = elite
    rs.boss = boss
    rs.turn = turn
    rs.fight_coins = fight_coins
    rs.stolen = stolen
    rs.kinds_used = kinds_used
    rs.healed = healed
