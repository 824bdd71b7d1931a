"""``dicesim fit``: the skill levels of a logged player population (``sim.players``), and the checks of
``play --log`` that need no game; the work is ``sim.cli.work.fit``."""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.catalog import accept
from sim.cli.common import ConfigOpt, JsonOpt, SeedOpt, SetOpt, app, check_out, path_argument, work
from sim.core import atomic
from sim.core.errors import DicesimError
from sim.core.limits import MAX_LOG_ROWS, hidden_char
from sim.core.names import game_name
from sim.players.schema import BY_OUTCOMES, FIT_FILES, FITTED, SUFFIXES, header_refusal, outcomes_path


def refuse_own_report(log: Path, out: Path | None) -> None:
    """A log (or its outcome table) named as a file this play's report writes in ``out`` (its page, manifest,
    metrics and runs tables) is refused before play: ``--log r/metrics.csv`` replaced the table the page was built
    from. ``out``: the report's folder, given or the default one (None: no report)."""
    if out is None:
        return
    for path in (log, outcomes_path(log)):
        mine = path.name in ("report.html", "manifest.json") or path.name.startswith(("runs-", "metrics."))
        if mine and path.parent.resolve() == out.resolve():
            raise DicesimError(f"--log: {path.name} in {out} is a file of this play's report: give the log another "
                               "name")


def check_log(game: str, log: Path, flag: str, out: Path | None = None) -> None:
    """A log is a .parquet or .csv file of a game that has one: one to read must be a file (``LOG``,
    ``--outcomes``), one to write (``--log``) must have a folder that can be one (before the batch is played) and
    may not replace a report's file, of an earlier command or of this play's report in ``out`` (``--log
    r/metrics.csv`` replaced the table the page was built from)."""
    if game not in FITTED:
        said = "fit" if flag == "LOG" else flag  # the game, not the log, is at fault (it named LOG)
        raise DicesimError(f"{said}: {game} has no decision log yet (logged: {', '.join(FITTED)})")
    if log.suffix.lower() not in SUFFIXES:
        if log.is_dir():  # its name has no suffix to go by: that it is a folder is the news
            eg = f" (e.g. --log {log / 'log.csv'})" if flag == "--log" else ""
            raise DicesimError(f"{flag} {log} is a folder: a log is a .parquet or .csv file{eg}")
        raise DicesimError(f"{flag} {log}: a log is a .parquet or .csv file")
    if flag == "--log":
        if log.stem.lower().endswith(".outcomes"):  # its own outcomes went to x.outcomes.outcomes.csv, unread by fit
            raise DicesimError(f"--log {log}: a name ending in .outcomes names an outcome table: give the decision "
                               f"log its own name (its outcomes go beside it as NAME.outcomes{log.suffix})")
        if (odd := hidden_char(log.name)) is not None:  # a line break in a file name the studio's picker refuses
            raise DicesimError(f"--log {ascii(log.name)[:60]}: the name holds a control or invisible character "
                               f"(U+{ord(odd):04X})")
        check_out(log.parent, "--log's folder")
        for path in (log, outcomes_path(log)):  # the decision log and its outcome table beside it
            if path.is_dir():
                raise DicesimError(f"--log: {path} is a folder, where the log writes a file")
            atomic.check_own_files(path.parent, [path], "--log")
        refuse_own_report(log, out)
        if outcomes_path(log).exists() and not log.exists():  # not the pair of an earlier --log: a file never named
            raise DicesimError(f"--log {log} would replace {outcomes_path(log)}, which no log of that name wrote (the "
                               "outcomes go beside the log): move that file, or name another log")
    elif log.is_dir():
        raise DicesimError(f"{flag} {log} is a folder: name the log file in it")
    elif not log.is_file():
        why = "not a plain file (a pipe or a device)" if log.exists() else "no such file"
        raise DicesimError(f"{flag} {log}: {why}")


@app.command()
def fit(
    game: str = typer.Argument(..., callback=game_name, help=" | ".join(FITTED)),
    log: Path = path_argument("decision log", "the decision log (.parquet or .csv; docs/logs.md); Würfel Dungeon and "
                               "Dungeon24, fitted by outcomes: the decision log or the outcome table alone"),
    outcomes: Path | None = typer.Option(None, "--outcomes", help="the per-game outcome table (default: "
                                         "LOG's NAME.outcomes.parquet|csv beside it when present)"),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/GAME-fit)"),
    seed: int = SeedOpt,
    as_json: bool = JsonOpt,
    force: bool = typer.Option(False, "--force", help=f"read a log of more than {MAX_LOG_ROWS:,} rows (memory "
                               "grows with the rows: about 2 KB each)"),
) -> None:
    """Fit the skill level of each logged player and of the population (a mixture of levels when BIC prefers
    one), with where they lose points: population.toml, fit.html and players.csv in --out (docs/logs.md)."""
    check_log(game, log, "LOG")
    if outcomes is not None:
        check_log(game, outcomes, "--outcomes")
    check_out(out, kind="fit.json")  # before the game: a file named as the output folder is refused at once
    dest = out or Path("reports") / f"{game}-fit"
    for path in (log, outcomes or outcomes_path(log)):  # fit LOG --out LOG's folder replaced the log by players.csv
        if path.name in FIT_FILES and path.exists() and path.parent.resolve() == dest.resolve():
            raise DicesimError(f"the fit would replace the log it reads by its own {path.name}: give it another "
                               f"folder than {dest} (--out)")
    rules, sets = accept(game, {}, None, config, set_)
    refusal = header_refusal(game, log, outcomes, force)  # a log without its game's columns: from its header
    if refusal is not None:
        raise refusal
    if game in BY_OUTCOMES:  # its outcome rows checked before the game loads (the config built here, once)
        rules, sets = work("fit_rows").checked_rows(game, log, outcomes, rules, sets, force), None
    work("fit").fit(game, log, outcomes, rules, sets, dest, seed, as_json, force)
