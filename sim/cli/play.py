"""The commands that play batches: ``play``, ``compare``, ``balance`` and ``report`` (rebuilding pages)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer

from sim.cli.common import (
    GAME_NAMES,
    ChunkOpt,
    ConfigOpt,
    ForceOpt,
    JsonOpt,
    SchedulerOpt,
    SeedOpt,
    SetOpt,
    _emit,
    app,
    count_option,
    metric_lines,
    with_game_options,
)
from sim.core.config import DicesimError


@app.command()
@with_game_options
def play(
    game: str = typer.Argument(..., help=GAME_NAMES),
    policy: str = typer.Option(..., "--policy", help="policy name (comma list: one per seat, cycled)"),
    n: int = count_option(10_000, "--n", help="number of runs"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/GAME-POLICY)"),
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report", help="skip tables, charts and report.html"),
    chunk: int | None = ChunkOpt,
    scheduler: str | None = SchedulerOpt,
    force: bool = ForceOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Play N runs of one policy and report metrics (tables, charts, report.html in --out)."""
    from sim.core.limits import check_n

    check_n(n, force)
    from sim import api
    from sim.games import get_game

    dest = None if no_report else (out or Path("reports") / f"{game}-{policy.replace(',', '_')}")
    r = api.play(game, policy, n=n, seed=seed, config=config, set=set_, out=dest, chunk=chunk, scheduler=scheduler,
                 progress=not as_json, force=force, **(game_opts or {}))
    g, summary, metrics = get_game(game), r.summary, r.summary["metrics"]
    human = "\n".join(
        [f"{g.title} · {policy} · n={n} · seed={seed} · {summary['runs_per_second']:,.0f} runs/s",
         *metric_lines(metrics)]
        + ([f"report: {summary['report']}"] if "report" in summary else [])
    )
    _emit(summary, as_json, human)


@app.command()
@with_game_options
def compare(
    game: str = typer.Argument(...),
    policies: str = typer.Option(..., "--policies", help="comma list, e.g. random,greedy,optimal"),
    n: int = count_option(10_000, "--n", help="runs per policy"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/GAME-compare)"),
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report"),
    chunk: int | None = ChunkOpt,
    scheduler: str | None = SchedulerOpt,
    force: bool = ForceOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Play several policies on the same seeds (paired) and compare their metrics."""
    from sim.core.limits import check_n, check_runs

    check_runs(check_n(n, force) * max(1, len([p for p in policies.split(",") if p.strip()])), force)
    from sim import api
    from sim.games import get_game

    dest = None if no_report else (out or Path("reports") / f"{game}-compare")
    r = api.compare(game, policies, n=n, seed=seed, config=config, set=set_, out=dest, chunk=chunk,
                    scheduler=scheduler, progress=not as_json, force=force, **(game_opts or {}))
    g, summary = get_game(game), r.summary
    results, paired = summary["policies"], summary["paired"]
    lines = [f"{g.title} · compare · n={n} · seed={seed} (same seeds for every policy)"]
    for label, r in results.items():
        lines.append(f"{label}:")
        lines.extend(metric_lines(r["metrics"], 6))
    for k, v in paired.items():
        lines.append(f"  {k:28s} {v['value']:.4g}  [{v['ci95'][0]:.4g}, {v['ci95'][1]:.4g}]")
    if "report" in summary:
        lines.append(f"report: {summary['report']}")
    _emit(summary, as_json, "\n".join(lines))


@app.command()
def report(out: Path = typer.Argument(..., help="an output folder of play/compare")) -> None:
    """Rebuild charts and report.html of an output folder (or a balance report's dashboard) from stored tables."""
    from sim.games import GAMES
    from sim.report.outputs import build_report

    found = {p.parent.name for p in Path(out).glob("*/manifest.json")}
    games = [g for g in GAMES if g in found] + sorted(found - set(GAMES))
    if not (Path(out) / "manifest.json").is_file() and games:
        from sim.report.balance import write_dashboard

        for name in games:
            build_report(Path(out) / name)
        print(write_dashboard(out, games))
        return
    print(build_report(out))


@app.command()
def balance(
    n: int = count_option(20_000, "--n", help="runs per game and policy"),
    seed: int = SeedOpt,
    out: Path = typer.Option(Path("reports/latest"), "--out"),
    games: str | None = typer.Option(None, "--games", help="comma list (default: every game)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress or compile notices (also: dicesim --quiet)"),
    force: bool = ForceOpt,
) -> None:
    """The default balance report over all games: reports/latest/report.html."""
    from sim.core.limits import check_n

    check_n(n, force)
    from sim.games import available
    from sim.jit import warmup
    from sim.jit.progress import set_quiet
    from sim.report.balance import balance_report

    if quiet:
        set_quiet(True)
    t0 = time.perf_counter()
    names = [g.strip() for g in games.split(",")] if games else None
    built = available()
    unknown = [g for g in names or [] if g not in built]
    if unknown or names == []:
        raise DicesimError(f"--games: unknown game {unknown[0] if unknown else ''!r} (choose from {', '.join(built)})")
    warmup.start([g for g in names or built if g in built])  # cold kernels: compiled in parallel processes
    path = balance_report(out, n, seed, names)
    print(f"balance report: {path} ({time.perf_counter() - t0:.1f} s)")
