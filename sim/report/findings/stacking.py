"""``runaway_stacking``: an upgrade whose effect keeps growing when it is taken again and again.

The config says which upgrades stack (not ``unique``: a copy taken again adds its effect again). The probe plays
the game's first report policy (or ``stack_policy``) on the same seeds with no copy, one copy and
``stack_copies`` copies of each stackable upgrade in the start loadout (``policy@upgrade+upgrade+…``). Diminishing
returns are the healthy shape; an upgrade whose later copies each still add at least ``stack_keep`` of the first
copy's win-rate gain, both gains clear of 0, grows without bound until the win rate runs out of room. Does not
apply to a game without stackable upgrades and loadout variants (every game but the Würfel Dungeon).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core import stats
from sim.report import words
from sim.report.findings.base import Tables, finding, interval_pp, pp, replay_command
from sim.report.findings.config import FindingsConfig


def stackable(cfg: Any) -> list[str]:
    """The config's upgrades a run may take more than once."""
    ups = getattr(cfg, "upgrades", None)
    if not isinstance(ups, dict):
        return []
    return [name for name, u in ups.items() if not getattr(u, "unique", True)]


def probe_size(t: Tables) -> int:
    return max(200, min(t.n // 2, 4000))


def stacking_table(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Per stackable upgrade: the win-rate gain of the first copy and the mean gain of each later copy (paired)."""
    if t.play is None or t.policy_variant != "@":
        return []
    policy = f.stack_policy or (t.report_policies[0] if t.report_policies else "")
    ups = stackable(t.cfg)
    if not policy or not ups:
        return []
    n, k = probe_size(t), f.stack_copies
    w0 = (t.play(policy, n)["win"].to_numpy() > 0).astype(float)
    rows = []
    for u in ups:
        one = t.play(f"{policy}@{u}", n)
        many = t.play(f"{policy}@{'+'.join([u] * k)}", n)
        w1 = (one["win"].to_numpy() > 0).astype(float)
        wk = (many["win"].to_numpy() > 0).astype(float)
        first = stats.paired_difference(w1, w0)
        later = stats.paired_difference((wk - w1) / (k - 1), np.zeros_like(w1))
        flips = ((wk > 0) & (w1 <= 0)).nonzero()[0]
        rows.append({"upgrade": u, "policy": policy, "copies": k, "n": n, "win_rate_0": float(w0.mean()),
                     "win_rate_1": float(w1.mean()), "win_rate_k": float(wk.mean()),
                     "first": float(first["value"]), "first_ci95": [float(x) for x in first["ci95"]],
                     "later": float(later["value"]), "later_ci95": [float(x) for x in later["ci95"]],
                     "run": int(many["run"].iloc[flips[0]]) if len(flips) else 0})
    return rows


def _shape(r: dict[str, Any]) -> str:
    """How a stack's later copies compare with the first, as the later copies' interval says: above it, at it (the
    interval holds the first copy's gain), or below it but by less than ``stack_keep`` allows."""
    lo, hi = r["later_ci95"]
    if lo > r["first"]:
        return "stacks with growing returns"
    if hi >= r["first"]:
        return "stacks without diminishing returns"
    return "stacks with little diminishing"


def runaway_stacking(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Stackable upgrades without diminishing returns (see the module); reads ``extras["stacking"]`` when the runner
    stored it, else plays the probe."""
    rows = t.extras.get("stacking")
    if rows is None:
        rows = stacking_table(t, f)
        t.extras["stacking"] = rows
    out = []
    for r in rows:
        if not (r["first_ci95"][0] > 0 and r["later_ci95"][0] > 0 and r["later"] >= f.stack_keep * r["first"]):
            continue
        name = words.word(t.game, r["upgrade"])
        k = r["copies"]
        out.append(finding(
            t, "runaway_stacking",
            f"{name} {_shape(r)}: each copy after the first still adds {pp(r['later'])}{interval_pp(r['later_ci95'])} "
            f"wins ({r['later'] / r['first'] * 100:.0f} % of the first copy's {pp(r['first'])}); {k} copies win "
            f"{r['win_rate_k'] * 100:.1f} % against {r['win_rate_0'] * 100:.1f} % without.",
            r["later"], r["later_ci95"], "pp",
            {"metric": "win-rate gain per copy (copies 2..k, paired, same seeds)", "policy": r["policy"],
             "comparison": f"{k} copies minus 1, per copy, against the first copy's gain {pp(r['first'])}",
             "runs": r["n"], "copies": k},
            replay_command(t, f"{r['policy']}@{'+'.join([r['upgrade']] * k)}", r["run"]),
            subject=f"upgrade:{r['upgrade']}"))
    return out
