"""Kniffel replays: the seed's joker rule (a joker Kniffel on the first roll is scored at once, no further roll),
and turns where every die is held (no roll happens, so none is printed or logged).

Seed: "Du kannst nicht weiter würfeln, wenn noch Würfe ausstehen, und du musst sofort eine Punktzahl auswählen."
The runs below were found by scanning seed 1; each test first checks its premise (a first-roll Kniffel with the
Kniffel box already filled), then the turn as the default rules play it, then the same turn with the reading off.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.games import get_game

GAME = get_game("kniffel")
ROOT = Path(__file__).resolve().parents[2]


def turn_block(text: str, turn: int) -> list[str]:
    """The lines of turn ``turn`` (1-based) of a single-sheet replay, header included."""
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(f"Turn {turn:2d} ·"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(("Turn ", "Final score"))), len(lines))
    return lines[start:end]


def replay(run: int, sets: list[str] | None = None) -> str:
    cfg = GAME.load(None, sets or [])
    opts = GAME.check_options({})
    GAME.prepare(cfg, ["optimal"], opts)
    return GAME.replay(cfg, ["optimal"], 1, run, opts)


def test_joker_kniffel_with_bonus_scores_without_rolling():
    """Run 117, turn 5: 4 4 4 4 4 on the first roll, Kniffel box holds 50: Vierer is open, so the forced joker
    puts it there (+100 bonus) and the turn ends with no hold and no second roll."""
    block = turn_block(replay(117), 5)
    assert "Vierer" in block[0].split("open:")[1] and "Kniffel" not in block[0].split("open:")[1]
    assert block[1] == "  roll 1: 4 4 4 4 4"
    assert block[2].startswith("  score:  Vierer = 20 +100 Kniffel bonus")
    assert not any("hold" in x or "roll 2" in x for x in block)
    free = turn_block(replay(117, ["joker.stops_rolling=false"]), 5)  # the reading switched off: it may roll on,
    assert free[1] == "  roll 1: 4 4 4 4 4" and free[2].startswith("  hold:   4 4 4 4 4")  # it decides to hold all
    assert "keeps all five, stops rolling" in free[2] and not any(x.startswith("  roll 2") for x in free)


def test_joker_kniffel_on_a_zero_box_also_stops_when_zero_reading_is_on():
    """Run 56, turn 13: 3 3 3 3 3 first with the Kniffel box at 0 (joker.when_zero = true): scored at once in the
    last open box; with when_zero = false it is no joker, and optimal rerolls for a better Viererpasch."""
    block = turn_block(replay(56), 13)
    assert "Kniffel" not in block[0].split("open:")[1] and "Kniffel 0" in block[3]  # the sheet after the turn
    assert block[1] == "  roll 1: 3 3 3 3 3"
    assert block[2] == "  score:  Viererpasch = 15   → total 258"
    other = turn_block(replay(56, ["joker.when_zero=false"]), 13)
    assert other[1] == "  roll 1: 3 3 3 3 3" and other[2].startswith("  hold:")


def test_cli_replay_shows_the_joker_turn():
    """The real ``dicesim replay`` command prints the same turn."""
    r = subprocess.run([sys.executable, "-m", "sim.cli", "replay", "kniffel", "--seed", "1", "--run", "117",
                        "--policy", "optimal"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=True)
    block = turn_block(r.stdout, 5)
    assert block[1] == "  roll 1: 4 4 4 4 4" and block[2].startswith("  score:  Vierer = 20 +100")


# --- a hold of all five dice: no roll happens, none is printed ----------------------------------------------------

def _sheet_events(policy: str, run: int, seed: int = 1) -> list[dict]:
    from sim.core.events import replay as decoded

    cfg = GAME.load(None, [])
    opts = GAME.check_options({})
    GAME.prepare(cfg, [policy], opts)
    return decoded(GAME, cfg, [policy], seed, run, opts).sections[0]["events"]


def _full_holds(events: list[dict]) -> list[tuple[int, int, str]]:
    """(turn, level, what follows) of every first hold of all five dice in a row: "score" or "hold" (fewer dice)."""
    out = []
    for j, ev in enumerate(events):
        if ev["event"] == "hold" and ev["held"] == 5 and not (events[j - 1]["event"] == "hold"
                                                               and events[j - 1]["held"] == 5):
            k = j
            while events[k]["event"] == "hold" and events[k]["held"] == 5:
                k += 1
            out.append((ev["turn"], ev["level"], events[k]["event"]))
    return out


def _find(policy: str, level: int, then: str, runs: int = 40) -> tuple[int, int, list[dict]]:
    """The first run of seed 1 (scanned in order) with a hold of all five after roll ``level + 1`` followed by
    ``then``; returns (run, turn, events)."""
    for run in range(runs):
        events = _sheet_events(policy, run)
        for turn, lv, nxt in _full_holds(events):
            if lv == level and nxt == then:
                return run, turn, events
    raise AssertionError(f"no run of {policy} holds all five after roll {level + 1} then {then}")


def _check_stream(events: list[dict], run: int, seed: int = 1) -> None:
    """Independent check of the log against the dice stream (seed, run, seat 0, 2 * turn): the first roll is its
    first five dice, each reroll draws the free dice in order, and a hold of all five draws nothing and is followed
    by no roll."""
    from sim.core.rng import next_die, stream_key

    for j, ev in enumerate(events):
        if ev["event"] == "roll" and ev["level"] == 0:
            s = np.uint64(stream_key(seed, run, 0, 2 * ev["turn"]))
            dice = []
            for _ in range(5):
                s, d = next_die(np.uint64(s))
                dice.append(int(d))
            assert ev["dice"] == dice
        elif ev["event"] == "hold":
            nxt = events[j + 1]
            if ev["held"] == 5:
                assert nxt["event"] != "roll" and nxt["dice"] == ev["dice"]
                continue
            assert nxt["event"] == "roll" and nxt["level"] == ev["level"] + 1
            expect = []
            for i, d in enumerate(ev["dice"]):
                if (ev["held_mask"] >> i) & 1:
                    expect.append(d)
                else:
                    s, d = next_die(np.uint64(s))
                    expect.append(int(d))
            assert nxt["dice"] == expect
        elif ev["event"] == "score":
            assert ev["dice"] == events[j - 1]["dice"]


@pytest.mark.parametrize(("policy", "level"), [("optimal", 0), ("optimal", 1), ("greedy", 0), ("greedy", 1)])
def test_hold_of_all_five_stops_rolling_without_a_phantom_roll(policy, level):
    """A turn where the player holds all five dice after roll 1 (or 2) and scores: the replay says it stops
    rolling and prints no further roll; the log matches the dice stream, so no dice were drawn for it."""
    run, turn, events = _find(policy, level, "score")
    _check_stream(events, run)
    cfg = GAME.load(None, [])
    text = GAME.replay(cfg, [policy], 1, run, GAME.check_options({}))
    block = turn_block(text, turn + 1)
    holds = [x for x in block if x.startswith("  hold:")]
    rolls = [x for x in block if x.startswith("  roll ")]
    assert [x.split(":")[0] for x in rolls] == [f"  roll {n}" for n in range(1, level + 2)], block
    assert "keeps all five, stops rolling" in holds[-1] and len(holds) == level + 1, block
    assert block.index(holds[-1]) == len(block) - 3 and block[-2].startswith("  score:"), block
    held = holds[-1].split()[1:6]
    assert rolls[-1].split(": ")[1].split() == held  # the dice scored are the dice of the last real roll


def test_hold_of_all_five_then_fewer_passes_a_roll():
    """Random play holds all five, then fewer at the next decision: the kernel counts the passed roll (it draws
    nothing for it), so the replay says which roll was passed and numbers the next real roll after it."""
    run, turn, events = _find("random", 0, "hold")
    _check_stream(events, run)
    cfg = GAME.load(None, [])
    block = turn_block(GAME.replay(cfg, ["random"], 1, run, GAME.check_options({})), turn + 1)
    assert block[2].startswith("  hold:") and "keeps all five, passes roll 2" in block[2], block
    assert block[3].startswith("  hold:") and "keeps all five" not in block[3], block
    assert block[4].startswith("  roll 3: ") and not any(x.startswith("  roll 2") for x in block), block


def test_logs_of_many_runs_follow_the_dice_stream():
    """Every roll and hold of 12 runs per policy against the dice stream (holds of all five included)."""
    seen = 0
    for policy in ("random", "greedy", "optimal"):
        for run in range(12):
            events = _sheet_events(policy, run)
            _check_stream(events, run)
            seen += len(_full_holds(events))
    assert seen > 0
