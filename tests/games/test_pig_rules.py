"""Pig's rules and config: the roll, the bust face, the goal, every number from the config, describe."""

from __future__ import annotations

import json

import numpy as np
import pytest
from numba import njit
from pydantic import Field

from sim.core.config import ConfigError, DicesimError
from sim.core.record import RuleRecord
from sim.games import get_game
from sim.games.pig import rules as R
from sim.games.pig.config import RULES, Goal, PigConfig, freeze, freeze_policies
from tests.conftest import cli_here

GAME = get_game("pig")


def test_default_rules_are_neller_and_pressers():
    cfg = GAME.load()
    assert (cfg.dice.sides, cfg.dice.bust_face, cfg.goal.target) == (6, 1, 100)
    rp = freeze(cfg)
    assert (rp.dice_sides, rp.dice_bust_face, rp.goal_target, rp.game_max_turns) == (6, 1, 100, 10_000)
    assert set(rp.dtype.names) == {"dice_sides", "dice_bust_face", "goal_target", "game_max_turns"}
    assert {rp.dtype[n] for n in rp.dtype.names} == {np.dtype(np.int64)}  # the kernels' int64 arithmetic
    assert freeze_policies(cfg).policies_hold_at == 20
    assert set(cfg.assumed) <= {"game.max_turns", "policies.hold_at", "solver.tolerance", "solver.max_win_goal"}


@njit
def _goal_bonus(rp):
    return rp.goal_bonus + rp.goal_target


def test_a_new_model_field_reaches_the_kernel_record_with_no_other_edit():
    """A field added to the model (here ``goal.bonus``) is in the record the kernels read, frozen from the config."""

    class BonusGoal(Goal):
        bonus: int = Field(5, ge=0)

    class BonusPig(PigConfig):
        goal: BonusGoal = BonusGoal()

    record = RuleRecord(BonusPig, skip=RULES.skip, derived=RULES.derived, dtype=RULES.uniform)
    rp = record.freeze(BonusPig(goal=BonusGoal(target=80, bonus=7))).view(np.recarray)[0]
    assert _goal_bonus(rp) == 87 and rp.dtype["goal_bonus"] == np.int64


def test_a_roll_adds_its_pips_and_the_bust_face_loses_the_turn():
    rp = freeze(GAME.load())
    for face in range(2, 7):
        assert R.after_roll(np.int64(7), np.int64(face), rp) == (7 + face, False)
        assert R.points(np.int64(face), rp) == face
    assert R.after_roll(np.int64(19), np.int64(1), rp) == (0, True) and R.points(np.int64(1), rp) == 0
    other = freeze(GAME.load(None, ["dice.sides=8", "dice.bust_face=8"]))
    assert R.after_roll(np.int64(5), np.int64(1), other) == (6, False)
    assert R.after_roll(np.int64(5), np.int64(8), other) == (0, True)


def test_holding_wins_at_the_goal_or_past_it():
    rp = freeze(GAME.load(None, ["goal.target=50"]))
    assert R.holding_wins(np.int64(40), np.int64(10), rp) and R.holding_wins(np.int64(40), np.int64(15), rp)
    assert not R.holding_wins(np.int64(40), np.int64(9), rp)


def test_every_policy_holds_when_holding_wins():
    """hold-20 at 95 with a turn total of 5 holds (the game is won), whatever its threshold says."""
    from policies.pig.bots import HOLD_AT, Solved, decide, dummy_turn, dummy_win

    rp, pp = freeze(GAME.load()), freeze_policies(GAME.load(None, ["policies.hold_at=20"]))
    sol = Solved(dummy_turn(), dummy_win())
    assert decide(HOLD_AT, np.int64(95), np.int64(0), np.int64(5), rp, pp, sol)
    assert not decide(HOLD_AT, np.int64(50), np.int64(0), np.int64(19), rp, pp, sol)
    assert decide(HOLD_AT, np.int64(50), np.int64(0), np.int64(20), rp, pp, sol)


@pytest.mark.parametrize(("sets", "match"), [
    (["dice.bust_face=7"], "bust_face"),
    (["dice.sides=1"], "sides"),
    (["goal.target=0"], "target"),
    (["dice.colour=2"], "colour"),
    (["goal.target='100'"], "target"),
])
def test_bad_config_is_one_clear_error(sets, match):
    with pytest.raises(ConfigError, match=match):
        GAME.load(None, sets)


def test_options_and_seats():
    assert GAME.seat_policies("optimal-win,hold-20", GAME.check_options({})) == ["optimal-win", "hold-20"]
    assert GAME.seat_policies("hold-20", {}) == ["hold-20", "hold-20"]
    with pytest.raises(DicesimError, match="unknown policy"):
        GAME.seat_policies("greedy", {})
    with pytest.raises(DicesimError, match="objective"):
        GAME.check_options({"objective": "draw"})
    with pytest.raises(DicesimError, match="does not apply"):
        GAME.check_options({"players": 3})
    plan = GAME.compare_plan(["hold-20", "optimal-turn", "optimal-win"], {})
    assert [label for label, _ in plan] == ["hold-20 vs optimal-turn", "hold-20 vs optimal-win",
                                            "optimal-turn vs optimal-win"]


def test_describe_on_the_command_line():
    res = cli_here("describe", "pig", "--json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["game"] == "pig" and d["players"] == 2 and d["scoring_faces"] == [2, 3, 4, 5, 6]
    assert d["bust_probability"] == pytest.approx(1 / 6) and d["break_even_turn_total"] == 20
    assert d["hold_at_expected_turn_score"]["20"] == pytest.approx(492303203 / 60466176, abs=1e-12)
    at = d["hold_at_expected_turn_score"]
    assert at["20"] > max(at["15"], at["25"]) and d["optimal_turn"]["holds_from_by_own_score"]["0"] == 20
    assert d["optimal_turn"]["expected_turn_score"] == pytest.approx(at["20"], abs=1e-12)
    other = json.loads(cli_here("describe", "pig", "--json", "--set", "dice.sides=8").stdout)
    assert other["break_even_turn_total"] == 35 and other["scoring_faces"] == list(range(2, 9))
