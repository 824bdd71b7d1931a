"""What the Würfel Dungeon kernel is given: the frozen arrays and per-thread profile cache of a (config,
difficulty), memoised per process, and the multiset tables ``TM``. (The table's columns: ``table_schema``.)"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

import numba

from policies.dungeon.bots import tm_tuple
from sim.core.config import config_hash
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.freeze import Frozen, freeze
from sim.games.dungeon.options import check_difficulty as check_difficulty
from sim.games.dungeon.tables import new_cache

TM = tm_tuple()


KEEP = 16  # (config, difficulty) entries kept per process: a studio left open all day sweeps many configs

_LOCK = threading.Lock()
_FROZEN: OrderedDict[tuple[str, str], tuple[Frozen, list[tuple]]] = OrderedDict()


def _entry(cfg: DungeonConfig, difficulty: str) -> tuple[Frozen, list[tuple]]:
    """The frozen arrays of (config, difficulty) and its profile caches, memoised (the last ``KEEP`` used)."""
    key = (config_hash(cfg), difficulty)
    with _LOCK:
        hit = _FROZEN.get(key)
        if hit is not None:
            _FROZEN.move_to_end(key)
            return hit
    fz = freeze(cfg, difficulty)  # outside the lock: it takes a while; two threads may both freeze, one is kept
    with _LOCK:
        hit = _FROZEN.setdefault(key, (fz, [new_cache(_rows())]))
        _FROZEN.move_to_end(key)
        while len(_FROZEN) > KEEP:
            _FROZEN.popitem(last=False)
    return hit


def _rows() -> int:
    return max(1, numba.config.NUMBA_NUM_THREADS)


def frozen(cfg: DungeonConfig, difficulty: str) -> tuple[Frozen, tuple]:
    """Frozen arrays and the per-thread profile-table cache (``tables.new_cache``) for (config, difficulty),
    memoised: the cache lives with the entry, so tables are built once per thread and profile. For reading the
    arrays and for one caller at a time; a kernel call that may run beside another uses :func:`borrowed`."""
    fz, caches = _entry(cfg, difficulty)
    return fz, caches[0] if caches else new_cache(_rows())


@contextmanager
def borrowed(cfg: DungeonConfig, difficulty: str) -> Iterator[tuple[Frozen, tuple]]:
    """The frozen arrays with a profile cache no other call holds meanwhile. The kernel releases the interpreter
    lock, so two batches of one config (two studio pages, a replay beside a run) run at once, and a cache row's
    slots are claimed and rebuilt without locks: two calls sharing a row could leave one reading tables the other
    is rewriting. A call takes a free cache of the entry, or a new one, and gives it back."""
    fz, caches = _entry(cfg, difficulty)
    with _LOCK:
        cache = caches.pop() if caches else new_cache(_rows())
    try:
        yield fz, cache
    finally:
        with _LOCK:
            caches.append(cache)
