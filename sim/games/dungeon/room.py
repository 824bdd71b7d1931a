"""Entering a Würfel Dungeon room: the map draw, the path card and its Geheimnis event, then the loadout's profile
(combo values and the profile tables the fight reads).

The map of room ``r`` is drawn from the stream (1, r): the third path card (Rastplatz or Geheimnis), the Geheimnis
event and the enemy, whatever the choice, so every policy meets the same rooms. A rollout's continuation re-draws
what lies behind the cards it has seen (``rollctl``).
"""

from __future__ import annotations

from numba import njit

from policies.dungeon.bots import decide_event, decide_path
from policies.dungeon.skill import full_skill, who
from policies.skill import SKILL_STREAM
from sim.core.rng import below, stream_key, uniform
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.eventlog import LG_EVENT, log_event
from sim.games.dungeon.rollctl import K_EVENT, K_PATH, STOP, rl_decide, salt_now
from sim.games.dungeon.rows import EFF
from sim.games.dungeon.table import O_ALTARS, O_EARNED, O_JK_SOLD, O_TRUHEN
from sim.games.dungeon.tables import lookup, probe
from sim.games.dungeon.words import ELITE, GEHEIMNIS, KAMPF, RAST
from sim.jit.scalar import smin, trunc
from sim.jit.tier import INLINE


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def enter_room(pid, seed, run, room, fz, rs, out, log, sc, forced, rc):
    """Draw room ``room``'s map, choose the path card and play its event (Opferaltar, Joker-Händler, Truhe) or
    rest; leaves the card, the event and the enemy in ``rs``. Returns True when a rollout stops at this decision."""
    rp = fz.rp[0]
    rooms = fz.rooms
    pool = fz.pool
    jk = fz.jk
    ev_weights = fz.ev_weights
    ev_tot = ev_weights.sum()
    cards = sc.cards
    jokers = sc.jokers
    st_pol = sc.st_pol
    st_map = sc.st_map
    st_sk = sc.st_sk
    sk = rp.skill_level_ppm
    full = full_skill(pid, sk)
    ro = rc.shape[0] > 0
    rr = room - 1
    lp = rs.lp
    maxlp = rs.maxlp
    coins = rs.coins
    seconds = rs.seconds
    altar = rs.altar
    nj = rs.nj
    truhe_mask = rs.truhe_mask
    dirty = rs.dirty
    nl = rs.nl
    sa = rs.sa
    st_map[0] = stream_key(seed, run, 1 + sa, room)
    third = RAST if uniform(st_map) < rp.path_rest_chance else GEHEIMNIS
    # Geheimnis event and enemy, drawn whatever the choice so that every policy meets the same rooms
    event, e = _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, pool)
    card = KAMPF
    if rooms[rr, C.RM_PATH]:
        cards[0] = KAMPF
        cards[1] = ELITE
        cards[2] = third
        dp = pid if full else who(pid, sk, st_sk)
        ci = -1
        if ro:
            ci = rl_decide(rc, forced, K_PATH, 3, 7)
            if ci == STOP:
                rs.nl = nl
                return True
        if ci < 0:
            ci = decide_path(dp, cards, lp, maxlp, st_pol)
        card = cards[ci]
        if ro and sa == 0:
            sa = salt_now(rc)
            if sa != 0:
                salted(seed, run, sa, room, sc)
                # the cards were seen, not what lies behind them: the continuation meets its own event and enemy
                st_map[0] = stream_key(seed, run, 1 + sa, room)
                uniform(st_map)  # the third card, already shown
                event, e = _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, pool)
        seconds += rp.time_seconds_per_path_choice
        out[rs.b_path + card] += 1
        if card == GEHEIMNIS:
            dp = pid if full else who(pid, sk, st_sk)
            ci = -1
            if ro:
                can = not ((event == C.EV_ALTAR and lp <= rp.path_events_altar_lp) or (event == C.EV_JOKER and nj == 0))
                ci = rl_decide(rc, forced, K_EVENT, 2, 3 if can else 1)
                if ci == STOP:
                    rs.nl = nl
                    return True
            if ci < 0:
                acc = decide_event(dp, event, lp, maxlp, rp.path_events_altar_lp, st_pol, jokers, nj, jk)
            else:
                acc = ci == 1
            if ro and sa == 0:
                sa = salt_now(rc)
                if sa != 0:
                    salted(seed, run, sa, room, sc)
            sold = -1
            if acc:
                if event == C.EV_ALTAR:
                    lp -= rp.path_events_altar_lp
                    altar += trunc(rp.path_events_altar_attack)
                    out[O_ALTARS] += 1
                    dirty = True
                elif event == C.EV_JOKER:
                    nj -= 1
                    sold = jokers[nj]
                    coins += rp.path_events_joker_haendler_coins
                    out[O_EARNED] += rp.path_events_joker_haendler_coins
                    out[O_JK_SOLD] += 1
                else:
                    coins += rp.path_events_truhe_coins
                    out[O_EARNED] += rp.path_events_truhe_coins
                    truhe_mask = 1 << (trunc(rp.path_events_truhe_cursed_die) - 1)
                    out[O_TRUHEN] += 1
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_EVENT, room, 0, event, trunc(acc), trunc(lp), trunc(coins), sold, 0, 0,
                               0, 0)
        if card == RAST:
            lp = smin(maxlp, lp + rp.path_rest_heal)
    rs.card = card
    rs.third = third
    rs.event = event
    rs.enemy = e
    rs.lp = lp
    rs.coins = coins
    rs.seconds = seconds
    rs.altar = altar
    rs.nj = nj
    rs.truhe_mask = truhe_mask
    rs.dirty = dirty
    rs.nl = nl
    rs.sa = sa
    return False


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def refresh_profile(fz, rs, cache, t, tm, sc):
    """The loadout's profile: fold its effects and compute the combo values again when an effect they read changed
    (``rs.dirty``); find the profile tables (partitions, hold tables) of its key in this thread's cache row, looked
    up again when the key changed or its slot was reused; the dice per roll."""
    rp = fz.rp[0]
    up_eff = fz.up_eff
    base2 = fz.base2
    coin_bonus = fz.coin_bonus
    cstart = fz.cstart
    cn = fz.cn
    cand = fz.cand
    action_base = rp.coins_action_base
    owned = sc.owned
    mods = sc.mods
    cv = sc.cv
    c_keys = cache[0]
    altar = rs.altar
    dirty = rs.dirty
    slot = rs.slot
    k_att = rs.k_att
    k_altar = rs.k_altar
    k_sh = rs.k_sh
    k_he = rs.k_he
    k_pm = rs.k_pm
    k_lk = rs.k_lk
    if dirty:
        # combo values and profile tables only when an effect they read changed
        R.fold_mods(up_eff, owned, mods)
        a_now = mods[EFF.attack_flat]
        if (a_now != k_att or altar != k_altar or mods[EFF.shield_flat] != k_sh or mods[EFF.heal_flat] != k_he
                or mods[EFF.pasch_attack_mul] != k_pm or mods[EFF.glueckssieben] != k_lk):
            R.effective_values(base2[1 if mods[EFF.glueckssieben] > 0 else 0], R.C_KIND, mods, float(altar),
                               action_base, coin_bonus, cv)
            k_att = a_now
            k_altar = altar
            k_sh = mods[EFF.shield_flat]
            k_he = mods[EFF.heal_flat]
            k_pm = mods[EFF.pasch_attack_mul]
            k_lk = mods[EFF.glueckssieben]
        dirty = False
    # the profile tables: look up again when the key changed or its slot was reused (a full cache row)
    if not (c_keys[t, slot, 0] == k_att + k_altar and c_keys[t, slot, 1] == k_pm and c_keys[t, slot, 2] == k_lk):
        slot = probe(c_keys, t, k_att + k_altar, k_pm, k_lk)
        if slot < 0:
            slot = lookup(cache, t, k_att + k_altar, k_pm, k_lk, base2, coin_bonus, action_base, cstart, cn, cand,
                          tm)
    nd_base = smin(R.MAX_DICE, trunc(rp.start_dice + mods[EFF.extra_dice]))
    rs.dirty = dirty
    rs.slot = slot
    rs.nd_base = nd_base
    rs.k_att = k_att
    rs.k_altar = k_altar
    rs.k_sh = k_sh
    rs.k_he = k_he
    rs.k_pm = k_pm
    rs.k_lk = k_lk


@njit(cache=True, error_model="numpy", inline=INLINE)
def _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, pool):
    """What the path cards hide: the Geheimnis event and the room's enemy (the boss in a boss room)."""
    u = uniform(st_map) * ev_tot
    event = 0
    while event < 2 and u >= ev_weights[event]:
        u -= ev_weights[event]
        event += 1
    if rooms[rr, C.RM_BOSS] >= 0:
        e = rooms[rr, C.RM_BOSS]
    else:
        e = pool[rooms[rr, C.RM_POOL0] + below(st_map, rooms[rr, C.RM_POOLN])]
    return event, e


@njit(cache=True, error_model="numpy")
def salted(seed, run, sa, room, sc):
    """A rollout continuation passes its decision: re-key the streams still drawn from (the market's offers and
    joker packs, the policy's and the skill's) with the salt offset ``sa`` (``rollctl``)."""
    sc.st_off[0] = stream_key(seed, run, 7 + sa, room)
    sc.st_pol[0] = stream_key(seed, run, 3 + sa, room)
    sc.st_sk[0] = stream_key(seed, run, SKILL_STREAM + sa, room)
