"""Kniffel scoring and state transitions: pure numba functions over count vectors.

A sheet's state is one integer key: ``mask`` (13 bits, bit ``c`` set when category ``c`` is
filled), ``up`` (upper-section subtotal capped at the bonus threshold) and ``flag`` (1 when the
Kniffel box holds the full Kniffel score, i.e. further Kniffels earn the bonus):
``key = mask << 8 | up << 1 | flag`` (``up`` < 128).

Rule numbers come from the frozen rule record ``rp``, read by config path (``rp.bonus_value``; the record's fields
are generated from the config model: ``sim.games.kniffel.config.RULES``).
"""

from __future__ import annotations

import numpy as np

from sim.games.kniffel.codes import CATEGORIES as CATEGORIES
from sim.games.kniffel.codes import CATEGORY_LABELS as CATEGORY_LABELS
from sim.games.kniffel.codes import JOKER_FORCED, JOKER_FREE, JOKER_OFF
from sim.games.kniffel.codes import JOKER_MODES as JOKER_MODES
from sim.jit.plain import njit

N_CAT = 13
DREIERPASCH, VIERERPASCH, FULL_HOUSE, KLEINE_STRASSE, GROSSE_STRASSE, KNIFFEL, CHANCE = 6, 7, 8, 9, 10, 11, 12
ALL_FILLED = (1 << N_CAT) - 1
KEY_SPACE = 1 << 21



@njit(cache=True, inline="always")
def make_key(mask: int, up: int, flag: int) -> int:
    return (mask << 8) | (up << 1) | flag


@njit(cache=True, inline="always")
def key_mask(key: int) -> int:
    return key >> 8


@njit(cache=True, inline="always")
def key_up(key: int) -> int:
    return (key >> 1) & 127


@njit(cache=True, inline="always")
def key_flag(key: int) -> int:
    return key & 1


@njit(cache=True)
def max_run(counts: np.ndarray) -> int:
    """Length of the longest run of consecutive faces present."""
    best = 0
    run = 0
    for f in range(6):
        if counts[f] > 0:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


@njit(cache=True)
def is_kniffel(counts: np.ndarray) -> bool:
    for f in range(6):
        if counts[f] == 5:
            return True
    return False


@njit(cache=True)
def kniffel_face(counts: np.ndarray) -> int:
    """Face index 0..5 of a Kniffel, or -1."""
    for f in range(6):
        if counts[f] == 5:
            return f
    return -1


@njit(cache=True)
def category_score(counts: np.ndarray, c: int, rp: np.record) -> int:
    """Score of the dice in category ``c`` by the normal rules (no joker)."""
    if c < 6:
        return counts[c] * (c + 1)
    total = 0
    most = 0
    pair = False
    triple = False
    for f in range(6):
        total += counts[f] * (f + 1)
        if counts[f] > most:
            most = counts[f]
        if counts[f] == 2:
            pair = True
        if counts[f] == 3:
            triple = True
    if c == DREIERPASCH:
        return total if most >= 3 else 0
    if c == VIERERPASCH:
        return total if most >= 4 else 0
    if c == FULL_HOUSE:
        return rp.scores_full_house if (pair and triple) else 0
    if c == KLEINE_STRASSE:
        return rp.scores_kleine_strasse if max_run(counts) >= 4 else 0
    if c == GROSSE_STRASSE:
        return rp.scores_grosse_strasse if max_run(counts) >= 5 else 0
    if c == KNIFFEL:
        return rp.scores_kniffel if most == 5 else 0
    return total  # CHANCE


@njit(cache=True)
def joker_in_play(counts: np.ndarray, mask: int, flag: int, rp: np.record) -> bool:
    """A Kniffel was rolled while the Kniffel box is filled (and the joker rule applies)."""
    if rp.joker_mode == JOKER_OFF or not (mask >> KNIFFEL) & 1 or not is_kniffel(counts):
        return False
    return flag == 1 or rp.joker_when_zero == 1


@njit(cache=True)
def must_score_now(counts: np.ndarray, mask: int, flag: int, rp: np.record) -> bool:
    """The seed's rule: with the joker in play the player may not roll again."""
    return rp.joker_stops_rolling == 1 and joker_in_play(counts, mask, flag, rp)


@njit(cache=True)
def legal(counts: np.ndarray, c: int, mask: int, flag: int, rp: np.record) -> bool:
    """May the dice be scored in category ``c``? (open box, and the forced-joker order)."""
    if (mask >> c) & 1:
        return False
    if rp.joker_mode != JOKER_FORCED or not joker_in_play(counts, mask, flag, rp):
        return True
    face = kniffel_face(counts)
    if not (mask >> face) & 1:
        return c == face  # matching upper box open: it must be used
    lower_open = False
    for k in range(6, N_CAT):
        if not (mask >> k) & 1:
            lower_open = True
    if lower_open:
        return c >= 6
    return True  # only upper boxes left: any of them, for 0


@njit(cache=True)
def box_score(counts: np.ndarray, c: int, mask: int, flag: int, rp: np.record) -> int:
    """Points written into box ``c`` (joker values included; bonuses not)."""
    s = category_score(counts, c, rp)
    if c < FULL_HOUSE or c > GROSSE_STRASSE or not joker_in_play(counts, mask, flag, rp):
        return s
    if rp.joker_mode == JOKER_FREE and not (mask >> kniffel_face(counts)) & 1:
        return s  # free-choice joker: jokers only once the matching upper box is filled
    return joker_score(c, rp)


@njit(cache=True, inline="always")
def joker_score(c: int, rp: np.record) -> int:
    """The fixed points of box ``c`` (Full House, Kleine or Große Straße): what a joker scores there."""
    if c == FULL_HOUSE:
        return rp.scores_full_house
    if c == KLEINE_STRASSE:
        return rp.scores_kleine_strasse
    return rp.scores_grosse_strasse


@njit(cache=True)
def apply_move(counts: np.ndarray, c: int, key: int, rp: np.record):
    """Score the dice in ``c`` from state ``key``.

    Returns ``(box points, upper bonus, Kniffel bonus, next key)``; the caller checks ``legal``.
    """
    mask = key_mask(key)
    up = key_up(key)
    flag = key_flag(key)
    pts = box_score(counts, c, mask, flag, rp)
    kb = 0
    if flag == 1 and rp.scores_kniffel_bonus > 0 and is_kniffel(counts):
        kb = rp.scores_kniffel_bonus
    ub = 0
    nflag = flag
    if c < 6:
        cap = rp.up_cap
        nup = min(cap, up + pts)
        if up < rp.bonus_threshold <= up + pts and rp.bonus_value > 0:
            ub = rp.bonus_value
        up = nup
    elif c == KNIFFEL:
        nflag = 1 if (pts > 0 and pts == rp.scores_kniffel) else 0
    return pts, ub, kb, make_key(mask | (1 << c), up, nflag)


@njit(cache=True, inline="always")
def apply_move_fast(counts: np.ndarray, r: int, c: int, key: int, rp: np.record, sc: np.ndarray):
    """``apply_move`` for a roll with multiset index ``r``, reading plain rolls from the score table
    ``sc[category, r]`` (the kernels' hot path); Kniffel rolls take the full rules."""
    if sc[KNIFFEL, r] > 0:
        return apply_move(counts, c, key, rp)
    mask = key_mask(key)
    up = key_up(key)
    pts = sc[c, r]
    ub = 0
    if c < 6:
        if up < rp.bonus_threshold <= up + pts and rp.bonus_value > 0:
            ub = rp.bonus_value
        up = min(rp.up_cap, up + pts)
    return pts, ub, 0, make_key(mask | (1 << c), up, key_flag(key))
