"""Dungeon24 rules: pure numba functions over one int64 state vector ``S`` (no RNG, no policy).

A pyramid has 6 positions per player: 0..2 front, 3..4 middle (the reserve, revealed in this order),
5 the boss (``BOSS``). Each position holds one card (``S_CARD``) with attack ``S_A`` and defence
``S_V`` and a status (``DOWN`` face down, ``ACTIVE``, ``FALLEN`` in combat, ``DISCARDED`` paid for
a focus reroll). Per-player fields are pairs ``S[F + p]``; per-position fields ``S[F + 6 p + pos]``.

Rule numbers come from the rule record ``rp``, generated from the config model (``rp.rules_focus_cost``:
``sim.games.dungeon24.config.RULES``); a choice field holds its place in its ``Literal`` (the codes below).
"""

from __future__ import annotations

import numpy as np

from sim.games.dungeon24.codes import *  # noqa: F403 - the sizes and codes, re-exported
from sim.games.dungeon24.codes import (
    AB_AUFERSTEHUNG,
    AB_BLUTRAUSCH,
    AB_NONE,
    AB_SCHATTENSCHMERZ,
    BOSS,
    BOSSLOSS_DEFEAT,
    COUNTER_EVERY,
    COUNTER_OFF,
    MAXT,
    N_POS,
)
from sim.jit.plain import njit

N_FRONT = 3
DOWN, ACTIVE, FALLEN, DISCARDED = 0, 1, 2, 3
STATUS_NAMES = ("face down", "active", "fallen", "discarded")

ABILITY_NAMES = ("none", "Blutrausch", "Auferstehung", "Schattenschmerz")
# the decision points at which a charge may fire ("auf Knopfdruck, wann es dir passt")
W_START, W_END, W_OPP_START, W_OPP_END = 0, 1, 2, 3
WINDOW_NAMES = ("start of its turn", "end of its turn", "start of the opponent's turn", "end of the opponent's turn")

# end reasons
END_NONE, END_LP, END_NO_CREATURES, END_BOSS, END_TURN_LIMIT = 0, 1, 2, 3, 4
END_NAMES = ("running", "lp", "no_creatures", "boss", "turn_limit")

# state layout
S_LP = 0  # [2] life points
S_WINS = 2  # [2] exchanges won
S_CHARGES = 4  # [2] ability charges held
S_LOST = 6  # [2] 1 once the ability is lost (boss fell)
S_BLUT = 8  # [2] Blutrausch dice pending for the next attack
S_USES = 10  # [2] charges fired
S_FOCUS = 12  # [2] focus rerolls taken
S_DEPLOYS = 14  # [2] deploys
S_COUNTERS = 16  # [2] boss counters (early boss activations)
S_NFALLEN = 18  # [2] depth of the fallen stack
S_ABIL = 20  # [2] ability kind of each seat
S_BOSSLOST = 22  # [2] 1 once the boss fell
S_FIRED = 24  # [2] fires so far (COUNTER_FIRST answers the first only)
S_CURSE = 26  # [2, MAXT] LP each player loses at the start of its k-th next turn (Schattenschmerz)
S_STATUS = 66  # [2, 6]
S_A = 78  # [2, 6]
S_V = 90  # [2, 6]
S_FALLEN = 102  # [2, 6] stack of fallen positions, last fallen on top
S_CARD = 114  # [2, 6] card index in the people's deck (0..4 basic, 5 boss)
S_TURN = 126  # turns played
S_TOMOVE = 127  # seat whose turn it is
S_FIRST = 128  # first attacker (roll-off winner)
S_END = 129  # END_* (END_NONE while running)
S_WINNER = 130  # winning seat, -1 for none
S_PEOPLE = 131  # [2] people index of each seat
S_CHARGED = 133  # [2] charges gained
S_SIZE = 136


@njit(cache=True)
def init_state(S: np.ndarray, rp: np.record, cards: np.ndarray, people: np.ndarray, abil: np.ndarray,
               perm: np.ndarray) -> None:
    """Fresh game: LP, pyramids (``perm[p, pos]`` = basic card at position 0..4), first cards active.

    ``cards[people, card, 0/1]`` are A/V; ``abil[p]`` the ability kind seat ``p`` plays with.
    """
    S[:] = 0
    for p in range(2):
        S[S_LP + p] = rp.start_lp
        S[S_ABIL + p] = abil[p]
        S[S_PEOPLE + p] = people[p]
        for pos in range(N_POS):
            c = perm[p, pos] if pos < BOSS else BOSS
            i = 6 * p + pos
            S[S_CARD + i] = c
            S[S_A + i] = cards[people[p], c, 0]
            S[S_V + i] = cards[people[p], c, 1]
            S[S_STATUS + i] = ACTIVE if pos < rp.start_active else DOWN
    S[S_WINNER] = -1


@njit(cache=True, inline="always")
def status(S: np.ndarray, p: int, pos: int) -> int:
    return S[S_STATUS + 6 * p + pos]


@njit(cache=True, inline="always")
def attack_of(S: np.ndarray, p: int, pos: int) -> int:
    return S[S_A + 6 * p + pos]


@njit(cache=True, inline="always")
def defence_of(S: np.ndarray, p: int, pos: int) -> int:
    return S[S_V + 6 * p + pos]


@njit(cache=True)
def n_active(S: np.ndarray, p: int) -> int:
    n = 0
    for pos in range(N_POS):
        if S[S_STATUS + 6 * p + pos] == ACTIVE:
            n += 1
    return n


@njit(cache=True)
def n_reserve(S: np.ndarray, p: int) -> int:
    """Face-down reserve cards (front and middle; the boss is never a reserve card)."""
    n = 0
    for pos in range(BOSS):
        if S[S_STATUS + 6 * p + pos] == DOWN:
            n += 1
    return n


@njit(cache=True, inline="always")  # inlined: callers pass the status and the bound as constants
def kth_with_status(S: np.ndarray, p: int, want: int, k: int, upto: int) -> int:
    """Position of ``p``'s ``k``-th card (from 0) with status ``want`` below position ``upto``, else -1."""
    for pos in range(upto):
        if S[S_STATUS + 6 * p + pos] == want:
            if k == 0:
                return pos
            k -= 1
    return -1


@njit(cache=True)
def next_reserve(S: np.ndarray, p: int) -> int:
    """The reserve card a deploy reveals (front, then middle), or -1."""
    for pos in range(BOSS):
        if S[S_STATUS + 6 * p + pos] == DOWN:
            return pos
    return -1


@njit(cache=True)
def next_reveal(S: np.ndarray, p: int) -> int:
    """The card reinforcement reveals (front, then middle, then the boss), or -1."""
    for pos in range(N_POS):
        if S[S_STATUS + 6 * p + pos] == DOWN:
            return pos
    return -1


@njit(cache=True, inline="always")
def exchange(att_total: int, def_total: int) -> int:
    """LP the defender loses: the difference when the attack is strictly greater (a hit), else 0 (block)."""
    return att_total - def_total if att_total > def_total else 0


@njit(cache=True)
def can_deploy(S: np.ndarray, p: int) -> bool:
    return next_reserve(S, p) >= 0


@njit(cache=True)
def deploy(S: np.ndarray, p: int) -> int:
    """Reveal the next reserve card as an additional active creature; returns its position (-1: none)."""
    pos = next_reserve(S, p)
    if pos >= 0:
        S[S_STATUS + 6 * p + pos] = ACTIVE
        S[S_DEPLOYS + p] += 1
    return pos


@njit(cache=True)
def can_focus(S: np.ndarray, p: int, rp: np.record) -> bool:
    return rp.rules_focus == 1 and n_reserve(S, p) >= rp.rules_focus_cost


@njit(cache=True)
def pay_focus(S: np.ndarray, p: int, pos: int, rp: np.record) -> None:
    """Pay a focus reroll: reserve card ``pos`` to the graveyard, further cost from the back of the reserve."""
    S[S_FOCUS + p] += 1
    cost = rp.rules_focus_cost
    if cost <= 0:
        return
    S[S_STATUS + 6 * p + pos] = DISCARDED
    cost -= 1
    q = BOSS - 1
    while cost > 0 and q >= 0:
        if S[S_STATUS + 6 * p + q] == DOWN:
            S[S_STATUS + 6 * p + q] = DISCARDED
            cost -= 1
        q -= 1


@njit("int64(int64[::1], int64, int64)", cache=True)  # one signature: callers pass the reason as a constant
def finish(S: np.ndarray, loser: int, reason: int) -> int:
    S[S_END] = reason
    S[S_WINNER] = 1 - loser
    return reason


@njit(cache=True)
def lose_ability(S: np.ndarray, p: int) -> None:
    S[S_LOST + p] = 1
    S[S_CHARGES + p] = 0


@njit(cache=True)
def record_fall(S: np.ndarray, p: int, pos: int) -> None:
    """Creature ``pos`` of ``p`` is fallen: its status and the fallen stack (Auferstehung takes the top)."""
    S[S_STATUS + 6 * p + pos] = FALLEN
    S[S_FALLEN + 6 * p + S[S_NFALLEN + p]] = pos
    S[S_NFALLEN + p] += 1


@njit(cache=True)
def fall(S: np.ndarray, p: int, pos: int, rp: np.record):
    """Creature ``pos`` of ``p`` falls. Returns ``(end reason, reinforcement position or -1)``.

    A fallen boss costs the ability for good (house rule) or the game (``boss_loss = defeat``).
    When the last active creature fell, the next card is revealed at once (front, middle, boss);
    nothing left to reveal loses the game.
    """
    record_fall(S, p, pos)
    if pos == BOSS:
        S[S_BOSSLOST + p] = 1
        if rp.rules_boss_loss == BOSSLOSS_DEFEAT:
            return finish(S, p, END_BOSS), -1
        lose_ability(S, p)
    if n_active(S, p) > 0:
        return END_NONE, -1
    r = next_reveal(S, p)
    if r < 0:
        return finish(S, p, END_NO_CREATURES), -1
    S[S_STATUS + 6 * p + r] = ACTIVE
    return END_NONE, r


@njit(cache=True)
def add_win(S: np.ndarray, p: int, rp: np.record) -> int:
    """One more win for ``p``; a charge at every ``charge_every`` wins while the ability lives (returns 1 then)."""
    S[S_WINS + p] += 1
    if S[S_LOST + p] == 0 and S[S_ABIL + p] != AB_NONE and S[S_WINS + p] % rp.rules_charge_every == 0:
        S[S_CHARGES + p] += 1
        S[S_CHARGED + p] += 1
        return 1
    return 0


@njit(cache=True)
def apply_hit(S: np.ndarray, att: int, dpos: int, diff: int, rp: np.record):
    """A hit by ``att`` on the defender's creature ``dpos`` by ``diff``: LP loss, +1 win, the creature falls.

    Returns ``(end reason, reinforcement position or -1)``.
    """
    d = 1 - att
    S[S_LP + d] -= diff
    add_win(S, att, rp)
    if S[S_LP + d] <= 0:  # LP decide the game; the creature still falls (a boss takes the ability along)
        record_fall(S, d, dpos)
        if dpos == BOSS:
            S[S_BOSSLOST + d] = 1
            lose_ability(S, d)
        return finish(S, d, END_LP), -1
    return fall(S, d, dpos, rp)


@njit(cache=True)
def can_fire(S: np.ndarray, p: int, rp: np.record) -> bool:
    """May ``p`` fire a charge now (a charge held, the ability alive, and it would do something)?"""
    if S[S_CHARGES + p] <= 0 or S[S_LOST + p] == 1:
        return False
    ab = S[S_ABIL + p]
    if ab == AB_AUFERSTEHUNG:
        return S[S_NFALLEN + p] > 0 and rp.abilities_auferstehung_count > 0
    return ab != AB_NONE


@njit(cache=True)
def fire(S: np.ndarray, p: int, rp: np.record) -> int:
    """Fire one charge of ``p``'s ability (caller checks ``can_fire``).

    Blutrausch: ``blutrausch_dice`` d6 join the next attack's A. Auferstehung: the last fallen
    creature(s) return active (returns the first position returned). Schattenschmerz: a curse on
    the opponent costs ``schattenschmerz_lp`` LP at the start of each of their next
    ``schattenschmerz_turns`` turns (curses stack: their schedules add up).
    """
    S[S_CHARGES + p] -= 1
    S[S_USES + p] += 1
    S[S_FIRED + p] += 1
    ab = S[S_ABIL + p]
    if ab == AB_BLUTRAUSCH:
        S[S_BLUT + p] += rp.abilities_blutrausch_dice
        return -1
    if ab == AB_AUFERSTEHUNG:
        first = -1
        for _ in range(rp.abilities_auferstehung_count):
            if S[S_NFALLEN + p] == 0:
                break
            S[S_NFALLEN + p] -= 1
            pos = S[S_FALLEN + 6 * p + S[S_NFALLEN + p]]
            S[S_STATUS + 6 * p + pos] = ACTIVE
            if first < 0:
                first = pos
        return first
    if ab == AB_SCHATTENSCHMERZ:
        o = 1 - p
        for k in range(rp.abilities_schattenschmerz_turns):
            S[S_CURSE + MAXT * o + k] += rp.abilities_schattenschmerz_lp
    return -1


@njit(cache=True)
def counter_allowed(S: np.ndarray, q: int, rp: np.record) -> bool:
    """After the opponent of ``q`` fired: may ``q`` activate its face-down boss early (Boss-Konter)?"""
    mode = rp.rules_boss_counter
    if mode == COUNTER_OFF or S[S_STATUS + 6 * q + BOSS] != DOWN:
        return False
    return mode == COUNTER_EVERY or S[S_FIRED + 1 - q] == 1


@njit(cache=True)
def activate_boss(S: np.ndarray, q: int) -> None:
    S[S_STATUS + 6 * q + BOSS] = ACTIVE
    S[S_COUNTERS + q] += 1


@njit(cache=True)
def curse_tick(S: np.ndarray, p: int, rp: np.record):
    """Start of ``p``'s turn: the curses on ``p`` cost this turn's LP. Returns ``(LP lost, end reason)``."""
    base = S_CURSE + MAXT * p
    dmg = S[base]
    for k in range(MAXT - 1):
        S[base + k] = S[base + k + 1]
    S[base + MAXT - 1] = 0
    if dmg > 0:
        S[S_LP + p] -= dmg
        if S[S_LP + p] <= 0:
            return dmg, finish(S, p, END_LP)
    return dmg, END_NONE


@njit(cache=True)
def curse_pending(S: np.ndarray, p: int, rp: np.record) -> int:
    """LP the running curses on ``p`` will still take."""
    t = 0
    for k in range(MAXT):
        t += S[S_CURSE + MAXT * p + k]
    return t
