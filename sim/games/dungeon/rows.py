"""The config sections that freeze into rows of a kernel matrix (an upgrade's effects, an enemy's intent), and
their column indices generated from the model's field order: the one declaration.

A kernel reads a column by the field's name, ``mods[EFF.pasch_attack_mul]`` or ``intents[i, IN.block]``:
``EFF`` and ``IN`` are named tuples of ints, which numba folds as constants. A new field of ``Effects`` (or
``Intent``) therefore reaches the effect vector the kernels fold (``rules.fold_mods``), its freeze and its width
with no other edit; its ``fold`` (how copies of it combine, ``FOLD_*``) is declared beside it.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any, ClassVar

from pydantic import Field

from sim.core.config import Strict

FOLD_ADD, FOLD_MUL, FOLD_MAX, FOLD_CHANCE = 0, 1, 2, 3
_FOLDS = {"add": FOLD_ADD, "mul": FOLD_MUL, "max": FOLD_MAX, "chance": FOLD_CHANCE}


def _fold(kind: str) -> dict[str, Any]:
    """A field's fold rule, kept in its schema extras: "mul" multipliers stack additively from 1, "max" takes the
    largest, "chance" combines independent chances; the default "add" adds."""
    return {"fold": kind}


class Effects(Strict):
    """Effect fields an upgrade or talent carries, one column of the effect vector each (``EFF``), in this order;
    ``NOT_FOLDED`` names the fields that are readings, not effects (freeze reads them from the model)."""

    NOT_FOLDED: ClassVar[tuple[str, ...]] = ("in_straights",)

    attack_flat: float = Field(0, ge=-1000, le=10_000, description="per combo of that role (negative: a curse)")
    shield_flat: float = Field(0, ge=-1000, le=10_000)
    heal_flat: float = Field(0, ge=-1000, le=10_000)
    pasch_attack_mul: float = Field(1.0, ge=0, le=100, json_schema_extra=_fold("mul"))
    crit_chance: float = Field(0, ge=0, le=1, json_schema_extra=_fold("chance"))
    extra_adjusts: int = Field(0, ge=0, le=10)
    shield_keep: int = Field(0, ge=0, le=10_000, json_schema_extra=_fold("max"))
    poison: int = Field(0, ge=0, le=1000)
    berserker_mul: float = Field(1.0, ge=0, le=100, json_schema_extra=_fold("mul"))
    berserker_lp: float = Field(0, ge=0, le=1, json_schema_extra=_fold("max"))
    glueckssieben: bool = Field(False, json_schema_extra=_fold("max"))
    in_straights: bool = Field(True, description="with glueckssieben: the 1 counts as 7 in straights too "
                                                 "(3-4-5-6 + 1 is a Große Straße, 1-2-3-4 no straight)")
    extra_dice: int = Field(0, ge=0, le=1)
    max_lp: int = Field(0, ge=0, le=10_000)

    @classmethod
    def columns(cls) -> tuple[str, ...]:
        """The effect vector's fields, in model order (``Effects`` only: a subclass's own fields are no effects)."""
        return tuple(n for n in Effects.model_fields if n not in cls.NOT_FOLDED)

    def effects(self) -> list[float]:
        """This upgrade's row of the effect matrix (``Frozen.up_eff``)."""
        return [float(getattr(self, n)) for n in self.columns()]


class Intent(Strict):
    """One enemy intent: a row of ``Frozen.intents``, its columns ``IN`` in this order."""

    damage: float = Field(0.0, ge=0, le=100, description="per hit, × the enemy's base damage")
    hits: int = Field(1, ge=1, le=20)
    block: int = Field(0, ge=0, le=10_000)
    heal: int = Field(0, ge=0, le=10_000)
    weaken: int = Field(0, ge=0, le=100, description="player turns weakened")
    curse: int = Field(0, ge=0, le=6, description="random dice cursed next turn")
    steal: int = Field(0, ge=0, le=10_000)
    buff: int = Field(0, ge=0, le=1000, description="+damage per hit from now on")
    eat: int = Field(0, ge=0, le=5, description="dice fewer next turn")
    weight: float = Field(1.0, gt=0, le=1e6, description="draw weight in mode 'random'")

    def row(self) -> list[float]:
        return [float(getattr(self, n)) for n in In._fields]


def column_fold(name: str) -> int:
    """The ``FOLD_*`` code of effect field ``name``."""
    extra = Effects.model_fields[name].json_schema_extra
    return _FOLDS[extra.get("fold", "add") if isinstance(extra, dict) else "add"]


Eff = namedtuple("Eff", Effects.columns())  # type: ignore[misc]  # the fields are the model's
EFF = Eff(*range(len(Eff._fields)))
"""Column of each effect in the effect vector (``mods[EFF.attack_flat]``)."""
N_EFF = len(EFF)
FOLD = tuple(column_fold(n) for n in Eff._fields)
"""``FOLD[e]``: how copies of effect ``e`` combine (``rules.fold_mods``)."""
In = namedtuple("In", tuple(Intent.model_fields))  # type: ignore[misc]
IN = In(*range(len(In._fields)))
"""Column of each intent field in ``Frozen.intents`` (``intents[i, IN.block]``)."""
N_IN = len(IN)
