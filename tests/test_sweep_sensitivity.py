"""Sensitivity of a sweep table: base point, elasticities on exact synthetic tables, tornado chart."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from sim.experiments.sensitivity import base_point, elasticities, tornado_chart


def table() -> pd.DataFrame:
    """m = 2 a + 10 b (+ 1 for policy y) over a in {1, 2, 4}, b in {1, 3}; q = a * b."""
    rows = []
    for pol, shift in (("x", 0.0), ("y", 1.0)):
        for a in (1, 2, 4):
            for b in (1, 3):
                m = 2 * a + 10 * b + shift
                rows.append({"policy": pol, "a": a, "b": b, "m": m, "m_ci95_low": m - 0.5, "m_ci95_high": m + 0.5,
                             "q": float(a * b), "q_ci95_low": math.nan, "q_ci95_high": math.nan})
    return pd.DataFrame(rows)


def test_base_point_prefers_the_base_config_value():
    t = table()
    assert base_point(t, ["a", "b"], {"a": 4, "b": 2}) == {"a": 4, "b": 1}  # b=2 is not in the grid: middle value
    assert base_point(t, ["a", "b"]) == {"a": 2, "b": 1}


def test_elasticities_are_central_differences_around_the_base():
    s = elasticities(table(), ["a", "b"], ["m", "q"], {"a": 2, "b": 1})
    r = s[(s.policy == "x") & (s.metric == "m") & (s.field == "a")].iloc[0]
    # around a=2 (b=1): m(1)=12, m(2)=14, m(4)=18 -> slope (18-12)/(4-1) = 2, elasticity 2 * 2 / 14
    assert r.slope == pytest.approx(2.0) and r.elasticity == pytest.approx(4 / 14)
    assert (r.low, r.high, r.base, r.swing) == (12.0, 18.0, 14.0, 6.0)
    assert (r.low_ci95_low, r.high_ci95_high) == (11.5, 18.5)
    r = s[(s.policy == "y") & (s.metric == "m") & (s.field == "b")].iloc[0]
    # b at its lowest grid value: one-sided difference b=1 -> 3 at a=2: m = 15 -> 35
    assert r.slope == pytest.approx(10.0) and r.elasticity == pytest.approx(10 * 1 / 15)
    r = s[(s.policy == "x") & (s.metric == "q") & (s.field == "a")].iloc[0]
    assert r.elasticity == pytest.approx(1.0)  # q = a*b is proportional to a
    assert len(s) == 2 * 2 * 2


def test_non_numeric_fields_are_skipped_and_tornado_is_written(tmp_path):
    t = table()
    t["mode"] = "forced"
    s = elasticities(t, ["a", "mode"], ["m"])
    assert set(s["field"]) == {"a"}
    path = tornado_chart(elasticities(t, ["a", "b"], ["m"]), "m", tmp_path / "t.png")
    assert path.is_file() and path.stat().st_size > 1000
    assert tornado_chart(s, "nothing", tmp_path / "n.png") is None


def test_tornado_names_fields_metric_and_policies_in_words(tmp_path, monkeypatch):
    """What a person reads on the chart: the words given for each code, a share's axis in %."""
    from sim.core import atomic

    drawn = []
    monkeypatch.setattr(atomic, "save_figure", lambda fig, path, **kw: drawn.append(fig))
    t = table()
    t["m"] = t["m"] / 100  # a share
    said = {"a": "Elite attack", "b": "Joker price", "m": "wins", "x": "Greedy", "y": "Vorschlag"}
    tornado_chart(elasticities(t, ["a", "b"], ["m"]), "m", tmp_path / "t.png", said, percent=True)
    (fig,) = drawn
    texts = [fig._suptitle.get_text()]
    for ax in fig.axes:
        fig.canvas.draw()
        texts += [ax.get_title(), ax.get_xlabel(), *(x.get_text() for x in ax.get_yticklabels()),
                  *(x.get_text() for x in ax.get_xticklabels())]
    text = "\n".join(texts)
    for code_word in said.values():
        assert code_word in text
    assert "%" in " ".join(x.get_text() for x in fig.axes[0].get_xticklabels())
    assert "base 14.0 %" in fig.axes[0].get_xlabel()
    ticks = [x.get_text().split("\n")[0] for ax in fig.axes for x in ax.get_yticklabels()]
    assert set(ticks) == {"Elite attack", "Joker price"}  # no code name left on an axis


def test_a_line_chart_over_a_game_option_names_it_and_ticks_whole_numbers(tmp_path, monkeypatch):
    """A sweep over ``options.players``: the axis reads "players" and its ticks are whole tables (no 2.5 players)."""
    from sim.core import atomic
    from sim.report.sweep import line_chart

    drawn = []
    monkeypatch.setattr(atomic, "save_figure", lambda fig, path, **kw: drawn.append(fig))
    t = pd.DataFrame({"policy": "greedy", "options.players": [1, 2, 3, 4], "mean_score": [208.1, 207.4, 207.5, 207.5],
                      "mean_score_ci95_low": [206.0] * 4, "mean_score_ci95_high": [209.0] * 4})
    line_chart(t, "options.players", ["mean_score"], {"options.players": 1}, tmp_path / "l.png", game="kniffel")
    (fig,) = drawn
    fig.canvas.draw()
    ax = fig.axes[0]
    assert ax.get_xlabel() == "players" and "options" not in fig._suptitle.get_text()
    ticks = [x.get_text() for x in ax.get_xticklabels() if 1 <= x.get_position()[0] <= 4]
    assert ticks == ["1", "2", "3", "4"]


def test_the_sensitivity_table_fits_the_page():
    """The field's value and the metric's there in one cell each, at the base and its neighbours (eleven columns ran
    off the page); the table scrolls in its own box where it is still wider."""
    from sim.report.sweep import sensitivity_html

    page = sensitivity_html(elasticities(table(), ["a", "b"], ["m"], {"a": 2, "b": 1}), "kniffel")
    assert page.startswith("<div class='wide'><table>") and page.count("<th") == 8
    assert "<td>2 → 14</td><td>1 → 12</td><td>4 → 18</td>" in page  # around a = 2: m(1) = 12, m(2) = 14, m(4) = 18


def test_the_table_shows_the_points_its_slope_is_taken_between():
    """Normal's LP factor 1.0 .. 1.3 around 1.17 showed 'below 1 → 35.4 %, above 1.3 → 21.7 %, slope −48.0 pp': the
    grid's ends beside a slope taken between the neighbours 1.1 and 1.3. The cells are the neighbours now, and a base
    at the grid's end says so."""
    from sim.report.sweep import sensitivity_html

    rows = [{"policy": "x", "a": a, "m": float(a * a), "m_ci95_low": a * a - 0.5, "m_ci95_high": a * a + 0.5}
            for a in (1, 2, 4, 8)]
    sens = elasticities(pd.DataFrame(rows), ["a"], ["m"], {"a": 2})
    (r,) = sens.to_dict("records")
    assert (r["below_field_value"], r["above_field_value"], r["low_field_value"], r["high_field_value"]) == (1, 4, 1, 8)
    assert r["slope"] == (16 - 1) / (4 - 1)  # between the cells the page shows
    page = sensitivity_html(sens, "kniffel")
    assert "<td>2 → 4</td><td>1 → 1</td><td>4 → 16</td>" in page and "8 → 64" not in page
    top = sensitivity_html(elasticities(pd.DataFrame(rows), ["a"], ["m"], {"a": 8}), "kniffel")
    assert "<td>8 → 64</td><td>4 → 16</td><td>— (the grid's end)</td>" in top


def test_a_shares_slope_keeps_its_significant_digits():
    """A win rate falling 30 pp over a field's range of 10,000 read "slope per field unit 0.0 pp" (a share's one
    decimal): its four significant digits in pp now, as a count's slope has them."""
    from sim.report.sweep import sensitivity_html

    rows = [{"policy": "x", "a": a, "win_rate": 0.6 - 0.3 * a / 10_000, "win_rate_ci95_low": 0.5,
             "win_rate_ci95_high": 0.7} for a in (0, 5_000, 10_000)]
    page = sensitivity_html(elasticities(pd.DataFrame(rows), ["a"], ["win_rate"], {"a": 5_000}), "kniffel")
    assert "<td>\u22120.003 pp</td>" in page and "0.0 pp" not in page


def test_a_tornado_end_that_is_the_base_says_so(tmp_path, monkeypatch):
    """The title promises a blue bar for the lowest grid value; where that value is the base point it has none, and
    its tick says '(base)' instead of leaving the reader to look for it."""
    from matplotlib.axes import Axes

    from sim.experiments.sensitivity import tornado_chart

    ticks = []
    real = Axes.set_yticklabels
    monkeypatch.setattr(Axes, "set_yticklabels", lambda ax, labels, **k: ticks.append(list(labels))
                        or real(ax, labels, **k))
    sens = pd.DataFrame([{"metric": "win_rate", "policy": "greedy", "field": "a", "swing": 0.1, "base": 0.5,
                          "base_field_value": 1, "low_field_value": 1, "low": 0.5, "high_field_value": 4,
                          "high": 0.6}])
    assert tornado_chart(sens, "win_rate", tmp_path / "t.png", percent=True).is_file()
    assert ticks == [["a\n1 (base) → 4"]]
