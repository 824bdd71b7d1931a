"""Kniffel two-player results (the seed's "Dice Party ist ein Würfelspiel für 2 Spieler") for the balance report.

Tolerances are 4 standard errors of the compared quantity (false alarm < 1e-4).
"""

from __future__ import annotations

import base64
import json
import math

import numpy as np
import pytest

from sim.core.batch import run_batch
from sim.games import get_game
from sim.games.kniffel.labels import policy_label
from tests.conftest import cli_here

GAME = get_game("kniffel")
CFG = GAME.load()
N = 4000


def test_two_player_rates_seat_advantage_and_ties():
    res = GAME.two_player(CFG, N, 3)
    rows = {tuple(r["seats"]): r for r in res["pairings"]}
    assert set(rows) == {("optimal", "optimal"), ("optimal", "greedy"), ("greedy", "optimal"), ("greedy", "greedy")}
    for seats, r in rows.items():
        w1, w2, tie = (r[k]["value"] for k in ("win_rate_seat_1", "win_rate_seat_2", "tie_rate"))
        assert abs(w1 + w2 + tie - 1) < 1e-12  # every game has exactly one outcome
        assert abs(r["seat_advantage"]["value"] - (w1 - w2)) < 1e-12
        lo, hi = r["seat_advantage"]["ci95"]
        if seats[0] == seats[1]:  # independent sheets under one policy: no seat advantage
            se = (hi - lo) / 2 / 1.96
            assert abs(r["seat_advantage"]["value"]) < 4 * se, r
        assert r["labels"] == [policy_label(p) for p in seats]
        assert -1 <= lo <= r["seat_advantage"]["value"] <= hi <= 1
    opt = rows["optimal", "greedy"]["win_rate_seat_1"]["value"]
    assert opt > 0.5 + 4 * math.sqrt(0.25 / N)  # the maximum expected score also wins more often against greedy



def test_one_game_gives_no_seat_advantage_beyond_100_pp_and_no_finding():
    """After one game the seat advantage read −100.0 pp [−139.7, −60.3], and ``findings kniffel --n 1`` called it a
    seat advantage: Newcombe's paired interval stays within ±100 pp and, after one game, holds 0."""
    for r in GAME.two_player(CFG, 1, 1)["pairings"]:
        lo, hi = r["seat_advantage"]["ci95"]
        assert -1 <= lo <= 0 <= hi <= 1, r
    done = cli_here("findings", "kniffel", "--n", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert not [f for f in json.loads(done.stdout)["findings"] if f["kind"] == "seat_advantage"]

def test_tie_rate_matches_independent_score_distributions():
    """Seats play independent sheets, so P(tie) = sum over s of P(seat 1 scores s) P(seat 2 scores s)."""
    t = run_batch(GAME, CFG, ["greedy", "greedy"], 20000, 9, GAME.check_options({"players": 2}), progress=False).table
    s0 = t[t["seat"] == 0]["score"].to_numpy()
    s1 = t[t["seat"] == 1]["score"].to_numpy()
    ties = float(np.mean(s0 == s1))
    hi = max(s0.max(), s1.max()) + 1
    p0 = np.bincount(s0, minlength=hi) / s0.size
    p1 = np.bincount(s1, minlength=hi) / s1.size
    expected = float(p0 @ p1)
    assert abs(ties - expected) < 4 * math.sqrt(expected * (1 - expected) / s0.size) + 0.1 * expected
    assert t.groupby("run")["tie"].any().mean() == ties


def test_balance_report_shows_two_player_games(tmp_path):
    """The ``dicesim balance`` command (in this process: what it writes is the point) puts the two-player results
    beside the solitaire scores."""
    # a small n: this checks what the page shows, not the numbers (those are test_two_player_rates_...'s)
    r = cli_here("balance", "--games", "kniffel", "--n", "200", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "kniffel" / "report.html").read_text(encoding="utf-8")
    png = (tmp_path / "kniffel" / "two_player.png").read_bytes()
    assert base64.b64encode(png).decode() in page, "two-player chart not embedded in the game page"
    assert "maximises the expected score" in page
    assert (tmp_path / "kniffel" / "two_player.png").stat().st_size > 5000
    data = json.loads((tmp_path / "kniffel" / "two_player.json").read_text())
    assert data["n"] == 200 and len(data["pairings"]) == 4
    assert data["pairings"][0]["labels"] == ["optimal (maximum expected score)"] * 2


# --- the replay of a game of several seats names the winner -------------------------------------------------------

def _table(policies: list[str], n: int, seed: int):
    opts = GAME.check_options({"players": len(policies)})
    return run_batch(GAME, CFG, policies, n, seed, opts, progress=False).table


def _expected_result(rows) -> str:
    """The sentence built from the per-run table's rows of one run (seat order), by its win / tie columns."""
    name = {int(r.seat): f"seat {int(r.seat) + 1} ({r.policy.capitalize()})" for r in rows.itertuples()}  # in words
    score = {int(r.seat): int(r.score) for r in rows.itertuples()}
    tops = [int(r.seat) for r in rows.itertuples() if r.win or r.tie]
    rest = sorted((s for s in score if s not in tops), key=lambda s: (-score[s], s))
    if len(tops) == 1:
        w = tops[0]
        return (f"S{name[w][1:]} wins " + " : ".join(str(score[s]) for s in [w, *rest])
                + " against " + ", ".join(name[s] for s in rest))
    return (f"Tie: {', '.join(name[s] for s in tops[:-1])} and {name[tops[-1]]} share the top score "
            f"{score[tops[0]]}" + "".join(f"; {name[s]} {score[s]}" for s in rest))


def _check_replay(policies: list[str], seed: int, run: int, rows) -> None:
    opts = GAME.check_options({"players": len(policies)})
    text = GAME.replay(CFG, policies, seed, run, opts)
    assert text.splitlines()[-1] == _expected_result(rows)
    finals = [int(x.split(": ")[1]) for x in text.splitlines() if x.startswith("Final score: ")]
    assert finals == rows["score"].tolist()


def test_two_player_replay_ends_with_the_winner_and_the_table_scores():
    """Runs of optimal against greedy (seed 1) won by each seat: the replay's last line names the winner and both
    scores, equal to the per-run table's scores and win column for that run."""
    t = _table(["optimal", "greedy"], 30, 1)
    found = set()
    for run, rows in t.groupby("run"):
        seat = int(rows[rows["win"]]["seat"].iloc[0]) if rows["win"].any() else None
        if seat is not None and seat not in found:
            _check_replay(["optimal", "greedy"], 1, int(run), rows.reset_index(drop=True))
            found.add(seat)
    assert found == {0, 1}


def test_replay_of_a_tie_says_tie():
    """Greedy against greedy: the first tied run of seed 4 (two seats), and of three seats a run with a shared top
    score above a third seat and one won outright."""
    t = _table(["greedy", "greedy"], 2000, 4)
    tied = t[t["tie"]]["run"]
    assert len(tied) > 0
    run = int(tied.iloc[0])
    rows = t[t["run"] == run].reset_index(drop=True)
    assert _expected_result(rows).startswith("Tie: seat 1 (Greedy) and seat 2 (Greedy) share the top score")
    _check_replay(["greedy", "greedy"], 4, run, rows)
    t3 = _table(["greedy", "greedy", "random"], 3000, 4)
    per_run = t3.groupby("run")
    shared = [r for r, g in per_run if g["tie"].sum() == 2]
    won = [r for r, g in per_run if g["win"].any()]
    assert shared and won
    for run in (shared[0], won[0]):
        _check_replay(["greedy", "greedy", "random"], 4, int(run), t3[t3["run"] == run].reset_index(drop=True))


def test_cli_replay_names_the_winner_in_text_and_json():
    """The ``dicesim replay --players 2`` command (in this process): the last line of the text, and in ``--json``
    the facts (winner's seat, counted from 0 as the table's ``seat``; both scores; the same sentence)."""
    t = _table(["optimal", "greedy"], 4, 1)
    rows = t[t["run"] == 3].reset_index(drop=True)
    cmd = ["replay", "kniffel", "--seed", "1", "--run", "3", "--policy", "optimal,greedy", "--players", "2"]
    shown = cli_here(*cmd)
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert text.rstrip("\n").splitlines()[-1] == _expected_result(rows)
    data = json.loads(cli_here(*cmd, "--json").stdout)
    facts = data["facts"]
    assert facts["scores"] == rows["score"].tolist() == [r["score"] for r in data["table_rows"]]
    win = rows[rows["win"]]["seat"].tolist()
    assert facts["winner_seat"] == (win[0] if win else None)
    assert facts["tied_seats"] == rows[rows["tie"]]["seat"].tolist()
    assert facts["result"] == _expected_result(rows) == data["text"].splitlines()[-1]


def test_a_mixed_table_says_each_policys_mean_score():
    """The table's mean score pools its policies ('Optimal vs Greedy: 230.7 points' belongs to neither): each policy's
    own mean score stands beside it, named in words."""
    import sim
    from sim.report import words

    r = sim.play("kniffel", "optimal,greedy", n=400, players=2)
    m, t = r.summary["metrics"], r.table
    for p in ("optimal", "greedy"):
        assert m[f"mean_score_{p}"]["value"] == t.loc[t["policy"] == p, "score"].mean()
    assert m["mean_score_optimal"]["ci95"][0] > m["mean_score_greedy"]["ci95"][1]
    assert words.metric_name("kniffel", "mean_score_greedy") == "Greedy's mean score"
    assert words.metric_label("kniffel", "kniffel_rate") == "at least one Kniffel rolled"


def test_the_upper_bonus_rate_is_reaching_the_threshold_whatever_it_pays():
    """With ``bonus.value = 0`` the rate read 0 % (it counted bonus points paid) where 9 % of the sheets reached 63:
    a sweep, calibrate or tune over the bonus' value jumped at 0. It is the share that reaches the threshold, in the
    metric and in the paired differences alike."""
    import sim

    for value in (0, 35):
        r = sim.play("kniffel", "greedy", n=2000, set=[f"bonus.value={value}"])
        reached = float((r.table["upper_sum"] >= 63).mean())
        assert r.summary["metrics"]["upper_bonus_rate"]["value"] == reached > 0.05
    c = sim.compare("kniffel", ["greedy", "random"], n=500, set=["bonus.value=0", "bonus.threshold=40"])
    t = {p: c.tables[p] for p in ("greedy", "random")}
    d = c.summary["paired"]["upper_bonus_rate: random - greedy"]["value"]
    assert d == pytest.approx(float((t["random"]["upper_sum"] >= 40).mean() - (t["greedy"]["upper_sum"] >= 40).mean()))
    assert d < 0
