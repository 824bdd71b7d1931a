"""sim.jit.scalar: the kernels' min, max and int() give the builtins' results (ties, signed zeros, NaN, mixed types)."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from sim.jit.scalar import smax, smin, trunc

floats = st.floats(allow_nan=True, allow_infinity=True, width=64)
ints = st.integers(min_value=-(2**62), max_value=2**62)


@njit(cache=True)
def _pair(a, b):
    return smax(a, b), smin(a, b)


@njit(cache=True)
def _trunc(x):
    return trunc(x)


def _same(x, y) -> bool:
    if isinstance(x, float) and math.isnan(x):
        return isinstance(y, float) and math.isnan(y)
    return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)


@settings(deadline=None)
@given(floats, floats)
def test_float_min_max_match_builtins(a, b):
    hi, lo = _pair(a, b)
    assert _same(hi, max(a, b)) and _same(lo, min(a, b))


@settings(deadline=None)
@given(ints, ints)
def test_int_min_max_match_builtins(a, b):
    assert _pair(a, b) == (max(a, b), min(a, b))


@settings(deadline=None)
@given(ints, floats.filter(math.isfinite))
def test_mixed_int_float_gives_the_larger_value(a, b):
    hi, lo = _pair(a, b)
    assert hi == max(float(a), b) and lo == min(float(a), b)


@settings(deadline=None)
@given(st.floats(min_value=-1e15, max_value=1e15))
def test_trunc_rounds_toward_zero_as_int(x):
    assert _trunc(x) == int(x)
