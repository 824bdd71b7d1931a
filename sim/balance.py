"""The default balance report (``make run``): every game under its report policies, one page."""

from __future__ import annotations

from pathlib import Path

from sim.batch import run_batch
from sim.config import DicesimError, config_hash
from sim.games import available, get_game
from sim.report import index_html, write_outputs


def game_report(name: str, out: Path, n: int, seed: int) -> tuple[Path, str]:
    """Compare a game's report policies on paired seeds; returns (report path, headline)."""
    game = get_game(name)
    out.mkdir(parents=True, exist_ok=True)
    cfg = game.load()
    options = game.check_options({})
    tables, metrics, results = {}, {}, {}
    for label, seats in game.compare_plan(list(game.report_policies), options):
        b = run_batch(game, cfg, seats, n, seed, options, chunk=game.chunk)
        tables[label] = b.table
        metrics[label] = game.metrics(b.table, options)
        results[label] = {"seats": seats, "seconds": round(b.seconds, 3), "runs_per_second": round(b.runs_per_second)}
    summary = {
        "game": name,
        "title": game.title,
        "n": n,
        "seed": seed,
        "config_hash": config_hash(cfg),
        "options": options,
        "assumed": list(getattr(cfg, "assumed", []) or []),
        "policies": results,
        "paired": game.paired(tables, options),
        "config": cfg.model_dump(mode="json"),
    }
    summary["extras"] = game.balance_extras(cfg, out, n, seed)
    path = write_outputs(out, summary, tables, metrics)
    first = next(iter(metrics.values()))
    key = next(iter(first))
    headline = ", ".join(f"{lab}: {key} {m[key]['value']:.4g}" for lab, m in metrics.items())
    return path, headline


def balance_report(out: Path, n: int, seed: int, games: list[str] | None = None) -> Path:
    """Write ``out/<game>/report.html`` for each game and ``out/report.html`` linking them."""
    if n <= 0:
        raise DicesimError(f"--n must be a positive number of runs, got {n}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for name in games or available():
        path, headline = game_report(name, out / name, n, seed)
        entries.append((get_game(name).title, f"{name}/{path.name}", headline))
    page = out / "report.html"
    page.write_text(
        index_html(entries, f"dicesim balance report (n = {n:,} per policy, seed {seed})"), encoding="utf-8"
    )
    return page
