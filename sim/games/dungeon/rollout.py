"""The ``rollout`` policy: at each run-level decision, K continuations per option with a base policy (issue 18).

At every free run-level decision (path card, Geheimnis event, reward pick, each market purchase: the codes of
``rollctl``) the rollout plays ``k`` continuations of every option with the base policy (``[rollout] base``,
``k``) and takes the option with the most wins (ties: the highest total score; then the lowest code); an option
that can no longer reach the best wins so far is cut off early (``option_values``: the same choice, cheaper). Option o's
continuation j replays the run from its start with the choices so far and o forced, and salt j re-keys every
random draw after the decision (``rollctl``): the same k futures for every option (common random numbers), none
of them the real one. In-fight decisions are the base policy's. This is the classic rollout improvement: in
expectation it is never worse than its base, which is the one option of every decision it compares against.

Where it looks: what a player sees before a decision is the same in every continuation (the path cards, the
offers shown before a reward or market decision); what the path cards hide (the Geheimnis event and the room's
enemy) is drawn again from the salted map stream once the card is chosen, so the rollout never peeks behind a
card. The market is a chain of decisions "leave, or buy one affordable item in stock" (one per purchase), the
options the kernel enumerates; a joker pack's jokers are drawn when bought, from the salted stream in a continuation.

No state copy, no recursion: ``rollout_run`` finds the next decision (``play_run`` with the choices so far forced
and ``RC_STOP``), scores its options, appends the best, and repeats; the real run is then ``play_run`` with every
choice forced and no salt, so a replay (``run_one``) plays the same run as the batch. Cost: one run prefix per
decision plus ``k`` continuations per option (about 40 decisions of 2-5 options in a full run).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.games.dungeon import play as P
from sim.games.dungeon.rollctl import MAX_DECISIONS, RC_HIT, RC_MASK, RC_NF, RC_NOPT, RC_SALT, RC_SIZE, RC_STOP
from sim.games.dungeon.table import O_SCORE, O_WIN

ZERO, ONE = np.int64(0), np.int64(1)  # not literal ints: one signature of ``play.play_block`` for every caller


@njit(cache=True, error_model="numpy", inline="always")  # one call site (``rollout_run``)
def option_values(base, k, seed, run, fz, cache, t, tm, tmp, nolog, sc, forced, rc, nf, nopt, mask, wins, scores):
    """Wins and total score of ``k`` continuations of each option of decision ``nf`` (``forced[:nf]`` before it)
    into ``wins``/``scores`` (-1 wins: not in ``mask``, or cut off). An option is cut off as soon as it cannot
    reach the most wins of an option before it even by winning every continuation left: it could not be chosen,
    so the choice is the one of all ``k`` continuations of every option, at a fraction of the cost."""
    wb = -1.0
    for o in range(nopt):
        wins[o] = -1.0
        scores[o] = 0.0
        if not (mask >> o) & 1:
            continue
        forced[nf] = o
        w = 0.0
        s = 0.0
        for j in range(k):
            rc[RC_NF] = nf + 1
            rc[RC_SALT] = j + 1
            rc[RC_STOP] = 0
            P.play_block(base, seed, run, ZERO, ONE, ONE, t, fz, cache, tm, tmp, nolog, sc, forced, rc)
            w += tmp[0, O_WIN]
            s += tmp[0, O_SCORE]
            if w + (k - 1 - j) < wb:
                w = -1.0
                break
        wins[o] = w
        scores[o] = s
        if w > wb:
            wb = w


@njit(cache=True, error_model="numpy")
def best_option(wins, scores, nopt):
    """The option with the most wins, ties by total score, then the lowest code (options with -1 wins skipped)."""
    bi = -1
    for o in range(nopt):
        if wins[o] < 0:
            continue
        if bi < 0 or wins[o] > wins[bi] or (wins[o] == wins[bi] and scores[o] > scores[bi]):
            bi = o
    return bi


@njit(cache=True, error_model="numpy", inline="always")  # one call site (``rollout_block``)
def rollout_run(base, k, seed, run, fz, cache, t, tm, out, log, sc, forced, rc):
    """Play run ``run`` under the rollout of ``base`` with ``k`` continuations per option; fill ``out`` (and
    ``log``) as ``play_run`` does and return its log length. ``forced`` (``MAX_DECISIONS``), ``rc`` (``RC_SIZE``):
    scratch, left holding the run's choices (``forced[:rc[RC_NF]]``)."""
    tmp = np.empty((1, out.shape[0]))  # a block of one run (``play.play_block``, the one compiled entry to a run)
    nolog = np.zeros((0, log.shape[1]), np.int64)
    wins = np.empty(16)
    scores = np.empty(16)
    nf = np.int64(0)  # not a literal 0: one compile of option_values
    while nf < forced.shape[0]:
        rc[RC_NF] = nf
        rc[RC_SALT] = 0
        rc[RC_STOP] = 1
        P.play_block(base, seed, run, ZERO, ONE, ONE, t, fz, cache, tm, tmp, nolog, sc, forced, rc)
        if rc[RC_HIT] == 0:
            break
        nopt = rc[RC_NOPT]
        mask = rc[RC_MASK]
        if wins.shape[0] < nopt:
            wins = np.empty(nopt)
            scores = np.empty(nopt)
        option_values(base, k, seed, run, fz, cache, t, tm, tmp, nolog, sc, forced, rc, nf, nopt, mask, wins,
                      scores)
        forced[nf] = best_option(wins, scores, nopt)
        nf += 1
    rc[RC_NF] = nf
    rc[RC_SALT] = 0
    rc[RC_STOP] = 0
    return P.play_block(base, seed, run, ZERO, ONE, ONE, t, fz, cache, tm, out.reshape((1, out.shape[0])), log, sc,
                        forced, rc)


@njit(cache=True, nogil=True, error_model="numpy")
def rollout_block(base, k, seed, start, first, count, stride, t, fz, cache, tm, out, log, sc, forced, rc):
    """``rollout_run`` of runs ``start + i`` for ``i`` in ``range(first, count, stride)`` into rows ``out[i]``
    (the batch's block of one thread, ``runs.play_batch``; the replay's one run with a log, ``runs.run_one``);
    returns the log length of the last one. The rollout's one compiled kernel: ``rollout_run`` and
    ``option_values`` are inlined here, so the run's code (``play.play_block``) is linked and optimised again
    once, not once per calling kernel."""
    nl = np.int64(0)
    for i in range(first, count, stride):
        nl = rollout_run(base, k, seed, start + i, fz, cache, t, tm, out[i], log, sc, forced, rc)
    return nl


def new_rollout_scratch() -> tuple[np.ndarray, np.ndarray]:
    """(forced, rc) for ``rollout_run``."""
    return np.zeros(MAX_DECISIONS, np.int64), np.zeros(RC_SIZE, np.int64)
