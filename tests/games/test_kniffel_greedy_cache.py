"""Greedy's decision tables from the disk cache: the same arrays as the kernel builds, a damaged file rebuilt."""

from __future__ import annotations

import numpy as np

from policies.kniffel import bots
from sim.games import get_game
from sim.games.kniffel.config import freeze
from sim.games.kniffel.solve import T5, tables

GAME = get_game("kniffel")


def _inputs():
    rp = freeze(GAME.load())
    T, sc, _ = tables(rp)
    return T, T5.index_of_code, rp.base, sc


def test_cached_tables_equal_the_kernel_and_heal(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path))
    args = _inputs()
    gk, gc = bots._greedy_tables(*args)
    first = bots.greedy_tables(*args)  # built, then written
    files = list((tmp_path / "tables" / "kniffel").glob("greedy-*.npz"))
    assert len(files) == 1
    second = bots.greedy_tables(*args)  # read back
    for got in (first, second):
        np.testing.assert_array_equal(got[0], gk)
        np.testing.assert_array_equal(got[1], gc)
        assert got[0].dtype == gk.dtype and got[1].dtype == gc.dtype
    files[0].write_bytes(files[0].read_bytes()[:1000])  # truncated: reported, removed, rebuilt
    third = bots.greedy_tables(*args)
    assert "corrupt" in capsys.readouterr().err
    np.testing.assert_array_equal(third[0], gk)
    assert files[0].is_file()


def test_other_rules_get_another_file(tmp_path, monkeypatch):
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path))
    T, ioc, rules, sc = _inputs()
    bots.greedy_tables(T, ioc, rules, sc)
    sc2 = sc.copy()
    sc2[0, 0] += 1
    bots.greedy_tables(T, ioc, rules, sc2)
    assert len(list((tmp_path / "tables" / "kniffel").glob("greedy-*.npz"))) == 2
