"""Pig's rule tables for ``describe``: the die's odds, hold-at-h values and the turn optimum's holding totals. Plain
numpy and the turn solver (milliseconds at the default goal): ``dicesim describe`` runs them as Python
(``sim.cli.work.tables``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.config import config_hash
from sim.games.pig.columns import COLUMNS
from sim.games.pig.config import PigConfig, freeze
from sim.games.pig.options import PLAYERS
from sim.games.pig.solve import solve_turn

CONFIG = PigConfig  # the rules these tables read (sim.cli.work.tables loads them without the game)


def describe(cfg: PigConfig, options: dict[str, Any]) -> dict[str, Any]:
    """The die, hold-at-h's expected turn, and where the turn optimum holds by own score."""
    rp = freeze(cfg)
    T, hold = solve_turn(rp)
    faces = [f for f in range(1, cfg.dice.sides + 1) if f != cfg.dice.bust_face]
    return {
        "game": "pig",
        "config_hash": config_hash(cfg),
        "config": cfg.model_dump(mode="json"),
        "assumed": list(cfg.assumed),
        "players": PLAYERS,
        "scoring_faces": faces,
        "bust_probability": 1 / cfg.dice.sides,
        "mean_scoring_roll": float(np.mean(faces)),
        "break_even_turn_total": sum(faces),
        "break_even_means": "a roll at turn total k adds (sum of scoring faces - k) / sides in expectation: "
        "rolling gains below this total and loses above it (far from the goal)",
        "hold_at_expected_turn_score": {str(h): hold_at_value(rp, h) for h in (10, 15, 20, 25, 30)},
        "optimal_turn": {"expected_turn_score": float(T[0, 0]),
                         "holds_from_by_own_score": first_holds(hold, rp)},
        "columns": [c.name for c in COLUMNS],
    }


def hold_at_value(rp: np.record, h: int) -> float:
    """Expected points of a turn that holds at ``h`` (from score 0, goal out of reach: exact recursion)."""
    sides, bust = int(rp.dice_sides), int(rp.dice_bust_face)
    e = np.zeros(h + sides + 1)
    for k in range(h + sides, -1, -1):
        e[k] = k if k >= h else sum(e[k + f] for f in range(1, sides + 1) if f != bust) / sides
    return float(e[0])


def first_holds(hold: np.ndarray, rp: np.record) -> dict[str, int | None]:
    """optimal-turn's smallest holding turn total by own score, for every tenth score and the last ten."""
    g = int(rp.goal_target)
    own = sorted(set(range(0, g, max(1, g // 10))) | set(range(max(0, g - 10), g)))
    out: dict[str, int | None] = {}
    for i in own:
        ks = [k for k in range(1, g - i) if hold[i, k]]
        out[str(i)] = ks[0] if ks else None
    return out
