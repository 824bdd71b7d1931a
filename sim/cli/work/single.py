"""The work of ``solve``, ``replay`` and ``describe`` (their arguments: ``sim.cli.single``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sim.cli.common import emit
from sim.cli.work import setup
from sim.cli.work.tables import show
from sim.core.config import Strict
from sim.core.events import replay_json
from sim.core.jsonable import json_default
from sim.core.schema import describe_columns
from sim.jit.progress import compiling
from sim.report import words


def solve(game: str, rules: Path | Strict | None, sets: list[str] | None, as_json: bool, fresh: bool,
          game_opts: dict[str, Any]) -> None:
    g, cfg, options = setup(game, rules, sets, game_opts)
    t0 = time.perf_counter()
    with compiling(g.name, g.title):
        result = g.solve(cfg, {**options, "no_cache": True} if fresh else options)  # only when asked for
    result.setdefault("seconds", round(time.perf_counter() - t0, 3))  # a search (Dungeon24) does not time itself
    if "arrangement" in result:  # Dungeon24: a search over pyramids, played (an estimate with an interval, not exact)
        wr, lift = result["win_rate"], result["lift"]
        gain = words.value_text("win_rate", lift["value"], lift["ci95"], diff=True)
        human = (f"{g.title}: best pyramid found {' · '.join(result['cards'])} scores "
                 f"{words.value_text('win_rate', wr['value'], wr['ci95'])} (a win 1, a draw ½, both seatings) on "
                 f"{result['n_check']:,} fresh games, {gain} over the policy's own pyramid (a search by play, not "
                 f"an exact solve) in {result['seconds']:.2f} s")
    else:
        said, note = solved_words(result)
        human = f"{g.title}: {said} (exact; {result['seconds']:.2f} s{', cached' if result.get('cached') else ''})"
        human += f"\n{note}" if note else ""
    emit(result, as_json, human, json_default)


def solved_words(result: dict[str, Any]) -> tuple[str, str]:
    """An exact solve's value as a person reads it, a chance to win in %, a score in points (it read 'optimal
    expected value 0.5305927' for the first player's chance to win), and a sentence on how far to trust it."""
    v = float(result["value"])
    if "first_player_win_probability" in result:
        share = result.get("floor_share")
        lo = (result.get("score_range") or [None])[0]
        floor = f"{lo:,} points".replace("-", "\u2212") if isinstance(lo, int) else "its lowest score"
        note = (f"{share * 100:.2g} % of the turns of two optimal players begin at the lowest score the solver keeps "
                f"({floor}, the setting solver.score_floor; a lower score counts as it): that much of play can feel "
                "the cut" if isinstance(share, float) and share == share else "")
        return f"the first player wins {v * 100:.2f} % when both play to win", note
    mean = f"{v:.7g}" if any(c in f"{v:.7g}" for c in ".en") else f"{v:.1f}"  # a mean of 1 is 1.0 points, not 1 points
    if result.get("objective") == "turn":
        return f"the optimal turn scores {mean} points on average", ""
    return f"optimal play scores {mean} points a game on average", ""


def replay(game: str, seed: int, run: int, policy: str | None, rules: Path | Strict | None, sets: list[str] | None,
           as_json: bool, game_opts: dict[str, Any]) -> None:
    g, cfg, options = setup(game, rules, sets, game_opts)
    seats = g.seat_policies(policy or g.report_policies[-1], options)
    with compiling(g.name, g.title):  # a first replay compiles its kernels (~20 s): said, not a silent wait
        g.prepare(cfg, seats, options)
        if as_json:
            emit(replay_json(g, cfg, seats, seed, run, options), True, "", json_default)
            return
        text = g.replay(cfg, seats, seed, run, options)
    print(f"{g.title} replay · seed {seed} · run {run}")
    print(text)


def describe(game: str, rules: Path | Strict | None, sets: list[str] | None, as_json: bool,
             game_opts: dict[str, Any]) -> None:
    g, cfg, options = setup(game, rules, sets, game_opts)
    with compiling(g.name, g.title):  # a game whose tables are its compiled rules' (Dadox's optimal turn)
        d = g.describe(cfg, options)
    cols = g.table_columns(cfg, options)
    if cols and "columns" not in d:  # the per-run table a batch writes, as the game declares it
        d["columns"] = describe_columns(cols)
    show(d, as_json)
