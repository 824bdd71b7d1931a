"""``dicesim play --log`` and ``dicesim fit`` as a designer runs them, and the logs they refuse (issue 32)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from importlib import import_module

import pandas as pd
import pytest
import tomli_w

from sim.cli.fit import FITTED
from sim.core.batch import run_batch
from sim.core.skill import Group
from sim.games import GAMES
from sim.games.kniffel import rules as R
from sim.games.kniffel.game import GAME
from sim.players import kniffel
from tests.conftest import ROOT, cli_here, run_cli
from tests.test_cli_fast import _game_code, _probe


def test_play_logs_and_fit_reads_it_back(tmp_path):
    log = tmp_path / "d.parquet"
    bad = run_cli("play", "kniffel", "--policy", "optimal", "--n", "5", "--log", str(tmp_path / "d.txt"))  # a process
    play = cli_here("play", "kniffel", "--policy", "optimal", "--n", "60", "--games-per-player", "3", "--set",
                    "skill.level=0.6", "--log", str(log), "--no-report", "--json")
    assert play.returncode == 0, play.stderr
    summary = json.loads(play.stdout)
    assert summary["log"]["players"] == 20 and summary["log"]["games"] == 60
    assert bad.returncode == 2 and bad.stderr.startswith("error: --log") and ".parquet or .csv" in bad.stderr
    dec = pd.read_parquet(log)
    assert len(dec) == summary["log"]["decisions"] and set(dec["kind"]) == {"hold", "box"}
    out = pd.read_parquet(tmp_path / "d.outcomes.parquet")
    assert len(out) == 60 and (out["level"] == 0.6).all()

    fit = cli_here("fit", "kniffel", str(log), "--out", str(tmp_path / "fit"), "--json")
    assert fit.returncode == 0, fit.stderr
    s = json.loads(fit.stdout)
    assert {"game", "players", "decisions", "level", "groups", "regret"} <= set(s)
    assert s["game"] == "kniffel" and s["players"] == 20 and s["decisions"] == len(dec)
    lo, hi = s["level"]["ci95"]
    assert lo <= 0.6 <= hi
    assert [set(g) >= {"level", "ci95", "weight"} for g in s["groups"]] == [True] * len(s["groups"])
    assert s["regret"]["total"] > 0 and set(s["regret"]["by_kind"]) == {"hold after roll 1", "hold after roll 2",
                                                                        "box"}
    assert sum(s["regret"]["by_kind"].values()) == pytest.approx(s["regret"]["total"], abs=1e-3)
    page = (tmp_path / "fit" / "fit.html").read_text()
    assert "Where players lose points" in page
    assert "Kolmogorov" in page  # the outcomes beside the log were found and compared
    # the population plays, by the command the fit names (it said --config population.toml, a file not where the
    # command is typed)
    hint = shlex.split(s["play"])
    assert hint[:2] == ["dicesim", "play"] and hint[hint.index("--config") + 1] == str(tmp_path / "fit" /
                                                                                       "population.toml")
    again = cli_here(*hint[1:], "--n", "20", "--no-report", "--json")
    assert again.returncode == 0, again.stderr


@pytest.fixture(scope="module")
def small_log():
    cfg = GAME.load()
    cfg = cfg.model_copy(update={"skill": cfg.skill.model_copy(update={"level": 0.5, "games_per_player": 2})})
    return kniffel.record(cfg, "optimal", 4, 5, {})


def _first(dec: pd.DataFrame, cond) -> int:
    return int(dec.index[cond(dec)][0])


def _spoil(how: str, dec: pd.DataFrame, out: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    dec, out = dec.copy(), out.copy()
    dec["choice"] = dec["choice"].astype(object)
    if how == "missing column":
        return dec.drop(columns=["d3"]), out, "missing column d3"
    if how == "level out of range":  # the level the simulator played at is 0..1 (5 was taken)
        out["level"] = out["level"].astype(float)
        out.loc[1, "level"] = 5.0
        return dec, out, "row 2: level = 5 is outside 0..1"
    if how == "player with a hidden character":  # a NUL went into the pages and the fitted files
        p0 = out.loc[0, "player"]
        dec["player"] = dec["player"].astype(str).where(dec["player"].astype(str) != str(p0), "a\u202eb")
        out["player"] = out["player"].astype(str).where(out["player"].astype(str) != str(p0), "a\u202eb")
        return dec, out, "holds a control or invisible character"
    if how == "impossible sheet":
        dec.loc[10, "s_einser"] = 7
        return dec, out, "row 11: s_einser = 7 is not a score"
    if how == "impossible turn":
        dec.loc[4, "turn"] = 9
        return dec, out, "row 5: turn 9 with"
    if how == "die out of range":
        dec.loc[6, "d2"] = 7
        return dec, out, "row 7: d2 = 7 is outside 1..6"
    if how == "missing number":  # a parquet NaN and a CSV's empty cell alike, shown as nan (not np.float64(nan))
        dec["d1"] = dec["d1"].astype(float)
        dec.loc[5, "d1"] = float("nan")
        return dec, out, "row 6: d1 = "  # nan in a parquet, '' in a CSV
    if how == "empty cell":
        dec.loc[3, "player"] = ""
        return dec, out, "row 4: player is empty"
    if how == "hold not among the dice":
        i = _first(dec, lambda d: (d["kind"] == "hold") & ((d[["d1", "d2", "d3", "d4", "d5"]] == 6).sum(axis=1) < 5))
        dec.loc[i, "choice"] = "66666"
        return dec, out, f"row {i + 1}: hold '66666' keeps dice that are not among"
    if how == "hold with no roll left":
        i = _first(dec, lambda d: d["kind"] == "hold")
        dec.loc[i, "rolls_left"] = 0
        return dec, out, f"row {i + 1}: a hold with no reroll left"
    if how == "box already filled":
        i = _first(dec, lambda d: (d["kind"] == "box") & (d["s_chance"] < 0) & (d["turn"] > 1)
                   & (d["s_einser"] >= 0) & (d["choice"] != "einser"))
        dec.loc[i, "choice"] = "einser"
        return dec, out, f"row {i + 1}: box einser is already filled"
    if how == "not a box":
        i = _first(dec, lambda d: d["kind"] == "box")
        dec.loc[i, "choice"] = "yahtzee"
        return dec, out, f"row {i + 1}: box 'yahtzee' is not a box"
    if how == "game too large":  # an int64 overflow showed as game -9223372036854775808, after a numpy warning
        dec["game"] = dec["game"].astype(str)  # as text: a parquet column of numbers cannot hold it
        dec.loc[2, "game"] = "99999999999999999999999"
        return dec, out, "row 3: game = 99999999999999999999999 is too large (at most 2^53)"
    if how == "outcome logged twice":
        out = pd.concat([out, out.iloc[[0]]], ignore_index=True)
        return dec, out, f"row {len(out)}: player {out['player'].iloc[0]!r} game {out['game'].iloc[0]} is logged twice"
    if how == "decision logged twice":  # it counted twice in the fit
        dec = pd.concat([dec, dec.iloc[[0]]], ignore_index=True)
        return dec, out, (f"row {len(dec)}: player {dec['player'].iloc[0]!r} game {dec['game'].iloc[0]} turn "
                          f"{dec['turn'].iloc[0]} with {dec['rolls_left'].iloc[0]} rolls left is logged twice (first "
                          "at row 1)")
    if how == "score past the rules' best":  # 1,575: every box at its best, the bonus, twelve Kniffel bonuses
        out.loc[1, "score"] = 1576
        return dec, out, "row 2: score 1576 is more than these rules allow (1575: every box at its best"
    if how == "score under the rules' least":  # 5: every box at its least, the Chance five dice
        out.loc[1, "score"] = 3
        return dec, out, "row 2: score 3 is less than these rules allow (5: every box at its least"
    if how == "score the sheets do not give":  # within the rules' bounds, not this game's
        out.loc[1, "score"] += 1
        return dec, out, (f"row 2: score {out.loc[1, 'score']}, but the logged sheets of player "
                          f"{out.loc[1, 'player']!r} game {out.loc[1, 'game']} total {out.loc[1, 'score'] - 1} ")
    if how == "long name logged twice":  # a 400-character name cut the reason off the error line
        long = "x" * 400
        dec["player"] = dec["player"].where(dec["player"] != out["player"].iloc[0], long)
        out["player"] = out["player"].where(out["player"] != out["player"].iloc[0], long)
        out = pd.concat([out, out.iloc[[0]]], ignore_index=True)
        return dec, out, f"row {len(out)}: player '{'x' * 38}… game 0 is logged twice"
    assert how == "player with no decisions"
    out = pd.concat([out, pd.DataFrame([{"player": "ghost", "game": 0, "run": 99, "score": 100, "level": 0.5}])],
                    ignore_index=True)
    return dec, out, f"row {len(out)}: player 'ghost' has no decisions"


CASES = ["missing column", "impossible sheet", "impossible turn", "die out of range", "missing number", "empty cell",
         "hold not among the dice", "hold with no roll left", "box already filled", "not a box",
         "player with no decisions", "game too large", "outcome logged twice",
         "decision logged twice", "score past the rules' best", "score under the rules' least",
         "score the sheets do not give", "long name logged twice", "level out of range",
         "player with a hidden character"]


@pytest.mark.parametrize("how", CASES)
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_bad_log_is_refused_in_one_line_naming_its_row(tmp_path, small_log, how, suffix):
    dec, out, expected = _spoil(how, *small_log)
    log = tmp_path / f"d{suffix}"
    outcomes = tmp_path / f"d.outcomes{suffix}"
    for df, path in ((dec, log), (out, outcomes)):
        df.to_csv(path, index=False) if suffix == ".csv" else df.to_parquet(path, index=False)
    r = cli_here("fit", "kniffel", str(log), "--out", str(tmp_path / "fit"), "--json")
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and r.stderr.count("\n") == 1 and r.stderr.startswith("error: "), r.stderr
    assert expected in r.stderr and "np." not in r.stderr, r.stderr
    assert not (tmp_path / "fit").exists()  # nothing fitted, nothing written


@pytest.mark.parametrize("name, content, said", [
    ("e.csv", b"", "not a readable csv table (no header line: the file is empty)"),  # pandas' "No columns to parse"
    ("l.csv", "player,game\n\xe4,1\n".encode("latin-1"), "(not UTF-8 text: save the CSV as UTF-8)"),  # a codec's
    ("t.parquet", b"PAR1" + b"x" * 100, "(not a Parquet file, or one cut short)"),  # pyarrow's "magic bytes …"
])
def test_an_unreadable_log_says_why_in_words(tmp_path, name, content, said):
    (tmp_path / name).write_bytes(content)
    r = cli_here("fit", "kniffel", str(tmp_path / name))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and said in r.stderr, r.stderr


def test_every_box_name_is_a_log_choice():
    assert {c.name for c in kniffel.DECISION_COLUMNS} >= {f"s_{b}" for b in R.CATEGORIES} | {"choice", "player"}


def test_a_rule_change_on_a_fitted_population_is_a_sweep(tmp_path):
    """The counterfactual: population.toml is a config like any, so a sweep reruns a rule change on the fitted
    mixture on paired seeds; its point at the population's own rules is that population's batch."""
    cfg = GAME.load()
    skill = cfg.skill.model_copy(update={"groups": [Group(level=0.35, weight=0.5), Group(level=0.8, weight=0.5)]})
    pop = tmp_path / "population.toml"
    pop.write_text(tomli_w.dumps(cfg.model_copy(update={"skill": skill}).model_dump(mode="json")))
    spec = tmp_path / "sweep.toml"
    spec.write_text(f'game = "kniffel"\npolicies = ["optimal"]\nconfig = "{pop}"\nn = 300\nseed = 4\n'
                    'metrics = ["mean_score"]\n[grid]\n"bonus.value" = [35, 60]\n')
    r = cli_here("sweep", str(spec), "--out", str(tmp_path / "sweep"), "--json")
    assert r.returncode == 0, r.stderr
    rows = pd.read_csv(tmp_path / "sweep" / "sweep.csv").set_index("bonus.value")
    mix = GAME.load(pop)
    plain = run_batch(GAME, mix, ["optimal"], 300, 4, GAME.check_options({}), progress=False).table
    assert rows.loc[35, "mean_score"] == pytest.approx(plain["score"].mean(), abs=1e-3)
    assert rows.loc[60, "mean_score"] > rows.loc[35, "mean_score"]  # a bigger bonus: more points, same players


LIGHT = """
import json, sys
from sim.cli import main
sys.argv = ["dicesim", *sys.argv[1:]]
try:
    main()
except SystemExit as e:
    code = e.code
print(json.dumps({"code": code, "heavy": sorted({"numba", "pandas", "scipy"} & set(sys.modules))}))
"""


UNLOGGED = next(g for g in GAMES if g not in FITTED)  # a game without a decision log (the one-die game)


@pytest.mark.parametrize("args, needle", [
    (["fit", "chess", "x.csv"], "error: fit: chess has no decision log yet"),
    (["fit", "kniffel", "x.txt"], "error: LOG x.txt: a log is a .parquet or .csv file"),
    (["fit", "kniffel", "tests"], "error: LOG tests is a folder: a log is a .parquet or .csv file"),
    (["play", "kniffel", "--policy", "greedy", "--log", "tests"],  # it said only that a log is a .csv file
     "error: --log tests is a folder: a log is a .parquet or .csv file (e.g. --log tests/log.csv)"),
    (["play", UNLOGGED, "--policy", "random", "--log", "x.csv"], f"error: --log: {UNLOGGED} has no decision log"),
])
def test_a_refused_fit_or_log_is_light(args, needle):
    r = subprocess.run([sys.executable, "-c", LIGHT, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got["code"] == 2 and r.stderr.startswith(needle), r.stderr
    assert got["heavy"] == [], got  # refused before numba, pandas or scipy load


OUTCOME_ROWS = {  # a game fitted by its outcomes: a table of two games whose second no game under the rules ends so
    "dungeon": ("player,game,rooms_cleared,win\na,0,3,0\na,1,10,0\n", "row 2: win 0 with 10 of 10 rooms cleared"),
    "dungeon24": ("player,game,result,score,turns\na,0,win,4,9\na,1,loss,999,7\n", "row 2: score 999: at most 4"),
}


@pytest.mark.parametrize("game", OUTCOME_ROWS)
@pytest.mark.parametrize("beside", [False, True])
def test_a_bad_outcome_row_is_refused_before_the_game_loads(tmp_path, game, beside):
    """An outcome row the rules cannot end with is refused from the table, the config model and pandas alone: no
    numba, scipy or game kernel (1.4-1.6 s before, on two loaded cores; the floor is pandas' import), whether the
    table is LOG itself or the outcomes beside a decision log (only the outcome rows are checked early: here they are
    named before the decision log's own refusal, no rows)."""
    text, words = OUTCOME_ROWS[game]
    table = tmp_path / ("d.outcomes.csv" if beside else "runs.csv")
    table.write_text(text)
    log = tmp_path / "d.csv"
    if beside:  # a decision log's header is all the early check reads of it
        log.write_text(",".join(c.name for c in import_module(f"sim.players.{game}_columns").DECISION_COLUMNS) + "\n")
    code, modules, stderr = _probe(tmp_path, "fit", game, str(log if beside else table), "--out", str(tmp_path / "f"))
    assert code == 2 and stderr.startswith(f"error: {table} {words}"), stderr
    assert stderr.count("\n") == 1 and not (tmp_path / "f").exists()
    assert not modules & {"numba", "scipy", "matplotlib"}, sorted(modules & {"numba", "scipy", "matplotlib"})
    assert not [m for m in _game_code(modules) if not m.endswith((".config", ".layout", ".rows", ".labels"))
                and m != "sim.games.base"]  # the rules model and the plain modules it reads, as a refused config


def test_player_ids_may_be_numbers(small_log, tmp_path):
    dec, out = (df.copy() for df in small_log)
    dec["player"] = dec["player"].str[1:].astype(int)
    out["player"] = out["player"].str[1:].astype(int)
    dec.to_parquet(tmp_path / "d.parquet")
    out.to_parquet(tmp_path / "d.outcomes.parquet")
    r = cli_here("fit", "kniffel", str(tmp_path / "d.parquet"), "--out", str(tmp_path / "fit"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["players"] == 2


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_log_over_the_row_limit_is_refused_before_it_is_read_and_force_reads_it(small_log, tmp_path, monkeypatch,
                                                                                   suffix):
    """Memory grows with a log's rows: over ``MAX_LOG_ROWS`` the fit says how many rows and what to do, in one line,
    and writes nothing; ``--force`` fits it. Telemetry's own extra columns are not read, and change nothing."""
    from sim.players import logs

    dec, out = (df.copy() for df in small_log)
    extra = dec.assign(session_note="a note the fit does not need", **{"ping ms": 42})
    log, plain = tmp_path / f"d{suffix}", tmp_path / f"p{suffix}"
    for path, table in ((log, extra), (plain, dec)):
        getattr(table, "to_csv" if suffix == ".csv" else "to_parquet")(path, index=False)
        getattr(out, "to_csv" if suffix == ".csv" else "to_parquet")(logs.outcomes_path(path), index=False)
    monkeypatch.setattr(logs, "MAX_LOG_ROWS", len(dec) - 1)
    r = cli_here("fit", "kniffel", str(log), "--out", str(tmp_path / "fit"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"error: LOG {log}: {len(dec):,} rows, over the {len(dec) - 1:,} a fit reads")
    assert "--force" in r.stderr and not (tmp_path / "fit").exists()
    forced = cli_here("fit", "kniffel", str(log), "--out", str(tmp_path / "fit"), "--json", "--force")
    assert forced.returncode == 0, forced.stderr
    monkeypatch.setattr(logs, "MAX_LOG_ROWS", len(dec))
    same = cli_here("fit", "kniffel", str(plain), "--out", str(tmp_path / "fit2"), "--json")
    assert same.returncode == 0, same.stderr
    a, b = json.loads(forced.stdout), json.loads(same.stdout)
    assert a["level"] == b["level"] and a["regret"] == b["regret"] and a["decisions"] == b["decisions"]


HEADER_CASES = {  # file name -> its bytes
    "no-columns.csv": b"a,b\n1,2\n",
    "header-only.csv": b"player,game\n",
    "bom.csv": b"\xef\xbb\xbfplayer,game,turn\n1,2,3\n",
    "blank-first.csv": b"\nplayer,game\n1,2\n",
    "empty.csv": b"",
    "quoted.csv": b'"player","game","odd, name"\n1,2,3\n',
    "latin1.csv": "spieler,größe\n1,2\n".encode("latin-1"),
}


@pytest.mark.parametrize("game", FITTED)
@pytest.mark.parametrize("name", [*HEADER_CASES, "columns.parquet", "with-bad-outcomes.csv", "with-outcomes.csv"])
def test_a_log_header_refusal_is_the_full_checks(tmp_path, game, name):
    """A decision log's missing columns told from its header before the game loads (``sim.players.schema``) are the
    full read's refusal, word for word; where the full read would say something else first (an unreadable file, an
    outcome table beside it that does not read) the header check says nothing and the full read decides."""
    from sim.players.run import fit_log
    from sim.players.schema import header_refusal

    log = tmp_path / name
    if name.endswith(".parquet"):
        pd.DataFrame({"player": ["p"], "game": [0]}).to_parquet(log)
    elif name == "with-bad-outcomes.csv":
        log.write_bytes(b"a,b\n1,2\n")
        (tmp_path / "with-bad-outcomes.outcomes.csv").write_bytes(b"\xff\xfe\x00broken")
    elif name == "with-outcomes.csv":  # a decision log beside its outcome table (the outcomes' columns are there)
        log.write_bytes(b"player,game,score\np,0,1\n")
        (tmp_path / "with-outcomes.outcomes.csv").write_bytes(b"player,game,score,win,result,rooms_cleared\np,0,1,0,"
                                                              b"loss,0\n")
    else:
        log.write_bytes(HEADER_CASES[name])
    light = header_refusal(game, log, None, False)
    g = __import__("sim.games", fromlist=["get_game"]).get_game(game)
    with pytest.raises(Exception) as full:
        fit_log(game, g.load(None, []), log, None, tmp_path / "out", 1)
    assert not (tmp_path / "out").exists()
    if light is not None:
        assert str(light) == str(full.value) and "missing column" in str(light)
    else:
        assert name in ("empty.csv", "latin1.csv", "with-bad-outcomes.csv", "blank-first.csv") or \
            "missing column" not in str(full.value), (name, str(full.value))


def test_a_log_without_its_columns_is_refused_before_the_game_loads(tmp_path):
    from tests.test_cli_fast import HEAVY, _game_code, _probe

    log = tmp_path / "log.csv"
    log.write_text("a,b\n1,2\n")
    code, modules, stderr = _probe(tmp_path, "fit", "kniffel", str(log), "--out", str(tmp_path / "out"))
    assert code == 2 and stderr.startswith(f"error: {log}: missing columns player, game, turn"), stderr
    assert not modules & set(HEAVY) and not _game_code(modules) and not (tmp_path / "out").exists()


def test_a_file_as_fits_output_folder_or_a_folder_as_its_log_is_refused_before_the_game_loads(tmp_path):
    from tests.test_cli_fast import HEAVY, _game_code, _probe

    log, taken = tmp_path / "log.csv", tmp_path / "taken"
    log.write_text("player,game,turn\n")
    taken.write_text("mine\n")
    code, modules, stderr = _probe(tmp_path, "fit", "kniffel", str(log), "--out", str(taken))
    assert code == 2 and stderr.startswith("error: --out") and "is a file" in stderr, stderr
    assert not modules & set(HEAVY) and not _game_code(modules) and taken.read_text() == "mine\n"
    (tmp_path / "logs.csv").mkdir()
    code, _, stderr = _probe(tmp_path, "fit", "kniffel", str(tmp_path / "logs.csv"))
    assert code == 2 and stderr.startswith(f"error: LOG {tmp_path / 'logs.csv'} is a folder"), stderr
    os.mkfifo(tmp_path / "pipe.csv")  # a named pipe: it exists, but it is no file ("no such file" pointed at the name)
    code, _, stderr = _probe(tmp_path, "fit", "kniffel", str(tmp_path / "pipe.csv"))
    assert code == 2 and stderr == f"error: LOG {tmp_path / 'pipe.csv'}: not a plain file (a pipe or a device)\n"


def test_a_log_never_replaces_a_file_of_a_report(tmp_path, monkeypatch):
    """``--out r --log r/metrics.csv`` replaced the table the page had just been built from (``report r`` then
    failed), ``--log old/runs-greedy.parquet`` an earlier report's runs: refused before play; a log of its own name
    beside the report is fine."""
    base = ("play", "kniffel", "--policy", "greedy", "--n", "20")
    for log in ("metrics.csv", "metrics.parquet", "runs-greedy.parquet"):
        r = cli_here(*base, "--out", str(tmp_path / "r"), "--log", str(tmp_path / "r" / log))
        assert r.returncode == 2 and r.stderr == (f"error: --log: {log} in {tmp_path / 'r'} is a file of this play's "
                                                  "report: give the log another name\n"), r.stderr
        assert not (tmp_path / "r").exists()
    assert cli_here(*base, "--out", str(tmp_path / "r"), "--log", str(tmp_path / "r" / "log.csv")).returncode == 0
    assert cli_here(*base, "--out", str(tmp_path / "s"), "--log", str(tmp_path / "s" / "sweep.csv")).returncode == 0
    monkeypatch.chdir(tmp_path)  # the default folder reports/kniffel-greedy of a fresh working folder
    r = cli_here(*base, "--log", "reports/kniffel-greedy/metrics.csv")  # the default folder's: refused before play
    assert r.returncode == 2 and r.stderr == ("error: --log: metrics.csv in reports/kniffel-greedy is a file of this "
                                              "play's report: give the log another name\n"), r.stderr
    page = (tmp_path / "r" / "metrics.csv").read_bytes()
    r = cli_here(*base, "--no-report", "--log", str(tmp_path / "r" / "metrics.csv"))
    assert r.returncode == 2 and r.stderr.startswith("error: --log: metrics.csv there is a file of the report of a "
                                                     "play"), r.stderr
    assert (tmp_path / "r" / "metrics.csv").read_bytes() == page
    assert cli_here("report", str(tmp_path / "r")).returncode == 0


def test_a_log_never_replaces_an_outcome_table_no_log_of_its_name_wrote(tmp_path):
    """``--log logs/tele.csv`` replaced ``logs/tele.outcomes.csv`` without a word, a file the user never named (a real
    outcome table kept there). Refused before play; the pair of an earlier ``--log`` is replaced as asked."""
    keep = tmp_path / "tele.outcomes.csv"
    keep.write_text("precious\n")
    args = ("play", "kniffel", "--policy", "greedy", "--n", "20", "--no-report", "--log", str(tmp_path / "tele.csv"))
    r = cli_here(*args)
    assert r.returncode == 2 and "would replace" in r.stderr and keep.read_text() == "precious\n", r.stderr
    keep.unlink()
    assert cli_here(*args).returncode == 0 and cli_here(*args).returncode == 0  # its own pair: replaced


def test_a_column_named_twice_in_a_csv_header_is_refused(tmp_path):
    """pandas reads a repeated header name as ``d1`` and ``d1.1`` in silence: the fit used one of two dice columns
    without a word."""
    log = tmp_path / "log.csv"
    played = cli_here("play", "kniffel", "--policy", "greedy", "--n", "5", "--no-report", "--log", str(log))
    assert played.returncode == 0, played.stderr
    lines = log.read_text().splitlines()
    log.write_text("\n".join([lines[0] + ",d1", *(x + "," + x.split(",")[5] for x in lines[1:])]) + "\n")
    done = cli_here("fit", "kniffel", str(log))
    assert done.returncode == 2 and done.stderr == (f"error: LOG {log}: the column d1 is named twice in its header "
                                                    "(which is meant?)\n"), done.stderr


def test_fit_keeps_its_input_log(tmp_path):
    """``fit kniffel lg/players.csv --out lg`` replaced the decision log it read by its own players.csv (exit 0)."""
    log = tmp_path / "players.csv"
    assert cli_here("play", "kniffel", "--policy", "greedy", "--n", "6", "--no-report", "--log",
                    str(log)).returncode == 0
    before = log.read_bytes()
    done = cli_here("fit", "kniffel", str(log), "--out", str(tmp_path))
    assert done.returncode == 2 and done.stderr.startswith(
        "error: the fit would replace the log it reads by its own players.csv: give it another folder than "), \
        done.stderr
    assert log.read_bytes() == before and not (tmp_path / "fit.json").exists()


def test_players_of_several_games_are_checked_however_given(tmp_path):
    """``--set skill.games_per_player=3`` with ``--n 10`` played a last player of one game where
    ``--games-per-player 3`` is refused; the heading said the whole skill table in code."""
    done = cli_here("play", "dungeon24", "--policy", "greedy", "--n", "10", "--no-report", "--set",
                    "skill.games_per_player=3")
    assert done.returncode == 2 and "--n 10 is no whole number of players of 3 games each" in done.stderr
    done = cli_here("play", "dadox", "--policy", "greedy", "--n", "10", "--no-report", "--games-per-player", "5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Dadox · Greedy · players: 2 · rules changed: skill.games_per_player=5 · n=10 · ")


def test_a_logged_date_is_said_as_its_text(tmp_path):
    """A parquet log whose turn column held dates was refused as "turn = Timestamp('1970-01-01 00:00:00.00000000…":
    a class name, cut before the value. The value as the table shows it now."""
    log = tmp_path / "l.csv"
    assert cli_here("play", "kniffel", "--policy", "greedy", "--n", "4", "--no-report", "--log",
                    str(log)).returncode == 0
    dec = pd.read_csv(log)
    dec["turn"] = pd.to_datetime(dec["turn"])
    dec.to_parquet(tmp_path / "d.parquet")
    done = cli_here("fit", "kniffel", str(tmp_path / "d.parquet"), "--outcomes", str(tmp_path / "l.outcomes.csv"),
                    "--out", str(tmp_path / "fit"))
    assert done.returncode == 2 and done.stderr.strip().endswith(
        "row 1: turn = '1970-01-01 00:00:00.000000001' is not a number"), done.stderr
    dec["turn"] = [str(t).encode() for t in pd.read_csv(log)["turn"]]  # bytes: b"1" was read as the number 1
    dec.to_parquet(tmp_path / "b.parquet")
    done = cli_here("fit", "kniffel", str(tmp_path / "b.parquet"), "--outcomes", str(tmp_path / "l.outcomes.csv"),
                    "--out", str(tmp_path / "fit"))
    assert done.returncode == 2 and done.stderr.strip().endswith("row 1: turn = '1' is bytes, not a number"), \
        done.stderr


def test_a_row_with_a_field_too_many_is_refused(tmp_path):
    """A hold written ``4,5566`` (a comma too many) was read as 4, the 5566 dropped without a word, and the fit moved;
    in the first row the columns shifted by one ("turn = 'hold' is not a number"). Both are refused as they are."""
    log = tmp_path / "l.csv"
    assert cli_here("play", "kniffel", "--policy", "greedy", "--n", "4", "--no-report", "--log",
                    str(log)).returncode == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    for row, said in ((5, "Expected"), (1, "its first row has more fields than its header has names")):
        bad = tmp_path / f"bad{row}.csv"
        bad.write_text("\n".join([*lines[:row], lines[row] + ",7", *lines[row + 1:]]) + "\n", encoding="utf-8")
        done = cli_here("fit", "kniffel", str(bad), "--outcomes", str(tmp_path / "l.outcomes.csv"),
                        "--out", str(tmp_path / f"fit{row}"))
        assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1, done.stderr
        assert not (tmp_path / f"fit{row}").exists()
