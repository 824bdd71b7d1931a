"""The Würfel Dungeon run kernel: whole runs (10 rooms, path choices, fights, rewards, markets) under a policy.

A run reads as the seed's order of play, one compiled phase function per step of a room:

1. ``room.enter_room``: the map draw (third path card, Geheimnis event, enemy), the path card and its event;
2. ``room.refresh_profile``: the loadout's combo values and profile tables (only when the loadout changed);
3. ``fight.fight``: the fight, turn by turn: ``begin_fight``, then each turn the player's steps (``player``: open
   the turn, roll and hold, extra rolls, set faces, a heal joker, assign), ``resolve`` and ``enemy_turn``;
4. ``after``: ``room_won`` (the win's coins and the room's challenge), ``take_reward``, ``visit_market``.

The phases hand the run on in one numpy record (``runstate.RUN_DTYPE``, read as ``rs.lp``): passed by pointer, no
reference count; the fight's steps hand the fight on in a record on the stack (``runstate.new_fight``), which LLVM
keeps in registers. The phases and the fight's steps are inlined in both tiers (one call site each); every other
helper is ``inline=INLINE`` (``sim.jit.tier``): inlined in the full tier, called in the quick one. ``play_run`` rebinds
its array arguments borrowed (``sim.jit.borrow``: no atomic reference counts) and reads its work arrays by name
(``scratch.Scratch``), which is what keeps the phases as fast as one function (CONTRIBUTING.md, kernel split).

Every policy decision goes through one dispatcher per decision kind (``policies.dungeon.bots``: ``decide_path``,
``decide_event``, ``decide_keep``, ``decide_assign`` …, ``decide_reward``, ``decide_buy``). The row layout is in
``table``, the event log in ``eventlog``, the game's random draws (intents, offers, jokers) in ``draws``.

One run draws only from ``sim.core.rng`` streams keyed by (seed, run, purpose, room): the map of room ``r`` (third path
card, Geheimnis event, enemy) from (1, r), the dice of room ``r``'s fight from (2, r), the policy's own random
choices from (3, 0), Glücksklee crits from (4, r), the enemy's random choices (intent draws, cursed dice) from
(5, r), the reward offers after room ``r`` from (6, r) and the market after room ``r`` from (7, r); below full
skill (``[skill]``) the lapse coins of every decision from (``SKILL_STREAM``, 0) (``policies.dungeon.skill``). Every
policy therefore meets the same rooms, and a table does not depend on chunking or threads.

``play_run`` plays one run and writes its row of the per-run table (``table.columns``); with a non-empty ``log``
it also writes the event log that ``replay`` renders (the same code path). ``play_block``, the one compiled entry to
a run, plays it over a block of runs: ``runs.play_batch`` one block per thread (and the ``rollout`` policy's driver
over it), ``runs.run_one`` one run for replay.

The run's progression state: the loadout (``owned`` counts of the rows of ``up_eff``: upgrades, then talents)
folded into ``mods`` (columns ``rows.EFF``), which the fight reads for every effect; the combo values ``cv`` of the
loadout and Opferaltar bonus; the shown partitions and hold tables of its profile key from the per-thread cache
(``tables.lookup``); the joker stack (the last one is the one the Joker-Händler takes); dice-bonus fights left.
Progression order after a won room: win coins (and the room's challenge), the reward (pick 1 of
``rewards.offers``; none after the last room), then the Tagesmarkt after the market rooms.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.dungeon.skill import full_skill
from policies.skill import SKILL_STREAM
from sim.core.rng import stream_key
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.after import (
    expected_attack,
    gain,  # noqa: F401 - re-exported for tests
    room_won,
    take_reward,
    visit_market,
)
from sim.games.dungeon.draws import draw_upgrade  # noqa: F401 - re-exported for tests
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
    pack_dice,
)
from sim.games.dungeon.fight import fight
from sim.games.dungeon.rollctl import RC_DEC, RC_HIT
from sim.games.dungeon.room import enter_room, refresh_profile
from sim.games.dungeon.rows import EFF
from sim.games.dungeon.runstate import Control, Player, Profiles, Written
from sim.games.dungeon.table import (  # noqa: F401 - the row layout, re-exported for game and tests
    FIXED,
    N_FIXED,
    N_UC,
    O_ADJUSTS,
    O_ALTARS,
    O_CHALLENGES,
    O_COINS,
    O_CRITS,
    O_DEALT,
    O_DEATH,
    O_DICE_BONUS,
    O_EARNED,
    O_FIGHTS,
    O_HEALED,
    O_HERO,
    O_JK_GAINED,
    O_JK_HEAL,
    O_JK_REROLL,
    O_JK_SET,
    O_JK_SOLD,
    O_JK_USED,
    O_LC,
    O_LP,
    O_MAXLP,
    O_MK_BUYS,
    O_MK_SPENT,
    O_POISON,
    O_REWARDS,
    O_ROLLS,
    O_ROOMS,
    O_SCORE,
    O_SECONDS,
    O_STOLEN,
    O_TAKEN,
    O_TRUHEN,
    O_TURNS,
    O_UPGRADES,
    O_WIN,
    PATH_KINDS,
    UC_BOUGHT,
    UC_FIRST,
    UC_OFFERED,
    UC_PICKED,
    UC_TOOK_FIRST,
    UP_COLS,
    columns,
    n_columns,
)
from sim.jit.borrow import borrow
from sim.jit.scalar import smax, trunc
from sim.jit.tier import INLINE


@njit(cache=True, error_model="numpy", inline=INLINE)
def start_run(pid, seed, run, fz, rs, out, sc, rc):
    """The run before room 1: an empty row (LP and coins by room NaN until reached), the starting loadout folded,
    full LP, the starting coins and jokers, the policy's and the skill's streams, the row's column groups."""
    rp = fz.rp[0]
    n_rooms = trunc(rp.rooms_count)
    n_mk = 0
    for r in range(n_rooms):
        n_mk += fz.rooms[r, C.RM_MARKET]
    rs.b_lp = N_FIXED
    rs.b_coins = N_FIXED + n_rooms
    rs.b_turns = N_FIXED + 2 * n_rooms
    rs.b_combo = N_FIXED + 3 * n_rooms
    rs.b_path = rs.b_combo + R.N_KIND
    rs.b_mk = rs.b_path + 4
    rs.b_up = rs.b_mk + n_mk
    for j in range(out.shape[0]):
        out[j] = 0.0
    for r in range(n_rooms):
        out[rs.b_lp + r] = np.nan
        out[rs.b_coins + r] = np.nan
    owned = sc.owned
    mods = sc.mods
    for u in range(owned.shape[0]):
        owned[u] = fz.loadout[u] if u < fz.loadout.shape[0] else 0
    R.fold_mods(fz.up_eff, owned, mods)
    rs.maxlp = rp.start_lp + mods[EFF.max_lp]
    rs.lp = rs.maxlp
    rs.coins = rp.start_coins + rp.talent_coins
    rs.altar = trunc(rp.loadout_altar)
    rs.seconds = 0.0
    sc.st_pol[0] = stream_key(seed, run, 3, 0)  # the policy's own random choices
    rs.sa = 0  # purpose-key offset of the streams keyed from now on: 0 but in a rollout's continuation
    if rc.shape[0] > 0:  # under rollout control (``rollctl``)
        rc[RC_DEC] = 0
        rc[RC_HIT] = 0
    # the skill level (``policies.dungeon.skill``): below 1 each decision may lapse into random's move
    if not full_skill(pid, rp.skill_level_ppm):
        sc.st_sk[0] = stream_key(seed, run, SKILL_STREAM, 0)
    jokers = sc.jokers
    nj = 0
    for q in range(fz.start_jokers.shape[0]):
        jokers[nj] = fz.start_jokers[q]
        nj += 1
    rs.nj = nj
    rs.db_left = 0
    rs.truhe_mask = 0
    rs.mk_index = 0
    rs.nl = 0
    rs.dirty = True
    rs.slot = 0
    rs.k_att = np.nan  # the effects the combo values were last computed for
    rs.k_altar = -1
    rs.k_sh = np.nan
    rs.k_he = np.nan
    rs.k_pm = np.nan
    rs.k_lk = np.nan


@njit(cache=True, error_model="numpy", inline="always")  # one call site: ``play_block``
def play_run(pid, seed, run, fz, cache, t, tm, out, log, sc, forced, rc):
    """Play run ``run``; fill ``out`` (one table row); returns the number of log rows written.

    ``cache``: the profile-table cache (``tables.new_cache``), of which this run uses thread row ``t``;
    ``sc``: work arrays from ``new_scratch`` (reused between runs of one thread); ``forced``, ``rc``: the rollout
    control (``rollctl``: forced run-level choices, continuation salt, stop at the next decision), empty for a
    plain run."""
    fz, cache, tm, sc = borrow(fz), borrow(cache), borrow(tm), borrow(sc)
    out, log, forced, rc = borrow(out), borrow(log), borrow(forced), borrow(rc)
    rp = fz.rp[0]
    rooms = fz.rooms
    n_rooms = trunc(rp.rooms_count)
    rs = sc.run[0]
    pl, pf = Player(pid, seed, run), Profiles(cache, t, tm)
    wr, ctl = Written(out, log), Control(forced, rc)
    start_run(pid, seed, run, fz, rs, out, sc, rc)
    rooms_cleared = np.int64(0)  # not a literal 0: one compile of R.score
    death = 0
    for room in range(1, n_rooms + 1):
        if enter_room(pl, room, fz, rs, sc, wr, ctl):
            return rs.nl
        refresh_profile(fz, rs, sc, pf)
        fight(pl, room, fz, rs, sc, pf, wr)
        if not rs.won:
            death = room
            if log.shape[0] > 0:
                rs.nl = log_event(log, rs.nl, LG_END, room, rs.turn, 0, 0, 0, trunc(rs.coins), trunc(rs.lp),
                                  trunc(rs.fight_coins), 0, 0, 0)
            break
        rooms_cleared = room
        room_won(room, fz, rs, out, log)
        market = rooms[room - 1, C.RM_MARKET] > 0 and rp.market_enabled > 0
        if room < n_rooms and (rp.rewards_enabled > 0 or market):
            expected_attack(pid, rs, cache, t)
            if rp.rewards_enabled > 0:
                if take_reward(pl, room, fz, rs, sc, pf, wr, ctl):
                    return rs.nl
            if market:
                if visit_market(pl, room, fz, rs, sc, pf, wr, ctl):
                    return rs.nl
        out[rs.b_lp + room - 1] = rs.lp
        out[rs.b_coins + room - 1] = rs.coins
    lp = rs.lp
    maxlp = rs.maxlp
    coins = rs.coins
    seconds = rs.seconds
    nl = rs.nl
    win = rooms_cleared == n_rooms
    out[O_WIN] = 1.0 if win else 0.0
    out[O_ROOMS] = rooms_cleared
    out[O_DEATH] = death
    out[O_LP] = smax(lp, 0.0)
    out[O_MAXLP] = maxlp
    out[O_COINS] = coins
    out[O_SECONDS] = seconds
    out[O_SCORE] = R.score(rooms_cleared, smax(lp, 0.0), seconds, win, rp.score_per_room, rp.score_per_lp,
                           rp.score_time_budget, rp.score_win, rp.difficulty_points)
    if log.shape[0] > 0:
        # the time to the tenth as rounded (409.7 s: the score follows from it), not cut (409.6 s)
        nl = log_event(log, nl, LG_RUN, 0, 0, trunc(win), rooms_cleared, trunc(out[O_SCORE]),
                       R.round_half_up(seconds * 10), 0, 0, 0, 0, 0)
    return nl


@njit(cache=True, nogil=True, error_model="numpy")
def play_block(pid, seed, start, first, count, stride, t, fz, cache, tm, out, log, sc, forced, rc):
    """Runs ``start + i`` for ``i`` in ``range(first, count, stride)`` into rows ``out[i]``, on cache row ``t``;
    returns the log length of the last one. The one compiled entry to a run (``play_run`` is inlined here): the
    batch (one block per thread, ``runs.play_batch``), the replay (one run, with a log) and the rollout's
    continuations all call it with the same argument types, so a run's code compiles and is optimised once
    (a kernel calling a compiled kernel links a copy of its code and optimises it again). Releases the GIL: the
    batch's blocks run in threads of their own."""
    nl = np.int64(0)
    for i in range(first, count, stride):
        nl = play_run(pid, seed, start + i, fz, cache, t, tm, out[i], log, sc, forced, rc)
    return nl


__all__ = ["columns", "draw_upgrade", "n_columns", "play_block", "play_run"]
