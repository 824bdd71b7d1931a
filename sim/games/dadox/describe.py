"""Dadox's rule tables for ``describe``: its scoring groups, what must be confirmed or thrown on, the bust chances
and the optimal turn (its expected score and where it banks). ``dicesim describe dadox`` computes them from here
without the game (``sim.cli.work.tables``): the optimal turn is a solve of the rule kernels, so numba loads, but
not pandas, the policies or the play kernels."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.config import config_hash
from sim.games.dadox import rules as R
from sim.games.dadox.columns import COLUMNS
from sim.games.dadox.config import DadoxConfig, freeze
from sim.games.dadox.solve import TurnSolution, solve_turn
from sim.games.dadox.tables import bust_probabilities

CONFIG = DadoxConfig  # the rules these tables read (sim.cli.work.tables loads them without the game)


def describe(cfg: DadoxConfig, options: dict[str, Any], ts: TurnSolution | None = None) -> dict[str, Any]:
    """The derived rule tables; ``ts``: the optimal turn solved already (the game keeps it), else solved here."""
    rp = freeze(cfg)
    ts = ts if ts is not None else solve_turn(rp, cfg.solver.turn_cap)
    d = {
        "game": "dadox",
        "config_hash": config_hash(cfg),
        "config": cfg.model_dump(mode="json"),
        "assumed": list(cfg.assumed),
        "scoring": scoring_table(rp),
        "strong": strong_combinations(rp),
        "must_throw_on": forced_throws(rp),
        "bust_probability": {str(n): p for n, p in bust_probabilities(rp, False).items()},
        "bust_probability_means": bust_means(rp),
    }
    without_1_or_5 = {str(n): p for n, p in bust_probabilities(rp, True).items()}
    if rp.turn_later_throws_need_1_or_5:
        d["bust_probability_later_throws"] = without_1_or_5
    if rp.turn_confirm:
        d["bust_probability_confirmation_throws"] = without_1_or_5
    d["optimal_turn"] = {"expected_turn_score": float(ts.value[1]), "bank_thresholds": optimal_thresholds(ts, cfg)}
    return d


def bust_means(rp: np.record) -> str:
    """What the bust tables shown under these rules count, naming only those shown (it spoke of a later-throw table
    that the default rules do not have, by its config name)."""
    later = bool(rp.turn_later_throws_need_1_or_5)
    needs = [*(["every later throw of a turn (it must hold a 1 or a 5)"] if later else []),
             *(["a confirmation throw"] if rp.turn_confirm else [])]
    return ("the chance that a throw of n dice (1 to 6) holds no scoring group: no 1, no 5 and no triple ("
            + ("the turn's first throw" if later else "any throw but a confirmation" if rp.turn_confirm else
               "any throw") + ")" + (f"; in {' and in '.join(needs)}: no 1 and no 5" if needs else ""))


def table_columns(cfg: DadoxConfig, options: dict[str, Any]) -> tuple:
    """The per-run table a batch writes (the same under every rule set)."""
    return COLUMNS


def scoring_table(rp: np.record) -> list[dict[str, Any]]:
    """Every scoring group of the configured rules with its points."""
    rows = [{"group": "1", "points": int(rp.scoring_single_1)}, {"group": "5", "points": int(rp.scoring_single_5)}]
    for f in range(6):
        for g in range(3, 7):
            v = R.kind_value(f, g, rp)
            if v >= 0:
                rows.append({"group": ", ".join([str(f + 1)] * g), "points": int(v)})
    for f in range(6):
        rows.append({"group": ", ".join([str(f + 1)] * 6) + " (two triples)", "points": int(2 * R.triple_value(f, rp))})
    if rp.scoring_street > 0:
        rows.append({"group": "1, 2, 3, 4, 5, 6", "points": int(rp.scoring_street)})
    if rp.scoring_three_pairs > 0:
        rows.append({"group": "three pairs", "points": int(rp.scoring_three_pairs)})
    return rows


def strong_combinations(rp: np.record) -> list[str]:
    """The selections that must be confirmed under these rules."""
    if not rp.turn_confirm:
        return []
    first = "any triple" if rp.turn_confirm_first_throw_triples else "three 1s"
    out = [f"{first} in the turn's first throw", "two triples in one throw (six equal dice too)"]
    if rp.scoring_street > 0:
        out.insert(0, "street 1-2-3-4-5-6")
    return out


def forced_throws(rp: np.record) -> list[str]:
    """The selections after which the player may not bank but must throw on (besides confirmations)."""
    out = []
    if rp.turn_decline_forces_throw:
        held = "a triple or a street" if rp.scoring_street > 0 else "a triple"
        out.append(f"only single 1s and 5s set aside from a throw that holds {held}")
    if rp.hot_throw:
        out.append("every die of the throw set aside (hot dice): all six are thrown again")
    return out


def optimal_thresholds(ts, cfg: DadoxConfig) -> dict[str, int | None]:
    """The smallest turn total (points) at which optimal-turn banks, by dice it would throw next: where banking is
    worth more than throwing them (six dice come only after hot dice, which ``turn.hot_dice = "throw"`` throws
    whatever they are worth: there the figure is where banking would pay)."""
    rp = freeze(cfg)
    unit = int(rp.unit)
    later = int(rp.turn_later_throws_need_1_or_5)
    out: dict[str, int | None] = {}
    for n in range(1, R.N_DICE + 1):
        t = np.arange(1, ts.cap + 1)
        bank = t * unit >= ts.thr[1, 1:, n - 1, later]
        out[str(n)] = int(t[bank][0] * unit) if bank.any() else None
    return out
