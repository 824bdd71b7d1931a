"""The Fit tab's file handling (``sim.studio.fitting``): which logs it offers, where an upload may go."""

from __future__ import annotations

import os
import time

import pytest

from sim.core.config import DicesimError
from sim.games import GAMES
from sim.studio import fitting


def test_the_picker_offers_decision_logs_newest_first_without_outcomes_fits_or_hidden_folders(tmp_path):
    for i, rel in enumerate(["logs/a.parquet", "logs/a.outcomes.parquet", "b.csv", "fits/a/players.csv",
                             ".hidden/c.csv", "logs/notes.txt", "deep/er/d.csv"]):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
        os.utime(p, (time.time() + i, time.time() + i))

    assert fitting.saved_logs(tmp_path) == [tmp_path / "deep/er/d.csv", tmp_path / "b.csv",
                                            tmp_path / "logs/a.parquet"]
    assert fitting.saved_logs(tmp_path / "nothing-here") == []


@pytest.mark.parametrize(("name", "size", "says"), [
    ("../evil.csv", 10, "by its file name alone"),
    ("sub/evil.csv", 10, "by its file name alone"),
    (".hidden.csv", 10, "by its file name alone"),
    ("", 10, "by its file name alone"),
    ("log.txt", 10, "a log is a .parquet or .csv file"),
    ("big.parquet", (fitting.UPLOAD_MAX_MB + 1) * 2**20, f"more than the {fitting.UPLOAD_MAX_MB} MB"),
    ("there.csv", 10, "logs/there.csv exists already"),
    ("x\ny.csv", 10, "holds a control character"),  # a hand-made request kept a line break in the file's name
])
def test_an_upload_goes_under_logs_by_its_name_or_is_refused(tmp_path, name, size, says):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "there.csv").write_text("kept")
    with pytest.raises(DicesimError) as e:
        fitting.upload_target(tmp_path, name, size)
    assert says in str(e.value)
    assert (tmp_path / "logs" / "there.csv").read_text() == "kept"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["logs", "there.csv"]  # nothing else written


def test_an_accepted_upload_target_is_inside_logs(tmp_path):
    assert fitting.upload_target(tmp_path, "mine.CSV", 10) == (tmp_path / "logs" / "mine.CSV").resolve()
    assert fitting.fit_folder(tmp_path, tmp_path / "logs" / "mine.CSV") == (tmp_path / "fits" / "mine").resolve()


def test_the_picker_lists_a_games_own_logs_broken_ones_too(tmp_path):
    """A table is listed under the game whose own columns it has (a Kniffel log missing d3 still is Kniffel's, and
    its fit then says what is missing); another game's log is not listed."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "k.csv").write_text("player,game,turn,kind,rolls_left,d1,d2,d4,d5,s_einser,choice\np1,0,1,box,0,1,2,3,4,-1,"
                                "einser\n")
    (logs / "d.csv").write_text("player,game,turn,throw,turn_total,set_aside,bank\np1,0,1,123456,0,1,0\n")
    (logs / "o.csv").write_text("player,game,rooms_cleared,win\np1,0,3,0\n")
    (logs / "junk.csv").write_text("\x00\x01not,a,log\n")
    (tmp_path / "runs.csv").write_text("run,rooms_cleared,win,coins\n0,3,0,12\n")  # a batch's table: no log
    assert fitting.saved_logs(tmp_path, "kniffel") == [logs / "k.csv"]
    assert fitting.saved_logs(tmp_path, "dadox") == [logs / "d.csv"]
    assert fitting.saved_logs(tmp_path, "dungeon") == [logs / "o.csv"]  # an outcome table alone is a dungeon log
    unlogged = next(g for g in GAMES if not fitting.fittable(g))  # the one-die game (named only in its own files)
    assert fitting.saved_logs(tmp_path, unlogged) == []  # no log format


def test_two_uploads_of_one_name_keep_the_first_whole(tmp_path):
    """Two files named race.csv in one request both passed the name check and were written to the one staging name
    of the process, then renamed into place: the log held rows of both. Each upload has its own staging file, and
    the second finds the name taken."""
    target = fitting.upload_target(tmp_path, "race.csv", 10)
    a, b = fitting.staging(target), fitting.staging(target)
    assert a != b and a.parent == b.parent == target.parent and a.name.startswith(".race.csv.")
    a.write_text("a,b\n1,1\n")
    b.write_text("a,b\n2,2\n2,2\n")
    fitting.keep(a, target)
    with pytest.raises(DicesimError, match="logs/race.csv exists already"):
        fitting.keep(b, target)
    assert target.read_text() == "a,b\n1,1\n"
