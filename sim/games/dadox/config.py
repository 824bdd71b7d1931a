"""Dadox's config model (every rule number and switch) and its frozen records for the kernels (``sim.core.record``)."""

from __future__ import annotations

from math import gcd
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, model_validator

from sim.core.config import QUANTILES, GameConfig, Strict, policy_rates, policy_shares, seat_rates
from sim.core.record import RuleRecord
from sim.core.skill import SKILL_RECORD, Skill
from sim.games.dadox import codes as C
from sim.games.options import Accepted


class Scoring(Strict):
    single_1: int = Field(100, ge=1, le=100_000, description="a single 1 (the 1-or-5 rules need it to score)")
    single_5: int = Field(50, ge=1, le=100_000, description="a single 5")
    triple_1: int = Field(1000, ge=1, le=100_000, description="three 1s")
    triple_factor: int = Field(100, ge=1, le=100_000, description="three x (x = 2..6) score factor * x")
    street: int = Field(2000, ge=0, le=100_000, description="1-2-3-4-5-6 in one throw (0: no street)")
    three_pairs: int = Field(0, ge=0, le=100_000, description="three different pairs in one throw (0: off)")
    kind_doubling: bool = Field(False, description="four/five/six of a kind: the triple's value doubled per extra die")


class Turn(Strict):
    confirm: bool = Field(True, description="strong groups must be confirmed by a 1 or 5 in the next throw")
    later_throws_need_1_or_5: bool = Field(
        False, description="every throw from the 2nd of a turn on busts without a 1 or 5, even with a triple "
        "(off: the seed, a later throw busts with no 1, no 5 and no triple; a confirmation throw needs a 1 or 5 anyway)"
    )
    hot_dice: Literal["throw", "optional"] = Field(
        "throw", description="all six dice set aside: throw all six again, no bank (optional: bank or throw them)"
    )
    confirm_first_throw_triples: bool = Field(
        True, description="with confirm: every triple of the turn's first throw must be confirmed (off: only three 1s)"
    )
    decline_forces_throw: bool = Field(
        True, description="only single 1s/5s set aside from a throw holding a triple or street: throw on, no bank"
    )
    opening_minimum: int = Field(0, ge=0, le=100_000, description="turn total needed to bank before first banking")


class Bust(Strict):
    penalty: Literal["lose", "subtract"] = Field(
        "subtract", description="what a bust costs: subtract the turn total from the score (Minusbetrag), or lose it")
    floor_zero: bool = Field(False, description="a subtracted bust never takes a score below 0")


class Goal(Strict):
    target: int = Field(10_000, ge=50, le=1_000_000, description="the score that wins the game")
    exact: bool = Field(True, description="the target must be hit exactly (else: first to reach it wins)")
    overshoot: Literal["void", "subtract"] = Field("void", description="banking past an exact target")


class Game(Strict):
    max_turns: int = Field(5000, ge=1, le=10_000_000, description="turns (all seats) after which a game is drawn")


class Policies(Strict):
    threshold: list[Annotated[int, Field(ge=0, le=1_000_000)]] = Field(
        [300, 300, 400, 600, 1500, 3000], min_length=6, max_length=6,
        description="Threshold: bank once the turn total reaches this, by dice left to throw (1..6)",
    )
    greedy_bank_at: int = Field(300, ge=0, le=1_000_000, description="Greedy: bank at this turn total")
    random_bank: float = Field(0.5, ge=0.0, le=1.0, description="Random: chance to bank when allowed")


class Solver(Strict):
    score_floor: int = Field(-3000, ge=-1_000_000, le=0, description="Optimal win: lower scores count as this")
    # at least 1e-15: a win chance is a double, a smaller change may never come (it ran into "did not converge")
    tolerance: float = Field(1e-7, ge=1e-15, le=1e-2, description="Optimal win: value iteration stops below this")
    turn_cap: int = Field(100_000, ge=1000, le=10_000_000, description="Optimal turn: turn totals above count as this")


class DadoxConfig(GameConfig):
    name: str = "dadox"
    scoring: Scoring = Scoring()
    turn: Turn = Turn()
    bust: Bust = Bust()
    goal: Goal = Goal()
    game: Game = Game()
    policies: Policies = Policies()
    solver: Solver = Solver()
    skill: Skill = Skill()

    def metric_names(self, options: dict[str, Any], seats: list[str]) -> list[str]:
        names = []
        if len(seats) > 1:
            names += [*seat_rates(seats), "first_player_advantage"]
            names += [*policy_rates(seats), *policy_shares(seats)] if len(set(seats)) > 1 else []
        names += ["draw_rate", "game_length_turns", *(f"game_length_turns_{q}" for q in QUANTILES),
                  "mean_banked_turn_score", "mean_turn_score",
                  *(f"bust_rate_{n}_dice" for n in range(1, C.N_DICE + 1)), "overshoot_rate",
                  "negative_score_rate", "hot_dice_per_turn"]
        return names

    @model_validator(mode="after")
    def _reachable_target(self):
        u = self.unit()
        if self.goal.exact and self.goal.target % u:
            raise ValueError(f"goal.target: {self.goal.target} cannot be hit exactly (scores move in {u}s)")
        if self.turn.opening_minimum > self.goal.target:  # the first bank would pass the target: no game is played
            raise ValueError(f"turn.opening_minimum: {self.turn.opening_minimum} is above goal.target "
                             f"{self.goal.target} (a player's first bank would end the game); set it at most the "
                             "target")
        return self

    def accepts(self, dotted: str, seats: list[str]) -> Accepted | None:
        """``_reachable_target``'s checks as the values a search may set (``sim.games.options.accepted``): an exact
        target on the points grid and not below the opening minimum, which stays at most the target."""
        if dotted == "goal.target":
            u = self.unit() if self.goal.exact else 1
            why = f"an exact target must be hit and scores move in {u}s" if u > 1 else ""
            if self.turn.opening_minimum:
                why += ("; " if why else "") + f"at least turn.opening_minimum = {self.turn.opening_minimum}"
            return Accepted(low=self.turn.opening_minimum, step=u, why=why)
        if dotted == "turn.opening_minimum":
            return Accepted(high=self.goal.target, why=f"at most goal.target = {self.goal.target}")
        return None

    def unit(self) -> int:
        """The points grid: every score, turn total and target is a multiple of it."""
        s = self.scoring
        u = 0
        for v in (s.single_1, s.single_5, s.triple_1, s.triple_factor, s.street, s.three_pairs):
            u = gcd(u, v)
        return u


RULES = RuleRecord(DadoxConfig, skip=("turn.hot_dice", "policies", "solver", "skill"), dtype=np.int64, derived={
    "hot_throw": lambda cfg: int(cfg.turn.hot_dice == "throw"),  # hot dice oblige a throw (no bank)
    "unit": DadoxConfig.unit,  # the points grid (the model checked that an exact target can be hit)
})
"""The rule record ``rp``: every rule number of the model by config path (``rp.scoring_street``,
``rp.goal_target``; a choice as its code, ``rp.bust_penalty == C.PENALTY_SUBTRACT``), then the derived numbers;
int64 like the kernels' arithmetic. The bots', the solver's and the skill sections are not rules."""
POLICY_PARAMS = RuleRecord(
    DadoxConfig, skip=(*(k for k in DadoxConfig.model_fields if k != "policies"), "policies.threshold"),
    dtype=np.float64, derived={
        **{f"policies_threshold_{n}": (lambda cfg, i=n - 1: cfg.policies.threshold[i]) for n in range(1, C.N_DICE + 1)},
        **SKILL_RECORD,
    })
"""The policy record ``pp``: the ``[policies]`` section (``pp.policies_greedy_bank_at``; the threshold list as
``pp.policies_threshold_<dice to throw>``), then the skill levels; float64 as the bots' arithmetic was."""


def freeze(cfg: DadoxConfig) -> np.record:
    """The rule numbers as the record ``rp`` the kernels read (``RULES``); ``rp.base`` is its one-element array
    (what a parallel kernel takes)."""
    return RULES.freeze(cfg).view(np.recarray)[0]


def freeze_policies(cfg: DadoxConfig) -> np.record:
    """The policy parameters and skill levels as the record ``pp`` (``POLICY_PARAMS``)."""
    return POLICY_PARAMS.freeze(cfg).view(np.recarray)[0]
