"""Kniffel's rule tables for ``describe``: its boxes and how many states the solver fills. Plain numpy (no
kernel): ``dicesim describe kniffel`` computes them with the rules as Python (``sim.cli.work.tables``)."""

from __future__ import annotations

from typing import Any

from sim.core.config import config_hash
from sim.games.kniffel import rules as R
from sim.games.kniffel.columns import table_columns as table_columns
from sim.games.kniffel.config import KniffelConfig, freeze
from sim.games.kniffel.states import state_levels

CONFIG = KniffelConfig  # the rules these tables read (sim.cli.work.tables loads them without the game)


JOKER = {"forced": "a further Kniffel must go in the matching upper box if open, else any open lower box (Full "
               "House and the straights at their full points), else an upper box for 0",
         "free": "a further Kniffel goes in any open box (Full House and the straights at their points once the "
                 "matching upper box is filled)",
         "off": "no joker: a further Kniffel scores as the dice show"}


def describe(cfg: KniffelConfig, options: dict[str, Any]) -> dict[str, Any]:
    """The boxes (name, label, section, what each scores), the bonuses and the joker, and the solver's reachable
    state count under these rules."""
    rp = freeze(cfg)
    return {
        "game": "kniffel",
        "config_hash": config_hash(cfg),
        "config": cfg.model_dump(mode="json"),
        "categories": [
            {"box": n, "label": lab, "section": "upper" if i < 6 else "lower", "scores": _scores(n, i, cfg)}
            for i, (n, lab) in enumerate(zip(R.CATEGORIES, R.CATEGORY_LABELS, strict=True))
        ],
        "bonuses": {
            "upper_bonus": f"{cfg.bonus.value} points when the upper boxes sum to {cfg.bonus.threshold} or more",
            "kniffel_bonus": f"{cfg.scores.kniffel_bonus} points for each further Kniffel while its box holds "
                             f"{cfg.scores.kniffel}",
            "joker": JOKER[cfg.joker.mode] + ("" if cfg.joker.mode == "off" else (
                ("; also when the Kniffel box holds 0" if cfg.joker.when_zero else "; only with a Kniffel scored")
                + ("; the turn then ends" if cfg.joker.stops_rolling else "; rolling on allowed"))),
        },
        "solver_states": int(sum(len(x) for x in state_levels(rp))),
    }


def _scores(box: str, i: int, cfg: KniffelConfig) -> str:
    """What a box scores under these rules, in words."""
    if i < 6:
        return f"the sum of the {i + 1}s"
    fixed = {"full_house": (cfg.scores.full_house, "three of one face and two of another"),
             "kleine_strasse": (cfg.scores.kleine_strasse, "four in a row"),
             "grosse_strasse": (cfg.scores.grosse_strasse, "five in a row"),
             "kniffel": (cfg.scores.kniffel, "five of a kind")}
    if box in fixed:
        points, what = fixed[box]
        return f"{points} points: {what}"
    kind = {"dreierpasch": "with three of a kind", "viererpasch": "with four of a kind"}.get(box, "any dice")
    return f"the sum of all dice, {kind}"
