"""Report pages answer first and stand alone: parsed with an HTML parser, numbers checked against the JSON."""

from __future__ import annotations

import base64
import json
import math
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

import sim
from sim.core import stats
from sim.core.errors import DicesimError
from sim.games import get_game
from sim.report import pages, words
from sim.report.balance import write_dashboard

PNG = b"\x89PNG\r\n\x1a\n"


class Page(HTMLParser):
    """Text, images, links, headings (in order) and <details> count of a page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.images: list[str] = []
        self.links: list[str] = []
        self.headings: list[str] = []
        self.details = 0
        self.titles: set[str] = set()
        self.chunks: list[str] = []
        self._h = False
        self.feed(text)
        self.text = " ".join(self.chunks)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "title" in a:
            self.titles.add(a["title"])
        if tag == "img":
            self.images.append(a.get("src", ""))
        elif tag == "a":
            self.links.append(a.get("href", ""))
        elif tag == "details":
            self.details += 1
        self._h = tag in ("h1", "h2")

    def handle_endtag(self, tag):
        if tag in ("h1", "h2"):
            self._h = False

    def handle_data(self, data):
        self.chunks.append(data)
        if self._h and data.strip():
            self.headings.append(data.strip())


def assert_embedded_pngs(page: Page, at_least: int) -> None:
    assert len(page.images) >= at_least
    for src in page.images:
        assert src.startswith("data:image/png;base64,"), src[:60]
        assert base64.b64decode(src.split(",", 1)[1]).startswith(PNG)


@pytest.fixture(scope="module")
def kniffel_compare(tmp_path_factory):
    out = tmp_path_factory.mktemp("compare")
    return sim.compare("kniffel", "random,greedy", n=3000, seed=3, out=out), out


def independent_interval(d: np.ndarray) -> tuple[float, float, float]:
    """A mean's 95 % interval by scipy's Student t (the project's own table and expansion are checked against it)."""
    from scipy.stats import t

    m = float(d.mean())
    half = float(t.ppf(0.975, len(d) - 1)) * float(d.std(ddof=1)) / math.sqrt(len(d))
    return m, m - half, m + half


def test_paired_difference_of_every_headline_rate(kniffel_compare):
    r, _ = kniffel_compare
    paired = r.summary["paired"]
    game = get_game("kniffel")
    for metric in game.headline:
        assert f"{metric}: greedy - random" in paired, metric
    g, b = r.tables["greedy"], r.tables["random"]
    d = (g["upper_bonus"].to_numpy() > 0).astype(float) - (b["upper_bonus"].to_numpy() > 0).astype(float)
    m, lo, hi = independent_interval(d)
    got = paired["upper_bonus_rate: greedy - random"]
    # a difference of paired rates: Newcombe's interval, at 3,000 runs within a few tenths of a pp of the normal one
    assert got["value"] == pytest.approx(m) and got["ci95"] == pytest.approx([lo, hi], abs=0.004)
    assert got["ci95"] == pytest.approx(stats.paired_rates(g["upper_bonus"].to_numpy() > 0,
                                                           b["upper_bonus"].to_numpy() > 0)["ci95"])
    # the paired difference equals the difference of the two rates (same runs on both sides)
    rates = {lab: v["metrics"]["upper_bonus_rate"]["value"] for lab, v in r.summary["policies"].items()}
    assert got["value"] == pytest.approx(rates["greedy"] - rates["random"])
    assert list(r.paired.columns) == ["comparison", "value", "ci95_low", "ci95_high"]
    # the answer first in the summary too (``compare --json``): who does best, in words, with the paired step
    assert r.summary["verdicts"][0].startswith("Who does best (mean score): Greedy ")
    assert r.summary["verdicts"][1].startswith("On the same dice: Greedy \u2212 Random +")


def test_dungeon_paired_win_rate_of_an_upgrade(tmp_path):
    r = sim.compare("dungeon", ["vorschlag", "vorschlag@paschmeister"], n=1500, seed=2, out=tmp_path)
    key = "win_rate: vorschlag@paschmeister - vorschlag"
    assert key in r.summary["paired"]
    d = r.tables["vorschlag@paschmeister"]["win"].to_numpy(float) - r.tables["vorschlag"]["win"].to_numpy(float)
    m, lo, hi = independent_interval(d)
    assert r.summary["paired"][key]["value"] == pytest.approx(m)
    assert r.summary["paired"][key]["ci95"] == pytest.approx([lo, hi], abs=0.001)  # Newcombe's, near the normal one
    # the page's headline: the win rate of the metrics JSON, in words, with its interval; the lift in points
    page = Page((tmp_path / "report.html").read_text(encoding="utf-8"))
    w = r.summary["policies"]["vorschlag"]["metrics"]["win_rate"]
    text = " ".join(page.text.split())
    assert "Who does best (win rate): " in text  # the verdict first: the policies ranked, in the game's words
    assert f"Vorschlag {pages.value_text('win_rate', w['value'], w['ci95'])}" in text
    assert "vorschlag@" not in text.split("All metrics")[0].split("Config")[0]  # no code name above the tables
    lift = pages.value_text('win_rate', m, r.summary["paired"][key]["ci95"], diff=True)
    assert lift.endswith(" pp" + lift.split(" pp", 1)[1]) and (lift[0] in "+\u2212")
    assert f"Vorschlag with Paschmeister \u2212 Vorschlag: wins {lift}" in text
    assert_embedded_pngs(page, 5)
    assert "Per upgrade (" in page.text and "Per room (" in page.text


def test_game_page_answers_first_and_is_self_contained(kniffel_compare):
    r, out = kniffel_compare
    page = Page((out / "report.html").read_text(encoding="utf-8"))
    assert page.headings.index("Answers") < page.headings.index("Charts") < page.headings.index("All metrics")
    mean = r.summary["policies"]["greedy"]["metrics"]["mean_score"]
    assert f"Greedy {pages.num(mean['value'])} points [{pages.num(mean['ci95'][0])}, {pages.num(mean['ci95'][1])}]" \
        in page.text  # Kniffel's score in its unit
    assert page.text.index("Who does best (mean score): Greedy") < page.text.index("Paired differences")
    rate = r.summary["policies"]["greedy"]["metrics"]["upper_bonus_rate"]["value"]
    assert f"{rate * 100:.1f} %" in page.text
    diff = r.summary["paired"]["upper_bonus_rate: greedy - random"]
    assert f"Greedy \u2212 Random: upper bonus reached {diff['value'] * 100:+.1f} pp" in page.text
    assert_embedded_pngs(page, 2)
    assert page.details >= 3  # summary metrics, per box, config: folded
    for name in pd.read_csv(out / "metrics.csv")["metric"].unique():  # every metric, named (grouped: on its cell)
        assert name in page.text or name in page.titles, name


def test_the_header_line_reads_in_words(kniffel_compare):
    """The line under the title says runs, seed, time and the fingerprints in words, not the manifest's keys."""
    _, out = kniffel_compare
    page = Page((out / "report.html").read_text(encoding="utf-8"))
    m = json.loads((out / "manifest.json").read_text())
    secs = sum(a["seconds"] for a in m["policies"].values())
    assert (f"runs 3,000 per policy · seed 3 · played in {secs:.2f} s · rules fingerprint {m['config_hash']} "
            f"· code version {m['code_version']}") in " ".join(page.text.split())
    assert not {"config_hash", "runs_per_second", "code_version"} & set(page.text.split())


def test_dashboard_cards(kniffel_compare, tmp_path, monkeypatch):
    r, out = kniffel_compare
    (tmp_path / "kniffel").symlink_to(out, target_is_directory=True)
    page = Page(write_dashboard(tmp_path, ["kniffel"]).read_text(encoding="utf-8"))
    opt = r.summary["policies"]["greedy"]["metrics"]["mean_score"]["value"]
    assert f"Greedy {pages.num(opt)}" in page.text
    assert "kniffel/report.html" in page.links
    assert "(players: 1)" in page.text  # the setting in words beside the title
    assert_embedded_pngs(page, 1)
    assumed = get_game("kniffel").load().assumed  # the joker readings
    assert assumed and "Assumed values used:" in page.text and all(a in page.text for a in assumed[:4])
    assert "joker also when the Kniffel box holds 0 = yes" in page.text  # in words first, the path behind it
    # a declared headline metric the batch lacks (e.g. renamed) is reported, not a crash
    game = get_game("kniffel")
    monkeypatch.setattr(type(game), "headline", {"renamed_metric": "wins", **game.headline})
    page = Page(write_dashboard(tmp_path, ["kniffel"]).read_text(encoding="utf-8"))
    assert "renamed_metric" in page.text and "Not reported" in page.text
    assert f"Greedy {pages.num(opt)}" in page.text


def test_settings_read_as_words():
    """A heading names options and choices in words, never as raw keys like ``opponent_people gruenlinge``."""
    options = {"opponent": "greedy", "people": "untote", "opponent_people": "gruenlinge", "arrangement": "search"}
    assert get_game("dungeon24").setting(options) == [
        "opponent: Greedy", "your people: Untote", "opponent's people: Grünlinge", "card order: best by search"]
    assert get_game("dadox").setting({"players": 3, "opponent": None}) == ["players: 3"]
    assert get_game("dadox").setting({"opponent": "optimal-turn"}) == ["opponent: Optimal turn"]  # policy by name


def test_report_command_rebuilds_a_dashboard(kniffel_compare, tmp_path):
    from tests.conftest import cli_here

    _, out = kniffel_compare
    (tmp_path / "kniffel").symlink_to(out, target_is_directory=True)
    assert cli_here("report", str(tmp_path)).returncode == 2  # game folders alone: no dashboard of balance's
    (tmp_path / "balance.json").write_text(json.dumps({"games": ["kniffel"], "n": 3000, "seed": 3}))
    res = cli_here("report", str(tmp_path))
    assert res.returncode == 0, res.stderr
    page = Page((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert "dicesim balance report (n = 3,000 per policy, seed 3)" in page.headings
    assert "kniffel/report.html" in page.links


def test_metric_groups():
    groups = get_game("dungeon").metric_groups
    assert pages.group_of("death_room_3", groups) == ("per room", "3", "death_room")
    assert pages.group_of("lp_room_3_p10", groups) == ("per room", "3", "lp_room p10")
    assert pages.group_of("upgrade_dicke_haut_win_rate_not_picked", groups) == (
        "per upgrade", "dicke_haut", "win_rate_not_picked")
    assert pages.group_of("combos_full_house", groups)[:2] == ("per combo", "full_house")
    assert pages.group_of("win_rate", groups) is None
    assert pages.value_text("win_rate", 0.501, (0.494, 0.508)) == "50.1 % [49.4, 50.8]"
    assert pages.value_text("win_rate", 0.032, (0.01, 0.05), diff=True) == "+3.2 pp [+1.0, +5.0]"
    d = {"value": 2.0, "ci95": [1.0, 3.0]}
    table = pages.paired_html({"mean_score: b - a": d, "score: b - a": d, "score: c - a": d})
    assert table.count("<tr>") == 3 and "mean_score: b - a" in table and "score: c - a" in table  # same runs: once


def test_play_summary_is_the_cli_json(tmp_path):
    from tests.conftest import cli_here

    res = cli_here("play", "kniffel", "--policy", "greedy", "--n", "500", "--seed", "5", "--no-report", "--json")
    assert res.returncode == 0, res.stderr
    cli = json.loads(res.stdout)
    r = sim.play("kniffel", "greedy", n=500, seed=5)
    strip = {"seconds", "runs_per_second"}
    assert {k: v for k, v in r.summary.items() if k not in strip} == \
        json.loads(json.dumps({k: v for k, v in cli.items() if k not in strip}))
    assert len(r.table) == 500 and set(r.metrics.columns) == {"label", "metric", "value", "ci95_low", "ci95_high"}
    row = r.metrics.set_index("metric").loc["mean_score"]
    assert row["value"] == pytest.approx(r.table["score"].mean())
    charts = r.plot(tmp_path)
    assert charts and all(p.read_bytes().startswith(PNG) for p in charts)


def test_what_a_call_writes_without_out_goes_when_python_exits(tmp_path):
    """``Result.plot()`` and ``sim.sweep(...)`` without ``out`` wrote temporary folders that stayed in /tmp for good;
    a sweep's charts copy into a folder of one's own (``plot(folder)`` was a TypeError)."""
    import subprocess
    import sys
    from pathlib import Path

    from tests.conftest import ROOT

    code = ("import sim; r = sim.play('kniffel', 'greedy', n=50); a = r.plot()[0].parent; "
            "s = sim.sweep({'game': 'kniffel', 'policies': ['greedy'], 'n': 50, 'grid': {'bonus.value': [25, 35]}}); "
            f"c = s.plot({str(tmp_path / 'mine')!r}); print(a, s.out, len(c))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    charts, sweep, copied = done.stdout.split()
    assert not Path(charts).exists() and not Path(sweep).exists()
    assert int(copied) >= 1 and len(list((tmp_path / "mine").glob("sweep_*.png"))) == int(copied)


def test_calibrate_page(calibrate_run):
    out, tmp_path = calibrate_run
    page = Page((tmp_path / "report.html").read_text(encoding="utf-8"))
    est = out["estimate"]
    metric = words.metric_name("kniffel", "mean_score")  # the metric in words, not its code name
    assert metric != "mean_score"
    # the field in words (its code name stays in the heading line): "upper bonus points (0: no bonus)"
    # capitalised as a sentence, the value to the decimals its interval supports (as the command line says it), the
    # config's own value beside it, as the command line says it
    had = f" (the config has {out['start']:g})" if out["start"] != out["value"] else ""
    assert f"Upper bonus points (0: no bonus) = {words.field_value_text(out['value'], out['field_ci95'])}{had} " \
           f"gives {metric} {pages.num(est['value'])} " \
           f"points [{pages.num(est['ci95'][0])}, {pages.num(est['ci95'][1])}]" in page.text
    assert page.headings.index("Answer") < page.headings.index("Chart") < page.headings.index("Evaluations")
    assert_embedded_pngs(page, 1)
    assert len(pd.read_csv(tmp_path / "evaluations.csv")) == len(out["evaluations"])


def test_check_page(tmp_path):
    from tests.conftest import cli_here

    targets = tmp_path / "t.toml"
    targets.write_text('game = "kniffel"\nn = 1000\nseed = 2\n[[target]]\nname = "greedy high"\npolicy = "greedy"\n'
                       'metric = "mean_score"\nmin = 150\n[[target]]\nname = "bonus rare"\npolicy = "greedy"\n'
                       'metric = "upper_bonus_rate"\nmax = 0.01\n')
    res = cli_here("check", str(targets), "--out", str(tmp_path / "v.csv"))
    assert res.returncode == 1, res.stderr
    page = Page((tmp_path / "v.html").read_text(encoding="utf-8"))
    assert "1 of 2 bands hold; 1 failing." in page.text
    failing = page.text.split("Failing bands")[1].split("Every band")[0]
    assert "bonus rare" in failing and "greedy high" not in failing


def test_api_sweep_calibrate_solve(tmp_path):
    import sim.experiments.sweep as sweep_module

    assert callable(sim.sweep) and sweep_module.run_sweep  # both the API call and the module
    s = sim.sweep({"game": "kniffel", "policies": ["greedy"], "n": 300, "seed": 1, "metrics": ["mean_score"],
                   "grid": {"bonus.value": [25, 35]}}, out=tmp_path / "sw")
    assert len(s.table) == 2 and s.summary["rows"] == 2 and s.report.is_file()
    tidy = s.metrics.set_index(["bonus.value", "metric"])
    assert tidy.loc[(35, "mean_score"), "value"] == s.table.set_index("bonus.value").loc[35, "mean_score"]
    c = sim.calibrate("kniffel", "bonus.value", "mean_score=209", "greedy", n=500, seed=3)
    assert c.summary["converged"] and len(c.table) == len(c.summary["evaluations"])
    assert sim.solve("kniffel").value == pytest.approx(254.5838197, abs=1e-6)


def test_the_api_solves_a_game_without_a_cache_switch(monkeypatch):
    """``sim.solve("dungeon24")`` was refused: 'option no_cache does not apply to dungeon24', an option the caller
    never gave (the API passed its default); the command line passes it only when asked, and so does the API now."""
    g = get_game("dungeon24")
    given = []
    monkeypatch.setattr(g, "solve", lambda cfg, options: given.append(dict(options)) or {"value": 0.5})
    assert sim.solve("dungeon24").value == 0.5 and "no_cache" not in given[0]
    sim.solve("dungeon24", no_cache=True)
    assert given[1]["no_cache"] is True


def test_paired_differences_of_every_pair_without_duplicate_rows():
    """Every pair of policies, the later minus the earlier, each against an independent computation; the primary
    ``score`` row is left out where the headline ``mean_score`` already is the same numbers."""
    rng = np.random.default_rng(5)
    n = 400
    tables = {lab: pd.DataFrame({"run": np.arange(n), "score": rng.integers(100, 300, n) + shift,
                                 "upper_bonus": rng.integers(0, 2, n) * 35, "kniffels": rng.integers(0, 2, n)})
              for lab, shift in (("random", 0), ("greedy", 50), ("optimal", 60))}
    paired = get_game("kniffel").paired(tables, {})
    pairs = [("greedy", "random"), ("optimal", "random"), ("optimal", "greedy")]
    assert {k.split(": ", 1)[1] for k in paired} == {f"{b} - {a}" for b, a in pairs}
    assert not any(k.startswith("score:") for k in paired)
    for b, a in pairs:
        m, lo, hi = independent_interval(tables[b]["score"].to_numpy() - tables[a]["score"].to_numpy())
        got = paired[f"mean_score: {b} - {a}"]
        assert got["value"] == pytest.approx(m) and got["ci95"] == pytest.approx([lo, hi])


def _match_metrics(rows: dict[str, dict[str, float]]) -> pd.DataFrame:
    """A metrics table of head-to-head matches: label -> metric -> value (rates with a +-2 pp interval)."""
    return pd.DataFrame([{"label": lab, "metric": m, "value": v, "ci95_low": v - 0.02, "ci95_high": v + 0.02}
                         for lab, ms in rows.items() for m, v in ms.items()])


DADOX_MATCHES = {
    "threshold vs greedy": {"win_rate_seat_0": 0.514, "win_rate_seat_1": 0.486, "draw_rate": 0.0,
                            "win_rate_greedy": 0.497, "win_rate_threshold": 0.503},
    "threshold vs optimal-turn": {"win_rate_seat_0": 0.504, "win_rate_seat_1": 0.496, "draw_rate": 0.0,
                                  "win_rate_optimal-turn": 0.8, "win_rate_threshold": 0.2},
}
DADOX_PAIRED = {"win: threshold - greedy": {"value": 0.006, "ci95": [-0.015, 0.027]},
                "win: threshold - optimal-turn": {"value": -0.6, "ci95": [-0.63, -0.57]}}


def test_verdict_first_who_beats_whom_then_the_seats():
    """A Dadox card answers who beats whom (winner first, in words, with the paired interval in pp), the clear
    wins before the level pairs, and only then how fair the seats are."""
    said = pages.verdicts(_match_metrics(DADOX_MATCHES), DADOX_PAIRED, get_game("dadox").headline, "dadox")
    assert said[0] == "Optimal turn beats Threshold 80 : 20 (+60.0 pp [+57.0, +63.0] per deal, 95 %)."
    assert said[1] == ("Threshold and Greedy are a near tie: 50.3 : 49.7 (+0.6 pp [\u22121.5, +2.7] per deal, "
                       "95 %: the interval includes 0).")
    assert said[2] == ("Seat fairness against a fair 50 %: the first seat wins 51.4 % [49.4, 53.4] in Threshold vs "
                       "Greedy; 50.4 % [48.4, 52.4] in Threshold vs Optimal turn.")
    # an interval that leaves the fair share out says how far, and "small" under the 2 pp a finding needs
    off = _match_metrics({"threshold vs greedy": {**DADOX_MATCHES["threshold vs greedy"], "win_rate_seat_0": 0.531}})
    assert pages.seat_sentence(off, "dadox").endswith("53.1 % [51.1, 55.1] in Threshold vs Greedy (+3.1 pp off fair).")
    off.loc[off["metric"] == "win_rate_seat_0", ["value", "ci95_low", "ci95_high"]] = [0.515, 0.508, 0.522]
    assert pages.seat_sentence(off, "dadox").endswith("51.5 % [50.8, 52.2] in Threshold vs Greedy (+1.5 pp off fair: "
                                                      "small).")
    # draws under the 1 % the sentence says nothing of: the gap is to the 50 % it names ("56.6 %: +6.7 pp" read off)
    few = _match_metrics({"threshold vs greedy": {**DADOX_MATCHES["threshold vs greedy"], "win_rate_seat_0": 0.566,
                                                  "draw_rate": 0.002}})
    assert pages.seat_sentence(few, "dadox").endswith("56.6 % [54.6, 58.6] in Threshold vs Greedy (+6.6 pp off fair).")


def test_a_wide_interval_is_too_few_games_not_a_near_tie():
    """One game read 'Hold 20 and Optimal win are a near tie: 100 : 0'."""
    one = {"threshold vs greedy": {"win_rate_threshold": 1.0, "win_rate_greedy": 0.0}}
    paired = {"win: threshold - greedy": {"value": 1.0, "ci95": [-0.122, 1.0]}}
    (said,) = pages.head_to_head(_match_metrics(one), paired, "dadox")
    assert said.startswith("Threshold and Greedy are not told apart by so few games: 100 : 0 (+100.0 pp "), said
    paired = {"win: threshold - greedy": {"value": 0.01, "ci95": [-0.02, 0.04]}}
    near = {"threshold vs greedy": {"win_rate_threshold": 0.505, "win_rate_greedy": 0.495}}
    (said,) = pages.head_to_head(_match_metrics(near), paired, "dadox")
    assert said.startswith("Threshold and Greedy are a near tie: 50.5 : 49.5"), said
    # whole percent that disagree with the gap beside them ("53 : 47 (+7.0 pp)" for 53.5 : 46.5) give the tenths
    half = {"threshold vs greedy": {"win_rate_threshold": 0.535, "win_rate_greedy": 0.465}}
    paired = {"win: threshold - greedy": {"value": 0.07, "ci95": [0.061, 0.079]}}
    (said,) = pages.head_to_head(_match_metrics(half), paired, "dadox")
    assert said.startswith("Threshold beats Greedy 53.5 : 46.5 (+7.0 pp"), said
    # ... and so do whole percent one tenth off the gap as written ("53 : 47 (+6.1 pp)" for 53.05 : 46.95)
    tenth = {"threshold vs greedy": {"win_rate_threshold": 0.5305, "win_rate_greedy": 0.4695}}
    paired = {"win: threshold - greedy": {"value": 0.061, "ci95": [0.05, 0.072]}}
    (said,) = pages.head_to_head(_match_metrics(tenth), paired, "dadox")
    assert re.match(r"Threshold beats Greedy 53\.[01] : 4[67]\.[09] \(\+6\.1 pp", said), said


def test_no_seat_fairness_where_the_seats_keep_their_policies():
    """Kniffel's seats keep their policies (seat 1 always plays optimal on ``--policy optimal,greedy``): the first
    seat's 76 % is the policy's, no seat order's; a mirror's first seat still says how fair the order is."""
    kniffel = {"optimal,greedy": {"win_rate_seat_0": 0.766, "win_rate_seat_1": 0.227, "tie_rate": 0.007,
                                  "win_rate_optimal": 0.766, "win_rate_greedy": 0.227},
               "optimal,optimal": {"win_rate_seat_0": 0.49, "win_rate_seat_1": 0.49, "tie_rate": 0.02,
                                   "win_rate_optimal": 0.49}}
    said = pages.seat_sentence(_match_metrics(kniffel), "kniffel")
    assert said == ("Seat fairness against a fair 50 %: the first seat wins 49.0 % [47.0, 51.0] in Optimal vs "
                    "Optimal."), said
    assert pages.seat_sentence(_match_metrics({"optimal,greedy": kniffel["optimal,greedy"]}), "kniffel") == ""
    # Dadox rotates a mixed table's seats over the deals: its first seat is every policy in turn
    assert "in Threshold vs Greedy" in pages.seat_sentence(_match_metrics(DADOX_MATCHES), "dadox")

def test_dadox_page_and_card_read_in_words(tmp_path):
    """The game page and the dashboard card of a Dadox report: verdicts before the tables, paired rows in pp with
    display names, the assumed values in words; no code name of a policy above the full metric table."""
    from sim.report.balance import card_html
    from sim.report.outputs import render_html

    game = get_game("dadox")
    cfg = game.load()
    metrics = _match_metrics(DADOX_MATCHES)
    manifest = {"game": "dadox", "policies": {lab: {} for lab in DADOX_MATCHES}, "n": 2000, "seed": 1,
                "options": {"players": 2}, "assumed": list(cfg.assumed), "paired": DADOX_PAIRED,
                "config": cfg.model_dump(mode="json")}
    page = Page(render_html(manifest, metrics, [], tmp_path))
    text = " ".join(page.text.split())
    answers = text.split("All metrics")[0]
    assert answers.index("Optimal turn beats Threshold 80 : 20") < answers.index("Seat fairness") \
        < answers.index("Paired differences")
    assert "Threshold \u2212 Optimal turn: wins \u221260.0 pp [\u221263.0, \u221257.0]" in answers
    assert "Threshold \u2212 Greedy: wins +0.6 pp" in answers and "+0.006" not in answers
    assert "optimal-turn" not in text.split("assumed values used")[0]  # the title in words
    assert "optimal-turn" not in answers.split("Answers", 1)[1]  # the verdicts, tables and paired rows too
    label = "three different pairs in one throw"  # scoring.three_pairs, from the config model's description
    assert "scoring.three_pairs" in cfg.assumed and f"{label} (0: off) = 0 scoring.three_pairs" in text
    c = {"title": "Dadox", "setting": "players: 2", "answer": "", "headline_html": "", "chart": None,
         "verdicts": pages.verdicts(metrics, DADOX_PAIRED, game.headline, "dadox"), "assumed": list(cfg.assumed),
         "assumed_html": pages.assumed_items(list(cfg.assumed), "dadox", game.Config, manifest["config"])}
    card = " ".join(Page(card_html(c, "dadox/report.html")).text.split())
    assert card.index("Optimal turn beats Threshold") < card.index("Seat fairness") < card.index("Assumed")
    assert f"{label} (0: off) = 0" in card


def test_one_formatter_for_names_and_units():
    """Rates in %, their differences in pp with a typographic minus, counts with their unit; names in words."""
    from sim.report import words

    assert words.metric_text("dungeon", "win_rate", 0.1184) == "wins 11.8 %"
    assert words.metric_name("dadox", "win_rate_optimal-turn") == "Optimal turn wins, per seat"
    assert words.metric_name("dungeon24", "win_rate_attacking_first") == "wins attacking first"
    assert words.metric_name("dungeon", "mean_final_lp") == "mean final LP"
    assert words.metric_name("dungeon24", "ability_uses0") == "ability uses (seat 1)"
    assert words.metric_name("dadox", "throws_1") == "throws 1"  # a count by dice, not a seat
    assert words.value_text("win_rate", -0.149, diff=True) == "\u221214.9 pp"
    assert words.value_text("win", 0.1094, diff=True) == "+10.9 pp"  # a per-run indicator is a rate too
    assert words.value_text("mean_lp", 12.5) == "12.5 LP"
    assert words.paired_label("kniffel", "mean_score: greedy - random") == "Greedy \u2212 Random: mean score"
    assert words.policy_name("dungeon", "vorschlag@extra_wuerfel") == "Vorschlag with Extra-Würfel"
    assert words.word("dungeon24", "gruenlinge") == "Grünlinge" and words.word("dungeon", "dungeon") == "Würfel Dungeon"
    assert words.config_label("kniffel", get_game("kniffel").Config, "joker.when_zero") == \
        "joker also when the Kniffel box holds 0"
    assert words.config_label("dungeon24", get_game("dungeon24").Config, "rules.focus_cost") == \
        "face-down reserve cards sent to the graveyard per reroll"


@pytest.fixture
def drawn(monkeypatch):
    """The figures the charts save, kept open to read what they show (legends, ticks, titles, labels)."""
    from sim.report import charts

    figs = []
    save = charts.save

    def keep(fig, path, tight=True):
        figs.append((fig.axes[0].get_legend(), [t.get_text() for ax in fig.axes for t in ax.texts],
                     [t.get_text() for t in fig.axes[0].get_xticklabels()], fig.axes[0].get_title(),
                     [p.get_x() + p.get_width() / 2 for p in fig.axes[0].patches]))
        return save(fig, path, tight)

    monkeypatch.setattr(charts, "save", keep)
    return figs


def _legend(legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts()] if legend is not None else []


def test_charts_name_policies_and_upgrades_in_words(drawn, tmp_path):
    """Chart legends and labels in display names (``Optimal turn``, ``Extra-Würfel``), never code names."""
    from sim.games.dadox.charts import win_rate_by_seat
    from sim.games.dungeon.upgrade_lift import upgrade_lift_chart

    rng = np.random.default_rng(1)
    winner = rng.integers(0, 2, 200)  # a game's one winner
    t = pd.DataFrame({"seat": np.tile([0, 1], 200), "win": (np.repeat(winner, 2) == np.tile([0, 1], 200)).astype(int)})
    win_rate_by_seat({"threshold vs optimal-turn": t, "greedy vs optimal-turn": t}, tmp_path)
    assert _legend(drawn[-1][0]) == ["fair share", "Threshold vs Optimal turn", "Greedy vs Optimal turn"]
    lift = pd.DataFrame({"policy": "vorschlag", "upgrade": ["extra_wuerfel", "glueckssieben", "heilkraeuter"],
                         "rating": [11.0, 5.0, 6.0], "win_lift": [0.31, 0.30, 0.315], "ci95_low": [0.28, 0.27, 0.29],
                         "ci95_high": [0.34, 0.33, 0.34]})
    upgrade_lift_chart(lift, tmp_path / "lift.png")
    assert sorted(drawn[-1][1]) == ["Extra-Würfel", "Glückssieben", "Heilkräuter"]


def test_seat_charts_with_draws_show_each_labels_fair_share_of_the_games_won(monkeypatch, tmp_path):
    """Games drawn at the turn limit are no seat's: a label's fair share is its games won over the seats, drawn
    across its own bars (a line at 1/3 read as every seat losing); without draws the one line at 1/seats."""
    from sim.games.dadox.charts import win_rate_by_seat
    from sim.report import charts

    figs, save = [], charts.save
    monkeypatch.setattr(charts, "save", lambda fig, path, tight=True: (figs.append(fig), save(fig, path, tight))[1])

    def games(drawn: float) -> pd.DataFrame:
        winner = np.arange(300) % 3
        winner[: int(300 * drawn)] = -1
        return pd.DataFrame({"seat": np.tile([0, 1, 2], 300),
                             "win": (np.repeat(winner, 3) == np.tile([0, 1, 2], 300)).astype(int)})

    def levels(ax) -> list[float]:  # the horizontal segments (an interval's whisker is vertical)
        return sorted({round(float(s[0][1]), 6) for c in ax.collections for s in c.get_segments()
                       if s[0][1] == s[1][1] and s[0][0] != s[1][0]})

    win_rate_by_seat({"threshold vs greedy": games(0.0), "greedy vs greedy": games(0.6)}, tmp_path)
    ax = figs[-1].axes[0]
    assert levels(ax) == pytest.approx([0.4 / 3, 1 / 3], abs=1e-6)
    assert _legend(ax.get_legend())[0] == "fair share of the games won (draws are no seat's)"
    win_rate_by_seat({"threshold vs greedy": games(0.0)}, tmp_path)
    ax = figs[-1].axes[0]
    assert levels(ax) == [] and _legend(ax.get_legend())[0] == "fair share"
    assert [ln.get_ydata()[0] for ln in ax.lines if ln.get_label() == "fair share"] == pytest.approx([1 / 3])


def test_difficulty_bars_show_the_difficulty_played_centred(drawn, tmp_path):
    """A batch plays one difficulty: its bars sit on the policy's tick and the title names the difficulty, not a
    legend of three with two empty."""
    from sim.games.dungeon.charts import difficulty_bars

    t = pd.DataFrame({"difficulty": ["leicht"] * 300, "win": np.arange(300) % 3 == 0})
    difficulty_bars({"vorschlag": t, "greedy": t}, tmp_path)
    legend, _, ticks, title, centres = drawn[-1]
    assert ticks == ["Vorschlag", "Greedy"] and "Leicht" in title and legend is None
    assert centres == pytest.approx([0.0, 1.0])
    both = pd.concat([t, t.assign(difficulty="schwer")])
    difficulty_bars({"vorschlag": both}, tmp_path)
    assert _legend(drawn[-1][0]) == ["Leicht", "Schwer"] and sorted(drawn[-1][4]) == pytest.approx([-0.2, 0.2])


def test_dungeon24_batch_matchup_only_where_it_measured_pairings(tmp_path):
    """One people pairing per batch (the options fix it): no one-of-nine heatmap; two pairings: a heatmap; the
    page says where the full matchup is."""
    from sim.games.dungeon24.analysis import batch_matchup_charts

    one = pd.DataFrame({"people0": [0] * 50, "people1": [0] * 50, "winner": np.arange(50) % 2})
    assert batch_matchup_charts({"greedy": one}, tmp_path, lambda lab: [lab, "greedy"]) == []
    two = pd.concat([one, one.assign(people1=2)])
    paths = batch_matchup_charts({"greedy": two}, tmp_path, lambda lab: [lab, "greedy"])
    assert [p.name for p in paths] == ["dungeon24_matchup_greedy.png"]
    assert "draws no matchup of its own" in get_game("dungeon24").chart_notes["matchup.png"]


def test_the_two_upgrade_charts_say_why_they_differ():
    note = get_game("dungeon").chart_notes["dungeon_upgrades_pick_vs_lift.png"]
    assert "can disagree with the upgrade-value chart" in note and "A missing bar" in note


def test_a_ranking_against_one_opponent_says_so():
    """Dungeon24 plays every policy against the same opponent: the verdict names it."""
    m = _match_metrics({"random": {"win_rate": 0.13}, "heuristic": {"win_rate": 0.68}})
    paired = {"win_rate: heuristic - random": {"value": 0.55, "ci95": [0.53, 0.57]}}
    said = pages.verdicts(m, paired, get_game("dungeon24").headline, "dungeon24", {"opponent": "greedy"})
    assert said[0] == ("Who does best (win rate, each against Greedy): Heuristic 68.0 % [66.0, 70.0] > Random "
                       "13.0 % [11.0, 15.0].")
    assert said[1] == "On the same dice: Heuristic \u2212 Random +55.0 pp [+53.0, +57.0]: ahead."


def test_equal_values_are_not_ranked_and_no_difference_reads_minus_zero():
    """Two policies that both won every (or no) run: 'Greedy 100.0 % > Vorschlag 100.0 %' and '−0.0 pp [−0.0, −0.0]'."""
    m = _match_metrics({"random": {"win_rate": 0.0}, "greedy": {"win_rate": 0.0}})
    paired = {"win_rate: greedy - random": {"value": -0.0, "ci95": [-0.0126, 0.0126]}}
    said = pages.verdicts(m, paired, get_game("dungeon24").headline, "dungeon24", {"opponent": "heuristic"})
    assert " = Greedy 0.0 %" in said[0] and ">" not in said[0], said
    assert " 0.0 pp [−1.3, +1.3]: a near tie" in said[1], said
    # a difference that rounds to nothing has no sign, whatever its unit (it read +0.0 pp, 0.0 points, −0 points)
    assert words.value_text("win_rate", -0.0004, None, diff=True) == "0.0 pp"
    assert words.value_text("mean_score", -0.0, None, diff=True, game="kniffel") == "0 points"
    assert words.value_text("mean_score", 1e-12, None, diff=True, game="kniffel") == "0 points"
    assert words.value_text("mean_score", -0.01, [-0.5, 0.5], diff=True, game="kniffel") == "0.0 points [−0.5, +0.5]"
    assert words.value_text("mean_last_chances", 4e-05, None, game="dungeon") == "0.00004 a run"  # not 4e-05


def test_matchup_cells_read_as_percentages(drawn, tmp_path):
    from sim.games.dungeon24.analysis import matchup_heatmap

    wr = [[0.691, float("nan"), 0.5], [0.3, 0.4, 0.5], [0.6, 0.7, 0.8]]
    matchup_heatmap({"policy_a": "heuristic", "policy_b": "greedy", "people": ["gruenlinge", "untote", "dunkelelfen"],
                     "win_rate": wr}, tmp_path / "m.png")
    texts = drawn[-1][1]
    assert "69.1 %" in texts and len(texts) == 8  # the unmeasured cell stays empty


def test_difficulty_and_upgrade_verdicts_follow_who_beats_whom(tmp_path):
    """The Würfel Dungeon's balance analyses add how the difficulty steps scale and what an upgrade is worth, in
    pp with intervals; the page says them after the ranking (from ``verdicts.json`` beside the tables)."""
    from sim.games.dungeon.charts import difficulty_sentence, upgrade_sentence
    from sim.report.outputs import render_html

    table = pd.DataFrame({"policy": "vorschlag", "difficulty": ["leicht", "normal", "schwer"],
                          "win_rate": [0.526, 0.288, 0.163], "ci95_low": [0.495, 0.261, 0.141],
                          "ci95_high": [0.557, 0.317, 0.187]})
    steps = difficulty_sentence(table)
    assert steps == ("Difficulty steps (Vorschlag): wins 52.6 % [49.5, 55.7] at Leicht, 28.8 % [26.1, 31.7] at "
                     "Normal (\u221223.8 pp), 16.3 % [14.1, 18.7] at Schwer (\u221212.5 pp).")
    # the balance report plays its own, smaller probe (n / 2): the sentence says so beside the page's n per policy
    assert difficulty_sentence(table.assign(n=1000)).startswith("Difficulty steps (Vorschlag, 1,000 runs each): ")
    lift = pd.DataFrame({"policy": "vorschlag", "upgrade": ["heilkraeuter", "paschmeister"], "win_lift": [0.015, 0.316],
                         "ci95_low": [-0.001, 0.286], "ci95_high": [0.031, 0.346]})
    worth = upgrade_sentence(lift)
    assert worth.endswith("worth most Paschmeister +31.6 pp [+28.6, +34.6], least Heilkräuter +1.5 pp "
                          "[\u22120.1, +3.1].")
    (tmp_path / "verdicts.json").write_text(json.dumps([steps, worth]), encoding="utf-8")
    metrics = _match_metrics({"vorschlag": {"win_rate": 0.516}, "greedy": {"win_rate": 0.474}})
    manifest = {"game": "dungeon", "policies": {"vorschlag": {}, "greedy": {}}, "n": 2000, "seed": 1,
                "options": {"difficulty": "leicht"}, "assumed": [],
                "paired": {"win_rate: greedy - vorschlag": {"value": -0.042, "ci95": [-0.068, -0.017]}}}
    text = " ".join(Page(render_html(manifest, metrics, [], tmp_path)).text.split())
    assert text.index("Who does best (win rate)") < text.index("Difficulty steps") < text.index("Upgrades (") \
        < text.index("Paired differences")


def test_the_api_reads_names_as_the_command_line_does():
    """``sim.play("Kniffel", "Greedy")`` is ``sim.play("kniffel", "greedy")``; a list of seats is the comma list; a
    comparison names each policy once; a policy that is no name is refused in words (it was an AttributeError)."""
    same = sim.play("kniffel", "greedy", n=300, seed=4)
    loud = sim.play(" Kniffel", "Greedy", n=300, seed=4)
    assert loud.summary["policy"] == "greedy" and loud.table.equals(same.table)
    assert sim.compare("kniffel", ["Random", "GREEDY"], n=200, seed=2).summary["paired"] == \
        sim.compare("kniffel", "random, greedy", n=200, seed=2).summary["paired"]
    with pytest.raises(DicesimError, match="'greedy' twice"):
        sim.compare("kniffel", "greedy,Greedy", n=10)
    assert sim.play("dungeon24", "greedy", n=20, opponent="Random").summary["options"]["opponent"] == "random"
    for bad in (None, 3, ["greedy", None]):
        with pytest.raises(DicesimError, match="policy must be a policy name"):
            sim.play("kniffel", bad, n=10)


def test_the_api_takes_numpys_numbers():
    """``n=np.int64(300)`` (a value read from a DataFrame) plays as ``n=300``; numpy numbers inside ``set`` too (both
    were refused: 'n must be a positive number of runs, got np.int64(300)')."""
    import numpy as np

    plain = sim.play("kniffel", "greedy", n=300, seed=4, set={"bonus.value": 40})
    numpy = sim.play("kniffel", "greedy", n=np.int64(300), seed=np.uint8(4), set={"bonus.value": np.int64(40)})
    assert numpy.summary["n"] == 300 and numpy.table.equals(plain.table)
    assert numpy.summary["config_hash"] == plain.summary["config_hash"]
    with pytest.raises(sim.DicesimError, match="^n must be a positive number of runs, got -5"):
        sim.play("kniffel", "greedy", n=np.int64(-5))
    with pytest.raises(sim.DicesimError, match="^n must be a whole number of runs \\(an int\\), got 2.5"):
        sim.play("kniffel", "greedy", n=np.float64(2.5))


@pytest.mark.parametrize("call, said", [
    (lambda: sim.sweep(None), "spec must be a sweep file or its content as a dict"),
    (lambda: sim.play("kniffel", "greedy", n=-5), "^n must be a positive number of runs, got -5"),  # not --n
    (lambda: sim.compare("kniffel", "greedy,random", n=10, seed=-1), "^seed must be a whole number"),
    (lambda: sim.play("kniffel", "greedy", n=10**11), "pass force=True to play it anyway"),  # not --force
    (lambda: sim.play("dadox", "greedy", n=10, players=99), "^players must be 1..8, got 99"),  # not --players
    (lambda: sim.compare("kniffel", "greedy,random", n=10, scheduler="nope"), "^scheduler must be an address"),
    (lambda: sim.calibrate("kniffel", "bonus.value", "mean_score=200", "greedy", n=10**11), "pass force=True"),
    (lambda: sim.play("kniffel", "greedy", n=10, set=5), "^set must be 'path=value'"),  # was a TypeError
    (lambda: sim.calibrate("dungeon", 5, "win_rate=0.5", "vorschlag", n=100), "^field must be a config field"),
    (lambda: sim.play("kniffel", "greedy", n=10, backend="nope"), "^backend must be a sim.core.backends backend"),
    (lambda: sim.play("kniffel", "greedy", n=10**10 + 1, force="no"), "^force must be True or False, got 'no'"),
    (lambda: sim.solve("kniffel", no_cache="x"), "^no_cache must be True or False"),
    (lambda: sim.play("kniffel", "greedy", n=10, out=""), "^out is empty"),  # not the current folder
    (lambda: sim.compare("kniffel", ["greedy", "greedy"], n=10), "^policies names 'greedy' twice"),
    (lambda: sim.sweep("/nonexistent/s.toml"), "sweep file not found"),
    (lambda: sim.calibrate("kniffel", "bonus.value", ("mean_score", "x"), "greedy", n=10), "target must be"),
    (lambda: sim.play("kniffel", "greedy", n=10, config=3), "config must be a path"),
    (lambda: sim.compare("kniffel", "greedy,random", n=10, out=3), "out must be a path"),
    (lambda: sim.play("kniffel", "greedy", n=10, scheduler="nohost"), "^scheduler must be an address"),
    (lambda: sim.play("dungeon24", "greedy,heuristic", n=10, opponent="Random"), "^opponent random fills every seat"),
    # chunk is play's, not calibrate's: said so, not "option chunk does not apply to kniffel"
    (lambda: sim.calibrate("kniffel", "bonus.value", "mean_score=200", "greedy", n=10, chunk=10),
     r"^sim.calibrate\(\) has no argument 'chunk' \(it takes game, field, target, policy, n, "),
    (lambda: sim.play("kniffel", "greedy", n=10, people="x"), "^option people does not apply to kniffel"),
])
def test_the_api_refuses_in_words(call, said):
    """What a notebook passes wrong is a ``sim.DicesimError`` saying what is allowed (these were TypeErrors and
    ValueErrors from deep inside, and Dask's own words for an address without a port)."""
    with pytest.raises(sim.DicesimError, match=said):
        call()


@pytest.mark.parametrize("game, policy, options, said", [
    ("dadox", "threshold", {"players": 1}, "Threshold: turns per game "),  # solitaire: no seats, how long it takes
    ("dadox", "threshold", {"players": 5}, "Threshold: the first seat wins "),
    ("kniffel", "greedy", {}, "Greedy scores "),
    # an opponent in the other seats: who wins the games (it read "Greedy: the first seat wins 46.2 %"), and the
    # rival named where one policy's rate is the answer (it read "Heuristic wins 67.8 %" against no one)
    ("dadox", "greedy", {"opponent": "threshold"}, "Who wins (share of games): "),
    ("dungeon24", "heuristic", {"opponent": "greedy"}, "Heuristic wins "),
])
def test_the_answer_reads_as_a_sentence(game, policy, options, said):
    """The first line of a play: 'Greedy scores …', and a phrase about seats or the game after a colon (this read
    'Hold 20 the first-listed policy wins 50.0 %' and 'Threshold draws 0.0 %' for a solitaire game)."""
    r = sim.play(game, policy, n=200, **options)
    assert r.summary["verdicts"][0].startswith(said), r.summary["verdicts"]
    if game == "dungeon24":  # and how fair attacking first is (the game's top finding, said nowhere)
        assert r.summary["verdicts"][0].endswith("] against Greedy."), r.summary["verdicts"]
        assert r.summary["verdicts"][1].startswith("Seat fairness against a fair 50 %: the first attacker wins ")


def test_a_headline_the_seats_should_report_is_still_named_missing():
    """``reported``: the page leaves out only what these seats never report; a declared one gone is named."""
    from sim.report.pages import headline_table

    m = pd.DataFrame([{"label": "greedy", "metric": "mean_score", "value": 200.0, "ci95_low": 199.0,
                       "ci95_high": 201.0}])
    headline = {"mean_score": "scores", "kniffel_rate": "at least one Kniffel"}
    assert "Not reported by this run" in headline_table(m, headline, "kniffel", {"mean_score", "kniffel_rate"})
    assert "Not reported by this run" not in headline_table(m, headline, "kniffel", {"mean_score"})
    # the column's head is the noun ("mean score"), not the answer sentence's verb ("Greedy scores 200 points")
    assert "<th>mean score<br><small>mean_score</small></th>" in headline_table(m, headline, "kniffel")


def test_the_calibration_chart_speaks_in_words(calibrate_run, monkeypatch, tmp_path):
    """Its axes and legend read bonus.value, mean_score, greedy and 'target 209'."""
    from sim import api
    from sim.core import atomic

    out, folder = calibrate_run
    figs = []
    monkeypatch.setattr(atomic, "save_figure", lambda fig, path, **kw: figs.append(fig) or path)
    table = pd.read_csv(folder / "evaluations.csv")
    try:
        api.CalibrationOutcome(out, table).plot(tmp_path, show=False)
        ax = figs[0].axes[0]
        said = [ax.get_xlabel(), ax.get_ylabel(), ax.get_title(), *(t.get_text() for t in ax.get_legend().get_texts())]
    finally:
        import matplotlib.pyplot as plt

        for f in figs:
            plt.close(f)
    assert said[0] == "upper bonus points (0: no bonus)" and said[1] == words.metric_name("kniffel", "mean_score")
    assert not [s for s in said if "bonus.value" in s or "mean_score" in s or "greedy" in s], said
    assert any(s.startswith("target 209") and "points" in s for s in said), said


def test_a_mixed_table_answers_each_policys_own_score():
    """Optimal and Greedy at one Kniffel table: the page answered 'Optimal vs Greedy scores 230.5 points', both sheets
    pooled; now each policy's own mean, and the score chart one curve per policy."""
    from sim.games.kniffel.charts import by_policy

    metrics = _match_metrics({"optimal,greedy": {"mean_score": 230.5, "mean_score_optimal": 258.1,
                                                 "mean_score_greedy": 205.0}})
    said = pages.answer_sentence(metrics, {"mean_score": "scores"}, game="kniffel")
    assert said.startswith("Optimal scores 258.1 points") and " · Greedy scores 205.0 points" in said, said
    assert "230.5" not in said
    t = pd.DataFrame({"policy": ["optimal", "greedy"] * 3, "score": [250, 200, 260, 210, 255, 205]})
    split = by_policy({"optimal,greedy": t})
    assert list(split) == ["optimal", "greedy"] and list(split["greedy"]["score"]) == [200, 210, 205]


def test_numbers_near_a_thousand_float_noise_and_infinity_read_as_numbers():
    """999.96 [999.9, 1000.02] read '1000.0 points [999.9, 1,000]'; an interval of float noise gave ten decimals
    ('+0.0000000003 points'); infinity read 'inf points' beside NaN's '—'."""
    assert words.value_text("mean_score", 999.96, [999.9, 1000.02]) == "1,000.0 points [999.9, 1,000.0]"
    assert words.value_text("mean_score", -999.96, [-1000.02, -999.9], diff=True) == \
        "−1,000.0 points [−1,000.0, −999.9]"
    assert words.value_text("mean_score", 2.5e-10, [-1e-10, 5e-10], diff=True) == "0 points [0, 0]"
    assert words.value_text("mean_score", float("inf")) == words.value_text("win_rate", float("-inf")) == "—"
    assert words.value_text("mean_score", 1478.3, [1459.2, 1498.1]) == "1,478 points [1,459, 1,498]"


def test_the_fair_share_of_eight_seats_is_said_exactly():
    """Eight Kniffel players read "against a fair 12 %" beside a play's "+2.5 pp over a fair share" of 12.5 %."""
    eight = {f"win_rate_seat_{s}": 0.125 for s in range(8)}
    said = pages.seat_sentence(_match_metrics({"greedy": {**eight, "draw_rate": 0.0}}), "kniffel")
    assert said.startswith("Seat fairness against a fair 12.5 %: the first seat wins 12.5 %"), said
    three = {f"win_rate_seat_{s}": 1 / 3 for s in range(3)}
    assert "against a fair 33.3 %" in pages.seat_sentence(_match_metrics({"greedy": {**three, "draw_rate": 0.0}}),
                                                         "kniffel")
