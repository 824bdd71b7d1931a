"""Counter-based random streams: every draw is a function of (seed, run, keys) alone.

A stream is one ``uint64`` state advanced by splitmix64 (Steele, Lea & Flood 2014), which passes
BigCrush. A game seeds a fresh stream per run (and, where pairing matters, per seat and turn), so a
result never depends on chunking, thread count or cluster size, and any run can be replayed alone.

Two styles share one core: pure functions ``s, x = next_u64(s)`` for the hottest loops, and
``Stream`` arrays (``np.ndarray`` of one ``uint64``) that helper functions can advance in place.
"""

from __future__ import annotations

import numpy as np

from sim.jit.plain import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_U32MASK = np.uint64(0xFFFFFFFF)
_INV53 = 1.0 / 9007199254740992.0


@njit(cache=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """The splitmix64 finaliser: a bijective 64-bit hash."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def stream_key(seed: int, run: int, a: int = 0, b: int = 0) -> np.uint64:
    """Start state of the stream for (seed, run, a, b); distinct keys give independent streams."""
    h = mix64(np.uint64(seed) + _GOLDEN)
    h = mix64(h ^ (np.uint64(run) * _M1 + _GOLDEN))
    h = mix64(h ^ (np.uint64(a) * _M2 + _GOLDEN))
    h = mix64(h ^ (np.uint64(b) * _GOLDEN + _M1))
    return h


@njit(cache=True, inline="always")
def next_u64(s: np.uint64):
    """Advance the state; returns (new state, 64 random bits)."""
    s = s + _GOLDEN
    return s, mix64(s)


@njit(cache=True, inline="always")
def next_below(s: np.uint64, n: int):
    """Returns (new state, uniform int in [0, n)) by multiply-shift on 32 bits (bias < n/2^32)."""
    s, x = next_u64(s)
    return s, np.int64(((x >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def next_die(s: np.uint64):
    """Returns (new state, a fair d6 face 1..6)."""
    s, x = next_u64(s)
    return s, np.int64(((x >> _S32) * np.uint64(6)) >> _S32) + 1


@njit(cache=True, inline="always")
def next_float(s: np.uint64):
    """Returns (new state, uniform float in [0, 1)) with 53 random bits."""
    s, x = next_u64(s)
    return s, np.float64(x >> _S11) * _INV53


# --- in-place helpers on a one-element state array -------------------------------------------


@njit(cache=True)
def new_stream(seed: int, run: int, a: int = 0, b: int = 0) -> np.ndarray:
    """A mutable stream (one-element uint64 array) for helpers that draw in place."""
    st = np.empty(1, np.uint64)
    st[0] = stream_key(seed, run, a, b)
    return st


@njit(cache=True, inline="always")
def die(st: np.ndarray) -> int:
    """Draw one d6 face from a mutable stream."""
    s, d = next_die(st[0])
    st[0] = s
    return d


@njit(cache=True, inline="always")
def below(st: np.ndarray, n: int) -> int:
    """Draw a uniform int in [0, n) from a mutable stream."""
    s, d = next_below(st[0], n)
    st[0] = s
    return d


@njit(cache=True, inline="always")
def uniform(st: np.ndarray) -> float:
    """Draw a uniform float in [0, 1) from a mutable stream."""
    s, u = next_float(st[0])
    st[0] = s
    return u
