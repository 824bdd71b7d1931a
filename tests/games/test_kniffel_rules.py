"""Golden scoring tests for Kniffel: every box, the upper bonus, the Kniffel bonus and all joker cases."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.config import load_config
from sim.games.kniffel import rules as R
from sim.games.kniffel.config import KniffelConfig, freeze

RP = freeze(load_config(KniffelConfig, "kniffel"))


def rp_with(*sets: str) -> np.record:
    return freeze(load_config(KniffelConfig, "kniffel", None, list(sets)))


def cnt(*dice: int) -> np.ndarray:
    return np.bincount(np.array(dice) - 1, minlength=6).astype(np.int64)


def filled(*boxes: int) -> int:
    m = 0
    for b in boxes:
        m |= 1 << b
    return m


@pytest.mark.parametrize(
    "dice, box, points",
    [
        ((6, 6, 1, 3, 6), 5, 18),  # seed: (6,6,1,3,6) scores 18 as Sechser
        ((1, 4, 4, 4, 5), R.DREIERPASCH, 18),  # seed example
        ((2, 2, 4, 2, 2), R.VIERERPASCH, 12),  # seed example
        ((2, 2, 4, 2, 3), R.VIERERPASCH, 0),
        ((3, 3, 3, 5, 5), R.FULL_HOUSE, 25),
        ((5, 5, 5, 5, 5), R.FULL_HOUSE, 0),  # five equal is no Full House (seed)
        ((3, 2, 4, 5, 3), R.KLEINE_STRASSE, 30),  # seed example
        ((1, 2, 3, 5, 6), R.KLEINE_STRASSE, 0),
        ((5, 2, 4, 3, 6), R.GROSSE_STRASSE, 40),  # seed example
        ((5, 2, 4, 3, 6), R.KLEINE_STRASSE, 30),
        ((4, 4, 4, 4, 4), R.KNIFFEL, 50),
        ((4, 4, 4, 4, 3), R.KNIFFEL, 0),
        ((1, 2, 3, 4, 6), R.CHANCE, 16),
        ((1, 1, 1, 2, 2), 0, 3),
    ],
)
def test_box_scores(dice, box, points):
    assert R.category_score(cnt(*dice), box, RP) == points
    assert R.box_score(cnt(*dice), box, 0, 0, RP) == points


def test_upper_bonus_is_paid_once_when_crossing_the_threshold():
    key = R.make_key(filled(0, 1, 2, 3, 4), 60, 0)  # upper subtotal 60
    pts, ub, kb, nk = R.apply_move(cnt(6, 6, 1, 2, 3), 5, key, RP)
    assert (pts, ub, kb) == (12, 35, 0)
    assert R.key_up(nk) == 63  # capped at the threshold
    key2 = R.make_key(filled(0, 1, 2, 3), 63, 0)
    assert R.apply_move(cnt(5, 5, 5, 1, 2), 4, key2, RP)[1] == 0  # already earned: no second bonus


def test_upper_bonus_needs_63_not_62():
    key = R.make_key(filled(0, 1, 2, 3, 4), 50, 0)
    assert R.apply_move(cnt(6, 6, 1, 2, 3), 5, key, RP)[1] == 0  # 62: no bonus ("mehr als 62")


def test_kniffel_box_sets_the_bonus_flag_only_with_50():
    _, _, _, nk = R.apply_move(cnt(2, 2, 2, 2, 2), R.KNIFFEL, 0, RP)
    assert R.key_flag(nk) == 1
    _, _, _, nk0 = R.apply_move(cnt(2, 2, 2, 2, 3), R.KNIFFEL, 0, RP)
    assert R.key_flag(nk0) == 0 and R.key_mask(nk0) == filled(R.KNIFFEL)


KNIFFEL_50 = R.make_key(filled(R.KNIFFEL), 0, 1)
KNIFFEL_0 = R.make_key(filled(R.KNIFFEL), 0, 0)
THREES = cnt(3, 3, 3, 3, 3)


def legal_boxes(counts, key, rp):
    mask, flag = R.key_mask(key), R.key_flag(key)
    return [c for c in range(R.N_CAT) if R.legal(counts, c, mask, flag, rp)]


def test_forced_joker_matching_upper_box_must_be_used_and_bonus_paid():
    assert legal_boxes(THREES, KNIFFEL_50, RP) == [2]
    pts, ub, kb, _ = R.apply_move(THREES, 2, KNIFFEL_50, RP)
    assert (pts, kb) == (15, 100)


def test_forced_joker_lower_boxes_when_upper_box_filled():
    key = R.make_key(filled(R.KNIFFEL, 2), 15, 1)
    assert legal_boxes(THREES, key, RP) == [6, 7, 8, 9, 10, 12]
    mask = R.key_mask(key)
    scores = {c: R.box_score(THREES, c, mask, 1, RP) for c in legal_boxes(THREES, key, RP)}
    assert scores == {6: 15, 7: 15, 8: 25, 9: 30, 10: 40, 12: 15}
    assert R.apply_move(THREES, R.GROSSE_STRASSE, key, RP)[2] == 100


def test_forced_joker_upper_box_for_zero_when_lower_section_full():
    key = R.make_key(filled(2, 6, 7, 8, 9, 10, 11, 12), 15, 1)
    assert legal_boxes(THREES, key, RP) == [0, 1, 3, 4, 5]
    pts, ub, kb, _ = R.apply_move(THREES, 0, key, RP)
    assert (pts, kb) == (0, 100)


def test_kniffel_box_zero_no_bonus_but_joker_still_applies():
    assert R.apply_move(THREES, 2, KNIFFEL_0, RP)[2] == 0
    key = R.make_key(filled(R.KNIFFEL, 2), 15, 0)
    assert R.box_score(THREES, R.FULL_HOUSE, R.key_mask(key), 0, RP) == 25
    no_zero_joker = rp_with("joker.when_zero=false")
    assert R.box_score(THREES, R.FULL_HOUSE, R.key_mask(key), 0, no_zero_joker) == 0
    assert legal_boxes(THREES, KNIFFEL_0, no_zero_joker) == [c for c in range(13) if c != R.KNIFFEL]


def test_free_joker_any_box_jokers_only_once_upper_box_filled():
    free = rp_with("joker.mode=free")
    assert legal_boxes(THREES, KNIFFEL_50, free) == [c for c in range(13) if c != R.KNIFFEL]
    assert R.box_score(THREES, R.FULL_HOUSE, filled(R.KNIFFEL), 1, free) == 0
    assert R.box_score(THREES, R.FULL_HOUSE, filled(R.KNIFFEL, 2), 1, free) == 25
    assert R.box_score(THREES, R.KLEINE_STRASSE, filled(R.KNIFFEL, 2), 1, free) == 30


def test_joker_off_scores_normally_but_bonus_stays():
    off = rp_with("joker.mode=off")
    key = R.make_key(filled(R.KNIFFEL, 2), 15, 1)
    assert R.box_score(THREES, R.FULL_HOUSE, R.key_mask(key), 1, off) == 0
    assert R.apply_move(THREES, R.CHANCE, key, off)[2] == 100
    assert not R.must_score_now(THREES, R.key_mask(key), 1, off)


def test_seed_rule_no_rolling_with_the_joker_in_play():
    assert R.must_score_now(THREES, filled(R.KNIFFEL), 1, RP)
    assert R.must_score_now(THREES, filled(R.KNIFFEL), 0, RP)  # box holds 0: joker still in play
    assert not R.must_score_now(THREES, 0, 0, RP)  # Kniffel box open: no joker
    assert not R.must_score_now(cnt(3, 3, 3, 3, 2), filled(R.KNIFFEL), 1, RP)
    assert not R.must_score_now(THREES, filled(R.KNIFFEL), 1, rp_with("joker.stops_rolling=false"))


def test_fixed_scores_come_from_the_config():
    rp = rp_with("scores.full_house=30", "scores.grosse_strasse=45", "scores.kniffel_bonus=50")
    assert R.category_score(cnt(2, 2, 3, 3, 3), R.FULL_HOUSE, rp) == 30
    assert R.category_score(cnt(1, 2, 3, 4, 5), R.GROSSE_STRASSE, rp) == 45
    assert R.apply_move(THREES, 2, KNIFFEL_50, rp)[2] == 50


def test_joker_readings_are_listed_as_assumed():
    """The seed leaves two joker readings open: the default config lists both as assumed and marks their lines."""
    from sim.core.config import CONFIG_DIR

    cfg = load_config(KniffelConfig, "kniffel")
    assert sorted(cfg.assumed) == ["joker.stops_rolling", "joker.when_zero"]
    text = (CONFIG_DIR / "kniffel" / "default.toml").read_text(encoding="utf-8")
    for key in ("when_zero", "stops_rolling"):
        line = next(x for x in text.splitlines() if x.startswith(key))
        assert line.rstrip().endswith("# assumed"), line
    for variant in ("forced-joker", "free-joker"):
        path = CONFIG_DIR / "kniffel" / f"{variant}.toml"
        assert "joker.when_zero" in load_config(KniffelConfig, "kniffel", path).assumed


def test_the_record_holds_every_rule_number_by_its_config_path():
    rp = rp_with("bonus.value=0", "joker.mode=free", "scores.kniffel=60", "turn.rolls=4", "skill.level=0.25")
    assert (rp.bonus_value, rp.scores_kniffel, rp.turn_rolls, rp.joker_mode) == (0, 60, 4, R.JOKER_FREE)
    assert rp.up_cap == 0 and RP.up_cap == RP.bonus_threshold == 63  # derived: no bonus, no upper cap
    assert (rp.skill_level_ppm, rp.skill_opponents_ppm) == (250_000, 1_000_000)
    assert {rp.dtype[n] for n in rp.dtype.names} == {np.dtype(np.int64)}  # the kernels' int64 arithmetic
    assert rp.base.shape == (1,) and rp.base[0] == rp  # the one-element array a parallel kernel takes
