"""``sim.jit.stackrec``: a record on the stack reads and writes like one in an array, is zeroed at each call, and LLVM
keeps it in registers once every step that takes it is inlined (the reason it exists: the fight's record)."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from numba import njit

from sim.jit.stackrec import stack_record
from tests.conftest import ROOT

DT = np.dtype([("a", np.float64), ("n", np.int64), ("ok", np.bool_), ("b", np.float64)], align=True)
new_rec = stack_record(DT)


@njit(inline="always")
def _step(f, x, out):
    f.a += x
    f.n += 1
    out[f.n % out.shape[0]] = f.a  # a store to another array between the field's uses
    f.ok = f.a > 10


@njit  # not inlined: the record's address leaves the function (memory again, still correct)
def _called_step(f, x, out):
    _step(f, x, out)


@njit
def _play(xs, out, inline):
    total = 0.0
    for k in range(3):
        f = new_rec()
        for x in xs:
            if inline:
                _step(f, x, out)
            else:
                _called_step(f, x, out)
        total += (k + 1) * (f.a * f.n + (1.0 if f.ok else 0.0) + f.b)
    return total


def _reference(xs, out):
    """The same play on a record in an array, in plain Python."""
    total = 0.0
    for k in range(3):
        f = np.zeros(1, DT)[0]
        for x in xs:
            f["a"] += x
            f["n"] += 1
            out[f["n"] % out.shape[0]] = f["a"]
            f["ok"] = f["a"] > 10
        total += (k + 1) * (f["a"] * f["n"] + (1.0 if f["ok"] else 0.0) + f["b"])
    return total


def test_a_stack_record_plays_like_an_array_record_and_is_zeroed_at_each_call():
    xs = np.array([3.0, -1.0, 4.5, 1.0, 5.0, -9.0, 2.5])
    for inline in (True, False):
        out, ref_out = np.zeros(3), np.zeros(3)
        assert _play(xs, out, inline) == _reference(xs, ref_out)
        assert np.array_equal(out, ref_out)


@njit
def _inlined_only(xs, out):
    f = new_rec()
    for x in xs:
        _step(f, x, out)
    return f.a * f.n


def _record_on_stack_after_compile() -> bool:
    """Whether ``_inlined_only``'s optimised IR still allocates the record's bytes on the stack."""
    assert _inlined_only(np.arange(5.0), np.zeros(3)) == 50.0
    return f"alloca [{DT.itemsize} x i8]" in _inlined_only.inspect_llvm(_inlined_only.signatures[0])


def test_inlined_steps_keep_the_record_in_registers():
    assert not _record_on_stack_after_compile()  # LLVM split it into its fields: registers
    # without LLVM's optimisation the record is an alloca of its bytes (so the check above can fail)
    probe = "from tests.test_stackrec import _record_on_stack_after_compile as f; print(f())"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={**os.environ, "NUMBA_OPT": "0"},
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["True"], out.stderr
