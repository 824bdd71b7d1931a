"""``sim.jit.borrow``: a borrowed array is the same data with a null meminfo (no reference counting), and nothing else.

The meminfo is read with a small intrinsic: the contract is that numba's refcount operations on a borrowed
array find a null meminfo (a null check instead of an atomic add), while the arrays the caller owns keep theirs.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from sim.jit.borrow import borrow


@intrinsic
def _has_meminfo(typingctx, arr):
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, value=args[0])
        null = cgutils.get_null_value(ary.meminfo.type)
        return builder.icmp_unsigned("!=", ary.meminfo, null)

    return types.boolean(arr), codegen


@njit
def _meminfos(t, a):
    b = borrow(a)
    x, y, n = borrow(t)
    return _has_meminfo(a), _has_meminfo(b), _has_meminfo(b[1:]), _has_meminfo(x), _has_meminfo(y), n


@njit
def _total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i:].sum()
    return s


@njit
def _total_borrowed(a):
    return _total(borrow(a))


def test_borrowed_arrays_and_their_views_have_no_meminfo():
    a = np.arange(6.0)
    t = (np.ones(3), np.zeros((2, 2), np.int64), 7)
    assert _meminfos(t, a) == (True, False, False, False, False, 7)


def test_borrowed_array_reads_the_same_data_and_leaves_the_owner_alone():
    a = np.arange(50.0)
    before = sys.getrefcount(a)
    assert _total_borrowed(a) == _total(a) == sum(a[i:].sum() for i in range(50))
    assert sys.getrefcount(a) == before
    b = np.arange(5.0)
    _total_borrowed(b)
    b[0] = 100.0  # the owner's array is still its own, writable and alive
    assert _total_borrowed(b) == _total(b)
