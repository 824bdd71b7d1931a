"""The detectors' thresholds: the ``[findings]`` section of a ``--config`` file (or ``--set findings.x=v``).

A game's own config model refuses unknown sections, and a threshold is no rule of the game, so the section is read
here, apart from the game's fields: :func:`split` takes it out of the file and the overrides, the rest goes to the
game's model as every other command passes it. Light: pydantic, the standard library and the game registry only (the
CLI validates with it before any game is imported).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from sim.core.config import (
    ConfigError,
    GameName,
    PolicyLabel,
    Strict,
    parse_override,
    read_toml,
    set_once,
    set_path,
    toml_literal,
    validate,
)
from sim.games import GAMES, declared_policies
from sim.games.options import unknown_policy

SECTION = "findings"
SEAT_MIN_PP = 2.0  # a seat off its fair share by less is no finding (the play and compare pages say so too)


class FindingsConfig(Strict):
    """When a measured difference is a finding. Percentage-point thresholds are in pp (5.0 = 5 points)."""

    seat_min_pp: float = Field(SEAT_MIN_PP, ge=0, le=100,
                               description="a seat's win rate off its fair share by at least")
    seat_min_runs: int = Field(100, ge=1, le=10**9, description="games a seat finding rests on, at least")
    dominant_margin_pp: float = Field(5.0, ge=0, le=100,
                                      description="an option's lift above the median of the others by at least")
    trap_margin_pp: float = Field(5.0, ge=0, le=100,
                                  description="an option's lift below the median of the others by at least")
    dominant_gap_pp: float = Field(3.0, ge=0, le=100, description="… and above the best of the others by at least")
    trap_gap_pp: float = Field(3.0, ge=0, le=100, description="… and below the worst of the others by at least")
    min_options: int = Field(3, ge=2, le=1000, description="options compared at least (dominant, trap)")
    economy_min_profit: float = Field(0.0, ge=0, le=1e6, description="coins a buy-then-sell loop must gain, more than")
    economy_min_runs: int = Field(1, ge=1, le=10**9, description="runs that must do the loop to confirm it")
    economy_check_runs: int = Field(60, ge=1, le=100_000, description="candidate runs replayed to confirm a loop")
    unused_max_rate: float = Field(0.05, ge=0, le=1, description="a strong policy chooses it at most this share")
    unused_min_offers: int = Field(100, ge=1, le=10**9, description="times it was on offer, at least")
    degenerate_min_pp: float = Field(0.0, ge=0, le=100,
                                     description="a simple policy ahead of a reference policy by more than")
    simple: dict[GameName, list[PolicyLabel]] = Field(
        default_factory=lambda: {"dungeon": ["greedy", "random"], "kniffel": ["random", "greedy"],
                                 "dadox": ["threshold", "greedy", "random"], "dungeon24": ["random", "greedy"]},
        description="simple policies per game (default: the report policies that solve nothing)")
    reference: dict[GameName, list[PolicyLabel]] = Field(
        default_factory=lambda: {"dungeon": ["vorschlag", "expectimax", "rollout"],
                                 "dungeon24": ["heuristic", "exact-exchange", "expectimax"]},
        description="the game's suggestion and smarter bots per game (besides its solved policies)")
    cliff_jump_pp: float = Field(10.0, ge=0, le=100,
                                 description="a room's death rate above both neighbours' by at least")
    cliff_ratio: float = Field(2.0, ge=1, le=1000, description="… and at least this many times the larger neighbour's")
    cliff_min_runs: int = Field(100, ge=1, le=10**9, description="runs that reached the room, at least")
    stack_copies: int = Field(4, ge=2, le=20, description="copies of one upgrade stacked in the stacking probe")
    stack_keep: float = Field(0.75, ge=0, le=10,
                              description="later copies still pay this share of the first copy's gain, at least")
    stack_policy: PolicyLabel = Field("", description="policy of the stacking probe (empty: the game's first report "
                                      "policy)")


def check_names(f: FindingsConfig, game: str | None) -> None:
    """The games and policies the thresholds name are the registry's and their options modules' (light): a typo would
    be found after the report's play (``stack_policy``), or never (a ``simple`` list naming no policy of its game).
    ``game`` None (``balance``, every game): ``stack_policy`` is some game's."""
    for what, lists in (("simple", f.simple), ("reference", f.reference)):
        for name, policies in lists.items():
            if name not in GAMES:
                raise ConfigError(f"findings.{what}: unknown game {name!r} (choose from {', '.join(GAMES)})")
            known = declared_policies(name)
            for p in policies:
                if p not in known:
                    raise ConfigError(f"findings.{what}.{name}: {unknown_policy(name, p, known)}")
    if not f.stack_policy:
        return
    if game is not None and f.stack_policy not in declared_policies(game):
        raise ConfigError(f"findings.stack_policy: {unknown_policy(game, f.stack_policy, declared_policies(game))}")
    if game is None and not any(f.stack_policy in declared_policies(g) for g in GAMES):
        raise ConfigError(f"findings.stack_policy: {f.stack_policy!r} is no game's policy")


def split(config: Path | None, sets: list[str] | None) -> tuple[dict[str, Any] | None, list[str], FindingsConfig]:
    """(the game's part of ``config`` as data or None, the game's overrides, the findings thresholds): the
    ``[findings]`` table and every ``findings.`` override taken out and validated here."""
    data = read_toml(config) if config is not None else None
    raw: dict[str, Any] = {}
    if data is not None and SECTION in data:
        raw = data.pop(SECTION)
        if not isinstance(raw, dict):
            raise ConfigError(f"[{SECTION}] must be a table, got {raw!r}"[:200])
    rest = []
    seen: list[list[str]] = []
    for item in sets or []:
        keys, value = parse_override(item)
        set_once(keys, seen)  # a threshold or a rule set twice: the later one would win without a word
        if keys[0] == SECTION:
            if len(keys) < 2:
                raise ConfigError(f"--set {item}: name a field of [{SECTION}], e.g. findings.seat_min_pp=3")
            try:
                set_path(raw, keys[1:], value, FindingsConfig)
            except ConfigError:
                if keys[1] in FindingsConfig.model_fields and len(keys) > 2:  # an entry of a table such as simple
                    raise ConfigError(f"--set {item[:60]}: {keys[1]} is a table: set it whole, e.g. --set "
                                      f"\"{SECTION}.{keys[1]}={{{keys[2]}=...}}\"") from None
                fields = ", ".join(FindingsConfig.model_fields)
                raise ConfigError(f"unknown field of [{SECTION}]: {'.'.join(keys)} (fields: {fields})") from None
        else:
            rest.append(item)
    try:
        fcfg = validate(FindingsConfig, raw)
    except ConfigError as e:
        raise ConfigError(f"[{SECTION}]: {e}") from None
    return data, rest, fcfg


def changed_thresholds(f: FindingsConfig) -> dict[str, Any]:
    """The thresholds set away from their defaults: the pages and answers name them, as findings found under other
    thresholds than the defaults read alike otherwise."""
    base = FindingsConfig().model_dump(mode="json")
    return {k: v for k, v in f.model_dump(mode="json").items() if v != base[k]}


def thresholds_sentence(changed: dict[str, Any]) -> str:
    """``Thresholds: the defaults but seat_min_pp = 3 (default 2.0).``, or that they are the defaults (and how to
    change them)."""
    if not changed:
        return ("Thresholds: the defaults (the [findings] section of a config, or --set findings.NAME=VALUE, "
                "changes them).")
    base = FindingsConfig().model_dump(mode="json")
    said = ", ".join(f"{k} = {_short(v)} (default {_short(base.get(k))})" for k, v in changed.items())
    return f"Thresholds: the defaults but {said}."


def _short(v: Any) -> str:
    """A threshold as the section writes it (TOML: ``{kniffel = ["random"]}``), cut at 60 characters."""
    text = toml_literal(v)
    return text if len(text) <= 60 else text[:59] + "…"
