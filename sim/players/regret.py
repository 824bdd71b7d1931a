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
    """``{"total", "by_kind", …, "games"}``: mean points lost per game against the optimum, in all, by decision kind
    and then: Kniffel by turn and kind (``by_turn``) and by the box written (``by_box``); Dadox by kind, turn total
    and dice thrown (``by_state``: bank vs throw on)."""
    reg = dec.regret
    n = dec.n_games
    kinds = _order(dec.kind)

    def per_game(mask: np.ndarray) -> float:
        return round(float(reg[mask].sum()) / n, digits)

    out: dict[str, Any] = {"total": per_game(np.ones(len(reg), bool)),
                           "by_kind": {k: per_game(dec.kind == k) for k in kinds}}
    if dec.game == "kniffel":
        out["by_turn"] = {str(t): {k: per_game((dec.turn == t) & (dec.kind == k)) for k in kinds}
                          for t in sorted(set(dec.turn.tolist()))}
        boxes = dec.kind == "box"
        out["by_box"] = {b: per_game(boxes & (dec.detail == b)) for b in sorted(set(dec.detail[boxes].tolist()))}
    else:
        out["by_state"] = {k: {s: per_game((dec.kind == k) & (dec.detail == s))
                               for s in sorted(set(dec.detail[dec.kind == k].tolist()))} for k in kinds}
    out["games"] = n
    return out
