"""Balance targets: bands a metric must stay in, checked with intervals (``dicesim check``).

A targets file (``configs/targets/*.toml``) lists bands; top-level ``game``, ``n``, ``seed``,
``config`` and ``[options]`` are defaults every ``[[target]]`` may override::

    game = "kniffel"
    n = 20000
    seed = 1

    [[target]]
    name = "greedy averages 200-215 points"
    policy = "greedy"
    metric = "mean_score"
    min = 200
    max = 215
    # optional: set = {"bonus.value" = 40}, config = "...", options = {players = 2}, n = ..., game = ...

Targets with the same game, config, options, seats, N and seed share one batch. Each band gets a
verdict from the estimate and its 95 % interval:

- ``pass``: the whole interval lies inside the band;
- ``pass (unsure)``: the estimate is inside but the interval crosses an edge;
- ``fail (unsure)``: the estimate is outside but the interval reaches into the band;
- ``fail``: the whole interval lies outside the band.

A band fails the check when its estimate is outside (``fail``, ``fail (unsure)``); with
``strict`` every band whose interval is not wholly inside fails, and says so (``fail (strict: unsure)``,
``fail (strict: no interval)``: a row that read "pass" was counted failing). Same seed, same verdicts.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

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
    describe_validation_error,
    read_toml,
    shown_path,
)
from sim.experiments.sweep_spec import _resolve, flatten, point_config, whole_options
from sim.games import get_game
from sim.games.base import Game
from sim.games.options import for_play, policy_refusal, rules_refusal, unread_refusal
from sim.report import words


class Target(Strict):
    name: Name = Field(min_length=1)
    policy: PolicyLabel
    metric: str
    min: float | None = None
    max: float | None = None
    game: GameName | None = None
    config: str | None = None
    set: dict[str, Any] = {}
    options: dict[str, Any] | None = None
    n: Whole | None = Field(None, gt=0, le=limits.HARD_MAX_RUNS)
    seed: Seed | None = None


class TargetsFile(Strict):
    title: Name | None = None
    description: Prose | None = None
    game: GameName | None = None
    n: Whole = Field(20_000, gt=0, le=limits.HARD_MAX_RUNS)
    seed: Seed = 1
    config: str | None = None
    options: dict[str, Any] = {}
    target: list[Target] = Field(min_length=1)


@dataclass
class Band:
    """One validated target: what to play and the band its metric must stay in."""
    index: int
    name: str
    game: Game
    cfg: Strict
    options: dict[str, Any]
    label: str
    seats: list[str]
    metric: str
    lo: float | None
    hi: float | None
    n: int
    seed: int

    def key(self) -> tuple:
        return (self.game.name, config_hash(self.cfg), json.dumps(self.options, sort_keys=True, default=str),
                tuple(self.seats), self.n, self.seed)


@dataclass
class Verdict:
    name: str
    game: str
    policy: str
    metric: str
    min: float | None
    max: float | None
    value: float
    ci95: list[float] | None  # None: the metric has no interval (a quantile)
    status: str
    failing: bool
    n: int
    seed: int
    config_hash: str
    setting: str = ""  # the options the band plays, in words ("difficulty: Normal"): the name alone said it


def load_targets(path: str | Path, games: Callable[[str], Game] = get_game) -> list[Band]:
    """Read and validate a targets file: games, policies, options and configs are checked before any work
    (``games``: the game of a name; the command line passes ``sim.cli.work.files.RulesOnly`` first)."""
    path = Path(path)
    src = shown_path(path)
    data = read_toml(path, "targets file")
    try:
        spec = TargetsFile.model_validate(data)
    except ValidationError as err:
        raise ConfigError(f"{src}: {describe_validation_error(err, 'targets file')}") from None
    bands = []
    base_dir = path.resolve().parent
    for i, t in enumerate(spec.target):
        where = f"{src}: target {i + 1} ({t.name})"
        try:
            name = t.game or spec.game
            if not name:
                raise ConfigError("game: not given (set game at the top or in the target)")
            game = games(name)
            options = game.check_options(for_play(name, whole_options(game, dict(spec.options if t.options is None
                                                                                 else t.options))))
            label, seats = game.compare_plan([t.policy], options)[0]
            for key in flatten(t.set):  # a field these options never read would set nothing (calibrate refuses it)
                said = unread_refusal(key, game.option_specs, options, "set") or policy_refusal(name, key, seats, "set")
                if said:
                    raise ConfigError(f"set: {said}")
            cfg = point_config(game, _resolve(t.config or spec.config, base_dir), flatten(t.set))
            said = next((w for key in flatten(t.set) if (w := rules_refusal(name, key, cfg, options))), None)
            if said:  # what these rules leave unread (Dungeon24's ability of a people neither side plays)
                raise ConfigError(f"set: {said}")
            game.check_plan(cfg, seats)
            game.check_metric(t.metric, cfg, options, seats)  # before any batch: the names it declares
            if any(b.name == t.name for b in bands):
                raise ConfigError("a target of this name is given already: name each target once")
            if t.min is None and t.max is None:
                raise ConfigError("give min, max or both")
            if t.min is not None and t.max is not None and t.min > t.max:
                raise ConfigError(f"min {t.min:g} is above max {t.max:g}")
            for end, v in (("min", t.min), ("max", t.max)):
                if v is not None and limits.is_rate(t.metric) and not 0.0 <= v <= 1.0:  # as tune and calibrate
                    raise ConfigError(f"{end} {v:g}: {t.metric} is a rate, a band in [0, 1] (0.5 is 50 %)")
        except DicesimError as e:
            raise ConfigError(f"{where}: {e}") from None
        bands.append(Band(i, t.name, game, cfg, options, label, seats, t.metric, t.min, t.max,
                          t.n or spec.n, spec.seed if t.seed is None else t.seed))
    return bands


def verdict(value: float, ci: list[float] | None, lo: float | None, hi: float | None,
            strict: bool) -> tuple[str, bool]:
    """(status, failing) for an estimate and interval against a band (see the module doc); a metric without an
    interval (a quantile) is never sure, so ``strict`` fails it (it read [202, 202] and always passed)."""
    lo_b = -math.inf if lo is None else lo
    hi_b = math.inf if hi is None else hi
    inside = lo_b <= value <= hi_b
    if ci is None:
        status = "fail (strict: no interval)" if inside and strict else \
            "pass (no interval)" if inside else "fail (no interval)"
        return status, (not inside) or strict
    ci_inside = lo_b <= ci[0] and ci[1] <= hi_b
    ci_outside = ci[1] < lo_b or ci[0] > hi_b
    if inside:
        status = "pass" if ci_inside else "fail (strict: unsure)" if strict else "pass (unsure)"
    else:
        status = "fail" if ci_outside else "fail (unsure)"
    failing = status != "pass" if strict else not inside  # strict: only a sure pass holds
    return status, failing


def check_targets(bands: list[Band], strict: bool = False, n: int | None = None, backend: Any = None,
                  progress: bool = False) -> list[Verdict]:
    """Play each distinct batch once and judge every band on it."""
    from sim.core.batch import run_batch  # pandas: only to play, a targets file is checked without it

    groups: dict[tuple, list[Band]] = {}
    for b in bands:
        if n is not None:
            b.n = n
        groups.setdefault(b.key(), []).append(b)
    out: dict[int, Verdict] = {}
    for members in groups.values():
        b0 = members[0]
        said = "--n" if n is not None else f"target {b0.index + 1} ({b0.name}): n ="
        batch = run_batch(b0.game, b0.cfg, b0.seats, b0.n, b0.seed, b0.options, chunk=b0.game.chunk, backend=backend,
                          progress=progress, n_said=said)
        metrics = b0.game.metrics(batch.table, b0.options, b0.cfg)
        for b in members:
            if b.metric not in metrics:
                raise DicesimError(f"target {b.index + 1} ({b.name}): unknown metric {b.metric!r} for {b.game.name} "
                                   f"(choose from {', '.join(metrics)})")
            m = metrics[b.metric]
            v = float(m["value"])
            ci = [float(c) for c in m["ci95"][:2]] if m.get("ci95") else None
            status, failing = verdict(v, ci, b.lo, b.hi, strict)
            out[b.index] = Verdict(b.name, b.game.name, b.label, b.metric, b.lo, b.hi, v, ci, status, failing,
                                   b.n, b.seed, config_hash(b.cfg), ", ".join(b.game.played_setting(b.options)))
    return [out[i] for i in sorted(out)]


def verdict_words(v: dict[str, Any]) -> dict[str, str]:
    """A verdict's cells as a designer reads them (the text table and the check page alike): the game's title, the
    policy's and the metric's names, the band and the estimate in the metric's unit (a rate in %)."""
    g, metric = v["game"], v["metric"]

    def at(x: float) -> str:
        return words.value_text(metric, x, game=g)

    lo, hi = v["min"], v["max"]
    band = f"{at(lo)} .. {at(hi)}" if lo is not None and hi is not None else (
        f"≥ {at(lo)}" if lo is not None else f"≤ {at(hi)}")
    return {"game": get_game(g).title, "policy": words.policy_name(g, v["policy"]), "setting": v.get("setting") or "—",
            "metric": words.metric_name(g, metric), "band": band,
            "estimate": words.value_text(metric, v["value"], v["ci95"], game=g)}


def verdicts_table(verdicts: list[Verdict]) -> str:
    """A fixed-width text table of verdicts, in words and units."""
    head = ["status", "target", "game", "policy", "setting", "metric", "band", "estimate [95 %]"]
    rows = []
    for v in verdicts:
        w = verdict_words(asdict(v))
        rows.append([v.status, v.name, w["game"], w["policy"], w["setting"], w["metric"], w["band"], w["estimate"]])
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    line = "  ".join("-" * w for w in widths)
    fmt = [("  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True))).rstrip() for r in rows]
    return "\n".join(["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)).rstrip(), line, *fmt])


def verdicts_json(verdicts: list[Verdict]) -> list[dict[str, Any]]:
    return [asdict(v) for v in verdicts]
