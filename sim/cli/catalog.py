"""What the command line knows of each game without importing it, so that it refuses a bad input before numba,
pandas or a game's kernels are imported (issue 30: an ``error:`` line in well under a second).

A game's entry (its policy names, its config model, its capabilities) is read from the game itself the first time a
command imports it (``sim.cli.work.learn``) and kept in the cache folder (``catalog-*.json``, one per checkout) under
the hash of every source file of ``sim`` and ``policies`` (``sim.jit.codehash``; their sizes and modification times
tell in a few milliseconds that nothing changed): after an edit to the code the games are read again, once. A new game
gets its entry without a line here.

:func:`accept` refuses, with the game's own words, only what the game would refuse (``tests/test_cli_fast.py``):
an unknown game; an option the game does not have, or a value outside an option's declared choices (the first checks
of ``Game.check_options``, from the options the game declares in ``options.py``); a ``--policy`` name that is not one
of the game's policies, for a game whose ``check_policy`` is ``Game``'s own (a game with its own, as the Würfel
Dungeon's ``name@loadout``, checks its names itself); and a ``--config`` or ``--set`` that the game's config model
refuses (its module is imported alone, ``sim.cli.work.rules``: no kernel, no pandas; a refused policy never imports
pydantic). The game checks everything again once it is imported.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cli.common import work
from sim.core.errors import DicesimError
from sim.core.paths import cache_root, save_note
from sim.games import GAMES, declared, declared_options, get_game
from sim.games.options import checked, policy_names, unknown_policy
from sim.jit.codehash import PROJECT_ROOT, code_hash, code_stamp

if TYPE_CHECKING:
    from sim.core.config import Strict

FORMAT = 5  # bump when an entry's fields change


@dataclass(frozen=True)
class Entry:
    """What :func:`accept` checks of one game."""

    policies: tuple[str, ...] | None  # None: the game checks policy names in its own way
    config: str | None  # "module:name" of the config model; None: the game loads its config in its own way
    capabilities: tuple[str, ...]
    declared_options: bool  # its options are exactly those its options.py declares
    policy_variant: str | None = None  # ``Game.policy_variant``: what follows it is the game's to check
    options_checked_alone: bool = False  # its ``check_options`` is ``Game``'s own (``sim.games.options.checked``)


def catalog_file() -> Path:
    """This checkout's (or installation's) catalog: two checkouts sharing a cache folder do not take turns."""
    return cache_root() / f"catalog-{hashlib.sha256(str(PROJECT_ROOT).encode()).hexdigest()[:12]}.json"


_read: dict[str, Any] | None = None


def _catalog() -> dict[str, Any]:
    """The stored catalog if it was written for this code, else an empty one (with this code's stamp and hash)."""
    global _read
    if _read is None:
        stamp = code_stamp()
        try:
            data = json.loads(catalog_file().read_text())
        except (OSError, ValueError):
            data = {}
        if data.get("format") != FORMAT or not isinstance(data.get("games"), dict):
            data = {}
        if data and data.get("stamp") != stamp:  # touched files: the same code unless its hash says otherwise
            data = {**data, "stamp": stamp} if data.get("code") == code_hash() else {}
        _read = data or {"format": FORMAT, "stamp": stamp, "code": code_hash(), "games": {}}
    return _read


def entry(game: str) -> Entry | None:
    """The stored entry of ``game`` for this code, else None (the game must be imported to know)."""
    raw = _catalog()["games"].get(game)
    if not isinstance(raw, dict):
        return None
    try:
        return Entry(policies=None if raw["policies"] is None else tuple(raw["policies"]), config=raw["config"],
                     capabilities=tuple(raw["capabilities"]), declared_options=bool(raw["declared_options"]),
                     policy_variant=raw.get("policy_variant"),
                     options_checked_alone=bool(raw.get("options_checked_alone", False)))
    except (KeyError, TypeError):
        return None


def remember(game: str, e: Entry) -> None:
    """Store ``game``'s entry for this code (an unwritable cache folder only costs the next command its speed)."""
    data = _catalog()
    if data["games"].get(game) == json.loads(json.dumps(asdict(e))):
        return
    data["games"][game] = asdict(e)
    f = catalog_file()
    try:  # what other processes stored meanwhile for this code stays (several test workers, a studio and a command)
        on_disk = json.loads(f.read_text())
    except (OSError, ValueError):
        on_disk = {}
    if isinstance(on_disk, dict) and on_disk.get("code") == data["code"] and isinstance(on_disk.get("games"), dict) \
            and on_disk.get("format") == FORMAT:
        data["games"] = {**on_disk["games"], **data["games"]}
    save_note(f, data)


def known(game: str) -> Entry | None:
    """``game``'s entry; an unknown game is refused with the registry's message (before it imports anything)."""
    if game not in GAMES:
        get_game(game)  # raises the registry's "unknown game" error
    return entry(game)


def supports(game: str, capability: str) -> bool | None:
    """Whether ``game`` offers ``capability`` (``Game.supports``), None when the catalog does not know yet."""
    e = known(game)
    return None if e is None else capability in e.capabilities


def _check_options(game: str, options: dict[str, Any], policies: tuple[str, ...] | None) -> None:
    """``Game.check_options`` (``sim.games.options.checked``) on the options ``game`` declares."""
    checked(game, declared_options(game) or (), options, policies)


def _check_policies(game: str, policies: tuple[str, ...], policy: str, variant: str | None = None) -> None:
    """``Game.check_policy`` on each name of a ``--policy`` (or ``--policies``) value, the part before the game's
    variant mark; an empty value is the game's to refuse, in the words of the command."""
    for p in (p.strip() for p in policy.split(",")):
        p = p.split(variant, 1)[0] if variant else p
        if p and p not in policies:
            raise DicesimError(unknown_policy(game, p, policies))


def accept(game: str, options: dict[str, Any] | None = None, policy: str | None = None,
           config: Path | None = None, sets: list[str] | None = None) -> tuple[Path | Strict | None, list[str] | None]:
    """Refuse what ``game`` would refuse of these arguments, as far as its catalog entry tells, before the game is
    imported. Returns the config and overrides to pass on: the config validated here and no overrides when ``config``
    or ``sets`` were given and the entry names the config model, else ``config`` and ``sets`` as they came."""
    e = known(game)
    if e is None:
        return config, sets
    if e.declared_options:
        _check_options(game, options or {}, e.policies if e.policies is not None else declared(game, "POLICY_NAMES"))
    if policy is not None and not any(p.strip() for p in policy.split(",")):
        raise DicesimError("no policy given")  # the words of Game.seat_policies
    if policy is not None and not all(p.strip() for p in policy.split(",")):
        raise DicesimError(f"policy list {policy!r} has an empty name between its commas")
    if policy is not None and e.policies is not None:
        _check_policies(game, e.policies, policy, e.policy_variant)
    if policy is not None and (seats := declared(game, "check_seats")) is not None:
        seats(policy, options or {})  # the seats these policies fill: a table size the game refuses
    variant = declared(game, "check_variant") if policy is not None and e.policy_variant else None
    if variant is not None and e.config is not None and e.policy_variant in policy:  # the names after the mark
        work("rules").variants_checked(e.config, game, config, sets, [p.strip() for p in policy.split(",")], variant)
    if (config is not None or sets) and e.config is not None:
        return work("rules").checked(e.config, game, config, sets), None  # pydantic and the model: only now
    return config, sets


def check_field(game: str, config: Path | None, sets: list[str] | None, field: str, lo: float | None = None,
                hi: float | None = None) -> None:
    """``calibrate --field --lo --hi`` refused before the game loads: a field the config does not have, or not a
    number, or a bound it does not take."""
    e = known(game)
    if e is not None and e.config is not None:
        work("rules").field_checked(e.config, game, config, sets, field, lo, hi)


def plain_options(game: str, options: dict[str, Any]) -> dict[str, Any] | None:
    """The options of ``game`` checked and filled as the game would (declared choices and bounds) when its
    ``describe`` tables compute in plain Python (``PLAIN_DESCRIBE`` in its options module: the options they read,
    ``sim.cli.work.tables``) and only those are given; else None (the game itself answers)."""
    reads = declared(game, "PLAIN_DESCRIBE")
    if reads is None or not set(options) <= set(reads):
        return None
    return {k: v for k, v in checked(game, declared_options(game) or (), options).items() if k in reads}


def check_metric(game: str, config: Path | None, sets: list[str] | None, policy: str, options: dict[str, Any],
                 metric: str) -> None:
    """A metric a batch of these rules and seats would not report (``Game.check_metric``'s words), refused before
    the game loads: the config model names them (``metric_names``), the game's options module the seats
    (``plan_seats``)."""
    e = known(game)
    seats = declared(game, "plan_seats")
    if e is None or e.config is None or seats is None or not policy_names(policy):
        return
    filled = checked(game, declared_options(game) or (), options)
    work("rules").metric_checked(e.config, game, config, sets, metric, seats(policy, filled), filled)
