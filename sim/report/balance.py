"""The default balance report (``make run``): every game under its report policies, and a dashboard that answers.

``out/<game>/report.html`` is each game's page; ``out/report.html`` the dashboard: per game a card with its
headline answer in words and numbers with intervals, its key chart as a thumbnail, the assumed values named
and a link to the game page. Cards are built from the stored output folders (``dashboard`` can rebuild them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from sim.core import atomic
from sim.core.config import DicesimError, config_hash
from sim.core.experiment import run_plan
from sim.games import available, get_game
from sim.report import pages
from sim.report.findings.config import FindingsConfig
from sim.report.findings.page import MEANINGS, findings_section
from sim.report.findings.runner import folder_findings, read_findings, read_thresholds
from sim.report.outputs import load_manifest, write_outputs


def game_report(name: str, out: Path, n: int, seed: int, cfg: Any = None) -> tuple[Path, str]:
    """Compare a game's report policies on paired seeds (under ``cfg``, default the game's own config); returns
    (report path, headline sentence)."""
    game = get_game(name)
    cfg = game.load() if cfg is None else cfg
    options = game.check_options({})
    exp = run_plan(game, cfg, game.compare_plan(list(game.report_policies), options), n, seed, options,
                   progress=True)
    tables, metrics = exp.tables, exp.metrics
    results = {k: {"seats": a.seats, "seconds": round(a.seconds, 3), "runs_per_second": round(a.runs_per_second)}
               for k, a in exp.arms.items()}
    summary = {
        "game": name,
        "title": game.title,
        "n": n,
        "seed": seed,
        "config_hash": config_hash(cfg),
        "options": options,
        "assumed": list(getattr(cfg, "assumed", []) or []),
        "policies": results,
        "paired": exp.paired,
        "config": cfg.model_dump(mode="json"),
    }
    with atomic.output_folder(out), atomic.transaction(out):
        summary["extras"] = game.balance_extras(cfg, out, n, seed)
        path = write_outputs(out, summary, tables, metrics)
    return path, card(out)["answer"]


def key_chart(out: Path, manifest: dict[str, Any]) -> Path | None:
    """The game's declared key chart if it was written, else its first chart, else ``None``."""
    game = get_game(manifest["game"])
    pngs = sorted(out.glob("*.png"))
    if game.key_chart and (out / game.key_chart).is_file():
        return out / game.key_chart
    extras = [out / f for _, f in manifest.get("extras") or [] if (out / f).is_file()]
    return (extras or pngs or [None])[0]


def card(out: Path) -> dict[str, Any]:
    """What the dashboard shows of one game's output folder: title, setting, answer, headline table, chart."""
    out = Path(out)
    manifest = load_manifest(out)
    game = get_game(manifest["game"])
    metrics = pd.read_csv(out / "metrics.csv")
    options = {k: v for k, v in (manifest.get("options") or {}).items() if v is not None}
    present, missing = pages.headline_rows(metrics, game.headline)
    return {
        "game": manifest["game"],
        "title": game.title,
        "setting": ", ".join(game.setting(options)),
        "answer": pages.answer_sentence(metrics, game.headline, game=game.name),  # in the game's words
        "verdicts": pages.verdicts(metrics, manifest.get("paired") or {}, game.headline, game.name, options)
        + pages.extra_verdicts(out),
        "headline_html": pages.headline_table(metrics, game.headline, game.name),
        "missing": missing,
        "chart": key_chart(out, manifest),
        "assumed": list(manifest.get("assumed") or []),
        "assumed_html": pages.assumed_items(list(manifest.get("assumed") or []), game.name, game.Config,
                                            manifest.get("config")),
        "n": manifest.get("n"),
        "seed": manifest.get("seed"),
    }


def card_html(c: dict[str, Any], link: str) -> str:
    assumed = c.get("assumed_html") or [f"<code>{pages.esc(a)}</code>" for a in c["assumed"]]
    if assumed:
        more = f" and {len(assumed) - 4} more" if len(assumed) > 4 else ""
        assumed_txt = f"<p class='muted'>Assumed values used: {'; '.join(assumed[:4])}{more}.</p>"
    else:
        assumed_txt = "<p class='muted'>Assumed values used: none.</p>"
    said = c.get("verdicts") or ([c["answer"]] if c["answer"] else [])
    answer = ("".join(f"<p class='answer verdict'>{pages.esc(s)}</p>" for s in said) if said
              else "<p class='missing'>No headline answer: none of the declared headline metrics was reported.</p>")
    img = ""
    if c["chart"] is not None:
        img = (f"<a href='{pages.esc(link)}'><img src='{pages.data_uri(c['chart'], max_width=640)}' "
               f"alt='{pages.esc(c['title'])}: key chart'></a>")
    setting = f" <small>({pages.esc(c['setting'])})</small>" if c["setting"] else ""
    return (f"<div class='card'><h2><a href='{pages.esc(link)}'>{pages.esc(c['title'])}</a>{setting}</h2>"
            f"{answer}{c['headline_html']}{img}{assumed_txt}"
            f"<p><a href='{pages.esc(link)}'>Game page: charts, paired differences, every metric →</a></p></div>")


def dashboard_html(cards: list[tuple[dict[str, Any], str]], title: str, findings: str = "") -> str:
    """The front page: the findings section (``findings``: its HTML, first), then one card per (card, link to the
    game page)."""
    body = [f"<h1>{pages.esc(title)}</h1>", findings,
            "<p class='muted'>Each card answers first: who beats whom (paired on the same dice, 95 % intervals), "
            "how fair the seats are, the headline metrics per policy, the game's key chart, the assumed values the "
            "rules page leaves open. Every page is one file.</p>",
            "<div class='cards'>", *(card_html(c, link) for c, link in cards), "</div>"]
    return pages.document(title, body)


def balance_report(out: Path, n: int, seed: int, games: list[str] | None = None,
                   findings: FindingsConfig | None = None) -> Path:
    """Write ``out/<game>/report.html`` and ``out/<game>/findings.json`` for each game, the dashboard
    ``out/report.html`` and every game's findings in ``out/findings.json``."""
    if n <= 0:
        raise DicesimError(f"--n must be a positive number of runs, got {n}")
    out = Path(out)
    f = findings or FindingsConfig()
    with atomic.output_folder(out):
        for name in games or available():
            game_report(name, out / name, n, seed)
            folder_findings(out / name, f)
        # what this folder is (``atomic.KINDS``): a play or another command refuses to write its report over it
        atomic.write_json(out / "balance.json", {"games": games or available(), "n": n, "seed": seed}, indent=2)
        return write_dashboard(out, games or available())


def write_dashboard(out: Path, games: list[str], title: str | None = None) -> Path:
    """(Re)build ``out/report.html`` from the game folders ``out/<game>/`` (no re-running)."""
    out = Path(out)
    cards = [(card(out / name), f"{name}/report.html") for name in games if (out / name / "manifest.json").is_file()]
    if title is None:
        runs = {(c["n"], c["seed"]) for c, _ in cards}
        title = "dicesim balance report"
        if len(runs) == 1 and None not in next(iter(runs)):
            n, seed = next(iter(runs))
            title += f" (n = {n:,} per policy, seed {seed})"
    names = [name for name in games if (out / name / "manifest.json").is_file()]
    found, thresholds = read_findings(out, names), read_thresholds(out, names)
    section = findings_section(found, MEANINGS, [c["title"] for c, _ in cards], thresholds=thresholds)
    with atomic.folder_lock(out):
        atomic.write_json(out / "findings.json", {"findings": found, "thresholds": thresholds}, indent=2)
        return atomic.write_text(out / "report.html", dashboard_html(cards, title, section))
