"""Where players lose points: each decision's cost against the optimum, summed by kind.

A decision's regret is the exact value of the best alternative minus that of the choice made (points of expected
final score; ``Decisions.delta``). Summed over a game it telescopes: its expectation is the optimum's expected score
minus the player's, so the regret of the optimal policy's own log is 0 and that of any log is, on average, the
points its players leave on the table against the optimum. Every figure here is a mean per game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.players.fit import Decisions


def _order(kinds: np.ndarray) -> list[str]:
    return sorted(set(kinds.tolist()), key=lambda k: (k == "box", k))


def regret(dec: Decisions, digits: int = 4) -> dict[str, Any]:
    """``{"total", "by_kind", "by_turn", "by_box", "games"}``: mean points lost per game against the optimum, in
    all, by decision kind, by turn and kind, and by the box written (box decisions)."""
    reg = dec.regret
    n = dec.n_games
    kinds = _order(dec.kind)
    by_turn = {}
    for t in sorted(set(dec.turn.tolist())):
        at = dec.turn == t
        by_turn[str(t)] = {k: round(float(reg[at & (dec.kind == k)].sum()) / n, digits) for k in kinds}
    boxes = dec.kind == "box"
    by_box = {b: round(float(reg[boxes & (dec.detail == b)].sum()) / n, digits)
              for b in sorted(set(dec.detail[boxes].tolist()))}
    return {"total": round(float(reg.sum()) / n, digits),
            "by_kind": {k: round(float(reg[dec.kind == k].sum()) / n, digits) for k in kinds},
            "by_turn": by_turn, "by_box": by_box, "games": n}
