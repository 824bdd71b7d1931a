"""Pig's roll log (declared once) and its text: one line per turn, the rolls and how the turn ended."""

from __future__ import annotations

from policies.pig.bots import POLICIES
from sim.core.events import EventKind, EventLog
from sim.games.pig import play as P
from sim.report.words import policy_name

GAME = "pig"

NAMES = {v: k for k, v in POLICIES.items()}

# one row per roll (``play.L_*``); the event code sits in column ``L_EVENT``
_FIELDS = ("turn", "seat", "face", "total", "score", "policy", "other")
EVENTS = EventLog(tuple(EventKind(code, name, _FIELDS) for code, name in (
    (P.EV_ROLL, "roll"), (P.EV_BUST, "bust"), (P.EV_HOLD, "hold"), (P.EV_WIN, "win"))), kind_column=P.L_EVENT)


def render(replay) -> str:
    """Human-readable account of one game from its decoded rolls (``replay``: ``sim.core.events.Replay``)."""
    f = replay.facts
    seats = f["seats"]
    named = [policy_name(GAME, p) for p in seats]  # in words: "Hold 20", not its code
    lines = ["Seats: " + ", ".join(f"{s + 1} {named[s]}" for s in range(len(seats))) + f" · goal {f['goal']}"]
    faces: list[str] = []
    for ev in replay.sections[0]["events"]:
        faces.append(str(ev["face"]))
        kind = ev["event"]
        if kind == "roll":
            continue
        seat = ev["seat"]
        head = (f"Turn {ev['turn'] + 1} · seat {seat + 1} ({policy_name(GAME, NAMES[ev['policy']])}) · "
                f"{ev['score'] if kind == 'bust' else ev['score'] - ev['total']} against {ev['other']} · "
                f"rolls {' '.join(faces)}")
        if kind == "bust":
            lines.append(f"{head} → bust" + (f", {ev['total']} lost" if ev["total"] else ""))
        else:
            lines.append(f"{head} → holds {ev['total']} → score {ev['score']}" + (" · WINS" if kind == "win" else ""))
        faces = []
    winner = f["winner"]
    result = f"seat {winner + 1} ({named[winner]}) wins" if winner >= 0 else "no winner (turn limit)"
    lines.append(f"After {f['turns']} turns: {result} · scores " + ", ".join(str(s) for s in f["scores"]))
    return "\n".join(lines)
