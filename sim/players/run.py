"""The work of ``dicesim fit`` and of ``dicesim play --log``: read and check a log, fit, write the outputs.

Nothing is written before the whole log has been read and checked, so a refused log leaves no file behind; each
output is written whole or not at all (``sim.core.atomic``), under the output folder's lock.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Mapping
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import tomli_w

from sim.core import atomic
from sim.core.batch import run_batch
from sim.core.config import GameConfig
from sim.core.errors import DicesimError
from sim.core.skill import Group
from sim.players.fit import Decisions, Fit, expected_regret, fit
from sim.players.logs import outcomes_path, read_table, write_table
from sim.players.regret import regret
from sim.players.schema import BY_DECISIONS, BY_OUTCOMES, outcome_table


class Readers(Mapping[str, ModuleType]):
    """Game name -> its log module (``sim.players.<game>``), imported when first asked for: each imports its game,
    kernels and solver, and a fit (or a refused log) needs one game's alone."""

    def __init__(self, *games: str) -> None:
        self._games = games

    def __getitem__(self, game: str) -> ModuleType:
        if game not in self._games:
            raise KeyError(game)
        return import_module(f"sim.players.{game}")

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)


LOGS = Readers(*BY_DECISIONS)  # games whose logs are fitted by likelihood (exact action values)
OUTCOME_LOGS = Readers(*BY_OUTCOMES)  # games fitted by their outcomes (no action values)


class _Policies(Mapping[str, str]):
    """Game name -> the policy its levels apply to (its log module's ``POLICY``)."""

    def __getitem__(self, game: str) -> str:
        return (LOGS.get(game) or OUTCOME_LOGS[game]).POLICY

    def __iter__(self) -> Iterator[str]:
        return iter([*LOGS, *OUTCOME_LOGS])

    def __len__(self) -> int:
        return len(LOGS) + len(OUTCOME_LOGS)


POLICY = _Policies()


def check_game(game: str) -> None:
    if game not in LOGS and game not in OUTCOME_LOGS:
        raise DicesimError(f"fit: {game} logs cannot be fitted yet (fitted: {', '.join([*LOGS, *OUTCOME_LOGS])})")


def kept(mod: Any) -> frozenset[str]:
    """The columns of a game's logs that a fit reads (``sim.players.<game>``'s declared columns)."""
    return frozenset(c.name for c in (*mod.DECISION_COLUMNS, *mod.OUTCOME_COLUMNS))


def read_log(game: str, cfg: GameConfig, log: Path, outcomes: Path | None, force: bool = False) -> Decisions:
    """A game's log from disk, checked and valued (``sim.players.<game>.load``)."""
    dec = read_table(log, "LOG", kept(LOGS[game]), force)
    out = read_table(outcomes, "--outcomes", kept(LOGS[game]), force) if outcomes is not None else None
    return LOGS[game].load(cfg, dec, out, str(log), str(outcomes) if outcomes else "outcomes")


def write_log(game: str, cfg: GameConfig, policy: str, n: int, seed: int, options: dict[str, Any],
              path: Path) -> dict[str, Any]:
    """``play --log``: runs 0..n-1 with their decisions, the log at ``path`` and its outcomes beside it."""
    check_game(game)
    if game in OUTCOME_LOGS:  # decisions read off the replayed runs' event logs; fitted by the outcomes
        out, _ = OUTCOME_LOGS[game].record(cfg, policy, n, seed, options)
        dec = OUTCOME_LOGS[game].decisions(cfg, policy, n, seed, options)
    else:
        dec, out = LOGS[game].record(cfg, policy, n, seed, options)
    write_table(dec, path)
    write_table(out, outcomes_path(path))
    return {"log": str(path), "outcomes": str(outcomes_path(path)), "decisions": len(dec), "games": len(out),
            "players": int(out["player"].nunique())}


def population(cfg: GameConfig, f: Any) -> GameConfig:
    """The rules with the fitted population as ``[skill]``: one level, or the chosen groups (every fitted game plays
    a mixture: ``Game.skill_groups``)."""
    m = f.chosen
    if len(m.levels) == 1:
        skill = cfg.skill.model_copy(update={"level": round(float(m.levels[0]), 4), "groups": []})
    else:
        w = np.round(m.weights, 4)
        w[-1] = round(1.0 - float(w[:-1].sum()), 4)
        groups = [Group(level=round(float(lv), 4), weight=float(x)) for lv, x in zip(m.levels, w, strict=True)]
        skill = cfg.skill.model_copy(update={"level": 1.0, "groups": groups})  # each player at its group's level
    return type(cfg).model_validate(cfg.model_copy(update={"skill": skill}).model_dump(mode="json"))


def goodness(game: str, f: Fit, pop: GameConfig, seed: int) -> dict[str, Any]:
    """Observed vs predicted loss per kind (each player's decisions at their groups' levels, weighted by how
    likely each group is for them), and observed vs simulated scores when the log has outcomes."""
    dec = f.decisions
    m = f.chosen
    pred = np.zeros(len(dec))
    for k, lv in enumerate(m.levels):
        pred += m.resp[dec.player, k] * expected_regret(dec, float(lv))
    obs = dec.regret
    out: dict[str, Any] = {"regret": {k: {"observed": float(obs[dec.kind == k].sum()) / dec.n_games,
                                          "predicted": float(pred[dec.kind == k].sum()) / dec.n_games}
                                      for k in sorted(set(dec.kind.tolist()), key=lambda k: (k == "box", k))}
                           if dec.one_softmax else {}}
    if dec.outcomes is not None:
        n = max(len(dec.outcomes), 200)
        g = LOGS[game].GAME
        sim = run_batch(g, pop, g.seat_policies(POLICY[game], g.check_options({})), n, seed, g.check_options({}),
                        progress=False).table
        sim = sim[sim["seat"] == 0]  # the player (one policy at every seat: seat 0 plays at skill.level)
        simulated = sim["score"].to_numpy(np.float64)
        observed = dec.outcomes["score"].to_numpy(np.float64)
        from scipy.stats import ks_2samp  # scipy.stats (~0.4 s): only once a log is read and fitted

        ks = ks_2samp(observed, simulated)
        out["outcomes"] = {"observed_mean": float(observed.mean()), "simulated_mean": float(simulated.mean()),
                           "simulated_games": n, "ks": float(ks.statistic), "ks_p": float(ks.pvalue),
                           "observed": observed, "simulated": simulated}
    return out


def _config_arg(out: Path) -> str:
    """The fitted population.toml as a command names it: its path under ``out`` (the hint said ``--config
    population.toml``, a file not in the folder the command is typed in), quoted for a shell."""
    return shlex.quote(str(out / "population.toml"))


def fit_log(game: str, cfg: GameConfig, log: Path, outcomes: Path | None, out: Path, seed: int,
            force: bool = False) -> dict[str, Any]:
    """Fit a log and write population.toml, players.csv, the charts and fit.html into ``out``; the summary.
    ``force``: read a log over ``logs.MAX_ROWS`` rows too."""
    check_game(game)
    atomic.check_kind(out, "fit.json")  # a fit beside another command's outputs would mix with them
    outcomes = outcome_table(log, outcomes)
    if game in OUTCOME_LOGS:
        return fit_outcome_log(game, cfg, log, outcomes, out, seed, force)
    dec = read_log(game, cfg, log, outcomes, force)  # every refusal happens here, before anything is written
    f = fit(dec)
    reg = regret(dec)
    pop = population(cfg, f)
    summary: dict[str, Any] = {
        "game": game, "log": str(log), "players": len(dec.ids), "games": dec.n_games, "decisions": len(dec),
        "implied_decisions": int(dec.implied.sum()), "level": f.level.json(), "groups": f.chosen.groups(),
        "bic": {str(len(m.levels)): round(m.bic, 2) for m in f.mixtures}, "regret": reg,
        "play": f"dicesim play {game} --policy {POLICY[game]} --config {_config_arg(out)}",
    }
    if np.isfinite(dec.start_value):
        summary["optimum_expected_score"] = round(dec.start_value, 4)
    gof = goodness(game, f, pop, seed)
    summary["goodness_of_fit"] = {"regret": gof["regret"], **({"outcomes": {k: v for k, v in gof["outcomes"].items()
                                                                            if not isinstance(v, np.ndarray)}}
                                                              if "outcomes" in gof else {})}
    with atomic.output_folder(out) as folder, atomic.transaction(folder):
        head = (f"# the population fitted by `dicesim fit {game} {log}`: these rules and the fitted [skill]\n"
                f"# play it: {summary['play']}\n")
        atomic.write_text(folder / "population.toml", head + tomli_w.dumps(pop.model_dump(mode="json")))
        atomic.write_csv(f.players, folder / "players.csv")
        from sim.players.page import levels_chart, outcomes_chart, regret_chart, write_page  # matplotlib: at the end

        figs = {"levels": levels_chart(f, folder / "levels.png"), "regret": regret_chart(reg, folder / "regret.png")}
        if "outcomes" in gof:
            figs["outcomes"] = outcomes_chart(gof["outcomes"]["observed"], gof["outcomes"]["simulated"],
                                              folder / "outcomes.png")
        summary["population"] = str(folder / "population.toml")
        summary["page"] = str(write_page(folder, summary, f, gof, figs))
        atomic.write_json(folder / "fit.json", summary, indent=2)
    return summary


def fit_outcome_log(game: str, cfg: GameConfig, log: Path, outcomes: Path | None, out: Path,
                    seed: int, force: bool = False) -> dict[str, Any]:
    """A game fitted by outcomes (``sim.players.dungeon``): the same outputs, without regret. ``log`` is the
    decision log with ``outcomes`` its outcome table (checked against each other, the outcomes fitted), or, without
    ``outcomes``, the outcome table itself."""
    mod = OUTCOME_LOGS[game]
    table, where = read_table(log, "LOG", kept(mod), force), str(log)  # every refusal here, before any write
    if outcomes is not None:
        runs = read_table(outcomes, "--outcomes", kept(mod), force)
        mod.check_decisions(table, runs, where, str(outcomes))
        table, where = runs, str(outcomes)
    o = mod.load(cfg, table, where)
    n = max(mod.SIM_RUNS, 4 * o.n_games)
    f = mod.fit_outcomes(cfg, o, n, seed)
    pop = population(cfg, f)
    observed = np.bincount(o.category, minlength=o.n_categories)
    predicted = f.predicted()
    # χ² over the outcomes the log or the fit holds (an outcome neither does, under half a game expected, would only
    # add degrees of freedom: Dungeon24's impossible "win 0"), the expectation rescaled to the log's games
    seen = (observed > 0) | (predicted * o.n_games >= 0.5)
    from scipy.stats import chisquare  # scipy.stats (~0.4 s): only once a log is read and fitted

    chi = chisquare(observed[seen], predicted[seen] / predicted[seen].sum() * o.n_games)
    key = mod.WORDS["key"]
    summary: dict[str, Any] = {
        "game": game, "log": str(log), "by": f"outcomes ({mod.WORDS['what']})", "players": len(o.ids),
        "games": o.n_games, "decisions": 0, **o.setting, "simulated_runs_per_level": n, "level": f.level.json(),
        "groups": f.chosen.groups(), "bic": {str(len(m.levels)): round(m.bic, 2) for m in f.mixtures},
        "regret": None,
        "goodness_of_fit": {f"{key}_observed": observed.tolist(),
                            f"{key}_predicted": np.round(predicted * o.n_games, 2).tolist(),
                            **({f"{key}_labels": o.labels} if o.labels else {}),
                            "win_rate_observed": float(observed[o.won_categories].sum() / o.n_games),
                            "win_rate_predicted": float(predicted[o.won_categories].sum()),
                            "chi2": float(chi.statistic), "chi2_p": float(chi.pvalue)},
        "play": o.play_line(_config_arg(out)),
    }
    with atomic.output_folder(out) as folder, atomic.transaction(folder):
        head = (f"# the population fitted by `dicesim fit {game} {log}`: these rules and the fitted [skill]\n"
                f"# play it: {summary['play']}\n")
        atomic.write_text(folder / "population.toml", head + tomli_w.dumps(pop.model_dump(mode="json")))
        atomic.write_csv(f.players, folder / "players.csv")
        from sim.players.page import levels_chart, rooms_chart, write_outcome_page  # matplotlib: at the end

        figs = {"levels": levels_chart(f, folder / "levels.png"),
                key: rooms_chart(observed / o.n_games, predicted, folder / f"{key}.png", o.labels, mod.WORDS["chart"])}
        summary["population"] = str(folder / "population.toml")
        summary["page"] = str(write_outcome_page(folder, summary, f, figs, mod.WORDS))
        atomic.write_json(folder / "fit.json", summary, indent=2)
    return summary
