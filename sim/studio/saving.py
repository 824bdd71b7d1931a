"""Saving the studio's edits: the whole config as TOML that ``--config`` loads, and the ``--set`` lines.

The TOML is written from the validated model (so it loads back to the same config hash); a header
names the file it started from and the ``--set`` lines that turn that file into this one. What a
person types on the page is a path inside the studio's ``--out`` folder (``inside``): anything that
leads out of it is refused, so a shared studio writes nowhere else.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import uuid
from pathlib import Path
from typing import Any

import tomli_w

from sim.core.atomic import reason
from sim.core.config import DicesimError, Strict
from sim.core.limits import hidden_char

OUT = "the output folder (--out)"




def inside(root: Path, typed: str, what: str) -> Path:
    """The path ``typed`` names inside ``root``; ``..``, an absolute path elsewhere or a link out is refused."""
    text = str(typed or "").strip()
    if not text or "\0" in text:
        example = "studio.toml" if what == "file" else "run-1"
        raise DicesimError(f"give the {what} as a path inside {OUT}, e.g. {example}")
    odd = hidden_char(text)  # a tab, a right-to-left override
    if odd is not None:  # that shows ``ok\u202e.toml`` as ``oklmot.``: saved as typed, refused for an upload
        raise DicesimError(f"the {what} name holds a control character (U+{ord(odd):04X}: a tab, a line break, a "
                           f"direction mark or another invisible one), got {ascii(text[:60])}")
    if what == "file" and text.endswith(("/", "\\")):  # x.toml/ names a folder: it saved the file x.toml
        raise DicesimError(f"{text[:60]!r} names a folder: give the file's name, e.g. studio.toml")
    root = Path(root).resolve()
    p = Path(text)
    if p.parts and p.parts[0].startswith("~"):  # ~/x.toml made a folder named "~" inside --out: it reads as home
        raise DicesimError(f"{text[:60]!r} begins with ~, which reads as a home folder: the studio saves only inside "
                           f"{OUT}, give the {what} as a path in it, e.g. x.toml")
    if ".." in p.parts:
        raise DicesimError(f"'..' is not allowed: give the {what} as a path inside {OUT}")
    target = (p if p.is_absolute() else root / p).resolve()
    if not target.is_relative_to(root):
        raise DicesimError(f"{text!r} is outside {OUT}: give the {what} as a path inside it")
    if target == root:
        raise DicesimError(f"give the {what} a name inside {OUT}, not the folder itself")
    for parent in target.relative_to(root).parents:
        if (root / parent).is_file():
            raise DicesimError(f"{(root / parent).relative_to(root).as_posix()} is a file, not a folder")
    return target


def shown(root: Path, path: Path) -> str:
    """``path`` as the page shows it: relative to the output folder."""
    return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()


class SaveError(DicesimError):
    """A save that failed, and the file it failed on (``path``): nothing of the save is left on disk."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"cannot write {path}: {why}")
        self.path, self.why = Path(path), why


def _temp_beside(path: Path) -> Path:
    """A new file beside ``path`` under a name of its own, made as ``open`` makes any file (the mode the umask gives,
    0644 under the usual 022; ``mkstemp`` made it 0600, unlike every other output)."""
    while True:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")
        try:
            with open(tmp, "x", encoding="utf-8"):
                return tmp
        except FileExistsError:
            continue


def write_all(files: dict[Path, str]) -> None:
    """Write every file of ``files`` (path -> text) or none: each target is checked first (a folder or anything but a
    file in the way is refused), all are written to temporary files beside their targets, then renamed into place; a
    failure puts back the files a rename had replaced (a new one is removed) and raises :class:`SaveError` naming the
    file that failed."""
    for path in files:
        if path.exists() and not path.is_file():
            raise SaveError(path, "a folder of that name is in the way" if path.is_dir() else "it is not a file")
    temps: dict[Path, Path] = {}
    kept: dict[Path, Path | None] = {}  # target renamed into place -> a link to the file it replaced (None: new)
    current = next(iter(files))
    try:
        for current, text in files.items():
            current.parent.mkdir(parents=True, exist_ok=True)
            temps[current] = tmp = _temp_beside(current)
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
        for current, tmp in temps.items():
            old = None
            if current.is_file():
                old = current.with_name(f".{current.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.old")
                try:
                    try:
                        os.link(current, old)
                    except OSError:  # a file system without hard links
                        shutil.copy2(current, old)
                except BaseException:
                    old.unlink(missing_ok=True)  # a part copy is never put back
                    raise
            try:
                os.replace(tmp, current)
            except BaseException:
                if old is not None:
                    old.unlink(missing_ok=True)  # this file was not replaced: its old text is still in place
                raise
            kept[current] = old
    except BaseException as e:
        for target, old in kept.items():  # undo the renames that happened
            with contextlib.suppress(OSError):
                if old is not None:
                    os.replace(old, target)
                elif target.is_file():
                    target.unlink()
        for tmp in temps.values():
            Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise SaveError(current, reason(e)) from e
        raise
    for old in kept.values():
        if old is not None:
            old.unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path`` and rename it, so a failure leaves the old file."""
    write_all({Path(path): text})


def _drop_none(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _drop_none(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_drop_none(x) for x in v]
    return v


def config_toml(cfg: Strict, source: str | None, sets: list[str]) -> str:
    """The config as TOML with a header saying where it came from."""
    head = [f"# written by dicesim studio from {source or 'the default config'}"]
    if sets:
        head.append("# the same as: " + set_args(sets))
    return "\n".join(head) + "\n" + tomli_w.dumps(_drop_none(cfg.model_dump(mode="json")))


def set_args(sets: list[str]) -> str:
    """The ``--set`` arguments of a command line, shell-quoted."""
    return " ".join(f"--set {shlex.quote(s)}" for s in sets)


def save_config(path: Path, cfg: Strict, source: str | None, sets: list[str]) -> Path:
    """Write the TOML to ``path`` and the ``--set`` lines beside it (``<name>.set.txt``, one per line): both or
    neither (:func:`write_all`; :class:`SaveError` names the file that failed)."""
    path = Path(path)
    write_all({path: config_toml(cfg, source, sets), set_file(path): "".join(f"{s}\n" for s in sets)})
    return path


def set_file(path: Path) -> Path:
    """Where the ``--set`` lines of a saved TOML go: ``<name>.set.txt`` beside it."""
    return Path(path).with_suffix(".set.txt")
