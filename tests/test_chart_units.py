"""Issue 31: a chart's shares read in % and its differences of shares in pp, as the pages write them (a tick label
``0.25`` on a win-rate lift reads as a quarter of something)."""

from __future__ import annotations

from sim.games.dungeon24.analysis import ability_lift_chart
from sim.report import charts


def _ticks(fig, which="y"):
    fig.canvas.draw()
    ax = fig.axes[0]
    got = ax.get_yticklabels() if which == "y" else ax.get_xticklabels()
    return [t.get_text() for t in got if t.get_text()]


def test_ability_lift_axis_in_pp(drawn, tmp_path):
    lift = {"policy": "heuristic", "opponent": "greedy", "people": ["gruenlinge", "untote", "dunkelelfen"],
            "lift": [{"value": v, "ci95": [v - 0.02, v + 0.02]} for v in (0.21, 0.11, 0.13)]}
    ability_lift_chart(lift, tmp_path / "a.png")
    ticks = _ticks(drawn[0])
    assert "+20 pp" in ticks and "0" in ticks and not [t for t in ticks if "." in t], ticks
    assert [t.get_text() for t in drawn[0].axes[0].get_xticklabels()] == ["Grünlinge", "Untote", "Dunkelelfen"]


def test_seat_shares_in_percent(drawn, tmp_path):
    stats = {"threshold vs greedy": [{"value": 0.515, "ci95": [0.49, 0.54]}, {"value": 0.485, "ci95": [0.46, 0.51]}]}
    charts.bars(stats, ["seat 1", "seat 2"], tmp_path / "b.png", "win rate", "t", reference=(0.5, "fair"), unit="%")
    ticks = _ticks(drawn[-1])
    assert "50%" in ticks and "0%" in ticks and "0.5" not in ticks, ticks


def test_survival_in_percent(drawn, tmp_path):
    import numpy as np

    charts.survival({"Vorschlag": np.array([0, 3, 5, 5, 2])}, 6, tmp_path / "s.png", "room", "Survival")
    ticks = _ticks(drawn[0])
    assert "100%" in ticks and "0%" in ticks and "1.0" not in ticks, ticks


def test_a_difference_axis_has_its_sign_and_zero_plain():
    from sim.report.mpl import plt

    fig, ax = plt.subplots()
    ax.set_ylim(-0.3, 0.3)
    charts.in_units(ax.yaxis, "pp")
    ticks = _ticks(fig)
    plt.close(fig)
    assert "\u221220 pp" in ticks and "+20 pp" in ticks and "0" in ticks, ticks


def test_a_narrow_colour_bar_has_no_repeated_ticks(tmp_path, monkeypatch):
    """A sweep's heatmap of win rates from 47.7 to 51.3 %: its colour bar read 48%, 48%, 49%, 49%, … (whole percent
    at half-percent ticks); an edge over a fair share is in pp on its axis, as the table writes it."""
    import pandas as pd

    from sim.report import words
    from sim.report.sweep import heatmap

    rows = [{"policy": "threshold", "a": a, "b": b, "win_rate_seat_0": w, "first_player_advantage": w - 0.5}
            for (a, b), w in {(1, 1): 0.477, (1, 2): 0.477, (2, 1): 0.513, (2, 2): 0.513}.items()]
    from sim.core import atomic

    figs = []
    monkeypatch.setattr(atomic, "save_figure", lambda fig, path, **kw: figs.append(fig))
    for metric in ("win_rate_seat_0", "first_player_advantage"):
        heatmap(pd.DataFrame(rows), "a", "b", metric, {}, tmp_path / f"{metric}.png", "dadox")
        figs[-1].canvas.draw()
        bar = [t.get_text() for t in figs[-1].axes[-1].get_yticklabels() if t.get_text()]
        assert len(bar) >= 3 and len(set(bar)) == len(bar), bar
        assert all(t.endswith("%" if metric.startswith("win") else (" pp", "0")) for t in bar), bar
    assert [charts._pct(v) for v in (0.48, 0.485, 0.49)] == ["48%", "48.5%", "49%"]
    assert [charts._pp(v) for v in (-0.02, -0.015, 0.0, 0.005)] == ["\u22122 pp", "\u22121.5 pp", "0", "+0.5 pp"]
    assert (words.axis_unit("first_player_advantage"), words.axis_unit("win_rate"), words.axis_unit("mean_score")) \
        == ("pp", "%", "")


def test_a_sweep_over_a_named_option_reads_its_names(tmp_path, monkeypatch):
    """A sweep over the dungeon's difficulty: the axis ticks, the legend of other fields and a one-point chart's
    interval read as the pages do (``Leicht``, not ``leicht``; a single point keeps its 95 % interval as a bar)."""
    import pandas as pd

    from sim.core import atomic
    from sim.report.sweep import heatmap, line_chart

    figs = []
    monkeypatch.setattr(atomic, "save_figure", lambda fig, path, **kw: figs.append(fig))
    rows = [{"policy": "vorschlag", "difficulty": d, "options.players": p, "win_rate": w, "win_rate_ci95_low": w - 0.02,
             "win_rate_ci95_high": w + 0.02} for d, p, w in (("leicht", 1, 0.6), ("normal", 1, 0.4),
                                                             ("leicht", 2, 0.5), ("normal", 2, 0.3))]
    table = pd.DataFrame(rows)
    line_chart(table, "difficulty", ["win_rate"], {"difficulty": "leicht", "options.players": 1}, tmp_path / "l.png",
               "dungeon")
    assert _ticks(figs[-1], "x") == ["Leicht", "Normal"]
    heatmap(table, "difficulty", "options.players", "win_rate", {}, tmp_path / "h.png", "dungeon")
    figs[-1].canvas.draw()
    assert [t.get_text() for t in figs[-1].axes[0].get_xticklabels()] == ["Leicht", "Normal"]
    one = table[table["difficulty"] == "leicht"].iloc[:1]
    line_chart(one, "difficulty", ["win_rate"], {"difficulty": "leicht"}, tmp_path / "o.png", "dungeon")
    bars = [c for c in figs[-1].axes[0].containers if c.__class__.__name__ == "ErrorbarContainer"]
    assert len(bars) == 1, "a one-point sweep shows its interval"


def test_ability_lift_says_what_was_played(drawn, tmp_path):
    """The chart was titled 'ability lift (Heuristic vs Greedy, mirror, paired seeds)': it says what ``ability_lift``
    plays (the policy's ability on and off, the opponent's on, one people on both sides, the same seeds) and names
    each ability with its people."""
    lift = {"policy": "heuristic", "opponent": "greedy", "people": ["gruenlinge", "untote", "dunkelelfen"],
            "ability": ["blutrausch", "auferstehung", "schattenschmerz"],
            "lift": [{"value": v, "ci95": [v - 0.02, v + 0.02]} for v in (0.21, 0.11, 0.13)]}
    ability_lift_chart(lift, tmp_path / "a.png")
    ax = drawn[0].axes[0]
    title = " ".join(ax.get_title().split())
    assert title == ("Dungeon24: Heuristic with vs without its people's ability against Greedy with its own, the same "
                     "people on both sides, the same seeds"), title
    assert "mirror" not in title and "paired" not in title
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Blutrausch\n(Grünlinge)", "Auferstehung\n(Untote)",
                                                            "Schattenschmerz\n(Dunkelelfen)"]
    assert ax.get_ylabel() == "score lift (a win 1, a draw ½)"


def test_game_length_ticks_are_whole_turns(drawn, tmp_path):
    """A game lasts whole turns: the Dungeon24 game-length chart had ticks at 7.5, 10.0, 12.5."""
    import numpy as np
    import pandas as pd

    from sim.games import get_game

    g = get_game("dungeon24")
    turns = np.array([5, 7, 8, 8, 9, 10, 11, 12, 14, 16, 19, 23])  # matplotlib's own ticks: 2.5 apart
    t = pd.DataFrame({"turns": turns, "winner": turns % 2, "people0": 0, "people1": 1})
    g.charts({"greedy": t}, tmp_path, g.check_options({}), g.load())
    ticks = _ticks(drawn[0], "x")
    assert ticks and all(x.lstrip("\u2212-").isdigit() for x in ticks), ticks


def test_a_clipped_game_length_says_its_last_bar_and_ticks_whole_turns(drawn, tmp_path):
    """The two turn-based games' lengths clip the longest 0.5 % into the last bar, an unlabelled spike at 41 turns; and
    their turns read 12.5. The axis now says what the last bar holds, and the ticks are whole turns."""
    import numpy as np
    import pandas as pd

    from sim.games.dadox.charts import game_length

    rng = np.random.default_rng(1)
    t = pd.DataFrame({"seat": 0, "game_turns": rng.integers(5, 30, 2000)})
    game_length({"threshold": t}, tmp_path)
    fig = drawn[-1]
    fig.canvas.draw()
    ax = fig.axes[0]
    assert "the last bar:" in ax.get_xlabel() and "or more" in ax.get_xlabel(), ax.get_xlabel()
    assert all(float(x).is_integer() for x in ax.get_xticks()), ax.get_xticks()
