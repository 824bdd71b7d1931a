"""A sweep, tune or targets file checked before its game loads (issue 30: a typo refused in well under a second).

The file's own checks (``sim.experiments.sweep_spec.sweep_from_dict``, ``sim.experiments.tune_file.tune_from_dict``,
``sim.experiments.targets.load_targets``) run with :class:`RulesOnly` as the game: the game as its options module
declares it (``sim.cli.catalog``). So a refusal here is the full check's own (the same code, in the same order, with
the same words); wherever the light game cannot answer as the game would (a policy value naming several seats, a
variant, a game whose options module declares no ``CONFIG``) it gives up (:class:`Unsure`) and the game decides, once
imported. A file that passes is checked again by the game (milliseconds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.cli import catalog
from sim.cli.work.rules import config_model, refuse_metric
from sim.core.config import Strict, load_config, shown_path
from sim.core.errors import DicesimError
from sim.experiments.sweep_spec import Sweep, sweep_from_dict
from sim.experiments.sweep_spec import check_started as check_started  # the command line's: a sweep's folder
from sim.experiments.targets import load_targets
from sim.experiments.tune_file import tune_from_dict
from sim.games import declared, declared_options
from sim.games.options import checked, policy_names, unknown_policy


class Unsure(Exception):
    """The light game cannot tell what the game would: the full check decides."""


class RulesOnly:
    """What a file's checks ask of a game (``load``, ``check_options``, ``seat_policies``, ``compare_plan``,
    ``metric_names``, ``check_metric``), answered without importing it, or :class:`Unsure`."""

    chunk = 1  # read when the checked file is built, which is then dropped

    def __init__(self, name: str) -> None:
        e = catalog.known(name)  # an unknown game: the registry's words, as get_game says them
        if e is None or declared(name, "plan_seats") is None:
            raise Unsure
        self.name, self.policies, self.variant, self.Config = name, e.policies, e.policy_variant, config_model(e.config)

    def load(self, path: str | Path | None = None, overrides: list[str] | None = None) -> Strict:
        return load_config(self.Config, self.name, path, overrides or [])

    @property
    def option_specs(self) -> tuple:
        """The game's options as its light options module declares them (a field the options never read)."""
        return tuple(declared_options(self.name) or ())

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return checked(self.name, declared_options(self.name) or (), options, self.policies)

    def seat_policies(self, policy: str, options: dict[str, Any]) -> None:
        """``Game.seat_policies``' refusal of one policy name (its seats are not needed here: None); a list of names,
        spaces or a variant: the game's seat rules say what is wrong."""
        if policy_names(policy) != [policy] or (self.variant and self.variant in policy):
            raise Unsure
        if policy not in self.policies:
            raise DicesimError(unknown_policy(self.name, policy, self.policies))

    def compare_plan(self, policies: list[str], options: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """The game's plan (its options module's ``compare_plan``, else each name on its ``plan_seats``)."""
        for p in policies:
            self.seat_policies(p, options)
        plan = declared(self.name, "compare_plan")
        if plan is not None:
            return plan(policies, options)
        seats = declared(self.name, "plan_seats")
        return [(p, seats(p, options)) for p in policies]

    def check_plan(self, cfg: Strict, seats: list[str]) -> None:
        if self.variant and any(self.variant in p for p in seats):
            raise Unsure  # the game's own check (seat_policies gives up on these first)
        check = declared(self.name, "check_plan")  # Game.check_plan's own check, light
        if check is not None:
            check(cfg, seats)

    def metric_names(self, cfg: Strict, options: dict[str, Any], seats: list[str]) -> list[str] | None:
        return cfg.metric_names(options, seats) if hasattr(cfg, "metric_names") else None  # Game.metric_names

    def check_metric(self, metric: str, cfg: Strict, options: dict[str, Any], seats: list[str]) -> None:
        refuse_metric(self.name, metric, cfg, options, seats)


def sweep_checked(data: dict[str, Any], path: Path, force: bool) -> Sweep | None:
    """``load_sweep``'s refusal of this file, if the light game can tell it; the sweep checked so, to be played on the
    game (``Sweep.on``: its points' configs are not built twice), or None where the light game could not tell."""
    try:
        return sweep_from_dict(data, shown_path(path), path.resolve().parent, force, RulesOnly)
    except (Unsure, AttributeError, TypeError):
        return None


def tune_checked(data: dict[str, Any], path: Path, force: bool) -> None:
    """``load_tune``'s refusal of this file, if the light game can tell it."""
    try:
        tune_from_dict(data, shown_path(path), path.resolve().parent, True, force, RulesOnly)
    except (Unsure, AttributeError, TypeError):  # TypeError/AttributeError: something only the game can answer
        return


def targets_checked(path: Path) -> None:
    """``load_targets``' refusal of this file, if the light game can tell it."""
    try:
        load_targets(path, RulesOnly)
    except (Unsure, AttributeError, TypeError):
        return
