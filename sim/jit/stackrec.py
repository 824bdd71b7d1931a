"""A numpy record on the compiled function's stack: state that inlined steps hand on, kept in registers.

A record taken from an array (``a[0]``) is a pointer into heap memory. To LLVM every store to another array may
alias it, so each field read after such a store is a load from memory, and each write a store: a kernel that hands
its turn from step to step in such a record runs 5-10 % slower than the same turn written as one function with
locals (CONTRIBUTING.md, kernel split). A record on the stack whose address never leaves the function is a local to
LLVM: its scalar replacement (SROA) splits it into its fields and keeps them in registers, as if each field were a
local variable, while the source reads ``f.ehp``.

Only for a record that does not outlive the compiled function it is made in (never returned, never stored): the
space is that function's stack frame. Made inside an ``inline="always"`` function it lives in the frame of the
function that inlines it. Passed to a function that is not inlined it stays correct, only in memory again.
"""

from __future__ import annotations

import numpy as np
from numba import from_dtype
from numba.core import cgutils
from numba.extending import intrinsic


def stack_record(dtype: np.dtype):
    """A jitted function of no arguments that returns a zeroed record of ``dtype`` on the caller's stack."""
    rec = from_dtype(dtype)

    @intrinsic
    def new_record(typingctx):
        def codegen(context, builder, sig, args):
            data = context.data_model_manager[rec].get_data_type()
            ptr = cgutils.alloca_once(builder, data, zfill=True)  # in the entry block, zeroed here at each call
            ptr.align = 16
            return ptr

        return rec(), codegen

    return new_record
