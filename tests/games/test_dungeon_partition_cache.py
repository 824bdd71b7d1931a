"""The Würfel Dungeon's partition candidates from the disk cache: the arrays the rules module builds, exactly (values
and dtypes), written once, read back, and a damaged file reported and rebuilt."""

from __future__ import annotations

import numpy as np

from sim.games.dungeon import freeze
from sim.games.dungeon import rules as R


def _fresh():
    freeze.partition_candidates.cache_clear()  # the process's own copy: ask the disk
    return freeze.partition_candidates()


def test_cached_candidates_equal_the_built_ones_and_heal(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICESIM_CACHE_DIR", str(tmp_path))
    built = R.partition_candidates()
    try:
        first = _fresh()  # built, then written
        files = list((tmp_path / "tables" / "dungeon").glob("partitions-*.npz"))
        assert len(files) == 1
        second = _fresh()  # read back
        for got in (first, second):
            for a, b in zip(got, built, strict=True):
                np.testing.assert_array_equal(a, b)
                assert a.dtype == b.dtype and a.shape == b.shape
        files[0].write_bytes(files[0].read_bytes()[:500])  # truncated: reported, removed, rebuilt
        third = _fresh()
        assert "corrupt" in capsys.readouterr().err
        np.testing.assert_array_equal(third[2], built[2])
        assert files[0].is_file()
    finally:
        freeze.partition_candidates.cache_clear()  # later tests read the real cache folder again
