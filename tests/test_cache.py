"""Caches that cannot go stale: kernel keys from import closures, checked solver tables, cache commands."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from sim.core import cache
from sim.games import GAMES, get_game
from sim.jit import codehash
from sim.jit.codehash import closure, module_file, source_key
from sim.jit.jitcache import kernel_dir
from sim.jit.progress import UNDECLARED_S, declared
from tests.conftest import ROOT, cli_here, cli_json, here_json, run_cli, run_clis


def _isolated(tmp_path: Path) -> dict[str, str]:
    """A private cache folder for tables that still shares this machine's compiled kernels (no recompiling)."""
    return {"DICESIM_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": str(cache.numba_dir())}


def test_kernel_closure_covers_imports_and_nothing_else():
    play = module_file("sim.games.dungeon.play")
    deps = {str(p.relative_to(ROOT)) for p in closure(play)}
    assert {"sim/games/dungeon/play.py", "policies/dungeon/bots.py", "sim/core/rng.py",
            "sim/games/dungeon/rules.py"} <= deps
    assert "sim/report/outputs.py" not in deps and "sim/cli/__init__.py" not in deps
    assert "sim/games/kniffel/play.py" not in deps


@pytest.fixture
def fake_project(tmp_path, monkeypatch):
    """A tiny project tree: sim/a.py imports sim/b.py (inside a function), sim/c.py stands alone."""
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "__init__.py").write_text("")
    (tmp_path / "sim" / "a.py").write_text("def f():\n    from sim.b import g\n    return g()\n")
    (tmp_path / "sim" / "b.py").write_text("from . import c as _unused\ndef g():\n    return 1\n")
    (tmp_path / "sim" / "c.py").write_text("X = 1\n")
    (tmp_path / "sim" / "d.py").write_text("X = 2\n")
    monkeypatch.setattr(codehash, "PROJECT_ROOT", tmp_path)
    monkeypatch.setattr(codehash, "_memo", None)
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path / "cache"))
    for fn in (codehash.direct_imports, codehash.closure, codehash.source_key):
        fn.cache_clear()
    yield tmp_path
    for fn in (codehash.direct_imports, codehash.closure, codehash.source_key):
        fn.cache_clear()


def _key(root: Path, name: str) -> str:
    for fn in (codehash.direct_imports, codehash.closure, codehash.source_key):
        fn.cache_clear()
    return source_key(root / "sim" / name)


def test_key_changes_with_any_imported_module_only(fake_project):
    a0 = _key(fake_project, "a.py")
    (fake_project / "sim" / "d.py").write_text("X = 3\n")  # imported by nobody
    assert _key(fake_project, "a.py") == a0
    (fake_project / "sim" / "c.py").write_text("X = 4\n")  # imported by b (relative), which a imports in a function
    a1 = _key(fake_project, "a.py")
    assert a1 != a0
    (fake_project / "sim" / "a.py").write_text((fake_project / "sim" / "a.py").read_text() + "# edit\n")
    assert _key(fake_project, "a.py") not in (a0, a1)


def test_kernels_are_cached_under_their_source_key():
    """A real run stores its kernel under <cache>/numba/<module>/<key of the module and its imports>."""
    res = cli_here("play", "kniffel", "--policy", "greedy", "--n", "200", "--no-report")
    assert res.returncode == 0, res.stderr
    play = module_file("sim.games.kniffel.play")
    d = kernel_dir(play)
    assert d == cache.numba_dir() / "sim.games.kniffel.play" / source_key(play)
    assert any(d.glob("*.play_sheets-*.nbi")) and any(d.glob("*.play_sheets-*.nbc"))
    assert not any(ROOT.joinpath("sim").rglob("*.nbi"))  # nothing written into the package


def test_table_roundtrip_and_corruption(tmp_path, capsys):
    path = tmp_path / "t.npz"
    arrays = {"E": np.arange(10.0), "n": np.array(3)}
    cache.save_table(path, arrays)
    back = cache.load_table(path)
    assert back is not None and np.array_equal(back["E"], arrays["E"]) and int(back["n"]) == 3
    assert cache.load_table(tmp_path / "missing.npz") is None
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # truncated
    assert cache.load_table(path) is None and not path.exists()
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is corrupt" in err[0] and "rebuilding" in err[0]
    cache.save_table(path, {"E": np.arange(10_000.0)})
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 3] ^= 0xFF  # one flipped byte inside the stored (compressed) values
    path.write_bytes(bytes(raw))
    assert cache.load_table(path) is None
    assert "is corrupt" in capsys.readouterr().err


def test_tables_are_stored_compressed(tmp_path):
    """Kniffel's greedy tables were 12.4 MB of mostly repeated values per rules variant (29 GB on a test machine)."""
    gk = np.zeros((16384, 1, 252), np.int16)
    gk[:, 0, ::7] = 3
    path = tmp_path / "greedy.npz"
    cache.save_table(path, {"gk": gk})
    assert path.stat().st_size < gk.nbytes / 20
    assert np.array_equal(cache.load_table(path)["gk"], gk)


def _aged(path: Path, seconds_ago: float) -> Path:
    t = time.time() - seconds_ago
    os.utime(path, (t, t))
    return path


def test_keep_within_removes_the_least_recently_used_first(tmp_path):
    from sim.core.paths import keep_within

    files = {}
    for name, age in [("old", 400), ("mid", 300), ("new", 200), ("newest", 100)]:
        files[name] = tmp_path / "a" / f"{name}.npz"
        files[name].parent.mkdir(exist_ok=True)
        files[name].write_bytes(b"x" * 100)
        _aged(files[name], age)
    (tmp_path / "a" / "sub").mkdir()
    stale = tmp_path / "a" / ".t.npz.1.2.tmp"
    stale.write_bytes(b"x" * 1000)
    _aged(stale, 2 * 3600)
    fresh = tmp_path / "a" / ".u.npz.1.3.tmp"  # a writer at work: left alone
    fresh.write_bytes(b"x" * 1000)
    assert keep_within(tmp_path, 250, keep=files["old"]) == 1000 + 200
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == [".u.npz.1.3.tmp", "newest.npz", "old.npz", "sub"]
    assert keep_within(tmp_path, 10_000) == 0 and keep_within(tmp_path / "absent", 0) == 0


def test_the_tables_folder_keeps_its_budget_and_a_read_marks_use(tmp_path, monkeypatch):
    """A sweep over Kniffel's rules stores a table per value: beyond the budget the least recently used go."""
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path / "cache"))
    a, b, c = (cache.table_path("kniffel", "greedy", k, "v") for k in "abc")
    noise = {"E": np.random.default_rng(1).random(1000)}  # ~8 kB compressed
    cache.save_table(a, noise)
    cache.save_table(b, noise)
    _aged(a, 200)
    _aged(b, 100)
    assert cache.load_table(a) is not None  # a is now the most recently used
    size = a.stat().st_size
    monkeypatch.setattr(cache, "TABLES_BUDGET", 2 * size + size // 2)
    cache.save_table(c, noise)
    assert a.is_file() and not b.exists() and c.is_file()
    outside = tmp_path / "elsewhere.npz"  # a table saved outside the cache folder prunes nothing
    monkeypatch.setattr(cache, "TABLES_BUDGET", 0)
    cache.save_table(outside, noise)
    assert a.is_file() and c.is_file() and outside.is_file()


def test_stored_answers_keep_their_budget(tmp_path, monkeypatch, capsys):
    from sim.cli import answers

    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(answers, "ANSWERS_BUDGET", 1)
    monkeypatch.setattr(answers, "PRUNE_EVERY", 1)  # at every answer here (about one in 16 otherwise)
    answers.answer("k1", lambda: print("one"))
    answers.answer("k2", lambda: print("two"))
    answers.save_data("k3", {"x": 1})
    assert [p.name for p in (tmp_path / "cache" / "answers").iterdir()] == ["k3.json"]
    assert capsys.readouterr().out == "one\ntwo\n"


def test_solver_table_key_has_rules_and_code_version():
    code = codehash.code_version("sim.games.kniffel.solve")
    p = cache.table_path("kniffel", "optimal", "abc", code)
    assert p.name == f"optimal-abc-{code}.npz"
    assert code != codehash.code_version("sim.games.dadox.solve_win")
    deps = {str(q.relative_to(ROOT)) for q in closure(module_file("sim.games.kniffel.solve"))}
    assert {"sim/games/kniffel/solve.py", "sim/games/kniffel/rules.py", "sim/core/dice.py"} <= deps
    # Dadox's optimal-win table (game.py) is keyed by the win solver, whose closure holds the turn recursion
    deps = {str(q.relative_to(ROOT)) for q in closure(module_file("sim.games.dadox.solve_win"))}
    assert {"sim/games/dadox/solve_win.py", "sim/games/dadox/solve.py", "sim/games/dadox/tables.py"} <= deps


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[dict, Path]:
    """``solve kniffel`` once into an empty private cache: its JSON and the cache folder (tests work on copies)."""
    d = tmp_path_factory.mktemp("solved")
    return cli_json("solve", "kniffel", env=_isolated(d)), d / "cache"


def _copy_cache(solved: tuple[dict, Path], tmp_path: Path) -> dict[str, str]:
    shutil.copytree(solved[1], tmp_path / "cache")
    return _isolated(tmp_path)


def test_solve_cache_fresh_and_corrupt_file_via_cli(solved, tmp_path):
    first = solved[0]
    assert not first["cached"] and first["value"] == pytest.approx(254.5838197, abs=5e-7)
    env = _copy_cache(solved, tmp_path)
    [table] = (tmp_path / "cache" / "tables" / "kniffel").glob("optimal-*.npz")
    assert here_json("solve", "kniffel", env=env)["cached"]
    fresh = here_json("solve", "kniffel", "--fresh", env=_copy_cache(solved, tmp_path / "b"))
    assert not fresh["cached"] and fresh["value"] == first["value"] and fresh["seconds"] > 0
    table.write_bytes(table.read_bytes()[:1000])
    res = run_cli("solve", "kniffel", "--json", env=env)  # a real process: one warning line on its stderr
    assert res.returncode == 0, res.stderr
    warn = [line for line in res.stderr.splitlines() if "corrupt" in line]
    assert len(warn) == 1 and str(table) in warn[0]
    again = json.loads(res.stdout)
    assert not again["cached"] and again["value"] == first["value"]
    assert here_json("solve", "kniffel", env=env)["cached"]


def test_cache_info_and_clear(solved, tmp_path):
    env = _copy_cache(solved, tmp_path)
    js, text = run_clis(("cache", "info", "--json"), ("cache", "info"), env=env)
    assert js.returncode == 0, js.stderr
    info = json.loads(js.stdout)
    assert info["root"] == str(tmp_path / "cache")
    assert [t["game"] for t in info["tables"]] == ["kniffel"] and info["tables"][0]["bytes"] > 1_000_000
    assert text.returncode == 0 and "kept within 1.0 GB" in text.stdout
    assert re.search(r"^  kniffel/optimal +1 table +\d+\.\d MB$", text.stdout, re.M), text.stdout
    assert "stored answers of combos and describe: " in text.stdout
    assert here_json("combos", "5", "5", "5", "2", "2", env=env)  # a stored answer: cleared too
    (tmp_path / "cache" / "mine.txt").write_text("not dicesim's")  # a file of the user's where the cache lives
    cleared = here_json("cache", "clear", env={"DICESIM_CACHE_DIR": str(tmp_path / "cache")})
    assert cleared["bytes"] >= info["tables"][0]["bytes"]
    left = {p.name for p in (tmp_path / "cache").iterdir()}
    assert "mine.txt" in left and not left & {"tables", "answers", "imports.json"}, left
    assert here_json("cache", "info", env=env)["tables"] == []


def test_clear_removes_dicesims_files_and_nothing_else(tmp_path):
    """``cache clear`` removed the kernel, table and answer folders whole: another project's kernels in a shared
    ``NUMBA_CACHE_DIR`` and a file of the user's among the tables went with them. Now only dicesim's files go, and
    the line names the kernels' folder where it lies apart."""
    root, shared = tmp_path / "cache", tmp_path / "numba-shared"
    env = {"DICESIM_CACHE_DIR": str(root), "NUMBA_CACHE_DIR": str(shared)}
    theirs = [shared / "otherproject" / "kernel.nbc", root / "tables" / "mine" / "data.bin", root / "answers" / "x.txt"]
    for f in theirs:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"not dicesim's")
    ours = [shared / "sim.games.kniffel.rules" / "v" / "k.nbi", shared / "warm" / "kniffel-1", root / "imports.json",
            root / "tables" / "kniffel" / "optimal-abc-def.npz", root / "answers" / ("0" * 24 + ".json"),
            root / "tables" / "kniffel" / ".optimal-abc-def.npz.12.34.tmp"]
    for f in ours:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"dicesim's")
    listed = here_json("cache", "info", env=env)
    assert [k["module"] for k in listed["kernels"]] == ["sim.games.kniffel.rules"]  # not otherproject
    said = cli_here("cache", "clear", env=env)
    assert said.returncode == 0 and said.stdout.startswith(f"cleared dicesim's files in {root} and its kernels in "
                                                           f"{shared} ("), said.stdout
    assert all(f.is_file() for f in theirs) and not any(f.exists() for f in ours)
    assert not (root / "tables" / "kniffel").exists()  # an emptied game folder goes too


def test_a_relative_cache_folder_is_the_working_folders(tmp_path):
    """``DICESIM_CACHE_DIR=relative/cache`` was kept relative: a process started elsewhere (a worker, a background
    compile) would have used another folder. It is the working folder's, said to those processes as a whole path."""
    from sim.core import paths

    done = subprocess.run([sys.executable, "-c", "import os; from sim.core import paths; paths.check_cache_root(); "
                           "print(paths.cache_root()); print(os.environ['DICESIM_CACHE_DIR'])"],
                          cwd=tmp_path, env={**os.environ, paths.ENV: "relative/cache",
                                             "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path / "relative" / "cache")] * 2

def test_version_prints_version_and_code_hash():
    from sim import __version__

    res = run_cli("--version")
    assert res.returncode == 0
    assert res.stdout.strip() == f"dicesim {__version__} (code {codehash.code_hash()})"


def test_configs_list_and_copy(tmp_path):
    listed = here_json("configs")
    assert "kniffel/default.toml" in listed["files"] and "dungeon/default.toml" in listed["files"]
    assert set(listed["files"]) == {str(p.relative_to(ROOT / "configs")) for p in (ROOT / "configs").rglob("*.toml")}
    own = {str(p.relative_to(ROOT / "configs")) for p in (ROOT / "configs/kniffel").glob("*.toml")}
    assert set(here_json("configs", "Kniffel")["files"]) == own | {  # its folder and the files named for it
        "sweeps/kniffel-bonus.toml", "sweeps/kniffel-joker.toml", "targets/kniffel.toml", "tune/kniffel-bonus.toml"}
    # each says what it is, from the comment it opens with (the name no-bonus hid that the upper bonus stays)
    assert listed["about"]["kniffel/no-bonus.toml"] == "No Kniffel bonus and no joker (the upper bonus stays)"
    assert all(listed["about"][f] for f in listed["files"]), [f for f in listed["files"] if not listed["about"][f]]
    said = cli_here("configs", "kniffel").stdout
    assert "  kniffel/no-bonus.toml      No Kniffel bonus and no joker (the upper bonus stays)\n" in said, said
    dungeon = here_json("configs", "dungeon")["files"]
    assert "targets/dungeon.toml" in dungeon and not [f for f in dungeon if "dungeon24" in f]
    dest = tmp_path / "mine"
    res = cli_here("configs", "--copy", str(dest))
    assert res.returncode == 0, res.stderr
    assert (dest / "kniffel" / "free-joker.toml").read_text() == (ROOT / "configs/kniffel/free-joker.toml").read_text()
    again = run_cli("configs", "--copy", str(dest))  # a real process: exit code 2 and one line
    assert again.returncode == 2 and again.stderr.startswith("error: ") and len(again.stderr.splitlines()) == 1
    report = tmp_path / "report"  # a play's folder: the configs would mix with its files
    report.mkdir()
    (report / "manifest.json").write_text("{}")
    done = cli_here("configs", "--copy", str(report))
    assert done.returncode == 2 and done.stderr == (f"error: --copy {report} holds the report of a play, compare or "
                                                    "findings: give the configs a folder of their own\n")
    assert sorted(p.name for p in report.iterdir()) == ["manifest.json"]
    linked = tmp_path / "linked" / "kniffel"  # a link to nothing where a config goes: the user's, not replaced
    linked.mkdir(parents=True)
    (linked / "default.toml").symlink_to(tmp_path / "nowhere.toml")
    done = cli_here("configs", "kniffel", "--copy", str(linked.parent))
    assert done.returncode == 2 and "kniffel/default.toml exists already" in done.stderr, done.stderr
    assert (linked / "default.toml").is_symlink()
    # --config reads a user file relative to the working directory: an edited copy
    mine = dest / "kniffel" / "no-bonus.toml"
    mine.write_text(mine.read_text().replace("value = 35", "value = 41"))
    out = subprocess.run(
        [sys.executable, "-c", "from sim.cli import main; main()", "describe", "kniffel", "--config",
         "mine/kniffel/no-bonus.toml", "--json"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr
    cfg = json.loads(out.stdout)["config"]
    assert cfg["bonus"]["value"] == 41 and cfg["scores"]["kniffel_bonus"] == 0


def test_a_configs_copy_that_fails_leaves_nothing(tmp_path, monkeypatch):
    """A full disk half way: the files copied so far stayed, and asking again was refused ("exists already")."""
    import shutil

    copied, real = [], shutil.copyfile

    def full(src, dst):
        if len(copied) == 7:
            raise OSError(28, "No space left on device")
        copied.append(dst)
        return real(src, dst)

    monkeypatch.setattr(shutil, "copyfile", full)
    res = cli_here("configs", "--copy", str(tmp_path / "mine"))
    assert res.returncode == 2 and "no space left on device" in res.stderr, res.stderr
    assert len(copied) == 7 and not (tmp_path / "mine").exists()
    monkeypatch.undo()
    assert cli_here("configs", "--copy", str(tmp_path / "mine")).returncode == 0


COMPILE_SNIPPET = """
from numba import njit
import numpy as np
from sim.jit.progress import compiling

@njit
def f(x):
    return x.sum() + 1

with compiling("kniffel", "Kniffel"):
    f(np.arange(3))
with compiling("kniffel", "Kniffel"):
    f(np.arange(3))  # compiled already: says nothing
"""


def test_compile_notice_plain_lines_and_quiet(tmp_path):
    env = {**os.environ, "DICESIM_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    quiet_env = {**env, "DICESIM_CACHE_DIR": str(tmp_path / "q"), "DICESIM_QUIET": "1"}
    with ThreadPoolExecutor(2) as pool:  # two processes side by side, each its own cache folder
        res, quiet = pool.map(lambda e: subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], capture_output=True,
                                                       text=True, env=e, timeout=300), (env, quiet_env))
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("compiling Kniffel kernels (once, about ") and lines[0].endswith(" s)")
    assert lines[1].startswith("compiled Kniffel kernels in ")
    assert "\x1b" not in res.stderr  # not a terminal: no control codes
    rec = tmp_path / "numba" / "compile-seconds.json"  # one small kernel: no figure of the game's cold compile
    assert not rec.exists() or "kniffel" not in json.loads(rec.read_text())
    assert quiet.returncode == 0 and quiet.stderr == ""


AFTER_A_WARM_UP = """
from numba import njit
import numpy as np
from sim.jit.progress import compiled_elsewhere, compiling

@njit
def f(x):
    return x.sum() + 1

compiled_elsewhere("kniffel", 40.0)  # a warm-up process compiled the game's kernels in 40 s of CPU
with compiling("kniffel", "Kniffel"):
    f(np.arange(3))  # the rest (a report's extras), compiled here
"""


def test_the_rest_compiled_after_a_warm_up_adds_to_its_figure(tmp_path):
    """What a process compiles of a game after a warm-up process compiled it for it is announced as the rest and
    added to the game's figure: it replaced the figure before (a 55 s compile was remembered as its last 4 s, so the
    next cold run announced 'about 5 s')."""
    env = {**os.environ, "DICESIM_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", AFTER_A_WARM_UP], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stderr.splitlines()[0] == "compiling Kniffel kernels: more of them (about 5 s)", res.stderr
    seconds = json.loads((tmp_path / "numba" / "compile-seconds.json").read_text())["kniffel"]["seconds"]
    assert 40.0 < seconds < 40.0 + 60


def _quickest_to_compile() -> str:
    """The game whose kernels compile fastest by its declared estimate: a cold-compile test needs any one game."""
    return min(GAMES, key=lambda g: declared(g, g) or UNDECLARED_S)


def test_quiet_flag_silences_compile_notices(tmp_path):
    """A cold solve says it compiles (plain lines, no control codes); ``--quiet`` before any command silences it."""
    game = _quickest_to_compile()
    args = ("solve", game, "--objective", "turn", "--json")
    with ThreadPoolExecutor(2) as pool:  # both compile on an empty kernel cache of their own, side by side
        loud, quiet = pool.map(lambda a: run_cli(*a[0], env={"NUMBA_CACHE_DIR": str(tmp_path / a[1]),
                                                             "DICESIM_CACHE_DIR": str(tmp_path / a[1])}),
                               ((args, "loud"), (("--quiet", *args), "quiet")))
    assert loud.returncode == 0, loud.stderr
    title = get_game(game).title
    assert loud.stderr.startswith(f"compiling {title} kernels (once, about ") and "\x1b" not in loud.stderr
    assert json.loads(loud.stdout)["value"] > 0
    assert quiet.returncode == 0 and quiet.stderr == "" and json.loads(quiet.stdout) == json.loads(loud.stdout) | {
        "seconds": json.loads(quiet.stdout)["seconds"]}


def test_compile_seconds_counts_only_compiling():
    """What ``solve --fresh`` subtracts from its timing: seconds numba spent compiling inside the block."""
    from numba import njit

    from sim.jit.progress import compile_seconds

    @njit
    def twice(x):
        return x * 2

    with compile_seconds() as compiling:
        assert compiling() == 0.0
        twice(3)  # compiles
        first = compiling()
        twice(4)  # compiled already
        assert first > 0 and compiling() == first


def test_an_uncachable_kernel_is_a_warning_not_a_crash():
    """numba warns, naming the source file, when a kernel cannot be cached (a large global array, lifted code); with
    the project's locator that warning raised AttributeError (seen when compiling at NUMBA_OPT=0)."""
    import warnings
    from types import SimpleNamespace

    from numba.core import caching

    from sim.jit.jitcache import ProjectLocator

    impl = caching.CompileResultCacheImpl.__new__(caching.CompileResultCacheImpl)
    impl._locator, impl._lineno = ProjectLocator(module_file("sim.core.rng")), 1
    cres = SimpleNamespace(lifted=(), library=SimpleNamespace(has_dynamic_globals=True),
                           fndesc=SimpleNamespace(qualname="sim.core.rng.kernel"))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert impl.check_cachable(cres) is False
    assert [str(w.message) for w in seen] == [
        'Cannot cache compiled function "kernel" as it uses dynamic globals (such as ctypes pointers and large global '
        'arrays)']
    assert seen[0].filename == str(module_file("sim.core.rng"))


# A folder, or JSON of the wrong shape, where a cache file belongs heals; a write that fails leaves no temporary file.


def _tmp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp") or ".tmp." in p.name]


@pytest.mark.parametrize("stored", ["[]", "5", '"sim.b"', "null", '{"x": 5}', "{not json", "folder"],
                         ids=["list", "number", "string", "null", "dict", "truncated", "folder"])
def test_an_imports_memo_of_any_shape_heals(fake_project, stored):
    """``imports.json`` holding ``[]`` crashed every command that loads kernels (TypeError: list indices must be
    integers or slices); any content that is not the memo's shape is an empty memo, rewritten whole."""
    memo = fake_project / "cache" / "imports.json"
    memo.parent.mkdir(parents=True)
    if stored == "folder":
        (memo / "inside").mkdir(parents=True)
    else:
        memo.write_text(stored)
    key = _key(fake_project, "a.py")
    data = json.loads(memo.read_text())
    assert isinstance(data, dict) and all(isinstance(v, list) for v in data.values()) and data
    assert not _tmp_files(fake_project / "cache")
    codehash._memo = None  # a fresh process reads the healed memo
    assert _key(fake_project, "a.py") == key


@pytest.mark.parametrize("value", [5, [1, 2], "sim.b", None, {"a": 1}],
                         ids=["number", "ints", "string", "null", "dict"])
def test_an_imports_memo_entry_of_the_wrong_shape_is_parsed_again(fake_project, value):
    key = _key(fake_project, "a.py")
    memo = fake_project / "cache" / "imports.json"
    memo.write_text(json.dumps(dict.fromkeys(json.loads(memo.read_text()), value)))
    codehash._memo = None
    assert _key(fake_project, "a.py") == key
    assert all(isinstance(v, list) for v in json.loads(memo.read_text()).values())


def test_a_folder_where_a_table_belongs_is_replaced(tmp_path, monkeypatch, capsys):
    """A folder named like a solved table: every solve warned 'Is a directory' and left its 16 MB temporary file."""
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path / "cache"))
    path = cache.tables_dir() / "kniffel" / "optimal-x.npz"
    (path / "inside").mkdir(parents=True)
    (path / "inside" / "f").write_text("x")
    arrays = {"E": np.arange(10.0)}
    assert cache.load_table(path) is None
    cache.save_table(path, arrays)
    assert capsys.readouterr().err == ""
    assert path.is_file() and np.array_equal(cache.load_table(path)["E"], arrays["E"])
    assert not _tmp_files(tmp_path)


def test_a_failed_table_write_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    """A full disk (or a rename refused) warns in one line and removes the temporary file."""
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path / "cache"))
    path = cache.tables_dir() / "kniffel" / "optimal-x.npz"

    def full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    cache.save_table(path, {"E": np.arange(10.0)})
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("warning: cannot write the cache file ") and "No space left" in err[0]
    assert not path.exists() and list(path.parent.iterdir()) == []


def test_a_folder_is_only_removed_inside_the_cache(tmp_path, monkeypatch):
    from sim.core.paths import clear_folder

    root = tmp_path / "cache"
    outside = tmp_path / "mine"
    (outside / "keep").mkdir(parents=True)
    root.mkdir()
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(root))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert not clear_folder(outside) and not clear_folder(outside / "keep") and (outside / "keep").is_dir()
    assert not clear_folder(root) and root.is_dir()
    assert not clear_folder(root / "a" / ".." / ".." / "mine") and outside.is_dir()
    (root / "link").symlink_to(outside)  # a link to a folder: the link goes, never what it points to
    assert clear_folder(root / "link") and not (root / "link").exists() and (outside / "keep").is_dir()
    (root / "file").write_text("x")
    assert not clear_folder(root / "file") and (root / "file").is_file()
    (root / "d" / "e").mkdir(parents=True)
    assert clear_folder(root / "d") and not (root / "d").exists()


def test_a_file_where_a_cache_folder_belongs_is_replaced(tmp_path, monkeypatch, capsys):
    """A file named like the answers or tables folder: no answer or solved table was ever stored again, silently."""
    from sim.cli import answers
    from sim.core.paths import make_cache_folder

    root = tmp_path / "cache"
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(root))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    root.mkdir()
    (root / "answers").write_text("x")
    answers.answer("0123456789abcdef01234567", lambda: print("the answer"))
    assert answers._file("0123456789abcdef01234567").is_file()
    (root / "tables").write_text("x")
    cache.save_table(cache.tables_dir() / "kniffel" / "optimal-x.npz", {"E": np.arange(3.0)})
    assert (cache.tables_dir() / "kniffel" / "optimal-x.npz").is_file()
    err = capsys.readouterr().err.splitlines()
    assert err == [f"warning: a file stood where the cache folder {root / d} belongs; removed it"
                   for d in ("answers", "tables")]
    outside = tmp_path / "mine"
    outside.write_text("keep")  # never outside the cache folder, nor the cache folder itself
    with pytest.raises(OSError):
        make_cache_folder(outside / "a")
    assert outside.read_text() == "keep"


def test_a_folder_where_an_answer_or_a_note_belongs_is_replaced(tmp_path, monkeypatch, capsys):
    """An answers-cache entry replaced by a folder was computed again at every ask, never stored."""
    from sim.cli import answers
    from sim.core.paths import save_note

    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path / "cache"))
    k = "0123456789abcdef01234567"
    (answers._file(k) / "inside").mkdir(parents=True)
    asked = []

    def compute() -> None:
        asked.append(1)
        print("the answer")

    answers.answer(k, compute)
    answers.answer(k, compute)
    assert capsys.readouterr().out == "the answer\n" * 2 and len(asked) == 1
    assert answers._file(k).is_file()
    note = tmp_path / "cache" / "numba" / "compile-seconds.json"
    note.mkdir(parents=True)
    save_note(note, {"kniffel": {"seconds": 1.0}})
    assert json.loads(note.read_text()) == {"kniffel": {"seconds": 1.0}}
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    save_note(note, {"kniffel": {"seconds": 2.0}})  # unwritable: nothing said, the old note kept, no temporary file
    assert json.loads(note.read_text()) == {"kniffel": {"seconds": 1.0}} and not _tmp_files(tmp_path)


def test_a_folder_where_the_solved_table_belongs_heals_via_cli(solved, tmp_path):
    env = _copy_cache(solved, tmp_path)
    [table] = (tmp_path / "cache" / "tables" / "kniffel").glob("optimal-*.npz")
    table.unlink()
    table.mkdir()
    res = run_cli("solve", "kniffel", "--json", env=env)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert json.loads(res.stdout)["value"] == solved[0]["value"] and table.is_file()
    assert not _tmp_files(tmp_path / "cache")
    assert here_json("solve", "kniffel", env=env)["cached"]
