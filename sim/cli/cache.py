"""Commands about the installation: ``dicesim configs``, ``dicesim cache info|clear``, ``--version``, ``--quiet``.

Registered on ``sim.cli.common.app`` (imported by ``sim.cli``), like ``sim.cli.sweep``; the work of ``cache`` and
``configs`` is ``sim.cli.work.cache``.
"""

from __future__ import annotations

from pathlib import Path

import typer

from sim import __version__
from sim.cli.catalog import known
from sim.cli.common import JsonOpt, app, work
from sim.core import atomic
from sim.core.names import game_name
from sim.jit.codehash import code_hash
from sim.jit.progress import set_quiet

cache_app = typer.Typer(no_args_is_help=True, help="What dicesim has cached (compiled kernels, solved tables).")
app.add_typer(cache_app, name="cache")


def _version(value: bool) -> None:
    if value:
        print(f"dicesim {__version__} (code {code_hash()})")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="print the version and the code hash, then exit"
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress or compile notices on stderr"),
) -> None:
    """Monte Carlo balance simulator for dice games. Every command takes --help."""
    if quiet:
        set_quiet(True)


@app.command()
def configs(
    game: str | None = typer.Argument(None, callback=game_name, help="only this game's configs (and its sweeps, "
                                      "tunes and targets)", show_default=False),
    copy: Path | None = typer.Option(None, "--copy", help="copy every shipped config into this folder, for editing"),
    as_json: bool = JsonOpt,
) -> None:
    """List the configs that ship with dicesim (use one with --config FILE), or copy them with --copy DIR."""
    if game is not None:
        known(game)  # an unknown game is refused before anything loads
    if copy is not None:
        atomic.check_folder(copy, "--copy")  # a file, the root or the home folder: refused before anything loads
        atomic.not_shipped(copy, "--copy", "configs")
    work("cache").configs(copy, as_json, game)


@cache_app.command("info")
def cache_info(as_json: bool = JsonOpt) -> None:
    """Show where the caches are, what they hold and how big they are."""
    work("cache").info(as_json)


@cache_app.command("warm")
def cache_warm(
    games: list[str] = typer.Argument(None, help="games to compile (default: every game)", show_default=False),
    as_json: bool = JsonOpt,
) -> None:
    """Compile the kernels now, the Würfel Dungeon's optimised (full) tier included, so later runs start at once."""
    games = [game_name(g) for g in games or []]
    for g in games:
        known(g)  # an unknown game is refused before anything loads
    work("cache").warm(games, as_json)


@cache_app.command("clear")
def cache_clear(as_json: bool = JsonOpt) -> None:
    """Remove every compiled kernel and solved table (the next run compiles and solves again)."""
    work("cache").clear(as_json)
