"""The work of ``dicesim cache info|clear`` and ``configs`` (their arguments: ``sim.cli.cache``)."""

from __future__ import annotations

import contextlib
from pathlib import Path

from sim.cli.common import emit
from sim.core import atomic, cache
from sim.core.config import CONFIG_DIR, DicesimError
from sim.core.paths import TABLES_BUDGET
from sim.games import GAMES, get_game
from sim.jit import tier, warmup
from sim.jit.progress import compiling


def _size(n: int) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.1f} MB"


def shipped_configs() -> list[Path]:
    """Every default config file that ships with dicesim, relative to the configs folder."""
    return sorted(p.relative_to(CONFIG_DIR) for p in CONFIG_DIR.rglob("*.toml"))


def _about(path: Path, most: int = 100) -> str:
    """What a shipped config is, from the comment it opens with: its first sentence (``no-bonus.toml``: "No Kniffel
    bonus and no joker (the upper bonus stays)"; the name alone hid that the upper bonus stays)."""
    try:
        head = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.startswith("#"):
                break
            head.append(line.lstrip("# ").strip())
    except (OSError, UnicodeDecodeError):
        return ""
    text = " ".join(head)
    first = text.split(". ", 1)[0].rstrip(".")
    return first if len(first) <= most else first[: most - 1].rstrip() + "…"


def configs(copy: Path | None, as_json: bool, game: str | None = None) -> None:
    files = shipped_configs()
    if game is not None:  # its folder, and the sweeps, tunes and targets named for it (sweeps/kniffel-bonus.toml)
        files = [f for f in files if f.parts[0] == game or f.stem == game or f.stem.startswith(f"{game}-")]
    if copy is None:
        about = {str(f): _about(CONFIG_DIR / f) for f in files}
        result = {"folder": str(CONFIG_DIR), "files": [str(f) for f in files], "about": about}
        head = f"configs shipped with dicesim{f' for {game}' if game else ''} ({CONFIG_DIR}):"
        width = max((len(str(f)) for f in files), default=0)
        emit(result, as_json, "\n".join([head, *(f"  {str(f):{width}s}  {about[str(f)]}".rstrip() for f in files)]))
        return
    if copy.exists() and not copy.is_dir():
        raise DicesimError(f"--copy needs a folder, but {copy} is a file")
    owner = next((what for name, (what, _) in atomic.KINDS.items() if (copy / name).is_file()), None)
    if owner:  # the configs would mix with a report's files (every other command refuses another's folder)
        raise DicesimError(f"--copy {copy} holds {owner}: give the configs a folder of their own")
    clash = [f for f in files if (copy / f).exists() or (copy / f).is_symlink()]  # a link to nothing is yours too
    if clash:
        raise DicesimError(f"{copy / clash[0]} exists already ({len(clash)} of the files); choose an empty folder")
    made = [] if copy.exists() else [copy]
    try:
        with atomic.output_folder(copy, "--copy"), atomic.transaction(copy):  # all the files or none (a full disk)
            for f in files:
                if not (copy / f).parent.exists():
                    made.append((copy / f).parent)
                atomic.make_folder((copy / f).parent, "--copy")
                atomic.copy_file(CONFIG_DIR / f, copy / f)
    except BaseException:
        for folder in reversed(made):  # the folders it made go too: the copy can be asked for again
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    result = {"copied_to": str(copy), "files": [str(f) for f in files]}
    emit(result, as_json, f"copied {len(files)} config{'s' if len(files) != 1 else ''} to {copy}/ (use e.g. --config "
                          f"{copy / files[0]})")


def info(as_json: bool) -> None:
    d = cache.info()
    d["tier"] = t = tier.state()
    lines = [f"cache folder: {d['root']} ({_size(d['bytes'])}; DICESIM_CACHE_DIR moves it)"]
    lines.append(f"compiled kernels: {d['numba']}")
    full = ("cached" if t["full_cached"] else "compiling in the background" if t["full_compiling"]
            else "not compiled yet")
    lines.append(f"  Würfel Dungeon: this command would use its {t['tier']} kernels; optimised (full) kernels: {full}")
    kernels = [f"  {k['module']:32s} {k['files']:4d} files {_size(k['bytes']):>9s}" for k in d["kernels"]]
    lines += kernels or ["  (none)"]
    lines.append(f"solved tables (kept within {_size(TABLES_BUDGET)}, the least recently used removed first):")
    lines += _table_lines(d["tables"]) or ["  (none)"]
    lines.append(f"stored answers of combos and describe: {_size(d['answers_bytes'])}")
    emit(d, as_json, "\n".join(lines))


def _table_lines(tables: list[dict]) -> list[str]:
    """One line per game and kind of table (a sweep over Kniffel's rules leaves hundreds of ``greedy`` files): how
    many, and their size."""
    kinds: dict[str, list[int]] = {}
    for t in tables:
        kinds.setdefault(f"{t['game']}/{t['file'].split('-', 1)[0]}", []).append(t["bytes"])
    return [f"  {kind:24s} {len(sizes):5d} {'table ' if len(sizes) == 1 else 'tables'} {_size(sum(sizes)):>9s}"
            for kind, sizes in kinds.items()]


def clear(as_json: bool) -> None:
    freed = cache.clear()
    root, kernels = cache.cache_root(), cache.numba_dir()
    apart = not kernels.is_relative_to(root)  # NUMBA_CACHE_DIR elsewhere: its dicesim kernels were cleared there too
    emit({"cleared": str(root), "bytes": freed, **({"kernels": str(kernels)} if apart else {})}, as_json,
         f"cleared dicesim's files in {root}" + (f" and its kernels in {kernels}" if apart else "")
         + f" ({_size(freed)})")


def warm(games: list[str], as_json: bool) -> None:
    """Compile ``games`` (default every game) for their reports, the Würfel Dungeon on its full tier: one process
    per game, as many at once as there are cores (``sim.jit.warmup``), each waited for with its progress shown."""
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise DicesimError(f"unknown game {unknown[0]!r} (choose from {', '.join(GAMES)})")
    tier.force(tier.FULL)
    chosen = list(dict.fromkeys(games)) or list(GAMES)
    cold = [g for g in chosen if warmup.is_cold(g)]
    started = warmup.start(cold)
    for g in cold:
        if g in started:
            warmup.wait_for(g, get_game(g).title)
        else:  # one cold game compiles here: said and shown as a run's compile is (it was silent for minutes)
            with compiling(g, get_game(g).title):
                warmup.warm(g)
    left = [g for g in chosen if warmup.is_cold(g)]
    if left:
        raise DicesimError(f"compiling {get_game(left[0]).title} failed (see the lines above)")
    result = {"compiled": cold, "already_cached": [g for g in chosen if g not in cold], "tier": tier.FULL}
    names = ", ".join(get_game(g).title for g in cold) or "nothing (every kernel was cached)"
    emit(result, as_json, f"compiled: {names}; later runs load them from the cache")
