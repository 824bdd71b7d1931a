"""The commands that play batches: ``play``, ``compare``, ``balance`` and ``report`` (rebuilding pages): their
arguments and the checks that need no game; the work is ``sim.cli.work.play``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from sim.cli.catalog import accept, check_compared, known
from sim.cli.common import (
    GAME_NAMES,
    ChunkOpt,
    ConfigOpt,
    ForceOpt,
    JsonOpt,
    SchedulerOpt,
    SeedOpt,
    SetOpt,
    app,
    check_out,
    count_option,
    path_argument,
    policies_help,
    with_game_options,
    work,
)
from sim.cli.fit import check_log
from sim.core.errors import DicesimError
from sim.core.limits import check_n, check_runs, check_whole_players
from sim.core.names import compared, game_name
from sim.games import GAMES
from sim.report.manifest import check_report_folder


@app.command()
@with_game_options
def play(
    game: str = typer.Argument(..., callback=game_name, help=GAME_NAMES),
    policy: str = typer.Option(..., "--policy", help=policies_help("policy name (comma list: one per seat, cycled)")),
    n: int = count_option(10_000, "--n", help="number of runs"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/GAME-POLICY, or -2, -3, … "
                                     "when that holds an earlier run)"),
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report", help="skip tables, charts and report.html"),
    chunk: int | None = ChunkOpt,
    scheduler: str | None = SchedulerOpt,
    force: bool = ForceOpt,
    log: Path | None = typer.Option(None, "--log", help="also write each decision of the first seat to this log "
                                    "(.parquet or .csv; docs/logs.md) and the games' outcomes beside it"),
    games_per_player: int | None = typer.Option(None, "--games-per-player", min=1, max=1_000_000, help="consecutive "
                                                "runs played by one player (the log's player ids; "
                                                "skill.games_per_player)"),
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Play N runs of one policy and report metrics (tables, charts, report.html in --out)."""
    check_n(n, force)
    if games_per_player is not None:  # the config's own figure: checked with the config (``play_log``)
        check_whole_players(n, games_per_player)
    check_out(out, kind="manifest.json")
    if log is not None:
        check_log(game, log, "--log", None if no_report else out)
    rules, sets = accept(game, game_opts, policy, config, set_, seated=True)
    unused_out(out, no_report)
    if log is not None or games_per_player is not None:
        work("fit").play_log(game, policy, n, seed, rules, sets, out, as_json, no_report, chunk, scheduler, force,
                             game_opts or {}, log, games_per_player)
        return
    work("play").play(game, policy, n, seed, rules, sets, out, as_json, no_report, chunk, scheduler, force,
                      game_opts or {})


@app.command()
@with_game_options
def compare(
    game: str = typer.Argument(..., callback=game_name),
    policies: str = typer.Option(..., "--policies", help=policies_help("comma list, e.g. random,greedy,optimal")),
    n: int = count_option(10_000, "--n", help="runs per policy"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/GAME-compare, or -2, -3, … "
                                     "when that holds an earlier run)"),
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report"),
    chunk: int | None = ChunkOpt,
    scheduler: str | None = SchedulerOpt,
    force: bool = ForceOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Play several policies on the same seeds (paired) and compare their metrics."""
    named = compared(policies)  # none, or one twice: refused in the words of sim.core.experiment
    check_compared(game, named)  # one loadout twice, in another order
    check_out(out, kind="manifest.json")
    check_runs(check_n(n, force) * len(named), force)
    rules, sets = accept(game, game_opts, policies, config, set_)
    unused_out(out, no_report)
    work("play").compare(game, policies, n, seed, rules, sets, out, as_json, no_report, chunk, scheduler, force,
                         game_opts or {})


@app.command()
def report(out: Path = path_argument("output folder", "an output folder of play/compare")) -> None:
    """Rebuild charts and report.html of an output folder (or a balance report's dashboard) from stored tables."""
    check_report_folder(out, list(GAMES))  # not an output folder: refused before pandas and the games
    work("play").report(out)


@app.command()
def balance(
    n: int = count_option(20_000, "--n", help="runs per game and policy"),
    seed: int = SeedOpt,
    out: Path = typer.Option(Path("reports/latest"), "--out"),
    games: str | None = typer.Option(None, "--games", help="comma list (default: every game)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress or compile notices (also: dicesim --quiet)"),
    force: bool = ForceOpt,
    set_: list[str] | None = typer.Option(None, "--set", help="a findings threshold, e.g. --set "
                                          "findings.seat_min_pp=3 (repeatable; the [findings] fields of dicesim "
                                          "findings; every game plays its own default config)"),
    config: Path | None = typer.Option(None, "--config", help="a TOML file with a [findings] section only: the "
                                       "detectors' thresholds (--set findings.NAME=VALUE overrides it)"),
) -> None:
    """The default balance report over all games: reports/latest/report.html, findings.json and the dashboard's
    Findings section."""
    check_n(n, force)
    check_out(out, kind="balance.json")
    names = None if games is None else [game_name(g) for g in games.split(",")]
    for i, g in enumerate(names or []):
        if not g:  # "kniffel," read as a game named '' (policy lists say it in these words)
            said = "is empty" if not games.strip() else f"{games!r} holds an empty name"
            raise DicesimError(f"--games {said}: name each game once, e.g. --games kniffel,dadox")
        known(g)  # an unknown name is refused before any game is imported
        if g in names[:i]:
            raise DicesimError(f"--games names {g!r} twice: give each game once")
    thresholds = work("findings_rules").thresholds(set_, config)  # refused before any game is played
    work("ahead").compile_ahead(n, names, force)
    work("play").balance(n, seed, out, names, quiet, thresholds, force)


def unused_out(out: Path | None, no_report: bool) -> None:
    """``--out`` beside ``--no-report`` names a folder nothing is written to: said, not ignored in silence."""
    if out is not None and no_report:
        print(f"note: --no-report writes no tables, charts or report, so nothing goes to --out {out}",
              file=sys.stderr)
