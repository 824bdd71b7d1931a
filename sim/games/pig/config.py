"""Pig's config model (every rule number) and its frozen arrays for the kernels."""

from __future__ import annotations

import numpy as np
from pydantic import Field, model_validator

from sim.core.config import GameConfig, Strict
from sim.games.pig import rules as R


class Dice(Strict):
    sides: int = Field(6, ge=2, le=20, description="faces of the die (numbered 1..sides, each scores its pips)")
    bust_face: int = Field(1, ge=1, le=20, description="the face that ends the turn and loses the turn total")


class Goal(Strict):
    target: int = Field(100, ge=2, le=1000, description="score that wins (reached or passed by holding)")


class Game(Strict):
    max_turns: int = Field(10_000, ge=1, le=10_000_000, description="turns (both seats) after which a game is drawn")


class Policies(Strict):
    hold_at: int = Field(20, ge=1, le=1000, description="hold-20 policy: hold once the turn total reaches this")


class Solver(Strict):
    tolerance: float = Field(1e-12, gt=0.0, le=1e-3, description="optimal-win: value iteration stops below this")
    max_win_goal: int = Field(200, ge=2, le=400, description="optimal-win: largest goal solved (goal³/2 states)")


class PigConfig(GameConfig):
    name: str = "pig"
    dice: Dice = Dice()
    goal: Goal = Goal()
    game: Game = Game()
    policies: Policies = Policies()
    solver: Solver = Solver()

    @model_validator(mode="after")
    def _bust_face_on_the_die(self) -> PigConfig:
        if self.dice.bust_face > self.dice.sides:
            raise ValueError(f"dice.bust_face {self.dice.bust_face} is not a face of a {self.dice.sides}-sided die")
        return self


def freeze(cfg: PigConfig) -> np.ndarray:
    """The rule numbers as the int64 array ``rp`` the kernels read (indices ``rules.RP_*``)."""
    rp = np.zeros(R.RP_SIZE, dtype=np.int64)
    rp[R.RP_SIDES] = cfg.dice.sides
    rp[R.RP_BUST] = cfg.dice.bust_face
    rp[R.RP_GOAL] = cfg.goal.target
    rp[R.RP_MAX_TURNS] = cfg.game.max_turns
    return rp


def freeze_policies(cfg: PigConfig) -> np.ndarray:
    """The policy parameters as the int64 array ``pp`` (indices ``policies.pig.bots.PP_*``)."""
    return np.array([cfg.policies.hold_at], dtype=np.int64)
