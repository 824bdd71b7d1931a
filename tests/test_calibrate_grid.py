"""Calibrate and tune try only values the rules and the seats accept: Dadox's exact target on its points grid
(50s); an end of a range that the rules or the seats refuse is one error line before any play (a game whose limits
hang on its seats: tests/games/test_pig_calibrate.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from sim.games import get_game
from tests.conftest import cli_here


def lines(r) -> list[str]:
    return r.stderr.strip().splitlines()


def test_dadox_target_calibrates_on_the_points_grid():
    """The search's own trial values (8556, 8228 before) are snapped to multiples of 50: it ends, on the grid."""
    for extra in ([], ["--lo", "1000", "--hi", "20000"]):
        r = cli_here("calibrate", "dadox", "--policy", "threshold", "--field", "goal.target", "--target",
                     "game_length_turns=60", "--n", "200", "--max-evals", "12", "--json", *extra)
        assert r.returncode in (0, 1), r.stderr
        out = json.loads(r.stdout)
        xs = [e["x"] for e in out["evaluations"]]
        assert all(x % 50 == 0 for x in xs) and out["value"] % 50 == 0, xs
        assert all(b % 50 == 0 for b in out["bracket"]) and out["value"] in xs
        if out["stop"] == "bracket resolved":  # two neighbours on the grid, not on the integers
            assert out["bracket"][1] - out["bracket"][0] == 50
        assert 1000 <= min(xs) and max(xs) <= 20000


def test_dadox_target_tunes_on_the_points_grid(tmp_path: Path):
    spec = tmp_path / "t.toml"
    spec.write_text('game = "dadox"\nn = 200\nmax_evals = 8\n[fields]\n"goal.target" = [1000, 20000]\n'
                    '[[target]]\npolicy = "threshold"\nmetric = "game_length_turns"\nvalue = 60\n')
    r = cli_here("tune", str(spec), "--out", str(tmp_path / "out"), "--json", "--no-report")
    assert r.returncode in (0, 1), r.stderr
    s = json.loads(r.stdout)
    h = pd.read_csv(tmp_path / "out" / "history.csv")
    assert len(h) == s["evaluations"] >= 3 and (h["goal.target"] % 50 == 0).all(), h["goal.target"].tolist()
    assert s["values"]["goal.target"] % 50 == 0
    assert get_game("dadox").load(tmp_path / "out" / "tuned.toml").goal.target == s["values"]["goal.target"]


def test_the_models_say_what_a_field_accepts():
    from sim.games.options import accepted

    dadox = get_game("dadox").Config
    grid = accepted(dadox(), "goal.target", ["threshold"], 50, 1_000_000)
    assert (grid.low, grid.high, grid.step, grid.nearest(8556), grid.nearest(8228)) == (50, 1_000_000, 50, 8550, 8250)
    opening = dadox.model_validate({"turn": {"opening_minimum": 120}})
    assert accepted(opening, "goal.target", [], 50, 1_000_000).low == 150
    assert accepted(dadox.model_validate({"goal": {"exact": False}}), "goal.target", []).step == 1
