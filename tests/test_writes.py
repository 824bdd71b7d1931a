"""Outputs are written whole or not at all, into a folder one command at a time (``sim.core.atomic``).

Fault tests: a full disk (a small tmpfs where this process may mount one, and a writer that raises ENOSPC
everywhere), ``--out`` a file, under a file or read-only, two writers on one folder, a stale lock of a dead process,
``kill -9`` in the middle of writing a play's outputs. Each time: one ``error:`` line and exit code 2, no
traceback, no temporary file, and the folder as it was before.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from sim.core import atomic
from tests.conftest import ROOT, cli_here, run_cli

PLAY = ("play", "kniffel", "--policy", "greedy", "--n", "1500", "--seed", "5")


def state(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (hidden ones included) with its content's hash."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def one_error(r: subprocess.CompletedProcess, needle: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr[-2000:]
    assert "Traceback" not in r.stderr and needle in lines[0], lines[0]
    assert len(lines[0]) < 300
    return lines[0]


@pytest.fixture()
def tmpfs(tmp_path):
    """Mount a tmpfs of the given size (KiB) and options; skipped where this process may not mount one."""
    mounted = []

    def mount(kib: int, opts: str = "") -> Path:
        d = tmp_path / f"fs{len(mounted)}"
        d.mkdir()
        o = f"size={kib}k" + (f",{opts}" if opts else "")
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", o, "tmpfs", str(d)], capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here ({r.stderr.strip() or 'not root'}); the ENOSPC fakes cover it")
        mounted.append(d)
        return d

    yield mount
    for d in mounted:
        subprocess.run(["umount", "-l", str(d)], capture_output=True)


# --- the helper itself -------------------------------------------------------------------------------------------


def test_a_failing_writer_leaves_the_previous_file_and_no_temporary(tmp_path):
    p = atomic.write_text(tmp_path / "a.txt", "old")
    with pytest.raises(RuntimeError), atomic.writing(p) as tmp:
        tmp.write_text("half")
        raise RuntimeError("writer crashed")
    assert p.read_text() == "old" and state(tmp_path) == {"a.txt": hashlib.sha256(b"old").hexdigest()}
    atomic.write_text(p, "new")
    assert p.read_text() == "new" and [f.name for f in tmp_path.iterdir()] == ["a.txt"]


def test_enospc_from_any_writer_is_one_line_and_keeps_the_old_file(tmp_path, monkeypatch):
    p = atomic.write_csv(pd.DataFrame({"x": [1, 2]}), tmp_path / "t.csv")
    before = state(tmp_path)

    def full(self, path, *a, **k):
        Path(path).write_text("x\n1\n")  # a part of the rows reached the disk
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", full)
    with pytest.raises(atomic.OutputError, match=r"^no space left on device writing .*t\.csv$"):
        atomic.write_csv(pd.DataFrame({"x": [3]}), p)
    assert state(tmp_path) == before
    # pyarrow says it without an errno
    assert atomic.reason(OSError("IOError: [Errno 28] Error writing bytes to file")) == "no space left on device"


def test_a_transaction_puts_the_folder_back(tmp_path):
    atomic.write_text(tmp_path / "keep.txt", "1")
    atomic.write_text(tmp_path / "change.txt", "old")
    before = state(tmp_path)
    with pytest.raises(OSError), atomic.transaction(tmp_path):
        atomic.write_text(tmp_path / "change.txt", "new")
        atomic.write_text(tmp_path / "change.txt", "newer")
        atomic.write_text(tmp_path / "added.txt", "x")
        raise OSError(errno.ENOSPC, "No space left on device")
    assert state(tmp_path) == before
    with atomic.transaction(tmp_path):
        atomic.write_text(tmp_path / "change.txt", "new")
    assert (tmp_path / "change.txt").read_text() == "new" and not (tmp_path / atomic.TX_NAME).exists()
    with pytest.raises(OSError), atomic.transaction(tmp_path):  # a removal comes back too
        atomic.remove(tmp_path / "keep.txt")
        raise OSError(errno.ENOSPC, "No space left on device")
    assert (tmp_path / "keep.txt").read_text() == "1"


def test_a_run_into_an_earlier_runs_folder_leaves_only_its_own_tables(tmp_path, monkeypatch):
    """``compare`` then ``play`` with the same ``--out``: the compare's per-run tables go (the manifest no longer names
    them; they were left beside the new ones), files the manifest never named stay; a failing run keeps them all."""
    out = tmp_path / "o"
    r = cli_here("compare", "kniffel", "--policies", "greedy,random", "--n", "10", "--out", str(out))
    assert r.returncode == 0, r.stderr
    (out / "notes.txt").write_text("mine")
    before = state(out)
    from matplotlib.figure import Figure

    def full(self, fname, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full)
    one_error(cli_here("play", "kniffel", "--policy", "optimal", "--n", "10", "--out", str(out)),
              "no space left on device")
    monkeypatch.undo()
    assert state(out) == before
    r = cli_here("play", "kniffel", "--policy", "optimal", "--n", "10", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.glob("runs-*")) == ["runs-optimal.csv", "runs-optimal.parquet"]
    assert (out / "notes.txt").read_text() == "mine"


def test_a_run_of_another_game_into_the_folder_removes_the_earlier_charts(tmp_path):
    """Dadox's charts go when a Kniffel run takes its folder (the manifest names what each report drew); a picture
    the manifest never named stays, and the Kniffel charts are the ones named now."""
    out = tmp_path / "o"
    r = cli_here("play", "dadox", "--policy", "greedy", "--n", "20", "--out", str(out))
    assert r.returncode == 0, r.stderr
    dadox = sorted(p.name for p in out.glob("*.png"))
    assert dadox and sorted(json.loads((out / "manifest.json").read_text())["charts"]) == dadox
    (out / "mine.png").write_bytes(b"not a chart of dicesim")
    r = cli_here("play", "kniffel", "--policy", "greedy", "--n", "20", "--out", str(out))
    assert r.returncode == 0, r.stderr
    named = json.loads((out / "manifest.json").read_text())["charts"]
    assert named and set(dadox) - set(named)  # bank_thresholds.png is Dadox's alone
    assert sorted(p.name for p in out.glob("*.png")) == sorted([*named, "mine.png"])
    r = cli_here("report", str(out))  # rebuilt: the same charts, still named
    assert r.returncode == 0, r.stderr
    assert json.loads((out / "manifest.json").read_text())["charts"] == named
    # a run of another policy name: the earlier tables go first, and its manifest was read only after that (it no
    # longer loaded, so nothing was named and Kniffel's charts stayed beside Dadox's)
    r = cli_here("play", "dadox", "--policy", "threshold", "--n", "20", "--out", str(out))
    assert r.returncode == 0, r.stderr
    again = json.loads((out / "manifest.json").read_text())["charts"]
    assert sorted(p.name for p in out.glob("*.png")) == sorted([*again, "mine.png"]) and not set(named) - set(dadox) \
        & set(p.name for p in out.glob("*.png"))


@pytest.mark.parametrize("command", [
    ("play", "dadox", "--policy", "greedy", "--n", "20"),
    ("sweep", "configs/sweeps/kniffel-bonus.toml"),
    ("calibrate", "kniffel", "--target", "mean_score=209", "--field", "bonus.value", "--policy", "greedy"),
])
def test_a_folder_holding_your_own_report_file_is_refused_and_kept(tmp_path, command):
    """``--out .`` in a folder with a report.html dicesim did not write replaced it without a word; a file of a
    report's name in a folder with no dicesim outputs is the user's: refused before any work, the file as it was.
    Other files beside a report stay allowed (a picture of yours beside the charts)."""
    out = tmp_path / "mine"
    out.mkdir()
    (out / "report.html").write_text("<h1>my own page</h1>")
    (out / "notes.txt").write_text("mine")
    r = cli_here(*command, "--out", str(out))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"error: --out {out} holds report.html, which no dicesim output there names"), r.stderr
    assert (out / "report.html").read_text() == "<h1>my own page</h1>"
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "report.html"]


def test_a_report_folder_written_before_the_kind_files_is_still_dicesims(tmp_path):
    """A balance folder from before ``balance.json`` existed (its report.html dicesim's own page, no kind file) is
    taken over by ``make run`` as before, not refused as the user's."""
    out = tmp_path / "latest"
    out.mkdir()
    (out / "report.html").write_text("<!doctype html><html><head><meta charset='utf-8'><title>dicesim balance "
                                     "report</title></head><body></body></html>")
    atomic.check_kind(out, "balance.json")  # no refusal
    (out / "report.html").write_text("<h1>my own page</h1>")
    with pytest.raises(atomic.OutputError, match="holds report.html, which no dicesim output there names"):
        atomic.check_kind(out, "balance.json")


def test_report_of_a_folder_that_holds_play_folders_keeps_its_own_page(tmp_path):
    """``dicesim report proj`` where ``proj`` merely holds a play folder made a balance dashboard of it and replaced
    the user's own proj/report.html: only a folder ``balance`` wrote (its balance.json, or its page from before that
    file) is a dashboard; any other is refused in one line that names a folder to report, and nothing is written."""
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "report.html").write_text("<p>my own notes</p>")
    assert cli_here("play", "dadox", "--policy", "greedy", "--n", "20", "--out", str(proj / "run1")).returncode == 0
    line = one_error(cli_here("report", str(proj)), f"no manifest.json in {proj}, no balance.json: it holds output "
                     "folders (run1)")
    assert line.endswith(f"report one: dicesim report {proj / 'run1'}") or line.endswith("…"), line
    assert (proj / "report.html").read_text() == "<p>my own notes</p>"
    assert sorted(p.name for p in proj.iterdir()) == ["report.html", "run1"]
    (proj / "report.html").write_text("<!doctype html><html><head><meta charset='utf-8'><title>dicesim balance "
                                      "report (n = 20 per policy, seed 1)</title></head><body></body></html>")
    r = cli_here("report", str(proj))  # a dashboard from before balance.json: rebuilt as before
    assert r.returncode == 0 and r.stdout.strip() == str(proj / "report.html"), r.stderr


def test_the_python_api_refuses_a_folder_holding_your_own_report_file(tmp_path):
    """``sim.play(out=…)`` refuses it as the command line does, the file as it was."""
    import sim
    from sim.core.errors import DicesimError

    (tmp_path / "metrics.csv").write_text("a,b\n1,2\n")
    with pytest.raises(DicesimError, match="holds metrics.csv, which no dicesim output there names"):
        sim.play("kniffel", "greedy", n=20, out=tmp_path)
    assert (tmp_path / "metrics.csv").read_text() == "a,b\n1,2\n"


def test_enospc_during_play_outputs_keeps_the_previous_folder(tmp_path, monkeypatch):
    out = tmp_path / "p"
    r = cli_here(*PLAY, "--out", str(out))
    assert r.returncode == 0, r.stderr
    before = state(out)
    from matplotlib.figure import Figure

    def full(self, fname, *a, **k):  # the tables and metrics are written; the disk fills at the charts
        Path(fname).write_bytes(b"\x89PNG half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full)
    r = cli_here(*PLAY[:-1], "9", "--out", str(out))
    one_error(r, "no space left on device writing")
    monkeypatch.undo()
    assert state(out) == before


# --- a real full disk, a read-only one -----------------------------------------------------------------------------


@pytest.mark.slow
def test_disk_full_on_a_tmpfs(tmpfs):
    small = tmpfs(64)
    r = run_cli(*PLAY, "--out", str(small / "x"))
    one_error(r, "no space left on device writing")
    assert list(small.iterdir()) == []  # the folder it created is gone again

    disk = tmpfs(1024)
    out = disk / "x"
    assert run_cli(*PLAY, "--out", str(out)).returncode == 0
    before = state(out)
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    (disk / "filler").write_bytes(b"\0" * max(0, free - 40 * 1024))  # room for a few files, not a whole play
    one_error(run_cli(*PLAY[:-1], "6", "--out", str(out)), "no space left on device writing")
    assert state(out) == before


def test_read_only_out(tmpfs):
    ro = tmpfs(64, "ro")
    one_error(run_cli(*PLAY, "--out", str(ro / "x")), "read-only file system")


def test_an_unwritable_folder_is_one_line_and_nothing_is_written(tmp_path, monkeypatch):
    """``--out`` in a folder this user may not write: one line naming the folder, exit 2, nothing written. As another
    user the folder's mode (0555) refuses for real; root may write anywhere, so there the operating system's answer
    is put in its place (``mkdir`` below the folder raises EACCES, ``os.access`` on it says no)."""
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    if os.geteuid() == 0:
        real_mkdir, real_access = Path.mkdir, os.access

        def denied_mkdir(self: Path, *a, **k):
            if ro in self.parents:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return real_mkdir(self, *a, **k)

        monkeypatch.setattr(Path, "mkdir", denied_mkdir)
        monkeypatch.setattr(os, "access", lambda p, mode, **k: not (Path(p) == ro and mode & os.W_OK)
                            and real_access(p, mode, **k))
    for args, needle in [
        ((*PLAY, "--out", str(ro / "x")), f"cannot create --out {ro / 'x'}: permission denied"),
        ((*PLAY, "--out", str(ro)), f"cannot write into --out {ro}: permission denied"),
        (("sweep", str(ROOT / "configs/sweeps/kniffel-bonus.toml"), "--out", str(ro / "s")), "permission denied"),
        (("configs", "--copy", str(ro / "c")), "permission denied"),
    ]:
        one_error(cli_here(*args), needle)
    ro.chmod(0o755)
    assert list(ro.iterdir()) == []


def test_out_is_a_file_or_under_one(tmp_path):
    f = tmp_path / "f.txt"
    f.write_text("mine")
    for args, needle in [
        ((*PLAY, "--out", str(f)), "is a file"),
        ((*PLAY, "--out", str(f / "sub")), "is under a file"),
        (("sweep", str(ROOT / "configs/sweeps/kniffel-bonus.toml"), "--out", str(f)), "is a file"),
        (("configs", "--copy", str(f)), "is a file"),
        (("configs", "--copy", str(f / "sub")), "is under a file"),
    ]:
        one_error(cli_here(*args), needle)
    assert f.read_text() == "mine" and [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_configs_copy_writes_whole_files_and_no_temporaries(tmp_path):
    r = cli_here("configs", "--copy", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    copied = sorted(p for p in (tmp_path / "c").rglob("*") if p.is_file())
    assert copied and all(p.suffix == ".toml" for p in copied)
    assert (tmp_path / "c/kniffel/default.toml").read_bytes() == (ROOT / "configs/kniffel/default.toml").read_bytes()


# --- locks ---------------------------------------------------------------------------------------------------------

HOLD = textwrap.dedent("""
    import sys, time
    from sim.core import atomic
    with atomic.folder_lock(sys.argv[1]):
        print("held", flush=True)
        time.sleep(60)
""")


def test_a_second_writer_is_refused_in_one_line(tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert (out / atomic.LOCK_NAME).read_text().strip() == str(holder.pid)
        msg = one_error(cli_here(*PLAY, "--out", str(out)), "is being written by another dicesim command")
        assert f"pid {holder.pid}" in msg
        one_error(cli_here("sweep", str(ROOT / "configs/sweeps/kniffel-bonus.toml"), "--out", str(out)),
                  "is being written by another dicesim command")
    finally:
        holder.kill()
        holder.wait()
    assert [p.name for p in out.iterdir()] == [atomic.LOCK_NAME]  # nothing else was written
    # the holder died with the lock: the next writer takes it over and leaves no lock behind
    r = cli_here(*PLAY, "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert not (out / atomic.LOCK_NAME).exists() and (out / "manifest.json").is_file()


def test_a_lock_of_a_dead_process_is_taken_over(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    out = tmp_path / "stale"
    out.mkdir()
    (out / atomic.LOCK_NAME).write_text(f"{dead.pid}\n")
    (out / ".runs-x.parquet.999.0.tmp").write_text("half a file of a killed writer")
    r = cli_here(*PLAY, "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert not list(out.glob(".*")) and (out / "report.html").is_file()


def test_another_thread_of_this_process_is_refused(tmp_path):
    out = tmp_path / "t"
    got, release = threading.Event(), threading.Event()

    def hold():
        with atomic.output_folder(out):
            got.set()
            release.wait(30)

    t = threading.Thread(target=hold)
    t.start()
    try:
        assert got.wait(30)
        with pytest.raises(atomic.OutputError, match="is being written by another dicesim command"):
            with atomic.folder_lock(out):
                pass
        with atomic.folder_lock(tmp_path):  # another folder is free
            pass
    finally:
        release.set()
        t.join()
    with atomic.folder_lock(out), atomic.folder_lock(out):  # re-entrant in one thread
        pass
    assert not (out / atomic.LOCK_NAME).exists()


@pytest.mark.slow
def test_two_sweeps_on_one_folder(tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text('game = "kniffel"\npolicies = ["greedy"]\nn = 400000\nseed = 1\nchunk = 50000\n'
                     '[grid]\n"bonus.value" = [25, 30, 35, 40]\n')
    out = tmp_path / "out"
    first = subprocess.Popen([sys.executable, "-c", "from sim.cli import main; main()", "sweep", str(sweep), "--out",
                              str(out), "--json", "--no-report"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    deadline = time.monotonic() + 120
    while not (out / "sweep.json").is_file() and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.01)
    second = run_cli("sweep", str(sweep), "--out", str(out), "--overwrite", "--json")
    stdout, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr
    if "is being written by another dicesim command" not in second.stderr:
        pytest.skip("the first sweep finished before the second started (a very fast machine)")
    one_error(second, "is being written by another dicesim command")
    assert (out / "sweep.parquet").is_file() and not list(out.rglob("*.tmp")) and not list(out.glob(".dicesim*"))


# --- kill -9 in the middle of writing ------------------------------------------------------------------------------

SLOW_WRITE = textwrap.dedent("""
    import sys, time
    import pandas as pd
    from sim import api
    real = pd.DataFrame.to_csv
    def slow(self, path, *a, **k):
        real(self, path, *a, **k)
        if str(path).endswith(".tmp") and "metrics" in str(path):
            print("writing", flush=True)
            time.sleep(60)
    pd.DataFrame.to_csv = slow
    api.play("kniffel", "greedy", n=1500, seed=int(sys.argv[2]), out=sys.argv[1])
""")


def test_kill_9_while_writing_leaves_the_previous_outputs(tmp_path):
    out = tmp_path / "k"
    assert cli_here(*PLAY, "--out", str(out)).returncode == 0
    before = state(out)
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITE, str(out), "8"], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "NUMBA_NUM_THREADS": "1"})
    try:
        assert proc.stdout.readline().strip() == "writing"  # the runs table is replaced already, metrics half
        assert state(out) != before
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    with atomic.folder_lock(out):  # the next writer finds the journal and undoes the killed write
        pass
    assert state(out) == before
    r = cli_here("report", str(out))
    assert r.returncode == 0, r.stderr
    assert not list(out.glob(".*"))


def test_no_temporary_or_lock_left_after_a_sweep(tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text('game = "kniffel"\npolicies = ["greedy"]\nn = 2000\nseed = 1\nchunk = 500\n'
                     '[grid]\n"bonus.value" = [25, 35]\n')
    r = cli_here("sweep", str(sweep), "--out", str(tmp_path / "o"), "--json")
    assert r.returncode == 0, r.stderr
    left = [p for p in (tmp_path / "o").rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".dicesim")]
    assert left == [] and (tmp_path / "o" / "report.html").is_file()


def test_an_out_folder_thousands_of_levels_deep_is_made(tmp_path):
    """A legal path 1,500 folders deep: pathlib's mkdir(parents=True) recursed once a level and died in a
    RecursionError traceback (exit 1); the folders are made one level at a time."""
    out = tmp_path.joinpath(*["b"] * 1500)  # past the 1,000 frames of Python's recursion limit
    try:
        r = cli_here("play", "kniffel", "--policy", "greedy", "--n", "10", "--out", str(out))
        assert r.returncode == 0, r.stderr[-400:]
        assert (out / "report.html").is_file()
    finally:  # removed level by level: pytest's own clean-up (shutil.rmtree) recurses once a level as well
        here = out if out.is_dir() else next((p for p in out.parents if p.is_dir()), tmp_path)
        while here != tmp_path:
            for f in here.iterdir():
                shutil.rmtree(f) if f.is_dir() else f.unlink()
            here.rmdir()
            here = here.parent


def test_out_through_a_folder_that_does_not_exist_makes_no_such_folder(tmp_path):
    """``--out new/../b`` wrote its report to b and left an empty folder ``new`` beside it: stepping out of ``new``
    needs it to exist, so the writer made it. A ``..`` after an existing folder (a link, perhaps) is the system's."""
    out = tmp_path / "new" / "x" / ".." / ".." / "b"
    r = cli_here("play", "kniffel", "--policy", "greedy", "--n", "10", f"--out={out}")
    assert r.returncode == 0, r.stderr[-400:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"] and (tmp_path / "b" / "report.html").is_file()
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert atomic.without_missing_ups(str(tmp_path / "link" / ".." / "c")) == str(tmp_path / "link" / ".." / "c")
    assert atomic.without_missing_ups(str(tmp_path / "new" / ".." / "c")) == str(tmp_path / "c")
    assert atomic.without_missing_ups("..") == ".." and atomic.without_missing_ups("/nope/..") == "/"


def test_a_matchup_and_a_play_keep_to_folders_of_their_own(tmp_path):
    """``matchup --out`` wrote its matchup.json and chart into a play's (or a sweep's, a tune's) folder, where every
    other command refuses another's: a matchup's folder is a kind of its own now, both ways, and takes its own
    again."""
    play, mu = tmp_path / "run1", tmp_path / "mu"
    assert cli_here("play", "dadox", "--policy", "greedy", "--n", "20", "--out", str(play)).returncode == 0
    one_error(cli_here("matchup", "--n", "2", "--out", str(play)),
              f"--out {play} holds the report of a play, compare or findings: give the matchup a folder of its own")
    assert not (play / "matchup.json").exists()
    assert cli_here("matchup", "--n", "2", "--out", str(mu)).returncode == 0
    assert cli_here("matchup", "--n", "2", "--out", str(mu)).returncode == 0  # its own folder again
    one_error(cli_here("play", "dadox", "--policy", "greedy", "--n", "20", "--out", str(mu)),
              f"--out {mu} holds a people matchup: give the report a folder of its own")
    assert sorted(p.name for p in mu.iterdir()) == ["matchup.json", "matchup.png"]


def test_a_folder_of_configs_is_no_output_folder(tmp_path):
    """``play --out configs/dadox`` (the shipped configs) and ``--out my-configs/dadox`` (a copy for editing) put a
    run's tables and charts beside default.toml; ``configs --copy`` already refused a play's folder. Refused the
    other way too, before any play; a fit's folder (its population.toml beside fit.json) stays its own."""
    from sim.core.tomlfile import CONFIG_DIR

    mine = tmp_path / "my-configs"
    assert cli_here("configs", "--copy", str(mine)).returncode == 0
    one_error(cli_here("play", "dadox", "--policy", "greedy", "--n", "20", "--out", str(mine / "dadox")),
              f"--out {mine / 'dadox'} holds config files (classic.toml): give the report a folder of its own")
    one_error(cli_here("play", "dadox", "--policy", "greedy", "--n", "20", "--out", str(CONFIG_DIR / "dadox" / "x")),
              "is in the configs dicesim ships: give the report a folder of its own (dicesim configs --copy DIR")
    assert not (CONFIG_DIR / "dadox" / "x").exists() and not (mine / "dadox" / "report.html").exists()
    folder = tmp_path / "fit"
    folder.mkdir()
    (folder / "population.toml").write_text("[skill]\nlevel = 0.5\n")
    (folder / "fit.json").write_text("{}")
    atomic.check_kind(folder, "fit.json")  # a fit's own folder: no refusal


def test_check_keeps_a_page_that_is_not_its_own(tmp_path):
    """``check --out y/mine.csv`` wrote its page to y/mine.html over the user's own page of that name; and
    ``--out V.csv`` beside an earlier ``V.CSV`` would put both tables' pages on one V.html. Both refused before any
    play; the command's own page is replaced by a rerun."""
    targets = str(ROOT / "configs" / "targets" / "kniffel.toml")
    (tmp_path / "mine.html").write_text("<html><title>my notes</title></html>")
    one_error(cli_here("check", targets, "--n", "10", "--out", str(tmp_path / "mine.csv")),
              f"--out {tmp_path / 'mine.csv'}: mine.html there is not a page dicesim wrote (it would be replaced)")
    assert (tmp_path / "mine.html").read_text() == "<html><title>my notes</title></html>"
    (tmp_path / "V.CSV").write_text("a\n")
    one_error(cli_here("check", targets, "--n", "10", "--out", str(tmp_path / "V.csv")),
              f"--out {tmp_path / 'V.csv'}: V.CSV there has the same page (V.html): give another name")
    for _ in range(2):  # its own page again: replaced
        done = cli_here("check", targets, "--n", "10", "--out", str(tmp_path / "ok.csv"))
        assert done.returncode in (0, 1) and "<title>dicesim check" in (tmp_path / "ok.html").read_text()


def test_a_projects_root_is_named_as_one(tmp_path):
    """``--out .`` in a project's root was refused as "holds config files (pyproject.toml)": its files, not configs."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "a.toml").write_text("")
    one_error(cli_here("play", "dadox", "--policy", "greedy", "--n", "20", "--out", str(tmp_path)),
              f"--out {tmp_path} holds a project's files (pyproject.toml): give the report a folder of its own")


def test_nothing_is_written_into_the_shipped_configs(tmp_path):
    """``configs --copy configs/sub`` copied the configs into themselves (the next copy then took the copy for shipped
    configs: 52 files), and ``studio --out configs/x`` started to save there: both refused before anything."""
    from sim.core.tomlfile import CONFIG_DIR

    one_error(cli_here("configs", "--copy", str(CONFIG_DIR / "sub")),
              f"--copy {CONFIG_DIR / 'sub'} is in the configs dicesim ships: give the configs a folder of their own")
    one_error(cli_here("studio", "--out", str(CONFIG_DIR / "x")), "is in the configs dicesim ships")
    assert not (CONFIG_DIR / "sub").exists() and not (CONFIG_DIR / "x").exists()


def test_check_keeps_a_table_it_did_not_write(tmp_path):
    """``check --out z/v.csv`` replaced a v.csv of the user's own (its page was guarded, the table not)."""
    targets = str(ROOT / "configs" / "targets" / "kniffel.toml")
    (tmp_path / "v.csv").write_text("mine\n")
    one_error(cli_here("check", targets, "--n", "10", "--out", str(tmp_path / "v.csv")),
              f"--out {tmp_path / 'v.csv'}: v.csv there is not a table dicesim check wrote (it would be replaced)")
    assert (tmp_path / "v.csv").read_text() == "mine\n"
