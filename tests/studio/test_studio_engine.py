"""The studio's engine adapter plays what ``dicesim play`` plays and pairs runs honestly."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from sim.core.batch import run_batch
from sim.games import get_game
from sim.studio import engine
from sim.studio.engine import Cancelled
from tests.conftest import ROOT

N = 3000  # over one STEP, so the batch is played in several kernel calls
OPTS = {"difficulty": "leicht"}


def studio_play(sets, n=N, seed=3, cancel=None, seen=None):
    return engine.play("dungeon", None, sets, "vorschlag", OPTS, n, seed,
                       (seen.append if seen is not None else lambda k: None), cancel or threading.Event())


def test_play_equals_the_engine_run_and_reports_progress():
    seen: list[int] = []
    res = studio_play(["difficulty.leicht.hp=0.9"], seen=seen)
    g = get_game("dungeon")
    ref = run_batch(g, g.load(None, ["difficulty.leicht.hp=0.9"]), ["vorschlag"], N, 3, OPTS, progress=False)
    assert res.table.equals(ref.table)
    expected = g.metrics(ref.table, OPTS, res.cfg)
    assert json.dumps(res.metrics, sort_keys=True) == json.dumps(expected, sort_keys=True)  # NaN too
    assert sum(seen) == N and len(seen) > 1  # several kernel calls, each reported


def test_cancel_stops_a_batch():
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):
        studio_play([], cancel=stop)


def test_difference_is_paired_on_the_same_seeds():
    before = studio_play([])
    after = studio_play(["difficulty.leicht.hp=0.8"])
    assert engine.paired(after, before)
    d = engine.difference(after, before, "win_rate")
    plain = after.metrics["win_rate"]["value"] - before.metrics["win_rate"]["value"]
    assert d["paired"] and d["value"] == pytest.approx(plain, abs=1e-12) and plain > 0  # weaker enemies: more wins
    lo, hi = d["ci95"]
    assert lo <= plain <= hi
    # pairing removes the noise both runs share: narrower than the two runs' own intervals side by side
    own = [after.metrics["win_rate"]["ci95"], before.metrics["win_rate"]["ci95"]]
    assert hi - lo < (own[0][1] - own[0][0]) + (own[1][1] - own[1][0])
    same = engine.difference(before, before, "mean_score")
    assert same["value"] == 0 and same["ci95"] == [0.0, 0.0]
    other_seed = studio_play([], seed=4)
    unpaired = engine.difference(other_seed, before, "win_rate")
    assert not unpaired["paired"] and unpaired["ci95"] is None


def test_the_game_declared_headline_comes_first_and_pairs():
    before, after = studio_play([]), studio_play(["difficulty.leicht.hp=0.8"])
    names = engine.headline("dungeon", after.metrics)
    assert names[:3] == list(get_game("dungeon").headline) and len(names) == 10
    assert all(engine.difference(after, before, name)["paired"] for name in names[:3])


def test_a_metric_without_a_per_run_column_gets_no_made_up_interval():
    before, after = studio_play([]), studio_play(["difficulty.leicht.hp=0.8"])
    d = engine.difference(after, before, "score_p50")  # a quantile: no per-run quantity to pair
    assert d["ci95"] is None and not d["paired"]


def test_every_mean_of_the_dungeon_pairs_run_by_run():
    """``mean final LP +4.5 LP (no paired interval)`` after ``start.lp=60``: a per-run mean whose column its name does
    not give (``lp``, turns per fight) got none, as if it were a quantile. Every mean the dungeon reports pairs now,
    its value the plain difference of the two means."""
    before, after = studio_play([]), studio_play(["start.lp=60"])
    for name in [m for m in after.metrics if m.startswith("mean_")]:
        d = engine.difference(after, before, name)
        plain = after.metrics[name]["value"] - before.metrics[name]["value"]
        assert d["paired"] and d["ci95"] is not None and d["value"] == pytest.approx(plain, abs=1e-9), name


def test_other_commands_do_not_import_the_web_library():
    code = "import sys, sim.cli; print('nicegui' in sys.modules, 'sim.studio.app' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_sweep_from_the_edited_config_plays_the_same_runs_as_play(tmp_path):
    from sim.studio.saving import save_config

    sets = ["start.lp=60"]  # an edit outside the grid stays in the base
    base = save_config(tmp_path / "base.toml", engine.load("dungeon", None, sets), None, sets)
    grid = {"difficulty.leicht.hp": [0.8, 1.05]}
    table = engine.sweep("dungeon", base, "vorschlag", OPTS, 700, 3, grid, tmp_path / "out")
    assert engine.sweep_done(tmp_path / "out") == engine.sweep_tasks(grid, 700) == 2
    for hp in (0.8, 1.05):
        res = studio_play([*sets, f"difficulty.leicht.hp={hp}"], n=700)
        row = table[table["difficulty.leicht.hp"] == hp].iloc[0]
        assert row["win_rate"] == res.metrics["win_rate"]["value"]
    paths = engine.sweep_charts(table, list(grid), "win_rate", {"difficulty.leicht.hp": 1.05}, tmp_path / "charts")
    assert [p.name for p in paths] == ["sweep_0.png"] and paths[0].stat().st_size > 0


def test_calibrate_finds_a_value_on_the_target():
    seen: list[int] = []
    c = engine.calibrate("dungeon", None, [], "difficulty.leicht.hp", "win_rate", 0.35, "vorschlag", OPTS, 600, 3,
                         seen.append, threading.Event())
    assert c["converged"] and sum(seen) >= 600 * 2
    lo, hi = c["estimate"]["ci95"]
    assert lo <= 0.35 <= hi


def test_n_is_checked_like_the_cli_and_bounded_by_memory():
    from sim.core.config import DicesimError

    assert engine.check_n("20,000") == engine.check_n("20_000") == engine.check_n("2e4") == 20_000
    for bad in ("0", "x", "2.5", "-3"):  # in the words of the field, not of a flag the page does not have
        with pytest.raises(DicesimError) as e:
            engine.check_n(bad)
        assert str(e.value) == f"N runs must be a whole number from 1 to 1,000,000, got {bad}"
    for big in (str(engine.MAX_N + 1), "1e9"):  # the memory bound, not a misleading "positive number"
        with pytest.raises(DicesimError, match=r"^N runs must be a whole number from 1 to 1,000,000 \(the studio"):
            engine.check_n(big)


def test_seed_is_checked_like_the_cli():
    from sim.core.config import DicesimError

    assert engine.check_seed(" 18446744073709551615 ") == 2**64 - 1
    for bad in ("18446744073709551616", "-1", "1.5", "x"):
        with pytest.raises(DicesimError, match=r"^seed must be a whole number from 0 to 2\^64 - 1, got "):
            engine.check_seed(bad)


def test_warm_plays_once_per_policy_and_rules_in_a_helper_process(monkeypatch):
    """A helper runs once per (game, policy, options), and once per rules for a policy that reads solved tables:
    an edited config needs no new kernel, but may need a new exact solve (Kniffel optimal)."""
    import multiprocessing

    opts = {"players": 2}  # Kniffel: the helper processes load the smallest kernels (the key is the same for all)
    stop = threading.Event()
    stop.set()
    with pytest.raises(Cancelled):  # a stop ends the helper too
        engine.warm("kniffel", None, [], "greedy", opts, stop)
    started = []
    real = multiprocessing.get_context

    class Finished:
        def start(self) -> None: ...
        def is_alive(self) -> bool:
            return False
        def join(self, timeout: float | None = None) -> None: ...

    def counting(method=None):
        ctx = real(method)

        class Ctx:
            def Process(self, *a, **k):  # noqa: N802 - mirrors multiprocessing's name
                started.append(k.get("args"))
                if started[1:]:  # the first helper really plays; the later ones only count (a solve takes ~20 s)
                    return Finished()
                return ctx.Process(*a, **k)

        return Ctx()

    monkeypatch.setattr(multiprocessing, "get_context", counting)
    monkeypatch.setattr(engine, "_WARM", set())  # whatever other tests warmed
    engine.warm("kniffel", None, [], "greedy", opts, threading.Event())
    engine.warm("kniffel", None, [], "greedy", opts, threading.Event())  # known: no second helper
    assert len(started) == 1
    engine.warm("kniffel", None, ["bonus.value=40"], "greedy", opts, threading.Event())  # edited rules, no solve
    assert len(started) == 1
    engine.warm("kniffel", None, ["bonus.value=40"], "optimal", opts, threading.Event())  # a solve: a helper
    assert len(started) == 2
    engine.warm("kniffel", None, ["bonus.value=40"], "optimal", opts, threading.Event())
    engine.warm("kniffel", None, ["bonus.value=45"], "optimal", opts, threading.Event())  # other rules: again
    assert len(started) == 3


def test_each_game_opens_on_a_policy_a_rule_edit_moves():
    """Kniffel and Dungeon24 list ``random`` first: the studio opens them on their strongest plain policy instead
    (a rules edit changes what it does at once); the others on their first report policy."""
    assert engine.opening_policy("kniffel") == "greedy"
    assert engine.opening_policy("dungeon24") == "heuristic"
    assert engine.opening_policy("dungeon") == "vorschlag" and engine.opening_policy("dadox") == "threshold"
    for game in engine.games():
        assert engine.opening_policy(game) != "random"


def test_an_edit_the_options_do_not_reach_is_named():
    """``difficulty.normal.hp`` while playing Leicht is never read: the hint says so and which switch reads it;
    at Normal, or for an edit every difficulty reads, no hint."""
    sets = ["difficulty.normal.hp=0.8", "market.joker_pack=40"]
    hint = engine.unused_edits("dungeon", sets, {"difficulty": "leicht"})
    assert [(h["path"], h["option"], h["choice"]) for h in hint] == [("difficulty.normal.hp", "difficulty", "normal")]
    assert hint[0]["text"].startswith("difficulty.normal.hp is not used by this run (difficulty: Leicht)")
    assert "Switch difficulty to Normal" in hint[0]["text"]
    assert engine.unused_edits("dungeon", sets, {"difficulty": "normal"}) == []
    # two options share the peoples: an edit is used when either seat plays that people
    d24 = ["peoples.untote.label=Skelette"]
    assert engine.unused_edits("dungeon24", d24, {"people": "gruenlinge", "opponent_people": "untote"}) == []
    (h,) = engine.unused_edits("dungeon24", d24, {"people": "gruenlinge", "opponent_people": "gruenlinge"})
    assert h["option"] == "people" and h["shown"] == "Untote"


def test_an_edit_only_another_policy_reads_is_named():
    """Dadox's ``policies.greedy_bank_at`` is Greedy's alone: edited while Threshold plays, every difference read 0
    without a word. The hint names the policy that reads it and the switch is the policy picker's."""
    sets = ["policies.greedy_bank_at=500", "goal.target=5000"]
    (h,) = engine.unused_edits("dadox", sets, engine.options_for("dadox", {}), "threshold")
    assert (h["path"], h["option"], h["choice"], h["shown"]) == ("policies.greedy_bank_at", "policy", "greedy",
                                                                  "Greedy")
    assert h["text"].startswith("policies.greedy_bank_at is read only by Greedy, and this run plays Threshold")
    assert engine.unused_edits("dadox", sets, engine.options_for("dadox", {}), "greedy") == []
    assert engine.unused_edits("dadox", sets, engine.options_for("dadox", {"opponent": "greedy"}), "threshold") == []


def test_every_game_runs_with_its_default_options():
    """Dadox and the one-die game could not be run at all: the card offered their ``objective`` (``dicesim solve``'s)
    and filled its default, and every run was refused 'objective applies only to dicesim solve'."""
    for game in engine.games():
        assert "objective" not in engine.play_options(game)
        opts = engine.options_for(game, {})
        assert "objective" not in opts, (game, opts)
        if len(engine.play_options(game)) < len(get_game(game).options):  # a game with an option of another command
            res = engine.play(game, None, [], engine.opening_policy(game), opts, 50, 1, lambda k: None,
                              threading.Event())
            assert len(res.table) >= 50, game


def test_a_seats_share_pairs_run_by_run_and_the_verdict_says_why_else():
    """Dadox's seat shares got "(no paired interval)" and the verdict said "not the same seeds" on the same seeds: a
    seat's share of the games pairs by each game's winner; where a metric pairs nothing on the same seeds (a
    quantile), the verdict says that, not that the seeds differ."""
    from sim.studio.results_view import verdict

    def dadox(sets):
        return engine.play("dadox", None, sets, "threshold", {"players": 2}, 800, 1, lambda k: None, threading.Event())

    before, after = dadox([]), dadox(["goal.target=5000"])
    d = engine.difference(after, before, "win_rate_seat_0")
    plain = after.metrics["win_rate_seat_0"]["value"] - before.metrics["win_rate_seat_0"]["value"]
    assert d["paired"] and d["value"] == pytest.approx(plain, abs=1e-12) and d["ci95"][0] <= plain <= d["ci95"][1]
    after.label, before.label = "run 2", "run 1"
    said = verdict(after, before, ["win_rate_seat_0"])
    assert said.startswith("Threshold: the first seat wins ") and " against run 1 on the same seeds, " in said
    said = verdict(after, before, ["game_length_turns_p50"])
    assert said.endswith("against run 1 (on the same seeds, but no paired interval for this metric)."), said
    other = after.__class__(**{**after.__dict__, "seed": 2})
    assert verdict(other, before, ["game_length_turns_p50"]).endswith("(not the same seeds: no interval).")


def test_the_metric_pickers_offer_the_games_own_metrics_headline_first():
    """Sweep and Calibrate offered only the dungeons' "wins (win_rate)" for Kniffel, Dadox and the others (and the
    server raised KeyError: 0 after every run): the game's headline metrics come first, the first the default."""
    from sim.games import GAMES
    from sim.studio.app import metric_choices

    for game in GAMES:  # every game, the fifth too
        head = list(get_game(game).headline)
        choices = metric_choices(game, head)
        assert list(choices) == head and "(" in choices[head[0]], (game, choices)
    run = metric_choices("kniffel", ["score_p50", "mean_score", "upper_bonus_rate"])
    assert list(run)[:2] == ["mean_score", "upper_bonus_rate"] and run["mean_score"] == "mean score (mean_score)"


def test_an_empty_number_field_is_said_empty():
    """An empty N read "N runs must be a whole number from 1 to 1,000,000, got" with nothing after it."""
    from sim.core.config import DicesimError

    with pytest.raises(DicesimError, match=r", got nothing \(the field is empty\)$"):
        engine.check_n("  ")
