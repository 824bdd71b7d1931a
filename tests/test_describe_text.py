"""``dicesim describe GAME`` without ``--json`` prints the rule tables as text a designer reads (``sim.cli.work.
describe_text``): chances as percentages, code names in the game's words, wide tables in parts, no JSON."""

from __future__ import annotations

import json
import re

import pytest

from sim.cli.work.describe_text import WIDE, describe_text
from sim.games import GAMES
from tests.conftest import cli_here


def _text(game: str, *args: str) -> str:
    done = cli_here("describe", game, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _json(game: str, *args: str) -> dict:
    return json.loads(_text(game, *args, "--json"))


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_reads_as_text_not_json(game):
    text = _text(game)
    lines = text.splitlines()
    d = _json(game)
    assert lines[0].endswith(f"rules {d['config_hash']}")
    assert not any(line.lstrip().startswith(("{", "[", '"')) for line in lines)
    assert max(len(line) for line in lines) <= WIDE + 12  # the indent of a nested table beside the parts' width
    assert lines[-1] == f"With --json (the rules as configured and the {len(d['columns'])} columns of a batch's " \
        f"table): dicesim describe {game} --json"
    for field in d.get("assumed", []):  # every assumed number named
        assert field in " ".join(lines).replace("\n", " ")


def test_dadox_tables_in_words_and_percentages():
    text = _text("dadox")
    lines = text.splitlines()
    assert lines[0] == "Dadox · rules " + _json("dadox")["config_hash"]
    i = lines.index("Bust chance by dice thrown")  # the game's heading (DESCRIBE_WORDS)
    assert lines[i + 1].split() == ["1", "2", "3", "4", "5", "6"]
    # no 1, no 5, no triple: 4/6 for one die, 16/36 for two, (64 - 4 triples)/216 for three
    assert lines[i + 2].strip().split("  ")[0:3] == ["66.7 %", "44.4 %", "27.8 %"]
    j = lines.index("Optimal turn (the most points a turn adds in expectation, far from the goal)")
    assert lines[j + 2].endswith("by dice it would throw next (goal not counted)")  # a bank past the goal is void
    assert lines[j + 1].split() == ["Expected", "turn", "score", "(points)", "365.9"]
    assert lines[j + 3].split() == ["1", "2", "3", "4", "5", "6"]
    assert lines[j + 4].split() == ["150", "150", "200", "500", "1450", "5200"]
    assert "  - street 1-2-3-4-5-6" in lines
    note = " ".join(line.strip() for line in lines[i:j])
    assert "the chance that a throw of n dice (1 to 6) holds no scoring group" in note


def test_dungeon_rooms_in_parts_with_their_names():
    lines = _text("dungeon", "--difficulty", "schwer").splitlines()
    assert lines[0].startswith("Würfel Dungeon · Schwer · rules ")
    heads = [k for k, line in enumerate(lines) if line.startswith("  Room  Section")]
    assert len(heads) > 1  # 17 columns in parts, each led by room, section and enemy, every column once
    cells = [re.split(r"\s{2,}", lines[k].strip()) for k in heads]
    assert all(c[:3] == ["Room", "Section", "Enemy"] for c in cells)
    assert [c for part in cells for c in part[3:]] == [
        "LP", "Base hit (×1)", "Largest hit", "Mean hit", "Elite LP", "Elite base hit (×1)", "Elite largest hit",
        "Elite mean hit",
        "Boss", "Chance", "Enemy block", "Player shield", "Challenge", "Path card"]
    # the difficulty factor keeps its own word ("Damage" beside "Largest hit" read as a hit the enemy deals)
    assert re.split(r"\s{2,}", lines[lines.index(next(x for x in lines if x.startswith("Difficulty factors"))) + 1]
                    .strip())[:2] == ["LP", "Damage"]
    boss = [line for line in lines if "Auge der Sechs" in line]
    assert len(boss) == len(heads) and boss[0].split()[:3] == ["10", "Aschehallen", "Auge"]
    assert any("100.0 %" in line for line in boss)  # the boss room's enemy, certain
    assert "  Pasch · tier 1 · coin bonus 2" in lines  # the combo's kind (its code name) is not repeated


def test_shapes():
    d = {
        "game": "nosuch", "config_hash": "abc",
        "hit_chance": {"a": [[0.5, 0.25]]},
        "exchange_by_advantage": {"-1": {"hit": 0.125, "lp_loss": 2.0}},
        "rows": [{"enemy": "x", "enemy_name": "Ex", "hp": 3, "block": 3, "kind": "Ex"}],
        "listed": [], "count": 123456, "share_probability": 0.5,
        "share_means": "what the share counts",
    }
    lines = describe_text(d).splitlines()
    assert lines[0] == "nosuch · rules abc"
    assert "Count              123,456" in lines and "Share probability  50.0 %" in lines
    assert "    50.0 %  25.0 %" in lines  # a matrix under a chance key
    assert lines[lines.index("Exchange by advantage") + 1].split() == ["Advantage", "Hit", "LP", "loss"]
    assert lines[lines.index("Exchange by advantage") + 2].split() == ["-1", "12.5", "%", "2"]
    rows = lines.index("Rows")
    assert lines[rows + 1].split() == ["Enemy", "HP", "Block"]  # kind repeats enemy's code: left out; block kept
    assert lines[rows + 2].split() == ["Ex", "3", "3"]
    assert lines[lines.index("Listed") + 1] == "  none"
    assert "  what the share counts" not in lines  # a note whose stem names no table closes the page
    assert "what the share counts" in lines


def test_a_wide_table_comes_in_parts_that_repeat_its_names():
    d = {"game": "nosuch", "rows": [{"name": f"row {i}", **{f"column_{c}": 10.0 ** 5 * c for c in range(12)}}
                                    for i in range(2)]}
    lines = describe_text(d).splitlines()
    heads = [line for line in lines if line.startswith("  Name")]
    assert len(heads) >= 2 and all(len(line) <= WIDE + 2 for line in lines)
    cols = [w for line in heads for w in line.split() if w.isdigit()]
    assert sorted(map(int, cols)) == list(range(12))  # every column once


def test_kniffel_says_what_each_box_scores():
    """The boxes with what they score under these rules (it listed names and sections only), the bonuses and the
    joker; a long value wraps under itself."""
    lines = _text("kniffel", "--set", "scores.full_house=30").splitlines()
    assert "  Full House     lower    30 points: three of one face and two of another" in lines
    assert "  Einser         upper    the sum of the 1s" in lines
    assert "  Upper bonus    35 points when the upper boxes sum to 63 or more" in lines
    joker = lines.index(next(x for x in lines if x.startswith("  Joker ")))
    assert lines[joker + 1].startswith(" " * 17) and all(len(x) <= 100 for x in lines[joker:joker + 3])


def test_dungeon24_names_its_abilities_and_the_cards_of_each_hit_chance():
    """It read 'Ability blutrausch' (the config's code) and six bare rows of six chances per people 'in deck order':
    the ability as the rules write it, and each grid's rows are the own cards, its columns the other people's cards,
    by the names the decks give them."""
    from sim.games.dungeon24 import labels, rules
    from sim.games.dungeon24.config import ABILITIES
    from sim.games.dungeon24.describe import exchange_stats

    assert labels.ABILITY_WORDS == {k: rules.ABILITY_NAMES[v] for k, v in ABILITIES.items() if v}  # the replay's
    lines = _text("dungeon24").splitlines()
    assert [line.split() for line in lines if line.strip().startswith("Ability")] == [
        ["Ability", "Blutrausch"], ["Ability", "Auferstehung"], ["Ability", "Schattenschmerz"]]
    assert "deck order" not in " ".join(lines)
    grun = lines.index("  Grünlinge")
    head = next(k for k in range(grun, len(lines)) if lines[k].strip() == "Untote")  # Grünlinge's grid against Untote
    assert re.split(r"\s{2,}", lines[head + 1].strip()) == ["Skelett", "Zombie", "Ghul", "Gespenst", "Mumie", "Lich"]
    rows = [re.split(r"\s{2,}", lines[head + 2 + r].strip()) for r in range(6)]
    assert [r[0] for r in rows] == ["Goblin-Späher", "Goblin-Krieger", "Ork-Schläger", "Kobold", "Troll",
                                    "Ork-Häuptling"]
    assert rows[0][1:] == ["41.7 %", "27.8 %", "41.7 %", "16.7 %", "27.8 %", "8.3 %"]  # A 3 against V 3 4 3 5 4 6
    d = _json("dungeon24")["decks"]["gruenlinge"]["hit_chance_vs"]["untote"]
    assert d["Ork-Häuptling"]["Lich"] == round(exchange_stats(6 - 6)["hit"], 4)  # boss A 6 against boss V 6


def test_dungeon24_says_no_loss_where_no_exchange_hits():
    """Advantage -6 read 'hit chance 0.0 %, LP lost when hit 0': where no pair of dice hits there is no loss when hit.
    Checked against every pair of dice: a hit needs A + own die > V + other die (Dungeon24's exchange)."""
    from sim.games.dungeon24.describe import exchange_stats

    for adv in range(-6, 7):
        hits = [adv + a - d for a in range(1, 7) for d in range(1, 7) if adv + a > d]
        said = exchange_stats(adv)
        assert said["hit"] == len(hits) / 36
        assert said["lp_loss_given_hit"] is None if not hits else said["lp_loss_given_hit"] > 0
    rows = {r[0]: r[1:] for r in (line.split() for line in _text("dungeon24").splitlines()) if r}
    assert rows["-6"] == rows["-5"] == ["0.0", "%", "—"] and rows["-4"] == ["2.8", "%", "1"]


def test_dungeon24_hit_chances_keep_cards_of_one_name_apart():
    """Two cards of one name would be one key of the grid: the second is numbered."""
    from sim.games import get_game
    from sim.games.dungeon24.describe import describe

    cfg = get_game("dungeon24").load()
    d = cfg.model_dump()
    d["peoples"]["untote"]["cards"][1]["name"] = "Skelett"
    cfg = type(cfg).model_validate(d)
    grid = describe(cfg, {})["decks"]["untote"]["hit_chance_vs"]["untote"]
    assert list(grid) == ["Skelett", "Skelett (2)", "Ghul", "Gespenst", "Mumie", "Lich"]
    assert all(list(row) == list(grid) for row in grid.values())


def test_assumed_values_are_named_in_words_with_their_values():
    """``describe`` listed the assumed values as bare config paths ("scoring.three_pairs, scoring.kind_doubling, …");
    each is now a line in words with its value, the path after it, as the report page names them."""
    out = cli_here("describe", "dadox")
    assert out.returncode == 0, out.stderr
    tail = out.stdout.split("Assumed (numbers the rule page leaves open, set by us; change them in the config):\n")[1]
    lines = tail.splitlines()
    assert lines[0] == "  three different pairs in one throw (0: off) = 0 (scoring.three_pairs)"
    assert "  Greedy: bank at this turn total = 300 (policies.greedy_bank_at)" in lines
    assert "  turns (all seats) after which a game is drawn = 5000 (game.max_turns)" in lines
    dungeon = cli_here("describe", "dungeon").stdout
    assert "Tagesmarkt upgrade prices in coins (Häufig, Selten, Episch) = 68, 112, 180 (market.prices)" in dungeon
