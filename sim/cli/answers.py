"""Printed answers of the pure-table commands (``combos``, ``describe``) kept in the cache folder, so that asking
again answers without importing numba, pandas or the game (issue 30: ≤ 0.5 s).

The first time a question is asked the game computes the answer as always (one source for each rule: the game's
own kernels); the exact text it printed is stored under a key made of the command, its arguments, the config
(its canonical hash, or the default config file's bytes) and the hash of every source file of ``sim`` and
``policies`` (``sim.jit.codehash``). Any edit to the code or the config file is a new key; an
unreadable or damaged answer file is asked again and rewritten (a cache that heals itself). A config given as a
file that the catalog did not validate is not cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.core.paths import ANSWERS_BUDGET, answers_dir, keep_within, mark_used, save_note
from sim.jit.codehash import code_hash

if TYPE_CHECKING:
    from sim.core.config import Strict

FORMAT = 1  # bump when what is stored changes


def key(command: str, game: str, args: Any, rules: Path | Strict | None, sets: list[str] | None) -> str | None:
    """The answer's key, or None when the config cannot be named without the game (a file not yet validated)."""
    from sim.core.config import CONFIG_DIR, Strict, config_hash  # pydantic (heavy): not at every start, as --help

    if isinstance(rules, Strict):
        cfg = "cfg:" + config_hash(rules)
    elif rules is None and not sets:
        try:
            cfg = "default:" + hashlib.sha256((CONFIG_DIR / game / "default.toml").read_bytes()).hexdigest()
        except OSError:
            return None
    else:
        return None
    blob = json.dumps([FORMAT, command, game, args, cfg, code_hash()], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def key_of(command: str, game: str, *parts: Any) -> str:
    """The key of data computed from ``parts`` alone (a describe's derived tables from the rules they read), under
    this code: any edit to the code is a new key."""
    blob = json.dumps([FORMAT, command, game, parts, code_hash()], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def _file(k: str) -> Path:
    return answers_dir() / f"{k}.json"


def _kept(k: str, field: str, kind: type) -> Any:
    """The ``field`` of the file kept under ``k`` when it is whole and of ``kind``, else None (asked again)."""
    try:
        data = json.loads(_file(k).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("key") != k or not isinstance(data.get(field), kind):
        return None
    mark_used(_file(k))  # kept longest when the folder is over its budget
    return data[field]


PRUNE_EVERY = 16  # the answers folder is tidied at about one stored answer in this many (by its key)


def _keep(k: str, data: dict[str, Any], sort_keys: bool = True) -> None:
    """Store ``data`` under ``k`` whole or not at all (an unwritable cache folder only makes the next ask slower),
    then, at one answer in ``PRUNE_EVERY``, keep the answers within ``ANSWERS_BUDGET`` (each code version asks anew:
    old answers are never read). Not at every one: a full folder (~20,000 answers) takes ~0.1 s to look through, on
    the path of a first ask (issue 30: ≤ 0.5 s)."""
    save_note(_file(k), data, sort_keys=sort_keys)
    if zlib.crc32(k.encode()) % PRUNE_EVERY == 0:
        keep_within(_file(k).parent, ANSWERS_BUDGET, keep=_file(k))


def _stored(k: str) -> str | None:
    return _kept(k, "text", str)


def answer(k: str | None, compute: Callable[[], None]) -> None:
    """Print the stored answer of ``k``, else run ``compute`` (which prints it), store what it printed and print it.
    An error inside ``compute`` prints nothing and stores nothing."""
    if k is not None and (text := _stored(k)) is not None:
        sys.stdout.write(text)
        return
    if k is None:
        compute()
        return
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        compute()
    text = buf.getvalue()
    _keep(k, {"key": k, "text": text})
    sys.stdout.write(text)


def stored_data(k: str | None) -> dict[str, Any] | None:
    """The stored data of ``k`` (``save_data``), or None: a table an answer is read from, not the answer itself."""
    return None if k is None else _kept(k, "data", dict)


def save_data(k: str | None, data: dict[str, Any]) -> None:
    """Keep ``data`` under ``k`` (``_keep``)."""
    if k is not None:
        _keep(k, {"key": k, "data": data}, sort_keys=False)  # the game's order, as it prints it
