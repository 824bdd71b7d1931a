"""Dungeon24 kernel, policies and Game: determinism, replay, options, and statistics with fixed seeds.

Statistical tolerances are 4 standard errors of the sampled quantity (false alarm < 1e-4).
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from sim.core import stats
from sim.core.batch import run_batch
from sim.core.config import DicesimError
from sim.games import get_game
from sim.games.dungeon24 import game as G
from sim.games.dungeon24 import play

GAME = get_game("dungeon24")
CFG = GAME.load()
OPTS = GAME.check_options({"opponent": "greedy", "people": "untote", "opponent_people": "dunkelelfen"})


def test_seat_policies_and_options():
    assert GAME.seat_count({}) == 2
    assert GAME.seat_policies("heuristic", OPTS) == ["heuristic", "greedy"]
    assert GAME.seat_policies("random,exact-exchange", OPTS) == ["random", "exact-exchange"]
    assert GAME.compare_plan(["random", "greedy"], OPTS) == [("random", ["random", "greedy"]),
                                                             ("greedy", ["greedy", "greedy"])]
    for bad in ({"opponent": "smart"}, {"people": "orks"}, {"opponent_people": ""}, {"arrangement": "1,2,3"},
                {"players": 2}):
        with pytest.raises(DicesimError):
            GAME.check_options(bad)
    with pytest.raises(DicesimError):
        GAME.seat_policies("nope", OPTS)


def test_table_columns_and_consistency():
    t = pd.DataFrame(GAME.simulate(CFG, ["greedy", "greedy"], 3, 0, 3000, OPTS))
    for c in ("winner", "first_attacker", "turns", "lp0", "lp1", "wins0", "wins1", "ability_uses0",
              "ability_uses1", "boss_lost0", "boss_lost1", "end"):
        assert c in t
    assert set(t["winner"]) <= {0, 1} and set(t["first_attacker"]) == {0, 1}
    assert (t["people0"] == 1).all() and (t["people1"] == 2).all()
    lp_end = t["end"] == 1
    loser_lp = np.where(t["winner"] == 0, t["lp1"], t["lp0"])
    assert (loser_lp[lp_end] <= 0).all() and (t[["lp0", "lp1"]].min(axis=1)[~lp_end] > 0).all()
    assert (t["ability_uses0"] <= t["charges0"]).all()
    # Untote charges come from wins: at most one per 3 wins
    assert (t["charges0"] <= t["wins0"] // 3).all()


def test_batch_identical_for_chunk_sizes():
    a = run_batch(GAME, CFG, ["heuristic", "greedy"], 6000, 11, OPTS, chunk=1000, progress=False).table
    b = run_batch(GAME, CFG, ["heuristic", "greedy"], 6000, 11, OPTS, chunk=4096, progress=False).table
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("pols", [["exact-exchange", "random"], ["random", "heuristic"], ["greedy", "expectimax"]])
def test_replay_is_the_batch_run(pols):
    t = GAME.simulate(CFG, pols, 21, 0, 40, OPTS)
    for run in (0, 17, 39):
        text = GAME.replay(CFG, pols, 21, run, OPTS)
        last = text.splitlines()[-1]
        w = int(t["winner"][run])
        assert f"end after {int(t['turns'][run])} turns" in last
        assert (f"seat {w + 1} wins" in last) if w >= 0 else ("draw" in last)  # seats named 1 and 2, as on pages
        assert f"LP {int(t['lp0'][run])} / {int(t['lp1'][run])}" in last


def test_fixed_arrangement_option():
    o = GAME.check_options({**OPTS, "arrangement": "4,3,2,1,0"})
    text = GAME.replay(CFG, ["greedy", "greedy"], 1, 0, o)
    deck = CFG.peoples.untote.cards
    assert f"front {deck[4].name} ({deck[4].a}/{deck[4].v}), {deck[3].name}" in text.splitlines()[1]


def test_the_arrangement_is_read_as_every_other_name():
    """``--arrangement Search`` was refused where ``--difficulty Normal`` and ``--policy Greedy`` are taken; a card
    order with spaces was kept with them (the report echoed `` 4, 3,2,1,0``)."""
    assert GAME.check_options({**OPTS, "arrangement": " Search "})["arrangement"] == "search"
    assert GAME.check_options({**OPTS, "arrangement": "POLICY"})["arrangement"] == "policy"
    assert GAME.check_options({**OPTS, "arrangement": " 4, 3,2,1,0"})["arrangement"] == "4,3,2,1,0"
    with pytest.raises(DicesimError, match="permutation of 0..4"):
        GAME.check_options({**OPTS, "arrangement": "searched"})


def test_metrics_and_describe_are_json():
    t = pd.DataFrame(GAME.simulate(CFG, ["heuristic", "greedy"], 2, 0, 4000, OPTS))
    m = GAME.metrics(t, OPTS, CFG)
    for k in ("win_rate", "first_attacker_win_rate", "mean_turns", "ability_uses0", "ability_used_rate1",
              "boss_lost_rate0", "end_lp_rate", "end_no_creatures_rate"):
        assert "value" in m[k]
    assert m["win_rate"]["ci95"][0] < m["win_rate"]["value"] < m["win_rate"]["ci95"][1]
    json.dumps(m)
    d = GAME.describe(CFG, OPTS)
    json.dumps(d)
    assert d["exchange_by_advantage"]["0"]["hit"] == pytest.approx(15 / 36)
    assert d["decks"]["untote"]["cards"][5]["boss"] is True


def test_charts(tmp_path):
    t = pd.DataFrame(GAME.simulate(CFG, ["greedy", "greedy"], 2, 0, 2000, OPTS))
    paths = GAME.charts({"greedy": t}, tmp_path, OPTS, CFG)
    # one people pairing (the options fix it): the game length only, no matchup heatmap with one of nine cells
    assert [p.name for p in paths] == ["dungeon24_game_length.png"]
    assert all(p.exists() and p.stat().st_size > 1000 for p in paths)


# --- statistics (fixed seeds, tolerance = 4 standard errors) --------------------------------------


def test_mirror_match_fair_up_to_first_attacker():
    """Identical policies and people: seat 0 wins half (the roll-off is fair); seat-swapped paired seeds cancel
    the first-attacker advantage exactly; P(first attacker wins) is the same in both seatings."""
    n = 40000
    o = GAME.check_options({"opponent": "greedy", "people": "gruenlinge", "opponent_people": "gruenlinge"})
    t = GAME.simulate(CFG, ["greedy", "greedy"], 7, 0, n, o)
    w = t["winner"]
    tol = 4 * math.sqrt(0.25 / n)
    assert abs((w == 0).mean() - 0.5) < tol
    assert abs((t["first_attacker"] == 0).mean() - 0.5) < tol
    fa = (w == t["first_attacker"]).mean()
    assert fa > 0.5 + tol  # attacking first is an advantage in this game
    m = G.matchup(CFG, "greedy", "greedy", 4000, 7)
    assert m["mirror_diagonal"]  # a people against itself under one policy: 50 % by symmetry, no interval to show
    for i in range(3):
        assert m["win_rate"][i][i] == 0.5 and m["ci95"][i][i] == [0.5, 0.5]
        assert 0.5 < m["first_attacker_win_rate"][i][i] < 1
        for j in range(3):
            assert m["win_rate"][i][j] + m["win_rate"][j][i] == pytest.approx(1.0, abs=1e-12)


def test_policies_beat_random():
    n = 6000
    o = GAME.check_options({"opponent": "random"})
    tol = 4 * math.sqrt(0.25 / n)
    for pol in ("greedy", "heuristic", "exact-exchange"):
        w = GAME.simulate(CFG, [pol, "random"], 13, 0, n, o)["winner"]
        assert (w == 0).mean() > 0.5 + tol, pol


def test_heuristic_and_exact_exchange_beat_greedy():
    n = 6000
    tol = 4 * math.sqrt(0.25 / n)
    for pol in ("heuristic", "exact-exchange"):
        w = GAME.simulate(CFG, [pol, "greedy"], 17, 0, n, OPTS)["winner"]
        assert (w == 0).mean() > 0.5 + tol, pol


def test_expectimax_beats_greedy():
    """The two-turn search plays at least as well as a sensible bot: it beats greedy clearly (about 70 % of the games:
    600 games put that 10 standard errors above the 4-standard-error bound at 1/2; the search is slow to play)."""
    n = 600
    w = GAME.simulate(CFG, ["expectimax", "greedy"], 23, 0, n, OPTS)["winner"]
    assert (w == 0).mean() > 0.5 + 4 * math.sqrt(0.25 / n)


def test_matchup_intervals_cover_the_unpaired_estimate():
    """The paired matchup cell agrees with plain unpaired games of both seatings within sampling error."""
    m = G.matchup(CFG, "heuristic", "greedy", 3000, 19)
    i, j = 1, 0  # Untote (heuristic) vs Grünlinge (greedy)
    n = 8000
    a = G.run_games(CFG, ["heuristic", "greedy"], [i, j], 101, 0, n)[:, 0] == 0
    b = G.run_games(CFG, ["greedy", "heuristic"], [j, i], 202, 0, n)[:, 0] == 1
    p = (a.sum() + b.sum()) / (2 * n)
    lo, hi = m["ci95"][i][j]
    half = (hi - lo) / 2
    se = math.sqrt((half / 1.96) ** 2 + p * (1 - p) / (2 * n))
    assert abs(m["win_rate"][i][j] - p) < 4 * se
    assert 0 < half < 0.03



def test_matchup_intervals_stay_within_0_and_100_percent_on_few_games():
    """Two games per cell and seating read '75.0 % [26.0, 124.0]' and, where both pairs scored alike, a width of 0
    ('100.0 % [100.0, 100.0]')."""
    m = G.matchup(CFG, "heuristic", "greedy", 2, 5)
    for row, cis in zip(m["win_rate"], m["ci95"], strict=True):
        for v, (lo, hi) in zip(row, cis, strict=True):
            assert 0 <= lo <= v <= hi <= 1 and hi - lo > 0.3, (v, lo, hi)
    assert stats.score_mean(np.array([1.0, 1.0]))["ci95"] == pytest.approx(list(stats.wilson(2, 2)))
    assert stats.score_mean(np.array([1.0, 0.5]))["ci95"][1] == 1.0

@pytest.mark.slow
def test_arrangement_search_finds_a_pyramid_no_worse_than_the_policy():
    res = G.best_arrangement(CFG, "greedy", "greedy", "gruenlinge", "untote", n=1000, seed=3)
    assert len(res["all"]) == 120 and res["all"][0]["win_rate"] >= res["all"][-1]["win_rate"]
    policy_perm = np.empty(5, np.int64)
    from policies.dungeon24.bots import GREEDY, arrange

    arrange(GREEDY, G.frozen(CFG)[1][0], np.zeros(1, np.uint64), policy_perm)
    rates = {tuple(r["arrangement"]): r["win_rate"] for r in res["all"]}
    assert res["search_max"] >= rates[tuple(policy_perm)]


def test_arrangement_search_reports_fresh_runs():
    """The reported win rate is the chosen pyramid re-measured on runs the search never played (not the maximum of
    120 noisy estimates), and an independent measurement on other runs agrees with it within sampling error."""
    n, n_check = 100, 600
    res = G.best_arrangement(CFG, "greedy", "greedy", "gruenlinge", "untote", n=n, seed=5, n_check=n_check)
    perm = tuple(res["arrangement"])
    assert res["search_max"] == res["all"][0]["win_rate"] == max(r["win_rate"] for r in res["all"])
    fresh = G._seat_scores(CFG, "greedy", "greedy", 0, 1, 5, G.SEARCH_START + n, n_check, perm)
    assert res["win_rate"]["value"] == pytest.approx(fresh.mean(), abs=1e-12)
    search = G._seat_scores(CFG, "greedy", "greedy", 0, 1, 5, G.SEARCH_START, n, perm)
    assert res["search_max"] == pytest.approx(search.mean(), abs=1e-12)
    other = G._seat_scores(CFG, "greedy", "greedy", 0, 1, 77, 0, 2000, perm)
    se = math.sqrt(fresh.var() / n_check + other.var() / 2000)
    assert abs(res["win_rate"]["value"] - other.mean()) < 4 * se
    assert res["lift"]["ci95"][0] <= res["lift"]["value"] <= res["lift"]["ci95"][1]


def test_a_play_with_a_searched_order_says_which_figure_is_its_answer(tmp_path):
    """``play --arrangement search`` prints the search's check before the play's own figures: the line says the order
    was found before the play and that the play below plays it on its own dice (three win figures, one answer)."""
    from tests.conftest import cli_here

    r = cli_here("play", "dungeon24", "--policy", "greedy", "--arrangement", "search", "--n", "300",
                 "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stderr.splitlines() if ln.startswith("card order found by search"))
    assert line.startswith("card order found by search, before the play: ") and "% [" in line, line
    assert line.endswith("the play below plays this order on its own dice"), line
    assert "card order: best by search" in r.stdout and "Greedy wins " in r.stdout, r.stdout


def test_columns_constant():
    assert play.N_COL == len(play.COLUMNS)


def test_ability_lift_is_paired_and_positive():
    """Switching the people ability off on the same seeds: every ability helps (interval above 0)."""
    from sim.games.dungeon24.game import GAME, ability_lift

    r = ability_lift(GAME.load(), "heuristic", "greedy", 1500, 4)
    assert r["people"] == ["gruenlinge", "untote", "dunkelelfen"]
    assert r["ability"] == ["blutrausch", "auferstehung", "schattenschmerz"]  # what the lift is of: findings name it
    for d in r["lift"]:
        assert d["ci95"][0] > 0, r["lift"]


def test_solve_says_it_searched_by_play():
    """``dicesim solve dungeon24`` is an arrangement search measured by play: its line names the pyramid and its
    score with an interval, not 'optimal expected value 0.5145000' as if it were exact."""
    from tests.conftest import cli_here

    r = cli_here("solve", "dungeon24")
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip()
    assert line.startswith("Dungeon24: best pyramid found ") and "optimal" not in line, line
    assert " scores " in line and "% [" in line and "not an exact solve" in line, line


def test_the_games_own_metrics_read_in_words():
    """"mean wins (seat 1) 3.78 duels", "end LP rate", "ability used rate": the game's counts and rates named."""
    from sim.report import words

    said = {m: words.metric_label("dungeon24", m) for m in ("mean_wins0", "end_lp_rate", "ability_used_rate1",
                                                            "end_turn_limit_rate", "boss_lost_rate0")}
    assert said == {"mean_wins0": "duels won (seat 1)", "end_lp_rate": "games ended by life points",
                    "ability_used_rate1": "games with the ability used (seat 2)",
                    "end_turn_limit_rate": "games ended at the turn limit",
                    "boss_lost_rate0": "games whose boss fell (seat 1)"}
