"""``dicesim findings GAME``: the balance findings of one game (its arguments and the checks that need no game; the
work is ``sim.cli.work.findings``). The ``[findings]`` thresholds are taken out of ``--config`` and ``--set`` and
checked here (``sim.report.findings.config``, pydantic only); the rest is the game's, checked by its config model."""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.catalog import known
from sim.cli.common import GAME_NAMES, ConfigOpt, JsonOpt, SeedOpt, app, check_out, count_option, work
from sim.core.limits import check_n
from sim.core.names import game_name


@app.command()
def findings(
    game: str = typer.Argument(..., callback=game_name, help=GAME_NAMES),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = typer.Option(None, "--set", help="override a config field, or a threshold: "
                                          "--set findings.seat_min_pp=3 (repeatable)"),
    n: int = count_option(2_000, "--n", help="runs per policy of the game's balance report"),
    seed: int = SeedOpt,
    out: Path | None = typer.Option(None, "--out", help="keep the report and findings.json in this folder "
                                    "(default: a temporary folder)"),
    as_json: bool = JsonOpt,
) -> None:
    """Balance findings of one game: seat advantage, dominant and trap options, economy loops, unused content,
    degenerate strategies, difficulty cliffs, runaway stacking; each with its value, interval, evidence and a
    replay line (--json: {"findings": [...]})."""
    check_n(n, flag=None)  # findings has no --force
    check_out(out, kind="manifest.json")
    entry = known(game)
    data, sets, thresholds = work("findings_rules").checked(game, entry.config if entry else None, config, set_)
    work("findings").findings(game, config, data, sets, thresholds, n, seed, out, as_json)
