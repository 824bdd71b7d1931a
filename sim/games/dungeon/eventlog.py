"""The event log of one run, which ``replay`` renders (``replay_text``): one int64 row per event.

Rows are ``[kind, room, turn, a, b, c, d, e, f, g, h, i]``; what ``a`` … ``i`` hold depends on the kind ``LG_*``
(see ``replay_text.render``). The kernel writes the log only when given a non-empty array (replay), so a batch
pays one length test per event. ``log_event`` has one explicit signature: every argument is an int64, so numba
compiles it once (it was compiled once per distinct mix of argument types, 33 times, before).
"""

from __future__ import annotations

from numba import njit

from sim.jit.tier import INLINE

LOG_W = 12
LG_ROOM, LG_EVENT, LG_TURN, LG_ROLL, LG_ADJ, LG_COMBO, LG_RESOLVE, LG_ENEMY, LG_END, LG_RUN, LG_LC = range(11)
LG_REWARD, LG_STOCK, LG_BUY, LG_JOKER, LG_HERO, LG_GAIN = range(11, 17)

_SIG = "int64(int64[:, ::1], int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)"


@njit(_SIG, cache=True, error_model="numpy")
def log_event(log, n, kind, room, turn, a, b, c, d, e, f, g, h, i):
    """Write row ``n`` (when the log has room) and return the new length."""
    if n >= log.shape[0]:
        return n
    row = log[n]
    row[0] = kind
    row[1] = room
    row[2] = turn
    row[3] = a
    row[4] = b
    row[5] = c
    row[6] = d
    row[7] = e
    row[8] = f
    row[9] = g
    row[10] = h
    row[11] = i
    return n + 1


@njit(cache=True, error_model="numpy", inline=INLINE)
def pack_dice(dice, nd):
    """The dice as one decimal number (3-5-5 -> 355), for the log."""
    x = 0
    for i in range(nd):
        x = x * 10 + dice[i]
    return x
