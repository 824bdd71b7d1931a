"""Würfel Dungeon bot policies: holds, combo assignment, adjust, last chance and path choices.

Registry ``POLICIES`` maps a name to the integer id the run kernel (``sim.games.dungeon.play``)
dispatches on, so the compiled kernel stays in numba's disk cache for every policy. Adding a
policy: one decision function per decision point here, one registry line, one branch in each
dispatcher (``decide_keep``, ``decide_assign``, ``decide_adjust``, ``decide_last_chance``,
``decide_path``, ``decide_event``).

Decision signatures (all jitted; ``fs`` is the fight-state vector, indices ``FS_*``, that the
kernel fills before each decision; ``cv`` the combo values of the current modifier profile;
``part`` its shown partitions; ``tm`` the multiset tables ``(counts, child, parent, size_start,
index_of_code)`` of ``rules.TM``):

- ``decide_keep(pid, roll, cursed, rolls_left, hold, etab, tm, st, work) -> keep``: multiset indices;
  ``roll`` is the whole roll (cursed dice included), ``keep`` must lie between ``cursed`` and ``roll``.
- ``decide_assign(pid, fs, ids, n, cv, out_ids, out_roles, st, work) -> m``: which combos (``m`` of them,
  after an optional Full House split) go to attack/shield/heal (``rules.ATTACK`` …).
- ``decide_adjust(pid, fs, dice, nd, cursed_mask, …) -> (die, new face)`` or ``(-1, 0)``.
- ``decide_last_chance(pid, fs, …) -> bool``; ``decide_path(pid, cards, lp, maxlp, st) -> card``;
  ``decide_event(pid, event, lp, maxlp, altar_lp, st, jokers, nj, jk) -> bool``.
- Progression: ``offer_value(pid, kind, up_eff, u, jk, j, db_rerolls, lp, maxlp, g_att, g_dice, e_att,
  crit_mul) -> float`` rates one offer (``kind`` ``ITEM_UPGRADE``/``ITEM_JOKER``/``ITEM_DICE``; ``u``, ``j`` its
  rows; ``g_att`` the exact gain in expected turn attack from the kernel's profile tables, ``g_dice`` that of one
  more die, ``e_att`` the current expected turn attack); ``decide_reward(pid, vals, ok, n, st) -> slot``;
  ``decide_buy(pid, vals, prices, ok, n, coins, st) -> item or -1`` (called until it returns -1); jokers:
  ``decide_joker_heal``, ``decide_joker_reroll``, ``decide_set_die``; the hero ability ``decide_hero``.

The policies:

- ``vorschlag`` — the game's suggestion button. Assignment: every combo goes to attack, shield or
  heal (a Full House may be split into Drilling + Pasch) so as to maximise the *Vorschlag rating*
  (``rate``): a kill this turn (assigned attack ≥ enemy LP + block, or poison finishes it) is worth
  ``W_KILL`` plus the LP healed; otherwise the enemy LP removed plus ``w_lp`` × the change of own LP
  over the turn (heal, then the announced hit minus shield), where ``w_lp = W_LP0 + W_LP1 × missing
  LP share``; losing all LP is −``W_KILL``. Hold rule: keep the dice of the shown combos; with no
  combo, keep the longest run of ≥ 3 consecutive faces (one die each), else reroll all. Adjust: when
  one ±1 turn raises the shown total attack by more than ``ADJ_GAIN``; last chance when the rolls left no
  combo and coins allow.
  Path: Rastplatz when LP ≤ 60 %, Elite when LP ≥ 80 %, else Geheimnis when offered, else Kampf;
  Opferaltar accepted when LP after paying stays ≥ 70 %, Verfluchte Truhe always.
- ``greedy`` — holds toward the highest expected total attack at turn end (exact over the remaining
  rolls, a static table per modifier profile); everything to attack unless the announced hit would
  kill and attack cannot kill first: then the assignment that survives with the most attack. Adjust
  when it raises attack; never buys the last chance. Path: Elite when LP ≥ 50 %, else Rastplatz when
  offered, else Kampf; never opens a Geheimnis.
- ``expectimax`` — holds by exact expectation over the remaining rolls (all rerolled-dice outcomes
  as multisets with their probabilities) of the best assignment's Vorschlag rating; assignment as
  Vorschlag; adjust whenever it raises the rating; last chance when the expected rating of one more
  roll beats stopping. Path and events as Vorschlag.
- ``random`` — each free die kept with probability 1/2 before every reroll, each combo to a uniform
  role, a uniform path card, events accepted with probability 1/2 (when affordable).

Progression decisions (rewards, market, jokers, hero ability):

- ``vorschlag`` rates every offer by the *offer rating* (``offer_value``): an estimate of what the item adds
  per turn in attack-equivalents, from its effect fields and fixed weights (``RT_*``: attack per attack
  combo ``RT_ATT_COMBOS``, shield ``RT_SHIELD``, heal ``RT_HEAL``, Paschmeister ``RT_PASCH`` per × step,
  crit chance × ``RT_E_ATT`` × ``RT_CRIT``, adjusts, kept shield, poison, Berserker, Glückssieben, the sixth
  die, max LP weighted by the missing LP share, each joker kind and the dice bonus; the upgrade weights are
  fitted to each upgrade's measured win-rate lift, see ``sim.games.dungeon.upgrade_lift``). It takes the
  best reward; at the market it buys the best rating per coin while that is ≥ ``RT_PER_COIN`` and
  ``RESERVE`` coins (a last chance) stay.
  Jokers: heal when the announced hit would kill or LP ≤ ``JK_HEAL_SHARE``; extra reroll when the
  rolls left no combo; set a die when it raises the shown attack by ≥ ``JK_SET_GAIN`` or makes the
  attack lethal. Hero ability: on the combo where doubling gains most rating, when it kills, saves the
  run, or gains ≥ ``HERO_GAIN``. Joker-Händler: sells the last joker unless it is a heal joker and
  LP < 60 %.
- ``greedy`` — the highest immediate attack gain: ``g_att`` (exact, from the tables), crits, Berserker
  only when active now, poison, the sixth die; items that add no attack rate 0. Buys the highest gain per
  coin while it is > 0 and affordable. Uses every joker as soon as it helps (set a die whenever attack
  rises, heal only to survive, reroll when no combo); hero ability on the first turn, on the strongest
  attack combo; never sells jokers.
- ``expectimax`` — the Vorschlag rating with the attack terms replaced by the exact one-turn expectation
  (``g_att``, ``g_dice``: a lookahead over every roll of the next turn, cheap from the profile tables);
  jokers and hero ability by the rating (set die and extra reroll by the exact expectation tables).
- ``random`` — a uniform offer; each market item bought with probability 1/2 when affordable; each
  joker used with probability 1/2 when it can be; hero ability with probability 1/2.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.dice import best_subkeep, best_subkeep_value, expect_over_rerolls
from sim.games.dungeon import rules as R
from sim.rng import below, uniform
from sim.scalar import smax, smin, trunc

POLICIES = {"vorschlag": 0, "greedy": 1, "expectimax": 2, "random": 3}
VORSCHLAG, GREEDY, EXPECTIMAX, RANDOM = 0, 1, 2, 3
NEEDS_ETAB = (EXPECTIMAX,)  # policies that read the per-turn expectation table

# fight-state vector the kernel fills
(FS_EHP, FS_EBLOCK, FS_EPOISON, FS_LP, FS_MAXLP, FS_SHIELD, FS_INCOMING, FS_ATT_MUL, FS_COINS, FS_LC_COST,
 FS_LC_OK) = range(11)
FS_SIZE = 11

# path cards and events
KAMPF, ELITE, RAST, GEHEIMNIS = 0, 1, 2, 3
CARD_NAMES = ("kampf", "elite", "rastplatz", "geheimnis")

# progression items and the offer rating (attack-equivalents per turn). The upgrade weights were fitted to
# the measured value of each upgrade (win-rate lift when a run starts with it, same seeds: the balance
# report's upgrade-value chart, ``sim.games.dungeon.upgrade_lift``) so that the rating ranks upgrades as they
# pay off with the default config: Spearman rank agreement 0.89 (20,000 paired runs, Leicht), against 0.67
# with the first guesses, where shield was rated far below its worth and Wetzstein and Glücksklee above it.
# Remaining mismatch: Lebenselixier (rated last, 8th by lift; the lifts of ranks 8-11 lie within 0.03).
# Measured again on the reshaped roster (normal base LP 18-30, bosses as the peaks): 0.88, not refit; the
# largest mismatches there are Glücksklee (rated 8th, 11th by lift) and Lebenselixier (12th, 9th).
ITEM_UPGRADE, ITEM_JOKER, ITEM_DICE = 0, 1, 2
RT_ATT_COMBOS = 1.15  # attack combos per turn (Wetzstein, Opferaltar count per combo)
RT_SHIELD = 1.25  # one point of shield per shield combo
RT_HEAL = 0.95  # one point of heal per heal combo (and the heal of max LP, by the missing share)
RT_POISON = 1.6  # per point of poison per attack combo
RT_PASCH = 6.0  # per × step of Pasch attack
RT_E_ATT = 22.0  # expected attack of a turn (crit, Berserker)
RT_CRIT = 0.8  # share of the crit's expected extra attack that counts
RT_BERSERK = 1.6  # Berserker: the boost × its LP threshold share × the turn's attack, times this
RT_ADJUST = 2.9
RT_KEEP = 0.11  # per point of shield kept
RT_LUCKY = 5.0
RT_DICE = 11.0
RT_MAXLP = 0.15  # per max LP, + the heal weighted by the missing share
RT_JOKER = (5.0, 4.0, 0.45)  # set a die, extra reroll, heal (per LP)
RT_DICE_BONUS = 1.5  # per extra reroll per turn and fight
RT_PER_COIN = 0.035
RESERVE = 20.0
JK_HEAL_SHARE = 0.3
JK_SET_GAIN = 10.0
HERO_GAIN = 18.0

# Vorschlag rating weights
W_KILL = 1000.0
W_LP0 = 0.8
W_LP1 = 1.2
ADJ_GAIN = 4.0

# hold tables: [profile, HOLD_*, multiset] -> kept multiset
HOLD_VORSCHLAG, HOLD_GREEDY1, HOLD_GREEDY2 = 0, 1, 2
N_HOLD = 3
MAX_LEVELS = 4  # expectation levels kept per turn (rerolls + last chance)


# --- the Vorschlag rating and assignment search ------------------------------------------------


@njit(cache=True, error_model="numpy", inline="always")
def rate(fs, dmg, sh, he):
    """Vorschlag rating of a turn that deals ``dmg``, adds ``sh`` shield and heals ``he``."""
    ehp = fs[FS_EHP]
    eblock = fs[FS_EBLOCK]
    lp = fs[FS_LP]
    maxlp = fs[FS_MAXLP]
    lp1 = smin(maxlp, lp + he)
    hpd = smax(0.0, dmg - eblock)
    w = W_LP0 + W_LP1 * (1.0 - lp / maxlp)
    if dmg >= ehp + eblock or ehp - hpd - fs[FS_EPOISON] <= 0:
        return W_KILL + w * (lp1 - lp)
    loss = smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD] - sh)
    lp2 = lp1 - loss
    if lp2 <= 0:
        return -W_KILL + lp2
    return hpd + w * (lp2 - lp)


@njit(cache=True, error_model="numpy", inline="always")
def _expand(ids, n, split, lst):
    """The combo list with the Full House at position ``split`` split into Drilling + Pasch."""
    m = 0
    for j in range(n):
        c = ids[j]
        if j == split:
            lst[m] = R.C_SPLIT[c, 0]
            lst[m + 1] = R.C_SPLIT[c, 1]
            m += 2
        else:
            lst[m] = c
            m += 1
    return m


@njit(cache=True, error_model="numpy", inline="always")
def best_assignment(fs, ids, n, cv, out_ids, out_roles, mode, work):
    """Best roles for the shown combos (optionally one Full House split); returns (m, value).

    ``mode`` 0: the Vorschlag rating; 1: greedy's survival rule (survive first, then most damage).
    ``work``: int64 scratch of 8.
    """
    if n == 0:
        return 0, (rate(fs, 0.0, 0.0, 0.0) if mode == 0 else 0.0)
    lst = work[:4]
    roles = work[4:8]
    best = -1e18
    bm = 0
    mul = fs[FS_ATT_MUL]
    for split in range(-1, n):
        if split >= 0 and R.C_KIND[ids[split]] != R.FULL_HOUSE:
            continue
        m = _expand(ids, n, split, lst)
        total = 1
        for _ in range(m):
            total *= 3
        for code in range(total):
            x = code
            dmg = 0.0
            sh = 0.0
            he = 0.0
            for j in range(m):
                r = x % 3 + 1
                x //= 3
                roles[j] = r
                c = lst[j]
                if r == R.ATTACK:
                    dmg += R.player_attack(cv[c, 0], mul, 1.0, 1.0)
                elif r == R.SHIELD:
                    sh += cv[c, 1]
                else:
                    he += cv[c, 2]
            if mode == 0:
                v = rate(fs, dmg, sh, he)
            else:
                loss = smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD] - sh)
                alive = smin(fs[FS_MAXLP], fs[FS_LP] + he) - loss > 0 or dmg >= fs[FS_EHP] + fs[FS_EBLOCK]
                v = dmg + (1e6 if alive else 0.0)
            if v > best:
                best = v
                bm = m
                for j in range(m):
                    out_ids[j] = lst[j]
                    out_roles[j] = roles[j]
    return bm, best


@njit(cache=True, error_model="numpy", inline="always")
def leaf_value(fs, k, part, cv, work):
    """Vorschlag rating of the best assignment of multiset ``k``'s shown combos (``work``: int64[16])."""
    if part[k, 0] == 0:
        return rate(fs, 0.0, 0.0, 0.0)
    return best_assignment(fs, part[k, 1:], part[k, 0], cv, work[8:12], work[12:16], 0, work)[1]


# --- holds ------------------------------------------------------------------------------------


@njit(cache=True, error_model="numpy", inline="always")
def _keep_static(tab, roll, cursed, tm):
    """Table keep of ``roll`` widened to hold every cursed die."""
    counts = tm[0]
    k = tab[roll]
    code = 0
    p = 1
    for f in range(6):
        code += smax(counts[k, f], counts[cursed, f]) * p
        p *= 7
    return tm[4][code]


@njit(cache=True, error_model="numpy")
def _keep_random(roll, cursed, tm, st):
    counts = tm[0]
    code = 0
    p = 1
    for f in range(6):
        c = counts[cursed, f]
        for _ in range(counts[roll, f] - counts[cursed, f]):
            if below(st, 2) == 1:
                c += 1
        code += c * p
        p *= 7
    return tm[4][code]


@njit(cache=True, error_model="numpy")
def best_subset(E, free, tm, work):
    """Sub-multiset ``K`` of ``free`` with the highest ``E[K]`` (ties: the larger keep); ``work``: int64[16]."""
    counts = tm[0]
    ioc = tm[4]
    lim = work[:6]
    cur = work[6:12]
    for f in range(6):
        lim[f] = counts[free, f]
        cur[f] = lim[f]
    best = -1e18
    bk = free
    bs = -1
    while True:
        code = 0
        p = 1
        s = 0
        for f in range(6):
            code += cur[f] * p
            s += cur[f]
            p *= 7
        k = ioc[code]
        v = E[k]
        if v > best or (v == best and s > bs):
            best = v
            bk = k
            bs = s
        f = 0
        while f < 6 and cur[f] == 0:
            cur[f] = lim[f]
            f += 1
        if f == 6:
            break
        cur[f] -= 1
    return bk


@njit(cache=True, error_model="numpy")
def expectation_table(fs, cursed, m, levels, part, pclass, cv, tm, etab, scratch, memo, work):
    """``etab[l, K]`` (l = 1..levels): expected leaf value keeping free dice ``K`` with ``l`` rolls left.

    The free dice are ``m`` dice beside the fixed ``cursed`` multiset; ``etab[0, F]`` is the leaf
    value of full free roll ``F``. Exact over all multisets of rerolled dice (``sim.dice``). Leaf
    values are memoised per class of equal shown partitions (``pclass``; ``memo``: float[N_MS]).
    """
    counts, child, parent, size_start, ioc = tm
    ss = size_start[: m + 2]
    memo[:] = np.nan
    base = 0
    p = 1
    for f in range(6):
        base += counts[cursed, f] * p
        p *= 7
    for F in range(size_start[m], size_start[m + 1]):
        code = base
        p = 1
        for f in range(6):
            code += counts[F, f] * p
            p *= 7
        k = ioc[code]
        cl = pclass[k]
        v = memo[cl]
        if np.isnan(v):
            v = leaf_value(fs, k, part, cv, work)
            memo[cl] = v
        etab[0, F] = v
        scratch[F] = v
    for lv in range(1, levels + 1):
        expect_over_rerolls(scratch, child, ss, etab[lv])
        if lv < levels:
            best_subkeep_value(etab[lv], parent, ss, scratch)


@njit(cache=True, error_model="numpy", inline="always")
def decide_keep(pid, roll, cursed, rolls_left, hold, etab, tm, st, work):
    """Multiset to keep from ``roll`` (⊇ ``cursed``) with ``rolls_left`` rolls to come."""
    if pid == VORSCHLAG:
        return _keep_static(hold[HOLD_VORSCHLAG], roll, cursed, tm)
    if pid == GREEDY:
        return _keep_static(hold[HOLD_GREEDY1 if rolls_left <= 1 else HOLD_GREEDY2], roll, cursed, tm)
    if pid == EXPECTIMAX:
        counts = tm[0]
        ioc = tm[4]
        code = 0
        cc = 0
        p = 1
        for f in range(6):
            code += (counts[roll, f] - counts[cursed, f]) * p
            cc += counts[cursed, f] * p
            p *= 7
        free = ioc[code]
        lv = smin(rolls_left, etab.shape[0] - 1)
        k = best_subset(etab[lv], free, tm, work)
        kc = 0
        p = 1
        for f in range(6):
            kc += counts[k, f] * p
            p *= 7
        return ioc[kc + cc]
    return _keep_random(roll, cursed, tm, st)


# --- assignment, adjust, last chance ----------------------------------------------------------


@njit(cache=True, error_model="numpy", inline="always")
def decide_assign(pid, fs, ids, n, cv, out_ids, out_roles, st, work):
    """Combos and their roles for this turn; returns how many (after a Full House split)."""
    if pid == VORSCHLAG or pid == EXPECTIMAX:
        return best_assignment(fs, ids, n, cv, out_ids, out_roles, 0, work)[0]
    if pid == GREEDY:
        dmg = 0.0
        for j in range(n):
            dmg += R.player_attack(cv[ids[j], 0], fs[FS_ATT_MUL], 1.0, 1.0)
        lethal = dmg >= fs[FS_EHP] + fs[FS_EBLOCK]
        dies = fs[FS_LP] - smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD]) <= 0
        if dies and not lethal:
            return best_assignment(fs, ids, n, cv, out_ids, out_roles, 1, work)[0]
        for j in range(n):
            out_ids[j] = ids[j]
            out_roles[j] = R.ATTACK
        return n
    for j in range(n):
        out_ids[j] = ids[j]
        out_roles[j] = 1 + below(st, 3)
    return n


@njit(cache=True, error_model="numpy", inline="always")
def _attack_of(k, part, cv):
    a = 0.0
    for j in range(part[k, 0]):
        a += cv[part[k, 1 + j], 0]
    return a


@njit(cache=True, error_model="numpy", inline="always")
def decide_adjust(pid, fs, dice, nd, cursed_mask, step, part, pclass, cv, tm, work):
    """(die index, new face) of a ±``step`` adjust worth doing now, or (-1, 0)."""
    if pid == RANDOM:
        return -1, 0
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


@njit(cache=True, error_model="numpy", inline="always")
def decide_last_chance(pid, fs, roll, cursed, part, cv, etab, tm, work):
    """Buy one more roll now (rerolls used up, coins and the once-per-fight chance available)?"""
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


# --- path and events --------------------------------------------------------------------------


@njit(cache=True, error_model="numpy", inline="always")
def decide_path(pid, cards, lp, maxlp, st):
    """Index into ``cards`` (kinds ``KAMPF``, ``ELITE``, ``RAST``, ``GEHEIMNIS``) of the chosen path."""
    third = cards[2]
    share = lp / maxlp
    if pid == VORSCHLAG or pid == EXPECTIMAX:
        if third == RAST and share <= 0.6:
            return 2
        if share >= 0.8:
            return 1
        if third == GEHEIMNIS:
            return 2
        return 0
    if pid == GREEDY:
        if share >= 0.5:
            return 1
        if third == RAST:
            return 2
        return 0
    return below(st, 3)


@njit(cache=True, error_model="numpy", inline="always")
def decide_event(pid, event, lp, maxlp, altar_lp, st, jokers, nj, jk):
    """Accept the Geheimnis event (0 Opferaltar, 1 Joker-Händler, 2 Verfluchte Truhe)?

    ``jokers[:nj]``: held joker ids, the last one is the one the Joker-Händler takes; ``jk`` joker rows."""
    if event == 0 and lp <= altar_lp:
        return False
    if event == 1 and nj == 0:
        return False
    if pid == RANDOM:
        return uniform(st) < 0.5
    if pid == GREEDY:
        return event == 2
    if event == 0:
        return lp - altar_lp >= 0.7 * maxlp
    if event == 1:
        return not (jk[jokers[nj - 1], 0] == 2 and lp < 0.6 * maxlp)
    return True


# --- progression: offers, market, jokers, hero ability -------------------------------------------


@njit(cache=True, error_model="numpy", inline="always")
def offer_value(pid, kind, up_eff, u, jk, j, db_rerolls, lp, maxlp, g_att, g_dice, e_att, crit_mul):
    """What one offer is worth to policy ``pid`` (see the module doc): upgrade ``u`` (a row of ``up_eff``), joker
    ``j`` (a row of ``jk``: kind, amount, weight) or the dice bonus. Rows are read in place: a row view would
    cost an atomic reference count."""
    missing = 1.0 - lp / maxlp
    if pid == GREEDY:
        if kind == ITEM_UPGRADE:
            v = g_att + e_att * up_eff[u, R.EFF_CRIT] * (crit_mul - 1.0) + up_eff[u, R.EFF_POISON]
            if lp <= up_eff[u, R.EFF_BERSERK_LP] * maxlp:
                v += e_att * (up_eff[u, R.EFF_BERSERK_MUL] - 1.0)
            if up_eff[u, R.EFF_EXTRA_DICE] > 0:
                v += g_dice
            return v
        if kind == ITEM_DICE:
            return g_att
        return 0.0
    if kind == ITEM_JOKER:
        jkind = trunc(jk[j, 0])
        if jkind == 2:
            return RT_JOKER[2] * jk[j, 1] * (0.5 + missing)
        return RT_JOKER[jkind]
    if kind == ITEM_DICE:
        return g_att if pid == EXPECTIMAX else RT_DICE_BONUS * db_rerolls
    if pid == EXPECTIMAX:
        v = g_att
        if up_eff[u, R.EFF_EXTRA_DICE] > 0:
            v += g_dice
        e_turn = e_att
    else:
        v = (up_eff[u, R.EFF_ATTACK_FLAT] * RT_ATT_COMBOS + (up_eff[u, R.EFF_PASCH_MUL] - 1.0) * RT_PASCH
             + up_eff[u, R.EFF_LUCKY] * RT_LUCKY + up_eff[u, R.EFF_EXTRA_DICE] * RT_DICE)
        e_turn = RT_E_ATT
    v += up_eff[u, R.EFF_SHIELD_FLAT] * RT_SHIELD + up_eff[u, R.EFF_HEAL_FLAT] * RT_HEAL
    v += up_eff[u, R.EFF_CRIT] * (crit_mul - 1.0) * e_turn * RT_CRIT
    v += (up_eff[u, R.EFF_ADJUSTS] * RT_ADJUST + up_eff[u, R.EFF_SHIELD_KEEP] * RT_KEEP
          + up_eff[u, R.EFF_POISON] * RT_POISON)
    v += (up_eff[u, R.EFF_BERSERK_MUL] - 1.0) * up_eff[u, R.EFF_BERSERK_LP] * e_turn * RT_BERSERK
    v += up_eff[u, R.EFF_MAX_LP] * (RT_MAXLP + RT_HEAL * missing)
    return v


@njit(cache=True, error_model="numpy", inline="always")
def decide_reward(pid, vals, ok, n, st):
    """Slot of the reward taken among ``n`` offers (``ok[i]``: can be taken); -1 when none can."""
    if pid == RANDOM:
        m = 0
        for i in range(n):
            m += ok[i]
        if m == 0:
            return -1
        j = below(st, m)
        for i in range(n):
            if ok[i]:
                if j == 0:
                    return i
                j -= 1
        return -1
    best = -1e18
    bi = -1
    for i in range(n):
        if ok[i] and vals[i] > best:
            best = vals[i]
            bi = i
    return bi


@njit(cache=True, error_model="numpy", inline="always")
def decide_buy(pid, vals, prices, ok, n, coins, st):
    """Market: index of the next item to buy (``ok[i]``: still in stock and allowed), or -1 to leave."""
    if pid == RANDOM:
        for i in range(n):
            if ok[i] and prices[i] <= coins and uniform(st) < 0.5:
                return i
        return -1
    best = -1e18
    bi = -1
    for i in range(n):
        if not ok[i] or prices[i] > coins:
            continue
        r = vals[i] / smax(prices[i], 1.0)
        if pid == GREEDY:
            if vals[i] <= 0.0:
                continue
        elif r < RT_PER_COIN or coins - prices[i] < RESERVE:
            continue
        if r > best:
            best = r
            bi = i
    return bi


@njit(cache=True, error_model="numpy", inline="always")
def decide_joker_heal(pid, fs, amount, st):
    """Drink a heal joker now (before the assignment)?"""
    lp = fs[FS_LP]
    maxlp = fs[FS_MAXLP]
    if lp >= maxlp:
        return False
    dies = lp - smax(0.0, fs[FS_INCOMING] - fs[FS_SHIELD]) <= 0
    if pid == RANDOM:
        return uniform(st) < 0.5
    if pid == GREEDY:
        return dies
    return dies or (lp <= JK_HEAL_SHARE * maxlp and maxlp - lp >= 0.5 * amount)


@njit(cache=True, error_model="numpy", inline="always")
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


@njit(cache=True, error_model="numpy", inline="always")
def decide_set_die(pid, fs, dice, nd, cursed_mask, part, cv, tm, st, work):
    """(die index, face) for a set-a-die joker worth using now, or (-1, 0)."""
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
        if lethal or gain >= JK_SET_GAIN * 1.5 or (best >= W_KILL / 2 and v0 < W_KILL / 2):
            return bi, bf
        return -1, 0
    if lethal or gain >= JK_SET_GAIN:
        return bi, bf
    return -1, 0


@njit(cache=True, error_model="numpy", inline="always")
def decide_hero(pid, fs, ids, roles, m, cv, factor, turn, st):
    """Index into the assigned combos whose value the hero ability multiplies by ``factor``, or -1."""
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
    if (best >= W_KILL / 2 and v0 < W_KILL / 2) or (v0 <= -W_KILL / 2 < best) or best - v0 >= HERO_GAIN:
        return bj
    return -1


# --- static hold tables -----------------------------------------------------------------------


@njit(cache=True, error_model="numpy")
def _vorschlag_holds(part, counts, ioc, out):
    for k in range(part.shape[0]):
        kc = np.zeros(6, np.int64)
        for j in range(part[k, 0]):
            c = part[k, 1 + j]
            for f in range(6):
                kc[f] += R.C_COUNTS_T[c, f]
        if part[k, 0] == 0:
            bs = -1
            bl = 0
            s = 0
            ln = 0
            for f in range(6):
                if counts[k, f] > 0:
                    if ln == 0:
                        s = f
                    ln += 1
                    if ln > bl:
                        bl = ln
                        bs = s
                else:
                    ln = 0
            if bl >= 3:
                for f in range(bs, bs + bl):
                    kc[f] = 1
        code = 0
        p = 1
        for f in range(6):
            code += kc[f] * p
            p *= 7
        out[k] = ioc[code]


@njit(cache=True, error_model="numpy")
def build_holds(part, cv, counts, child, parent, size_start, ioc, out, eatt):
    """Hold tables ``out[HOLD_*, multiset]`` of one profile, and ``eatt[m, r]``: expected shown attack of a
    turn of ``m`` dice with 3 (``r`` 0) or 4 (``r`` 1) rolls under greedy's holds."""
    _vorschlag_holds(part, counts, ioc, out[HOLD_VORSCHLAG])
    n = part.shape[0]
    att = np.zeros(n)
    for k in range(n):
        for j in range(part[k, 0]):
            att[k] += cv[part[k, 1 + j], 0]
    best = np.zeros(n)
    arg = np.zeros(n, np.int64)
    e = np.zeros(n)
    val = np.zeros(n)
    eatt[0, 0] = 0.0
    eatt[0, 1] = 0.0
    for m in range(1, R.MAX_DICE + 1):
        ss = size_start[: m + 2]
        lo = size_start[m]
        hi = size_start[m + 1]
        val[:] = att
        for row in (HOLD_GREEDY1, HOLD_GREEDY2):
            expect_over_rerolls(val, child, ss, e)
            best_subkeep(e, parent, ss, best, arg)
            out[row, lo:hi] = arg[lo:hi]
            val[lo:hi] = best[lo:hi]
        expect_over_rerolls(val, child, ss, e)
        eatt[m, 0] = e[0]
        best_subkeep_value(e, parent, ss, best)
        val[lo:hi] = best[lo:hi]
        expect_over_rerolls(val, child, ss, e)
        eatt[m, 1] = e[0]


def build_hold_tables(part: np.ndarray, cvals: np.ndarray) -> np.ndarray:
    """Static hold tables ``[profile, HOLD_*, multiset]`` for Vorschlag and greedy.

    Greedy's rows hold, for every roll of ``m`` dice, the keep that maximises the expected total
    attack of the shown partition after 1 (``HOLD_GREEDY1``) or 2 (``HOLD_GREEDY2``) more rolls.
    """
    counts, child, parent, size_start, ioc = tm_tuple()
    n_prof = part.shape[0]
    out = np.zeros((n_prof, N_HOLD, R.N_MS), np.int64)
    best = np.zeros(R.N_MS)
    arg = np.zeros(R.N_MS, np.int64)
    e = np.zeros(R.N_MS)
    for p in range(n_prof):
        _vorschlag_holds(part[p], counts, ioc, out[p, HOLD_VORSCHLAG])
        ids = part[p, :, 1:]
        att = np.where(ids >= 0, cvals[p, np.maximum(ids, 0), 0], 0.0).sum(axis=1)
        for m in range(1, R.MAX_DICE + 1):
            ss = size_start[: m + 2]
            lo, hi = size_start[m], size_start[m + 1]
            val = att.copy()
            for row in (HOLD_GREEDY1, HOLD_GREEDY2):
                expect_over_rerolls(val, child, ss, e)
                best_subkeep(e, parent, ss, best, arg)
                out[p, row, lo:hi] = arg[lo:hi]
                val[lo:hi] = best[lo:hi]
    return out


def tm_tuple():
    """The multiset tables the decision functions read."""
    T = R.TM
    return (T.counts, T.child, T.parent, T.size_start, T.index_of_code)
