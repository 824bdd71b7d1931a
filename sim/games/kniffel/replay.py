"""Kniffel's event log (declared once) and its text: rolls, holds and why, the box, the sheet, turn by turn."""

from __future__ import annotations

import numpy as np

from policies.kniffel.bots import GREEDY, OPTIMAL, best_box
from sim.core.dice import dice_of, multisets
from sim.core.events import EventKind, EventLog
from sim.games.kniffel import rules as R
from sim.games.kniffel.play import EV_KEEP, EV_ROLL, EV_SCORE
from sim.games.kniffel.solve import new_scratch, widget
from sim.report.words import policy_name

T5 = multisets(5)

# log rows of ``play.play_turn``: [kind, turn, level, d0..d4, a, b, c, d]
EVENTS = EventLog((
    EventKind(EV_ROLL, "roll", ("turn", "level", "dice:5", "roll", "_", "_", "_")),
    EventKind(EV_KEEP, "hold", ("turn", "level", "dice:5", "held_mask", "held", "_", "_")),
    EventKind(EV_SCORE, "score", ("turn", "level", "dice:5", "box", "points", "upper_bonus", "kniffel_bonus")),
))


def keep_values(key: int, E: np.ndarray, rp: np.record, T, sc, kn) -> np.ndarray:
    """Expected final points from here for every keep, per reroll (rows), for replay's "why"."""
    levels = max(1, int(rp.turn_rolls) - 1)
    kv = np.zeros((levels, len(T5.counts)))
    nr = len(T5.rolls)
    widget(key, E, T, rp, sc, kn, new_scratch(), np.empty((levels, nr), np.int16), np.empty(nr, np.int8), True, kv)
    return kv


def _dice(ev: dict) -> str:
    return " ".join(str(int(d)) for d in ev["dice"])


def _held(ev: dict) -> str:
    hm = ev["held_mask"]
    return " ".join(str(ev["dice"][i]) if (hm >> i) & 1 else "·" for i in range(5))


def _why(policy_id: int, key: int, ev: dict, kv, rp, sc) -> str:
    dice = np.array(ev["dice"], dtype=np.int64)
    counts = np.bincount(dice - 1, minlength=6).astype(np.int64)
    if policy_id == OPTIMAL and kv is not None:
        level = ev["level"]
        hm = ev["held_mask"]
        kept = [int(dice[i]) for i in range(5) if (hm >> i) & 1]
        k = int(
            T5.index_of_code[int(np.bincount(np.array(kept, dtype=np.int64) - 1, minlength=6) @ (7 ** np.arange(6)))]
        )
        return f"expects {kv[level, k]:.2f} more points this game; rerolling all {kv[level, 0]:.2f}"
    if policy_id == GREEDY:
        c = best_box(counts, int(T5.index_of_code[int(counts @ (7 ** np.arange(6)))]), key, rp, sc)
        return f"towards {R.CATEGORY_LABELS[c]}, the best box now" if c >= 0 else "keeps all"
    return "random hold"


def _all_held(ev: dict) -> bool:
    return ev["event"] == "hold" and ev["held"] == 5


def render(events: list[dict], policy: str, seat: int, seats: int, pid: int, E, rp, T, sc, kn) -> str:
    """Human-readable turn-by-turn account of one sheet from its decoded events.

    A hold of all five dice rolls nothing (the kernel draws no dice and logs no roll after it) but uses up that roll:
    the line says "stops rolling" when the box is scored next, or which roll it passes when the player then holds
    fewer dice (random play, a seat below full skill, or an optimal tie).
    """
    lines = [f"Kniffel · seat {seat + 1} of {seats} · {policy_name('kniffel', policy)}"]
    key = 0
    total = 0
    sheet: dict[int, int] = {}
    kv = None
    for j, ev in enumerate(events):
        kind, turn = ev["event"], ev["turn"]
        if kind == "roll" and ev["level"] == 0:
            mask = R.key_mask(key)
            open_boxes = [R.CATEGORY_LABELS[c] for c in range(R.N_CAT) if not (mask >> c) & 1]
            head = f"Turn {turn + 1:2d} · upper {R.key_up(key)}/{int(rp.bonus_threshold)}"
            if pid == OPTIMAL:
                head += f" · optimal play expects {E[key]:.2f} more points"
                kv = keep_values(key, E, rp, T, sc, kn)
            lines.append(head + " · open: " + ", ".join(open_boxes))
        if kind == "roll":
            lines.append(f"  roll {ev['level'] + 1}: {_dice(ev)}")
        elif kind == "hold":
            if _all_held(ev) and _all_held(events[j - 1]):
                continue  # the same dice held again: still no roll
            note = ""
            if _all_held(ev):
                k = j
                while _all_held(events[k]):  # this hold and the same one repeated: each passes a roll
                    k += 1
                passed = " and ".join(f"roll {e['level'] + 2}" for e in events[j:k])
                note = "keeps all five, stops rolling   " if events[k]["event"] == "score" else \
                    f"keeps all five, passes {passed}   "
            lines.append(f"  hold:   {_held(ev)}   {note}({_why(pid, key, ev, kv, rp, sc)})")
        else:
            c, pts, ub, kb = ev["box"], ev["points"], ev["upper_bonus"], ev["kniffel_bonus"]
            counts = np.bincount(np.array(ev["dice"], dtype=np.int64) - 1, minlength=6).astype(np.int64)
            _, _, _, key = R.apply_move(counts, c, key, rp)
            total += pts + ub + kb
            sheet[c] = pts
            extra = "".join([f" +{ub} upper bonus" if ub else "", f" +{kb} Kniffel bonus" if kb else ""])
            lines.append(f"  score:  {R.CATEGORY_LABELS[c]} = {pts}{extra}   → total {total}")
            lines.append("  sheet:  " + "  ".join(f"{R.CATEGORY_LABELS[b]} {sheet[b]}" for b in sorted(sheet)))
    lines.append(f"Final score: {total}")
    return "\n".join(lines)


def result(scores: list[int], policies: list[str]) -> dict:
    """Who won a game of several seats, as the per-run table counts it (``win``: the top score alone, ``tie``: a
    shared top score): ``winner_seat`` (0 plays first; None on a tie), ``tied_seats``, ``scores`` and the sentence."""
    top = max(scores)
    tops = [s for s, x in enumerate(scores) if x == top]
    name = [f"seat {s + 1} ({policy_name('kniffel', p)})" for s, p in enumerate(policies)]
    rest = sorted((s for s in range(len(scores)) if scores[s] < top), key=lambda s: -scores[s])
    if len(tops) == 1:
        w = tops[0]
        text = (f"{name[w][0].upper()}{name[w][1:]} wins " + " : ".join(str(scores[s]) for s in [w, *rest])
                + " against " + ", ".join(name[s] for s in rest))
    else:
        text = (f"Tie: {', '.join(name[s] for s in tops[:-1])} and {name[tops[-1]]} share the top score {top}"
                + "".join(f"; {name[s]} {scores[s]}" for s in rest))
    return {"scores": scores, "winner_seat": tops[0] if len(tops) == 1 else None,
            "tied_seats": tops if len(tops) > 1 else [], "result": text}


__all__ = ["EVENTS", "render", "result", "dice_of"]
