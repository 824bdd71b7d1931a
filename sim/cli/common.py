"""What every command group shares: the typer app, the common options, the game options (declared on the games,
``Game.option_specs``), the one-line output helpers and :func:`work`, the table of the commands' work modules.

Everything here and in the command groups' modules is light (typer and the standard library): a command
first checks its arguments (``sim.core.limits``, ``sim.cli.catalog``) and only then imports its work module.
"""

from __future__ import annotations

import copy
import functools
import inspect
import numbers
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import typer

from sim import games as _registry  # light: the registry imports no game
from sim.core import atomic  # light: os and pathlib only
from sim.core.errors import DicesimError
from sim.core.jsonable import strict_json
from sim.core.limits import check_chunk, check_scheduler, check_seed, parse_count
from sim.core.names import policy_label
from sim.report import words  # light: the registry and the games' labels modules

# What each command group does once its arguments are accepted (and ``rules``: the config check, pydantic and a game's
# config model). These modules import the heavy part (numba's kernels, pandas, matplotlib, the web server) at their
# top; the command imports its module here, through this table, only after its checks passed: so --help and every
# refused input stay light (issue 30).
WORK = {
    "rules": "sim.cli.work.rules",
    "fit_rows": "sim.cli.work.fit_rows",
    "files": "sim.cli.work.files",
    "play": "sim.cli.work.play",
    "single": "sim.cli.work.single",
    "tables": "sim.cli.work.tables",
    "extras": "sim.cli.work.extras",
    "sweep": "sim.cli.work.sweep",
    "findings_rules": "sim.cli.work.findings_rules",
    "findings": "sim.cli.work.findings",
    "tune": "sim.cli.work.tune",
    "cache": "sim.cli.work.cache",
    "studio": "sim.cli.work.studio",
    "fit": "sim.cli.work.fit",
    "ahead": "sim.cli.work.ahead",
}


def work(group: str) -> ModuleType:
    """The work module of a command group (:data:`WORK`), imported now."""
    return import_module(WORK[group])


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Monte Carlo balance simulator for dice games. Every command takes --help.",
)

ConfigOpt = typer.Option(None, "--config", help="TOML rules config (default: configs/GAME/default.toml)")
SetOpt = typer.Option(None, "--set", help="override a config field, e.g. --set bonus.value=40 (repeatable)")


def _seed(value: int | None) -> int | None:
    return None if value is None else check_seed(value)


def count_option(default: int | None, *names: str, help: str) -> Any:
    """A number-of-runs option: a whole number as typed (``20000``, ``20_000``, ``2e4``), checked at once."""
    flag = names[0]

    def parse(text: Any) -> int:
        value = parse_count(text, flag)
        if value <= 0:
            raise DicesimError(f"{flag} must be a positive number of runs, got {value}")
        return value

    return typer.Option(default, *names, parser=parse, help=f"{help} (a whole number; 2e4 means 20000)")


def check_out(out: Path | None, flag: str = "--out", kind: str | None = None) -> None:
    """Refuse an output folder that cannot be one before any work (``sim.core.atomic.check_folder``; the writer's
    ``make_folder`` checks again, and creates it, when the command writes), or that holds another command's outputs
    (``kind``: this command's file, ``atomic.check_kind``)."""
    if out is not None:
        atomic.check_folder(out, flag)
        if kind is not None:
            atomic.check_kind(out, kind, flag)
        written = [*(out / n for n in REPORT_FILES), *out.glob("runs-*")] if flag == "--out" else []
        in_way = [p.name for p in written if p.is_dir()]
        if in_way:
            raise DicesimError(f"{flag} {out} holds a folder named {in_way[0]}, where the report writes a file")


REPORT_FILES = ("manifest.json", "report.html", "metrics.csv", "metrics.parquet")  # besides runs-<label>.parquet/.csv


def path_argument(what: str, help: str) -> Any:
    """A required positional file or folder name; an empty one (``report ""``) would read as the current folder once
    a Path: refused while it is still text, naming ``what`` it should have been."""

    def given(text: Any) -> Path:
        if not isinstance(text, Path) and not str(text).strip():
            raise DicesimError(f"the {what} is named {str(text)!r} (empty): give its name")
        return Path(text)

    return typer.Argument(..., parser=given, help=help)


def _chunk(text: Any) -> int:
    """Runs per chunk as ``--n`` reads them (``1e3``, ``1_000``), then within the chunk limits."""
    return check_chunk(parse_count(text, "--chunk"))


def _zero(text: str) -> bool:
    """Whether ``text`` is a count of zero as ``--n`` reads counts (``0``, ``0e3``, ``0_0``)."""
    try:
        return parse_count(text, "--seed") == 0
    except DicesimError:
        return False


def _seed_text(text: Any) -> int:
    """A seed as ``--n`` reads a whole number (``1e3``, ``1_000``; ``1.0`` was taken and ``1e3`` refused), then
    within 0 .. 2^64-1."""
    s = str(text).strip()
    negative = s.startswith("-") and s[1:].strip() and not _zero(s[1:])  # -0 is the seed 0, as --set reads -0
    seed = 0 if negative else parse_count(text, "--seed")
    if negative or seed >= 2**64:  # said as typed: 1e30 came back as 31 digits
        raise DicesimError(f"--seed must be a whole number 0 .. 2^64-1 (18446744073709551615), got {s[:40]!r}")
    return check_seed(seed)


SeedOpt = typer.Option(1, "--seed", parser=_seed_text, callback=_seed, metavar="<int>",
                       help="master seed 0 .. 2^64-1; same seed, same numbers")
ChunkOpt = typer.Option(None, "--chunk", parser=_chunk, metavar="<int>", help="runs per chunk, 1 .. 1,000,000 (does "
                        "not change results)")
ForceOpt = typer.Option(False, "--force", help="play a job above the limits (more than 10^10 runs, or more than "
                        "10,000 sweep points)")
JsonOpt = typer.Option(False, "--json", help="print exactly one JSON object on stdout")
GAME_NAMES = " | ".join(_registry.GAMES)  # a command's game argument in its help: the registry's names


def policies_help(text: str) -> str:
    """An option's help followed by every game's policies (read from the games' options modules, light)."""
    listed = "; ".join(f"{g}: {', '.join(_registry.declared_policies(g))}" for g in _registry.GAMES)
    return f"{text}. Policies (any case) — {listed}; dungeon also NAME@UPGRADE (a run that starts with it)"


POLICY_ARGS = ("policy", "policies", "opponent")  # names, case-insensitive: --policy Greedy is greedy


def _scheduler(value: str | None) -> str | None:
    return None if value is None else check_scheduler(value)


SchedulerOpt = typer.Option(None, "--scheduler", callback=_scheduler, help="Dask scheduler address, e.g. "
                            "tcp://host:8786")


def game_options() -> dict[str, tuple[Any, Any]]:
    """``--name`` options of every game, as the games declare them (``sim.games.declared_options``, read without
    importing the games): name -> (annotation, typer option). Games sharing an option name share the flag (help
    texts joined); each game rejects the ones it has no use for."""
    specs: dict[str, list[Any]] = {}
    for name in _registry.GAMES:
        for spec in _registry.declared_options(name) or ():
            specs.setdefault(spec.name, []).append(spec)
    out: dict[str, tuple[Any, Any]] = {}
    for name, group in specs.items():
        helps = list(dict.fromkeys(s.help for s in group if s.help))
        text = "; ".join(helps) + (f" ({_choices(group)})" if any(s.choices for s in group) and "|" not in helps[0]
                                   else "")
        if group[0].type is int:  # read as --n reads a count (``3``, ``3.0``, ``3e0``), the game checks its range
            out[name] = (int | None, typer.Option(None, group[0].flag, help=text, parser=_whole(group[0].flag)))
        else:
            out[name] = (str | None, typer.Option(None, group[0].flag, help=text))
    return out


def _whole(flag: str) -> Any:
    """A game's whole-number option (``--players``) parsed as ``parse_count`` reads ``--n``: ``1e3`` and ``3.0``
    alike, so that one spelling is not taken where its twin is refused."""
    return lambda text: parse_count(text, flag)


def _choices(group: list[Any]) -> str:
    """An option's choices as a person reads them (``Grünlinge | Untote | Dunkelelfen``: the words ``Option.check``
    takes too) and, where a typed code differs from its word by more than case, that code (``gruenlinge``, easier
    to type than ``Grünlinge``)."""
    said = {c: str((s.words or {}).get(c, c)) for s in group for c in s.choices}
    typed = [f"{c} for {w}" for c, w in said.items() if str(c).casefold() != w.casefold()]
    if not typed:
        return " | ".join(said.values())
    return f"{' | '.join(said.values())}; any case, or {', '.join(typed)}"


def _only_for() -> dict[str, tuple[str, ...]]:
    """Option name -> the commands it is restricted to, where every game that declares it restricts it (``--objective``
    means something to ``solve`` alone: elsewhere it would be ignored in silence)."""
    groups: dict[str, list[tuple[str, ...]]] = {}
    for name in _registry.GAMES:
        for spec in _registry.declared_options(name) or ():
            groups.setdefault(spec.name, []).append(spec.commands)
    return {k: tuple(dict.fromkeys(c for cmds in v for c in cmds)) for k, v in groups.items() if all(v)}


def options_given(**kw: Any) -> dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


def _hidden(opt: Any) -> Any:
    """An option of another command only (``--objective``: ``dicesim solve``) left out of this command's ``--help``;
    still read, so that giving it is refused in words, not as an unknown option."""
    opt = copy.copy(opt)
    opt.hidden = True
    return opt


def with_game_options(func: Callable[..., None]) -> Callable[..., None]:
    """Add the game-specific options (``--players``, ``--difficulty``, …, as the games declare them) to a command.

    The command receives the ones given as ``game_opts`` (a dict; each game rejects those it has no use for),
    so every command that plays a game offers the same options, declared once on the games.
    """
    declared = game_options()
    only = _only_for()
    sig = inspect.signature(func)
    params = [p for p in sig.parameters.values() if p.name != "game_opts"]
    extra = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=ann,
                          default=_hidden(opt) if name in only and func.__name__ not in only[name] else opt)
        for name, (ann, opt) in declared.items()
    ]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        given = {name: kwargs.pop(name, None) for name in declared}
        for name, value in given.items():
            if value is not None and name in only and func.__name__ not in only[name]:
                flag = "--" + name.replace("_", "-")
                raise DicesimError(f"{flag} applies only to dicesim {' and '.join(only[name])}, not {func.__name__}")
        kwargs.update({k: policy_label(kwargs[k]) for k in POLICY_ARGS if k in kwargs})
        given.update({k: policy_label(given[k]) for k in POLICY_ARGS if k in given})
        return func(*args, game_opts=options_given(**given), **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params + extra)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {k: v for k, v in func.__annotations__.items() if k != "game_opts"}
    return wrapper


def emit(summary: dict[str, Any], as_json: bool, human: str, default: Callable[[Any], Any] | None = None) -> None:
    """Exactly one JSON object on stdout with ``--json`` (``default`` turns what JSON lacks into JSON), else the
    human lines."""
    if as_json:
        sys.stdout.write(strict_json(summary, default) + "\n")  # numpy values by ``default``; NaN as null
    else:
        print(human)


NAME_WIDTH = 44  # the metric names' column in a terminal of 80: "bust rate throwing 1 die (all throws)" fits


def metric_lines(metrics: dict[str, dict[str, Any]], limit: int = 14, game: str | None = None,
                 headline: dict[str, str] | None = None, more: bool = True) -> list[str]:
    """The first ``limit`` metrics as a person reads them, in the words and units of the report pages
    (``sim.report.words``): ``wins  11.8 % [11.3, 12.4]``, ``mean score  209.3 points [207.0, 211.6]``; ``game``
    names its display words, ``headline`` its headline metrics' words. ``--json`` keeps the code names and
    fractions. ``more``: a last line says how many metrics are left out."""
    same = {k for k, m in metrics.items()  # a policy's seat rate where each of its games has one seat: said once
            if k.startswith("win_rate_") and (metrics.get(f"game_share_{k[9:]}") or {}).get("value") == m.get("value")}
    every = [(k, m) for k, m in metrics.items() if k not in same]
    shown = every[:limit]
    names = [words.metric_label(game, k, headline) for k, _ in shown]
    width = min(max((len(x) for x in names), default=0), NAME_WIDTH)
    lines = []
    for said, (name, m) in zip(names, shown, strict=True):
        value = m.get("value")
        text = (words.value_text(name, value, m.get("ci95"), game=game) if _number(value)
                else "— (no case in these runs)" if value is None else str(value))  # a rate of nothing: no "None"
        if len(said) > width:  # a longer name on a line of its own: the values stay in one column
            lines.append(f"  {said}")
            said = ""
        lines.append(f"  {said:{width}s}  {text}")
    if more and len(every) > limit:  # it stopped without a word ("bust rate throwing 6 dice" was in the files only)
        lines.append(f"  … and {len(every) - limit} more metrics (every one in --json and the report's metrics.csv)")
    return lines


def _number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)  # numpy's numbers too
