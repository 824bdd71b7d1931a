"""Kniffel's fixed names and rule codes, without numba: the config model reads them (a refused value is refused
without importing a kernel) and ``rules`` takes them from here as compile-time constants."""

from __future__ import annotations

CATEGORIES = (
    "einser",
    "zweier",
    "dreier",
    "vierer",
    "fuenfer",
    "sechser",
    "dreierpasch",
    "viererpasch",
    "full_house",
    "kleine_strasse",
    "grosse_strasse",
    "kniffel",
    "chance",
)
CATEGORY_LABELS = (
    "Einser",
    "Zweier",
    "Dreier",
    "Vierer",
    "Fünfer",
    "Sechser",
    "Dreierpasch",
    "Viererpasch",
    "Full House",
    "Kleine Straße",
    "Große Straße",
    "Kniffel",
    "Chance",
)
# ``rp.joker_mode``: the joker rule's code (``config.RULES`` maps ``joker.mode`` through ``JOKER_MODES``)
JOKER_OFF, JOKER_FORCED, JOKER_FREE = 0, 1, 2
JOKER_MODES = {"off": JOKER_OFF, "forced": JOKER_FORCED, "free": JOKER_FREE}
