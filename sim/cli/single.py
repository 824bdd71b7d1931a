"""The commands about one game without a batch: ``solve``, ``replay`` (text or ``--json`` records), ``describe``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from sim.cli.common import ConfigOpt, JsonOpt, SeedOpt, SetOpt, _emit, _jsonable, app, setup, with_game_options


@app.command()
@with_game_options
def solve(
    game: str = typer.Argument(...),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    fresh: bool = typer.Option(
        False, "--fresh", "--no-cache", help="solve again without reading the cached table (seconds exclude compiling)"
    ),
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Build (or load the cached) exact solution and print its expected value."""
    g, cfg, options = setup(game, config, set_, game_opts or {})
    options = {**options, "no_cache": fresh}
    from sim.jit.progress import compiling

    with compiling(g.name, g.title, g.compile_estimate_s):
        result = g.solve(cfg, options)
    extra = " (cached)" if result.get("cached") else ""
    _emit(
        result, as_json, f"{g.title}: optimal expected value {result['value']:.7f} in {result['seconds']:.2f} s{extra}"
    )


@app.command()
@with_game_options
def replay(
    game: str = typer.Argument(...),
    seed: int = SeedOpt,
    run: int = typer.Option(0, "--run", help="run index within the batch"),
    policy: str | None = typer.Option(None, "--policy", help="policy (default: the game's first report policy)"),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = typer.Option(False, "--json", help="print the run's decoded events as one JSON object"),
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Show one run turn by turn, exactly as run --run of a batch with --seed (--json: the event records)."""
    from sim.core.limits import check_run

    check_run(run)
    opts = game_opts or {}
    g, cfg, options = setup(game, config, set_, opts)
    seats = g.seat_policies(policy or g.report_policies[-1], options)
    g.prepare(cfg, seats, options)
    if as_json:
        from sim.core.events import replay_json

        _emit(replay_json(g, cfg, seats, seed, run, options), True, "")
        return
    print(f"{g.title} replay · seed {seed} · run {run}")
    print(g.replay(cfg, seats, seed, run, options))


@app.command()
@with_game_options
def describe(
    game: str = typer.Argument(...),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """The derived rule tables a designer checks (JSON with --json)."""
    g, cfg, options = setup(game, config, set_, game_opts or {})
    d = g.describe(cfg, options)
    cols = g.table_columns(cfg, options)
    if cols and "columns" not in d:  # the per-run table a batch writes, as the game declares it
        from sim.core.schema import describe_columns

        d["columns"] = describe_columns(cols)
    _emit(d, as_json, json.dumps(d, indent=2, default=_jsonable, ensure_ascii=False))
