"""Entering a Würfel Dungeon room and leaving it: the map draw, the path card and the Geheimnis event before
the fight; the coins for a won room (and its challenge) after it.

The map of room ``r`` (the third path card, the Geheimnis event, the enemy) comes from stream (1, r) and is drawn
whatever the policy chooses, so every policy meets the same rooms. Helpers take the run record ``s``
(``state.RUN_DTYPE``) and the rule record ``rp`` (``layout.RP_DTYPE``).
"""

from __future__ import annotations

from numba import njit

from policies.dungeon import decide_event, decide_path
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.eventlog import LG_END, LG_EVENT, log_event
from sim.games.dungeon.table import O_ALTARS, O_CHALLENGES, O_EARNED, O_JK_SOLD, O_TRUHEN
from sim.games.dungeon.words import ELITE, GEHEIMNIS, KAMPF, RAST
from sim.rng import below, stream_key, uniform
from sim.scalar import smin, trunc

INLINE = {"cache": True, "error_model": "numpy", "inline": "always"}


@njit(**INLINE)
def draw_map(s, rp, rooms, pool, ev_weights, ev_tot):
    """Room ``s.room``'s map: the third path card (Rastplatz or Geheimnis), the event behind a Geheimnis, the
    enemy (the room's boss, or one of its section's roster)."""
    rr = s.room - 1
    s.st_map[0] = stream_key(s.seed, s.run, 1, s.room)
    s.third = RAST if uniform(s.st_map) < rp.rest_chance else GEHEIMNIS
    u = uniform(s.st_map) * ev_tot
    event = 0
    while event < 2 and u >= ev_weights[event]:
        u -= ev_weights[event]
        event += 1
    s.event = event
    if rooms[rr, C.RM_BOSS] >= 0:
        s.enemy = rooms[rr, C.RM_BOSS]
    else:
        s.enemy = pool[rooms[rr, C.RM_POOL0] + below(s.st_map, rooms[rr, C.RM_POOLN])]


@njit(**INLINE)
def geheimnis(pid, s, rp, jk, out, log):
    """The Geheimnis event: the policy accepts or not (Opferaltar: LP for attack; Joker-Händler: the last joker
    for coins; Verfluchte Truhe: coins, a cursed die next fight)."""
    event = s.event
    acc = decide_event(pid, event, s.lp, s.maxlp, rp.altar_lp, s.st_pol, s.jokers, s.nj, jk)
    sold = -1
    if acc:
        if event == C.EV_ALTAR:
            s.lp -= rp.altar_lp
            s.altar += trunc(rp.altar_att)
            out[O_ALTARS] += 1
            s.dirty = True
        elif event == C.EV_JOKER:
            s.nj -= 1
            sold = s.jokers[s.nj]
            s.coins += rp.jh_coins
            out[O_EARNED] += rp.jh_coins
            out[O_JK_SOLD] += 1
        else:
            s.coins += rp.truhe_coins
            out[O_EARNED] += rp.truhe_coins
            s.truhe_mask = 1 << (trunc(rp.truhe_die) - 1)
            out[O_TRUHEN] += 1
    if log.shape[0] > 0:
        s.nl = log_event(log, s.nl, LG_EVENT, s.room, 0, event, trunc(acc), trunc(s.lp), trunc(s.coins), sold, 0, 0,
                         0, 0)


@njit(**INLINE)
def choose_path(pid, s, rp, has_path, jk, out, log):
    """The path card (Kampf, Elite or the third card), where the room offers a choice; a Geheimnis plays its
    event, a Rastplatz heals."""
    s.card = KAMPF
    if has_path:
        s.cards[0] = KAMPF
        s.cards[1] = ELITE
        s.cards[2] = s.third
        s.card = s.cards[decide_path(pid, s.cards, s.lp, s.maxlp, s.st_pol)]
        s.seconds += rp.t_path
        out[s.b_path + s.card] += 1
        if s.card == GEHEIMNIS:
            geheimnis(pid, s, rp, jk, out, log)
        if s.card == RAST:
            s.lp = smin(s.maxlp, s.lp + rp.rest_heal)


@njit(**INLINE)
def room_won(s, rp, boss, challenge, out, log):
    """Coins for the won room: the win (boss, Rastplatz and Elite variants), the room's challenge, stolen coins
    returned."""
    s.rooms_cleared = s.room
    if boss:
        reward = rp.boss_rest_coins if s.card == RAST else rp.boss_win
    elif s.card == RAST:
        reward = rp.rest_coins
    else:
        reward = rp.win
    if s.card == ELITE:
        reward += rp.elite_coins
    met = False
    if challenge == 0:
        met = not s.healed
    elif challenge == 1:
        nk = 0
        for q in range(R.N_KIND):
            nk += (s.kinds_used >> q) & 1
        met = nk >= rp.ch_combos
    else:
        met = s.turn <= rp.ch_turns
    if met:
        reward += rp.challenge
        out[O_CHALLENGES] += 1
    if rp.steal_return > 0:
        reward += s.stolen
    s.coins += reward
    out[O_EARNED] += reward
    if log.shape[0] > 0:
        s.nl = log_event(log, s.nl, LG_END, s.room, s.turn, 1, trunc(reward), trunc(met), trunc(s.coins), trunc(s.lp),
                         trunc(s.fight_coins), 0, 0, 0)
