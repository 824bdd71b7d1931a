"""Issue 31: what the CLI prints to a person is in words and units (the report pages' formatter), its ``--json`` keeps
the code names and fractions; the Würfel Dungeon's enemies by their German names; a calibration that stops at its
first evaluation says why it has no field interval instead of printing NaN."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from sim.core import stats
from sim.games import GAMES, get_game
from sim.report import pages, words
from tests.conftest import cli_here


def test_play_text_is_in_words_and_units_and_json_keeps_the_codes():
    args = ("play", "kniffel", "--policy", "greedy", "--n", "300", "--no-report")
    text = cli_here(*args)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("Kniffel · Greedy · players: 1 · n=300")  # the options in words
    assert lines[1].startswith("Greedy scores ") and lines[1].endswith("].") and " points [" in lines[1]  # answer first
    said = {line.split("  ")[1].strip(): line for line in lines[1:] if line.startswith("  ")}
    assert said["mean score"].rstrip().endswith("]") and " points [" in said["mean score"]
    assert " % [" in said["upper bonus reached"] and "score, 90th percentile" in said and "mean Einser" in said
    assert " points [" in said["mean Einser"] and " points [" in said["mean Kniffel bonus"]
    assert "mean_score" not in text.stdout and "upper_bonus_rate" not in text.stdout
    assert "0." not in said["upper bonus reached"]
    data = json.loads(cli_here(*args, "--json").stdout)  # the machine contract: code names, fractions
    assert 0 < data["metrics"]["upper_bonus_rate"]["value"] < 1 and "mean_score" in data["metrics"]
    assert data["verdicts"] == [lines[1]]  # the same sentence in the JSON summary


def test_compare_text_says_pp_for_differences_of_shares():
    done = cli_here("compare", "dadox", "--policies", "threshold,greedy", "--n", "300", "--no-report")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "Threshold vs Greedy:" in text and "first_player_advantage" not in text and "win_rate" not in text
    (edge,) = [line for line in text.splitlines() if "first seat's edge over a fair share" in line]
    assert edge.rstrip().endswith("]") and " pp [" in edge and "%" not in edge
    (paired,) = [line for line in text.splitlines() if line.strip().startswith("Threshold \u2212 Greedy: wins")]
    assert " pp [" in paired


def test_metric_names_in_words():
    assert words.metric_name("kniffel", "mean_einser") == "mean Einser"
    assert words.metric_name("kniffel", "sd_score") == "score standard deviation"
    assert words.metric_name("kniffel", "score_p90") == "score, 90th percentile"
    assert words.metric_name("dungeon", "offers_extra_wuerfel") == "offers Extra-Würfel"
    assert words.metric_name("dungeon", "mean_coins") == "mean coins held at the end"  # held, not earned (its column)
    assert words.metric_name("dungeon", "mean_seconds") == "mean seconds"  # no game word read into a common word
    assert words.value_text("first_player_advantage", 0.015, [-0.007, 0.037]) == "+1.5 pp [\u22120.7, +3.7]"


def test_dungeon_enemies_by_their_german_names():
    assert words.word("dungeon", "auge_der_sechs") == "Auge der Sechs"
    assert words.word("dungeon", "hoehlentroll") == "Höhlentroll"
    g = get_game("dungeon")
    cfg = g.load(None, [])
    assert set(cfg.enemies) <= set(words.game_words("dungeon"))  # every enemy of the default config is named
    items = " ".join(pages.assumed_items(list(cfg.assumed), "dungeon", g.Config, cfg.model_dump(mode="json")))
    assert "which enemies appear in the Krypta = Skelett, Rostratte, Kultist, Giftspinne" in items
    assert "= Aschedämon, Glutwächter" in items and "aschedaemon, " not in items


def test_a_calibration_done_at_its_first_value_says_why_it_has_no_interval(tmp_path):
    args = ("calibrate", "kniffel", "--target", "mean_score=209", "--field", "bonus.value", "--policy", "greedy",
            "--n", "300", "--tol", "1000")
    done = cli_here(*args, "--out", str(tmp_path / "cal"))
    assert done.returncode == 0, done.stderr
    assert ": scores " in done.stdout or ": mean score " in done.stdout and " points [" in done.stdout
    # the setting played, the field in words, then its code
    assert "Kniffel · players: 1 · Greedy: upper bonus points (bonus.value) = 35" in done.stdout
    assert "no 95 % interval for bonus.value: only one value was evaluated" in done.stdout
    assert "nan" not in done.stdout.lower()
    page = next((tmp_path / "cal").glob("*.html")).read_text(encoding="utf-8")
    assert "No 95 % interval for upper bonus points (0: no bonus): only one value was evaluated" in page  # in words
    assert "nan" not in re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", page).lower()  # not in the chart's bytes
    data = json.loads(cli_here(*args, "--json").stdout)
    assert data["field_ci95"] == [None, None] and len(data["evaluations"]) == 1
    assert words.field_interval_text("x", [1.0, 2.0], 3) == ("x 95 % interval ≈ [1.0, 2.0] (the metric's interval "
                                                             "through the local slope)")
    # to the decimals of the answer beside it ("= 1.01", "≈ [0.9662, 1.06]" read as two precisions)
    assert words.field_value_text(1.01304, [0.96621, 1.0599]) == "1.01"
    assert words.field_interval_text("x", [0.96621, 1.0599], 3).startswith("x 95 % interval ≈ [0.97, 1.06] (")
    # a whole-number field's interval is whole (it read [0.0, 89.7] beside bonus.value = 44)
    assert words.field_interval_text("x", [0.0, 89.7], 3, whole=True).startswith("x 95 % interval ≈ [0, 90] (")
    assert "did not change between the 4 values" in words.field_interval_text("x", [float("nan")] * 2, 4)


def test_every_metric_table_names_metrics_policies_and_boxes_in_words():
    import pandas as pd

    rows = [("greedy", "mean_score", 208.1, 205.8, 210.4), ("greedy", "mean_einser", 2.32, 2.28, 2.37),
            ("greedy", "zero_rate_einser", 0.048, 0.039, 0.058), ("optimal", "mean_score", 245.9, 245.3, 246.4)]
    metrics = pd.DataFrame(rows, columns=["label", "metric", "value", "ci95_low", "ci95_high"])
    html = pages.grouped_metrics_html(metrics, get_game("kniffel").metric_groups, game="kniffel")
    assert "<th title='mean_score'>mean score</th>" in html and "<th title='greedy'>Greedy</th>" in html
    assert "<th>Einser</th>" in html and "208.1 points [205.8, 210.4]" in html and "4.8 % [3.9, 5.8]" in html
    assert "2.32 points [2.28, 2.37]" in html  # a box's mean is points on the sheet (the game's own unit)
    assert ">mean_score<" not in html and ">greedy<" not in html and ">einser<" not in html
    assert words.word("dungeon", "grosse_strasse") == "Große Straße"
    assert words.value_text("upgrade_paschmeister_win_lift", 0.31, [0.28, 0.34]) == "+31.0 pp [+28.0, +34.0]"


def swept(tmp_path, spec: str) -> tuple[str, list[str]]:
    """``dicesim sweep`` of this file's text (no report): its stdout and lines."""
    (tmp_path / "s.toml").write_text(spec, encoding="utf-8")
    done = cli_here("sweep", str(tmp_path / "s.toml"), "--out", str(tmp_path / "o"), "--no-report")
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stdout.splitlines()


def test_sweep_text_is_in_words_and_units(tmp_path):
    stdout, lines = swept(tmp_path, 'game = "kniffel"\npolicies = ["greedy"]\nn = 200\nseed = 1\n'
                                    'metrics = ["upper_bonus_rate"]\n[grid]\n"bonus.value" = [25, 45]\n')
    assert "upper_bonus_rate" not in stdout and "bonus.value=" not in stdout  # a field in words
    assert lines[1].startswith("Upper bonus points 25 → 45: upper bonus reached, Greedy ")  # answer (no "(0: …)")
    head = lines[2].split("  ")
    assert [x.strip() for x in head if x.strip()] == ["upper bonus points (0: no bonus)", "policy",
                                                      "upper bonus reached [95 %]"], lines[2]
    (row,) = [x for x in lines if x.strip().startswith("25 ")]
    assert "Greedy" in row and " % [" in row and row.index("Greedy") == lines[2].index("policy")  # in its column


def test_a_sweep_answer_names_the_values_it_holds_the_other_fields_at(tmp_path):
    """The base bonus, 35, is not in this grid: the threshold's sentence holds the bonus at the grid's middle (25
    of two values), and says so, where "(the other fields at their base)" read as the shipped rules."""
    stdout, lines = swept(tmp_path, 'game = "kniffel"\npolicies = ["greedy"]\nn = 200\nseed = 1\n'
                                    'metrics = ["mean_score"]\n[grid]\n"bonus.value" = [25, 45]\n'
                                    '"bonus.threshold" = [60, 63]\n')
    assert lines[1].startswith("Upper bonus points 25 → 45 (upper sum that earns the bonus at 63): mean score, ")
    assert lines[2].startswith("Upper sum that earns the bonus 60 → 63 (upper bonus points at 25): mean score, ")
    assert "at their base" not in stdout


def test_a_sweep_answers_ends_keep_their_intervals_decimals():
    """A mean of exactly 210 read 'Greedy 210 points → 212.1 points' beside the table's 210.0."""
    from sim.report.sweep import sweep_answers

    t = pd.DataFrame({"point": [0, 1], "label": ["a", "b"], "policy": ["greedy", "greedy"], "bonus.value": [25, 45],
                      "mean_score": [210.0, 212.13], "mean_score_ci95_low": [207.7, 209.8],
                      "mean_score_ci95_high": [212.3, 214.4]})
    (said,) = sweep_answers(t, ["bonus.value"], "mean_score", {"bonus.value": 35}, game="kniffel")
    assert "Greedy 210.0 points → 212.1 points (+2.1 points)" in said, said


def test_a_sweep_answer_over_a_seats_share_has_its_paired_interval(tmp_path):
    """A seat's share of the games is paired run by run from each game's winner (Dadox keeps a row per seat: the
    answer read "+35.0 pp" with no interval, where Kniffel's had one); the ends as the table writes thousands."""
    _, lines = swept(tmp_path, 'game = "dadox"\npolicies = ["threshold"]\nn = 300\nseed = 1\n'
                               'metrics = ["win_rate_seat_0"]\n[options]\nplayers = 2\n[grid]\n'
                               '"skill.level" = [0.25, 1.0]\n"goal.target" = [3000, 10000]\n')
    first, second = lines[1:3]
    assert first.startswith("The player's level 0.25 → 1 (the score that wins the game at 10,000): the first seat "
                            "wins, Threshold ") and " pp [" in first, first
    assert second.startswith("The score that wins the game 3,000 → 10,000 (the player's level at 1): ") \
        and " pp [" in second, second


def test_findings_text_names_the_kind_in_words():
    done = cli_here("findings", "kniffel", "--n", "200", "--set", 'findings.reference={kniffel = ["random"]}')
    assert done.returncode == 0, done.stderr
    assert "- degenerate strategy: The simple policy Greedy beats Random by +" in done.stdout
    assert "degenerate_strategy" not in done.stdout


def test_dungeon24_per_seat_counts_carry_their_units():
    """Dungeon24's per-seat columns in its own units (``labels.UNITS``): duels won, cards deployed, ability uses,
    focus rerolls, turns; on the game page's table, the CLI's lines and the studio's cells alike."""
    import pandas as pd

    from sim.cli.common import metric_lines
    from sim.studio.results_view import shown

    rows = [("greedy", "mean_wins0", 2.31, 2.25, 2.37), ("greedy", "mean_deploys1", 4.5, 4.3, 4.7),
            ("greedy", "ability_uses0", 1.21, 1.18, 1.24), ("greedy", "mean_focus1", 0.42, 0.40, 0.44),
            ("greedy", "mean_turns", 14.2, 14.0, 14.4), ("greedy", "ability_used_rate0", 0.61, 0.59, 0.63)]
    metrics = pd.DataFrame(rows, columns=["label", "metric", "value", "ci95_low", "ci95_high"])
    html = pages.grouped_metrics_html(metrics, get_game("dungeon24").metric_groups, game="dungeon24")
    for said in ("2.31 duels [2.25, 2.37]", "4.5 cards [4.3, 4.7]", "1.21 uses [1.18, 1.24]",
                 "0.42 focus rerolls [0.40, 0.44]", "14.2 turns [14.0, 14.4]", "61.0 % [59.0, 63.0]"):
        assert said in html, said
    lines = metric_lines({r[1]: {"value": r[2], "ci95": [r[3], r[4]]} for r in rows}, game="dungeon24")
    assert any("(seat 1)" in line and line.endswith("2.31 duels [2.25, 2.37]") for line in lines), lines
    assert shown("mean_deploys1", {"value": 4.5, "ci95": [4.3, 4.7]}, game="dungeon24") == ("4.5 cards", "[4.3, 4.7]")
    assert words.unit_of("mean_wins0") == ""  # without the game: no guess from another game's words
    # the dungeon's rooms and uses, and the one-die game's turns, carry their units too (they read "7.79", "6.78")
    assert [words.unit_of(m, "dungeon") for m in ("mean_rooms_cleared", "mean_adjusts", "mean_last_chances")] == [
        "rooms", "a run", "a run"]
    fifth = next(g for g in GAMES if g not in ("kniffel", "dungeon", "dadox", "dungeon24"))
    assert [words.unit_of(m, fifth) for m in ("mean_held_turn", "best_turn", "rolls_per_turn")] == [
        "points", "points", "rolls"]


def test_a_difference_without_its_own_interval_is_rounded_as_the_metric():
    """The studio's difference of a mean over different runs (final LP of the survivors: no run pairs with a run) has
    no interval; it is rounded as the metric's own interval is, ``−5.7 LP`` (not ``−5.731 LP``), in its unit."""
    from sim.studio.results_view import shown

    d = {"value": -5.731, "ci95": None}
    assert shown("mean_final_lp", d, diff=True, like=[10.8, 11.5]) == ("\u22125.7 LP", "")
    assert shown("mean_turns_per_fight", {"value": 0.4966, "ci95": None}, diff=True,
                 like=[2.77, 2.81]) == ("+0.50 turns", "")
    assert words.value_text("win_rate", 0.04966, None, diff=True, like=[0.3, 0.4]) == "+5.0 pp"


def test_sweep_page_is_in_words_and_units(tmp_path):
    """The sweep's report page (issue 31): fields by their titles, metrics and policies in words (code names only
    small under a column head), rates in % with their intervals, the sensitivity's slope of a share in pp."""
    import re

    from sim.report.sweep import build_sweep_report

    spec = tmp_path / "s.toml"
    spec.write_text('game = "kniffel"\npolicies = ["greedy"]\nn = 200\nseed = 1\n'
                    'metrics = ["upper_bonus_rate", "mean_score"]\n[grid]\n"bonus.threshold" = [60, 63, 66]\n',
                    encoding="utf-8")
    done = cli_here("sweep", str(spec), "--out", str(tmp_path / "o"), "--no-report")
    assert done.returncode == 0, done.stderr
    page = build_sweep_report(tmp_path / "o").read_text(encoding="utf-8")
    # the answer first (the page opened with its table): the first metric from one end of the grid to the other
    answer = page.split("<h2>Answer</h2>", 1)[1].split("<h2>", 1)[0]
    said = re.search(r"Upper sum that earns the bonus 60 → 66: upper bonus reached, Greedy ([\d.]+) % → ([\d.]+) % "
                     r"\(([−+][\d.]+) pp \[([−+][\d.]+), ([−+][\d.]+)\]\)\.", answer)
    assert said, answer
    change, lo, hi = (float(x.replace("\u2212", "-")) for x in said.groups()[2:])
    assert change == pytest.approx(float(said[2]) - float(said[1]), abs=0.11) and lo <= change <= hi < 0
    # paired (the same seeds at every point): narrower than the unpaired difference of the two points' intervals
    own = pd.read_csv(tmp_path / "o" / "sweep.csv")
    widths = (own["upper_bonus_rate_ci95_high"] - own["upper_bonus_rate_ci95_low"]) * 100
    assert hi - lo < (widths.iloc[0] ** 2 + widths.iloc[-1] ** 2) ** 0.5
    assert page.index("<h2>Answer</h2>") < page.index("<h2>Results</h2>")
    assert done.stdout.splitlines()[1] == said[0]  # the command line says it first too
    results = page.split("<h2>Results</h2>", 1)[1].split("<h2>", 1)[0]
    assert "upper sum that earns the bonus<br><small>bonus.threshold</small>" in results
    assert "<td>Greedy</td>" in results and "<td>greedy</td>" not in results
    cells = re.findall(r"<td>([^<]*) <small>\[", results)
    assert cells and all(c.endswith((" %", " points")) for c in cells), cells
    sens = page.split("<h2>Sensitivity</h2>", 1)[1]
    assert "<td>upper bonus reached</td>" in sens and "<td>upper sum that earns the bonus</td>" in sens
    assert re.search(r"<td>[+\u2212]\d+(\.\d+)? pp</td>", sens) and "upper_bonus_rate</td>" not in sens


def test_matchup_text_names_peoples_and_policies_in_words():
    """``dicesim matchup dungeon24``: the peoples as the rules write them, the policies by name, each cell a share
    in % with its interval (``--json`` keeps the codes and fractions)."""
    done = cli_here("matchup", "dungeon24", "--n", "100")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "Heuristic's people (rows) vs Greedy's (columns)" in lines[0]
    assert lines[1].split() == ["Grünlinge", "Untote", "Dunkelelfen"]
    assert [line.split()[0] for line in lines[2:5]] == ["Grünlinge", "Untote", "Dunkelelfen"]
    assert all(line.count(" % [") == 3 for line in lines[2:5]) and "gruenlinge" not in done.stdout
    data = json.loads(cli_here("matchup", "dungeon24", "--n", "100", "--json").stdout)
    assert data["people"][0] == "gruenlinge" and 0 < data["win_rate"][0][0] < 1
    mirror = cli_here("matchup", "dungeon24", "--opponent", "heuristic", "--n", "100").stdout.splitlines()
    assert [line.count("50 % (mirror)") for line in mirror[2:5]] == [1, 1, 1]  # by symmetry: no interval estimated
    assert mirror[2].split()[1:3] == ["50", "%"] and mirror[3].split()[5:7] == ["50", "%"], mirror


def test_matchup_says_a_draw_counts_half_and_how_often_games_were_drawn(tmp_path, drawn):
    """With a turn limit of one turn every game is a draw: each cell read 'share of games Heuristic wins … 50.0 %'
    (a draw scores ½, but no game was won) and the JSON held no draw rate. The heading and the chart say a cell is a
    score (a win 1, a draw ½), the JSON holds each cell's share of drawn games, the text shows it where games were
    drawn."""
    args = ("matchup", "dungeon24", "--policy", "heuristic", "--opponent", "heuristic", "--n", "10",
            "--set", "rules.max_turns=1")
    done = cli_here(*args, "--out", str(tmp_path / "m"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "wins" not in lines[0] and "score in % (a win 1, a draw ½, a loss 0)" in lines[0], lines[0]
    assert "Heuristic's people (rows) vs Heuristic's (columns)" in lines[0]
    said = lines.index("Drawn (share of the games, both seatings):")
    assert lines[said + 1].split() == ["Grünlinge", "Untote", "Dunkelelfen"]
    assert [line.split()[1:] for line in lines[said + 2:said + 5]] == [["100.0", "%"] * 3] * 3
    data = json.loads(cli_here(*args, "--json").stdout)
    assert data["draw_rate"] == [[1.0] * 3] * 3 and data["win_rate"][0][1] == 0.5
    assert json.loads((tmp_path / "m" / "matchup.json").read_text(encoding="utf-8"))["draw_rate"] == [[1.0] * 3] * 3
    fig = drawn[-1]
    assert "every game drawn" in fig._suptitle.get_text(), fig._suptitle.get_text()
    assert fig.axes[-1].get_ylabel() == "the row people's score (a win 1, a draw ½)"
    plain = cli_here("matchup", "dungeon24", "--n", "20")  # no game drawn: no draw table
    assert plain.returncode == 0 and "Drawn" not in plain.stdout, plain.stdout


def test_every_games_policies_and_title_come_from_its_labels_module():
    """No name a person reads is guessed from a code identifier (issue 31): each game's ``labels.WORDS`` names the
    game and every policy it offers."""
    from importlib import import_module

    from sim.games import GAMES

    for name, where in GAMES.items():
        said = import_module(where.rsplit(".", 1)[0] + ".labels").WORDS
        g = get_game(name)
        assert said[name] == g.title, name
        missing = [p for p in g.policies if p not in said]
        assert not missing, (name, missing)
    assert words.policy_name("dungeon", "rollout") == "Rollout"
    # a stacked start loadout in words (it read "Vorschlag with dicke haut+dicke haut")
    assert words.policy_name("dungeon", "vorschlag@dicke_haut+dicke_haut") == "Vorschlag with Dicke Haut, Dicke Haut"
    # seats as typed on the command line (``--policy threshold,greedy``) read as the match they are
    assert words.policy_name("dadox", "threshold,greedy") == "Threshold vs Greedy"
    done = cli_here("play", "dadox", "--policy", "threshold,greedy", "--n", "100", "--no-report")
    assert done.returncode == 0 and done.stdout.startswith("Dadox \u00b7 Threshold vs Greedy \u00b7 players: 2 \u00b7 "
                                                           "n=100"), done.stdout


def test_a_play_says_who_wins_and_how_the_seats_play():
    """Three policies on six seats: each policy's share of the games is its per-seat rate times its two seats (the
    lines read 'Leader win wins 35.0 %', a seat's share, the three summing to 50 %); skill and a start loadout are
    named beside the policy, and seats of different skill get a sentence that the first seat's edge is the skill
    gap's."""
    import sim

    six = sim.play("dadox", "threshold,greedy,random", n=200, players=6)
    said, m = six.summary["verdicts"][0], six.summary["metrics"]
    assert said.startswith("Who wins (share of games): ") and said.count("(2 of 6 seats)") == 3, said
    shares = {p: 2 * m[f"win_rate_{p}"]["value"] for p in ("threshold", "greedy", "random")}
    assert sum(shares.values()) + m["draw_rate"]["value"] == pytest.approx(1.0)
    assert shares == pytest.approx({p: m[f"game_share_{p}"]["value"] for p in shares})
    best = max(shares, key=shares.get)
    lo, hi = (x * 100 for x in stats.wilson(round(shares[best] * 200), 200))  # over the 200 games, not the seats
    assert said.split(": ", 1)[1].startswith(f"{words.policy_name('dadox', best)} {shares[best] * 100:.1f} % "
                                             f"[{lo:.1f}, {hi:.1f}]"), said
    # one game: its winner's share is 100 % with an interval that ends there (it read [18.2, 279.7])
    one = sim.play("kniffel", "optimal,greedy", n=1, players=8).summary["verdicts"][0]
    assert one.startswith("Who wins (share of games): ") and "100.0 % [20.7, 100.0] (4 of 8 seats)" in one, one
    casual = sim.play("kniffel", "optimal", n=100, set=["skill.level=casual"])
    assert casual.summary["verdicts"] == [casual.summary["verdicts"][0]]
    assert casual.summary["verdicts"][0].startswith("Optimal (skill casual 0.5) scores ")
    gap = sim.play("dadox", "threshold", n=100, players=4, set=["skill.level=expert", "skill.opponents=novice"])
    assert gap.summary["verdicts"][0].startswith("Threshold (first seat expert 1, others novice 0.25): the first "
                                                 "seat wins ")
    assert gap.summary["verdicts"][1].startswith("The seats play at different skill levels")
    mixed = sim.play("dadox", "threshold,greedy,random", n=120, players=6, set=["skill.opponents=casual"])
    # the first listed policy's seats play at skill.level, rotating with it: the gap lies between the policies
    assert mixed.summary["verdicts"][0].startswith("Who wins (Threshold expert 1, Greedy and Random casual 0.5; "
                                                   "share of games): ")
    assert mixed.summary["verdicts"][1].startswith("The policies play at different skill levels")
    # Dungeon24's first attacker is drawn by the roll-off, not by seat: the gap skews who wins, said of the sides
    sides = sim.play("dungeon24", "heuristic", n=100, opponent="heuristic", set=["skill.level=casual"])
    assert sides.summary["verdicts"][0].startswith("Heuristic (your side casual 0.5, the opponent expert 1) wins ")
    assert "The sides play at different skill levels, so who wins is the skill gap's as much as the policies'." \
        in sides.summary["verdicts"] and not any("first seat's edge" in v for v in sides.summary["verdicts"])
    loaded = sim.play("dungeon", "vorschlag", n=100, set=["loadout.upgrades=['paschmeister']"])
    assert loaded.summary["verdicts"][0].startswith("Vorschlag (start loadout Paschmeister) wins ")
    # the policy's own upgrade on top of the rules' loadout: a run starts with both copies, and the words say so (it
    # read "Vorschlag with Paschmeister (start loadout Paschmeister)", one copy twice named)
    stacked = sim.play("dungeon", "vorschlag@paschmeister", n=100, set=["loadout.upgrades=['paschmeister']"])
    assert stacked.summary["verdicts"][0].startswith("Vorschlag with Paschmeister (start loadout Paschmeister, "
                                                     "Paschmeister) wins ")


def test_every_rule_of_the_smaller_games_reads_in_words_on_a_page():
    """A page's assumed values read 'bust › penalty = subtract' and 'goal › target': every field of these games' rules
    now says what it is (its description, or the game's ``labels.CONFIG_WORDS``), not its path in pieces."""

    def leaves(node, prefix=""):
        for k, v in node.items():
            if isinstance(v, dict) and v:
                yield from leaves(v, f"{prefix}{k}.")
            elif k != "name":
                yield prefix + k

    for game in (g for g in GAMES if g != "dungeon"):  # the dungeon's rules are many: its own CONFIG_WORDS, in part
        g = get_game(game)
        paths = list(leaves(g.load().model_dump()))
        plain = [p for p in paths if words.config_label(game, g.Config, p) == " › ".join(
            [*(words.word(game, k) for k in p.split(".")[:-1]), p.split(".")[-1].replace("_", " ")])]
        assert not plain, (game, plain)


def test_a_policys_seat_rate_is_said_per_seat_and_once_where_it_is_the_game_share():
    """Six Dadox seats, Leader win at two: "Leader win wins 34.7 %" under "Who wins: Leader win 69.4 %" read as two
    answers to one question. The seat rate says "per seat"; in a pair (one seat each) it equals the share of games
    and is said once."""
    from sim.cli.common import metric_lines

    six = {"win_rate_leader-win": {"value": 0.347, "ci95": [0.342, 0.352]},
           "game_share_leader-win": {"value": 0.694, "ci95": [0.687, 0.700]}}
    lines = [" ".join(x.split()) for x in metric_lines(six, game="dadox")]
    assert lines == ["Leader win wins, per seat 34.7 % [34.2, 35.2]",
                     "Leader win wins (share of games) 69.4 % [68.7, 70.0]"], lines
    pair = {"win_rate_greedy": {"value": 0.187, "ci95": [0.17, 0.2]},
            "game_share_greedy": {"value": 0.187, "ci95": [0.17, 0.2]}}
    assert [" ".join(x.split()) for x in metric_lines(pair, game="dadox")] == [
        "Greedy wins (share of games) 18.7 % [17.0, 20.0]"]


def test_the_metrics_left_out_of_the_text_are_counted():
    """Dadox's list stopped at "bust rate throwing 5 dice" with the sixth in the files only, without a word."""
    from sim.cli.common import metric_lines

    many = {f"bust_rate_{k}_dice": {"value": 0.5, "ci95": [0.4, 0.6]} for k in range(1, 7)}
    lines = metric_lines(many, 4, game="dadox")
    assert len(lines) == 5 and lines[-1].strip().startswith("… and 2 more metrics (every one in --json"), lines
    assert len(metric_lines(many, 6, game="dadox")) == 6 and len(metric_lines(many, 4, more=False)) == 4


def test_a_rate_of_nothing_reads_as_a_dash_and_dice_in_words():
    """Optimal turn never throws one die: its line read "bust rate 1 dice  None"."""
    from sim.cli.common import metric_lines

    said = [" ".join(x.split()) for x in metric_lines({"bust_rate_1_dice": {"value": None, "ci95": [None, None]},
                                                        "bust_rate_2_dice": {"value": 0.625, "ci95": [0.3, 0.86]}},
                                                       game="dadox")]
    assert said == ["bust rate throwing 1 die (all throws) — (no case in these runs)",
                    "bust rate throwing 2 dice (all throws) 62.5 % [30.0, 86.0]"], said


def test_a_run_of_changed_rules_says_which_in_its_heading_and_on_its_page(tmp_path):
    """``play kniffel --set bonus.value=40`` headed 'Kniffel · Greedy · players: 1 · n=2000', as the default did, and
    its page differed only in a fingerprint: two outputs of different rules read alike."""
    done = cli_here("play", "kniffel", "--policy", "greedy", "--set", "bonus.value=40", "--n", "200", "--out",
                    str(tmp_path / "k40"))
    assert done.returncode == 0, done.stderr
    assert " · rules changed: bonus.value=40 · n=200 · " in done.stdout.splitlines()[0]
    page = (tmp_path / "k40" / "report.html").read_text(encoding="utf-8")
    assert "rules</b> changed: bonus.value=40" in page
    plain = cli_here("compare", "kniffel", "--policies", "greedy,random", "--n", "100", "--no-report")
    assert "rules" not in plain.stdout.splitlines()[0], plain.stdout
    free = cli_here("compare", "kniffel", "--policies", "greedy,random", "--n", "100", "--no-report", "--config",
                    "configs/kniffel/free-joker.toml")
    assert 'rules changed: joker.mode="free", joker.stops_rolling=false' in free.stdout.splitlines()[0], free.stdout


def test_a_flag_reads_yes_or_no_and_a_swept_value_plainly():
    """The per-upgrade flags read 1 and 0 beside rates in %; a swept goal of 10000 read '1e+04 → 50.3 %'."""
    from sim.report.sweep import _fmt

    assert words.value_text("upgrade_wetzstein_trap", 1.0, game="dungeon") == "yes"
    assert words.value_text("upgrade_wetzstein_dominant", 0.0, game="dungeon") == "no"
    assert words.column_word("dungeon", "win_lift") == "win lift, taken vs left in the same room"
    assert words.metric_name("dungeon", "combos_pasch") == "combos Pasch"  # a column's words stay in its heading
    assert _fmt(10000.0) == "10,000" and _fmt(1.125) == "1.125"


def test_whole_numbers_of_float_fields_read_as_written():
    """A sweep over an enemy's LP (a float field) printed '23.0' rows and 'rules changed: enemies.skelett.hp=40.0';
    the field's name read 'enemies › Skelett › hp'."""
    from sim.core.config import changed_fields
    from sim.report.sweep import field_words, said_value

    assert changed_fields({"e": {"hp": 23.0, "f": [1.0, 0.5]}}, {"e": {"hp": 40.0, "f": [2.0, 0.5]}}) == [
        "e.hp=40", "e.f=[2, 0.5]"]
    assert changed_fields({"x": 1.0}, {"x": 1.5}) == ["x=1.5"]
    assert changed_fields({"x": 1}, {"x": 1e300}) == ["x=1e+300"]
    assert [said_value("dungeon", v) for v in (23.0, 1.25, "leicht", True)] == [23, 1.25, "Leicht", "yes"]
    assert field_words("dungeon", "enemies.skelett.hp") == "Skelett: base LP"
    assert field_words("dungeon", "enemies.auge_der_sechs.damage") == "Auge der Sechs: base damage"
    assert field_words("dungeon", "start.lp") == "LP at the start"  # it read "start › lp"
    cfg = get_game("dungeon").load(None, ["enemies.skelett.hp=40"])
    assert cfg.enemies["skelett"].hp == 40.0  # what the changed line says is what --set takes back


def test_the_matchup_heading_says_the_skill_and_the_rules_it_played():
    """``matchup --set skill.level=0.5`` moved Grünlinge's score from 68 % to 48 % under the very same heading."""
    done = cli_here("matchup", "dungeon24", "--n", "8", "--set", "skill.level=0.5", "--set", "rules.max_turns=50")
    assert done.returncode == 0, done.stderr
    head, caution = done.stdout.splitlines()[:2]
    assert " · Heuristic casual 0.5, Greedy expert 1 · rules changed: rules.max_turns=50, skill.level=0.5 · n=8 " \
        in head, head
    assert caution.startswith("The policies play at different skill levels")
    plain = cli_here("matchup", "dungeon24", "--n", "8").stdout.splitlines()[0]
    assert "rules" not in plain and "casual" not in plain, plain


def test_games_that_never_end_are_said_beside_who_wins(tmp_path):
    """A Dadox bot whose bank threshold lies above the goal never banks: every game ends at the 5,000-turn limit.
    The answer said only "the first seat wins 0.0 %", read as a lost game; now the draws are said beside it (from
    1 % of the games), in play's answer and on the report, and not where no game is drawn."""
    from sim.report.pages import draw_sentence, verdicts

    out = cli_here("play", "dadox", "--policy", "greedy", "--n", "200", "--set", "policies.greedy_bank_at=1000000",
                   "--no-report")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1] == "Greedy: the first seat wins 0.0 % [0.0, 1.9]."
    assert lines[2] == "100.0 % [98.1, 100.0] of the games are draws: they reach the turn limit without a winner."
    fair = cli_here("play", "dadox", "--policy", "greedy", "--n", "200", "--no-report")
    assert fair.returncode == 0 and "draws:" not in fair.stdout, fair.stdout
    # --players read as --n reads a count: 3e0 is three seats (it was refused where 3.0 was taken)
    three = cli_here("play", "dadox", "--policy", "greedy", "--n", "200", "--players", "3e0", "--no-report")
    assert three.returncode == 0 and three.stdout.startswith("Dadox · Greedy · players: 3 ·"), three.stderr
    rows = [("greedy", "draw_rate", 0.5, 0.4, 0.6), ("threshold", "draw_rate", 0.0, 0.0, 0.02),
            ("greedy", "win_rate_seat_0", 0.25, 0.2, 0.3), ("greedy", "win_rate_seat_1", 0.25, 0.2, 0.3),
            ("threshold", "win_rate_seat_0", 0.5, 0.45, 0.55), ("threshold", "win_rate_seat_1", 0.5, 0.45, 0.55)]
    tidy = pd.DataFrame(rows, columns=["label", "metric", "value", "ci95_low", "ci95_high"])
    said = verdicts(tidy, {}, {"win_rate_seat_0": "the first seat wins"}, "dadox")
    assert "Draws (games that reach the turn limit without a winner): 50.0 % [40.0, 60.0] in Greedy." in said
    assert draw_sentence("dadox", {"greedy": {"value": 0.009, "ci95": [0.005, 0.015]}}) == ""
    # the seats share the games won, not all of them: with half the games drawn a seat's fair share is 25 %, and
    # where every game is drawn the seat order is not said at all (it said "−50.0 pp off fair")
    assert "Seat fairness against a fair 50 %: the first seat wins 25.0 % [20.0, 30.0] in Greedy (fair 25.0 % with " \
           "50.0 % draws); 50.0 % [45.0, 55.0] in Threshold." in said
    page = cli_here("play", "dadox", "--policy", "greedy", "--n", "200", "--set", "policies.greedy_bank_at=1000000",
                    "--out", str(tmp_path))
    html = (tmp_path / "report.html").read_text()
    answers = re.sub("<[^>]+>", "", html.split("<h2>Answers</h2>")[1].split("<table")[0])
    assert page.returncode == 0 and "Seat fairness" not in answers and "draws: they reach the turn limit" in answers


def test_a_field_described_with_its_scale_is_named_without_it():
    """The skill sweep's answer read "The player's level: 0 random moves, 1 the policy as it is 0 → 1 …": the
    description's scale was taken into the field's name. Its name is the part before the colon; a name whose colon
    is the game's own ("Normal: enemy LP factor") or inside a hint ("(0: no bonus)") stays whole."""
    from sim.report.sweep import field_words

    assert field_words("dungeon", "skill.level") == "the player's level"
    assert field_words("dungeon", "difficulty.normal.hp") == "Normal: enemy LP factor"
    assert field_words("kniffel", "bonus.value") == "upper bonus points (0: no bonus)"
    assert field_words("kniffel", "joker.when_zero") == "joker also when the Kniffel box holds 0"


def test_a_long_changed_value_is_cut_in_the_heading():
    """A fitted population played with its config printed every group of its skill in the heading's 'rules changed'
    (hundreds of characters); each changed field is cut to ``SAID_MAX`` characters, the count of the rest kept."""
    from sim.core.config import SAID_MAX, rules_said

    groups = [{"level": 0.35, "weight": 0.495}, {"level": 0.8, "weight": 0.505}]
    said = rules_said({"skill": {"level": 1.0, "opponents": 1}, "a": {"b": 1}},
                      {"skill": {"level": 1.0, "opponents": 1, "groups": groups}, "a": {"b": 2}})
    first, second = said.removeprefix("changed: ").split(", a.b=")
    assert first.startswith('skill.groups=[{"level" = 0.35') and first.endswith("…") and len(first) == SAID_MAX
    assert second == "2"  # the groups, a field the dump leaves out at its default, named alone
    assert rules_said({"a": {"b": 1}}, {"a": {"b": 2}}) == "changed: a.b=2"


def test_a_fields_hint_in_brackets_is_left_out_before_its_code(tmp_path):
    """tune printed "upper bonus points (0: no bonus) (bonus.value) = 37": two brackets, the first read as the
    code's; the hint is left out where the code or a value follows (the page's table keeps it)."""
    from sim.report.words import without_hint

    assert without_hint("upper bonus points (0: no bonus)") == "upper bonus points"
    assert without_hint("Normal: enemy LP factor") == "Normal: enemy LP factor"
    assert without_hint("(only a hint)") == "(only a hint)"
    spec = tmp_path / "t.toml"
    spec.write_text('game = "kniffel"\nn = 200\nseed = 1\nmax_evals = 3\n[fields]\n"bonus.value" = [0, 120]\n'
                    '[[target]]\npolicy = "greedy"\nmetric = "mean_score"\nvalue = 210\ntol = 50\n')
    out = cli_here("tune", str(spec), "--out", str(tmp_path / "o"), "--no-report")
    assert out.returncode == 0, out.stderr
    assert re.search(r"^  upper bonus points \(bonus\.value\) = \d+$", out.stdout, re.M), out.stdout


def test_a_tune_says_its_verdict_first_and_each_target_met_or_missed(tmp_path):
    """tune marked a missed target "OFF", ended "· max evaluations ·" and its evaluation lines read "greedy earns the
    bonus in 28 % of games: 9.8 %" (two claims): the verdict comes first, each target met or missed, and every
    evaluation gives the metric beside its target."""
    spec = tmp_path / "t.toml"
    spec.write_text('game = "kniffel"\nn = 200\nseed = 1\nmax_evals = 3\n[fields]\n"bonus.value" = [0, 120]\n'
                    '[[target]]\nname = "greedy earns 300"\npolicy = "greedy"\nmetric = "mean_score"\nvalue = 300\n'
                    'tol = 1\n[[target]]\npolicy = "greedy"\nmetric = "upper_bonus_rate"\nvalue = 0.2\ntol = 0.5\n')
    out = cli_here("tune", str(spec), "--out", str(tmp_path / "o"))
    assert out.returncode == 1, out.stderr  # a target missed: exit 1, as before
    lines = out.stdout.splitlines()
    assert "· stopped at its limit of 3 evaluations (max_evals) ·" in lines[0], lines[0]
    assert re.fullmatch(r"1 of 2 targets missed: greedy earns 300 \(mean score [\d.]+ points against 300 points ± 1 "
                        r"points?\)\.", lines[1]), lines[1]
    assert re.search(r"^  missed greedy earns 300: mean score ", out.stdout, re.M), out.stdout
    assert re.search(r"^  met    .*: upper bonus reached ", out.stdout, re.M) and "OFF" not in out.stdout, out.stdout
    evals = [ln for ln in out.stderr.splitlines() if ln.lstrip().startswith("eval ")]
    assert evals and all(re.search(r"->  mean score [\d.]+ points \(target 300 points\) · upper bonus reached "
                                   r"[\d.]+ % \(target 20\.0 %\)$", ln) for ln in evals), evals
    page = (tmp_path / "o" / "report.html").read_text(encoding="utf-8")
    assert "<p class='answer'>1 of 2 targets missed: greedy earns 300 (mean score" in page


def test_metrics_of_mixed_seats_say_they_pool_every_seat():
    """Two policies at one table: "mean score 230.5" sat under Optimal's 254.3 and Greedy's 206.7 as if a third
    player's; a line above the metrics says which pool every seat. One policy at every seat: no such line. The seats
    by ordinals alike ("the first seat wins" beside "the second seat wins", not "seat 2 wins")."""
    mixed = cli_here("play", "dadox", "--policy", "threshold,greedy", "--n", "200", "--no-report")
    assert mixed.returncode == 0, mixed.stderr
    lines = mixed.stdout.splitlines()
    at = lines.index("Every seat together, except where a line names a policy or a seat:")
    assert lines[at - 1].startswith("Who wins (share of games): ") and lines[at + 1].startswith("  the first seat wins")
    assert lines[at + 2].startswith("  the second seat wins ") and "seat 2 wins" not in mixed.stdout
    mirror = cli_here("play", "kniffel", "--policy", "greedy", "--players", "2", "--n", "200", "--no-report")
    assert mirror.returncode == 0 and "Every seat together" not in mirror.stdout, mirror.stdout


def test_the_metric_values_stay_in_one_column():
    """Solitaire Dadox's "bust rate throwing 1 die (all throws)" (37 characters) pushed its value out of the column
    the others keep (it was 36 wide); a name longer than the column gets a line of its own, the value below."""
    from sim.cli.common import NAME_WIDTH, metric_lines

    lines = metric_lines({"bust_rate_1_dice": {"value": 0.687, "ci95": [0.653, 0.718]},
                          "mean_turn_score": {"value": 214.1, "ci95": [202.9, 225.2]}}, game="dadox")
    assert [ln.index("%") - ln.index("68.7") for ln in lines[:1]] == [5]
    assert lines[0].index("68.7") == lines[1].index("214.1"), lines
    names = {"bust_rate_1_dice": {"value": 0.5, "ci95": [0.4, 0.6]}, "x" * (NAME_WIDTH + 3): {"value": 1.0}}
    wrapped = metric_lines(names, game="dadox")
    assert wrapped[1].strip() == "x" * (NAME_WIDTH + 3) and wrapped[2].strip() == "1"
    assert wrapped[0].index("50.0") == wrapped[2].index("1"), wrapped


def test_one_of_a_unit_is_said_in_the_singular():
    """``game.max_turns=1`` read "1 turns [1, 1]"; a sweep "ran 1 chunks"; a fit "1 players · 1 games"."""
    from sim.report.words import plural, singular, value_text

    assert value_text("game_length_turns", 1.0, [1.0, 1.0]) == "1 turn [1, 1]"
    assert value_text("game_length_turns", 2.0, [2.0, 2.0]) == "2 turns [2, 2]"
    assert [plural(1, "chunks"), plural(2, "chunks"), plural(1_000, "games")] == ["1 chunk", "2 chunks", "1,000 games"]
    assert [singular(u) for u in ("LP", "runs/s", "turns per game", "dice", "s")] == [
        "LP", "runs/s", "turn per game", "dice", "s"]
