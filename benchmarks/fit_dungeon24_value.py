"""Fit ``expectimax``'s Dungeon24 value (``policies.dungeon24.search``) to measured win chances; writes
``policies/dungeon24/value_coef.py``.

Positions: the state at the start of every ``STRIDE``-th turn (offset by the run, so every turn number is
sampled) of self-play games under the default rules, every pairing of peoples, for each policy pair in ``PAIRS``;
the label is whether the player to move went on to win (draws left out). The model is the logistic regression
of that label on ``policies.dungeon24.search.features`` (the leaf's own numbers), fitted by Newton's method on
the log-likelihood with a ridge ``RIDGE`` on every coefficient but the intercept, until the step is below 1e-10.
Everything is deterministic (fixed seeds, counter-based dice, one BLAS thread), so a rerun writes the same file.
A held-out set (other seeds) gives the fit's log-loss and accuracy, printed and written into the file.

Usage: ``.venv/bin/python benchmarks/fit_dungeon24_value.py [--games N] [--check]`` (``--check``: fit and
compare with the committed coefficients, write nothing).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: the same sums in the same order on every run

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from policies.dungeon24.bots import POLICIES  # noqa: E402
from policies.dungeon24.search import FEATURES, N_COEF, features  # noqa: E402
from sim.games.dungeon24 import play  # noqa: E402
from sim.games.dungeon24 import rules as R  # noqa: E402
from sim.games.dungeon24.config import PEOPLES  # noqa: E402
from sim.games.dungeon24.game import GAME  # noqa: E402
from sim.games.dungeon24.runs import frozen  # noqa: E402

PAIRS = (("heuristic", "heuristic"), ("exact-exchange", "heuristic"), ("heuristic", "exact-exchange"))
GAMES = 2000  # per pairing of peoples and policy pair
STRIDE = 3
MAX_TURNS = 90  # traced turns per game (longer games are rare; their later turns are left out)
RIDGE = 1.0
SEED_FIT, SEED_HOLDOUT = 2427, 2428
OUT = Path(__file__).resolve().parent.parent / "policies" / "dungeon24" / "value_coef.py"


def positions(seed: int, games: int) -> tuple[np.ndarray, np.ndarray]:
    """Regressors and labels of the sampled positions of every pairing of peoples and policy pair."""
    cfg = GAME.load()
    rp, cards, ability = frozen(cfg)
    X: list[np.ndarray] = []
    y: list[float] = []
    pf = np.full((2, R.N_BASIC), -1, np.int64)
    for pols in PAIRS:
        ids = np.array([POLICIES[p] for p in pols], np.int64)
        for a in range(len(PEOPLES)):
            for b in range(len(PEOPLES)):
                ppl = np.array([a, b], np.int64)
                for run in range(games):
                    final, states = play.trace_game(seed, run, ids, ppl, ability[ppl].copy(), pf, rp, cards,
                                                    MAX_TURNS)
                    if final[R.S_WINNER] < 0:
                        continue
                    for t in range(1, len(states) + 1):
                        if (t + run) % STRIDE == 0:
                            mover = int(states[t - 1, R.S_TOMOVE])
                            x = np.empty(N_COEF)
                            features(states[t - 1], mover, rp, x)
                            X.append(x)
                            y.append(1.0 if final[R.S_WINNER] == mover else 0.0)
    return np.array(X), np.array(y)


def fit(X: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Newton's method for the ridge logistic regression (intercept: column 0, not penalised)."""
    w = np.zeros(X.shape[1])
    pen = np.full(X.shape[1], ridge)
    pen[0] = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(X @ w)))
        g = X.T @ (p - y) + pen * w
        h = (X * (p * (1 - p))[:, None]).T @ X + np.diag(pen)
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def quality(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> dict[str, float]:
    p = np.clip(1.0 / (1.0 + np.exp(-(X @ w))), 1e-12, 1 - 1e-12)
    base = y.mean()
    return {"log_loss": float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))),
            "log_loss_constant": float(-(base * np.log(base) + (1 - base) * np.log(1 - base))),
            "accuracy": float(np.mean((p > 0.5) == (y > 0.5))), "n": int(len(y))}


def render(w: np.ndarray, q: dict[str, float], games: int) -> str:
    names = ["intercept"] + [f"mover {f}" for f in FEATURES] + [f"other {f}" for f in FEATURES]
    pairs = ", ".join(f"{a} vs {b}" for a, b in PAIRS)
    lines = [
        '"""Coefficients of ``expectimax``\'s Dungeon24 value (``policies.dungeon24.search``): written by',
        "``benchmarks/fit_dungeon24_value.py``, do not edit by hand (rerun it after changing the features).",
        "",
        f"Fitted on {q['n_fit']:,} positions (every {STRIDE}rd turn) of {games:,} games per pairing of peoples",
        f"and policy pair ({pairs}),",
        f"default rules, seed {SEED_FIT}, ridge {RIDGE}. Held out (seed {SEED_HOLDOUT}, {q['n']:,} positions): "
        f"log-loss {q['log_loss']:.4f}",
        f"(a constant: {q['log_loss_constant']:.4f}), the winner called right {100 * q['accuracy']:.1f} % of the time.",
        '"""',
        "",
        "COEF = (",
    ]
    lines += [f"    {v:.6g},  # {name}" for v, name in zip(w, names, strict=True)]
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=GAMES)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    X, y = positions(SEED_FIT, args.games)
    w = fit(X, y)
    Xh, yh = positions(SEED_HOLDOUT, max(1, args.games // 4))
    q = quality(Xh, yh, w)
    q["n_fit"] = len(y)
    print({k: round(v, 4) for k, v in q.items()}, file=sys.stderr)
    text = render(w, q, args.games)
    if args.check:
        same = OUT.read_text() == text
        print("the committed coefficients are this fit's" if same else "the committed coefficients differ")
        sys.exit(0 if same else 1)
    OUT.write_text(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
