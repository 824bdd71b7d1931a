"""Kniffel replays of the seed's joker rule: a joker Kniffel on the first roll is scored at once, no further roll.

Seed: "Du kannst nicht weiter würfeln, wenn noch Würfe ausstehen, und du musst sofort eine Punktzahl auswählen."
The runs below were found by scanning seed 1; each test first checks its premise (a first-roll Kniffel with the
Kniffel box already filled), then the turn as the default rules play it, then the same turn with the reading off.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
    free = turn_block(replay(117, ["joker.stops_rolling=false"]), 5)  # the reading switched off: it may roll on
    assert free[1] == "  roll 1: 4 4 4 4 4" and any(x.startswith("  roll 2:") for x in free)


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
