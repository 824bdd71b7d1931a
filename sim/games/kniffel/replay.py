"""Render one Kniffel sheet's event log turn by turn: rolls, holds and why, the box, the sheet."""

from __future__ import annotations

import numpy as np

from sim.dice import dice_of, multisets
from sim.games.kniffel import rules as R

T5 = multisets(5)


def _dice(row: np.ndarray) -> str:
    return " ".join(str(int(d)) for d in row[3:8])


def _held(row: np.ndarray) -> str:
    hm = int(row[8])
    return " ".join(str(int(row[3 + i])) if (hm >> i) & 1 else "·" for i in range(5))


def _why(policy_id: int, key: int, row: np.ndarray, kv, rp, sc) -> str:
    from policies.kniffel import GREEDY, OPTIMAL, best_box

    dice = row[3:8]
    counts = np.bincount(dice - 1, minlength=6).astype(np.int64)
    if policy_id == OPTIMAL and kv is not None:
        level = int(row[2])
        hm = int(row[8])
        kept = [int(dice[i]) for i in range(5) if (hm >> i) & 1]
        k = int(
            T5.index_of_code[int(np.bincount(np.array(kept, dtype=np.int64) - 1, minlength=6) @ (7 ** np.arange(6)))]
        )
        return f"expected {kv[level, k]:.2f} more points this game (rerolling all: {kv[level, 0]:.2f})"
    if policy_id == GREEDY:
        c = best_box(counts, int(T5.index_of_code[int(counts @ (7 ** np.arange(6)))]), key, rp, sc)
        return f"towards {R.CATEGORY_LABELS[c]}, the best box now" if c >= 0 else "keeps all"
    return "random hold"


def render(log: np.ndarray, policy: str, seat: int, seats: int, pid: int, E, rp, T, sc, kn) -> str:
    """Human-readable turn-by-turn account of one sheet."""
    from policies.kniffel import OPTIMAL
    from sim.games.kniffel.game import keep_values

    lines = [f"Kniffel · seat {seat + 1} of {seats} · policy {policy}"]
    key = 0
    total = 0
    sheet: dict[int, int] = {}
    kv = None
    for row in log:
        kind, turn = int(row[0]), int(row[1])
        if kind == 0 and int(row[2]) == 0:
            mask = R.key_mask(key)
            open_boxes = [R.CATEGORY_LABELS[c] for c in range(R.N_CAT) if not (mask >> c) & 1]
            head = f"Turn {turn + 1:2d} · upper {R.key_up(key)}/{int(rp[R.RP_BONUS_THRESHOLD])}"
            if pid == OPTIMAL:
                head += f" · optimal expects {E[key]:.2f} more"
                kv = keep_values(key, E, rp, T, sc, kn)
            lines.append(head + " · open: " + ", ".join(open_boxes))
        if kind == 0:
            lines.append(f"  roll {int(row[2]) + 1}: {_dice(row)}")
        elif kind == 1:
            lines.append(f"  hold:   {_held(row)}   ({_why(pid, key, row, kv, rp, sc)})")
        else:
            c, pts, ub, kb = (int(x) for x in row[8:12])
            counts = np.bincount(row[3:8] - 1, minlength=6).astype(np.int64)
            _, _, _, key = R.apply_move(counts, c, key, rp)
            total += pts + ub + kb
            sheet[c] = pts
            extra = "".join([f" +{ub} upper bonus" if ub else "", f" +{kb} Kniffel bonus" if kb else ""])
            lines.append(f"  score:  {R.CATEGORY_LABELS[c]} = {pts}{extra}   → total {total}")
            lines.append("  sheet:  " + "  ".join(f"{R.CATEGORY_LABELS[b]} {sheet[b]}" for b in sorted(sheet)))
    lines.append(f"Final score: {total}")
    return "\n".join(lines)


__all__ = ["render", "dice_of"]
