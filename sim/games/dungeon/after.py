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
    rooms = fz.rooms
    rr = room - 1
    boss = rs.boss
    elite = rs.elite
    card = rs.card
    healed = rs.healed
    kinds_used = rs.kinds_used
    turn = rs.turn
    stolen = rs.stolen
    fight_coins = rs.fight_coins
    lp = rs.lp
    coins = rs.coins
    nl = rs.nl
    if boss:
        reward = rp.path_boss_rest_win_coins if card == RAST else rp.coins_boss_win
    elif card == RAST:
        reward = rp.path_rest_win_coins
    else:
        reward = rp.coins_win
    if elite:
        reward += rp.path_elite_coins
    ch = rooms[rr, C.RM_CHALLENGE]
    met = False
    if ch == 0:
        met = not healed
    elif ch == 1:
        nk = 0
        for q in range(R.N_KIND):
            nk += (kinds_used >> q) & 1
        met = nk >= rp.coins_challenge_combos
    else:
        met = turn <= rp.coins_challenge_turns
    if met:
        reward += rp.coins_challenge
        out[O_CHALLENGES] += 1
    if rp.coins_steal_returned_on_win > 0:
        reward += stolen
    coins += reward
    out[O_EARNED] += reward
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_END, room, turn, 1, trunc(reward), trunc(met), trunc(coins), trunc(lp),
                  trunc(fight_coins), 0, 0, 0)
    rs.coins = coins
    rs.nl = nl


@njit(cache=True, error_model="numpy", inline=INLINE)
def expected_attack(pid, rs, cache, t):
    """(now, with one more roll, with one more die): the expected turn attack of the loadout's profile, for the
    policies that rate offers by their attack gain (``needs_attack_gain``; 0 for the others)."""
    if not needs_attack_gain(pid):
        return 0.0, 0.0, 0.0
    c_eatt = cache[4]
    slot = rs.slot
    nd_base = rs.nd_base
    return c_eatt[t, slot, nd_base, 0], c_eatt[t, slot, nd_base, 1], c_eatt[t, slot, smin(R.MAX_DICE, nd_base + 1), 0]


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def take_reward(pid, seed, run, room, fz, rs, cache, t, tm, out, log, sc, forced, rc, e3, e4, e3p):
    """The reward after room ``room``: draw the offers (upgrades by rarity, from the ``item_from``-th offer on a
    joker or the dice bonus by chance), rate them, pick one. ``e3, e4, e3p``: ``expected_attack``. Returns True
    when a rollout stops at this decision."""
    rp = fz.rp[0]  # the rule record, read by name (the policies read their weights from it too)
    jk = fz.jk
    n_jk = jk.shape[0]
    up_eff = fz.up_eff
    up_rarity = fz.up_rarity
    up_unique = fz.up_unique
    rarity_w = fz.rarity_w
    base2 = fz.base2
    coin_bonus = fz.coin_bonus
    cstart = fz.cstart
    cn = fz.cn
    cand = fz.cand
    action_base = rp.coins_action_base
    n_up = trunc(rp.n_up)
    n_off = trunc(rp.rewards_offers)
    max_j = trunc(rp.rewards_max_jokers)
    owned = sc.owned
    elig = sc.elig
    mods = sc.mods
    c_keys = cache[0]
    c_eatt = cache[4]
    offers = sc.offers
    okv = sc.okv
    jokers = sc.jokers
    vals = sc.vals
    st_pol = sc.st_pol
    st_off = sc.st_off
    st_sk = sc.st_sk
    sk = rp.skill_level_ppm
    full = full_skill(pid, sk)
    ro = rc.shape[0] > 0
    need_gain = needs_attack_gain(pid)
    altar = rs.altar
    nd_base = rs.nd_base
    lp = rs.lp
    maxlp = rs.maxlp
    coins = rs.coins
    seconds = rs.seconds
    nj = rs.nj
    db_left = rs.db_left
    dirty = rs.dirty
    nl = rs.nl
    sa = rs.sa
    st_off[0] = stream_key(seed, run, 6 + sa, room)
    eligible_upgrades(up_rarity, up_unique, owned, elig)
    for q in range(n_off):
        item = -1
        if q + 1 >= rp.rewards_item_from_slot and uniform(st_off) < rp.rewards_item_chance:
            if uniform(st_off) < rp.joker_slot_share:
                item = n_up + draw_joker(st_off, jk)
            else:
                item = n_up + n_jk
        else:
            item = draw_eligible(st_off, up_rarity, rarity_w, elig, offers,
                                 q if rp.rewards_distinct > 0 else 0)
        offers[q] = item
    out[O_REWARDS] += 1
    for q in range(n_off):
        item = offers[q]
        g = 0.0
        if need_gain and 0 <= item < n_up:
            ch, ga, gp, gl = _with_upgrade(mods[EFF.attack_flat] + altar, mods[EFF.pasch_attack_mul],
                                       mods[EFF.glueckssieben], up_eff[item, EFF.attack_flat],
                                       up_eff[item, EFF.pasch_attack_mul], up_eff[item, EFF.glueckssieben])
            if ch:
                sl = probe(c_keys, t, ga, gp, gl)
                if sl < 0:
                    sl = lookup(cache, t, ga, gp, gl, base2, coin_bonus, action_base, cstart, cn, cand, tm)
                g = c_eatt[t, sl, nd_base, 0] - e3
        vals[q] = _item_value(pid, item, n_up, n_jk, up_eff, jk, rp, lp, maxlp, e3, e4, e3p, g)
        okv[q] = 1 if item >= 0 and not (n_up <= item < n_up + n_jk and nj >= max_j) else 0
        if 0 <= item < n_up:
            ub = rs.b_up + N_UC * item
            out[ub + UC_OFFERED] += 1
            if out[ub + UC_FIRST] == 0:
                out[ub + UC_FIRST] = room
    dp = pid if full else who(pid, sk, st_sk)
    ci = -1
    if ro:
        msk = 0
        for q in range(n_off):
            if okv[q]:
                msk |= 1 << q
        ci = rl_decide(rc, forced, K_REWARD, n_off, msk)
        if ci == STOP:
            rs.nl = nl
            return True
    if ci < 0:
        pick = decide_reward(dp, vals, okv, n_off, st_pol)
    else:
        pick = ci
    if ro and sa == 0:
        sa = salt_now(rc)
        if sa != 0:
            salted(seed, run, sa, room, sc)
    seconds += rp.time_seconds_per_reward_choice
    got = offers[pick] if pick >= 0 else -1
    if got >= 0:
        if got < n_up:
            dirty = True
            ub = rs.b_up + N_UC * got
            out[ub + UC_PICKED] += 1
            if out[ub + UC_FIRST] == room and out[ub + UC_PICKED] == 1:
                out[ub + UC_TOOK_FIRST] = 1
        lp, maxlp, nj, db_left = _take(got, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp, db_left,
                                       out)
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_REWARD, room, 0, offers[0], offers[1] if n_off > 1 else -1,
                  offers[2] if n_off > 2 else -1, offers[3] if n_off > 3 else -1,
                  offers[4] if n_off > 4 else -1, got, trunc(lp), trunc(maxlp), trunc(coins))
    rs.lp = lp
    rs.maxlp = maxlp
    rs.coins = coins
    rs.seconds = seconds
    rs.nj = nj
    rs.db_left = db_left
    rs.dirty = dirty
    rs.nl = nl
    rs.sa = sa
    return False


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def visit_market(pid, seed, run, room, fz, rs, cache, t, tm, out, log, sc, forced, rc, e3, e4, e3p):
    """The Tagesmarkt after room ``room``: its stock (upgrades by rarity, a joker pack, the dice pack), bought one
    item at a time until the policy stops. Returns True when a rollout stops at this decision."""
    rp = fz.rp[0]  # the rule record, read by name (the policies read their weights from it too)
    jk = fz.jk
    n_jk = jk.shape[0]
    up_eff = fz.up_eff
    up_rarity = fz.up_rarity
    up_unique = fz.up_unique
    rarity_w = fz.rarity_w
    base2 = fz.base2
    coin_bonus = fz.coin_bonus
    cstart = fz.cstart
    cn = fz.cn
    cand = fz.cand
    action_base = rp.coins_action_base
    n_up = trunc(rp.n_up)
    max_j = trunc(rp.rewards_max_jokers)
    owned = sc.owned
    elig = sc.elig
    mods = sc.mods
    c_keys = cache[0]
    c_eatt = cache[4]
    offers = sc.offers
    okv = sc.okv
    jokers = sc.jokers
    vals = sc.vals
    prices = sc.prices
    st_pol = sc.st_pol
    st_off = sc.st_off
    st_sk = sc.st_sk
    sk = rp.skill_level_ppm
    full = full_skill(pid, sk)
    ro = rc.shape[0] > 0
    need_gain = needs_attack_gain(pid)
    altar = rs.altar
    nd_base = rs.nd_base
    lp = rs.lp
    maxlp = rs.maxlp
    coins = rs.coins
    seconds = rs.seconds
    nj = rs.nj
    db_left = rs.db_left
    dirty = rs.dirty
    nl = rs.nl
    sa = rs.sa
    ikind = sc.ikind
    mk_prices = fz.prices
    n_mk_up = trunc(rp.market_upgrades)
    pack_n = trunc(rp.market_joker_pack_size)
    mk_index = rs.mk_index
    jk_wsum = 0.0
    for jj in range(n_jk):
        jk_wsum += jk[jj, C.JK_WEIGHT]
    st_off[0] = stream_key(seed, run, 7 + sa, room)
    eligible_upgrades(up_rarity, up_unique, owned, elig)
    ns = np.int64(0)  # not a literal 0: one compile of draw_eligible
    for _q in range(n_mk_up):
        item = draw_eligible(st_off, up_rarity, rarity_w, elig, offers, ns)
        if item >= 0:
            offers[ns] = item
            prices[ns] = mk_prices[up_rarity[item]]
            ns += 1
    if rp.joker_pack_price >= 0:
        offers[ns] = n_up  # a joker pack: its jokers are drawn when bought
        ikind[ns] = ITEM_JOKER
        prices[ns] = rp.joker_pack_price
        ns += 1
    offers[ns] = n_up + n_jk
    prices[ns] = rp.market_dice_pack
    ns += 1
    for q in range(ns):
        okv[q] = 1
        if log.shape[0] > 0:
            pk = -2 if (rp.joker_pack_price >= 0 and q == ns - 2) else offers[q]
            nl = log_event(log, nl, LG_STOCK, room, 0, pk, trunc(prices[q]), trunc(coins), 0, 0, 0, 0, 0, 0)
    jp = ns - 2 if rp.joker_pack_price >= 0 else -1
    spent = 0.0
    stale = True  # the item values need (re)computing: first visit, or a buy changed what they read
    regain = need_gain and dirty  # greedy, expectimax: gains from the loadout as it is now
    while True:
        if regain:
            R.fold_mods(up_eff, owned, mods)
            ga = mods[EFF.attack_flat] + altar
            sl = probe(c_keys, t, ga, mods[EFF.pasch_attack_mul], mods[EFF.glueckssieben])
            if sl < 0:
                sl = lookup(cache, t, ga, mods[EFF.pasch_attack_mul], mods[EFF.glueckssieben], base2, coin_bonus,
                            action_base, cstart, cn, cand, tm)
            nd_base = smin(R.MAX_DICE, trunc(rp.start_dice + mods[EFF.extra_dice]))
            e3 = c_eatt[t, sl, nd_base, 0]
            e4 = c_eatt[t, sl, nd_base, 1]
            e3p = c_eatt[t, sl, smin(R.MAX_DICE, nd_base + 1), 0]
            regain = False
        if stale:
            for q in range(ns):
                if not okv[q]:
                    continue
                if q == jp:
                    v = 0.0
                    for jj in range(n_jk):
                        v += jk[jj, C.JK_WEIGHT] * _item_value(pid, n_up + jj, n_up, n_jk, up_eff, jk,
                                                                rp, lp, maxlp, e3, e4, e3p, 0.0)
                    vals[q] = v / jk_wsum * smin(pack_n, max_j - nj)
                    if nj >= max_j:
                        okv[q] = 0
                else:
                    item = offers[q]
                    g = 0.0
                    if need_gain and 0 <= item < n_up:
                        ch, ga, gp, gl = _with_upgrade(
                            mods[EFF.attack_flat] + altar, mods[EFF.pasch_attack_mul], mods[EFF.glueckssieben],
                            up_eff[item, EFF.attack_flat], up_eff[item, EFF.pasch_attack_mul],
                            up_eff[item, EFF.glueckssieben])
                        if ch:
                            sl = probe(c_keys, t, ga, gp, gl)
                            if sl < 0:
                                sl = lookup(cache, t, ga, gp, gl, base2, coin_bonus, action_base, cstart,
                                            cn, cand, tm)
                            g = c_eatt[t, sl, nd_base, 0] - e3
                    vals[q] = _item_value(pid, item, n_up, n_jk, up_eff, jk, rp, lp, maxlp, e3, e4,
                                          e3p, g)
            stale = False
        dp = pid if full else who(pid, sk, st_sk)
        ci = -1
        if ro:
            msk = 1
            for q in range(ns):
                if okv[q] and prices[q] <= coins:
                    msk |= 1 << (q + 1)
            ci = rl_decide(rc, forced, K_BUY, ns + 1, msk)
            if ci == STOP:
                rs.nl = nl
                return True
        if ci < 0:
            b = decide_buy(dp, vals, prices, okv, ns, coins, st_pol, rp.policies_vorschlag_per_coin,
                           rp.policies_vorschlag_reserve)
        else:
            b = ci - 1
        if ro and sa == 0:
            sa = salt_now(rc)
            if sa != 0:
                salted(seed, run, sa, room, sc)
        if b < 0:
            break
        okv[b] = 0
        coins -= prices[b]
        spent += prices[b]
        out[O_MK_BUYS] += 1
        lp_was = lp
        maxlp_was = maxlp
        nj_was = nj
        if b == jp:
            for _ in range(pack_n):
                got = n_up + draw_joker(st_off, jk)
                lp, maxlp, nj, db_left = _take(got, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp,
                                               db_left, out)
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_BUY, room, 0, got, trunc(prices[b]), trunc(coins), 1, 0, 0,
                                   0, 0, 0)
        else:
            got = offers[b]
            if got < n_up:
                dirty = True
                stale = True
                regain = need_gain
                out[rs.b_up + N_UC * got + UC_BOUGHT] += 1
            lp, maxlp, nj, db_left = _take(got, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp,
                                           db_left, out)
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_BUY, room, 0, got, trunc(prices[b]), trunc(coins), 0, 0, 0, 0,
                               0, 0)
        if lp != lp_was or maxlp != maxlp_was or nj != nj_was:
            stale = True
    out[rs.b_mk + mk_index] = spent
    out[O_MK_SPENT] += spent
    mk_index += 1
    rs.lp = lp
    rs.maxlp = maxlp
    rs.coins = coins
    rs.seconds = seconds
    rs.nj = nj
    rs.db_left = db_left
    rs.dirty = dirty
    rs.nl = nl
    rs.sa = sa
    rs.mk_index = mk_index
    return False


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
