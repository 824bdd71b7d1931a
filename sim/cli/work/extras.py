"""The work of ``matchup`` and ``combos`` (their arguments: ``sim.cli.extras``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sim.cli.common import emit
from sim.cli.work import setup
from sim.core import atomic
from sim.core.config import DicesimError, Strict, rules_said
from sim.core.jsonable import json_default
from sim.report import words


def matchup(game: str, policy: str, opponent: str, n: int, seed: int, rules: Path | Strict | None,
            sets: list[str] | None, out: Path | None, as_json: bool) -> None:
    g, cfg, _ = setup(game, rules, sets, {})
    if not g.supports("matchup"):
        raise DicesimError(f"{game} has no people matchup")
    g.check_policy(policy)
    g.check_policy(opponent)
    result = g.matchup(cfg, policy, opponent, n, seed)
    if out:
        with atomic.output_folder(out), atomic.transaction(out):
            atomic.write_json(out / "matchup.json", result, indent=2, default=json_default)
            result["chart"] = str(g.matchup_chart(result, out / "matchup.png"))
    a, b = words.policy_name(g.name, policy), words.policy_name(g.name, opponent)
    what = f"{a}'s score in % (a win 1, a draw ½, a loss 0)" if result.get("scored") else f"share of games {a} wins"
    # how the seats play and the rules, as a play's heading says them (a skill level of 0.5 moved 68 % to 48 %
    # under the very same heading)
    said_as, caution = g.played_as(cfg, [policy, opponent])
    changed = rules_said(g.load().model_dump(mode="json"), cfg.model_dump(mode="json"))
    shown = [*said_as, *([f"rules {changed}"] if changed.startswith("changed") else [])]
    rows = [" · ".join([f"{g.title} matchup", f"{what}: {a}'s people (rows) vs {b}'s (columns)", *shown,
                        f"n={n} per cell and seating"])]
    if caution:
        rows.append(caution)
    people = [words.word(g.name, p) for p in result["people"]]
    mirror = bool(result.get("mirror_diagonal"))
    rows += _grid(people, lambda i, j: "50 % (mirror)" if mirror and i == j else
                  words.value_text("win_rate", result["win_rate"][i][j], result["ci95"][i][j]))
    drawn = result.get("draw_rate")
    if drawn and any(v > 0 for row in drawn for v in row):  # a draw scores ½: a cell of 50 % may hold no win
        rows += ["", "Drawn (share of the games, both seatings):"]
        rows += _grid(people, lambda i, j: words.value_text("draw_rate", drawn[i][j]))
    emit(result, as_json, "\n".join(rows), json_default)


def _grid(people: list[str], cell: Callable[[int, int], str]) -> list[str]:
    """A people-by-people table: the peoples as its column heads and row names, ``cell(i, j)`` in each cell (at most
    '100.0 % [100.0, 100.0]': 22 characters, 2 between)."""
    rows = [" " * 14 + "".join(f"{p:>24s}" for p in people)]
    for i, p in enumerate(people):
        rows.append(f"{p:14s}" + "".join(f"{cell(i, j):>24s}" for j in range(len(people))))
    return rows


def cup(game: str, rules: Path | Strict | None, sets: list[str] | None) -> dict[str, dict]:
    """Every cup of ``game`` under these rules (``Game.cup``), for ``dicesim combos`` to keep and read."""
    g, cfg, _ = setup(game, rules, sets, {})
    if not g.supports("combos"):
        raise DicesimError(f"{game} has no combos")
    return g.cup(cfg)


def combos(game: str, dice: list[int], rules: Path | Strict | None, sets: list[str] | None) -> dict:
    """One cup played by the game (its refusals: the dice it does not take)."""
    g, cfg, _ = setup(game, rules, sets, {})
    if not g.supports("combos"):
        raise DicesimError(f"{game} has no combos")
    return g.combos(list(dice), cfg)
