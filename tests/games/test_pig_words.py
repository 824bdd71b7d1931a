"""Pig in words on its charts and wherever a policy is named (issue 31): its own labels module, never a code."""

from __future__ import annotations

import numpy as np

from sim.report import words


def test_policies_named_by_the_labels_module():
    assert words.policy_name("pig", "hold-20") == "Hold 20"
    assert words.policy_name("pig", "optimal-win") == "Optimal win"


def test_pig_hold_chart_names_policies_in_words(drawn, tmp_path):
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


def test_a_play_without_an_opponent_names_no_empty_options(tmp_path):
    """The page heading ended in an empty 'options' where the opponent option was left unset."""
    from tests.conftest import cli_here

    done = cli_here("play", "pig", "--policy", "hold-20", "--n", "50", "--out", str(tmp_path / "p"))
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "p" / "report.html").read_text(encoding="utf-8")
    heading = page.split("<p class='muted'>", 1)[1].split("</p>", 1)[0]
    assert "<b>runs</b> 50" in heading and "options" not in heading, heading


def test_a_moved_hold_at_is_said_beside_hold_20():
    """``--set policies.hold_at=25`` played "Hold 20" holding at 25 with nothing but the config saying so."""
    from tests.conftest import cli_here

    done = cli_here("play", "pig", "--policy", "hold-20", "--set", "policies.hold_at=25", "--n", "50", "--no-report")
    assert done.returncode == 0 and done.stdout.splitlines()[1].startswith("Hold 20 (holding at 25): "), done.stdout
    both = cli_here("play", "pig", "--policy", "optimal-turn,hold-20", "--set", "policies.hold_at=25", "--n", "50",
                    "--no-report")
    assert "(Hold 20 holding at 25; share of games)" in both.stdout.splitlines()[1], both.stdout
    plain = cli_here("play", "pig", "--policy", "hold-20", "--n", "50", "--no-report")
    assert "holding" not in plain.stdout
