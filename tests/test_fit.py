"""Fitting players from decision logs (issue 32): known levels come back, regret telescopes, mixtures play.

Logs are simulated by the recorder (``sim.players.kniffel.record``: the replay kernel, so each logged run is that
run of a batch) at known levels, 200 players x 5 games, and fitted in memory; ``test_fit_cli.py`` runs the commands.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.batch import run_batch
from sim.core.skill import Group, group_of
from sim.games.kniffel.game import GAME
from sim.players import dadox, kniffel
from sim.players import fit as F
from sim.players.fit import fit, log_lik, log_p
from sim.players.regret import regret

PLAYERS, GAMES = 200, 5


def config(level: float = 1.0, groups: tuple[tuple[float, float], ...] = (), gpp: int = GAMES):
    cfg = GAME.load()
    skill = cfg.skill.model_copy(update={"level": level, "games_per_player": gpp,
                                         "groups": [Group(level=lv, weight=w) for lv, w in groups]})
    return cfg.model_copy(update={"skill": skill})


def simulated(cfg, n: int = PLAYERS * GAMES, policy: str = "optimal", seed: int = 7):
    dec, out = kniffel.record(cfg, policy, n, seed, {})
    return kniffel.load(GAME.load(), dec, out, "log"), dec, out


@pytest.mark.parametrize("level", [0.35, 0.8])
def test_one_level_comes_back_within_its_interval(level):
    dec, _, out = simulated(config(level))
    assert len(dec.ids) == PLAYERS and dec.n_games == PLAYERS * GAMES
    f = fit(dec)
    assert f.level.lo <= level <= f.level.hi, f.level
    assert f.level.hi - f.level.lo < 0.05
    assert len(f.chosen.levels) == 1, [m.bic for m in f.mixtures]  # BIC: one group
    g = f.chosen.groups()[0]
    assert g["ci95"][0] <= level <= g["ci95"][1]
    # each player's own interval holds the truth about 95 % of the time
    inside = ((f.players["lo"] <= level) & (level <= f.players["hi"])).mean()
    assert inside > 0.85, inside


def test_a_mixture_comes_back_as_two_groups():
    dec, _, out = simulated(config(groups=((0.35, 0.5), (0.8, 0.5))))
    assert sorted(np.unique(out["level"])) == [0.35, 0.8]
    f = fit(dec)
    groups = f.chosen.groups()
    assert len(groups) == 2, [m.bic for m in f.mixtures]
    for g, truth in zip(groups, (0.35, 0.8), strict=True):
        assert g["ci95"][0] <= truth <= g["ci95"][1], groups
        assert g["weight_ci95"][0] <= 0.5 <= g["weight_ci95"][1], groups
    one = f.mixtures[0]
    assert f.chosen.bic < one.bic - 10  # one level does not fit a mixture
    # the players sort into their groups
    truth = out.groupby("player")["level"].first().reindex(dec.ids).to_numpy()
    assert ((f.chosen.resp[:, 1] > 0.5) == (truth == 0.8)).mean() > 0.95


def test_the_optimal_policys_own_log_loses_nothing():
    dec, _, _ = simulated(config(1.0, gpp=1), n=40)
    r = regret(dec)
    assert abs(r["total"]) < 1e-6 and all(abs(v) < 1e-6 for v in r["by_kind"].values())
    assert fit(dec).level.value > 0.99  # every choice the best: the top of the range


def test_randoms_regret_is_the_score_gap():
    n = 300
    dec, _, out = simulated(config(1.0, gpp=1), n=n, policy="random")
    _, _, opt = simulated(config(1.0, gpp=1), n=n, policy="optimal")
    r = regret(dec)
    gap = opt["score"].mean() - out["score"].mean()
    se = np.sqrt(opt["score"].var() / n + out["score"].var() / n)
    assert abs(r["total"] - gap) < 4 * se, (r["total"], gap, se)
    # tighter: against the optimum's exact expected score, only the player's own luck is left
    exact = dec.start_value - out["score"].to_numpy()
    assert abs(r["total"] - exact.mean()) < 4 * exact.std() / np.sqrt(n) + 1e-9
    assert fit(dec).level.value < 0.05  # random moves: level 0


def test_the_likelihood_is_the_simulators_choice_probability():
    """One decision by hand: a box choice of three legal boxes at a level, against ``log_lik``."""
    dec, _, _ = simulated(config(0.5, gpp=1), n=3)
    d = int(np.flatnonzero(dec.kind == "box")[5])
    one = dec.subset(np.array([d]))
    lv = 0.5
    eps, tau = (1 - lv) ** 2, (1 - lv) / lv
    v = one.valid[0]
    w = np.exp(-one.delta[0][v] / tau)
    c = one.chosen[0][v]
    p = eps * c.sum() / v.sum() + (1 - eps) * w[c].sum() / w.sum()
    assert log_lik(one, lv) == pytest.approx(np.log(p), rel=1e-12)


def test_a_mixture_plays_each_group_at_its_level():
    """A population config plays each run at its player's group level: the same rows as a batch at that level."""
    mix = config(groups=((0.3, 0.25), (0.9, 0.75)), gpp=2)
    n = 64
    opts = GAME.check_options({})
    t = run_batch(GAME, mix, ["optimal"], n, 3, opts, progress=False).table
    g = group_of(mix.skill, np.arange(n))
    assert 0 < (g == 0).sum() < n and (g[::2] == g[1::2]).all()  # both groups; a player's games in one group
    for k, lv in enumerate((0.3, 0.9)):
        plain = run_batch(GAME, config(lv, gpp=2), ["optimal"], n, 3, opts, progress=False).table
        assert (t["score"].to_numpy()[g == k] == plain["score"].to_numpy()[g == k]).all()
    # and the recorder logs the same runs
    _, rec = kniffel.record(mix, "optimal", n, 3, {})
    assert (rec["score"].to_numpy() == t["score"].to_numpy()).all()


def test_a_box_scored_with_rolls_left_implies_holding_all_five():
    """Telemetry that stops rolling (a box with rolls left) reads as the simulator logs it: one hold of all five
    dice per roll passed, then the box: the same decisions, the same likelihood."""
    _, dec, out = simulated(config(0.6, gpp=1), n=30)
    kept_all = (dec["kind"] == "hold") & (dec["choice"].str.len() == 5)
    turn = ["player", "game", "turn"]
    both = dec[kept_all].groupby(turn).size()
    stopped = both[both == 2].reset_index()[turn]  # held all five after the first roll and again after the second
    assert len(stopped) > 0
    mark = dec[turn].merge(stopped.assign(stop=True), how="left", on=turn)["stop"].fillna(False).to_numpy(bool)
    short = dec[~(mark & (dec["kind"] == "hold").to_numpy())].copy()
    short.loc[mark[~(mark & (dec["kind"] == "hold").to_numpy())] & (short["kind"] == "box").to_numpy(),
              "rolls_left"] = 2
    full = kniffel.load(GAME.load(), dec, out, "log")
    cut = kniffel.load(GAME.load(), short.reset_index(drop=True), out, "log")
    assert len(cut) == len(full) and cut.implied.sum() == 2 * len(stopped)
    for lv in (0.3, 0.6, 0.9):
        assert log_lik(cut, lv) == pytest.approx(log_lik(full, lv), rel=1e-12)
    assert regret(cut)["total"] == pytest.approx(regret(full)["total"], rel=1e-12)


@pytest.mark.parametrize("game", ["kniffel", "dadox"])
def test_the_chunked_likelihood_is_the_whole_one(monkeypatch, game):
    """The likelihood runs in blocks of ``CHUNK`` decisions (bounded temporaries): blocks of 7 decisions give the
    same values as one block of the whole log, and the same fitted levels."""
    if game == "kniffel":
        dec, _, _ = simulated(config(0.6, gpp=3), n=30)
    else:
        cfg = dadox.GAME.load()
        cfg = cfg.model_copy(update={"skill": cfg.skill.model_copy(update={"level": 0.6, "games_per_player": 3})})
        d, o = dadox.record(cfg, "optimal-turn", 30, 5, {})
        dec = dadox.load(dadox.GAME.load(), d, o, "log")
    assert len(dec) > 100
    for lv in (0.0, 0.3, 0.8, F.TOP):
        whole = log_p(dec, lv, chunk=len(dec))
        assert (log_p(dec, lv, chunk=7) == whole).all()
    reg_whole, pred_whole = dec.regret, F.expected_regret(dec, 0.6)
    f_whole = fit(dec)
    monkeypatch.setattr(F, "CHUNK", 7)
    assert (dec.regret == reg_whole).all() and np.allclose(F.expected_regret(dec, 0.6), pred_whole, rtol=0, atol=0)
    f_chunk = fit(dec)
    assert abs(f_chunk.level.value - f_whole.level.value) <= 1e-12
    assert abs(f_chunk.level.lo - f_whole.level.lo) <= 1e-12 and abs(f_chunk.level.hi - f_whole.level.hi) <= 1e-12
    assert np.abs(f_chunk.players["level"].to_numpy() - f_whole.players["level"].to_numpy()).max() <= 1e-12
    assert np.abs(f_chunk.chosen.levels - f_whole.chosen.levels).max() <= 1e-12


@pytest.mark.parametrize("rules", ["default", "free-joker", "no-joker", "no-bonus"])
def test_the_logged_sheets_total_each_games_score(rules):
    """Each simulated game's score is what its logged sheets total (``kniffel.sheet_totals``: boxes, the upper bonus,
    Kniffel bonuses), exactly, under each rule variant; without a turn's box row the total is a range that holds it."""
    cfg = GAME.load(f"configs/kniffel/{rules}.toml").model_copy(update={"skill": config(0.6).skill})
    dec, out = kniffel.record(cfg, "optimal", 200, 3, {})
    kniffel.load(cfg, dec, out, "log")  # every score matches, or load refuses it
    rp = kniffel.freeze(cfg)
    assert kniffel.least_score(rp) <= out["score"].min() and out["score"].max() <= kniffel.best_score(rp)
    gone = dec[~((dec["player"] == out["player"][0]) & (dec["game"] == out["game"][0]) & (dec["kind"] == "box")
                 & (dec["turn"] == 5))]
    kniffel.load(cfg, gone, out, "log")  # a game with a box row missing: its total is a range


def test_one_group_has_the_population_levels_interval():
    """One game, won: the level's profile interval is wide ([0.46, 1] in the hunt's case); the one group that
    mixture holds is the same population, so its interval is that one too (it read [0.96, 1] from the curvature at
    the boundary). Many won games narrow both alike."""
    from sim.players.outcomes import LEVELS, fit_levels

    win = np.clip(0.05 + 0.9 * LEVELS, 0.0, 1.0)  # the chance to win rises with the level
    counts = 4000 * np.column_stack([win, 1.0 - win])[None]  # one block: the chances taken as exact
    for games in (1, 100):
        lf = fit_levels(counts, np.zeros(games, np.int64), np.zeros(games, np.int64), np.array([0]))
        group = lf.mixtures[0].groups()[0]
        assert group["ci95"] == [round(lf.level.lo, 4), round(lf.level.hi, 4)] and group["weight"] == 1.0
        assert lf.level.value == pytest.approx(1.0, abs=1e-3) and lf.level.hi == 1.0
    assert fit_levels(counts, np.zeros(1, np.int64), np.zeros(1, np.int64), np.array([0])).level.lo < 0.8


def test_the_simulations_own_noise_is_measured_and_counted():
    """A known model (rooms cleared ~ Binomial(10, 0.2 + 0.6 level)), simulated as the games are: 4,000 runs a level
    on paired dice (one uniform draw per run, its outcome the quantile at each level), counted in blocks. Over many
    such simulations the level fitted to one log of 1,000 games spreads by the simulation's noise: the jackknife's
    standard error matches that spread, and the widened intervals cover the true level ~95 % of the time (the log's
    noise and the simulation's together; the factor sqrt(1 + games / runs) it replaces assumed about half of that
    noise for outcomes this uneven)."""
    from scipy.stats import binom

    from sim.players.outcomes import BLOCKS, LEVELS, counted, fit_levels

    cats = np.arange(11)
    cdf = np.stack([binom.cdf(cats, 10, 0.2 + 0.6 * lv) for lv in LEVELS])  # [level, category]
    rng = np.random.default_rng(5)
    truth = 0.35

    def simulate(runs: int) -> np.ndarray:
        u = rng.random(runs)  # paired: the same draw of a run at every level
        out = np.zeros((BLOCKS, len(LEVELS), len(cats)))
        for g in range(len(LEVELS)):
            out[:, g] = counted(np.minimum(np.searchsorted(cdf[g], u), 10), np.arange(runs), len(cats))
        return out

    one, who = np.zeros(1000, np.int64), np.array([0])  # one player: the population's level is what is checked
    log = rng.binomial(10, 0.2 + 0.6 * truth, 1000)
    fits, ses, covered = [], [], 0
    for _ in range(50):
        counts = simulate(4000)
        lf = fit_levels(counts, log, one, who)  # the same log: its level moves by the simulation alone
        fits.append(lf.level.value)
        ses.append(lf.sim_se)
        fresh = fit_levels(counts, rng.binomial(10, 0.2 + 0.6 * truth, 1000), one, who)  # both noises
        covered += fresh.level.lo <= truth <= fresh.level.hi
    spread, measured = np.std(fits, ddof=1), np.sqrt(np.mean(np.square(ses)))
    assert 0.7 * spread < measured < 1.4 * spread, (spread, measured)  # 50 draws: a spread within ±20 % at 2 sd
    assert covered >= 43, covered  # 95 % of 50 is 47.5; 43 or fewer has a chance of ~1 % (binomial)
