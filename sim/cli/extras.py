"""Commands of optional game capabilities (``Game.supports``): ``matchup`` and ``combos``."""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.common import ConfigOpt, ForceOpt, JsonOpt, SeedOpt, SetOpt, _emit, _jsonable, app, count_option, setup
from sim.core.config import DicesimError


@app.command()
def matchup(
    game: str = typer.Argument("dungeon24", help="a two-player game with peoples (dungeon24)"),
    policy: str = typer.Option("heuristic", "--policy", help="policy A (rows)"),
    opponent: str = typer.Option("greedy", "--opponent", help="policy B (columns)"),
    n: int = count_option(20_000, "--n", help="games per cell and seating"),
    seed: int = SeedOpt,
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    out: Path | None = typer.Option(None, "--out", help="folder for matchup.json and matchup.png"),
    as_json: bool = JsonOpt,
    force: bool = ForceOpt,
) -> None:
    """The people matchup matrix: win rate of A's people (rows) vs B's people (columns), seat-swapped."""
    from sim.core.limits import check_n, check_runs

    check_runs(check_n(n, force) * 18, force, "--n x 9 pairings x 2 seatings")
    g, cfg, _ = setup(game, config, set_, {})
    if not g.supports("matchup"):
        raise DicesimError(f"{game} has no people matchup")
    result = g.matchup(cfg, policy, opponent, n, seed)
    if out:
        from sim.core import atomic

        with atomic.output_folder(out), atomic.transaction(out):
            atomic.write_json(out / "matchup.json", result, indent=2, default=_jsonable)
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
    game: str = typer.Option("dungeon", "--game", help="a game with combos (dungeon)"),
) -> None:
    """Würfel Dungeon's "try it" cup: the combos the game finds in these dice and their values."""
    g, cfg, _ = setup(game, config, set_, {})
    if not g.supports("combos"):
        raise DicesimError(f"{game} has no combos")
    result = g.combos(list(dice), cfg)
    lines = [f"dice {' '.join(map(str, result['dice']))} · total attack {result['total_attack']}"]
    for c in result["combos"]:
        lines.append(
            f"  {c['name']:14s} {' '.join(map(str, c['dice'])):12s} attack {c['attack']:3d} · shield {c['shield']:3d}"
            f" · heal {c['heal']:3d}"
        )
    _emit(result, as_json, "\n".join(lines))
