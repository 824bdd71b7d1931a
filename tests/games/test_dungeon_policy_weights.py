"""Würfel Dungeon's ``[policies.vorschlag]`` section: the fitted offer weights and thresholds reach the kernel.

The defaults reproduce the golden tables (``tests/test_golden.py``); here a changed weight must change how
Vorschlag plays and leave a policy that does not read it alone, and bad values are config errors.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.core.batch import run_batch
from sim.core.config import ConfigError, DicesimError
from sim.games.dungeon.freeze import freeze
from sim.games.dungeon.game import GAME

N = 400
LEICHT = {"difficulty": "leicht"}


def _table(policy: str, overrides: list[str]):
    return run_batch(GAME, GAME.load(overrides=overrides), [policy], N, 3, LEICHT, progress=False).table


def test_defaults_are_the_fitted_values_frozen_into_the_rule_record():
    cfg = GAME.load()
    fz = freeze(cfg, "leicht")
    vw = cfg.policies.vorschlag
    assert (vw.att_combos, vw.per_coin, vw.reserve, vw.hero_gain) == (1.15, 0.035, 20.0, 18.0)
    rec = fz.rp[0]
    for name in type(vw).model_fields:
        assert rec[f"policies_vorschlag_{name}"] == getattr(vw, name) == getattr(rec, f"policies_vorschlag_{name}")
    assert "policies" in cfg.assumed


def test_a_market_threshold_changes_vorschlag_and_not_greedy():
    """``per_coin`` 1000: no market item is worth buying to Vorschlag any more; greedy never reads it."""
    base = _table("vorschlag", [])
    high = _table("vorschlag", ["policies.vorschlag.per_coin=1000"])
    assert base["market_buys"].sum() > 0
    assert high["market_buys"].sum() == 0
    # the same rooms up to the first market: identical play until then
    np.testing.assert_array_equal(base["turns_room_1"], high["turns_room_1"])
    g0 = _table("greedy", [])
    g1 = _table("greedy", ["policies.vorschlag.per_coin=1000", "policies.vorschlag.shield=0"])
    pd.testing.assert_frame_equal(g0, g1)


def test_an_offer_weight_changes_the_reward_picks():
    """Shield worth nothing to the rating: Dicke Haut (shield) is picked less often when offered."""
    base = _table("vorschlag", [])
    low = _table("vorschlag", ["policies.vorschlag.shield=0"])
    assert low["picked_dicke_haut"].sum() < base["picked_dicke_haut"].sum()


@pytest.mark.parametrize("override", ["policies.vorschlag.shield=-1", "policies.vorschlag.joker_heal_share=2",
                                      "policies.vorschlag.nope=1", "policies.vorschlag.pasch='x'"])
def test_invalid_weights_are_config_errors(override):
    with pytest.raises((ConfigError, DicesimError)):
        GAME.load(overrides=[override])
