"""Issue 31: a chart's shares read in % and its differences of shares in pp, as the pages write them (a tick label
``0.25`` on a win-rate lift reads as a quarter of something)."""

from __future__ import annotations

import pytest

from sim.games.dungeon24.analysis import ability_lift_chart
from sim.report import charts


def _ticks(fig, which="y"):
    fig.canvas.draw()
    ax = fig.axes[0]
    got = ax.get_yticklabels() if which == "y" else ax.get_xticklabels()
    return [t.get_text() for t in got if t.get_text()]


@pytest.fixture
def drawn(monkeypatch):
    """The figures a chart function hands to ``charts.save``, kept open for reading (nothing written)."""
    figs = []

    def keep(fig, path, tight=True):
        figs.append(fig)
        return path

    monkeypatch.setattr(charts, "save", keep)
    return figs


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


def test_pig_hold_chart_names_policies_in_words(drawn, tmp_path):
    import numpy as np

    from sim.games.pig.charts import hold_totals

    g = 12
    turn_hold = np.zeros((g, g), dtype=bool)
    turn_hold[:, 5:] = True
    win_hold = np.zeros((g, g, g), dtype=bool)
    win_hold[:, :, 4:] = True
    hold_totals(turn_hold, win_hold, 5, tmp_path, others=(0,))
    fig = drawn[0]
    said = [t.get_text() for ax in fig.axes for t in [ax.title, ax.xaxis.label, ax.yaxis.label]]
    said += [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    assert "Optimal win, other at 0 points" in said and "Optimal turn" in said and "Hold 20 (holds at 5 points)" in said
    assert not [s for s in said if "optimal-" in s or "hold-20" in s], said
