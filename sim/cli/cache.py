"""Commands about the installation: ``dicesim configs``, ``dicesim cache info|clear``, ``--version``, ``--quiet``.

Registered on ``sim.cli.common.app`` (imported by ``sim.cli``), like ``sim.cli.sweep``.
"""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.common import JsonOpt, _emit, app
from sim.core.config import CONFIG_DIR, DicesimError

cache_app = typer.Typer(no_args_is_help=True, help="What dicesim has cached (compiled kernels, solved tables).")
app.add_typer(cache_app, name="cache")


def _version(value: bool) -> None:
    if value:
        from sim import __version__
        from sim.jit.codehash import code_hash

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
    from sim.jit.progress import set_quiet

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
        from sim.core import atomic

        with atomic.output_folder(copy, "--copy"):
            for f in files:
                atomic.make_folder((copy / f).parent, "--copy")
                atomic.copy_file(CONFIG_DIR / f, copy / f)
        result = {"copied_to": str(copy), "files": [str(f) for f in files]}
        _emit(result, as_json, f"copied {len(files)} configs to {copy}/ (use e.g. --config {copy / files[0]})")
        return
    result = {"folder": str(CONFIG_DIR), "files": [str(f) for f in files]}
    _emit(result, as_json, "\n".join([f"configs shipped with dicesim ({CONFIG_DIR}):", *(f"  {f}" for f in files)]))


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


@cache_app.command("info")
def cache_info(as_json: bool = JsonOpt) -> None:
    """Show where the caches are, what they hold and how big they are."""
    from sim.core import cache
    from sim.jit import tier

    d = cache.info()
    d["tier"] = t = tier.state()
    lines = [f"cache folder: {d['root']} ({_mb(d['bytes'])}; DICESIM_CACHE_DIR moves it)"]
    lines.append(f"compiled kernels: {d['numba']}")
    full = ("cached" if t["full_cached"] else "compiling in the background" if t["full_compiling"]
            else "not compiled yet")
    lines.append(f"  Würfel Dungeon: this command would use its {t['tier']} kernels; optimised (full) kernels: {full}")
    lines += [f"  {k['module']:32s} {k['files']:4d} files {_mb(k['bytes']):>9s}" for k in d["kernels"]] or ["  (none)"]
    lines.append("solved tables:")
    lines += [f"  {t['game']}/{t['file']:48s} {_mb(t['bytes']):>9s}" for t in d["tables"]] or ["  (none)"]
    _emit(d, as_json, "\n".join(lines))


@cache_app.command("clear")
def cache_clear(as_json: bool = JsonOpt) -> None:
    """Remove every compiled kernel and solved table (the next run compiles and solves again)."""
    from sim.core import cache

    freed = cache.clear()
    _emit({"cleared": str(cache.cache_root()), "bytes": freed}, as_json, f"cleared {cache.cache_root()} ({_mb(freed)})")
