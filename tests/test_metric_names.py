"""Each game declares the metric names a batch reports (``GameConfig.metric_names``), so calibrate, tune, check and
sweep refuse an unknown metric before any run (issue 29). The declaration is compared, name for name and in order,
with the metrics of real batches, for every game and a mix of seats, policies, options and rule shapes: it cannot
drift from ``Game.metrics``."""

from __future__ import annotations

import pytest

from sim.core.batch import run_batch
from sim.core.errors import DicesimError
from sim.games import GAMES, get_game

FIFTH = next(g for g in GAMES if g not in ("kniffel", "dadox", "dungeon", "dungeon24"))  # the one-die game
CASES = [
    ("kniffel", "greedy", {}, []),
    ("kniffel", "greedy,random", {"players": 2}, []),
    ("kniffel", "greedy", {"players": 3}, []),
    ("dadox", "greedy", {}, []),
    ("dadox", "greedy", {"players": 1}, []),
    ("dadox", "greedy,random", {"players": 3}, []),
    (FIFTH, "hold-20", {}, []),
    (FIFTH, "hold-20,optimal-turn", {}, []),
    ("dungeon", "greedy", {}, []),
    ("dungeon", "greedy@heilkraeuter", {"difficulty": "schwer"}, []),
    ("dungeon", "random", {}, ["rooms.count=6", "rooms.bosses={5='wuerfelfresser'}", "market.after_rooms=[2,5]"]),
    ("dungeon24", "greedy", {}, []),
    ("dungeon24", "random", {"people": "untote"}, []),
]


def test_every_game_declares_its_metric_names():
    assert {g for g, *_ in CASES} == set(GAMES)
    for name in GAMES:
        g = get_game(name)
        opts = g.check_options({})
        assert g.metric_names(g.load(), opts, g.seat_policies(g.report_policies[0], opts))


@pytest.mark.parametrize("game, policy, options, sets", CASES, ids=[f"{g}:{p}:{o}:{s}" for g, p, o, s in CASES])
def test_declared_names_are_the_names_a_batch_reports(game, policy, options, sets):
    g = get_game(game)
    opts = g.check_options(options)
    cfg = g.load(None, sets)
    seats = g.seat_policies(policy, opts)
    batch = run_batch(g, cfg, seats, 40, 3, opts, progress=False)
    assert g.metric_names(cfg, opts, seats) == list(g.metrics(batch.table, opts, cfg))


def test_an_unknown_metric_is_refused_with_the_closest_names_first():
    g = get_game("kniffel")
    opts = g.check_options({"players": 2})
    cfg, seats = g.load(), ["greedy", "random"]
    g.check_metric("win_rate_random", cfg, opts, seats)
    with pytest.raises(DicesimError, match=r"did you mean mean_score\? choose from mean_score_greedy, "
                                           r"mean_score_random, sd_score"):
        g.check_metric("MEAN_SCORE", cfg, opts, seats)
    with pytest.raises(DicesimError, match="unknown metric 'win_rate_seat_2' for kniffel with greedy/random"):
        g.check_metric("win_rate_seat_2", cfg, opts, seats)
