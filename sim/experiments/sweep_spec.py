"""Sweep files: the TOML a designer writes (a grid over config fields, or named variants), validated into a
``Sweep`` of points, each with its config, before any work starts. See ``sim.experiments.sweep`` for running one."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from sim.core import limits
from sim.core.atomic import check_kind
from sim.core.config import (
    ROOT,
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
    describe_validation_error,
    field_value,
    read_toml,
    shown_path,
    toml_literal,  # re-exported: sweep, sensitivity, tune and the API write overrides with it
)
from sim.games import get_game
from sim.games.base import Game
from sim.games.options import for_play, policy_refusal, unread_at_every, unread_refusal

SWEEP_JSON = "sweep.json"
FORMAT = 1


def check_started(out: Path, resume: bool, overwrite: bool) -> None:
    """A folder holding a sweep is continued (``--resume``) or started over (``--overwrite``), never mixed with a
    new one: refused before any work (the command line asks before the games load)."""
    if (out / SWEEP_JSON).is_file() and not resume and not overwrite:
        raise DicesimError(f"{out} already holds a sweep: rerun with --resume to continue it or --overwrite to start "
                           "over")
    check_kind(out, SWEEP_JSON)  # another command's report.html would become the sweep's


# --- the sweep file ---------------------------------------------------------------------------


class Variant(Strict):
    """One named variant: overrides on top of the base config (or its own ``config``)."""
    name: Name = Field(min_length=1)
    set: dict[str, Any] = {}
    config: str | None = None


class SweepFile(Strict):
    """The TOML sweep file as written by a designer."""
    game: GameName
    policies: list[PolicyLabel] = Field(min_length=1)
    n: Whole = Field(gt=0, le=limits.HARD_MAX_RUNS, description="runs per grid point and policy")
    seed: Seed = 1
    chunk: int | None = Field(None, gt=0, le=limits.MAX_CHUNK, description="runs per task (default: the game's chunk)")
    config: str | None = Field(None, description="base config file (default: configs/GAME/default.toml)")
    grid: dict[str, Any] | None = None
    variants: list[Variant] | None = None
    options: dict[str, Any] = {}
    keep_runs: bool = Field(True, description="keep the per-run tables (parts/) after a point finishes")
    metrics: list[str] = Field([], description="metrics charted in report.html (default: the game's first three)")
    title: Name | None = None
    description: Prose | None = None


@dataclass(frozen=True)
class Point:
    """One grid point (or variant): its overrides and validated config."""
    index: int
    label: str
    values: dict[str, Any]  # swept field -> value (grid sweeps)
    variant: str | None  # variant name (variant sweeps)
    sets: dict[str, Any]  # every override applied on top of the base config
    config_path: str | None
    cfg: Strict
    config_hash: str
    options: dict[str, Any] | None = None  # the point's game options where the grid sweeps one (``options.NAME``)
    plan: list[tuple[str, list[str]]] | None = None  # its seats under those options (``--players 3``: three)


@dataclass(frozen=True)
class Task:
    """One unit of work: runs ``start .. start + count - 1`` of one (point, policy)."""
    point: int
    slot: int  # index into the sweep's plan (policy label, seats)
    chunk: int
    start: int
    count: int


@dataclass
class Sweep:
    """A validated sweep: game, options, policy plan and every point's config."""
    spec: SweepFile
    source: str
    game: Game
    options: dict[str, Any]
    plan: list[tuple[str, list[str]]]
    points: list[Point]
    fields: list[str]
    base_config: str | None
    base_values: dict[str, Any]
    chunk: int

    @property
    def name(self) -> str:
        return self.spec.title or Path(self.source).stem

    def on(self, game: Game) -> Sweep:
        """This sweep, checked on the game as its options module declares it
        (``sim.cli.work.files.RulesOnly``: the same configs, options and plan), played on the game itself."""
        return dataclasses.replace(self, game=game, chunk=self.spec.chunk or game.chunk)

    def options_of(self, point: int) -> dict[str, Any]:
        """The game options point ``point`` plays under: the sweep's, or its own where the grid sweeps one."""
        return self.points[point].options or self.options

    def seats_of(self, point: int, slot: int) -> list[str]:
        """The seats policy ``slot`` fills at point ``point``: the sweep's plan, or the point's own where its options
        change them (a grid over ``options.players``)."""
        return (self.points[point].plan or self.plan)[slot][1]

    def spans(self) -> list[tuple[int, int]]:
        return [(s, min(self.chunk, self.spec.n - s)) for s in range(0, self.spec.n, self.chunk)]

    def tasks(self) -> list[Task]:
        spans = self.spans()
        return [
            Task(p.index, slot, c, s, k)
            for p in self.points
            for slot in range(len(self.plan))
            for c, (s, k) in enumerate(spans)
        ]

    def canonical(self) -> dict[str, Any]:
        """Everything that decides the numbers (not titles or chart choices), JSON-ready."""
        return {
            "format": FORMAT,
            "game": self.game.name,
            "plan": [[label, seats] for label, seats in self.plan],
            "n": self.spec.n,
            "seed": self.spec.seed,
            "chunk": self.chunk,
            "options": _jsonable(self.options),
            "points": [
                {"label": p.label if p.variant is not None else _fingerprint_label(p.values),
                 "values": _jsonable(p.values), "sets": _jsonable(p.sets), "config_hash": p.config_hash,
                 **({"options": _jsonable(p.options)} if p.options else {})}
                for p in self.points
            ],
        }

    def fingerprint(self) -> str:
        blob = json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def point_label(values: dict[str, Any]) -> str:
    """A grid point as the designer wrote its values (``bonus.value=35, joker.when_zero=true``, a table as
    ``{threshold = 63, value = 35}``), not Python's ``True`` or ``{'threshold': 63}``; names stay bare."""
    return ", ".join(f"{k}={v if isinstance(v, str) else toml_text(v)}" for k, v in values.items())


def toml_text(v: Any) -> str:
    """A swept value as the TOML that writes it (``{name = "Lich", a = 4}``, ``[1, 2]``, ``true``): how the tables,
    the pages and the point labels show lists and tables, which can be compared and counted."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {toml_text(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_text(x) for x in v) + "]"
    return toml_literal(v.item() if hasattr(v, "item") else v)


def _fingerprint_label(values: dict[str, Any]) -> str:
    """A grid point's label as sweeps before :func:`point_label` wrote it (Python's notation): the fingerprint keeps
    it, so ``--resume`` still knows the folders they wrote."""
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _jsonable(o: Any) -> Any:
    return json.loads(json.dumps(o, default=lambda x: x.item() if hasattr(x, "item") else str(x)))


def from_python(spec: dict[str, Any]) -> dict[str, Any]:
    """A sweep given as a Python dict, as a file would hold it: tuples as lists, numpy numbers as numbers, paths as
    text; any other object is refused (its ``str`` became the report's title: ``<object object at 0x7f…>``)."""

    def plain(x: Any) -> Any:
        if hasattr(x, "item") and callable(x.item):
            return x.item()
        if isinstance(x, os.PathLike):
            return os.fspath(x)
        raise ConfigError(f"{limits.short(x)} is no value a sweep file holds (a number, a text, true/false, "
                          "a list or a table)")

    return json.loads(json.dumps(spec, default=plain))


def flatten(d: dict[str, Any], prefix: str = "", leaf=lambda v: not isinstance(v, dict)) -> dict[str, Any]:
    """``{"a": {"b": 1}, "c.d": 2}`` -> ``{"a.b": 1, "c.d": 2}`` (TOML's dotted and quoted keys alike)."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        for name, x in ({key: v} if leaf(v) or not v else flatten(v, key, leaf)).items():
            if name in out:
                raise ConfigError(f"{name} is named twice (as a dotted key and in a table)")
            out[name] = x
    return out


def _resolve(path: str | None, base_dir: Path | None) -> str | None:
    """A config path as written in a sweep file: first in the tree of configs the file sits in (``configs/kniffel/
    x.toml`` from ``my-configs/sweeps/``: ``my-configs/kniffel/x.toml``, so a ``dicesim configs --copy`` tree plays
    its own edited files, not the shipped ones), else relative to the working folder, the sweep file or the repo."""
    if path is None:
        return None
    p = Path(path)
    if p.is_absolute():
        return str(p)
    in_tree = base_dir is not None and base_dir.name in TREE_FOLDERS and len(p.parts) > 1 and p.parts[0] == "configs"
    tree = base_dir.parent.joinpath(*p.parts[1:]) if in_tree else None
    for candidate in (tree, p, base_dir / p if base_dir is not None else None, ROOT / p):
        if candidate is not None and candidate.is_file():
            return str(candidate)
    return str(p)  # load reports it as not found


TREE_FOLDERS = ("sweeps", "targets", "tune")  # the folders of a configs tree that hold files naming configs/...


def spec_error(source: str, err: ValidationError, kind: str = "sweep file") -> DicesimError:
    """One line naming the first invalid field of a designer's file (sweep, tune) and what is wrong with it."""
    return ConfigError(f"{source}: {describe_validation_error(err, kind)}")


def point_config(game: Game, config_path: str | None, sets: dict[str, Any]) -> Strict:
    """The game's config with ``sets`` applied (through ``game.load``, so games keep their loading rules)."""
    return game.load(config_path, [f"{k}={toml_literal(v)}" for k, v in sets.items()])


def load_sweep(path: str | Path, force: bool = False) -> Sweep:
    """Read and validate a sweep file; every point's config is built and checked before any work (``force``: more
    points or runs than ``sim.core.limits`` allows)."""
    path = Path(path)
    return sweep_from_dict(read_toml(path, "sweep file"), shown_path(path), path.resolve().parent, force)


def check_size(source: str, points: int, policies: int, n: int, force: bool) -> None:
    """A sweep's points and runs within ``sim.core.limits`` (refused before any point's config is built)."""
    if points > limits.HARD_MAX_POINTS:  # --force took 10^8 and grew its memory for minutes, playing nothing
        raise ConfigError(f"{source}: {points:,} points is more than any sweep plays (at most "
                          f"{limits.MAX_POINTS:,}, or {limits.HARD_MAX_POINTS:,} with --force): split the grid into "
                          "several sweeps")
    if points > limits.MAX_POINTS and not force:
        raise ConfigError(f"{source}: {points:,} points is more than the limit of {limits.MAX_POINTS:,}; pass --force "
                          "to sweep them anyway")
    try:
        limits.check_runs(points * policies * n, force, "points x policies x n")
    except DicesimError as e:
        raise ConfigError(f"{source}: {e}") from None


def sweep_from_dict(data: dict[str, Any], source: str = "sweep", base_dir: Path | None = None,
                    force: bool = False, games: Callable[[str], Game] = get_game) -> Sweep:
    """Validate a sweep given as a dict (the parsed TOML); errors name the file part and the field. ``games`` gives
    the game of a name (the command line passes ``sim.cli.work.files.RulesOnly`` first)."""
    try:
        spec = SweepFile.model_validate(data)
    except ValidationError as err:
        raise spec_error(source, err) from None
    if spec.grid is not None and spec.variants is not None:
        raise ConfigError(f"{source}: give either [grid] or [[variants]], not both")
    grid = _grid(source, spec.grid) if spec.grid is not None else None
    for key in grid or {}:  # swept and fixed at once: the grid's values played, [options] dropped without a word
        if key.startswith(OPTION_AXIS) and key[len(OPTION_AXIS):] in spec.options:
            raise ConfigError(f"{source}: {key[len(OPTION_AXIS):]} is given in [options] and swept in [grid] "
                              f"(\"{key}\"): give it in one of them")
    # the size before anything is built or imported: a 10^8-point grid or n = 10^15 answers at once
    points_count = math.prod(len(v) for v in grid.values()) if grid is not None else len(spec.variants or [])
    check_size(source, points_count, len(spec.policies), spec.n, force)
    try:
        game = games(spec.game)
    except DicesimError as e:
        raise ConfigError(f"{source}: game: {e}") from None
    for key, values in (grid or {}).items():
        _own_key(source, game, key, values)
    written = {}
    for name, v in spec.options.items():
        if name in OWN_KEYS and name not in {o.name for o in game.option_specs}:
            raise ConfigError(f"{source}: [options] {name}: {name} is the sweep file's own key "
                              f"({name} = {toml_said(v)}, written above [options]), not a game option")
        try:
            written[name] = _whole_option(game, name, v)
        except DicesimError as e:
            raise ConfigError(f"{source}: [options] {name} = {toml_said(v)}: {e}") from None
    try:
        options = game.check_options(for_play(game.name, written))
    except DicesimError as e:
        raise ConfigError(f"{source}: [options]: {e}") from None
    if grid is not None and not any(k.startswith(OPTION_AXIS) for k in grid):  # the options the same at every point
        for key in grid:  # a field these options never read: every point would play the same (calibrate refuses it)
            said = unread_refusal(key, game.option_specs, options, "sweep")
            if said:
                raise ConfigError(f"{source}: [grid] {said}")
    labels = [p.strip() for p in spec.policies]
    if len(set(labels)) != len(labels):
        raise ConfigError(f"{source}: policies: {labels} names a policy twice")
    try:
        for p in labels:
            game.seat_policies(p, options)
        plan = [(label, list(seats)) for label, seats in game.compare_plan(labels, options)]
    except DicesimError as e:
        raise ConfigError(f"{source}: policies: {e}") from None
    if grid is not None:  # a field only policies no seat plays read (Dadox's policies.greedy_bank_at under threshold)
        seats = [s for _, ss in plan for s in ss] + [v for v in grid.get(f"{OPTION_AXIS}opponent", [])
                                                      if isinstance(v, str)]
        for key in grid:
            said = policy_refusal(game.name, key, seats, "sweep")
            if said:
                raise ConfigError(f"{source}: [grid] {said}")
    base = _resolve(spec.config, base_dir)
    try:
        base_cfg = point_config(game, base, {})
    except DicesimError as e:
        raise ConfigError(f"{source}: config: {e}") from None

    points: list[Point] = []
    fields: list[str] = []
    base_values: dict[str, Any] = {}
    if spec.variants is not None:
        if not spec.variants:
            raise ConfigError(f"{source}: [[variants]] is empty (no points to play)")
        names = [v.name for v in spec.variants]
        dup = sorted({x for x in names if names.count(x) > 1})
        if dup:
            raise ConfigError(f"{source}: variants: the name {dup[0]!r} is used twice")
        for i, v in enumerate(spec.variants):
            try:
                sets = flatten(v.set)
            except ConfigError as e:
                raise ConfigError(f"{source}: variant {v.name!r}: {e}") from None
            cpath = _resolve(v.config, base_dir) if v.config else base
            try:
                cfg = point_config(game, cpath, sets)
            except DicesimError as e:
                raise ConfigError(f"{source}: variant {v.name!r}: {e}") from None
            same = next((p.label for p in points if _rules(p.cfg) == _rules(cfg)), None)
            if same is not None:  # two names for one rule set: played twice, compared with itself (as a grid value)
                raise ConfigError(f"{source}: variant {v.name!r} plays the same rules as {same!r}: give each variant "
                                  "rules of its own")
            points.append(Point(i, v.name, {}, v.name, sets, cpath, cfg, config_hash(cfg)))
    elif grid is not None:
        held: dict[str, list[Any]] = {}  # each field's values as the validated config holds them
        for key, values in grid.items():
            held[key] = [_grid_value(source, game, base, options, key, v) for v in values]  # each named on refusal
            _refuse_twice(source, key, values, held[key])
            base_values[key] = (options.get(key[len(OPTION_AXIS):]) if key.startswith(OPTION_AXIS)
                                else field_value(base_cfg, key))
        fields = list(grid)
        for i, (combo, raw) in enumerate(zip(itertools.product(*held.values()), itertools.product(*grid.values()),
                                             strict=True)):
            values = dict(zip(fields, combo, strict=True))  # the table's columns: one type each ("expert" is 1.0)
            sets = {k: v for k, v in zip(fields, raw, strict=True) if not k.startswith(OPTION_AXIS)}  # as written
            label = point_label(values)
            try:
                cfg = point_config(game, base, sets)
                opts = _point_options(game, options, values) if len(sets) < len(values) else None
                own = _point_plan(game, labels, plan, opts) if opts is not None else None
            except DicesimError as e:
                raise ConfigError(f"{source}: [grid] point {label}: {e}") from None
            points.append(Point(i, label, values, None, sets, base, cfg, config_hash(cfg), opts, own))
    else:
        raise ConfigError(f"{source}: needs a [grid] over config fields or a list of [[variants]]")
    if grid is not None:  # a field the rules of every point leave unread (Dungeon24's ability of no side's people)
        cases = [(p.cfg, p.options if p.options is not None else options) for p in points]
        for key in (k for k in fields if not k.startswith(OPTION_AXIS)):
            because = unread_at_every(game.name, key, cases)
            if because is not None:
                raise ConfigError(f"{source}: [grid] {key} is not used at any point"
                                  f"{f' ({because})' if because else ''}: give a side a people with it in [options]")
    try:
        for p in points:
            for _, seats in p.plan or plan:
                game.check_plan(p.cfg, seats)
    except DicesimError as e:
        raise ConfigError(f"{source}: policies: {e}") from None
    for p in points:  # n runs as whole players at every point, as play --n checks it (60 runs of 7 games was taken)
        skill = getattr(p.cfg, "skill", None)
        if skill is not None and spec.n % skill.games_per_player:
            raise ConfigError(f"{source}: point {p.label}: n = {spec.n:,} is no whole number of players of "
                              f"{skill.games_per_player:,} games each (skill.games_per_player): give a multiple")
    _check_metrics(source, game, spec.metrics, points, plan, options)
    chunk = spec.chunk or game.chunk
    return Sweep(spec, source, game, options, plan, points, fields, base, base_values, chunk)


def _check_metrics(source: str, game: Game, metrics: list[str], points: list[Point], plan: list[tuple[str, list[str]]],
                   options: dict[str, Any]) -> None:
    """Every charted metric must be one a point reports with a policy (the names the game declares for its rules,
    options and seats, ``Game.check_metric``): refused before any run, not charted as something else."""
    twice = next((m for i, m in enumerate(metrics) if m in metrics[:i]), None)
    if twice is not None:  # charted twice, side by side, as the policies named twice are refused
        raise ConfigError(f"{source}: metrics: {twice} is named twice: name each metric once")
    missing = list(dict.fromkeys(metrics))
    for p in points:
        for _, seats in p.plan or plan:
            names = game.metric_names(p.cfg, p.options or options, seats)
            missing = [m for m in missing if names is not None and m not in names]
            if not missing:
                return
    try:
        game.check_metric(missing[0], points[0].cfg, points[0].options or options, (points[0].plan or plan)[0][1])
    except DicesimError as e:
        raise ConfigError(f"{source}: metrics: {e}") from None


def _grid(source: str, raw: dict[str, Any]) -> dict[str, list[Any]]:
    """The ``[grid]`` as field -> values, each a non-empty list, each field named once."""
    try:
        grid = flatten(raw, leaf=lambda v: not isinstance(v, dict))
    except ConfigError as e:
        raise ConfigError(f"{source}: [grid] {e}") from None
    if not grid:
        raise ConfigError(f"{source}: [grid] is empty (name at least one field and its values)")
    for key, values in grid.items():
        if not all(key.split(".")):  # it said "--set has an empty field name", of a file without --set
            raise ConfigError(f'{source}: [grid] "{key}" has an empty field name between its dots')
        spaced = next((k for k in key.split(".") if k != k.strip()), None)
        if spaced is not None:  # " bonus.value" became a column of that name, every point the default's value
            raise ConfigError(f"{source}: [grid] {key!r}: {spaced!r} has a space at an end")
        if not isinstance(values, list):
            raise ConfigError(f"{source}: [grid] {key} must be a list of values, got {toml_said(values)}")
        if not values:
            raise ConfigError(f"{source}: [grid] {key} has no values")
        if key.split(".")[0] == "assumed":  # a label of the designer's numbers: every point would play one rule set
            raise ConfigError(f"{source}: [grid] assumed changes no rule (it lists the values the designer "
                              "assumed): every point would play the same rules")
        wider = next((k for k in grid if k != key and (key.startswith(k + ".") or k.startswith(key + "."))), None)
        if wider is not None:  # the later one would silently win (or the point be refused half-way)
            first, then = (wider, key) if list(grid).index(wider) < list(grid).index(key) else (key, wider)
            raise ConfigError(f'{source}: [grid] "{first}" and "{then}" overlap: sweep each field once')
    return grid


OPTION_AXIS = "options."  # a [grid] key naming a game option (e.g. "options.difficulty"), not a config field


def _point_plan(game: Game, labels: list[str], plan: list[tuple[str, list[str]]], options: dict[str, Any]
                ) -> list[tuple[str, list[str]]] | None:
    """The policies' seats under a point's own options (None: the sweep's); refused where the options change what
    is compared (Dadox alone against head to head), which one table of rows per policy cannot hold."""
    for p in labels:
        game.seat_policies(p, options)
    own = [(label, list(seats)) for label, seats in game.compare_plan(labels, options)]
    if [label for label, _ in own] != [label for label, _ in plan]:
        raise ConfigError(f"these options compare {', '.join(label for label, _ in own)} instead of "
                          f"{', '.join(label for label, _ in plan)}: sweep them in files of their own")
    return None if own == plan else own


def _grid_value(source: str, game: Game, base: str | None, options: dict[str, Any], key: str, v: Any) -> Any:
    """One grid value checked alone (the refusal names the field and the value) and returned as the validated
    config or options hold it: ``"expert"`` and ``1`` of a float field are both ``1.0``, so a point is one point and
    the table's column one type. A value the config's dump leaves out (a default it omits) stays as written."""
    try:
        if key.startswith(OPTION_AXIS):
            v = _whole_option(game, key[len(OPTION_AXIS):], v)
            return _point_options(game, options, {key: v})[key[len(OPTION_AXIS):]]
        held = field_value(point_config(game, base, {key: v}), key)
    except DicesimError as e:
        raise ConfigError(f"{source}: [grid] {key} = {toml_said(v)}: {e}") from None
    return v if held is None else held


def _refuse_twice(source: str, key: str, written: list[Any], held: list[Any]) -> None:
    """Every grid value once, compared as the config holds them (``[1.0, "expert"]`` is one skill level twice)."""
    seen: dict[str, int] = {}
    for j, v in enumerate(held):
        first = seen.setdefault(json.dumps(_jsonable(v), sort_keys=True), j)
        if first != j:
            a, b = toml_said(written[first]), toml_said(written[j])
            same = f"{a} and {b} are both {toml_said(v)}" if a != b else f"{a} is listed twice"
            raise ConfigError(f"{source}: [grid] {key} lists a value twice: {same}; give each value once")


OWN_KEYS = frozenset(SweepFile.model_fields) - {"grid", "variants", "options"}  # seed, n, policies, ...


def _own_key(source: str, game: Game, key: str, values: list[Any]) -> None:
    """A grid over one of the sweep file's own keys (``options.seed``, ``n``) is no option or config field of the
    game: said so, not 'option --seed does not apply to kniffel'."""
    option = key.startswith(OPTION_AXIS)
    name = key[len(OPTION_AXIS):] if option else key
    if name not in OWN_KEYS or (name in {o.name for o in game.option_specs} if option
                                else name in getattr(game.Config, "model_fields", {})):
        return
    raise ConfigError(f"{source}: [grid] {key}: {name} is the sweep file's own key "
                      f"({name} = {toml_said(values[0])}, written above [grid]), not a grid axis")


def whole_options(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """A file's game options with its whole-numbered ones read as counts (``players = 2.0`` is 2), as ``[options]``
    of a sweep reads them; a tune or targets file said "--players must be int" where a sweep took it."""
    out = {}
    for name, v in options.items():
        try:
            out[name] = _whole_option(game, name, v)
        except DicesimError as e:
            raise ConfigError(f"options: {name} = {toml_said(v)}: {e}") from None
    return out


def _whole_option(game: Game, name: str, v: Any) -> Any:
    """An option that takes a whole number read as a count in the file is (``players = 2.0`` is 2, as ``n = 2e2``
    and ``play --players 2.0`` are); anything else for it refused in the file's words."""
    spec = next((o for o in game.option_specs if o.name == name), None)
    if spec is None or spec.type is not int or (v is None and spec.default is None):
        return v
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise DicesimError("must be a whole number")
    return v


def _rules(cfg: Strict) -> str:
    """A config's rules, compared: its dump without ``assumed`` (which labels the designer's numbers, no rule)."""
    return json.dumps({k: v for k, v in cfg.model_dump(mode="json").items() if k != "assumed"}, sort_keys=True)


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def toml_said(v: Any, width: int = 40) -> str:
    """A value of the file as TOML writes it (``{value = 30}``, ``[1, 2]``, ``true``; not Python's
    ``{'value': 30}`` or ``True``), cut to ``width`` characters so the error line stays one short line."""
    def text(x: Any) -> str:
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, dict):
            return "{" + ", ".join(f"{k if _BARE.fullmatch(str(k)) else json.dumps(str(k), ensure_ascii=False)} = "
                                   f"{text(y)}" for k, y in x.items()) + "}"
        if isinstance(x, list | tuple):
            return "[" + ", ".join(text(y) for y in x) + "]"
        if isinstance(x, str):  # a literal string where it can be one ('expert'), else a basic one
            return repr(x) if repr(x)[0] == "'" and "\\" not in repr(x) else json.dumps(x, ensure_ascii=False)
        if hasattr(x, "isoformat"):
            return x.isoformat()
        return repr(x.item() if hasattr(x, "item") else x)

    out = text(v)
    return out if len(out) <= width else out[: width - 1] + "…"


def _point_options(game: Game, options: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The sweep's options with the point's swept ones (``options.NAME`` keys) in their place, checked."""
    swept = {k[len(OPTION_AXIS):]: v for k, v in values.items() if k.startswith(OPTION_AXIS)}
    return game.check_options({**options, **for_play(game.name, swept)})




# --- files ------------------------------------------------------------------------------------


