"""Dadox's throw log (declared once) and its text: throws, what is set aside, banks, busts, turn by turn."""

from __future__ import annotations

from policies.dadox.bots import POLICIES
from sim.core.dice import dice_of
from sim.core.events import EventKind, EventLog
from sim.games.dadox import play as P
from sim.games.dadox import rules as R
from sim.games.dadox.tables import OPT_PTS, OPT_SEL, OPT_USED, T6
from sim.report.words import policy_name

GAME = "dadox"

NAMES = {v: k for k, v in POLICIES.items()}

# one row per throw (``play.L_*``); the event code sits in column ``L_EVENT``
_FIELDS = ("turn", "seat", "dice", "throw", "option", "total", "score", "lock", "policy", "leading_opponent")
EVENTS = EventLog(tuple(EventKind(code, name, _FIELDS) for code, name in (
    (P.EV_ON, "throw_on"), (P.EV_BUST, "bust"), (P.EV_BANK, "bank"), (P.EV_OVERSHOOT, "overshoot"),
    (P.EV_WIN, "win"))), kind_column=P.L_EVENT)
LOCK_NOTE = {R.LOCK_FREE: "", R.LOCK_CONFIRM: ", must be confirmed",
             R.LOCK_THROW: ", must throw on (a triple or street declined)"}
HOT_NOTE = ", all six set aside: throws all six again"  # a must-throw lock on hot dice (``turn.hot_dice = "throw"``)


def _faces(k: int) -> str:
    return " ".join(str(d) for d in dice_of(T6, int(k)))


def render(replay, tb, rp) -> str:
    """Human-readable account of one game from its decoded throws (``replay``: ``sim.core.events.Replay``)."""
    f = replay.facts
    seats, k = f["seats"], len(f["seats"])
    named = [policy_name(GAME, p) for p in seats]  # in words: "Optimal turn", not optimal-turn
    lines = ["Seats: " + ", ".join(f"{s + 1} {named[s]}" for s in range(len(seats)))
             + f" · target {f['target']}{' exactly' if f['exact'] else ''}"]
    scores = [0] * k
    last_turn = -1
    for ev in replay.sections[0]["events"]:
        turn, seat = ev["turn"], ev["seat"]
        if turn != last_turn:
            last_turn = turn
            who = policy_name(GAME, NAMES[ev["policy"]])
            lines.append(f"Turn {turn + 1} · seat {seat + 1} ({who}) · score {scores[seat]}"
                         + (f" · leading opponent {ev['leading_opponent']}" if k > 1 else ""))
        throw = f"  throws {ev['dice']}: {_faces(ev['throw'])}"
        kind, total, score = ev["event"], ev["total"], ev["score"]
        if kind == "bust":
            lost = scores[seat] - score
            lines.append(f"{throw} → bust" + (f", {lost} points off" if lost else ", the turn is lost"))
        else:
            o = ev["option"]
            aside = f"sets aside {_faces(tb.opt[o, OPT_SEL])} ({int(tb.opt[o, OPT_PTS])})"
            hot = ev["lock"] == R.LOCK_THROW and int(tb.opt[o, OPT_USED]) == ev["dice"]
            after = f"turn total {total}" + (HOT_NOTE if hot else LOCK_NOTE[ev["lock"]])
            if kind == "throw_on":
                lines.append(f"{throw} → {aside} → {after}")
            elif kind == "overshoot":
                lines.append(f"{throw} → {aside} → banks {total}: past the target, score {score}")
            else:
                won = " · WINS" if kind == "win" else ""
                lines.append(f"{throw} → {aside} → banks {total} → score {score}{won}")
        scores[seat] = score
    winner = f["winner"]
    result = f"seat {winner + 1} ({named[winner]}) wins" if winner >= 0 else "no winner (turn limit)"
    lines.append(f"After {f['turns']} turns: {result} · scores " + ", ".join(str(s) for s in f["scores"]))
    return "\n".join(lines)
