"""sim.core.record: the kernel's record of rule numbers is generated from the config model."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pytest

from sim.core.config import GameConfig, Strict
from sim.core.record import RuleRecord


class Events(Strict):
    altar_lp: int = 3
    weights: list[float] = [1.0, 1.0]  # a list is no scalar: not in the record


class Path(Strict):
    elite_attack: float = 1.5
    boss_rooms: bool = True
    events: Events = Events()


class Toy(GameConfig):
    name: str = "toy"
    rounding: Literal["floor", "round"] = "round"
    path: Path = Path()
    skipped: int = 7


def test_fields_named_by_their_config_path_in_model_order():
    rec = RuleRecord(Toy, skip=("skipped",), derived={"n_weights": lambda cfg: len(cfg.path.events.weights)})
    assert rec.names == ("rounding", "path_elite_attack", "path_boss_rooms", "path_events_altar_lp", "n_weights")
    r = rec.freeze(Toy())[0]
    assert (r["rounding"], r["path_elite_attack"], r["path_boss_rooms"], r["path_events_altar_lp"]) == (1, 1.5, 1, 3)
    assert r["n_weights"] == 2
    assert rec.choice("rounding", "floor") == 0


def test_a_new_model_field_reaches_the_record_with_no_other_edit():
    class Path2(Path):
        elite_coins: int = 4

    class Toy2(Toy):
        path: Path2 = Path2()

    r = RuleRecord(Toy2).freeze(Toy2(path=Path2(elite_coins=9)))[0]
    assert r["path_elite_coins"] == 9


def test_uniform_dtype_and_per_field_dtypes():
    assert RuleRecord(Toy, dtype=np.float64).dtype["path_events_altar_lp"] == np.float64
    own = RuleRecord(Toy).dtype
    assert own["path_events_altar_lp"] == np.int64 and own["path_elite_attack"] == np.float64


def test_a_derived_number_may_not_shadow_a_field():
    with pytest.raises(ValueError, match="path_elite_attack"):
        RuleRecord(Toy, derived={"path_elite_attack": lambda cfg: 0})


def test_context_reaches_derived_numbers():
    rec = RuleRecord(Toy, derived={"level": lambda cfg, difficulty: ("a", "b").index(difficulty)})
    assert rec.freeze(Toy(), difficulty="b")[0]["level"] == 1
