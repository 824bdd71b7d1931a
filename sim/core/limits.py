"""The limits a command's numbers must keep, checked before any work (pure Python: the command line checks them
before it imports numpy, pandas or a kernel).

- seeds: whole numbers 0 .. 2^64 - 1. The streams (``sim.core.rng.stream_key``) hash ``uint64(seed)``; the kernels
  take the seed as an int64, so :func:`kernel_seed` hands a seed from 2^63 on over as the int64 with the same 64
  bits: a seed below 2^63 reaches the kernels unchanged, one above gets its own streams, exactly.
- runs (``--n``): at most :data:`MAX_RUNS` per command unless ``--force`` (a job that would take days answers at
  once), never more than :data:`HARD_MAX_RUNS`; a run index (``--run``) below that too.
- ``--chunk``: 1 .. :data:`MAX_CHUNK` runs (a chunk's table is held in memory).
- a batch's table: it must fit this machine's free memory (:func:`check_table_memory`, once the first chunk
  tells a run's bytes; ``--force`` does not pass it: the memory is not there).
- sweeps: at most :data:`MAX_POINTS` grid points unless ``--force``.
- calibrations: a ``--target`` of ``metric=finite value``, a finite bracket and tolerance, 3 .. :data:`MAX_EVALS`
  evaluations (:func:`check_calibration`).
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
from typing import Any

from sim.core.errors import DicesimError

SEED_LIMIT = 2**64  # seeds are 0 .. SEED_LIMIT - 1
MAX_RUNS = 10**10  # runs one command plays without --force
HARD_MAX_RUNS = 2**53  # runs (and run indices) even with --force: exact as floats, far inside int64
MAX_CHUNK = 1_000_000
MAX_POINTS = 10_000  # sweep grid points without --force
HARD_MAX_POINTS = 20_000  # with --force: every point's rules are built and checked (and kept) before the first plays
MAX_EVALS = 10_000  # calibrate / tune evaluations
MAX_LOG_ROWS = 2_000_000  # rows of a log a fit reads without --force: about 2 KB of memory each while valued


def free_memory() -> int | None:
    """Bytes this machine can still give a process (Linux: MemAvailable and free swap), or None where unknown."""
    try:
        with open("/proc/meminfo") as f:
            kb = {k: int(v.split()[0]) for k, _, v in (line.partition(":") for line in f) if v.strip()}
        return (kb["MemAvailable"] + kb.get("SwapFree", 0)) * 1024
    except (OSError, KeyError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


TABLE_COPIES = 3  # a batch's table is held about this many times over: its chunks, the joined table, the metrics'


def check_table_memory(n: int, row_bytes: float, free: int | None, what: str = "--n") -> None:
    """``n`` runs of ``row_bytes`` each fit this machine's free memory (``free``) while the table is built and
    measured; refused in words, with the most runs that fit, instead of a machine swapping for hours and the
    process killed at the end (``--n 100000000`` of the Würfel Dungeon: a table of ~116 GB)."""
    need = TABLE_COPIES * row_bytes * n
    if free is None or need <= free:
        return
    most = int(free / (TABLE_COPIES * row_bytes)) if row_bytes > 0 else n
    raise DicesimError(f"{what} {n:,} runs need about {_bytes(need)} of memory ({row_bytes:,.0f} bytes a run, "
                       f"{TABLE_COPIES} times over while the table is built), more than is free here ({_bytes(free)}): "
                       f"play at most about {most:,} runs")


def _bytes(b: float) -> str:
    return f"{b / 2**30:,.1f} GB" if b >= 2**30 else f"{b / 2**20:,.1f} MB"


def kernel_seed(seed: int) -> int:
    """The int64 a kernel receives for ``seed`` (0 .. 2^64 - 1): the same 64 bits, so ``uint64(seed)`` inside the
    kernel is ``seed`` exactly; seeds below 2^63 pass unchanged."""
    seed = int(seed)
    return seed - SEED_LIMIT if seed >= 2**63 else seed


def check_seed(seed: Any, what: str = "--seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise DicesimError(f"{what} must be a whole number 0 .. 2^64-1 (18446744073709551615), got {short(seed)}")
    return seed


def check_n(n: Any, force: bool = False, what: str = "--n", flag: str | None = "--force") -> int:
    """A number of runs: positive, at most ``MAX_RUNS`` unless ``force``, never above ``HARD_MAX_RUNS``."""
    if isinstance(n, float) and n.is_integer() and 0 < n <= HARD_MAX_RUNS:  # 100.0 is positive: its type is wrong
        raise DicesimError(f"{what} must be a whole number of runs (an int), got {short(n)}: give {int(n)}")
    if isinstance(n, float) and math.isfinite(n) and n > 0:  # 1.5 runs: a fraction, not too few
        raise DicesimError(f"{what} must be a whole number of runs (an int), got {short(n)}")
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0:
        raise DicesimError(f"{what} must be a positive number of runs, got {short(n)}")
    check_runs(n, force, what, flag)
    return n


def check_whole_players(n: int, games_per_player: int) -> None:
    """``n`` runs as players of ``games_per_player`` consecutive games each: a remainder would be a last player with
    fewer games than the others, silently."""
    if n % games_per_player:
        raise DicesimError(f"--n {n:,} is no whole number of players of {games_per_player:,} games each "
                           f"(--games-per-player, skill.games_per_player): give a multiple of {games_per_player:,}")


def _power(total: int) -> str:
    """A count too long to write out, as a person writes it: ``about 9.22 × 10^18`` (not ``9.22e+18``)."""
    exp = len(str(total)) - 1
    return f"about {total / 10**exp:.2f} \u00d7 10^{exp}"


def check_runs(total: int, force: bool = False, what: str = "--n", flag: str | None = "--force") -> None:
    """``total`` runs of one command: refused above the limits, naming them and how to pass them anyway (``flag``:
    the command line's ``--force``, the Python API's ``force=True``; None for a command without one)."""
    if total > HARD_MAX_RUNS:
        shown = f"{total:,}" if total < 10**18 else _power(total)  # 9.01e+15 beside 9.01e+15 said nothing
        raise DicesimError(f"{what}: {shown} runs is more than dicesim plays (at most {HARD_MAX_RUNS:,}, 2^53)")
    if total > MAX_RUNS and not force:  # 10,000,000,001 in full: as 1e+10 it read as the limit itself
        shown = f"{total:,}" if total < 10**13 else _power(total)
        anyway = f"pass {flag} to play it anyway" if flag else "give fewer"
        raise DicesimError(f"{what}: {shown} runs is above the limit of 10^10 a command; {anyway}")


def check_chunk(chunk: Any, what: str = "--chunk") -> int | None:
    if chunk is None:
        return None
    if isinstance(chunk, bool) or not isinstance(chunk, int) or not 1 <= chunk <= MAX_CHUNK:
        raise DicesimError(f"{what} must be 1 .. {MAX_CHUNK:,} runs per chunk, got {short(chunk)}")
    return chunk


def check_run(run: Any, what: str = "--run") -> int:
    if isinstance(run, bool) or not isinstance(run, int) or not 0 <= run < HARD_MAX_RUNS:
        raise DicesimError(f"{what} must be a run index 0 .. 2^53-1, got {short(run)}")
    return run


def check_finite(value: Any, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        beyond = " (a number beyond ±1.8e308, e.g. 1e400, is read as infinite)" if isinstance(
            value, float) and math.isinf(value) else ""
        raise DicesimError(f"{what} must be a finite number, got {short(value)}{beyond}")
    return float(value)


def check_field_unset(field: str, sets: list[str] | None) -> None:
    """A calibrated field that an override sets too (itself, a section holding it, a field inside it): the search
    sets it, and one of the two would silently win."""
    for item in sets or []:
        path = item.split("=", 1)[0].strip()
        if path == field or path.startswith(field + ".") or field.startswith(path + "."):
            raise DicesimError(f"--field {field} is also given by --set {path}: calibrate sets it")


def check_calibration(n: int, seed: int, target: float, lo: float | None, hi: float | None, tol: float | None,
                      max_evals: int, force: bool = False) -> None:
    """A calibration's numbers within ``sim.core.limits``: before any config is read or a kernel loaded."""
    check_n(n, force)
    check_seed(seed)
    check_finite(target, "--target value")
    for name, v in (("--lo", lo), ("--hi", hi), ("--tol", tol)):
        check_finite(v, name)
    if lo is not None and hi is not None and not lo < hi:
        raise DicesimError(f"--lo must be below --hi, got [{lo:g}, {hi:g}]")
    if tol is not None and tol <= 0:  # a measured metric never lands exactly on its target: 0 used every evaluation
        raise DicesimError(f"--tol must be above 0 (in the metric's units), got {tol:g}")
    if isinstance(max_evals, bool) or not isinstance(max_evals, int) or not 3 <= max_evals <= MAX_EVALS:
        raise DicesimError(f"--max-evals must be 3 .. {MAX_EVALS:,}, got {max_evals!r}")
    check_runs(n * max_evals, force, "--n x --max-evals")


def is_rate(metric: str) -> bool:
    """Rates are the metrics the games name ``*_rate`` (``win_rate``, ``win_rate_seat_0``, ...): shares in [0, 1]."""
    return metric.endswith("_rate") or "_rate_" in metric


def has_interval(metric: str, n: int) -> bool:
    """Whether a metric comes with a 95 % interval: not a quantile (``score_p50``) or a spread (``sd_score``), nor
    anything of one run."""
    return n >= 2 and not re.search(r"_p\d{1,2}$", metric) and not metric.startswith("sd_")


def parse_target(text: str) -> tuple[str, float]:
    """``'win_rate=0.5'`` or ``'win_rate=50 %'`` -> ('win_rate', 0.5) (:func:`target_value`)."""
    if "=" not in text:
        raise DicesimError(f"--target expects metric=value, e.g. win_rate=0.5, got {short(text)}")
    name, raw = (x.strip() for x in text.split("=", 1))
    if not name:
        raise DicesimError(f"--target expects metric=value with a finite value, got {short(text)}")
    return name, target_value(name, raw, "--target")


def target_value(metric: str, raw: str, what: str = "target") -> float:
    """A calibration target as typed: a number, or for a rate (:func:`is_rate`, shown in %) also a percentage
    (``60 %``, ``60%``: 0.6), as the pages print it; a rate's value lies in [0, 1], every value is finite."""
    text = str(raw).strip()
    percent = text.endswith("%")
    if percent and not is_rate(metric):
        raise DicesimError(f"{what}: {short(metric)} is not a rate, so its target is a plain number, got {short(text)}")
    try:
        number = text[:-1].strip() if percent else text
        if not number.isascii():  # Python's float reads ２００ (full-width) and other scripts' digits: --n refuses them
            raise ValueError(number)
        value = float(number)
    except ValueError:
        raise DicesimError(f"{what} value must be a number{' or a percentage (60 %)' if is_rate(metric) else ''}, "
                           f"got {short(text)}") from None
    if not math.isfinite(value):
        raise DicesimError(f"{what} must be a finite number, got {short(text)}")
    value = value / 100 if percent else value
    if is_rate(metric) and not 0.0 <= value <= 1.0:
        raise DicesimError(f"{short(metric)} is a rate: its {what} lies in [0, 1] or is a percentage (60 %), "
                           f"got {short(text)}")
    return value


# what parse_count reads, said by example
_EXAMPLES = {"--seed": "1 or 20261207", "--run": "0 or 17", "--chunk": "4096 or 65536", "--players": "2 or 4"}
_COUNT = re.compile(r"\+?[0-9]+(_[0-9]+)*(\.[0-9]*)?([eE][+-]?[0-9]+)?")  # Python's digit groups: one _ between digits


def parse_count(text: Any, what: str = "--n") -> int:
    """A whole number as a person types it: ``20000``, ``20_000``, ``+20000`` (as ``--seed`` and Python read it), or
    integer-valued scientific notation ``2e4``, ``1.5e6`` (refused: fractions, negatives, words)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    s = str(text).strip()
    if s.startswith("-") and _COUNT.fullmatch(s[1:]):
        if parse_count(s[1:], what) == 0:
            return 0  # -0 is zero, not negative: what zero means (a seed 0, or --n's "at least 1") is said after
        raise DicesimError(f"{what} must not be negative, got {short(s)}")
    if not _COUNT.fullmatch(s) or s.endswith("_"):
        example = _EXAMPLES.get(what, "20000 or 2e4")  # --seed's read as --n's example of 20000 runs
        raise DicesimError(f"{what} must be a whole number such as {example}, got {short(s)}")
    s = s.removeprefix("+")
    mant, _, exp = s.replace("_", "").lower().partition("e")
    whole, _, frac = mant.partition(".")
    frac = frac.rstrip("0")  # 1.000e3 is 1000: no fraction
    digits = (whole + frac).lstrip("0") or "0"
    if len(digits) > 40 or len(exp) > 40:  # Python reads no more than 4,300 digits, and said so in its own words
        raise DicesimError(f"{what}: {short(s)} is far too large")
    shift = int(exp or 0) - len(frac)
    if shift > 40:
        raise DicesimError(f"{what}: {short(s)} is far too large")
    if shift < 0:
        if digits[shift:].strip("0"):
            raise DicesimError(f"{what} must be a whole number, got {short(s)}")
        return int(digits[:shift] or "0")
    return int(digits) * 10**shift


# Unicode categories of characters a name must not hold (a tab, a NUL, a right-to-left override that shows
# ``ok\u202e.csv`` as ``okvsc.``, an invisible space): controls, formats, surrogates, line and paragraph separators
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def hidden_char(text: str, allowed: str = "") -> str | None:
    """The first character of ``text`` a name must not hold (:data:`HIDDEN`, except those in ``allowed``), else None."""
    return next((c for c in text if unicodedata.category(c) in HIDDEN and c not in allowed), None)


def odd_name(key: str) -> str:
    """Why a field name that reads like a known one is unknown, for its error line (empty when nothing is odd): a
    space at an end (``"bonus.value "``), a letter from another alphabet (``bonus.vаlue`` with a Cyrillic а), a dot
    inside one name (a quoted TOML key, ``"bonus.value" = 40``, is one name, not a field path)."""
    if key != key.strip():
        return f" ({key!r} has a space at an end)"
    foreign = next((c for c in key if not c.isascii() and c not in "äöüÄÖÜß"), None)
    if foreign is not None:
        named = unicodedata.name(foreign, f"U+{ord(foreign):04X}").title()
        return f" ({foreign!r} in it is {named}, not a Latin letter)"
    if "." in key:
        return f" (\"{key}\" is one quoted name: write {key} without quotes)"
    return ""


def short(value: Any, width: int = 40) -> str:
    """``repr`` cut to ``width`` characters: an error line stays one short line whatever was typed."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]@]+):(\d{1,5})/?")


def check_scheduler(value: Any) -> str:
    """A Dask scheduler's address as Dask takes it (``tcp://host:8786``, ``host:8786``, ``[::1]:8786``): refused at
    once when it cannot be one (Dask needs the port), before Dask is imported; whether it answers is Dask's to find
    out. Returns it stripped."""
    m = _ADDRESS.fullmatch(value.strip()) if isinstance(value, str) else None
    if m is None or not 1 <= int(m.group(3)) <= 65535:
        raise DicesimError(f"--scheduler must be an address like tcp://host:8786 (a host and a port 1 .. 65535), "
                           f"got {short(value, 60)}")
    return value.strip()


# pydantic's error kinds in the project's words (its "Input should be a valid integer" says neither the value nor,
# for a whole float such as ``1e3``, how to write it)
KIND_WORDS = {"int_parsing": "a whole number", "int_from_float": "a whole number", "int_type": "a whole number",
              "float_parsing": "a number", "float_type": "a number", "bool_parsing": "true or false",
              "bool_type": "true or false", "string_type": "a text in quotes", "finite_number": "a finite number",
              "list_type": "a list [...]", "dict_type": "a table {...}", "model_type": "a table {...}"}
BOUND_WORDS = {"greater_than_equal": ("at least", "ge"), "less_than_equal": ("at most", "le"),
               "greater_than": ("more than", "gt"), "less_than": ("less than", "lt")}


def allowed_words(error: dict[str, Any]) -> str | None:
    """What a pydantic error allows, in words ("a whole number: write 1000", "at least 1e-15"); None when its kind
    has no words here (its own message is clear: a model's check, a list's length)."""
    kind, ctx, value = error.get("type"), error.get("ctx") or {}, error.get("input")
    if kind in KIND_WORDS:
        words = KIND_WORDS[kind]
        if kind.startswith("int") and isinstance(value, float) and value.is_integer():  # TOML reads 1e3 as a float
            words += f": write {int(value)}" if abs(value) < 1e15 else " written without an exponent"
        return words
    if kind in BOUND_WORDS and BOUND_WORDS[kind][1] in ctx:
        word, key = BOUND_WORDS[kind]
        return f"{word} {ctx[key]}"
    if kind == "literal_error" and "expected" in ctx:  # pydantic's "Input should be 'forced', 'free' or 'off'"
        return f"one of {ctx['expected']}"
    for end, key, word in (("too_short", "min_length", "at least"), ("too_long", "max_length", "at most")):
        if kind is not None and kind.endswith(end) and key in ctx:  # "List should have at least 1 item after …"
            count = ctx[key]
            one, many = ("character", "characters") if kind.startswith("string") else ("entry", "entries")
            return f"{word} {count} {one if count == 1 else many}"
    return None

