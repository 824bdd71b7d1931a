"""The exact optimum: published values, the solver's turn tables against the rules, the cache."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.config import load_config
from sim.core.dice import multisets
from sim.games.kniffel import rules as R
from sim.games.kniffel.config import KniffelConfig, freeze
from sim.games.kniffel.solve import final_values, new_scratch, solve, state_levels, tables, widget
from tests.conftest import here_json

T5 = multisets(5)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("free-joker", 254.5896095),  # Verhoeff's published optimum
        ("forced-joker", 254.5877287),
        ("no-joker", 253.9702412),
        ("no-bonus", 245.8707745),
    ],
)
def test_published_optima(name, expected):
    cfg = load_config(KniffelConfig, "kniffel", f"configs/kniffel/{name}.toml")
    assert solve(freeze(cfg))[0] == pytest.approx(expected, abs=5e-4)


def test_seed_default_optimum_via_cli():
    """The seed's own rules (forced joker, no rolling after a joker Kniffel): 254.5838197."""
    out = here_json("solve", "kniffel", "--no-cache")  # the command's function, in this process
    assert out["game"] == "kniffel"
    assert out["value"] == pytest.approx(254.5838197, abs=5e-7)
    assert out["value"] <= 254.5877287  # can only lose against the official rules
    assert out["seconds"] > 0


@settings(max_examples=60, deadline=None)
@given(
    mask=st.integers(0, (1 << 13) - 2),
    up=st.integers(0, 63),
    flag=st.integers(0, 1),
    mode=st.sampled_from(["forced", "free", "off"]),
    when_zero=st.booleans(),
)
def test_turn_table_matches_the_rules(mask, up, flag, mode, when_zero):
    """The solver's table-driven final scoring equals a brute force over ``rules.apply_move``."""
    cfg = load_config(
        KniffelConfig, "kniffel", None, [f"joker.mode={mode}", f"joker.when_zero={str(when_zero).lower()}"]
    )
    rp = freeze(cfg)
    if not (mask >> R.KNIFFEL) & 1:
        flag = 0
    key = R.make_key(mask, up, flag)
    E = np.random.default_rng(mask).random(R.KEY_SPACE) * 50
    T, sc, kn = tables(rp)
    val = np.empty(len(T5.counts))
    cat = np.empty(len(T5.counts), np.int64)
    final_values(key, E, T[0], T[4], kn, sc, rp, val, cat, True)
    for r in T5.rolls:
        c_r = T5.counts[r]
        best = max(
            sum(R.apply_move(c_r, c, key, rp)[:3]) + E[R.apply_move(c_r, c, key, rp)[3]]
            for c in range(13)
            if R.legal(c_r, c, mask, flag, rp)
        )
        assert val[r] == pytest.approx(best, abs=1e-9)
        assert R.legal(c_r, int(cat[r]), mask, flag, rp)


@pytest.mark.parametrize("name", ["forced-joker", "no-joker"])
def test_solver_lanes_equal_the_one_state_widget(name):
    """The table (states solved ``LANES`` at a time) holds, bit for bit, what ``widget`` computes for each state
    alone from the same fuller sheets (the value the optimal policy's plans are built from)."""
    cfg = load_config(KniffelConfig, "kniffel", f"configs/kniffel/{name}.toml")
    rp = freeze(cfg)
    E = solve(rp)
    T, sc, kn = tables(rp)
    scratch = new_scratch()
    rng = np.random.default_rng(3)
    levels = state_levels(rp)
    for n in range(R.N_CAT):
        keys = levels[n] if len(levels[n]) <= 64 else rng.choice(levels[n], 64, replace=False)
        for key in keys:
            v = widget(int(key), E, T, rp, sc, kn, scratch, np.empty((1, 1), np.int64), np.empty(1, np.int64),
                       False, np.empty((0, 0)))
            assert v == E[key], (n, int(key))
    assert 0 < E[levels[12]].min() and E[levels[0][0]] == E[0]
