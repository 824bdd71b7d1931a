"""The work of ``play``, ``compare``, ``report`` and ``balance`` (their arguments: ``sim.cli.play``)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sim import api
from sim.cli.common import emit, metric_lines
from sim.core.config import DicesimError, Strict, rules_said
from sim.core.limits import check_runs
from sim.games import GAMES, available, get_game
from sim.games.base import Game
from sim.jit import warmup
from sim.jit.progress import set_quiet
from sim.report import words
from sim.report.balance import balance_report, write_dashboard
from sim.report.findings.config import FindingsConfig
from sim.report.manifest import report_folders
from sim.report.outputs import build_report, json_default, unused_folder


def play(game: str, policy: str, n: int, seed: int, config: Path | Strict | None, sets: list[str] | None,
         out: Path | None, as_json: bool, no_report: bool, chunk: int | None, scheduler: str | None, force: bool,
         game_opts: dict[str, Any]) -> None:
    g = get_game(game)
    dest = None if no_report else (out or unused_folder(Path("reports") / f"{game}-{policy.replace(',', '_')}"))

    def human(summary: dict[str, Any]) -> str:
        metrics = summary["metrics"]
        return "\n".join(
            [" · ".join([g.title, words.policy_name(g.name, policy), *g.played_setting(summary["options"]),
                         *rules_played(g, config, sets), f"n={n}", f"seed={seed}",
                         f"{summary['runs_per_second']:,.0f} runs/s"]),
             *summary.get("verdicts", []),  # the answer first
             *pooled(metrics),
             *metric_lines(metrics, game=g.name, headline=g.headline)])

    r = api.play(game, policy, n=n, seed=seed, config=config, set=sets, out=dest, chunk=chunk, scheduler=scheduler,
                 progress=not as_json, force=force, answered=None if as_json else answer_first(human), **game_opts)
    if as_json:
        emit(r.summary, True, "", json_default)
    elif "report" in r.summary:
        tell(f"report: {r.summary['report']}")


def answer_first(human: Callable[[dict[str, Any]], str]) -> Callable[[dict[str, Any]], None]:
    """Print the answer's lines as soon as the numbers are known, before the report is drawn (1.5 s of charts for
    a Würfel Dungeon play: the answer came after them); the ``report:`` line follows once it is written."""
    def say(summary: dict[str, Any]) -> None:
        tell(human(summary))

    return say


def tell(text: str) -> None:
    """Print ``text`` now; a reader that has gone (``| head -1``) ends the printing, not the command: its report is
    still written and it exits 0 (the ``report:`` line after the charts met a closed pipe and exited 1)."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # what is left in the buffer goes nowhere


def pooled(metrics: dict[str, Any]) -> list[str]:
    """Where policies share the games (a share of the games per policy), a metric that names no policy or seat
    pools every seat: said once above them ("mean score 230.5" sat under Optimal's 254.3 and Greedy's 206.7 as if a
    third player's)."""
    if not any(k.startswith("game_share_") for k in metrics):
        return []
    return ["Every seat together, except where a line names a policy or a seat:"]


def rules_played(g: Game, config: Path | Strict | None, sets: list[str] | None) -> list[str]:
    """:func:`played_rules` of a command's ``--config`` and ``--set`` (validated again where the catalog did not)."""
    if config is None and not sets:
        return []
    return played_rules(g, config if isinstance(config, Strict) else g.load(config, sets or []))


def played_rules(g: Game, cfg: Strict | None) -> list[str]:
    """The rules a run played where they are not the default config's (``rules changed: bonus.value=40``): two
    outputs of different rules must not read alike."""
    if cfg is None:
        return []
    said = rules_said(g.load().model_dump(mode="json"), cfg.model_dump(mode="json"))
    return [] if said == "the default rules" else [f"rules {said}"]


SHOWN = 6  # metrics a compare prints per policy


def compare(game: str, policies: str, n: int, seed: int, config: Path | Strict | None, sets: list[str] | None,
            out: Path | None, as_json: bool, no_report: bool, chunk: int | None, scheduler: str | None, force: bool,
            game_opts: dict[str, Any]) -> None:
    g = get_game(game)
    dest = None if no_report else (out or unused_folder(Path("reports") / f"{game}-compare"))

    def human(summary: dict[str, Any]) -> str:
        results, paired = summary["policies"], summary["paired"]
        lines = [" · ".join([g.title, "compare", *g.played_setting(summary.get("options") or {}),
                             *rules_played(g, config, sets), f"n={n}", f"seed={seed} (same seeds for every policy)"]),
                 *summary.get("verdicts", [])]  # the answers first, in words
        for label, arm in results.items():
            lines.append(f"{words.policy_name(g.name, label)}:")
            lines.extend(metric_lines(arm["metrics"], SHOWN, game=g.name, headline=g.headline, more=False))
        left = max((len(arm["metrics"]) for arm in results.values()), default=0) - SHOWN
        if left > 0:
            lines.append(f"  (up to {left} more metrics each: every one in --json and the report's metrics.csv)")
        if paired:
            lines.append("Differences on the same seeds (95 %):")
        said = {k: words.paired_label(g.name, k, g.headline) for k in paired}
        width = max((len(x) for x in said.values()), default=0)  # one column of values, however long a label
        for k, v in paired.items():
            metric = k.split(":", 1)[0]
            lines.append(f"  {said[k]:{width}s}  "
                         f"{words.value_text(metric, v['value'], v['ci95'], diff=True, game=g.name)}")
        return "\n".join(lines)

    r = api.compare(game, policies, n=n, seed=seed, config=config, set=sets, out=dest, chunk=chunk,
                    scheduler=scheduler, progress=not as_json, force=force,
                    answered=None if as_json else answer_first(human), **game_opts)
    if as_json:
        emit(r.summary, True, "", json_default)
    elif "report" in r.summary:
        tell(f"report: {r.summary['report']}")


def report(out: Path) -> None:
    games = report_folders(out, list(GAMES))
    if games:
        for name in games:
            build_report(Path(out) / name)
        print(write_dashboard(out, games))
        return
    print(build_report(out))


def balance(n: int, seed: int, out: Path, names: list[str] | None, quiet: bool,
            thresholds: FindingsConfig | None = None, force: bool = False) -> None:
    if quiet:
        set_quiet(True)
    t0 = time.perf_counter()
    built = available()
    unknown = [g for g in names or [] if g not in built]
    if unknown or names == []:
        raise DicesimError(f"--games: unknown game {unknown[0] if unknown else ''!r} (choose from {', '.join(built)})")
    playing = [g for g in names or built if g in built]
    check_runs(n * sum(len(get_game(g).report_policies) for g in playing), force, "--n x every game's policies")
    warmup.start(playing)  # cold kernels: compiled in parallel processes
    path = balance_report(out, n, seed, names, thresholds)
    print(f"balance report: {path} ({time.perf_counter() - t0:.1f} s)")
