"""Kniffel's policies named for readers (chart legends, reports, the two-player table)."""

from __future__ import annotations

from sim.games.kniffel.codes import CATEGORIES, CATEGORY_LABELS

# what each policy maximises: optimal is exact for the expected score of one sheet, not for the chance to beat an
# opponent
POLICY_LABELS = {"optimal": "optimal (maximum expected score)"}


def policy_label(policy: str) -> str:
    """A policy's name for readers: ``optimal`` says that it maximises the expected score."""
    return POLICY_LABELS.get(policy, policy)

POLICY_WORDS = {"random": "Random", "greedy": "Greedy", "optimal": "Optimal"}
# code name -> display name for ``sim.report.words`` (boxes as the sheet names them)
WORDS = {"kniffel": "Kniffel", **POLICY_WORDS, **dict(zip(CATEGORIES, CATEGORY_LABELS, strict=True)),
         # the share of games with a Kniffel rolled, scored or not (the box may hold 0 by then): one name everywhere
         "kniffel_rate": "at least one Kniffel rolled",
         # the headline's words, in every table, chart and calibration too (they read "upper bonus rate" there)
         "upper_bonus_rate": "upper bonus reached"}


def display_label(policy: str) -> str:
    """A policy in a chart legend: its display name, ``Optimal (maximum expected score)`` saying what it maximises;
    a label that is no policy (the studio's ``now``/``before``) as it is."""
    name = POLICY_WORDS.get(policy, policy)
    return f"{name} (maximum expected score)" if policy in POLICY_LABELS else name

# units of the game's own count metrics (``sim.report.words.unit_of``: pattern -> unit): each box's mean and the
# Kniffel bonus are points on the sheet
UNITS = {r"^mean_": "points"}
# config paths whose field says too little on a page (``sim.report.words.config_label``)
CONFIG_WORDS = {"scores.full_house": "points for a Full House", "scores.kleine_strasse": "points for a Kleine Straße",
                "scores.grosse_strasse": "points for a Große Straße", "scores.kniffel": "points for a Kniffel",
                "joker.mode": "the joker rule for a second Kniffel (forced, free or off)"}
