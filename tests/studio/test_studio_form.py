"""The studio's form comes from the config models; its edits are exactly the CLI's ``--set`` lines."""

from __future__ import annotations

import tomllib

import pytest

from sim.core.config import ConfigError, config_hash, load_config, validate
from sim.games import GAMES as REGISTRY
from sim.studio import engine
from sim.studio.form import field_specs, is_assumed, set_line, toml_value
from sim.studio.saving import config_toml, save_config

GAMES = engine.games()


def specs_of(game: str, config: str | None = None):
    cfg = engine.load(game, config, [])
    return cfg, {s.path: s for s in field_specs(type(cfg), cfg.model_dump(mode="json"))}


def test_every_game_is_offered():
    assert set(GAMES) == set(REGISTRY)


@pytest.mark.parametrize("game", GAMES)
def test_every_leaf_of_the_config_is_one_input(game):
    cfg, specs = specs_of(game)
    data = cfg.model_dump(mode="json")
    for path, spec in specs.items():  # each input's value is the config's value at its path
        node = data
        for k in path.split("."):
            node = node[k]
        assert node == spec.value, path
    assert "name" not in specs and "assumed" not in specs


@pytest.mark.parametrize("game", GAMES)
def test_each_input_as_shown_loads_back_to_the_same_config(game):
    cfg, specs = specs_of(game)
    for spec in specs.values():
        shown = spec.value if spec.kind == "bool" else spec.display()
        assert config_hash(engine.load(game, None, [set_line(spec, shown)])) == config_hash(cfg), spec.path


def test_dungeon_inputs_carry_model_bounds_choices_and_assumed_labels():
    cfg, specs = specs_of("dungeon")
    hp = specs["difficulty.leicht.hp"]
    assert (hp.kind, hp.lo, hp.lo_open, hp.hi, hp.hi_open) == ("float", 0.0, True, 100.0, False)
    assert hp.bounds_text() == "0 < x ≤ 100" and not hp.assumed
    assert specs["start.dice"].kind == "int" and (specs["start.dice"].lo, specs["start.dice"].hi) == (1.0, 6.0)
    assert specs["coins.step_rounding"].kind == "choice"
    assert specs["coins.step_rounding"].choices == ("floor", "round")
    assert specs["scaling.damage_growth_compound"].kind == "bool"
    assert specs["path.events.weights"].kind == "list"
    # tables keyed by name come from the file: every enemy's fields, all assumed ("enemies" is listed)
    enemies = {p.split(".")[1] for p in specs if p.startswith("enemies.")}
    assert enemies == set(cfg.enemies)
    assert all(s.assumed for p, s in specs.items() if p.startswith("enemies."))
    assert specs["coins.step_rounding"].assumed and not specs["coins.win"].assumed
    assert is_assumed("time.seconds_per_roll", ["time"]) and not is_assumed("timer.x", ["time"])


def test_a_field_the_file_leaves_at_its_default_can_be_edited():
    """The file omits most upgrade effects; the studio edits them on the validated model."""
    cfg, specs = specs_of("dungeon")
    spec = specs["upgrades.wetzstein.crit_chance"]
    cli = load_config(type(cfg), "dungeon", None, ["upgrades.wetzstein.crit_chance=0.5"])  # --set reaches it too
    edited = engine.load("dungeon", None, [set_line(spec, "0.5")])
    assert edited.upgrades["wetzstein"].crit_chance == 0.5 == cli.upgrades["wetzstein"].crit_chance


@pytest.mark.parametrize("line", [
    "difficulty.leicht.hp=-1", "difficulty.leicht.hp=abc", "start.lp=2.5", "start.dice=7", "nope.x=1",
    "coins.step_rounding=\"ceil\"", "path.events.weights=[1.0, 2.0]",
])
def test_bad_input_gets_the_cli_message(line):
    """The message under a field is the CLI's: the same loader, the same line."""
    cfg = engine.load("dungeon", None, [])
    with pytest.raises(ConfigError) as cli:
        load_config(type(cfg), "dungeon", None, [line])
    with pytest.raises(ConfigError) as studio:
        engine.load("dungeon", None, [line])
    assert str(studio.value) == str(cli.value)


def test_strings_are_quoted_so_a_word_stays_a_string():
    _, specs = specs_of("dungeon")
    assert set_line(specs["coins.step_rounding"], "round") == 'coins.step_rounding="round"'
    assert set_line(specs["mastery.kind"], "true") == 'mastery.kind="true"'
    assert engine.load("dungeon", None, [set_line(specs["mastery.kind"], "pasch")]).mastery.kind == "pasch"
    assert toml_value({"a b": [1, 2.5, True]}) == '{"a b" = [1, 2.5, true]}'


@pytest.mark.parametrize("game", GAMES)
def test_saved_toml_loads_to_the_edited_config(tmp_path, game):
    cfg, specs = specs_of(game)
    numeric = next(s for s in specs.values() if s.kind == "int" and s.hi is not None and s.value < s.hi)
    sets = [set_line(numeric, str(numeric.value + 1))]
    edited = engine.load(game, None, sets)
    path = save_config(tmp_path / "edited.toml", edited, None, sets)
    again = validate(type(cfg), tomllib.loads(path.read_text()))
    assert config_hash(again) == config_hash(edited) != config_hash(cfg)
    assert path.with_suffix(".set.txt").read_text().splitlines() == sets
    assert config_toml(edited, None, sets).startswith("# written by dicesim studio")
    # the --set lines turn the shipped file into the saved one through the CLI's own loader
    assert config_hash(load_config(type(cfg), game, None, sets)) == config_hash(edited)
