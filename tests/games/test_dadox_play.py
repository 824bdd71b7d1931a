"""Dadox games: determinism and replay, seat rotation, simulation against the exact solvers, paired
win rates, metrics, charts and the CLI."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from sim.core.batch import run_batch
from sim.core.config import CONFIG_DIR, DicesimError
from sim.games.dadox import play as P
from sim.games.dadox import rules as R
from sim.games.dadox.game import GAME
from sim.games.dadox.tables import OPT_USED
from tests.conftest import cli_here, here_json, run_cli

OPTS = {"players": 2, "opponent": None, "objective": "turn"}


def cfg_of(preset: str | None = None, sets: list[str] | None = None):
    return GAME.load(CONFIG_DIR / "dadox" / f"{preset}.toml" if preset else None, sets or [])


def table(cfg, policies, n, seed=1, start=0) -> pd.DataFrame:
    return pd.DataFrame(GAME.simulate(cfg, policies, seed, start, n, {**OPTS, "players": len(policies)}))


def test_chunks_do_not_change_results():
    cfg = cfg_of()
    pols = ["threshold", "greedy"]
    whole = table(cfg, pols, 300)
    parts = pd.concat([table(cfg, pols, 120), table(cfg, pols, 180, start=120)], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)
    assert (whole.groupby("run")["win"].sum() <= 1).all()


def test_seats_rotate_on_shared_deals():
    cfg = cfg_of()
    t = table(cfg, ["threshold", "greedy"], 200)
    assert t.loc[t["run"] % 2 == 0, "policy"].tolist()[:2] == ["threshold", "greedy"]
    assert t.loc[t["run"] % 2 == 1, "policy"].tolist()[:2] == ["greedy", "threshold"]
    # each policy holds each seat equally often
    assert (t.groupby(["seat", "policy"]).size() == 100).all()
    # the same policy everywhere: no pairing, every run its own deal
    same = table(cfg, ["threshold", "threshold"], 4)
    assert same.groupby("run")["game_turns"].first().nunique() > 1


@pytest.mark.parametrize("pols", [["optimal-turn", "threshold"], ["random", "greedy", "threshold"]])
def test_replay_is_the_batch_run(pols):
    cfg = cfg_of()
    GAME.prepare(cfg, pols, OPTS)
    t = table(cfg, pols, 6, seed=7)
    text = GAME.replay(cfg, pols, 7, 5, {**OPTS, "players": len(pols)})
    row = t[t["run"] == 5].sort_values("seat")
    pids, rotate, rp, pp, tb, sol = GAME._kernel_args(cfg, pols)
    turns, winner, stat, log = P.replay_game(7, 5, pids, rotate, rp, pp, tb, sol, 100_000)
    assert turns == row["game_turns"].iloc[0] and winner == row["winner"].iloc[0]
    assert stat[:, P.S_SCORE].tolist() == row["score"].tolist()
    assert stat[:, P.S_BUSTS : P.S_BUSTS + 6].sum() == row[[f"busts_{n}" for n in range(1, 7)]].to_numpy().sum()
    assert len(log) == row[[f"throws_{n}" for n in range(1, 7)]].to_numpy().sum()
    assert f"After {turns} turns" in text and "throws 6:" in text


@pytest.mark.parametrize("preset", [None, "classic"])
def test_optimal_turn_simulation_matches_the_solver(preset):
    cfg = cfg_of(preset, ["goal.target=1000000", "goal.exact=false", "game.max_turns=100"])
    value = GAME.solve(cfg, {"objective": "turn"})["value"]
    t = table(cfg, ["optimal-turn"], 2000, seed=3)
    assert (t["turns"] == 100).all()
    m = GAME.metrics(t, OPTS, cfg)["mean_turn_score"]
    lo, hi = m["ci95"]
    assert lo <= value <= hi, (value, m)
    assert hi - lo < 12


def test_optimal_win_simulation_matches_the_solver():
    cfg = cfg_of(None, ["goal.target=1000", "solver.score_floor=-500"])
    value = GAME.solve(cfg, {"objective": "win"})["first_player_win_probability"]
    t = table(cfg, ["optimal-win", "optimal-win"], 20_000, seed=11)
    lo, hi = GAME.metrics(t, OPTS, cfg)["win_rate_seat_0"]["ci95"]
    assert lo <= value <= hi, (value, lo, hi)


def test_paired_win_rates_order_the_policies():
    cfg = cfg_of(None, ["goal.target=2000", "solver.score_floor=-1000"])
    out = {}
    for label, seats in GAME.compare_plan(["optimal-win", "optimal-turn", "threshold"], OPTS):
        b = run_batch(GAME, cfg, seats, 8000, 5, OPTS, progress=False)
        out[label] = b.table
    paired = GAME.paired(out, OPTS)
    for key in ("win: optimal-win - optimal-turn", "win: optimal-turn - threshold", "win: optimal-win - threshold"):
        assert paired[key]["ci95"][0] > 0, (key, paired[key])


def test_exact_target_and_the_new_rules_in_play():
    """Default rules: every win banks exactly 10,000; no selection that obliges a throw (a confirmation, a
    declined triple or street) is ever banked; a turn's first throw holding a triple never leaves banking
    open; a confirmation throw without a 1 or 5 busts."""
    cfg = cfg_of()
    pols = ["threshold", "greedy", "optimal-turn", "random"]
    opts = {**OPTS, "players": 4}
    GAME.prepare(cfg, pols, opts)
    t = table(cfg, pols, 40)
    won = t[t["win"] == 1]
    assert len(won) == (t.loc[t["seat"] == 0, "winner"] >= 0).sum() >= 36
    assert (won["score"] == 10_000).all() and (t.loc[t["win"] == 0, "score"] < 10_000).all()
    pids, rotate, rp, pp, tb, sol = GAME._kernel_args(cfg, pols)
    seen = {"first-throw triple": 0, "declined": 0, "confirmed": 0, "endgame decline": 0}
    for run in range(40):
        log = P.replay_game(1, run, pids, rotate, rp, pp, tb, sol, 200_000)[3]
        prev_turn, prev_lock = -1, R.LOCK_FREE
        for row in log:
            new_turn = row[P.L_TURN] != prev_turn
            c = tb.counts[row[P.L_THROW]]
            ev, lock = row[P.L_EVENT], row[P.L_LOCK]
            if ev in (P.EV_BANK, P.EV_WIN, P.EV_OVERSHOOT):
                assert lock == R.LOCK_FREE
            if ev == P.EV_WIN:
                assert row[P.L_SCORE] == 10_000
            if not new_turn and prev_lock == R.LOCK_CONFIRM:
                assert (ev == P.EV_BUST) == (c[0] + c[4] == 0)
                seen["confirmed"] += 1
            if new_turn and ev != P.EV_BUST and (c >= 3).any():
                assert lock != R.LOCK_FREE
                seen["first-throw triple"] += 1
            if ev == P.EV_ON and lock == R.LOCK_THROW:
                seen["declined"] += 1
                before = row[P.L_SCORE]
                seen["endgame decline"] += int(before + row[P.L_TOTAL] == 10_000)
            prev_turn, prev_lock = row[P.L_TURN], lock
    assert min(seen.values()) > 0, seen


@pytest.mark.parametrize(("pols", "skill"), [
    (["threshold", "greedy", "optimal-turn", "random"], []),
    (["optimal-win", "leader-win"], []),
    (["optimal-turn", "threshold", "leader-win"], ["skill.level=0.5", "skill.opponents=0.75"]),
])
def test_hot_dice_are_thrown_again_in_play(pols, skill):
    """Default rules (``turn.hot_dice = "throw"``): no policy, at any skill, ever banks a throw whose every die it
    set aside: the turn goes on with six dice and its total; a later throw with a triple and no 1 or 5 scores."""
    cfg = cfg_of(None, ["goal.target=3000", "solver.score_floor=-1000", *skill])
    opts = {**OPTS, "players": len(pols)}
    GAME.prepare(cfg, pols, opts)
    pids, rotate, rp, pp, tb, sol = GAME._kernel_args(cfg, pols)
    seen = {"hot dice": 0, "hot dice thrown again": 0, "later triple, no 1 or 5": 0}
    hot_stat = 0
    for run in range(30):
        _, _, stat, log = P.replay_game(1, run, pids, rotate, rp, pp, tb, sol, 200_000)
        hot_stat += stat[:, P.S_HOT].sum()
        for i, row in enumerate(log):
            o = row[P.L_OPTION]
            hot = o >= 0 and tb.opt[o, OPT_USED] == row[P.L_DICE]
            if hot:
                seen["hot dice"] += 1
                assert row[P.L_EVENT] == P.EV_ON and row[P.L_LOCK] != R.LOCK_FREE
                nxt = log[i + 1]
                assert nxt[P.L_TURN] == row[P.L_TURN] and nxt[P.L_DICE] == 6
                seen["hot dice thrown again"] += 1
            c = tb.counts[row[P.L_THROW]]
            first = i == 0 or log[i - 1][P.L_TURN] != row[P.L_TURN]
            if not first and log[i - 1][P.L_LOCK] != R.LOCK_CONFIRM and (c >= 3).any() and c[0] + c[4] == 0:
                assert row[P.L_EVENT] != P.EV_BUST
                assert row[P.L_TOTAL] - log[i - 1][P.L_TOTAL] >= 200  # a triple's points (200 .. 600)
                seen["later triple, no 1 or 5"] += 1
    assert seen["hot dice"] == hot_stat  # the kernel's counter
    assert min(seen.values()) > 0, seen


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_games_with_five_to_eight_players(players):
    cfg = cfg_of(None, ["goal.target=2000", "solver.score_floor=-1000"])
    pols = (["leader-win", "threshold", "greedy", "optimal-turn"] * 2)[:players]
    opts = {**OPTS, "players": players}
    GAME.prepare(cfg, pols, opts)
    t = table(cfg, pols, 10 * players)
    assert len(t) == 10 * players * players and set(t["seat"]) == set(range(players))
    games = t[t["seat"] == 0]
    assert (games["winner"] >= 0).all()
    won = t[t["win"] == 1]
    assert len(won) == len(games) and (won["score"] == 2000).all()
    assert (t.groupby("run")["turns"].sum() == games.set_index("run")["game_turns"]).all()
    assert (t.groupby(["seat", "policy"]).size() >= 10).all()  # every policy at every seat
    with pytest.raises(DicesimError, match="two-player solution"):
        GAME.prepare(cfg, ["optimal-win", *pols[1:]], opts)


def test_metrics_and_charts(tmp_path):
    cfg = cfg_of()
    GAME.prepare(cfg, ["optimal-turn"] * 2, OPTS)
    tables = {
        "threshold": table(cfg, ["threshold"] * 2, 2000),
        "greedy vs threshold": table(cfg, ["greedy", "threshold"], 2000),
    }
    m = GAME.metrics(tables["greedy vs threshold"], OPTS, cfg)
    for key in ("win_rate_seat_0", "first_player_advantage", "win_rate_greedy", "game_length_turns",
                "game_length_turns_p50", "bust_rate_6_dice", "mean_banked_turn_score", "overshoot_rate",
                "negative_score_rate", "draw_rate"):
        assert key in m
    json.dumps(m)  # JSON-ready
    # busts of n dice at the rates the rules give: 6 dice mix first (5/162) and later throws
    assert m["bust_rate_1_dice"]["ci95"][0] < 2 / 3 < m["bust_rate_1_dice"]["ci95"][1]
    paths = GAME.charts(tables, tmp_path, OPTS, cfg)
    assert {p.name for p in paths} == {"game_length.png", "win_rate_by_seat.png", "bank_thresholds.png"}
    assert all(p.stat().st_size > 1000 for p in paths)


@pytest.mark.parametrize(("preset", "pols"), [
    ("house", ["optimal-turn", "threshold", "greedy", "random"]),
    ("classic", ["random"]),
])
def test_variants_and_table_sizes_play_out(preset, pols):
    cfg = cfg_of(preset, ["game.max_turns=3000"])
    GAME.prepare(cfg, pols, OPTS)
    t = table(cfg, pols, 200)
    games = t[t["seat"] == 0]
    assert (games["winner"] >= 0).mean() > 0.9
    won = t[t["win"] == 1]
    assert (won["score"] >= cfg.goal.target).all()
    if preset == "house":  # a player's first bank is at least the opening minimum
        pids, rotate, rp, pp, tb, sol = GAME._kernel_args(cfg, pols)
        for run in range(20):
            log = P.replay_game(1, run, pids, rotate, rp, pp, tb, sol, 100_000)[3]
            banks = log[np.isin(log[:, P.L_EVENT], (P.EV_BANK, P.EV_WIN))]
            for seat in np.unique(banks[:, P.L_SEAT]):
                assert banks[banks[:, P.L_SEAT] == seat][0, P.L_TOTAL] >= 350


def test_cli_solve_describe_play():
    """The CLI once per command (solve, describe with --config: the command's function in this process; a refused play:
    a real process, its exit code); the values the other presets give come from the same ``Game`` methods the CLI
    prints, called here."""
    win = here_json(
        "solve", "dadox", "--objective", "win", "--set", "goal.target=500", "--set", "solver.score_floor=-200"
    )
    assert 0.5 < win["first_player_win_probability"] < 1 and win["residual"] < 1e-7
    assert 0 < win["floor_share"] < 1 and win["players"] == 2
    turn = GAME.solve(cfg_of("classic"), GAME.check_options({}))  # the CLI's defaults: objective turn
    assert turn["objective"] == "turn" and turn["value"] == pytest.approx(478.0, abs=0.1)
    d = json.loads(json.dumps(GAME.describe(cfg_of(), GAME.check_options({}))))
    assert "any triple in the turn's first throw" in d["strong"] and d["must_throw_on"]
    lenient = here_json("describe", "dadox", "--config", str(CONFIG_DIR / "dadox" / "lenient.toml"))
    assert "three 1s in the turn's first throw" in lenient["strong"] and lenient["must_throw_on"] == []
    assert round(d["optimal_turn"]["expected_turn_score"], 3) == 365.918
    assert d["optimal_turn"]["bank_thresholds"] == {"1": 150, "2": 150, "3": 200, "4": 500, "5": 1450, "6": 5200}
    assert round(lenient["optimal_turn"]["expected_turn_score"], 6) == 382.912791
    assert d["bust_probability"]["6"] == pytest.approx(5 / 162)
    # a later throw busts as the first (no 1, no 5, no triple); a confirmation throw needs a 1 or 5
    assert "bust_probability_later_throws" not in d and lenient["bust_probability_later_throws"]["6"] == pytest.approx(
        (2 / 3) ** 6)
    assert d["bust_probability_confirmation_throws"]["1"] == pytest.approx(2 / 3)
    assert any("hot dice" in m for m in d["must_throw_on"])
    with pytest.raises(DicesimError, match="optimal-win and leader-win play against an opponent"):
        GAME.prepare(cfg_of(), ["optimal-win"], {**OPTS, "players": 1})
    out = run_cli("play", "dadox", "--policy", "optimal-win", "--players", "5", "--n", "10")
    assert out.returncode == 2 and out.stderr.startswith("error: optimal-win is a two-player solution")
    assert len(out.stderr.strip().splitlines()) == 1


def test_report_redraws_with_the_stored_config(tmp_path, monkeypatch):
    """``dicesim report`` draws the bank thresholds of the config the run used, not the default one."""
    from sim.report.outputs import build_report

    res = cli_here("play", "dadox", "--config", str(CONFIG_DIR / "dadox" / "house.toml"), "--policy", "threshold",
                   "--n", "200", "--out", str(tmp_path))
    assert res.returncode == 0, res.stderr
    import sim.games.dadox.charts as charts

    drawn = []
    real = charts.bank_thresholds
    monkeypatch.setattr(charts, "bank_thresholds", lambda th, cfg, out: drawn.append(cfg) or real(th, cfg, out))
    build_report(tmp_path)
    assert drawn == [GAME.load(CONFIG_DIR / "dadox" / "house.toml")] and drawn[0] != GAME.load()


def test_draws_are_no_seats_in_the_first_seats_edge():
    """With draws the fair share is the decided games' share a seat: all drawn, the edge is 0 (it read -50 pp)."""
    import sim

    m = sim.play("dadox", "threshold", n=200, set=["game.max_turns=1"]).summary["metrics"]
    assert m["draw_rate"]["value"] == 1.0 and m["first_player_advantage"]["value"] == 0.0


def test_a_solitaire_compare_ranks_fewer_turns_first_and_pairs_them():
    """Alone (``--players 1``) a policy is judged by how many turns it needs to reach the target: fewer is better.
    The ranking read "Random 189.6 turns > Optimal turn 30.4 turns" (the slowest called best), with no paired
    difference; now the fastest leads, each step down its per-run difference on the same dice (the mean of the
    paired differences is the difference of the means)."""
    r = cli_here("compare", "dadox", "--policies", "random,optimal-turn", "--players", "1", "--n", "100",
                 "--no-report")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].startswith("Who does best (turns per game, fewer is better): Optimal turn "), lines[1]
    assert " < Random " in lines[1], lines[1]
    assert lines[2].startswith("On the same dice: Optimal turn \u2212 Random \u2212"), lines[2]
    assert lines[2].endswith(": ahead."), lines[2]
    out = here_json("compare", "dadox", "--policies", "random,optimal-turn", "--players", "1", "--n", "100",
                    "--no-report")
    d = out["paired"]["game_length_turns: optimal-turn - random"]
    means = {p: out["policies"][p]["metrics"]["game_length_turns"]["value"] for p in ("random", "optimal-turn")}
    assert d["value"] == pytest.approx(means["optimal-turn"] - means["random"], abs=1e-9)
    assert d["ci95"][1] < 0, d
