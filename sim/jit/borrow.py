"""Borrowed views: the same arrays (or tuple of arrays) with no reference count, for a kernel's inner phases.

numba increfs an array each time it is bound to a new variable (an argument of an inlined helper, a tuple
unpacked, a view taken) and decrefs it when that variable dies: two atomic operations, contended between threads
when the array is shared (the frozen rule arrays, the profile cache). A kernel whose arrays are owned by its
caller for the whole call may rebind them as *borrowed* (a null meminfo): every refcount operation on them is then
a null check. Only for arrays that outlive the function and are never returned or stored by it.

The Würfel Dungeon's ``play_run`` borrows its arrays (its callers own them for the whole run): 0.74-0.76x the CPU
per run, same tables (CONTRIBUTING.md, kernel split).
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _null_meminfo(context, builder, ty, val):
    ary = context.make_array(ty)(context, builder, value=val)
    ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
    return ary._getvalue()


@intrinsic
def borrow(typingctx, x):
    """``x`` (an array or a tuple of arrays and other values) with every array's meminfo null."""
    if not isinstance(x, (types.Array, types.BaseTuple)):
        return None

    def codegen(context, builder, sig, args):
        ty = sig.args[0]
        val = args[0]
        if isinstance(ty, types.Array):
            return _null_meminfo(context, builder, ty, val)
        for i, m in enumerate(ty.types):
            if isinstance(m, types.Array):
                el = builder.extract_value(val, i)
                val = builder.insert_value(val, _null_meminfo(context, builder, m, el), i)
        return val

    return x(x), codegen
