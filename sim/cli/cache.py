"""Commands about the installation: ``dicesim configs``, ``dicesim cache info|clear``, ``--version``, ``--quiet``.

Registered on ``sim.cli.common.app`` (imported by ``sim.cli``), like ``sim.cli.sweep``; the work of ``cache`` and
``configs --copy`` is ``sim.cli.work.cache``.
"""

from __future__ import annotations

from pathlib import Path

import typer

from sim import __version__
from sim.cli.common import JsonOpt, app, emit, work
from sim.core.config import CONFIG_DIR, DicesimError
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


def shipped_configs() -> list[Path]:
    """Every default config file that ships with dicesim, relative to the configs folder."""
    return sorted(p.relative_to(CONFIG_DIR) for p in CONFIG_DIR.rglob("*.toml"))


@app.command()
def configs(
    copy: Path | None = typer.Option(None, "--copy", help="copy every shipped config into this folder, for editing"),
    as_json: bool = JsonOpt,
) -> None:
    """List the configs that ship with dicesim (use one with --config FILE), or copy them with --copy DIR."""
    files = shipped_configs()
    if copy is not None:
        if copy.exists() and not copy.is_dir():
            raise DicesimError(f"--copy needs a folder, but {copy} is a file")
        clash = [f for f in files if (copy / f).exists()]
        if clash:
            raise DicesimError(f"{copy / clash[0]} exists already ({len(clash)} of the files); choose an empty folder")
        work("cache").copy_configs(files, copy, as_json)
        return
    result = {"folder": str(CONFIG_DIR), "files": [str(f) for f in files]}
    emit(result, as_json, "\n".join([f"configs shipped with dicesim ({CONFIG_DIR}):", *(f"  {f}" for f in files)]))


@cache_app.command("info")
def cache_info(as_json: bool = JsonOpt) -> None:
    """Show where the caches are, what they hold and how big they are."""
    work("cache").info(as_json)


@cache_app.command("clear")
def cache_clear(as_json: bool = JsonOpt) -> None:
    """Remove every compiled kernel and solved table (the next run compiles and solves again)."""
    work("cache").clear(as_json)
