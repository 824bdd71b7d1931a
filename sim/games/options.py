"""Game options as the games declare them: ``Option(name, default, type, help, choices)``.

Light on purpose (no numpy, numba or pandas): each game package lists its options in ``options.py`` so that the
command line can offer every game's ``--flags`` without importing the games (their kernels, pandas and
matplotlib cost over a second at every start).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from sim.core.errors import DicesimError
from sim.core.names import policy_label
from sim.games import declared, declared_options


@dataclass(frozen=True)
class Option:
    """A game-specific option: ``--name`` on the command line, a field in sweep/tune files and the studio."""

    name: str
    default: Any
    type: type = str
    help: str = ""
    choices: tuple[Any, ...] = ()
    label: str = ""  # how a report's setting line names it ("opponent's people"); the name with spaces if empty
    words: dict[Any, str] | None = field(default=None, hash=False)  # a choice in words: "Grünlinge" for gruenlinge
    bounds: tuple[int, int] | None = None  # an int option's range, lowest and highest allowed
    commands: tuple[str, ...] = ()  # the only commands it means something to (``solve``); empty: every command
    names_policy: bool = False  # its value is one of the game's policies (the opponent's): ``checked`` refuses others
    # a further check of a given value that choices and bounds cannot state (Dungeon24's card order): raises
    # DicesimError in the option's own words; light, so the command line refuses before the game loads
    valid: Callable[[Any], object] | None = field(default=None, hash=False, compare=False)
    # the value as the game keeps it, where its words may be typed in any case or with spaces (``Search``)
    spell: Callable[[str], str] | None = field(default=None, hash=False, compare=False)

    @property
    def plays(self) -> bool:
        """Whether runs read it (play, compare, sweeps, the studio's card), not only another command (``objective``:
        ``dicesim solve``'s)."""
        return not self.commands or "play" in self.commands

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def setting(self, value: Any) -> str:
        """``label: value`` in words, for the setting line above a report's headline (never the raw key)."""
        shown = (self.words or {}).get(value, value)
        return f"{self.label or self.name.replace('_', ' ')}: {shown}"

    def check(self, value: Any) -> Any:
        """The value if it has the declared type, is one of the choices and lies within the bounds (``None`` passes
        where it is the default: an option that is off)."""
        if value is None and self.default is None:
            return value
        ok = isinstance(value, self.type) and not (self.type is int and isinstance(value, bool))
        if not ok:
            raise DicesimError(f"{self.flag} must be {self.type.__name__}, got {value!r}")
        if self.bounds and not self.bounds[0] <= value <= self.bounds[1]:
            raise DicesimError(f"{self.flag} must be {self.bounds[0]}..{self.bounds[1]}, got {value!r}")
        if self.choices and value not in self.choices:
            typed = self._as_typed(value)
            if typed is None:
                raise DicesimError(f"{self.flag} must be one of {', '.join(map(str, self.choices))}, got {value!r}")
            return typed
        return value

    def meant(self, value: Any) -> Any:
        """The choice ``value`` names as the command line reads it (itself, another case or its display name:
        ``Leicht`` for ``leicht``), else None; a log's setting column accepts what the flag accepts."""
        return value if value in self.choices else self._as_typed(value)

    def _as_typed(self, value: Any) -> Any:
        """The choice a person meant by a word in another case or by its display name (``Normal``,
        ``Grünlinge`` for ``gruenlinge``), else None."""
        if not isinstance(value, str):
            return None
        want = value.strip().casefold()
        for c in self.choices:
            if want in (str(c).casefold(), str((self.words or {}).get(c, c)).casefold()):
                return c
        return None


def unknown_policy(game: str, name: Any, policies: Sequence[str]) -> str:
    """The words refusing a policy ``game`` does not have (``Game.check_policy``, an option naming a policy, the
    command line's check before the game loads). A list of known ones where one belongs (``hold-20,optimal-turn``:
    both are in the choices it listed) says that it is a list."""
    parts = [p.strip() for p in name.split(",")] if isinstance(name, str) and "," in name else []
    known = {p.casefold() for p in policies}
    if parts and all(p.casefold() in known for p in parts):
        return (f"{name!r} names {len(parts)} policies where one belongs (one seat's; a two-player game's other seat "
                "is --opponent)")
    return f"unknown policy {name!r} for {game} (choose from {', '.join(policies)})"


def check_policy(game: str, policy: str, policies: Sequence[str], variant: str | None = None) -> None:
    """``Game.check_policy``: one seat's name is one of ``policies``; where the game marks a variant
    (``vorschlag@wetzstein``), the part before the mark, and something must follow the mark (the variant itself is
    the game's to check). Light: the command line runs it before the game loads."""
    if variant:
        whole = policy
        policy, mark, rest = policy.partition(variant)
        if mark and not rest.strip(" +"):
            raise DicesimError(f"policy {policy + mark!r} names nothing after {mark!r}")
        if mark and not policy.strip():
            raise DicesimError(f"policy {whole!r} names no policy before {mark!r} (choose from {', '.join(policies)})")
        if mark and (policy != policy.rstrip() or rest != rest.lstrip()):
            raise DicesimError(f"policy {whole!r}: no space around {mark!r} (write "
                               f"{policy.strip()}{mark}{rest.strip()})")
    if policy not in policies:
        raise DicesimError(unknown_policy(game, policy, policies))


def policy_names(policy: str) -> list[str]:
    """The names of a ``--policy`` value (``a`` or ``a,b,…``), blanks dropped."""
    return [p.strip() for p in policy.split(",") if p.strip()]


def check_policy_list(policy: str) -> None:
    """No empty name between a policy list's commas (``"greedy,"`` played one seat under that name)."""
    if "," in policy and not all(p.strip() for p in policy.split(",")):
        raise DicesimError(f"policy list {policy!r} has an empty name between its commas"[:200])


def check_seat_count(game: str, policy: str, seats: int, players: bool) -> None:
    """More names in a ``--policy`` value than seats to fill would be dropped in silence: refused, in the words
    ``Game.seat_policies`` and the command line share (``players``: the game seats ``--players``)."""
    n = len(policy_names(policy))
    if n > seats:
        raise DicesimError(f"{n} policies for {seats} seat{'s' if seats > 1 else ''} of {game}: give at most one per "
                           "seat" + (" (--players sets the seats)" if players else ""))


def check_opponent(policy: str, opponent: str | None) -> None:
    """``--opponent`` fills every seat after the first: beside a list of policies (which names those seats itself)
    one of the two would be dropped in silence; refused in the words Dadox's seats and the command line share."""
    names = policy_names(policy)
    if opponent and len(names) > 1:
        raise DicesimError(f"--opponent {opponent} fills every seat after the first: give one --policy with it, or "
                           f"name every seat in --policy without it (got {len(names)}: {policy.strip()!r})")


def cycled(policy: str, count: int) -> list[str]:
    """``Game.seat_policies``' rule: the names of ``policy`` cycled over ``count`` seats."""
    names = policy_names(policy)
    return [names[i % len(names)] for i in range(count)]


def unread_by(path: str, specs: Sequence[Option], options: dict[str, Any]) -> tuple[Option, str] | None:
    """The option and its choice through which config ``path`` leads when this run does not hold that choice
    (``difficulty.normal.hp`` while ``difficulty`` is ``leicht``): the run never reads the path; else None."""
    choosers = [o for o in specs if o.choices]
    for part in path.split("."):
        users = [o for o in choosers if part in o.choices]
        if users and all(options.get(o.name) != part for o in users):
            return users[0], part
    return None


def named_seats(policy: str, options: dict[str, Any]) -> list[str]:
    """The policies a ``--policy`` value and its ``--opponent`` name (before the game fills the seats): what a
    field only some policies read is checked against (``policy_refusal``)."""
    opponent = options.get("opponent")
    return [*policy_names(policy), *([opponent] if isinstance(opponent, str) else [])]


def policy_readers(game: str, path: str, seats: Sequence[str]) -> tuple[str, ...] | None:
    """The policies that read config ``path`` when none of ``seats`` is one of them (``policies.hold_at``, read by
    the hold-20 bot alone, with optimal-turn at every seat): the run never reads the path; else None. A game
    declares what only some policies read in its options module (``POLICY_READS``: a field or section -> its
    readers); a field it does not declare counts as read by every seat."""
    reads = declared(game, "POLICY_READS") or {}
    mark = declared(game, "POLICY_VARIANT")  # vorschlag@wetzstein reads what vorschlag reads
    played = {policy_label(s).split(mark)[0].strip() if mark else policy_label(s) for s in seats}
    for key, readers in reads.items():
        if path == key or path.startswith(key + "."):
            return None if played & set(readers) else tuple(readers)
    return None


def declared_players(game: str) -> bool:
    """Whether ``game`` seats a chosen number of players (a ``players`` option)."""
    return any(o.name == "players" for o in declared_options(game) or ())


def rules_refusal(game: str, path: str, cfg: Any, options: dict[str, Any]) -> str | None:
    """Why these rules leave ``path`` unread, as the game's options module says (``unread_set``: Dungeon24's
    ability of a people neither side plays), else None: a calibration or a target over it would play the same."""
    unread = declared(game, "unread_set")
    return unread(cfg, path, options) if unread is not None else None


def unread_at_every(game: str, path: str, cases: list[tuple[Any, dict[str, Any]]]) -> str | None:
    """Why the rules of every case (``(cfg, options)``: a sweep's points, a tune's targets) leave ``path`` unread,
    as the first case's ``rules_refusal`` says it in brackets (``Untote vs Untote: no blutrausch``; "" where it says
    none), else None: every point would play the same numbers."""
    why = [rules_refusal(game, path, cfg, options) for cfg, options in cases]
    if not why or not all(why):
        return None
    first = str(why[0])
    return first.split(" (", 1)[1].split("): ", 1)[0] if " (" in first else ""


def refuse_unread_sets(game: str, options: dict[str, Any], seats: Sequence[str] | None, sets: list[str],
                       cfg: Any = None, count: int | None = None, every_choice: bool = False) -> None:
    """A ``set`` of a choice this run does not hold (``difficulty.normal.hp`` on Leicht, ``peoples.untote.boss``
    with neither side Untote), only a policy no seat plays reads (``policies.hold_at`` under optimal-win; ``seats``:
    the policies named, None where the command names none), the other seats' ``skill.opponents`` with one seat
    (``count`` seats), or what the game says these rules ``cfg`` leave unread (its options module's ``unread_set``:
    Dungeon24's ability of no side's people): the run would play as if it were not there (it printed "rules
    changed" over the same numbers). ``every_choice``: the command plays every choice (``matchup``: every people).
    The command line and the Python API refuse it alike."""
    specs = declared_options(game) or ()
    held = checked(game, specs, options)
    for item in sets:
        path = item.split("=", 1)[0].strip()
        said = None if every_choice else unread_refusal(path, specs, held, "set")
        if said is None and cfg is not None and not every_choice:
            said = rules_refusal(game, path, cfg, held)
        if said is None and seats is not None:  # the policies a field is read by: only where they are named
            said = policy_refusal(game, path, seats, "set", count)
        if said:
            raise DicesimError(said)


def check_solve_sets(game: str, options: dict[str, Any], sets: list[str] | None, cfg: Any = None) -> None:
    """A ``--set`` that ``dicesim solve`` never reads, refused before the game loads (``solve kniffel --set
    skill.level=0.5`` printed the optimum as if nothing was set): a section its options module names in
    ``SOLVE_UNREAD`` (skill: the solution plays without lapses), a field only policies the solve does not play
    read (``POLICY_READS`` against ``solve_seats``: another objective's solver fields), or what its
    ``unread_set`` says these rules leave unread."""
    seats_of = declared(game, "solve_seats")
    if not sets or seats_of is None:
        return
    held = checked(game, declared_options(game) or (), options)
    seats = seats_of(held)
    what = f"solve {game}" + (f" --objective {held['objective']}" if held.get("objective") else "")
    by_rules = declared(game, "unread_set") if cfg is not None and not isinstance(cfg, Path) else None
    for item in sets:
        path = item.split("=", 1)[0].strip()
        why = next((w for k, w in (declared(game, "SOLVE_UNREAD") or {}).items()
                    if path == k or path.startswith(k + ".")), None)
        if why is None and (readers := policy_readers(game, path, seats)) is not None:
            said = (", ".join(readers[:-1]) + " and " if len(readers) > 1 else "") + readers[-1]
            why = f"only {said} read{'s' if len(readers) == 1 else ''} it; it plays {seats[0]}"
        if why is not None:
            raise DicesimError(f"--set {path}: {what} does not read it ({why}): the same answer at every value; "
                               "leave it out")
        if by_rules is not None and (said := by_rules(cfg, path, held)):
            raise DicesimError(said)


def policy_refusal(game: str, path: str, seats: Sequence[str], doing: str, count: int | None = None) -> str | None:
    """Why ``doing`` (``calibrate``) ``path`` would play the same at every value because no seat's policy reads it
    (``policy_readers``), or because it is the other seats' (``skill.opponents``) and the run has one seat (``count``
    seats, else one a name), or None."""
    played = ", ".join(dict.fromkeys(policy_label(s) for s in seats))
    if (path == "skill.opponents" or path.startswith("skill.opponents.")) and (count or len(seats)) == 1:
        return (f"{path} is read only by the seats after the first, and this run plays one seat ({played}): "
                f"{doing} skill.level for it" + (", or play two seats or more" if declared_players(game) else ""))
    readers = policy_readers(game, path, seats)
    if readers is None:
        return None
    said = (", ".join(readers[:-1]) + " and " if len(readers) > 1 else "") + readers[-1]
    return (f"{path} is read only by {said}, and this run plays {played}: {doing} it with "
            f"--policy {readers[0]}, or {doing} a field {played} reads")


# the options module's declaration of the options each command reads where it reads fewer than play does
COMMAND_READS = {"describe": "PLAIN_DESCRIBE", "solve": "SOLVE_OPTIONS"}


def unread_option(game: str, command: str, given: dict[str, Any]) -> str | None:
    """The words refusing an option ``command`` never reads (``solve kniffel --players 2`` answered the one-sheet
    solve; ``describe dungeon24 --people untote`` the tables of every people), else None. A game declares what
    ``describe`` and ``solve`` read in its options module (``COMMAND_READS``); one that declares nothing reads all."""
    reads = declared(game, COMMAND_READS[command])
    if reads is None:
        return None
    extra = [k for k in given if k not in reads and k not in ("no_cache",)]
    if not extra:
        return None
    flag = "--" + extra[0].replace("_", "-")
    why = (declared(game, "SOLVE_UNREAD_WHY") or {}).get(extra[0]) if command == "solve" else None
    if why:
        return f"{flag}: {command} {game} does not read it ({why}); leave it out"
    takes = f" (it reads {', '.join('--' + r.replace('_', '-') for r in reads)})" if reads else ""
    return f"{flag}: {command} {game} does not read it, its answer is the same for every value{takes}; leave it out"


def unread_refusal(path: str, specs: Sequence[Option], options: dict[str, Any], doing: str) -> str | None:
    """Why ``doing`` (``calibrate``) ``path`` would play the same at every value (``unread_by``), or None."""
    unread = unread_by(path, specs, options)
    if unread is None:
        return None
    opt, part = unread
    now = options.get(opt.name)
    held = ".".join(str(now) if p == part else p for p in path.split("."))  # the same field of the choice held
    flags = " or ".join(f"{o.flag} {part}" for o in specs if o.choices and part in o.choices)  # each side's option
    return f"{path} is not used by this run ({opt.setting(now)}): {doing} it with {flags}, or {doing} {held}"


def metric_refusal(game: str, metric: str, names: list[str], seats: list[str]) -> str | None:
    """The words refusing ``metric`` when a batch of these seats reports only ``names`` (the closest names first:
    a case or spelling slip, then the others), else None. ``Game.check_metric`` and the command line's check before
    the game loads (``sim.cli.catalog.check_metric``) say the same."""
    if metric in names:
        return None
    import difflib

    close = [metric.lower()] if metric.lower() in names else difflib.get_close_matches(metric, names, n=2, cutoff=0.75)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    rest = ", ".join(n for n in names if n not in close)
    return (f"unknown metric {metric[:60]!r} for {game} with {'/'.join(dict.fromkeys(seats))} "
            f"({hint}choose from {rest})")


def for_play(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as a file of runs gives them (a sweep's, a tune's, a targets file's): one that means something
    to another command only (``objective``: ``dicesim solve``) is refused, as ``dicesim play --objective`` is; the
    runs would ignore it without a word."""
    for o in declared_options(game) or ():
        if not o.plays and o.name in options:
            raise DicesimError(f"{o.name} applies only to dicesim {' and '.join(o.commands)}, not to runs that play")
    return options


def checked(game: str, specs: tuple[Option, ...], options: dict[str, Any],
            policies: Sequence[str] | None = None) -> dict[str, Any]:
    """``Game.check_options``: refuse an option ``game`` does not declare, a value outside an option's choices or
    bounds (a choice as declared: "Normal" -> "normal"), a policy ``game`` does not have (``policies``, where an
    option names one) and a value its ``valid`` refuses; the declared defaults filled in. Every game's options are
    checked by this alone, so the command line and the file checks refuse them before the game loads."""
    by_name = {o.name: o for o in specs}
    unknown = set(options) - set(by_name)
    if unknown:
        raise DicesimError(f"option --{sorted(unknown)[0].replace('_', '-')} does not apply to {game}")
    given = dict(options)
    for name, value in options.items():
        spec = by_name[name]
        if spec.names_policy and isinstance(value, str):
            value = given[name] = policy_label(value)  # "Greedy" as the command line reads it, from a file too
        if spec.spell is not None and isinstance(value, str):
            value = given[name] = spec.spell(value)
        if spec.choices or spec.bounds:
            given[name] = spec.check(value)
        if spec.names_policy and policies is not None and value is not None and value not in policies:
            raise DicesimError(unknown_policy(game, value, policies))
        if spec.valid is not None and not (value is None and spec.default is None):
            spec.valid(given[name])
    return {**{o.name: o.default for o in specs}, **given}


OPEN_END = 1e-6  # how far inside an open end (``gt``/``lt``) of a float field the search may go, relative


def field_bounds(model: type[Any], dotted: str) -> tuple[float, float]:
    """(low, high) allowed for a numeric config field from its model's ge/gt/le/lt (infinite when unknown); an open
    end (``gt=0``: a multiplier that must stay above 0) gives the nearest value the config accepts (an integer's next
    integer, a float a millionth inside), so the search never tries a value the config refuses."""
    from pydantic import BaseModel  # here: the command line's option checks import this module, never call this

    lo, hi = -math.inf, math.inf
    node: Any = model
    keys = dotted.split(".")
    for i, k in enumerate(keys):
        if not (isinstance(node, type) and issubclass(node, BaseModel)) or k not in node.model_fields:
            return lo, hi
        info = node.model_fields[k]
        if i == len(keys) - 1:
            whole = info.annotation is int
            for m in info.metadata:
                if getattr(m, "ge", None) is not None:
                    lo = max(lo, float(m.ge))
                if getattr(m, "gt", None) is not None:
                    lo = max(lo, float(m.gt) + _inside(float(m.gt), whole))
                if getattr(m, "le", None) is not None:
                    hi = min(hi, float(m.le))
                if getattr(m, "lt", None) is not None:
                    hi = min(hi, float(m.lt) - _inside(float(m.lt), whole))
            return lo, hi
        node = info.annotation
    return lo, hi


def _inside(end: float, whole: bool) -> float:
    """How far inside an open end the nearest accepted value lies: the next integer, or a millionth (``OPEN_END``)."""
    return 1.0 if whole else OPEN_END * max(1.0, abs(end))


class Accepted(NamedTuple):
    """The values of a numeric config field that the rest of the rules and the seats accept (a config model's
    ``accepts(dotted, seats)``): ``low`` .. ``high`` in multiples of ``step`` (0: any), and why, in the rules' words.
    A search (calibrate, tune) tries only these: the config and the game refuse the others, after the play so far."""

    low: float = -math.inf
    high: float = math.inf
    step: float = 0
    why: str = ""

    def nearest(self, x: float) -> float:
        """The accepted value nearest ``x`` (the ends are on the grid: ``accepted`` puts them there)."""
        x = min(max(x, self.low), self.high)
        return min(max(round(x / self.step) * self.step, self.low), self.high) if self.step else x

    def span(self) -> str:
        """The accepted values in words: ``2..200``, ``50..1000000 in steps of 50``, ``at most 6``."""
        lo, hi = _number(self.low), _number(self.high)
        ends = (f"{lo}..{hi}" if math.isfinite(self.low) and math.isfinite(self.high) else f"at least {lo}"
                if math.isfinite(self.low) else f"at most {hi}" if math.isfinite(self.high) else "any value")
        return ends + (f" in steps of {_number(self.step)}" if self.step else "")

    def holds(self, x: float) -> bool:
        return self.low <= x <= self.high and (not self.step or math.isclose(x, self.nearest(x), abs_tol=1e-9))


def _number(x: float) -> str:
    """A limit as people write it: whole numbers in full (``1000000``, not ``1e+06``)."""
    return str(int(x)) if math.isfinite(x) and float(x).is_integer() else f"{x:g}"


def accepted(cfg: Any, dotted: str, seats: Sequence[str] = (), low: float = -math.inf,
             high: float = math.inf) -> Accepted:
    """What ``dotted`` accepts beside the rest of ``cfg`` and these seats: the model's ``accepts`` (a points grid, a
    limit another field or a seat's policy sets; a model without it: no limit) within the field's own ``low`` ..
    ``high`` (its ge/le), both ends moved inward onto the grid."""
    said = getattr(cfg, "accepts", None)
    a = (said(dotted, list(seats)) if said is not None else None) or Accepted()
    lo, hi = max(low, a.low), min(high, a.high)
    if a.step:
        lo = math.ceil(lo / a.step) * a.step if math.isfinite(lo) else lo
        hi = math.floor(hi / a.step) * a.step if math.isfinite(hi) else hi
    return Accepted(lo, hi, a.step, a.why)
