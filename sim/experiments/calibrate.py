"""Calibration: the value of one config field that makes a metric hit a target.

``calibrate(game, field, metric, target, policy, …)`` plays the same runs (same seed, so paired:
the estimated metric is a fixed function of the field, with no fresh noise between evaluations)
at trial values of ``field`` and searches for the target with a bracketing root search:

1. Bracket: from ``lo``/``hi`` when given, else from the config's current value stepping (doubling
   the step) in the direction that moves the metric toward the target, inside the field's allowed
   range (the config model's ``ge``/``le`` bounds, narrowed by what the rest of the rules and the seats accept:
   ``sim.games.options.accepted``), until the metric crosses the target.
2. Refine: Illinois false position inside the bracket (integer fields: on integers, or on the field's grid such as
   Dadox's points unit, down to two neighbouring values) until the metric is within the tolerance of the target.

Every value tried is one the rules and the seats accept: the ends of the search and its start are checked (the config,
``Game.check_plan`` and the accepted values) before any play, and each trial value is the accepted one nearest the
search's.

The tolerance is stated: ``tol`` in metric units, by default a tenth of the 95 % half-width of
the first estimate (paired evaluations make finer steps meaningful, but the level itself is only
known to its interval, which the result reports for the metric and, mapped back, for the field). The result carries the
metric's estimate and 95 % interval at the chosen value, every evaluation, the final bracket and an
approximate 95 % interval for the field value itself (the metric interval mapped through the local
slope: :func:`local_slope`, a secant over at least the metric's own interval, not over the last bracket).
"""

from __future__ import annotations

import math
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sim.core.batch import run_batch
from sim.core.config import (
    DicesimError,
    Strict,
    config_hash,
    field_setting,
    numeric_field,
    rule_notes,
    search_bounds,
)
from sim.core.errors import Unreached
from sim.core.limits import check_calibration, is_rate, parse_target  # noqa: F401 - parse_target: re-exported (api, tests)
from sim.games.base import Game
from sim.games.options import (  # noqa: F401 - OPEN_END, Accepted: re-exported
    OPEN_END,
    Accepted,
    accepted,
    field_bounds,
    policy_refusal,
    rules_refusal,
    unread_refusal,
)
from sim.report.words import metric_name, metric_text, value_text


@dataclass
class Evaluation:
    x: float
    value: float
    ci95: list[float]


@dataclass
class Calibration:
    """The outcome of a calibration (``to_dict`` for JSON)."""
    game: str
    field: str
    metric: str
    target: float
    policy: str
    n: int
    seed: int
    value: float | int  # the field value chosen
    estimate: dict[str, Any]  # the metric there: value and ci95
    tolerance: str
    converged: bool
    stop: str
    bracket: list[float]
    field_ci95: list[float]
    config_hash: str
    evaluations: list[Evaluation] = field(default_factory=list)
    start: float | int | None = None  # the field's value in the config, for reference beside the answer
    notes: list[str] = field(default_factory=list)  # what the chosen rules do against the seed's design (``notes``)
    setting: list[str] = field(default_factory=list)  # the options the runs played, in words ("difficulty: Normal")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


DEFAULT_TOL_SHARE = 0.1


def refuse_unread(fld: str, game: Game, options: dict[str, Any], doing: str, seats: list[str], cfg: Any) -> None:
    """A field this run never reads (``difficulty.leicht.hp`` with ``--difficulty normal``; a field only a policy
    no seat plays reads; what these rules ``cfg`` leave unread, as Dungeon24's ability of a people neither side
    plays): every evaluation would play the same and the search end in a refusal after all that play; refused
    before any."""
    said = (unread_refusal(fld, game.option_specs, options, doing) or policy_refusal(game.name, fld, seats, doing)
            or rules_refusal(game.name, fld, cfg, options))
    if said:
        raise DicesimError(said)


class _Evaluator:
    """The metric at a field value (the accepted value nearest it), on the same seeds every time (cached per value)."""
    def __init__(self, game: Game, config: str | Path | None, sets: list[str], fld: str, metric: str, seats: list[str],
                 n: int, seed: int, options: dict[str, Any], backend: Any, log: bool, integer: bool,
                 takes: Accepted):
        self.game, self.config, self.sets, self.field, self.metric = game, config, sets, fld, metric
        self.seats, self.n, self.seed, self.options, self.backend, self.log = seats, n, seed, options, backend, log
        self.integer, self.takes = integer, takes
        self.grid = takes.step or (1.0 if integer else 0.0)  # the smallest move between accepted values (0: any)
        self.cache: dict[float, Evaluation] = {}

    def cfg(self, x: float) -> Strict:
        return self.game.load(self.config, [*self.sets, field_setting(self.field, x, self.integer)])

    def check(self, x: float, where: str, fix: str) -> None:
        """Refuse, before any play, an end or the start of the search (``where``: ``--hi``) that these rules and seats
        do not accept: outside the accepted values, refused by the config or by ``Game.check_plan``."""
        t, shown = self.takes, _shown(x, self.integer)
        if not t.holds(x):
            why = t.why or "not accepted with these rules and seats"
            if t.low > t.high:
                raise DicesimError(f"{self.field}: no value is accepted with these rules and seats ({why})")
            raise DicesimError(f"{self.field} {shown} ({where}): {why}; {fix} within {t.span()}, "
                               f"e.g. {_shown(t.nearest(x), self.integer)}")
        try:
            self.game.check_plan(self.cfg(x), self.seats)
        except DicesimError as e:
            raise DicesimError(f"{self.field} {shown} ({where}) cannot be played: {e}; {fix} another value") from None

    def __call__(self, x: float) -> Evaluation:
        x = self.takes.nearest(float(int(round(x))) if self.integer else float(x))
        if x in self.cache:
            return self.cache[x]
        cfg = self.cfg(x)
        b = run_batch(self.game, cfg, self.seats, self.n, self.seed, self.options, chunk=self.game.chunk,
                      backend=self.backend, progress=False)
        metrics = self.game.metrics(b.table, self.options, cfg)
        if self.metric not in metrics:
            raise DicesimError(f"unknown metric {self.metric!r} for {self.game.name} "
                               f"(choose from {', '.join(metrics)})")
        m = metrics[self.metric]
        v = float(m["value"])
        ci = [float(c) for c in m["ci95"][:2]] if m.get("ci95") else [v, v]
        ev = Evaluation(int(x) if self.integer else x, v, ci)
        self.cache[x] = ev
        if self.log:
            shown = f"{int(x)}" if self.integer else f"{x:.6g}"
            said = metric_text(self.game.name, self.metric, v, ci if m.get("ci95") else None)  # a quantile has none
            print(f"  {self.field} = {shown:>10}  ->  {said}", file=sys.stderr)
        return ev


def _shown(x: float, integer: bool) -> str:
    return f"{int(x)}" if integer else f"{x:g}"


def calibrate(
    game: Game,
    fld: str,
    metric: str,
    target: float,
    policy: str,
    n: int = 20_000,
    seed: int = 1,
    config: str | Path | None = None,
    sets: list[str] | None = None,
    options: dict[str, Any] | None = None,
    lo: float | None = None,
    hi: float | None = None,
    tol: float | None = None,
    max_evals: int = 30,
    backend: Any = None,
    log: bool = False,
    force: bool = False,
) -> Calibration:
    """Find the value of ``fld`` where ``metric`` (for ``policy``) hits ``target``; see the module doc."""
    check_calibration(n, seed, target, lo, hi, tol, max_evals, force)
    options = game.check_options(dict(options or {}))
    label, seats = game.compare_plan([policy], options)[0]
    sets = list(sets or [])
    base = game.load(config, sets)
    game.check_metric(metric, base, options, seats)  # before any batch (the names a batch of these seats reports)
    if is_rate(metric) and not 0.0 <= target <= 1.0:
        raise DicesimError(f"{metric} is a rate: its --target must lie in [0, 1], got {target:g}")
    current = numeric_field(base, fld, lambda extra: game.load(config, [*sets, *extra]))
    integer = isinstance(current, int)
    takes = accepted(base, fld, seats, *field_bounds(type(base), fld))  # a default range stays inside it
    ev = _Evaluator(game, config, sets, fld, metric, seats, n, seed, options, backend, log, integer, takes)
    search_bounds(current, fld, lo, hi, lambda extra: game.load(config, [*sets, *extra]))  # before any work
    refuse_unread(fld, game, options, "calibrate", seats, base)
    for x, flag in ((lo, "--lo"), (hi, "--hi")):
        if x is not None:
            ev.check(float(x), flag, f"give {flag}")
    if lo is None and hi is None:
        ev.check(float(current), "its value in the config, where the search starts", "give --lo and --hi")

    def g(e: Evaluation) -> float:
        return e.value - target

    stated = {"tol": tol, "how": "given"}

    def within(e: Evaluation) -> bool:
        if stated["tol"] is None:  # default: a tenth of the first estimate's 95 % half-width
            stated["tol"] = DEFAULT_TOL_SHARE * (e.ci95[1] - e.ci95[0]) / 2
            stated["how"] = f"{DEFAULT_TOL_SHARE:g} x the 95 % half-width"
        return abs(g(e)) <= stated["tol"]

    def done(e: Evaluation, stop: str, a: Evaluation, b: Evaluation) -> Calibration:
        res = _result(game, fld, metric, target, label, n, seed, e, stated, stop, a, b, ev, integer)
        res.start = current
        res.setting = game.played_setting(options)
        return res

    # 1. bracket
    if lo is not None and hi is not None:
        a, b = ev(lo), ev(hi)
    else:
        x0 = float(lo if lo is not None else hi if hi is not None else current)
        e0 = ev(x0)
        if within(e0):
            return done(e0, "within tolerance", e0, e0)
        step = max(ev.grid, round(abs(x0) * 0.1 / ev.grid) * ev.grid) if ev.grid else (abs(x0) * 0.1 or 0.1)
        a, b = _expand(ev, e0, step, target, max_evals, fld, metric)
    if a.x > b.x:
        a, b = b, a
    if g(a) * g(b) > 0:
        side = "above" if g(a) > 0 else "below"
        raise Unreached(
            f"{_target_said(ev, target)} not crossed: {fld}={a.x:g} gives {_said(ev, a.value)}, {fld}={b.x:g} "
            f"{_said(ev, b.value)} (both {side}); give --lo and --hi that bracket the target"
        )
    for e in (a, b):
        if within(e):
            return done(e, "within tolerance", a, b)

    # 2. refine (Illinois false position; integer fields on integers, a field with a grid on its grid)
    ga, gb, side = g(a), g(b), 0
    xtol = ev.grid or (b.x - a.x) * 1e-4
    while len(ev.cache) < max_evals:
        if b.x - a.x <= xtol:
            best = min((a, b), key=lambda e: abs(g(e)))
            return done(best, "bracket resolved", a, b)
        x = (a.x * gb - b.x * ga) / (gb - ga) if gb != ga else (a.x + b.x) / 2
        if ev.grid:
            x = min(max(ev.takes.nearest(x) if ev.takes.step else round(x), a.x + ev.grid), b.x - ev.grid)
        elif not a.x < x < b.x:
            x = (a.x + b.x) / 2
        e = ev(x)
        if within(e) or g(e) == 0:
            return done(e, "within tolerance", a, b)
        if g(e) * g(b) > 0:
            b, gb = e, g(e)
            if side == -1:
                ga /= 2
            side = -1
        else:
            a, ga = e, g(e)
            if side == 1:
                gb /= 2
            side = 1
    best = min((a, b), key=lambda e: abs(g(e)))
    return done(best, "max evaluations", a, b)


def _expand(ev: _Evaluator, e0: Evaluation, step: float, target: float, max_evals: int, fld: str,
            metric: str) -> tuple[Evaluation, Evaluation]:
    """Walk from e0 toward the target (doubling steps, inside the accepted values) until the metric crosses it."""
    clamp = ev.takes.nearest

    g0 = e0.value - target
    probe = clamp(e0.x + step)
    if probe == e0.x:
        probe = clamp(e0.x - step)
    e1 = ev(probe)
    if (e1.value - target) * g0 <= 0:
        return e0, e1
    slope = (e1.value - e0.value) / (e1.x - e0.x)
    # head where the metric moves toward the target; when flat, try the other side of e0 first
    direction = (1.0 if (target - e0.value) * slope > 0 else -1.0) if slope != 0 else math.copysign(1.0, e0.x - e1.x)
    last = e1 if (e1.x - e0.x) * direction > 0 else e0
    tried_other = False
    while len(ev.cache) < max_evals:
        step *= 2
        x = clamp(last.x + direction * step)
        if x == last.x:
            if tried_other or slope != 0:
                break
            tried_other, direction, last = True, -direction, e0
            continue
        e = ev(x)
        if (e.value - target) * (last.value - target) <= 0:
            return last, e
        last = e
    got = [e.value for e in ev.cache.values()]  # short enough for one error line: the advice must not be cut off
    raise Unreached(
        f"{_target_said(ev, target)} not reached: {fld} {min(ev.cache):g}..{max(ev.cache):g} gave "
        f"{_span(ev, min(got), max(got))} ({len(ev.cache)} tries); give --lo and --hi to search a range of your own"
    )


def _target_said(ev: _Evaluator, target: float) -> str:
    """The target in the words the progress lines use: ``the first seat wins 60.0 %`` (not ``win_rate_seat_0 =
    0.6``)."""
    return metric_text(ev.game.name, ev.metric, target)


def _said(ev: _Evaluator, value: float) -> str:
    """A value of the metric in its unit (``42.0 %``, ``208.0 points``)."""
    return value_text(ev.metric, value, game=ev.game.name)


def _span(ev: _Evaluator, lo: float, hi: float) -> str:
    """``42.0..54.0 %``: two values of the metric, their unit said once."""
    a, b = _said(ev, lo), _said(ev, hi)
    number, _, unit = a.partition(" ")
    return f"{number}..{b}" if unit and b.endswith(f" {unit}") else f"{a}..{b}"


def local_slope(evaluations: list[Evaluation], e: Evaluation, half: float) -> float:
    """The metric's slope in the field around ``e``, as a secant over the span where the metric moves by at least its
    own 95 % half-width on each side: on paired runs the metric is a step function of the field, so the secant of
    the last, narrowest bracket measures one step (a jump over 0.0001 of a field) and maps the metric's interval to
    a field interval far narrower than its sampling error allows. On each side the nearest evaluation at least
    ``half`` away in the metric, else the farthest one; NaN when no evaluation lies beside ``e``."""
    def side(sign: float) -> Evaluation | None:
        beside = sorted((v for v in evaluations if (v.x - e.x) * sign > 0), key=lambda v: abs(v.x - e.x))
        far = [v for v in beside if abs(v.value - e.value) >= half]
        return far[0] if far else (beside[-1] if beside else None)

    lo, hi = side(-1.0) or e, side(1.0) or e
    return (hi.value - lo.value) / (hi.x - lo.x) if hi.x != lo.x else math.nan


def _result(game: Game, fld: str, metric: str, target: float, label: str, n: int, seed: int, e: Evaluation,
            stated: dict[str, Any], stop: str, a: Evaluation, b: Evaluation, ev: _Evaluator,
            integer: bool) -> Calibration:
    half = (e.ci95[1] - e.ci95[0]) / 2
    slope = local_slope(list(ev.cache.values()), e, half)
    if math.isfinite(slope) and slope != 0:
        w = half / abs(slope)
        low, high = field_bounds(type(ev.cfg(e.x)), fld)  # a value the field cannot take is no interval's end
        fci = [max(e.x - w, low), min(e.x + w, high)]
    else:
        fci = [math.nan, math.nan]
    tol_txt = (f"{metric_name(game.name, metric)} within {value_text(metric, stated['tol'], diff=True).lstrip('+')} "
               f"of {value_text(metric, target)} ({stated['how']})")
    converged = stop != "max evaluations"
    return Calibration(
        game=game.name, field=fld, metric=metric, target=target, policy=label, n=n, seed=seed,
        value=int(e.x) if integer else e.x, estimate={"value": e.value, "ci95": e.ci95}, tolerance=tol_txt,
        converged=converged, stop=stop, bracket=[a.x, b.x], field_ci95=fci,
        config_hash=config_hash(ev.cfg(e.x)),
        evaluations=sorted(ev.cache.values(), key=lambda z: z.x),
        notes=rule_notes(ev.cfg(e.x)),
    )
