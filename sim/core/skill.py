"""The ``[skill]`` config section: how well each seat plays its policy (issue 18).

The model (the jitted half lives in ``policies.skill``; every game uses the same one):

- A level ``ℓ`` in [0, 1] applies to the chosen policy: 1 is the policy exactly as it is, 0 plays
  uniformly random legal moves (the game's ``random`` policy, move for move in distribution).
- In between, every decision can go wrong in two ways people err:
  a *lapse*: with probability ``ε(ℓ) = (1 - ℓ)²`` the player makes the random policy's move; and,
  where the policy has action values (Kniffel optimal: the expected final score of each hold and
  each box; Kniffel greedy: each box's points now; Dadox optimal-turn: the solved turn values of
  each set-aside option and of banking vs throwing on), otherwise a *softmax* over those values
  with temperature ``τ(ℓ) = u · (1 - ℓ) / ℓ``: a move worse by Δ is chosen ``exp(-Δ/τ)`` times as
  often as the best, so cheap mistakes are common and costly ones rare. ``u`` is the game's value
  unit, a twentieth of the optimal player's mean score per turn (Kniffel 1 point of 19.6 a turn,
  Dadox 20 points of 366), so one level means comparable carelessness in both. Policies without
  action values (heuristics: Kniffel greedy's holds, Dadox threshold/greedy, the two-player Dadox
  solutions, whose values are win chances, every Dungeon24 policy) err by lapses only. A policy
  that is already random stays random at every level.
- Würfel Dungeon (and any later game) takes the same section: ``skill: Skill`` in its config model,
  ``SKILL_RECORD``'s derived numbers in its rule record, ``policies.skill``'s lapse/softmax at its dispatch
  points on a ``SKILL_STREAM`` stream, and a ``SkillChart`` (its ``Game.skill_chart``) for the report.
- Named levels: novice 0.25 (ε 56 %, τ 3u), casual 0.5 (ε 25 %, τ u), skilled 0.75 (ε 6 %, τ u/3),
  expert 1.0 (the policy itself).

A population (``dicesim fit`` writes one, ``sim.players``): ``groups`` is a mixture of levels, each
``{level, weight}`` (weights sum to 1). The player of run ``i`` is player ``i // games_per_player``; each player
belongs to one group (``group_of``: a low-discrepancy sequence over the players, so every prefix of the runs holds
the groups in their weights), and plays every seat-1 decision at its group's level (``level`` is then not used).
A game that plays mixtures says so (``Game.skill_groups``); the others refuse them. Both fields are left out of the
config's dump while they keep their defaults, so every config hash stays what it was before they existed.

Seats: ``level`` is the player's (the first seat's policy: Kniffel's seat 1, Dadox's first listed
policy, which rotates over the seats with it when several are listed, Dungeon24's ``--policy``);
``opponents`` is every other seat's, full strength by default. So ``--set skill.level=casual``
asks how a casual player fares against the full-strength policy, and a sweep over
``skill.level`` × a rule field gives the skill × rules heatmap.

The skill's random draws come from their own ``sim.core.rng`` streams (``policies.skill``), so the
dice stay common random numbers across levels, and level 1 draws nothing: every table at level 1
is the plain policy's, bit for bit. Kernels read the levels from the rule records
(``freeze``), so a new level never recompiles anything.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import (
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from sim.core.config import GameConfig, Strict, toml_literal

LEVELS: dict[str, float] = {"novice": 0.25, "casual": 0.5, "skilled": 0.75, "expert": 1.0}


def level_words(level: float) -> str:
    """A level as a person reads it: ``casual 0.5``, ``level 0.6``."""
    name = next((k for k, x in LEVELS.items() if abs(x - level) < 1e-12), None)
    return f"{name} {level:g}" if name else f"level {toml_literal(level) if 0 < level < 1e-4 else f'{level:g}'}"


def skill_words(skill: Any, seats: int, names: list[str] | None = None,
                sides: bool = False) -> tuple[list[str], str]:
    """How well the seats play, for a play's answer: (``["skill casual 0.5"]`` or, where the seats differ, whose
    level is which; a sentence saying what the gap then skews, or ""). ``names``: the policies' names, the first
    listed first, where the seats hold several (its seats play at ``level``, rotating with it: the gap then lies
    between policies, not seats); None at one policy (the first seat plays at ``level``). ``sides``: two sides
    whose first mover is drawn by lot, not by seat (Dungeon24's roll-off: the gap skews who wins, not the first
    attacker's edge). Nothing at the default."""
    if skill.groups:
        mix = ", ".join(f"{g.weight * 100:.0f} % at {level_words(g.level)}" for g in skill.groups)
        return [f"players in groups: {mix}"], ""
    if seats < 2 or skill.level == skill.opponents:
        return ([] if skill.level == 1.0 else [f"skill {level_words(skill.level)}"]), ""
    if names:
        others = " and ".join(names[1:]) or "the other seats"
        return ([f"{names[0]} {level_words(skill.level)}, {others} {level_words(skill.opponents)}"],
                "The policies play at different skill levels, so who wins is the skill gap's as much as the policies'.")
    if sides:
        return ([f"your side {level_words(skill.level)}, the opponent {level_words(skill.opponents)}"],
                "The sides play at different skill levels, so who wins is the skill gap's as much as the policies'.")
    others = "the other seat" if seats == 2 else "others"
    said = f"first seat {level_words(skill.level)}, {others} {level_words(skill.opponents)}"
    return [said], ("The seats play at different skill levels, so the first seat's edge is the skill gap's as much as "
                    "turn order's.")


def parse_level(v: Any) -> Any:
    """A level name (``casual``) -> its number; numbers pass (the range check follows); ints -> float."""
    if isinstance(v, str):
        if v.strip().lower() in LEVELS:
            return LEVELS[v.strip().lower()]
        names = ", ".join(f"{k} ({x})" for k, x in LEVELS.items())
        raise ValueError(f"a skill level is a number in [0, 1] or one of {names}")
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, float) and v == 0:
        return 0.0  # -0.0 is level 0 ("skill level -0" said otherwise)
    return v


@dataclass(frozen=True)
class SkillChart:
    """What the balance report's skill chart plays for a game (``sim.report.skill``): each series is a policy
    (with game options) whose player, seat 0, plays at every level of the ladder against full-strength opponents.

    ``player_values`` turns a per-run table into the player's value per run: the score when ``measure`` is
    ``"mean_score"``, a 0/1 win when it is ``"win_rate"`` (None: seat 0's ``win`` column, else ``winner == 0``)."""

    series: tuple[tuple[str, str, dict[str, Any]], ...]  # (label, policy, game options)
    measure: str  # "mean_score" or "win_rate"
    title: str
    ylabel: str
    player_values: Callable[[Any], np.ndarray] | None = None
    legend: str = "policy"
    opponents: str | None = "the same policy at full strength"  # in words, for skill.json


class Group(Strict):
    level: float = Field(..., ge=0.0, le=1.0, description="the group's level (a number or a named level)")
    weight: float = Field(..., gt=0.0, le=1.0, description="the group's share of the players")

    @field_validator("level", mode="before")
    @classmethod
    def named(cls, v: Any) -> Any:
        return parse_level(v)


MAX_GROUPS = 8
GOLDEN = 0.6180339887498949  # the golden ratio's fraction: the low-discrepancy sequence of ``group_of``


class Skill(Strict):
    level: float = Field(1.0, ge=0.0, le=1.0, title="the player's level",
                         description="the player's level: 0 random moves, 1 the policy as it "
                         "is; or novice (0.25), casual (0.5), skilled (0.75), expert (1.0)")
    opponents: float = Field(1.0, ge=0.0, le=1.0, description="the level of every other seat")
    groups: list[Group] = Field(default_factory=list, description="a mixture of levels (a fitted population): each "
                                "player plays at its group's level; empty: every player at ``level``")
    games_per_player: int = Field(1, ge=1, le=1_000_000, description="consecutive runs played by one player")

    @field_validator("level", "opponents", mode="before")
    @classmethod
    def named(cls, v: Any) -> Any:
        return parse_level(v)

    @field_validator("groups", mode="after")
    @classmethod
    def _weights(cls, v: list[Group]) -> list[Group]:
        if len(v) > MAX_GROUPS:
            raise ValueError(f"at most {MAX_GROUPS} groups, got {len(v)}")
        if v and abs(sum(g.weight for g in v) - 1.0) > 1e-6:
            raise ValueError(f"the groups' weights must sum to 1, got {sum(g.weight for g in v):.6g}")
        return v

    @model_validator(mode="after")
    def _one_way(self) -> Skill:
        """A level beside groups would be ignored (each player plays at its group's level): said, not silently."""
        if self.groups and self.level != 1.0:
            raise ValueError(f"skill.level {self.level:g} beside skill.groups: with groups each player plays at its "
                             "group's level; leave level out, or drop the groups")
        return self

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        """Leave the population fields out while they hold their defaults (config hashes stay as they were)."""
        out = handler(self)
        if not self.groups:
            out.pop("groups", None)
        if self.games_per_player == 1:
            out.pop("games_per_player", None)
        return out

    def group_levels(self) -> list[float]:
        """The level of each group (one group, ``level``, without a mixture)."""
        return [g.level for g in self.groups] or [self.level]


def group_of(skill: Skill, runs: np.ndarray) -> np.ndarray:
    """The group (index into ``skill.groups``) of each run's player: ``frac((p + 1) * GOLDEN)`` against the
    cumulative weights, so the groups interleave and every prefix of players holds them in their weights."""
    runs = np.asarray(runs, np.int64)
    if not skill.groups:
        return np.zeros(len(runs), np.int64)
    players = runs // skill.games_per_player
    u = np.mod((players + 1) * GOLDEN, 1.0)
    edges = np.cumsum([g.weight for g in skill.groups])[:-1]
    return np.searchsorted(edges, u, side="right").astype(np.int64)


def at_level(cfg: GameConfig, level: float) -> GameConfig:
    """``cfg`` with the player at one level and no mixture (what one group of a population plays)."""
    skill = cfg.skill.model_copy(update={"level": float(level), "groups": []})  # type: ignore[attr-defined]
    return cfg.model_copy(update={"skill": skill})


def run_levels(skill: Skill, runs: np.ndarray) -> np.ndarray:
    """The level each run's player plays at (their group's in a population): the ``level`` column of a log."""
    if not skill.groups:
        return np.full(len(runs), float(skill.level))
    return np.array(skill.group_levels())[group_of(skill, runs)]


def run_player(cfg: GameConfig, run: int) -> GameConfig:
    """``cfg`` as run ``run``'s player plays it: at their group's level in a population, else ``cfg`` itself."""
    if not cfg.skill.groups:  # type: ignore[attr-defined]
        return cfg
    return at_level(cfg, cfg.skill.groups[int(group_of(cfg.skill, np.array([run]))[0])].level)  # type: ignore


def play_groups(play: Callable[[GameConfig], list[Any]], cfg: GameConfig, start: int, count: int,
                rows_per_run: int = 1) -> list[Any]:
    """A population's chunk of runs ``start .. start + count - 1``: ``play`` (one chunk's blocks of rows, a run's
    ``rows_per_run`` rows together) once per group present, at its level; each run's rows taken from its group's
    play. The dice of a run do not depend on the level (the skill draws on streams of their own), so a run's rows
    are what a batch at its group's level gives. Blocks that are not numbers (policy names, labels) are the same in
    every group and come from the first."""
    group = np.repeat(group_of(cfg.skill, np.arange(start, start + count)), rows_per_run)  # type: ignore[attr-defined]
    parts = {gi: play(at_level(cfg, cfg.skill.groups[gi].level))  # type: ignore[attr-defined]
             for gi in np.unique(group).tolist()}
    out = []
    for j, block in enumerate(parts[min(parts)]):
        if not isinstance(block, np.ndarray) or block.dtype == object:
            out.append(block)
            continue
        mixed = block.copy()
        for gi, part in parts.items():
            rows = group == gi
            mixed[rows] = part[j][rows]
        out.append(mixed)
    return out


def _ppm(level: float) -> int:
    """A level in the record's unit, ``policies.skill.SCALE`` (the one source the kernels read)."""
    from policies.skill import SCALE  # numba (heavy): only when a rule record is frozen, not when a config is checked

    return round(level * SCALE)


SKILL_RECORD: dict[str, Callable[[GameConfig], int]] = {
    "skill_level_ppm": lambda cfg: _ppm(cfg.skill.level),
    "skill_opponents_ppm": lambda cfg: _ppm(cfg.skill.opponents),
}
"""The levels as derived numbers of a game's rule record (``sim.core.record``, with ``[skill]`` itself skipped):
int parts per million, read by ``policies.skill.record_level``."""


def rules_hash(cfg: GameConfig) -> str:
    """``config_hash`` without the skill section: the key of what a solver reads (a solved table is the same at
    every level). Equal to the config hash a config had before ``[skill]`` existed, so cached tables stay valid."""
    blob = json.dumps(cfg.model_dump(mode="json", exclude={"skill"}), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
