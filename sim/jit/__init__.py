"""Everything numba-specific beyond ``@njit``: kernel cache keys and locator, cache healing, compile tiers, warm-up,
compile progress, and the kernel tricks that reach into numba's internals (numba is pinned to 0.68.x in
pyproject.toml; tests/test_inlinecopy.py, test_stackrec.py, test_borrow.py and test_kernel_cache_heal.py fail when a
numba release changes what they rely on).
"""
