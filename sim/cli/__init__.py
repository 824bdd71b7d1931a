"""The ``dicesim`` command line (typer), one module per command group; game options come from the games.

``common`` holds the app and shared options; ``play`` (play, compare, balance, report), ``single`` (solve,
replay, describe), ``extras`` (matchup, combos), ``sweep`` (sweep, calibrate, check), ``tune``, ``cache``
(configs, cache, --version), ``studio`` and ``fit`` register their commands on it. Errors: one ``error:`` line on stderr
and exit code 2.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import sys
import threading

try:  # typer >= 0.20 vendors its own click
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover - older typer on plain click
    from click import exceptions as click_exc

from sim.cli.common import JsonOpt, SchedulerOpt, app
from sim.core import atomic
from sim.core.errors import COMMAND_LINE, DicesimError, one_line, swallowed_interrupts
from sim.core.limits import KIND_WORDS, short
from sim.core.paths import check_cache_root
from sim.games import GAMES, declared_policies

# the commands register on ``app`` in help order
# isort: off
from sim.cli import play, single, extras, studio, sweep, tune, cache, fit  # noqa: E402,F401
# isort: on
from sim.cli import findings  # noqa: E402,F401  (``dicesim findings``)

__all__ = ["app", "main", "JsonOpt", "SchedulerOpt"]


def bad_parameter(e: click_exc.BadParameter) -> str:
    """A typer conversion error in the project's words, naming the value typed: typer's own says "Input should be a
    valid integer" for ``--seed 1.5`` without the 1.5 (the value is in the pydantic error it wraps)."""
    errors = getattr(e.__cause__, "errors", None)
    if e.param is None or not callable(errors):
        return e.format_message()
    first = errors()[0]
    name = e.param.opts[0] if e.param.opts and e.param.opts[0].startswith("-") else e.param.name
    if first["type"] in KIND_WORDS:
        allowed = f"must be {KIND_WORDS[first['type']]}"
    elif first["type"] in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        lo, hi = getattr(e.param, "min", None), getattr(e.param, "max", None)
        allowed = f"must be {lo:,} .. {hi:,}" if lo is not None and hi is not None else first["msg"].replace(
            "Input should be", "must be")
    else:
        allowed = first["msg"].replace("Input should be", "must be")
    return f"{name} {allowed}, got {short(first.get('input'))}"


def missing(e: click_exc.MissingParameter) -> str:
    """A required flag or argument left out, named with what it takes (its help; for ``--policy`` the game's
    policies): click's own "Missing option '--policy'." says neither."""
    param = e.param
    if param is None:
        return e.format_message()
    name = param.opts[0] if param.opts and param.opts[0].startswith("-") else param.name.replace("_", " ")
    game = (e.ctx.params.get("game") if e.ctx is not None else None) or ""
    if param.name in ("policy", "policies") and game in GAMES:
        takes = f"choose from {', '.join(declared_policies(game))}"
    else:
        takes = (getattr(param, "help", None) or "").strip()
        if takes.lower().startswith(name.lower()):  # "sweep file, e.g. …": the name is said already
            takes = takes[len(name):].lstrip(" ,:")
    return f"{name} is missing" + (f": {takes}" if takes else "")


PATH_FLAGS = ("--out", "--log", "--outcomes", "--config", "--copy")  # options whose value names a file or folder


def refuse_empty_paths(argv: list[str]) -> None:
    """An empty path (``--out ''``) would read as the current folder once parsed: refused while it is still empty."""
    for i, arg in enumerate(argv):
        flag, eq, value = arg.partition("=")
        if flag in PATH_FLAGS and (value if eq else argv[i + 1] if i + 1 < len(argv) else "x").strip() == "":
            raise DicesimError(f"{flag} is empty: give it a name")


def out_without_missing_ups(argv: list[str]) -> list[str]:
    """``--out new/../b`` as ``--out b`` (``atomic.without_missing_ups``): every writer after uses the path as typed,
    and stepping out of ``new`` needs it to exist, so an empty ``new`` was made beside the outputs."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if arg.startswith("--out="):
            out[i] = "--out=" + atomic.without_missing_ups(arg[len("--out="):])
        elif arg == "--out" and i + 1 < len(out):
            out[i + 1] = atomic.without_missing_ups(out[i + 1])
    return out


REPEATABLE = ("--set",)  # options a command takes more than once (each --set a field of its own)


def refuse_repeated(argv: list[str]) -> None:
    """An option given twice (``--policy a --policy b``, ``--seed 1 --seed 2``) would play the last one without a
    word, so a command line edited in place would answer another question than the one its reader sees."""
    seen: set[str] = set()
    for arg in argv:
        if arg == "--":
            return
        flag = arg.partition("=")[0]
        if not flag.startswith("--") or flag in REPEATABLE or flag == "--":
            continue
        if flag in seen:
            raise DicesimError(f"{flag} is given twice: give it once")
        seen.add(flag)


def refuse_undecodable(argv: list[str]) -> None:
    """A byte that is not UTF-8 text (``--out $'o\\xff'``) reaches Python as a lone surrogate: pyarrow, the pages and
    the JSON cannot write it, so the command would fail after its work. Refused at once, naming the option."""
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            flag, eq, value = arg.partition("=") if arg.startswith("--") else ("", "", arg)
            flag = flag if eq else argv[i - 1] if i and argv[i - 1].startswith("--") else "argument"
            shown = (value if eq else arg).encode("utf-8", "replace").decode("utf-8")
            raise DicesimError(f"{flag} {shown[:60]!r} is not UTF-8 text (a byte the files and pages cannot "
                               "hold): give it in UTF-8") from None


def run() -> None:
    """The ``dicesim`` command: :func:`main`, then the process ends as soon as its exit handlers ran and its output
    is flushed, without the interpreter's module-by-module teardown (~0.25 s after every command that loaded numba
    and pandas, a sixth of a warm ``play``). Where a thread that is not a daemon still runs, or an exception other
    than an exit escapes, the interpreter ends it as usual."""
    try:
        main()
        code: object = 0
    except SystemExit as e:
        code = e.code
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        sys.exit(code)  # the interpreter joins them first
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("text"): the text on stderr, exit code 1, as the interpreter does
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()  # what the command left to the end (a notebook's figures, a kept log)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (``| head``): nothing more to say there
            stream.flush()
    os._exit(code)


def main() -> None:
    """Entry point: typer app with one-line errors and exit code 2 for every user error."""
    said_as = COMMAND_LINE.set(True)  # refusals name the flags (``--players``), not the Python API's keywords
    unraisable, sys.unraisablehook = sys.unraisablehook, swallowed_interrupts(sys.unraisablehook)
    try:
        _run()
    finally:
        COMMAND_LINE.reset(said_as)  # a test (or a notebook) that called main() goes on as the Python API
        sys.unraisablehook = unraisable


def _run() -> None:
    """The command, its refusal as one ``error:`` line (exit code 2)."""
    try:
        refuse_undecodable(sys.argv[1:])
        refuse_empty_paths(sys.argv[1:])
        refuse_repeated(sys.argv[1:])
        sys.argv[1:] = out_without_missing_ups(sys.argv[1:])
        check_cache_root()
        code = app(standalone_mode=False)  # typer hands back an Exit's code here: Ctrl-C is Exit(130), not raised
        if code == 130:
            raise KeyboardInterrupt
        if isinstance(code, int) and not isinstance(code, bool) and code:
            sys.exit(code)
        if "sim.jit.tier" in sys.modules:  # the command compiled or loaded kernels of a tiered game
            sys.modules["sim.jit.tier"].after_command()
    except DicesimError as e:
        print(f"error: {one_line(str(e))}", file=sys.stderr)
        sys.exit(e.exit_code)  # 2: a refused input; 1: a search found no answer (``Unreached``)
    except click_exc.ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":
            print(e.format_message())
            sys.exit(0)
        said = missing(e) if isinstance(e, click_exc.MissingParameter) else bad_parameter(e) if isinstance(
            e, click_exc.BadParameter) else e.format_message()
        extra = re.fullmatch(r"Got unexpected extra argument(?:\(s\)|s)? \((.*)\)", said)
        if extra and "=" in extra.group(1):  # --set a=1 b=2: the second field read as an argument
            first = extra.group(1).split()[0]
            said = f"{first} is no argument of the command: each --set takes one field; give it its own (--set {first})"
        if said.startswith("No such command") and getattr(e, "ctx", None) is not None:  # which there are
            said = f"{said.rstrip('.')} (choose from {', '.join(e.ctx.command.list_commands(e.ctx))})"
        if isinstance(e, click_exc.NoSuchOption) and re.fullmatch(r"-[0-9.]+", e.option_name or ""):
            said = f"{e.option_name}: a negative number is no die face (1..6) or count (0 or more)"  # not an option
        print(f"error: {one_line(said)}", file=sys.stderr)
        sys.exit(2)
    except OSError as e:  # a path the file system refuses to look at (a name over 255 bytes) wherever it was read
        if e.filename is None:
            raise
        print(f"error: {one_line(atomic.path_error(e))}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
    except SystemError as e:  # Ctrl-C inside a compiled call (numba loading a kernel) arrives wrapped in this
        if not isinstance(e.__cause__ or e.__context__, KeyboardInterrupt):
            raise
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
