"""Commands of optional game capabilities (``Game.supports``): ``matchup`` and ``combos``: their arguments and the
checks that need no game; the work is ``sim.cli.work.extras``."""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.answers import key, save_data, stored_data
from sim.cli.catalog import accept, supports
from sim.cli.common import (
    ConfigOpt,
    ForceOpt,
    JsonOpt,
    SeedOpt,
    SetOpt,
    app,
    check_out,
    count_option,
    emit,
    work,
)
from sim.core.errors import DicesimError
from sim.core.limits import check_n, check_runs, short
from sim.core.names import game_name, policy_label
from sim.games import GAMES, declared


@app.command()
def matchup(
    game: str = typer.Argument("dungeon24", callback=game_name, help="a two-player game with peoples (dungeon24)"),
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
    """The people matchup matrix: A's score (a win 1, a draw ½) with each people (rows) against B's (columns), seats
    swapped; the share of games drawn where any were."""
    check_runs(check_n(n, force) * 18, force, "--n x 9 pairings x 2 seatings")
    if supports(game, "matchup") is False:
        having = [g for g in GAMES if supports(g, "matchup")]
        raise DicesimError(f"{game} has no people matchup (the games with one: {', '.join(having)})")
    check_out(out, kind="matchup.json")
    policy, opponent = policy_label(policy), policy_label(opponent)
    for flag, name in (("--policy", policy), ("--opponent", opponent)):  # one policy each: named by its own flag
        if not name.strip() or "," in name:
            raise DicesimError(f"{flag} names one policy, got {name!r}")
    rules, sets = accept(game, None, f"{policy},{opponent}", config, set_, every_choice=True)  # every people
    work("extras").matchup(game, policy, opponent, n, seed, rules, sets, out, as_json)


def _face(text: object) -> int:
    """A die's face as typed: ASCII digits only (typer's int took ``2.0`` and ``٢`` read by ``int``)."""
    s = str(text).strip()
    if not (s.isascii() and s.isdigit()):
        raise DicesimError(f"dice must be a whole number, got {short(s)}")
    return int(s)


@app.command()
def combos(
    dice: list[int] = typer.Argument(..., parser=_face, help="1 to 6 faces 1..6 (a hand), e.g. 5 5 5 2 2"),
    config: Path | None = ConfigOpt,
    set_: list[str] | None = SetOpt,
    as_json: bool = JsonOpt,
    game: str = typer.Option("dungeon", "--game", callback=game_name, help="a game with combos (dungeon)"),
) -> None:
    """Würfel Dungeon's "try it" cup: the combos the game finds in these dice and their values."""
    if supports(game, "combos") is False:
        raise DicesimError(f"{game} has no combos")
    if (check := declared(game, "check_cup")) is not None:
        check(list(dice))  # the dice the game takes, refused before the game or its rules load
    rules, sets = accept(game, None, None, config, set_)
    k = key("cup", game, [], rules, sets)
    cup = stored_data(k)
    one, text = read_cup(cup, list(dice))
    if one is None and declared(game, "PLAIN_DESCRIBE") is not None:  # its rules as Python: no kernels
        cup = work("tables").cup(game, rules, sets)
        save_data(k, cup)  # every cup: any later one is read, not played
        one, text = read_cup(cup, list(dice))
    if one is None:
        one = work("extras").combos(game, list(dice), rules, sets)  # refuses what the game does not take
        text = combos_text(one)
        if cup is None or " ".join(map(str, sorted(dice))) in cup:  # none kept, or a damaged one: keep it anew
            save_data(k, work("extras").cup(game, rules, sets))
    emit(one, as_json, text)


def read_cup(cup: dict | None, dice: list[int]) -> tuple[dict | None, str]:
    """These dice's answer from a kept cup table and its text, or (None, "") when the table does not hold it or
    holds it damaged (then it is played and the table kept anew: a cache that heals itself)."""
    entry = (cup or {}).get(" ".join(map(str, sorted(dice))))
    if not isinstance(entry, dict):
        return None, ""
    one = {"dice": dice, **entry}
    try:
        return one, combos_text(one)
    except (KeyError, TypeError, ValueError):
        return None, ""


def combos_text(result: dict) -> str:
    """A cup's combos as ``dicesim combos`` prints them, one per line."""
    lines = [f"dice {' '.join(map(str, result['dice']))} · total attack {result['total_attack']}"]
    for c in result["combos"]:
        lines.append(
            f"  {c['name']:14s} {' '.join(map(str, c['dice'])):12s} attack {c['attack']:3d} · shield {c['shield']:3d}"
            f" · heal {c['heal']:3d}"
        )
    if not result["combos"]:
        lines.append("  no combo in these dice")
    return "\n".join(lines)
