"""``seat_advantage``: a seat that wins more (or less) than its fair share, beyond its interval and a threshold.

Reads the tidy metrics' per-seat win rates (``win_rate_seat_<k>`` of a label that played two or more seats, with
its ``draw_rate``: the fair share is what is left after draws, split evenly), the ``first_attacker_win_rate`` of a
game whose seats take turns attacking first, and a two-player extra (``two_player``: its pairings' paired
``seat_advantage``). Does not apply to a game played alone (no seat metrics).
"""

from __future__ import annotations

import re
from typing import Any

from sim.core.skill import level_words
from sim.report import words
from sim.report.findings.base import Tables, ci_of, finding, interval_pp, pct, pct_ci, pp, replay_command
from sim.report.findings.config import FindingsConfig

_SEAT = re.compile(r"^win_rate_seat_(\d+)$")


def _winning_run(t: Tables, label: str, seat: int, won: bool) -> int:
    """A run of ``label`` where ``seat`` won (or lost, for a seat behind): the first in its per-run table, else 0."""
    runs = t.runs.get(label)
    if runs is not None and {"winner", "first_attacker", "run"} <= set(runs.columns):  # who attacks first
        hit = runs[(runs["winner"] == runs["first_attacker"]) == won]
        return int(hit["run"].iloc[0]) if len(hit) else 0
    if runs is None or not {"seat", "win", "run"} <= set(runs.columns):
        return 0
    hit = runs[(runs["seat"] == seat) & ((runs["win"] > 0) == won)]
    return int(hit["run"].iloc[0]) if len(hit) else 0


def _fair(t: Tables, label: str, seats: int) -> float:
    draws = t.metric(label, "draw_rate")
    return (1.0 - (draws["value"] if draws else 0.0)) / seats


def _seat_pairings(t: Tables) -> list[tuple[list[str], dict[str, Any]]]:
    """(seats, first-seat advantage) of the two-player extra: a mirror pairing as it is, a pairing and its swap
    pooled (the mean of the two advantages: which policy sits first no longer counts)."""
    rows = {tuple(str(x) for x in p.get("seats") or []): p.get("seat_advantage") or {}
            for p in (t.extras.get("two_player") or {}).get("pairings", []) or []}
    out = []
    for seats, adv in rows.items():
        if len(seats) != 2 or not ci_of(adv):
            continue
        if seats[0] == seats[1]:
            out.append((list(seats), adv))
        elif seats[::-1] in rows and seats < seats[::-1] and ci_of(rows[seats[::-1]]):
            other = rows[seats[::-1]]
            (a, b), (c, d) = ci_of(adv), ci_of(other)
            v = (float(adv["value"]) + float(other["value"])) / 2
            half = ((b - a) ** 2 + (d - c) ** 2) ** 0.5 / 4
            out.append((list(seats), {"value": v, "ci95": [max(-1.0, v - half), min(1.0, v + half)]}))
    return out


def _skill_gap(t: Tables) -> str:
    """Where the first seat plays at another skill level than the others (``skill.level`` against
    ``skill.opponents``), the words a seat finding adds: its edge is then the gap's as much as turn order's."""
    skill = getattr(t.cfg, "skill", None)
    if skill is None or skill.groups or skill.level == skill.opponents:
        return ""
    return (f" The first seat plays at skill {level_words(skill.level)}, the others at {level_words(skill.opponents)}:"
            " this edge is the skill gap's as much as turn order's.")


def seat_advantage(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """One finding per label whose most-off seat is off fair by at least ``seat_min_pp`` and its interval, on at least
    ``seat_min_runs`` games."""
    out = []
    gap_said = _skill_gap(t)
    gap = f.seat_min_pp / 100
    for label in t.labels():
        if t.n < f.seat_min_runs:  # one game "wins −100 pp more often": an interval's formula, not a finding
            break
        part = t.metrics[t.metrics["label"] == label]
        seat_rows = {int(m[1]): name for name in part["metric"] if (m := _SEAT.match(str(name)))}
        checks: list[tuple[str, int, str, float]] = []  # (metric, seat, words, fair)
        if len(seat_rows) >= 2:
            fair = _fair(t, label, len(seat_rows))
            checks += [(name, s, "the first seat" if s == 0 else f"seat {s + 1}", fair)
                       for s, name in sorted(seat_rows.items())]
        if t.metric(label, "first_attacker_win_rate") is not None:
            checks.append(("first_attacker_win_rate", 0, "the player who attacks first", _fair(t, label, 2)))
        best = None
        for name, seat, who, fair in checks:
            m = t.metric(label, name)
            ci = ci_of(m)
            if m is None or ci is None:
                continue
            off = m["value"] - fair
            if abs(off) >= gap and (ci[0] > fair or ci[1] < fair) and (best is None or abs(off) > abs(best[0])):
                best = (off, m, ci, name, seat, who, fair)
        if best is None:
            continue
        off, m, ci, name, seat, who, fair = best
        players = t.seats.get(label) or [label]
        what = words.policy_name(t.game, label) if " vs " in label or len(players) < 2 else " vs ".join(
            words.policy_name(t.game, p) for p in players)
        out.append(finding(
            t, "seat_advantage",
            f"In {what}, {who} wins {pct_ci(m['value'], ci)} against a fair "
            f"{pct(fair)} ({pp(off)} off fair).{gap_said}",
            off, [ci[0] - fair, ci[1] - fair], "pp",
            {"metric": name, "label": label, "comparison": f"win rate of {who} against the fair share {pct(fair)} "
             "(draws taken out, split evenly)", "runs": t.n, "value": m["value"], "value_ci95": ci},
            replay_command(t, players, _winning_run(t, label, seat, off > 0)), subject=f"{label}:{name}"))
    for seats, adv in _seat_pairings(t):
        ci = ci_of(adv)
        runs = int(t.extras["two_player"].get("n", t.n))
        if ci is None or runs < f.seat_min_runs or abs(float(adv["value"])) < gap or not (ci[0] > 0 or ci[1] < 0):
            continue
        what = " vs ".join(words.policy_name(t.game, s) for s in seats)
        v = float(adv["value"])
        out.append(finding(
            t, "seat_advantage",
            f"In {what}, the first seat wins {pp(v)}{interval_pp(ci)} more often than the second on the same dice."
            + gap_said,
            v, ci, "pp",
            {"metric": "seat_advantage", "label": what, "comparison": "first seat minus second seat, paired"
             + ("" if seats[0] == seats[1] else ", both seatings pooled"),
             "runs": runs},
            replay_command(t, seats, 0, {"players": 2}), subject=f"two_player:{','.join(seats)}"))
    return out
