"""Pig's calibrate and tune stay within what its rules and seats accept: the bust face on the die, optimal-win's
goals up to ``solver.max_win_goal``; an end of a range past them is one error line before any play."""

from __future__ import annotations

import json
from pathlib import Path

from sim.games import get_game
from tests.conftest import cli_here


def lines(r) -> list[str]:
    return r.stderr.strip().splitlines()


def refused_tune(tmp_path: Path, fields: str, policy: str) -> str:
    """The one error line of a tune over ``fields`` (TOML lines), refused before its folder is made."""
    spec = tmp_path / "t.toml"
    spec.write_text(f'game = "pig"\nn = 200\n[fields]\n{fields}'
                    f'[[target]]\npolicy = "{policy}"\nmetric = "game_length_turns"\nvalue = 30\n')
    r = cli_here("tune", str(spec), "--out", str(tmp_path / "out"))
    said = lines(r)
    assert r.returncode == 2 and len(said) == 1 and not (tmp_path / "out").exists(), r.stderr
    return said[0]


def test_pig_bust_face_default_range_stays_on_the_die():
    """Doubling steps from 1 reach 8 on a six-sided die: the walk stops at 6, where the target is crossed."""
    r = cli_here("calibrate", "pig", "--field", "dice.bust_face", "--target", "game_length_turns=25", "--policy",
                 "hold-20", "--n", "200", "--json")
    assert r.returncode in (0, 1), r.stderr
    out = json.loads(r.stdout)
    xs = [e["x"] for e in out["evaluations"]]
    assert max(xs) == 6 and min(xs) >= 1 and 4 <= out["value"] <= 6, xs


def test_optimal_win_range_past_the_solver_is_refused_before_play(tmp_path: Path):
    r = cli_here("calibrate", "pig", "--policy", "optimal-win", "--field", "goal.target", "--lo", "50", "--hi", "400",
                 "--target", "game_length_turns=30", "--n", "200")
    said = lines(r)
    assert r.returncode == 2 and len(said) == 1, r.stderr  # no evaluation line: nothing was played
    assert said[0].startswith("error: goal.target 400 (--hi): optimal-win solves goals up to solver.max_win_goal = "
                              "200; give --hi within 2..200"), said[0]
    said = refused_tune(tmp_path, '"goal.target" = [50, 400]\n', "optimal-win")
    assert "[fields] goal.target = 400 (target 1): optimal-win solves goals up to solver.max_win_goal = 200" in said


def test_optimal_win_default_range_stays_within_the_solver():
    """From 100 the walk would try 130 past a solver limit of 120: it stops at 120, where the target is crossed."""
    r = cli_here("calibrate", "pig", "--policy", "optimal-win", "--field", "goal.target", "--set",
                 "solver.max_win_goal=120", "--target", "game_length_turns=23", "--n", "200", "--json")
    assert r.returncode in (0, 1), r.stderr
    xs = [e["x"] for e in json.loads(r.stdout)["evaluations"]]
    assert max(xs) == 120, xs


def test_tune_bounds_that_meet_in_refused_rules_are_refused(tmp_path: Path):
    """Two fields whose bounds combine into a bust face off the die: refused before the folder is made."""
    said = refused_tune(tmp_path, '"dice.bust_face" = [1, 6]\n"dice.sides" = [4, 8]\n', "hold-20")
    assert "the search reaches dice.bust_face = 6, dice.sides = 4: dice.bust_face 6 is not a face of a 4-sided" in said


def test_the_model_says_what_a_field_accepts():
    from sim.games.options import accepted

    pig = get_game("pig").Config
    assert accepted(pig(), "dice.bust_face", ["hold-20"], 1, 20).high == 6
    assert accepted(pig(), "goal.target", ["hold-20"], 2, 1000).high == 1000
    assert accepted(pig(), "goal.target", ["optimal-win"] * 2, 2, 1000).high == 200


def test_a_field_only_another_policy_reads_is_refused_before_play(tmp_path: Path):
    """``policies.hold_at`` is the hold-20 bot's alone: calibrating, tuning or sweeping it under optimal-turn played
    every evaluation the same (a flat line, then 'not reached' after all that play). Refused before any, naming the
    policy that reads it; under hold-20 it is taken, and the solver's fields are optimal-win's alone."""
    r = cli_here("calibrate", "pig", "--policy", "optimal-turn", "--field", "policies.hold_at",
                 "--target", "game_length_turns=30", "--n", "200")
    said = lines(r)
    assert r.returncode == 2 and len(said) == 1, r.stderr
    assert said[0] == ("error: policies.hold_at is read only by hold-20, and this run plays optimal-turn: calibrate "
                       "it with --policy hold-20, or calibrate a field optimal-turn reads"), said[0]
    said = refused_tune(tmp_path, '"solver.tolerance" = [1e-12, 1e-6]\n', "hold-20")
    assert "[fields] solver.tolerance is read only by optimal-win, and this run plays hold-20: tune it" in said, said
    spec = tmp_path / "s.toml"
    spec.write_text('game = "pig"\npolicies = ["optimal-turn", "optimal-win"]\nn = 20\n[grid]\n'
                    '"policies.hold_at" = [15, 25]\n')
    r = cli_here("sweep", str(spec), "--out", str(tmp_path / "sw"))
    assert r.returncode == 2 and not (tmp_path / "sw").exists(), r.stderr
    assert "[grid] policies.hold_at is read only by hold-20, and this run plays optimal-turn, optimal-win" in r.stderr
    r = cli_here("calibrate", "pig", "--policy", "hold-20", "--field", "policies.hold_at",
                 "--target", "game_length_turns=30", "--n", "200", "--json", "--max-evals", "3")
    assert "not reached: policies.hold_at 20..26" in r.stderr, r.stderr  # played: hold-20 reads it
