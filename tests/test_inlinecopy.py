"""The inliner's one-copy patch (``sim.jit.inlinecopy``) is in place and compiles exactly the code numba's own copy
does."""

from __future__ import annotations

import os
import subprocess
import sys

import numba
import pytest

from tests.conftest import ROOT

# A caller that inlines a helper with branches and a loop twice (each call site copies the helper's IR).
PROBE = """
import sys
import numpy as np
from numba import njit
from sim.jit import inlinecopy
inlinecopy.install()  # what a project kernel's load does first (unless DICESIM_FAST_INLINE=0)
from numba.core import inline_closurecall as icc

@njit(inline="always")
def helper(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] > k:
            s += a[i] * 2.0
        elif a[i] < -k:
            s -= 1.0
        else:
            s += k
    return s

@njit
def caller(a, k):
    return helper(a, k) + helper(a[::-1], k + 1.0)

print(getattr(icc.InlineWorker.inline_ir, "dicesim_fast_copy", False), caller(np.arange(-5.0, 6.0), 1.5))
sys.stdout.write(caller.inspect_llvm(caller.signatures[0]))
"""


def _compile(fast: bool) -> tuple[str, str]:
    env = {**os.environ, "DICESIM_FAST_INLINE": "1" if fast else "0"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    head, llvm = out.stdout.split("\n", 1)
    return head, llvm


def test_the_patched_inliner_compiles_the_same_code():
    fast_head, fast_llvm = _compile(True)
    slow_head, slow_llvm = _compile(False)
    assert fast_head.split()[0] == "True" and slow_head.split()[0] == "False"  # patched, and numba's own
    assert fast_head.split()[1] == slow_head.split()[1] == "62.0"
    assert fast_llvm == slow_llvm  # the same LLVM IR, to the variable names


@pytest.mark.skipif(not numba.__version__.startswith("0.68."), reason="written against numba 0.68's inline_ir")
def test_the_patch_applies_to_this_numba():
    """On numba 0.68 the loop the patch replaces is there; a numba that changed it runs unpatched (and slower)."""
    from numba.core import inline_closurecall

    from sim.jit import inlinecopy

    assert inlinecopy.install()
    assert inline_closurecall.InlineWorker.inline_ir.dicesim_fast_copy
