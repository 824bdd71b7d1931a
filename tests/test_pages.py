"""Report pages answer first and stand alone: parsed with an HTML parser, numbers checked against the JSON."""

from __future__ import annotations

import base64
import json
import math
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

import sim
from sim.core.stats import Z95
from sim.games import get_game
from sim.report import pages
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
    m = float(d.mean())
    half = Z95 * float(d.std(ddof=1)) / math.sqrt(len(d))
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
    assert got["value"] == pytest.approx(m) and got["ci95"] == pytest.approx([lo, hi])
    # the paired difference equals the difference of the two rates (same runs on both sides)
    rates = {lab: v["metrics"]["upper_bonus_rate"]["value"] for lab, v in r.summary["policies"].items()}
    assert got["value"] == pytest.approx(rates["greedy"] - rates["random"])
    assert list(r.paired.columns) == ["comparison", "value", "ci95_low", "ci95_high"]


def test_dungeon_paired_win_rate_of_an_upgrade(tmp_path):
    r = sim.compare("dungeon", ["vorschlag", "vorschlag@paschmeister"], n=1500, seed=2, out=tmp_path)
    key = "win_rate: vorschlag@paschmeister - vorschlag"
    assert key in r.summary["paired"]
    d = r.tables["vorschlag@paschmeister"]["win"].to_numpy(float) - r.tables["vorschlag"]["win"].to_numpy(float)
    m, lo, hi = independent_interval(d)
    assert r.summary["paired"][key]["value"] == pytest.approx(m)
    assert r.summary["paired"][key]["ci95"] == pytest.approx([lo, hi])
    # the page's headline: the win rate of the metrics JSON, in words, with its interval; the lift in points
    page = Page((tmp_path / "report.html").read_text(encoding="utf-8"))
    w = r.summary["policies"]["vorschlag"]["metrics"]["win_rate"]
    assert f"vorschlag wins {pages.value_text('win_rate', w['value'], w['ci95'])}" in page.text
    assert f"{key} {pages.value_text('win_rate', m, (lo, hi), diff=True)}" in " ".join(page.text.split())
    assert_embedded_pngs(page, 5)
    assert "Per upgrade (" in page.text and "Per room (" in page.text


def test_game_page_answers_first_and_is_self_contained(kniffel_compare):
    r, out = kniffel_compare
    page = Page((out / "report.html").read_text(encoding="utf-8"))
    assert page.headings.index("Answers") < page.headings.index("Charts") < page.headings.index("All metrics")
    mean = r.summary["policies"]["greedy"]["metrics"]["mean_score"]
    assert f"greedy scores {pages.num(mean['value'])} [{pages.num(mean['ci95'][0])}, {pages.num(mean['ci95'][1])}]" \
        in page.text
    rate = r.summary["policies"]["greedy"]["metrics"]["upper_bonus_rate"]["value"]
    assert f"{rate * 100:.1f} %" in page.text
    diff = r.summary["paired"]["upper_bonus_rate: greedy - random"]
    assert f"{diff['value'] * 100:+.1f} pp" in page.text
    assert_embedded_pngs(page, 2)
    assert page.details >= 3  # summary metrics, per box, config: folded
    for name in pd.read_csv(out / "metrics.csv")["metric"].unique():  # every metric, named (grouped: on its cell)
        assert name in page.text or name in page.titles, name


def test_dashboard_cards(kniffel_compare, tmp_path, monkeypatch):
    r, out = kniffel_compare
    (tmp_path / "kniffel").symlink_to(out, target_is_directory=True)
    page = Page(write_dashboard(tmp_path, ["kniffel"]).read_text(encoding="utf-8"))
    opt = r.summary["policies"]["greedy"]["metrics"]["mean_score"]["value"]
    assert f"greedy scores {pages.num(opt)}" in page.text
    assert "kniffel/report.html" in page.links
    assert "(players: 1)" in page.text  # the setting in words beside the title
    assert_embedded_pngs(page, 1)
    assumed = get_game("kniffel").load().assumed  # the joker readings
    assert assumed and "Assumed values used:" in page.text and all(a in page.text for a in assumed[:4])
    # a declared headline metric the batch lacks (e.g. renamed) is reported, not a crash
    game = get_game("kniffel")
    monkeypatch.setattr(type(game), "headline", {"renamed_metric": "wins", **game.headline})
    page = Page(write_dashboard(tmp_path, ["kniffel"]).read_text(encoding="utf-8"))
    assert "renamed_metric" in page.text and "Not reported" in page.text
    assert f"greedy scores {pages.num(opt)}" in page.text


def test_settings_read_as_words():
    """A heading names options and choices in words, never as raw keys like ``opponent_people gruenlinge``."""
    options = {"opponent": "greedy", "people": "untote", "opponent_people": "gruenlinge", "arrangement": "search"}
    assert get_game("dungeon24").setting(options) == [
        "opponent: greedy", "your people: Untote", "opponent's people: Grünlinge", "card order: best by search"]
    assert get_game("dadox").setting({"players": 3, "opponent": None}) == ["players: 3"]


def test_report_command_rebuilds_a_dashboard(kniffel_compare, tmp_path):
    from tests.conftest import cli_here

    _, out = kniffel_compare
    (tmp_path / "kniffel").symlink_to(out, target_is_directory=True)
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


def test_calibrate_page(calibrate_run):
    out, tmp_path = calibrate_run
    page = Page((tmp_path / "report.html").read_text(encoding="utf-8"))
    est = out["estimate"]
    assert f"bonus.value = {pages.num(out['value'])} gives mean_score {pages.num(est['value'])} " \
           f"[{pages.num(est['ci95'][0])}, {pages.num(est['ci95'][1])}]" in page.text
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
