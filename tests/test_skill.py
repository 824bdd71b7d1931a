"""The skill level (``[skill]``, ``sim.core.skill``) in Kniffel, Dadox, Dungeon24 and Würfel Dungeon.

Statistical checks play fixed seeds; their tolerances come from the sampling error of the paired
(same runs) or independent differences, at about 3.3 standard errors (a false alarm about once in
a thousand runs of the test, were the seed not fixed).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from sim.core.batch import run_batch
from sim.core.config import CONFIG_DIR as ROOT_CONFIGS
from sim.core.config import ConfigError
from sim.core.skill import LEVELS, level_words, rules_hash
from sim.games import get_game
from tests.conftest import cli_here

LADDER = (0.0, 0.25, 0.5, 0.75, 1.0)
Z = 3.3
SEED = 2026


def play(game: str, policy: str, n: int, sets: tuple[str, ...] = (), options: dict | None = None, chunk: int = 0):
    """The per-run table of ``policy`` (``a,b``: seats) under the overrides ``sets``."""
    g = get_game(game)
    opts = g.check_options(dict(options or {}))
    cfg = g.load(None, list(sets))
    seats = g.seat_policies(policy, opts)
    g.prepare(cfg, seats, opts)
    return run_batch(g, cfg, seats, n, SEED, opts, chunk=chunk or g.chunk, progress=False).table


def player_outcome(game: str, table) -> np.ndarray:
    """Per run: Kniffel's score, else 1 when the player (seat 0) wins."""
    if game == "kniffel":
        return table["score"].to_numpy(np.float64)
    if game == "dadox":
        return (table[table["seat"] == 0]["win"] == 1).to_numpy(np.float64)
    if game == "dungeon":
        return table["win"].to_numpy(np.float64)
    return (table["winner"] == 0).to_numpy(np.float64)


def se_paired(d: np.ndarray) -> float:
    return float(d.std(ddof=1) / np.sqrt(len(d)))


# --- the config section --------------------------------------------------------------------------


def test_a_tiny_level_and_a_tiny_rule_value_are_written_out():
    """``--set skill.level=1e-5`` read 'Greedy (skill level 1e-05)' and 'rules changed: skill.level=1e-05': written
    out as a person reads them, the same digits (a value read back from the heading is the same float)."""
    import random
    import tomllib

    from sim.core.config import changed_fields, toml_literal

    assert level_words(1e-5) == "level 0.00001" and level_words(0.3) == "level 0.3"
    assert changed_fields({"skill": {"level": 1.0}}, {"skill": {"level": 1e-5}}) == ["skill.level=0.00001"]
    rng = random.Random(3)
    for v in [1e-15, 2.2250738585072014e-10, 9.99999e-05, *(10 ** rng.uniform(-14.999, -4.0001) for _ in range(2000))]:
        text = toml_literal(v)
        assert "e" not in text and tomllib.loads(f"x = {text}")["x"] == v, (v, text)
    assert toml_literal(1e-300) == "1e-300" and toml_literal(0.5) == "0.5"  # beyond 15 zeros: the exponent


@pytest.mark.parametrize("game", ["kniffel", "dadox", "dungeon24", "dungeon"])
def test_levels_by_name_and_number(game):
    g = get_game(game)
    assert g.load().skill.level == 1.0 and g.load().skill.opponents == 1.0
    for name, value in LEVELS.items():
        assert g.load(None, [f"skill.level={name}"]).skill.level == value
    assert g.load(None, ["skill.opponents=0"]).skill.opponents == 0.0
    assert g.load(None, ["skill.level=0.3"]).skill.level == 0.3
    minus = g.load(None, ["skill.level=-0.0"]).skill.level  # level 0, not "skill level -0" on a page
    assert minus == 0.0 and math.copysign(1, minus) == 1 and level_words(minus) == "level 0"
    for bad in ("1.5", "-0.1", "pro", "true"):
        with pytest.raises(ConfigError, match="skill.level"):
            g.load(None, [f"skill.level={bad}"])


def test_solved_tables_do_not_depend_on_the_level():
    g = get_game("kniffel")
    base = g.load()
    assert rules_hash(base) == rules_hash(g.load(None, ["skill.level=0.5", "skill.opponents=0.25"]))
    assert rules_hash(base) != rules_hash(g.load(None, ["bonus.value=30"]))


@pytest.mark.parametrize(("game", "policy"), [("kniffel", "greedy"), ("dadox", "threshold"),
                                              ("dungeon24", "heuristic"), ("dungeon", "vorschlag")])
def test_invalid_level_is_one_error_line(game, policy):
    res = cli_here("play", game, "--policy", policy, "--n", "10", "--set", "skill.level=2", "--no-report")
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1, res.stderr
    assert lines[0].startswith("error: invalid value for skill.level: 2"), lines[0]


# --- full skill is the policy, zero skill is random ----------------------------------------------


def test_opponent_skill_leaves_the_player_alone():
    """Kniffel seats play their own sheets: the opponents' level changes nothing of seat 1's sheet."""
    plain = play("kniffel", "optimal,greedy", 300, options={"players": 2})
    weak = play("kniffel", "optimal,greedy", 300, ("skill.opponents=0.5",), {"players": 2})
    p0, w0 = plain[plain["seat"] == 0], weak[weak["seat"] == 0]
    assert (p0["score"].to_numpy() == w0["score"].to_numpy()).all()
    assert (plain[plain["seat"] == 1]["score"].to_numpy() != weak[weak["seat"] == 1]["score"].to_numpy()).any()


@pytest.mark.parametrize(("game", "a", "b", "options"), [
    ("kniffel", "optimal", "greedy", {}),
    ("dadox", "optimal-turn,threshold", "threshold,greedy", {"players": 2}),
    ("dungeon24", "heuristic,greedy", "exact-exchange,heuristic", {}),
    ("dungeon", "vorschlag", "greedy", {"difficulty": "normal"}),
])
def test_level_zero_forgets_the_policy(game, a, b, options):
    """At level 0 every move is a random one from the skill streams: two policies play the very same games."""
    sets = ("skill.level=0", "skill.opponents=0")
    ta, tb = play(game, a, 400, sets, options), play(game, b, 400, sets, options)
    cols = [c for c in ta.columns if c != "policy"]
    assert ta[cols].equals(tb[cols])


@pytest.mark.parametrize(("game", "policy", "options", "columns"), [
    ("kniffel", "optimal", {}, ("score", "upper_sum", "kniffels")),
    ("dadox", "threshold", {"players": 2}, ("game_turns", "banks", "banked", "win")),
    ("dungeon24", "heuristic,greedy", {}, ("turns", "winner", "wins0", "focus0", "deploys1")),
    ("dungeon", "vorschlag", {"difficulty": "leicht"}, ("rooms_cleared", "turns", "rolls", "score", "upgrades_gained")),
])
def test_level_zero_plays_like_random(game, policy, options, columns):
    """Level 0 of a policy and the ``random`` policy: the same distributions (independent streams), compared by
    their means at the sampling error of the difference, and by the two-sample Kolmogorov-Smirnov distance."""
    n = 3000
    skill = play(game, policy, n, ("skill.level=0", "skill.opponents=0"), options)
    rand = play(game, ",".join(["random"] * len(policy.split(","))), n, (), options)
    for col in columns:
        x, y = skill[col].to_numpy(np.float64), rand[col].to_numpy(np.float64)
        se = np.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
        assert abs(x.mean() - y.mean()) <= Z * se + 1e-12, (col, x.mean(), y.mean(), se)
        grid = np.union1d(x, y)
        ks = np.abs(np.searchsorted(np.sort(x), grid, "right") / len(x)
                    - np.searchsorted(np.sort(y), grid, "right") / len(y)).max()
        assert ks < 1.95 * np.sqrt(2 / n), (col, ks)  # the KS critical distance at 0.1 %


# --- monotone in the level on paired seeds -------------------------------------------------------


@pytest.mark.parametrize(("game", "policy", "n", "options"), [
    ("kniffel", "greedy", 1500, {}),
    ("kniffel", "optimal", 1000, {}),
    ("dadox", "optimal-turn", 1500, {"players": 2}),
    ("dadox", "threshold", 1500, {"players": 2}),
    ("dungeon24", "heuristic", 1500, {"opponent": "heuristic"}),
    ("dungeon24", "greedy", 1500, {"opponent": "heuristic"}),
    ("dungeon", "vorschlag", 1500, {"difficulty": "normal"}),
    ("dungeon", "greedy", 1500, {"difficulty": "leicht"}),
])
def test_outcome_does_not_fall_as_the_level_rises(game, policy, n, options):
    """The player (seat 1) at each level against the full-strength policy, on the same runs: no step up the ladder
    loses significantly (paired difference above -Z standard errors), and the whole ladder gains significantly."""
    out = [player_outcome(game, play(game, policy, n, (f"skill.level={lv}",), options)) for lv in LADDER]
    for lo, hi, a, b in zip(LADDER, LADDER[1:], out, out[1:], strict=False):
        d = b - a
        assert d.mean() >= -Z * se_paired(d), (lo, hi, d.mean(), se_paired(d))
    d = out[-1] - out[0]
    assert d.mean() > Z * se_paired(d)


# --- determinism and replays ---------------------------------------------------------------------


@pytest.mark.parametrize(("game", "policy", "options"), [
    ("kniffel", "optimal", {}), ("kniffel", "greedy", {}), ("dadox", "optimal-turn", {"players": 3}),
    ("dungeon24", "exact-exchange", {}), ("dungeon", "vorschlag", {"difficulty": "normal"}),
])
def test_chunking_does_not_change_skilled_runs(game, policy, options):
    sets = ("skill.level=casual", "skill.opponents=skilled")
    assert play(game, policy, 300, sets, options, chunk=37).equals(play(game, policy, 300, sets, options, chunk=300))


@pytest.mark.parametrize(("game", "policy", "options", "pattern", "column"), [
    ("kniffel", "optimal", {}, r"Final score: (\d+)", "score"),
    ("kniffel", "greedy", {}, r"Final score: (\d+)", "score"),
    ("dadox", "optimal-turn", {"players": 2}, r"After (\d+) turns", "game_turns"),
    ("dungeon24", "heuristic", {}, r"end after (\d+) turns", "turns"),
    ("dungeon", "vorschlag", {"difficulty": "normal"}, r"(\d+) Räume geschafft", "rooms_cleared"),
])
def test_replay_is_the_batch_run(game, policy, options, pattern, column):
    g = get_game(game)
    sets = ["skill.level=casual", "skill.opponents=novice"]
    table = play(game, policy, 8, tuple(sets), options)
    opts = g.check_options(dict(options))
    cfg = g.load(None, sets)
    seats = g.seat_policies(policy, opts)
    for run in (2, 5):
        text = g.replay(cfg, seats, SEED, run, opts)
        row = table[table["run"] == run].iloc[0]
        assert int(re.search(pattern, text).group(1)) == int(row[column]), text[-400:]


def test_dungeon_replay_row_is_the_batch_row():
    """Würfel Dungeon below full skill: the replayed run's whole table row is the batch row (same code path)."""
    g = get_game("dungeon")
    sets = ("skill.level=casual",)
    opts = {"difficulty": "normal"}
    table = play("dungeon", "vorschlag", 12, sets, opts)
    cfg = g.load(None, list(sets))
    for run in (3, 7, 11):
        row = g.replay_log(cfg, ["vorschlag"], SEED, run, opts).table_rows[0]
        batch = table[table["run"] == run].iloc[0]
        assert len(row) > 100 and all(row[c] == pytest.approx(batch[c]) for c in row), run


def test_dungeon_full_skill_draws_nothing():
    """Level 1 is the plain policy bit for bit, and the dungeon is played alone: ``skill.opponents`` changes nothing.
    A level just below 1 lapses now and then: some runs change, most do not."""
    opts = {"difficulty": "normal"}
    plain = play("dungeon", "vorschlag", 400, (), opts)
    assert plain.equals(play("dungeon", "vorschlag", 400, ("skill.level=1", "skill.opponents=0"), opts))
    near = play("dungeon", "vorschlag", 400, ("skill.level=0.95",), opts)
    changed = (near["rolls"].to_numpy() != plain["rolls"].to_numpy()).mean()
    assert 0.0 < changed < 1.0, changed


# --- the balance report's chart ------------------------------------------------------------------


def test_balance_skill_chart(tmp_path):
    """Dungeon24 win rate by skill: every policy at every level; level 1 is the plain mirror match on the same runs."""
    import json

    from sim.report.skill import LADDER as REPORT_LADDER
    from sim.report.skill import balance_skill

    g = get_game("dungeon24")
    extras = balance_skill(g, g.load(), tmp_path, 1000, SEED)
    assert [name for _, name in extras] == ["skill.png"] and (tmp_path / "skill.png").stat().st_size > 10_000
    result = json.loads((tmp_path / "skill.json").read_text())
    policies = ("greedy", "heuristic")
    assert [(r["policy"], r["level"]) for r in result["rows"]] == [(p, lv) for p in policies for lv in REPORT_LADDER]
    for p in policies:
        rows = {r["level"]: r for r in result["rows"] if r["policy"] == p}
        plain = play("dungeon24", p, 1000, (), {"opponent": p})
        assert rows[1.0]["win_rate"]["value"] == (plain["winner"] == 0).mean()
        assert rows[0.0]["change_from_level_0"]["value"] == 0.0
        assert rows[1.0]["change_from_level_0"]["ci95"][0] > 0  # skill pays, on the same runs


def test_set_reaches_a_section_the_user_file_leaves_out(tmp_path):
    """A user config written before ``[skill]`` existed still takes ``--set skill.level``; a typo stays an error."""
    text = (ROOT_CONFIGS / "kniffel" / "default.toml").read_text()
    old = tmp_path / "old.toml"
    old.write_text(text[: text.index("[skill]")])
    game = get_game("kniffel")
    assert game.load(old).skill.level == 1.0
    assert game.load(old, ["skill.level=0.5"]).skill.level == 0.5
    for bad in ("skill.nope=0.5", "skil.level=0.5"):
        with pytest.raises(ConfigError, match="unknown config field"):
            game.load(old, [bad])


def test_dungeon_balance_skill_chart(tmp_path):
    """Würfel Dungeon: vorschlag's win rate by skill, one series per difficulty; level 1 is the plain policy's win
    rate on the same runs, and skill pays on every difficulty the policy wins at all."""
    import json

    from sim.report.skill import LADDER as REPORT_LADDER
    from sim.report.skill import balance_skill

    g = get_game("dungeon")
    balance_skill(g, g.load(), tmp_path, 1000, SEED)
    result = json.loads((tmp_path / "skill.json").read_text())
    diffs = ("leicht", "normal", "schwer")
    assert [(r["options"]["difficulty"], r["level"]) for r in result["rows"]] == [
        (d, lv) for d in diffs for lv in REPORT_LADDER]
    for d in diffs:
        rows = {r["level"]: r for r in result["rows"] if r["options"]["difficulty"] == d}
        plain = play("dungeon", "vorschlag", 1000, (), {"difficulty": d})
        assert rows[1.0]["win_rate"]["value"] == plain["win"].mean()
        if plain["win"].mean() > 0.05:
            assert rows[1.0]["change_from_level_0"]["ci95"][0] > 0


def test_dungeon24_seat_swaps_keep_the_player_at_its_level():
    """The people matrix swaps seats to cancel the first attacker's edge: the player at level 0 (random moves)
    must lose in both seatings, not hand its level to the opponent in the swapped games (which made it ~0.5)."""
    g = get_game("dungeon24")
    cfg = g.load(None, ["skill.level=0"])
    wr = np.array(g.matchup(cfg, "heuristic", "heuristic", 300, 3)["win_rate"])
    assert wr.max() < 0.35, wr
    plain = np.array(g.matchup(g.load(), "heuristic", "heuristic", 300, 3)["win_rate"])
    assert abs(plain.mean() - 0.5) < 0.1  # the mirror match at full skill is even
