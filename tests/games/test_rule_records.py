"""Every rule number declared once (issue 28): a game's rule numbers live in its config model, and the kernels read
them from records generated from it (``sim.core.record.RuleRecord``), never from hand-numbered indices.

The games come from the registry (``sim.games.GAMES``) and their records from their ``config`` module, so a new game
is checked with no edit here: every registered game must have a record.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numba import njit
from pydantic import BaseModel, create_model

from sim.core.config import load_config
from sim.core.record import RuleRecord
from sim.games import GAMES
from sim.games.dadox import rules as DADOX
from sim.games.dungeon24 import rules as DUNGEON24
from sim.games.kniffel import rules as KNIFFEL

ROOT = Path(__file__).resolve().parents[2]
INDEX_PREFIXES = ("RP_", "PP_", "SK_", "EFF_")  # the hand-numbered index schemes the records replaced
# what a record's freeze knows besides the config (``RuleRecord.freeze(cfg, **context)``), per game that needs it
FREEZE_CONTEXT: dict[str, dict[str, Any]] = {"dungeon": {"difficulty": "leicht"}}
PROBE = "probe_rule"  # the field the tests add to a model
WITH_RECORD = sorted(GAMES)  # every registered game reads its rule numbers from a record


def package(game: str) -> str:
    return GAMES[game].rsplit(".", 1)[0]


def records(game: str) -> dict[str, RuleRecord]:
    """The module-level records of the game's config module (``RULES``, ``POLICY_PARAMS``)."""
    module = importlib.import_module(f"{package(game)}.config")
    return {name: v for name, v in vars(module).items() if isinstance(v, RuleRecord)}


def _bound_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for t in target.elts for n in _bound_names(t)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    return []


def module_level_names(tree: ast.Module) -> set[str]:
    """Names a module binds at its top level by assignment (including ``if``/``try`` blocks at that level)."""
    out: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    out.update(_bound_names(t))
            elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                out.update(_bound_names(node.target))
            elif isinstance(node, ast.If | ast.Try):
                for block in (node.body, node.orelse, getattr(node, "finalbody", []),
                              *(h.body for h in getattr(node, "handlers", []))):
                    visit(block)

    visit(tree.body)
    return out


def index_constants(game: str) -> list[str]:
    """``module.NAME`` of every module-level int named like an index (``INDEX_PREFIXES``) under the game's package:
    the names come from the source (ast), the int test from the imported module's value."""
    pkg = package(game)
    found = []
    for path in sorted((ROOT / Path(*pkg.split("."))).rglob("*.py")):
        names = [n for n in module_level_names(ast.parse(path.read_text(), str(path))) if n.startswith(INDEX_PREFIXES)]
        if not names:
            continue
        rel = path.relative_to(ROOT).with_suffix("")
        module = importlib.import_module(".".join(rel.parts).removesuffix(".__init__"))
        found += [f"{module.__name__}.{n}" for n in sorted(names) if isinstance(getattr(module, n), int | np.integer)]
    return found


@pytest.mark.parametrize("game", WITH_RECORD)
def test_the_game_has_a_record_and_no_index_constants(game):
    """Every game reads its rule numbers from a record: no ``RP_*``/``PP_*``/``SK_*``/``EFF_*``
    int indices are left in its package."""
    assert records(game), f"{game}: no RuleRecord in {package(game)}.config"
    assert index_constants(game) == []


def test_the_index_check_sees_a_constant():
    """The ast walk finds the bindings an index scheme uses (tuple unpacking, annotated, under ``if``), not a
    function's locals."""
    tree = ast.parse("RP_A, (RP_B, *RP_C) = 0, (1, 2)\nEFF_X: int = 3\nif True:\n    SK_Y = 4\nrp_lower = 5\n"
                     "def f():\n    RP_LOCAL = 6\n")
    assert module_level_names(tree) == {"RP_A", "RP_B", "RP_C", "EFF_X", "SK_Y", "rp_lower"}


def _probe_section(record: RuleRecord) -> str | None:
    """The config section of the record's first sectioned leaf (where the new field goes); None: top level."""
    return next((path[0] for _, path, _, _ in record.leaves if len(path) > 1), None)


def _with_probe(model: type[BaseModel], section: str | None) -> type[BaseModel]:
    """``model`` with one more int field ``PROBE`` (default 5), in ``section`` or at the top level."""
    if section is None:
        return create_model(f"Probe{model.__name__}", __base__=model, **{PROBE: (int, 5)})
    inner = model.model_fields[section].annotation
    wider = create_model(f"Probe{inner.__name__}", __base__=inner, **{PROBE: (int, 5)})
    return create_model(f"Probe{model.__name__}", __base__=model, **{section: (wider, ...)})


def _reader(name: str):
    """A jitted kernel reading the record field ``name`` (a constant to numba)."""

    @njit
    def read(rp):
        return rp[name]

    return read


def _records_of_games() -> list[tuple[str, str]]:
    return [(g, name) for g in WITH_RECORD for name in sorted(records(g))]


def _wider(game: str, record: RuleRecord) -> tuple[RuleRecord, str, np.ndarray, np.ndarray]:
    """(the record of the model with ``PROBE`` added, the probe's record name, the old freeze of the game's own
    config, the new freeze of the same config with the probe set to 7)."""
    section = _probe_section(record)
    model = _with_probe(record.model, section)
    base = load_config(record.model, game)
    data = base.model_dump()
    (data if section is None else data[section])[PROBE] = 7
    context = FREEZE_CONTEXT.get(game, {})
    wider = record.like(model)
    probe = PROBE if section is None else f"{section}_{PROBE}"
    return wider, probe, record.freeze(base, **context), wider.freeze(model.model_validate(data), **context)


@pytest.mark.parametrize(("game", "record_name"), _records_of_games())
def test_a_new_model_field_reaches_the_record_with_no_other_edit(game, record_name):
    """A field added to the game's config model is in the record's dtype (the record's own dtype, among the old
    fields in their order) and in its freeze, which a kernel reads; every other number is frozen as before."""
    record = records(game)[record_name]
    wider, probe, old, new = _wider(game, record)
    assert (wider.skip, wider.derived, wider.uniform) == (record.skip, record.derived, record.uniform)
    assert probe in wider.names and [n for n in wider.names if n != probe] == list(record.names)
    assert wider.dtype[probe] == (record.uniform or np.dtype(np.int64))
    assert new[probe][0] == 7
    assert all(new[n][0] == old[n][0] for n in record.names)  # the derived numbers come along
    rp = new.view(np.recarray)[0]
    assert _reader(probe)(rp) == 7 and rp.base.shape == (1,)


def _dadox_kernel(rp: np.record) -> None:
    assert DADOX.selection_score(np.ones(6, np.int64), rp) == 2000  # a street, the default 2000


def _kniffel_kernel(rp: np.record) -> None:
    assert KNIFFEL.category_score(np.array([0, 2, 3, 0, 0, 0], np.int64), KNIFFEL.FULL_HOUSE, rp) == 25


def _dungeon24_kernel(rp: np.record) -> None:
    R = DUNGEON24
    S = np.zeros(R.S_SIZE, np.int64)
    S[R.S_STATUS : R.S_STATUS + R.BOSS] = R.DOWN
    assert R.can_focus(S, 0, rp)  # focus on, face-down reserve cards, cost 1
    R.pay_focus(S, 0, 0, rp)
    assert S[R.S_STATUS] == R.DISCARDED and S[R.S_STATUS + 1] == R.DOWN


# the game's own rule kernels on the wider record (the rules read it like their own); optional per game
KERNEL_CHECKS = {"dadox": _dadox_kernel, "kniffel": _kniffel_kernel, "dungeon24": _dungeon24_kernel}


@pytest.mark.parametrize("game", sorted(KERNEL_CHECKS))
def test_the_rules_read_a_wider_record(game):
    assert game in WITH_RECORD
    _, _, _, new = _wider(game, records(game)["RULES"])
    KERNEL_CHECKS[game](new.view(np.recarray)[0])
