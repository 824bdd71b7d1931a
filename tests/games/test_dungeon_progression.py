"""Würfel Dungeon progression: each upgrade's effect on hand-built fights, the reward draw, jokers, market."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.core.batch import run_batch
from sim.core.config import DicesimError, load_config
from sim.core.rng import new_stream
from sim.games.dungeon import config as C
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon import runs as RUNS
from sim.games.dungeon import tables as T
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.freeze import base_values, freeze
from sim.games.dungeon.game import GAME, TM, frozen, upgrade_stats
from sim.games.dungeon.rows import EFF, N_EFF

CFG = load_config(DungeonConfig, "dungeon")
FZ = freeze(CFG, "leicht")
UP = list(CFG.upgrades)
LEICHT = {"difficulty": "leicht"}


def mods_of(*names):
    owned = np.zeros(FZ.up_eff.shape[0], np.int64)
    for n in names:
        owned[UP.index(n)] += 1
    m = np.zeros(N_EFF)
    R.fold_mods(FZ.up_eff, owned, m)
    return m


def values(*names, altar=0.0):
    m = mods_of(*names)
    cv = np.zeros((R.N_COMBO, 4))
    R.effective_values(FZ.base2[1 if m[EFF.glueckssieben] > 0 else 0], R.C_KIND, m, altar,
                       float(CFG.coins.action_base), FZ.coin_bonus, cv)
    return m, cv


def profile(*names, altar=0.0):
    """The kernel's profile tables (partition, eatt) for this loadout, built as the kernel builds them."""
    m = mods_of(*names)
    part = np.zeros((R.N_MS, 4), np.int64)
    pcl = np.zeros(R.N_MS, np.int64)
    hold = np.zeros((3, R.N_MS), np.int64)
    eatt = np.zeros((R.MAX_DICE + 1, 2))
    T.build_profile(FZ.base2, FZ.coin_bonus, float(CFG.coins.action_base), m[EFF.attack_flat] + altar,
                    m[EFF.pasch_attack_mul], m[EFF.glueckssieben], FZ.cstart, FZ.cn, FZ.cand, TM, part, pcl, hold, eatt)
    return part, eatt


def cid(kind, a, b=0):
    return R.C_INDEX[(kind, a, b)]


def shown(part, cv, dice):
    k = R.ms_index(dice)
    ids = [int(c) for c in part[k, 1 : 1 + part[k, 0]]]
    return [R.combo_name(c) for c in ids], sum(cv[c, 0] for c in ids)


def attack_turn(cv, mods, combos, ehp=100.0, eblock=0.0, draws=None, weak=1.0, berserk=1.0, hero=-1):
    """One hand-built attack step: returns (LP damage, enemy LP, block, poison, dealt per combo, crits)."""
    m = len(combos)
    ids = np.array(combos + [0] * (4 - m), np.int64)
    roles = np.array([R.ATTACK] * m + [0] * (4 - m), np.int64)
    st = np.array([ehp, eblock, 0.0])
    dealt = np.zeros(4, np.int64)
    crits = np.zeros(4, np.int64)
    d = np.ones(4) if draws is None else np.array(draws + [1.0] * (4 - len(draws)))
    tot = R.resolve_attacks(cv, ids, roles, m, hero, 2.0, mods, weak, berserk, 2.0, d, st, dealt, crits)
    return tot, st[0], st[1], st[2], list(dealt[:m]), list(crits[:m])


# --- each upgrade on a hand-built fight -------------------------------------------------------


def test_wetzstein_adds_two_per_attack_combo():
    m, cv = values("wetzstein")
    assert cv[cid(R.PASCH, 3), 0] == 6 + 2 and cv[cid(R.FULL_HOUSE, 2, 5), 0] == 32 + 2
    # Pasch 3s + Pasch 5s against 30 LP behind 3 block: (8 − 3) + 12 = 17
    tot, ehp, blk, _, dealt, _ = attack_turn(cv, m, [cid(R.PASCH, 3), cid(R.PASCH, 5)], 30.0, 3.0)
    assert dealt == [8, 12] and tot == 17 and ehp == 13 and blk == 0
    _, cv2 = values("wetzstein", "wetzstein")
    assert cv2[cid(R.PASCH, 3), 0] == 10


def test_dicke_haut_and_heilkraeuter():
    _, cv = values("dicke_haut")
    assert cv[cid(R.PASCH, 3), 1] == 5 + 3 and cv[cid(R.FULL_HOUSE, 2, 5), 1] == 22 + 3
    _, cv = values("heilkraeuter")
    assert cv[cid(R.PASCH, 3), 2] == 3 + 2 and cv[cid(R.DRILLING, 5), 2] == 10 + 2


def test_paschmeister_splits_a_vierling_into_two_pasch_worth_more():
    _, cv0 = values()
    part0, _ = profile()
    assert shown(part0, cv0, [4, 4, 4, 4, 1]) == (["Vierling"], 28)
    _, cv = values("paschmeister")
    part, _ = profile("paschmeister")
    assert cv[cid(R.PASCH, 4), 0] == 16
    assert shown(part, cv, [4, 4, 4, 4, 1]) == (["Pasch", "Pasch"], 32)  # 16 + 16 > 28
    # a Vierling of 1s splits too (4 + 4 > 7); a Fünfling of 5s stays whole (60 > 20 + 20)
    assert shown(part, cv, [1, 1, 1, 1, 5]) == (["Pasch", "Pasch"], 8)
    assert shown(part, cv, [5, 5, 5, 5, 5]) == (["Fünfling"], 60)


def test_gluecksklee_crit_doubles_one_combo():
    m, cv = values("gluecksklee")
    assert m[EFF.crit_chance] == pytest.approx(0.15)
    d = cid(R.DRILLING, 5)
    tot, _, _, _, dealt, crits = attack_turn(cv, m, [d, cid(R.PASCH, 2)], draws=[0.10, 0.20])
    assert dealt == [40, 4] and crits == [1, 0] and tot == 44
    m2, _ = values("gluecksklee", "gluecksklee")  # two clovers: independent chances
    assert m2[EFF.crit_chance] == pytest.approx(1 - 0.85**2)


def test_gluecksmuenze_second_adjust_and_eherne_mauer():
    m, _ = values("gluecksmuenze")
    assert CFG.turn.adjusts + m[EFF.extra_adjusts] == 2
    assert R.turn_start_shield(22.0, values()[0]) == 0
    assert R.turn_start_shield(22.0, values("eherne_mauer")[0]) == 15
    assert R.turn_start_shield(9.0, values("eherne_mauer")[0]) == 9


def test_giftdolch_poisons_per_attack_combo():
    m, cv = values("giftdolch")
    *_, poison, _, _ = attack_turn(cv, m, [cid(R.PASCH, 3), cid(R.PASCH, 5)])
    assert poison == 4


def test_berserker_below_half_lp():
    m, cv = values("berserker")
    assert R.berserk_factor(25.0, 50.0, m) == 1.25 and R.berserk_factor(26.0, 50.0, m) == 1.0
    _, _, _, _, dealt, _ = attack_turn(cv, m, [cid(R.DRILLING, 5)], berserk=R.berserk_factor(20.0, 50.0, m))
    assert dealt == [25]
    # weakened and berserk: 20 × 0.7 × 1.25 = 17.5 -> 18
    _, _, _, _, dealt, _ = attack_turn(cv, m, [cid(R.DRILLING, 5)], weak=0.7, berserk=1.25)
    assert dealt == [18]


def test_glueckssieben_full_house_with_w_7():
    _, cv = values("glueckssieben")
    part, _ = profile("glueckssieben")
    names, att = shown(part, cv, [1, 1, 1, 2, 2])
    assert names == ["Full House"] and att == 2 * 2 + 4 * 7 + 8 == 40
    _, cv0 = values()
    part0, _ = profile()
    assert shown(part0, cv0, [1, 1, 1, 2, 2]) == (["Full House"], 2 * 2 + 4 * 1 + 8)


def test_extra_wuerfel_sixth_die_and_sechsling():
    m, cv = values("extra_wuerfel")
    assert min(R.MAX_DICE, CFG.start.dice + m[EFF.extra_dice]) == 6
    part, eatt = profile("extra_wuerfel")
    assert shown(part, cv, [6] * 6) == (["Sechsling"], 108)
    assert eatt[6, 0] > eatt[5, 0] > 0 and eatt[5, 1] > eatt[5, 0]


def test_lebenselixier_raises_max_lp_and_heals():
    owned = np.zeros(FZ.up_eff.shape[0], np.int64)
    jokers = np.zeros(8, np.int64)
    out = np.zeros(P.n_columns(FZ))
    lp, maxlp, nj, db = P.gain(UP.index("lebenselixier"), len(UP), len(CFG.jokers), FZ, owned, jokers, 0,
                               30.0, 50.0, 0, out)
    assert (lp, maxlp) == (40.0, 60.0) and owned[UP.index("lebenselixier")] == 1
    lp, maxlp, _, _ = P.gain(UP.index("lebenselixier"), len(UP), len(CFG.jokers), FZ, owned, jokers, 0,
                              58.0, 60.0, 0, out)
    assert (lp, maxlp) == (68.0, 70.0)


def test_opferaltar_and_hero_ability():
    m, cv = values(altar=2.0)
    assert cv[cid(R.PASCH, 3), 0] == 8
    m, cv = values()
    _, _, _, _, dealt, _ = attack_turn(cv, m, [cid(R.DRILLING, 5), cid(R.PASCH, 2)], hero=0)
    assert dealt == [40, 4]


def test_kombomeisterschaft():
    cfg = load_config(DungeonConfig, "dungeon", None, ["mastery.kind='drilling'"])
    b = base_values(cfg, False)
    assert b[cid(R.DRILLING, 5)].tolist() == [23, 16, 12]  # 20·1.15, 14·1.15, 10·1.15 rounded half up
    assert b[cid(R.PASCH, 5)].tolist() == [10, 7, 5]


# --- the reward draw ---------------------------------------------------------------------------


def draws(owned_names=(), n=30000, seed=7):
    owned = np.zeros(FZ.up_eff.shape[0], np.int64)
    for u in owned_names:
        owned[UP.index(u)] += 1
    st = new_stream(seed, 0, 6, 1)
    taken = np.zeros(8, np.int64)
    return np.array([P.draw_upgrade(st, FZ, owned, taken, 0) for _ in range(n)])


def test_rarity_draw_60_30_10_then_uniform():
    n = 30000
    d = draws(n=n)
    rar = FZ.up_rarity[d]
    for r, p in enumerate((0.6, 0.3, 0.1)):
        share = (rar == r).mean()
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / n), (r, share)
    for r in range(3):
        ups = np.flatnonzero(FZ.up_rarity == r)
        cnt = np.array([(d == u).sum() for u in ups])
        exp = cnt.sum() / len(ups)
        chi2 = ((cnt - exp) ** 2 / exp).sum()
        assert chi2 < 3 * len(ups) + 10  # far below any plausible non-uniformity


def test_unique_rule_and_empty_rarity():
    d = draws(("berserker", "glueckssieben"), n=20000)
    assert not np.isin(d, [UP.index("berserker"), UP.index("glueckssieben")]).any()
    assert (d == UP.index("extra_wuerfel")).mean() == pytest.approx(0.1, abs=4 * np.sqrt(0.09 / 20000))
    # all Episch upgrades owned (all unique): the rarity drops out, the rest renormalise to 2/3, 1/3
    d = draws(("berserker", "glueckssieben", "extra_wuerfel"), n=20000)
    rar = FZ.up_rarity[d]
    assert (rar != 2).all() and abs((rar == 0).mean() - 2 / 3) < 4 * np.sqrt(2 / 9 / 20000)
    # non-unique upgrades stay eligible when owned
    d = draws(("wetzstein", "wetzstein"), n=5000)
    assert (d == UP.index("wetzstein")).any()
    # owned unique Selten (Glücksmünze, Eherne Mauer) never come back
    d = draws(("gluecksmuenze", "eherne_mauer"), n=20000)
    assert not np.isin(d, [UP.index("gluecksmuenze"), UP.index("eherne_mauer")]).any()


# --- runs with the economy ----------------------------------------------------------------------


def table(policy="vorschlag", n=1500, seed=3, cfg=CFG):
    return run_batch(GAME, cfg, [policy], n, seed, LEICHT, progress=False).table


def test_runs_with_rewards_and_market():
    t = table("vorschlag", 2000)
    won_rooms = t["rooms_cleared"].to_numpy()
    assert (t["rewards"] == np.minimum(won_rooms, 9)).all()  # one reward per won room but the last
    for u in UP:
        assert (t[f"picked_{u}"] <= t[f"offered_{u}"]).all()
        first = t[f"first_offer_{u}"]
        assert ((first > 0) == (t[f"offered_{u}"] > 0)).all()
        assert (t.loc[t[f"took_first_{u}"] > 0, f"picked_{u}"] > 0).all()
    picks = sum(t[f"picked_{u}"] for u in UP)
    assert (picks <= t["rewards"]).all()
    assert (t["upgrades_gained"] == picks + sum(t[f"bought_{u}"] for u in UP)).all()
    for u in ("berserker", "glueckssieben", "extra_wuerfel", "gluecksmuenze", "eherne_mauer"):
        assert (t[f"picked_{u}"] + t[f"bought_{u}"] <= 1).all()  # unique
    reached = won_rooms >= 3
    assert (t.loc[~reached, "market_spent_3"] == 0).all()
    assert t.loc[reached, "market_spent_3"].mean() > 0
    assert t["jokers_used"].sum() > 0 and (t["jokers_used"] == t["jokers_set"] + t["jokers_reroll"]
                                            + t["jokers_heal"]).all()
    m = GAME.metrics(t, LEICHT, CFG)
    for key in ("mean_upgrades_gained", "mean_jokers_used", "coins_spent_market_3", "upgrade_paschmeister_pick_rate",
                "upgrade_paschmeister_win_lift", "upgrade_wetzstein_win_rate_picked", "upgrade_berserker_dominant",
                "upgrade_giftdolch_trap", "upgrade_extra_wuerfel_offer_rate"):
        assert key in m, key
    st = upgrade_stats(t)
    assert set(st) == set(UP)


def test_replay_shows_rewards_purchases_and_matches_the_batch():
    t = table("vorschlag", 30, seed=4)
    run = int(np.argmax(t["rooms_cleared"].to_numpy()))
    row = GAME.replay_log(CFG, ["vorschlag"], 4, run, LEICHT).table_rows[0]
    assert set(t.columns) - set(row) == {c for c in t.columns if pd.isna(t.iloc[run][c])}
    for c, v in row.items():
        assert t.iloc[run][c] == v, c
    text = GAME.replay(CFG, ["vorschlag"], 4, run, LEICHT)
    assert "Belohnung:" in text and "gewählt:" in text
    if t.iloc[run]["rooms_cleared"] >= 3:
        assert "Tagesmarkt:" in text


def test_forced_loadout_and_policy_at_upgrade():
    cfg = load_config(DungeonConfig, "dungeon", None, ["loadout.upgrades=['paschmeister']", "rewards.enabled=false",
                                                        "market.enabled=false"])
    a = table("greedy", 400, 9, cfg)
    plain = load_config(DungeonConfig, "dungeon", None, ["rewards.enabled=false", "market.enabled=false"])
    b = run_batch(GAME, plain, ["greedy@paschmeister"], 400, 9, LEICHT, progress=False).table
    for c in ("win", "score", "turns", "damage_dealt"):
        assert (a[c].to_numpy() == b[c].to_numpy()).all()
    with pytest.raises(DicesimError, match="nix"):
        run_batch(GAME, plain, ["greedy@nix"], 10, 9, LEICHT, progress=False)


def test_joker_haendler_sells_the_last_joker():
    cfg = load_config(DungeonConfig, "dungeon", None, ["loadout.jokers=['wuerfel_setzen', 'extra_wurf']",
                                                       "path.events.weights=[0.0, 1.0, 0.0]", "path.rest_chance=0.0"])
    fz, cache = frozen(cfg, "leicht")
    sold = 0
    for run in range(20):
        _, log = RUNS.run_one(0, 2, run, fz, cache, TM, 0, 20_000)
        for r in log:
            if r[0] == P.LG_EVENT and r[4]:
                assert r[3] == C.EV_JOKER and r[7] in (0, 1, 2)
                sold += 1
    assert sold > 0


def test_every_policy_runs_the_economy():
    for pol, n in (("greedy", 600), ("expectimax", 150), ("random", 600)):
        t = table(pol, n, 5)
        assert (t["coins"] >= 0).all() and (t["lp"] <= t["max_lp"]).all()
        assert t["upgrades_gained"].sum() > 0


def test_upgrade_lift_of_a_unique_upgrade_owned_already_is_none():
    """A start loadout that owns a unique upgrade (Glücksmünze): forcing it again is no second copy (refused as a
    policy), so its lift is exactly 0 on the same runs and every other upgrade is still measured."""
    from sim.games.dungeon.upgrade_lift import upgrade_lift

    assert CFG.upgrades["gluecksmuenze"].unique
    cfg = CFG.model_copy(update={"loadout": CFG.loadout.model_copy(update={"upgrades": ["gluecksmuenze"]})})
    t = upgrade_lift(GAME, cfg, "vorschlag", 200, 9, "leicht").set_index("upgrade")
    assert sorted(t.index) == sorted(cfg.upgrades)
    assert t.loc["gluecksmuenze", "win_lift"] == 0.0 == t.loc["gluecksmuenze", "ci95_high"]


def test_a_start_with_more_dice_than_a_hand_holds_is_refused_and_has_no_lift():
    """start.dice 6 and Extra-Würfel would make seven dice, which the hand (six: Sechsling is the largest combo)
    cannot hold; the kernel used to drop the die without a word. A start loadout with it is refused, so is a policy
    forcing it; the balance report's upgrade lift gives it 0 and measures every other upgrade."""
    from pydantic import ValidationError

    from sim.games.dungeon.options import check_variant
    from sim.games.dungeon.upgrade_lift import upgrade_lift

    six = CFG.model_copy(update={"start": CFG.start.model_copy(update={"dice": 6})})
    with pytest.raises(ValidationError, match="make 7: a hand holds at most 6 dice"):
        type(CFG).model_validate({**six.model_dump(), "loadout": {**six.loadout.model_dump(),
                                                                  "upgrades": ["extra_wuerfel"]}})
    with pytest.raises(DicesimError, match="policy 'greedy@wetzstein\\+extra_wuerfel': start.dice 6"):
        check_variant(six, "greedy@wetzstein+extra_wuerfel")
    check_variant(CFG, "greedy@extra_wuerfel")  # five and one: six
    t = upgrade_lift(GAME, six, "vorschlag", 200, 9, "leicht").set_index("upgrade")
    assert sorted(t.index) == sorted(six.upgrades)
    assert t.loc["extra_wuerfel", "win_lift"] == 0.0 == t.loc["extra_wuerfel", "ci95_high"]


def test_upgrade_lift_is_paired_and_causal():
    """Started with an upgrade that does nothing (non-unique, so the offers stay the same), every run is the
    plain run again: lift exactly 0 with a zero-width interval. Wetzstein (+2 per attack combo) must pay."""
    from sim.games.dungeon.upgrade_lift import rank_agreement, start_ratings, upgrade_lift

    data = CFG.model_dump()
    data["upgrades"]["nichts"] = {"rarity": "haeufig"}
    cfg = DungeonConfig.model_validate(data)
    t = upgrade_lift(GAME, cfg, "vorschlag", 3000, 4, "leicht").set_index("upgrade")
    assert list(sorted(t.index)) == sorted(cfg.upgrades)
    assert t.loc["nichts", "win_lift"] == 0.0 and t.loc["nichts", "ci95_high"] == t.loc["nichts", "ci95_low"] == 0.0
    assert t.loc["wetzstein", "ci95_low"] > 0.0
    assert (t["win_rate_without"] == t["win_rate_without"].iloc[0]).all()
    assert np.allclose(t["win_rate_with"] - t["win_rate_without"], t["win_lift"])
    assert sorted(t["rank_lift"]) == sorted(t["win_lift"].rank(ascending=False, method="min").astype(int))
    r = start_ratings(cfg, "vorschlag", "leicht")
    assert r["nichts"] == 0.0 and r["wetzstein"] > 0.0
    assert -1.0 <= rank_agreement(t.reset_index()) <= 1.0


def test_a_tiny_profile_cache_changes_nothing():
    """With 1 slot per thread greedy's gain look-ups evict the room's profile all the time: the kernel must
    notice the reused slot and rebuild, so every table value equals the run with a roomy cache."""
    from policies.dungeon.bots import POLICIES
    from sim.games.dungeon.table_schema import column_names

    n = 300
    outs = []
    for slots in (T.N_SLOTS, 1):
        out = np.zeros((n, len(column_names(CFG))))
        RUNS.play_batch(POLICIES["greedy"], 5, 0, n, FZ, T.new_cache(1, slots), TM, out)
        outs.append(out)
    assert outs[0][:, 0].sum() > 0  # some rooms were played
    np.testing.assert_array_equal(outs[0], outs[1])


def test_upgrade_picks_set_the_expert_beside_the_rating(tmp_path):
    """The upgrade report's pick rates are each policy's picks per reward offer on the same seeds (the batch
    metric ``upgrade_<u>_pick_rate`` of that policy's table), with a chart of one bar per upgrade and policy.
    The rollout expert (here K = 4 continuations on vorschlag) must pick differently from the rating somewhere."""
    from sim.games.dungeon.upgrade_lift import pick_rate_chart, pick_rates, upgrade_lift

    cfg = CFG.model_copy(update={"rollout": CFG.rollout.model_copy(update={"k": 4})})
    picks = pick_rates(GAME, cfg, ["vorschlag", "rollout"], 120, 9, "leicht").set_index("upgrade")
    opts = GAME.check_options({"difficulty": "leicht"})
    for policy in ("vorschlag", "rollout"):
        t = run_batch(GAME, cfg, [policy], 120, 9, opts, progress=False).table
        m = GAME.metrics(t, opts, cfg)
        for u in picks.index:
            offers = picks.loc[u, f"offers_{policy}"]
            assert offers == t[f"offered_{u}"].sum()
            if offers:
                assert picks.loc[u, f"pick_rate_{policy}"] == pytest.approx(m[f"upgrade_{u}_pick_rate"]["value"])
                assert picks.loc[u, f"pick_rate_{policy}_low"] <= picks.loc[u, f"pick_rate_{policy}"]
    assert (picks["pick_rate_vorschlag"] != picks["pick_rate_rollout"]).any()
    lift = upgrade_lift(GAME, cfg, "vorschlag", 200, 9, "leicht")
    png = pick_rate_chart(lift, picks.reset_index(), ["vorschlag", "rollout"], tmp_path / "picks.png")
    assert png.stat().st_size > 10_000
