"""A fitted population (``[skill] groups``) plays in every game that is fitted (issue 32): each run's player at
their group's level, on the dice the run has at any level, so a rule change reruns on the same population paired.

The reference is independent of the mixing code: a plain batch at each group's level (one level, no groups) and
the assignment of players to groups (``group_of``); every row of the mixed batch must be the row of its group's
batch, and a replay of a run must be that row too.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.batch import run_batch
from sim.core.skill import Group, at_level, group_of, run_levels
from sim.games import get_game

LEVELS = (0.3, 0.9)


def population(game: str, weights=(0.4, 0.6), games_per_player: int = 2):
    g = get_game(game)
    cfg = g.load(None, [])
    skill = cfg.skill.model_copy(update={"groups": [Group(level=lv, weight=w) for lv, w in zip(LEVELS, weights,
                                                                                               strict=True)],
                                         "games_per_player": games_per_player})
    return g, type(cfg).model_validate(cfg.model_copy(update={"skill": skill}).model_dump(mode="json"))


@pytest.mark.parametrize(("game", "policy"), [("dungeon", "vorschlag"), ("dungeon24", "heuristic"),
                                              ("dadox", "optimal-turn"), ("kniffel", "optimal")])
def test_each_run_plays_at_its_players_group_level(game, policy):
    g, mix = population(game)
    opts = g.check_options({})
    seats = g.seat_policies(policy, opts)
    n = 60
    table = run_batch(g, mix, seats, n, 5, opts, progress=False).table
    group = group_of(mix.skill, np.arange(n))
    assert (group[::2] == group[1::2]).all() and 0 < (group == 0).sum() < n  # a player's games in one group, both
    for k, level in enumerate(LEVELS):
        plain = run_batch(g, at_level(mix, level), seats, n, 5, opts, progress=False).table
        rows = np.isin(table["run"].to_numpy(), np.flatnonzero(group == k))
        assert table[rows].reset_index(drop=True).equals(plain[rows].reset_index(drop=True)), (game, level)
    assert not table.equals(run_batch(g, at_level(mix, LEVELS[1]), seats, n, 5, opts, progress=False).table)
    assert (run_levels(mix.skill, np.arange(n)) == np.array(LEVELS)[group]).all()
    for run in (int(np.flatnonzero(group == 0)[0]), int(np.flatnonzero(group == 1)[0])):  # a replay is its row
        rows = g.replay_log(mix, seats, 5, run, opts).table_rows
        have = table[table["run"] == run].reset_index(drop=True)
        for i, row in enumerate(rows):
            for col, value in row.items():
                if col in have.columns and isinstance(value, (int, float, np.integer, np.floating)):
                    assert have.loc[i, col] == pytest.approx(value), (game, run, col)



def test_a_level_beside_groups_is_refused_not_ignored():
    """With groups each player plays at its group's level: a level set beside them was silently ignored (Greedy
    scored the same at skill.level 0.1 as at 1.0)."""
    from sim.core.config import DicesimError

    g = get_game("kniffel")
    with pytest.raises(DicesimError, match=r"skill.level 0.1 beside skill.groups"):
        g.load(None, ["skill.level=0.1", "skill.groups=[{level=1.0, weight=1}]"])
    assert g.load(None, ["skill.groups=[{level=0.5, weight=1}]"]).skill.level == 1.0  # groups alone: as ever
