"""What the studio's Fit tab does besides drawing: find the play logs under ``--out``, keep an uploaded one there,
fit one (``sim.players.run.fit_log``, the work of ``dicesim fit``) and say the answer in words.

Everything is read and written inside the studio's output folder: logs under ``logs/``, fits under
``fits/<log name>/`` (population.toml, fit.html, the charts), as ``dicesim fit --out`` writes them.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

from sim.core.config import DicesimError, Strict
from sim.players.logs import SUFFIXES
from sim.players.run import LOGS, OUTCOME_LOGS, POLICY, check_game, fit_log
from sim.report import words
from sim.studio.saving import inside

LOGS_MAX = 50  # the newest logs listed (the picker stays short however full the folder is)
SCAN_MAX = 500  # the newest tables whose header is read to find them
LOG_KEYS = {"player", "game"}  # every log table has them (docs/logs.md)
UPLOAD_MAX_MB = 200  # an uploaded log's size (a fit reads at most 2,000,000 rows: ~70 bytes each as CSV)


def fittable(game: str) -> bool:
    try:
        check_game(game)
    except DicesimError:
        return False
    return True


def is_outcomes(path: Path) -> bool:
    """``NAME.outcomes.parquet|csv``: the outcome table the simulator writes beside a decision log."""
    return path.stem.endswith(".outcomes")


def saved_logs(out_root: Path, game: str | None = None) -> list[Path]:
    """Decision logs (``.parquet``, ``.csv``) under ``out_root``, newest first, without the outcome tables beside
    them; hidden folders and the fits' own tables (``fits/``) are not looked in. With ``game``, only the tables that
    hold a column only that game's logs have (``own_columns``) and name players and games (``LOG_KEYS``: a result
    table of a batch, which has the same outcome columns, is no log)."""
    root = Path(out_root)
    if not root.is_dir():
        return []
    found = [p for p in root.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file() and not is_outcomes(p)
             and not any(part.startswith(".") for part in p.relative_to(root).parts)
             and p.relative_to(root).parts[0] != "fits"]
    found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    if game is None:
        return found[:LOGS_MAX]
    own, logs = own_columns(game), []
    for p in found[:SCAN_MAX]:  # newest first; a folder of many result tables costs at most SCAN_MAX header reads
        cols = header(p)
        if LOG_KEYS <= cols and own & cols:
            logs.append(p)
            if len(logs) == LOGS_MAX:
                break
    return logs


def columns_of(game: str) -> set[str]:
    """Every column of ``game``'s log tables (decisions and outcomes)."""
    mod = LOGS.get(game) or OUTCOME_LOGS.get(game)
    return set() if mod is None else {c.name for c in (*mod.DECISION_COLUMNS, *mod.OUTCOME_COLUMNS)}


def own_columns(game: str) -> set[str]:
    """The columns only ``game``'s logs have: a table with one of them is this game's log (a broken one too, which
    the fit then refuses naming what is wrong), one without them another game's."""
    others = set().union(*(columns_of(g) for g in (*LOGS, *OUTCOME_LOGS) if g != game))
    return columns_of(game) - others


def header(path: Path) -> set[str]:
    """A table's column names, read without its rows (empty when it cannot be read)."""
    try:
        if path.suffix.lower() == ".csv":
            with open(path, encoding="utf-8", errors="replace") as fh:
                return {c.strip().strip('"') for c in fh.readline(1 << 16).rstrip("\r\n").split(",")}
        import pyarrow.parquet as pq  # pyarrow (heavy): pandas' parquet engine, here for the schema alone

        return set(pq.ParquetFile(path).schema_arrow.names)
    except (OSError, ValueError):
        return set()


def upload_target(out_root: Path, name: str, size: int) -> Path:
    """Where an uploaded log goes: ``logs/<name>`` in ``--out`` (a file name only, a log's suffix, not over an
    existing file, within the size limit); refused in one line otherwise."""
    name = str(name or "").strip()
    if not name or Path(name).name != name or name.startswith("."):
        raise DicesimError(f"an uploaded log is named by its file name alone, got {name!r}")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):  # a line break in a file name (a hand-made request)
        raise DicesimError(f"an uploaded log's name holds a control character (a line break?): {name[:60]!r}")
    if Path(name).suffix.lower() not in SUFFIXES:
        raise DicesimError(f"{name}: a log is a .parquet or .csv file")
    if size > UPLOAD_MAX_MB * 2**20:
        raise DicesimError(f"{name} is {size / 2**20:.0f} MB, more than the {UPLOAD_MAX_MB} MB a log may be here")
    target = inside(out_root, f"logs/{name}", "file")
    if target.exists():
        raise DicesimError(f"logs/{name} exists already: rename the file to upload it again")
    return target


def staging(target: Path) -> Path:
    """A temporary name beside ``target``, of this upload alone (two files of one name in one request shared the
    process's name and mixed their rows), for an upload written whole before it is moved into place (``keep``)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.upload")


def keep(tmp: Path, target: Path) -> None:
    """``tmp`` under ``target``'s name unless another upload took the name meanwhile (``upload_target`` checked it
    before the file arrived): a hard link fails on an existing name, where a rename would replace it."""
    taken = DicesimError(f"logs/{target.name} exists already: rename the file to upload it again")
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise taken from None
    except OSError:  # a file system without hard links: the name checked again, then renamed
        if target.exists():
            raise taken from None
        tmp.replace(target)


def fit_folder(out_root: Path, log: Path) -> Path:
    """``fits/<log name>`` in ``--out``: a second fit of the same log replaces its files."""
    return inside(out_root, f"fits/{Path(log).stem}", "folder")


def fit(game: str, cfg: Strict, log: Path, out_root: Path, seed: int) -> dict[str, Any]:
    """``dicesim fit GAME LOG --out fits/<log name>`` on the page's rules (the outcomes beside the log are read)."""
    return fit_log(game, cfg, Path(log), None, fit_folder(out_root, log), seed)


def level_text(value: float, ci95: list[float]) -> str:
    return f"{value:.2f} [{ci95[0]:.2f}, {ci95[1]:.2f}]"


def verdict(game: str, s: dict[str, Any]) -> str:
    """The fit's answer in one sentence: the population's level, or its groups when BIC prefers a mixture."""
    groups = s["groups"]
    who = words.policy_name(game, POLICY[game])
    if len(groups) > 1:
        parts = [f"{level_text(g['level'], g['ci95'])} ({g['weight'] * 100:.0f} % of the players)" for g in groups]
        return (f"{len(groups)} groups of players, at levels {', '.join(parts[:-1])} and {parts[-1]} of "
                f"{who} (one level for all would be {level_text(s['level']['value'], s['level']['ci95'])})")
    lv = s["level"]
    return (f"The players play at level {level_text(lv['value'], lv['ci95'])} of {who} (1: the policy itself, "
            "0: random moves)")


def facts(s: dict[str, Any]) -> str:
    """How much the fit read: players, games, decisions (or the outcomes it was fitted by)."""
    read = f"{s['decisions']:,} decisions" if s["decisions"] else s.get("by", "outcomes")
    return f"{s['players']:,} players · {s['games']:,} games · {read}"


def regret_lines(s: dict[str, Any], top: int = 4) -> list[str]:
    """Where the players lose points against the optimum, the largest kinds first (games with exact values)."""
    reg = s.get("regret")
    if not reg:
        return []
    kinds = sorted(reg["by_kind"].items(), key=lambda kv: -kv[1])[:top]
    return [f"loses {reg['total']:.1f} points a game against the optimum; most in: "
            + ", ".join(f"{k} ({v:.1f})" for k, v in kinds)]


def fit_lines(s: dict[str, Any]) -> list[str]:
    """How well the fitted population reproduces the log (outcome fits: the win rate; others: the mean score)."""
    g = s.get("goodness_of_fit") or {}
    if "win_rate_observed" in g:
        return [f"wins {g['win_rate_observed'] * 100:.1f} % in the log, {g['win_rate_predicted'] * 100:.1f} % by "
                f"the fitted population (χ² p = {g['chi2_p']:.2f})"]
    out = g.get("outcomes")
    if out:
        return [f"mean score {out['observed_mean']:.1f} in the log, {out['simulated_mean']:.1f} by the fitted "
                f"population (Kolmogorov-Smirnov p = {out['ks_p']:.2f})"]
    return []

