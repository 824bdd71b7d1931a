"""Golden per-run table hashes and replay texts: a rule change shows up as a changed hash and a readable diff.

``python -m tests.golden [--game G ...]`` regenerates the stored files (``make golden``); ``tests/test_golden.py``
compares against them. A commit that changes a stored hash says in its message which rule or fixed bug changed it.
"""
