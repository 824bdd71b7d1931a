"""Würfel Dungeon's rule numbers are declared once, in the config model (issue 28 item 2): the record ``rp`` the
kernels read is generated from it (``config.RULES``), and so are the effect and intent columns (``rows``); the rules
test what a policy needs, never its id (item 3)."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import sim.games.dungeon as dungeon_pkg
from policies.dungeon.bots import ITEM_UPGRADE, POLICIES, VORSCHLAG, needs_attack_gain, needs_etab, offer_value
from sim.core.config import load_config
from sim.core.record import RuleRecord
from sim.games.dungeon import config as config_module
from sim.games.dungeon import freeze as freeze_module
from sim.games.dungeon import layout, rows
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import RULES, DungeonConfig
from sim.games.dungeon.config import Path as PathSection
from sim.games.dungeon.freeze import freeze
from sim.games.dungeon.layout import DIFFICULTIES
from sim.games.dungeon.rows import EFF, FOLD, FOLD_ADD, FOLD_CHANCE, FOLD_MAX, FOLD_MUL, IN, N_EFF, Effects, Intent

CFG = load_config(DungeonConfig, "dungeon")


class MorePath(PathSection):
    elite_gold: float = 7.0  # a rule number the model did not have


class MoreDungeon(DungeonConfig):
    path: MorePath


def _more() -> MoreDungeon:
    return MoreDungeon(**{**CFG.model_dump(), "path": {**CFG.path.model_dump(), "elite_gold": 9.5}})


@njit
def _elite_pay(rp):
    return rp.path_elite_coins + rp.path_elite_gold


def test_the_record_holds_every_rule_number_by_its_config_path():
    fz = freeze(load_config(DungeonConfig, "dungeon", None, ["path.elite_attack=1.5", "scaling.boss_damage=stage",
                                                              "rollout.base=greedy", "skill.level=0.25"]), "schwer")
    rp = fz.rp[0]
    assert fz.rp.shape == (1,) and fz.rp.dtype == RULES.dtype
    assert {fz.rp.dtype[n] for n in fz.rp.dtype.names} == {np.dtype(np.float64)}  # the kernels' float64, as before
    assert (rp.path_elite_attack, rp.start_lp, rp.policies_vorschlag_att_combos) == (1.5, CFG.start.lp, 1.15)
    assert rp.scaling_boss_damage == R.BOSS_DAMAGE_STAGE and rp.rollout_base == POLICIES["greedy"]
    assert rp.skill_level_ppm == 250_000 and rp.difficulty == DIFFICULTIES.index("schwer")
    d = CFG.difficulty.schwer
    assert [rp[f"difficulty_{k}"] for k in type(d).model_fields] == [getattr(d, k) for k in type(d).model_fields]
    assert rp.n_up == len(CFG.upgrades) and rp.n_prof == fz.cvals.shape[0]
    assert "analysis_min_offers" not in fz.rp.dtype.names and "difficulty_leicht_hp" not in fz.rp.dtype.names


def test_every_choice_code_the_kernels_compare_is_the_models():
    assert RULES.choice("coins.step_rounding", "floor") == R.ROUND_FLOOR
    assert RULES.choice("scaling.boss_damage", "stage") == R.BOSS_DAMAGE_STAGE
    for name in ("vorschlag", "greedy", "expectimax", "random"):
        assert RULES.choice("rollout.base", name) == POLICIES[name]  # the record's code is the base policy's id


def test_a_new_model_field_reaches_the_record_and_the_freeze_with_no_other_edit(monkeypatch: pytest.MonkeyPatch):
    """A field added to the model (here ``path.elite_gold``) is in the record the kernels read, and ``freeze``
    carries it: a kernel reads it by its config path, and the kernels read the wider record as before."""
    record = RuleRecord(MoreDungeon, skip=RULES.skip, derived=RULES.derived, dtype=RULES.uniform)
    assert set(record.names) == {*RULES.names, "path_elite_gold"}  # in model order: after path's other leaves
    assert record.names.index("path_elite_gold") == RULES.names.index("path_events_truhe_cursed_die") + 1
    old = freeze(CFG, "normal")
    monkeypatch.setattr(freeze_module, "RULES", record)  # what the module would be had the model the field
    fz = freeze(_more(), "normal")
    rp = fz.rp[0]
    assert rp.path_elite_gold == 9.5 and fz.rp.dtype["path_elite_gold"] == np.float64
    assert _elite_pay(rp) == CFG.path.elite_coins + 9.5
    assert rp.difficulty_hp == CFG.difficulty.normal.hp and rp.n_prof == fz.cvals.shape[0]  # derived come along
    args = (VORSCHLAG, ITEM_UPGRADE, fz.up_eff, 0, fz.jk, 0, 1.0, 50.0, 50.0, 0.0, 0.0, 0.0, 2.0)
    assert offer_value(*args, rp) == offer_value(*args, old.rp[0])  # a policy reads the wider record too


def test_the_effect_and_intent_columns_are_the_models_fields_in_order():
    assert EFF._fields == tuple(n for n in Effects.model_fields if n not in Effects.NOT_FOLDED)
    assert list(EFF) == list(range(N_EFF)) and len(FOLD) == N_EFF
    assert IN._fields == tuple(Intent.model_fields) and list(IN) == list(range(len(IN)))
    folds = {n: FOLD[i] for i, n in enumerate(EFF._fields)}
    assert folds["pasch_attack_mul"] == folds["berserker_mul"] == FOLD_MUL
    assert folds["shield_keep"] == folds["berserker_lp"] == folds["glueckssieben"] == FOLD_MAX
    assert folds["crit_chance"] == FOLD_CHANCE and folds["attack_flat"] == folds["max_lp"] == FOLD_ADD
    fz = freeze(CFG, "leicht")
    u, up = list(CFG.upgrades).index("paschmeister"), CFG.upgrades["paschmeister"]
    assert fz.up_eff.shape[1] == N_EFF and fz.up_eff[u, EFF.pasch_attack_mul] == up.pasch_attack_mul == 2.0
    assert fz.up_eff[u].tolist() == up.effects()
    first = next(iter(CFG.enemies.values())).intents[0]
    assert [fz.intents[0, getattr(IN, n)] for n in IN._fields] == [getattr(first, n) for n in IN._fields]


def _module_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, ast.AnnAssign) else []
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    names.add(n.id)
    return names


def test_no_module_of_the_game_hand_numbers_a_rule_or_an_effect():
    """No ``RP_*`` or ``EFF_*`` index constant is left in ``sim/games/dungeon`` (source or imported module)."""
    pkg = Path(dungeon_pkg.__file__).parent
    for path in sorted(pkg.glob("*.py")):
        bad = {n for n in _module_names(ast.parse(path.read_text())) if n.startswith(("RP_", "EFF_"))}
        assert not bad, f"{path.name} defines {sorted(bad)}"
    for mod in (freeze_module, R, config_module, layout, rows):
        assert not [k for k, v in vars(mod).items() if k.startswith(("RP_", "EFF_")) and isinstance(v, int)]


def test_the_rules_test_what_a_policy_needs_never_its_id():
    """Issue 28 item 3: the kernel computes the attack gain and the expectation tables for the policies that declare
    they read them (``ids.NEEDS_*``), so no rule module compares a policy id (``ROLLOUT``, the driver that plays a
    base policy's continuations, is no policy the rules serve)."""
    assert [p for p in POLICIES.values() if needs_attack_gain(p)] == [POLICIES["greedy"], POLICIES["expectimax"]]
    assert [p for p in POLICIES.values() if needs_etab(p)] == [POLICIES["expectimax"]]
    ids = {"VORSCHLAG", "GREEDY", "EXPECTIMAX", "RANDOM", "BROKEN"}
    for path in sorted(Path(dungeon_pkg.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                named = {n.id for n in (node.left, *node.comparators) if isinstance(n, ast.Name)}
                assert not named & ids, f"{path.name}:{node.lineno} compares a policy id"
