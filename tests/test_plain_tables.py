"""``describe`` and ``combos`` of a game that declares ``PLAIN_DESCRIBE`` run its rules as plain Python
(``sim.jit.plain``, ``sim.cli.work.tables``): the same tables as the compiled rules, to the last digit, and no numba,
kernel or policy module imported on the way (issue 30: a first answer under new rules in well under a second).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import pytest

from sim.core import paths
from sim.core.jsonable import json_default
from sim.core.schema import describe_columns
from sim.games import GAMES, declared, get_game
from tests.conftest import ROOT, cli_here
from tests.probe import probe
from tests.test_cli_fast import _game_code

PLAIN_GAMES = [g for g in GAMES if declared(g, "PLAIN_DESCRIBE") is not None and not declared(g, "DESCRIBE_COMPILED")]

# every table both ways: the default rules, a forced loadout that changes the combos (Glückssieben's straights
# through 7, Paschmeister's Pasch, the Opferaltar), a changed hit point factor; at each difficulty
DUNGEON_CASES = [
    ([], {}),
    (["loadout.upgrades=['glueckssieben', 'paschmeister']", "loadout.altar=2"], {"difficulty": "schwer"}),
    (["loadout.upgrades=['extra_wuerfel', 'berserker']", "loadout.talents=['scharfe_klingen']"], {}),
    (["difficulty.normal.hp=1.37", "difficulty.normal.damage=0.83"], {"difficulty": "normal"}),
]

CASES = {
    "dungeon": DUNGEON_CASES,
    "kniffel": [([], {}), (["bonus.threshold=70", "joker.mode='off'"], {"players": 3})],
    "dungeon24": [([], {}), (["start.lp=30"], {})],
}

PLAIN_SCRIPT = """
import json, sys
from sim.jit.plain import plain_rules
from importlib import import_module
from sim.core.config import load_config
from sim.core.jsonable import json_default
from sim.core.schema import describe_columns
game, cases = sys.argv[1], json.loads(sys.argv[2])
out = []
with plain_rules() as plain:
    mod = import_module(f"sim.games.{game}.describe")
    for sets, options in cases:
        cfg = load_config(mod.CONFIG, game, None, sets)
        d = mod.describe(cfg, options)
        if "columns" not in d:
            d["columns"] = describe_columns(mod.table_columns(cfg, options))
        out.append({"describe": d, "cup": mod.cup_json(cfg) if hasattr(mod, "cup_json") else None})
print(json.dumps({"out": out, "plain": plain, "numba": "numba" in sys.modules}, default=json_default))
"""


def _compiled(game: str, cases: list) -> list[dict]:
    g = get_game(game)
    out = []
    for sets, options in cases:
        cfg = g.load(None, sets)
        d = g.describe(cfg, g.check_options(options))
        if "columns" not in d:  # as sim.cli.work.single adds them
            d["columns"] = describe_columns(g.table_columns(cfg, g.check_options(options)))
        out.append({"describe": d, "cup": g.cup(cfg) if g.supports("combos") else None})
    return json.loads(json.dumps(out, default=json_default))


def test_the_games_with_plain_tables_are_declared():
    assert {"dungeon", "kniffel", "dungeon24"} <= set(PLAIN_GAMES) and len(PLAIN_GAMES) == len(GAMES) - 1  # not Dadox
    assert declared("dadox", "DESCRIBE_COMPILED") and declared("dadox", "PLAIN_DESCRIBE") == ()


@pytest.mark.parametrize("sets", [[], ["goal.target=5000", "bust.penalty='subtract'"],
                                  ["turn.later_throws_need_1_or_5=true", "turn.opening_minimum=350"]])
def test_dadox_describe_without_the_game_is_the_games(sets):
    """Dadox's describe module (run by the command line without the game) answers as ``Game.describe``, columns
    included."""
    from sim.cli.work.tables import describe

    g = get_game("dadox")
    want = _compiled("dadox", [(sets, {})])[0]["describe"]
    got = json.loads(json.dumps(describe("dadox", None, sets, {}), default=json_default))
    assert got == want and got["optimal_turn"]["expected_turn_score"] > 0
    assert g.describe(g.load(None, sets), {})["optimal_turn"] == got["optimal_turn"]


def test_a_dadox_first_ask_loads_no_game_play_kernel_policy_or_pandas(tmp_path):
    """A Dadox rules value asked nowhere before: solved by the describe module on the compiled rules, without the
    game, its play kernels, its policies, pandas or matplotlib."""
    got, r = probe(tmp_path, "describe", "dadox", "--json", "--set",  # a turn rule: a solve
                   f"turn.opening_minimum={50 * (uuid.uuid4().int % 150 + 1)}")
    assert got and got["code"] in (0, None), r.stderr
    modules = set(got["modules"])
    assert "sim.games.dadox.solve" in modules and json.loads(r.stdout)["game"] == "dadox"  # solved, not read back
    assert not modules & {"pandas", "matplotlib"}, sorted(modules & {"pandas", "matplotlib"})
    game_code = _game_code(modules)
    assert not [m for m in game_code if m.startswith("policies.") or m.endswith((".play", ".game"))], game_code



def _leaves(node: dict, prefix: str = ""):
    for k, v in node.items():
        if isinstance(v, dict) and v:
            yield from _leaves(v, f"{prefix}{k}.")
        elif k != "name":
            yield prefix + k, v


def _other(value):
    """A different value of the same kind (one a validator may still refuse)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 50 if value >= 0 else value - 50
    if isinstance(value, float):
        return value / 2 if value else 0.25
    if isinstance(value, list) and value and all(isinstance(x, int) for x in value):
        return [x + 50 for x in value]
    return None


def test_dadox_derived_tables_read_only_the_rules_they_declare():
    """``DESCRIBE_READS`` keeps Dadox's derived tables under its scoring, turn and bust rules: every other field of the
    rules, changed, leaves them as they were (else a kept table would be served for rules it does not fit)."""
    from pydantic import ValidationError

    from sim.cli.work.tables import CONFIG_KEYS, _computed
    from sim.core.config import ConfigError

    reads = declared("dadox", "DESCRIBE_READS")
    g = get_game("dadox")
    base = g.load()

    def derived(cfg):
        d = json.loads(json.dumps(_computed("dadox", cfg, None, {}), default=json_default))
        return {k: v for k, v in d.items() if k not in CONFIG_KEYS}

    want, tried = derived(base), []
    for path, value in _leaves(base.model_dump(mode="json")):
        if any(path == r or path.startswith(r + ".") for r in reads) or _other(value) is None:
            continue
        try:
            cfg = g.load(None, [f"{path}={json.dumps(_other(value))}"])
        except (ConfigError, ValidationError, ValueError):
            continue
        tried.append(path)
        assert derived(cfg) == want, path
    assert {"goal.target", "game.max_turns", "policies.greedy_bank_at", "solver.score_floor"} <= set(tried), tried
    # and a field it reads does move them
    assert derived(g.load(None, ["scoring.single_5=100"])) != want


def test_a_new_goal_answers_from_the_kept_tables_without_numba(tmp_path):
    """After one describe under these scoring, turn and bust rules, a new goal (or policy setting) is answered from the
    kept tables: the same text as a solve gives, without numba (issue 30: describe ≤ 0.5 s)."""
    from sim.cli.work.describe_text import describe_text
    from sim.cli.work.tables import _computed, _model

    # a cache of answers of its own, this machine's compiled kernels (a cold compile would be most of the test)
    env = {**os.environ, "DICESIM_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": str(paths.numba_dir())}
    first = subprocess.run([sys.executable, "-c", "from sim.cli import main; main()", "describe", "dadox"], cwd=ROOT,
                           capture_output=True, text=True, timeout=300, env=env)
    assert first.returncode == 0, first.stderr
    goal = f"goal.target={50 * (uuid.uuid4().int % 100 + 100)}"
    got, r = probe(tmp_path, "describe", "dadox", "--set", goal, env=env)
    assert got and got["code"] in (0, None), r.stderr
    assert "numba" not in set(got["modules"]), "read back, not solved"
    g = get_game("dadox")
    computed = json.loads(json.dumps(_computed("dadox", g.load(None, [goal]), None, {}), default=json_default))
    assert r.stdout == describe_text(computed, _model("dadox")) + "\n"

@pytest.mark.parametrize("game", PLAIN_GAMES)
def test_plain_rules_give_the_compiled_rules_tables(game):
    cases = CASES.get(game, [([], {})])
    r = subprocess.run([sys.executable, "-c", PLAIN_SCRIPT, game, json.dumps(cases)], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, env=os.environ)
    assert r.returncode == 0, r.stderr
    plain = json.loads(r.stdout)
    assert plain["plain"] is True and plain["numba"] is False
    assert plain["out"] == _compiled(game, cases)


@pytest.mark.parametrize("args, field", [
    (["describe", "dungeon", "--json", "--difficulty", "Normal"], "difficulty.leicht.hp=0.9{}"),
    (["combos", "6", "5", "4", "3", "2", "1"], "difficulty.leicht.hp=0.9{}"),
    (["describe", "kniffel", "--players", "2"], "scores.kniffel={}"),
    (["describe", "dungeon24"], "start.lp={}"),
])
def test_a_first_ask_is_computed_without_numba_kernels_or_policies(tmp_path, args, field):
    """A rules value asked nowhere before: the answer is computed by the game's describe module (not read back),
    without numba, the game's kernels or its policies, pandas or matplotlib."""
    fresh = field.format(uuid.uuid4().int % 90 + 10 if "hp" not in field else f"{uuid.uuid4().int % 10**4:04d}")
    got, r = probe(tmp_path, *args, "--set", fresh)
    assert got and got["code"] in (0, None), r.stderr
    modules = set(got["modules"])
    game = args[1] if args[0] == "describe" else "dungeon"
    assert f"sim.games.{game}.rules" in modules  # computed (its rules run), not read back
    assert not modules & {"numba", "pandas", "matplotlib", "scipy"}, sorted(modules & {"numba", "pandas"})
    game_code = _game_code(modules)
    assert not [m for m in game_code if m.startswith("policies.") or m.endswith((".play", ".game"))], game_code
    if args[0] == "combos":
        assert "total attack" in r.stdout
    elif "--json" in args:
        assert json.loads(r.stdout)["game"] == game
    else:  # the tables as text, headed by the game's name
        assert r.stdout.startswith(declared(game, "TITLE") + " · rules ")


def test_the_command_prints_the_games_answer():
    """``describe`` as printed (plain) equals the game's describe with its columns; ``combos`` the game's cup."""
    sets = ["--set", "loadout.upgrades=['glueckssieben']"]
    got = json.loads(cli_here("describe", "dungeon", "--json", "--difficulty", "schwer", *sets).stdout)
    want = _compiled("dungeon", [(["loadout.upgrades=['glueckssieben']"], {"difficulty": "schwer"})])[0]
    assert got == want["describe"]
    cup = json.loads(cli_here("combos", "1", "2", "3", "4", "5", "6", "--json", *sets).stdout)
    assert {k: v for k, v in cup.items() if k != "dice"} == want["cup"]["1 2 3 4 5 6"]


PLAIN_THEN_KERNEL = """
import json, sys
from sim.jit.plain import njit, plain_rules
with plain_rules() as plain:
    from sim.games.dungeon import describe as D
    def f(x):
        return x + 1
    forms = [njit(f) is f, njit(cache=True, inline="always")(f) is f, njit("int64(int64)", cache=True)(f) is f]
    plain_hp = D.R.enemy_hp
gone = "sim.games.dungeon.rules" not in sys.modules
from sim.games.dungeon import rules as R  # a kernel's import after the block: compiled
from numba.core.dispatcher import Dispatcher
print(json.dumps({"plain": plain, "forms": forms, "gone": gone, "was_python": not isinstance(plain_hp, Dispatcher),
                  "compiled": isinstance(R.enemy_hp, Dispatcher)}))
"""


def test_a_plain_block_leaves_the_process_to_compile_after_it():
    """Inside the block the decorator's three forms hand the function back; after it the plain modules are
    forgotten and a later import compiles (a command run in-process, as the tests and the API do, leaves nothing
    plain behind)."""
    r = subprocess.run([sys.executable, "-c", PLAIN_THEN_KERNEL], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=os.environ)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"plain": True, "forms": [True, True, True], "gone": True, "was_python": True,
                                    "compiled": True}


def test_a_plain_block_after_numba_changes_nothing():
    from sim.games.dungeon import rules as R  # noqa: F401  (numba loaded, as in this test process)
    from sim.jit.plain import plain_rules

    with plain_rules() as plain:
        assert plain is False
