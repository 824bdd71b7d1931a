"""``degenerate_strategy``: a simple policy that beats the game's own suggestion or a smarter bot.

Reads the paired differences of the win rate (``win_rate``, ``win``; else the mean score) between each simple
policy (the config's ``simple`` list for the game, else the report policies that solve nothing) and each reference
policy (the game's solved policies and the config's ``reference`` list: the suggestion button, the search bots).
A simple policy ahead by more than ``degenerate_min_pp`` with its whole interval is a finding: the game rewards
the simple play. Does not apply where the tables pair no simple policy with a reference one.
"""

from __future__ import annotations

from typing import Any

from sim.games import declared
from sim.report import words
from sim.report.findings.base import Tables, finding, interval_pp, pair, pp, replay_command
from sim.report.findings.config import FindingsConfig

METRICS = ("win_rate", "win", "mean_score", "score")


def roles(t: Tables, f: FindingsConfig) -> tuple[list[str], list[str]]:
    """(simple policies, reference policies) of the game."""
    other = set(declared(t.game, "OTHER_GOAL") or ())  # solved for points, not wins: no bar a simple policy clears
    ref = [p for p in dict.fromkeys([*t.solved_policies, *f.reference.get(t.game, [])]) if p not in other]
    simple = f.simple.get(t.game) or [p for p in t.report_policies if p not in ref and p not in other]
    return [p for p in simple if p not in ref], ref


def _run_where(t: Tables, simple: str, ref: str) -> tuple[list[str], int]:
    """(seats, run) of a run the simple policy won and the reference lost: played alone on the same seed, or in
    their match (``simple vs ref``, either way round); else run 0 of the simple policy."""
    a, b = t.runs.get(simple), t.runs.get(ref)
    if a is not None and b is not None and {"win", "run"} <= set(a.columns) & set(b.columns) and len(a) == len(b):
        hit = ((a["win"].to_numpy() > 0) & (b["win"].to_numpy() <= 0)).nonzero()[0]
        return t.seats.get(simple) or [simple], int(a["run"].iloc[hit[0]]) if len(hit) else 0
    for label in (f"{simple} vs {ref}", f"{ref} vs {simple}"):
        runs = t.runs.get(label)
        if runs is not None and {"policy", "win", "run"} <= set(runs.columns):
            hit = runs[(runs["policy"] == simple) & (runs["win"] > 0)]
            return t.seats.get(label) or [simple, ref], int(hit["run"].iloc[0]) if len(hit) else 0
    return t.seats.get(simple) or [simple], 0


def degenerate_strategy(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Simple policies ahead of a reference policy on the same dice (see the module)."""
    simple, ref = roles(t, f)
    out = []
    for s in simple:
        for r in ref:
            for metric in METRICS:
                d = pair(t.paired, metric, s, r)
                if d is not None:
                    break
            if d is None or d["ci95"] is None:
                continue
            rate = metric in ("win_rate", "win")
            gap = f.degenerate_min_pp / 100 if rate else f.degenerate_min_pp
            if not (d["value"] > gap and d["ci95"][0] > gap):
                continue
            ns, nr = words.policy_name(t.game, s), words.policy_name(t.game, r)
            if rate:
                said = f"{pp(d['value'])}{interval_pp(d['ci95'])} wins"
            else:
                said = (f"{words.value_text(metric, d['value'], d['ci95'], diff=True)} "
                        f"{words.metric_name(t.game, metric)}")
            seats, run = _run_where(t, s, r)
            out.append(finding(
                t, "degenerate_strategy",
                f"The simple policy {ns} beats {nr} by {said} on the same dice.",
                d["value"], d["ci95"], "pp" if rate else "points",
                {"metric": metric, "comparison": f"{ns} {words.MINUS} {nr}, paired (same seeds)", "runs": t.n,
                 "simple": s, "reference": r},
                replay_command(t, seats, run), subject=f"{s}>{r}"))
    return out + _other_difficulties(t, f, simple, ref)


def _other_difficulties(t: Tables, f: FindingsConfig, simple: list[str], ref: list[str]) -> list[dict[str, Any]]:
    """The same question at the difficulties the report's own runs did not play (``extras["difficulty"]``: each
    policy's win rate per difficulty, with Wilson intervals): a simple policy whose whole interval lies above a
    reference policy's whole interval there, by more than the threshold (Greedy over Vorschlag on Normal and Schwer
    was no finding: only Leicht's paired runs were read). Unpaired intervals: a conservative test."""
    table = t.extras.get("difficulty")
    if table is None or not len(table) or not {"policy", "difficulty", "win_rate", "ci95_low", "ci95_high"} <= set(
            table.columns):
        return []
    played = t.options.get("difficulty")
    rows = {(str(r.policy), str(r.difficulty)): r for r in table.itertuples()}
    gap = f.degenerate_min_pp / 100
    out = []
    for d in dict.fromkeys(str(x) for x in table["difficulty"]):
        if d == played:
            continue
        for s in simple:
            for r in ref:
                a, b = rows.get((s, d)), rows.get((r, d))
                if a is None or b is None or not (a.win_rate - b.win_rate > gap and a.ci95_low > b.ci95_high):
                    continue
                ns, nr, dw = (words.policy_name(t.game, s), words.policy_name(t.game, r), words.word(t.game, d))
                diff = float(a.win_rate - b.win_rate)
                out.append(finding(
                    t, "degenerate_strategy",
                    f"On {dw}, the simple policy {ns} wins {a.win_rate * 100:.1f} % [{a.ci95_low * 100:.1f}, "
                    f"{a.ci95_high * 100:.1f}] against {nr}'s {b.win_rate * 100:.1f} % [{b.ci95_low * 100:.1f}, "
                    f"{b.ci95_high * 100:.1f}] ({pp(diff)}).",
                    diff, [float(a.ci95_low - b.ci95_high), float(a.ci95_high - b.ci95_low)], "pp",
                    {"metric": "win_rate", "comparison": f"{ns} and {nr} at {dw}, each its own runs (the difficulty "
                     "table; unpaired intervals, both ends apart)", "runs": int(getattr(a, "n", t.n)),
                     "simple": s, "reference": r, "difficulty": d},
                    replay_command(t, [s], 0, {"difficulty": d}), subject=f"{s}>{r}@{d}"))
    return out
