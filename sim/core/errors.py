"""The user error every part of dicesim raises: one ``error:`` line on the command line, exit code 2.

Its own module, with nothing imported, so that the command line's first checks (the game registry, the options,
the limits of ``sim.core.limits``) refuse a bad input without importing pydantic (``sim.core.config`` re-exports it).
"""

import re
from contextvars import ContextVar

MAX_LINE = 193  # characters of an error message: with "error: " the line stays within 200, whatever it carries
MAX_CHOICES_LINE = 393  # one that lists what is allowed ("choose from …", "known: …"): the list is the answer, so it
# may run to 400 (cut at 200, "choose from wetzstein, …, glueckssieben, extr…" lost the names a user looked for)
LISTS = re.compile(r"\((choose from|known:|fields:|logged:|the games with them:|a log has) ")


def one_line(msg: str) -> str:
    """An error message as one line, cut where it runs long (the command line's ``error:`` line, the studio's message
    under an input alike)."""
    msg = " ".join(str(msg).split())
    most = MAX_CHOICES_LINE if LISTS.search(msg) else MAX_LINE
    return msg if len(msg) <= most else msg[: most - 1] + "…"


class DicesimError(Exception):
    """A user error: reported as one ``error:`` line with exit code 2."""

    exit_code = 2


class Unreached(DicesimError):
    """A search that played and found no answer (a target its field cannot reach): the input was good, so the
    ``error:`` line exits with 1, as ``tune`` does when it ends outside a target's tolerance."""

    exit_code = 1


# Set by the command line (``sim.cli.main``): its refusals name its flags (``--players``); a notebook's call of
# ``sim.api`` names the keyword arguments instead (``players``), see ``sim.api``.
COMMAND_LINE: ContextVar[bool] = ContextVar("dicesim_command_line", default=False)


def unreadable(e: BaseException) -> str:
    """Why a table could not be read, in words rather than its reader's (pyarrow's "Parquet magic bytes not found in
    footer. Either the file…", pandas' "No columns to parse from file", a codec's "can't decode byte 0xe4…"): a
    short phrase for ``… is not a table dicesim can read (…)``."""
    text = str(e).splitlines()[0] if str(e).strip() else type(e).__name__
    if isinstance(e, UnicodeDecodeError) or "codec can't decode" in text:
        return "not UTF-8 text: save the CSV as UTF-8"
    if "magic bytes" in text or "Parquet file size is 0" in text:
        return "not a Parquet file, or one cut short"
    if "No columns to parse" in text:
        return "no header line: the file is empty"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror.lower()
    return text if len(text) <= 80 else text[:text.rfind(" ", 0, 79)].rstrip(",.;:") + " …"


# A Ctrl-C that lands while numba loads a kernel raises KeyboardInterrupt inside a C callback (LLVM's object cache
# calls back into Python): Python prints it as "Exception ignored" and goes on, and a long run played for minutes
# after the user stopped it. The command line's ``sys.unraisablehook`` (``swallowed_interrupts``) keeps it here and
# the batch raises it again between its chunks (``raise_kept_interrupt``).
_kept_interrupt: list[bool] = [False]


def swallowed_interrupts(default):
    """``sys.unraisablehook`` that keeps a KeyboardInterrupt a C callback swallowed (silently) and hands anything
    else to ``default``."""

    def hook(info):
        if isinstance(info.exc_value, KeyboardInterrupt):
            _kept_interrupt[0] = True
            return
        default(info)

    return hook


def raise_kept_interrupt() -> None:
    """Raise the KeyboardInterrupt a C callback swallowed, once."""
    if _kept_interrupt[0]:
        _kept_interrupt[0] = False
        raise KeyboardInterrupt
