"""Render one Dadox game's event log turn by turn: throws, what is set aside and why, banks, busts."""

from __future__ import annotations

import numpy as np

from policies.dadox import POLICIES
from sim.dice import dice_of
from sim.games.dadox import play as P
from sim.games.dadox import rules as R
from sim.games.dadox.tables import OPT_PTS, OPT_SEL, T6

NAMES = {v: k for k, v in POLICIES.items()}
LOCK_NOTE = {R.LOCK_FREE: "", R.LOCK_CONFIRM: ", must be confirmed",
             R.LOCK_THROW: ", must throw on (a triple or street declined)"}


def _faces(k: int) -> str:
    return " ".join(str(d) for d in dice_of(T6, int(k)))


def render(log: np.ndarray, policies: list[str], run: int, rotate: bool, turns: int, winner: int, stat, tb, rp,
           truncated: bool = False) -> str:
    """Human-readable account of one game (``log`` rows from ``play.play_game``)."""
    k = len(policies)
    rot = run % k if rotate else 0
    seats = [policies[(s + rot) % k] for s in range(k)]
    lines = ["Seats: " + ", ".join(f"{s + 1} {p}" for s, p in enumerate(seats))
             + f" · target {int(rp[R.RP_TARGET])}{' exactly' if rp[R.RP_EXACT] else ''}"]
    scores = [0] * k
    last_turn = -1
    for row in log:
        turn, seat = int(row[P.L_TURN]), int(row[P.L_SEAT])
        if turn != last_turn:
            last_turn = turn
            lines.append(f"Turn {turn + 1} · seat {seat + 1} ({NAMES[int(row[P.L_POLICY])]}) · score {scores[seat]}"
                         + (f" · leading opponent {int(row[P.L_OPP])}" if k > 1 else ""))
        throw = f"  throws {int(row[P.L_DICE])}: {_faces(row[P.L_THROW])}"
        ev = int(row[P.L_EVENT])
        total = int(row[P.L_TOTAL])
        score = int(row[P.L_SCORE])
        if ev == P.EV_BUST:
            lost = scores[seat] - score
            lines.append(f"{throw} → bust" + (f", {lost} points off" if lost else ", the turn is lost"))
        else:
            o = int(row[P.L_OPTION])
            aside = f"sets aside {_faces(tb.opt[o, OPT_SEL])} ({int(tb.opt[o, OPT_PTS])})"
            after = f"turn total {total}" + LOCK_NOTE[int(row[P.L_LOCK])]
            if ev == P.EV_ON:
                lines.append(f"{throw} → {aside} → {after}")
            elif ev == P.EV_OVERSHOOT:
                lines.append(f"{throw} → {aside} → banks {total}: past the target, score {score}")
            else:
                won = " · WINS" if ev == P.EV_WIN else ""
                lines.append(f"{throw} → {aside} → banks {total} → score {score}{won}")
        scores[seat] = score
    if truncated:
        lines.append(f"(log truncated after {len(log)} throws)")
    result = f"seat {winner + 1} ({seats[winner]}) wins" if winner >= 0 else "no winner (turn limit)"
    lines.append(f"After {turns} turns: {result} · scores " + ", ".join(str(int(stat[s, P.S_SCORE])) for s in range(k)))
    return "\n".join(lines)
