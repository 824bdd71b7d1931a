"""What the command line knows of each game without importing it, so that it refuses a bad input before numba,
pandas or a game's kernels are imported (issue 30: an ``error:`` line in well under a second, the first command
after an install or an edit too).

A game's entry is what its light ``options`` module declares beside its options: ``POLICY_NAMES``, ``CONFIG`` (its
rules model as ``"module:Name"``), ``CAPABILITIES`` and, where a policy name carries a variant, ``POLICY_VARIANT``;
the game reads the same declarations (``tests/test_cli_fast.py`` checks each against the game). A game whose options
module declares no ``CONFIG`` has no entry: the game checks its commands itself once it is imported.

:func:`accept` refuses, with the game's own words, only what the game would refuse (``tests/test_cli_fast.py``):
an unknown game; an option the game does not have, or a value outside an option's declared choices
(``sim.games.options.checked``, which ``Game.check_options`` runs); a ``--policy`` name that is not one of the
game's policies (the part before its variant mark); and a ``--config`` or ``--set`` that the game's config model
refuses (its module is imported alone, ``sim.cli.work.rules``: no kernel, no pandas; a refused policy never imports
pydantic). The game checks everything again once it is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cli.common import work
from sim.core.errors import DicesimError
from sim.games import GAMES, declared, declared_options, get_game
from sim.games.options import (
    check_opponent,
    check_policy,
    check_policy_list,
    check_seat_count,
    checked,
    named_seats,
    policy_names,
    policy_refusal,
    refuse_unread_sets,
    unread_refusal,
)

if TYPE_CHECKING:
    from sim.core.config import Strict


@dataclass(frozen=True)
class Entry:
    """What :func:`accept` checks of one game, as its options module declares it."""

    policies: tuple[str, ...]
    config: str  # "module:Name" of the config model
    capabilities: tuple[str, ...]
    policy_variant: str | None = None  # ``Game.policy_variant``: what follows it is the game's to check


def entry(game: str) -> Entry | None:
    """``game``'s entry from its options module, None where that declares no ``CONFIG`` (or no options)."""
    config, names = declared(game, "CONFIG"), declared(game, "POLICY_NAMES")
    if config is None or names is None or declared(game, "OPTIONS") is None:
        return None
    return Entry(policies=tuple(names), config=config, capabilities=tuple(sorted(declared(game, "CAPABILITIES") or ())),
                 policy_variant=declared(game, "POLICY_VARIANT"))


def known(game: str) -> Entry | None:
    """``game``'s entry; an unknown game is refused with the registry's message (before it imports anything)."""
    if game not in GAMES:
        get_game(game)  # raises the registry's "unknown game" error
    return entry(game)


def supports(game: str, capability: str) -> bool | None:
    """Whether ``game`` offers ``capability`` (``Game.supports``), None when its options module declares no entry."""
    e = known(game)
    return None if e is None else capability in e.capabilities


def _check_options(game: str, options: dict[str, Any], policies: tuple[str, ...] | None) -> None:
    """``Game.check_options`` (``sim.games.options.checked``) on the options ``game`` declares."""
    checked(game, declared_options(game) or (), options, policies)


def _check_policies(game: str, policies: tuple[str, ...], policy: str, variant: str | None = None) -> None:
    """``Game.check_policy`` on each name of a ``--policy`` (or ``--policies``) value, the part before the game's
    variant mark; an empty value is the game's to refuse, in the words of the command."""
    for p in (p.strip() for p in policy.split(",")):
        if p:
            check_policy(game, p, policies, variant)


def accept(game: str, options: dict[str, Any] | None = None, policy: str | None = None,
           config: Path | None = None, sets: list[str] | None = None,
           seated: bool = False, every_choice: bool = False) -> tuple[Path | Strict | None, list[str] | None]:
    """Refuse what ``game`` would refuse of these arguments, as far as its catalog entry tells, before the game is
    imported; ``seated``: ``policy`` names the seats of one game (play, replay, calibrate), not policies to compare;
    ``every_choice``: the command plays every choice of the options (``matchup``: every people), so a ``--set`` of
    one is read whatever the options say.
    Returns the config and overrides to pass on: the config validated here and no overrides when ``config`` or
    ``sets`` were given and the entry names the config model, else ``config`` and ``sets`` as they came."""
    e = known(game)
    if e is None:
        return config, sets
    _check_options(game, options or {}, e.policies)
    if policy is not None and not any(p.strip() for p in policy.split(",")):
        raise DicesimError("no policy given")  # the words of Game.seat_policies
    if policy is not None:
        check_policy_list(policy)
    if policy is not None:
        _check_policies(game, e.policies, policy, e.policy_variant)
    if seated and policy is not None and options:  # the options given: an --opponent beside a list of seats
        check_opponent(policy, options.get("opponent"))
    if seated and policy is not None and (count := declared(game, "seat_count")) is not None:
        check_seat_count(game, policy, count(options or {}), any(o.name == "players" for o in
                                                                  declared_options(game) or ()))
    if (policy is not None or seated) and (seats := declared(game, "check_seats")) is not None:
        seats(policy or "", options or {})  # the seats these policies fill (a replay's default: its options'): a
        # table size the game refuses
    variant = declared(game, "check_variant") if policy is not None and e.policy_variant else None
    if variant is not None and e.policy_variant in policy:  # the names after the mark
        work("rules").variants_checked(e.config, game, config, sets, [p.strip() for p in policy.split(",")], variant)
    checked = work("rules").checked(e.config, game, config, sets) if config is not None or sets else None
    if sets and (policy is not None or seated):  # an edit this run never reads (its value checked first): numbers
        count = declared(game, "seat_count")
        refuse_unread_sets(game, options or {}, named_seats(policy, options or {}) if policy is not None else None,
                           sets, checked, count(options or {}) if count is not None else None, every_choice)
    return (checked, None) if checked is not None else (config, sets)  # pydantic and the model: only now


def check_compared(game: str, named: list[str], flag: str = "--policies") -> None:
    """Two names of one policy whose variants hold the same parts in another order (``greedy@wetzstein+dicke_haut``
    and ``greedy@dicke_haut+wetzstein``: one loadout) would play the same twice; refused as a name given twice is
    (``sim.core.names.compared``)."""
    mark = declared(game, "POLICY_VARIANT") if game in GAMES else None
    if not mark:
        return
    seen: dict[tuple[str, tuple[str, ...]], str] = {}
    for name in named:
        base, _, rest = name.partition(mark)
        key = (base.strip(), tuple(sorted(p.strip() for p in rest.split("+") if p.strip())))
        if key in seen:
            raise DicesimError(f"{flag} names {seen[key]!r} twice ({name!r} is the same loadout in another order): "
                               "compare each policy once")
        seen[key] = name


def check_field(game: str, config: Path | None, sets: list[str] | None, field: str, lo: float | None = None,
                hi: float | None = None) -> None:
    """``calibrate --field --lo --hi`` refused before the game loads: a field the config does not have, or not a
    number, or a bound it does not take."""
    e = known(game)
    if e is not None:
        work("rules").field_checked(e.config, game, config, sets, field, lo, hi)


def plain_options(game: str, options: dict[str, Any]) -> dict[str, Any] | None:
    """The options of ``game`` checked and filled as the game would (declared choices and bounds) when its
    ``describe`` tables compute in plain Python (``PLAIN_DESCRIBE`` in its options module: the options they read,
    ``sim.cli.work.tables``) and only those are given; else None (the game itself answers)."""
    reads = declared(game, "PLAIN_DESCRIBE")
    if reads is None or not set(options) <= set(reads):
        return None
    return {k: v for k, v in checked(game, declared_options(game) or (), options).items() if k in reads}


def check_read(game: str, field: str, options: dict[str, Any], policy: str) -> None:
    """``calibrate --field`` that the run never reads (``difficulty.leicht.hp`` with ``--difficulty normal``; Dadox's
    ``policies.greedy_bank_at`` with ``--policy threshold``), refused before the game loads in the calibration's own
    words (``sim.experiments.calibrate.refuse_unread``)."""
    specs = declared_options(game)
    if specs is None:
        return
    seats = named_seats(policy, options)
    said = unread_refusal(field, specs, checked(game, specs, options), "calibrate") or policy_refusal(
        game, field, seats, "calibrate")
    if said:
        raise DicesimError(said)


def check_metric(game: str, config: Path | None, sets: list[str] | None, policy: str, options: dict[str, Any],
                 metric: str) -> None:
    """A metric a batch of these rules and seats would not report (``Game.check_metric``'s words), refused before
    the game loads: the config model names them (``metric_names``), the game's options module the seats
    (``plan_seats``)."""
    e = known(game)
    seats = declared(game, "plan_seats")
    if e is None or seats is None or not policy_names(policy):
        return
    filled = checked(game, declared_options(game) or (), options)
    work("rules").metric_checked(e.config, game, config, sets, metric, seats(policy, filled), filled)
