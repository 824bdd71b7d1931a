"""The Würfel Dungeon's per-config profile caches under concurrent use: the kernel releases the interpreter lock, so
two batches of one config can play at once in one process (two studio pages); each call must hold a cache of its own,
and the numbers must be those of the batches played one after the other."""

from __future__ import annotations

import threading

import numpy as np

from sim.core.batch import run_batch
from sim.games import get_game
from sim.games.dungeon import inputs

G = get_game("dungeon")
OPTS = {"difficulty": "leicht"}


def test_two_kernel_calls_at_once_never_share_a_profile_cache():
    cfg = G.load(None, ["difficulty.leicht.hp=0.97"])
    with inputs.borrowed(cfg, "leicht") as (fz1, c1), inputs.borrowed(cfg, "leicht") as (fz2, c2):
        assert fz1 is fz2  # the frozen arrays are read only: shared
        assert c1 is not c2 and not np.shares_memory(c1[0], c2[0])
    with inputs.borrowed(cfg, "leicht") as (_, c3):
        assert c3 is c1 or c3 is c2  # given back and lent again: the tables built so far are kept


def test_batches_of_one_config_played_at_once_equal_those_played_in_turn():
    cfg = G.load(None, [])
    alone = {p: run_batch(G, cfg, [p], 1500, 4, OPTS, progress=False).table for p in ("vorschlag", "greedy")}
    got: list[tuple[str, object]] = []

    def play(p: str) -> None:
        got.append((p, run_batch(G, cfg, [p], 1500, 4, OPTS, progress=False).table))

    threads = [threading.Thread(target=play, args=(p,)) for p in ("vorschlag", "greedy", "vorschlag", "greedy")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 4
    for p, table in got:
        assert table.equals(alone[p]), p


def test_the_memo_keeps_the_last_configs_used_not_every_one():
    for i in range(inputs.KEEP + 3):
        inputs.frozen(G.load(None, [f"difficulty.leicht.hp={0.5 + i / 100}"]), "leicht")
    assert len(inputs._FROZEN) <= inputs.KEEP
    last = G.load(None, [f"difficulty.leicht.hp={0.5 + (inputs.KEEP + 2) / 100}"])
    assert inputs.frozen(last, "leicht")[0] is inputs.frozen(last, "leicht")[0]  # still memoised
