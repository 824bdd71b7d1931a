"""What the studio's Fit tab does besides drawing: find the play logs under ``--out``, keep an uploaded one there,
fit one (``sim.players.run.fit_log``, the work of ``dicesim fit``) and say the answer in words.

Everything is read and written inside the studio's output folder: logs under ``logs/``, fits under
``fits/<log name>/`` (population.toml, fit.html, the charts), as ``dicesim fit --out`` writes them.
"""

from __future__ import annotations

import codecs
import csv
import os
import threading
import uuid
from importlib import import_module
from pathlib import Path
from typing import Any

from sim.core.config import DicesimError, Strict
from sim.core.errors import unreadable
from sim.core.limits import hidden_char, short
from sim.players.run import POLICY, check_game, fit_log
from sim.players.schema import FITTED, SUFFIXES
from sim.report import words
from sim.studio.saving import inside

LOGS_MAX = 50  # the newest logs listed (the picker stays short however full the folder is)
SCAN_MAX = 500  # the newest tables whose header is read to find them
LOG_KEYS = {"player", "game"}  # every log table has them (docs/logs.md)
UPLOAD_MAX_MB = 200  # an uploaded log's size (a fit reads at most 2,000,000 rows: ~70 bytes each as CSV)
UPLOADS_MAX_FILES = 100  # uploads kept while one studio runs (all pages together) ...
UPLOADS_MAX_MB = 2000  # ... and their size in all: ten logs at the largest
# (U+202E RIGHT-TO-LEFT OVERRIDE, zero-width ones), surrogates, line and paragraph separators


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
    """Every column of ``game``'s log tables (decisions and outcomes), from its light column module."""
    if game not in FITTED:
        return set()
    mod = import_module(f"sim.players.{game}_columns")
    return {c.name for c in (*mod.DECISION_COLUMNS, *mod.OUTCOME_COLUMNS)}


def own_columns(game: str) -> set[str]:
    """The columns only ``game``'s logs have: a table with one of them is this game's log (a broken one too, which
    the fit then refuses naming what is wrong), one without them another game's."""
    others = set().union(*(columns_of(g) for g in FITTED if g != game))
    return columns_of(game) - others


def games_of(cols: set[str]) -> list[str]:
    """The games whose log a table with the columns ``cols`` is (the picker's rule: it names players and games and
    has a column only that game's logs have)."""
    return [g for g in FITTED if LOG_KEYS <= cols and own_columns(g) & cols] if LOG_KEYS <= cols else []


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
    odd = hidden_char(name)  # a line break (a hand-made request),
    if odd is not None:  # a right-to-left override that shows ``ok\u202e.csv`` as ``okvsc.``, an invisible space
        raise DicesimError(f"an uploaded log's name holds a control character (U+{ord(odd):04X}: a line break, a "
                           f"direction mark or another invisible one), got {ascii(name[:60])}")
    if Path(name).suffix.lower() not in SUFFIXES:
        raise DicesimError(f"{name}: a log is a .parquet or .csv file")
    if size > UPLOAD_MAX_MB * 2**20:
        raise DicesimError(f"{name} is {size / 2**20:.0f} MB, more than the {UPLOAD_MAX_MB} MB a log may be here")
    target = inside(out_root, f"logs/{name}", "file")
    if target.exists():
        raise DicesimError(f"logs/{name} exists already: rename the file to upload it again")
    return target


def check_upload(path: Path, name: str) -> list[str]:
    """The games whose log the uploaded file ``path`` (sent as ``name``) is, read as the fit reads it (``name``'s
    suffix says how); refused in one line when it is empty, not a readable table of its kind (a CSV not in UTF-8,
    a broken parquet file), holds no rows, or is no game's log (the columns of docs/logs.md)."""
    path = Path(path)
    size = path.stat().st_size
    if size == 0:
        raise DicesimError(f"{name} is empty: a log is a table of decisions or outcomes (docs/logs.md)")
    if Path(name).suffix.lower() == ".csv":
        cols, rows = _csv_header(path, name)
    else:
        import pyarrow.parquet as pq  # pyarrow (heavy): the schema and row count, not the table

        try:
            meta = pq.ParquetFile(path)
            cols, rows = set(meta.schema_arrow.names), meta.metadata.num_rows > 0
        except (OSError, ValueError) as e:  # pyarrow's ArrowInvalid is a ValueError
            raise DicesimError(f"{name} is not a readable parquet table ({unreadable(e)})") from None
    games = games_of(cols)
    if not games:
        seen = short(", ".join(sorted(cols)) or "none", 60).strip("'\"")
        raise DicesimError(f"{name} is no game's log: its columns ({seen}) are not those of a log of "
                           f"{', '.join(FITTED)} (docs/logs.md: player, game and the game's own)")
    if not rows:
        raise DicesimError(f"{name} has its columns but no rows: a log holds one row per decision or game")
    return games


def _csv_header(path: Path, name: str) -> tuple[set[str], bool]:
    """A CSV's column names (its first line) and whether a row follows; refused unless it is UTF-8 text throughout
    (as the fit reads it) without NUL bytes."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    head, rows, done, offset = bytearray(), False, 0, 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 22):
            if b"\0" in block:
                raise DicesimError(f"{name} holds NUL bytes: a CSV log is text (a binary file?)")
            try:
                decoder.decode(block)
            except UnicodeDecodeError as e:
                at = offset + max(e.start, 0)
                raise DicesimError(f"{name} is not UTF-8 text (byte 0x{block[e.start]:02x} at offset {at:,}): "
                                   "save the CSV as UTF-8") from None
            if not done:
                cut = block.find(b"\n")
                head += block if cut < 0 else block[:cut]
                if cut >= 0:
                    done, rows = True, bool(block[cut + 1:].strip())
                elif len(head) > 1 << 20:
                    raise DicesimError(f"{name}: its first line is over 1 MB long, no CSV log's header")
            elif not rows:
                rows = bool(block.strip())
            offset += len(block)
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise DicesimError(f"{name} is not UTF-8 text (it ends inside a character): save the CSV as "
                               "UTF-8") from None
    first = next(csv.reader([bytes(head).decode("utf-8-sig").rstrip("\r")]), [])
    return {c.strip() for c in first}, rows


class Quota:
    """What uploads may add to ``logs/`` while one studio runs: ``files`` files and ``mb`` MB in all (a page could
    otherwise fill the disk 200 MB at a time); taken before a file is kept, given back when it is refused."""

    def __init__(self, files: int, mb: int) -> None:
        self.files, self.mb = files, mb
        self.used_files = self.used_bytes = 0
        self._lock = threading.Lock()

    def take(self, size: int) -> None:
        with self._lock:
            if self.used_files + 1 > self.files:
                raise DicesimError(f"this studio has taken the {self.files} uploads it takes while it runs: fit the "
                                   "logs kept, or restart it")
            if self.used_bytes + size > self.mb * 2**20:
                left = max(self.mb * 2**20 - self.used_bytes, 0) / 2**20
                raise DicesimError(f"this studio takes at most {self.mb:,} MB of uploads while it runs ({left:,.0f} MB "
                                   f"left, the file is {size / 2**20:,.0f} MB): restart it for more")
            self.used_files += 1
            self.used_bytes += size

    def give_back(self, size: int) -> None:
        with self._lock:
            self.used_files -= 1
            self.used_bytes -= size


QUOTA = Quota(UPLOADS_MAX_FILES, UPLOADS_MAX_MB)


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

