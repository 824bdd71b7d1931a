"""Kniffel two-player results (the seed's "Dice Party ist ein Würfelspiel für 2 Spieler") for the balance report.

Tolerances are 4 standard errors of the compared quantity (false alarm < 1e-4).
"""

from __future__ import annotations

import base64
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

from sim.core.batch import run_batch
from sim.games import get_game
from sim.games.kniffel.game import policy_label

GAME = get_game("kniffel")
CFG = GAME.load()
ROOT = Path(__file__).resolve().parents[2]
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
    opt = rows["optimal", "greedy"]["win_rate_seat_1"]["value"]
    assert opt > 0.5 + 4 * math.sqrt(0.25 / N)  # the maximum expected score also wins more often against greedy


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
    """The real ``dicesim balance`` command puts the two-player results beside the solitaire scores."""
    # a small n: this checks what the page shows, not the numbers (those are test_two_player_rates_...'s)
    r = subprocess.run([sys.executable, "-m", "sim.cli", "balance", "--games", "kniffel", "--n", "200", "--out",
                        str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "kniffel" / "report.html").read_text(encoding="utf-8")
    png = (tmp_path / "kniffel" / "two_player.png").read_bytes()
    assert base64.b64encode(png).decode() in page, "two-player chart not embedded in the game page"
    assert "maximises the expected score" in page
    assert (tmp_path / "kniffel" / "two_player.png").stat().st_size > 5000
    data = json.loads((tmp_path / "kniffel" / "two_player.json").read_text())
    assert data["n"] == 200 and len(data["pairings"]) == 4
    assert data["pairings"][0]["labels"] == ["optimal (maximum expected score)"] * 2
