"""Dadox's decision log: one row per throw that scored, with the state before it and what the player did (the dice
set aside, then bank or throw on), written from the replay kernel's own throw log, read back with every row checked.

The values are those ``optimal-turn`` below full skill chooses by (``policies.dadox.skill``): each set-aside option
by the solved turn value of the state it leads to, then bank or throw on by the value of each; the end of the game
as the policy plays it (``endgame_limit``: forced moves, options within its points limit). A lapse is ``random``'s
move: a uniform option, banked with ``policies.random_bank`` where allowed. Regret is in turn points (the turn
solver's values: the end game's exact-target play aside), summed by bank vs throw, turn total and dice left.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from policies.dadox.skill import UNIT
from sim.core.dice import multisets
from sim.core.limits import kernel_seed
from sim.core.skill import run_levels
from sim.games.dadox import play as P
from sim.games.dadox import rules as R
from sim.games.dadox.config import DadoxConfig, freeze
from sim.games.dadox.game import GAME
from sim.games.dadox.tables import build_tables
from sim.players.dadox_columns import DECISION_COLUMNS, OUTCOME_COLUMNS
from sim.players.dadox_values import Logged, Valued, option_values
from sim.players.fit import Decisions, losses
from sim.players.logs import LogError, columns, outcome_columns, refuse, shown

T6 = multisets(6)
POW7 = 7 ** np.arange(6)
POLICY = "optimal-turn"  # the policy whose values the fit reads (the level applies to it)
TOTAL_BINS = (0, 300, 600, 1000, 2000, 10**9)

__all__ = ["DECISION_COLUMNS", "GAME", "OUTCOME_COLUMNS", "LogError", "load", "record"]


def _faces(counts: np.ndarray) -> str:
    return "".join(str(f + 1) * int(c) for f, c in enumerate(counts))


def record(cfg: DadoxConfig, policy: str, n: int, seed: int, options: dict[str, Any]) -> tuple[pd.DataFrame,
                                                                                               pd.DataFrame]:
    """Play runs 0..n-1 as ``dicesim play`` does and log the player's decisions (the first listed policy's seat):
    (decisions, outcomes). Run ``i`` is game ``i % G`` of player ``i // G``."""
    opts = GAME.check_options(options)
    seats = GAME.seat_policies(policy, opts)
    k = len(seats)
    rotate = len(set(seats)) > 1
    tb = build_tables(freeze(cfg))
    G = cfg.skill.games_per_player
    open0 = int(cfg.turn.opening_minimum) == 0
    levels = run_levels(cfg.skill, np.arange(n))
    rows: list[tuple] = []
    outs: list[dict[str, Any]] = []
    kseed = kernel_seed(seed)
    for run in range(n):
        log = GAME.replay_log(cfg, seats, kseed, run, opts)
        me_seat = (-(run % k)) % k if rotate else 0
        pid, game = f"p{run // G:04d}", run % G
        score, opened, turn_no, last_turn, t, throw = 0, open0, 0, -1, 0, 0
        for ev in log.sections[0].rows:
            if int(ev[P.L_SEAT]) != me_seat:
                continue
            if int(ev[P.L_TURN]) != last_turn:
                last_turn, turn_no, t, throw = int(ev[P.L_TURN]), turn_no + 1, 0, 0
                start = score
            throw += 1
            event = int(ev[P.L_EVENT])
            if event != P.EV_BUST:
                o = int(ev[P.L_OPTION])
                banked = event in (P.EV_BANK, P.EV_OVERSHOOT, P.EV_WIN)
                rows.append((pid, game, turn_no, throw, start, int(opened), t, _faces(T6.counts[int(ev[P.L_THROW])]),
                             _faces(T6.counts[tb.opt[o, 3]]), int(banked)))
                if event in (P.EV_BANK, P.EV_WIN):
                    opened = True
            t = int(ev[P.L_TOTAL])
            score = int(ev[P.L_SCORE])
        out: dict[str, Any] = {"player": pid, "game": game, "run": run, "score": log.table_rows[me_seat]["score"]}
        if k > 1:
            out["won"] = int(log.facts["winner"] == me_seat)
        out["level"] = float(levels[run])
        outs.append(out)
    dec = pd.DataFrame(rows, columns=[c.name for c in DECISION_COLUMNS])
    return dec, pd.DataFrame(outs)


def _counts(text: str) -> np.ndarray | None:
    if not text or any(ch not in "123456" for ch in text) or len(text) > 6:
        return None
    return np.bincount(np.array([int(ch) - 1 for ch in text], np.int64), minlength=6)


def _below_zero(rp: np.record) -> bool:
    """Whether a score can fall below 0 under these rules: a bust or an overshoot subtracts, and no floor at 0."""
    return not rp.bust_floor_zero and (rp.bust_penalty == R.PENALTY_SUBTRACT or
                                       (rp.goal_exact and rp.goal_overshoot == R.OVERSHOOT_SUBTRACT))


def _refuse_first(checks: tuple, where: str) -> None:
    """Refuse the first row of the first (rows wrong, why) check that has one."""
    for bad, why in checks:
        rows = np.flatnonzero(bad)
        if len(rows):
            raise refuse(where, rows[0], why(rows[0]))


def _off_unit(name: str, values: np.ndarray, unit: int) -> tuple:
    return values % unit != 0, lambda d: f"{name} {values[d]:,} is not a multiple of {unit} (as every score here)"


def _check_scores(col: dict[str, np.ndarray], rp: np.record, where: str) -> None:
    """Scores and turn totals the rules can give (a banked score of 50,000 under a target of 10,000 moved the fitted
    level): multiples of the smallest score, below the target (a player who reaches it has won), not below 0 where
    nothing subtracts, 0 or less before the opening minimum is met."""
    unit, target = int(rp.unit), int(rp.goal_target)
    score = col["score"]
    _refuse_first((
        _off_unit("score", score, unit),
        _off_unit("turn_total", col["turn_total"], unit),
        (score >= target, lambda d: f"score {score[d]:,} before a turn: reaching goal.target {target:,} ends the game"),
        ((score < 0) & (not _below_zero(rp)), lambda d: f"score {score[d]:,}: no score of these rules falls below 0"),
        ((col["opened"] == 0) & (score > 0), lambda d: f"score {score[d]:,} with opened 0: a banked score opens the "
                                                       "player"),
    ), where)


def _check_final_scores(score: np.ndarray, rp: np.record, where: str) -> None:
    """Final scores the rules can give: multiples of the smallest score, not past an exact target, not below 0 where
    nothing subtracts."""
    unit, target = int(rp.unit), int(rp.goal_target)
    _refuse_first((
        _off_unit("score", score, unit),
        ((score > target) & bool(rp.goal_exact), lambda d: f"score {score[d]:,} is past the exact goal.target "
                                                           f"{target:,}"),
        ((score < 0) & (not _below_zero(rp)), lambda d: f"score {score[d]:,}: no score of these rules falls below 0"),
    ), where)


def load(cfg: DadoxConfig, dec_df: pd.DataFrame, out_df: pd.DataFrame | None, where: str,
         out_where: str = "outcomes") -> Decisions:
    """Check every row of a Dadox log and value every option of every decision (``Decisions``)."""
    col = columns(dec_df, DECISION_COLUMNS, where)
    rp = freeze(cfg)
    tb = build_tables(rp)
    sol = GAME.solved(cfg, [POLICY])
    D = len(dec_df)
    ks = np.zeros(D, np.int64)
    sels = np.zeros((D, 6), np.int64)
    for d in range(D):
        th = _counts(col["dice"][d])
        if th is None:
            raise refuse(where, d, f"dice {shown(col['dice'][d])}: a throw is 1 to 6 faces 1..6")
        sa = _counts(col["set_aside"][d])
        if sa is None:
            raise refuse(where, d, f"set_aside {shown(col['set_aside'][d])}: 1 to 6 faces 1..6")
        if (sa > th).any():
            raise refuse(where, d, f"set_aside {col['set_aside'][d]} is not among the dice {col['dice'][d]}")
        ks[d] = T6.index_of_code[int(th @ POW7)]
        sels[d] = sa
        if tb.bust_plain[ks[d]] == 1:
            raise refuse(where, d, f"the throw {col['dice'][d]} busts: no decision to make")
    first = col["throw"] == 1
    bad = np.flatnonzero(first & ((T6.counts[ks].sum(axis=1) != R.N_DICE) | (col["turn_total"] != 0)))
    if len(bad):
        raise refuse(where, bad[0], "a turn's first throw is six dice at turn total 0")
    bad = np.flatnonzero(~first & (col["turn_total"] == 0))  # read as a later throw (its rules) at a first's state
    if len(bad):
        raise refuse(where, bad[0], f"throw {col['throw'][bad[0]]} at turn total 0: only a turn's first throw has "
                                    "nothing set aside")
    bad = np.flatnonzero((col["opened"] == 0) & (int(rp.turn_opening_minimum) == 0))
    if len(bad):
        raise refuse(where, bad[0], "opened 0 without an opening minimum (every player is open)")
    _check_scores(col, rp, where)
    A = int(tb.opt_n.max())
    vals = np.zeros((D, A))
    valid = np.zeros((D, A), np.bool_)
    chosen = np.zeros((D, A), np.bool_)
    lapse, gate, loss = np.zeros(D), np.ones(D), np.zeros(D)
    forced = np.full(D, -1.0)
    binary = np.full(D, np.nan)
    status = np.zeros(D, np.int64)
    option_values(Logged(ks, first, col["turn_total"], col["score"], col["opened"] == 1, sels, col["bank"] == 1), tb,
                  rp, sol, float(cfg.policies.random_bank),
                  Valued(vals, valid, chosen, lapse, gate, forced, binary, loss, status))
    bad = np.flatnonzero(status)
    if len(bad):
        d = bad[0]
        why = {1: f"the dice set aside, {col['set_aside'][d]}, do not all score",
               2: f"setting aside {col['set_aside'][d]} is not an option of the throw {col['dice'][d]}",
               3: "banked where the rules oblige a throw (a strong or declined group, hot dice, or the opening "
                  "minimum not met)"}[int(status[d])]
        raise refuse(where, d, why)
    delta = losses(vals, valid)
    players = col["player"]
    ids, pidx = np.unique(players, return_inverse=True)
    game_idx = pd.factorize(pd.MultiIndex.from_arrays([players, col["game"]]))[0]
    dice_left = T6.counts[ks].sum(axis=1)
    kinds = np.array(["throw on", "bank"], dtype=object)[col["bank"]]  # shared text objects, not one per decision
    total_bin = np.digitize(col["turn_total"], TOTAL_BINS[1:-1])
    names = np.array([f"{TOTAL_BINS[i]}+ with {n} dice" for i in range(len(TOTAL_BINS) - 1)
                      for n in range(R.N_DICE + 1)], dtype=object)
    detail = names[total_bin * (R.N_DICE + 1) + dice_left]
    outcomes = None
    if out_df is not None:
        oc = outcome_columns(out_df, OUTCOME_COLUMNS, out_where, players, col["game"], where)
        _check_final_scores(oc["score"], rp, out_where)
        outcomes = pd.DataFrame(dict(oc))
    return Decisions(game="dadox", unit=UNIT, ids=ids, player=pidx, sheet=game_idx, n_games=int(game_idx.max()) + 1,
                     delta=delta, valid=valid, chosen=chosen, row=np.arange(D), implied=np.zeros(D, bool), kind=kinds,
                     turn=col["turn"], detail=detail, start_value=float("nan"), outcomes=outcomes, lapse=lapse,
                     gate=gate, forced=forced, binary=binary, loss=loss)
