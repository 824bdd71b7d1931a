"""``fit.html``: the fitted population, where its players lose points, and how well the fit reproduces the log.

Charts (PNG beside the page, embedded in it): the players' fitted levels with the groups; observed against
simulated final scores (the fitted population replayed on fresh seeds); regret per game by turn and kind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.core import atomic  # noqa: E402
from sim.report import charts  # noqa: E402
from sim.report.pages import document, esc, facts_line, figure  # noqa: E402


def levels_chart(f: Any, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(8, 4))
    lv = f.players["level"].to_numpy()
    ax.hist(lv, bins=np.linspace(0, 1, 41), color="#8aa", label="players' own levels (maximum likelihood)")
    for g in f.chosen.groups():
        ax.axvline(g["level"], color="#c33", linewidth=1 + 4 * g["weight"])
        ax.axvspan(g["ci95"][0], g["ci95"][1], color="#c33", alpha=0.15)
    ax.axvline(f.level.value, color="#225", linestyle="--", label=f"one level for all: {f.level.value:.3f}")
    ax.plot([], [], color="#c33", label="fitted groups (width: weight; band: 95 % interval)")
    ax.set_xlabel("skill level")
    ax.set_ylabel("players")
    ax.set_title("Fitted skill levels")
    ax.legend(fontsize=8)
    return charts.save(fig, path)


def outcomes_chart(observed: np.ndarray, simulated: np.ndarray, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(8, 4))
    bins = np.linspace(min(observed.min(), simulated.min()), max(observed.max(), simulated.max()) + 1, 40)
    ax.hist(observed, bins=bins, density=True, histtype="step", linewidth=1.8, label="observed (the log)")
    ax.hist(simulated, bins=bins, density=True, histtype="step", linewidth=1.8, label="simulated (fitted population)")
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games")
    ax.set_title("Observed vs simulated final scores")
    ax.legend(fontsize=8)
    return charts.save(fig, path)


def rooms_chart(observed: np.ndarray, predicted: np.ndarray, path: Path, labels: list[str] | None = None,
                what: str = "rooms cleared (the last: a win)") -> Path:
    """Observed against fitted shares of each outcome (Würfel Dungeon: rooms cleared; Dungeon24: result and score;
    named outcomes that neither the log nor the fit holds, under half a percent, are left out)."""
    if labels:
        keep = (observed > 0) | (predicted >= 0.005)
        observed, predicted, labels = observed[keep], predicted[keep], [x for x, k in zip(labels, keep, strict=True)
                                                                        if k]
    fig, ax = plt.subplots(figsize=(max(8, 0.35 * len(observed)), 4))
    x = np.arange(len(observed))
    ax.bar(x - 0.2, observed, 0.4, label="observed (the log)")
    ax.bar(x + 0.2, predicted, 0.4, label="fitted population")
    ax.set_xticks(x, labels or [str(i) for i in x], rotation=90 if labels else 0, fontsize=8 if labels else None)
    ax.set_xlabel(what)
    ax.set_ylabel("share of games")
    ax.set_title(f"Observed vs fitted {what.split(' (')[0]}")
    ax.legend(fontsize=8)
    return charts.save(fig, path)


def regret_chart(reg: dict[str, Any], path: Path) -> Path:
    """Kniffel: points lost by turn, stacked by kind; Dadox: by turn total and dice thrown, a bar per kind."""
    fig, ax = plt.subplots(figsize=(9, 4.2))
    if "by_turn" in reg:
        turns = list(reg["by_turn"])
        bottom = np.zeros(len(turns))
        for kind in reg["by_kind"]:
            vals = np.array([reg["by_turn"][t].get(kind, 0.0) for t in turns])
            ax.bar(turns, vals, bottom=bottom, label=kind)
            bottom += vals
        ax.set_xlabel("turn")
    else:
        states = sorted({s for part in reg["by_state"].values() for s in part},
                        key=lambda s: (int(s.split("+")[0]), s))
        x = np.arange(len(states))
        kinds = list(reg["by_state"])
        for j, kind in enumerate(kinds):
            ax.bar(x + (j - (len(kinds) - 1) / 2) * 0.4, [reg["by_state"][kind].get(s, 0.0) for s in states], 0.4,
                   label=kind)
        ax.set_xticks(x, states, rotation=60, ha="right", fontsize=7)
        ax.set_xlabel("turn total before the throw, dice thrown")
    ax.set_ylabel("points lost per game")
    ax.set_title("Where players lose points (against the optimum)")
    ax.legend(fontsize=8)
    return charts.save(fig, path)


def _table(head: list[str], rows: list[list[Any]]) -> str:
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def write_page(out: Path, summary: dict[str, Any], f: Any, gof: dict[str, Any], figs: dict[str, Path]) -> Path:
    lv = summary["level"]
    groups = summary["groups"]
    answer = (f"The {summary['players']} players' {summary['decisions']:,} decisions fit one level of "
              f"<b>{lv['value']:.3f}</b> [{lv['ci95'][0]:.3f}, {lv['ci95'][1]:.3f}]; BIC prefers "
              f"<b>{len(groups)} group{'s' if len(groups) > 1 else ''}</b>: "
              + "; ".join(f"{g['weight'] * 100:.0f}\u00a0% at {g['level']:.3f} [{g['ci95'][0]:.3f}, {g['ci95'][1]:.3f}]"
                          for g in groups)
              + f". They lose <b>{summary['regret']['total']:.1f} points per game</b> against the optimum.")
    body = [f"<h1>Fitted players · {esc(summary['game'])}</h1>",
            facts_line({"log": summary["log"], "games": summary["games"], "players": summary["players"],
                        "decisions": summary["decisions"]}),
            f"<p class='answer'>{answer}</p>",
            "<h2>The fitted population</h2>",
            figure(figs["levels"], "Each player's own level (bars) and the groups of the mixture BIC chose."),
            _table(["groups", "levels", "weights", "log-likelihood", "BIC"],
                   [[len(m.levels), ", ".join(f"{x:.3f}" for x in m.levels),
                     ", ".join(f"{w:.2f}" for w in m.weights), f"{m.loglik:.1f}", f"{m.bic:.1f}"]
                    for m in f.mixtures]),
            f"<p class='muted'>population.toml holds these rules with the fitted <code>[skill]</code>: "
            f"<code>{esc(summary['play'])}</code> plays this population.</p>",
            "<h2>Where players lose points</h2>",
            figure(figs["regret"], "Points lost per game against the optimum, by turn and decision kind."),
            _table(["decision kind", "points lost per game"],
                   [[k, f"{v:.2f}"] for k, v in summary["regret"]["by_kind"].items()]),
            _table(["box written", "points lost per game"],
                   [[k, f"{v:.2f}"] for k, v in sorted(summary["regret"]["by_box"].items(), key=lambda kv: -kv[1])])
            if "by_box" in summary["regret"] else
            _table(["decision", "turn total, dice thrown", "points lost per game"],
                   [[k, st, f"{v:.2f}"] for k, part in summary["regret"]["by_state"].items()
                    for st, v in sorted(part.items(), key=lambda kv: -kv[1])]),
            "<h2>Goodness of fit</h2>",
            _table(["decision kind", "observed loss per game", "predicted by the fit"],
                   [[k, f"{v['observed']:.2f}", f"{v['predicted']:.2f}"] for k, v in gof["regret"].items()])
            if gof["regret"] else ""]
    if "outcomes" in gof:
        o = gof["outcomes"]
        body += [figure(figs["outcomes"], "Final scores of the log against the fitted population replayed."),
                 f"<p>Mean score observed {o['observed_mean']:.1f}, simulated {o['simulated_mean']:.1f} "
                 f"({o['simulated_games']} games); Kolmogorov-Smirnov distance {o['ks']:.3f}, p = {o['ks_p']:.3g} "
                 "(a small p: the fitted population does not reproduce the scores).</p>"]
    rows = f.players.sort_values("level")
    body.append("<details><summary>Every player</summary>" + _table(
        ["player", "level", "95 % interval", "decisions", "games", "points lost per game"],
        [[r.player, f"{r.level:.3f}", f"[{r.lo:.3f}, {r.hi:.3f}]", r.decisions, r.games, f"{r.regret_per_game:.1f}"]
         for r in rows.itertuples()]) + "</details>")
    return atomic.write_text(out / "fit.html", document(f"dicesim fit · {summary['game']}", body))


def write_outcome_page(out: Path, summary: dict[str, Any], f: Any, figs: dict[str, Path],
                       words: dict[str, Any]) -> Path:
    """``fit.html`` of a game fitted by its outcomes: the levels, observed vs fitted outcomes, the goodness of fit
    (``words``: what the outcome is called, the game's setting in the summary, the per-player column)."""
    lv, groups, g = summary["level"], summary["groups"], summary["goodness_of_fit"]
    what, key = words["what"], words["key"]
    answer = (f"The {summary['players']} players' {summary['games']:,} games ({esc(summary[words['setting']])}) fit "
              f"one level of <b>{lv['value']:.3f}</b> [{lv['ci95'][0]:.3f}, {lv['ci95'][1]:.3f}] by {words['by']}; "
              f"BIC prefers <b>{len(groups)} group{'s' if len(groups) > 1 else ''}</b>: "
              + "; ".join(f"{x['weight'] * 100:.0f}\u00a0% at {x['level']:.3f} [{x['ci95'][0]:.3f}, {x['ci95'][1]:.3f}]"
                          for x in groups) + ".")
    labels = g.get(f"{key}_labels") or list(range(len(g[f"{key}_observed"])))
    col, head = words["per_game"]
    body = [f"<h1>Fitted players · {esc(summary['game'])}</h1>",
            facts_line({"log": summary["log"], "games": summary["games"], "players": summary["players"],
                        "simulated runs per level": summary["simulated_runs_per_level"]}),
            f"<p class='answer'>{answer}</p>",
            f"<p class='muted'>No decision has an exact value here: the level is the one whose simulated {what} "
            f"histogram ({esc(words['policy'])}, paired seeds) makes the logged games likeliest; no regret.</p>",
            figure(figs["levels"], "Each player's own level (bars) and the groups of the mixture BIC chose."),
            figure(figs[key], f"{what.capitalize()}: the log against the fitted population."),
            _table([what, "observed games", "fitted"],
                   [[i, o, f"{p:.1f}"] for i, o, p in zip(labels, g[f"{key}_observed"], g[f"{key}_predicted"],
                                                          strict=True) if o or p >= 0.005 * summary["games"]]),
            f"<p>Win rate observed {g['win_rate_observed']:.1%}, fitted {g['win_rate_predicted']:.1%}; "
            f"χ² {g['chi2']:.1f}, p = {g['chi2_p']:.3g} (a small p: the fitted population does not reproduce the "
            f"{what}).</p>",
            f"<p class='muted'>population.toml: <code>{esc(summary['play'])}</code>.</p>"]
    rows = f.players.sort_values("level")
    body.append("<details><summary>Every player</summary>" + _table(
        ["player", "level", "95 % interval", "games", head],
        [[r.player, f"{r.level:.3f}", f"[{r.lo:.3f}, {r.hi:.3f}]", r.games, f"{getattr(r, col):.1f}"]
         for r in rows.itertuples()]) + "</details>")
    return atomic.write_text(out / "fit.html", document(f"dicesim fit · {summary['game']}", body))
