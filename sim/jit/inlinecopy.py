"""Numba's inliner copies a callee's IR once, not once per block: the Würfel Dungeon's full tier compiles faster.

Every ``inline="always"`` call site makes numba deep-copy the callee's IR (``InlineWorker.inline_ir``'s
``copy_ir``), and it copies block by block with a fresh memo each time, so each block drags along its own copy of
the callee's whole variable scope: blocks × variables. For a small helper that is nothing; for the phases of
``play_run`` (already holding their inlined helpers) it was most of the full tier's compile, spent in
``Var.__deepcopy__`` (numba issue #8989, open). Copying the block dict in one ``deepcopy`` shares one memo: one
copy of the scope, the same blocks, the same compiled code (the golden tables and the tier test check it).

The patch rewrites that one loop in numba's own source of ``inline_ir`` and applies only where the loop reads
exactly as in the numba versions it was written for; anything else leaves numba as it is.
``DICESIM_FAST_INLINE=0`` turns it off (to compare, or to rule it out).
"""

from __future__ import annotations

import inspect
import os
import textwrap

from numba.core import inline_closurecall

_PER_BLOCK = """\
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
            kernel_copy.blocks[block_label] = new_block
"""
_ONCE = """\
        kernel_copy.blocks = copy.deepcopy(the_ir.blocks)  # dicesim: one memo, one copy of the scope
"""


def install() -> bool:
    """Patch ``InlineWorker.inline_ir`` (once per process); True when the fast copy is in place."""
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "dicesim_fast_copy", False):
        return True
    if os.environ.get("DICESIM_FAST_INLINE", "1") == "0":
        return False
    try:
        source = textwrap.dedent(inspect.getsource(worker.inline_ir))
    except (OSError, TypeError):  # no source shipped: leave numba as it is
        return False
    if source.count(_PER_BLOCK) != 1:  # numba changed this code: its own version stands
        return False
    namespace = dict(vars(inline_closurecall))
    exec(compile(source.replace(_PER_BLOCK, _ONCE), inline_closurecall.__file__, "exec"), namespace)
    fast = namespace["inline_ir"]
    fast.dicesim_fast_copy = True
    worker.inline_ir = fast
    return True
