"""Run every detector over one game's tables: from a balance report's game folder, or by playing the game first.

:func:`tables_from_folder` reads what ``dicesim balance`` wrote for a game (``metrics.csv``, ``manifest.json`` with
its paired differences and config, the per-run tables, the extra analyses) and gives the detectors a ``play`` and an
``events`` hook, so the stacking probe and the economy check can play the runs they need, on the same seed.
:func:`detect` runs the detectors (``DETECTORS``, in the order a reader meets them); :func:`folder_findings` detects
over a folder and writes ``findings.json`` there (``dicesim balance`` and ``dicesim findings``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core import atomic
from sim.core.batch import run_batch
from sim.core.config import Strict, config_hash
from sim.core.events import replay as replay_run
from sim.core.jsonable import read_numbers
from sim.games import get_game
from sim.games.base import Game
from sim.report.findings.base import Tables
from sim.report.findings.config import FindingsConfig, changed_thresholds
from sim.report.findings.content import unused_content
from sim.report.findings.difficulty import difficulty_cliff
from sim.report.findings.economy import economy_loop
from sim.report.findings.options import dominant_option, trap_option
from sim.report.findings.page import FILE
from sim.report.findings.seats import seat_advantage
from sim.report.findings.stacking import runaway_stacking
from sim.report.findings.strategy import degenerate_strategy
from sim.report.outputs import load_manifest, refresh_page

Detector = Callable[[Tables, FindingsConfig], list[dict[str, Any]]]
DETECTORS: dict[str, Detector] = {
    "seat_advantage": seat_advantage,
    "dominant_option": dominant_option,
    "trap_option": trap_option,
    "economy_loop": economy_loop,
    "unused_content": unused_content,
    "degenerate_strategy": degenerate_strategy,
    "difficulty_cliff": difficulty_cliff,
    "runaway_stacking": runaway_stacking,
}
# the extra analyses a balance folder may hold: name -> file
EXTRAS = {"upgrade_lift": "upgrade_lift.csv", "upgrade_picks": "upgrade_picks.csv", "difficulty": "difficulty.csv",
          "matchup": "matchup.json", "ability_lift": "ability_lift.json", "two_player": "two_player.json"}
STACKING = "stacking.json"  # the stacking probe's table, kept for a rebuild of the same runs


def _stacking_key(t: Tables, f: FindingsConfig) -> str:
    """What the stacking probe's numbers depend on: the config, the runs, the copies and the policy."""
    return f"{config_hash(t.cfg)}-{t.n}-{t.seed}-{f.stack_copies}-{f.stack_policy}-{sorted(t.options.items())}"


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = read_numbers(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def detect(t: Tables, f: FindingsConfig, kinds: list[str] | None = None) -> list[dict[str, Any]]:
    """Every finding of the detectors (``kinds``: only these), in ``DETECTORS`` order."""
    out: list[dict[str, Any]] = []
    for kind, fn in DETECTORS.items():
        if kinds is None or kind in kinds:
            out += fn(t, f)
    return out


def hooks(game: Game, cfg: Strict, seed: int, options: dict[str, Any]
          ) -> tuple[Callable[[str, int], pd.DataFrame], Callable[[str, int], list[dict[str, Any]]]]:
    """``play(policy, n)`` (cached per policy: a smaller n reads the head of a larger batch, the runs are the same)
    and ``events(policy, run)``: a run's decoded event records."""
    played: dict[str, pd.DataFrame] = {}

    def play(policy: str, n: int) -> pd.DataFrame:
        have = played.get(policy)
        if have is None or len(have) < n:
            have = run_batch(game, cfg, game.seat_policies(policy, options), n, seed, options, chunk=game.chunk,
                             progress=False).table
            played[policy] = have
        return have.iloc[:n]

    def events(policy: str, run: int) -> list[dict[str, Any]]:
        if game.events is None:
            return []
        rep = replay_run(game, cfg, game.seat_policies(policy, options), seed, run, options)
        return [ev for sec in rep.sections for ev in sec["events"]]

    return play, events


def tables_from_folder(folder: Path, cfg: Strict | None = None, config_args: list[str] | None = None) -> Tables:
    """The tables of one game's output folder (``dicesim balance``'s ``out/<game>/``), with the play and replay
    hooks of its config (``cfg``: the one it was played with; default: the manifest's)."""
    folder = Path(folder)
    manifest = load_manifest(folder)
    game = get_game(manifest["game"])
    if cfg is None:
        cfg = game.Config.model_validate(manifest["config"])
    options = game.check_options({k: v for k, v in (manifest.get("options") or {}).items() if v is not None})
    runs = {label: pd.read_parquet(folder / f) for label, f in (manifest.get("tables") or {}).items()}
    extras: dict[str, Any] = {}
    for name, f in EXTRAS.items():
        p = folder / f
        if p.is_file():
            extras[name] = pd.read_csv(p) if f.endswith(".csv") else read_numbers(p.read_text(encoding="utf-8"))
    seed = int(manifest.get("seed", 1))
    play, events = hooks(game, cfg, seed, options)
    seats = {k: list(v.get("seats") or [k]) for k, v in (manifest.get("policies") or {}).items()}
    return Tables(
        game=game.name, cfg=cfg, n=int(manifest.get("n", 0)), seed=seed,
        options={k: v for k, v in options.items() if v != game.options.get(k)},  # a replay line names the rest
        metrics=pd.read_csv(folder / "metrics.csv"), paired=manifest.get("paired") or {}, runs=runs, seats=seats,
        extras=extras, policies=tuple(game.policies), solved_policies=tuple(game.solved_policies),
        report_policies=tuple(game.report_policies), policy_variant=game.policy_variant,
        config_args=list(config_args or []), play=play, events=events, title=game.title)


def folder_findings(folder: Path, f: FindingsConfig, cfg: Strict | None = None,
                    config_args: list[str] | None = None) -> list[dict[str, Any]]:
    """Detect over a game folder and write ``findings.json`` (and the stacking probe's ``stacking.json``) into it."""
    t = tables_from_folder(folder, cfg, config_args)
    key = _stacking_key(t, f)
    stored = _read_json(Path(folder) / STACKING)
    if stored.get("key") == key:  # the probe of these very runs and thresholds, from an earlier detect
        t.extras["stacking"] = stored.get("rows") or []
    found = detect(t, f)
    if t.extras.get("stacking"):
        atomic.write_json(Path(folder) / STACKING, {"key": key, "rows": t.extras["stacking"]}, indent=2)
    atomic.write_json(Path(folder) / FILE, {"game": t.game, "findings": found, "thresholds": changed_thresholds(f)},
                      indent=2)
    if (Path(folder) / "report.html").is_file():  # the page opens with them (it was written before they were found)
        refresh_page(Path(folder))
    return found


def read_thresholds(out: Path, games: list[str]) -> dict[str, Any]:
    """The thresholds set away from their defaults that a balance report's game folders were detected under (each
    folder's ``findings.json``; one set for the report)."""
    for name in games:
        p = Path(out) / name / FILE
        if p.is_file():
            changed = read_numbers(p.read_text(encoding="utf-8")).get("thresholds")
            if changed:
                return changed
    return {}


def read_findings(out: Path, games: list[str]) -> list[dict[str, Any]]:
    """The findings each game folder of a balance report holds, in game order."""
    found: list[dict[str, Any]] = []
    for name in games:
        p = Path(out) / name / FILE
        if p.is_file():
            found += read_numbers(p.read_text(encoding="utf-8")).get("findings", [])
    return found
