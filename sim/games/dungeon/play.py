"""The Würfel Dungeon run kernel: whole runs (10 rooms, path choices, fights, rewards, markets) under a policy.

A run is the seed's loop of rooms, each in phases, each phase a small function on the run's typed state
(``state.RUN_DTYPE``, ``state.FIGHT_DTYPE``) and the rule record ``rp`` (``layout.RP_DTYPE``: ``rp.n_rooms``):

1. enter the room (``room``): the map draw, the path card and its event;
2. the loadout's profile (``refresh_profile``): combo values and the cached partition and hold tables;
3. the fight (``fight``): player turn (roll, hold, adjust, jokers, assign), resolution, enemy turn;
4. after the room: coins for the win and its challenge (``room.room_won``), the reward and the Tagesmarkt
   (``economy``).

One run draws only from ``sim.rng`` streams keyed by (seed, run, purpose, room): the map of room ``r`` (third path
card, Geheimnis event, enemy) from (1, r), the dice of room ``r``'s fight from (2, r), the policy's own random
choices from (3, 0), Glücksklee crits from (4, r), the enemy's random choices (intent draws, cursed dice) from
(5, r), the reward offers after room ``r`` from (6, r) and the market after room ``r`` from (7, r). Every policy
therefore meets the same rooms, and a table does not depend on chunking or threads.

``play_run`` plays one run and writes its row of the per-run table (``table.columns``); with a non-empty ``log``
it also writes the event log that ``replay`` renders (the same code path). ``play_batch`` runs ``play_run`` over
a chunk with ``prange``.

The run's progression state: the loadout (``owned`` counts of the rows of ``up_eff``: upgrades, then talents)
folded into ``mods`` (``rules.EFF_*``), which the fight reads for every effect; the combo values ``cv`` of the
loadout and Opferaltar bonus; the shown partitions and hold tables of its profile key from the per-thread cache
(``tables.lookup``, rebuilt on a miss when a pick changes the key); the joker stack (the last one is the one the
Joker-Händler takes); dice-bonus fights left. Progression order after a won room: win coins (and the room's
challenge), the reward (pick 1 of ``rewards.offers``; none after the last room), then the Tagesmarkt after the
market rooms.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.dungeon import EXPECTIMAX, GREEDY, MAX_ADJ, MAX_LEVELS
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.draws import draw_upgrade
from sim.games.dungeon.economy import market, reward, take_item
from sim.games.dungeon.eventlog import (  # noqa: F401 - the log kinds, re-exported for replay and tests
    LG_ADJ,
    LG_BUY,
    LG_COMBO,
    LG_END,
    LG_ENEMY,
    LG_EVENT,
    LG_GAIN,
    LG_HERO,
    LG_JOKER,
    LG_LC,
    LG_RESOLVE,
    LG_REWARD,
    LG_ROLL,
    LG_ROOM,
    LG_RUN,
    LG_STOCK,
    LG_TURN,
    LOG_W,
    log_event,
)
from sim.games.dungeon.fight import fight
from sim.games.dungeon.room import choose_path, draw_map, room_won
from sim.games.dungeon.state import FIGHT_DTYPE, RUN_DTYPE
from sim.games.dungeon.table import (  # noqa: F401 - row layout names, re-exported
    FIXED,
    N_FIXED,
    N_UC,
    O_COINS,
    O_DEATH,
    O_LP,
    O_MAXLP,
    O_ROOMS,
    O_SCORE,
    O_SECONDS,
    O_TURNS,
    O_WIN,
    PATH_KINDS,
    UP_COLS,
    columns,
    n_columns,
)
from sim.games.dungeon.tables import lookup, probe
from sim.games.dungeon.words import FS_SIZE
from sim.rng import stream_key
from sim.scalar import smax, smin, trunc

KERNEL = {"cache": True, "error_model": "numpy"}
INLINE = {"cache": True, "error_model": "numpy", "inline": "always"}


@njit(**KERNEL)
def new_scratch(pid, n_all):
    """Per-thread work arrays of ``play_run`` (reused between the runs of one thread): (fight state + mods, policy
    work, expectimax's tables per adjusts left, their scratch and memo, combo values, owned + the eligible-upgrade
    groups, offer items, offer floats, the run record, the fight record); ``n_all``: upgrade and talent rows of the
    loadout."""
    big = pid == EXPECTIMAX
    return (np.zeros(R.N_EFF + FS_SIZE), np.zeros(16, np.int64),
            np.zeros((MAX_ADJ + 1, MAX_LEVELS + 1, R.N_MS) if big else (1, 1, 1)),
            np.zeros((2 * MAX_ADJ + 2, R.N_MS) if big else (1, 1)),
            np.zeros(R.N_MS if big else 1), np.zeros((R.N_COMBO, 4)), np.zeros(2 * smax(1, n_all) + 4, np.int64),
            np.zeros(2 * C.MAX_STOCK, np.int64), np.zeros(2 * C.MAX_STOCK),
            np.zeros(1, RUN_DTYPE), np.zeros(1, FIGHT_DTYPE))


@njit(**INLINE)
def begin_run(s, rp, fz, seed, run, owned, mods, out):
    """The run record at the door of room 1: start loadout folded, LP, coins, jokers; the row cleared (LP and
    coins of rooms not reached are NaN) and its column groups located."""
    n_rooms = trunc(rp.n_rooms)
    s.seed = seed
    s.run = run
    s.b_lp = N_FIXED
    s.b_coins = N_FIXED + n_rooms
    s.b_turns = N_FIXED + 2 * n_rooms
    s.b_combo = N_FIXED + 3 * n_rooms
    s.b_path = s.b_combo + R.N_KIND
    s.b_mk = s.b_path + 4
    n_mk = 0
    for r in range(n_rooms):
        n_mk += fz.rooms[r, C.RM_MARKET]
    s.b_up = s.b_mk + n_mk
    for j in range(out.shape[0]):
        out[j] = 0.0
    for r in range(n_rooms):
        out[s.b_lp + r] = np.nan
        out[s.b_coins + r] = np.nan
    for u in range(owned.shape[0]):
        owned[u] = fz.loadout[u] if u < fz.loadout.shape[0] else 0
    R.fold_mods(fz.up_eff, owned, mods)
    s.maxlp = rp.lp + mods[R.EFF_MAX_LP]
    s.lp = s.maxlp
    s.coins = rp.coins + rp.talent_coins
    s.altar = trunc(rp.start_altar)
    s.seconds = 0.0
    s.nl = 0
    s.st_pol[0] = stream_key(seed, run, 3, 0)
    s.nj = 0
    for q in range(fz.start_jokers.shape[0]):
        s.jokers[s.nj] = fz.start_jokers[q]
        s.nj += 1
    s.db_left = 0
    s.truhe_mask = 0
    s.rooms_cleared = 0
    s.death = 0
    s.mk_index = 0
    s.dirty = True
    s.slot = 0
    s.k_att = np.nan  # the effects the combo values were last computed for
    s.k_altar = -1
    s.k_sh = np.nan
    s.k_he = np.nan
    s.k_pm = np.nan
    s.k_lk = np.nan


@njit(**INLINE)
def refresh_profile(s, rp, fz, owned, mods, cv, cache, t, tm):
    """Fold the loadout again when it changed, recompute the combo values when an effect they read changed, and
    find the profile tables of its key (built on a miss). Returns True when the profile's cache slot changed (the
    caller takes its table rows again: each row view costs a reference count)."""
    if s.dirty:
        R.fold_mods(fz.up_eff, owned, mods)
        a_now = mods[R.EFF_ATTACK_FLAT]
        if (a_now != s.k_att or s.altar != s.k_altar or mods[R.EFF_SHIELD_FLAT] != s.k_sh
                or mods[R.EFF_HEAL_FLAT] != s.k_he or mods[R.EFF_PASCH_MUL] != s.k_pm or mods[R.EFF_LUCKY] != s.k_lk):
            R.effective_values(fz.base2[1 if mods[R.EFF_LUCKY] > 0 else 0], R.C_KIND, mods, float(s.altar),
                               rp.action_base, fz.coin_bonus, cv)
            s.k_att = a_now
            s.k_altar = s.altar
            s.k_sh = mods[R.EFF_SHIELD_FLAT]
            s.k_he = mods[R.EFF_HEAL_FLAT]
            s.k_pm = mods[R.EFF_PASCH_MUL]
            s.k_lk = mods[R.EFF_LUCKY]
        s.dirty = False
    s.nd_base = smin(R.MAX_DICE, trunc(rp.dice + mods[R.EFF_EXTRA_DICE]))
    c_keys = cache[0]
    key = s.k_att + s.k_altar
    slot = s.slot
    if c_keys[t, slot, 0] == key and c_keys[t, slot, 1] == s.k_pm and c_keys[t, slot, 2] == s.k_lk:
        return False
    slot = probe(c_keys, t, key, s.k_pm, s.k_lk)
    if slot < 0:
        slot = lookup(cache, t, key, s.k_pm, s.k_lk, fz.base2, fz.coin_bonus, rp.action_base, fz.cstart, fz.cn,
                      fz.cand, tm)
    s.slot = slot
    return True


@njit(**INLINE)
def end_run(s, rp, out, log):
    """The row's run totals and the score."""
    win = s.rooms_cleared == trunc(rp.n_rooms)
    lp = smax(s.lp, 0.0)
    out[O_WIN] = 1.0 if win else 0.0
    out[O_ROOMS] = s.rooms_cleared
    out[O_DEATH] = s.death
    out[O_LP] = lp
    out[O_MAXLP] = s.maxlp
    out[O_COINS] = s.coins
    out[O_SECONDS] = s.seconds
    out[O_SCORE] = R.score(s.rooms_cleared, lp, s.seconds, win, rp.sc_room, rp.sc_lp, rp.sc_budget, rp.sc_win,
                           rp.points)
    if log.shape[0] > 0:
        s.nl = log_event(log, s.nl, LG_RUN, 0, 0, trunc(win), s.rooms_cleared, trunc(out[O_SCORE]),
                         trunc(s.seconds * 10), 0, 0, 0, 0, 0)


@njit(**KERNEL)
def play_run(pid, seed, run, fz, cache, t, tm, out, log, sc):
    """Play run ``run``; fill ``out`` (one table row); returns the number of log rows written.

    ``cache``: the profile-table cache (``tables.new_cache``), of which this run uses thread row ``t``;
    ``sc``: work arrays from ``new_scratch`` (reused between runs of one thread)."""
    rp = fz.rpr[0]
    fbuf, work, etabs, scratch, memo, cv, obuf, items, ofl, run_rec, fight_rec = sc
    s = run_rec[0]
    f = fight_rec[0]
    n_own = smax(1, fz.loadout.shape[0])
    owned = obuf[:n_own]
    elig = obuf[n_own:]
    mods = fbuf[:R.N_EFF]
    fs = fbuf[R.N_EFF : R.N_EFF + FS_SIZE]
    offers = items[0 : C.MAX_STOCK]
    okv = items[C.MAX_STOCK : 2 * C.MAX_STOCK]
    vals = ofl[0 : C.MAX_STOCK]
    prices = ofl[C.MAX_STOCK : 2 * C.MAX_STOCK]
    need_gain = pid == GREEDY or pid == EXPECTIMAX
    n_rooms = trunc(rp.n_rooms)
    rooms = fz.rooms
    ev_tot = fz.ev_weights.sum()
    jk_wsum = 0.0
    for jj in range(fz.jk.shape[0]):
        jk_wsum += fz.jk[jj, C.JK_WEIGHT]
    c_eatt = cache[4]
    begin_run(s, rp, fz, seed, run, owned, mods, out)
    # the profile tables of the loadout (row views are taken again only when the loadout changed)
    part = cache[1][t, 0]
    pcl = cache[2][t, 0]
    hp_tab = cache[3][t, 0]
    for room in range(1, n_rooms + 1):
        rr = room - 1
        s.room = room
        draw_map(s, rp, rooms, fz.pool, fz.ev_weights, ev_tot)
        choose_path(pid, s, rp, rooms[rr, C.RM_PATH] != 0, fz.jk, out, log)
        if refresh_profile(s, rp, fz, owned, mods, cv, cache, t, tm):
            part = cache[1][t, s.slot]
            pcl = cache[2][t, s.slot]
            hp_tab = cache[3][t, s.slot]
        fight(pid, s, f, rp, fz.en, fz.intents, fz.jk, fz.steps, mods, rooms[rr, C.RM_EBLOCK],
              rooms[rr, C.RM_PSHIELD], rooms[rr, C.RM_ATTBONUS], tm, hp_tab, part, pcl, cv, etabs, scratch, memo, fs,
              work, out, log)
        out[O_TURNS] += s.turn
        out[s.b_turns + room - 1] = s.turn
        if not s.won:
            s.death = room
            if log.shape[0] > 0:
                s.nl = log_event(log, s.nl, LG_END, room, s.turn, 0, 0, 0, trunc(s.coins), trunc(s.lp),
                                 trunc(s.fight_coins), 0, 0, 0)
            break
        room_won(s, rp, f.boss, rooms[rr, C.RM_CHALLENGE], out, log)
        market_room = rooms[rr, C.RM_MARKET] > 0 and rp.market_on > 0
        if room < n_rooms and (rp.rewards_on > 0 or market_room):
            # expected turn attack now and with one more die / roll (greedy, expectimax rate offers with them)
            e3 = 0.0
            e4 = 0.0
            e3p = 0.0
            if need_gain:
                e3 = c_eatt[t, s.slot, s.nd_base, 0]
                e4 = c_eatt[t, s.slot, s.nd_base, 1]
                e3p = c_eatt[t, s.slot, smin(R.MAX_DICE, s.nd_base + 1), 0]
            if rp.rewards_on > 0:
                reward(pid, s, rp, fz, owned, elig, offers, okv, vals, mods, cache, t, tm, need_gain, e3, e4, e3p,
                       out, log)
            if market_room:
                market(pid, s, rp, fz, owned, elig, offers, okv, vals, prices, mods, cache, t, tm, need_gain, e3, e4,
                       e3p, jk_wsum, out, log)
        out[s.b_lp + room - 1] = s.lp
        out[s.b_coins + room - 1] = s.coins
    end_run(s, rp, out, log)
    return s.nl


@njit(**KERNEL)
def _gain(item, n_up, n_jk, fz, rp, owned, jokers, nj, lp, maxlp, db_left, out):
    """Take an item (``economy.take_item``) outside a run: returns (lp, maxlp, jokers held, dice-bonus fights
    left); ``jokers[:nj]`` is the stack before and after. ``rp``: the rule vector (unused; ``fz.rpr`` is read)."""
    rec = np.zeros(1, RUN_DTYPE)
    s = rec[0]
    s.lp = lp
    s.maxlp = maxlp
    s.nj = nj
    s.db_left = db_left
    for q in range(nj):
        s.jokers[q] = jokers[q]
    take_item(item, n_up, n_jk, fz.up_eff, fz.rpr[0], owned, s, out)
    for q in range(s.nj):
        jokers[q] = s.jokers[q]
    return s.lp, s.maxlp, s.nj, s.db_left


@njit(cache=True, parallel=True, error_model="numpy")
def play_batch(pid, seed, start, count, fz, cache, tm, out):
    """Runs ``start .. start + count - 1`` into the rows of ``out``: one block of strided runs per cache row
    (each block owns its row of the profile cache)."""
    nblk = smin(count, cache[0].shape[0])
    n_all = fz.loadout.shape[0]
    for b in prange(nblk):
        t = np.int64(b)  # prange counts in uint64: one signature of play_run (replay passes int64) = one compile
        nolog = np.zeros((0, LOG_W), np.int64)
        sc = new_scratch(pid, n_all)
        for i in range(t, count, nblk):
            play_run(pid, seed, start + i, fz, cache, t, tm, out[i], nolog, sc)


def run_one(pid: int, seed: int, run: int, fz, cache, tm, n_cols: int, log_rows: int = 0):
    """One run outside the batch (replay), on cache row 0: its table row and event log."""
    out = np.zeros(max(n_cols, n_columns(fz)))
    log = np.zeros((log_rows, LOG_W), np.int64)
    n = play_run(pid, seed, run, fz, cache, 0, tm, out, log, new_scratch(pid, fz.loadout.shape[0]))
    return out, log[:n]


__all__ = ["N_UC", "columns", "draw_upgrade", "n_columns", "play_batch", "play_run", "run_one"]
