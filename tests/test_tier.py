"""The Würfel Dungeon's two compile tiers (``sim.jit.tier``): only inlining differs, each has its own cache key, a
process picks full once it is cached, and a quick run starts exactly one background compile of the full tier.

The golden tables (``test_golden.py``) run on the quick tier here (``conftest.py``); they were written by the full
tier, so they check that both give the same numbers. ``make test-full`` runs them on the full tier.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli_here, run_cli

PROBE = """
import json, os, sys
from pathlib import Path
import numba.core.registry
from sim.jit import tier
from sim.jit.codehash import PROJECT_ROOT, module_file, module_name
from sim.jit.jitcache import kernel_dir
from sim.jit.warmup import _marker
mods = sorted(module_name(p) for pkg in ("sim", "policies") for p in (PROJECT_ROOT / pkg).rglob("*.py")
              if (b"inline=INLINE" in p.read_bytes() or p.parent.name == "dungeon") and p.name != "tier.py")
options = {}
for m in mods:
    mod = __import__(m, fromlist=["_"])
    for name, f in vars(mod).items():
        if isinstance(f, numba.core.registry.CPUDispatcher) and f.__module__ == m:
            options[f"{m}.{name}"] = {k: str(v) for k, v in f.targetoptions.items()}
print(json.dumps({"tier": tier.TIER, "env_tier": os.environ.get("DICESIM_TIER"), "options": options, "mods": mods,
                  "dungeon_dir": kernel_dir(module_file("sim.games.dungeon.play")).name,
                  "kniffel_dir": kernel_dir(module_file("sim.games.kniffel.play")).name,
                  "dungeon_marker": _marker("dungeon").name, "kniffel_marker": _marker("kniffel").name}))
"""


def _probe(cache: Path, tier: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DICESIM_TIER"}
    env["DICESIM_CACHE_DIR"] = str(cache)
    if tier:
        env["DICESIM_TIER"] = tier
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_tiers_differ_only_in_inlining_and_in_their_cache_keys(tmp_path):
    quick, full = _probe(tmp_path, "quick"), _probe(tmp_path, "full")
    assert (quick["tier"], full["tier"]) == ("quick", "full")
    assert {m.split(".")[-1] for m in quick["mods"]} >= {"play", "rules", "turn"}  # the kernel's modules
    assert quick["options"].keys() == full["options"].keys() and len(quick["options"]) > 30
    inlined = [f for f, o in full["options"].items() if o.get("inline") == "always"]
    assert len(inlined) > 30
    # the run into its block, the rollout's driver into its block, the phases of a room and the steps of a fight
    # (one call site each) and the fight's two one-line accessors are inlined in both tiers; every other helper only
    # in the full one
    pinned = {f.rsplit(".", 1)[1] for f, o in quick["options"].items() if o.get("inline") == "always"}
    entries = {"play_run", "rollout_run", "option_values"}
    phases = {"enter_room", "refresh_profile", "fight", "room_won", "take_reward", "visit_market", "market_stock",
              "market_values"}
    steps = {"begin_fight", "open_turn", "player_turn", "roll_and_hold", "extra_rolls", "set_faces", "heal_joker",
             "assign", "resolve", "enemy_turn", "_who", "_etab"}
    needs = {"needs_attack_gain", "needs_etab"}  # what a policy needs (policies/dungeon/needs.py): one-line reads
    assert pinned == entries | phases | steps | needs
    for f, o in full["options"].items():
        q = quick["options"][f]
        assert q.get("inline", "never") == "never" or f.rsplit(".", 1)[1] in pinned, f
        assert {k: v for k, v in q.items() if k != "inline"} == {k: v for k, v in o.items() if k != "inline"}, f
    # a tier-dependent module has a key per tier; a module that never reads the tier shares one
    assert quick["dungeon_dir"] == full["dungeon_dir"] + "-quick"
    assert quick["kniffel_dir"] == full["kniffel_dir"] and not quick["kniffel_dir"].endswith("-quick")
    assert quick["dungeon_marker"] == full["dungeon_marker"] + "-quick"
    assert quick["kniffel_marker"] == full["kniffel_marker"]


@pytest.mark.slow
def test_a_process_picks_full_once_it_is_cached(tmp_path):
    first = _probe(tmp_path, None)
    assert first["tier"] == "quick" and first["env_tier"] is None  # chosen, and kept out of os.environ
    marker = tmp_path / "numba" / "warm" / first["dungeon_marker"].removesuffix("-quick")
    marker.parent.mkdir(parents=True)
    marker.touch()  # what the full tier's warm-up writes when its kernels are cached
    assert _probe(tmp_path, None)["tier"] == "full"
    assert _probe(tmp_path, "quick")["tier"] == "quick"  # DICESIM_TIER forces one


def test_the_processes_it_starts_get_its_tier(monkeypatch):
    """The tier stays in this process (not in ``os.environ``); a warm-up it starts is told it explicitly."""
    from types import SimpleNamespace

    from sim.jit import tier, warmup

    started: list[dict] = []
    monkeypatch.delenv("DICESIM_TIER", raising=False)
    monkeypatch.setattr(tier, "TIER", tier.FULL)
    for table in ("_procs", "_started", "_born", "_errs", "_outs"):
        monkeypatch.setattr(warmup, table, {})
    monkeypatch.setattr(warmup.subprocess, "Popen", lambda args, env, **kw: started.append(env) or SimpleNamespace())
    warmup._launch("dadox")
    assert started[0]["DICESIM_TIER"] == "full" and "DICESIM_TIER" not in os.environ
    assert tier.child_env({"A": "1"}) == {"A": "1", "DICESIM_TIER": "full"}


def test_a_quick_warm_up_of_the_dungeon_compiles_at_llvm_level_1(monkeypatch):
    """The quick tier's warm-up process compiles at ``QUICK_OPT`` (numba's documented ``NUMBA_OPT``, given in the
    child's environment only): 18 % less compile; the full tier, the other games and a level the user set keep theirs.
    (The golden tables, which ``make test`` plays on warm-up-compiled quick kernels, are the same numbers.)"""
    from types import SimpleNamespace

    from sim.jit import tier, warmup

    started: list[dict] = []
    monkeypatch.delenv("NUMBA_OPT", raising=False)
    for table in ("_procs", "_started", "_born", "_errs", "_outs"):
        monkeypatch.setattr(warmup, table, {})
    monkeypatch.setattr(warmup.subprocess, "Popen", lambda args, env, **kw: started.append(env) or SimpleNamespace())
    monkeypatch.setattr(tier, "TIER", tier.QUICK)
    warmup._launch("dungeon")
    warmup._launch("kniffel")
    monkeypatch.setattr(tier, "TIER", tier.FULL)
    warmup._launch("dungeon")
    assert [e.get("NUMBA_OPT") for e in started] == [tier.QUICK_OPT, None, None] and "NUMBA_OPT" not in os.environ
    monkeypatch.setattr(tier, "TIER", tier.QUICK)
    assert tier.compile_env("dungeon", {})["NUMBA_OPT"] == tier.QUICK_OPT
    assert tier.compile_env("dungeon", {"NUMBA_OPT": "2"})["NUMBA_OPT"] == "2"


def test_a_bad_tier_is_one_error_line(tmp_path):
    out = run_cli("play", "dungeon", "--policy", "greedy", "--n", "10", "--no-report", env={"DICESIM_TIER": "fast"})
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == ["error: DICESIM_TIER must be 'quick' or 'full', not 'fast'"]


@pytest.fixture
def fake_spawn(tmp_path, monkeypatch):
    """``sim.jit.tier`` in a quick process with an empty cache; starting the compile only records what it would run."""
    from sim.jit import tier

    calls: list = []

    def spawn(args, env, log):
        calls.append((args, env, log))
        return os.getpid()  # a live process: the lock it leaves counts as held

    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv(tier.BACKGROUND_ENV, "1")
    monkeypatch.setattr(tier, "TIER", tier.QUICK)
    monkeypatch.setattr(tier, "_spawn", spawn)
    monkeypatch.setattr(tier, "_played", False)
    return tier, calls


def test_background_compile_starts_once(fake_spawn, tmp_path, monkeypatch):
    tier, calls = fake_spawn
    log = tier.compile_full_in_background()
    assert log is not None and log.parent == tmp_path / "numba" / "warm"
    (args, env, _), = calls
    lock = tier._lock()
    assert args[1:] == ["-m", "sim.jit.warmup", "dungeon", "--release", str(lock)] and env["DICESIM_TIER"] == "full"
    assert lock.read_text() == str(os.getpid())
    assert tier.state() == {"game": "dungeon", "tier": "quick", "full_cached": False, "full_compiling": True}

    assert tier.compile_full_in_background() is None and len(calls) == 1  # a live compile holds the lock
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock.write_text(done.stdout.strip())  # its process is gone (killed): the lock is stale
    assert tier.compile_full_in_background() is not None and len(calls) == 2

    lock.unlink()
    tier.full_marker().touch()  # the full tier is cached: nothing to do
    assert tier.compile_full_in_background() is None
    tier.full_marker().unlink()
    monkeypatch.setenv(tier.BACKGROUND_ENV, "0")
    assert tier.compile_full_in_background() is None and len(calls) == 2


def test_folders_where_its_marker_lock_and_log_belong_heal(fake_spawn, monkeypatch):
    """A folder named like the full tier's marker chose the full tier (compiled in the foreground); one named like the
    lock or the log refused every background compile with a warning. Each is a folder in a cache file's place."""
    tier, calls = fake_spawn
    monkeypatch.delenv(tier.ENV, raising=False)
    (tier.full_marker() / "x").mkdir(parents=True)
    assert tier._decide() == tier.QUICK and not tier.state()["full_cached"]
    (tier._lock() / "x").mkdir(parents=True)
    log = tier.warm_dir() / f"{tier.TIERED_GAME}-full.log"
    (log / "x").mkdir(parents=True)
    assert tier.compile_full_in_background() == log and len(calls) == 1 and not log.is_dir()
    assert tier._lock().read_text() == str(os.getpid())


def _figures() -> dict[str, float]:
    """Each game's declared figures as the folders state them (``sim/games/GAME/compile.toml``), read here directly."""
    import tomllib

    out = {}
    for path in sorted((ROOT / "sim" / "games").glob("*/compile.toml")):
        for k, v in tomllib.loads(path.read_text()).items():
            out[path.parent.name if k == "seconds" else f"{path.parent.name}-{k.removesuffix('_seconds')}"] = v
    return out


def test_every_game_declares_its_compile_figure_in_its_own_folder():
    """A game's compile estimate lives beside its kernels, not in a shared table (a fifth game edits no shared file)."""
    from sim.games import GAMES
    from sim.jit import progress

    figures = _figures()
    assert set(GAMES) <= set(figures) and figures["dungeon-quick"] < figures["dungeon"]
    assert not hasattr(progress, "DEFAULT_ESTIMATE_S")
    for game in GAMES:
        assert progress.declared(game, game) == figures[game]


def test_the_background_compile_time_it_announces_is_this_machines(fake_spawn):
    """The note's "about N min of CPU" scales with this machine's own quick-tier compile (a slow machine is slow at
    both), and is the full tier's own record once it has compiled here."""
    from sim.jit import progress

    tier, _ = fake_spawn
    default = _figures()
    assert tier.full_compile_minutes() == round(default["dungeon"] / 60)
    progress.remember("dungeon", 2 * default["dungeon-quick"])  # this process: the quick tier, twice as slow here
    assert tier.full_compile_minutes() == round(2 * default["dungeon"] / 60)
    records = progress._estimates_file()
    data = json.loads(records.read_text())
    assert data == {"dungeon-quick": {"seconds": 2 * default["dungeon-quick"], "declared": default["dungeon-quick"]}}
    records.write_text(json.dumps({**data, "dungeon": 540.0}))  # a record kept before figures were stored beside it
    assert tier.full_compile_minutes() == 9


def test_a_compile_not_yet_measured_here_is_estimated_at_this_machines_pace(fake_spawn):
    """A first run on a slow machine: Kniffel's compile took 4x its declared figure, so the Würfel Dungeon's wait is
    announced at 4x its own (a fixed figure made the wait read "longer than estimated" from its first line)."""
    from sim.jit import progress, warmup

    default = _figures()
    assert progress.machine_factor() == 1.0 and progress.estimate("dadox") == default["dadox"]
    progress.remember("kniffel", 4 * default["kniffel"])
    assert progress.machine_factor() == pytest.approx(4.0)
    assert progress.estimate("dungeon") == pytest.approx(4 * default["dungeon-quick"])  # this process: quick tier
    assert progress.estimate("kniffel") == 4 * default["kniffel"]  # its own record stands
    progress.remember("dadox", 2 * default["dadox"])  # two records: their median ratio, 3
    assert progress.estimate("dungeon24") == pytest.approx(3 * default["dungeon24"])
    # a game that declares nothing: 30 s at the same pace; its record, once measured, counts for nothing in the pace
    assert progress.estimate("another-game") == pytest.approx(90)
    progress.remember("another-game", 1000.0)
    assert progress.machine_factor() == pytest.approx(3.0) and progress.estimate("another-game") == 1000.0
    # a record of a few kernels compiled (under a fifth of the figure) is no figure of the game's compile
    progress.remember("dadox", 0.1 * default["dadox"])
    assert progress.recorded("dadox") == 2 * default["dadox"]  # the whole compile's figure stays
    progress._estimates_file().write_text('{"dungeon24": {"seconds": 1.0, "declared": 38.0}}')  # from before: none
    assert progress.recorded("dungeon24") is None and progress.estimate("dungeon24") == default["dungeon24"]
    # a damaged record file: no records, the declared figures
    progress._estimates_file().write_text('{"kniffel": "fast", "dadox": [1]}')
    assert progress.machine_factor() == 1.0 and progress.estimate("kniffel") == default["kniffel"]
    assert warmup.estimate is progress.estimate


def test_the_background_process_is_detached_and_lowest_priority(tmp_path):
    from sim.jit import tier

    log = tmp_path / "probe.log"
    probe = "import os, sys; print(os.nice(0), os.getsid(0) == os.getpid(), sys.stdin.read() == '', flush=True)"
    tier._spawn([sys.executable, "-c", probe], dict(os.environ), log)
    # read its line rather than wait for its pid: the Popen that _spawn lets go may be reaped by subprocess's own
    # clean-up of dropped children (a full run once got "No child processes" from os.waitpid here)
    deadline = time.monotonic() + 60
    while not log.read_text().endswith("\n") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert log.read_text().split() == ["19", "True", "True"]


def test_a_command_on_quick_kernels_starts_it_and_says_so(fake_spawn):
    _, calls = fake_spawn
    out = cli_here("play", "dungeon", "--policy", "greedy", "--n", "20", "--no-report", "--json")
    assert out.returncode == 0, out.stderr
    assert len(calls) == 1
    assert "its optimised kernels now compile in the background" in out.stderr
    again = cli_here("play", "dungeon", "--policy", "greedy", "--n", "20", "--no-report", "--json")
    assert len(calls) == 1 and "background" not in again.stderr  # already compiling: said once
    assert json.loads(again.stdout)["metrics"] == json.loads(out.stdout)["metrics"]


def test_warmup_releases_its_lock_however_it_ends(tmp_path):
    lock = tmp_path / "x.compiling"
    lock.write_text("1")
    out = subprocess.run([sys.executable, "-m", "sim.jit.warmup", "nosuchgame", "--release", str(lock)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and not lock.exists()


def test_a_background_compile_keeps_its_cpu_figure_for_the_next_estimate(fake_spawn, tmp_path, monkeypatch, capsys):
    """The detached full-tier compile has no parent to read its figure: it records it itself, so the next note
    says this machine's minutes."""
    from sim.jit import progress, warmup

    lock = tmp_path / "x.compiling"
    lock.write_text("1")
    monkeypatch.setattr(warmup, "warm", lambda game: None)
    monkeypatch.setattr(progress, "WHOLE_SHARE", 0.0)  # the no-op compile's CPU counts as the game's figure here
    warmup._main(["dadox", "--release", str(lock)])
    assert not lock.exists()
    cpu, ended = map(float, capsys.readouterr().out.split())
    assert progress.recorded("dadox") == pytest.approx(cpu, abs=0.1) and abs(ended - time.time()) < 60


def test_a_compile_wait_is_estimated_from_the_cpu_its_process_gets(monkeypatch):
    """``sim.jit.warmup`` says how long a background compile has left: its CPU estimate less the CPU it used, stretched
    by the share of a core it got (a loaded machine made "about 1 s more" out of a compile that took 109 s)."""
    from sim.jit import warmup

    spin = "import time\nt = time.process_time()\nwhile time.process_time() - t < 2.5: pass\ntime.sleep(60)"
    proc = subprocess.Popen([sys.executable, "-c", spin])
    try:
        import time

        while (warmup._cpu_seconds(proc.pid) or 0) < 2.5:
            assert proc.poll() is None
            time.sleep(0.1)
        cpu = warmup._cpu_seconds(proc.pid)
        assert 2.5 <= cpu < 3.5
        monkeypatch.setitem(warmup._procs, "g", proc)
        monkeypatch.setitem(warmup._started, "g", time.perf_counter() - 4 * cpu)  # as if it got a quarter of a core
        monkeypatch.setattr(warmup, "estimate", lambda game: 30.0)
        assert warmup._wall_left("g") == pytest.approx((30.0 - cpu) * 4, rel=0.05)
        # a compile that has used its whole estimate (a slower machine) gets no made-up figure, and the wait's
        # progress line says so instead of repeating its first guess
        monkeypatch.setattr(warmup, "estimate", lambda game: 2.0)
        assert warmup._wall_left("g") is None
        from sim.jit.progress import Ticker

        ticker = Ticker("compiling g kernels", 30.0, left=lambda: warmup._wall_left("g"))
        assert ticker.line().endswith("s so far (longer than estimated on this machine)")
        monkeypatch.setattr(warmup, "estimate", lambda game: 30.0)
        assert ticker.line().endswith(f"s so far (about {warmup._wall_left('g'):.0f} s more)")
    finally:
        proc.kill()
        proc.wait()


def test_a_notebook_play_on_quick_kernels_starts_it_too(fake_spawn):
    import sim

    _, calls = fake_spawn
    sim.play("dungeon", "greedy", n=20)
    sim.play("dungeon", "greedy", n=20)
    assert len(calls) == 1


def test_a_refused_dungeon_call_is_no_run_on_quick_kernels(fake_spawn):
    """A notebook's refused Würfel Dungeon call (its kernels imported), then a Kniffel play: the note said the
    Würfel Dungeon had run on its quick kernels, and a background compile started."""
    import sim

    _, calls = fake_spawn
    with pytest.raises(sim.DicesimError):
        sim.play("dungeon", "greedy", n=10, difficulty=1)
    sim.play("kniffel", "greedy", n=10)
    assert calls == []
    sim.play("dungeon", "greedy", n=10)
    assert len(calls) == 1


def test_a_quick_run_compiles_nothing_it_was_not_asked_for_and_says_how_once(fake_spawn, monkeypatch):
    """Issue 30: nothing is left compiling after a command unless the user asked (DICESIM_BACKGROUND_COMPILE=1);
    the first quick run names `dicesim cache warm`, later ones stay quiet about it."""
    _, calls = fake_spawn
    monkeypatch.delenv("DICESIM_BACKGROUND_COMPILE")
    out = cli_here("play", "dungeon", "--policy", "greedy", "--n", "20", "--no-report", "--json")
    assert out.returncode == 0, out.stderr
    assert calls == [] and "`dicesim cache warm` compiles its optimised kernels" in out.stderr
    again = cli_here("play", "dungeon", "--policy", "greedy", "--n", "20", "--no-report", "--json")
    assert calls == [] and "cache warm" not in again.stderr


def test_cache_warm_compiles_the_full_tier_in_the_foreground(fake_spawn, monkeypatch):
    """``dicesim cache warm GAME`` compiles on the full tier here (no detached process), then finds it cached."""
    from sim.jit import warmup

    tier, calls = fake_spawn
    seen: list[tuple[str, str]] = []

    def fake_warm(game: str) -> None:
        seen.append((game, tier.current()))
        marker = warmup._marker(game)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()

    monkeypatch.setattr(warmup, "warm", fake_warm)
    out = cli_here("cache", "warm", "dungeon", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"compiled": ["dungeon"], "already_cached": [], "tier": "full"}
    assert seen == [("dungeon", "full")] and calls == [] and tier.full_marker().exists()
    again = cli_here("cache", "warm", "dungeon", "--json")
    assert json.loads(again.stdout)["already_cached"] == ["dungeon"] and len(seen) == 1
    bad = cli_here("cache", "warm", "nosuch")
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error: unknown game 'nosuch'")


def test_cache_warm_of_one_cold_game_says_that_it_compiles(fake_spawn, monkeypatch):
    """With one game cold (the Würfel Dungeon's optimised kernels), ``cache warm`` compiled in its own process and
    said nothing for minutes: it now announces and times the compile as a run does."""
    import numba

    from sim.jit import warmup

    def fake_warm(game: str) -> None:
        numba.njit(lambda x: x + 1)(1)  # a compile, as the game's kernels would be
        marker = warmup._marker(game)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()

    monkeypatch.setattr(warmup, "warm", fake_warm)
    out = cli_here("cache", "warm", "dungeon")
    assert out.returncode == 0, out.stderr
    said = out.stderr.splitlines()
    assert said[0].startswith("compiling Würfel Dungeon kernels") and "about" in said[0], out.stderr
    assert said[-1].startswith("compiled Würfel Dungeon kernels in "), out.stderr


def test_a_compile_that_ended_while_another_was_waited_for_says_its_own_time(monkeypatch, capsys):
    """The Kniffel warm-up ends after ~22 s beside the Würfel Dungeon's ~47 s, but is waited for after it: its line
    gives the time its process ran (the child says when it ended), not the time until it was waited for."""
    import tempfile
    from types import SimpleNamespace

    from sim.jit import progress, warmup

    for table in ("_procs", "_started", "_born", "_errs", "_outs"):
        monkeypatch.setattr(warmup, table, {})
    monkeypatch.setattr(warmup, "compiled_elsewhere", lambda game, seconds: None)
    monkeypatch.setattr(progress, "is_quiet", lambda: False)
    warmup._procs["kniffel"] = SimpleNamespace(poll=lambda: 0, returncode=0, pid=-1)
    warmup._started["kniffel"] = time.perf_counter() - 47.0
    warmup._born["kniffel"] = time.time() - 47.0
    warmup._errs["kniffel"] = tempfile.TemporaryFile("w+")
    warmup._outs["kniffel"] = tempfile.TemporaryFile("w+")
    warmup._outs["kniffel"].write(f"21.6 {warmup._born['kniffel'] + 22.3:.3f}\n")
    warmup.wait_for("kniffel", "Kniffel")
    said = capsys.readouterr().err.strip().splitlines()
    assert said[-1] == "compiled Kniffel kernels in 22 s (cached for later runs)"
