"""The Fit tab's file handling (``sim.studio.fitting``): which logs it offers, where an upload may go."""

from __future__ import annotations

import io
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
    ("ok\u202e.csv", 10, "holds a control character (U+202E"),  # shown as "okvsc.": a right-to-left override
    ("o\u200bk.csv", 10, "holds a control character (U+200B"),  # an invisible space
    ("a\u2028b.csv", 10, "holds a control character (U+2028"),  # a line separator
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


KNIFFEL_CSV = ("player,game,turn,kind,rolls_left,d1,d2,d3,d4,d5,s_einser,choice\n"
               "p1,0,1,box,0,1,2,3,4,5,-1,einser\n")


@pytest.mark.parametrize(("name", "content", "says"), [
    ("empty.csv", b"", "empty.csv is empty"),
    ("empty.parquet", b"", "empty.parquet is empty"),
    ("binary.csv", bytes(range(256)) * 4, "binary.csv holds NUL bytes"),
    ("high.csv", bytes(range(1, 256)) * 4, "high.csv is not UTF-8 text (byte 0x80 at offset 127)"),
    ("nul.csv", b"player,game\x00\x01\x02\n", "nul.csv holds NUL bytes"),
    ("latin1.csv", KNIFFEL_CSV.replace("einser\n", "einser \xe9t\xe9\n").encode("latin-1"),
     "latin1.csv is not UTF-8 text (byte 0xe9"),
    ("garbage.parquet", b"PAR1 this is no parquet file PAR1", "garbage.parquet is not a readable parquet table"),
    ("table.parquet", "csv", "table.parquet is not a readable parquet table"),
    ("runs.csv", b"run,rooms_cleared,win,coins\n0,3,0,12\n", "runs.csv is no game's log: its columns (coins, "),
    ("head.csv", KNIFFEL_CSV.split("\n")[0].encode() + b"\n\n", "head.csv has its columns but no rows"),
])
def test_an_upload_that_is_no_readable_log_is_refused(tmp_path, name, content, says):
    """A binary file, an empty one, a Latin-1 CSV and garbage.parquet were kept under logs/, and the page said "it
    is kept, and listed under its own game" of files that are no game's log."""
    p = tmp_path / "staged.upload"
    p.write_bytes(KNIFFEL_CSV.encode() if content == "csv" else content)
    with pytest.raises(DicesimError) as e:
        fitting.check_upload(p, name)
    assert str(e.value).startswith(says) and "\n" not in str(e.value), str(e.value)


def test_an_upload_that_is_a_log_names_its_game(tmp_path):
    import pandas as pd

    p = tmp_path / "staged.upload"
    p.write_bytes(b"\xef\xbb\xbf" + KNIFFEL_CSV.replace("\n", "\r\n").encode())  # a byte-order mark, CRLF lines
    assert fitting.check_upload(p, "k.csv") == ["kniffel"]
    p.write_text("player,game,turn,throw,turn_total,set_aside,bank\np1,0,1,123456,0,1,0\n")
    assert fitting.check_upload(p, "d.csv") == ["dadox"]
    pd.read_csv(io.StringIO(KNIFFEL_CSV)).to_parquet(p)
    assert fitting.check_upload(p, "k.parquet") == ["kniffel"]
    p.write_text("player,game,rooms_cleared,win\np1,0,3,0\n")  # an outcome table alone is a dungeon log
    assert "dungeon" in fitting.check_upload(p, "o.csv")


def test_uploads_taken_while_a_studio_runs_are_capped():
    quota = fitting.Quota(files=2, mb=3)
    quota.take(2 * 2**20)
    with pytest.raises(DicesimError, match=r"^this studio takes at most 3 MB of uploads while it runs \(1 MB left, "
                                           r"the file is 2 MB\): restart it for more$"):
        quota.take(2 * 2**20)
    quota.take(2**20)
    with pytest.raises(DicesimError, match="^this studio has taken the 2 uploads it takes while it runs"):
        quota.take(1)
    quota.give_back(2**20)  # a refused upload gives its share back
    quota.take(2**20)
    assert (quota.used_files, quota.used_bytes) == (2, 3 * 2**20)
