"""A Pig sweep whose later point the game refuses (optimal-win beyond ``solver.max_win_goal``): refused before the
first point plays, and an earlier sweep it would overwrite is left as it was."""

from __future__ import annotations

from tests.conftest import cli_here
from tests.test_sweep_hostile import refused, write

PIG = 'game = "pig"\npolicies = ["optimal-win"]\nn = 20\nseed = 1\n[grid]\n"goal.target" = {}\n'


def test_a_later_point_the_game_refuses_is_refused_before_the_first_plays(tmp_path):
    """Pig's optimal-win solves goals up to solver.max_win_goal: the point beyond it was refused after the first point
    had played and written its files; now before any, naming the point."""
    out = tmp_path / "out"
    res = cli_here("sweep", str(write(tmp_path, PIG.format("[20, 400]"))), "--out", str(out))
    assert not out.exists(), sorted(str(p.relative_to(out)) for p in out.rglob("*"))  # no point played, no file
    refused(res, "[grid] point goal.target=400: optimal-win solves goals up to solver.max_win_goal = 200")


def test_a_refused_sweep_leaves_the_folder_it_would_overwrite(tmp_path):
    """--overwrite of a finished sweep with a file the game refuses: the old sweep stays as it was."""
    out = tmp_path / "out"
    assert cli_here("sweep", str(write(tmp_path, PIG.format("[20]"))), "--out", str(out), "--no-report").returncode == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    res = cli_here("sweep", str(write(tmp_path, PIG.format("[20, 400]"), "t.toml")), "--out", str(out),
                   "--overwrite")
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    refused(res, "goal.target=400")
