"""Issue 31, item 4: small CLI frictions a designer meets (names in any case, the policies in --help, a default
--out that keeps earlier runs, count intervals clipped at 0, one code version, calibrate's field interval)."""

from __future__ import annotations

import contextlib
import io
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.cli import common
from sim.core import stats
from sim.core.errors import DicesimError
from sim.experiments.calibrate import Evaluation, local_slope
from sim.games import GAMES, declared_policies, get_game
from sim.jit.codehash import code_hash
from sim.report import pages, words
from sim.report.balance import card
from sim.report.outputs import code_version, unused_folder
from sim.studio import engine
from tests.conftest import cli_here


def _main_in(folder: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    """``dicesim ARGS`` in this process, run from ``folder`` (the default --out is relative to it)."""
    from sim.cli import main

    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "argv", ["dicesim", *args])
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out):
        try:
            main()
        except SystemExit as e:
            code = int(e.code or 0)
    return code, out.getvalue()


def test_unused_folder_numbers_past_earlier_runs(tmp_path):
    base = tmp_path / "kniffel-greedy"
    assert unused_folder(base) == base
    base.mkdir()
    assert unused_folder(base) == base  # an empty folder holds no run
    (base / "manifest.json").write_text("{}")
    assert unused_folder(base) == tmp_path / "kniffel-greedy-2"
    (tmp_path / "kniffel-greedy-2").mkdir()
    (tmp_path / "kniffel-greedy-2" / "x").write_text("")
    assert unused_folder(base) == tmp_path / "kniffel-greedy-3"


def test_default_out_keeps_the_earlier_run_and_names_are_case_insensitive(tmp_path, monkeypatch):
    first = _main_in(tmp_path, monkeypatch, "play", "kniffel", "--policy", "Greedy", "--n", "200", "--json")
    second = _main_in(tmp_path, monkeypatch, "play", "kniffel", "--policy", "GREEDY", "--n", "200", "--json")
    assert first[0] == second[0] == 0
    a, b = json.loads(first[1]), json.loads(second[1])
    assert Path(a["report"]).parent == Path("reports/kniffel-greedy")
    assert Path(b["report"]).parent == Path("reports/kniffel-greedy-2")
    assert (tmp_path / "reports/kniffel-greedy/manifest.json").is_file()
    manifest = json.loads((tmp_path / "reports/kniffel-greedy-2/manifest.json").read_text())
    assert manifest["code_version"] == code_hash()  # the hash --version names


def test_version_and_reports_name_one_code_hash():
    r = cli_here("--version")
    assert r.returncode == 0 and f"(code {code_hash()})" in r.stdout
    assert code_version() == code_hash()


def test_difficulty_and_policy_in_any_case_are_accepted():
    r = cli_here("replay", "kniffel", "--policy", "Optimal", "--run", "0", "--json")
    assert r.returncode == 0, r.stderr
    assert common.policy_label(" Vorschlag@Paschmeister ") == "vorschlag@paschmeister"
    difficulty = {o.name: o for o in get_game("dungeon").option_specs}["difficulty"]
    assert difficulty.check("Normal") == "normal"


def test_help_lists_every_games_policies():
    r = cli_here("play", "--help")
    text = " ".join(r.stdout.split())
    for game in GAMES:
        assert declared_policies(game) == tuple(get_game(game).policies)  # the light list is the game's own
        listed = f"{game}: " + ", ".join(declared_policies(game))
        assert listed.replace("-", "") in text.replace("- ", "").replace("-", ""), game


def test_count_intervals_are_clipped_at_zero_but_differences_are_not():
    rare = np.zeros(1000)
    rare[3] = 1.0  # a count that is nearly always 0 (last chances used)
    m = stats.mean(rare)
    assert m["ci95"][0] == 0.0 and m["ci95"][1] > m["value"] > 0
    d = stats.paired_difference(rare, np.zeros(1000))
    assert d["ci95"][0] < 0  # a difference may be negative
    signed = stats.mean(np.r_[rare, -0.001])
    assert signed["ci95"][0] < 0  # a quantity that can be negative keeps its interval
    r = stats.ratio(rare, np.ones(1000))
    assert r["ci95"][0] == 0.0


def test_a_mean_of_a_bounded_count_stays_within_its_bounds():
    """Rooms cleared in two runs, 4 and 10 of 10 rooms: the normal interval reached 12.9 rooms; it ends at 10."""
    m = stats.mean(np.array([4.0, 10.0]), most=10)
    assert m["value"] == 7.0 and m["ci95"][1] == 10.0 and 0.0 <= m["ci95"][0] < 7.0
    assert stats.mean(np.array([4.0, 10.0]))["ci95"][1] > 10.0  # without a bound the interval is the normal one
    assert stats.mean(np.array([4.0, 12.0]), most=10)["ci95"][1] > 12.0  # a value above it: the bound is not one


def test_a_difference_of_paired_rates_stays_within_100_pp_and_keeps_a_width():
    """Wins of two seats on the same deals: Newcombe's interval (the normal one read [−112, −8] pp at 30 games and
    [−100, −100] at 2). At 2 games lost by one seat and won by the other the lower end is −1 exactly and the upper
    −1 plus √2 times the Wilson upper end of 0 of 2, z²/(2 + z²)."""
    d = stats.paired_difference(np.zeros(2), np.ones(2))
    w = stats.Z95 ** 2 / (2 + stats.Z95 ** 2)
    assert d["value"] == -1.0 and d["ci95"] == pytest.approx([-1.0, -1.0 + math.sqrt(2) * w])
    rng = np.random.default_rng(7)
    for n in (2, 5, 30, 200):
        for _ in range(50):
            a, b = (rng.random(n) < rng.random()).astype(float), (rng.random(n) < rng.random()).astype(float)
            lo, hi = stats.paired_difference(a, b)["ci95"]
            same = np.array_equal(a, b)  # the same outcome in every run: no difference to estimate
            assert -1.0 <= lo <= (a - b).mean() <= hi <= 1.0 and (hi > lo or same) and (hi == lo or not same)
    a = rng.random(200_000) < 0.4  # many runs: the normal interval of the mean difference
    b = a ^ (rng.random(200_000) < 0.3)
    got, normal = stats.paired_difference(a * 1.0, b * 1.0), stats.mean(a * 1.0 - b)
    assert got["ci95"] == pytest.approx(normal["ci95"], abs=2e-4)
    assert stats.paired_difference(np.full(3, 2.0), np.zeros(3))["ci95"] == [2.0, 2.0]  # not rates: the mean's


def test_seat_rotated_deals_give_the_shares_difference_with_a_width():
    """Pairs with rotated seats play deals (the same dice, each policy first once). The per-deal normal interval
    read +50.0 pp [−48.0, +148.0] at 3 games and [0, 0] where every deal split 1 : 1; an odd last game counted as a
    whole deal (+9.1 pp where the shares were 52.4 : 47.6)."""
    deal = np.arange(21) // 2
    a = np.array([1, 0] * 10 + [1], float)  # A wins every first game: splits, then the odd game
    d = stats.deal_difference(a, deal, 1 - a, deal)
    assert d["value"] == pytest.approx(11 / 21 - 10 / 21)
    lo, hi = d["ci95"]
    assert -1.0 <= lo < 0 < hi <= 1.0 and hi - lo > 0.3
    few = stats.deal_difference(np.array([1.0, 1, 1]), np.array([0, 0, 1]), np.array([0.0, 0, 0]), np.array([0, 0, 1]))
    assert few["value"] == 1.0 and few["ci95"][1] == 1.0 and few["ci95"][0] < 1.0
    rng = np.random.default_rng(3)  # many deals: the cluster interval of the per-deal differences
    deal = np.arange(40_000) // 2
    a = rng.random(40_000) < 0.55  # A wins a game
    got = stats.deal_difference(a * 1.0, deal, 1.0 - a, deal)
    per_deal = a.reshape(-1, 2).mean(1) * 2 - 1
    assert got["value"] == pytest.approx(per_deal.mean())
    assert got["ci95"] == pytest.approx(stats.mean(per_deal)["ci95"], abs=1e-4)


def test_calibrate_field_interval_spans_the_metrics_own_interval():
    """Paired runs make the metric a step function of the field: the last bracket (0.0001 wide, one step of the
    metric) must not set the slope, or the field's interval comes out 0.0001 wide."""
    evals = [Evaluation(x, v, [v - 0.01, v + 0.01]) for x, v in
             ((0.0, 0.0), (0.5, 0.5), (0.4999, 0.49), (0.5001, 0.505), (1.0, 1.0))]
    e = evals[1]
    slope = local_slope(evals, e, half=0.02)
    assert slope == pytest.approx(1.0)  # the secant from 0 to 1, not (0.505 - 0.49) / 0.0002
    assert local_slope([e], e, 0.01) != local_slope([e], e, 0.01)  # NaN: nothing beside it


def test_units_and_precision_in_words():


    assert words.value_text("mean_score", 24.93, [24.3, 25.5], diff=True) == "+24.9 points [+24.3, +25.5]"
    assert words.value_text("mean_rooms_cleared", 7.1234, [7.09, 7.155]) == "7.12 [7.09, 7.16]"  # not 7.123
    assert words.value_text("mean_last_chances", 0.00667, [0.0, 0.0159]) == "0.007 [0.000, 0.016]"
    assert words.value_text("mean_score", 245.87, [245.3, 246.4]) == "245.9 points [245.3, 246.4]"
    assert words.value_text("mean_score", 254.3, [251.66, 256.97]) == "254.3 points [251.7, 257.0]"
    assert words.value_text("mean_rooms_cleared", -0.04, [-0.2, 0.1], diff=True) == "0.0 [\u22120.2, +0.1]"


def test_policy_picker_and_card_answer_show_display_names(tmp_path):



    assert engine.policy_choices("dadox")["optimal-turn"] == "Optimal turn"
    assert engine.policy_choices("kniffel") == {"random": "Random", "greedy": "Greedy", "optimal": "Optimal"}
    r = cli_here("compare", "kniffel", "--policies", "random,greedy", "--n", "300", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    answer = card(tmp_path)["answer"]
    assert "Greedy" in answer and "greedy" not in answer


def test_dungeon_assumed_values_are_named_in_words():
    """Every assumed value of the Würfel Dungeon reads as words (what the number is), the path only behind it."""


    g = get_game("dungeon")
    cfg = g.load(None, [])
    items = pages.assumed_items(list(cfg.assumed), "dungeon", g.Config, cfg.model_dump(mode="json"))
    labels = [words.config_label("dungeon", g.Config, a) for a in cfg.assumed]
    assert "which enemies appear in the Krypta" in labels
    for path, label in zip(cfg.assumed, labels, strict=True):
        assert label != path.replace("_", " ") and "›" not in label and "." not in label, (path, label)
    assert any("price of a joker pack in coins = " in i for i in items)


def test_studio_option_errors_are_phrased_for_the_field():
    """The studio's fields are labelled ``players``, not ``--players``: its messages say so."""
    with pytest.raises(DicesimError, match=r"^players must be a whole number, got 2\.5$"):
        engine.options_for("dadox", {"players": "2.5"})
    with pytest.raises(DicesimError) as e:
        engine.options_for("dadox", {"players": "99"})
    assert "--players" not in str(e.value) and "players" in str(e.value)
    assert engine.options_for("dungeon", {"difficulty": "Normal"})["difficulty"] == "normal"


def test_a_sure_but_small_win_shows_its_tenths_and_an_unsure_one_is_a_near_tie():


    def table(wa: float, wb: float) -> pd.DataFrame:
        rows = {"a vs b": {"win_rate_a": wa, "win_rate_b": wb}}
        return pd.DataFrame([{"label": lab, "metric": m, "value": v, "ci95_low": v - 0.01, "ci95_high": v + 0.01}
                             for lab, ms in rows.items() for m, v in ms.items()])

    sure = pages.head_to_head(table(0.503, 0.497), {"win: a - b": {"value": 0.006, "ci95": [0.002, 0.010]}})
    assert sure == ["A beats B 50.3 : 49.7 (+0.6 pp [+0.2, +1.0] per deal, 95 %)."]
    tie = pages.head_to_head(table(0.503, 0.497), {"win: a - b": {"value": 0.006, "ci95": [-0.01, 0.02]}})
    assert tie[0].startswith("A and B are a near tie: 50.3 : 49.7") and "beats" not in tie[0]


def test_help_lists_the_peoples_in_words_and_takes_both():
    """``--people`` listed 'gruenlinge | untote | dunkelelfen' though 'Grünlinge' is what the rules write (and is
    taken): the help lists the words and says the typed form that differs from its word."""
    text = " ".join(cli_here("play", "--help").stdout.split())
    assert "your people (Grünlinge | Untote | Dunkelelfen; any case, or gruenlinge for Grünlinge)" in text, text
    assert "gruenlinge | untote" not in text
    people = {o.name: o for o in get_game("dungeon24").option_specs}["people"]
    assert people.check("Grünlinge") == people.check("gruenlinge") == "gruenlinge"


@pytest.mark.parametrize("args", [["play", "kniffel", "--policy", "greedy"],
                                  ["compare", "kniffel", "--policies", "greedy,random"]], ids=lambda a: a[0])
def test_the_answer_is_printed_before_the_report_is_drawn(monkeypatch, tmp_path, args):
    """A play's or compare's lines come as soon as the numbers are known; the charts (1.5 s for a Würfel Dungeon
    play) are drawn after them, and the ``report:`` line closes the output as before."""
    from sim.report import outputs
    from tests.conftest import cli_here

    printed_before: list[str] = []
    real = outputs.write_outputs

    def drawing(*a, **k):
        printed_before.append(sys.stdout.getvalue())  # cli_here's stdout: what the person has read by now
        return real(*a, **k)

    monkeypatch.setattr(outputs, "write_outputs", drawing)
    done = cli_here(*args, "--n", "200", "--out", str(tmp_path / "r"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(printed_before) == 1 and printed_before[0].splitlines() == lines[:-1]
    assert lines[-1] == f"report: {tmp_path / 'r' / 'report.html'}" and (tmp_path / "r" / "report.html").is_file()
    as_json = cli_here(*args, "--n", "200", "--out", str(tmp_path / "j"), "--json")  # one JSON object, after all
    assert json.loads(as_json.stdout)["report"] == str(tmp_path / "j" / "report.html")


def test_the_python_api_tells_the_answer_before_it_writes(tmp_path):
    """``sim.play(..., answered=f)``: ``f`` gets the summary (verdicts and metrics) before report.html exists; a
    value that is no function is refused before any run."""
    import sim

    told: list[tuple[dict, bool]] = []
    r = sim.play("kniffel", "greedy", n=100, out=tmp_path / "r",
                 answered=lambda s: told.append((s, (tmp_path / "r" / "report.html").exists())))
    assert len(told) == 1 and told[0][1] is False and (tmp_path / "r" / "report.html").is_file()
    assert told[0][0]["verdicts"] == r.summary["verdicts"] and told[0][0]["metrics"] == r.summary["metrics"]
    with pytest.raises(sim.DicesimError, match=r"^answered must be a function of the summary \(or None\), got 'x'"):
        sim.compare("kniffel", "greedy,random", n=10**9, answered="x")  # refused before a billion runs
