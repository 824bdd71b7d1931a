"""``unused_content``: an upgrade, path card or event that a strong policy almost never chooses when offered.

Reads the reward pick rates (``upgrade_picks``: picks per offer of each policy, the strongest listed in the
config's ``reference`` policies is asked), and the per-run table of the best policy by win rate: path cards chosen
(``path_<card>``) against how often the config offers each (Kampf and Elite before every fight, the third card a
Rastplatz with ``path.rest_chance``, else a Geheimnis) and the Geheimnis events accepted (``altars``, ``jokers_sold``,
``truhen``) against the Geheimnis cards taken times each event's draw weight. A choice offered at least
``unused_min_offers`` times and chosen at most ``unused_max_rate`` of them (its interval's upper end) is unused.
Does not apply to a game whose tables hold no choices per offer (Kniffel, Dadox, Dungeon24).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from sim.core import stats
from sim.report import words
from sim.report.findings.base import Tables, finding, pct, replay_command
from sim.report.findings.config import FindingsConfig

EVENT_COLUMNS = {"opferaltar": "altars", "joker_haendler": "jokers_sold", "verfluchte_truhe": "truhen"}


def strongest(t: Tables, f: FindingsConfig, candidates: list[str]) -> str | None:
    """The strongest of ``candidates``: the last one the config's ``reference`` policies (or the solved ones)
    name, else the first."""
    ranked = [p for p in [*t.solved_policies, *f.reference.get(t.game, [])] if p in candidates]
    return ranked[-1] if ranked else (candidates[0] if candidates else None)


def best_label(t: Tables) -> str | None:
    """The label with the highest win rate among plain policies (no loadout variant, no match)."""
    best = None
    for label in t.runs:
        m = t.metric(label, "win_rate")
        if m is None or "@" in label or " vs " in label:
            continue
        if best is None or m["value"] > best[1]:
            best = (label, m["value"])
    return best[0] if best else None


def _offers(t: Tables, f: FindingsConfig) -> list[tuple[str, str, float, float, str, str]]:
    """(family, option, chosen, offered, policy, column) per choice the tables count."""
    rows = []
    picks = t.extras.get("upgrade_picks")
    if picks is not None and len(picks):
        pols = [c[len("pick_rate_"):] for c in picks.columns
                if c.startswith("pick_rate_") and not c.endswith(("_low", "_high"))]
        pol = strongest(t, f, pols)
        if pol is not None:
            for r in picks.to_dict("records"):
                offered = float(r.get(f"offers_{pol}", 0) or 0)
                rows.append(("upgrade", str(r["upgrade"]), float(r[f"pick_rate_{pol}"]) * offered, offered, pol,
                             f"picked_{r['upgrade']}"))
    label = best_label(t)
    runs = t.runs.get(label) if label else None
    path = getattr(t.cfg, "path", None)
    if runs is not None and path is not None and "fights" in runs.columns:
        fights = float(runs["fights"].sum())
        rest = float(getattr(path, "rest_chance", 0.5))
        chance = {"kampf": 1.0, "elite": 1.0, "rastplatz": rest, "geheimnis": 1.0 - rest}
        for card, p in chance.items():
            if f"path_{card}" in runs.columns:
                rows.append(("path card", card, float(runs[f"path_{card}"].sum()), fights * p, label, f"path_{card}"))
        events = getattr(path, "events", None)
        names = getattr(sys.modules.get(type(t.cfg).__module__), "EVENTS", tuple(EVENT_COLUMNS))
        if events is not None and "path_geheimnis" in runs.columns:
            w = np.asarray(events.weights, dtype=float)
            visits = float(runs["path_geheimnis"].sum())
            for i, ev in enumerate(names):
                col = EVENT_COLUMNS.get(ev)
                if col in runs.columns and w.sum() > 0:
                    rows.append(("event", ev, float(runs[col].sum()), visits * w[i] / w.sum(), label, col))
    return rows


def _run_without(t: Tables, policy: str, column: str) -> int:
    runs = t.runs.get(policy)
    if runs is None and t.play is not None:
        runs = t.play(policy, min(t.n, 500))
    if runs is None or column not in runs.columns:
        return 0
    hit = runs[runs[column] == 0]
    return int(hit["run"].iloc[0]) if len(hit) else 0


def unused_content(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Choices offered often and chosen almost never by a strong policy (see the module)."""
    out = []
    for family, option, chosen, offered, policy, column in _offers(t, f):
        if offered < f.unused_min_offers:
            continue
        rate = stats.share(min(chosen, offered), offered)  # offers are estimated from the draw chances
        ci = [float(x) for x in rate["ci95"]]
        if ci[1] > f.unused_max_rate:
            continue
        who = words.policy_name(t.game, policy)
        name = words.word(t.game, option)
        out.append(finding(
            t, "unused_content",
            f"{who} almost never chooses the {family} {name}: {pct(rate['value'])} of about {offered:,.0f} offers "
            f"(95 % interval up to {pct(ci[1])}).",
            float(rate["value"]), ci, "%",
            {"metric": column, "family": family, "policy": policy, "comparison": "chosen per offer",
             "offers": offered, "chosen": chosen, "runs": t.n},
            replay_command(t, policy, _run_without(t, policy, column)), subject=f"{family}:{option}"))
    return out
