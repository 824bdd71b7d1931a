"""Dungeon24 bot policies: jitted decision functions dispatched by integer id.

Every decision the rules leave to a player is one dispatcher below; each takes the policy id
``pol``, the state vector ``S`` (``sim.games.dungeon24.rules``), the deciding seat ``p``, the rule
record ``rp`` and the seat's own random stream ``st`` (one-element uint64 array, ``sim.core.rng``):

- ``arrange(pol, cards, st, perm)``: the pyramid; ``perm[pos]`` = basic card at position 0..4;
- ``want_fire``: fire one more ability charge at a decision point (``rules.W_*``: start or end of the
  own turn; with ``rules.fire_timing = any_turn`` also start or end of the opponent's turn)?
- ``choose_action``: attack with active position ``f`` (returns ``f``) or deploy (returns -1);
- ``choose_blocker``: the defending creature against the attacker's fighter ``f``;
- ``want_reroll``: focus reroll of the own die, seeing both dice (attacker decides first);
- ``choose_discard``: the reserve card that pays for a focus reroll;
- ``want_counter``: activate the face-down boss early after the opponent fired (Boss-Konter).

Policies (``POLICIES``):

- ``random``: uniform over the legal choices, yes/no with probability 1/2, random pyramid.
- ``greedy``: fires every charge as soon as it may, attacks with the highest A, deploys when its best A is
  below the opponent's best V, blocks with the highest V, rerolls a die of 1-2 when the exchange
  goes against it, always counters, puts the highest A in front; pays focus with the weakest card.
- ``heuristic``: rates moves by a value scale in LP (``W_*``: LP 1, a creature ``2 + (A+V)/2``, a
  win 0.5, a charge 3, a won game 100). Attack = hit chance × (damage + creature value + win) from
  the exact 36 dice pairs (no rerolls) against the opponent's best blocker; deploy when the next
  card's attack rating over a horizon of ``H`` turns beats attacking now (``(H-1)·new > H·now``);
  blocks with the creature of least expected loss; rerolls when the chance to turn the exchange
  times its value exceeds the value of the card paid; fires Blutrausch when the hit chance is
  below 1/2 or when all held charges together make its average hit lethal (at the start of its turn;
  it asks again after each fire, so charges stack on one attack) or when the charge risks being lost
  (boss active, at any decision point), the others as soon as they may; counters when its
  best active A is below the boss's and it has at most one active creature; pyramid: strongest
  (A+V) in front, weakest in the middle.
- ``exact-exchange`` (named ``expectimax`` before issue 14; it looks at one exchange only): the
  exact expectation of the current exchange over both dice, the Blutrausch
  dice and both focus decisions (the opponent modelled as minimising), with the heuristic's value
  scale as leaf; attack vs deploy vs firing compared on it (Blutrausch: one more charge, or all held
  charges stacked, against the value of keeping them); the blocker minimises the attacker's
  exact expectation; rerolls decided exactly on it.
- ``expectimax``: searches across turns (``policies.dungeon24.search.search_turn``): its action (each fighter
  against the defender's best blocker, or a deploy), every die and focus reroll of the exchange as chance nodes,
  then the opponent's whole reply turn (curses, its best action and blocker choice, the dice), valued by
  ``win_value`` at the start of its own next turn: its chance to win, a logistic regression fitted to the
  outcomes of self-play positions (documented at the top of ``policies.dungeon24.search``); as the defender it
  picks the blocker best over the exchange and its own next turn. Charges and focus rerolls as ``heuristic``
  (which the search models), counters and the pyramid as the other rating policies.

The value scale and the ratings of ``heuristic`` and ``exact-exchange`` are in ``policies.dungeon24.rating``,
``expectimax``'s search and fitted value in ``policies.dungeon24.search``.

Adding a policy: one decision function per dispatcher (or reuse one), a ``POLICIES`` line and a
branch in each dispatcher.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from policies.dungeon24.rating import (
    RULES_TYPE,
    S_,
    W_CHARGE,
    after_defender,
    attack_value,
    best_active,
    best_attack_exact,
    best_attack_rating,
    deploy_rating,
    focus_cost_value,
    gain_of,
    hit_base,
    hit_chance,
    random_active,
    weakest_reserve,
)
from policies.dungeon24.search import search_blocker, search_turn
from sim.core.rng import below, uniform
from sim.games.dungeon24 import rules as R

RANDOM, GREEDY, HEURISTIC, EXACT_EXCHANGE, EXPECTIMAX = 0, 1, 2, 3, 4
POLICIES = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC, "exact-exchange": EXACT_EXCHANGE,
            "expectimax": EXPECTIMAX}


@njit(cache=True)
def arrange(pol: int, cards: np.ndarray, st: np.ndarray, perm: np.ndarray) -> None:
    """The pyramid of policy ``pol`` for the deck ``cards[card, 0/1]`` (A/V): fills ``perm[0..4]``.

    random: a uniform permutation; greedy: highest A first (then V); heuristic/exact-exchange: highest
    A+V first (then A), so the weakest cards wait in the middle. Ties keep the deck order.
    """
    n = R.N_BASIC
    for i in range(n):
        perm[i] = i
    if pol == RANDOM:
        for i in range(n - 1, 0, -1):  # Fisher-Yates
            j = below(st, i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        return
    for i in range(1, n):  # insertion sort, stable, by descending key
        c = perm[i]
        kc = _arrange_key(pol, cards, c)
        j = i - 1
        while j >= 0 and _arrange_key(pol, cards, perm[j]) < kc:
            perm[j + 1] = perm[j]
            j -= 1
        perm[j + 1] = c


@njit(cache=True, inline="always")
def _arrange_key(pol: int, cards: np.ndarray, c: int) -> int:
    if pol == GREEDY:
        return cards[c, 0] * 64 + cards[c, 1]
    return (cards[c, 0] + cards[c, 1]) * 64 + cards[c, 0]


# --- decisions -----------------------------------------------------------------------------


@njit(cache=True)
def want_fire(pol: int, S: np.ndarray, p: int, w: int, rp: np.record, st: np.ndarray) -> bool:
    """Fire one more charge at decision point ``w`` (``R.W_*``)? The caller checked ``rules.can_fire`` and asks
    again after each fire, so a policy stacks several charges in one window by answering yes again."""
    if pol == RANDOM:
        return uniform(st) < 0.5
    if pol == GREEDY:
        return True
    if pol == EXPECTIMAX:  # fires as the heuristic does
        pol = HEURISTIC
    ab = S[R.S_ABIL + p]
    if ab != R.AB_BLUTRAUSCH:
        return True
    boss_exposed = R.status(S, p, R.BOSS) == R.ACTIVE
    if w != R.W_START:  # Blutrausch waits for the start of the own turn, unless the boss may fall first
        return boss_exposed
    held = S[R.S_CHARGES + p]
    if pol == HEURISTIC:
        b = best_active(S, 1 - p, True)
        f = best_active(S, p, False)
        k = S[R.S_BLUT + p]
        adv = R.attack_of(S, p, f) - R.defence_of(S, 1 - p, b)
        ch = hit_chance(adv + int(3.5 * k))
        # every held charge on this attack makes the average hit lethal: fire them all (they stack)
        lethal = adv + 3.5 * (k + held * rp.abilities_blutrausch_dice) >= S[R.S_LP + 1 - p]
        return ch < 0.5 or boss_exposed or lethal
    # exact-exchange: fire when the exact gain of one more charge, or of all held charges together, beats keeping them
    without, _ = best_attack_exact(S, p, 0, rp)
    with_, _ = best_attack_exact(S, p, rp.abilities_blutrausch_dice, rp)
    keep = 0.0 if boss_exposed else W_CHARGE / 3.0
    if with_ - without > keep:
        return True
    if held < 2:
        return False
    all_, _ = best_attack_exact(S, p, held * rp.abilities_blutrausch_dice, rp)
    return all_ - without > keep * held


@njit(cache=True)
def choose_action(pol: int, S: np.ndarray, p: int, rp: np.record, st: np.ndarray) -> int:
    """Attacking position, or -1 to deploy (only when a reserve card is face down)."""
    o = 1 - p
    can_dep = R.can_deploy(S, p)
    if pol == RANDOM:
        n = R.n_active(S, p)
        if can_dep and below(st, n + 1) == n:
            return -1
        return random_active(S, p, st)
    if pol == GREEDY:
        f = best_active(S, p, False)
        if can_dep and R.attack_of(S, p, f) < R.defence_of(S, o, best_active(S, o, True)):
            return -1
        return f
    if pol == HEURISTIC:
        now, f = best_attack_rating(S, p, 3.5 * S[R.S_BLUT + p], rp)
        if can_dep and deploy_rating(S, p, now, False, rp) > 0:
            return -1
        return f
    if pol == EXPECTIMAX:
        _, act = search_turn(S, p, rp)
        return act
    now, f = best_attack_exact(S, p, 0, rp)
    if can_dep and deploy_rating(S, p, now, True, rp) > 0:
        return -1
    return f


@njit(cache=True)
def choose_blocker(pol: int, S: np.ndarray, p: int, f: int, rp: np.record, st: np.ndarray) -> int:
    """Defending position of ``p`` against the attacker's fighter ``f`` (its Blutrausch dice still unrolled)."""
    if pol == RANDOM:
        return random_active(S, p, st)
    if pol == GREEDY:
        return best_active(S, p, True)
    if pol == EXPECTIMAX:
        return search_blocker(S, p, f, rp)
    o = 1 - p
    att_a = R.attack_of(S, o, f)
    best = 1e300
    bb = -1
    for b in range(R.N_POS):
        if R.status(S, p, b) != R.ACTIVE:
            continue
        if pol == HEURISTIC:
            const, lethal = hit_base(S, o, b, rp)
            tot = 0.0
            for da in range(1, 7):
                for dd in range(1, 7):
                    tot += gain_of(const, lethal, R.exchange(att_a + int(3.5 * S[R.S_BLUT + o]) + da,
                                                             R.defence_of(S, p, b) + dd))
            v = tot / 36.0
        else:
            v = attack_value(S, o, f, b, 0, rp)
        if v < best:
            best = v
            bb = b
    return bb


@njit((types.int64, S_, types.int64, types.boolean, types.int64, types.int64, types.int64, types.int64, RULES_TYPE,
       types.uint64[::1]), cache=True)
def want_reroll(pol: int, S: np.ndarray, p: int, is_att: bool, att_base: int, dpos: int, da: int, dd: int,
                rp: np.record, st: np.ndarray) -> bool:
    """Focus reroll of ``p``'s die (caller checked ``rules.can_focus``).

    ``att_base``: the attacker's A plus its Blutrausch dice; ``dpos``: the defending position;
    ``da``/``dd``: the dice. The attacker decides first; the defender sees the attacker's final die.
    """
    att = p if is_att else 1 - p
    def_base = R.defence_of(S, 1 - att, dpos)
    hit = att_base + da > def_base + dd
    if pol == RANDOM:
        return uniform(st) < 0.5
    if pol == GREEDY:
        if is_att:
            return (not hit) and da <= 2
        return hit and dd <= 2
    if pol == EXPECTIMAX:  # rerolls as the heuristic does (its search models exactly that)
        pol = HEURISTIC
    const, lethal = hit_base(S, att, dpos, rp)
    cost = focus_cost_value(S, p, rp)
    if is_att:
        if pol == EXACT_EXCHANGE:  # exact: the defender's reply modelled as minimising
            d = 1 - att
            def_roll = R.can_focus(S, d, rp)
            c_def = focus_cost_value(S, d, rp)
            keep = after_defender(const, lethal, att_base + da, def_base, dd, def_roll, c_def)
            new = 0.0
            for a in range(1, 7):
                new += after_defender(const, lethal, att_base + a, def_base, dd, def_roll, c_def)
            return new / 6.0 - cost > keep
        if hit:  # heuristic: the chance to turn a block into a hit, at an average damage
            return False
        n = 0
        for a in range(1, 7):
            if att_base + a > def_base + dd:
                n += 1
        return n / 6.0 * gain_of(const, lethal, max(1, att_base + 4 - def_base - dd)) > cost
    # the defender (both): exact, it decides last
    keep = gain_of(const, lethal, R.exchange(att_base + da, def_base + dd))
    new = 0.0
    for x in range(1, 7):
        new += gain_of(const, lethal, R.exchange(att_base + da, def_base + x))
    return keep - new / 6.0 > cost


@njit(cache=True)
def choose_discard(pol: int, S: np.ndarray, p: int, rp: np.record, st: np.ndarray) -> int:
    """Reserve position that pays for ``p``'s focus reroll."""
    if pol == RANDOM:
        pos = R.kth_with_status(S, p, R.DOWN, below(st, R.n_reserve(S, p)), R.BOSS)
        if pos >= 0:
            return pos
    return weakest_reserve(S, p)


@njit(cache=True)
def want_counter(pol: int, S: np.ndarray, p: int, rp: np.record, st: np.ndarray) -> bool:
    """Activate ``p``'s face-down boss early after the opponent fired (caller checked it is allowed)?"""
    if pol == RANDOM:
        return uniform(st) < 0.5
    if pol == GREEDY:
        return True
    f = best_active(S, p, False)
    return R.n_active(S, p) <= 1 and R.attack_of(S, p, f) < R.attack_of(S, p, R.BOSS)
