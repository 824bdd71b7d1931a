"""Outputs: per-run tables (parquet, CSV), metric tables, charts, report.html and a manifest.

An output folder holds everything needed to rebuild its report without re-running anything:
``manifest.json`` (game, config, options, seed, n, which table belongs to which policy label),
``runs-<label>.parquet`` (+ ``.csv`` for moderate N), ``metrics.csv``/``metrics.parquet`` (tidy:
label, metric, value, ci95_low, ci95_high), the game's PNG charts and ``report.html``.
"""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd
from pydantic import ValidationError

from sim.core import atomic
from sim.core.config import ConfigError, DicesimError, config_hash, describe_validation_error, rules_said
from sim.core.errors import unreadable
from sim.core.jsonable import json_default  # (defined there, light; many callers import it from here)
from sim.core.limits import short
from sim.core.schema import stored_problem
from sim.games import get_game
from sim.games.base import Game
from sim.jit.codehash import code_hash
from sim.report import pages, words
from sim.report.findings.page import folder_section
from sim.report.manifest import load_manifest as load_manifest
from sim.report.pages import STYLE, caption_of  # noqa: F401  (STYLE: the shared look, used by other pages)

CSV_MAX_ROWS = 200_000
ROOT = Path(__file__).resolve().parent.parent.parent


def code_version() -> str:
    """The hash of this exact code, the one ``dicesim --version`` names (``sim.jit.codehash.code_hash``: every
    source file of ``sim`` and ``policies``, the same in a git checkout, a dirty one and an installed wheel)."""
    return code_hash()


def git_version() -> str | None:
    """``git describe`` of the checkout (None outside one): which commit a report came from, beside its code hash."""
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True, timeout=5
        )
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return None


def unused_folder(base: Path) -> Path:
    """``base`` if it holds nothing yet, else the first of ``base-2``, ``base-3``, … that holds nothing: the default
    output folder of a run never overwrites an earlier run (a folder named with ``--out`` is the user's to reuse)."""
    base = Path(base)
    k = 1
    while True:
        cand = base if k == 1 else base.with_name(f"{base.name}-{k}")
        if not cand.exists() or (cand.is_dir() and not any(cand.iterdir())):
            return cand
        k += 1


def tidy_metrics(metrics_by_label: dict[str, dict[str, dict[str, Any]]]) -> pd.DataFrame:
    rows = []
    for label, metrics in metrics_by_label.items():
        for name, m in metrics.items():
            lo, hi = (m.get("ci95") or [math.nan, math.nan])[:2]
            rows.append({"label": label, "metric": name, "value": m["value"], "ci95_low": lo, "ci95_high": hi})
    return pd.DataFrame(rows)


def safe_label(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)


def write_tables(out: Path, tables: dict[str, pd.DataFrame], csv: bool | None = None) -> dict[str, str]:
    files = {}
    for label, t in tables.items():
        name = f"runs-{safe_label(label)}"
        atomic.write_parquet(t, out / f"{name}.parquet")
        if csv or (csv is None and len(t) <= CSV_MAX_ROWS):
            atomic.write_csv(t, out / f"{name}.csv")
        files[label] = f"{name}.parquet"
    return files


def write_outputs(
    out: Path, summary: dict[str, Any], tables: dict[str, pd.DataFrame], metrics_by_label, csv: bool | None = None
) -> Path:
    """Write tables, metrics, charts, manifest and report.html into ``out``; returns the report path. The folder is
    locked meanwhile and written as one transaction (``sim.core.atomic``): a failure leaves it as it was."""
    with atomic.output_folder(out), atomic.transaction(out):
        earlier = _tables_named(out)
        drawn_before = _charts_named(out)  # read now: once its tables are gone the old manifest no longer loads
        files = write_tables(out, tables, csv)
        for name in sorted(earlier - set(files.values())):  # an earlier run's tables in a reused --out: not this run's
            atomic.remove(out / name)
            atomic.remove((out / name).with_suffix(".csv"))
        tm = tidy_metrics(metrics_by_label)
        atomic.write_csv(tm, out / "metrics.csv")
        atomic.write_parquet(tm, out / "metrics.parquet")
        manifest = {**summary, "tables": files, "code_version": code_version(), "git": git_version(),
                    "charts": drawn_before}  # still in the folder: build_report removes those it does not draw
        atomic.write_json(out / "manifest.json", manifest, indent=2, default=json_default)
        return build_report(out, verify=False)


def _tables_named(out: Path) -> set[str]:
    """The per-run tables an earlier run's manifest in ``out`` names (``load_manifest``: files beside it); none when
    ``out`` holds no readable manifest (a new folder, or one dicesim did not write: nothing of it is removed)."""
    try:
        return {n for n in load_manifest(out)["tables"].values() if n.startswith("runs-") and n.endswith(".parquet")}
    except DicesimError:
        return set()


def _charts_named(out: Path) -> list[str]:
    """The charts an earlier report in ``out`` drew (its manifest's ``charts``: plain ``.png`` names beside it)."""
    try:
        named = load_manifest(out).get("charts")
    except DicesimError:
        return []
    if not isinstance(named, list):
        return []
    return [n for n in named if isinstance(n, str) and n.endswith(".png") and Path(n).name == n and n[0] != "."]


def build_report(out: Path, verify: bool = True) -> Path:
    """(Re)build charts and report.html of an output folder from its stored tables; ``verify``: first check that its
    parts agree (``_check_agrees``: a folder edited by hand), which a report written just now needs not."""
    out = Path(out)
    manifest = load_manifest(out)
    game = get_game(manifest["game"])
    options = manifest.get("options", {})
    if not isinstance(options, dict):
        raise DicesimError(f"{out / 'manifest.json'}: options must be a table, got {type(options).__name__}")
    try:
        options = game.check_options(options)
    except DicesimError as e:
        raise DicesimError(f"{out / 'manifest.json'} does not fit {game.title}: {e}") from None
    try:
        cfg = game.Config.model_validate(manifest["config"]) if "config" in manifest else game.load()
    except ValidationError as err:
        raise ConfigError(f"{out / 'manifest.json'}: {describe_validation_error(err)}") from None
    with atomic.folder_lock(out), atomic.transaction(out):
        tables = {label: _stored(out / f, pd.read_parquet) for label, f in manifest["tables"].items()}
        for label, f in manifest["tables"].items():
            why = stored_problem(game.table_columns(cfg, options), tables[label])
            if why:
                raise DicesimError(f"{out / f} is not a {game.title} table of runs: {why}")
        metrics = _stored(out / "metrics.csv", pd.read_csv)  # a missing one refused before any chart is drawn
        if verify:
            _check_agrees(out, manifest, game, cfg, options, tables, metrics)
        earlier = _charts_named(out)
        charts = game.charts(tables, out, options, cfg)
        drawn = [Path(c).name for c in charts]
        for name in earlier:  # an earlier game's or rule set's chart in a reused folder: not this report's
            if name not in drawn:
                atomic.remove(out / name)
        if manifest.get("charts") != drawn:
            atomic.write_json(out / "manifest.json", {**manifest, "charts": drawn}, indent=2, default=json_default)
        page = render_html(manifest, metrics, [Path(c).name for c in charts], out)
        return atomic.write_text(out / "report.html", page)


def _check_agrees(out: Path, manifest: dict[str, Any], game: Game, cfg: Any, options: dict[str, Any],
                  tables: dict[str, pd.DataFrame], metrics: pd.DataFrame) -> None:
    """A folder edited by hand is refused where its parts disagree, before a page says them side by side (``n`` 10
    over 500 stored runs; rules the fingerprint does not name; a mean of 999.5 beside the runs' 208.2)."""
    where = out / "manifest.json"
    n = manifest.get("n")
    for label, t in tables.items():
        runs = int(t["run"].nunique()) if "run" in t.columns else len(t)
        if n is not None and runs != n:
            raise DicesimError(f"{where}: n is {n:,}, but the table of {label} holds {runs:,} runs: play again")
    if manifest.get("config_hash") and "config" in manifest and config_hash(cfg) != manifest["config_hash"]:
        raise DicesimError(f"{where}: its config is not the rules its fingerprint {short(manifest['config_hash'])} "
                           "names (edited after the play): play again")
    if not {"label", "metric", "value"} <= set(metrics.columns):
        raise DicesimError(f"{out / 'metrics.csv'} has no label, metric and value columns: play again")
    stray = next((x for x in dict.fromkeys(metrics["label"].astype(str)) if x not in map(str, tables)), None)
    if tables and stray is not None:  # a page column for a policy that never played, and the one that did empty
        raise DicesimError(f"{out / 'metrics.csv'}: {short(stray)} is no run of this folder (its runs: "
                           f"{', '.join(map(str, tables))}): play again")
    for label, t in tables.items():
        said = metrics[metrics["label"].astype(str) == str(label)].set_index("metric")["value"]
        for name, m in game.metrics(t, options, cfg).items():
            v = m.get("value")
            if name in game.headline and isinstance(v, int | float) and math.isfinite(v) and name in said.index:
                stored = pd.to_numeric(pd.Series([said[name]]), errors="coerce").iloc[0]
                if not (math.isfinite(stored) and math.isclose(stored, v, rel_tol=1e-9, abs_tol=1e-12)):
                    shown = f"{stored:.6g}" if math.isfinite(stored) else short(str(said[name]))
                    raise DicesimError(f"{out / 'metrics.csv'}: {name} of {label} is {shown}, but its stored runs "
                                       f"give {v:.6g}: play again")


def refresh_page(out: Path) -> Path:
    """Write report.html of ``out`` again from its manifest, metrics and the charts it drew (no chart is drawn): a
    page that gained something beside it (``findings.json``) after it was written."""
    out = Path(out)
    with atomic.folder_lock(out):
        manifest = load_manifest(out)
        metrics = _stored(out / "metrics.csv", pd.read_csv)
        return atomic.write_text(out / "report.html", render_html(manifest, metrics, _charts_named(out), out))


def _stored(path: Path, read: Any) -> pd.DataFrame:
    """A stored table of an output folder; a damaged or missing one is one error line naming it (no traceback)."""
    if not path.is_file():
        raise DicesimError(f"{path.name} is missing from {path.parent} (a play or compare writes it beside the "
                           "manifest)")
    try:
        return read(path)
    except (OSError, ValueError) as e:  # pyarrow's ArrowInvalid is a ValueError
        raise DicesimError(f"{path} is not a table dicesim can read ({unreadable(e)})") from None


def ordered_charts(game: Game, charts: list[str], extras: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(file name, caption) with the game's key chart first, then the extra analyses, then the other charts."""
    items = [(c, caption_of(c, game.chart_notes)) for c in charts]
    items += [(name, title if title.endswith(".") else title + ".") for title, name in extras]
    return sorted(items, key=lambda it: (it[0] != game.key_chart, it[0] in charts))


def run_facts(manifest: dict[str, Any]) -> dict[str, str]:
    """The page's header line in words: runs, seed, how long they took, and which rules and code played them (the
    fingerprints a designer quotes to say two pages played the same rules)."""
    facts: dict[str, str] = {}
    if manifest.get("n") is not None:
        facts["runs"] = f"{manifest['n']:,}" + (" per policy" if manifest.get("policies") else "")
    if manifest.get("seed") is not None:
        facts["seed"] = str(manifest["seed"])
    arms = [a for a in (manifest.get("policies") or {}).values() if isinstance(a, dict)]
    seconds = manifest.get("seconds")
    if seconds is None and arms and all(a.get("seconds") is not None for a in arms):
        seconds = sum(a["seconds"] for a in arms)  # a comparison: every policy's runs
    if seconds is not None:
        rate = manifest.get("runs_per_second")
        facts["played in"] = f"{seconds:.2f} s" + (f" ({rate:,.0f} runs/s)" if rate else "")
    if manifest.get("config_hash"):
        facts["rules fingerprint"] = str(manifest["config_hash"])
    if manifest.get("code_version"):
        facts["code version"] = str(manifest["code_version"])
    return facts


def _reported(game: Game, manifest: dict[str, Any], options: dict[str, Any]) -> set[str] | None:
    """The metrics this page's batches report by the game's own declaration (``Game.metric_names`` of each label's
    seats), so a headline metric such seats never have (a mirror's first-listed policy, a solitaire game's seats)
    is not named as missing; None where that is not known (no config kept, or a game that declares none)."""
    labels = [manifest["policy"]] if manifest.get("policy") else list(manifest.get("policies") or {})
    try:
        cfg = game.Config.model_validate(manifest["config"])
        declared = [game.metric_names(cfg, options, game.seat_policies(label, options)) for label in labels]
    except (KeyError, ValueError, TypeError, DicesimError):
        return None
    return None if not labels or None in declared else set().union(*declared)


def render_html(manifest: dict[str, Any], metrics: pd.DataFrame, charts: list[str], out: Path | None = None) -> str:
    """A play/compare/balance page: the answers (headline metrics, paired differences), the charts with one
    sentence each, then every metric folded by group, then the config. Charts are embedded from ``out``."""
    out = Path(out) if out is not None else Path(".")
    game = get_game(manifest["game"])
    what = ", ".join(words.policy_name(game.name, p) for p in ([manifest["policy"]] if manifest.get("policy")
                                                                 else manifest.get("policies") or {}))
    title = f"dicesim · {game.title} · {what}".strip(" ·")
    facts = run_facts(manifest)
    if isinstance(manifest.get("config"), dict):  # which rules: pages of different rules must not read alike
        try:
            facts["rules"] = rules_said(game.load().model_dump(mode="json"), manifest["config"])
        except DicesimError:  # the game's default config cannot be read here: the fingerprint still tells them apart
            pass
    options = manifest.get("options") or {}
    if game.setting(options):  # an option left unset (None) is none to show: no empty "options" in the heading
        facts["options"] = ", ".join(game.setting(options))
    assumed = pages.assumed_html(manifest.get("assumed") or [], game=game.name, model=game.Config,
                                 config=manifest.get("config"))
    body = [f"<h1>{pages.esc(title)}</h1>", pages.facts_line(facts), assumed]
    body.append("<h2>Answers</h2>")
    paired = manifest.get("paired") or {}
    said = pages.verdicts(metrics, paired, game.headline, game.name, options) + pages.extra_verdicts(out)
    if manifest.get("policy") and isinstance(manifest.get("verdicts"), list):  # a play's own answer first: who wins
        said = [str(v) for v in manifest["verdicts"]] + said  # a mixed table, the skill and loadout it played with
    seen: set[str] = set()
    for sentence in said:
        if sentence.rstrip(".") in seen:  # the page's own answer sentence, said by the play already
            continue
        seen.add(sentence.rstrip("."))
        body.append(f"<p class='answer verdict'>{pages.esc(sentence)}</p>")
    body.append(folder_section(out, game.title))  # what `dicesim findings` found in these tables, after the answers
    body.append(pages.headline_table(metrics, game.headline, game.name, _reported(game, manifest, options)))
    if paired:
        body.append("<h3>Paired differences</h3><p>Every policy played the same runs (same dice), so each "
                    "difference is measured run by run: a policy minus one listed before it (the first listed is "
                    "the baseline; a negative difference: worse than it); rates in percentage points (pp), 95 % "
                    "intervals.</p>")
        body.append(pages.paired_html(paired, game.name, game.headline))
    items = ordered_charts(game, charts, [tuple(e) for e in manifest.get("extras") or []])
    if items:
        body.append("<h2>Charts</h2>")
        body.extend(pages.figure(out / name, cap) for name, cap in items)
    body.append("<h2>All metrics</h2><p>95 % intervals in brackets (Wilson for rates, normal for means); "
                "click a group to open it. Tables: <code>metrics.csv</code>, <code>runs-*.parquet</code> "
                "beside this page.</p>")
    body.append(pages.grouped_metrics_html(metrics, game.metric_groups, game=game.name))
    body.append("<details><summary>Config</summary><pre>"
                + pages.esc(json.dumps(manifest.get("config", {}), indent=2, ensure_ascii=False)) + "</pre></details>")
    return pages.document(title, body)
