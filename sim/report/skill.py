"""The balance report's skill charts: each series a game declares at the levels of ``LADDER`` (``sim.core.skill``).

A solitaire score game charts its mean score by skill; a game for several seats the player's win rate by skill
against the same policy at full strength (``skill.opponents`` = 1), the player in the first seat; a game played
alone to win or lose its win rate, e.g. one series per difficulty. Every level plays the same runs (same seed), so
the curve's steps are the level's doing; intervals: ``sim.core.stats``.
A game declares what its chart plays in ``Game.skill_chart`` (``sim.core.skill.SkillChart``) and calls
``balance_skill`` from its ``balance_extras`` (one line).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core import atomic, stats
from sim.core.batch import run_batch
from sim.core.config import DicesimError
from sim.core.skill import LEVELS, Skill, SkillChart
from sim.games.base import Game
from sim.report import words

LADDER = (0.0, 0.25, 0.5, 0.75, 1.0)


def player_values(game: Game, table) -> np.ndarray:
    """Per run: the player's (seat 0's) score or win indicator, as the game's ``SkillChart`` declares."""
    chart = _chart(game)
    if chart.player_values is not None:
        return chart.player_values(table)
    if "seat" in table.columns:
        return (table[table["seat"] == 0]["win"] == 1).to_numpy(np.float64)
    return (table["winner"] == 0).to_numpy(np.float64)


def _chart(game: Game) -> SkillChart:
    if game.skill_chart is None:
        raise DicesimError(f"{game.title} declares no skill chart (Game.skill_chart)")
    return game.skill_chart


def skill_curve(game: Game, cfg: Any, n: int, seed: int) -> dict[str, Any]:
    """Each of the game's series at every level of ``LADDER`` on runs 0..n-1 (opponents at full strength)."""
    setup = _chart(game)
    rows = []
    for label, policy, opts in setup.series:
        options = game.check_options(dict(opts))
        seats = game.seat_policies(policy, options)
        base = None
        for level in LADDER:
            c = cfg.model_copy(update={"skill": Skill(level=level, opponents=1.0)})
            game.prepare(c, seats, options)
            t = run_batch(game, c, seats, n, seed, options, chunk=game.chunk, progress=False).table
            v = player_values(game, t)
            base = v if base is None else base
            m = stats.mean(v) if setup.measure == "mean_score" else stats.rate(v > 0)
            rows.append({"series": label, "policy": policy, "options": opts, "level": level, setup.measure: m,
                         "change_from_level_0": stats.paired_difference(v, base)})
    return {"game": game.name, "n": n, "seed": seed, "measure": setup.measure, "levels": LEVELS,
            "opponents": setup.opponents, "rows": rows}


def skill_chart(game: Game, result: dict[str, Any], path: Path) -> Path:
    """Line chart of ``skill_curve``: the measure against the level per policy, 95 % intervals as error bars."""
    import matplotlib  # heavy library (~0.5 s): only when a chart is drawn

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    setup = _chart(game)
    measure = result["measure"]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, _, _ in setup.series:
        rows = [r for r in result["rows"] if r["series"] == label]
        x = [r["level"] for r in rows]
        y = [r[measure]["value"] for r in rows]
        err = [[v - r[measure]["ci95"][0] for v, r in zip(y, rows, strict=True)],
               [r[measure]["ci95"][1] - v for v, r in zip(y, rows, strict=True)]]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=4, label=words.policy_name(game.name, label))
    ax.set_xticks(LADDER, [f"{lv:g}" + "".join(f"\n{k}" for k, v in LEVELS.items() if v == lv) for lv in LADDER])
    ax.set_xlabel("skill level of the player (0: random moves, 1: the policy as it is)")
    ax.set_ylabel(setup.ylabel)
    if measure == "win_rate":
        ax.axhline(0.5, color="#888", linewidth=0.8, linestyle="--")
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=0))
    ax.set_title(setup.title, fontsize=10)
    ax.legend(title=setup.legend)
    fig.tight_layout()
    atomic.save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


def balance_skill(game: Game, cfg: Any, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
    """The skill chart for the balance report: ``skill.json`` and ``skill.png`` in ``out``; a few thousand runs per
    level (a tenth of the report's N, at least 1000 and at most N)."""
    runs = min(n, max(1000, n // 10))
    result = skill_curve(game, cfg, runs, seed)
    atomic.write_json(Path(out) / "skill.json", result, indent=2)
    png = skill_chart(game, result, Path(out) / "skill.png")
    alone = str(getattr(game.skill_chart, "opponents", "")).startswith("none")  # the Würfel Dungeon: no rival
    what = ("mean score" if result["measure"] == "mean_score" else "win rate" if alone
            else "win rate against the full-strength policy")
    return [(f"Skill: {what} by skill level (0 random moves, 1 the policy; same runs at every level)", png.name)]
