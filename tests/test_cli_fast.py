"""The command line refuses a bad input before it imports numba, pandas or a game (issue 30), and what it refuses
there the game refuses too, in the same words (``sim.cli.catalog``). Timings are benchmarks'
(``benchmarks/cli_latency.py``), never asserted here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import catalog
from sim.core.config import DicesimError
from sim.games import GAMES, declared, declared_options, get_game
from tests.conftest import ROOT, cli_here, here_json
from tests.probe import PROBE, probe

HEAVY = ("numba", "numpy", "pandas", "matplotlib", "scipy")


def _game_code(modules: set[str]) -> list[str]:
    """The modules of a game's rules, kernels or policies among ``modules`` (its package, options.py and the rule
    constants options.py reads, codes.py, are light)."""
    return sorted(m for m in modules if (m.startswith("sim.games.") and m.count(".") >= 3 or m == "sim.games.base"
                                         or m.startswith("policies.") and m.count(".") >= 2)
                  and not m.endswith((".options", ".codes")))


def _probe(tmp_path: Path, *args: str) -> tuple[int, set[str], str]:
    """The exit code, the modules and the stderr of ``dicesim ARGS`` in a fresh interpreter (``tests.probe``)."""
    got, r = probe(tmp_path, *args)
    assert got, r.stderr
    return got["code"], set(got["modules"]), r.stderr


@pytest.mark.parametrize("args", [["--help"], ["play", "kniffel", "--policy", "nope"],
                                  ["play", "dungeon", "--policy", "vorschlag@nosuch"]], ids=" ".join)
def test_the_forked_probe_is_a_fresh_interpreter(tmp_path, args):
    """``tests.probe`` forks a server instead of starting an interpreter: the same modules, streams and code."""
    out = tmp_path / "fresh.json"
    fresh = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, env={**os.environ, "PROBE_OUT": str(out)},
                           capture_output=True, text=True, timeout=300)
    forked, r = probe(tmp_path, *args)
    assert forked == json.loads(out.read_text())
    assert (r.returncode, r.stdout, r.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def test_help_imports_no_numba_pydantic_or_game(tmp_path):
    code, modules, _ = _probe(tmp_path, "--help")
    assert code == 0
    assert not modules & {*HEAVY, "pydantic", "sim.core.config"} and not _game_code(modules)


@pytest.mark.parametrize("args, needle", [
    (["play", "kniffel", "--policy", "nope"], "unknown policy 'nope' for kniffel"),
    (["play", "kniffel", "--policy", "greedy,nope", "--players", "2"], "unknown policy 'nope'"),
    (["compare", "dadox", "--policies", "greedy,nope"], "unknown policy 'nope' for dadox"),
    (["play", "dungeon", "--n", "-3"], "--n"),
    (["play", "dungeon", "--policy", "greedyy"], "unknown policy 'greedyy' for dungeon"),
    (["play", "dungeon", "--policy", "nope@heilkraeuter"], "unknown policy 'nope' for dungeon"),
    (["play", "dungeon", "--policy", "vorschlag@"], "policy 'vorschlag@' names nothing after '@'"),
    (["compare", "dungeon", "--policies", "greedy,@"], "policy '@' names nothing after '@'"),
    (["play", "chess", "--policy", "greedy"], "unknown game 'chess'"),
    (["play", "kniffel", "--policy", "greedy", "--difficulty", "leicht"], "--difficulty does not apply to kniffel"),
    (["play", "dungeon", "--policy", "greedy", "--difficulty", "hart"], "--difficulty must be one of"),
    (["combos", "1", "2", "3", "4", "5", "--game", "kniffel"], "kniffel has no combos"),
    (["play", "dadox", "--policy", "optimal-win", "--players", "3"], "optimal-win is a two-player solution"),
    (["play", "dadox", "--policy", "greedy", "--players", "4", "--opponent", "optimal-win"],
     "not optimal with 4 players"),
    (["play", "dadox", "--policy", "leader-win", "--players", "1"], "play against an opponent"),
    (["solve", "dungeon"], "dungeon has no exact solver"),
    (["sweep", "no-such-sweep.toml"], "sweep file not found: no-such-sweep.toml"),
    (["tune", "configs"], "tune file configs is a folder"),
    (["check", "README.md"], "broken TOML in README.md"),
    (["combos", "1", "2", "3", "4", "0"], "a die shows 1..6, got 0"),
    (["calibrate", "kniffel", "--field", "bonus.value", "--target", "mean_score=209", "--policy", "greedy", "--lo",
      "1e400"], "--lo must be a finite number, got inf (a number beyond ±1.8e308, e.g. 1e400, is read as infinite)"),
    (["combos", "1", "2", "3", "4", "5", "6", "6"],
     "combos takes 1 to 6 dice (a hand: start.dice and the extra dice), got 7"),
    (["replay", "kniffel", "--run", "-1"], "--run"),
    (["play", "kniffel", "--policy", "greedy", "--players", "99"], "--players must be 1..8, got 99"),
    (["play", "dadox", "--policy", " , "], "no policy given"),
    (["matchup", "dungeon24", "--opponent", "nope"], "unknown policy 'nope' for dungeon24"),
    (["play", "dungeon24", "--policy", "greedy", "--opponent", "nope"], "unknown policy 'nope' for dungeon24"),
    (["play", "dadox", "--policy", "greedy", "--opponent", "nope"], "unknown policy 'nope' for dadox"),
    (["play", "dungeon24", "--policy", "greedy", "--arrangement", "1,2,3"], "--arrangement must be policy, search or"),
    (["solve", "dadox", "--objective", "nope"], "--objective must be one of turn, win"),
    (["calibrate", "kniffel", "--target", "mean_score=nan", "--field", "bonus.value", "--policy", "greedy"],
     "--target"),
    (["tune", "configs/tune/kniffel-bonus.toml", "--out", "README.md"], "is a file"),
    (["play", "kniffel", "--policy", "greedy", "--out", "/proc/dicesim-out"],  # a folder no one can make there
     "cannot create --out /proc/dicesim-out: /proc takes no new files or folders"),
    (["play", "kniffel", "--policy", "greedy", "--n", "20", "--out", "/"],  # it wrote the report into / (as root)
     "--out / is the file system's root: give the outputs a folder of their own"),
    (["compare", "kniffel", "--policies", "greedy,random", "--out", "~"], "is your home folder"),
    (["calibrate", "kniffel", "--target", "mean_score=209", "--field", "bonus.value", "--policy", "greedy", "--tol",
      "0"], "--tol must be above 0 (in the metric's units), got 0"),  # it used every evaluation, then exit 1
    (["calibrate", "kniffel", "--target", "mean_score=\uff12\uff10\uff10", "--field", "bonus.value", "--policy",
      "greedy"], "--target value must be a number, got '\uff12\uff10\uff10'"),  # full-width digits: 200 to float()
    (["configs", "--copy", "/"], "--copy / is the file system's root"),  # it made eight folders of configs in /
    (["configs", "--copy", "~"], "--copy ~ is your home folder"),
    (["play", "kniffel", "--policy", "greedy", "--policy", "random"], "--policy is given twice: give it once"),
    (["replay", "kniffel", "--seed", "1", "--run", "2", "--seed=2"], "--seed is given twice"),  # it took the last
    (["studio", "--host", "0.0.0.0", "--token", "short"], "--token must be at least 8"),
    (["studio", "--host", "::ffff:127.0.0.1"], "an IPv4 address written as IPv6; give it as 127.0.0.1"),  # exit 3
    (["report", "no-such-folder"], "no-such-folder does not exist"),
    (["matchup", "--policy", ""], "--policy names one policy, got ''"),  # it quoted ',greedy', never typed
    (["matchup", "--opponent", "greedy,random"], "--opponent names one policy, got 'greedy,random'"),
    (["report", "configs"], "no manifest.json in configs"),
    (["report", ""], "the output folder is named '' (empty)"),  # not the current folder
    (["sweep", " "], "the sweep file is named ' ' (empty)"),
    (["check", "configs/targets/kniffel.toml", "--out", "v.HTML"], "--out v.HTML: names the CSV table"),
    (["check", "configs/targets/kniffel.toml", "--out", "v.txt"], "--out v.txt: names the CSV table (its page is"
     " written beside it as .html), e.g. --out v.csv"),  # CSV text went into v.txt, and a folder name got a file
    (["play", "kniffel", "--policy", "greedy", "--seed", "1.5"], "--seed must be a whole number, got '1.5'"),
    (["play", "kniffel", "--policy", "greedy", "--seed", "-1"], "--seed must be a whole number 0 .. 2^64-1"),
    (["play", "kniffel", "--policy", "greedy", "--seed", "2e19"], "--seed must be a whole number 0 .. 2^64-1"),
    (["play", "kniffel", "--policy", "greedy", "--players", "nan"],
     "--players must be a whole number such as 2 or 4, got 'nan'"),
    (["play", "kniffel", "--policy", "greedy", "--players", "1e3"], "--players must be 1..8, got 1000"),  # as --n 1e3
    (["play", "kniffel", "--policy", "greedy", "--players", "2.5"], "--players must be a whole number, got '2.5'"),
    (["replay", "kniffel", "--run", "abc"], "--run must be a whole number such as 0 or 17, got 'abc'"),
    (["play", "kniffel", "--policy", "greedy", "--seed", "\u0661"],
     "--seed must be a whole number such as 1 or 20261207, got '\u0661'"),  # it read --n's "such as 20000 or 2e4"
    (["replay", "kniffel", "--run", "-1"], "--run must not be negative, got '-1'"),
    (["calibrate", "dungeon", "--target", "win_rate=30 %", "--field", "", "--policy", "vorschlag"],
     "--field is empty"),  # it named --set
    (["combos", "-1", "5", "5", "2", "2"], "-1: a negative number is no die face (1..6) or count (0 or more)"),
    (["combos", "a", "5", "5", "2", "2"], "dice must be a whole number, got 'a'"),
    (["combos", "5", "5", "5", "2", "2.0"], "dice must be a whole number, got '2.0'"),
    (["combos", "5", "5", "5", "2", "\u0662"], "dice must be a whole number, got '\u0662'"),
    (["play", "kniffel", "--policy", "greedy, optimal"], "2 policies for 1 seat of kniffel"),
    (["replay", "dungeon24", "--policy", "greedy,greedy,greedy"], "3 policies for 2 seats of dungeon24"),
    (["play", "dadox", "--policy", "greedy,threshold,random", "--players", "3", "--opponent", "greedy"],
     "--opponent greedy fills every seat after the first"),
    (["play", "kniffel", "--policy", "greedy", "--n", "10", "--games-per-player", "7", "--no-report"],
     "--n 10 is no whole number of players of 7 games each"),  # the last player had 3, silently
    (["play", "kniffel", "--policy", "greedy", "--games-per-player", "0"],
     "--games-per-player must be 1 .. 1,000,000, got '0'"),
])
def test_a_refused_input_imports_no_numba_pandas_or_game(tmp_path, args, needle):
    code, modules, stderr = _probe(tmp_path, *args)
    assert code == 2 and stderr.startswith("error:") and needle in stderr, stderr
    assert not modules & {*HEAVY, "sim.core.config"}, sorted(modules & {*HEAVY, "sim.core.config"})
    assert not _game_code(modules)  # (pydantic: typer's own, to convert the arguments; no config model is built)


def test_a_refused_override_imports_the_config_model_alone(tmp_path):
    """``--set nosuch=1`` is checked by the config model without the game, its kernels, numba or pandas (the model reads
    its constants from ``kniffel.codes``, not the jitted rules)."""
    code, modules, stderr = _probe(tmp_path, "play", "kniffel", "--policy", "greedy", "--set", "nosuch=1")
    assert code == 2 and stderr.strip() == ("error: unknown config field: nosuch (known: bonus, joker, name, scores, "
                                            "skill, turn)")  # nothing close: the sections there, to choose from
    assert "sim.games.kniffel.config" in modules
    kniffel = {f"sim.games.kniffel.{m}" for m in ("game", "play", "rules")}
    assert not {"numba", "pandas", "matplotlib", *kniffel} & modules


@pytest.mark.parametrize("args, said", [
    (["play", "dungeon", "--policy", "vorschlag@nosuch"], "error: unknown upgrade 'nosuch' in policy"),
    (["compare", "dungeon", "--policies", "vorschlag,greedy@wetzstein+nope"], "error: unknown upgrade 'nope'"),
    (["calibrate", "dungeon", "--field", "nosuch", "--target", "win_rate=0.5", "--policy", "vorschlag"],
     "error: unknown config field: nosuch"),
    (["calibrate", "kniffel", "--field", "joker.mode", "--target", "mean_score=200", "--policy", "greedy"],
     "error: --field joker.mode is not numeric (its value is 'forced')"),
    (["calibrate", "dungeon", "--field", "difficulty.normal.hp", "--target", "win_rate=0.5", "--policy", "vorschlag",
      "--lo", "-1", "--hi", "3"], "error: --lo -1: difficulty.normal.hp must be more than 0.0\n"),
    (["calibrate", "dungeon", "--field", "start.lp", "--target", "win_rate=0.5", "--policy", "greedy",  # not 60 digits
      "--lo", "10", "--hi", "1e300"], "error: --hi 1e+300: start.lp must be at most 10000\n"),
    (["calibrate", "dungeon", "--field", "start.lp", "--target", "win_rate=0.5", "--policy", "greedy",
      "--lo", "10", "--hi", "1234567"], "error: --hi 1234567: start.lp must be at most 10000\n"),
    (["calibrate", "kniffel", "--field", "bonus.value", "--target", "mean_score=240", "--policy", "greedy",
      "--lo", "20.5", "--hi", "40"], "error: --lo must be a whole number for bonus.value, got 20.5"),
])
def test_a_refusal_that_needs_the_rules_imports_the_config_model_alone(tmp_path, args, said):
    """A forced loadout's upgrade names and calibrate's field are the config's: checked by the config model, without
    the game, its kernels, numba or pandas; the same words as the game's own check."""
    code, modules, stderr = _probe(tmp_path, *args)
    assert code == 2 and stderr.startswith(said), stderr
    assert not {"numba", "pandas", "matplotlib"} & modules and not [m for m in _game_code(modules) if any(
        m.endswith(x) for x in (".game", ".rules", ".play", ".runs", ".freeze"))], sorted(modules)
    game = get_game(args[1])
    if args[0] == "calibrate":
        from sim.experiments.calibrate import calibrate

        bounds = {k[2:]: float(v) for k, v in zip(args[8::2], args[9::2], strict=True)}  # --lo, --hi
        words = _refusal(lambda: calibrate(game, args[3], args[5].split("=")[0], float(args[5].split("=")[1]),
                                           args[7], n=10, **bounds))
    else:
        from sim.games.dungeon.loadout import with_loadout

        words = _refusal(lambda: [with_loadout(game.load(None, []), p) for p in args[3].split(",")])
    assert f"error: {words}".startswith(stderr.strip().rstrip("…"))  # the line is cut at its width, not reworded


def test_check_refuses_too_many_runs_before_the_games_load(tmp_path):
    """``check --n`` plays every target's band with n runs: their sum is the command's, refused before the games
    (the file's checks, on the config model alone, come first as in the full check)."""
    code, modules, stderr = _probe(tmp_path, "check", "configs/targets/kniffel.toml", "--n", "4e9")
    assert code == 2 and stderr.startswith("error: the targets' runs: 20,000,000,000 runs is above the limit"), stderr
    assert not {"numba", "pandas", "matplotlib"} & modules and not [m for m in _game_code(modules) if any(
        m.endswith(x) for x in (".game", ".rules", ".play", ".runs", ".freeze"))], sorted(modules)


def _refusal(call) -> str:
    with pytest.raises(DicesimError) as e:
        call()
    return str(e.value)


@pytest.mark.parametrize("game", list(GAMES))
def test_what_the_catalog_refuses_the_game_refuses_in_the_same_words(game):
    g = get_game(game)
    e = catalog.entry(game)
    opts = g.check_options({})
    good = g.policies[0]  # the game checks names as Game.check_policy does: each seat's name, every position
    for value in ("nope", f"{good},nope", f"nope,{good}"):
        light = _refusal(lambda v=value: catalog.accept(game, {}, v))
        assert light == _refusal(lambda v=value: g.seat_policies(v, opts)) == f"unknown policy 'nope' for {game} " \
            f"(choose from {', '.join(g.policies)})"
    if e.policy_variant:  # name@variant: the catalog checks the name, and the variant where the game declares
        bad = f"nope{e.policy_variant}x"  # its light check (the dungeon's upgrades), in the game's words
        assert _refusal(lambda: catalog.accept(game, {}, bad)) == _refusal(lambda: g.check_policy(bad))
        variant = f"{good}{e.policy_variant}x"
        assert _refusal(lambda: catalog.accept(game, {}, variant)) == _refusal(
            lambda: g.prepare(g.load(None, []), [variant], opts))
    assert _refusal(lambda: catalog.accept(game, {"nosuch": 1})) == _refusal(lambda: g.check_options({"nosuch": 1}))
    for spec in declared_options(game):
        if spec.choices or spec.names_policy or spec.valid:
            bad = {spec.name: "bogus-choice"}
            assert _refusal(lambda b=bad: catalog.accept(game, b)) == _refusal(lambda b=bad: g.check_options(b))
    light = _refusal(lambda: catalog.accept(game, {}, None, None, ["nosuch.field=1"]))
    assert light == _refusal(lambda: g.load(None, ["nosuch.field=1"]))
    cfg, sets = catalog.accept(game, {}, None, None, [])
    assert (cfg, sets) == (None, [])  # nothing given: the game loads its default itself


def test_an_accepted_override_is_validated_once_and_passed_on():
    cfg, sets = catalog.accept("kniffel", {}, "greedy", None, ["bonus.value=40"])
    assert sets is None and cfg.bonus.value == 40 and cfg == get_game("kniffel").load(None, ["bonus.value=40"])


@pytest.mark.parametrize("game", list(GAMES))
def test_a_games_declarations_are_the_game_itself(game):
    """The catalog entry comes from the options module alone: its policy names, config model, capabilities, variant
    mark and options are the game's own, and the game checks them as ``Game`` does (the light checks are its own)."""
    from sim.cli.work.rules import config_model
    from sim.games.base import Game

    g, e = get_game(game), catalog.entry(game)
    assert e is not None
    assert e.policies == tuple(g.policies) and e.capabilities == tuple(sorted(g.capabilities))
    assert config_model(e.config) is g.Config and e.policy_variant == g.policy_variant
    assert tuple(g.option_specs) == tuple(declared_options(game))
    kind = type(g)
    assert (kind.check_policy, kind.check_options, kind.load) == (Game.check_policy, Game.check_options, Game.load)


def test_a_game_without_declarations_is_checked_by_the_game(monkeypatch):
    """No ``CONFIG`` in its options module: no entry, so the command line passes everything on to the game."""
    real = catalog.declared
    monkeypatch.setattr(catalog, "declared", lambda game, attr: None if attr == "CONFIG" else real(game, attr))
    assert catalog.entry("kniffel") is None
    assert catalog.accept("kniffel", {}, "nope", None, ["nosuch.field=1"]) == (None, ["nosuch.field=1"])


def test_an_unknown_game_is_refused_with_the_registrys_words():
    from sim.games import get_game

    assert _refusal(lambda: catalog.accept("chess")) == _refusal(lambda: get_game("chess"))


def test_json_output_is_strict_json(capsys):
    """``--json`` never prints ``NaN`` or ``Infinity`` (not JSON: a browser's ``JSON.parse`` refuses the object): an
    undefined number is ``null``, also inside what ``default`` converts (numpy arrays)."""
    import numpy as np

    from sim.cli.common import emit
    from sim.report.outputs import json_default

    emit({"field_ci95": [float("nan"), 1.5], "slope": float("inf"), "rows": np.array([np.nan, 2.0]),
          "nested": {"x": -float("inf"), "n": 3}}, True, "", json_default)
    out = capsys.readouterr().out

    def refuse(constant: str) -> None:
        raise AssertionError(f"not JSON: {constant}")

    assert json.loads(out, parse_constant=refuse) == {"field_ci95": [None, 1.5], "slope": None, "rows": [None, 2.0],
                                                      "nested": {"x": None, "n": 3}}


@pytest.mark.parametrize("policy, options", [
    ("optimal-win", {"players": 3}), ("optimal-win", {"players": 2}), ("leader-win", {"players": 1}),
    ("leader-win", {"players": 5}), ("greedy,optimal-win", {"players": 3}), ("greedy", {"players": 3, "opponent":
    "optimal-win"}), ("optimal-win", {"players": 1, "opponent": "greedy"}), ("greedy", {"players": 2}),
    ("greedy,threshold", {"players": 3, "opponent": "random"}),
])
def test_dadox_table_sizes_are_refused_as_the_game_refuses_them(policy, options):
    """``check_seats`` (the command line, before the game) refuses exactly what the game's seats refuse, in its
    words."""
    from sim.games.dadox.options import check_seats

    g = get_game("dadox")

    def game_check():
        g.prepare(g.load(None, []), g.seat_policies(policy, g.check_options(options)), g.check_options(options))

    try:
        check_seats(policy, options)
        light = None
    except DicesimError as e:
        light = str(e)
    if light is None:
        from sim.games.dadox.options import check_table_size

        check_table_size(g.seat_policies(policy, g.check_options(options)))  # the game's check passes too
    else:
        assert _refusal(game_check) == light


SEAT_CASES = {
    "kniffel": [("greedy", {}), ("greedy", {"players": 3}), ("greedy,optimal", {"players": 3})],
    "dungeon": [("vorschlag", {}), ("greedy", {"difficulty": "schwer"})],
    "dadox": [("greedy", {}), ("greedy", {"players": 1}), ("threshold", {"players": 4}),
              ("greedy", {"players": 3, "opponent": "threshold"})],
    "dungeon24": [("heuristic", {}), ("heuristic,greedy", {}), ("greedy", {"opponent": "expectimax"})],
}


@pytest.mark.parametrize("game", list(GAMES))
def test_more_policies_than_seats_are_refused_before_the_game_as_the_game_refuses_them(game):
    """``accept(..., seated=True)`` counts the seats with the options module's ``seat_count`` and refuses one name
    too many in ``Game.seat_policies``' words; as many names as seats pass both."""
    g = get_game(game)
    first = declared(game, "POLICY_NAMES")[0]
    for options in [{}, *(o for _, o in SEAT_CASES.get(game, []))]:
        options = {k: v for k, v in options.items() if k != "opponent"}  # a full list names every seat itself
        k = declared(game, "seat_count")(options)
        assert k == g.seat_count(g.check_options(options)) >= 1
        catalog.accept(game, options, ",".join([first] * k), seated=True)
        assert g.seat_policies(",".join([first] * k), g.check_options(options)) == [first] * k
        many = ",".join([first] * (k + 1))
        light = _refusal(lambda o=options, m=many: catalog.accept(game, o, m, seated=True))
        assert light.startswith(f"{k + 1} policies for {k} seat")
        assert light == _refusal(lambda o=options, m=many: g.seat_policies(m, g.check_options(o)))
        catalog.accept(game, options, many)  # not seated: policies to compare, any number


@pytest.mark.parametrize("game", list(GAMES))
def test_the_seats_a_calibration_plays_are_the_games(game):
    """``plan_seats`` (the command line's metric check, before the game) gives the seats ``Game.compare_plan`` gives
    one policy."""
    plan = declared(game, "plan_seats")
    assert plan is not None, f"{game}/options.py declares no plan_seats"
    g = get_game(game)
    specs = {o.name: o.default for o in declared_options(game) or ()}
    cases = SEAT_CASES.get(game) or [(p, {}) for p in declared(game, "POLICY_NAMES")]  # a game with no cases: each
    for policy, options in cases:  # policy alone
        assert plan(policy, {**specs, **options}) == g.compare_plan([policy], g.check_options(options))[0][1]


@pytest.mark.parametrize("args", [
    ["calibrate", "dungeon", "--target", "nosuch=3", "--field", "difficulty.normal.hp", "--policy", "vorschlag"],
    ["calibrate", "kniffel", "--target", "mean_scor=3", "--field", "bonus.value", "--policy", "greedy", "--players",
     "2"],
    ["calibrate", "dadox", "--target", "win_rate_seat_9=0.5", "--field", "goal.target", "--policy", "greedy"],
    ["calibrate", "dungeon24", "--target", "nope=0.5", "--field", "start.lp", "--policy", "heuristic,greedy"],
])
def test_an_unknown_metric_is_refused_before_the_game_in_its_words(tmp_path, args):
    code, modules, stderr = _probe(tmp_path, *args)
    assert code == 2 and stderr.startswith("error: unknown metric"), stderr
    assert not {"numba", "pandas", "matplotlib"} & modules and not [m for m in _game_code(modules) if any(
        m.endswith(x) for x in (".game", ".rules", ".play", ".runs", ".freeze"))], sorted(modules)
    from sim.experiments.calibrate import calibrate

    opts = {"players": int(args[-1])} if args[-2] == "--players" else {}
    metric, target = args[3].split("=")
    words = _refusal(lambda: calibrate(get_game(args[1]), args[5], metric, float(target), args[7], n=10,
                                       options=opts))
    assert f"error: {words}".startswith(stderr.strip().rstrip("…"))


@pytest.mark.parametrize("command, source, typo", [
    ("tune", "configs/tune/kniffel-bonus.toml", ('metric = "mean_score"', 'metric = "mean_scor"')),
    ("tune", "configs/tune/dungeon-difficulty.toml", ('metric = "win_rate"', 'metric = "winrate"')),
    ("check", "configs/targets/kniffel.toml", ('metric = "upper_bonus_rate"', 'metric = "upper_bonus_rat"')),
    ("check", "configs/targets/dungeon.toml", ('metric = "win_rate"', 'metric = "winrate"')),
])
def test_a_metric_typo_in_a_tune_or_targets_file_is_refused_before_the_game(tmp_path, command, source,
                                                                             typo):
    """A file whose fault is a metric name: refused by the file's own checks on the game as its config model and
    options module know it (``sim.cli.work.files``), without numba, pandas or the game's kernels, in the words the
    full check says."""
    text = (ROOT / source).read_text()
    assert typo[0] in text
    bad = tmp_path / Path(source).name
    bad.write_text(text.replace(typo[0], typo[1], 1))
    code, modules, stderr = _probe(tmp_path, command, str(bad))
    assert code == 2 and "unknown metric" in stderr, stderr
    assert not {"numba", "pandas", "matplotlib"} & modules and not [m for m in _game_code(modules) if any(
        m.endswith(x) for x in (".game", ".rules", ".play", ".runs", ".freeze"))], sorted(modules)
    if command == "tune":
        from sim.experiments.tune_file import load_tune

        words = _refusal(lambda: load_tune(bad))
    else:
        from sim.experiments.targets import load_targets

        words = _refusal(lambda: load_targets(bad))
    assert f"error: {words}".startswith(stderr.strip().rstrip("…"))


def test_what_the_light_game_cannot_tell_the_game_refuses(tmp_path):
    """A policy value the game's own seat rules read (the dungeon's upgrade after ``@``, a list naming both seats): the
    light check gives up and the game refuses, in its words, after loading."""
    from sim.cli.work.files import RulesOnly, Unsure

    for game, policy in (("dungeon", "vorschlag@nosuch"), ("dungeon24", "greedy,nope")):
        with pytest.raises(Unsure):
            RulesOnly(game).compare_plan([policy], RulesOnly(game).check_options({}))
    tune, sweep, out = tmp_path / "tune.toml", tmp_path / "sweep.toml", tmp_path / "out"
    tune.write_text('game = "dungeon"\nn = 100\n[fields]\n"difficulty.leicht.hp" = [1.0, 1.3]\n[[target]]\n'
                    'policy = "vorschlag@nosuch"\nmetric = "win_rate"\nvalue = 0.5\n')
    sweep.write_text('game = "dungeon"\npolicies = ["greedy", "vorschlag@nosuch"]\nn = 100\n[grid]\n'
                     '"difficulty.leicht.hp" = [1.0, 1.3]\n')  # a field the runs read (Leicht): the policy is wrong
    for command, path in (("tune", tune), ("sweep", sweep)):
        code, modules, stderr = _probe(tmp_path, command, str(path), "--out", str(out))
        assert code == 2 and "unknown upgrade 'nosuch' in policy 'vorschlag@nosuch'" in stderr, stderr
        assert not out.exists()  # refused before any work: no folder, no half-started tune or sweep


PLAN_CASES = {
    "kniffel": [(["greedy", "optimal"], {}), (["greedy", "random", "optimal"], {"players": 3})],
    "dungeon": [(["vorschlag", "greedy", "expectimax"], {"difficulty": "schwer"})],
    "dadox": [(["greedy", "threshold"], {}), (["greedy", "threshold", "optimal-turn"], {"players": 3}),
              (["greedy", "threshold"], {"players": 1}), (["greedy", "optimal-turn"], {"opponent": "threshold"})],
    "dungeon24": [(["heuristic", "greedy"], {}), (["greedy", "random"], {"opponent": "expectimax"})],
}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_light_plan_of_several_policies_is_the_games(game):
    """A sweep or compare of several policies: the plan the light game gives (its options module's ``compare_plan``,
    else each name on ``plan_seats``) is ``Game.compare_plan``'s, pairs and seats in the same order."""
    from sim.cli.work.files import RulesOnly

    g, light = get_game(game), RulesOnly(game)
    for policies, options in PLAN_CASES.get(game) or [(list(declared(game, "POLICY_NAMES")), {})]:
        assert light.compare_plan(policies, light.check_options(options)) == \
            g.compare_plan(policies, g.check_options(options)), (policies, options)


SWEEPS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "configs" / "sweeps").glob("*.toml"))


@pytest.mark.parametrize("source", SWEEPS)
def test_a_sweep_checked_before_the_game_is_the_sweep_the_game_reads(source):
    """What ``sweep`` checked before the game loaded and then plays (``Sweep.on``: the points' configs are not built
    twice) is the sweep ``load_sweep`` reads: the same fingerprint, plan, options, points and configs."""
    from sim.cli.work.files import sweep_checked
    from sim.core.tomlfile import read_toml
    from sim.experiments.sweep_spec import load_sweep

    path = ROOT / source
    light = sweep_checked(read_toml(path), path, False)
    assert light is not None, f"{source}: the light game gave up"
    full = load_sweep(path)
    played = light.on(get_game(full.game.name))
    assert played.game is full.game and played.chunk == full.chunk
    assert played.fingerprint() == full.fingerprint() and played.plan == full.plan and played.options == full.options
    assert [p.cfg for p in played.points] == [p.cfg for p in full.points]
    assert played.base_values == full.base_values and played.fields == full.fields


@pytest.mark.parametrize("source, typo, said", [
    ("configs/sweeps/kniffel-bonus.toml", ('"bonus.value"', '"bonus.nosuch"'), "unknown config field: bonus.nosuch"),
    ("configs/sweeps/kniffel-bonus.toml", ("[25, 35, 45]", "[25, -35, 45]"), "invalid value for bonus.value: -35"),
    ("configs/sweeps/kniffel-bonus.toml", ('"mean_score"', '"mean_scor"'), "unknown metric 'mean_scor'"),
    ("configs/sweeps/kniffel-bonus.toml", ('"optimal"]', '"nope"]'), "policies: unknown policy 'nope' for kniffel"),
    ("configs/sweeps/dungeon-normal.toml", ('"difficulty.normal.hp"', '"difficulty.normal.nosuch"'),
     "unknown config field: difficulty.normal.nosuch"),
    ("configs/sweeps/dadox-skill.toml", ("players = 2", "players = 2\nopponent = \"nope\""),
     "[options]: unknown policy 'nope' for dadox"),
    ("configs/sweeps/dadox-skill.toml", (('["threshold"]', '["threshold", "optimal-win"]'),
                                         ("players = 2", "players = 3")),
     "policies: optimal-win is a two-player solution, not optimal with 3 players"),
])
def test_a_fault_in_a_sweep_file_is_refused_before_the_game(tmp_path, source, typo, said):
    """A sweep file's fault (a field, a value, a metric, a policy, an option): refused by the file's own checks on the
    game as its config model and options module know it, without numba, pandas or the game's kernels, in the words
    ``load_sweep`` says."""
    text = (ROOT / source).read_text()
    for was, now in typo if isinstance(typo[0], tuple) else [typo]:
        assert was in text
        text = text.replace(was, now, 1)
    bad = tmp_path / Path(source).name
    bad.write_text(text)
    code, modules, stderr = _probe(tmp_path, "sweep", str(bad), "--out", str(tmp_path / "out"))
    assert code == 2 and said in stderr, stderr
    assert not {"numba", "pandas", "matplotlib"} & modules and not [m for m in _game_code(modules) if any(
        m.endswith(x) for x in (".game", ".rules", ".play", ".runs", ".freeze"))], sorted(modules)
    from sim.experiments.sweep_spec import load_sweep

    words = _refusal(lambda: load_sweep(bad))
    assert f"error: {words}".startswith(stderr.strip().rstrip("…")) and not (tmp_path / "out").exists()


def test_a_folder_holding_a_sweep_is_refused_before_the_game_as_the_sweep_refuses_it(tmp_path):
    """A new sweep into a folder that holds one (neither --resume nor --overwrite): refused before numba, pandas or
    the game load, in the words the sweep's own folder check says; the folder is left as it was."""
    out = tmp_path / "started"
    out.mkdir()
    (out / "sweep.json").write_text("{}")
    code, modules, stderr = _probe(tmp_path, "sweep", "configs/sweeps/kniffel-bonus.toml", "--out", str(out))
    assert code == 2 and stderr == f"error: {out} already holds a sweep: rerun with --resume to continue it or " \
                                   "--overwrite to start over\n", stderr
    assert not {"numba", "pandas", "matplotlib"} & modules and not [m for m in _game_code(modules) if any(
        m.endswith(x) for x in (".game", ".rules", ".play", ".runs", ".freeze"))], sorted(modules)
    from sim.experiments.sweep_spec import load_sweep
    from sim.experiments.sweep_store import prepare_out

    sweep = load_sweep(ROOT / "configs/sweeps/kniffel-bonus.toml")
    assert f"error: {_refusal(lambda: prepare_out(out, sweep, False, False))}\n" == stderr
    assert sorted(p.name for p in out.iterdir()) == ["sweep.json"]


def test_a_game_is_named_in_any_case(tmp_path):
    """``Kniffel``, as the rule page writes it, is the game ``kniffel``; a ``--games`` list reads it so too."""
    assert here_json("describe", "Kniffel") == here_json("describe", "kniffel")
    assert here_json("combos", "5", "5", "5", "2", "2", "--game", " DUNGEON") == here_json("combos", "5", "5", "5",
                                                                                             "2", "2")
    r = cli_here("balance", "--games", "KNIFFEL,Schach", "--n", "10", "--out", str(tmp_path / "r"))
    assert r.returncode == 2 and "'schach'" in r.stderr and "KNIFFEL" not in r.stderr, r.stderr


def test_a_file_names_games_and_policies_in_any_case(tmp_path):
    """A sweep, tune or targets file reads ``game = "Kniffel"`` and ``policy = "Greedy"`` as the command line does: the
    same sweep (fingerprint and plan), the same tune groups, the same target bands as the lowercase file."""
    from sim.experiments.sweep_spec import load_sweep
    from sim.experiments.targets import load_targets
    from sim.experiments.tune_file import load_tune

    def shouted(source: str) -> Path:
        text = (ROOT / source).read_text()
        for was in ('"kniffel"', '"greedy"', '"optimal"'):
            text = text.replace(was, was.title())
        assert '"Kniffel"' in text and '"kniffel"' not in text
        (tmp_path / Path(source).name).write_text(text)
        return tmp_path / Path(source).name

    sweep, loud = load_sweep(ROOT / "configs/sweeps/kniffel-bonus.toml"), load_sweep(shouted(
        "configs/sweeps/kniffel-bonus.toml"))
    assert loud.fingerprint() == sweep.fingerprint() and loud.plan == sweep.plan
    assert [t.label for t in load_tune(shouted("configs/tune/kniffel-bonus.toml"), probe=False).targets] == [
        t.label for t in load_tune(ROOT / "configs/tune/kniffel-bonus.toml", probe=False).targets]
    assert [b.key() for b in load_targets(shouted("configs/targets/kniffel.toml"))] == [
        b.key() for b in load_targets(ROOT / "configs/targets/kniffel.toml")]
    dadox = (ROOT / "configs/sweeps/dadox-skill.toml").read_text()
    (tmp_path / "d.toml").write_text(dadox.replace("players = 2", 'players = 2\nopponent = "Greedy"'))
    assert load_sweep(tmp_path / "d.toml").options["opponent"] == "greedy"  # an option naming a policy, too


def test_the_readmes_config_paths_work_from_any_folder(tmp_path, monkeypatch):
    """``--config configs/kniffel/free-joker.toml`` and ``sweep configs/sweeps/...`` as the README writes them were
    'not found' outside the checkout: a missing ``configs/...`` file is the one dicesim ships; a file of that name
    in the working folder comes first."""
    from sim.core.config import CONFIG_DIR
    from sim.core.tomlfile import read_toml, shipped

    monkeypatch.chdir(tmp_path)
    assert shipped("configs/kniffel/free-joker.toml") == CONFIG_DIR / "kniffel" / "free-joker.toml"
    assert read_toml("configs/sweeps/kniffel-bonus.toml", "sweep file")["game"] == "kniffel"
    mine = tmp_path / "configs" / "kniffel" / "free-joker.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text('name = "mine"\n')
    assert read_toml("configs/kniffel/free-joker.toml") == {"name": "mine"}  # the working folder's own first
    assert shipped("configs/kniffel/nosuch.toml") == Path("configs/kniffel/nosuch.toml")  # still not found


@pytest.mark.parametrize("args, said", [
    (["solve", "kniffel", "--players", "2"], "error: --players: solve kniffel does not read it"),
    (["solve", "dadox", "--objective", "win", "--players", "3"], "error: --players: solve dadox does not read it "
                                                                  "(the turn solve is one player's turn, the win solve "
                                                                  "always two players' duel); leave it out\n"),
    (["solve", "dadox", "--objective", "turn", "--people", "x"], "error: --people: solve dadox does not read it, its "
                                                                  "answer is the same for every value (it reads "
                                                                  "--objective)"),
    (["describe", "dungeon24", "--people", "untote"], "error: --people: describe dungeon24 does not read it"),
    (["solve", "dungeon24", "--arrangement", "1,0,2,3,4"], "error: --arrangement: solve dungeon24 does not read it"),
])
def test_an_option_the_command_never_reads_is_refused(args, said):
    """``solve kniffel --players 2`` answered the one-sheet solve and ``describe dungeon24 --people untote`` every
    people's tables, each exit 0 as if the option had been heard."""
    done = cli_here(*args)
    assert done.returncode == 2 and done.stderr.startswith(said), done.stderr


@pytest.mark.parametrize("args, said", [
    (["play", "dungeon", "--policy", "greedy", "--set", "difficulty.normal.hp=2"],
     "error: difficulty.normal.hp is not used by this run (difficulty: Leicht): set it with --difficulty normal, or "
     "set difficulty.leicht.hp\n"),
    (["compare", "dungeon", "--policies", "greedy,vorschlag", "--set", "difficulty.schwer.damage=2"],
     "error: difficulty.schwer.damage is not used by this run (difficulty: Leicht)"),
    (["play", "dungeon24", "--policy", "heuristic", "--set", "peoples.untote.boss.a=1"],  # either side's option
     "error: peoples.untote.boss.a is not used by this run (your people: Grünlinge): set it with --people untote or "
     "--opponent-people untote, or set peoples.gruenlinge.boss.a\n"),
    (["replay", "dungeon", "--run", "3", "--set", "difficulty.schwer.hp=2"],  # without --policy: its default's run
     "error: difficulty.schwer.hp is not used by this run (difficulty: Leicht)"),
])
def test_a_set_of_a_choice_the_run_does_not_hold_is_refused(args, said):
    """``play dungeon --set difficulty.normal.hp=2`` on Leicht printed "rules changed" over the very same numbers
    (calibrate refused the same field); the matchup plays every people, so a people's field is read there."""
    done = cli_here(*args, *(() if args[0] == "replay" else ("--n", "10", "--no-report")))
    assert done.returncode == 2 and done.stderr.startswith(said), done.stderr
    done = cli_here("play", "dungeon", "--policy", "greedy", "--difficulty", "normal", "--n", "10", "--no-report",
                    "--set", "difficulty.normal.hp=2")
    assert done.returncode == 0 and "rules changed: difficulty.normal.hp=2" in done.stdout, done.stderr
    done = cli_here("matchup", "--n", "4", "--set", "peoples.untote.boss.a=1", "--json")
    assert done.returncode == 0, done.stderr


def test_past_the_hard_limit_the_two_numbers_differ_in_words():
    """``--n 9007199254740993`` read '9.01e+15 runs is more than dicesim plays (9.01e+15, 2^53)'."""
    done = cli_here("play", "kniffel", "--policy", "greedy", "--n", "9007199254740993", "--force")
    assert done.returncode == 2 and done.stderr.strip() == ("error: --n: 9,007,199,254,740,993 runs is more than "
                                                           "dicesim plays (at most 9,007,199,254,740,992, 2^53)"), \
        done.stderr


def test_minus_zero_is_zero_for_counts_and_seeds():
    """``--n -0`` read 'must not be negative' (it is zero: refused as zero runs) and ``--seed -0`` was refused (it is
    the seed 0, as ``--set`` reads ``-0``)."""
    done = cli_here("play", "dadox", "--policy", "greedy", "--no-report", "--n", "-0")
    assert done.returncode == 2 and done.stderr == "error: --n must be a positive number of runs, got 0\n", done.stderr
    done = cli_here("play", "dadox", "--policy", "greedy", "--no-report", "--n", "50", "--seed", "-0")
    zero = cli_here("play", "dadox", "--policy", "greedy", "--no-report", "--n", "50", "--seed", "0")
    assert done.returncode == 0 and " · seed=0 · " in done.stdout, done.stderr
    assert done.stdout.split("\n", 1)[1] == zero.stdout.split("\n", 1)[1]  # the same numbers as the seed 0
    assert "must not be negative" in cli_here("play", "dadox", "--policy", "greedy", "--n", "-5").stderr


def test_counts_too_long_to_write_out_read_as_powers_of_ten():
    """``--n 9223372036854775808`` read '9.22e+18 runs', 2e13 '2e+13 runs': a person's ``× 10^``."""
    done = cli_here("play", "dadox", "--policy", "greedy", "--no-report", "--n", "9223372036854775808")
    assert done.returncode == 2 and done.stderr.startswith("error: --n: about 9.22 \u00d7 10^18 runs is more than "
                                                           "dicesim plays"), done.stderr
    done = cli_here("play", "dadox", "--policy", "greedy", "--no-report", "--n", "20000000000000")
    assert done.returncode == 2 and done.stderr.startswith("error: --n: about 2.00 \u00d7 10^13 runs is above the "
                                                           "limit of 10^10"), done.stderr


@pytest.mark.parametrize("args, said", [
    (["play", "kniffel", "--policy", "random", "--set", "skill.level=0.5"],
     "error: skill.level is read only by greedy and optimal, and this run plays random: set it with --policy greedy"),
    (["play", "kniffel", "--policy", "greedy", "--set", "skill.opponents=novice"],
     "error: skill.opponents is read only by the seats after the first, and this run plays one seat (greedy)"),
    (["play", "dungeon", "--policy", "vorschlag", "--set", "skill.opponents=novice"],
     "error: skill.opponents is read only by the seats after the first"),
    (["play", "dadox", "--policy", "threshold", "--set", "policies.greedy_bank_at=500"],
     "error: policies.greedy_bank_at is read only by greedy, and this run plays threshold"),
])
def test_an_edit_no_seat_reads_is_refused_before_play(args, said):
    """'Random (skill casual 0.5) scores 49.4', the same as at full skill; an opponents' level with no opponent; a
    bank threshold of a bot not at the table: each played as if the edit were not there."""
    done = cli_here(*args)
    assert done.returncode == 2 and done.stderr.startswith(said), done.stderr
    assert cli_here("play", "kniffel", "--policy", "greedy", "--players", "2", "--set", "skill.opponents=novice",
                    "--n", "10", "--no-report").returncode == 0  # two seats: the second reads it


def test_a_seed_is_read_as_n_is():
    """``--seed 1.0`` was taken and ``--seed 1e3`` refused, while ``--n 2e4`` is 20000: a seed reads the same ways."""
    said = [cli_here("replay", "kniffel", "--seed", s, "--run", "0").stdout
            for s in ("1000", "1e3", "1_000", " 1000.0")]
    assert said[0] and all(x == said[0] for x in said), said


def test_balance_starts_its_compiles_before_the_heavy_imports(monkeypatch):
    """A cold ``balance`` started its compile processes only after this process had imported numba, pandas and the
    games (~5 s of one core, the other idle): the command line starts them first, once its runs are checked, and the
    work's own start does not start them again."""
    from sim.cli.work import ahead
    from sim.jit import warmup

    started: list[list[str]] = []
    monkeypatch.setattr(warmup, "start", lambda games, workers=None: started.append(list(games)) or [])
    with pytest.raises(DicesimError, match="--n x every game's policies"):
        ahead.compile_ahead(10**10, None, False)  # refused: nothing starts compiling
    assert started == []
    ahead.compile_ahead(20_000, ["kniffel", "dadox"], False)
    assert started == [["kniffel", "dadox"]]
    for game in GAMES:  # the count the command line checks is the game's own
        assert declared(game, "REPORT_POLICIES") == get_game(game).report_policies
    code = "import json, sys; import sim.cli.work.ahead; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    modules = set(json.loads(done.stdout))
    assert not {"numba", "pandas"} & modules and _game_code(modules) == ["sim.games.base"], done.stderr  # the work
    # package's type of a game (numpy's, no kernel)


def test_a_second_start_does_not_queue_a_game_again(monkeypatch):
    """``warmup.start`` from the command line and again from the work: each cold game has one process."""
    from sim.jit import warmup

    launched: list[str] = []
    monkeypatch.setattr(warmup, "_procs", {})
    monkeypatch.setattr(warmup, "_queue", [])
    monkeypatch.setattr(warmup, "_slots", warmup._slots)
    monkeypatch.setattr(warmup, "is_cold", lambda g: True)
    monkeypatch.setattr(warmup, "_launch", lambda g: launched.append(g) or warmup._procs.__setitem__(g, None))
    first = warmup.start(["kniffel", "dadox"], workers=2)
    assert sorted(first) == ["dadox", "kniffel"] and warmup.start(["kniffel", "dadox"], workers=2) == []
    assert sorted(launched) == ["dadox", "kniffel"]


def test_an_option_of_another_command_is_not_offered_in_help():
    """``play --help`` listed ``--objective`` (for dicesim solve only), which ``play`` then refused; it is left out
    of the help of the commands that refuse it, and still refused there in words."""
    for command in ("play", "compare", "calibrate", "replay", "describe"):
        assert "--objective" not in cli_here(command, "--help").stdout, command
    assert "--objective" in cli_here("solve", "--help").stdout
    done = cli_here("play", "dadox", "--policy", "greedy", "--objective", "win", "--n", "5")
    assert done.returncode == 2 and done.stderr == "error: --objective applies only to dicesim solve, not play\n"


def test_a_second_field_after_one_set_is_said_as_such():
    """``--set a=1 b=2`` read "Got unexpected extra argument(s) (b=2)": each --set takes one field."""
    done = cli_here("play", "kniffel", "--policy", "greedy", "--set", "bonus.value=40", "bonus.threshold=60")
    assert done.returncode == 2 and done.stderr == ("error: bonus.threshold=60 is no argument of the command: each "
                                                    "--set takes one field; give it its own (--set "
                                                    "bonus.threshold=60)\n"), done.stderr
