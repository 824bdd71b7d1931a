"""Dadox scoring and turn rules: pure numba functions over face-count vectors and ints.

A throw or a selection of dice is a count vector ``c[0..5]`` (how many 1s..6s). Rule numbers come
from the frozen rule record ``rp``, read by config path (``rp.scoring_street``; the record's fields are generated
from the config model: ``sim.games.dadox.config.RULES``).

Scoring groups come from one throw: a single 1 or 5, three equal dice (three 1s: ``triple_1``,
three x: ``triple_factor * x``), with ``kind_doubling`` four/five/six equal dice (the triple's value
doubled per extra die), the street 1-2-3-4-5-6 and, as a variant, three pairs. Every die set aside
must belong to a group, and a selection scores its best grouping (four 1s: 1000 + 100; six equal
dice: two triples, or with doubling the six of a kind when that is worth more).

What a selection obliges (its *lock*): ``LOCK_FREE`` the player may bank; ``LOCK_CONFIRM`` a strong
selection (street, two triples, a triple in the turn's first throw) must be confirmed: no bank, and
the next throw busts without a 1 or 5; ``LOCK_THROW`` no bank, the next throw is an ordinary one: a
declined triple or street (only single 1s and 5s set aside from a throw that holds one), or with
``turn.hot_dice = "throw"`` hot dice (every die of the throw set aside: all six are thrown again).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.dadox.codes import N_DICE as N_DICE
from sim.games.dadox.codes import OVERSHOOT_SUBTRACT as OVERSHOOT_SUBTRACT
from sim.games.dadox.codes import OVERSHOOT_VOID, PENALTY_LOSE
from sim.games.dadox.codes import PENALTY_SUBTRACT as PENALTY_SUBTRACT

LOCK_FREE, LOCK_CONFIRM, LOCK_THROW = 0, 1, 2
N_LOCKS = 3


@njit(cache=True)
def triple_value(f: int, rp: np.record) -> int:
    """Three dice showing face ``f + 1``."""
    return rp.scoring_triple_1 if f == 0 else rp.scoring_triple_factor * (f + 1)


@njit(cache=True)
def single_value(f: int, rp: np.record) -> int:
    """One die showing face ``f + 1`` on its own (0: not a scoring group)."""
    if f == 0:
        return rp.scoring_single_1
    if f == 4:
        return rp.scoring_single_5
    return 0


@njit(cache=True)
def kind_value(f: int, g: int, rp: np.record) -> int:
    """One group of ``g`` >= 3 equal dice (-1 where the rules have no such group)."""
    if g == 3:
        return triple_value(f, rp)
    if rp.scoring_kind_doubling == 1:
        return triple_value(f, rp) << (g - 3)
    return -1


@njit(cache=True)
def face_score(f: int, c: int, rp: np.record) -> int:
    """Best score of ``c`` dice all showing face ``f + 1``, each in a group (-1: impossible)."""
    if c == 0:
        return 0
    single = single_value(f, rp)
    best = c * single if single > 0 else -1
    for g in range(3, c + 1):  # one group of g, the rest singles
        k = kind_value(f, g, rp)
        if k < 0 or (c > g and single == 0):
            continue
        best = max(best, k + (c - g) * single)
    if c == 6:  # two triples
        best = max(best, 2 * triple_value(f, rp))
    return best


@njit(cache=True)
def is_street(counts: np.ndarray) -> bool:
    for f in range(6):
        if counts[f] != 1:
            return False
    return True


@njit(cache=True)
def is_three_pairs(counts: np.ndarray) -> bool:
    pairs = 0
    for f in range(6):
        if counts[f] == 2:
            pairs += 1
    return pairs == 3


@njit(cache=True)
def selection_score(counts: np.ndarray, rp: np.record) -> int:
    """Points of setting these dice aside (their best grouping); -1 if some die is in no group."""
    n = 0
    for f in range(6):
        n += counts[f]
    if n == 0:
        return -1
    best = -1
    if rp.scoring_street > 0 and is_street(counts):
        best = rp.scoring_street
    if rp.scoring_three_pairs > 0 and is_three_pairs(counts):
        best = max(best, rp.scoring_three_pairs)
    total = 0
    for f in range(6):
        s = face_score(f, counts[f], rp)
        if s < 0:
            return best
        total += s
    return max(best, total)


@njit(cache=True)
def is_strong(counts: np.ndarray, first: bool, rp: np.record) -> bool:
    """Must this selection be confirmed? Street, two triples, or in the turn's first throw a triple
    (every triple with ``turn.confirm_first_throw_triples``, else only three 1s)."""
    if rp.turn_confirm == 0:
        return False
    if rp.scoring_street > 0 and is_street(counts):
        return True
    kinds = 0
    for f in range(6):
        if counts[f] >= 3:
            kinds += 1
        if counts[f] == 6:
            kinds += 2
    if kinds >= 2:
        return True
    if not first:
        return False
    return counts[0] >= 3 or (rp.turn_confirm_first_throw_triples == 1 and kinds >= 1)


@njit(cache=True)
def holds_triple_or_street(throw: np.ndarray, rp: np.record) -> bool:
    """Does the throw offer a triple (three or more equal dice) or, when it scores, a street?"""
    for f in range(6):
        if throw[f] >= 3:
            return True
    return rp.scoring_street > 0 and is_street(throw)


@njit(cache=True)
def only_singles(sel: np.ndarray) -> bool:
    """Only 1s and 5s, each scored alone (fewer than three of either)."""
    for f in (1, 2, 3, 5):
        if sel[f] > 0:
            return False
    return sel[0] < 3 and sel[4] < 3


@njit(cache=True)
def is_hot(sel: np.ndarray, throw: np.ndarray) -> bool:
    """Hot dice: every die of the throw set aside."""
    for f in range(6):
        if sel[f] != throw[f]:
            return False
    return True


@njit(cache=True)
def lock_of(sel: np.ndarray, throw: np.ndarray, first: bool, rp: np.record) -> int:
    """What setting ``sel`` aside from ``throw`` obliges: ``LOCK_FREE``, ``LOCK_CONFIRM`` or ``LOCK_THROW``
    (hot dice under ``turn.hot_dice = "throw"``: all six are thrown again; after a strong group it is the
    confirmation throw)."""
    if is_strong(sel, first, rp):
        return LOCK_CONFIRM
    if rp.turn_decline_forces_throw == 1 and only_singles(sel) and holds_triple_or_street(throw, rp):
        return LOCK_THROW
    if rp.hot_throw == 1 and is_hot(sel, throw):
        return LOCK_THROW
    return LOCK_FREE



@njit(cache=True)
def has_1_or_5(counts: np.ndarray) -> bool:
    return counts[0] > 0 or counts[4] > 0


@njit(cache=True)
def needs_1_or_5(first: bool, confirming: bool, rp: np.record) -> bool:
    """Does this throw bust without a 1 or 5? (later throws under the rule; confirmation throws)."""
    return confirming or (not first and rp.turn_later_throws_need_1_or_5 == 1)


@njit(cache=True)
def busts(counts: np.ndarray, need_1_or_5: bool, rp: np.record) -> bool:
    """No scoring group can be set aside from this throw (or it lacks a required 1 or 5)."""
    if has_1_or_5(counts):
        return False
    if need_1_or_5:
        return True
    for f in range(6):
        if counts[f] >= 3:
            return False
    if rp.scoring_three_pairs > 0 and is_three_pairs(counts):
        return False
    return True  # a street holds a 1


@njit(cache=True)
def may_bank(opened: bool, turn_total: int, locked: bool, rp: np.record) -> bool:
    """Banking is allowed: the last selection obliges no throw (confirmation or a declined group) and
    the opening minimum is met (once per player)."""
    return not locked and (opened or turn_total >= rp.turn_opening_minimum)


@njit(cache=True)
def bank_result(score: int, turn_total: int, rp: np.record):
    """Bank ``turn_total`` on ``score``. Returns (new score, won, overshot)."""
    target = rp.goal_target
    s = score + turn_total
    if rp.goal_exact == 0:
        return s, s >= target, False
    if s == target:
        return s, True, False
    if s < target:
        return s, False, False
    if rp.goal_overshoot == OVERSHOOT_VOID:
        return score, False, True
    return floor_score(score - turn_total, rp), False, True


@njit(cache=True)
def bust_result(score: int, turn_total: int, rp: np.record) -> int:
    """Score after a bust with ``turn_total`` on the table (Minusbetrag or a lost turn)."""
    if rp.bust_penalty == PENALTY_LOSE:
        return score
    return floor_score(score - turn_total, rp)


@njit(cache=True)
def floor_score(score: int, rp: np.record) -> int:
    if rp.bust_floor_zero == 1 and score < 0:
        return 0
    return score
