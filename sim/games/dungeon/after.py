"""After a won Würfel Dungeon room: the win's coins and the room's challenge, the reward (pick 1 of the offers),
the Tagesmarkt after the market rooms.

The reward offers after room ``r`` come from the stream (6, r), the market's stock and joker packs from (7, r).
Greedy and expectimax rate an upgrade by the exact gain in expected turn attack of the profile it leads to (the
profile tables of that key, looked up in this thread's cache row); Vorschlag by its rating (``policies``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.dungeon.bots import decide_buy, decide_reward, needs_attack_gain, offer_value
from policies.dungeon.skill import full_skill, who
from sim.core.rng import stream_key, uniform
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.draws import draw_eligible, draw_joker, eligible_upgrades
from sim.games.dungeon.eventlog import LG_BUY, LG_END, LG_REWARD, LG_STOCK, log_event
from sim.games.dungeon.rollctl import K_BUY, K_REWARD, STOP, rl_decide, salt_now
from sim.games.dungeon.room import salted
from sim.games.dungeon.rows import EFF
from sim.games.dungeon.table import (
    N_UC,
    O_CHALLENGES,
    O_DICE_BONUS,
    O_EARNED,
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
from sim.games.dungeon.words import ITEM_DICE, ITEM_JOKER, ITEM_UPGRADE, RAST
from sim.jit.scalar import smax, smin, trunc
from sim.jit.tier import INLINE


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def room_won(room, fz, rs, out, log):
    """The coins of a won room: the win (boss, rest, elite), the room's challenge when met (no heal, combo kinds,
    turns), the stolen coins back where the rules return them."""
    rp = fz.rp[0]
    if rs.boss:
        reward = rp.path_boss_rest_win_coins if rs.card == RAST else rp.coins_boss_win
    elif rs.card == RAST:
        reward = rp.path_rest_win_coins
    else:
        reward = rp.coins_win
    if rs.elite:
        reward += rp.path_elite_coins
    ch = fz.rooms[room - 1, C.RM_CHALLENGE]
    met = False
    if ch == 0:
        met = not rs.healed
    elif ch == 1:
        nk = 0
        for q in range(R.N_KIND):
            nk += (rs.kinds_used >> q) & 1
        met = nk >= rp.coins_challenge_combos
    else:
        met = rs.turn <= rp.coins_challenge_turns
    if met:
        reward += rp.coins_challenge
        out[O_CHALLENGES] += 1
    if rp.coins_steal_returned_on_win > 0:
        reward += rs.stolen
    rs.coins += reward
    out[O_EARNED] += reward
    if log.shape[0] > 0:
        rs.nl = log_event(log, rs.nl, LG_END, room, rs.turn, 1, trunc(reward), trunc(met), trunc(rs.coins),
                          trunc(rs.lp), trunc(rs.fight_coins), 0, 0, 0)


@njit(cache=True, error_model="numpy", inline=INLINE)
def expected_attack(pid, rs, cache, t):
    """Sets ``rs.e3, rs.e4, rs.e3p`` (now, with one more roll, with one more die): the expected turn attack of the
    loadout's profile, for the policies that rate offers by their attack gain (``needs_attack_gain``; 0 for the
    others)."""
    if not needs_attack_gain(pid):
        rs.e3 = 0.0
        rs.e4 = 0.0
        rs.e3p = 0.0
        return
    c_eatt = cache[4]
    rs.e3 = c_eatt[t, rs.slot, rs.nd_base, 0]
    rs.e4 = c_eatt[t, rs.slot, rs.nd_base, 1]
    rs.e3p = c_eatt[t, rs.slot, smin(R.MAX_DICE, rs.nd_base + 1), 0]


@njit(cache=True, error_model="numpy", inline=INLINE)
def upgrade_gain(item, fz, rs, cache, t, tm, mods):
    """For greedy and expectimax: the exact gain in expected turn attack of upgrade ``item`` over the loadout
    (``mods``, the Opferaltar bonus): the profile tables of the key it leads to, looked up in this thread's cache
    row (0 when the upgrade leaves the key as it is)."""
    up_eff = fz.up_eff
    ch, ga, gp, gl = _with_upgrade(mods[EFF.attack_flat] + rs.altar, mods[EFF.pasch_attack_mul],
                                   mods[EFF.glueckssieben], up_eff[item, EFF.attack_flat],
                                   up_eff[item, EFF.pasch_attack_mul], up_eff[item, EFF.glueckssieben])
    if not ch:
        return 0.0
    sl = probe(cache[0], t, ga, gp, gl)
    if sl < 0:
        sl = lookup(cache, t, ga, gp, gl, fz.base2, fz.coin_bonus, fz.rp[0].coins_action_base, fz.cstart, fz.cn,
                    fz.cand, tm)
    return cache[4][t, sl, rs.nd_base, 0] - rs.e3


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def take_reward(pl, room, fz, rs, sc, pf, wr, ctl):
    """The reward after room ``room``: ``rewards.offers`` offers (upgrades by rarity, from a slot on an item
    instead: a joker or the dice bonus), the policy picks one. Returns True when a rollout stops here."""
    pid, seed, run = pl
    cache, t, tm = pf
    out, log = wr
    forced, rc = ctl
    rp = fz.rp[0]  # the rule record, read by name (the policies read their weights from it too)
    n_jk = fz.jk.shape[0]
    n_up = trunc(rp.n_up)
    n_off = trunc(rp.rewards_offers)
    offers = sc.offers
    okv = sc.okv
    vals = sc.vals
    st_off = sc.st_off
    full = full_skill(pid, rp.skill_level_ppm)
    ro = rc.shape[0] > 0
    need_gain = needs_attack_gain(pid)
    st_off[0] = stream_key(seed, run, 6 + rs.sa, room)
    eligible_upgrades(fz.up_rarity, fz.up_unique, sc.owned, sc.elig)
    for q in range(n_off):
        item = -1
        if q + 1 >= rp.rewards_item_from_slot and uniform(st_off) < rp.rewards_item_chance:
            if uniform(st_off) < rp.joker_slot_share:
                item = n_up + draw_joker(st_off, fz.jk)
            else:
                item = n_up + n_jk
        else:
            item = draw_eligible(st_off, fz.up_rarity, fz.rarity_w, sc.elig, offers,
                                 q if rp.rewards_distinct > 0 else 0)
        offers[q] = item
    out[O_REWARDS] += 1
    for q in range(n_off):
        item = offers[q]
        g = upgrade_gain(item, fz, rs, cache, t, tm, sc.mods) if need_gain and 0 <= item < n_up else 0.0
        vals[q] = _item_value(pid, item, n_up, n_jk, fz.up_eff, fz.jk, rp, rs.lp, rs.maxlp, rs.e3, rs.e4, rs.e3p,
                              g)
        okv[q] = 1 if item >= 0 and not (n_up <= item < n_up + n_jk and rs.nj >= trunc(rp.rewards_max_jokers)) else 0
        if 0 <= item < n_up:
            ub = rs.b_up + N_UC * item
            out[ub + UC_OFFERED] += 1
            if out[ub + UC_FIRST] == 0:
                out[ub + UC_FIRST] = room
    dp = pid if full else who(pid, rp.skill_level_ppm, sc.st_sk)
    ci = -1
    if ro:
        msk = 0
        for q in range(n_off):
            if okv[q]:
                msk |= 1 << q
        ci = rl_decide(rc, forced, K_REWARD, n_off, msk)
        if ci == STOP:
            return True
    pick = decide_reward(dp, vals, okv, n_off, sc.st_pol) if ci < 0 else ci
    if ro and rs.sa == 0:
        rs.sa = salt_now(rc)
        if rs.sa != 0:
            salted(seed, run, rs.sa, room, sc)
    rs.seconds += rp.time_seconds_per_reward_choice
    got = offers[pick] if pick >= 0 else -1
    if got >= 0:
        if got < n_up:
            rs.dirty = True
            ub = rs.b_up + N_UC * got
            out[ub + UC_PICKED] += 1
            if out[ub + UC_FIRST] == room and out[ub + UC_PICKED] == 1:
                out[ub + UC_TOOK_FIRST] = 1
        take_item(got, n_up, n_jk, fz, rs, sc, out)
    if log.shape[0] > 0:
        rs.nl = log_event(log, rs.nl, LG_REWARD, room, 0, offers[0], offers[1] if n_off > 1 else -1,
                          offers[2] if n_off > 2 else -1, offers[3] if n_off > 3 else -1,
                          offers[4] if n_off > 4 else -1, got, trunc(rs.lp), trunc(rs.maxlp), trunc(rs.coins))
    return False


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def visit_market(pl, room, fz, rs, sc, pf, wr, ctl):
    """The Tagesmarkt after room ``room``: its stock (``market_stock``), bought one item at a time until the
    policy stops. Returns True when a rollout stops at this decision."""
    pid, seed, run = pl
    cache, t, tm = pf
    out, log = wr
    forced, rc = ctl
    rp = fz.rp[0]  # the rule record, read by name (the policies read their weights from it too)
    n_up = trunc(rp.n_up)
    n_jk = fz.jk.shape[0]
    pack_n = trunc(rp.market_joker_pack_size)
    okv = sc.okv
    prices = sc.prices
    full = full_skill(pid, rp.skill_level_ppm)
    ro = rc.shape[0] > 0
    need_gain = needs_attack_gain(pid)
    ns, jp = market_stock(seed, run, room, fz, rs, log, sc)
    spent = 0.0
    stale = True  # the item values need (re)computing: first visit, or a buy changed what they read
    regain = need_gain and rs.dirty  # greedy, expectimax: gains from the loadout as it is now
    while True:
        if regain:
            R.fold_mods(fz.up_eff, sc.owned, sc.mods)
            refresh_attack(fz, rs, cache, t, tm, sc.mods)
            regain = False
        if stale:
            market_values(pid, ns, jp, fz, rs, cache, t, tm, sc)
            stale = False
        dp = pid if full else who(pid, rp.skill_level_ppm, sc.st_sk)
        ci = -1
        if ro:
            msk = 1
            for q in range(ns):
                if okv[q] and prices[q] <= rs.coins:
                    msk |= 1 << (q + 1)
            ci = rl_decide(rc, forced, K_BUY, ns + 1, msk)
            if ci == STOP:
                return True
        if ci < 0:
            b = decide_buy(dp, sc.vals, prices, okv, ns, rs.coins, sc.st_pol, rp.policies_vorschlag_per_coin,
                           rp.policies_vorschlag_reserve)
        else:
            b = ci - 1
        if ro and rs.sa == 0:
            rs.sa = salt_now(rc)
            if rs.sa != 0:
                salted(seed, run, rs.sa, room, sc)
        if b < 0:
            break
        okv[b] = 0
        rs.coins -= prices[b]
        spent += prices[b]
        out[O_MK_BUYS] += 1
        lp_was = rs.lp
        maxlp_was = rs.maxlp
        nj_was = rs.nj
        for _ in range(pack_n if b == jp else 1):  # a joker pack: its jokers are drawn now
            got = n_up + draw_joker(sc.st_off, fz.jk) if b == jp else sc.offers[b]
            if got < n_up:
                rs.dirty = True
                stale = True
                regain = need_gain
                out[rs.b_up + N_UC * got + UC_BOUGHT] += 1
            take_item(got, n_up, n_jk, fz, rs, sc, out)
            if log.shape[0] > 0:
                rs.nl = log_event(log, rs.nl, LG_BUY, room, 0, got, trunc(prices[b]), trunc(rs.coins),
                                  1 if b == jp else 0, trunc(rs.lp), trunc(rs.maxlp), 0, 0, 0)
        if rs.lp != lp_was or rs.maxlp != maxlp_was or rs.nj != nj_was:
            stale = True
    out[rs.b_mk + rs.mk_index] = spent
    out[O_MK_SPENT] += spent
    rs.mk_index += 1
    return False


@njit(cache=True, error_model="numpy", inline="always")  # one call site
def market_stock(seed, run, room, fz, rs, log, sc):
    """The market's stock into ``sc.offers``/``sc.prices``, every item on sale: ``market.upgrades`` upgrades drawn
    by rarity (each once), a joker pack (its jokers drawn when bought), the dice pack. Returns (items, index of
    the joker pack or -1)."""
    rp = fz.rp[0]
    n_up = trunc(rp.n_up)
    offers = sc.offers
    prices = sc.prices
    sc.st_off[0] = stream_key(seed, run, 7 + rs.sa, room)
    eligible_upgrades(fz.up_rarity, fz.up_unique, sc.owned, sc.elig)
    ns = np.int64(0)  # not a literal 0: one compile of draw_eligible
    for _q in range(trunc(rp.market_upgrades)):
        item = draw_eligible(sc.st_off, fz.up_rarity, fz.rarity_w, sc.elig, offers, ns)
        if item >= 0:
            offers[ns] = item
            prices[ns] = fz.prices[fz.up_rarity[item]]
            ns += 1
    jp = -1
    if rp.joker_pack_price >= 0:
        jp = ns
        offers[ns] = n_up  # a joker pack: its jokers are drawn when bought
        sc.ikind[ns] = ITEM_JOKER
        prices[ns] = rp.joker_pack_price
        ns += 1
    offers[ns] = n_up + fz.jk.shape[0]
    prices[ns] = rp.market_dice_pack
    ns += 1
    for q in range(ns):
        sc.okv[q] = 1
        if log.shape[0] > 0:
            rs.nl = log_event(log, rs.nl, LG_STOCK, room, 0, -2 if q == jp else offers[q], trunc(prices[q]),
                              trunc(rs.coins), 0, 0, 0, 0, 0, 0)
    return ns, jp


@njit(cache=True, error_model="numpy", inline="always")  # one call site
def market_values(pid, ns, jp, fz, rs, cache, t, tm, sc):
    """The policy's value of each item still on sale (``sc.vals``); a joker pack is worth its jokers' mean value
    times the places it can fill, and leaves the sale when the joker stack is full."""
    rp = fz.rp[0]
    jk = fz.jk
    n_jk = jk.shape[0]
    n_up = trunc(rp.n_up)
    max_j = trunc(rp.rewards_max_jokers)
    need_gain = needs_attack_gain(pid)
    for q in range(ns):
        if not sc.okv[q]:
            continue
        if q == jp:
            v = 0.0
            w = 0.0
            for jj in range(n_jk):
                w += jk[jj, C.JK_WEIGHT]
                v += jk[jj, C.JK_WEIGHT] * _item_value(pid, n_up + jj, n_up, n_jk, fz.up_eff, jk, rp, rs.lp,
                                                        rs.maxlp, rs.e3, rs.e4, rs.e3p, 0.0)
            sc.vals[q] = v / w * smin(trunc(rp.market_joker_pack_size), max_j - rs.nj)
            if rs.nj >= max_j:
                sc.okv[q] = 0
        else:
            item = sc.offers[q]
            g = upgrade_gain(item, fz, rs, cache, t, tm, sc.mods) if need_gain and 0 <= item < n_up else 0.0
            sc.vals[q] = _item_value(pid, item, n_up, n_jk, fz.up_eff, jk, rp, rs.lp, rs.maxlp, rs.e3, rs.e4,
                                     rs.e3p, g)


@njit(cache=True, error_model="numpy", inline=INLINE)
def refresh_attack(fz, rs, cache, t, tm, mods):
    """After an upgrade bought at the market, for the policies that rate offers by attack gain: the loadout's
    profile tables (``mods`` folded again), its dice per roll and ``rs.e3, rs.e4, rs.e3p``."""
    rp = fz.rp[0]
    ga = mods[EFF.attack_flat] + rs.altar
    sl = probe(cache[0], t, ga, mods[EFF.pasch_attack_mul], mods[EFF.glueckssieben])
    if sl < 0:
        sl = lookup(cache, t, ga, mods[EFF.pasch_attack_mul], mods[EFF.glueckssieben], fz.base2, fz.coin_bonus,
                    rp.coins_action_base, fz.cstart, fz.cn, fz.cand, tm)
    rs.nd_base = smin(R.MAX_DICE, trunc(rp.start_dice + mods[EFF.extra_dice]))
    c_eatt = cache[4]
    rs.e3 = c_eatt[t, sl, rs.nd_base, 0]
    rs.e4 = c_eatt[t, sl, rs.nd_base, 1]
    rs.e3p = c_eatt[t, sl, smin(R.MAX_DICE, rs.nd_base + 1), 0]


@njit(cache=True, error_model="numpy", inline=INLINE)
def take_item(item, n_up, n_jk, fz, rs, sc, out):
    """``gain`` on the run's state: the item taken into ``rs`` (LP, max LP, jokers held, dice-bonus fights)."""
    lp, maxlp, nj, db_left = _take(item, n_up, n_jk, fz.up_eff, fz.rp[0], sc.owned, sc.jokers, rs.nj, rs.lp,
                                   rs.maxlp, rs.db_left, out)
    rs.lp = lp
    rs.maxlp = maxlp
    rs.nj = nj
    rs.db_left = db_left


@njit(cache=True, error_model="numpy", inline=INLINE)
def _with_upgrade(att, pmul, lucky, u_att, u_pmul, u_lucky):
    """(changed, key): the profile key (attack per combo, Pasch multiplier, Glückssieben) of the loadout
    ``(att, pmul, lucky)`` plus one upgrade; ``changed`` is False when the upgrade leaves the key as it is (its
    gain in expected turn attack is then 0). Greedy and expectimax rate an upgrade by the expected turn attack
    of that key's tables.

    Scalars only: an array argument of an inlined helper still costs two atomic reference counts per call."""
    a = att + u_att
    p = pmul + (u_pmul - 1.0)  # multipliers stack additively (``rules.fold_mods``)
    lk = smax(lucky, u_lucky)
    return not (a == att and p == pmul and lk == lucky), a, p, lk


@njit(cache=True, error_model="numpy", inline=INLINE)
def _item_value(pid, item, n_up, n_jk, up_eff, jk, rp, lp, maxlp, e3, e4, e3p, g):
    """The policy's value of one offer (``item``: upgrade id, ``n_up + joker id`` or ``n_up + n_jk`` the dice
    bonus); ``g``: for greedy and expectimax the exact gain in expected turn attack of an upgrade (the profile
    tables of ``_with_upgrade``'s key), else 0; ``rp``: the rule record (Vorschlag's weights among them). One call
    site of ``offer_value``: every call of an inlined helper is compiled again."""
    if item < 0:
        return -1e18
    kind = ITEM_DICE
    u = 0
    j = 0
    g_att = (e4 - e3) * rp.dice_bonus_rerolls
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
    return offer_value(pid, kind, up_eff, u, jk, j, rp.dice_bonus_rerolls, lp, maxlp, g_att, g_dice, e3,
                       rp.combat_crit_mul, rp)


@njit(cache=True, error_model="numpy")
def gain(item, n_up, n_jk, fz, owned, jokers, nj, lp, maxlp, db_left, out):
    """Take an item: an upgrade (Lebenselixier-like max LP also heals as much), a joker onto the stack (when
    a place is free), or the dice bonus. Returns (lp, maxlp, jokers held, dice-bonus fights left)."""
    return _take(item, n_up, n_jk, fz.up_eff, fz.rp[0], owned, jokers, nj, lp, maxlp, db_left, out)


@njit(cache=True, error_model="numpy", inline=INLINE)
def _take(item, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp, db_left, out):
    """``gain`` on what it reads of the frozen rules: the upgrades' effects and the rule record."""
    if item < n_up:
        owned[item] += 1
        out[O_UPGRADES] += 1
        add = up_eff[item, EFF.max_lp]
        if add > 0:
            maxlp += add
            lp = smin(maxlp, lp + add)
    elif item < n_up + n_jk:
        if nj < rp.rewards_max_jokers:
            jokers[nj] = item - n_up
            nj += 1
            out[O_JK_GAINED] += 1
    else:
        db_left += trunc(rp.dice_bonus_fights)
        out[O_DICE_BONUS] += 1
    return lp, maxlp, nj, db_left
