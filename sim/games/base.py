"""What a game plugs into the engine: one ``Game`` object per game package (``game.py: GAME``).

The engine (batch, backends, stats, report, sweep, CLI) only talks to this interface, so a new game
gets play/compare/sweep/report/replay for free. A game supplies:

- ``Config``: its pydantic model (``sim.core.config.Strict``); ``load`` reads TOML + ``--set`` overrides.
- ``policies``: valid policy names; ``report_policies``: those the default report plays.
- ``option_specs`` (below): game-specific CLI options; values arrive validated by ``check_options``.
- ``play_chunk(cfg, policies, seed, start, count, options)``: the kernel's output for runs
  ``start .. start + count - 1``, packed by ``simulate`` into the per-run table (a dict of equal-length numpy arrays,
  the declared ``table_columns``). It must be a pure function of (cfg, policies, seed, run index, options):
  chunking, threads and workers never change a number. ``policies`` is one name per seat (games with one actor get
  a one-element list).
- ``metrics(table, options, cfg)``: ``{name: {"value": v, "ci95": [lo, hi]}}`` (rates and means carry ci95).
- ``charts(tables, out_dir, options, cfg)``: PNGs from the per-policy tables; returns the paths written.

A game holds no per-run state: ``metrics`` and ``charts`` get the config they describe as an argument, because
the chunks behind a table may have been simulated in another process (a Dask worker) or not at all in this one
(a resumed sweep, ``dicesim report`` rebuilding pages from a stored manifest).
- ``replay(cfg, policies, seed, run, options)``: one run, human-readable, identical to run ``run``
  of a batch with the same seed (from ``replay_log`` and ``render_replay``, below).
- ``describe(cfg)``: derived rule tables as JSON-ready dict; ``solve(cfg, options)``: exact solution
  summary (``{"value": …}``), or ``DicesimError`` where the game has none.
- ``compare_plan(policies)``: how ``compare`` pairs policies: a list of (label, seat policies) played
  on the same seeds. Default: each policy alone (solitaire pairing).

Declared once, used by the engine everywhere:

- ``option_specs``: the game's options as ``Option(name, default, type, help, choices)``; the CLI offers them
  (``--players``), ``check_options`` checks type and choices, the studio builds its inputs from them.
- ``columns`` / ``table_columns(cfg, options)``: the per-run table as ``sim.core.schema.Column``s; ``play_chunk``
  returns the kernel's output in that order and ``simulate`` packs it (``sim.core.schema.pack``).
- ``events``: the kernel's event log (``sim.core.events.EventLog``: kinds with named fields); ``replay_log`` plays one
  run with its log and ``render_replay`` turns the decoded records into text (``sim.core.events``).
- ``capabilities``: optional extras a command may ask for, ``supports(name)`` instead of probing for attributes:
  ``"matchup"`` (``matchup``/``matchup_chart``: a people/faction matrix, ``dicesim matchup``), ``"combos"``
  (``combos``: what the game finds in a cup of dice, ``dicesim combos``), ``"replay_row"`` (``replay_log``
  returns the run's rows of the per-run table in ``RunLog.table_rows``, so a replay is checked against its batch),
  ``"solve"`` (``solve``: an exact solution, ``dicesim solve``; declared exactly when the class overrides ``solve``,
  checked as the class is made, so the command line refuses a game without one before importing it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from sim.core import stats
from sim.core.config import DicesimError, Strict, load_config
from sim.core.limits import kernel_seed
from sim.core.schema import Column, pack
from sim.core.skill import skill_words
from sim.games import declared
from sim.games.options import Option, check_policy, check_seat_count, checked, cycled, metric_refusal, policy_names

if TYPE_CHECKING:
    import pandas as pd

    from sim.core.events import EventLog, Replay, RunLog
    from sim.core.skill import SkillChart

CAPABILITIES = frozenset({"matchup", "combos", "replay_row", "solve"})
__all__ = ["CAPABILITIES", "Game", "Option", "paired_headline"]


class Game:
    """Base class with the shared defaults; games override what they need."""

    name: ClassVar[str]
    title: ClassVar[str]
    Config: ClassVar[type[Strict]]
    policies: ClassVar[tuple[str, ...]]
    # a mark after which a policy name carries a variant the game reads itself (the Würfel Dungeon's
    # ``vorschlag@heilkraeuter``): only the part before it must be one of ``policies``
    policy_variant: ClassVar[str | None] = None
    report_policies: ClassVar[tuple[str, ...]]
    options: ClassVar[dict[str, Any]] = {}  # defaults by name, derived from option_specs
    option_specs: ClassVar[tuple[Option, ...]] = ()
    columns: ClassVar[tuple[Column, ...]] = ()  # the per-run table (see table_columns)
    events: ClassVar[EventLog | None] = None  # sim.core.events.EventLog of the replay kernel (None: no replay)
    capabilities: ClassVar[frozenset[str]] = frozenset()  # subset of CAPABILITIES this game offers
    chunk: ClassVar[int] = 65_536  # runs per chunk (never changes results; larger favours shared plans)
    # policies that read tables solved for the rules (``prepare`` may take seconds to minutes after a rules edit;
    # the studio then builds them in a helper process, and for the others only compiles once per policy)
    solved_policies: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "options" in cls.__dict__:
            raise TypeError(f"{cls.__name__} sets options: declare option_specs (Option(...)) instead")
        if "option_specs" in cls.__dict__:
            cls.options = {o.name: o.default for o in cls.option_specs}
        unknown = set(cls.__dict__.get("capabilities", ())) - CAPABILITIES
        if unknown:
            raise TypeError(f"{cls.__name__} declares unknown capabilities {sorted(unknown)}")
        if ("solve" in cls.capabilities) != (cls.solve is not Game.solve):
            raise TypeError(f"{cls.__name__}: declare 'solve' in capabilities exactly when the game has a solve")

    def supports(self, capability: str) -> bool:
        """Whether this game offers an optional capability (``matchup``, ``combos``, ``replay_row``, ``solve``)."""
        return capability in self.capabilities

    def option_spec(self, name: str) -> Option | None:
        return next((o for o in self.option_specs if o.name == name), None)

    def played_as(self, cfg: Strict, seats: list[str]) -> tuple[list[str], str]:
        """What beyond the policy shapes how the seats play under these rules, in words, for a play's answer (the
        skill levels: ``skill casual 0.5``; the first listed policy's where ``seats`` hold several), and a sentence
        of caution where a gap skews what the answer compares; a game adds its own (the Würfel Dungeon's start
        loadout)."""
        from sim.report.words import policy_name  # the report's words: not at the game's import

        skill = getattr(cfg, "skill", None)
        if skill is None:
            return [], ""
        names = [policy_name(self.name, p) for p in dict.fromkeys(seats)] if len(set(seats)) > 1 else None
        drawn = declared(self.name, "FIRST_MOVER") is not None and len(seats) == 2  # first mover by lot, not seat
        return skill_words(skill, len(seats), names, sides=drawn)

    def setting(self, options: dict[str, Any]) -> list[str]:
        """The options in words (``opponent's people: Grünlinge``) for report headings: never raw keys."""
        out = []
        for name, value in options.items():
            if value is None:
                continue
            spec = self.option_spec(name)
            out.append(spec.setting(value) if spec else f"{name.replace('_', ' ')}: {value}")
        return out

    def played_setting(self, options: dict[str, Any]) -> list[str]:
        """:meth:`setting` of the options runs play (``opponent: Greedy``, ``difficulty: Normal``), those of other
        commands left out (``objective``: solve's)."""
        return self.setting({k: v for k, v in options.items() if (o := self.option_spec(k)) is None or o.plays})

    def load(self, path: str | Path | None = None, overrides: list[str] | None = None) -> Strict:
        return load_config(self.Config, self.name, path, overrides)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults; reject options this game does not know and values outside an option's declared choices or
        bounds."""
        return checked(self.name, self.option_specs, options, self.policies)

    def seat_count(self, options: dict[str, Any]) -> int:
        """The seats a ``--policy`` value fills: the options module's ``seat_count(options)`` (the command line counts
        them with it before the game loads), else one."""
        count = declared(self.name, "seat_count")
        return int(count(options)) if count is not None else 1

    def seat_policies(self, policy: str, options: dict[str, Any]) -> list[str]:
        """Expand a ``--policy`` value (``a`` or ``a,b,…`` cycled over the seats) to one per seat."""
        names = policy_names(policy)
        if not names:
            raise DicesimError("no policy given")
        for p in names:
            self.check_policy(p)
        k = self.seat_count(options)
        check_seat_count(self.name, policy, k, self.option_spec("players") is not None)
        return cycled(policy, k)

    def check_policy(self, policy: str) -> None:
        check_policy(self.name, policy, self.policies, self.policy_variant)

    def check_plan(self, cfg: Strict, seats: list[str]) -> None:
        """Refuse seats these rules cannot play (a policy variant they lack, a table size a policy does not play),
        before any run: a sweep, tune or targets file is refused whole before its first batch. The check is the
        options module's ``check_plan(cfg, seats)`` (light: the command line's file checks run it too); none
        declared, nothing to check."""
        check = declared(self.name, "check_plan")
        if check is not None:
            check(cfg, seats)

    def prepare(self, cfg: Strict, policies: list[str], options: dict[str, Any]) -> None:
        """Build what the policies need before a batch (solved tables); default: nothing."""

    def table_columns(self, cfg: Strict, options: dict[str, Any]) -> tuple[Column, ...]:
        """The per-run columns of a batch under these rules and options (default: ``columns``)."""
        return self.columns

    def play_chunk(
        self, cfg: Strict, policies: list[str], seed: int, start: int, count: int, options: dict[str, Any]
    ) -> Sequence[Any]:
        """The kernel's output for runs ``start .. start + count - 1`` as blocks in declared column order."""
        raise DicesimError(f"{self.name} cannot be simulated")

    def simulate(
        self, cfg: Strict, policies: list[str], seed: int, start: int, count: int, options: dict[str, Any]
    ) -> dict[str, np.ndarray]:
        """The named per-run table of a chunk: ``play_chunk`` packed by ``table_columns`` (the seed as the kernels
        take it: ``sim.core.limits.kernel_seed``)."""
        seed = kernel_seed(seed)
        skill = getattr(cfg, "skill", None)
        if skill is not None and getattr(skill, "groups", None) and not self.skill_groups:
            raise DicesimError(f"{self.title} plays no mixture of skill levels: give [skill] one level, not groups")
        return pack(self.table_columns(cfg, options), self.play_chunk(cfg, policies, seed, start, count, options))

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: Strict) -> dict[str, dict[str, Any]]:
        return {}

    def metric_names(self, cfg: Strict, options: dict[str, Any], seats: list[str]) -> list[str] | None:
        """The names ``metrics`` reports for a batch of ``cfg`` with these options and seat policies, known before
        any run: declared by the game's config model (``GameConfig.metric_names``); None where it declares none."""
        declared = getattr(cfg, "metric_names", None)
        return declared(options, seats) if declared is not None else None

    def check_metric(self, metric: str, cfg: Strict, options: dict[str, Any], seats: list[str]) -> None:
        """Refuse a metric a batch of these rules, options and seats would not report, before any run: the closest
        names first (a case or spelling slip), then the others."""
        names = self.metric_names(cfg, options, seats)
        refusal = None if names is None else metric_refusal(self.name, metric, names, seats)
        if refusal:
            raise DicesimError(refusal)

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: Strict
    ) -> list[Path]:
        return []

    def replay_log(self, cfg: Strict, policies: list[str], seed: int, run: int, options: dict[str, Any]) -> RunLog:
        """One run with its event log: a ``sim.core.events.RunLog`` (raw log rows, facts, the run's table rows)."""
        raise DicesimError(f"{self.name} has no replay")

    def render_replay(self, replay: Replay, cfg: Strict, options: dict[str, Any]) -> str:
        """Text of a decoded replay (``sim.core.events.Replay``); the engine adds the truncation note."""
        from sim.core.events import render_generic

        return render_generic(replay, self.events)

    def replay(self, cfg: Strict, policies: list[str], seed: int, run: int, options: dict[str, Any]) -> str:
        """One run as text, exactly run ``run`` of a batch with ``seed``."""
        from sim.core.events import replay_text

        if self.events is None:
            raise DicesimError(f"{self.name} has no replay")
        return replay_text(self, cfg, policies, seed, run, options)

    # --- optional capabilities (declared in ``capabilities``) --------------------------------

    def matchup(self, cfg: Strict, policy_a: str, policy_b: str, n: int, seed: int) -> dict[str, Any]:
        raise DicesimError(f"{self.name} has no matchup")

    def matchup_chart(self, result: dict[str, Any], path: Path) -> Path:
        raise DicesimError(f"{self.name} has no matchup")

    def combos(self, dice: list[int], cfg: Strict) -> dict[str, Any]:
        raise DicesimError(f"{self.name} has no combos")

    def cup(self, cfg: Strict) -> dict[str, dict[str, Any]]:
        """``combos`` of every cup, keyed by its faces in order ("1 2 2 5 5"), each without its ``dice``."""
        raise DicesimError(f"{self.name} has no combos")

    def describe(self, cfg: Strict, options: dict[str, Any]) -> dict[str, Any]:
        return {"game": self.name, "config": cfg.model_dump(mode="json")}

    def solve(self, cfg: Strict, options: dict[str, Any]) -> dict[str, Any]:
        raise DicesimError(f"{self.name} has no exact solver")

    def compare_plan(self, policies: list[str], options: dict[str, Any]) -> list[tuple[str, list[str]]]:
        return [(p, self.seat_policies(p, options)) for p in policies]

    def balance_extras(self, cfg: Strict, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """Extra analyses for the default balance report: (title, file name in ``out``) pairs."""
        return []

    primary_metric: ClassVar[str] = "score"  # per-run column compared pairwise by ``paired``

    # What a designer reads first (dashboard card, top of the game page, ``compare``): metric name -> the words
    # the card puts before its value ("wins", "mean score"). A declared metric a batch lacks is reported as missing.
    headline: ClassVar[dict[str, str]] = {}
    # Per-run values whose mean is a headline metric (a rate: an indicator), for paired differences on the same
    # runs: metric name -> function of the per-run table (one row per run and seat; rows of a run are averaged).
    per_run: ClassVar[dict[str, Callable[[pd.DataFrame], Any]]] = {}
    # ... those that read the rules too (Kniffel's upper bonus is reached at the threshold, paid or not): used where
    # the rules are known, in place of the same name's ``per_run``
    per_run_rules: ClassVar[dict[str, Callable[[pd.DataFrame, Any], Any]]] = {}
    # the per-run values of further means whose column their name does not give (``mean_final_lp`` averages ``lp``):
    # the studio's change column pairs them run by run; not headline, so no paired row in compare
    per_run_means: ClassVar[dict[str, Callable[[pd.DataFrame], Any]]] = {}
    # What the balance report's skill chart plays (``sim.report.skill``): None, no skill chart.
    skill_chart: ClassVar[SkillChart | None] = None
    # whether the game plays a population's mixture of levels (``[skill] groups``, ``sim.core.skill.group_of``)
    skill_groups: ClassVar[bool] = False
    key_chart: ClassVar[str] = ""  # file name of the chart the dashboard shows as the game's thumbnail
    chart_notes: ClassVar[dict[str, str]] = {}  # chart file name -> one sentence saying what it shows
    # charts drawn from the rules alone (a solved strategy), not from the runs: a sweep's overlay of grid points
    # leaves them out (they would show the first point's rules under every point's name)
    rule_charts: ClassVar[tuple[str, ...]] = ()
    # Folded groups of the full metric table: (title, regex with named groups ``row`` and optional ``col``).
    metric_groups: ClassVar[tuple[tuple[str, str], ...]] = ()

    def run_values(self, table: pd.DataFrame, cfg: Strict | None = None) -> pd.DataFrame:
        """One row per run, one column per pairable headline metric (its mean is the metric); ``cfg``: the rules
        the table was played under (``per_run_rules``)."""
        cols = {}
        for name, fn in self.per_run.items():
            rules_fn = self.per_run_rules.get(name) if cfg is not None else None
            try:
                cols[name] = np.asarray(rules_fn(table, cfg) if rules_fn else fn(table), dtype=np.float64)
            except KeyError:  # a column this batch does not have (renamed, or an option turned it off)
                continue
        import pandas as pd  # lazily: `dicesim solve` never needs it

        frame = pd.DataFrame(cols, index=table["run"].to_numpy() if "run" in table.columns else None)
        return frame.groupby(level=0, sort=True).mean() if not frame.index.is_unique else frame.sort_index()

    def paired(self, tables: dict[str, pd.DataFrame], options: dict[str, Any],
               cfg: Strict | None = None) -> dict[str, dict[str, Any]]:
        """Paired differences (same runs) of every pair of labels, the later minus the earlier (``optimal -
        greedy`` as well as ``greedy - random``): each headline metric in ``per_run`` (rates included: the mean
        per-run difference of their indicators), and ``primary_metric`` where no headline metric already is it."""
        labels = list(tables)
        values = {lab: self.run_values(t, cfg) for lab, t in tables.items()}
        out: dict[str, dict[str, Any]] = {}
        col = self.primary_metric
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                out.update(paired_headline(values[a], {b: values[b]}, a))
                ta, tb = tables[a], tables[b]
                if col not in ta.columns or col not in tb.columns or len(ta) != len(tb):
                    continue
                if f"mean_{col}: {b} - {a}" in out:  # the headline's mean score is the score, paired per run
                    continue
                diff = stats.paired_difference(tb[col].to_numpy(), ta[col].to_numpy())
                if not any(k.endswith(f": {b} - {a}") and v == diff for k, v in out.items()):
                    out[f"{col}: {b} - {a}"] = diff
        return out


def paired_headline(base: pd.DataFrame, others: dict[str, pd.DataFrame], base_label: str) -> dict[str, dict[str, Any]]:
    """``"metric: other - base"``: mean per-run difference with its interval (both sides played the same runs)."""
    out: dict[str, dict[str, Any]] = {}
    for name in base.columns:  # grouped by metric: each metric's differences side by side
        for lab, t in others.items():
            if name not in t.columns or len(t) != len(base) or not t.index.equals(base.index) or len(base) < 2:
                continue
            out[f"{name}: {lab} - {base_label}"] = stats.paired_difference(t[name].to_numpy(), base[name].to_numpy())
    return out


def winner_values(table: pd.DataFrame, metric: str) -> np.ndarray | None:
    """Per run, sorted by run, the indicator a seat's share of the games (``win_rate_seat_<k>``) or the draws
    (``draw_rate``) averages, from each game's ``winner`` (on every seat's row; -1 a draw): the same runs of two
    rule sets pair run by run, where a table of a row per seat pairs no row with a run. None for another metric or a
    table without ``winner``."""
    seat = re.fullmatch(r"win_rate_seat_(\d+)", metric)
    if not (seat or metric == "draw_rate") or "winner" not in table.columns or "run" not in table.columns:
        return None
    winner = table.groupby("run", sort=True)["winner"].first().to_numpy()
    return (winner == int(seat[1]) if seat else winner < 0).astype(np.float64)
