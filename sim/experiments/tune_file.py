"""Tune files: what ``dicesim tune`` sets (fields with bounds) and hits (targets), validated before any work.

A tune file (``configs/tune/*.toml``; the format is described in ``sim.experiments.tune``) is checked whole
before anything is played: the game, the base config and fixed overrides, every field (known,
numeric, bounds not empty, inside the config model's allowed range, whole numbers for whole-numbered
fields), every target (policy, options, fixed overrides, a rate's target in [0, 1], not the same target twice)
and, with ``probe``, that the game reports each target's metric (the names its config model declares,
``Game.check_metric``: no run). Targets that share options and fixed overrides form a group, played as one sweep point.
The corners of the fields' bounds and the start are checked for every group as its runs would be played (the config,
``Game.check_plan`` and the values the rules and seats accept, ``sim.games.options.accepted``), and a field whose
accepted values form a grid (Dadox's exact target: multiples of the points unit) is searched on that grid.
Every error is a ``ConfigError`` naming the file part and the field.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from sim.core import limits
from sim.core.config import (
    ConfigError,
    DicesimError,
    GameName,
    Name,
    PolicyLabel,
    Prose,
    Seed,
    Strict,
    Whole,
    config_hash,
    field_value,
    odd_field,
    read_toml,
    shown_path,
)
from sim.core.limits import has_interval, is_rate
from sim.experiments.sweep_spec import _resolve, flatten, point_config, spec_error, whole_options
from sim.games import get_game
from sim.games.base import Game
from sim.games.options import accepted, field_bounds, for_play, policy_refusal, unread_at_every, unread_by

FORMAT = 1
FLOAT_RESOLUTION = 1e-4  # float fields are rounded to this share of their range
MAX_CORNERS = 64  # more tuned fields than this many corners: each field's ends checked, the others at their start

# --- the tune file ----------------------------------------------------------------------------


class TargetSpec(Strict):
    """One target as written: a metric of a policy (with options and fixed overrides) and its value."""
    name: Name | None = None
    policy: PolicyLabel
    metric: str
    value: float
    tol: float | None = Field(None, gt=0, description="tolerance in metric units")
    options: dict[str, Any] = {}
    set: dict[str, Any] = {}


class TuneFile(Strict):
    """The TOML tune file as written by a designer."""
    title: Name | None = None
    description: Prose | None = None
    game: GameName
    n: Whole = Field(gt=0, le=limits.HARD_MAX_RUNS, description="runs per evaluation and target group")
    seed: Seed = 1
    chunk: int | None = Field(None, gt=0, le=limits.MAX_CHUNK)
    config: str | None = None
    set: dict[str, Any] = {}
    fields: dict[str, Any]
    start: dict[str, Any] = {}
    target: list[TargetSpec] = Field(min_length=1)
    method: Literal["nelder-mead", "powell"] = "nelder-mead"
    max_evals: Whole = Field(40, ge=2, le=limits.MAX_EVALS)


@dataclass(frozen=True)
class TuneField:
    """A tuned field: its bounds, whether it is whole-numbered, where the search starts and the grid its accepted
    values lie on (``step``: multiples of it, such as Dadox's points unit for an exact target; 0: none)."""
    name: str
    low: float
    high: float
    integer: bool
    start: float
    step: int = 0

    def value(self, u: float) -> float | int:
        """The field value at ``u`` in [0, 1] (rounded to the field's resolution or to its grid, within the bounds:
        the bounds themselves are on it)."""
        x = self.low + min(max(float(u), 0.0), 1.0) * (self.high - self.low)
        if self.integer and self.step > 1:
            return int(min(max(round(x / self.step) * self.step, self.low), self.high))
        if self.integer:
            return int(round(x))
        digits = max(0, math.ceil(-math.log10((self.high - self.low) * FLOAT_RESOLUTION)))
        return round(x, digits)

    def unit(self, x: float) -> float:
        return (float(x) - self.low) / (self.high - self.low)


@dataclass(frozen=True)
class TuneTarget:
    """A validated target: which sweep group plays it, which row (policy label) and metric it reads."""
    index: int
    name: str
    policy: str
    label: str
    metric: str
    value: float
    tol: float | None
    options: dict[str, Any]
    sets: dict[str, Any]
    group: int


@dataclass(frozen=True)
class Group:
    """Targets that share game options and fixed overrides: one sweep point per evaluation."""
    index: int
    options: dict[str, Any]
    sets: dict[str, Any]
    policies: list[str]


@dataclass
class Tune:
    """A validated tune: the game, the fields, the targets and how they group into sweeps."""
    spec: TuneFile
    source: str
    game: Game
    base_config: str | None
    sets: dict[str, Any]
    fields: list[TuneField]
    targets: list[TuneTarget]
    groups: list[Group]
    chunk: int
    base_hash: str

    @property
    def name(self) -> str:
        return self.spec.title or Path(self.source).stem

    def canonical(self) -> dict[str, Any]:
        """Everything that decides the numbers and the path of the search, JSON-ready (not ``max_evals``: it only
        cuts the same path shorter, so a resumed tune may search further)."""
        return {
            "format": FORMAT, "game": self.game.name, "n": self.spec.n, "seed": self.spec.seed,
            "chunk": self.chunk, "method": self.spec.method,
            "base_config_hash": self.base_hash, "set": jsonable(self.sets),
            # a field's grid only where it has one: the fingerprints of tunes started before grids stay the same
            "fields": [{k: v for k, v in asdict(f).items() if k != "step" or v > 1} for f in self.fields],
            "targets": [{"policy": t.policy, "metric": t.metric, "value": t.value, "tol": t.tol,
                         "options": jsonable(t.options), "set": jsonable(t.sets)} for t in self.targets],
        }

    def fingerprint(self) -> str:
        blob = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def config_for(self, values: dict[str, Any]) -> Strict:
        """The base config with the fixed overrides and ``values`` applied."""
        return point_config(self.game, self.base_config, {**self.sets, **values})


def jsonable(o: Any) -> Any:
    return json.loads(json.dumps(o, default=lambda x: x.item() if hasattr(x, "item") else str(x)))


def load_tune(path: str | Path, probe: bool = True, force: bool = False,
              games: Callable[[str], Game] = get_game) -> Tune:
    """Read and validate a tune file; fields, bounds, targets and (with ``probe``) metrics are checked before any
    work (``force``: more runs than ``sim.core.limits`` allows; ``games``: the game of a name, see
    ``tune_from_dict``)."""
    path = Path(path)
    return tune_from_dict(read_toml(path, "tune file"), shown_path(path), path.resolve().parent, probe, force, games)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _check_field(tune_game: Game, base: str | None, sets: dict[str, Any], base_cfg: Strict, name: str, bounds: Any,
                 start: Any) -> TuneField:
    if not isinstance(bounds, list) or len(bounds) != 2 or not all(_is_number(b) for b in bounds):
        raise ConfigError(f"[fields] {name} must be [low, high] (two numbers), got {bounds!r}")
    lo, hi = float(bounds[0]), float(bounds[1])
    if not lo < hi:
        raise ConfigError(f"[fields] {name} has empty bounds [{bounds[0]}, {bounds[1]}] (low must be below high)")
    if name in sets:
        raise ConfigError(f"[fields] {name} is also fixed by set; tune it or fix it, not both")
    current = field_value(base_cfg, name)
    if current is None:
        if not odd_field(name):
            point_config(tune_game, base, {**sets, name: bounds[0]})  # names the unknown field
        raise ConfigError(f"unknown config field: {name}{odd_field(name)}")
    if isinstance(current, bool) or not isinstance(current, int | float):
        raise ConfigError(f"[fields] {name} is not numeric (its value is {current!r})")
    integer = isinstance(current, int)
    if integer and not (lo.is_integer() and hi.is_integer()):
        raise ConfigError(f"[fields] {name} is whole-numbered: bounds must be whole numbers, got {bounds!r}")
    for b in (lo, hi):
        point_config(tune_game, base, {**sets, name: int(b) if integer else b})  # out of the allowed range
    if start is None:
        x0 = min(max(float(current), lo), hi)
    elif not _is_number(start) or not lo <= start <= hi:
        raise ConfigError(f"[start] {name} = {start!r} must be a number within its bounds [{bounds[0]}, {bounds[1]}]")
    elif integer and not float(start).is_integer():  # 50.5 started at 50 without a word
        raise ConfigError(f"[start] {name} is whole-numbered: its start must be a whole number, got {start!r}")
    else:
        x0 = float(start)
    return TuneField(name, lo, hi, integer, x0)


def tune_from_dict(data: dict[str, Any], source: str = "tune", base_dir: Path | None = None,
                   probe: bool = True, force: bool = False, games: Callable[[str], Game] = get_game) -> Tune:
    """Validate a tune given as a dict (the parsed TOML); errors name the file part and the field.

    With ``probe`` every target's metric is checked against the names the game declares for its rules, options
    and seats (``Game.check_metric``), before any run. ``games`` gives the game of a name (the command line passes
    ``sim.cli.work.files.RulesOnly`` first: the same checks before the game loads).
    """
    try:
        spec = TuneFile.model_validate(data)
    except ValidationError as err:
        raise spec_error(source, err, "tune file") from None
    runs = spec.n * spec.max_evals * len(spec.target)  # at most: targets of a group that share a policy share its runs
    try:
        limits.check_runs(runs, force, "n x max_evals x targets")
    except DicesimError as e:
        raise ConfigError(f"{source}: {e}") from None
    try:
        game = games(spec.game)
    except DicesimError as e:
        raise ConfigError(f"{source}: game: {e}") from None
    base = _resolve(spec.config, base_dir)
    try:
        sets = flatten(spec.set)
        raw_fields = flatten(spec.fields, leaf=lambda v: not isinstance(v, dict))
        starts = flatten(spec.start)
        target_sets = [flatten(t.set) for t in spec.target]
    except ConfigError as e:
        raise ConfigError(f"{source}: {e}") from None
    try:
        base_cfg = point_config(game, base, sets)
    except DicesimError as e:
        raise ConfigError(f"{source}: config/set: {e}") from None

    if not raw_fields:
        raise ConfigError(f"{source}: [fields] is empty (name at least one field and its bounds [low, high])")
    extra = sorted(set(starts) - set(raw_fields))
    if extra:
        raise ConfigError(f"{source}: [start] {extra[0]} is not a tuned field")
    fields = []
    for name, bounds in raw_fields.items():
        try:
            fields.append(_check_field(game, base, sets, base_cfg, name, bounds, starts.get(name)))
        except DicesimError as e:
            msg = str(e)
            raise ConfigError(f"{source}: {msg if msg.startswith('[') else f'[fields] {name}: {msg}'}") from None

    targets: list[TuneTarget] = []
    plans: dict[int, list[str]] = {}  # each target's seats
    groups: list[Group] = []
    keys: dict[str, int] = {}
    tuned = {f.name for f in fields}
    for i, t in enumerate(spec.target):
        tname = t.name or f"{t.policy} {t.metric} = {t.value:g}"
        where = f"{source}: target {i + 1} ({tname})"
        try:
            named = next((u for u in targets if t.name and u.name == tname), None)
            if named is not None:  # the report and the verdicts tell targets apart by their names
                raise ConfigError(f"target {named.index + 1} has this name too: give each target its own name")
            options = game.check_options(for_play(game.name, whole_options(game, dict(t.options))))
            label, seats = game.compare_plan([t.policy], options)[0]
            tsets = {**sets, **target_sets[i]}
            both = sorted(tuned & set(target_sets[i]))
            if both:
                raise ConfigError(f"set fixes {both[0]}, which is tuned")
            cfg = point_config(game, base, tsets)
            game.check_plan(cfg, seats)
            if probe:
                game.check_metric(t.metric, cfg, options, seats)
            if is_rate(t.metric) and not 0.0 <= t.value <= 1.0:
                raise ConfigError(f"{t.metric} is a rate: its target must lie in [0, 1], got {t.value:g}")
            if t.tol is None and not has_interval(t.metric, spec.n):  # it played, wrote, then refused with exit 2
                raise ConfigError(f"{t.metric} has no 95 % interval to take a tolerance from "
                                  f"({'one run' if spec.n < 2 else 'a quantile or a spread'}): give tol")
            key = json.dumps([jsonable(options), jsonable(tsets)], sort_keys=True)
            same = next((u for u in targets if u.label == label and u.metric == t.metric
                         and json.dumps([jsonable(u.options), jsonable(u.sets)], sort_keys=True) == key), None)
            if same is not None:
                raise ConfigError(f"the same metric of the same policy and rules as target {same.index + 1}: "
                                  "give each target once")
        except DicesimError as e:
            raise ConfigError(f"{where}: {e}") from None
        if key not in keys:
            keys[key] = len(groups)
            groups.append(Group(len(groups), dict(t.options), tsets, []))
        g = groups[keys[key]]
        if t.policy not in g.policies:
            g.policies.append(t.policy)
        targets.append(TuneTarget(i, tname, t.policy, label, t.metric, t.value, t.tol, options, tsets, g.index))
        plans[i] = seats
    for f in fields:  # a field no target's run reads: every evaluation would play the same
        unread = [unread_by(f.name, game.option_specs, t.options) for t in targets]
        if targets and all(unread):
            opt, part = unread[0]
            raise ConfigError(f"{source}: [fields] {f.name} is not used by any target's run "
                              f"({opt.setting(targets[0].options.get(opt.name))}): give a target options = "
                              f"{{{opt.name} = \"{part}\"}}, or tune the field of the targets' {opt.name}")
        # what the rules leave unread (Dungeon24's ability of no side's people); a target whose sets give a people
        # another ability may read it
        mixed = any(k.startswith("peoples.") for t in targets for k in t.sets)
        because = None if mixed else unread_at_every(game.name, f.name, [(base_cfg, t.options) for t in targets])
        if because is not None:
            raise ConfigError(f"{source}: [fields] {f.name} is not used by any target's run"
                              f"{f' ({because})' if because else ''}: give a side a people with it in options")
        said = policy_refusal(game.name, f.name, [s for seats in plans.values() for s in seats], "tune")
        if targets and said:
            raise ConfigError(f"{source}: [fields] {said}")
    fields = _check_reach(game, base, fields, targets, plans, source)
    tune = Tune(spec, source, game, base, sets, fields, targets, groups, spec.chunk or game.chunk,
                config_hash(base_cfg))
    return tune


def _points(fields: list[TuneField]) -> list[dict[str, Any]]:
    """The values the search may reach at its edges: every corner of the bounds (or, with many fields, each field's
    ends with the others at their start), and the start itself."""
    def typed(f: TuneField, x: float) -> float | int:
        return int(round(x)) if f.integer else x

    start = {f.name: typed(f, f.start) for f in fields}
    if 2 ** len(fields) <= MAX_CORNERS:
        corners = [{f.name: typed(f, x) for f, x in zip(fields, xs, strict=True)}
                   for xs in itertools.product(*((f.low, f.high) for f in fields))]
    else:
        corners = [{**start, f.name: typed(f, x)} for f in fields for x in (f.low, f.high)]
    return [start, *corners]


def _check_reach(game: Game, base: str | None, fields: list[TuneField], targets: list[TuneTarget],
                 plans: dict[int, list[str]], source: str) -> list[TuneField]:
    """Refuse, before any play, bounds or a start that a target's runs cannot play: at every edge of the search
    (``_points``) the config with the target's overrides, ``Game.check_plan`` of its seats and each field within the
    values these rules and seats accept (``sim.games.options.accepted``: a limit another field or a policy sets).
    Returns the fields with the grid their accepted values lie on, which the search then keeps to."""
    steps = {f.name: 1 for f in fields}
    for t in targets:
        for values in _points(fields):
            try:
                cfg = point_config(game, base, {**t.sets, **values})
                game.check_plan(cfg, plans[t.index])
            except DicesimError as e:
                at = ", ".join(f"{k} = {v}" for k, v in values.items())
                raise ConfigError(f"{source}: target {t.index + 1}: the search reaches {at}: {e}") from None
            for f in fields:
                takes = accepted(cfg, f.name, plans[t.index], *field_bounds(type(cfg), f.name))
                if not takes.holds(values[f.name]):
                    why = takes.why or "not accepted with these rules and seats"
                    raise ConfigError(f"{source}: [fields] {f.name} = {values[f.name]} (target {t.index + 1}): "
                                      f"{why}; give bounds and a start within {takes.span()}")
                if f.integer and takes.step > 1:
                    steps[f.name] = math.lcm(steps[f.name], int(takes.step))
    return [replace(f, step=steps[f.name]) if steps[f.name] > 1 else f for f in fields]
