"""Pig played: the per-run table's invariants, seats alternating on shared dice, the turn cap, replays, and the
win rates of the solved policies against exact values computed here by an independent policy evaluation."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.batch import run_batch
from sim.games import get_game
from sim.games.pig.config import freeze
from sim.games.pig.solve import solve_turn, solve_win, win_hold

GAME = get_game("pig")
SEED = 11


def table(policy: str, n: int, *sets: str, seed: int = SEED):
    cfg = GAME.load(None, list(sets))
    opts = GAME.check_options({})
    seats = GAME.seat_policies(policy, opts)
    return run_batch(GAME, cfg, seats, n, seed, opts, chunk=GAME.chunk, progress=False).table


def duel(hold_a: np.ndarray, hold_b: np.ndarray, goal: int = 100, tol: float = 1e-13) -> tuple[float, float]:
    """Exact chances that policy A wins moving first and moving second against policy B: ``hold_x[own, other, k]``
    (True: hold), evaluated by sweeps over every turn at once until nothing moves (B's sweep reads A's new values,
    Gauss-Seidel; the six faces' sum rolls along the turn total)."""
    own = np.arange(goal)[:, None]
    V = {"a": np.zeros((goal, goal)), "b": np.zeros((goal, goal))}  # V[x][i, j]: x to move at i against j, wins
    hold = {"a": hold_a, "b": hold_b}
    while True:
        delta = 0.0
        for me, them in (("a", "b"), ("b", "a")):
            Vt = V[them].T  # Vt[i, j] = V_them[j, i]
            P = np.ones((goal + 7, goal, goal))  # P[k]: win chance holding turn total k; 1 once the goal is reached
            faces = np.full((goal, goal), 5.0)  # P[k + 2] + ... + P[k + 6]
            for k in range(goal - 1, -1, -1):
                roll = (1 - Vt + faces) / 6
                h = np.ones((goal, goal))
                h[: goal - k] = 1 - Vt[k:]
                move = np.where(hold[me][:, :, k], h, roll) if k > 0 else roll
                P[k] = np.where(own + k < goal, move, 1.0)
                faces += P[k + 1] - P[k + 6]
            delta = max(delta, np.abs(P[0] - V[me]).max())
            V[me] = P[0].copy()
        if delta < tol:
            return float(V["a"][0, 0]), float(1 - V["b"][0, 0])


@pytest.fixture(scope="module")
def holds() -> dict[str, np.ndarray]:
    rp = freeze(GAME.load())
    W, _, _ = solve_win(rp, 1e-13, 100_000)
    k = np.arange(100)
    turn = solve_turn(rp)[1].astype(bool)
    return {"optimal-win": win_hold(rp, W).astype(bool), "W00": W[0, 0],
            "hold-20": np.broadcast_to(k >= 20, (100, 100, 100)),
            "optimal-turn": np.broadcast_to(turn[:, None, :], (100, 100, 100))}


def test_the_table_adds_up():
    t = table("optimal-win,hold-20", 600)
    assert (t["score"] == t["held"]).all() and (t["turns"] == t["busts"] + t["holds"]).all()
    assert (t["rolls"] >= t["turns"]).all() and (t["best_turn"] <= t["held"]).all()
    runs = t.groupby("run")
    assert (runs["win"].sum() == 1).all() and (t["winner"] >= 0).all()
    won = t[t["win"] == 1]
    assert (won["score"] >= 100).all() and (t[t["win"] == 0]["score"] < 100).all()
    assert (won["seat"] == won["winner"]).all()
    first, second = t[t["seat"] == 0].set_index("run"), t[t["seat"] == 1].set_index("run")
    assert ((first["turns"] - second["turns"]).isin([0, 1])).all()
    assert (first["turns"] + second["turns"] == first["game_turns"]).all()
    assert ((first["turns"] > second["turns"]) == (first["win"] == 1)).all()  # the first seat wins on its own turn


def test_seats_alternate_over_pairs_of_games_on_the_same_dice():
    from sim.core.events import replay

    cfg, opts = GAME.load(), GAME.check_options({})
    t = table("optimal-win,hold-20", 40)
    assert list(t[t["seat"] == 0]["policy"][:4]) == ["optimal-win", "hold-20", "optimal-win", "hold-20"]
    seats = ["optimal-win", "hold-20"]
    a, b = (replay(GAME, cfg, seats, SEED, run, opts).sections[0]["events"] for run in (6, 7))
    first_a = [e["face"] for e in a if e["turn"] == 0]
    first_b = [e["face"] for e in b if e["turn"] == 0]
    n = min(len(first_a), len(first_b))
    assert first_a[:n] == first_b[:n]  # one deal: the same rolls of turn 1, whoever sits first
    assert a[0]["policy"] != b[0]["policy"]
    same = table("hold-20", 40)
    assert set(same["policy"]) == {"hold-20"}


def test_turn_cap_draws():
    t = table("hold-20", 200, "game.max_turns=4")
    assert (t["game_turns"] <= 4).all() and (t["winner"] == -1).mean() > 0.9
    m = GAME.metrics(t, {}, GAME.load(None, ["game.max_turns=4"]))
    assert m["draw_rate"]["value"] > 0.9


def test_self_play_of_optimal_win_matches_the_solver(holds):
    """Both seats optimal: the first seat's win rate is the solver's W[0, 0] within the sampling error."""
    n = 20_000
    t = table("optimal-win", n)
    p = t[t["seat"] == 0]["win"].mean()
    se = np.sqrt(holds["W00"] * (1 - holds["W00"]) / n)
    assert abs(p - holds["W00"]) < 4 * se
    check = duel(holds["optimal-win"], holds["optimal-win"])
    assert abs(check[0] - holds["W00"]) < 1e-9 and abs(check[1] - (1 - holds["W00"])) < 1e-9


@pytest.mark.parametrize("other", ["hold-20", "optimal-turn"])
def test_optimal_win_beats_the_others_by_the_exact_margin(holds, other):
    """optimal-win against another policy, first and second, on paired deals: each seating's win rate is the
    exact chance (policy evaluation here) within four standard errors, and it beats the other in both seats."""
    n = 16_000
    t = table(f"optimal-win,{other}", n)
    as_first, as_second = duel(holds["optimal-win"], holds[other])
    assert as_first > 0.5 and as_second > 0.5 - 0.03 and as_first > holds["W00"] and as_second > 1 - holds["W00"]
    ow = t[t["policy"] == "optimal-win"]
    for seat, exact in ((0, as_first), (1, as_second)):
        p = ow[ow["seat"] == seat]["win"].mean()
        assert abs(p - exact) < 4 * np.sqrt(exact * (1 - exact) / (n // 2)), (seat, p, exact)
    # hold-20 and optimal-turn hold without looking at the other's score: optimal-win's edge over them
    rev_first, rev_second = duel(holds[other], holds["optimal-win"])
    assert abs(rev_first - (1 - as_second)) < 1e-9 and abs(rev_second - (1 - as_first)) < 1e-9


def test_replay_text_tells_the_game(holds):
    cfg, opts = GAME.load(), GAME.check_options({})
    seats = ["optimal-win", "hold-20"]
    t = table("optimal-win,hold-20", 10)
    text = GAME.replay(cfg, seats, SEED, 5, opts)
    rows = t[t["run"] == 5]
    lines = text.splitlines()
    assert lines[0] == "Seats: 1 Hold 20, 2 Optimal win · goal 100"  # run 5: the pair's second game, seats swapped
    assert len(lines) == int(rows["game_turns"].iloc[0]) + 2
    winner = int(rows["winner"].iloc[0])
    assert lines[-1].startswith(f"After {rows['game_turns'].iloc[0]} turns: seat {winner + 1} (")
    assert lines[-1].endswith("scores " + ", ".join(str(s) for s in rows.sort_values("seat")["score"]))
    assert lines[-2].endswith("· WINS") and all(" → " in line for line in lines[1:-1])


def test_the_balance_report_gives_pig_a_card(tmp_path):
    """``dicesim balance --games pig``: the game page and a dashboard card that answers first (the first-listed
    policy's win rate per match, with intervals), with the hold chart as its thumbnail."""
    from sim.report.balance import card
    from tests.conftest import cli_here

    res = cli_here("balance", "--games", "pig", "--n", "400", "--out", str(tmp_path), "--quiet")
    assert res.returncode == 0, res.stderr
    page = (tmp_path / "report.html").read_text()
    assert "pig/report.html" in page and "the first-listed policy wins" in page
    c = card(tmp_path / "pig")
    assert c["chart"].name == "hold_totals.png" and not c["missing"] and c["setting"] == ""
    assert c["answer"].startswith("Hold 20 vs Optimal turn: the first-listed policy wins")  # display names
    assert {p.name for p in (tmp_path / "pig").glob("*.png")} == {"hold_totals.png", "win_rate_by_seat.png",
                                                                  "game_length.png"}


def test_a_mirror_has_no_first_listed_policy():
    """Hold 20 against itself: 'the first-listed policy wins 50.0 %' said nothing (both seats are it); the answer is
    the first player's share, after a colon ('Hold 20 the first-listed policy wins' read as garble)."""
    import sim

    mirror = sim.play("pig", "hold-20", n=200)
    assert mirror.summary["verdicts"][0].startswith("Hold 20: the first seat wins "), mirror.summary["verdicts"]
    assert "win_rate_first_listed" not in mirror.summary["metrics"]
    pair = sim.play("pig", "hold-20,optimal-turn", n=200)
    assert pair.summary["verdicts"][0].startswith("Who wins (share of games): ")  # each policy's share of the games
    assert "win_rate_first_listed" in pair.summary["metrics"]


def test_draws_are_no_seats_in_the_first_players_edge():
    """Every game a draw (one turn each): the first player's edge over a fair share is 0, not -50 pp (the fair
    share is half of the decided games)."""
    import sim

    m = sim.play("pig", "hold-20", n=300, set=["game.max_turns=1"]).summary["metrics"]
    assert m["draw_rate"]["value"] == 1.0 and m["first_player_advantage"]["value"] == 0.0


def test_a_mirrors_page_names_no_headline_as_missing(tmp_path):
    """The first-listed policy is no metric of a mirror: the page must not say the batch failed to report it (it
    did, in red, under the answers)."""
    import sim

    page = sim.play("pig", "hold-20", n=200, out=tmp_path / "m").report.read_text(encoding="utf-8")
    assert "Not reported by this run" not in page and "the first seat wins" in page


def test_players_of_several_games_need_skill_levels():
    """``play pig --games-per-player 5`` ended in an AttributeError's traceback (Pig has no skill levels)."""
    from tests.conftest import cli_here

    done = cli_here("play", "pig", "--policy", "hold-20", "--n", "10", "--no-report", "--games-per-player", "5")
    assert done.returncode == 2 and done.stderr.startswith(
        "error: --games-per-player: Pig has no skill levels, so no players of several games"), done.stderr
    assert "Traceback" not in done.stderr
