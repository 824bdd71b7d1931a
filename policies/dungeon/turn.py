"""In-fight decisions after the roll: assignment, adjust (Justieren), last chance, jokers and the hero ability.

Each ``decide_*`` is the one dispatch point of its decision kind (``pid`` picks the policy); the kernel
(``sim.games.dungeon.fight``) calls it with the fight-state vector ``fs`` (``words.FS_*``) and scalars. The
thresholds of Vorschlag's joker and hero decisions come from ``[policies.vorschlag]`` as scalar arguments.
"""

from __future__ import annotations

from numba import njit

from policies.dungeon.holds import best_subset
from policies.dungeon.ids import BROKEN, EXPECTIMAX, GREEDY, RANDOM, VORSCHLAG
from policies.dungeon.rating import RATING, SURVIVAL, W_KILL, _attack_of, best_assignment, leaf_value, rate
from sim.core.rng import below, uniform
from sim.games.dungeon import rules as R
from sim.games.dungeon.words import (
    FS_ATT_MUL,
    FS_COINS,
    FS_EBLOCK,
    FS_EHP,
    FS_INCOMING,
    FS_LC_COST,
    FS_LC_OK,
    FS_LP,
    FS_MAXLP,
    FS_SHIELD,
)
from sim.jit.scalar import smax, smin
from sim.jit.tier import INLINE

ADJ_GAIN = 4.0
ADJ_GAIN_HOLD = 8.0  # vorschlag, greedy: shown attack an adjust before a reroll must add (a combo completed)


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_assign(pid, fs, ids, n, cv, out_ids, out_roles, st, work):
    """Combos and their roles for this turn; returns how many (after a Full House split)."""
    if pid == VORSCHLAG or pid == EXPECTIMAX:
        return best_assignment(fs, ids, n, cv, out_ids, out_roles, RATING, work)[0]
    if pid == GREEDY:
        dmg = 0.0
        for j in range(n):
            dmg += R.player_attack(cv[ids[j], 0], fs[FS_ATT_MUL], 1.0, 1.0)
        lethal = dmg >= fs[FS_EHP] + fs[FS_EBLOCK]
        dies = fs[FS_LP] - smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD]) <= 0
        if dies and not lethal:
            return best_assignment(fs, ids, n, cv, out_ids, out_roles, SURVIVAL, work)[0]
        for j in range(n):
            out_ids[j] = ids[j]
            out_roles[j] = R.ATTACK
        return n
    for j in range(n):
        out_ids[j] = ids[j]
        out_roles[j] = 1 + below(st, 3)
    return n


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_adjust(pid, fs, dice, nd, cursed_mask, step, part, pclass, cv, tm, work):
    """(die index, new face) of a ±``step`` adjust worth doing now, or (-1, 0)."""
    if pid == RANDOM:
        return -1, 0
    if pid == BROKEN:
        return _forbidden_adjust(dice, nd, cursed_mask, step, 1)
    ioc = tm[4]
    code = 0
    for i in range(nd):
        code += R.POW7_T[dice[i] - 1]
    k0 = ioc[code]
    if pid != EXPECTIMAX:
        v0 = _attack_of(k0, part, cv)
    else:
        v0 = leaf_value(fs, k0, part, cv, work)
    best = v0
    bi = -1
    bf = 0
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            continue
        for d in (-step, step):
            nf = dice[i] + d
            if nf < 1 or nf > 6:
                continue
            k = ioc[code - R.POW7_T[dice[i] - 1] + R.POW7_T[nf - 1]]
            if pclass[k] == pclass[k0]:
                continue
            if pid == EXPECTIMAX:
                v = leaf_value(fs, k, part, cv, work)
            else:
                v = _attack_of(k, part, cv)
            if v > best:
                best = v
                bi = i
                bf = nf
    need = ADJ_GAIN if pid == VORSCHLAG else 0.0
    if bi >= 0 and best - v0 > need:
        return bi, bf
    return -1, 0


@njit(cache=True, error_model="numpy", inline=INLINE)
def _forbidden_adjust(dice, nd, cursed_mask, step, adjusts):
    """The test policy's adjust (``BROKEN``): one the rules forbid, in this order of what the state allows: past the
    budget, on a cursed die, beyond ±``step``, out of 1..6."""
    if adjusts <= 0:
        return 0, (dice[0] + 1 if dice[0] < 6 else dice[0] - 1)
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            return i, (dice[i] + 1 if dice[i] < 6 else dice[i] - 1)
    if dice[0] + step + 1 <= 6:
        return 0, dice[0] + step + 1
    return 0, 7


@njit(cache=True, error_model="numpy", inline=INLINE)
def adjust_hold_considered(pid, rolls_left, adjusts):
    """Whether ``decide_adjust_hold`` may adjust at this hold decision (scalars only: the kernel asks this first,
    so a policy that will not adjust there costs no call with array arguments)."""
    if pid == BROKEN:
        return True  # the test policy asks with no adjust left too (the kernel refuses it)
    if pid == RANDOM or adjusts <= 0:
        return False
    if pid == VORSCHLAG:
        return rolls_left == 1
    if pid == GREEDY:
        return rolls_left == 1 and adjusts >= 2
    return True


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_adjust_hold(pid, dice, nd, cursed_mask, step, rolls_left, adjusts, na, part, cv, etabs, tm, work):
    """(die index, new face) of a ±``step`` adjust to make now, before the hold decision with ``rolls_left`` rolls
    to come (the hold is then chosen on the adjusted dice), or (-1, 0); ``adjusts``: adjusts left this fight;
    ``etabs[:na + 1]``: expectimax's tables of this turn (``expectation_tables``).

    vorschlag: before the last reroll, when one turn raises the shown total attack by at least ``ADJ_GAIN_HOLD``
    (a combo completed, e.g. 4-4-4-3 into a Vierling; its hold keeps it). greedy: the same, and only a spare
    adjust (its last one of the fight stays for the end of a turn). Measured (20,000 runs, seed 1): allowed
    before every reroll the rule lost vorschlag 1.5 and greedy 10 points of win rate; before the last reroll
    only it gains vorschlag 1-2 points and still lost greedy 1, whose holds are already exact for attack.
    expectimax: when the best hold of the adjusted
    dice with one adjust less (``etabs[a - 1]``) is worth more than the best hold of the dice as they are with
    the adjust kept for a later hold or the last roll (``etabs[a]``): the opportunity cost is the adjust's exact
    value later in this turn (``expectation_tables``), its value in later turns of the fight is not counted."""
    if not adjust_hold_considered(pid, rolls_left, adjusts):
        return -1, 0
    if pid == BROKEN:
        return _forbidden_adjust(dice, nd, cursed_mask, step, adjusts)
    ioc = tm[4]
    bi = -1
    bf = 0
    if pid != EXPECTIMAX:
        code = 0
        for i in range(nd):
            code += R.POW7_T[dice[i] - 1]
        v0 = _attack_of(ioc[code], part, cv)
        best = v0 + ADJ_GAIN_HOLD - 1e-9
        for i in range(nd):
            if (cursed_mask >> i) & 1:
                continue
            for d in (-step, step):
                nf = dice[i] + d
                if nf < 1 or nf > 6:
                    continue
                v = _attack_of(ioc[code - R.POW7_T[dice[i] - 1] + R.POW7_T[nf - 1]], part, cv)
                if v > best:
                    best = v
                    bi = i
                    bf = nf
        return bi, bf
    a = smin(adjusts, na)
    lv = smin(rolls_left, etabs.shape[1] - 1)
    code = 0
    for i in range(nd):
        if not (cursed_mask >> i) & 1:
            code += R.POW7_T[dice[i] - 1]
    now = etabs[a, lv]
    after = etabs[a - 1, lv]
    best = now[best_subset(now, ioc[code], tm, work)] + 1e-9
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            continue
        for d in (-step, step):
            nf = dice[i] + d
            if nf < 1 or nf > 6:
                continue
            v = after[best_subset(after, ioc[code - R.POW7_T[dice[i] - 1] + R.POW7_T[nf - 1]], tm, work)]
            if v > best:
                best = v
                bi = i
                bf = nf
    return bi, bf


@njit(cache=True, error_model="numpy", inline=INLINE)
def last_chance_considered(pid, lc_left, coins, cost):
    """Whether the policy considers a last chance after its rerolls (scalars only, asked first): every shipped
    policy only while the fight's last chance is unspent and affordable; the test policy ``BROKEN`` always (the
    kernel refuses what the rules forbid)."""
    return pid == BROKEN or (lc_left > 0 and coins >= cost)


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_last_chance(pid, fs, roll, cursed, part, cv, etab, tm, work):
    """Buy one more roll now (rerolls used up, coins and the once-per-fight chance available)?"""
    if pid == BROKEN:
        return True
    if fs[FS_LC_OK] == 0 or fs[FS_COINS] < fs[FS_LC_COST]:
        return False
    if pid == VORSCHLAG:
        return part[roll, 0] == 0
    if pid == EXPECTIMAX:
        counts = tm[0]
        ioc = tm[4]
        code = 0
        p = 1
        for f in range(6):
            code += (counts[roll, f] - counts[cursed, f]) * p
            p *= 7
        free = ioc[code]
        k = best_subset(etab[1], free, tm, work)
        return etab[1, k] > etab[0, free] + 1e-9
    return False


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_joker_heal(pid, fs, amount, st, heal_share):
    """Drink a heal joker now (before the assignment)? ``heal_share``: Vorschlag's LP share to drink at."""
    lp = fs[FS_LP]
    maxlp = fs[FS_MAXLP]
    if lp >= maxlp:
        return False
    dies = lp - smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD]) <= 0
    if pid == RANDOM:
        return uniform(st) < 0.5
    if pid == GREEDY:
        return dies
    return dies or (lp <= heal_share * maxlp and maxlp - lp >= 0.5 * amount)


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_joker_reroll(pid, fs, roll, cursed, part, cv, etab, tm, st, work):
    """Use an extra-reroll joker now (the turn's rolls used up)?"""
    if pid == RANDOM:
        return uniform(st) < 0.5
    if pid == EXPECTIMAX:
        fs[FS_LC_OK] = 1.0
        c = fs[FS_COINS]
        fs[FS_COINS] = 1e9
        r = decide_last_chance(pid, fs, roll, cursed, part, cv, etab, tm, work)
        fs[FS_COINS] = c
        fs[FS_LC_OK] = 0.0
        return r
    return part[roll, 0] == 0


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_set_die(pid, fs, dice, nd, cursed_mask, part, cv, tm, st, work, set_gain):
    """(die index, face) for a set-a-die joker worth using now, or (-1, 0); ``set_gain``: the least gain."""
    ioc = tm[4]
    code = 0
    for i in range(nd):
        code += R.POW7_T[dice[i] - 1]
    if pid == RANDOM:
        if uniform(st) < 0.25:
            i = below(st, nd)
            if not (cursed_mask >> i) & 1:
                return i, 1 + below(st, 6)
        return -1, 0
    k0 = ioc[code]
    a0 = _attack_of(k0, part, cv)
    v0 = leaf_value(fs, k0, part, cv, work) if pid == EXPECTIMAX else a0
    best = v0
    ba = a0
    bi = -1
    bf = 0
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            continue
        for nf in range(1, 7):
            if nf == dice[i]:
                continue
            k = ioc[code - R.POW7_T[dice[i] - 1] + R.POW7_T[nf - 1]]
            a = _attack_of(k, part, cv)
            v = leaf_value(fs, k, part, cv, work) if pid == EXPECTIMAX else a
            if v > best:
                best = v
                ba = a
                bi = i
                bf = nf
    if bi < 0:
        return -1, 0
    if pid == GREEDY:
        return bi, bf
    lethal = ba * fs[FS_ATT_MUL] >= fs[FS_EHP] + fs[FS_EBLOCK] > a0 * fs[FS_ATT_MUL]
    gain = best - v0
    if pid == EXPECTIMAX:
        if lethal or gain >= set_gain * 1.5 or (best >= W_KILL / 2 and v0 < W_KILL / 2):
            return bi, bf
        return -1, 0
    if lethal or gain >= set_gain:
        return bi, bf
    return -1, 0


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_hero(pid, fs, ids, roles, m, cv, factor, turn, st, hero_gain):
    """Index into the assigned combos whose value the hero ability multiplies by ``factor``, or -1
    (``hero_gain``: the least rating gain that uses it)."""
    if m == 0:
        return -1
    if pid == RANDOM:
        return below(st, m) if uniform(st) < 0.5 else -1
    mul = fs[FS_ATT_MUL]
    if pid == GREEDY:
        best = 0.0
        bj = -1
        for j in range(m):
            if roles[j] == R.ATTACK and cv[ids[j], 0] > best:
                best = cv[ids[j], 0]
                bj = j
        return bj
    dmg = 0.0
    sh = 0.0
    he = 0.0
    for j in range(m):
        c = ids[j]
        if roles[j] == R.ATTACK:
            dmg += R.player_attack(cv[c, 0], mul, 1.0, 1.0)
        elif roles[j] == R.SHIELD:
            sh += cv[c, 1]
        elif roles[j] == R.HEAL:
            he += cv[c, 2]
    v0 = rate(fs, dmg, sh, he)
    best = v0
    bj = -1
    for j in range(m):
        c = ids[j]
        x = factor - 1.0
        if roles[j] == R.ATTACK:
            v = rate(fs, dmg + R.player_attack(cv[c, 0] * x, mul, 1.0, 1.0), sh, he)
        elif roles[j] == R.SHIELD:
            v = rate(fs, dmg, sh + cv[c, 1] * x, he)
        else:
            v = rate(fs, dmg, sh, he + cv[c, 2] * x)
        if v > best:
            best = v
            bj = j
    if bj < 0:
        return -1
    if (best >= W_KILL / 2 and v0 < W_KILL / 2) or (v0 <= -W_KILL / 2 < best) or best - v0 >= hero_gain:
        return bj
    return -1
