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
