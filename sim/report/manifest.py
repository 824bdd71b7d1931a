"""An output folder's ``manifest.json`` read and checked: light (json and paths only), so ``dicesim report`` refuses a
folder that is not one before pandas, matplotlib or the game load; ``build_report`` reads it the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.atomic import LOCK_NAME, TX_NAME, page_titled
from sim.core.errors import DicesimError
from sim.core.jsonable import read_numbers
from sim.core.limits import short

_KIND_WORDS = {(int, float): "a number", list: "a list", str: "text"}


def load_manifest(out: Path) -> dict[str, Any]:
    path = Path(out) / "manifest.json"
    if not Path(out).exists():
        raise DicesimError(f"{out} does not exist")
    if not Path(out).is_dir():
        raise DicesimError(f"{out} is a file, not an output folder of dicesim play/compare")
    if not path.is_file():
        if any((Path(out) / left).exists() for left in (LOCK_NAME, TX_NAME)):  # what a writer leaves till it ends
            raise DicesimError(f"no finished run in {out}: a play or compare began writing there and has not "
                               "finished (it was stopped, or still runs); play it again")
        inner = sorted(p.parent.name for p in Path(out).glob("*/manifest.json"))
        if inner:  # play folders inside a folder balance did not write: each is reported on its own
            raise DicesimError(f"no manifest.json in {out}, no balance.json: it holds output folders "
                               f"({', '.join(inner[:3])}{', …' if len(inner) > 3 else ''}); report one: "
                               f"dicesim report {Path(out) / inner[0]}")
        raise DicesimError(f"no manifest.json in {out} (not an output folder of dicesim play/compare)")
    try:
        manifest = read_numbers(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise DicesimError(f"{path} is not a manifest dicesim can read ({_unread(e)}): play the run again") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("game"), str):
        raise DicesimError(f"{path} names no game (not a manifest of dicesim play/compare)")
    tables = manifest.get("tables")
    if not isinstance(tables, dict) or not tables:
        raise DicesimError(f"{path} names no tables of runs (a play or compare writes them beside it)")
    for f in tables.values():
        if not (isinstance(f, str) and "/" not in f and "\\" not in f and (Path(out) / f).is_file()):
            raise DicesimError(f"{path} names the table of runs {short(f)}, which is not in {out}")
    policy, policies = manifest.get("policy"), manifest.get("policies")
    if policy is not None and (not isinstance(policy, str) or policy not in tables):  # the page's title names it
        raise DicesimError(f"{path}: policy {short(policy)} is not the label of its table of runs "
                           f"({', '.join(map(str, tables))})")
    if policies is not None and (not isinstance(policies, dict) or set(policies) != set(tables)):
        raise DicesimError(f"{path}: policies must name the labels of its tables of runs "
                           f"({', '.join(map(str, tables))})")
    for key, kind in (("seconds", (int, float)), ("runs_per_second", (int, float)), ("verdicts", list),
                      ("assumed", list), ("charts", list), ("code_version", str)):
        v = manifest.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, kind)):
            raise DicesimError(f"{path}: {key} must be {_KIND_WORDS[kind]}, got {short(v)}")
    for key, least in (("n", 1), ("seed", 0)):  # the page's header says them: a number the runs could not have had
        v = manifest.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < least):
            raise DicesimError(f"{path}: {key} must be a whole number {least} or more, got {short(v)}")
    return manifest


def report_folders(out: Path, known: list[str]) -> list[str] | None:
    """The game folders of a balance report's dashboard in ``out`` (the games in ``known``' order, then others), or
    None when ``out`` is not a dashboard: one output folder (its own manifest), or a folder that ``balance`` did not
    write (``_balance``: a folder that merely holds play folders keeps its own files, a report.html among them)."""
    found = {p.parent.name for p in Path(out).glob("*/manifest.json")}
    if (Path(out) / "manifest.json").is_file() or not found or not _balance(Path(out)):
        return None
    return [g for g in known if g in found] + sorted(found - set(known))


def _balance(out: Path) -> bool:
    """Whether ``balance`` wrote ``out``: its ``balance.json``, or (a dashboard from before that file) its page."""
    return (out / "balance.json").is_file() or page_titled(out, "dicesim balance report")


def check_report_folder(out: Path, known: list[str]) -> None:
    """What ``dicesim report OUT`` would refuse of its manifests, refused first."""
    for name in report_folders(out, known) or [None]:
        load_manifest(Path(out) / name if name else Path(out))


def _unread(e: BaseException) -> str:
    """Why a manifest could not be read, in words (its reader's class name, ``JSONDecodeError``, said nothing)."""
    if isinstance(e, UnicodeDecodeError):  # a ValueError too: asked first
        return "not UTF-8 text"
    if isinstance(e, ValueError):
        return "not JSON: cut short or edited"
    if isinstance(e, RecursionError):
        return "nested too deeply"
    return (getattr(e, "strerror", None) or "unreadable").lower()
