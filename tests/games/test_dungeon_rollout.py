"""The ``rollout`` policy of Würfel Dungeon (``sim.games.dungeon.rollout``, issue 18 part 2).

It must beat its base on paired seeds, replay as the batch plays, not depend on chunking or on how runs are split
over threads (cache rows), and choose at every decision the option whose continuations won most (a hand check
with K = 1 that replays every decision of a run by hand through ``play_run``'s rollout control).
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core import stats
from sim.core.batch import run_batch
from sim.core.config import ConfigError
from sim.games import get_game
from sim.games.dungeon import play as P
from sim.games.dungeon import rollctl as RC
from sim.games.dungeon import rollout as RO
from sim.games.dungeon import runs as RUNS
from sim.games.dungeon import tables as T
from sim.games.dungeon.inputs import TM, frozen
from sim.games.dungeon.scratch import new_scratch
from sim.games.dungeon.table_schema import table_columns

SEED = 2026
G = get_game("dungeon")


def play(policy: str, n: int, sets: tuple[str, ...] = (), difficulty: str = "normal", chunk: int = 0):
    opts = G.check_options({"difficulty": difficulty})
    cfg = G.load(None, list(sets))
    G.prepare(cfg, [policy], opts)
    return run_batch(G, cfg, [policy], n, SEED, opts, chunk=chunk or G.chunk, progress=False).table


def test_rollout_beats_its_base_on_paired_seeds():
    """Rollout (K = 8) over vorschlag on Normal: more wins on the same runs, the paired 95 % interval above 0."""
    n = 300
    base = play("vorschlag", n)["win"].to_numpy(np.float64)
    roll = play("rollout", n, ("rollout.k=8",))["win"].to_numpy(np.float64)
    diff = stats.paired_difference(roll, base)
    assert diff["ci95"][0] > 0, (roll.mean(), base.mean(), diff)


def test_replay_is_the_batch_row():
    sets = ("rollout.k=2",)
    table = play("rollout", 10, sets)
    cfg = G.load(None, list(sets))
    for run in (1, 6, 9):
        row = G.replay_log(cfg, ["rollout"], SEED, run, {"difficulty": "normal"}).table_rows[0]
        batch = table[table["run"] == run].iloc[0]
        assert len(row) > 100 and all(row[c] == pytest.approx(batch[c]) for c in row if c not in ("policy",)), run
        assert row["policy"] == "rollout"


def test_chunks_and_thread_blocks_do_not_change_the_runs():
    """Chunking, and the runs' split into blocks (one per thread and cache row: 1 or 3 blocks here)."""
    sets = ("rollout.k=2",)
    assert play("rollout", 24, sets, chunk=5).equals(play("rollout", 24, sets, chunk=24))
    cfg = G.load(None, list(sets))
    fz, _ = frozen(cfg, "normal")
    n_cols = len(table_columns(cfg))
    outs = []
    for rows in (1, 3):
        out = np.zeros((12, n_cols))
        RUNS.play_batch(4, SEED, 0, 12, fz, T.new_cache(rows), TM, out)
        outs.append(out)
    assert np.array_equal(outs[0], outs[1], equal_nan=True)


def _decision_values(fz, cache, sc, forced, nf, k, run):
    """By hand: the decision after ``forced[:nf]`` and each option's wins and score over salts 1..k (None: no more
    decisions)."""
    rc = RC.new_control()
    tmp = np.zeros((1, len(table_columns(G.load()))))  # a block of one run: the kernel the batch compiled
    nolog = np.zeros((0, P.LOG_W), np.int64)
    rc[RC.RC_NF], rc[RC.RC_STOP] = nf, 1
    P.play_block(0, SEED, run, 0, 1, 1, 0, fz, cache, TM, tmp, nolog, sc, forced, rc)
    if rc[RC.RC_HIT] == 0:
        return None
    vals = {}
    trial = forced.copy()
    for o in range(rc[RC.RC_NOPT]):
        if not (rc[RC.RC_MASK] >> o) & 1:
            continue
        trial[nf] = o
        w = s = 0.0
        for j in range(1, k + 1):
            c = RC.new_control()
            c[RC.RC_NF], c[RC.RC_SALT] = nf + 1, j
            P.play_block(0, SEED, run, 0, 1, 1, 0, fz, cache, TM, tmp, nolog, sc, trial, c)
            w += tmp[0, P.O_WIN]
            s += tmp[0, P.O_SCORE]
        vals[o] = (w, s)
    return int(rc[RC.RC_KIND]), vals


def test_k1_each_choice_is_the_argmax_of_its_continuations():
    """K = 1 on a few runs: every forced choice of the rollout is the option whose one continuation won (ties: the
    higher score, then the lower code); the decisions cover every kind, and continuations do differ by option."""
    cfg = G.load(None, ["rollout.k=1"])
    fz, cache = frozen(cfg, "normal")
    sc = new_scratch(0, fz.loadout.shape[0])
    n_cols = len(table_columns(cfg))
    kinds, spread = set(), 0
    for run in (0, 3):
        forced, rc = RO.new_rollout_scratch()
        out = np.zeros((1, n_cols))
        RO.rollout_block(0, 1, SEED, run, 0, 1, 1, 0, fz, cache, TM, out, np.zeros((0, P.LOG_W), np.int64), sc, forced,
                         rc)
        nf = int(rc[RC.RC_NF])
        assert nf > 0
        for d in range(nf + 1):
            got = _decision_values(fz, cache, sc, forced, d, 1, run)
            if d == nf:
                assert got is None  # the rollout found every decision of the run
                break
            kind, vals = got
            kinds.add(kind)
            best = max(vals, key=lambda o: (vals[o][0], vals[o][1], -o))
            assert forced[d] == best, (run, d, kind, vals)
            spread += len({v for v in vals.values()}) > 1
    assert {RC.K_PATH, RC.K_REWARD} <= kinds
    assert spread > 0


def test_plain_policies_ignore_the_rollout_section():
    assert play("vorschlag", 100).equals(play("vorschlag", 100, ("rollout.k=3", "rollout.base=greedy")))


@pytest.mark.parametrize("bad", ["rollout.base=rollout", "rollout.base=nope", "rollout.k=0"])
def test_invalid_rollout_settings(bad):
    with pytest.raises(ConfigError, match="rollout"):
        G.load(None, [bad])
