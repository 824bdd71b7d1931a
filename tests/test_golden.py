"""Golden per-run table hashes and replay texts (``tests/golden``): any change to what a game plays fails here.

Regenerate with ``make golden`` after an intended rule change and say in the commit which rule changed them.
"""

from __future__ import annotations

import json

import pytest

from tests.golden.cases import REPLAY_CASES, TABLE_CASES, hash_path, play_hash, replay_path, replay_text


@pytest.mark.parametrize("case", TABLE_CASES, ids=lambda c: f"{c.game}:{c.id}")
def test_table_hash(case):
    stored = json.loads(hash_path(case.game).read_text())
    assert play_hash(case) == stored[case.id], "per-run table changed: run `make golden` if the change is intended"


@pytest.mark.parametrize(("case", "run"), REPLAY_CASES, ids=lambda x: getattr(x, "id", str(x)))
def test_replay_text(case, run):
    expected = replay_path(case, run).read_text()
    assert replay_text(case, run) == expected, f"replay changed: diff {replay_path(case, run)} (make golden)"
