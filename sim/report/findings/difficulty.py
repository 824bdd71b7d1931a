"""``difficulty_cliff``: a room, or a difficulty step, whose death rate jumps far above its neighbours'.

Rooms: from the per-run table of the game's first report policy (``death_room``: the room a run died in, 0 for a
win), each room's death rate among the runs that reached it, with its Wilson interval; a room is a cliff when its
rate is above both neighbours' by at least ``cliff_jump_pp``, at least ``cliff_ratio`` times the larger of them,
and its interval's lower end above it too (rooms reached by fewer than ``cliff_min_runs`` runs are left out).
Difficulty steps: from the ``difficulty`` table (win rate per policy and difficulty, same seeds), the rise of the
loss rate from one difficulty to the next, against the other steps by the same thresholds. Does not apply to a game
without rooms or difficulties (Kniffel, Dadox, Dungeon24).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.core import stats
from sim.report import words
from sim.report.findings.base import Tables, finding, interval_pp, pct, pct_ci, pp, replay_command
from sim.report.findings.config import FindingsConfig


def room_rates(runs: Any) -> list[dict[str, Any]]:
    """Per room: runs that reached it, runs that died there, the death rate and its interval."""
    death = runs["death_room"].to_numpy()
    rooms = int(max(1, death.max(initial=0)))
    if "rooms_cleared" in runs.columns:
        rooms = max(rooms, int(runs["rooms_cleared"].max()))
    out = []
    for k in range(1, rooms + 1):
        reached = int(((death == 0) | (death >= k)).sum())
        died = int((death == k).sum())
        s = stats.share(died, reached)
        out.append({"room": k, "reached": reached, "died": died, "rate": float(s["value"]),
                    "ci95": [float(x) for x in s["ci95"]]})
    return out


def _cliff(rate: float, ci: list[float], neighbours: list[float], f: FindingsConfig) -> bool:
    top = max(neighbours)
    return rate - top >= f.cliff_jump_pp / 100 and rate >= f.cliff_ratio * max(top, 0.0) and ci[0] > top


def _rooms(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    label = next((p for p in t.report_policies if p in t.runs), next(iter(t.runs), None))
    runs = t.runs.get(label) if label else None
    if runs is None or "death_room" not in runs.columns:
        return []
    rates = room_rates(runs)
    out = []
    for i, r in enumerate(rates):
        nb = [rates[j] for j in (i - 1, i + 1) if 0 <= j < len(rates) and rates[j]["reached"] >= f.cliff_min_runs]
        if r["reached"] < f.cliff_min_runs or not nb or not _cliff(r["rate"], r["ci95"], [x["rate"] for x in nb], f):
            continue
        top = max(x["rate"] for x in nb)
        died = runs[runs["death_room"] == r["room"]]
        run = int(died["run"].iloc[0]) if len(died) and "run" in died.columns else 0
        who = words.policy_name(t.game, label)
        around = " and ".join(f"room {x['room']} {pct(x['rate'])}" for x in nb)
        out.append(finding(
            t, "difficulty_cliff",
            f"Room {r['room']} is a cliff: {pct_ci(r['rate'], r['ci95'])} of the "
            f"{who} runs that reach it die there, against {around}.",
            r["rate"] - top, [r["ci95"][0] - top, r["ci95"][1] - top], "pp",
            {"metric": "death rate of the runs that reached the room", "policy": label, "room": r["room"],
             "rate": r["rate"], "rate_ci95": r["ci95"], "neighbours": {x["room"]: x["rate"] for x in nb},
             "comparison": "room minus the larger neighbour", "runs": int(len(runs)), "reached": r["reached"]},
            replay_command(t, t.seats.get(label) or [label], run), subject=f"room:{r['room']}"))
    return out


def _steps(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    table = t.extras.get("difficulty")
    if table is None or not len(table):
        return []
    out = []
    for policy, part in table.groupby("policy", sort=False):
        part = part.reset_index(drop=True)
        loss = 1.0 - part["win_rate"].to_numpy(dtype=float)
        half = (part["ci95_high"].to_numpy(dtype=float) - part["ci95_low"].to_numpy(dtype=float)) / 2
        if len(part) < 3:
            continue
        jumps = np.diff(loss)
        for i, j in enumerate(jumps):
            others = [float(x) for k, x in enumerate(jumps) if k != i]
            se = float(np.hypot(half[i], half[i + 1]))  # the two rates' intervals, independent at worst
            ci = [float(j) - se, float(j) + se]
            if not (j - max(others) >= f.cliff_jump_pp / 100 and j >= f.cliff_ratio * max(max(others), 0.0)
                    and ci[0] > max(others)):
                continue
            a, b = (words.word(t.game, part["difficulty"].iloc[k]) for k in (i, i + 1))
            who = words.policy_name(t.game, policy)
            out.append(finding(
                t, "difficulty_cliff",
                f"The step from {a} to {b} is a cliff for {who}: losses rise {pp(float(j))}{interval_pp(ci)}, "
                f"against {', '.join(pp(x) for x in others)} at the other step{'s' if len(others) > 1 else ''}.",
                float(j), ci, "pp",
                {"metric": "loss rate (1 - win rate) by difficulty", "policy": str(policy),
                 "comparison": f"{b} minus {a}", "runs": int(part["n"].iloc[0]) if "n" in part else t.n,
                 "other_steps": others},
                replay_command(t, str(policy), 0, {"difficulty": str(part["difficulty"].iloc[i + 1])}),
                subject=f"step:{part['difficulty'].iloc[i]}->{part['difficulty'].iloc[i + 1]}"))
    return out


def difficulty_cliff(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Rooms and difficulty steps whose death rate jumps far above the neighbours' (see the module)."""
    return _rooms(t, f) + _steps(t, f)
