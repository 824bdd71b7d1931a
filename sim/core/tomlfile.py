"""Config, sweep, tune and targets files read as TOML, every refusal one line naming the file.

Its own module, light (no pydantic, no numpy), so the command line refuses a missing or broken file before the
experiment's modules load; ``sim.core.config`` re-exports it.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path
from typing import Any

from sim.core.errors import DicesimError


class ConfigError(DicesimError):
    """A config file, override or value that cannot be used."""


MAX_CONFIG_BYTES = 4 * 2**20  # a config, sweep, tune or targets file (the largest shipped one is 16 kB)
MAX_DEPTH = 24  # tables and arrays nested deeper than this are refused (the shipped files nest 4 deep)


def shown_path(path: str | Path, width: int = 60) -> str:
    """``path`` as an error line names it: as given when short, else its last two parts (``…/dir/name.toml``), so
    the reason after it stays within the line."""
    text = str(path)
    return text if len(text) <= width else "…/" + "/".join(Path(path).parts[-2:])


def _config_dir() -> Path:
    """The default configs: package data of an installed ``sim`` (``sim/configs``), else the checkout's ``configs/``."""
    shipped = Path(str(files("sim").joinpath("configs")))
    return shipped if shipped.is_dir() else Path(__file__).resolve().parent.parent.parent / "configs"


CONFIG_DIR = _config_dir()
ROOT = CONFIG_DIR.parent  # paths written as ``configs/...`` (sweep files) resolve against this


def shipped(path: str | Path) -> Path:
    """``path``, or where it is not and it is written ``configs/...`` (as the README's examples write them), the copy
    dicesim ships: the examples work from any folder, not only the checkout's (``configs/kniffel/free-joker.toml``
    was 'not found' elsewhere). A file of that name here comes first."""
    p = Path(path)
    parts = p.parts
    if p.exists() or p.is_symlink() or p.is_absolute() or len(parts) < 2 or parts[0] != "configs":
        return p
    theirs = CONFIG_DIR.joinpath(*parts[1:])
    return theirs if theirs.is_file() else p


def read_toml(path: str | Path, kind: str = "config file") -> dict[str, Any]:
    """Parse a TOML file; a missing, unreadable, oversized, non-UTF-8, broken or too deeply nested file is a
    ConfigError naming it (:func:`shown_path`) and what it should have been (``kind``: a sweep file, …); a missing
    ``configs/...`` file the one dicesim ships (:func:`shipped`)."""
    p = Path(shown_path(path))
    real = shipped(path)
    if real.is_symlink() and not real.exists():  # a loop, or a link to nothing: not "not found"
        raise ConfigError(f"{kind} {p} is a link that leads to no file (a loop or a missing target)")
    if not real.is_file():
        what = "is a folder" if real.is_dir() else "is not a regular file" if real.exists() else None
        raise ConfigError(f"{kind} {p} {what}, not a TOML file" if what else f"{kind} not found: {p}")
    try:
        size = real.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{p} is {size / 2**20:.1f} MB, more than a {kind} may be "
                              f"({MAX_CONFIG_BYTES // 2**20} MB)")
        raw = real.read_bytes()
    except OSError as e:
        raise ConfigError(f"cannot read {p}: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p} is not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start}); "
                          "save it as UTF-8") from None
    if "\0" in text:
        raise ConfigError(f"{p} is not a text file (it holds NUL bytes)")
    return parse_toml(text, str(p))


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """``tomllib.loads`` with one-line errors: broken TOML, and nesting deeper than ``MAX_DEPTH`` (refused, not a
    RecursionError)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"broken TOML in {where}: {_short(str(e), 120)}") from None
    except ValueError:  # an integer of thousands of digits (Python's int conversion limit)
        raise ConfigError(f"{where} holds a number with too many digits") from None
    except RecursionError:
        raise ConfigError(f"{where} nests arrays or tables deeper than {MAX_DEPTH} levels") from None
    if _depth(data) > MAX_DEPTH:
        raise ConfigError(f"{where} nests arrays or tables deeper than {MAX_DEPTH} levels")
    return data


def _depth(value: Any) -> int:
    stack, top = [(value, 1)], 0
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict | list):
            top = max(top, d)
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return top


def _short(value: Any, width: int = 60) -> str:
    """``repr`` (``str`` for text) cut to ``width`` characters, so an error line stays short whatever was typed; a
    TOML boolean or date as TOML writes it (``true``, ``1979-05-27``), not as Python's ``True``/``datetime.date``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if hasattr(value, "isoformat") and not isinstance(value, str | int | float):
        return value.isoformat()[:width]
    text = value if isinstance(value, str) and width > 60 else repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"
