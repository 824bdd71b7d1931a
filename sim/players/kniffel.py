"""Kniffel's decision log: written by the simulator (the replay kernel's own events), read back with every row
checked, and turned into the exact value of every alternative of every decision (the fit's and regret's input).

A decision is a hold (which dice to keep before a reroll) or a box (where to score the final dice). Its state is the
sheet before it (13 box columns, ``-1`` for an open box), the five dice and the rolls left. The recorder plays each
run with ``Kniffel.replay_log``: the same ``play_turn`` calls as the batch, so a logged run is that run of
``dicesim play`` with the same seed, decision for decision, and its score is the batch table's.

Values (``decision_values``) are those the skill model chooses by (``policies.kniffel.skill``): a hold's is the
expected final score of the kept multiset (the turn's widget, ``replay.keep_values``), a box's its points, bonuses
and the solved value of the next state (``kniffel_values.box_values``). Each hold decision has the 32 holds of its
dice as alternatives (a die kept or not, as the lapse draws them), each box decision its open legal boxes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from policies.kniffel.skill import UNIT
from sim.core.dice import multisets
from sim.core.limits import kernel_seed
from sim.core.skill import run_levels
from sim.games.kniffel import rules as R
from sim.games.kniffel.config import KniffelConfig, freeze
from sim.games.kniffel.game import GAME
from sim.games.kniffel.play import EV_KEEP, EV_SCORE
from sim.games.kniffel.replay import keep_values
from sim.games.kniffel.solve import tables
from sim.players.fit import Decisions, losses
from sim.players.kniffel_columns import BOXES, DECISION_COLUMNS, OUTCOME_COLUMNS
from sim.players.kniffel_values import box_values
from sim.players.logs import LogError, columns, outcome_columns, refuse, shown

T5 = multisets(5)
POLICY = "optimal"  # the policy whose values the fit reads (the level applies to it)
NONE_KEPT = "-"
POW7 = 7 ** np.arange(6)


def player_id(p: int) -> str:
    return f"p{p:04d}"


def record(cfg: KniffelConfig, policy: str, n: int, seed: int, options: dict[str, Any]) -> tuple[pd.DataFrame,
                                                                                                 pd.DataFrame]:
    """Play runs 0..n-1 as ``dicesim play`` does and log the first seat's decisions: (decisions, outcomes).

    Run ``i`` is game ``i % G`` of player ``i // G`` (``G``: ``skill.games_per_player``); under a mixture each
    player plays at its group's level (``Kniffel.replay_log``)."""
    opts = GAME.check_options(options)
    seats = GAME.seat_policies(policy, opts)
    G = cfg.skill.games_per_player
    levels = run_levels(cfg.skill, np.arange(n))
    rolls = int(cfg.turn.rolls)
    rows: list[tuple] = []
    outs: list[dict[str, Any]] = []
    kseed = kernel_seed(seed)
    for run in range(n):
        log = GAME.replay_log(cfg, seats, kseed, run, opts)
        pid, game = player_id(run // G), run % G
        sheet = [-1] * R.N_CAT
        holds = 0
        for ev in log.sections[0].rows:
            kind, turn, level = int(ev[0]), int(ev[1]), int(ev[2])
            dice = [int(x) for x in ev[3:8]]
            if kind == EV_KEEP:
                hm = int(ev[8])
                kept = "".join(str(d) for d in sorted(dice[i] for i in range(5) if (hm >> i) & 1)) or NONE_KEPT
                rows.append((pid, game, turn + 1, "hold", rolls - 1 - level, *dice, *sheet, kept))
                holds += 1
            elif kind == EV_SCORE:
                c = int(ev[8])
                rows.append((pid, game, turn + 1, "box", rolls - 1 - holds, *dice, *sheet, R.CATEGORIES[c]))
                sheet[c] = int(ev[9])
                holds = 0
        out: dict[str, Any] = {"player": pid, "game": game, "run": run, "score": log.table_rows[0]["score"]}
        if len(seats) > 1:
            scores = [r["score"] for r in log.table_rows]
            out["won"] = int(scores[0] == max(scores) and scores.count(max(scores)) == 1)
        out["level"] = float(levels[run])
        outs.append(out)
    names = [c.name for c in DECISION_COLUMNS]
    dec = pd.DataFrame(rows, columns=names)
    for c in DECISION_COLUMNS:
        if c.kind == "int":
            dec[c.name] = dec[c.name].astype(np.int16 if c.name.startswith("s_") else np.int8)
    dec["game"] = dec["game"].astype(np.int64)
    return dec, pd.DataFrame(outs)


@lru_cache(maxsize=1)
def _holds_of_rolls() -> np.ndarray:
    """``SUB[r, m]``: the multiset index kept by hold ``m`` (bit i: the i-th smallest die) of full roll ``r``."""
    sub = np.full((len(T5.counts), 32), -1, np.int64)
    for r in T5.rolls:
        dice = np.repeat(np.arange(6), T5.counts[r])
        for m in range(32):
            kept = np.bincount(dice[[i for i in range(5) if (m >> i) & 1]], minlength=6)
            sub[r, m] = T5.index_of_code[int(kept @ POW7)]
    return sub


def _allowed(rp: np.record) -> list[set[int]]:
    """The points each box can hold under these rules (jokers included), -1 for open."""
    out = [{-1, *range(0, 5 * (c + 1) + 1, c + 1)} for c in range(6)]
    sums = {-1, 0, *range(5, 31)}
    out += [sums, sums, {-1, 0, int(rp.scores_full_house)}, {-1, 0, int(rp.scores_kleine_strasse)},
            {-1, 0, int(rp.scores_grosse_strasse)}, {-1, 0, int(rp.scores_kniffel)}, {-1, *range(5, 31)}]
    return out


def best_score(rp: np.record) -> int:
    """The highest final score these rules allow: every box at its most, the upper bonus, and a Kniffel bonus for
    each of the other twelve turns (a Kniffel every turn)."""
    return sum(max(a) for a in _allowed(rp)) + int(rp.bonus_value) + (R.N_CAT - 1) * int(rp.scores_kniffel_bonus)


def least_score(rp: np.record) -> int:
    """The lowest final score these rules allow: every box at its least (the Chance holds five dice at least)."""
    return sum(min(a - {-1}) for a in _allowed(rp))


def sheet_totals(col: dict[str, np.ndarray], sheet: np.ndarray, up: np.ndarray, hold: np.ndarray,
                 counts: np.ndarray, chosen_box: np.ndarray, bvals: np.ndarray,
                 rp: np.record) -> dict[tuple[Any, int], tuple[int, int]]:
    """(player, game) -> the lowest and highest final score its logged sheets give, for each game whose last box is
    logged: the boxes of the last sheet, the last box's points with the bonuses it earns (its value: nothing follows
    it), the upper bonus earned before, and a Kniffel bonus for each logged box scored with a Kniffel while the
    Kniffel box held its points; a turn whose box row is missing may have earned one more (the highest)."""
    box = ~hold
    turn = col["turn"]
    bonus = int(rp.scores_kniffel_bonus)
    earned = box & (counts.max(axis=1) == 5) & (sheet[:, R.KNIFFEL] == int(rp.scores_kniffel)) & (bonus > 0)
    games = list(zip(col["player"].tolist(), col["game"].tolist(), strict=True))
    kb: dict[tuple[Any, int], int] = {}
    turns: dict[tuple[Any, int], set[int]] = {}
    for d in np.flatnonzero(box & (turn < R.N_CAT)):
        kb[games[d]] = kb.get(games[d], 0) + bonus * int(earned[d])
        turns.setdefault(games[d], set()).add(int(turn[d]))
    out = {}
    for d in np.flatnonzero(box & (turn == R.N_CAT)):
        ub = int(rp.bonus_value) if up[d] >= int(rp.bonus_threshold) and int(rp.bonus_value) > 0 else 0
        low = int(np.where(sheet[d] >= 0, sheet[d], 0).sum()) + round(float(bvals[d, chosen_box[d]])) + ub + \
            kb.get(games[d], 0)
        out[games[d]] = (low, low + bonus * (R.N_CAT - 1 - len(turns.get(games[d], ()))))
    return out


def _check_scores(oc: dict[str, np.ndarray], totals: dict[tuple[Any, int], tuple[int, int]], rp: np.record,
                  where: str) -> None:
    """Each outcome's score within these rules' least and best, and within what its game's logged sheets total."""
    low, top = least_score(rp), best_score(rp)
    score = oc["score"]
    if len(over := np.flatnonzero(score > top)):
        raise refuse(where, over[0], f"score {score[over[0]]} is more than these rules allow ({top}: every box at its "
                     f"best, the upper bonus and {R.N_CAT - 1} Kniffel bonuses)")
    if len(under := np.flatnonzero(score < low)):
        raise refuse(where, under[0], f"score {score[under[0]]} is less than these rules allow ({low}: every box at "
                     "its least, the Chance five dice)")
    for i, key in enumerate(zip(oc["player"].tolist(), oc["game"].tolist(), strict=True)):
        lo, hi = totals.get(key, (score[i], score[i]))
        if not lo <= score[i] <= hi:
            raise refuse(where, i, f"score {score[i]}, but the logged sheets of player {shown(key[0])} game {key[1]} "
                         f"total {lo if lo == hi else f'{lo}..{hi}'} (boxes and bonuses)")


def _check_sheets(col: dict[str, np.ndarray], rp: Any, where: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sheet, filled, hold) of the logged rows, refused at the first row whose sheet, turn, kind or rolls left no
    game under these rules can reach."""
    n_rolls = int(rp.turn_rolls)
    sheet = np.stack([col[b] for b in BOXES], axis=1)
    for c, ok in enumerate(_allowed(rp)):
        bad = np.flatnonzero(~np.isin(sheet[:, c], sorted(ok)))
        if len(bad):
            raise refuse(where, bad[0], f"{BOXES[c]} = {sheet[bad[0], c]} is not a score {R.CATEGORY_LABELS[c]} "
                         f"can hold under these rules")
    filled = sheet >= 0
    bad = np.flatnonzero(col["turn"] != filled.sum(axis=1) + 1)
    if len(bad):
        raise refuse(where, bad[0], f"turn {col['turn'][bad[0]]} with {filled[bad[0]].sum()} boxes filled "
                     f"(the turn is the filled boxes + 1)")
    kind = col["kind"]
    bad = np.flatnonzero(~np.isin(kind, ["hold", "box"]))
    if len(bad):
        raise refuse(where, bad[0], f"kind {shown(kind[bad[0]])} is neither hold nor box")
    hold = kind == "hold"
    bad = np.flatnonzero(col["rolls_left"] > n_rolls - 1)
    if len(bad):
        raise refuse(where, bad[0], f"rolls_left {col['rolls_left'][bad[0]]}: a turn has {n_rolls} rolls")
    bad = np.flatnonzero(hold & (col["rolls_left"] < 1))
    if len(bad):
        raise refuse(where, bad[0], "a hold with no reroll left (the last roll is scored: kind box)")
    return sheet, filled, hold


def _choices(col: dict[str, np.ndarray], hold: np.ndarray, filled: np.ndarray, dice: np.ndarray, counts: np.ndarray,
             bvalid: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
    """(chosen box, kept dice's index) of each logged decision, refused at the first choice not legal in its state:
    kept faces not among the dice, a box that is filled or that the dice (the joker rule) do not allow."""
    D = len(hold)
    choice = col["choice"]
    box_of = {n: c for c, n in enumerate(R.CATEGORIES)}
    chosen_box = np.full(D, -1, np.int64)
    kept = np.full(D, -1, np.int64)
    for d in range(D):
        ch = choice[d]
        if hold[d]:
            faces = [] if ch == NONE_KEPT else list(ch)
            if not all(f in "123456" for f in faces):
                raise refuse(where, d, f"hold {shown(ch)}: the kept faces are digits 1..6 ({NONE_KEPT} keeps none)")
            kc = np.bincount(np.array([int(f) - 1 for f in faces], np.int64), minlength=6)
            if (kc > counts[d]).any():
                raise refuse(where, d, f"hold {shown(ch)} keeps dice that are not among {' '.join(map(str, dice[d]))}")
            kept[d] = T5.index_of_code[int(kc @ POW7)]
        else:
            if ch not in box_of:
                raise refuse(where, d, f"box {shown(ch)} is not a box ({', '.join(R.CATEGORIES)})")
            c = box_of[ch]
            if filled[d, c]:
                raise refuse(where, d, f"box {ch} is already filled")
            if not bvalid[d, c]:
                raise refuse(where, d, f"box {ch} is not legal for the dice {' '.join(map(str, dice[d]))} "
                             "(the joker rule names the box)")
            chosen_box[d] = c
    return chosen_box, kept


def load(cfg: KniffelConfig, dec_df: pd.DataFrame, out_df: pd.DataFrame | None, where: str,
         out_where: str = "outcomes") -> Decisions:
    """Check every row of a Kniffel log and value every alternative of every decision (``Decisions``).

    Refused with the first bad row: a missing column or empty cell, a sheet value no box can hold, a turn that is
    not the filled boxes + 1, a hold with no reroll left or while the joker ends the turn, kept faces not among the
    dice, a box that is filled or not legal for the dice, a decision logged twice; in the outcomes, a player with no
    decisions or a game logged twice. A box scored with rolls left (the player stopped rolling) counts, as the model
    plays it, as holding all five dice for each roll passed (``implied`` decisions)."""
    col = columns(dec_df, DECISION_COLUMNS, where)
    rp = freeze(cfg)
    T, sc, kn = tables(rp)
    E = GAME.table_for(cfg)
    n_rolls = int(rp.turn_rolls)
    D = len(dec_df)
    sheet, filled, hold = _check_sheets(col, rp, where)
    mask = (filled * (1 << np.arange(R.N_CAT))).sum(axis=1)
    up = np.minimum(int(rp.up_cap), np.where(filled[:, :6], sheet[:, :6], 0).sum(axis=1))
    flag = (sheet[:, R.KNIFFEL] == int(rp.scores_kniffel)).astype(np.int64)
    keys = (mask << 8) | (up << 1) | flag
    dice = np.stack([col[f"d{i}"] for i in range(1, 6)], axis=1)
    counts = np.stack([(dice == f + 1).sum(axis=1) for f in range(6)], axis=1).astype(np.int64)
    roll = T5.index_of_code[counts @ POW7].astype(np.int64)
    bvals = np.zeros((D, R.N_CAT))
    bvalid = np.zeros((D, R.N_CAT), np.bool_)
    stop = np.zeros(D, np.bool_)
    box_values(keys, counts, roll, E, rp, sc, bvals, bvalid, stop)
    bad = np.flatnonzero(hold & stop)
    if len(bad):
        raise refuse(where, bad[0], "a hold while the joker ends the turn (the Kniffel must be scored now)")
    chosen_box, kept = _choices(col, hold, filled, dice, counts, bvalid, where)
    # decisions: the logged ones, then the holds implied by a box scored with rolls left (not a joker's stop)
    early = np.flatnonzero(~hold & (col["rolls_left"] > 0) & ~stop)
    imp_src = np.repeat(early, col["rolls_left"][early])
    imp_level = np.concatenate([np.arange(n_rolls - 1 - col["rolls_left"][d], n_rolls - 1) for d in early]
                               ).astype(np.int64) if len(early) else np.zeros(0, np.int64)
    src = np.concatenate([np.arange(D), imp_src])
    is_hold = np.concatenate([hold, np.ones(len(imp_src), bool)])
    level = np.concatenate([n_rolls - 1 - col["rolls_left"], imp_level])
    kept = np.concatenate([kept, roll[imp_src]])
    n = len(src)
    vals = np.zeros((n, 32))
    valid = np.zeros((n, 32), np.bool_)
    chosen = np.zeros((n, 32), np.bool_)
    nb = ~is_hold
    vals[nb, : R.N_CAT] = bvals[src[nb]]
    valid[nb, : R.N_CAT] = bvalid[src[nb]]
    chosen[np.flatnonzero(nb), chosen_box[src[nb]]] = True
    sub = _holds_of_rolls()
    hidx = np.flatnonzero(is_hold)
    hkeys = keys[src[hidx]]
    order = np.argsort(hkeys, kind="stable")
    bounds = np.flatnonzero(np.diff(hkeys[order])) + 1
    for part in np.split(order, bounds):
        if not len(part):
            continue
        kv = keep_values(int(hkeys[part[0]]), E, rp, T, sc, kn)
        ds = hidx[part]
        subs = sub[roll[src[ds]]]  # [decision, hold]
        vals[ds] = kv[level[ds][:, None], subs]
        valid[ds] = True
        chosen[ds] = subs == kept[ds][:, None]
    # every row is a possible decision (checked above); a turn's decision with so many rolls left comes once
    once = pd.MultiIndex.from_arrays([col[k] for k in ("player", "game", "turn", "rolls_left")])
    dup = np.flatnonzero(once.duplicated())
    if len(dup):
        d = dup[0]
        first = int(np.flatnonzero(once == once[d])[0])
        raise refuse(where, d, f"player {shown(col['player'][d])} game {col['game'][d]} turn {col['turn'][d]} with "
                               f"{col['rolls_left'][d]} rolls left is logged twice (first at row {first + 1})")
    delta = losses(vals, valid)
    players = col["player"]
    ids, pidx = np.unique(players, return_inverse=True)
    pairs = pd.MultiIndex.from_arrays([players, col["game"]])
    game_idx = pd.factorize(pairs)[0]
    # one text object per kind and box, shared by the decisions (not a string per decision)
    kinds = np.array(["box", *(f"hold after roll {lv + 1}" for lv in range(n_rolls - 1))], dtype=object)[
        np.where(is_hold, level + 1, 0)]
    detail = np.array(["", *R.CATEGORIES], dtype=object)[np.where(is_hold, 0, chosen_box[src] + 1)]
    outcomes = None
    if out_df is not None:
        oc = outcome_columns(out_df, OUTCOME_COLUMNS, out_where, players, col["game"], where)
        _check_scores(oc, sheet_totals(col, sheet, up, hold, counts, chosen_box, bvals, rp), rp, out_where)
        outcomes = pd.DataFrame({k: v for k, v in oc.items()})
    return Decisions(game="kniffel", unit=UNIT, ids=ids, player=pidx[src], sheet=game_idx[src],
                     n_games=int(game_idx.max()) + 1, delta=delta, valid=valid, chosen=chosen, row=src,
                     implied=np.arange(n) >= D, kind=kinds, turn=col["turn"][src], detail=detail,
                     start_value=float(E[0]), outcomes=outcomes)


__all__ = ["DECISION_COLUMNS", "GAME", "OUTCOME_COLUMNS", "LogError", "load", "record"]
