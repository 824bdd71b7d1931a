"""Dadox rules: the seed's Punkteliste and the rules file's readings as golden values, exact bust
probabilities by full enumeration of 6^n throws, the option tables against brute force, configs."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policies.dadox.bots import bank_threshold
from sim.core.config import CONFIG_DIR, ConfigError, load_config
from sim.core.dice import dice_of, index_of_dice
from sim.games.dadox import rules as R
from sim.games.dadox.config import RULES, DadoxConfig, freeze, freeze_policies
from sim.games.dadox.tables import (
    N_TABS,
    OPT_LOCK,
    OPT_PTS,
    OPT_SEL,
    OPT_USED,
    SN_NEXT,
    SN_OFF,
    SN_OPT,
    T6,
    TL_GROUPS,
    build_tables,
    bust_probabilities,
    tab_index,
)

CFG = load_config(DadoxConfig, "dadox")
RP = freeze(CFG)
PRESETS = ("default", "lenient", "classic", "farkle-minimal", "house")
FREE, CONFIRM, THROW = R.LOCK_FREE, R.LOCK_CONFIRM, R.LOCK_THROW


def rp_with(**changes) -> np.record:
    """The default rule record with some fields set (by their record names)."""
    rec = RP.base.copy()
    for k, v in changes.items():
        rec[k] = v
    return rec.view(np.recarray)[0]


def counts(dice) -> np.ndarray:
    return np.bincount(np.asarray(dice, dtype=np.int64) - 1, minlength=6).astype(np.int64)


def score(dice, rp=RP) -> int:
    return int(R.selection_score(counts(dice), rp))


# the seed's Punkteliste
SEED_TABLE = [
    ([1], 100), ([5], 50), ([1, 1, 1], 1000), ([2, 2, 2], 200), ([3, 3, 3], 300), ([4, 4, 4], 400),
    ([5, 5, 5], 500), ([6, 6, 6], 600), ([1, 2, 3, 4, 5, 6], 2000),
]


@pytest.mark.parametrize(("dice", "points"), SEED_TABLE)
def test_seed_points(dice, points):
    assert score(dice) == points


def test_best_grouping_readings():
    # rules reading 2: four 1s = 1000 + 100; six equal dice = two triples; only scoring dice
    assert score([1, 1, 1, 1]) == 1100
    assert score([5, 5, 5, 5, 5]) == 600
    assert score([2, 2, 2, 2, 2, 2]) == 400
    assert score([1, 1, 1, 1, 1, 1]) == 2000
    assert score([2, 2, 2, 3, 3, 3]) == 500  # two triples in one throw: both count
    assert score([1, 1, 5]) == 250
    assert score([2, 2, 2, 2]) == -1  # the fourth 2 belongs to no group
    assert score([1, 2]) == -1
    assert score([2, 2, 3, 3, 4, 4]) == -1  # three pairs are off by default


def test_variants():
    dbl = rp_with(scoring_kind_doubling=1)
    assert score([2, 2, 2, 2], dbl) == 400
    assert score([2, 2, 2, 2, 2], dbl) == 800
    assert score([2, 2, 2, 2, 2, 2], dbl) == 1600
    assert score([1, 1, 1, 1], dbl) == 2000
    assert score([5, 5, 5, 5, 5, 5], dbl) == 4000
    pairs = rp_with(scoring_three_pairs=750)
    assert score([2, 2, 3, 3, 4, 4], pairs) == 750
    assert score([1, 1, 5, 5, 6, 6], pairs) == 750
    assert score([1, 1, 1, 1, 5, 5], pairs) == 1200  # not three different pairs: singles and a triple
    assert score([1, 2, 3, 4, 5, 6], rp_with(scoring_street=1500)) == 1500
    assert score([1, 2, 3, 4, 5, 6], rp_with(scoring_street=0)) == -1


def test_strong_groups():
    first, later = True, False
    assert R.is_strong(counts([1, 2, 3, 4, 5, 6]), later, RP)
    assert R.is_strong(counts([2, 2, 2, 3, 3, 3]), later, RP)
    assert R.is_strong(counts([4, 4, 4, 4, 4, 4]), later, RP)
    assert R.is_strong(counts([1, 1, 1]), first, RP)
    assert R.is_strong(counts([1, 1, 1, 1, 5]), first, RP)
    assert not R.is_strong(counts([1, 1, 1]), later, RP)  # triples only in the turn's first throw
    # the table: 2-2-2 .. 6-6-6 "ab Wurf 2 ohne Bestaetigung", so in the first throw they need it
    for f in range(2, 7):
        assert R.is_strong(counts([f] * 3), first, RP)
        assert not R.is_strong(counts([f] * 3), later, RP)
        # the earlier reading: only three 1s of a first throw must be confirmed
        assert not R.is_strong(counts([f] * 3), first, rp_with(turn_confirm_first_throw_triples=0))
    assert R.is_strong(counts([5, 5, 5, 5]), first, RP)
    assert R.is_strong(counts([1, 1, 1]), first, rp_with(turn_confirm_first_throw_triples=0))
    assert not R.is_strong(counts([1, 5]), first, RP)
    assert not R.is_strong(counts([1, 2, 3, 4, 5, 6]), later, rp_with(turn_confirm=0))
    assert not R.is_strong(counts([3, 3, 3]), first, rp_with(turn_confirm=0))


def options_of(dice, first: bool, rp=RP) -> set[tuple[int, int, int]]:
    """(points, dice used, lock) of every option the tables list for this throw."""
    tb = build_tables(rp)
    k = index_of_dice(T6, dice)
    v = int(first)
    rows = tb.opt[tb.opt_start[k, v] : tb.opt_start[k, v] + tb.opt_n[k, v]]
    return {(int(r[OPT_PTS]), int(r[OPT_USED]), int(r[OPT_LOCK])) for r in rows}


LENIENT = rp_with(turn_confirm_first_throw_triples=0, turn_decline_forces_throw=0)


def test_first_throw_triples_must_be_confirmed():
    # a first throw of 2-2-2: the triple is the only option, and it must be confirmed
    assert options_of([2, 2, 2, 3, 4, 6], True) == {(200, 3, CONFIRM)}
    assert options_of([2, 2, 2, 3, 4, 6], True, LENIENT) == {(200, 3, FREE)}
    # from the second throw on ("ab Wurf 2 ohne Bestaetigung") it may be banked
    assert options_of([2, 2, 2, 3, 4, 6], False) == {(200, 3, FREE)}
    # six dice after hot dice are a later throw, not the turn's first
    assert (600, 3, FREE) in options_of([6, 6, 6, 2, 3, 4], False)
    assert (600, 3, CONFIRM) in options_of([6, 6, 6, 2, 3, 4], True)
    # a later 3-3-3 scores 300 ("ab Wurf 2 ohne Bestaetigung"); with the three dice it was thrown with, all are set
    # aside: hot dice, thrown again
    assert options_of([3, 3, 3, 2, 4, 6], False) == {(300, 3, FREE)}
    assert options_of([3, 3, 3], False) == {(300, 3, THROW)}
    assert options_of([3, 3, 3], False, rp_with(hot_throw=0)) == {(300, 3, FREE)}


def test_hot_dice_are_thrown_again():
    """"werden alle wieder aufgenommen und es folgt ein Anschlusswurf": every die of a throw set aside obliges
    throwing all six (``turn.hot_dice = "throw"``); ``"optional"`` leaves banking open; a strong group that uses
    every die is confirmed by that throw."""
    assert options_of([1, 5], False) == {(150, 2, THROW), (100, 1, FREE), (50, 1, FREE)}
    assert options_of([1, 5], False, rp_with(hot_throw=0)) == {(150, 2, FREE), (100, 1, FREE), (50, 1, FREE)}
    assert options_of([5], False) == {(50, 1, THROW)}
    assert {(1150, 5, THROW), (1100, 4, FREE)} <= options_of([1, 1, 1, 1, 5], False)
    assert (1150, 5, FREE) in options_of([1, 1, 1, 1, 5], False, rp_with(hot_throw=0))
    assert (2000, 6, CONFIRM) in options_of([1, 2, 3, 4, 5, 6], False)  # the street: its confirmation throw
    assert (400, 6, CONFIRM) in options_of([2, 2, 2, 2, 2, 2], False)  # two triples
    assert (1200, 6, CONFIRM) in options_of([1, 1, 1, 2, 2, 2], True)


def test_declining_a_triple_or_street_obliges_a_throw():
    # 1-1-1 in a later throw: the triple may be banked, a single 1 or two 1s oblige a throw
    assert options_of([1, 1, 1, 2, 3, 4], False) == {(1000, 3, FREE), (200, 2, THROW), (100, 1, THROW)}
    assert options_of([1, 1, 1, 2, 3, 4], False, LENIENT) == {(1000, 3, FREE), (200, 2, FREE), (100, 1, FREE)}
    # first throw 1-1-1: taking it needs confirmation, declining it obliges a throw: no bank either way
    assert options_of([1, 1, 1, 2, 3, 4], True) == {(1000, 3, CONFIRM), (200, 2, THROW), (100, 1, THROW)}
    # a street declined for its 1 and 5 ("nur eine 1 oder zwei 5er herauslegen, musst dann aber weiterwuerfeln")
    assert options_of([1, 2, 3, 4, 5, 6], False) == {(2000, 6, CONFIRM), (150, 2, THROW), (100, 1, THROW),
                                                     (50, 1, THROW)}
    # 5-5-5 with a 1: the triple (with or without the 1) leaves banking open, singles do not
    assert options_of([5, 5, 5, 1, 2, 3], False) == {
        (600, 4, FREE), (500, 3, FREE), (200, 3, THROW), (150, 2, THROW), (100, 2, THROW), (100, 1, THROW),
        (50, 1, THROW),
    }
    # no triple and no street in the throw: singles may be banked
    assert options_of([1, 5, 2, 2, 3, 4], False) == {(150, 2, FREE), (100, 1, FREE), (50, 1, FREE)}
    # a single die is always a kept 1 or 5 of a throw; a triple of other faces taken leaves banking open
    assert options_of([2, 2, 2, 2, 5, 6], False) == {(250, 4, FREE), (200, 3, FREE), (50, 1, THROW)}
    assert not R.may_bank(True, 100, True, RP) and R.may_bank(True, 100, False, RP)


def test_bust_and_the_1_or_5_rule():
    assert R.busts(counts([2, 3, 4, 6, 6]), False, RP)
    assert not R.busts(counts([2, 2, 2, 3]), False, RP)
    assert R.busts(counts([2, 2, 2, 3]), True, RP)  # a triple without a 1 or 5 where one is needed
    assert not R.busts(counts([5, 2]), True, RP)
    assert not R.busts(counts([2, 2, 3, 3, 4, 4]), False, rp_with(scoring_three_pairs=750))
    # the seed: a throw busts with "keine 1, keine 5 und keinen Pasch", a later one too; a confirmation needs a 1 or 5
    assert not R.needs_1_or_5(False, False, RP) and not R.needs_1_or_5(True, False, RP)
    assert R.needs_1_or_5(False, True, RP)
    assert not R.busts(counts([3, 3, 3]), R.needs_1_or_5(False, False, RP), RP)  # a later 3-3-3 scores 300
    # the reading of an earlier rules file: every later throw needs a 1 or 5
    on = rp_with(turn_later_throws_need_1_or_5=1)
    assert R.needs_1_or_5(False, False, on) and not R.needs_1_or_5(True, False, on)
    assert R.busts(counts([3, 3, 3]), R.needs_1_or_5(False, False, on), on)


def test_bank_and_bust_results():
    assert R.bank_result(9500, 500, RP) == (10000, True, False)
    assert R.bank_result(9500, 550, RP) == (9500, False, True)  # overshoot voids the turn
    assert R.bank_result(9500, 550, rp_with(goal_overshoot=R.OVERSHOOT_SUBTRACT)) == (8950, False, True)
    assert R.bank_result(9500, 550, rp_with(goal_exact=0)) == (10050, True, False)
    assert R.bank_result(300, 400, RP) == (700, False, False)
    assert R.bust_result(300, 400, RP) == -100  # Minusbetrag: scores may go negative
    assert R.bust_result(300, 400, rp_with(bust_floor_zero=1)) == 0
    assert R.bust_result(300, 400, rp_with(bust_penalty=R.PENALTY_LOSE)) == 300
    assert R.bust_result(300, 0, RP) == 300  # a bust on the first throw costs nothing
    assert not R.may_bank(True, 500, True, RP)  # confirmation pending
    opening = rp_with(turn_opening_minimum=350)
    assert not R.may_bank(False, 300, False, opening) and R.may_bank(False, 350, False, opening)
    assert R.may_bank(True, 50, False, opening)


def enumerate_bust(n: int, need_1_or_5: bool, rp: np.record) -> Fraction:
    """Bust chance of n dice by full enumeration of the 6^n ordered throws."""
    busts = sum(R.busts(counts(d), need_1_or_5, rp) for d in itertools.product(range(1, 7), repeat=n))
    return Fraction(int(busts), 6**n)


GOLDEN_BUST = {1: Fraction(2, 3), 2: Fraction(4, 9), 3: Fraction(5, 18), 4: Fraction(17, 108),
               5: Fraction(25, 324), 6: Fraction(5, 162)}


@pytest.mark.parametrize("n", range(1, 7))
def test_bust_probability_by_enumeration(n):
    assert enumerate_bust(n, False, RP) == GOLDEN_BUST[n]
    assert bust_probabilities(RP, False)[n] == pytest.approx(float(GOLDEN_BUST[n]), abs=1e-15)
    # a throw that needs a 1 or 5 (a confirmation; every later throw with the 1-or-5 rule): (4/6)^n
    assert enumerate_bust(n, True, RP) == Fraction(2, 3) ** n
    assert bust_probabilities(RP, True)[n] == pytest.approx(float(Fraction(2, 3) ** n), abs=1e-15)
    # the solver's table of a later throw (no confirmation pending) busts as the first throw under the default,
    # and needs a 1 or 5 with turn.later_throws_need_1_or_5
    need = int(R.needs_1_or_5(False, False, RP))
    assert build_tables(RP).tab_bust[tab_index(n, need)] == pytest.approx(float(GOLDEN_BUST[n]), abs=1e-15)
    on = rp_with(turn_later_throws_need_1_or_5=1)
    need_on = int(R.needs_1_or_5(False, False, on))
    assert build_tables(on).tab_bust[tab_index(n, need_on)] == pytest.approx(float(Fraction(2, 3) ** n), abs=1e-15)


def brute_options(dice, first: bool, rp: np.record) -> set[tuple[int, int, int]]:
    """Every distinct (points, used, lock) over all sub-multisets of the throw, the lock from the rules' text."""
    out = set()
    c = counts(dice)
    street = rp.scoring_street > 0
    holds = (c >= 3).any() or (street and (c == 1).all())
    for sub in itertools.product(*(range(x + 1) for x in c)):
        s = np.array(sub, dtype=np.int64)
        p = R.selection_score(s, rp)
        if p < 0:
            continue
        triples = int((s >= 3).sum()) + int((s == 6).sum())
        strong = rp.turn_confirm == 1 and (
            (street and (s == 1).all()) or triples >= 2
            or (first and (s[0] >= 3 or (rp.turn_confirm_first_throw_triples == 1 and triples >= 1)))
        )
        singles_only = s[[1, 2, 3, 5]].sum() == 0 and s[0] < 3 and s[4] < 3
        declined = rp.turn_decline_forces_throw == 1 and holds and singles_only
        hot = rp.hot_throw == 1 and s.sum() == c.sum()  # all set aside: all six are thrown again
        out.add((int(p), int(s.sum()), CONFIRM if strong else THROW if declined or hot else FREE))
    return out


@settings(max_examples=200, deadline=None)
@given(dice=st.lists(st.integers(1, 6), min_size=1, max_size=6), first=st.booleans(),
       preset=st.sampled_from(PRESETS))
def test_options_match_brute_force(dice, first, preset):
    first = first and len(dice) == 6
    cfg = load_config(DadoxConfig, "dadox", None if preset == "default" else CONFIG_DIR / "dadox" / f"{preset}.toml")
    rp = freeze(cfg)
    tb = build_tables(rp)
    k = index_of_dice(T6, dice)
    v = int(first)
    rows = tb.opt[tb.opt_start[k, v] : tb.opt_start[k, v] + tb.opt_n[k, v]]
    got = {(int(r[OPT_PTS]), int(r[OPT_USED]), int(r[OPT_LOCK])) for r in rows}
    assert got == brute_options(dice, first, rp)
    assert len(got) == len(rows)
    assert list(rows[:, OPT_PTS]) == sorted(rows[:, OPT_PTS], reverse=True)
    assert (len(rows) == 0) == bool(tb.bust_plain[k])
    for r in rows:  # the shown dice are part of the throw and score the option's points
        sel = dice_of(T6, int(r[OPT_SEL]))
        assert not (counts(sel) > counts(dice)).any() and len(sel) == r[OPT_USED]
        assert score(sel, rp) == r[OPT_PTS]
    if rows.size:  # with hot dice optional, banking stays open unless the throw is a street or a first throw with
        # a triple and a declined group obliges a throw (in the presets that rule comes with confirmation of both)
        c = counts(dice)
        held = (rp.scoring_street > 0 and (c == 1).all()) or (first and (c >= 3).any())
        optional = options_of(dice, first, rp_with_hot(rp, 0))
        assert any(lock == FREE for *_, lock in optional) == (not (held and rp.turn_decline_forces_throw == 1))
        # hot dice thrown again: the same options, those that set every die aside locked
        n = len(dice)
        thrown = {(p, u, THROW if lock == FREE and u == n else lock) for p, u, lock in optional}
        assert options_of(dice, first, rp_with_hot(rp, 1)) == thrown
        assert got == (thrown if rp.hot_throw else optional)


def rp_with_hot(rp: np.record, hot: int) -> np.record:
    rec = rp.base.copy()
    rec["hot_throw"] = hot
    return rec.view(np.recarray)[0]


def test_solver_groups_cover_every_throw():
    tb = build_tables(RP)
    for tab in range(13):
        total = tb.tab_bust[tab] + tb.g_prob[tb.tab_g[tab] : tb.tab_g[tab + 1]].sum()
        assert total == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("preset", ["default", "farkle-minimal"])
def test_tail_nodes_spell_every_group_option_list(preset):
    """Walking a group's tail nodes gives its options in order (the groups' lists laid end to end are ``go_off``),
    a node's rest precedes it in its table, and every tail of a table is there once."""
    tb = build_tables(freeze(load_config(DadoxConfig, "dadox", CONFIG_DIR / "dadox" / f"{preset}.toml", [])))
    g_count = len(tb.g_prob)
    end = tb.tails[N_TABS]
    node = tb.tails[TL_GROUPS + g_count :].reshape(-1, 3)
    assert len(node) == end
    walked = []
    for tab in range(N_TABS):
        lo, hi = tb.tails[tab], tb.tails[tab + 1]
        assert ((node[lo:hi, SN_NEXT] < np.arange(lo, hi)) | (node[lo:hi, SN_NEXT] == end)).all()
        assert (node[lo:hi, SN_NEXT][node[lo:hi, SN_NEXT] != end] >= lo).all()
        for g in range(tb.tab_g[tab], tb.tab_g[tab + 1]):
            k, chain = tb.tails[TL_GROUPS + g], []
            assert lo <= k < hi
            while k != end:
                chain.append(int(node[k, SN_OFF]))
                assert tb.go_off[node[k, SN_OPT]] == node[k, SN_OFF]
                k = node[k, SN_NEXT]
            walked += chain
        assert hi - lo == len({tuple(c) for c in _suffixes(tb, tab, end, node)})
    np.testing.assert_array_equal(np.array(walked), tb.go_off)


def _suffixes(tb, tab, end, node):
    """Every tail (as a tuple of option offsets) of the option lists of table ``tab``."""
    for g in range(tb.tab_g[tab], tb.tab_g[tab + 1]):
        k, chain = tb.tails[TL_GROUPS + g], []
        while k != end:
            chain.append(int(node[k, SN_OFF]))
            k = node[k, SN_NEXT]
        for i in range(len(chain)):
            yield chain[i:]


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_load(preset):
    path = None if preset == "default" else CONFIG_DIR / "dadox" / f"{preset}.toml"
    cfg = load_config(DadoxConfig, "dadox", path)
    for dotted in cfg.assumed:  # every assumed path names a real field
        node = cfg
        for part in dotted.split("."):
            node = getattr(node, part)


def test_preset_rules():
    classic = load_config(DadoxConfig, "dadox", CONFIG_DIR / "dadox" / "classic.toml")
    assert classic.bust.penalty == "lose" and not classic.turn.confirm and not classic.goal.exact
    assert not classic.turn.later_throws_need_1_or_5
    default = load_config(DadoxConfig, "dadox")
    assert not default.turn.later_throws_need_1_or_5 and default.turn.hot_dice == "throw"
    assert DadoxConfig().turn == default.turn  # the model's defaults are default.toml's
    for preset in ("lenient", "classic", "farkle-minimal", "house"):  # the presets keep the earlier hot dice
        assert load_config(DadoxConfig, "dadox", CONFIG_DIR / "dadox" / f"{preset}.toml").turn.hot_dice == "optional"
    assert load_config(DadoxConfig, "dadox", CONFIG_DIR / "dadox" / "lenient.toml").turn.later_throws_need_1_or_5
    fm = load_config(DadoxConfig, "dadox", CONFIG_DIR / "dadox" / "farkle-minimal.toml")
    assert fm.scoring.street == 0 and fm.scoring.three_pairs == 0 and not fm.scoring.kind_doubling


def test_config_errors():
    with pytest.raises(ConfigError, match="unknown config field"):
        load_config(DadoxConfig, "dadox", None, ["goal.limit=3"])
    with pytest.raises(ConfigError, match="turn.hot_dice"):
        load_config(DadoxConfig, "dadox", None, ["turn.hot_dice=bank"])
    with pytest.raises(ConfigError, match="bust.penalty"):
        load_config(DadoxConfig, "dadox", None, ["bust.penalty=halve"])
    with pytest.raises(ConfigError, match="cannot be hit exactly"):
        freeze(load_config(DadoxConfig, "dadox", None, ["goal.target=10020"]))
    with pytest.raises(ConfigError, match="scoring.single_5"):
        load_config(DadoxConfig, "dadox", None, ["scoring.single_5=0"])
    with pytest.raises(ConfigError, match="policies.threshold"):
        load_config(DadoxConfig, "dadox", None, ["policies.threshold=[1, 2]"])
    assert load_config(DadoxConfig, "dadox", None, ["goal.target=10020", "goal.exact=false"]).goal.target == 10020


def test_the_records_hold_every_rule_and_policy_number_by_its_config_path():
    cfg = load_config(DadoxConfig, "dadox", None, ["scoring.street=1500", "turn.hot_dice=optional",
                                                   "bust.penalty=lose", "policies.threshold=[1,2,3,4,5,6]",
                                                   "skill.level=0.25"])
    rp, pp = freeze(cfg), freeze_policies(cfg)
    assert (rp.scoring_street, rp.hot_throw, rp.bust_penalty, rp.unit) == (1500, 0, R.PENALTY_LOSE, 50)
    assert RULES.choice("bust.penalty", "subtract") == R.PENALTY_SUBTRACT == RP.bust_penalty
    assert RULES.choice("goal.overshoot", "subtract") == R.OVERSHOOT_SUBTRACT
    assert RULES.choice("goal.overshoot", "void") == R.OVERSHOOT_VOID == RP.goal_overshoot
    assert {rp.dtype[n] for n in rp.dtype.names} == {np.dtype(np.int64)}  # the kernels' int64 arithmetic
    assert {pp.dtype[n] for n in pp.dtype.names} == {np.dtype(np.float64)}  # the bots' float64, as before
    assert [pp[f"policies_threshold_{n}"] for n in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert [bank_threshold(n, pp) for n in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert (pp.policies_greedy_bank_at, pp.skill_level_ppm, pp.skill_opponents_ppm) == (300, 250_000, 1_000_000)
    assert rp.base.shape == (1,) and rp.base[0] == rp  # the one-element array a parallel kernel takes
    assert "policies_greedy_bank_at" not in rp.dtype.names and "skill_level_ppm" not in rp.dtype.names
