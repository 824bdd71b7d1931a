"""Dungeon24 designer analyses beyond a batch: the people matchup matrix, the arrangement search and the
ability lift, each on paired seeds (common random numbers), with their charts (``sim.report.charts``)."""

from __future__ import annotations

from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np

from policies.dungeon24.bots import POLICIES
from sim.core import stats
from sim.core.config import DicesimError
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import PEOPLE_LABELS, PEOPLES, Dungeon24Config, volk
from sim.games.dungeon24.runs import people_of, run_games
from sim.report import charts, words

SEARCH_N = 2000  # paired games per arrangement and seating in the arrangement search
SEARCH_START = 1 << 40  # first run index of the arrangement search (disjoint from the runs a play uses)
SCORED = "a win 1, a draw 1/2, a loss 0"  # what a matchup cell (``win_rate``) counts, said in its JSON


def seat_score(winner: np.ndarray, seat: int) -> np.ndarray:
    """Per-run score of ``seat``: win 1, draw 1/2, loss 0."""
    return np.where(winner == seat, 1.0, np.where(winner == 1 - seat, 0.0, 0.5))


def _seat_scores(cfg: Dungeon24Config, policy: str, opponent: str, a: int, b: int, seed: int, start: int, n: int,
                 perm: tuple[int, ...] | None) -> np.ndarray:
    """Per-run score (win 1, draw 1/2) of ``policy`` with pyramid ``perm`` (None: its own), both seatings averaged."""
    t1 = run_games(cfg, [policy, opponent], [a, b], seed, start, n, [perm, None])[:, 0]
    t2 = run_games(cfg, [opponent, policy], [b, a], seed, start, n, [None, perm], player_seat=1)[:, 0]
    return (seat_score(t1, 0) + seat_score(t2, 1)) / 2


def best_arrangement(cfg: Dungeon24Config, policy: str, opponent: str, people: str, opponent_people: str,
                     n: int = SEARCH_N, seed: int = 0, n_check: int | None = None) -> dict[str, Any]:
    """Search all 120 pyramids of ``people`` (played by ``policy``) against ``opponent`` with its own pyramid.

    Every pyramid plays the same ``n`` runs in both seatings (common random numbers). The best of 120 noisy
    estimates is biased upwards, so the chosen pyramid is played again on ``n_check`` (default ``n``) fresh
    runs that the search never saw, beside the policy's own pyramid on the same runs: ``win_rate`` is that
    fresh estimate, ``lift`` the paired difference to the policy's pyramid, ``search_max`` the biased maximum.
    Search and check runs start at ``SEARCH_START``, so they never overlap the runs of a ``play``.
    """
    a, b = people_of(people), people_of(opponent_people)
    n_check = n if n_check is None else n_check
    results = []
    for perm in permutations(range(R.N_BASIC)):
        sc = _seat_scores(cfg, policy, opponent, a, b, seed, SEARCH_START, n, perm)
        results.append((float(sc.mean()), perm))
    results.sort(key=lambda x: -x[0])
    deck = volk(cfg, a)
    best, perm = results[0]
    fresh = _seat_scores(cfg, policy, opponent, a, b, seed, SEARCH_START + n, n_check, perm)
    own = _seat_scores(cfg, policy, opponent, a, b, seed, SEARCH_START + n, n_check, None)
    return {
        "arrangement": list(perm),
        "cards": [deck.cards[c].name for c in perm],
        "win_rate": stats.mean(fresh),
        "policy_pyramid_win_rate": stats.mean(own),
        "lift": stats.paired_difference(fresh, own),
        "search_max": best,
        "n": n,
        "n_check": n_check,
        "all": [{"arrangement": list(p), "win_rate": r} for r, p in results],
    }


def matchup(cfg: Dungeon24Config, policy_a: str, policy_b: str, n: int, seed: int) -> dict[str, Any]:
    """The 3x3 people matrix: ``win_rate[i][j]`` = the score of ``policy_a`` with people i against ``policy_b`` with
    people j: a win 1, a draw 1/2, a loss 0 (the key keeps its name for the files already written; ``scored`` says
    so), and ``draw_rate[i][j]`` the share of those games drawn, so that a cell of 50 % made of draws (a turn limit
    every game reaches) is not read as half the games won.

    Each cell plays runs 0..n-1 twice on the same seeds, seats swapped, so the first-attacker
    advantage cancels. Intervals: normal, over the n per-seed pair scores, within [0, 1]
    (``stats.score_mean``). Under one policy at one skill level on both sides (``mirror_diagonal``) a people against
    itself is 50 % by symmetry: its cell holds 0.5 exactly, with no interval to estimate.
    Also returns the first-attacker win rate per cell (pooled over both seatings).
    """
    for p in (policy_a, policy_b):
        if p not in POLICIES:
            raise DicesimError(f"unknown policy {p!r} for dungeon24 (choose from {', '.join(POLICIES)})")
    k = len(PEOPLES)
    wr = [[0.0] * k for _ in range(k)]
    ci = [[[0.0, 0.0]] * k for _ in range(k)]
    fa = [[0.0] * k for _ in range(k)]
    dr = [[0.0] * k for _ in range(k)]
    # a people against itself under one policy at one skill level: 50 % by symmetry, no estimate (a player at
    # skill.level 0 against full-strength opponents under one policy is no mirror: it loses)
    mirror = policy_a == policy_b and cfg.skill.level == cfg.skill.opponents
    for i in range(k):
        for j in range(k):
            t1 = run_games(cfg, [policy_a, policy_b], [i, j], seed, 0, n)
            t2 = run_games(cfg, [policy_b, policy_a], [j, i], seed, 0, n, player_seat=1)
            fa[i][j] = float(((t1[:, 0] == t1[:, 1]).sum() + (t2[:, 0] == t2[:, 1]).sum()) / (2 * n))
            dr[i][j] = float(((t1[:, 0] < 0).sum() + (t2[:, 0] < 0).sum()) / (2 * n))  # winner -1: a draw
            if mirror and i == j:  # the first attacker's and the draws' shares still
                wr[i][j], ci[i][j] = 0.5, [0.5, 0.5]
                continue
            m = stats.score_mean((seat_score(t1[:, 0], 0) + seat_score(t2[:, 0], 1)) / 2)
            wr[i][j] = m["value"]
            ci[i][j] = m["ci95"]
    return {"policy_a": policy_a, "policy_b": policy_b, "n": n, "seed": seed, "people": list(PEOPLES),
            "win_rate": wr, "ci95": ci, "scored": SCORED, "draw_rate": dr, "first_attacker_win_rate": fa,
            "mirror_diagonal": mirror}


def matchup_heatmap(result: dict[str, Any], path: str | Path) -> Path:
    """PNG heatmap of a ``matchup`` result (rows: policy_a's people, columns: policy_b's): a cell of ``matchup`` is a
    score (``scored``: a draw ½), so the colour bar says so and the title how many games were drawn, where any were;
    a batch's own pairings (``batch_matchup_charts``) count the games won."""
    labels = [PEOPLE_LABELS[PEOPLES.index(p)] for p in result["people"]]
    a, b = (words.policy_name("dungeon24", result[k]) for k in ("policy_a", "policy_b"))
    title, bar = "Dungeon24 people matchup", "share of games the row's people wins"
    if result.get("scored"):
        bar = "the row people's score (a win 1, a draw ½)"
        title += draws_said(result.get("draw_rate"))
    # the axes name the sides, not only the bots: in a mirror both read "Heuristic plays"
    return charts.heatmap({"matchup": result["win_rate"]}, path, labels, labels, title, bar,
                          xlabel=f"the opponent's people (played by {b})", ylabel=f"people (played by {a})",
                          vmin=0, vmax=1, cmap="RdBu", annotate=True, panel_size=(4.2, 4.4), percent=True)


def draws_said(draw_rate: list[list[float]] | None) -> str:
    """How many of a matchup's games were drawn, for its chart's title: nothing where none was."""
    cells = [float(v) for row in draw_rate or [] for v in row]
    if not cells or max(cells) == 0:
        return ""
    if min(cells) == 1:
        return ": every game drawn"
    return f": up to {words.value_text('draw_rate', max(cells))} of a cell's games drawn"


def batch_matchup_charts(tables: dict[str, Any], out_dir: Path, seats: Any) -> list[Path]:
    """Per label, the people matchup of its batch, only where the batch played two or more pairings of peoples
    (``--people``/``--opponent-people`` fix one pairing: a heatmap with one of nine cells filled says nothing the
    headline does not; the balance report's ``matchup.png`` plays every pairing). ``seats(label)``: its policies."""
    k = len(PEOPLES)
    paths = []
    for label, t in tables.items():
        wr = [[float("nan")] * k for _ in range(k)]
        for (i, j), g in t.groupby(["people0", "people1"]):
            wr[int(i)][int(j)] = float((g["winner"] == 0).mean())
        if sum(not np.isnan(v) for row in wr for v in row) < 2:
            continue
        pol = seats(label)
        res = {"policy_a": pol[0], "policy_b": pol[1], "people": list(PEOPLES), "win_rate": wr}
        paths.append(matchup_heatmap(res, Path(out_dir) / f"dungeon24_matchup_{label}.png"))
    return paths


def ability_lift(cfg: Dungeon24Config, policy: str, opponent: str, n: int, seed: int) -> dict[str, Any]:
    """Causal win-rate lift of each people's ability, on paired seeds.

    For each people (mirror match, ``policy`` against ``opponent``), the same runs are played with
    ``policy``'s ability on and off, in both seatings; the lift is the mean per-seed difference of
    its score (win 1, draw 1/2) with a normal 95 % interval.
    """
    out = {"policy": policy, "opponent": opponent, "n": n, "seed": seed, "people": list(PEOPLES),
           "ability": [volk(cfg, i).ability for i in range(len(PEOPLES))], "lift": []}
    for i in range(len(PEOPLES)):
        score = {}
        for on in (True, False):
            t1 = run_games(cfg, [policy, opponent], [i, i], seed, 0, n, abilities=[on, True])
            t2 = run_games(cfg, [opponent, policy], [i, i], seed, 0, n, abilities=[True, on], player_seat=1)
            score[on] = (seat_score(t1[:, 0], 0) + seat_score(t2[:, 0], 1)) / 2
        out["lift"].append(stats.paired_difference(score[True], score[False]))
    return out


def ability_lift_chart(result: dict[str, Any], path: str | Path) -> Path:
    """Bar chart of the paired ability lifts with 95 % intervals, titled with what ``ability_lift`` played: the
    policy's ability on and off against the opponent's, on, with one people on both sides; each bar names the
    ability with its people (where the result lists them)."""
    a, b = (words.policy_name("dungeon24", result[k]) for k in ("policy", "opponent"))
    people = [PEOPLE_LABELS[PEOPLES.index(p)] for p in result["people"]]
    abilities = result.get("ability") or [None] * len(people)
    bars = [f"{words.word('dungeon24', ab)}\n({p})" if ab and ab != "none" else p
            for p, ab in zip(people, abilities, strict=True)]
    return charts.bars({"lift": result["lift"]}, bars, path, "score lift (a win 1, a draw ½)",
                       f"Dungeon24: {a} with vs without its people's ability\n"
                       f"against {b} with its own, the same people on both sides, the same seeds",
                       figsize=(7.5, 4.2), unit="pp")
