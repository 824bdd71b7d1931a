"""``combos`` and ``describe`` asked a second time answer from the cache folder (``sim.cli.answers``) without
importing numba, numpy, pandas or the game, and print exactly what the game prints (issue 30); after one ``combos``
under a config, every other cup under it does too (the whole cup is kept). Timings are ``benchmarks/latency.py``'s,
never asserted here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.cli import answers
from sim.cli.common import emit, work
from sim.cli.extras import combos_text
from sim.games import GAMES
from tests.conftest import cli_here
from tests.probe import probe
from tests.test_cli_fast import HEAVY, _game_code

ASKS = [["describe", g] for g in GAMES] + [["describe", "kniffel", "--json"], ["combos", "5", "5", "5", "2", "2"],
                                          ["combos", "2", "5", "2", "5", "5", "--json"]]


def _ask(tmp_path: Path, args: list[str]) -> tuple[int, set[str], str]:
    got, r = probe(tmp_path, *args)
    assert got and got["code"] in (0, None), r.stderr
    return got["code"], set(got["modules"]), r.stdout


def _computed(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What the game itself prints for ``args`` (the work function, no stored answer)."""
    as_json = "--json" in args
    if args[0] == "describe":
        work("single").describe(args[1], None, None, as_json, {})
    else:
        one = work("extras").combos("dungeon", [int(a) for a in args[1:] if a != "--json"], None, None)
        emit(one, as_json, combos_text(one))
    return capsys.readouterr().out


@pytest.mark.parametrize("args", ASKS, ids=" ".join)
def test_a_second_ask_imports_no_numba_or_game_and_prints_the_same(tmp_path, capsys, args):
    first = cli_here(*args)  # the first ask computes and stores the answer (in this process: the same code path)
    assert first.returncode == 0, first.stderr
    _, modules, stdout = _ask(tmp_path, args)  # the second in a fresh interpreter: what it imports is the point
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))
    assert not _game_code(modules), _game_code(modules)
    assert stdout == _computed(args, capsys)


def test_a_damaged_answer_is_asked_again(tmp_path, capsys):
    args = ["describe", "dadox"]
    k = answers.key("describe", "dadox", [[], False], None, None)
    assert k is not None
    answers._file(k).parent.mkdir(parents=True, exist_ok=True)
    answers._file(k).write_text("{not json")
    _, modules, stdout = _ask(tmp_path, args)
    assert stdout == _computed(args, capsys)
    assert json.loads(answers._file(k).read_text())["text"] == stdout


def test_the_key_changes_with_the_config_and_the_code(monkeypatch):
    base = answers.key("describe", "kniffel", [[], False], None, None)
    other = work("single").setup("kniffel", None, ["bonus.value=40"], {})[1]  # a validated config
    assert answers.key("describe", "kniffel", [[], False], other, None) != base
    monkeypatch.setattr(answers, "code_hash", lambda: "edited")
    assert answers.key("describe", "kniffel", [[], False], None, None) != base
    assert answers.key("describe", "kniffel", [[], False], Path("x.toml"), None) is None


@pytest.mark.parametrize("rules", [[], ["--set", "combos.pasch.attack=[5,9]"]], ids=["default", "edited"])
def test_after_one_cup_every_cup_is_read_not_played(tmp_path, capsys, rules):
    """One ``combos`` keeps every cup of its rules: cups never asked (five and six dice, with and without combos)
    answer in a fresh interpreter without numba or the game, as the game itself answers them."""
    first = cli_here("combos", "1", "1", "2", "2", "3", *rules)
    assert first.returncode == 0, first.stderr
    for cup in (["6", "6", "1", "1", "3", "3"], ["4", "2", "6", "3", "5"], ["1", "3", "5", "2", "6", "4"],
                ["6", "2", "4", "1", "5"], ["2", "6", "6", "6", "6", "2", "--json"]):
        _, modules, stdout = _ask(tmp_path, ["combos", *cup, *rules])
        heavy = set(HEAVY) - ({"numpy"} if rules else set())  # an edit is validated by the config model (numpy)
        assert not modules & heavy, (cup, sorted(modules & heavy))
        code = [m for m in _game_code(modules)  # with an edit, the config model's modules; never rules or kernels
                if not rules or m.startswith("policies.") or m.endswith((".game", ".rules", ".freeze", ".runs"))]
        assert not code, code
        dice = [int(a) for a in cup if a != "--json"]
        one = work("extras").combos("dungeon", dice, None, rules[1:] or None)
        emit(one, "--json" in cup, combos_text(one))
        assert stdout == capsys.readouterr().out, cup


def test_a_damaged_cup_table_is_played_and_kept_anew(tmp_path, capsys):
    """A kept cup whose entry lost a field (or is not a cup at all) is played by the game and the table rewritten."""
    first = cli_here("combos", "4", "4", "4", "1", "2")
    assert first.returncode == 0, first.stderr
    k = answers.key("cup", "dungeon", [], None, None)
    kept = answers.stored_data(k)
    assert kept is not None and "1 2 4 4 4" in kept
    for spoil in ({**kept, "1 2 4 4 4": {"combos": [{"name": "Drilling"}], "total_attack": 9}},
                  {**kept, "1 2 4 4 4": "not a cup"}):
        answers.save_data(k, spoil)
        _, _, stdout = _ask(tmp_path, ["combos", "4", "4", "4", "1", "2"])
        one = work("extras").combos("dungeon", [4, 4, 4, 1, 2], None, None)
        emit(one, False, combos_text(one))
        assert stdout == capsys.readouterr().out
        assert answers.stored_data(k) == kept  # healed
