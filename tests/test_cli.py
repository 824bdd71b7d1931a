"""The real ``dicesim`` command: JSON contract, outputs, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from sim.games import available
from tests.conftest import ROOT, cli_here, run_cli, run_clis

SAME_SEED = ("play", "kniffel", "--policy", "random", "--n", "500", "--seed", "4", "--no-report", "--json")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[dict[str, subprocess.CompletedProcess], Path]:
    """The module's commands, run once; the tests below read their outputs (the report test rebuilds a copy of the
    ``play --out`` folder). The same seed runs in two processes of their own, side by side (``run_clis``): that two
    processes agree is the point; the rest run in this one (``cli_here``, no interpreter start)."""
    d = tmp_path_factory.mktemp("runs")
    calls = {"same-a": SAME_SEED, "same-b": SAME_SEED}
    here = {  # what a command prints or writes, not about its process
        "play": ("play", "kniffel", "--policy", "greedy", "--n", "2000", "--seed", "1", "--out", str(d / "play"),
                 "--json"),
        "compare": ("compare", "kniffel", "--policies", "random,greedy", "--n", "1000", "--seed", "2", "--out",
                    str(d / "compare"), "--json"),
        "replay": ("replay", "kniffel", "--seed", "1", "--run", "3", "--policy", "greedy"),
        "describe": ("describe", "kniffel", "--json"),
        "sci-n": ("play", "kniffel", "--policy", "random", "--n", "5e2", "--seed", "4", "--no-report", "--json"),
        "seed-2^63": ("play", "kniffel", "--policy", "greedy", "--n", "300", "--seed", str(2**63), "--no-report",
                      "--json"),
        "replay-max-seed": ("replay", "kniffel", "--seed", str(2**64 - 1), "--run", "3", "--policy", "greedy"),
        "solve": ("solve", "kniffel", "--json"),
    }
    with ThreadPoolExecutor(1) as pool:  # the two processes run beside this one's commands
        apart = pool.submit(run_clis, *calls.values())
        done = {name: cli_here(*args) for name, args in here.items()}
        return done | dict(zip(calls, apart.result(), strict=True)), d


def ok_json(res: subprocess.CompletedProcess) -> dict:
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_play_json_contract(runs):
    out, tmp_path = ok_json(runs[0]["play"]), runs[1] / "play"
    for key in ("game", "policy", "n", "seed", "config_hash", "seconds", "runs_per_second", "metrics"):
        assert key in out
    assert out["n"] == 2000 and out["policy"] == "greedy"
    for name, m in out["metrics"].items():
        assert "value" in m, name
    assert "ci95" in out["metrics"]["mean_score"] and "ci95" in out["metrics"]["upper_bonus_rate"]
    for f in (
        "runs-greedy.parquet",
        "runs-greedy.csv",
        "metrics.csv",
        "manifest.json",
        "report.html",
        "score_distribution.png",
        "category_heatmap.png",
    ):
        assert (tmp_path / f).is_file(), f


def test_same_seed_same_numbers(runs):
    """Two separate processes print the same numbers for the same seed."""
    assert ok_json(runs[0]["same-a"])["metrics"] == ok_json(runs[0]["same-b"])["metrics"]


def test_compare_is_paired(runs):
    out, tmp_path = ok_json(runs[0]["compare"]), runs[1] / "compare"
    assert set(out["policies"]) == {"random", "greedy"}
    diff = out["paired"]["mean_score: greedy - random"]
    assert diff["ci95"][0] > 0
    assert out["verdicts"][0].startswith("Who does best (mean score): Greedy ")  # --json answers first, in words
    assert (tmp_path / "report.html").is_file()


def test_report_rebuilds_from_tables(runs, tmp_path):
    shutil.copytree(runs[1] / "play", tmp_path, dirs_exist_ok=True)
    (tmp_path / "report.html").unlink()
    (tmp_path / "score_distribution.png").unlink()
    res = cli_here("report", str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "report.html").is_file() and (tmp_path / "score_distribution.png").is_file()


def test_n_in_scientific_notation(runs):
    """``--n 5e2`` is 500 runs: the same numbers as ``--n 500``."""
    assert ok_json(runs[0]["sci-n"])["metrics"] == ok_json(runs[0]["same-a"])["metrics"]


def test_seeds_up_to_2_64_play(runs):
    """Seeds from 2^63 to 2^64 - 1 play on their own streams (they gave a numba TypingError)."""
    out = ok_json(runs[0]["seed-2^63"])
    assert out["seed"] == 2**63 and out["n"] == 300
    res = runs[0]["replay-max-seed"]
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("Turn") == 13 and res.stdout.split("\n", 1)[1] != runs[0]["replay"].stdout.split("\n", 1)[1]


def test_replay_shows_turns(runs):
    res = runs[0]["replay"]
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("Turn") == 13 and "Final score" in res.stdout and "hold:" in res.stdout


def test_describe_json(runs):
    out = ok_json(runs[0]["describe"])
    assert len(out["categories"]) == 13 and out["solver_states"] == 536448


@pytest.mark.parametrize(
    "args, needle",
    [
        (["play", "kniffel", "--policy", "nope", "--n", "10"], "unknown policy"),
        (["play", "chess", "--policy", "greedy"], "unknown game"),
        (["play", "kniffel", "--policy", "greedy", "--n", "0"], "--n"),
        (["play", "kniffel", "--policy", "greedy", "--n", "-5"], "--n"),
        (["play", "kniffel", "--policy", "greedy", "--set", "bonus.nope=1"], "bonus.nope"),
        (["play", "kniffel", "--policy", "greedy", "--set", "bonus.value=abc"], "bonus.value"),
        (["play", "kniffel", "--policy", "greedy", "--set", "joker.mode=sometimes"], "joker.mode"),
        (["play", "kniffel", "--policy", "greedy", "--set", "turn.rolls=0"], "turn.rolls"),
        (["play", "kniffel", "--policy", "greedy", "--n", "many"], "--n"),
        (["play", "kniffel", "--policy", "greedy", "--players", "0"], "--players"),
        (["play", "kniffel", "--policy", "greedy", "--difficulty", "leicht"], "difficulty"),
        (["solve", "kniffel", "--config", "does/not/exist.toml"], "not found"),
    ],
)
def test_bad_input_is_one_error_line_exit_2(args, needle):
    res = cli_here(*args)  # the entry point's function in this process; a real process: the test below
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], res.stderr
    assert "Traceback" not in res.stderr


def test_broken_toml_is_one_error_line(tmp_path):
    """Through a real process: the interpreter's exit code and nothing else on stderr (no warning, no traceback)."""
    bad = tmp_path / "bad.toml"
    bad.write_text("[bonus\nvalue = 35\n")
    res = run_cli("play", "kniffel", "--policy", "greedy", "--config", str(bad))
    assert res.returncode == 2 and res.stderr.startswith("error: broken TOML") and len(res.stderr.splitlines()) == 1
    assert cli_here("play", "kniffel", "--policy", "greedy", "--config", str(bad)).stderr == res.stderr


def test_json_prints_exactly_one_object(runs):
    res = runs[0]["solve"]
    assert res.returncode == 0
    obj = json.loads(res.stdout)
    assert res.stdout.strip().count("\n") == 0 and obj["game"] == "kniffel"


@pytest.mark.slow
def test_balance_report_covers_every_game(tmp_path):
    """The main job (`make run`): one page linking a report per game, each with tables and charts."""
    res = run_cli("balance", "--n", "300", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    page = (tmp_path / "report.html").read_text()
    for game in available():
        assert f"{game}/report.html" in page
        assert (tmp_path / game / "metrics.csv").is_file()
        assert list((tmp_path / game).glob("*.png"))
    assert (tmp_path / "dungeon" / "win_rate_by_difficulty.png").is_file()
    assert (tmp_path / "dungeon24" / "matchup.png").is_file()
    assert (tmp_path / "findings.json").is_file() and page.index("id='findings'") < page.index("class='card'")
    assert all((tmp_path / game / "findings.json").is_file() for game in available())


def test_module_entry_point_has_every_command():
    """``python -m sim.cli`` offers the commands that sim.cli.sweep registers (sweep, calibrate, check)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    r = subprocess.run([sys.executable, "-m", "sim.cli", "--help"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    for command in ("play", "balance", "sweep", "calibrate", "check"):
        assert command in r.stdout


def test_a_dungeon_replay_names_the_upgrades_its_hero_starts_with():
    """``replay dungeon --policy greedy@wetzstein+gluecksmuenze`` plays with those upgrades from the start: its header
    says so (it said "policy greedy" alone), as the batch's row says it in ``start_upgrades``."""
    r = cli_here("replay", "dungeon", "--policy", "greedy@wetzstein+gluecksmuenze", "--run", "3")
    assert r.returncode == 0, r.stderr
    header = r.stdout.splitlines()[1]
    assert header == "Würfel Dungeon · Greedy · difficulty Leicht · run 3, seed 1 · starts with Wetzstein, " \
                     "Glücksmünze", header  # the game's words (it said "policy greedy, difficulty leicht")
    plain = cli_here("replay", "dungeon", "--policy", "greedy", "--run", "3").stdout.splitlines()[1]
    assert plain == "Würfel Dungeon · Greedy · difficulty Leicht · run 3, seed 1", plain


def test_a_policy_list_is_read_as_its_names(tmp_path):
    """``--policy "greedy, RANDOM"``: the names without the space and in the games' case, as the seats and the
    default folder's name say them (it was ``kniffel-greedy_ random``)."""
    r = cli_here("play", "kniffel", "--policy", "greedy, RANDOM", "--players", "2", "--n", "5", "--json", "--out",
                 str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
    said = json.loads(r.stdout)
    assert said["policy"] == "greedy,random", r.stdout[:300]
    assert said["verdicts"][0].startswith("Who wins (share of games): ") and "Greedy" in said["verdicts"][0] \
        and "Random" in said["verdicts"][0], said["verdicts"]


def test_chunk_takes_a_count_as_n_does(tmp_path):
    """``--chunk 1e3`` as ``--n 1e3`` is read (it was refused as not an integer), the same numbers as ``--chunk 1000``;
    a fraction is refused in ``--n``'s words."""
    said = [cli_here("play", "kniffel", "--policy", "greedy", "--n", "30", "--chunk", c, "--json", "--no-report")
            for c in ("1e3", "1_000", "7")]
    assert all(r.returncode == 0 for r in said), [r.stderr for r in said]
    assert len({json.dumps(json.loads(r.stdout)["metrics"], sort_keys=True) for r in said}) == 1
    r = cli_here("play", "kniffel", "--policy", "greedy", "--chunk", "1.5")
    assert r.returncode == 2 and r.stderr == "error: --chunk must be a whole number, got '1.5'\n", r.stderr


def test_out_beside_no_report_is_said_unused(tmp_path):
    """``--out X --no-report``: nothing is written, and a note says so (the folder was ignored in silence)."""
    r = cli_here("play", "kniffel", "--policy", "greedy", "--n", "5", "--no-report", "--out", str(tmp_path / "x"))
    assert r.returncode == 0 and not (tmp_path / "x").exists(), r.stderr
    said = f"note: --no-report writes no tables, charts or report, so nothing goes to --out {tmp_path / 'x'}\n"
    assert r.stderr == said, r.stderr


def test_a_manifest_of_one_run_is_strict_json(tmp_path):
    """One run has no interval: its manifest held 155 bare ``NaN`` (a browser's ``JSON.parse`` refuses the file);
    every JSON file of the folder is strict, and the report rebuilds from it."""
    out = tmp_path / "one"
    done = cli_here("play", "dungeon", "--policy", "vorschlag", "--n", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr

    def refuse(token: str) -> None:
        raise AssertionError(f"{token} is not JSON")

    for f in out.glob("*.json"):
        json.loads(f.read_text(encoding="utf-8"), parse_constant=refuse)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["metrics"]["win_rate"]["value"] in (0.0, 1.0)
    assert cli_here("report", str(out)).returncode == 0


def test_the_api_summary_and_a_sweeps_rows_are_strict_json(tmp_path):
    """``.summary`` held NaN (an upgrade never offered in ten runs has no lift) where ``--json`` prints null; a sweep's
    per-point row files held bare NaN."""
    import sim

    def refuse(token: str) -> None:
        raise AssertionError(f"{token} is not JSON")

    for r in (sim.play("dungeon", "vorschlag", n=10), sim.compare("dungeon", ["vorschlag", "greedy"], n=10)):
        text = json.dumps(r.summary, allow_nan=False)
        assert "null" in text
    spec = {"game": "dungeon", "policies": ["vorschlag"], "n": 20, "seed": 1, "grid": {"start.lp": [40, 50]}}
    s = sim.sweep(spec, out=tmp_path / "s", report=False)
    for f in (tmp_path / "s" / "rows").glob("*.json"):
        json.loads(f.read_text(encoding="utf-8"), parse_constant=refuse)
    assert len(s.table) == 2
    # a Python spec as Python writes it: tuples and numpy numbers (a tuple of policies was "must be a list")
    import numpy as np

    again = sim.sweep({**spec, "policies": ("vorschlag",), "n": np.int64(20), "grid": {"start.lp": (40, 50)}},
                      out=tmp_path / "t", report=False)
    assert again.summary["fingerprint"] == s.summary["fingerprint"]


def test_ctrl_c_is_one_error_line_and_exit_130(tmp_path):
    """Ctrl-C mid-run exited 0 without a word (typer hands KeyboardInterrupt back as the return value 130 where the
    command line did not look): an interrupted ``dicesim check`` passed a CI gate. Now ``error: interrupted``, 130,
    and nothing written."""
    import signal
    import subprocess
    import sys

    # A terminal's Ctrl-C: SIGINT raises KeyboardInterrupt wherever the main thread is (the handler says where, so a
    # lost one shows in the failure), whatever disposition the test process handed down.
    code = ("import os, signal, sys, threading, traceback\nfrom sim.cli import main\n"
            "def at(sig, frame):\n"
            "    print('SIGINT in', traceback.format_stack(frame, 3), file=sys.stderr)\n    raise KeyboardInterrupt\n"
            "signal.signal(signal.SIGINT, at)\nsignal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])\n"
            "def stop():\n    print('sending SIGINT', file=sys.stderr)\n    os.kill(os.getpid(), signal.SIGINT)\n"
            "threading.Timer(1.5, stop).start()\n"
            f"sys.argv = ['dicesim', 'play', 'kniffel', '--policy', 'greedy', '--n', '50000000', '--force', "
            f"'--out', {str(tmp_path / 'out')!r}]\nmain()\n")
    try:  # stopped, it ends in seconds; a lost Ctrl-C would play the 50 million runs (minutes)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"still playing 2 minutes after its Ctrl-C: {(e.stderr or b'')[-1500:]!r}") from None
    assert done.returncode == 128 + signal.SIGINT == 130, (done.returncode, done.stderr[-1500:])
    assert done.stderr.strip().splitlines()[-1] == "error: interrupted" and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_ctrl_c_a_kernel_load_swallowed_still_stops_the_run(tmp_path):
    """A Ctrl-C that lands while numba loads a kernel is raised inside a C callback (LLVM's object cache calls back
    into Python): Python printed "Exception ignored … KeyboardInterrupt" and the run went on (a 50-million-run play
    for minutes, the CI's Ctrl-C test timed out). It stops the run before anything is written, in one line."""
    import signal
    import subprocess
    import sys

    code = ("import ctypes, sys\nfrom sim.cli import main\nfrom sim.core import backends\nreal = backends.chunk_table\n"
            "def boom():\n    raise KeyboardInterrupt\n"
            "def chunk(game, job):\n    ctypes.CFUNCTYPE(None)(boom)()  # as a kernel's load: a C callback\n"
            "    return real(game, job)\n"
            "backends.chunk_table = chunk\n"
            f"sys.argv = ['dicesim', 'play', 'kniffel', '--policy', 'greedy', '--n', '300', '--out', "
            f"{str(tmp_path / 'out')!r}]\nmain()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 128 + signal.SIGINT, (done.returncode, done.stderr[-1500:])
    assert done.stderr.strip().splitlines()[-1] == "error: interrupted", done.stderr[-1500:]
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-1500:]
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """One Kniffel play's folder, as written (each case edits a copy)."""
    d = tmp_path_factory.mktemp("played") / "run"
    assert cli_here("play", "kniffel", "--policy", "greedy", "--n", "200", "--out", str(d)).returncode == 0
    assert cli_here("report", str(d)).returncode == 0  # as written: it agrees with itself
    return d


@pytest.mark.parametrize("edit, said", [
    (lambda m: m.update(n=10), "n is 10, but the table of greedy holds 200 runs: play again"),
    (lambda m: m.update(policy="optimal"), "policy 'optimal' is not the label of its table of runs (greedy)"),
    (lambda m: m["config"]["bonus"].update(value=999), "its config is not the rules its fingerprint"),
    (lambda m: m.update(policy=["greedy"]), "policy ['greedy'] is not the label of its table of runs"),
    (lambda m: m.update(seconds={"x": [1]}), "seconds must be a number, got {'x': [1]}"),
    (lambda m: m.update(verdicts={"a": 1}), "verdicts must be a list"),
    ("metrics", "mean_score of greedy is 999.5, but its stored runs give "),
    ("label", "metrics.csv: 'other' is no run of this folder (its runs: greedy): play again"),  # a column "Other"
])
def test_report_refuses_a_folder_whose_parts_disagree(played, tmp_path, edit, said):
    """``dicesim report`` believed a folder edited by hand: 'runs 10' over 500 stored runs, 'Kniffel · Optimal'
    over Greedy's runs, 'rules changed: bonus.value=999' beside the old fingerprint, 'Greedy scores 999.5 points
    [203.7, 212.7]' beside the runs' 208.2; a list for the policy or a table for the seconds gave a traceback."""
    import pandas as pd

    d = tmp_path / "run"
    shutil.copytree(played, d)
    if edit in ("metrics", "label"):
        m = pd.read_csv(d / "metrics.csv")
        if edit == "metrics":
            m.loc[m["metric"] == "mean_score", "value"] = 999.5
        else:
            m.loc[m["metric"] == "mean_score", "label"] = "other"
        m.to_csv(d / "metrics.csv", index=False)
    else:
        manifest = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
        edit(manifest)
        (d / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    done = cli_here("report", str(d))
    assert done.returncode == 2 and said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_apis_outcome_methods_refuse_an_empty_or_odd_folder(tmp_path, monkeypatch):
    """``r.plot(out="")`` and ``cal.write("")`` wrote into the current folder where ``sim.play(out="")`` refuses;
    ``cal.write(123)`` gave a bare TypeError; ``cal.plot(show="no")`` was taken."""
    import sim

    monkeypatch.chdir(tmp_path)
    r = sim.play("kniffel", "greedy", n=20)
    cal = sim.calibrate("kniffel", "bonus.value", "mean_score=209", "greedy", n=100, tol=1000)
    for call, said in ((lambda: r.plot(out=""), "out is empty"), (lambda: r.plot(out=123), "out must be a path"),
                       (lambda: cal.write(""), "out is empty"), (lambda: cal.write(None), "out is missing"),
                       (lambda: cal.write(123), "out must be a path"), (lambda: cal.plot(out=""), "out is empty"),
                       (lambda: cal.plot(show="no"), "show must be True or False")):
        with pytest.raises(sim.DicesimError, match=re.escape(said)):
            call()
    assert not list(tmp_path.iterdir())  # nothing written into the current folder


def test_a_replay_that_compiles_says_so(monkeypatch):
    """A first ``replay dungeon24`` compiled its kernels for ~20 s with nothing on stderr: the wait is announced and
    timed as a play's is."""
    from numba import njit

    from sim.games import get_game

    cls = type(get_game("dungeon24"))
    real = cls.replay

    def replay(self, *a, **k):
        njit(lambda x: x + 1)(1)  # a kernel compiled inside the replay, as a cold cache's would be
        return real(self, *a, **k)

    monkeypatch.setattr(cls, "replay", replay)
    done = cli_here("replay", "dungeon24", "--seed", "1", "--run", "0", "--policy", "greedy", "--opponent", "greedy")
    assert done.returncode == 0 and "Dungeon24 replay · seed 1 · run 0" in done.stdout, done.stderr
    assert "compiling Dungeon24 kernels" in done.stderr and "compiled Dungeon24 kernels in" in done.stderr, done.stderr


def test_the_command_ends_without_the_interpreters_teardown_and_keeps_its_exit_codes(tmp_path):
    """``dicesim`` (``sim.cli.run``) ends by ``os._exit`` once its exit handlers ran and its output is flushed: the
    same exit codes, every byte of a long output, an ``atexit`` handler run (a kept log's last line)."""
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "sim.cli", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=300)

    done = cli("play", "kniffel", "--policy", "greedy", "--n", "300", "--no-report", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["n"] == 300, done.stderr
    refused = cli("play", "kniffel", "--policy", "nope")
    assert refused.returncode == 2 and refused.stderr.startswith("error: unknown policy 'nope'")
    assert refused.stdout == ""
    long = cli("describe", "dungeon", "--json")  # some 100 kB on a pipe: flushed before the process ends
    assert long.returncode == 0 and json.loads(long.stdout)["game"] == "dungeon"
    script = ("import atexit, sys; from sim import cli; atexit.register(lambda: print('handler ran', flush=True)); "
              "sys.argv = ['dicesim', '--version']; cli.run()")
    ran = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0 and ran.stdout.splitlines()[-1] == "handler ran"
    text = subprocess.run([sys.executable, "-c", "import sys; from sim import cli; cli.main = lambda: sys.exit('said')"
                           "; cli.run()"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert (text.returncode, text.stderr) == (1, "said\n")  # sys.exit(text): as the interpreter ends it


def test_a_reader_that_goes_after_the_answer_leaves_the_command_to_finish(tmp_path):
    """``dicesim play … | head -1``: the answer comes before the report, so the ``report:`` line met a closed pipe
    and the command exited 1; the report is written and the exit code is 0."""
    with subprocess.Popen([sys.executable, "-m", "sim.cli", "play", "kniffel", "--policy", "greedy", "--n", "300",
                           "--out", str(tmp_path / "r")], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdout.readline().startswith("Kniffel · Greedy")
        proc.stdout.close()  # the reader goes, as head -1 does
        err = proc.stderr.read()
        assert proc.wait(timeout=300) == 0, err
    assert err == "" and (tmp_path / "r" / "report.html").is_file()
