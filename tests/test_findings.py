"""The balance-finding detectors on tables built in the test: each one fires on tables built to trigger it and
stays quiet on tables built not to; the economy loop follows the price table of the config."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from sim.games import get_game
from sim.report.findings.base import Tables, replay_command
from sim.report.findings.config import FindingsConfig, split
from sim.report.findings.content import unused_content
from sim.report.findings.difficulty import difficulty_cliff
from sim.report.findings.economy import economy_loop, priced_loops
from sim.report.findings.options import dominant_option, trap_option
from sim.report.findings.page import MEANINGS, findings_section
from sim.report.findings.runner import DETECTORS, detect
from sim.report.findings.seats import seat_advantage
from sim.report.findings.stacking import runaway_stacking, stackable
from sim.report.findings.strategy import degenerate_strategy

F = FindingsConfig()


@pytest.fixture(scope="module")
def dungeon_cfg():
    return get_game("dungeon").load()


def metrics(rows: list[tuple[str, str, float, float, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["label", "metric", "value", "ci95_low", "ci95_high"])


def tables(game: str = "dungeon", cfg=None, **kw) -> Tables:
    kw.setdefault("report_policies", ("vorschlag", "greedy", "expectimax", "random") if game == "dungeon" else ())
    return Tables(game=game, cfg=cfg, n=1000, seed=7, **kw)


def check(found: list[dict], kind: str, count: int = 1) -> list[dict]:
    """Every finding has the fields a reader needs, and ``count`` of them are of ``kind``."""
    for f in found:
        assert set(f) >= {"game", "kind", "title", "value", "ci95", "evidence", "replay"}
        assert f["kind"] == kind and f["title"].endswith(".") and "_" not in f["title"].split(":")[0]
        assert f["evidence"]["runs"] and f["evidence"]["metric"] and f["evidence"]["comparison"]
        assert f["replay"] is None or f["replay"].startswith(f"dicesim replay {f['game']} --seed 7 --run ")
        json.dumps(f)
    assert len(found) == count, [f["title"] for f in found]
    return found


# --- seat_advantage -----------------------------------------------------------------------------------------

def test_seat_advantage_fires_on_a_seat_off_fair():
    runs = pd.DataFrame({"run": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "win": [0, 1, 1, 0]})
    t = tables("dadox", metrics=metrics([("threshold vs greedy", "win_rate_seat_0", 0.56, 0.54, 0.58),
                                         ("threshold vs greedy", "win_rate_seat_1", 0.44, 0.42, 0.46)]),
               runs={"threshold vs greedy": runs}, seats={"threshold vs greedy": ["threshold", "greedy"]})
    (f,) = check(seat_advantage(t, F), "seat_advantage")
    assert f["value"] == pytest.approx(0.06) and f["unit"] == "pp"
    assert "the first seat wins 56.0 %" in f["title"] and "Threshold vs Greedy" in f["title"]
    assert f["replay"] == "dicesim replay dadox --seed 7 --run 1 --policy threshold,greedy"  # seat 0 won run 1


def test_seat_advantage_quiet_when_fair_or_within_threshold():
    t = tables("dadox", metrics=metrics([("a", "win_rate_seat_0", 0.505, 0.49, 0.52),
                                         ("a", "win_rate_seat_1", 0.495, 0.48, 0.51)]))
    check(seat_advantage(t, F), "seat_advantage", 0)
    # off fair beyond its interval, but by less than the threshold (2 pp)
    t = tables("dadox", metrics=metrics([("a", "win_rate_seat_0", 0.515, 0.511, 0.519),
                                         ("a", "win_rate_seat_1", 0.485, 0.481, 0.489)]))
    check(seat_advantage(t, F), "seat_advantage", 0)
    check(seat_advantage(t, FindingsConfig(seat_min_pp=1.0)), "seat_advantage", 1)


def test_seat_advantage_reads_the_first_attacker_and_draws():
    rows = [("heuristic", "first_attacker_win_rate", 0.50, 0.48, 0.52), ("heuristic", "draw_rate", 0.2, 0.19, 0.21)]
    (f,) = check(seat_advantage(tables("dungeon24", metrics=metrics(rows)), F), "seat_advantage")
    assert f["evidence"]["metric"] == "first_attacker_win_rate" and "against a fair 40.0 %" in f["title"]
    assert "the player who attacks first wins 50.0 %" in f["title"]
    rows[0] = ("heuristic", "first_attacker_win_rate", 0.40, 0.39, 0.41)  # fair after draws: 40 %
    check(seat_advantage(tables("dungeon24", metrics=metrics([rows[0], rows[1]])), F), "seat_advantage", 0)


def test_seat_advantage_of_two_player_pairings():
    """A mirror pairing as it is; a pairing and its swap pooled, so the better policy's edge does not count."""
    def adv(v: float) -> dict:
        return {"value": v, "ci95": [v - 0.02, v + 0.02]}

    two = {"n": 500, "pairings": [{"seats": ["optimal", "optimal"], "seat_advantage": adv(0.05)},
                                  {"seats": ["optimal", "greedy"], "seat_advantage": adv(0.55)},
                                  {"seats": ["greedy", "optimal"], "seat_advantage": adv(-0.52)}]}
    (f,) = check(seat_advantage(tables("kniffel", extras={"two_player": two}), F), "seat_advantage")
    assert f["subject"] == "two_player:optimal,optimal" and f["value"] == pytest.approx(0.05)
    assert f["replay"].endswith("--policy optimal --players 2")
    two["pairings"][2]["seat_advantage"] = adv(-0.45)  # pooled: +5 pp for the first seat
    found = check(seat_advantage(tables("kniffel", extras={"two_player": two}), F), "seat_advantage", 2)
    assert found[1]["value"] == pytest.approx(0.05) and "both seatings pooled" in found[1]["evidence"]["comparison"]


# --- dominant_option and trap_option -------------------------------------------------------------------------

def lift_table(lifts: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"upgrade": u, "win_lift": v, "ci95_low": lo, "ci95_high": hi, "policy": "vorschlag",
                          "n": 1000} for u, (v, lo, hi) in lifts.items()])


EVEN = {"wetzstein": (0.02, 0.0, 0.04), "dicke_haut": (0.01, -0.01, 0.03), "heilkraeuter": (0.03, 0.01, 0.05),
        "paschmeister": (0.02, 0.0, 0.04)}


def test_dominant_option_fires_on_an_upgrade_far_above_the_others():
    t = tables(extras={"upgrade_lift": lift_table({**EVEN, "extra_wuerfel": (0.20, 0.17, 0.23)})})
    (f,) = check(dominant_option(t, F), "dominant_option")
    assert f["title"].startswith("Extra-Würfel is a dominant upgrade: +20.0 pp")
    assert "--policy vorschlag@extra_wuerfel" in f["replay"]
    check(trap_option(t, F), "trap_option", 0)


def test_dominant_option_quiet_when_the_best_is_not_clear_of_the_rest():
    check(dominant_option(tables(extras={"upgrade_lift": lift_table(EVEN)}), F), "dominant_option", 0)
    near = {**EVEN, "extra_wuerfel": (0.09, 0.02, 0.16)}  # 6 pp above the median, but its interval reaches 2 pp
    check(dominant_option(tables(extras={"upgrade_lift": lift_table(near)}), F), "dominant_option", 0)
    # half the upgrades far above the other half: a split, not a few dominant ones (a tier is at most a third)
    split = {"wetzstein": (0.02, 0.0, 0.04), "dicke_haut": (0.01, -0.01, 0.03), "heilkraeuter": (0.30, 0.28, 0.32),
             "paschmeister": (0.31, 0.29, 0.33)}
    check(dominant_option(tables(extras={"upgrade_lift": lift_table(split)}), F), "dominant_option", 0)


def test_two_strong_upgrades_close_together_are_a_dominant_tier():
    # the better one is clear of the other by less than 3 pp (the gap threshold), both far above the rest
    pair = {**EVEN, "extra_wuerfel": (0.33, 0.32, 0.34), "glueckssieben": (0.31, 0.30, 0.32)}
    (f,) = check(dominant_option(tables(extras={"upgrade_lift": lift_table(pair)}), F), "dominant_option")
    assert f["title"] == ("Extra-Würfel and Glückssieben are dominant upgrades: each moves the wins by +31.0 pp to "
                          "+33.0 pp, "
                          "28.0 pp above the best of the other 4 (Heilkräuter +3.0 pp) and 29.0 pp above their "
                          "median.")
    assert f["value"] == pytest.approx(0.31) and f["ci95"] == [0.30, 0.32]  # the tier's weakest member
    assert f["subject"] == "upgrade:extra_wuerfel+glueckssieben" and "vorschlag@extra_wuerfel" in f["replay"]
    assert [m["option"] for m in f["evidence"]["tier"]] == ["extra_wuerfel", "glueckssieben"]
    # with a 1 pp gap the better one is clear of the other: it alone is the dominant upgrade
    (f,) = check(dominant_option(tables(extras={"upgrade_lift": lift_table(pair)}), FindingsConfig(dominant_gap_pp=1)),
                 "dominant_option")
    assert f["title"].startswith("Extra-Würfel is a dominant upgrade: +33.0 pp")


def test_a_tier_needs_every_member_clear_of_the_rest():
    trio = {**EVEN, "extra_wuerfel": (0.33, 0.32, 0.34), "glueckssieben": (0.31, 0.30, 0.32),
            "berserker": (0.30, 0.27, 0.33), "gluecksmuenze": (0.02, 0.0, 0.04), "giftdolch": (0.01, 0.0, 0.02)}
    (f,) = check(dominant_option(tables(extras={"upgrade_lift": lift_table(trio)}), F), "dominant_option")
    assert f["subject"] == "upgrade:extra_wuerfel+glueckssieben+berserker"
    assert f["title"].startswith("Extra-Würfel, Glückssieben and Berserker are dominant upgrades")
    # the third one's interval reaches down to the rest: no tier of three, and two are not clear of the third
    trio["berserker"] = (0.30, 0.02, 0.58)
    check(dominant_option(tables(extras={"upgrade_lift": lift_table(trio)}), F), "dominant_option", 0)


def test_trap_option_fires_on_an_upgrade_that_costs_wins():
    t = tables(extras={"upgrade_lift": lift_table({**EVEN, "lebenselixier": (-0.10, -0.13, -0.07)})})
    (f,) = check(trap_option(t, F), "trap_option")
    assert f["title"].startswith("Lebenselixier is a trap upgrade: −10.0 pp")
    check(dominant_option(t, F), "dominant_option", 0)


def test_two_costly_upgrades_are_a_trap_tier():
    pair = {**EVEN, "lebenselixier": (-0.10, -0.13, -0.07), "eherne_mauer": (-0.11, -0.14, -0.08)}
    (f,) = check(trap_option(tables(extras={"upgrade_lift": lift_table(pair)}), F), "trap_option")
    assert f["title"] == ("Eherne Mauer and Lebenselixier are trap upgrades: each moves the wins by −11.0 pp to "
                          "−10.0 pp, "
                          "11.0 pp below the worst of the other 4 (Dicke Haut +1.0 pp) and 12.0 pp below their median.")
    assert f["value"] == pytest.approx(-0.10)


def test_trap_option_quiet_when_the_worst_is_harmless():
    mild = {**EVEN, "lebenselixier": (-0.01, -0.03, 0.01)}
    check(trap_option(tables(extras={"upgrade_lift": lift_table(mild)}), F), "trap_option", 0)


def test_people_families_from_the_ability_lift():
    """What the lift measures is a people's ability switched on and off, so the finding names the ability with its
    people ('Grünlinge is a dominant people ability' called the people dominant); a lift table from before it
    named the abilities says 'the Grünlinge's ability'. The numbers stay as measured."""
    ab = {"policy": "heuristic", "n": 500, "people": ["gruenlinge", "untote", "dunkelelfen", "x"],
          "ability": ["blutrausch", "auferstehung", "schattenschmerz", "none"],
          "lift": [{"value": v, "ci95": [v - 0.02, v + 0.02]} for v in (0.30, 0.02, 0.03, 0.01)]}
    (f,) = check(dominant_option(tables("dungeon24", extras={"ability_lift": ab}), F), "dominant_option")
    assert f["title"] == ("Blutrausch, the Grünlinge's ability, is dominant: +30.0 pp [+28.0, +32.0] wins, 28.0 pp "
                          "above the median of the other 3 and 27.0 pp above the best of them."), f["title"]
    assert f["value"] == pytest.approx(0.30)
    assert "--people gruenlinge --opponent-people gruenlinge" in f["replay"]
    trap = {**ab, "lift": [{"value": v, "ci95": [v - 0.01, v + 0.01]} for v in (0.02, 0.03, -0.12, 0.01)]}
    (f,) = check(trap_option(tables("dungeon24", extras={"ability_lift": trap}), F), "trap_option")
    assert f["title"].startswith("Schattenschmerz, the Dunkelelfen's ability, is a trap: −12.0 pp"), f["title"]
    old = {k: v for k, v in ab.items() if k != "ability"}
    (f,) = check(dominant_option(tables("dungeon24", extras={"ability_lift": old}), F), "dominant_option")
    assert f["title"].startswith("The Grünlinge's ability is dominant: +30.0 pp"), f["title"]


# --- economy_loop ------------------------------------------------------------------------------------------

def loop_runs() -> pd.DataFrame:
    return pd.DataFrame({"run": [0, 1, 2, 3], "jokers_sold": [0, 1, 1, 0], "market_buys": [1, 1, 2, 0],
                         "bought_wetzstein": [1, 0, 1, 0]})


def loop_events(policy: str, run: int) -> list[dict]:
    assert policy == "vorschlag"
    return [{"event": "buy", "item": 12, "from_pack": 1}, {"event": "secret", "secret": 1, "accepted": 1,
                                                           "sold_joker": 0}] if run == 2 else []


def test_economy_loop_from_the_price_table_confirmed_by_a_run(dungeon_cfg):
    (loop,) = priced_loops(dungeon_cfg)
    assert loop["cost"] == dungeon_cfg.market.joker_pack and loop["price"] == 70 and loop["profit"] == 10
    t = tables(cfg=dungeon_cfg, runs={"vorschlag": loop_runs()}, events=loop_events)
    (f,) = check(economy_loop(t, F), "economy_loop")
    assert f["value"] == 10 and f["unit"] == "coins" and "Joker-Händler" in f["title"]
    assert f["evidence"]["candidate_runs"] == 2 and f["evidence"]["confirmed_runs"] == 1
    assert f["replay"] == "dicesim replay dungeon --seed 7 --run 2 --policy vorschlag"


def test_economy_loop_disappears_when_the_pack_costs_more_than_the_haendler_pays():
    cfg = get_game("dungeon").load(None, ["market.joker_pack=80"])
    assert priced_loops(cfg)[0]["profit"] == -10
    t = tables(cfg=cfg, runs={"vorschlag": loop_runs()}, events=loop_events)
    check(economy_loop(t, F), "economy_loop", 0)
    # a pack of two jokers at 80 is 40 a joker: a loop again
    cfg2 = get_game("dungeon").load(None, ["market.joker_pack=80", "market.joker_pack_size=2"])
    check(economy_loop(tables(cfg=cfg2, runs={"vorschlag": loop_runs()}, events=loop_events), F), "economy_loop")


def test_economy_loop_needs_a_run_that_does_it(dungeon_cfg):
    t = tables(cfg=dungeon_cfg, runs={"vorschlag": loop_runs()}, events=lambda p, r: [])
    check(economy_loop(t, F), "economy_loop", 0)
    off = get_game("dungeon").load(None, ["path.events.weights=[1.0, 0.0, 1.0]"])  # no Joker-Händler drawn
    assert priced_loops(off) == []
    assert priced_loops(get_game("kniffel").load()) == []


# --- unused_content ----------------------------------------------------------------------------------------

def picks(rate: float) -> pd.DataFrame:
    return pd.DataFrame([{"upgrade": "dicke_haut", "pick_rate_vorschlag": 0.5, "offers_vorschlag": 900,
                          "pick_rate_rollout": rate, "offers_rollout": 1000},
                         {"upgrade": "wetzstein", "pick_rate_vorschlag": 0.5, "offers_vorschlag": 900,
                          "pick_rate_rollout": 0.4, "offers_rollout": 1000}])


def test_unused_content_fires_on_an_upgrade_the_expert_never_picks(dungeon_cfg):
    (f,) = check(unused_content(tables(cfg=dungeon_cfg, extras={"upgrade_picks": picks(0.01)}), F), "unused_content")
    assert f["title"].startswith("Rollout almost never chooses the upgrade Dicke Haut: 1.0 %")
    assert "offers (95 % interval up to " in f["title"], f["title"]  # "(at most 3.7 %)" read as a count's maximum
    assert f["evidence"]["policy"] == "rollout"


def test_unused_content_quiet_when_picked_or_rarely_offered(dungeon_cfg):
    check(unused_content(tables(cfg=dungeon_cfg, extras={"upgrade_picks": picks(0.2)}), F), "unused_content", 0)
    few = picks(0.0).assign(offers_rollout=20)
    check(unused_content(tables(cfg=dungeon_cfg, extras={"upgrade_picks": few}), F), "unused_content", 0)


def test_unused_content_reads_path_cards_and_events(dungeon_cfg):
    n = 400
    runs = pd.DataFrame({"run": np.arange(n), "fights": 10, "path_kampf": 6, "path_elite": 0, "path_rastplatz": 2,
                         "path_geheimnis": 2, "altars": 0, "jokers_sold": 0, "truhen": 1, "win": 1})
    m = metrics([("vorschlag", "win_rate", 0.5, 0.45, 0.55)])
    found = unused_content(tables(cfg=dungeon_cfg, runs={"vorschlag": runs}, metrics=m), F)
    subjects = sorted(f["subject"] for f in found)
    assert subjects == ["event:joker_haendler", "event:opferaltar", "path card:elite"]
    assert all(f["replay"].endswith("--run 0 --policy vorschlag") for f in found)


# --- degenerate_strategy ------------------------------------------------------------------------------------

def test_degenerate_strategy_fires_when_a_simple_policy_beats_the_suggestion():
    paired = {"win_rate: greedy - vorschlag": {"value": 0.05, "ci95": [0.03, 0.07]},
              "win_rate: random - vorschlag": {"value": -0.4, "ci95": [-0.42, -0.38]}}
    a = pd.DataFrame({"run": [0, 1, 2], "win": [0, 1, 1]})
    b = pd.DataFrame({"run": [0, 1, 2], "win": [0, 1, 0]})
    (f,) = check(degenerate_strategy(tables(paired=paired, runs={"greedy": a, "vorschlag": b}), F),
                 "degenerate_strategy")
    assert f["title"] == "The simple policy Greedy beats Vorschlag by +5.0 pp [+3.0, +7.0] wins on the same dice."
    assert f["replay"] == "dicesim replay dungeon --seed 7 --run 2 --policy greedy"
    assert f["evidence"]["comparison"] == "Greedy \u2212 Vorschlag, paired (same seeds)"  # the pair in words
    assert (f["evidence"]["simple"], f["evidence"]["reference"]) == ("greedy", "vorschlag")  # codes for a script


def test_degenerate_strategy_quiet_when_the_suggestion_wins():
    paired = {"win_rate: vorschlag - greedy": {"value": 0.05, "ci95": [0.03, 0.07]},
              "win_rate: greedy - expectimax": {"value": 0.01, "ci95": [-0.01, 0.03]}}
    check(degenerate_strategy(tables(paired=paired), F), "degenerate_strategy", 0)


def test_degenerate_strategy_reads_the_difficulties_the_runs_did_not_play():
    """Greedy beat Vorschlag on Normal and Schwer (the difficulty table), but only Leicht's paired runs were read."""
    rows = [("vorschlag", "leicht", 0.51, 0.49, 0.53), ("greedy", "leicht", 0.47, 0.45, 0.49),
            ("vorschlag", "normal", 0.274, 0.262, 0.287), ("greedy", "normal", 0.302, 0.289, 0.315),
            ("vorschlag", "schwer", 0.156, 0.146, 0.166), ("greedy", "schwer", 0.160, 0.150, 0.171)]
    table = pd.DataFrame(rows, columns=["policy", "difficulty", "win_rate", "ci95_low", "ci95_high"]).assign(n=5000)
    t = tables(options={"difficulty": "leicht"}, extras={"difficulty": table})
    (f,) = check(degenerate_strategy(t, F), "degenerate_strategy")  # Schwer's intervals overlap: no finding
    assert f["title"] == ("On Normal, the simple policy Greedy wins 30.2 % [28.9, 31.5] against Vorschlag's 27.4 % "
                          "[26.2, 28.7] (+2.8 pp).")
    assert f["replay"].endswith("--policy greedy --difficulty normal") and f["evidence"]["runs"] == 5000


def test_degenerate_strategy_reads_solved_policies_as_reference():
    """A solved policy that plays to win is a reference; one solved for the points a turn adds (optimal-turn) is not:
    'Hold 20 beats Optimal turn … the game rewards not thinking' read a known property of the points-optimal turn
    as a design flaw."""
    paired = {"win: optimal-win - threshold": {"value": -0.03, "ci95": [-0.05, -0.01]},
              "win: optimal-turn - threshold": {"value": -0.03, "ci95": [-0.05, -0.01]}}
    t = tables("dadox", paired=paired, solved_policies=("optimal-turn", "optimal-win"),
               seats={"threshold": ["threshold"]})
    (f,) = check(degenerate_strategy(t, F), "degenerate_strategy")
    assert "Threshold beats Optimal win by +3.0 pp" in f["title"]


# --- difficulty_cliff -----------------------------------------------------------------------------------------

def death_runs(hazard: list[float], n: int = 4000, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    death = np.zeros(n, dtype=int)
    alive = np.ones(n, dtype=bool)
    for room, h in enumerate(hazard, start=1):
        dies = alive & (rng.random(n) < h)
        death[dies] = room
        alive &= ~dies
    return pd.DataFrame({"run": np.arange(n), "death_room": death, "rooms_cleared": np.where(death, death - 1, 10)})


def test_difficulty_cliff_fires_on_a_room_far_deadlier_than_its_neighbours():
    runs = death_runs([0.03] * 4 + [0.35] + [0.04] * 5)
    (f,) = check(difficulty_cliff(tables(runs={"vorschlag": runs}), F), "difficulty_cliff")
    assert f["title"].startswith("Room 5 is a cliff: ") and f["evidence"]["room"] == 5
    run = int(f["replay"].split("--run ")[1].split()[0])
    assert runs["death_room"].iloc[run] == 5


def test_difficulty_cliff_quiet_on_a_slope():
    runs = death_runs([0.02 * k for k in range(1, 11)])
    check(difficulty_cliff(tables(runs={"vorschlag": runs}), F), "difficulty_cliff", 0)


def diff_table(wins: list[float]) -> pd.DataFrame:
    steps = zip(("leicht", "normal", "schwer"), wins, strict=True)
    return pd.DataFrame([{"policy": "vorschlag", "difficulty": d, "win_rate": w, "ci95_low": w - 0.02,
                          "ci95_high": w + 0.02, "n": 2000} for d, w in steps])


def test_difficulty_cliff_on_a_difficulty_step():
    (f,) = check(difficulty_cliff(tables(extras={"difficulty": diff_table([0.6, 0.55, 0.1])}), F), "difficulty_cliff")
    assert f["title"].startswith("The step from Normal to Schwer is a cliff for Vorschlag: losses rise +45.0 pp")
    assert f["replay"].endswith("--difficulty schwer")
    check(difficulty_cliff(tables(extras={"difficulty": diff_table([0.6, 0.4, 0.2])}), F), "difficulty_cliff", 0)


# --- runaway_stacking -------------------------------------------------------------------------------------

def stack_play(gains: dict[str, list[float]], n_runs: int = 3000):
    """A play hook whose win chance is 0.3 plus the gain of each copy taken (common random numbers)."""
    u = np.random.default_rng(1).random(n_runs)

    def play(policy: str, n: int) -> pd.DataFrame:
        p = 0.3
        if "@" in policy:
            ups = policy.split("@", 1)[1].split("+")
            p += sum(gains[ups[0]][: len(ups)])
        return pd.DataFrame({"run": np.arange(n), "win": (u[:n] < p).astype(int)})

    return play


def test_runaway_stacking_fires_on_an_upgrade_without_diminishing_returns(dungeon_cfg):
    ups = stackable(dungeon_cfg)
    assert "paschmeister" in ups and "extra_wuerfel" not in ups  # unique upgrades cannot stack
    gains = {u: [0.05, 0.0, 0.0, 0.0] for u in ups}
    gains["paschmeister"] = [0.06, 0.06, 0.06, 0.06]
    t = tables(cfg=dungeon_cfg, play=stack_play(gains), policy_variant="@")
    (f,) = check(runaway_stacking(t, F), "runaway_stacking")
    # equal gains per copy: the sampled later gain lies near the first's, either side (tests of _shape below)
    assert re.match(r"Paschmeister stacks (without diminishing returns|with growing returns|with little "
                    r"diminishing): each copy after the first still adds \+", f["title"]), f["title"]
    assert f["value"] == pytest.approx(0.06, abs=0.02)
    assert " % of the first copy's +" in f["title"]
    assert "--policy vorschlag@paschmeister+paschmeister+paschmeister+paschmeister" in f["replay"]
    assert len(t.extras["stacking"]) == len(ups)


def test_runaway_stacking_says_the_shape_its_intervals_show():
    """'without diminishing returns' only where the later copies' interval holds the first copy's gain (it read so
    for Wetzstein's later +8.8 pp [+7.8, +9.7] against the first +10.3 pp)."""
    from sim.report.findings.stacking import _shape

    row = {"first": 0.103, "later": 0.088}
    assert _shape({**row, "later_ci95": [0.078, 0.097]}) == "stacks with little diminishing"
    assert _shape({**row, "later_ci95": [0.070, 0.105]}) == "stacks without diminishing returns"
    assert _shape({"first": 0.05, "later": 0.08, "later_ci95": [0.06, 0.10]}) == "stacks with growing returns"


def test_runaway_stacking_quiet_on_diminishing_returns(dungeon_cfg):
    gains = {u: [0.08, 0.02, 0.01, 0.0] for u in stackable(dungeon_cfg)}
    t = tables(cfg=dungeon_cfg, play=stack_play(gains), policy_variant="@")
    check(runaway_stacking(t, F), "runaway_stacking", 0)
    check(runaway_stacking(tables(cfg=get_game("kniffel").load(), play=stack_play({})), F), "runaway_stacking", 0)


# --- the runner, the thresholds, the page ---------------------------------------------------------------------

def test_every_kind_has_a_detector_and_a_meaning():
    assert list(DETECTORS) == list(MEANINGS) and len(DETECTORS) == 8
    assert detect(tables("kniffel"), F) == []  # no table any detector reads: nothing applies


def test_thresholds_come_from_the_findings_section(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('name = "dungeon"\n[market]\njoker_pack = 50.0\n[findings]\nseat_min_pp = 4.5\n', encoding="utf-8")
    data, rest, f = split(p, ["findings.cliff_ratio=3", "market.joker_pack=55"])
    assert "findings" not in data and data["market"]["joker_pack"] == 50.0
    assert rest == ["market.joker_pack=55"] and f.seat_min_pp == 4.5 and f.cliff_ratio == 3
    with pytest.raises(Exception, match=r"findings\.nope"):
        split(None, ["findings.nope=1"])


def test_replay_command_carries_options_and_config():
    t = tables("dungeon24", options={"people": "untote"}, config_args=["--set", "rules.charge_every=1"])
    assert replay_command(t, ["heuristic", "greedy"], 3) == (
        "dicesim replay dungeon24 --seed 7 --run 3 --policy heuristic,greedy --people untote "
        "--set rules.charge_every=1")


def test_findings_section_says_what_each_kind_means():
    t = tables(extras={"upgrade_lift": lift_table({**EVEN, "extra_wuerfel": (0.20, 0.17, 0.23)})})
    html = findings_section(dominant_option(t, F), MEANINGS, ["Würfel Dungeon"])
    assert html.startswith("<section id='findings'") and "<h2>Findings</h2>" in html
    assert "Dominant option (1)" in html and "Extra-Würfel is a dominant upgrade" in html
    assert all(m.replace("'", "&#x27;") in html for m in MEANINGS.values())
    assert html.count("none found.") == len(MEANINGS) - 1


def test_the_dashboard_shows_the_largest_findings_of_a_kind_first():
    """The dashboard listed a kind's findings in the detectors' order: a +2 pp seat edge open, a +15 pp one folded."""
    def seat(game: str, value: float, unit: str = "pp") -> dict:
        return {"game": game, "kind": "seat_advantage", "title": f"[{game}] {value}", "value": value, "unit": unit}

    found = [seat("a", 0.02), seat("b", -0.15), seat("c", 0.05), seat("d", 3.0, "points"), seat("e", float("nan"))]
    html = findings_section(found, MEANINGS, ["x"], shown=2)
    order = [html.index(f"[{g}]") for g in "bcdae"]  # 15 pp, 5 pp, 3 points, 2 pp, not a number
    assert order == sorted(order) and html.index("[c]") < html.index("<details>") < html.index("[d]")


def test_a_people_is_judged_only_on_a_mirror_matchup():
    """A people's edge from the matchup table, where both sides play one policy at one skill level; a novice against
    full-strength opponents under that one policy (``mirror_diagonal`` false) measures the levels, not the peoples."""
    rows = [[0.5, 0.72, 0.74], [0.28, 0.5, 0.51], [0.26, 0.49, 0.5]]
    mu = {"policy_a": "heuristic", "policy_b": "heuristic", "n": 2000,
          "people": ["gruenlinge", "untote", "dunkelelfen"], "win_rate": rows, "mirror_diagonal": True,
          "ci95": [[[v - 0.01, v + 0.01] for v in r] for r in rows]}
    (f,) = check(dominant_option(tables("dungeon24", extras={"matchup": mu}), F), "dominant_option")
    assert "Grünlinge" in f["title"] and f["value"] == pytest.approx((0.5 + 0.72 + 0.74) / 3 - 0.5)
    check(dominant_option(tables("dungeon24", extras={"matchup": {**mu, "mirror_diagonal": False}}), F),
          "dominant_option", 0)
