"""What every detector reads and returns: the tables of one game (:class:`Tables`) and a finding (a plain dict).

A detector is a function ``(tables, thresholds) -> list[finding]`` that reads only what the simulator wrote (the
tidy metrics, the paired differences, the per-run tables, the extra analyses such as the upgrade lift) and the
game's config (price tables, upgrade effects). Where a table it needs is missing, the detector does not apply and
returns nothing. ``play`` and ``events`` let a detector ask for more runs (a stacking probe, the replay of a
candidate run) through the runner, so a test can hand a detector tables built by hand.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sim.report import words


@dataclass
class Tables:
    """One game's tables: everything the detectors may read."""

    game: str
    cfg: Any  # the game's validated config model
    n: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    metrics: pd.DataFrame | None = None  # tidy: label, metric, value, ci95_low, ci95_high
    paired: dict[str, dict[str, Any]] = field(default_factory=dict)  # "metric: b - a" -> {value, ci95}
    runs: dict[str, pd.DataFrame] = field(default_factory=dict)  # label -> per-run table
    seats: dict[str, list[str]] = field(default_factory=dict)  # label -> one policy per seat
    extras: dict[str, Any] = field(default_factory=dict)  # name -> table (DataFrame) or JSON of an extra analysis
    policies: tuple[str, ...] = ()  # every policy of the game
    solved_policies: tuple[str, ...] = ()  # policies that read solved tables (exact play)
    report_policies: tuple[str, ...] = ()
    policy_variant: str | None = None  # ``Game.policy_variant``: "@" where ``policy@upgrade+…`` sets a loadout
    config_args: list[str] = field(default_factory=list)  # ``--config F --set k=v`` as the runs were played
    # play(policy, n) -> per-run table on ``seed`` (runs 0 .. n-1; cached by the runner); None: no more runs
    play: Callable[[str, int], pd.DataFrame] | None = None
    # events(policy, run) -> the run's decoded event records (``replay --json``'s); None: no replays
    events: Callable[[str, int], list[dict[str, Any]]] | None = None
    title: str = ""  # the game's name for readers (default: its words)

    def metric(self, label: str, name: str) -> dict[str, Any] | None:
        """``{"value", "ci95"}`` of one row of the tidy metrics, None when absent."""
        if self.metrics is None:
            return None
        m = self.metrics[(self.metrics["label"] == label) & (self.metrics["metric"] == name)]
        if m.empty:
            return None
        r = m.iloc[0]
        ci = [float(r["ci95_low"]), float(r["ci95_high"])] if not pd.isna(r.get("ci95_low")) else None
        return {"value": float(r["value"]), "ci95": ci}

    def labels(self) -> list[str]:
        """The labels of the tidy metrics, in order."""
        return [] if self.metrics is None else list(dict.fromkeys(str(x) for x in self.metrics["label"]))


def ci_of(v: dict[str, Any] | None) -> list[float] | None:
    ci = (v or {}).get("ci95")
    if not ci or len(ci) != 2 or any(x is None or math.isnan(float(x)) for x in ci):
        return None
    return [float(ci[0]), float(ci[1])]


def pair(paired: dict[str, dict[str, Any]], metric: str, a: str, b: str) -> dict[str, Any] | None:
    """``metric``'s paired difference ``a - b`` (stored either way round), ``{"value", "ci95"}``."""
    if f"{metric}: {a} - {b}" in paired:
        v = paired[f"{metric}: {a} - {b}"]
        return {"value": float(v["value"]), "ci95": ci_of(v)}
    if f"{metric}: {b} - {a}" in paired:
        v = paired[f"{metric}: {b} - {a}"]
        ci = ci_of(v)
        return {"value": -float(v["value"]), "ci95": [-ci[1], -ci[0]] if ci else None}
    return None


def replay_command(t: Tables, seats: list[str] | str, run: int, options: dict[str, Any] | None = None) -> str:
    """The ``dicesim replay`` line that shows run ``run`` of these seats under the tables' config and options."""
    policy = seats if isinstance(seats, str) else seats[0] if len(set(seats)) == 1 else ",".join(seats)
    parts = ["dicesim", "replay", t.game, "--seed", str(t.seed), "--run", str(int(run)), "--policy", policy]
    for name, value in {**t.options, **(options or {})}.items():
        if value is None:
            continue
        parts += [f"--{name.replace('_', '-')}", str(value)]
    return " ".join(shlex.quote(p) for p in parts + list(t.config_args))


def finding(t: Tables, kind: str, title: str, value: float, ci95: list[float] | None, unit: str,
            evidence: dict[str, Any], replay: str | None, subject: str = "") -> dict[str, Any]:
    """One finding: what, how much (``value`` with its 95 % interval, in ``unit``), on what evidence, and where to
    watch it happen. Shares and their differences are fractions (0.064 with unit ``%`` reads 6.4 %, with ``pp``
    6.4 pp); ``coins`` and ``points`` are plain numbers."""
    return {
        "game": t.game,
        "game_title": t.title or words.word(t.game, t.game),
        "kind": kind,
        "subject": subject,
        "title": title,
        "value": float(value),
        "ci95": [float(ci95[0]), float(ci95[1])] if ci95 else None,
        "unit": unit,
        "evidence": evidence,
        "replay": replay,
    }


def pp(x: float, sign: bool = True) -> str:
    """A share difference in percentage points: ``+12.3 pp``."""
    return words.signed(f"{x * 100:+.1f}" if sign else f"{x * 100:.1f}") + " pp"


def pct(x: float) -> str:
    return f"{x * 100:.1f} %"


def interval_pp(ci: list[float] | None) -> str:
    return f" [{words.signed(f'{ci[0] * 100:+.1f}')}, {words.signed(f'{ci[1] * 100:+.1f}')}]" if ci else ""


def pct_ci(v: float, ci: list[float] | None) -> str:
    """A share with its interval: ``28.5 % [25.7, 31.4]``."""
    return pct(v) + (f" [{ci[0] * 100:.1f}, {ci[1] * 100:.1f}]" if ci else "")
