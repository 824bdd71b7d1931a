"""Sweep files a hostile-input hunt found: each refused in one ``error:`` line before any work, or played to the end
with its report, as the real command line does it."""

from __future__ import annotations

import json
import re
import shutil
import warnings
from pathlib import Path

import pandas as pd
import pytest

from sim.games import GAMES
from tests.conftest import cli_here, run_cli


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def refused(res, *needles: str) -> str:
    """The one ``error:`` line of a refusal (exit code 2), holding every needle."""
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


SKILL = 'game = "kniffel"\npolicies = ["greedy"]\nn = 40\nseed = 1\n[grid]\n"skill.level" = {}\n'


@pytest.mark.parametrize(("values", "said"), [
    ('[1.0, "expert", 1]', "1.0 and 'expert' are both 1.0"),
    ("[1.0, 1]", "1.0 and 1 are both 1.0"),
    ('["expert", 1.0]', "'expert' and 1.0 are both 1.0"),
    ('["casual", "Casual"]', "'casual' and 'Casual' are both 0.5"),
])
def test_a_grid_value_written_twice_in_other_words_is_refused(tmp_path, values, said):
    """A skill name and its number (or an int and a float of a float field) are one point: refused as a value listed
    twice, as ``[50, 50]`` is, not played twice."""
    out = tmp_path / "out"
    res = cli_here("sweep", str(write(tmp_path, SKILL.format(values))), "--out", str(out), "--no-report")
    refused(res, "[grid] skill.level lists a value twice", said)
    assert not out.exists()


def test_skill_names_and_numbers_make_one_float_column(tmp_path):
    """``["expert", 0.95]`` played to the end (it crashed in pyarrow after every point had played): the table holds
    the levels as numbers, and --resume finds the sweep finished."""
    sweep, out = write(tmp_path, SKILL.format('["expert", 0.95]')), tmp_path / "out"
    res = cli_here("sweep", str(sweep), "--out", str(out), "--no-report", "--json")
    assert res.returncode == 0 and res.stderr == "", res.stderr
    table = pd.read_parquet(out / "sweep.parquet")
    assert table["skill.level"].dtype == "float64" and table["skill.level"].tolist() == [1.0, 0.95]
    assert table["label"].tolist() == ["skill.level=1.0", "skill.level=0.95"]
    assert pd.read_csv(out / "sweep.csv")["skill.level"].tolist() == [1.0, 0.95]
    again = cli_here("sweep", str(sweep), "--out", str(out), "--no-report", "--json", "--resume")
    assert again.returncode == 0 and json.loads(again.stdout)["chunks_run"] == 0, again.stderr


THRESHOLDS = """game = "dadox"
policies = ["threshold"]
n = 40
seed = 1
[grid]
"policies.threshold" = [[300, 300, 400, 600, 1500, 3000], [0, 0, 0, 0, 0, 0]]
"policies.random_bank" = [0.25, 0.75]
"""


def test_a_grid_over_lists_writes_its_report(tmp_path):
    """A list-valued field (the threshold table) beside a numeric one: the report is written (it stopped at an
    unhashable array), the list field has no sensitivity and the page says why in words, the numeric field keeps
    its elasticities, and nothing but the summary is printed (no warning on stderr)."""
    out = tmp_path / "out"
    res = run_cli("sweep", str(write(tmp_path, THRESHOLDS)), "--out", str(out), "--json", timeout=600)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    page = (out / "report.html").read_text()
    assert "No sensitivity for fields whose values are not numbers" in page
    assert "<code>policies.threshold</code> is swept over lists of values" in page
    assert "<td>[300, 300, 400, 600, 1500, 3000]</td>" in page and "<td>[0, 0, 0, 0, 0, 0]</td>" in page
    assert "(base [300, 300, 400, 600, 1500, 3000])" in page  # the base config's thresholds are in the grid
    sens = pd.read_csv(out / "sensitivity.csv")
    assert set(sens["field"]) == {"policies.random_bank"}
    for png in ("sweep_line_policies.threshold.png", "sweep_line_policies.random_bank.png",
                "sweep_tornado.png", "overlays/win_rate_by_seat.png"):
        assert (out / png).is_file(), png
    assert len([x for x in out.glob("sweep_heatmap_*.png")]) >= 1
    # the bank-threshold chart is drawn from the rules: an overlay showed the first point's under every point's name
    assert not (out / "overlays" / "bank_thresholds.png").exists() and "When the exact turn optimum banks" not in page


def test_a_grid_over_tables_writes_its_report(tmp_path):
    """A table-valued field (a people's boss card): its values are compared and shown as the TOML that writes them;
    no sensitivity, said on the page."""
    out = tmp_path / "out"
    text = ('game = "dungeon24"\npolicies = ["greedy"]\nn = 20\nseed = 1\n[options]\npeople = "untote"\n[grid]\n'
            '"peoples.untote.boss" = [{name="Lich",a=4,v=6},{name="Lich",a=6,v=6}]\n')  # Untote play: their boss
    res = cli_here("sweep", str(write(tmp_path, text)), "--out", str(out))
    assert res.returncode == 0, res.stderr
    page = (out / "report.html").read_text()
    assert "<code>peoples.untote.boss</code> is swept over tables of values" in page
    assert "{name = &quot;Lich&quot;, a = 6, v = 6}" in page
    rows = [line.split("  ")[1] for line in res.stdout.splitlines() if "Greedy" in line and "%" in line]
    assert rows == ['{name = "Lich", a = 4, v = 6}', '{name = "Lich", a = 6, v = 6}'], res.stdout  # not {'name': ...}
    assert not (out / "sensitivity.csv").exists() and (out / "sweep_line_peoples.untote.boss.png").is_file()


def test_point_labels_and_the_table_say_values_as_toml_and_keep_the_fingerprint(tmp_path):
    """A grid over a table and a switch: the labels, ``sweep.csv`` and the printed table wrote Python's
    ``bonus={'threshold': 63, 'value': 35}, joker.when_zero=True``; now the TOML the designer wrote (the table's
    switch in words). The fingerprint is the one such a sweep had before, so ``--resume`` knows its folders."""
    from sim.experiments.sweep_spec import sweep_from_dict

    spec = {"game": "kniffel", "policies": ["greedy"], "n": 100, "seed": 1,
            "grid": {"bonus": [{"threshold": 63, "value": 35}, {"threshold": 60, "value": 50}],
                     "joker.when_zero": [True, False]}}
    s = sweep_from_dict(spec)
    assert [p.label for p in s.points][:2] == ["bonus={threshold = 63, value = 35}, joker.when_zero=true",
                                               "bonus={threshold = 63, value = 35}, joker.when_zero=false"]
    assert s.fingerprint() == "85c654531d111e4d"  # computed by the code before this change
    text = ('game = "kniffel"\npolicies = ["greedy"]\nn = 20\nseed = 1\n[grid]\n'
            'bonus = [{threshold = 63, value = 35}, {threshold = 60, value = 50}]\n"joker.when_zero" = [true, false]\n')
    res = cli_here("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "out"), "--no-report")
    assert res.returncode == 0, res.stderr
    rows = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert rows["bonus"].tolist()[:2] == ["{threshold = 63, value = 35}"] * 2
    assert rows["label"].tolist()[1] == "bonus={threshold = 63, value = 35}, joker.when_zero=false"
    shown = [line.split()[6] for line in res.stdout.splitlines() if "Greedy" in line and "points" in line]
    assert shown == ["yes", "no", "yes", "no"], res.stdout


def test_sensitivity_of_a_table_with_lists_and_tables():
    """The analysis on a table as ``sweep.parquet`` reads back (lists as numpy arrays, tables as dicts): the base point
    names them as text, the numeric field keeps its elasticity."""
    import numpy as np

    from sim.experiments.sensitivity import base_point, elasticities

    rows = []
    for t in ([1, 2], [3, 4]):
        for b in ({"name": "Lich", "a": 4}, {"name": "Lich", "a": 6}):
            for x in (1.0, 2.0):
                rows.append({"policy": "p", "t": np.array(t), "b": b, "x": x, "m": 10 * x, "m_ci95_low": 10 * x - 1,
                             "m_ci95_high": 10 * x + 1})
    table = pd.DataFrame(rows)
    base = base_point(table, ["t", "b", "x"], {"t": [3, 4], "x": 1.0})
    assert base == {"t": "[3, 4]", "b": '{name = "Lich", a = 4}', "x": 1.0}
    sens = elasticities(table, ["t", "b", "x"], ["m"], {"t": [3, 4], "x": 1.0})
    assert list(sens["field"]) == ["x"] and sens["slope"].iloc[0] == pytest.approx(10.0)


def test_a_point_whose_games_all_hit_the_turn_cap_draws_without_a_warning(tmp_path):
    """Random never banking (``policies.random_bank = 0``): every game runs to the turn cap; the game-length overlay
    drew nothing for that point and numpy warned ``invalid value encountered in divide`` on stderr (the histogram's
    last bin stopped short of the longest games)."""
    text = ('game = "dadox"\npolicies = ["random"]\nn = 20\nseed = 1\n[grid]\n'
            '"policies.random_bank" = [0.5, 1, 0]\n')
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        res = cli_here("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "out"))
    assert res.returncode == 0, res.stderr
    assert [str(w.message) for w in seen if issubclass(w.category, RuntimeWarning | UserWarning)] == []


@pytest.mark.parametrize("where", ['[options]\nobjective = "win"\n[grid]\n"goal.target" = [1000]\n',
                                   '[grid]\n"options.objective" = ["win"]\n'])
def test_an_option_of_another_command_is_refused(tmp_path, where):
    """``objective`` means something to ``dicesim solve`` only (``play --objective`` is refused): a sweep played
    every point without it, as if it were not there."""
    text = 'game = "dadox"\npolicies = ["threshold"]\nn = 20\nseed = 1\n' + where
    res = cli_here("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "out"))
    refused(res, "objective applies only to dicesim solve, not to runs that play")
    assert not (tmp_path / "out").exists()


def test_a_field_the_runs_never_read_is_refused_before_play(tmp_path):
    """A sweep over difficulty.normal.hp played on Leicht gave every point the same 54.0 % (calibrate and tune refuse
    it); a check target setting it passed, setting nothing."""
    sweep = write(tmp_path, 'game = "dungeon"\npolicies = ["vorschlag"]\nn = 50\n[options]\ndifficulty = "leicht"\n'
                            '[grid]\n"difficulty.normal.hp" = [1.0, 1.3]\n')
    said = refused(cli_here("sweep", str(sweep), "--out", str(tmp_path / "o")),
                   "[grid] difficulty.normal.hp is not used")
    assert not (tmp_path / "o").exists(), said
    targets = write(tmp_path, 'game = "dungeon"\nn = 100\n[[target]]\nname = "x"\npolicy = "vorschlag"\n'
                              'metric = "win_rate"\nmin = 0.1\noptions = {difficulty = "leicht"}\n'
                              'set = {"difficulty.normal.hp" = 5.0}\n', "t.toml")
    refused(cli_here("check", str(targets)), "set: difficulty.normal.hp is not used by this run")
    # swept together with the option that reads it: accepted
    both = write(tmp_path, 'game = "dungeon"\npolicies = ["vorschlag"]\nn = 20\n[grid]\n"options.difficulty" = '
                           '["leicht", "normal"]\n"difficulty.normal.hp" = [1.0, 1.3]\n', "b.toml")
    assert cli_here("sweep", str(both), "--out", str(tmp_path / "b"), "--no-report").returncode == 0


def test_an_ability_no_side_has_is_refused_in_a_sweep_and_a_tune(tmp_path):
    """Dungeon24's Blutrausch dice swept, or tuned, with Untote on both sides: every point played the same numbers
    (play, calibrate and check refused it; a sweep and a tune did not). Refused before play; swept together with a
    people that has it, accepted."""
    head = 'game = "dungeon24"\npolicies = ["greedy"]\nn = 20\nseed = 1\n[options]\npeople = "untote"\n'
    sweep = write(tmp_path, head + 'opponent_people = "untote"\n[grid]\n"abilities.blutrausch_dice" = [1, 2]\n')
    refused(cli_here("sweep", str(sweep), "--out", str(tmp_path / "o")),
            "[grid] abilities.blutrausch_dice is not used at any point (Untote vs Untote: no blutrausch)")
    assert not (tmp_path / "o").exists()
    tune = write(tmp_path, 'game = "dungeon24"\nn = 20\nmax_evals = 2\n[fields]\n"abilities.blutrausch_dice" = '
                           '[1, 4]\n[[target]]\npolicy = "greedy"\noptions = { people = "untote", opponent_people = '
                           '"untote" }\nmetric = "win_rate"\nvalue = 0.5\ntol = 0.05\n', "t.toml")
    refused(cli_here("tune", str(tune), "--out", str(tmp_path / "t")),
            "[fields] abilities.blutrausch_dice is not used by any target's run (Untote vs Untote")
    assert not (tmp_path / "t").exists()
    both = write(tmp_path, head + '[grid]\n"options.opponent_people" = ["untote", "gruenlinge"]\n'
                                  '"abilities.blutrausch_dice" = [1, 2]\n', "b.toml")
    done = cli_here("sweep", str(both), "--out", str(tmp_path / "b"), "--no-report")
    assert done.returncode == 0, done.stderr


def test_two_variants_of_the_same_rules_are_refused(tmp_path):
    """Two [[variants]] without a set (or setting what the other already is) were played twice, each compared with
    the other, while a grid value listed twice is refused."""
    text = ('game = "kniffel"\npolicies = ["greedy"]\nn = 40\n[[variants]]\nname = "a"\n[[variants]]\nname = "b"\n'
            'set = {"bonus.value" = 35}\n')
    refused(cli_here("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "o")),
            "variant 'b' plays the same rules as 'a'")
    assert not (tmp_path / "o").exists()


def test_swept_option_values_read_in_the_games_words(tmp_path):
    """The sweep table showed a swept difficulty or people as its code (``leicht``, ``gruenlinge``)."""
    text = 'game = "dungeon"\npolicies = ["greedy"]\nn = 20\n[grid]\n"options.difficulty" = ["leicht", "normal"]\n'
    done = cli_here("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "o"))
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "o" / "report.html").read_text(encoding="utf-8")
    assert "<td>Leicht</td>" in page and "<td>Normal</td>" in page and "<td>leicht</td>" not in page


def test_a_field_no_seat_policy_reads_is_refused_before_play(tmp_path):
    """Dadox's ``solver.turn_cap`` is optimal-turn's and ``policies.greedy_bank_at`` greedy's alone: a threshold
    target setting one set nothing, and a sweep of the other under threshold drew a flat line. Refused before play;
    swept with a seat that reads it, accepted."""
    targets = write(tmp_path, 'game = "dadox"\nn = 100\n[[target]]\nname = "x"\npolicy = "threshold"\n'
                              'metric = "win_rate_seat_0"\nmin = 0.1\nset = {"solver.turn_cap" = 5000}\n', "t.toml")
    refused(cli_here("check", str(targets)), "set: solver.turn_cap is read only by optimal-turn, and this run plays "
                                             "threshold: set it with --policy optimal-turn")
    sweep = 'game = "dadox"\npolicies = [{}]\nn = 20\n[grid]\n"policies.greedy_bank_at" = [300, 500]\n'
    said = refused(cli_here("sweep", str(write(tmp_path, sweep.format('"threshold"'))), "--out", str(tmp_path / "o")),
                   "[grid] policies.greedy_bank_at is read only by greedy")
    assert not (tmp_path / "o").exists(), said
    assert cli_here("sweep", str(write(tmp_path, sweep.format('"threshold", "greedy"'), "g.toml")), "--out",
                    str(tmp_path / "g"), "--no-report").returncode == 0


def test_an_option_fixed_and_swept_is_refused(tmp_path):
    """``[options] players = 2`` beside ``[grid] "options.players" = [1, 3]`` played 1 and 3 and dropped the 2
    without a word."""
    text = ('game = "dadox"\npolicies = ["threshold"]\nn = 20\n[options]\nplayers = 2\n[grid]\n'
            '"options.players" = [1, 3]\n')
    refused(cli_here("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "o")),
            'players is given in [options] and swept in [grid] ("options.players"): give it in one of them')
    assert not (tmp_path / "o").exists()


def test_a_copied_sweep_plays_the_copied_configs(tmp_path, monkeypatch):
    """``dicesim configs --copy cc`` then an edited ``cc/kniffel/no-joker.toml``: the copied sweep still said
    ``config = "configs/kniffel/no-joker.toml"`` and played the shipped file, without a word. A ``configs/...`` path
    now resolves in the tree of configs the sweep file sits in first."""
    import pandas as pd

    monkeypatch.chdir(tmp_path)
    assert cli_here("configs", "--copy", str(tmp_path / "cc")).returncode == 0
    edited = tmp_path / "cc" / "kniffel" / "no-joker.toml"
    edited.write_text(edited.read_text(encoding="utf-8").replace("\nkniffel = 50", "\nkniffel = 1000"),
                      encoding="utf-8")
    sweep = tmp_path / "cc" / "sweeps" / "kniffel-joker.toml"
    text = sweep.read_text(encoding="utf-8")
    sweep.write_text(re.sub(r"(?m)^n = .*$", "n = 100", re.sub(r'(?m)^policies = .*$', 'policies = ["greedy"]', text)),
                     encoding="utf-8")
    done = cli_here("sweep", str(sweep), "--out", str(tmp_path / "sw"), "--no-report")
    assert done.returncode == 0, done.stderr
    rows = pd.read_csv(tmp_path / "sw" / "sweep.csv")
    mean = rows.set_index("label")["mean_score"]
    assert mean["no joker"] > mean["free joker"] + 150, mean  # a Kniffel worth 1000 in the copy it played


@pytest.mark.parametrize("command, head, said", [
    ("sweep", 'title = "EVIL\\u0000x"\ngame = "kniffel"\npolicies = ["greedy"]\nn = 20\n[grid]\n'
              '"bonus.value" = [1, 2]\n',
     "invalid value for title: 'EVIL\\x00x' (holds a control character (U+0000"),
    ("sweep", 'game = "kniffel"\npolicies = ["greedy"]\nn = 20\n[[variants]]\nname = "a\\tb"\n[[variants]]\n'
              'name = "c"\nset = {"bonus.value" = 1}\n', "holds a line break or a tab"),
    ("check", 'title = "x\\u202ey"\ngame = "kniffel"\nn = 20\n[[target]]\nname = "t"\npolicy = "greedy"\n'
              'metric = "mean_score"\nmin = 1\n', "U+202E"),
])
def test_a_title_or_name_with_a_hidden_character_is_refused(tmp_path, command, head, said):
    """A sweep title's NUL went raw into report.html (grep read it as binary) and onto the terminal; a variant's
    tab drew four matplotlib glyph warnings. Titles and names are one line of visible text; a description may
    hold lines."""
    res = cli_here(command, str(write(tmp_path, head)), *(["--out", str(tmp_path / "o")] if command == "sweep" else []))
    refused(res, said)
    assert not (tmp_path / "o").exists()


def test_a_count_in_a_file_reads_as_the_command_line_reads_it(tmp_path):
    """``n = 2e4`` in a sweep, tune or targets file was refused ('20000.0 … valid integer') while ``--n 2e4`` is
    20000; a fraction is still refused."""
    from sim.experiments.sweep import load_sweep
    from sim.experiments.targets import load_targets

    body = '[grid]\n"bonus.value" = [25, 35]\n'
    assert load_sweep(write(tmp_path, 'game = "kniffel"\npolicies = ["greedy"]\nn = 2e2\n' + body)).spec.n == 200
    bands = load_targets(write(tmp_path, 'game = "kniffel"\nn = 3e2\n[[target]]\nname = "t"\npolicy = "greedy"\n'
                                         'metric = "mean_score"\nmin = 1\n', "t.toml"))
    assert bands[0].n == 300
    refused(cli_here("sweep", str(write(tmp_path, 'game = "kniffel"\npolicies = ["greedy"]\nn = 2.5\n' + body)),
                     "--out", str(tmp_path / "o")), "invalid value for n: 2.5")


def test_a_forced_sweep_too_large_to_check_is_refused_at_once(tmp_path):
    """--force on 10^8 grid points grew its memory for minutes and played nothing: every point's rules are checked
    before the first plays, so a grid beyond what that takes is refused at once."""
    many = ", ".join(map(str, range(1, 151)))
    spec = write(tmp_path, f'game = "kniffel"\npolicies = ["greedy"]\nn = 1\n[grid]\n"bonus.value" = [{many}]\n'
                           f'"scores.kniffel_bonus" = [{many}]\n')
    refused(cli_here("sweep", str(spec), "--out", str(tmp_path / "o"), "--force"),
            "22,500 points is more than any sweep plays (at most 10,000, or 20,000 with --force)")
    assert not (tmp_path / "o").exists()


FIFTH = next(g for g in GAMES if g not in ("kniffel", "dungeon", "dadox", "dungeon24"))  # the one-die game
GOALS = f'game = "{FIFTH}"\npolicies = ["hold-20"]\nn = 200\n[grid]\n"goal.target" = [50, 60]\n'


def test_a_damaged_sweep_folder_is_refused_or_healed_never_a_traceback(tmp_path):
    """A garbage sweep.json gave a JSONDecodeError traceback even with --overwrite (the documented way out); a
    damaged row or part file one under --resume. Now: --resume refuses a damaged sweep.json in one line, --overwrite
    starts over without reading it, and damaged rows and parts are removed with one warning and made again: the
    same table as the sweep that was never damaged."""
    spec = write(tmp_path, GOALS)
    out = tmp_path / "so"
    args = ("sweep", str(spec), "--out", str(out), "--no-report")
    assert cli_here(*args).returncode == 0
    clean = pd.read_csv(out / "sweep.csv")
    for garbage in ("garbage", "[]"):
        (out / "sweep.json").write_text(garbage)
        done = cli_here(*args, "--resume")
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith(
            f"error: {out / 'sweep.json'} is damaged") and "start over with --overwrite" in done.stderr, done.stderr
    assert cli_here(*args, "--overwrite").returncode == 0
    (out / "rows" / "p0000-s00.json").write_text("{")
    (out / "rows" / "p0001-s00.json").write_text("[1]")  # JSON, but no record: an AttributeError once
    (out / "parts" / "p0000-s00-c00000.arrow").write_text("xx")
    done = cli_here(*args, "--resume")
    assert done.returncode == 0 and done.stderr.startswith("warning: 3 damaged or misplaced files of the sweep in ") \
        and done.stderr.count("\n") == 1, done.stderr
    pd.testing.assert_frame_equal(pd.read_csv(out / "sweep.csv"), clean)
    # a part copied over another point's place read as that point's runs (its answer moved 53.5 % -> 54.0 %); its
    # point is played again, its finished row with it (removed alone, the kept runs were lost for good)
    shutil.copy(out / "parts" / "p0001-s00-c00000.arrow", out / "parts" / "p0000-s00-c00000.arrow")
    done = cli_here(*args, "--resume")
    assert done.returncode == 0 and "1 damaged or misplaced file of the sweep" in done.stderr, done.stderr
    assert "ran 1 chunk, 1 already done" in done.stdout, done.stdout
    pd.testing.assert_frame_equal(pd.read_csv(out / "sweep.csv"), clean)
    (out / "sweep.json").write_text('{"fingerprint": "x", "canonical": 5}')  # a record of the wrong shape inside
    done = cli_here(*args, "--resume")
    assert done.returncode == 2 and done.stderr.startswith("error: the sweep file changed since"), done.stderr


KNIFFEL = 'game = "kniffel"\npolicies = ["greedy"]\nn = 20\n'


@pytest.mark.parametrize("body", ['[grid]\n"assumed" = [[], ["bonus.value"]]\n',
                                  '[grid]\n"assumed" = [["bonus.value"]]\n"bonus.value" = [25, 35]\n',
                                  '[[variants]]\nname = "a"\n[[variants]]\nname = "b"\n'
                                  'set = {assumed = ["bonus.value"]}\n'])
def test_assumed_changes_no_rule_and_is_not_swept(tmp_path, body):
    """A grid over ``assumed`` played the same rules twice (both rows 207.5 points): it only labels the numbers the
    designer assumed. Refused as a grid field, and two variants that differ in it alone play the same rules."""
    out = tmp_path / "o"
    line = refused(cli_here("sweep", str(write(tmp_path, KNIFFEL + body)), "--out", str(out)))
    assert ("[grid] assumed changes no rule" in line if "[grid]" in body
            else "variant 'b' plays the same rules as 'a'" in line), line
    assert not out.exists()


@pytest.mark.parametrize(("body", "said"), [
    ('[grid]\n"options.seed" = [1, 2]\n', "[grid] options.seed: seed is the sweep file's own key (seed = 1, "),
    ('[grid]\n"options.n" = [100, 200]\n', "[grid] options.n: n is the sweep file's own key (n = 100, "),
    ('[grid]\n"seed" = [3, 4]\n', "[grid] seed: seed is the sweep file's own key (seed = 3, "),
    ('[options]\nseed = 5\n[grid]\n"bonus.value" = [25, 35]\n',
     "[options] seed: seed is the sweep file's own key (seed = 5, written above [options]), not a game option"),
])
def test_the_sweep_files_own_keys_are_named_as_such(tmp_path, body, said):
    """``[grid] "options.seed"`` read 'option --seed does not apply to kniffel': seed and n are keys of the sweep
    file itself, said so."""
    line = refused(cli_here("sweep", str(write(tmp_path, KNIFFEL + body)), "--out", str(tmp_path / "o")), said)
    assert "--seed" not in line and "--n" not in line, line


@pytest.mark.parametrize(("grid", "said"), [
    ('"skill.level" = [0.5]\n"skill" = [{opponents = 1}]\n', '[grid] "skill.level" and "skill" overlap'),
    ('"skill" = [{opponents = 1}]\n"skill.level" = [0.5]\n', '[grid] "skill" and "skill.level" overlap'),
    ('"bonus" = [{value = 30}, {value = 30, threshold = 63}]\n',
     "[grid] bonus lists a value twice: {value = 30} and {value = 30, threshold = 63} are both"),
    ('"bonus.value" = [true]\n', "[grid] bonus.value = true: "),
])
def test_grid_refusals_speak_toml_not_python_or_set(tmp_path, grid, said):
    """A grid of ``skill.level`` and ``skill`` was refused as '--set skill.level and --set skill overlap' with a
    point label of Python dicts, and table values read ``{'value': 30}``: the sweep file's words and TOML's."""
    line = refused(cli_here("sweep", str(write(tmp_path, KNIFFEL + "[grid]\n" + grid)), "--out", str(tmp_path / "o")),
                   said)
    assert "--set" not in line and "{'" not in line and "True" not in line, line


def test_a_whole_number_option_takes_a_whole_float(tmp_path):
    """``"options.players" = [1, 1.0]`` read '--players must be int, got 1.0' while ``n = 2e2`` and ``play --players
    2.0`` are whole numbers: 1.0 is 1 (so [1, 1.0] lists one value twice), a fraction is refused in the file's words,
    and [options] reads it the same."""
    refused(cli_here("sweep", str(write(tmp_path, KNIFFEL + '[grid]\n"options.players" = [1, 1.0]\n')), "--out",
                     str(tmp_path / "o")), "[grid] options.players lists a value twice: 1 and 1.0 are both 1")
    refused(cli_here("sweep", str(write(tmp_path, KNIFFEL + '[grid]\n"options.players" = [1.5, 2]\n')), "--out",
                     str(tmp_path / "o")), "[grid] options.players = 1.5: must be a whole number")
    fixed = KNIFFEL + '[options]\nplayers = 2.5\n[grid]\n"bonus.value" = [25]\n'
    refused(cli_here("sweep", str(write(tmp_path, fixed)), "--out", str(tmp_path / "o")),
            "[options] players = 2.5: must be a whole number")
    assert not (tmp_path / "o").exists()
    out = tmp_path / "played"
    done = cli_here("sweep", str(write(tmp_path, KNIFFEL + '[grid]\n"options.players" = [1.0, 2]\n')), "--out",
                    str(out), "--no-report")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    table = pd.read_parquet(out / "sweep.parquet")
    assert table["options.players"].tolist() == [1, 2] and table["options.players"].dtype == "int64", table.columns
    assert table["label"].tolist() == ["options.players=1", "options.players=2"]
