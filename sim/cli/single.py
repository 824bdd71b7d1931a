"""The commands about one game without a batch: ``solve``, ``replay`` (text or ``--json`` records), ``describe``:
their arguments and the checks that need no game; the work is ``sim.cli.work.single``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from sim.cli.answers import answer, key
from sim.cli.catalog import accept, plain_options, supports
from sim.cli.common import ConfigOpt, JsonOpt, SeedOpt, SetOpt, app, policies_help, with_game_options, work
from sim.core.errors import DicesimError
from sim.core.limits import check_run, parse_count
from sim.core.names import game_name
from sim.games.options import check_solve_sets, unread_option


@app.command()
@with_game_options
def solve(
    game: str = typer.Argument(..., callback=game_name),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    fresh: bool = typer.Option(
        False, "--fresh", "--no-cache", help="solve again without reading the cached table (seconds exclude compiling)"
    ),
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Build (or load the cached) exact solution and print its expected value."""
    if supports(game, "solve") is False:
        raise DicesimError(f"{game} has no exact solver")  # Game.solve's words, before the game loads
    if said := unread_option(game, "solve", game_opts or {}):
        raise DicesimError(said)
    rules, sets = accept(game, game_opts, None, config, set_)
    check_solve_sets(game, game_opts or {}, set_, rules)  # a field the solve never reads: the same answer
    work("single").solve(game, rules, sets, as_json, fresh, game_opts or {})


@app.command()
@with_game_options
def replay(
    game: str = typer.Argument(..., callback=game_name),
    seed: int = SeedOpt,
    run: int = typer.Option(0, "--run", parser=lambda t: parse_count(t, "--run"), metavar="<int>",
                            help="run index within the batch (0, 1, …; 1e3 means 1000)"),
    policy: str | None = typer.Option(None, "--policy",
                                      help=policies_help("policy (default: the game's first report policy)")),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = typer.Option(False, "--json", help="print the run's decoded events as one JSON object"),
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Show one run turn by turn, exactly as run --run of a batch with --seed (--json: the event records)."""
    check_run(run)
    rules, sets = accept(game, game_opts, policy, config, set_, seated=True)
    work("single").replay(game, seed, run, policy, rules, sets, as_json, game_opts or {})


@app.command()
@with_game_options
def describe(
    game: str = typer.Argument(..., callback=game_name),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """The derived rule tables a designer checks (JSON with --json)."""
    if said := unread_option(game, "describe", game_opts or {}):
        raise DicesimError(said)
    rules, sets = accept(game, game_opts, None, config, set_)
    k = key("describe", game, [sorted((game_opts or {}).items()), as_json], rules, sets)
    if (plain := plain_options(game, game_opts or {})) is not None:  # its rules as Python: no kernels
        answer(k, lambda: work("tables").show(work("tables").describe(game, rules, sets, plain), as_json))
    else:
        answer(k, lambda: work("single").describe(game, rules, sets, as_json, game_opts or {}))
