"""Config refusals a designer can act on: which file says it, why a name that reads like a known field is unknown,
and pydantic's kinds of error in words (its "List should have at least 1 item after validation, not 0")."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import Field

from sim.core.config import Strict, describe_validation_error
from tests.conftest import ROOT, cli_here


def one_error(done) -> str:
    assert done.returncode == 2 and done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    return done.stderr.strip().removeprefix("error: ")


def test_a_name_that_only_looks_known_says_why():
    said = one_error(cli_here("describe", "kniffel", "--set", "bonus.v\u0430lue=3"))  # a Cyrillic а
    assert said == ("unknown config field: bonus.v\u0430lue ('\u0430' in it is Cyrillic Small Letter A, not a Latin "
                    "letter)")
    assert one_error(cli_here("describe", "kniffel", "--set", "bonus.valeu=3")).endswith("(did you mean value?)")


def test_a_file_is_named_in_its_own_errors_and_not_in_an_overrides(tmp_path):
    quoted = tmp_path / "quoted.toml"
    quoted.write_text('"bonus.value" = 40\n', encoding="utf-8")  # one quoted name, not the field bonus.value
    assert one_error(cli_here("describe", "kniffel", "--config", str(quoted))) == (
        f'{quoted}: unknown config field: bonus.value ("bonus.value" is one quoted name: write bonus.value without '
        "quotes)")
    bad = tmp_path / "bad.toml"
    bad.write_text("[bonus]\nvalue = -3\n", encoding="utf-8")
    assert one_error(cli_here("describe", "kniffel", "--config", str(bad))) == (
        f"{bad}: invalid value for bonus.value: -3 (must be at least 0)")
    # the value that fails is the override's: the file is not to blame
    assert one_error(cli_here("describe", "kniffel", "--config", str(bad), "--set", "bonus.value=-4")) == (
        "invalid value for bonus.value: -4 (must be at least 0)")


class Words(Strict):
    name: str = Field("x", min_length=1)
    targets: list[int] = Field([1], min_length=1, max_length=3)
    mode: Literal["forced", "free", "off"] = "off"


@pytest.mark.parametrize("data, said", [
    ({"name": ""}, "invalid value for name: '' (must be at least 1 character)"),
    ({"targets": []}, "invalid value for targets: [] (must be at least 1 entry)"),
    ({"targets": [1, 2, 3, 4]}, "invalid value for targets: [1, 2, 3, 4] (must be at most 3 entries)"),
    ({"mode": "x"}, "invalid value for mode: 'x' (must be one of 'forced', 'free' or 'off')"),
])
def test_pydantic_kinds_in_words(data, said):
    with pytest.raises(Exception) as e:
        Words.model_validate(data)
    assert describe_validation_error(e.value) == said


@pytest.mark.parametrize("text", ["", "# my edits\n", "[scores]\n[bonus]\n"], ids=["empty", "comments", "sections"])
def test_a_config_that_sets_nothing_is_said_once(tmp_path, text):
    """An empty config file (or only comments, or empty sections) played the default rules without a word."""
    path = tmp_path / "mine.toml"
    path.write_text(text)
    done = cli_here("play", "kniffel", "--policy", "greedy", "--n", "20", "--no-report", "--config", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("note: ") and done.stderr.count("\n") == 1  # the path as errors show it
    assert done.stderr.endswith("/mine.toml sets no value: Kniffel's default rules are played\n")
    path.write_text("[bonus]\nvalue = 35\n")
    done = cli_here("play", "kniffel", "--policy", "greedy", "--n", "20", "--no-report", "--config", str(path))
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.parametrize("game", ["dungeon", "kniffel"])
def test_a_config_that_sets_nothing_is_the_default_config(tmp_path, game):
    """It read 'missing config field: combos' for the Würfel Dungeon (rules without defaults of their own) and gave
    Kniffel another hash and no assumed values than its default: now the default config, hash and assumed alike."""
    from sim.games import get_game

    path = tmp_path / "empty.toml"
    path.write_text("# nothing yet\n[start]\n")
    g = get_game(game)
    assert g.load(path, []).model_dump() == g.load(None, []).model_dump()
    assert g.load(path, ["start.lp=33" if game == "dungeon" else "bonus.value=40"]) != g.load(None, [])


def test_a_field_a_dump_leaves_out_is_named_alone():
    """``--set skill.games_per_player=3`` read "rules changed: skill={"level" = 1, "opponents" = 1, "games_per_player"
    = 3}" (the dump leaves the field out at its default, so the table differed, not a field)."""
    from sim.core.config import changed_fields

    base = {"skill": {"level": 1, "opponents": 1}, "bonus": {"value": 35}}
    assert changed_fields(base, {"skill": {"level": 1, "opponents": 1, "games_per_player": 3},
                                 "bonus": {"value": 40}}) == ["skill.games_per_player=3", "bonus.value=40"]
    assert changed_fields({"a": {"x": 1, "g": 3}}, {"a": {"x": 2}}) == ["a.x=2", "a.g at its default"]
    assert changed_fields({"a": {"x": 1}}, {"a": {"y": 2}}) == ['a={"y" = 2}']  # no common ground: the table


def test_a_tuned_fields_trailing_space_is_said(tmp_path):
    """A tune file's ``"bonus.value " = [0, 120]`` was refused as "unknown config field: bonus.value" (the space
    unseen), where ``--set`` says that a name has a space at an end."""
    text = (ROOT / "configs" / "tune" / "kniffel-bonus.toml").read_text()
    assert '\n"bonus.value" = ' in text
    (tmp_path / "t.toml").write_text(text.replace('\n"bonus.value" = ', '\n"bonus.value " = ', 1))
    done = cli_here("tune", str(tmp_path / "t.toml"))
    assert done.returncode == 2 and done.stderr.strip().endswith(
        "unknown config field: bonus.value ('value ' has a space at an end)"), done.stderr


def test_a_files_unknown_field_is_hinted_as_sets_is(tmp_path):
    """A config file's ``[extra]`` or ``[bonus.sub]`` read "unknown config field: extra" with no hint, where ``--set``
    names the close field or the fields there."""
    for text, said in (("[extra]\na = 1\n", "unknown config field: extra (known: bonus, joker, name, scores, skill, "
                                             "turn)"),
                       ("[bonus.sub]\na = 1\n", "unknown config field: bonus.sub (known: threshold, value)"),
                       ("[bonus]\nvalu = 1\n", "unknown config field: bonus.valu (did you mean value?)")):
        (tmp_path / "c.toml").write_text(text)
        done = cli_here("play", "kniffel", "--policy", "greedy", "--n", "5", "--no-report", "--config",
                        str(tmp_path / "c.toml"))
        assert done.returncode == 2 and done.stderr.strip().endswith(said), done.stderr


def test_a_refusal_names_the_field_that_was_set():
    """``--set rooms.count=1`` was refused as "rooms.bosses: '5' is not a room number 1..1"; five jokers as "holds
    more than rewards.max_jokers" without the numbers; ``--seed 1e30`` came back as 31 digits."""
    said = one_error(cli_here("play", "dungeon", "--policy", "greedy", "--n", "5", "--set", "rooms.count=1"))
    assert said == "rooms.bosses names room 5, beyond rooms.count = 1: give the bosses rooms 1..1"
    five = "loadout.jokers=['heiltrank','heiltrank','heiltrank','heiltrank','heiltrank']"
    said = one_error(cli_here("play", "dungeon", "--policy", "greedy", "--n", "5", "--set", five))
    assert said == "loadout.jokers holds 5 jokers, more than rewards.max_jokers = 3"
    said = one_error(cli_here("play", "kniffel", "--policy", "greedy", "--n", "5", "--seed", "1e30"))
    assert said == "--seed must be a whole number 0 .. 2^64-1 (18446744073709551615), got '1e30'"


def test_a_rules_word_is_taken_in_any_case():
    """``--set joker.mode=FREE`` was refused where policy and option names take any case; a rule's word is now read
    as the one it matches (the config holds the model's spelling, so its hash is the lower-case one's), in a list too;
    a word that matches none is still refused with the words allowed."""
    from sim.core.config import load_config
    from sim.games.dungeon.config import DungeonConfig
    from sim.games.kniffel.config import KniffelConfig

    free = load_config(KniffelConfig, "kniffel", overrides=["joker.mode=FREE"])
    assert free.joker.mode == "free"
    assert free == load_config(KniffelConfig, "kniffel", overrides=["joker.mode=free"])
    rooms = load_config(DungeonConfig, "dungeon", overrides=['coins.challenges=["Schnell", "OHNE_HEILUNG"]'])
    assert rooms.coins.challenges == ["schnell", "ohne_heilung"]

    class Two(Strict):
        mode: Literal["ab", "AB", "c"] = "c"
    assert Two.model_validate({"mode": "C"}).mode == "c"
    with pytest.raises(Exception, match="mode"):
        Two.model_validate({"mode": "Ab"})  # two words match it in any case: neither is guessed
    assert one_error(cli_here("describe", "kniffel", "--set", "joker.mode=frei")) == (
        "invalid value for joker.mode: 'frei' (must be one of 'forced', 'free' or 'off')")


def test_a_field_its_dump_leaves_out_has_its_value():
    """``skill.games_per_player`` at 1 is left out of the config's dump: read from the dump it was no field, so tune
    said "unknown config field" and calibrate "invalid value … 0" (a probe's value) for a field play takes."""
    from sim.core.config import field_value, load_config
    from sim.games.kniffel.config import KniffelConfig

    cfg = load_config(KniffelConfig, "kniffel")
    assert "games_per_player" not in cfg.model_dump()["skill"] and field_value(cfg, "skill.games_per_player") == 1
    assert field_value(cfg, "bonus.value") == 35 and field_value(cfg, "bonus.nope") is None
    assert field_value(cfg, "bonus") == cfg.bonus.model_dump()
    done = cli_here("calibrate", "kniffel", "--field", "skill.games_per_player", "--target", "mean_score=215",
                    "--policy", "greedy", "--n", "10", "--max-evals", "3", "--lo", "1", "--hi", "10")
    assert "invalid value" not in done.stderr and "skill.games_per_player =         10  ->" in done.stderr, done.stderr
