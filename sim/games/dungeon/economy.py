"""After a won room: the reward (pick 1 of ``rewards.offers``; none after the last room) and the Tagesmarkt
after the market rooms, and taking an item into the run (upgrade, joker, dice bonus).

Offers after room ``r`` come from stream (6, r), the market's stock and joker packs from (7, r). The policy rates
each offer (``offer_value``) and picks (``decide_reward``, ``decide_buy``): those are the run-level decision
points of the economy. Greedy and expectimax rate an upgrade by its exact gain in expected turn attack, read
from the profile tables of the loadout with that upgrade (``tables.lookup``).
"""

from __future__ import annotations

from numba import njit

from policies.dungeon import decide_buy, decide_reward, offer_value
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.draws import draw_eligible, draw_joker, eligible_upgrades
from sim.games.dungeon.eventlog import LG_BUY, LG_REWARD, LG_STOCK, log_event
from sim.games.dungeon.table import (
    N_UC,
    O_DICE_BONUS,
    O_JK_GAINED,
    O_MK_BUYS,
    O_MK_SPENT,
    O_REWARDS,
    O_UPGRADES,
    UC_BOUGHT,
    UC_FIRST,
    UC_OFFERED,
    UC_PICKED,
    UC_TOOK_FIRST,
)
from sim.games.dungeon.tables import lookup, probe
from sim.games.dungeon.words import ITEM_DICE, ITEM_JOKER, ITEM_UPGRADE
from sim.rng import stream_key, uniform
from sim.scalar import smax, smin, trunc

INLINE = {"cache": True, "error_model": "numpy", "inline": "always"}


@njit(**INLINE)
def with_upgrade(att, pmul, lucky, u_att, u_pmul, u_lucky):
    """(changed, key): the profile key (attack per combo, Pasch multiplier, Glückssieben) of the loadout
    ``(att, pmul, lucky)`` plus one upgrade; ``changed`` is False when the upgrade leaves the key as it is (its
    gain in expected turn attack is then 0). Greedy and expectimax rate an upgrade by the expected turn attack
    of that key's tables.

    Scalars only: an array argument of an inlined helper still costs two atomic reference counts per call."""
    a = att + u_att
    p = pmul * u_pmul
    lk = smax(lucky, u_lucky)
    return not (a == att and p == pmul and lk == lucky), a, p, lk


@njit(**INLINE)
def item_value(pid, item, n_up, n_jk, up_eff, jk, rp, lp, maxlp, e3, e4, e3p, g):
    """The policy's value of one offer (``item``: upgrade id, ``n_up + joker id`` or ``n_up + n_jk`` the dice
    bonus); ``g``: for greedy and expectimax the exact gain in expected turn attack of an upgrade (the profile
    tables of ``with_upgrade``'s key), else 0. ``rp``: the rule record (Vorschlag's weights)."""
    if item < 0:
        return -1e18
    kind = ITEM_DICE  # one call site of the rating: each call of an inlined helper is compiled again
    u = 0
    j = 0
    g_att = (e4 - e3) * rp.db_rerolls
    g_dice = 0.0
    if item < n_up:
        kind = ITEM_UPGRADE
        u = item
        g_att = g
        g_dice = e3p - e3
    elif item < n_up + n_jk:
        kind = ITEM_JOKER
        j = item - n_up
        g_att = 0.0
    return offer_value(pid, kind, up_eff, u, jk, j, rp.db_rerolls, lp, maxlp, g_att, g_dice, e3, rp.crit_mul, rp)


@njit(**INLINE)
def take_item(item, n_up, n_jk, up_eff, rp, owned, s, out):
    """Take an item into the run ``s``: an upgrade (Lebenselixier-like max LP also heals as much), a joker onto
    the stack (when a place is free), or the dice bonus."""
    if item < n_up:
        owned[item] += 1
        out[O_UPGRADES] += 1
        add = up_eff[item, R.EFF_MAX_LP]
        if add > 0:
            s.maxlp += add
            s.lp = smin(s.maxlp, s.lp + add)
    elif item < n_up + n_jk:
        if s.nj < rp.max_jokers:
            s.jokers[s.nj] = item - n_up
            s.nj += 1
            out[O_JK_GAINED] += 1
    else:
        s.db_left += trunc(rp.db_fights)
        out[O_DICE_BONUS] += 1


@njit(**INLINE)
def upgrade_gain(cache, t, mods, altar, up_eff, item, nd_base, e3, base2, coin_bonus, action_base, cstart, cn, cand,
                 tm):
    """Greedy's and expectimax's exact gain of upgrade ``item``: expected turn attack of the loadout's profile
    with it minus without (0 when it leaves the profile key as it is)."""
    ch, ga, gp, gl = with_upgrade(mods[R.EFF_ATTACK_FLAT] + altar, mods[R.EFF_PASCH_MUL], mods[R.EFF_LUCKY],
                                  up_eff[item, R.EFF_ATTACK_FLAT], up_eff[item, R.EFF_PASCH_MUL],
                                  up_eff[item, R.EFF_LUCKY])
    if not ch:
        return 0.0
    sl = probe(cache[0], t, ga, gp, gl)
    if sl < 0:
        sl = lookup(cache, t, ga, gp, gl, base2, coin_bonus, action_base, cstart, cn, cand, tm)
    return cache[4][t, sl, nd_base, 0] - e3


@njit(**INLINE)
def reward(pid, s, rp, fz, owned, elig, offers, okv, vals, mods, cache, t, tm, need_gain, e3, e4, e3p, out, log):
    """Draw the offers (upgrades by rarity, from slot ``item_from`` on a joker or the dice bonus with
    ``item_chance``), let the policy rate and pick one, take it."""
    up_eff = fz.up_eff
    jk = fz.jk
    n_up = trunc(rp.n_up)
    n_jk = jk.shape[0]
    n_off = trunc(rp.offers)
    room = s.room
    s.st_off[0] = stream_key(s.seed, s.run, 6, room)
    eligible_upgrades(fz.up_rarity, fz.up_unique, owned, elig)
    for q in range(n_off):
        item = -1
        if q + 1 >= rp.item_from and uniform(s.st_off) < rp.item_chance:
            if uniform(s.st_off) < rp.joker_share:
                item = n_up + draw_joker(s.st_off, jk)
            else:
                item = n_up + n_jk
        else:
            item = draw_eligible(s.st_off, fz.up_rarity, fz.rarity_w, elig, offers, q if rp.distinct > 0 else 0)
        offers[q] = item
    out[O_REWARDS] += 1
    for q in range(n_off):
        item = offers[q]
        g = 0.0
        if need_gain and 0 <= item < n_up:
            g = upgrade_gain(cache, t, mods, s.altar, up_eff, item, s.nd_base, e3, fz.base2, fz.coin_bonus,
                             rp.action_base, fz.cstart, fz.cn, fz.cand, tm)
        vals[q] = item_value(pid, item, n_up, n_jk, up_eff, jk, rp, s.lp, s.maxlp, e3, e4, e3p, g)
        okv[q] = 1 if item >= 0 and not (n_up <= item < n_up + n_jk and s.nj >= rp.max_jokers) else 0
        if 0 <= item < n_up:
            ub = s.b_up + N_UC * item
            out[ub + UC_OFFERED] += 1
            if out[ub + UC_FIRST] == 0:
                out[ub + UC_FIRST] = room
    pick = decide_reward(pid, vals, okv, n_off, s.st_pol)
    s.seconds += rp.t_reward
    got = offers[pick] if pick >= 0 else -1
    if got >= 0:
        if got < n_up:
            s.dirty = True
            ub = s.b_up + N_UC * got
            out[ub + UC_PICKED] += 1
            if out[ub + UC_FIRST] == room and out[ub + UC_PICKED] == 1:
                out[ub + UC_TOOK_FIRST] = 1
        take_item(got, n_up, n_jk, up_eff, rp, owned, s, out)
    if log.shape[0] > 0:
        s.nl = log_event(log, s.nl, LG_REWARD, room, 0, offers[0], offers[1] if n_off > 1 else -1,
                         offers[2] if n_off > 2 else -1, offers[3] if n_off > 3 else -1,
                         offers[4] if n_off > 4 else -1, got, trunc(s.lp), trunc(s.maxlp), trunc(s.coins))


@njit(**INLINE)
def market(pid, s, rp, fz, owned, elig, offers, okv, vals, prices, mods, cache, t, tm, need_gain, e3, e4, e3p,
           jk_wsum, out, log):
    """The Tagesmarkt: ``market.upgrades`` upgrades by rarity, a joker pack, the dice pack; the policy buys one
    item at a time (``decide_buy``) until it leaves. Item values are computed again only when a buy changed
    what they read."""
    up_eff = fz.up_eff
    up_rarity = fz.up_rarity
    jk = fz.jk
    n_up = trunc(rp.n_up)
    n_jk = jk.shape[0]
    max_j = trunc(rp.max_jokers)
    pack_n = trunc(rp.joker_pack_n)
    room = s.room
    s.st_off[0] = stream_key(s.seed, s.run, 7, room)
    eligible_upgrades(up_rarity, fz.up_unique, owned, elig)
    ns = 0
    for _q in range(trunc(rp.mk_upgrades)):
        item = draw_eligible(s.st_off, up_rarity, fz.rarity_w, elig, offers, ns)
        if item >= 0:
            offers[ns] = item
            prices[ns] = fz.prices[up_rarity[item]]
            ns += 1
    if rp.joker_pack >= 0:
        offers[ns] = n_up  # a joker pack: its jokers are drawn when bought
        prices[ns] = rp.joker_pack
        ns += 1
    offers[ns] = n_up + n_jk
    prices[ns] = rp.dice_pack
    ns += 1
    for q in range(ns):
        okv[q] = 1
        if log.shape[0] > 0:
            pk = -2 if (rp.joker_pack >= 0 and q == ns - 2) else offers[q]
            s.nl = log_event(log, s.nl, LG_STOCK, room, 0, pk, trunc(prices[q]), trunc(s.coins), 0, 0, 0, 0, 0, 0)
    jp = ns - 2 if rp.joker_pack >= 0 else -1
    spent = 0.0
    stale = True  # the item values need (re)computing: first visit, or a buy changed what they read
    regain = need_gain and s.dirty  # greedy, expectimax: gains from the loadout as it is now
    while True:
        if regain:
            R.fold_mods(up_eff, owned, mods)
            ga = mods[R.EFF_ATTACK_FLAT] + s.altar
            sl = probe(cache[0], t, ga, mods[R.EFF_PASCH_MUL], mods[R.EFF_LUCKY])
            if sl < 0:
                sl = lookup(cache, t, ga, mods[R.EFF_PASCH_MUL], mods[R.EFF_LUCKY], fz.base2, fz.coin_bonus,
                            rp.action_base, fz.cstart, fz.cn, fz.cand, tm)
            s.nd_base = smin(R.MAX_DICE, trunc(rp.dice + mods[R.EFF_EXTRA_DICE]))
            c_eatt = cache[4]
            e3 = c_eatt[t, sl, s.nd_base, 0]
            e4 = c_eatt[t, sl, s.nd_base, 1]
            e3p = c_eatt[t, sl, smin(R.MAX_DICE, s.nd_base + 1), 0]
            regain = False
        if stale:
            for q in range(ns):
                if not okv[q]:
                    continue
                if q == jp:
                    v = 0.0
                    for jj in range(n_jk):
                        v += jk[jj, C.JK_WEIGHT] * item_value(pid, n_up + jj, n_up, n_jk, up_eff, jk, rp, s.lp,
                                                              s.maxlp, e3, e4, e3p, 0.0)
                    vals[q] = v / jk_wsum * smin(pack_n, max_j - s.nj)
                    if s.nj >= max_j:
                        okv[q] = 0
                else:
                    item = offers[q]
                    g = 0.0
                    if need_gain and 0 <= item < n_up:
                        g = upgrade_gain(cache, t, mods, s.altar, up_eff, item, s.nd_base, e3, fz.base2,
                                         fz.coin_bonus, rp.action_base, fz.cstart, fz.cn, fz.cand, tm)
                    vals[q] = item_value(pid, item, n_up, n_jk, up_eff, jk, rp, s.lp, s.maxlp, e3, e4, e3p, g)
            stale = False
        b = decide_buy(pid, vals, prices, okv, ns, s.coins, s.st_pol, rp.vw_per_coin, rp.vw_reserve)
        if b < 0:
            break
        okv[b] = 0
        s.coins -= prices[b]
        spent += prices[b]
        out[O_MK_BUYS] += 1
        lp_was = s.lp
        maxlp_was = s.maxlp
        nj_was = s.nj
        if b == jp:
            for _ in range(pack_n):
                got = n_up + draw_joker(s.st_off, jk)
                take_item(got, n_up, n_jk, up_eff, rp, owned, s, out)
                if log.shape[0] > 0:
                    s.nl = log_event(log, s.nl, LG_BUY, room, 0, got, trunc(prices[b]), trunc(s.coins), 1, 0, 0, 0,
                                     0, 0)
        else:
            got = offers[b]
            if got < n_up:
                s.dirty = True
                stale = True
                regain = need_gain
                out[s.b_up + N_UC * got + UC_BOUGHT] += 1
            take_item(got, n_up, n_jk, up_eff, rp, owned, s, out)
            if log.shape[0] > 0:
                s.nl = log_event(log, s.nl, LG_BUY, room, 0, got, trunc(prices[b]), trunc(s.coins), 0, 0, 0, 0, 0, 0)
        if s.lp != lp_was or s.maxlp != maxlp_was or s.nj != nj_was:
            stale = True
    out[s.b_mk + s.mk_index] = spent
    out[O_MK_SPENT] += spent
    s.mk_index += 1
