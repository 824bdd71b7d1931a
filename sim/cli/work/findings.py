"""The work of ``dicesim findings`` (its arguments: ``sim.cli.findings``): the game's balance report played under
the config, then every detector over its tables."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from sim.cli.common import emit
from sim.core.config import CONFIG_DIR, Strict, changed_fields, parse_override, read_toml, set_path, validate
from sim.core.limits import check_runs
from sim.games import get_game
from sim.report.balance import game_report
from sim.report.findings.config import SECTION, FindingsConfig, changed_thresholds, thresholds_sentence
from sim.report.findings.page import MEANINGS
from sim.report.findings.runner import folder_findings


def config_args(game: Any, cfg: Strict, config: Path | None, sets: list[str]) -> list[str]:
    """How a replay line names the config the runs were played with: ``--config F`` and the ``--set``s as given,
    or, when ``F`` holds a ``[findings]`` section (which ``replay`` refuses), the ``--set``s that make the default
    config into it."""
    if config is not None and SECTION in read_toml(config):
        base = game.load().model_dump(mode="json")
        return [x for s in changed_fields(base, cfg.model_dump(mode="json")) for x in ("--set", s)]
    return ([] if config is None else ["--config", str(config)]) + [x for s in sets for x in ("--set", s)]


def findings(game: str, config: Path | None, data: dict[str, Any] | None, sets: list[str], thresholds: FindingsConfig,
             n: int, seed: int, out: Path | None, as_json: bool) -> None:
    g = get_game(game)
    check_runs(n * len(g.report_policies), what="--n x the report's policies", flag=None)  # the report plays every one
    raw = data if data is not None else read_toml(CONFIG_DIR / game / "default.toml")
    for item in sets:
        keys, value = parse_override(item)
        set_path(raw, keys, value, g.Config)
    cfg = validate(g.Config, raw)
    args = config_args(g, cfg, config, sets)
    with tempfile.TemporaryDirectory(prefix="dicesim-findings-") as tmp:
        folder = Path(out) if out is not None else Path(tmp) / game
        game_report(game, folder, n, seed, cfg=cfg)
        found = folder_findings(folder, thresholds, cfg, args)
    # the setting the report played (``game_report``: the game's default options, difficulty: Leicht): its findings
    # are that setting's ("Room 5 is a cliff")
    setting = g.played_setting(g.check_options({}))
    lines = [" · ".join([g.title, "findings", *setting, f"n={n}", f"seed={seed}: {len(found)} found"])]
    mirror = [g.report_policies[0]] * 2  # one policy on two seats: the skill gap is between the seats
    said_as, caution = g.played_as(cfg, mirror)  # and it skews every head-to-head finding
    if caution:
        lines.append(f"Played with {'; '.join(said_as)}. {caution} The head-to-head findings (seats, policies "
                     "against each other) hold that gap too.")
    changed = changed_thresholds(thresholds)
    if changed:  # found under other thresholds than the defaults: said
        lines.append(thresholds_sentence(changed))
    for f in found:
        runs = (f.get("evidence") or {}).get("runs")  # a detector that plays its own, smaller probe says so here
        fewer = f" (from {runs:,} runs: this detector's probe, not --n {n:,})" if isinstance(runs, int) and runs < n \
            else ""
        lines += [f"- {f['kind'].replace('_', ' ')}: {f['title']}{fewer}",  # the kind in words; --json keeps its code
                  f"    replay: {f['replay']}" if f.get("replay") else ""]
    least = max(thresholds.seat_min_runs, thresholds.cliff_min_runs)  # the runs a detector needs before it judges
    if not found and n < least:  # "0 found" of one run read as a clean bill of health
        lines.append(f"Nothing found, and n={n:,} is too few runs to find anything: a seat advantage needs "
                     f"{thresholds.seat_min_runs:,} games, a difficulty cliff {thresholds.cliff_min_runs:,} runs "
                     f"reaching the room; play --n {least:,} or more.")
    elif not found:
        lines.append("None of the detectors found anything (" + ", ".join(k.replace("_", " ") for k in MEANINGS)
                     + "); thresholds: the [findings] section of --config, or --set findings.NAME=VALUE.")
    if out is not None:
        lines.append(f"report: {Path(out) / 'report.html'}, findings: {Path(out) / 'findings.json'}")
    summary = {"findings": found, "thresholds": changed}
    emit({**summary, **({"caution": lines[1]} if caution else {})}, as_json, "\n".join(x for x in lines if x))
