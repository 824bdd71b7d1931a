"""A refused config value exits 2 in one ``error:`` line without importing numba, pandas or the game's kernels, in
every game (issue 29: each config model reads its constants from a numba-free module of its game, not ``rules``)."""

from __future__ import annotations

import pytest

from tests.test_cli_fast import HEAVY, _game_code, _probe

LIGHT = (".config", ".codes", ".layout", ".rows", ".labels")  # the config model and the plain modules it reads


@pytest.mark.parametrize("game, policy, value, needle", [
    ("kniffel", "greedy", "bonus.value=nan", "bonus.value"),
    ("kniffel", "greedy", "joker.mode=nosuch", "joker.mode"),
    ("dadox", "greedy", "goal.target=nan", "goal.target"),
    ("dadox", "greedy", "policies.threshold=[1,2]", "policies.threshold"),
    ("dungeon", "greedy", "market.prices=[-1,1,1]", "market.prices"),
    ("dungeon", "greedy", "mastery.kind=nosuch", "mastery.kind"),
    ("dungeon24", "greedy", "abilities.schattenschmerz_turns=99", "schattenschmerz_turns"),
    ("dungeon24", "greedy", "start.lp=nan", "start.lp"),
])
def test_a_refused_value_imports_no_numba_in_any_game(tmp_path, game, policy, value, needle):  # noqa: F811
    code, modules, stderr = _probe(tmp_path, "play", game, "--policy", policy, "--set", value)
    assert code == 2 and stderr.startswith("error:") and len(stderr.strip().splitlines()) == 1, stderr
    assert needle in stderr and len(stderr) < 300, stderr
    assert not modules & {"numba", "pandas"}, sorted(modules & set(HEAVY))
    assert f"sim.games.{game}.config" in modules  # the model refused it, not an earlier check
    assert not [m for m in _game_code(modules) if not m.endswith(LIGHT) and m != "sim.games.base"]  # no kernel


@pytest.mark.parametrize("args, said", [
    (["play", "dungeon24"], "error: --policy is missing: choose from random, greedy, heuristic, exact-exchange, "
                            "expectimax"),
    (["calibrate", "dungeon", "--policy", "vorschlag"], "error: --target is missing: metric=value, e.g. win_rate=0.5"),
    (["sweep"], "error: sweep file is missing: e.g. configs/sweeps/kniffel-bonus.toml"),
])
def test_a_missing_flag_says_what_it_takes(tmp_path, args, said):
    """click's "Missing option '--policy'." named neither the game's policies nor what the flag takes."""
    code, modules, stderr = _probe(tmp_path, *args)
    assert code == 2 and stderr.strip() == said, stderr
    assert not modules & {"numba", "pandas"}, sorted(modules & set(HEAVY))


@pytest.mark.parametrize("args, needle", [
    (["play", "dungeon", "--policy", "greedy", "--set", "rollout.k=2"], "rollout.k is read only by rollout"),
    (["play", "dungeon24", "--policy", "greedy", "--set", "abilities.auferstehung_count=3"], "auferstehung_count"),
    (["play", "dadox", "--policy", "greedy", "--players", "1", "--opponent", "random"], "--players 1 has none"),
    (["solve", "kniffel", "--set", "skill.level=0.5"], "solve kniffel does not read it"),
    (["compare", "dungeon", "--policies", "greedy@wetzstein+dicke_haut,greedy@dicke_haut+wetzstein"], "twice"),
])
def test_a_set_the_run_never_reads_is_refused_without_the_kernels(tmp_path, args, needle):
    """The unread-field, lone-opponent and same-loadout refusals come from the options modules and the config model
    alone: no numba, pandas or kernel."""
    code, modules, stderr = _probe(tmp_path, *args)
    assert code == 2 and stderr.startswith("error:") and len(stderr.strip().splitlines()) == 1, stderr
    assert needle in stderr, stderr
    assert not modules & {"numba", "pandas"}, sorted(modules & set(HEAVY))
    assert not [m for m in _game_code(modules) if not m.endswith(LIGHT) and m != "sim.games.base"]
