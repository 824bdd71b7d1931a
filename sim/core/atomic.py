"""Output files written whole or not at all, and output folders written by one command at a time.

Every file dicesim writes for a person (tables, charts, pages, manifests, sweep and tune state, copied configs) goes
through :func:`writing`: the content goes to a hidden temporary name in the target's folder (``.NAME.PID.N.tmp``),
is flushed to disk and renamed over the target (``os.replace``, atomic within one file system). A full disk, a
crash or ``kill -9`` therefore leaves the previous file or none, never half of one, and a failed write removes its
temporary file and raises :class:`OutputError` (a ``DicesimError``: one ``error:`` line, exit code 2) that names
the file and the reason. No library among the dependencies does this, hence these few lines.

:func:`output_folder` creates an output folder (refusing a file, a path under a file, an unwritable place) and
holds its lock, ``.dicesim.lock`` (the writer's pid), while the command writes there: a second writer is refused in
one line. The lock is an ``flock`` on that file, which the system releases when its process dies, so a lock left
by a killed command is simply taken over (where ``fcntl`` is missing: a lock file whose pid no longer runs is).

:func:`transaction` makes several files one write (a play's tables, metrics, charts, manifest and page): each file
it replaces is kept as a hard link in the folder's journal ``.dicesim.tx`` (a new one is marked), so a failure puts
the folder back as it was; a journal left by ``kill -9`` is undone when the folder is next locked.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sim.core.errors import DicesimError
from sim.core.jsonable import json_default, strict_json
from sim.core.tomlfile import CONFIG_DIR

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: pid-file locks only
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".dicesim.lock"
TX_NAME = ".dicesim.tx"
_counter = itertools.count()
_held: dict[str, list[Any]] = {}  # resolved folder -> [thread id, depth, fd or None]
_held_guard = threading.Lock()
_tx = threading.local()  # .stack: the open transactions of this thread, [(folder, journal entries)]


class OutputError(DicesimError):
    """An output could not be written (disk full, no permission, a file where a folder belongs, a busy folder)."""


def reason(e: OSError) -> str:
    """The words of an OS error, without its errno and path (pyarrow's errors carry only a message)."""
    code = e.errno
    text = str(e)
    if code is None and ("No space left" in text or "[Errno 28]" in text):
        code = errno.ENOSPC
    words = {errno.ENOSPC: "no space left on device", errno.EDQUOT: "disk quota exceeded",
             errno.EACCES: "permission denied", errno.EPERM: "permission denied",
             errno.EROFS: "read-only file system", errno.ENOTDIR: "a part of the path is a file",
             errno.EISDIR: "it is a folder", errno.ENAMETOOLONG: "the name is too long"}
    if code in words:
        return words[code]
    return (e.strerror or (text.splitlines()[0] if text else type(e).__name__)).lower()


def path_error(e: OSError) -> str:
    """An OS error about a path someone gave, as one line: ``/tmp/xxxx…: the name is too long`` (Python's own
    ``exists()`` raises it for a name over 255 bytes, where a missing file would only be False)."""
    name = os.fsdecode(e.filename) if isinstance(e.filename, str | bytes) else str(e.filename)
    return f"{name if len(name) <= 60 else name[:59] + '…'}: {reason(e)}"


def write_error(e: OSError, path: Path | str) -> OutputError:
    """``no space left on device writing reports/x/runs.parquet``, as one line."""
    if e.errno == errno.EISDIR:
        return OutputError(f"cannot write {path}: a folder of that name is in the way")
    return OutputError(f"{reason(e)} writing {path}")


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{next(_counter)}.tmp")


@contextlib.contextmanager
def writing(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; when the block ends, flush it and rename it over ``path``.

    On any failure the temporary file is removed and ``path`` keeps what it held; an OS error becomes one
    :class:`OutputError`. The temporary name ends in ``.tmp``: a writer whose format follows the file name
    (matplotlib) is given the format explicitly (:func:`save_figure`).
    """
    path = Path(path)
    tmp = _tmp_name(path)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        _journal(path)
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(e, OSError):
            raise write_error(e, path) from e
        raise


def _journal(path: Path) -> None:
    """Inside a :func:`transaction` on a folder holding ``path``: keep the file being replaced (a hard link) or
    mark it new, so that the transaction can put the folder back as it was."""
    for folder, log in reversed(getattr(_tx, "stack", [])):
        try:
            rel = path.resolve().relative_to(folder.resolve())
        except ValueError:
            continue
        keep = folder / TX_NAME / rel
        keep.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            old = keep.with_name(keep.name + ".old")
            if not old.exists():  # written twice in one transaction: the first version is the previous state
                try:
                    os.link(path, old)
                except OSError:
                    shutil.copy2(path, old)
                log.append(old)
        else:
            new = keep.with_name(keep.name + ".new")
            new.touch()
            log.append(new)
        return


def _undo(folder: Path) -> None:
    """Put back what an unfinished transaction on ``folder`` replaced or added (its journal ``.dicesim.tx``)."""
    tx = folder / TX_NAME
    for entry in sorted(tx.rglob("*"), reverse=True):
        if not entry.is_file():
            continue
        target = folder / entry.relative_to(tx).with_suffix("")
        if entry.suffix == ".old":
            os.replace(entry, target)
        elif entry.suffix == ".new":
            target.unlink(missing_ok=True)
    shutil.rmtree(tx, ignore_errors=True)


def _recover(folder: Path) -> None:
    """A killed transaction's journal: undone when it had not committed, dropped when it had."""
    done = folder / (TX_NAME + ".done")
    if done.exists():
        shutil.rmtree(done, ignore_errors=True)
    if (folder / TX_NAME).exists():
        _undo(folder)


@contextlib.contextmanager
def transaction(folder: str | Path) -> Iterator[Path]:
    """The files written into ``folder`` by the block land together or not at all: a failure (disk full, any
    error, ``kill -9``: undone when the folder is next locked) leaves the folder as it was before the block."""
    folder = Path(folder)
    stack = _tx.__dict__.setdefault("stack", [])
    if any(f == folder for f, _ in stack):  # part of the enclosing transaction on the same folder
        yield folder
        return
    _recover(folder)
    log: list[Path] = []
    stack.append((folder, log))
    try:
        yield folder
    except BaseException:
        stack.pop()
        with contextlib.suppress(OSError):
            _undo(folder)
        raise
    stack.pop()
    tx = folder / TX_NAME
    if tx.exists():  # the commit: one rename, then the kept files go
        done = folder / (TX_NAME + ".done")
        os.replace(tx, done)
        shutil.rmtree(done, ignore_errors=True)


def write_bytes(path: str | Path, data: bytes) -> Path:
    with writing(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_text(path: str | Path, text: str) -> Path:
    with writing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def remove(path: str | Path) -> None:
    """Delete ``path``; inside a :func:`transaction` it comes back if the transaction fails."""
    path = Path(path)
    if path.is_file():
        _journal(path)
        path.unlink()


def write_json(path: str | Path, obj: Any, default: Any = None, **kw: Any) -> Path:
    """``obj`` as strict JSON (``jsonable.strict_json``: NaN and infinities as ``null``; a manifest of one run held
    155 bare ``NaN``, which a browser's ``JSON.parse`` refuses), written atomically."""
    return write_text(path, strict_json(obj, default or json_default, **kw))


def write_parquet(df: Any, path: str | Path) -> Path:
    with writing(path) as tmp:
        df.to_parquet(tmp, index=False)
    return Path(path)


def write_csv(df: Any, path: str | Path) -> Path:
    with writing(path) as tmp:
        df.to_csv(tmp, index=False)
    return Path(path)


def write_feather(df: Any, path: str | Path) -> Path:
    with writing(path) as tmp:
        df.to_feather(tmp, compression="lz4")
    return Path(path)


def save_figure(fig: Any, path: str | Path, **kw: Any) -> Path:
    """``fig.savefig`` to ``path`` atomically (the format from ``path``'s suffix)."""
    path = Path(path)
    with writing(path) as tmp:
        fig.savefig(tmp, format=path.suffix.lstrip(".") or "png", **kw)
    return path


def copy_file(src: str | Path, dst: str | Path) -> Path:
    with writing(dst) as tmp:
        shutil.copyfile(src, tmp)
    return Path(dst)


def remove_stale(folder: Path) -> None:
    """Temporary files a killed writer left in ``folder`` (call while holding its lock: none is anyone's now)."""
    with contextlib.suppress(OSError):
        for stale in folder.glob(".*.tmp"):
            stale.unlink(missing_ok=True)


def check_folder(out: str | Path, flag: str = "--out") -> Path:
    """Refuse a path that cannot become an output folder (a file, a path under a file, a name the file system
    cannot hold, a folder this process may not create or write into) in one line, leaving nothing behind: the CLI
    asks this before any work, ``make_folder`` again when it writes. Whether a folder can be made there is tried
    (a probe folder made and removed in the nearest existing one): permissions, a read-only or special file system
    answer as they would to the writer."""
    out = Path(out)
    _not_shared(out, flag)
    try:
        if out.is_symlink() and not out.exists():
            if _loops(out):
                raise OutputError(f"{flag} {out} is a link in a loop (its links lead back to themselves)")
            raise OutputError(f"{flag} {out} is a link to nothing ({os.readlink(out)} does not exist)")
        if out.exists() and not out.is_dir():
            raise OutputError(f"{flag} {out} is a file, not a folder")
        for parent in out.parents:
            if parent.exists() or parent.is_symlink():
                if not parent.is_dir():
                    raise OutputError(f"{flag} {out} is under a file ({parent})")
                break
    except OSError as e:  # a name longer than the file system allows, and the like
        raise OutputError(f"{flag} {str(out)[:60]}…: {(e.strerror or str(e)).lower()}") from None
    _probe(out, flag)
    return out


def _loops(link: Path) -> bool:
    """Whether following ``link`` goes round in a loop (``ELOOP``), not to a missing target."""
    try:
        os.stat(link)
    except OSError as e:
        return e.errno == errno.ELOOP
    return False


# the file that says which command's outputs a folder holds (a report.html beside it is that command's): what the
# folder holds, and what the command makes
KINDS = {"manifest.json": ("the report of a play, compare or findings", "report"), "sweep.json": ("a sweep", "sweep"),
         "tune.json": ("a tune", "tune"), "calibration.json": ("a calibration", "calibration"),
         "fit.json": ("a fit", "fit"), "balance.json": ("a balance report", "balance report"),
         "matchup.json": ("a people matchup", "matchup")}


def check_kind(out: str | Path, mine: str, flag: str = "--out") -> None:
    """Refuse a folder holding another command's outputs (``KINDS``): this command's report.html would replace that
    one's and their files would mix (a sweep into a tune's folder took its report). ``mine``: this command's file."""
    out = Path(out)
    for name, (what, _) in KINDS.items():
        if name != mine and (out / name).is_file():
            raise OutputError(f"{flag} {out} holds {what}: give the {KINDS[mine][1]} a folder of its own")
    _not_configs(out, flag, KINDS[mine][1])
    if out.is_dir() and not _dicesims(out):  # no dicesim outputs there: its files of these names are yours
        try:
            yours = sorted(p.name for p in out.iterdir() if report_file(p.name) and p.is_file())
        except OSError:
            return  # a folder that cannot be listed: the writer's checks answer
        if yours:
            raise OutputError(f"{flag} {out} holds {yours[0]}, which no dicesim output there names (it would be "
                              f"replaced): give the {KINDS[mine][1]} a new or empty folder")


def _not_configs(out: Path, flag: str, made: str) -> None:
    """A folder of configs is no output folder: the shipped ones (``configs/``, package data) nor one of yours
    (``*.toml`` files there and no dicesim outputs: a fit's population.toml sits beside its fit.json). A play into
    ``configs/dadox`` put its tables and charts beside default.toml."""
    not_shipped(out, flag, made)
    try:
        toml = min((p.name for p in out.glob("*.toml") if p.is_file()), default=None) if out.is_dir() else None
    except OSError:
        return  # a folder that cannot be read: the writer's checks answer
    if toml and not _dicesims(out):
        project = (out / "pyproject.toml").is_file()  # --out . in a project's root: its files, not configs
        what, toml = ("a project's files", "pyproject.toml") if project else ("config files", toml)
        raise OutputError(f"{flag} {out} holds {what} ({toml}): give the {made} a folder of its own")


def not_shipped(out: Path, flag: str, made: str) -> None:
    """Refuse a folder in the configs dicesim ships (``configs --copy configs/sub`` copied them into themselves, and
    the next copy took the copy for shipped configs)."""
    try:
        where, shipped = Path(out).resolve(), CONFIG_DIR.resolve()
    except (OSError, RuntimeError):
        return  # a loop of links and the like: the writer's checks answer
    if where == shipped or shipped in where.parents:
        edit = "" if flag == "--copy" else " (dicesim configs --copy DIR copies the configs for editing)"
        own = "their" if made.endswith("s") else "its"
        raise OutputError(f"{flag} {out} is in the configs dicesim ships: give the {made} a folder of {own} own{edit}")


def _dicesims(out: Path) -> bool:
    """Whether ``out`` holds a dicesim command's outputs: its kind's file (``KINDS``), or a report page dicesim wrote
    (each page's title begins "dicesim"; a folder written before the kind files existed has only that)."""
    return any((out / name).is_file() for name in KINDS) or page_titled(out, "dicesim")


def page_titled(out: Path, title: str) -> bool:
    """Whether ``out``'s report.html (or the page ``out`` itself, an .html file) is a page whose title begins with
    ``title`` (what dicesim wrote there)."""
    try:
        with open(out if out.suffix.lower() == ".html" else out / "report.html", "rb") as f:
            return f"<title>{title}".encode() in f.read(512)
    except OSError:
        return False


REPORT_FILES = frozenset({"report.html", "history.csv", *KINDS, *(k.replace(".json", ".csv") for k in KINDS)})


def report_file(name: str) -> bool:
    """Whether a file of this name is one a command's report writes (its page, tables, state; ``runs-*``,
    ``metrics.*``)."""
    return name in REPORT_FILES or name.startswith(("runs-", "metrics."))


def check_own_files(folder: str | Path, files: list[Path], flag: str) -> None:
    """Refuse to replace a file of another command's outputs (``KINDS``: ``check --out run/report.csv`` put its page
    over a play's report.html and its table over runs-greedy.csv); new files beside them are fine."""
    folder = Path(folder)
    owner = next((what for name, (what, _) in KINDS.items() if (folder / name).is_file()), None)
    taken = [f for f in files if f.exists() and report_file(f.name)]
    if owner and taken:
        raise OutputError(f"{flag}: {taken[0].name} there is a file of {owner}: give another name or folder")
    for page in (f for f in files if f.suffix.lower() == ".html" and f.exists()):
        if not page_titled(page, "dicesim"):  # check --out y/mine.csv replaced the user's own y/mine.html
            raise OutputError(f"{flag}: {page.name} there is not a page dicesim wrote (it would be replaced): "
                              "give another name or folder")


def _not_shared(out: Path, flag: str) -> None:
    """An output folder is the outputs' own: the file system's root or the home folder (``--out /``, ``--out ~``)
    would get a report, tables and charts among everything else there, and a later run would remove the earlier
    run's files from it; ``configs --copy /`` put eight folders of configs there."""
    if flag not in ("--out", "--copy"):
        return
    try:
        where = out.expanduser().resolve()
        home = Path.home().resolve()
    except (OSError, RuntimeError):  # no home, a loop of links: the writer's checks answer
        return
    what = "the file system's root" if where == Path(where.anchor) else "your home folder" if where == home else ""
    if what:
        raise OutputError(f"{flag} {out} is {what}: give the outputs a folder of their own (a new or empty one)")


def _probe(out: Path, flag: str) -> None:
    """Make and remove a folder where ``out``'s writer would first write: inside ``out`` if it exists, else in its
    nearest existing parent."""
    here = out if out.is_dir() else next((p for p in out.parents if p.is_dir()), None)
    if here is None:
        return
    probe = here / f".dicesim-probe-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError as e:
        doing = "write into" if here == out else "create"
        why = reason(e)
        if e.errno == errno.ENOENT and here.is_dir():  # /proc and the like: a folder that takes no new entries
            why = ("it" if here == out else str(here)) + " takes no new files or folders"
        raise OutputError(f"cannot {doing} {flag} {out}: {why}") from None


def without_missing_ups(path: str) -> str:
    """``path`` with each ``..`` that follows a folder which does not exist taken out together with that folder
    (``new/../b`` is ``b``): the system would need ``new`` to exist to step back out of it, so a writer made an
    empty ``new`` beside the outputs. A ``..`` after an existing folder stays (that folder may be a link)."""
    parts = Path(path).parts
    if ".." not in parts:
        return path
    kept: list[str] = []
    for part in parts:
        top = kept[-1] if kept else ".."
        if part == ".." and top != ".." and not Path(top).anchor and not Path(*kept).exists():
            kept.pop()
        else:
            kept.append(part)
    return str(Path(*kept)) if kept else "."


def make_dirs(path: Path) -> None:
    """``path.mkdir(parents=True, exist_ok=True)`` one level at a time, from the nearest existing parent down: pathlib
    recurses once a level, so a folder thousands of levels deep (a legal path) raised RecursionError."""
    missing = []
    while not path.is_dir() and path.parent != path:
        missing.append(path)
        path = path.parent
    for p in reversed(missing):
        p.mkdir(exist_ok=True)


def make_folder(out: str | Path, flag: str = "--out") -> Path:
    """Create the output folder ``out`` (and its parents) or say in one line why it cannot be one."""
    out = check_folder(out, flag)
    try:
        make_dirs(out)
    except OSError as e:
        raise OutputError(f"cannot create {flag} {out}: {reason(e)}") from e
    if not os.access(out, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write into {flag} {out}: permission denied")
    return out


def _busy(out: Path, pid: str) -> OutputError:
    who = f"pid {pid}" if pid else "another process"
    return OutputError(f"{out} is being written by another dicesim command ({who}); wait for it or use another folder")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _acquire(out: Path) -> int | None:
    """Take the folder's lock file; returns the open descriptor holding the ``flock`` (None without fcntl)."""
    lock = out / LOCK_NAME
    for _ in range(5):
        try:
            if fcntl is None:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            else:
                fd = os.open(lock, os.O_CREAT | os.O_RDWR, 0o644)
        except FileExistsError:  # no fcntl: a pid file; a dead writer's is taken over
            pid = lock.read_text(errors="replace").strip() if lock.is_file() else ""
            if pid.isdigit() and _pid_alive(int(pid)):
                raise _busy(out, pid) from None
            lock.unlink(missing_ok=True)
            continue
        except OSError as e:
            raise OutputError(f"cannot lock {out}: {reason(e)}") from e
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                pid = os.read(fd, 32).decode(errors="replace").strip()
                os.close(fd)
                raise _busy(out, pid) from None
            try:  # the holder before us may have removed the file after we opened it: lock the file now there
                same = os.fstat(fd).st_ino == os.stat(lock).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        if fcntl is None:
            os.close(fd)
            return None
        return fd
    raise _busy(out, "")


@contextlib.contextmanager
def folder_lock(out: str | Path) -> Iterator[Path]:
    """Hold ``out``'s lock while the block writes there (re-entrant within one thread)."""
    out = Path(out)
    key = str(out.resolve())
    me = threading.get_ident()
    with _held_guard:
        mine = _held.get(key)
        if mine is not None:
            if mine[0] != me:
                raise _busy(out, str(os.getpid()))
            mine[1] += 1
    if mine is None:
        fd = _acquire(out)
        with _held_guard:
            _held[key] = [me, 1, fd]
        remove_stale(out)
        with contextlib.suppress(OSError):
            _recover(out)
    try:
        yield out
    finally:
        with _held_guard:
            entry = _held[key]
            entry[1] -= 1
            last = entry[1] == 0
            if last:
                del _held[key]
        if last:
            with contextlib.suppress(OSError):
                (out / LOCK_NAME).unlink()
            if entry[2] is not None:
                os.close(entry[2])


@contextlib.contextmanager
def output_folder(out: str | Path, flag: str = "--out") -> Iterator[Path]:
    """Create ``out`` (see :func:`make_folder`) and hold its lock; a folder this call created is removed again
    when the block fails before writing anything into it."""
    out = Path(out)
    existed = out.is_dir()
    make_folder(out, flag)
    try:
        with folder_lock(out):
            yield out
    except BaseException:
        if not existed:
            with contextlib.suppress(OSError):
                out.rmdir()  # only when empty
        raise
