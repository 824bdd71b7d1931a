"""Dadox's turn recursion: the best play of one turn for given bank and bust values.

Within a turn the state is (turn total ``t`` in points units, dice to throw ``n``, lock ``c``: free,
confirmation pending, or a throw obliged: a declined group, or hot dice with ``turn.hot_dice = "throw"``); every
successful throw raises ``t``, so the states are solved from high ``t`` down. ``thr[t, n - 1, need]`` is the value
of throwing ``n`` dice (``need``: the throw busts without a 1 or 5); ``Q(t, n, c)`` is the better of banking (when
``c`` is free and the opening minimum allows; ties bank) and throwing. A throw's value sums, over the outcome groups
of ``tables``, the best set-aside option. From the cap ``t = cap`` on, bank and bust values are constants X and Y.
When busting is no worse than banking the player throws on until it comes (value Y). Otherwise the player banks at
the first chance: a throw busts, or offers an option that leaves banking open (worth X), or is all-locked (a street,
whose every option obliges a throw; a throw all of whose options are hot dice to throw again) and leads to the best
locked state; at the cap those return to the cap row, which is iterated to its fixed point. Rows below the cap where
banking is worth X and no later bust more than X (past an exact target with a void overshoot; past a plain target,
where banking wins) take the same closed form, following only the all-locked groups.

Two goals give the bank and bust values:

- ``optimal-turn`` (``solve_turn``): bank value ``t``, bust value ``-t`` (Minusbetrag) or 0; turn totals above
  ``solver.turn_cap`` count as the cap (their chance is negligible: the start value does not move when the cap
  doubles). The start value is the maximum expected turn score.
- ``optimal-win`` (``pair_turn``): the turn of a player in state ``a`` against one in state ``b``, worth
  ``1 - V[b, a']`` where it banks or busts into state ``a'`` (1 for a win, ``WIN``). ``solve_win`` solves ``V``
  with it; the optimal-win policy and ``winplan`` play it against the solved ``V`` (so it lives here: they depend
  on the turn recursion, not on the win solver's code).

Speed: a throw's best options come from the shared tails of its groups' option lists (``throw_value``), and
``turn_dp`` calls each inlined helper once (every call site compiles again).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.games.dadox import rules as R
from sim.games.dadox.tables import (
    FIRST_TAB,
    LK_END,
    LK_FIRST,
    LK_GROUP,
    N_TABS,
    NL,
    QW,
    SN_NEXT,
    SN_OFF,
    SN_OPT,
    TL_GROUPS,
    build_tables,
)

NO_ARG = np.empty((0, 0), np.int64)


class Needs(NamedTuple):
    """Which ``need`` columns of ``thr`` the rules use (``need_range``): ``later`` (every later throw needs a 1 or a 5)
    and the columns ``need_lo .. need_hi``."""

    later: int
    need_lo: int
    need_hi: int


class TurnWork(NamedTuple):
    """What a turn's recursion reads and fills: the bank and bust values and whether banking is allowed, per turn
    total (``bank_val``, ``bank_ok``, ``bust_val``); the throw values ``thr[t, n - 1, need]`` and the flat Q table
    ``q`` (``(cap + tb.go_pad + 1) * QW`` entries); the chosen option of each outcome group ``arg[t, g]`` (recorded
    when it has rows) and ``throw_value``'s scratch ``sv``, ``sa`` (``tail_scratch``: arguments, not allocated in
    the recursion, since numba counts references to a local array in every inlined ``throw_value``)."""

    bank_val: np.ndarray
    bank_ok: np.ndarray
    bust_val: np.ndarray
    thr: np.ndarray
    q: np.ndarray
    arg: np.ndarray
    sv: np.ndarray
    sa: np.ndarray


class Pairs(NamedTuple):
    """The two-player states a pair's turn moves between: the chances to win ``V[a, b]``, where a bank or a bust at
    each turn total leads (``bank_to``, ``bust_to``: ``solve_win.win_structure``) and each state's cap row."""

    V: np.ndarray
    bank_to: np.ndarray
    bust_to: np.ndarray
    cap: np.ndarray


# --- the turn recursion ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def throw_value(t, tab, bust_v, q, tb, arg, sv, sa):
    """Expected value of one throw from turn total ``t`` (table ``tab``), best option per outcome.

    ``q`` is the flat Q table (rows above the cap repeat it); ``arg[t, g]`` records the chosen
    option of each outcome group when ``arg`` has rows (ties: the first, i.e. more points).
    The maxima come from the table's tail nodes (``tables``: ``Tables.tails``), shorter tails first, into the
    scratch ``sv`` (value) and ``sa`` (option): a node's head beats its rest unless the rest is larger,
    which is the first best option of the list, as a scan of it would find.
    """
    base = t * QW
    record = arg.shape[0] > 0
    nodes = TL_GROUPS + tb.g_prob.shape[0]
    for k in range(tb.tails[tab], tb.tails[tab + 1]):
        j = np.uint64(nodes + 3 * k)  # unsigned: no negative-index wraparound on these loads
        v = q[np.uint64(base + tb.tails[j + SN_OFF])]
        nx = np.uint64(tb.tails[j + SN_NEXT])
        w = sv[nx]
        if w > v:
            v = w
            if record:
                sa[k] = sa[nx]
        elif record:
            sa[k] = tb.tails[j + SN_OPT]
        sv[k] = v
    acc = tb.tab_bust[tab] * bust_v
    for g in range(tb.tab_g[tab], tb.tab_g[tab + 1]):
        k = np.uint64(tb.tails[TL_GROUPS + g])
        acc += tb.g_prob[g] * sv[k]
        if record:
            arg[t, g] = sa[k]
    return acc


@njit(cache=True, inline="always")
def best_locked(t, j, q, tb):
    """(value, option) of the best option of the all-locked group ``tb.lk_g[j]`` thrown at turn total ``t``."""
    best = -np.inf
    bo = -1
    for o in range(tb.lk_g[j, LK_FIRST], tb.lk_g[j, LK_END]):
        v = q[t * QW + tb.go_off[o]]
        if v > best:
            best = v
            bo = o
    return best, bo


@njit(cache=True, inline="always")
def q_row(t, thr, bank_val, bank_ok, later, need_hi, q):
    """Q at turn total ``t`` for every (dice to throw, lock): bank when free, allowed and not worse."""
    for n in range(1, R.N_DICE + 1):
        base = t * QW + (n - 1) * NL
        v = thr[t, n - 1, later]
        q[base + R.LOCK_THROW] = v
        q[base + R.LOCK_CONFIRM] = thr[t, n - 1, need_hi]
        if bank_ok[t] and bank_val[t] >= v:
            v = bank_val[t]
        q[base + R.LOCK_FREE] = v


@njit(cache=True, inline="always")
def closed_from(cap, bank_val, bank_ok, bust_val):
    """First turn total from which every row has the cap row's closed form (``cap`` if none below).

    That holds where banking is allowed and worth the same X as at the cap, and no bust from there
    on is worth more than X: the player banks at the first chance, or throws on until busting when
    that is worth more (only at the cap).
    """
    x = bank_val[cap]
    t = cap
    if not bank_ok[cap] or bust_val[cap] > x:
        return t
    while t > 1 and bank_ok[t - 1] and bank_val[t - 1] == x and bust_val[t - 1] <= x:
        t -= 1
    return t


@njit(cache=True, inline="always")
def closed_row(t, x, bust_v, tb, need_lo, need_hi, thr, q):
    """``thr[t]`` of a closed-form row: a throw busts, or allows banking X, or (an all-locked group)
    leads to the best locked state above (``q`` rows above ``t`` are final). Returns the largest change."""
    delta = 0.0
    for n in range(1, R.N_DICE + 1):
        for need in range(need_lo, need_hi + 1):
            tab = (n - 1) * 2 + need
            v = tb.tab_bust[tab] * bust_v + tb.tab_free[tab] * x
            for j in range(tb.tab_lk[tab], tb.tab_lk[tab + 1]):
                v += tb.g_prob[tb.lk_g[j, LK_GROUP]] * best_locked(t, j, q, tb)[0]
            delta = max(delta, abs(v - thr[t, n - 1, need]))
            thr[t, n - 1, need] = v
    return delta


@njit(cache=True)
def tail_scratch(tb):
    """(sv, sa): ``throw_value``'s scratch, one entry per tail node and the sentinel (-inf) after them."""
    k = tb.tails[N_TABS]
    sv = np.empty(k + 1)
    sv[k] = -np.inf
    sa = np.full(k + 1, -1, np.int64)
    return sv, sa


@njit(cache=True)
def pair_scratch(tm, tb, arg):
    """What ``pair_turn`` fills (``TurnWork``, recording its choices in ``arg``), for caps below ``tm``."""
    sv, sa = tail_scratch(tb)
    return TurnWork(np.empty(tm), np.empty(tm, np.bool_), np.empty(tm), np.empty((tm, R.N_DICE, 2)),
                    np.empty((tm + tb.go_pad + 1) * QW), arg, sv, sa)


CAP_SWEEPS = 200  # the cap row's fixed point (all-locked throws from the cap return to it)


@njit(cache=True)
def turn_dp(cap, tb, need, w):
    """Fill ``w.thr[0..cap]`` and ``w.q`` for a turn with the bank/bust values of ``w``; returns the start value.

    ``w.arg`` (rows: turn totals, columns: outcome groups) gets the best options of the rows below ``closed_from``
    when it has rows. ``cap`` >= 1.
    Turn totals above the cap count as the cap, so an all-locked throw at the cap returns to the cap
    row: that row is iterated to its fixed point (its locked share is a few per cent).
    One row loop with one call of each inlined helper (each call site is compiled again): the cap row
    passes until its fixed point, closed-form rows below it, then full rows (row 0 also the first throw).
    """
    later, need_lo, need_hi = need
    bank_val, bank_ok, bust_val, thr, q, arg, sv, sa = w
    x = bank_val[cap]
    closed = closed_from(cap, bank_val, bank_ok, bust_val)
    throw_on = x < bust_val[cap]  # busting beats banking: throw on until it comes
    for n in range(1, R.N_DICE + 1):
        for need in range(need_lo, need_hi + 1):
            thr[cap, n - 1, need] = bust_val[cap] if throw_on else x
    # closed_row passes at the cap (without all-locked groups one settles it)
    cap_passes = 0 if throw_on else (CAP_SWEEPS if tb.lk_g.shape[0] > 0 else 1)
    start = 0.0
    for t in range(cap, -1, -1):
        p = 0
        delta = 0.0
        while True:
            if t < closed:
                for tab in range(N_TABS if t == 0 else FIRST_TAB):  # (n - 1) * 2 + need, then the first throw
                    need = tab % 2
                    if tab < FIRST_TAB and (need < need_lo or need > need_hi):
                        continue
                    v = throw_value(t, tab, bust_val[t], q, tb, arg, sv, sa)
                    if tab == FIRST_TAB:
                        start = v
                    else:
                        thr[t, tab // 2, need] = v
            elif t < cap or p > 0:
                delta = closed_row(t, x, bust_val[t], tb, need_lo, need_hi, thr, q)
            q_row(t, thr, bank_val, bank_ok, later, need_hi, q)
            if t < cap:
                break
            for r in range(cap + 1, cap + tb.go_pad + 1):  # rows above the cap repeat it
                for i in range(QW):
                    q[r * QW + i] = q[cap * QW + i]
            if p == cap_passes or (p > 0 and delta <= 1e-15 * (1.0 + abs(x))):
                break
            p += 1
    return start


def need_range(rp: np.record) -> Needs:
    """Which ``need`` columns of ``thr`` the rules use."""
    later = int(rp.turn_later_throws_need_1_or_5)
    need_hi = 1 if (later or rp.turn_confirm) else 0
    return Needs(later, later, need_hi)


# --- optimal-turn ---------------------------------------------------------------------------------


class TurnSolution(NamedTuple):
    """Per opened status: ``thr[opened, t, n - 1, need]``, the flat Q table and the start value."""

    thr: np.ndarray
    q: np.ndarray
    value: np.ndarray  # the maximum expected turn score (points)
    cap: int


@njit(cache=True)
def _turn_terms(cap, unit, subtract, opening_units, opened, bank_val, bank_ok, bust_val):
    for t in range(cap + 1):
        bank_val[t] = t * unit
        bank_ok[t] = opened or t >= opening_units
        bust_val[t] = -t * unit if subtract else 0.0


def solve_turn(rp: np.record, turn_cap: int) -> TurnSolution:
    """The maximum expected turn score (points) and its throw table, for opened and unopened players."""
    tb = build_tables(rp)
    unit = int(rp.unit)
    opening = -(-int(rp.turn_opening_minimum) // unit)
    cap = max(turn_cap // unit, opening, 1)
    need = need_range(rp)
    thr = np.zeros((2, cap + 1, R.N_DICE, 2))
    q = np.zeros((2, (cap + tb.go_pad + 1) * QW))
    value = np.zeros(2)
    bank_val, bank_ok, bust_val = np.zeros(cap + 1), np.zeros(cap + 1, np.bool_), np.zeros(cap + 1)
    for opened in (1, 0):
        if opened == 0 and opening == 0:
            thr[0] = thr[1]
            q[0] = q[1]
            value[0] = value[1]
            continue
        subtract = rp.bust_penalty == R.PENALTY_SUBTRACT
        _turn_terms(cap, unit, subtract, opening, opened == 1, bank_val, bank_ok, bust_val)
        w = TurnWork(bank_val, bank_ok, bust_val, thr[opened], q[opened], NO_ARG, *tail_scratch(tb))
        value[opened] = turn_dp(cap, tb, need, w)
    return TurnSolution(thr, q, value, cap)


# --- optimal-win: one pair's turn against V -------------------------------------------------------

WIN = -2  # bank_to (``solve_win.win_structure``): the bank wins the game
NO_BANK = -1  # bank_to: banking is not allowed (opening minimum)


@njit(cache=True)
def pair_turn(a, b, pairs, tb, need, w):
    """The turn of the player in state ``a`` against ``b``: fills ``w`` (``pair_scratch``); returns the win chance."""
    V, bank_to, bust_to, cap = pairs
    bank_val, bank_ok, bust_val = w.bank_val, w.bank_ok, w.bust_val
    c = cap[a]
    for t in range(c + 1):
        k = bank_to[a, t]
        bank_ok[t] = k != NO_BANK
        bank_val[t] = 1.0 if k == WIN else (1.0 - V[b, k] if k >= 0 else 0.0)
        bust_val[t] = 1.0 - V[b, bust_to[a, t]]
    return turn_dp(c, tb, need, w)
