"""Golden tests of Dungeon24's pure rules (seed: shared/seeds/dungeon24.de.txt) and its config."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.config import ConfigError, load_config
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import ABILITIES, RULES, Dungeon24Config, freeze

CFG = load_config(Dungeon24Config, "dungeon24")
RP, CARDS, ABIL = freeze(CFG)
ID = np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]], np.int64)


def fresh(people=(0, 0), rp=RP, perm=ID) -> np.ndarray:
    S = np.zeros(R.S_SIZE, np.int64)
    ppl = np.array(people, np.int64)
    R.init_state(S, rp, CARDS, ppl, ABIL[ppl].copy(), perm)
    return S


def rp_with(**kw) -> np.record:
    """``RP`` with record fields replaced (``rules_focus_cost=2``), in a copy of its one-element array."""
    rec = RP.base.copy()
    for k, v in kw.items():
        rec[k] = v
    return rec.view(np.recarray)[0]


def statuses(S, p):
    return [R.status(S, p, pos) for pos in range(R.N_POS)]


# --- setup -----------------------------------------------------------------------------------


def test_start_state_matches_seed():
    S = fresh()
    assert S[R.S_LP] == S[R.S_LP + 1] == 24  # "Beide starten mit 24 LP und 0 Siegen"
    assert S[R.S_WINS] == S[R.S_WINS + 1] == 0
    # "danach decken beide ihre ersten zwei Frontkarten als aktive Kämpfer auf"
    assert statuses(S, 0) == [R.ACTIVE, R.ACTIVE, R.DOWN, R.DOWN, R.DOWN, R.DOWN]
    assert R.n_reserve(S, 0) == 3  # third front card + 2 middle; the boss is no reserve
    # default deck stats: Grünlinge card 0 Goblin-Späher 3/1, boss Ork-Häuptling 6/4
    assert (R.attack_of(S, 0, 0), R.defence_of(S, 0, 0)) == (3, 1)
    assert (R.attack_of(S, 0, R.BOSS), R.defence_of(S, 0, R.BOSS)) == (6, 4)


def test_arrangement_places_cards():
    perm = np.array([[4, 3, 2, 1, 0], [0, 1, 2, 3, 4]], np.int64)
    S = fresh(perm=perm)
    assert [S[R.S_CARD + p] for p in range(6)] == [4, 3, 2, 1, 0, 5]
    assert R.attack_of(S, 0, 0) == CFG.peoples.gruenlinge.cards[4].a


# --- the exchange ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("att", "dfn", "lp_loss"),
    [(9, 5, 4), (6, 5, 1), (5, 5, 0), (4, 5, 0), (12, 2, 10)],
)
def test_exchange_hit_block_difference(att, dfn, lp_loss):
    """Attacker A+die vs defender V+die: strictly greater hits for the difference; a tie blocks."""
    assert R.exchange(att, dfn) == lp_loss


def test_exchange_probabilities_exact():
    """Enumeration of the 36 dice pairs: equal A and V hit 15/36; +5 misses only on (1, 6)."""
    def hits(adv):
        return sum(R.exchange(adv + a, d) > 0 for a in range(1, 7) for d in range(1, 7))

    assert hits(0) == 15
    assert hits(5) == 35
    assert hits(-5) == 0
    assert sum(hits(adv) for adv in (-1, 0)) == 15 + 10


def test_hit_applies_lp_win_and_fall():
    S = fresh()
    end, r = R.apply_hit(S, 0, 1, 3, RP)
    assert (end, r) == (R.END_NONE, -1)
    assert S[R.S_LP + 1] == 21 and S[R.S_WINS] == 1 and S[R.S_LP] == 24
    assert R.status(S, 1, 1) == R.FALLEN and R.status(S, 1, 0) == R.ACTIVE  # only the defender falls


def test_lp_zero_ends_game():
    S = fresh()
    S[R.S_LP + 1] = 3
    end, _ = R.apply_hit(S, 0, 0, 3, RP)  # LP <= 0
    assert end == R.END_LP and S[R.S_WINNER] == 0


# --- reinforcement, deploy, focus --------------------------------------------------------------


def test_reinforcement_order_front_middle_boss_then_loss():
    S = fresh()
    revealed = []
    R.apply_hit(S, 0, 0, 1, RP)  # one active left: no reinforcement
    assert R.n_active(S, 1) == 1
    pos = 1
    for _ in range(5):
        end, r = R.apply_hit(S, 0, pos, 1, RP)
        if end != R.END_NONE:
            break
        revealed.append(r)
        pos = r
    assert revealed == [2, 3, 4, 5]  # front -> middle -> boss, one at a time ("sofort")
    assert end == R.END_NO_CREATURES and S[R.S_WINNER] == 0
    assert S[R.S_BOSSLOST + 1] == 1


def test_deploy_reveals_front_then_middle_never_boss():
    S = fresh()
    got = [R.deploy(S, 0) for _ in range(4)]
    assert got == [2, 3, 4, -1]
    assert R.status(S, 0, R.BOSS) == R.DOWN
    assert R.n_active(S, 0) == 5 and S[R.S_DEPLOYS] == 3
    assert not R.can_deploy(S, 0)


def test_focus_costs_a_reserve_card_never_the_boss():
    S = fresh()
    assert R.can_focus(S, 0, RP)
    R.pay_focus(S, 0, 3, RP)
    assert R.status(S, 0, 3) == R.DISCARDED and S[R.S_FOCUS] == 1
    R.pay_focus(S, 0, 2, RP)
    R.pay_focus(S, 0, 4, RP)
    assert not R.can_focus(S, 0, RP)  # only the boss is face down
    assert R.status(S, 0, R.BOSS) == R.DOWN
    assert not R.can_focus(fresh(), 0, rp_with(rules_focus=0))


def test_focus_cost_two_takes_the_back_of_the_reserve():
    S = fresh()
    R.pay_focus(S, 0, 2, rp_with(rules_focus_cost=2))
    assert statuses(S, 0)[2:5] == [R.DISCARDED, R.DOWN, R.DISCARDED]


def test_discarded_cards_are_skipped_by_reinforcement():
    S = fresh()
    R.pay_focus(S, 1, 2, RP)
    R.pay_focus(S, 1, 3, RP)
    R.apply_hit(S, 0, 0, 1, RP)
    _, r = R.apply_hit(S, 0, 1, 1, RP)
    assert r == 4


# --- abilities and the house rules ----------------------------------------------------------


def test_charges_at_every_three_wins_and_stack():
    S = fresh()
    gained = [R.add_win(S, 0, RP) for _ in range(9)]
    assert gained == [0, 0, 1, 0, 0, 1, 0, 0, 1]
    assert S[R.S_CHARGES] == 3  # "Ladungen sammeln sich, falls du wartest"


def test_blutrausch_adds_a_die_to_the_next_attack():
    S = fresh(people=(0, 1))
    assert not R.can_fire(S, 0, RP)
    S[R.S_CHARGES] = 2
    assert R.can_fire(S, 0, RP)
    R.fire(S, 0, RP)
    assert S[R.S_BLUT] == 1 and S[R.S_CHARGES] == 1 and S[R.S_USES] == 1
    R.fire(S, 0, RP)
    assert S[R.S_BLUT] == 2


def test_auferstehung_returns_the_last_fallen():
    S = fresh(people=(0, 1))
    assert S[R.S_ABIL + 1] == R.AB_AUFERSTEHUNG
    S[R.S_CHARGES + 1] = 1
    assert not R.can_fire(S, 1, RP)  # nothing fallen yet
    R.apply_hit(S, 0, 0, 1, RP)
    R.apply_hit(S, 0, 1, 1, RP)  # reinforcement reveals position 2
    assert R.can_fire(S, 1, RP)
    assert R.fire(S, 1, RP) == 1  # position 1 fell last
    assert R.status(S, 1, 1) == R.ACTIVE and R.status(S, 1, 0) == R.FALLEN
    assert R.n_active(S, 1) == 2


def test_schattenschmerz_two_lp_for_three_turns():
    S = fresh(people=(2, 0))
    S[R.S_CHARGES] = 1
    R.fire(S, 0, RP)
    assert R.curse_pending(S, 1, RP) == 6
    assert [R.curse_tick(S, 1, RP)[0] for _ in range(4)] == [2, 2, 2, 0]
    assert S[R.S_LP + 1] == 18 and R.curse_tick(S, 0, RP)[0] == 0
    S[R.S_CHARGES] = 1
    R.fire(S, 0, RP)
    S[R.S_LP + 1] = 2
    assert R.curse_tick(S, 1, RP) == (2, R.END_LP) and S[R.S_WINNER] == 0


def test_two_curses_stack():
    S = fresh(people=(2, 0))
    S[R.S_CHARGES] = 2
    R.fire(S, 0, RP)
    R.curse_tick(S, 1, RP)
    R.fire(S, 0, RP)
    assert [R.curse_tick(S, 1, RP)[0] for _ in range(4)] == [4, 4, 2, 0]


def test_boss_loss_costs_the_ability_not_the_game():
    S = fresh()
    S[R.S_CHARGES + 1] = 2
    R.activate_boss(S, 1)
    end, _ = R.apply_hit(S, 0, R.BOSS, 1, RP)
    assert end == R.END_NONE  # house rule: the game goes on
    assert S[R.S_LOST + 1] == 1 and S[R.S_CHARGES + 1] == 0 and S[R.S_BOSSLOST + 1] == 1
    for _ in range(6):
        R.add_win(S, 1, RP)
    assert S[R.S_CHARGES + 1] == 0  # no new charges, for good
    assert not R.can_fire(S, 1, RP)


def test_boss_loss_defeat_variant():
    S = fresh()
    R.activate_boss(S, 1)
    end, _ = R.apply_hit(S, 0, R.BOSS, 1, rp_with(rules_boss_loss=R.BOSSLOSS_DEFEAT))
    assert end == R.END_BOSS and S[R.S_WINNER] == 0


def test_boss_counter_modes():
    S = fresh()
    S[R.S_CHARGES] = 2
    R.fire(S, 0, RP)
    assert R.counter_allowed(S, 1, RP)
    assert R.counter_allowed(S, 1, rp_with(rules_boss_counter=R.COUNTER_FIRST))
    assert not R.counter_allowed(S, 1, rp_with(rules_boss_counter=R.COUNTER_OFF))
    R.fire(S, 0, RP)
    assert not R.counter_allowed(S, 1, rp_with(rules_boss_counter=R.COUNTER_FIRST))  # second fire: no threshold 3
    R.activate_boss(S, 1)
    assert R.status(S, 1, R.BOSS) == R.ACTIVE and S[R.S_COUNTERS + 1] == 1
    assert not R.counter_allowed(S, 1, RP)  # boss already up
    assert R.next_reserve(S, 1) == 2  # deploy still takes the front first


# --- invariants -------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 5), st.integers(1, 8)), max_size=30))
def test_hits_conserve_cards_and_lp(seq):
    """Any sequence of hits: each card in exactly one status, LP = 24 - damage taken, the game ends at most once."""
    S = fresh()
    taken = [0, 0]
    for att, pos, diff in seq:
        d = 1 - att
        if S[R.S_END] != R.END_NONE or R.status(S, d, pos) != R.ACTIVE:
            continue
        R.apply_hit(S, att, pos, diff, RP)
        taken[d] += diff
        for p in (0, 1):
            assert sum(1 for x in statuses(S, p) if x in (R.DOWN, R.ACTIVE, R.FALLEN, R.DISCARDED)) == 6
        if S[R.S_END] == R.END_NONE:
            assert R.n_active(S, 0) > 0 and R.n_active(S, 1) > 0
    assert S[R.S_LP] == 24 - taken[0] and S[R.S_LP + 1] == 24 - taken[1]


# --- config ----------------------------------------------------------------------------------


def test_default_config_assumed_and_decks():
    assert "peoples.gruenlinge" in CFG.assumed and "rules.boss_counter" in CFG.assumed
    for v in (CFG.peoples.gruenlinge, CFG.peoples.untote, CFG.peoples.dunkelelfen):
        assert len(v.cards) == 5
        assert all(1 <= c.a <= 5 and 1 <= c.v <= 5 for c in v.cards)
        assert 4 <= v.boss.a <= 6 and 4 <= v.boss.v <= 6
    assert list(ABIL) == [R.AB_BLUTRAUSCH, R.AB_AUFERSTEHUNG, R.AB_SCHATTENSCHMERZ]
    assert CARDS.shape == (3, 6, 2)


@pytest.mark.parametrize(
    "override",
    ["rules.boss_counter=sometimes", "start.lp=0", "rules.focus_cost=x", "peoples.untote.ability=fireball",
     "rules.nope=1", "assumed=['rules.nope']"],
)
def test_bad_config_is_a_config_error(override):
    with pytest.raises(ConfigError):
        load_config(Dungeon24Config, "dungeon24", overrides=[override])


def test_variant_configs_load():
    from sim.core.config import CONFIG_DIR

    for path in sorted((CONFIG_DIR / "dungeon24").glob("*.toml")):
        freeze(load_config(Dungeon24Config, "dungeon24", path))


def test_rule_record_holds_the_rules_codes():
    """The rule record is generated from the model: a choice holds its place in its ``Literal``, which must be the
    code the kernels compare with (``R.BOSSLOSS_*``, ``R.COUNTER_*``, ``R.FIRE_*``); int64 as the kernels' sums."""
    assert (RULES.choice("rules.boss_loss", "ability"), RULES.choice("rules.boss_loss", "defeat")) == (
        R.BOSSLOSS_ABILITY, R.BOSSLOSS_DEFEAT)
    assert [RULES.choice("rules.boss_counter", c) for c in ("off", "first", "every")] == [
        R.COUNTER_OFF, R.COUNTER_FIRST, R.COUNTER_EVERY]
    assert [RULES.choice("rules.fire_timing", c) for c in ("own_turn", "any_turn")] == [R.FIRE_OWN_TURN,
                                                                                        R.FIRE_ANY_TURN]
    assert list(ABILITIES.values()) == [R.AB_NONE, R.AB_BLUTRAUSCH, R.AB_AUFERSTEHUNG, R.AB_SCHATTENSCHMERZ]
    assert (RP.start_lp, RP.start_active, RP.rules_focus_cost, RP.rules_boss_counter, RP.rules_max_turns) == (
        24, 2, 1, R.COUNTER_EVERY, 600)
    assert (RP.abilities_schattenschmerz_lp, RP.skill_level_ppm, RP.skill_opponents_ppm) == (2, 1_000_000, 1_000_000)
    assert {RP.dtype[n] for n in RP.dtype.names} == {np.dtype(np.int64)}
    assert RP.base.shape == (1,) and RP.base[0] == RP  # the one-element array the batch kernel takes
    assert not any(n.startswith("peoples") for n in RP.dtype.names)  # the decks travel as the cards array
    rp, _, _ = freeze(load_config(Dungeon24Config, "dungeon24", overrides=[
        "rules.boss_loss='defeat'", "rules.fire_timing='any_turn'", "skill.level=casual"]))
    assert (rp.rules_boss_loss, rp.rules_fire_timing, rp.skill_level_ppm) == (R.BOSSLOSS_DEFEAT, R.FIRE_ANY_TURN,
                                                                             500_000)
