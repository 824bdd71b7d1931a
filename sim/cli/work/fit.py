"""The work of ``fit`` and of ``play --log`` (their arguments: ``sim.cli.fit``, ``sim.cli.play``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim import api
from sim.cli.common import emit, metric_lines
from sim.cli.fit import FITTED, refuse_own_report
from sim.cli.work import setup
from sim.cli.work.play import played_rules
from sim.core import atomic
from sim.core.config import DicesimError, Strict
from sim.core.limits import check_whole_players
from sim.players.run import fit_log, write_log
from sim.report import words
from sim.report.outputs import json_default


def fit(game: str, log: Path, outcomes: Path | None, rules: Path | Strict | None, sets: list[str] | None,
        out: Path, seed: int, as_json: bool, force: bool = False) -> None:
    g, cfg, _ = setup(game, rules, sets, {})
    s = fit_log(game, cfg, log, outcomes, out, seed, force)
    lv = s["level"]
    lines = [f"{g.title} · fit · {words.plural(s['players'], 'players')} · {words.plural(s['games'], 'games')} · "
             + (f"{s['decisions']:,} decisions" if s["decisions"] else "by outcomes"),
             f"  level (one for all)   {lv['value']:.4f}  [{lv['ci95'][0]:.4f}, {lv['ci95'][1]:.4f}]"]
    for k, grp in enumerate(s["groups"]):
        lines.append(f"  group {k + 1}: {grp['weight'] * 100:5.1f} % at {grp['level']:.4f}  "
                     f"[{grp['ci95'][0]:.4f}, {grp['ci95'][1]:.4f}]")
    if s["regret"] is not None:
        lines.append(f"  points lost per game  {s['regret']['total']:.2f}  ("
                     + ", ".join(f"{k} {v:.2f}" for k, v in s["regret"]["by_kind"].items()) + ")")
    if "note" in s:
        lines.append(f"  ({s['note']})")
    lines += [f"population: {s['population']}", f"page: {s['page']}"]
    emit(s, as_json, "\n".join(lines), json_default)


def play_log(game: str, policy: str, n: int, seed: int, rules: Path | Strict | None, sets: list[str] | None,
             out: Path | None, as_json: bool, no_report: bool, chunk: int | None, scheduler: str | None,
             force: bool, game_opts: dict[str, Any], log: Path | None, games_per_player: int | None) -> None:
    """``play`` with its decisions logged: the batch as ever, then the same runs replayed into the log."""
    g, cfg, options = setup(game, rules, sets, game_opts)
    if not hasattr(cfg, "skill"):  # its players have no level to group by (an AttributeError's traceback)
        raise DicesimError(f"--games-per-player: {g.title} has no skill levels, so no players of several games "
                           f"(the games with them: {', '.join(FITTED)})")
    if games_per_player is not None:
        cfg = type(cfg).model_validate({**cfg.model_dump(mode="json"), "skill": {
            **cfg.skill.model_dump(mode="json"), "games_per_player": games_per_player}})
    check_whole_players(n, cfg.skill.games_per_player)
    dest = None if no_report else (out or Path("reports") / f"{game}-{policy.replace(',', '_')}")
    if log is not None:  # a log that cannot be written is refused before the batch, not after it
        refuse_own_report(log, dest)  # the default folder's files too (the command line knew only --out)
        atomic.make_folder(log.parent, "--log's folder")
    r = api.play(game, policy, n=n, seed=seed, config=cfg, out=dest, chunk=chunk, scheduler=scheduler,
                 progress=not as_json, force=force, **game_opts)
    summary = dict(r.summary)
    head = [g.title, words.policy_name(g.name, policy), *g.played_setting(summary["options"]),
            *played_rules(g, cfg), f"n={n}", f"seed={seed}", f"{summary['runs_per_second']:,.0f} runs/s"]
    lines = [" · ".join(head), *summary.get("verdicts", []),  # the answer first, as play (its setting and rules too)
             *metric_lines(summary["metrics"], game=g.name, headline=g.headline)]
    if log is not None:
        lg = summary["log"] = write_log(game, cfg, policy, n, seed, options, log)
        lines.append(f"log: {lg['log']} ({lg['decisions']:,} decisions of {lg['players']} players), "
                     f"outcomes: {lg['outcomes']}" if "outcomes" in lg else
                     f"log: {lg['log']} (the outcomes of {lg['games']:,} games of {lg['players']} players)")
    human = "\n".join(lines + ([f"report: {summary['report']}"] if "report" in summary else []))
    emit(summary, as_json, human, json_default)
