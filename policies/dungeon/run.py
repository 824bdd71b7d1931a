"""Run-level decisions: the path card, the Geheimnis event, the reward pick and the market.

These are the decision points of a run (between fights) where a later ``rollout`` policy would play
continuations; each ``decide_*`` here is the one dispatch point of its kind. ``offer_value`` rates one offer for
the reward and the market; Vorschlag's weights come from ``[policies.vorschlag]`` through the rule record ``rp``
(``config.RULES``, fields ``policies_vorschlag_*``).
"""

from __future__ import annotations

from numba import njit

from policies.dungeon.ids import EXPECTIMAX, GREEDY, RANDOM, VORSCHLAG
from sim.core.rng import below, uniform
from sim.games.dungeon.rows import EFF
from sim.games.dungeon.words import GEHEIMNIS, ITEM_DICE, ITEM_JOKER, ITEM_UPGRADE, RAST
from sim.jit.scalar import smax, trunc
from sim.jit.tier import INLINE


@njit(cache=True, error_model="numpy", inline=INLINE)
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


@njit(cache=True, error_model="numpy", inline=INLINE)
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


@njit(cache=True, error_model="numpy", inline=INLINE)
def offer_value(pid, kind, up_eff, u, jk, j, db_rerolls, lp, maxlp, g_att, g_dice, e_att, crit_mul, rp):
    """What one offer is worth to policy ``pid`` (see the module doc): upgrade ``u`` (a row of ``up_eff``), joker
    ``j`` (a row of ``jk``: kind, amount, weight) or the dice bonus. Rows are read in place: a row view would
    cost an atomic reference count. ``rp``: the rule record (``config.RULES``; Vorschlag's weights are its
    ``policies_vorschlag_*`` fields)."""
    missing = 1.0 - lp / maxlp
    if pid == GREEDY:
        if kind == ITEM_UPGRADE:
            v = g_att + e_att * up_eff[u, EFF.crit_chance] * (crit_mul - 1.0) + up_eff[u, EFF.poison]
            if lp <= up_eff[u, EFF.berserker_lp] * maxlp:
                v += e_att * (up_eff[u, EFF.berserker_mul] - 1.0)
            if up_eff[u, EFF.extra_dice] > 0:
                v += g_dice
            return v
        if kind == ITEM_DICE:
            return g_att
        return 0.0
    if kind == ITEM_JOKER:
        jkind = trunc(jk[j, 0])
        if jkind == 2:
            return rp.policies_vorschlag_joker_heal * jk[j, 1] * (0.5 + missing)
        return rp.policies_vorschlag_joker_set if jkind == 0 else rp.policies_vorschlag_joker_reroll
    if kind == ITEM_DICE:
        return g_att if pid == EXPECTIMAX else rp.policies_vorschlag_dice_bonus * db_rerolls
    if pid == EXPECTIMAX:
        v = g_att
        if up_eff[u, EFF.extra_dice] > 0:
            v += g_dice
        e_turn = e_att
    else:
        v = (up_eff[u, EFF.attack_flat] * rp.policies_vorschlag_att_combos
             + (up_eff[u, EFF.pasch_attack_mul] - 1.0) * rp.policies_vorschlag_pasch
             + up_eff[u, EFF.glueckssieben] * rp.policies_vorschlag_lucky
             + up_eff[u, EFF.extra_dice] * rp.policies_vorschlag_dice)
        e_turn = rp.policies_vorschlag_e_att
    v += (up_eff[u, EFF.shield_flat] * rp.policies_vorschlag_shield
          + up_eff[u, EFF.heal_flat] * rp.policies_vorschlag_heal)
    v += up_eff[u, EFF.crit_chance] * (crit_mul - 1.0) * e_turn * rp.policies_vorschlag_crit
    v += (up_eff[u, EFF.extra_adjusts] * rp.policies_vorschlag_adjust
          + up_eff[u, EFF.shield_keep] * rp.policies_vorschlag_keep
          + up_eff[u, EFF.poison] * rp.policies_vorschlag_poison)
    v += (up_eff[u, EFF.berserker_mul] - 1.0) * up_eff[u, EFF.berserker_lp] * e_turn * rp.policies_vorschlag_berserk
    v += up_eff[u, EFF.max_lp] * (rp.policies_vorschlag_maxlp + rp.policies_vorschlag_heal * missing)
    return v


@njit(cache=True, error_model="numpy", inline=INLINE)
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


@njit(cache=True, error_model="numpy", inline=INLINE)
def decide_buy(pid, vals, prices, ok, n, coins, st, per_coin, reserve):
    """Market: index of the next item to buy (``ok[i]``: still in stock and allowed), or -1 to leave; Vorschlag
    and expectimax buy at ``per_coin`` rating per coin or more while ``reserve`` coins stay."""
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
        elif r < per_coin or coins - prices[i] < reserve:
            continue
        if r > best:
            best = r
            bi = i
    return bi
