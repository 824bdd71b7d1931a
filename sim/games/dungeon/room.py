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
def enter_room(pl, room, fz, rs, sc, wr, ctl):
    """Draw room ``room``'s map, choose the path card and play its event (Opferaltar, Joker-Händler, Truhe) or
    rest; leaves the card, the event and the enemy in ``rs``. Returns True when a rollout stops at this decision
    (the stopped run's state is not read again: ``rollout``)."""
    pid, seed, run = pl
    out, log = wr
    forced, rc = ctl
    rp = fz.rp[0]
    rooms = fz.rooms
    ev_weights = fz.ev_weights
    ev_tot = ev_weights.sum()
    cards = sc.cards
    jokers = sc.jokers
    st_map = sc.st_map
    sk = rp.skill_level_ppm
    full = full_skill(pid, sk)
    ro = rc.shape[0] > 0
    rr = room - 1
    st_map[0] = stream_key(seed, run, 1 + rs.sa, room)
    rs.third = RAST if uniform(st_map) < rp.path_rest_chance else GEHEIMNIS
    # Geheimnis event and enemy, drawn whatever the choice so that every policy meets the same rooms
    event, e = _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, fz.pool)
    card = KAMPF
    if rooms[rr, C.RM_PATH]:
        cards[0] = KAMPF
        cards[1] = ELITE
        cards[2] = rs.third
        dp = pid if full else who(pid, sk, sc.st_sk)
        ci = -1
        if ro:
            ci = rl_decide(rc, forced, K_PATH, 3, 7)
            if ci == STOP:
                return True
        if ci < 0:
            ci = decide_path(dp, cards, rs.lp, rs.maxlp, sc.st_pol)
        card = cards[ci]
        if ro and rs.sa == 0:
            rs.sa = salt_now(rc)
            if rs.sa != 0:
                salted(seed, run, rs.sa, room, sc)
                # the cards were seen, not what lies behind them: the continuation meets its own event and enemy
                st_map[0] = stream_key(seed, run, 1 + rs.sa, room)
                uniform(st_map)  # the third card, already shown
                event, e = _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, fz.pool)
        rs.seconds += rp.time_seconds_per_path_choice
        out[rs.b_path + card] += 1
        if card == GEHEIMNIS:
            dp = pid if full else who(pid, sk, sc.st_sk)
            ci = -1
            if ro:
                can = not ((event == C.EV_ALTAR and rs.lp <= rp.path_events_altar_lp)
                           or (event == C.EV_JOKER and rs.nj == 0))
                ci = rl_decide(rc, forced, K_EVENT, 2, 3 if can else 1)
                if ci == STOP:
                    return True
            if ci < 0:
                acc = decide_event(dp, event, rs.lp, rs.maxlp, rp.path_events_altar_lp, sc.st_pol, jokers, rs.nj,
                                   fz.jk)
            else:
                acc = ci == 1
            if ro and rs.sa == 0:
                rs.sa = salt_now(rc)
                if rs.sa != 0:
                    salted(seed, run, rs.sa, room, sc)
            sold = -1
            if acc:
                if event == C.EV_ALTAR:
                    rs.lp -= rp.path_events_altar_lp
                    rs.altar += trunc(rp.path_events_altar_attack)
                    out[O_ALTARS] += 1
                    rs.dirty = True
                elif event == C.EV_JOKER:
                    rs.nj -= 1
                    sold = jokers[rs.nj]
                    rs.coins += rp.path_events_joker_haendler_coins
                    out[O_EARNED] += rp.path_events_joker_haendler_coins
                    out[O_JK_SOLD] += 1
                else:
                    rs.coins += rp.path_events_truhe_coins
                    out[O_EARNED] += rp.path_events_truhe_coins
                    rs.truhe_mask = 1 << (trunc(rp.path_events_truhe_cursed_die) - 1)
                    out[O_TRUHEN] += 1
            if log.shape[0] > 0:
                rs.nl = log_event(log, rs.nl, LG_EVENT, room, 0, event, trunc(acc), trunc(rs.lp), trunc(rs.coins),
                                  sold, 0, 0, 0, 0)
        if card == RAST:
            rs.lp = smin(rs.maxlp, rs.lp + rp.path_rest_heal)
    rs.card = card
    rs.event = event
    rs.enemy = e
    return False


@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def refresh_profile(fz, rs, sc, pf):
    """The loadout's profile: fold its effects and compute the combo values again when an effect they read changed
    (``rs.dirty``); find the profile tables (partitions, hold tables) of its key in this thread's cache row, looked
    up again when the key changed or its slot was reused; the dice per roll."""
    cache, t, tm = pf
    rp = fz.rp[0]
    mods = sc.mods
    c_keys = cache[0]
    if rs.dirty:
        # combo values and profile tables only when an effect they read changed
        R.fold_mods(fz.up_eff, sc.owned, mods)
        if (mods[EFF.attack_flat] != rs.k_att or rs.altar != rs.k_altar or mods[EFF.shield_flat] != rs.k_sh
                or mods[EFF.heal_flat] != rs.k_he or mods[EFF.pasch_attack_mul] != rs.k_pm
                or mods[EFF.glueckssieben] != rs.k_lk):
            R.effective_values(fz.base2[1 if mods[EFF.glueckssieben] > 0 else 0], R.C_KIND, mods, float(rs.altar),
                               rp.coins_action_base, fz.coin_bonus, sc.cv)
            rs.k_att = mods[EFF.attack_flat]
            rs.k_altar = rs.altar
            rs.k_sh = mods[EFF.shield_flat]
            rs.k_he = mods[EFF.heal_flat]
            rs.k_pm = mods[EFF.pasch_attack_mul]
            rs.k_lk = mods[EFF.glueckssieben]
        rs.dirty = False
    # the profile tables: look up again when the key changed or its slot was reused (a full cache row)
    key = rs.k_att + rs.k_altar
    slot = rs.slot
    if not (c_keys[t, slot, 0] == key and c_keys[t, slot, 1] == rs.k_pm and c_keys[t, slot, 2] == rs.k_lk):
        slot = probe(c_keys, t, key, rs.k_pm, rs.k_lk)
        if slot < 0:
            slot = lookup(cache, t, key, rs.k_pm, rs.k_lk, fz.base2, fz.coin_bonus, rp.coins_action_base, fz.cstart,
                          fz.cn, fz.cand, tm)
        rs.slot = slot
    rs.nd_base = smin(R.MAX_DICE, trunc(rp.start_dice + mods[EFF.extra_dice]))


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
