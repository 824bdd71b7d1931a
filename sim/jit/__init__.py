"""Everything numba-specific beyond ``@njit``: kernel cache keys and locator, compile tiers, warm-up, compile
progress, and the few uses of numba internals (each pinned, tested, with a fallback).
"""
