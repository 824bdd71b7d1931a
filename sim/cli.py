"""The ``dicesim`` command line (typer). Errors: one ``error:`` line on stderr and exit code 2."""

from __future__ import annotations

import functools
import inspect
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

try:  # typer >= 0.20 vendors its own click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older typer on plain click
    from click import exceptions as click_exc

from sim.config import DicesimError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Monte Carlo balance simulator for dice games. Every command takes --help.",
)

ConfigOpt = typer.Option(None, "--config", help="TOML rules config (default: configs/GAME/default.toml)")
SetOpt = typer.Option(None, "--set", help="override a config field, e.g. --set bonus.value=40 (repeatable)")
SeedOpt = typer.Option(1, "--seed", help="master seed; same seed, same numbers")
JsonOpt = typer.Option(False, "--json", help="print exactly one JSON object on stdout")
PlayersOpt = typer.Option(None, "--players", help="Kniffel, Dadox: players per game")
DifficultyOpt = typer.Option(None, "--difficulty", help="Würfel Dungeon: leicht | normal | schwer")
OpponentOpt = typer.Option(None, "--opponent", help="two-player games: the opponent's policy")
PeopleOpt = typer.Option(None, "--people", help="Dungeon24: your people")
OppPeopleOpt = typer.Option(None, "--opponent-people", help="Dungeon24: the opponent's people")
ArrangementOpt = typer.Option(None, "--arrangement", help="Dungeon24: policy | search | a card order like 2,0,1,4,3")
SchedulerOpt = typer.Option(None, "--scheduler", help="Dask scheduler address, e.g. tcp://host:8786")


def _options(**kw: Any) -> dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


GAME_OPTIONS: dict[str, tuple[Any, Any]] = {
    "players": (int | None, PlayersOpt),
    "difficulty": (str | None, DifficultyOpt),
    "opponent": (str | None, OpponentOpt),
    "people": (str | None, PeopleOpt),
    "opponent_people": (str | None, OppPeopleOpt),
    "arrangement": (str | None, ArrangementOpt),
}


def with_game_options(func: Callable[..., None]) -> Callable[..., None]:
    """Add the game-specific options (--players, --difficulty, ...) to a command.

    The command receives the ones given as ``game_opts`` (a dict; each game rejects those it has no
    use for), so every command that plays a game offers the same options, declared once.
    """
    sig = inspect.signature(func)
    params = [p for p in sig.parameters.values() if p.name != "game_opts"]
    extra = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=opt, annotation=ann)
        for name, (ann, opt) in GAME_OPTIONS.items()
    ]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        given = {name: kwargs.pop(name, None) for name in GAME_OPTIONS}
        return func(*args, game_opts=_options(**given), **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params + extra)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {k: v for k, v in func.__annotations__.items() if k != "game_opts"}
    return wrapper


def _setup(game_name: str, config: Path | None, sets: list[str] | None, opts: dict[str, Any]):
    from sim.games import get_game

    game = get_game(game_name)
    options = game.check_options(opts)
    cfg = game.load(config, sets or [])
    return game, cfg, options


def _emit(summary: dict[str, Any], as_json: bool, human: str) -> None:
    if as_json:
        sys.stdout.write(json.dumps(summary, default=_jsonable) + "\n")
    else:
        print(human)


def _jsonable(o: Any) -> Any:
    from sim.report import json_default

    return json_default(o)


def _metric_lines(metrics: dict[str, dict[str, Any]], limit: int = 14) -> list[str]:
    lines = []
    for name, m in list(metrics.items())[:limit]:
        ci = m.get("ci95")
        txt = f"{m['value']:.4g}" if isinstance(m["value"], float) else str(m["value"])
        if ci:
            txt += f"  [{ci[0]:.4g}, {ci[1]:.4g}]"
        lines.append(f"  {name:28s} {txt}")
    return lines


@app.command()
@with_game_options
def play(
    game: str = typer.Argument(..., help="kniffel | dungeon | dadox | dungeon24"),
    policy: str = typer.Option(..., "--policy", help="policy name (comma list: one per seat, cycled)"),
    n: int = typer.Option(10_000, "--n", help="number of runs"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/GAME-POLICY)"),
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report", help="skip tables, charts and report.html"),
    chunk: int | None = typer.Option(None, "--chunk", help="runs per chunk (does not change results)"),
    scheduler: str | None = SchedulerOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Play N runs of one policy and report metrics (tables, charts, report.html in --out)."""
    from sim import api
    from sim.games import get_game

    dest = None if no_report else (out or Path("reports") / f"{game}-{policy.replace(',', '_')}")
    r = api.play(game, policy, n=n, seed=seed, config=config, set=set_, out=dest, chunk=chunk, scheduler=scheduler,
                 progress=not as_json, **(game_opts or {}))
    g, summary, metrics = get_game(game), r.summary, r.summary["metrics"]
    human = "\n".join(
        [f"{g.title} · {policy} · n={n} · seed={seed} · {summary['runs_per_second']:,.0f} runs/s",
         *_metric_lines(metrics)]
        + ([f"report: {summary['report']}"] if "report" in summary else [])
    )
    _emit(summary, as_json, human)


@app.command()
@with_game_options
def compare(
    game: str = typer.Argument(...),
    policies: str = typer.Option(..., "--policies", help="comma list, e.g. random,greedy,optimal"),
    n: int = typer.Option(10_000, "--n"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="output folder (default reports/GAME-compare)"),
    as_json: bool = JsonOpt,
    no_report: bool = typer.Option(False, "--no-report"),
    chunk: int | None = typer.Option(None, "--chunk"),
    scheduler: str | None = SchedulerOpt,
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Play several policies on the same seeds (paired) and compare their metrics."""
    from sim import api
    from sim.games import get_game

    dest = None if no_report else (out or Path("reports") / f"{game}-compare")
    r = api.compare(game, policies, n=n, seed=seed, config=config, set=set_, out=dest, chunk=chunk,
                    scheduler=scheduler, progress=not as_json, **(game_opts or {}))
    g, summary = get_game(game), r.summary
    results, paired = summary["policies"], summary["paired"]
    lines = [f"{g.title} · compare · n={n} · seed={seed} (same seeds for every policy)"]
    for label, r in results.items():
        lines.append(f"{label}:")
        lines.extend(_metric_lines(r["metrics"], 6))
    for k, v in paired.items():
        lines.append(f"  {k:28s} {v['value']:.4g}  [{v['ci95'][0]:.4g}, {v['ci95'][1]:.4g}]")
    if "report" in summary:
        lines.append(f"report: {summary['report']}")
    _emit(summary, as_json, "\n".join(lines))


@app.command()
def solve(
    game: str = typer.Argument(...),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    objective: str | None = typer.Option(None, "--objective", help="Dadox: turn | win"),
    fresh: bool = typer.Option(
        False, "--fresh", "--no-cache", help="solve again without reading the cached table (seconds exclude compiling)"
    ),
) -> None:
    """Build (or load the cached) exact solution and print its expected value."""
    g, cfg, options = _setup(game, config, set_, _options(objective=objective) if objective else {})
    options = {**options, "no_cache": fresh}
    from sim.progress import compiling

    with compiling(g.name, g.title):
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
    game_opts: dict[str, Any] | None = None,
) -> None:
    """Show one run turn by turn, exactly as run --run of a batch with --seed."""
    if run < 0:
        raise DicesimError(f"--run must be >= 0, got {run}")
    opts = game_opts or {}
    g, cfg, options = _setup(game, config, set_, opts)
    seats = g.seat_policies(policy or g.report_policies[-1], options)
    g.prepare(cfg, seats, options)
    print(f"{g.title} replay · seed {seed} · run {run}")
    print(g.replay(cfg, seats, seed, run, options))


@app.command()
def describe(
    game: str = typer.Argument(...),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    difficulty: str | None = DifficultyOpt,
) -> None:
    """The derived rule tables a designer checks (JSON with --json)."""
    g, cfg, options = _setup(game, config, set_, _options(difficulty=difficulty))
    d = g.describe(cfg, options)
    _emit(d, as_json, json.dumps(d, indent=2, default=_jsonable, ensure_ascii=False))


@app.command()
def matchup(
    game: str = typer.Argument("dungeon24", help="a two-player game with peoples (dungeon24)"),
    policy: str = typer.Option("heuristic", "--policy", help="policy A (rows)"),
    opponent: str = typer.Option("greedy", "--opponent", help="policy B (columns)"),
    n: int = typer.Option(20_000, "--n", help="games per cell and seating"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="folder for matchup.json and matchup.png"),
    as_json: bool = JsonOpt,
) -> None:
    """The people matchup matrix: win rate of A's people (rows) vs B's people (columns), seat-swapped."""
    from sim.batch import check_n

    check_n(n)
    g, cfg, _ = _setup(game, config, set_, {})
    if not hasattr(g, "matchup"):
        raise DicesimError(f"{game} has no people matchup")
    result = g.matchup(cfg, policy, opponent, n, seed)
    if out:
        out.mkdir(parents=True, exist_ok=True)
        (out / "matchup.json").write_text(json.dumps(result, indent=2, default=_jsonable))
        result["chart"] = str(g.matchup_chart(result, out / "matchup.png"))
    rows = [f"{g.title} matchup · {policy} (rows) vs {opponent} (columns) · n={n} per cell and seating"]
    rows.append(" " * 14 + "".join(f"{p:>22s}" for p in result["people"]))
    for i, p in enumerate(result["people"]):
        cells = "".join(
            f"{result['win_rate'][i][j]:>8.3f} [{result['ci95'][i][j][0]:.3f},{result['ci95'][i][j][1]:.3f}]"
            for j in range(len(result["people"]))
        )
        rows.append(f"{p:14s}{cells}")
    _emit(result, as_json, "\n".join(rows))


@app.command()
def combos(
    dice: list[int] = typer.Argument(..., help="five or six faces 1..6, e.g. 5 5 5 2 2"),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Würfel Dungeon's "try it" cup: the combos the game finds in these dice and their values."""
    from sim.games.dungeon.game import combos_json

    g, cfg, _ = _setup("dungeon", config, set_, {})
    result = combos_json(list(dice), cfg)
    lines = [f"dice {' '.join(map(str, result['dice']))} · total attack {result['total_attack']}"]
    for c in result["combos"]:
        lines.append(
            f"  {c['name']:14s} {' '.join(map(str, c['dice'])):12s} attack {c['attack']:3d} · shield {c['shield']:3d}"
            f" · heal {c['heal']:3d}"
        )
    _emit(result, as_json, "\n".join(lines))


@app.command()
def report(out: Path = typer.Argument(..., help="an output folder of play/compare")) -> None:
    """Rebuild charts and report.html of an output folder (or a balance report's dashboard) from stored tables."""
    from sim.games import GAMES
    from sim.report import build_report

    found = {p.parent.name for p in Path(out).glob("*/manifest.json")}
    games = [g for g in GAMES if g in found] + sorted(found - set(GAMES))
    if not (Path(out) / "manifest.json").is_file() and games:
        from sim.balance import write_dashboard

        for name in games:
            build_report(Path(out) / name)
        print(write_dashboard(out, games))
        return
    print(build_report(out))


@app.command()
def balance(
    n: int = typer.Option(20_000, "--n", help="runs per game and policy"),
    seed: int = SeedOpt,
    out: Path = typer.Option(Path("reports/latest"), "--out"),
    games: str | None = typer.Option(None, "--games", help="comma list (default: every game)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress or compile notices (also: dicesim --quiet)"),
) -> None:
    """The default balance report over all games: reports/latest/report.html."""
    from sim import warmup
    from sim.balance import balance_report
    from sim.games import available
    from sim.progress import set_quiet

    if quiet:
        set_quiet(True)
    t0 = time.perf_counter()
    names = games.split(",") if games else None
    built = available()
    warmup.start([g for g in names or built if g in built])  # cold kernels: compiled in parallel processes
    path = balance_report(out, n, seed, names)
    print(f"balance report: {path} ({time.perf_counter() - t0:.1f} s)")


def main() -> None:
    """Entry point: typer app with one-line errors and exit code 2 for every user error."""
    try:
        app(standalone_mode=False)
    except DicesimError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except click_exc.ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            print(e.format_message())
            sys.exit(0)
        print(f"error: {e.format_message()}".replace("\n", " "), file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)


import sim.cli_studio  # noqa: E402,F401  (registers studio)
from sim import cli_cache, cli_sweep, cli_tune  # noqa: E402,F401  (register sweep, calibrate, check; tune; configs, cache)

if __name__ == "__main__":  # ``python -m sim.cli``: run the imported module, on whose app cli_sweep registered
    from sim.cli import main as _main

    _main()
