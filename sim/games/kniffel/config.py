"""Kniffel's config model (every rule number) and its frozen array for the kernels."""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field

from sim.core.config import GameConfig, Strict
from sim.core.skill import Skill, freeze_skill
from sim.games.kniffel import rules as R


class Turn(Strict):
    rolls: int = Field(3, ge=1, le=6, description="rolls per turn (first roll included)")


class Bonus(Strict):
    threshold: int = Field(63, ge=0, le=105, description="upper sum that earns the bonus")
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


def freeze(cfg: KniffelConfig) -> np.ndarray:
    """The rule numbers as the int64 array ``rp`` the kernels read (indices ``R.RP_*``), then the skill
    levels (``R.RP_SIZE + policies.skill.SK_*``)."""
    rp = np.zeros(R.RP_SIZE, dtype=np.int64)
    rp[R.RP_BONUS_THRESHOLD] = cfg.bonus.threshold
    rp[R.RP_BONUS_VALUE] = cfg.bonus.value
    rp[R.RP_FULL_HOUSE] = cfg.scores.full_house
    rp[R.RP_KLEINE] = cfg.scores.kleine_strasse
    rp[R.RP_GROSSE] = cfg.scores.grosse_strasse
    rp[R.RP_KNIFFEL] = cfg.scores.kniffel
    rp[R.RP_KNIFFEL_BONUS] = cfg.scores.kniffel_bonus
    rp[R.RP_JOKER] = R.JOKER_MODES[cfg.joker.mode]
    rp[R.RP_JOKER_WHEN_ZERO] = int(cfg.joker.when_zero)
    rp[R.RP_JOKER_STOPS] = int(cfg.joker.stops_rolling)
    rp[R.RP_ROLLS] = cfg.turn.rolls
    # the upper subtotal only matters up to the threshold, and not at all without a bonus
    rp[R.RP_UP_CAP] = cfg.bonus.threshold if cfg.bonus.value > 0 else 0
    return np.concatenate((rp, freeze_skill(cfg.skill)))
