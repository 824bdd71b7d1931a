"""Dungeon24's config model (every rule number, card stats and decks) and its frozen arrays.

``freeze(cfg)`` gives the kernels ``(rp, cards, ability)``:

- ``rp``: the rule record (``RULES``, generated from the model: ``rp.rules_focus_cost``, a choice as its code,
  ``rp.rules_boss_loss == C.BOSSLOSS_DEFEAT``), then the skill levels of seat 0 (``--policy``) and seat 1
  (``--opponent``) as ``rp.skill_level_ppm`` and ``rp.skill_opponents_ppm`` (``sim.core.skill.SKILL_RECORD``);
- ``cards``: int64 ``[people, 6, 2]`` attack/defence of each people's deck, basic cards 0..4
  in config order, the boss at index 5 (``C.BOSS``);
- ``ability``: int64 ``[people]``, the ability kind (``C.AB_*``) of each people.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import AfterValidator, Field, field_validator, model_validator

from sim.core.config import QUANTILES, GameConfig, Name, Strict
from sim.core.record import RuleRecord
from sim.core.skill import SKILL_RECORD, Skill
from sim.games.dungeon24 import codes as C

PEOPLES = ("gruenlinge", "untote", "dunkelelfen")
PEOPLE_LABELS = ("Grünlinge", "Untote", "Dunkelelfen")
ABILITIES = {"none": C.AB_NONE, "blutrausch": C.AB_BLUTRAUSCH, "auferstehung": C.AB_AUFERSTEHUNG,
             "schattenschmerz": C.AB_SCHATTENSCHMERZ}


def _not_blank(v: str) -> str:
    """A card's or a people's name as the pages show it: a blank one made an empty column heading."""
    if not v.strip():
        raise ValueError("is blank: a name the pages show needs a letter")
    return v


Shown = Annotated[Name, AfterValidator(_not_blank)]  # a card's or a people's name: one line, not blank


class Card(Strict):
    name: Shown = Field(min_length=1, description="the card's name on the pages")
    a: int = Field(ge=0, le=30, description="attack A")
    v: int = Field(ge=0, le=30, description="defence V")


class Volk(Strict):
    label: Shown = Field(min_length=1, description="the people's name on the pages")
    ability: Literal["none", "blutrausch", "auferstehung", "schattenschmerz"]
    cards: list[Card] = Field(description="the 5 basic creature cards")
    boss: Card

    @field_validator("cards")
    @classmethod
    def five_cards(cls, v: list[Card]) -> list[Card]:
        if len(v) != C.N_BASIC:
            raise ValueError(f"a deck holds exactly {C.N_BASIC} basic cards, got {len(v)}")
        return v


class Peoples(Strict):
    gruenlinge: Volk
    untote: Volk
    dunkelelfen: Volk

    @model_validator(mode="after")
    def labels_apart(self) -> Peoples:
        """Each people by a name of its own: a label copied from another made a matchup read "Untote vs Untote"."""
        seen: dict[str, str] = {}
        for key in PEOPLES:
            label = getattr(self, key).label.strip().casefold()
            if label in seen:
                raise ValueError(f"{key}.label names {getattr(self, key).label!r}, as {seen[label]}.label does: "
                                 "each people needs a label of its own")
            seen[label] = key
        return self


class Start(Strict):
    lp: int = Field(24, ge=1, le=1000, description="life points at the start")
    active: int = Field(2, ge=1, le=3, description="front cards revealed as active at the start")


class Rules(Strict):
    charge_every: int = Field(3, ge=1, le=100, description="wins per ability charge (3 / 6 / 9 ...)")
    focus: bool = Field(True, description="focus rerolls allowed at all")
    focus_cost: int = Field(1, ge=0, le=5, description="face-down reserve cards sent to the graveyard per reroll")
    boss_loss: Literal["ability", "defeat"] = Field("ability", description="house rule: a fallen boss costs the "
                                                    "ability (ability) or the game (defeat)")
    boss_counter: Literal["off", "first", "every"] = Field("every", description="opponent fires its ability: "
                                                           "boss may be activated early (first charge only/every)")
    fire_timing: Literal["own_turn", "any_turn"] = Field(
        "own_turn", description="when a charge may fire: at the decision points of the owner's turn (own_turn) or "
        "also at those of the opponent's turn (any_turn)")
    max_turns: int = Field(600, ge=1, le=100000, description="safety cap: the game is a draw after this many turns")


class Abilities(Strict):
    blutrausch_dice: int = Field(1, ge=0, le=5, description="Blutrausch: d6 added to A on the next attack")
    auferstehung_count: int = Field(1, ge=0, le=5, description="Auferstehung: fallen creatures returned")
    schattenschmerz_lp: int = Field(2, ge=0, le=100, description="Schattenschmerz: LP lost per opponent turn")
    schattenschmerz_turns: int = Field(3, ge=0, le=C.MAXT, description="Schattenschmerz: opponent turns it lasts")


class Dungeon24Config(GameConfig):
    name: str = "dungeon24"
    start: Start = Start()
    rules: Rules = Rules()
    abilities: Abilities = Abilities()
    peoples: Peoples
    skill: Skill = Skill()

    def metric_names(self, options: dict[str, Any], seats: list[str]) -> list[str]:
        names = ["win_rate", "loss_rate", "draw_rate", "first_attacker_win_rate", "win_rate_attacking_first",
                 "win_rate_attacking_second", "mean_turns", *(f"turns_{q}" for q in QUANTILES)]
        for s in (0, 1):
            names += [f"{m}{s}" for m in ("ability_uses", "ability_used_rate", "boss_lost_rate", "mean_wins",
                                         "mean_focus", "mean_deploys", "boss_counter_rate")]
        return names + [f"end_{e}_rate" for e in ("lp", "no_creatures", "boss", "turn_limit")]  # rules.END_NAMES


RULES = RuleRecord(Dungeon24Config, skip=("peoples", "skill"), dtype=np.int64, derived=SKILL_RECORD)
"""The rule record ``rp``: every rule number of the model by config path (``rp.start_lp``,
``rp.abilities_blutrausch_dice``; a choice as its code, ``rp.rules_boss_counter == C.COUNTER_EVERY``), then the
skill levels; int64 like the kernels' arithmetic. The decks are the ``cards`` and ``ability`` arrays."""


def people_index(name: str) -> int:
    """Index of a people name (``gruenlinge``, ``untote``, ``dunkelelfen``); ValueError otherwise."""
    return PEOPLES.index(name)


def volk(cfg: Dungeon24Config, i: int) -> Volk:
    return getattr(cfg.peoples, PEOPLES[i])


def freeze(cfg: Dungeon24Config) -> tuple[np.record, np.ndarray, np.ndarray]:
    """The rule numbers as ``(rp, cards, ability)`` for the kernels (see module docstring); ``rp.base`` is the
    record's one-element array (what the parallel batch kernel takes)."""
    rp = RULES.freeze(cfg).view(np.recarray)[0]
    cards = np.zeros((len(PEOPLES), C.N_POS, 2), dtype=np.int64)
    ability = np.zeros(len(PEOPLES), dtype=np.int64)
    for i in range(len(PEOPLES)):
        v = volk(cfg, i)
        for k, c in enumerate(v.cards):
            cards[i, k] = (c.a, c.v)
        cards[i, C.BOSS] = (v.boss.a, v.boss.v)
        ability[i] = ABILITIES[v.ability]
    return rp, cards, ability
