"""Würfel Dungeon, rules round 3 (issue 27): stacked upgrades add, Glückssieben in straights, a heal joker as
healing, Vereinen, and the kernel's refusal of requests the rules forbid."""

from __future__ import annotations

import json

import numpy as np

from sim.config import load_config
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import DungeonConfig, freeze
from sim.games.dungeon.game import combos_json
from tests.conftest import run_cli

CFG = load_config(DungeonConfig, "dungeon")
FZ = freeze(CFG, "leicht")
UP = list(CFG.upgrades)


def cid(kind, a, b=0):
    return R.C_INDEX[(kind, a, b)]


def mods_of(*names):
    owned = np.zeros(FZ.up_eff.shape[0], np.int64)
    for n in names:
        owned[UP.index(n)] += 1
    m = np.zeros(R.N_EFF)
    R.fold_mods(FZ.up_eff, owned, m)
    return m


# --- 1. a non-unique upgrade taken again adds its effect, a multiplier additively ------------------------------

def test_paschmeister_stacks_additively():
    assert [mods_of(*["paschmeister"] * n)[R.EFF_PASCH_MUL] for n in range(5)] == [1.0, 2.0, 3.0, 4.0, 5.0]
    # the other stacking effects add as before; a unique upgrade cannot be owned twice
    m = mods_of("wetzstein", "wetzstein", "giftdolch", "giftdolch", "berserker")
    assert m[R.EFF_ATTACK_FLAT] == 4 and m[R.EFF_POISON] == 4 and m[R.EFF_BERSERK_MUL] == 1.25


def test_three_paschmeister_pasch_of_sixes():
    # Pasch 6-6: 12 base; three Paschmeister ×4 = 48 (×8 = 96 when multipliers compounded), 96 with a crit
    three = "loadout.upgrades=['paschmeister','paschmeister','paschmeister']"
    cfg = load_config(DungeonConfig, "dungeon", None, [three])
    cv = freeze(cfg, "leicht").cvals[0]
    assert cv[cid(R.PASCH, 6), 0] == 48
    assert R.player_attack(cv[cid(R.PASCH, 6), 0], 1.0, 1.0, CFG.combat.crit_mul) == 96


def test_combos_command_with_two_paschmeister():
    res = run_cli("combos", "6", "6", "1", "3", "5", "--set", "loadout.upgrades=['paschmeister','paschmeister']",
                  "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["total_attack"] == 36
    assert out["combos"] == [{"name": "Pasch", "dice": [6, 6], "attack": 36, "shield": 8, "heal": 6}]
    cfg = load_config(DungeonConfig, "dungeon", None, ["loadout.upgrades=['paschmeister','paschmeister']"])
    assert combos_json([6, 6, 1, 3, 5], cfg)["total_attack"] == 36
