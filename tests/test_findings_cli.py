"""``dicesim findings`` end to end on the Würfel Dungeon: the JSON, a replay line that shows the finding, the
economy loop following the price table on fresh runs, refused inputs, and the dashboard's Findings section read in
a real browser (Playwright on the system Chromium)."""

from __future__ import annotations

import html
import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from sim.cli.work.findings import config_args
from sim.games import get_game
from sim.report.balance import write_dashboard
from sim.report.findings.base import Tables
from sim.report.findings.config import FindingsConfig
from sim.report.findings.economy import economy_loop
from sim.report.findings.page import MEANINGS
from sim.report.findings.runner import folder_findings, hooks
from tests.conftest import cli_here

N = 300
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def dungeon(tmp_path_factory):
    """``dicesim findings dungeon --json`` with its folder kept, and the dashboard of that folder."""
    root = tmp_path_factory.mktemp("findings")
    done = cli_here("findings", "dungeon", "--n", str(N), "--out", str(root / "dungeon"), "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout), root


def test_findings_json_of_the_dungeon(dungeon):
    data, root = dungeon
    assert list(data) == ["findings", "thresholds"] and data["thresholds"] == {}  # the defaults: none changed
    found = data["findings"]
    kinds = {f["kind"] for f in found}
    assert {"economy_loop", "difficulty_cliff"} <= kinds <= set(MEANINGS)
    for f in found:
        assert f["game"] == "dungeon" and f["title"] and f["evidence"]["runs"] > 0
        assert f["ci95"] is None or f["ci95"][0] <= f["value"] <= f["ci95"][1]
        assert f["replay"].startswith("dicesim replay dungeon --seed 1 --run ")
    stored = json.loads((root / "dungeon" / "findings.json").read_text(encoding="utf-8"))
    assert stored["findings"] == found
    (loop,) = [f for f in found if f["kind"] == "economy_loop"]
    assert loop["value"] == 70 - get_game("dungeon").load().market.joker_pack


def test_the_findings_heading_says_the_setting_they_were_found_in():
    """The Würfel Dungeon's findings are those of the report's difficulty ("Room 5 is a cliff" at Leicht): its
    heading said only n and seed."""
    done = cli_here("findings", "dadox", "--n", "40")
    assert done.returncode == 0 and done.stdout.startswith("Dadox · findings · players: 2 · n=40 · seed=1: ")


def test_the_replay_line_shows_the_loop(dungeon):
    (loop,) = [f for f in dungeon[0]["findings"] if f["kind"] == "economy_loop"]
    done = cli_here(*shlex.split(loop["replay"])[1:])
    assert done.returncode == 0, done.stderr
    text = done.stdout
    bought = text.index("(aus dem Joker-Pack)")
    assert "Joker-Händler — angenommen" in text[bought:]


def test_economy_loop_follows_the_price_table_on_fresh_runs():
    """The same detector over runs played under each config: a pack priced above the Händler's offer, no loop."""
    game = get_game("dungeon")
    found = {}
    for price in (60.0, 80.0):
        cfg = game.load(None, [f"market.joker_pack={price}"])
        options = game.check_options({})
        play, events = hooks(game, cfg, 1, options)
        t = Tables(game="dungeon", cfg=cfg, n=N, seed=1, options={"difficulty": "leicht"},
                   runs={"vorschlag": play("vorschlag", N)}, events=events, report_policies=game.report_policies)
        found[price] = economy_loop(t, FindingsConfig(economy_check_runs=20))
    assert len(found[60.0]) == 1 and found[60.0][0]["evidence"]["confirmed_runs"] >= 1
    assert found[80.0] == []


def test_balance_writes_findings_beside_the_dashboard(tmp_path):
    done = cli_here("balance", "--games", "kniffel", "--n", "200", "--out", str(tmp_path), "--quiet")
    assert done.returncode == 0, done.stderr
    found = json.loads((tmp_path / "findings.json").read_text(encoding="utf-8"))["findings"]
    assert found == json.loads((tmp_path / "kniffel" / "findings.json").read_text(encoding="utf-8"))["findings"]
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.index("<h2>Findings</h2>") < page.index("class='card'")
    assert all(m.replace("'", "&#x27;") in page for m in MEANINGS.values())
    assert not [f for f in found if f["kind"] == "degenerate_strategy"]  # Greedy is behind Optimal, no finding


def test_balance_takes_the_findings_thresholds(tmp_path):
    """``--config F`` (a ``[findings]`` section) and ``--set findings.…`` over it reach the detectors: Random named a
    reference bot in the file, Greedy beating it by more than the --set's 1 pp is a finding (the file's 99 pp not)."""
    f = tmp_path / "thresholds.toml"
    f.write_text('[findings]\nreference = {kniffel = ["random"]}\ndegenerate_min_pp = 99\n', encoding="utf-8")
    done = cli_here("balance", "--games", "kniffel", "--n", "200", "--out", str(tmp_path / "r"), "--quiet",
                    "--config", str(f), "--set", "findings.degenerate_min_pp=1")
    tmp_path = tmp_path / "r"
    assert done.returncode == 0, done.stderr
    found = json.loads((tmp_path / "findings.json").read_text(encoding="utf-8"))["findings"]
    (deg,) = [f for f in found if f["kind"] == "degenerate_strategy"]
    assert (deg["evidence"]["simple"], deg["evidence"]["reference"]) == ("greedy", "random")
    assert "Greedy beats Random" in deg["title"] and deg["ci95"][0] > 0.01
    # the dashboard names the thresholds its findings were found under (they read alike otherwise)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Thresholds: the defaults but degenerate_min_pp = 1.0 (default 0.0), reference = {&quot;kniffel&quot; " \
           "= [&quot;random&quot;]} (default {&quot;dungeon&quot; = [" in page


def test_findings_says_the_thresholds_it_used_where_they_differ():
    done = cli_here("findings", "kniffel", "--n", "200", "--set", "findings.seat_min_pp=3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == "Thresholds: the defaults but seat_min_pp = 3.0 (default 2.0).", done.stdout
    plain = cli_here("findings", "kniffel", "--n", "200", "--json")
    assert json.loads(plain.stdout)["thresholds"] == {}


@pytest.mark.parametrize("item, said", [
    ("findings.nope=1", "unknown field of [findings]: findings.nope"),
    ("findings.seat_min_pp=-1", "[findings]: invalid value for seat_min_pp"),
    ("findings.cliff_ratio=abc", "[findings]: invalid value for cliff_ratio"),
    ("findings=3", "name a field of [findings]"),
    ("bonus.value=40", "dicesim balance takes findings thresholds only"),
])
def test_balance_refuses_bad_thresholds_before_any_work(tmp_path, item, said):
    done = cli_here("balance", "--games", "kniffel", "--n", "10", "--out", str(tmp_path / "o"), "--set", item)
    assert done.returncode == 2 and done.stdout == "" and not (tmp_path / "o").exists()
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], done.stderr


def test_balance_refuses_a_config_with_rules_before_any_work(tmp_path):
    """balance plays every game under its own default config: a file with a game's rules is refused, one line."""
    f = tmp_path / "rules.toml"
    f.write_text("[findings]\nseat_min_pp = 3\n[bonus]\nvalue = 40\n", encoding="utf-8")
    named = tmp_path / "named.toml"  # a game's config begins name = …: a key, not a section
    named.write_text('name = "mine"\n[findings]\nseat_min_pp = 3\n', encoding="utf-8")
    for config, said in ((f, "reads only a [findings] section, the file also has [bonus]"),
                         (named, "the file also has the key name (a game's rules"),
                         (tmp_path / "none.toml", "none.toml")):
        done = cli_here("balance", "--games", "kniffel", "--n", "10", "--out", str(tmp_path / "o"),
                        "--config", str(config))
        assert done.returncode == 2 and done.stdout == "" and not (tmp_path / "o").exists()
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], done.stderr


@pytest.mark.parametrize("args, said", [
    (["nogame"], "unknown game 'nogame'"),
    (["dungeon", "--n", "0"], "--n must be a positive number of runs"),
    (["dungeon", "--set", "findings.seat_min_pp=-1"], "[findings]: invalid value for seat_min_pp"),
    (["dungeon", "--set", "findings.nope=1"], "unknown field of [findings]: findings.nope"),
    # an entry of a table field: not "unknown field" with the field list cut before it
    (["kniffel", "--set", "findings.simple.kniffel=['greedy']"], "simple is a table: set it whole, e.g. --set"),
    (["dungeon", "--set", "market.joker_pack=-1"], "market.joker_pack"),
])
def test_refused_inputs(args, said):
    done = cli_here("findings", *args)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and said in lines[0], done.stderr


def test_a_config_with_a_findings_section(tmp_path):
    p = tmp_path / "cheap.toml"
    text = (Path(__file__).resolve().parent.parent / "configs" / "dungeon" / "default.toml").read_text(
        encoding="utf-8")
    p.write_text(text.replace("joker_pack = 60.0", "joker_pack = 50.0") + "\n[findings]\ncliff_ratio = 3.0\n",
                 encoding="utf-8")
    game = get_game("dungeon")
    cfg = game.load(None, ["market.joker_pack=50"])
    # replay refuses a [findings] section: the replay line names the config by its changes instead
    assert config_args(game, cfg, p, []) == ["--set", "market.joker_pack=50"]
    assert config_args(game, cfg, None, ["market.joker_pack=50"]) == ["--set", "market.joker_pack=50"]
    done = cli_here("findings", "dungeon", "--config", str(p), "--set", "findings.nope=2")
    assert done.returncode == 2 and "findings.nope" in done.stderr


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found: install the distribution's chromium package")
def test_dashboard_findings_section_in_a_browser(dungeon):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")
    data, root = dungeon
    page_path = write_dashboard(root, ["dungeon"])
    assert json.loads((root / "findings.json").read_text(encoding="utf-8")) == data
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pg = browser.new_page(viewport={"width": 1300, "height": 1000})
            pg.goto(Path(page_path).resolve().as_uri())
            section = pg.locator("section#findings")
            assert section.locator("h2").inner_text() == "Findings"
            # the section comes first: above every game card
            assert pg.evaluate("() => document.querySelector('section#findings').getBoundingClientRect().top < "
                               "document.querySelector('.card').getBoundingClientRect().top")
            items = section.locator("li.finding")
            assert items.count() == len(data["findings"])
            loop = section.locator("li.finding[data-kind='economy_loop']")
            assert "Joker-Händler" in loop.inner_text() and "dicesim replay dungeon" in loop.inner_text()
            for kind, meaning in MEANINGS.items():
                assert section.locator(f"#kind-{kind} .meaning").inner_text() == meaning
            # the evidence in words: no code name (``first_attacker_win_rate``, ``altars``) where a person reads
            evidence = section.locator("li.finding small").all_inner_texts()
            assert evidence and all(e.startswith("Evidence: ") for e in evidence)
            assert not [e for e in evidence if re.search(r"\b[a-z]+_[a-z_]+\b|\baltars\b", e)], evidence
            # the game card answers first: who does best and who beats whom on the same dice, in % and pp
            card = pg.locator(".card").first
            said = card.locator("p.verdict").all_inner_texts()
            assert said[0].startswith("Who does best (win rate): ") and " % [" in said[0]
            assert said[1].startswith("On the same dice: ") and " pp [" in said[1]
            assert "Vorschlag" in said[0] and "vorschlag" not in " ".join(said)
            assert pg.evaluate("() => document.querySelector('.card p.verdict').getBoundingClientRect().top < "
                               "document.querySelector('.card table').getBoundingClientRect().top")
            pg.screenshot(path=str(root / "dashboard.png"), full_page=True)
        finally:
            browser.close()


def test_the_stacking_probe_is_reused_only_for_the_same_runs(dungeon, tmp_path):
    folder = tmp_path / "dungeon"
    shutil.copytree(dungeon[1] / "dungeon", folder)
    stored = json.loads((folder / "stacking.json").read_text(encoding="utf-8"))
    assert stored["rows"] and {r["upgrade"] for r in stored["rows"]} >= {"wetzstein", "paschmeister"}
    fake = [{**stored["rows"][0], "upgrade": "lebenselixier", "first": 0.1, "first_ci95": [0.05, 0.15],
             "later": 0.1, "later_ci95": [0.05, 0.15]}]
    (folder / "stacking.json").write_text(json.dumps({"key": stored["key"], "rows": fake}), encoding="utf-8")
    found = folder_findings(folder, FindingsConfig())
    assert [f["subject"] for f in found if f["kind"] == "runaway_stacking"] == ["upgrade:lebenselixier"]
    (folder / "stacking.json").write_text(json.dumps({"key": "other", "rows": fake}), encoding="utf-8")
    found = folder_findings(folder, FindingsConfig())  # another config or run count: the probe plays again
    assert "upgrade:lebenselixier" not in [f["subject"] for f in found if f["kind"] == "runaway_stacking"]
    assert json.loads((folder / "stacking.json").read_text(encoding="utf-8"))["key"] == stored["key"]


def test_a_skill_gap_between_the_seats_is_said_before_the_findings():
    """With ``skill.opponents`` below the first seat's level, Threshold 'beat' Optimal turn by 55 pp and the first
    seat was 'off fair': the gap's doing. The findings say it first (and in --json) and the seat finding again."""
    import json

    done = cli_here("findings", "dadox", "--n", "300", "--set", "skill.opponents=novice")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Played with first seat expert 1, the other seat novice 0.25. The seats play at "
                               "different skill levels"), lines[:3]
    said = json.loads(cli_here("findings", "dadox", "--n", "300", "--set", "skill.opponents=novice", "--json").stdout)
    assert said["caution"] == lines[1]
    plain = json.loads(cli_here("findings", "dadox", "--n", "300", "--json").stdout)
    assert "caution" not in plain


def test_the_findings_commands_page_opens_with_its_findings(dungeon, tmp_path):
    """``dicesim findings --out`` wrote its report.html before the findings were found: the page had none of them
    (only findings.json did). It opens with them after the answers, and a rebuild keeps them."""
    data, root = dungeon
    out = tmp_path / "f"
    shutil.copytree(root / "dungeon", out)  # the module's findings run, its folder rebuilt here alone
    found = data["findings"]
    assert found  # the joker loop of the price table at least
    for _ in range(2):
        page = (out / "report.html").read_text(encoding="utf-8")
        assert "<section id='findings'" in page and page.index("<h2>Answers</h2>") < page.index("<h2>Findings</h2>")
        assert page.index("<h2>Findings</h2>") < page.index("<h2>Charts</h2>")
        assert all(html.escape(f["title"], quote=True) in page for f in found), [f["title"] for f in found]
        assert cli_here("report", str(out)).returncode == 0


def test_a_finding_from_a_smaller_probe_says_how_many_runs(monkeypatch, capsys, tmp_path):
    """Some detectors play their own, smaller probe (the upgrade lifts n/2, the stacking probe at most 4,000): the
    finding's line said nothing of it, under a header reading n=2000. It now says from how many runs it comes."""
    from sim.cli.work import findings as work

    found = [{"kind": "runaway_stacking", "title": "Wetzstein stacks", "evidence": {"runs": 1000}, "replay": ""},
             {"kind": "difficulty_cliff", "title": "Room 5 is a cliff", "evidence": {"runs": 2000}, "replay": ""}]
    monkeypatch.setattr(work, "game_report", lambda *a, **k: None)
    monkeypatch.setattr(work, "folder_findings", lambda *a, **k: found)
    work.findings("dungeon", None, None, [], FindingsConfig(), 2000, 1, tmp_path / "o", False)
    said = capsys.readouterr().out.splitlines()
    assert "- runaway stacking: Wetzstein stacks (from 1,000 runs: this detector's probe, not --n 2,000)" in said
    assert "- difficulty cliff: Room 5 is a cliff" in said


def test_nothing_found_in_too_few_runs_says_so(monkeypatch, capsys, tmp_path):
    """``findings kniffel --n 1`` read '0 found / None of the detectors found anything', a clean bill of health from
    one game. With fewer runs than a detector needs, the line says that nothing could be found."""
    from sim.cli.work import findings as work

    monkeypatch.setattr(work, "game_report", lambda *a, **k: None)
    monkeypatch.setattr(work, "folder_findings", lambda *a, **k: [])
    work.findings("kniffel", None, None, [], FindingsConfig(), 1, 1, tmp_path / "o", False)
    said = capsys.readouterr().out
    assert "Nothing found, and n=1 is too few runs to find anything" in said and "None of the detectors" not in said
    work.findings("kniffel", None, None, [], FindingsConfig(), 2000, 1, tmp_path / "p", False)
    assert "None of the detectors found anything" in capsys.readouterr().out


@pytest.mark.parametrize("args", [
    ["findings", "dadox", "--set", "goal.target=5000", "--set", "goal.target=6000"],  # played 6000, said nothing
    ["findings", "dadox", "--set", "findings.seat_min_pp=3", "--set", "findings.seat_min_pp=4"],
    ["balance", "--set", "findings.seat_min_pp=3", "--set", "findings.seat_min_pp=4"],
])
def test_a_field_set_twice_is_refused_by_findings_and_balance(tmp_path, args):
    done = cli_here(*args, "--n", "10", "--out", str(tmp_path / "o"))
    assert done.returncode == 2 and done.stderr.startswith("error: --set ") and "is given twice" in done.stderr
    assert not (tmp_path / "o").exists()
