"""Kniffel's event log (declared once) and its text: rolls, holds and why, the box, the sheet, turn by turn."""

from __future__ import annotations

import numpy as np

from sim.core.dice import dice_of, multisets
from sim.core.events import EventKind, EventLog
from sim.games.kniffel import rules as R
from sim.games.kniffel.play import EV_KEEP, EV_ROLL, EV_SCORE

T5 = multisets(5)

# log rows of ``play.play_turn``: [kind, turn, level, d0..d4, a, b, c, d]
EVENTS = EventLog((
    EventKind(EV_ROLL, "roll", ("turn", "level", "dice:5", "roll", "_", "_", "_")),
    EventKind(EV_KEEP, "hold", ("turn", "level", "dice:5", "held_mask", "held", "_", "_")),
    EventKind(EV_SCORE, "score", ("turn", "level", "dice:5", "box", "points", "upper_bonus", "kniffel_bonus")),
))


def _dice(ev: dict) -> str:
    return " ".join(str(int(d)) for d in ev["dice"])


def _held(ev: dict) -> str:
    hm = ev["held_mask"]
    return " ".join(str(ev["dice"][i]) if (hm >> i) & 1 else "·" for i in range(5))


def _why(policy_id: int, key: int, ev: dict, kv, rp, sc) -> str:
    from policies.kniffel.bots import GREEDY, OPTIMAL, best_box

    dice = np.array(ev["dice"], dtype=np.int64)
    counts = np.bincount(dice - 1, minlength=6).astype(np.int64)
    if policy_id == OPTIMAL and kv is not None:
        level = ev["level"]
        hm = ev["held_mask"]
        kept = [int(dice[i]) for i in range(5) if (hm >> i) & 1]
        k = int(
            T5.index_of_code[int(np.bincount(np.array(kept, dtype=np.int64) - 1, minlength=6) @ (7 ** np.arange(6)))]
        )
        return f"expected {kv[level, k]:.2f} more points this game (rerolling all: {kv[level, 0]:.2f})"
    if policy_id == GREEDY:
        c = best_box(counts, int(T5.index_of_code[int(counts @ (7 ** np.arange(6)))]), key, rp, sc)
        return f"towards {R.CATEGORY_LABELS[c]}, the best box now" if c >= 0 else "keeps all"
    return "random hold"


def render(events: list[dict], policy: str, seat: int, seats: int, pid: int, E, rp, T, sc, kn) -> str:
    """Human-readable turn-by-turn account of one sheet from its decoded events."""
    from policies.kniffel.bots import OPTIMAL
    from sim.games.kniffel.game import keep_values

    lines = [f"Kniffel · seat {seat + 1} of {seats} · policy {policy}"]
    key = 0
    total = 0
    sheet: dict[int, int] = {}
    kv = None
    for ev in events:
        kind, turn = ev["event"], ev["turn"]
        if kind == "roll" and ev["level"] == 0:
            mask = R.key_mask(key)
            open_boxes = [R.CATEGORY_LABELS[c] for c in range(R.N_CAT) if not (mask >> c) & 1]
            head = f"Turn {turn + 1:2d} · upper {R.key_up(key)}/{int(rp[R.RP_BONUS_THRESHOLD])}"
            if pid == OPTIMAL:
                head += f" · optimal expects {E[key]:.2f} more"
                kv = keep_values(key, E, rp, T, sc, kn)
            lines.append(head + " · open: " + ", ".join(open_boxes))
        if kind == "roll":
            lines.append(f"  roll {ev['level'] + 1}: {_dice(ev)}")
        elif kind == "hold":
            lines.append(f"  hold:   {_held(ev)}   ({_why(pid, key, ev, kv, rp, sc)})")
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


__all__ = ["EVENTS", "render", "dice_of"]
