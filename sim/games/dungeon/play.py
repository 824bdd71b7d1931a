"""The Würfel Dungeon run kernel: whole runs (10 rooms, path choices, fights) under a policy.

One run draws only from ``sim.rng`` streams keyed by (seed, run, purpose, room): the map of room
``r`` (third path card, Geheimnis event, enemy) from (1, r), the dice of room ``r``'s fight from
(2, r), the policy's own random choices from (3, 0), Glücksklee crits from (4, r) and the enemy's
random choices (intent draws, cursed dice) from (5, r). Every policy therefore meets the same rooms,
and a table does not depend on chunking or threads.

``play_run`` plays one run and writes its row of the per-run table (columns ``columns(n_rooms)``);
with a non-empty ``log`` it also writes the event log that ``replay`` renders (the same code path).
``play_batch`` runs ``play_run`` over a chunk with ``prange``.

State that the progression issue extends: the run's upgrade loadout (``owned`` counts of rows of
``up_eff``) folded into ``mods`` (``rules.EFF_*``), which the fight reads for every effect; the
Opferaltar level selects the precomputed profile of combo values and partitions.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.dungeon import (
    ELITE,
    EXPECTIMAX,
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
    GEHEIMNIS,
    KAMPF,
    MAX_LEVELS,
    RAST,
    decide_adjust,
    decide_assign,
    decide_event,
    decide_keep,
    decide_last_chance,
    decide_path,
    expectation_table,
)
from sim.games.dungeon import config as C
from sim.games.dungeon import rules as R
from sim.rng import below, die, stream_key, uniform

FIXED = (
    "win", "rooms_cleared", "death_room", "score", "coins", "lp", "max_lp", "seconds", "turns", "fights", "rolls",
    "damage_dealt", "damage_taken", "healed", "adjusts", "last_chances", "challenges", "coins_earned",
    "coins_stolen", "altars", "truhen",
)
(O_WIN, O_ROOMS, O_DEATH, O_SCORE, O_COINS, O_LP, O_MAXLP, O_SECONDS, O_TURNS, O_FIGHTS, O_ROLLS, O_DEALT,
 O_TAKEN, O_HEALED, O_ADJUSTS, O_LC, O_CHALLENGES, O_EARNED, O_STOLEN, O_ALTARS, O_TRUHEN) = range(21)
N_FIXED = 21
PATH_KINDS = ("kampf", "elite", "rastplatz", "geheimnis")


def columns(n_rooms: int) -> list[str]:
    """Per-run table columns: fixed, LP and coins after each room won (NaN where not reached), turns
    per room, combos played per kind, path choices per kind."""
    return (
        list(FIXED)
        + [f"lp_room_{r}" for r in range(1, n_rooms + 1)]
        + [f"coins_room_{r}" for r in range(1, n_rooms + 1)]
        + [f"turns_room_{r}" for r in range(1, n_rooms + 1)]
        + [f"combos_{k}" for k in R.KINDS]
        + [f"path_{p}" for p in PATH_KINDS]
    )


# event log rows: [kind, room, turn, a, b, c, d, e, f, g, h, i]
LOG_W = 12
LG_ROOM, LG_EVENT, LG_TURN, LG_ROLL, LG_ADJ, LG_COMBO, LG_RESOLVE, LG_ENEMY, LG_END, LG_RUN, LG_LC = range(11)


@njit(cache=True, error_model="numpy")
def _log(log, n, kind, room, turn, a, b, c, d, e, f, g, h, i):
    if n >= log.shape[0]:
        return n
    row = log[n]
    row[0] = kind
    row[1] = room
    row[2] = turn
    row[3] = a
    row[4] = b
    row[5] = c
    row[6] = d
    row[7] = e
    row[8] = f
    row[9] = g
    row[10] = h
    row[11] = i
    return n + 1


@njit(cache=True, error_model="numpy")
def _pack(dice, nd):
    x = 0
    for i in range(nd):
        x = x * 10 + dice[i]
    return x


@njit(cache=True, error_model="numpy")
def _ms(dice, nd, mask, want, ioc):
    """Multiset index of the dice whose bit in ``mask`` equals ``want`` (``want`` -1: all dice)."""
    code = 0
    for i in range(nd):
        if want < 0 or ((mask >> i) & 1) == want:
            code += R.POW7_T[dice[i] - 1]
    return ioc[code]


@njit(cache=True, error_model="numpy")
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


@njit(cache=True, error_model="numpy")
def _draw_intent(intents, i0, ni, st):
    tot = 0.0
    for j in range(ni):
        tot += intents[i0 + j, C.IN_WEIGHT]
    u = uniform(st) * tot
    for j in range(ni):
        u -= intents[i0 + j, C.IN_WEIGHT]
        if u < 0:
            return j
    return ni - 1


@njit(cache=True, error_model="numpy")
def new_scratch(pid):
    """Per-thread work arrays of ``play_run``: (floats, ints, streams, etab, scratch, memo)."""
    big = pid == EXPECTIMAX
    return (np.zeros(R.N_EFF + FS_SIZE), np.zeros(57, np.int64), np.zeros(5, np.uint64),
            np.zeros((MAX_LEVELS + 1, R.N_MS) if big else (1, 1)), np.zeros(R.N_MS if big else 1),
            np.zeros(R.N_MS if big else 1))


@njit(cache=True, error_model="numpy")
def play_run(pid, seed, run, fz, hold, tm, out, log, sc):
    """Play run ``run``; fill ``out`` (one table row); returns the number of log rows written.

    ``sc``: work arrays from ``new_scratch`` (reused between runs of one thread)."""
    rp = fz.rp
    en = fz.en
    intents = fz.intents
    counts = tm[0]
    ioc = tm[4]
    nl = 0
    n_rooms = int(rp[C.RP_N_ROOMS])
    lp_base = N_FIXED
    coins_base = N_FIXED + n_rooms
    turns_base = N_FIXED + 2 * n_rooms
    combo_base = N_FIXED + 3 * n_rooms
    path_base = combo_base + R.N_KIND
    for j in range(out.shape[0]):
        out[j] = 0.0
    for r in range(n_rooms):
        out[lp_base + r] = np.nan
        out[coins_base + r] = np.nan
    fbuf, ibuf, ubuf, etab, scratch, memo = sc
    mods = fbuf[:R.N_EFF]
    fs = fbuf[R.N_EFF : R.N_EFF + FS_SIZE]
    R.fold_mods(fz.up_eff, fz.loadout, mods)
    maxlp = rp[C.RP_LP] + mods[R.EFF_MAX_LP]
    lp = maxlp
    coins = rp[C.RP_COINS]
    altar = int(rp[C.RP_START_ALTAR])
    n_prof = int(rp[C.RP_N_PROF])
    nd_base = min(R.MAX_DICE, int(rp[C.RP_DICE] + mods[R.EFF_EXTRA_DICE]))
    seconds = 0.0
    want_etab = pid == EXPECTIMAX
    dice = ibuf[0:6]
    aid = ibuf[6:10]
    arole = ibuf[10:14]
    work = ibuf[14:30]
    kc6 = ibuf[30:36]
    dealt_j = ibuf[36:40]
    crit_j = ibuf[40:44]
    nact = ibuf[44:48]
    idx = ibuf[48:54]
    cards = ibuf[54:57]
    st_pol = ubuf[0:1]
    st_map = ubuf[1:2]
    st_dice = ubuf[2:3]
    st_en = ubuf[3:4]
    st_crit = ubuf[4:5]
    st_pol[0] = stream_key(seed, run, 3, 0)
    truhe_mask = 0
    rooms_cleared = 0
    death = 0
    step_floor = rp[C.RP_STEP_FLOOR] > 0
    for room in range(1, n_rooms + 1):
        rr = fz.rooms[room - 1]
        st_map[0] = stream_key(seed, run, 1, room)
        third = RAST if uniform(st_map) < rp[C.RP_REST_CHANCE] else GEHEIMNIS
        # Geheimnis event, drawn whatever the choice so that every policy meets the same rooms
        tot = fz.ev_weights.sum()
        u = uniform(st_map) * tot
        event = 0
        while event < 2 and u >= fz.ev_weights[event]:
            u -= fz.ev_weights[event]
            event += 1
        if rr[C.RM_BOSS] >= 0:
            e = rr[C.RM_BOSS]
        else:
            e = fz.pool[rr[C.RM_POOL0] + below(st_map, rr[C.RM_POOLN])]
        card = KAMPF
        if rr[C.RM_PATH]:
            cards[0] = KAMPF
            cards[1] = ELITE
            cards[2] = third
            card = cards[decide_path(pid, cards, lp, maxlp, st_pol)]
            seconds += rp[C.RP_T_PATH]
            out[path_base + card] += 1
            if card == GEHEIMNIS:
                acc = decide_event(pid, event, lp, maxlp, rp[C.RP_ALTAR_LP], st_pol)
                if event == C.EV_JOKER:
                    acc = False  # no joker to swap before the progression items exist
                if acc:
                    if event == C.EV_ALTAR:
                        lp -= rp[C.RP_ALTAR_LP]
                        altar += int(rp[C.RP_ALTAR_ATT])
                        out[O_ALTARS] += 1
                    elif event == C.EV_TRUHE:
                        coins += rp[C.RP_TRUHE_COINS]
                        out[O_EARNED] += rp[C.RP_TRUHE_COINS]
                        truhe_mask = 1 << (int(rp[C.RP_TRUHE_DIE]) - 1)
                        out[O_TRUHEN] += 1
                if log.shape[0] > 0:
                    nl = _log(log, nl, LG_EVENT, room, 0, event, int(acc), int(lp), int(coins), 0, 0, 0, 0, 0)
            if card == RAST:
                lp = min(maxlp, lp + rp[C.RP_REST_HEAL])
        prof = min(altar, n_prof - 1)
        cv = fz.cvals[prof]
        part = fz.part[prof]
        pcl = fz.pclass[prof]
        hp_tab = hold[prof]
        # --- the fight ---
        elite = card == ELITE
        boss = en[e, C.EN_BOSS] > 0
        ehp = float(R.enemy_hp(en[e, C.EN_HP], room, boss, elite, rp[C.RP_HP_PER_ROOM], rp[C.RP_HP_FACTOR],
                               rp[C.RP_DIFF_HP], rp[C.RP_DIFF_BOSS], rp[C.RP_ELITE_HP]))
        ehp_max = ehp
        eblock = float(rr[C.RM_EBLOCK])
        scale = R.damage_scale(room, rp[C.RP_DIFF_DMG], rp[C.RP_GROWTH], rp[C.RP_COMPOUND] > 0, elite,
                               rp[C.RP_ELITE_ATT])
        sec_bonus = rr[C.RM_ATTBONUS]
        ebase = en[e, C.EN_DMG]
        i0 = int(en[e, C.EN_I0])
        ni = int(en[e, C.EN_IN])
        rnd_mode = en[e, C.EN_RANDOM] > 0
        st_en[0] = stream_key(seed, run, 5, room)
        st_dice[0] = stream_key(seed, run, 2, room)
        st_crit[0] = stream_key(seed, run, 4, room)
        ii = _draw_intent(intents, i0, ni, st_en) if rnd_mode else 0
        ebuff = 0
        epoison = 0.0
        shield = float(rr[C.RM_PSHIELD])
        adjusts = int(rp[C.RP_ADJUSTS] + mods[R.EFF_ADJUSTS])
        rerolls = int(rp[C.RP_ROLLS]) - 1
        lc_left = int(rp[C.RP_LC_N])
        if boss and rp[C.RP_BOSS_REROLLS] >= 0:
            rerolls = min(rerolls, int(rp[C.RP_BOSS_REROLLS]))
            lc_left = 0
        cap = rp[C.RP_BOSS_CAP] if boss else rp[C.RP_CAP]
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
        seconds += rp[C.RP_T_INTRO]
        out[O_FIGHTS] += 1
        if log.shape[0] > 0:
            nl = _log(log, nl, LG_ROOM, room, 0, card, e, int(ehp), int(eblock), third, int(lp), int(coins), int(elite),
                      0)
        while True:
            turn += 1
            if turn > rp[C.RP_MAX_TURNS]:
                lp = 0.0
                break
            if turn > 1:
                shield = min(shield, mods[R.EFF_SHIELD_KEEP])
            nd = max(1, nd_base - eat_next)
            eat_next = 0
            cmask = cursed_next & ((1 << nd) - 1)
            cursed_next = 0
            it = i0 + ii
            hit = R.hit_damage(ebase, intents[it, C.IN_DMG], scale, sec_bonus, ebuff)
            hits = int(intents[it, C.IN_HITS])
            berserk = mods[R.EFF_BERSERK_MUL] if lp <= mods[R.EFF_BERSERK_LP] * maxlp else 1.0
            weak_mul = rp[C.RP_WEAK_MUL] if weak > 0 else 1.0
            fs[FS_EHP] = ehp
            fs[FS_EBLOCK] = eblock
            fs[FS_EPOISON] = epoison
            fs[FS_LP] = lp
            fs[FS_MAXLP] = maxlp
            fs[FS_SHIELD] = shield
            fs[FS_INCOMING] = hit * hits
            fs[FS_ATT_MUL] = weak_mul * berserk
            fs[FS_COINS] = coins
            fs[FS_LC_COST] = rp[C.RP_LC_COST]
            fs[FS_LC_OK] = 0.0
            if log.shape[0] > 0:
                nl = _log(log, nl, LG_TURN, room, turn, int(lp), int(shield), int(ehp), int(eblock), it, hit * hits,
                          weak, nd, cmask)
            for i in range(nd):
                dice[i] = die(st_dice)
            out[O_ROLLS] += 1
            seconds += rp[C.RP_T_ROLL]
            nroll = 1
            if log.shape[0] > 0:
                nl = _log(log, nl, LG_ROLL, room, turn, 1, _pack(dice, nd), 0, nd, 0, 0, 0, 0, 0)
            cursed = _ms(dice, nd, cmask, 1, ioc)
            ncursed = 0
            for i in range(nd):
                ncursed += (cmask >> i) & 1
            if want_etab:
                levels = max(1, min(rerolls, MAX_LEVELS))
                expectation_table(fs, cursed, nd - ncursed, levels, part, pcl, cv, tm, etab, scratch, memo, work)
            for r in range(rerolls, 0, -1):
                roll = _ms(dice, nd, 0, -1, ioc)
                keep = decide_keep(pid, roll, cursed, r, hp_tab, etab, tm, st_pol, work)
                if keep != roll:
                    held = _reroll(dice, nd, cmask, keep, counts, st_dice, kc6)
                    out[O_ROLLS] += 1
                    seconds += rp[C.RP_T_ROLL]
                    nroll += 1
                    if log.shape[0] > 0:
                        nl = _log(log, nl, LG_ROLL, room, turn, nroll, _pack(dice, nd), held, nd, 0, 0, 0, 0, 0)
            if lc_left > 0 and coins >= rp[C.RP_LC_COST]:
                fs[FS_LC_OK] = 1.0
                roll = _ms(dice, nd, 0, -1, ioc)
                if decide_last_chance(pid, fs, roll, cursed, part, cv, etab, tm, work):
                    coins -= rp[C.RP_LC_COST]
                    lc_left -= 1
                    out[O_LC] += 1
                    keep = decide_keep(pid, roll, cursed, 1, hp_tab, etab, tm, st_pol, work)
                    held = _reroll(dice, nd, cmask, keep, counts, st_dice, kc6)
                    out[O_ROLLS] += 1
                    seconds += rp[C.RP_T_ROLL]
                    nroll += 1
                    if log.shape[0] > 0:
                        nl = _log(log, nl, LG_LC, room, turn, int(coins), 0, 0, 0, 0, 0, 0, 0, 0)
                        nl = _log(log, nl, LG_ROLL, room, turn, nroll, _pack(dice, nd), held, nd, 1, 0, 0, 0, 0)
                fs[FS_LC_OK] = 0.0
                fs[FS_COINS] = coins
            if adjusts > 0:
                ai, af = decide_adjust(pid, fs, dice, nd, cmask, int(rp[C.RP_ADJ_STEP]), part, pcl, cv, tm, work)
                if ai >= 0:
                    if log.shape[0] > 0:
                        nl = _log(log, nl, LG_ADJ, room, turn, ai, dice[ai], af, 0, 0, 0, 0, 0, 0)
                    dice[ai] = af
                    adjusts -= 1
                    out[O_ADJUSTS] += 1
            k = _ms(dice, nd, 0, -1, ioc)
            m = decide_assign(pid, fs, part[k, 1:], part[k, 0], cv, aid, arole, st_pol, work)
            # resolution: attack (combo by combo, block first), heal, shield
            lp_start = lp
            for j in range(m):
                c = aid[j]
                role = arole[j]
                crit = 0
                if role == R.ATTACK:
                    crit_mul = 1.0
                    if mods[R.EFF_CRIT] > 0 and uniform(st_crit) < mods[R.EFF_CRIT]:
                        crit_mul = rp[C.RP_CRIT_MUL]
                        crit = 1
                    d = R.player_attack(cv[c, 0], weak_mul, berserk, crit_mul)
                    dealt_j[j] = d
                    crit_j[j] = crit
                    a = min(eblock, float(d))
                    eblock -= a
                    ehp -= d - a
                    out[O_DEALT] += d - a
                    epoison += mods[R.EFF_POISON]
            for j in range(m):
                c = aid[j]
                if arole[j] == R.HEAL:
                    h = cv[c, 2]
                    before = lp
                    lp = min(maxlp, lp + h)
                    out[O_HEALED] += lp - before
                    healed = True
            for j in range(m):
                c = aid[j]
                if arole[j] == R.SHIELD:
                    shield += cv[c, 1]
            # coins and stats per action (in assignment order)
            lp_run = lp_start
            for j in range(m):
                c = aid[j]
                role = arole[j]
                if role == R.ATTACK:
                    useful = True
                    eff = dealt_j[j]
                elif role == R.HEAL:
                    useful = lp_run < maxlp
                    eff = int(min(maxlp, lp_run + cv[c, 2]) - lp_run)
                    lp_run = min(maxlp, lp_run + cv[c, 2])
                else:
                    useful = ehp > 0 and (hit * hits > 0 or rp[C.RP_SHIELD_NEEDS_ATT] == 0)
                    eff = int(cv[c, 1])
                pay = 0.0
                if useful:
                    pay = float(R.action_coins(cv[c, 3], nact[role], fz.steps, step_floor))
                    nact[role] += 1
                    pay = min(pay, cap - fight_coins)
                    fight_coins += pay
                    coins += pay
                    out[O_EARNED] += pay
                kind = R.C_KIND[c]
                out[combo_base + kind] += 1
                kinds_used |= 1 << kind
                was_crit = crit_j[j] if role == R.ATTACK else 0
                if log.shape[0] > 0:
                    nl = _log(log, nl, LG_COMBO, room, turn, c, role, eff, int(pay), was_crit, 0, 0, 0, 0)
            seconds += m * rp[C.RP_T_ASSIGN] + rp[C.RP_T_TURN]
            if weak > 0:
                weak -= 1
            if log.shape[0] > 0:
                nl = _log(log, nl, LG_RESOLVE, room, turn, int(ehp), int(eblock), int(lp), int(shield), int(epoison),
                          0, 0, 0, 0)
            if ehp <= 0:
                won = True
                break
            # the enemy's turn: block drops, poison ticks, the announced intent
            eblock = 0.0
            pdmg = 0
            if epoison > 0:
                pdmg = int(epoison)
                ehp -= epoison
                epoison = max(0.0, epoison - rp[C.RP_POISON_DECAY])
                if ehp <= 0:
                    won = True
                    if log.shape[0] > 0:
                        nl = _log(log, nl, LG_ENEMY, room, turn, it, 0, int(lp), int(shield), 0, int(ehp), 0, pdmg, 0)
                    break
            taken = 0.0
            if hit > 0:
                for _ in range(hits):
                    a = min(shield, float(hit))
                    shield -= a
                    lp -= hit - a
                    taken += hit - a
            out[O_TAKEN] += taken
            eblock += intents[it, C.IN_BLOCK]
            ehp = min(ehp_max, ehp + intents[it, C.IN_HEAL])
            weak = max(weak, int(intents[it, C.IN_WEAKEN]))
            ncurse = int(intents[it, C.IN_CURSE])
            if ncurse > 0:
                # k distinct random dice (partial Fisher-Yates over the dice indices)
                for q in range(nd_base):
                    idx[q] = q
                for q in range(min(ncurse, nd_base)):
                    w = q + below(st_en, nd_base - q)
                    t = idx[q]
                    idx[q] = idx[w]
                    idx[w] = t
                    cursed_next |= 1 << idx[q]
            s = min(coins, intents[it, C.IN_STEAL])
            coins -= s
            stolen += s
            out[O_STOLEN] += s
            ebuff += int(intents[it, C.IN_BUFF])
            eat_next = int(intents[it, C.IN_EAT])
            if log.shape[0] > 0:
                nl = _log(log, nl, LG_ENEMY, room, turn, it, int(taken), int(lp), int(shield), int(eblock), int(ehp),
                          int(s), pdmg, 0)
            if lp <= 0:
                break
            ii = _draw_intent(intents, i0, ni, st_en) if rnd_mode else (ii + 1) % ni
        out[O_TURNS] += turn
        out[turns_base + room - 1] = turn
        if not won:
            death = room
            if log.shape[0] > 0:
                nl = _log(log, nl, LG_END, room, turn, 0, 0, 0, int(coins), int(lp), int(fight_coins), 0, 0, 0)
            break
        rooms_cleared = room
        if boss:
            reward = rp[C.RP_BOSS_WIN]
        elif card == RAST:
            reward = rp[C.RP_REST_COINS]
        else:
            reward = rp[C.RP_WIN]
        if elite:
            reward += rp[C.RP_ELITE_COINS]
        ch = rr[C.RM_CHALLENGE]
        met = False
        if ch == 0:
            met = not healed
        elif ch == 1:
            nk = 0
            for q in range(R.N_KIND):
                nk += (kinds_used >> q) & 1
            met = nk >= rp[C.RP_CH_COMBOS]
        else:
            met = turn <= rp[C.RP_CH_TURNS]
        if met:
            reward += rp[C.RP_CHALLENGE]
            out[O_CHALLENGES] += 1
        if rp[C.RP_STEAL_RETURN] > 0:
            reward += stolen
        coins += reward
        out[O_EARNED] += reward
        out[lp_base + room - 1] = lp
        out[coins_base + room - 1] = coins
        if log.shape[0] > 0:
            nl = _log(log, nl, LG_END, room, turn, 1, int(reward), int(met), int(coins), int(lp), int(fight_coins),
                      0, 0, 0)
    win = rooms_cleared == n_rooms
    out[O_WIN] = 1.0 if win else 0.0
    out[O_ROOMS] = rooms_cleared
    out[O_DEATH] = death
    out[O_LP] = max(lp, 0.0)
    out[O_MAXLP] = maxlp
    out[O_COINS] = coins
    out[O_SECONDS] = seconds
    out[O_SCORE] = R.score(rooms_cleared, max(lp, 0.0), seconds, win, rp[C.RP_SC_ROOM], rp[C.RP_SC_LP],
                           rp[C.RP_SC_BUDGET], rp[C.RP_SC_WIN], rp[C.RP_POINTS])
    if log.shape[0] > 0:
        nl = _log(log, nl, LG_RUN, 0, 0, int(win), rooms_cleared, int(out[O_SCORE]), int(seconds * 10), 0, 0, 0, 0,
                  0)
    return nl


@njit(cache=True, parallel=True, error_model="numpy")
def play_batch(pid, seed, start, count, fz, hold, tm, out):
    """Runs ``start .. start + count - 1`` into the rows of ``out`` (blocks of runs per thread)."""
    nblk = min(count, 256)
    step = (count + nblk - 1) // nblk
    for b in prange(nblk):
        nolog = np.zeros((0, LOG_W), np.int64)
        sc = new_scratch(pid)
        for i in range(b * step, min(count, (b + 1) * step)):
            play_run(pid, seed, start + i, fz, hold, tm, out[i], nolog, sc)


def run_one(pid: int, seed: int, run: int, fz, hold, tm, n_cols: int, log_rows: int = 0):
    """One run outside the batch (replay): its table row and event log."""
    out = np.zeros(n_cols)
    log = np.zeros((log_rows, LOG_W), np.int64)
    n = play_run(pid, seed, run, fz, hold, tm, out, log, new_scratch(pid))
    return out, log[:n]
