"""Pig's config model (every rule number) and its frozen records for the kernels (``sim.core.record``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import Field, model_validator

from sim.core.config import QUANTILES, GameConfig, Strict, policy_rates, seat_rates
from sim.core.record import RuleRecord
from sim.games.options import Accepted


class Dice(Strict):
    sides: int = Field(6, ge=2, le=20, description="faces of the die (numbered 1..sides, each scores its pips)")
    bust_face: int = Field(1, ge=1, le=20, description="the face that ends the turn and loses the turn total")


class Goal(Strict):
    target: int = Field(100, ge=2, le=1000, description="score that wins (reached or passed by holding)")


class Game(Strict):
    max_turns: int = Field(10_000, ge=1, le=10_000_000, description="turns (both seats) after which a game is drawn")


class Policies(Strict):
    hold_at: int = Field(20, ge=1, le=1000, description="Hold 20: hold once the turn total reaches this")


class Solver(Strict):
    # at least 1e-15: a win chance is a double, a smaller change may never come (it ran into "did not converge")
    tolerance: float = Field(1e-12, ge=1e-15, le=1e-3, description="Optimal win: value iteration stops below this")
    max_win_goal: int = Field(200, ge=2, le=400, description="Optimal win: largest goal solved (goal³/2 states)")


class PigConfig(GameConfig):
    name: str = "pig"
    dice: Dice = Dice()
    goal: Goal = Goal()
    game: Game = Game()
    policies: Policies = Policies()
    solver: Solver = Solver()

    def metric_names(self, options: dict[str, Any], seats: list[str]) -> list[str]:
        names = [*seat_rates(seats), "first_player_advantage"]
        names += ["win_rate_first_listed", *policy_rates(seats)] if len(set(seats)) > 1 else []
        return names + ["draw_rate", "game_length_turns", *(f"game_length_turns_{q}" for q in QUANTILES),
                        "mean_turn_score", "mean_held_turn", "rolls_per_turn", "bust_rate",
                        "points_lost_per_bust", "best_turn"]

    @model_validator(mode="after")
    def _bust_face_on_the_die(self) -> PigConfig:
        if self.dice.bust_face > self.dice.sides:
            raise ValueError(f"dice.bust_face {self.dice.bust_face} is not a face of a {self.dice.sides}-sided die")
        return self

    def accepts(self, dotted: str, seats: list[str]) -> Accepted | None:
        """The values a search may set (``sim.games.options.accepted``): the bust face on the die, and a goal
        optimal-win can solve (``Game.win_solution`` refuses a larger one before it plays)."""
        sides, goal, most = self.dice.sides, self.goal.target, self.solver.max_win_goal
        if dotted == "dice.bust_face":
            return Accepted(high=sides, why=f"a face of the {sides}-sided die (dice.sides)")
        if dotted == "dice.sides":
            return Accepted(low=self.dice.bust_face, why=f"a die with the bust face {self.dice.bust_face} on it")
        if "optimal-win" in seats and dotted == "goal.target":
            return Accepted(high=most, why=f"optimal-win solves goals up to solver.max_win_goal = {most}")
        if "optimal-win" in seats and dotted == "solver.max_win_goal":
            return Accepted(low=goal, why=f"optimal-win solves goal.target = {goal}")
        return None


RULES = RuleRecord(PigConfig, skip=("policies", "solver"), dtype=np.int64)
"""The rule record ``rp``: every scalar of the model but the bots' and the solver's sections, by config path
(``rp.dice_bust_face``, ``rp.goal_target``); int64 like the kernels' arithmetic."""
POLICY_PARAMS = RuleRecord(PigConfig, skip=tuple(k for k in PigConfig.model_fields if k != "policies"), dtype=np.int64)
"""The policy record ``pp``: the ``[policies]`` section (``pp.policies_hold_at``)."""


def freeze(cfg: PigConfig) -> np.record:
    """The rule numbers as the record ``rp`` the kernels read (``RULES``); ``rp.base`` is its one-element array."""
    return RULES.freeze(cfg).view(np.recarray)[0]


def freeze_policies(cfg: PigConfig) -> np.record:
    """The policy parameters as the record ``pp`` (``POLICY_PARAMS``)."""
    return POLICY_PARAMS.freeze(cfg).view(np.recarray)[0]
