"""Kniffel's config model (every rule number) and its frozen record for the kernels (``sim.core.record``)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import Field

from sim.core.config import QUANTILES, GameConfig, Strict, policy_rates, policy_shares, seat_rates
from sim.core.record import RuleRecord
from sim.core.skill import SKILL_RECORD, Skill
from sim.games.kniffel import codes as C


class Turn(Strict):
    rolls: int = Field(3, ge=1, le=6, description="rolls per turn (first roll included)")


class Bonus(Strict):
    # at least 1: the bonus is earned when the upper sum reaches it (at 0 it never would be crossed)
    threshold: int = Field(63, ge=1, le=105, description="upper sum that earns the bonus")
    value: int = Field(35, ge=0, le=1000, description="upper bonus points (0: no bonus)")


class Scores(Strict):
    full_house: int = Field(25, ge=0, le=1000)
    kleine_strasse: int = Field(30, ge=0, le=1000)
    grosse_strasse: int = Field(40, ge=0, le=1000)
    kniffel: int = Field(50, ge=1, le=1000)
    kniffel_bonus: int = Field(
        100, ge=0, le=1000, description="per further Kniffel while the box holds the Kniffel score"
    )


class Joker(Strict):
    mode: Literal["forced", "free", "off"] = "forced"
    when_zero: bool = Field(True, description="joker also when the Kniffel box holds 0")
    stops_rolling: bool = Field(True, description="with the joker in play the turn ends at once (the seed's rule)")


class KniffelConfig(GameConfig):
    name: str = "kniffel"
    turn: Turn = Turn()
    bonus: Bonus = Bonus()
    scores: Scores = Scores()
    joker: Joker = Joker()
    skill: Skill = Skill()

    def metric_names(self, options: dict[str, Any], seats: list[str]) -> list[str]:
        mixed = [f"mean_score_{p}" for p in sorted(set(seats))] if len(set(seats)) > 1 else []  # each policy's own
        names = ["mean_score", *mixed, "sd_score", *(f"score_{q}" for q in QUANTILES), "upper_bonus_rate",
                 "kniffel_rate", "mean_kniffel_bonus"]
        names += [f"{kind}_{c}" for c in C.CATEGORIES for kind in ("mean", "zero_rate")]
        if len(seats) > 1:  # a game for several players: who won
            names += [*seat_rates(seats), "tie_rate", *policy_rates(seats), *policy_shares(seats)]
        return names


RULES = RuleRecord(KniffelConfig, skip=("joker.mode", "skill"), dtype=np.int64, derived={
    "joker_mode": lambda cfg: C.JOKER_MODES[cfg.joker.mode],  # the kernels' code (``codes.JOKER_*``)
    # the upper subtotal only matters up to the threshold, and not at all without a bonus
    "up_cap": lambda cfg: cfg.bonus.threshold if cfg.bonus.value > 0 else 0,
    **SKILL_RECORD,
})
"""The rule record ``rp``: every rule number of the model by config path (``rp.bonus_value``,
``rp.scores_kniffel``), then the derived numbers; int64 like the kernels' arithmetic."""


def freeze(cfg: KniffelConfig) -> np.record:
    """The rule numbers as the record ``rp`` the kernels read (``RULES``); ``rp.base`` is its one-element array
    (what a parallel kernel takes)."""
    return RULES.freeze(cfg).view(np.recarray)[0]
