"""Engine parts: RNG streams, dice multisets, config loading and hashing, statistics."""

from __future__ import annotations

import math
import re
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core import stats
from sim.core.config import ConfigError, config_hash, load_config, parse_override
from sim.core.dice import best_subkeep, expect_over_rerolls, multisets
from sim.core.rng import die, new_stream, next_die, stream_key
from sim.games import GAMES
from sim.games.kniffel.config import KniffelConfig


def test_streams_are_reproducible_and_distinct():
    a = [next_die(stream_key(1, 5, 0, 0))[1] for _ in range(3)]
    assert a == [next_die(stream_key(1, 5, 0, 0))[1] for _ in range(3)]
    s1, s2 = stream_key(1, 5, 0, 0), stream_key(1, 6, 0, 0)
    assert s1 != s2 and stream_key(2, 5, 0, 0) != s1


def test_die_is_fair():
    st_ = new_stream(123, 0)
    faces = np.array([die(st_) for _ in range(60_000)])
    counts = np.bincount(faces, minlength=7)[1:]
    assert faces.min() == 1 and faces.max() == 6
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 20.5  # chi-square, 5 dof, p = 0.001


def test_multisets_enumerate_and_probabilities_sum_to_one():
    t = multisets(5)
    assert len(t.counts) == 462 and len(t.rolls) == 252
    assert t.prob[t.rolls].sum() == pytest.approx(1.0)
    # exact enumeration of 6^5 ordered rolls
    hits = np.zeros(len(t.counts))
    for d in product(range(6), repeat=5):
        hits[t.index_of_code[sum(7**f for f in d)]] += 1
    assert np.allclose(hits[t.rolls] / 6**5, t.prob[t.rolls])
    assert len(multisets(6).rolls) == 462


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_expectation_and_best_subkeep_match_brute_force(seed):
    t = multisets(5)
    v = np.random.default_rng(seed).random(462) * 100
    K = np.empty(462)
    expect_over_rerolls(v, t.child, t.size_start, K)
    # keep of two 6s: expectation over the 216 outcomes of three dice
    k = t.index_of_code[2 * 7**5]
    brute = np.mean([v[t.index_of_code[2 * 7**5 + sum(7**f for f in d)]] for d in product(range(6), repeat=3)])
    assert K[k] == pytest.approx(brute)
    best = np.empty(462)
    arg = np.empty(462, np.int64)
    best_subkeep(K, t.parent, t.size_start, best, arg)
    r = t.rolls[100]
    subs = [j for j in range(462) if (t.counts[j] <= t.counts[r]).all()]
    assert best[r] == pytest.approx(max(K[j] for j in subs)) and K[arg[r]] == best[r]


def test_override_parsing_and_unknown_fields():
    assert parse_override("bonus.value=40") == (["bonus", "value"], 40)
    assert parse_override("joker.mode=free") == (["joker", "mode"], "free")
    assert parse_override('joker.mode="off"') == (["joker", "mode"], "off")
    # a TOML dotted key with quotes, as a config file may write it
    assert parse_override('"goal".target=50') == (["goal", "target"], 50)
    assert parse_override("rooms.bosses.'5'=x") == (["rooms", "bosses", "5"], "x")
    assert parse_override('"goal.target"=50') == (["goal.target"], 50)
    with pytest.raises(ConfigError, match="not a field path"):
        parse_override('"goal=50')
    with pytest.raises(ConfigError, match="unknown config field: nope"):
        load_config(KniffelConfig, "kniffel", None, ["nope=1"])
    with pytest.raises(ConfigError, match="path=value"):
        parse_override("bonus.value")


def test_config_hash_is_stable_and_sensitive():
    a = load_config(KniffelConfig, "kniffel")
    assert config_hash(a) == config_hash(load_config(KniffelConfig, "kniffel"))
    assert config_hash(a) != config_hash(load_config(KniffelConfig, "kniffel", None, ["bonus.value=40"]))


def test_unknown_key_in_file_is_named(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[bonus]\nthreshold = 63\nvalue = 35\nextra = 1\n")
    with pytest.raises(ConfigError, match="bonus.extra"):
        load_config(KniffelConfig, "kniffel", p)


def test_wilson_interval_properties():
    lo, hi = stats.wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 100), rel=0.05)
    assert stats.wilson(0, 10)[0] == 0.0 and stats.wilson(10, 10)[1] == pytest.approx(1.0)
    m = stats.mean(np.array([1.0, 2.0, 3.0, 4.0]))
    assert m["value"] == 2.5 and m["ci95"][0] < 2.5 < m["ci95"][1]


@pytest.mark.parametrize("game", list(GAMES))
def test_assumed_paths_are_checked_for_every_game(game):
    """Every game's config shares ``GameConfig``: a path in ``assumed`` must name a real field (any key of a
    table such as ``enemies`` counts, the field below it must exist)."""
    from pydantic import ValidationError

    from sim.games import get_game

    cfg = get_game(game).load()
    assert cfg.name == game
    data = cfg.model_dump()
    type(cfg).model_validate({**data, "assumed": list(cfg.assumed)})
    with pytest.raises(ValidationError, match="assumed names an unknown field: nope.deeper"):
        type(cfg).model_validate({**data, "assumed": ["nope.deeper"]})


def test_set_reaches_a_default_field_of_a_named_entry():
    """``--set talents.scharfe_klingen.shield_flat=…`` where the file leaves that field at its default: the entry's
    model declares it (it was 'unknown config field' though a config file could set it); a new entry stays refused."""
    from sim.core.config import ConfigError
    from sim.games import get_game

    g = get_game("dungeon")
    cfg = g.load(None, ["talents.scharfe_klingen.shield_flat=-3", "enemies.skelett.mode=random"])
    assert cfg.talents["scharfe_klingen"].shield_flat == -3 and cfg.enemies["skelett"].mode == "random"
    with pytest.raises(ConfigError, match=r"unknown config field: talents.scharfe_klinge \(no 'scharfe_klinge' in "
                                          r"talents; did you mean scharfe_klingen\?\)"):
        g.load(None, ["talents.scharfe_klinge.shield_flat=1"])  # a typo gets the closest name
    with pytest.raises(ConfigError, match=r"unknown config field: enemies.skelett.HP \(did you mean hp\?\)$"):
        g.load(None, ["enemies.skelett.HP=1"])
    with pytest.raises(ConfigError, match=r"unknown config field: bnous \(did you mean bonus\?\)$"):
        get_game("kniffel").load(None, ["bnous.value=1"])
    with pytest.raises(ConfigError, match=r"unknown config field: talents.nosuch \(no 'nosuch' in talents\)"):
        g.load(None, ["talents.nosuch.shield_flat=1"])
    with pytest.raises(ConfigError, match="unknown config field: enemies.skelett.nosuch"):
        g.load(None, ["enemies.skelett.nosuch=1"])
    # nothing close: the names there, where few enough to read ("unknown config field: scoring" said no more)
    with pytest.raises(ConfigError, match=r"unknown config field: scoring \(known: bonus, joker, name, scores, "
                                          r"skill, turn\)$"):
        get_game("kniffel").load(None, ["scoring.single_1=1"])
    with pytest.raises(ConfigError, match=r"unknown config field: bonus.nope \(known: threshold, value\)$"):
        get_game("kniffel").load(None, ["bonus.nope=3"])


def test_a_table_set_into_a_section_sets_its_fields_and_keeps_the_others():
    """``--set 'joker={when_zero=true}'`` on the free-joker file replaced the whole section: the file's free joker
    went back to the model's forced one (and ``stops_rolling`` to true) and the solve answered the default 254.5838
    (the free joker is 254.5896).
    The table now sets the fields it names, as a sweep's ``set`` does; an empty one or an unknown field is refused."""
    from sim.core.config import CONFIG_DIR
    from sim.games import get_game

    g = get_game("kniffel")
    path = CONFIG_DIR / "kniffel" / "free-joker.toml"
    dotted = g.load(path, ["joker.when_zero=false"])
    table = g.load(path, ["joker={when_zero=false}"])
    assert table.joker == dotted.joker and table.joker.mode == "free" and not table.joker.when_zero
    assert not table.joker.stops_rolling  # the file's, not the model's default
    assert config_hash(table) == config_hash(dotted) != config_hash(g.load(path))
    for bad, said in (("joker={}", "joker = {} sets no field"), ("joker={nope=1}", "unknown config field: joker.nope")):
        with pytest.raises(ConfigError, match=re.escape(said)):
            g.load(path, [bad])
