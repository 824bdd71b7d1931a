"""The rollout control of ``play_run``: forced run-level choices, the continuation salt, stop-at-decision.

The ``rollout`` policy (``sim.games.dungeon.rollout``) needs no copy of a run's state: it replays the run from its
start with the choices taken so far forced. ``play_run`` takes a control vector ``rc`` (int64, ``RC_SIZE``; an
empty one turns all of this off: the plain policies pay one length test per run-level decision) and the forced
codes ``forced``:

- ``rc[RC_NF]`` decisions are forced: the ``d``-th free run-level decision of the run takes ``forced[d]``;
- with ``rc[RC_STOP]`` the run stops at the first free decision after them and reports it (``RC_HIT``,
  ``RC_KIND``, ``RC_NOPT`` codes of which ``RC_MASK`` has a bit for each one that can be taken);
- with ``rc[RC_SALT]`` = k > 0 every random stream keyed *after* the last forced decision is re-keyed with
  ``SALT_A * k`` added to its purpose key, and the streams still drawn from at that moment (the offers' stream of
  a market, the policy's and the skill's) are re-keyed there: continuation k sees its own future dice, the same
  for every option (common random numbers), never the real run's.

A free decision is one with at least two codes that can be taken (a card of three, accept or decline a Geheimnis
that can be accepted, a reward slot, leave the market or buy one affordable item in stock); the codes:
``K_PATH`` the card index 0..2, ``K_EVENT`` 0 decline / 1 accept, ``K_REWARD`` the offer slot, ``K_BUY`` 0 leave /
``q + 1`` buy stock slot ``q`` (the market is a chain of such decisions, one per purchase).
"""

from __future__ import annotations

import numpy as np
from numba import njit

RC_NF, RC_SALT, RC_STOP, RC_DEC, RC_HIT, RC_KIND, RC_NOPT, RC_MASK = range(8)
RC_SIZE = 8
K_PATH, K_EVENT, K_REWARD, K_BUY = (np.int64(k) for k in range(4))  # int64, not literals: one compile
KIND_NAMES = ("path", "event", "reward", "buy")
SALT_A = 1 << 20  # added (times the salt) to a stream's purpose key; far from every purpose and SKILL_STREAM
MAX_DECISIONS = 256  # free run-level decisions one run can force (10 rooms: about 40 at most)
FREE, STOP = -1, -2  # rl_decide: the policy decides; the run stops here


def new_control() -> np.ndarray:
    """A zeroed control vector (forcing nothing, no salt, no stop)."""
    return np.zeros(RC_SIZE, np.int64)


# one signature: called with literal kinds, counts and masks at four sites (six compiles in the quick tier)
@njit("int64(int64[::1], int64[::1], int64, int64, int64)", cache=True, error_model="numpy")
def rl_decide(rc, forced, kind, n, mask):
    """The forced code of this run-level decision, ``FREE`` (the policy decides) or ``STOP`` (end the run here)."""
    if mask & (mask - 1) == 0:  # one code or none: no choice, not counted
        return FREE
    d = rc[RC_DEC]
    rc[RC_DEC] = d + 1
    if d < rc[RC_NF]:
        return forced[d]
    if rc[RC_STOP] > 0:
        rc[RC_HIT] = 1
        rc[RC_KIND] = kind
        rc[RC_NOPT] = n
        rc[RC_MASK] = mask
        return STOP
    return FREE


@njit(cache=True, error_model="numpy")
def salt_now(rc):
    """The purpose-key offset of streams keyed from now on: ``SALT_A * salt`` once the forced decisions are past."""
    if rc[RC_SALT] > 0 and rc[RC_DEC] >= rc[RC_NF]:
        return SALT_A * rc[RC_SALT]
    return 0
