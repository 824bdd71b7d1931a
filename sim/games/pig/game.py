"""Pig in the engine: batches, metrics, charts, replay, describe and the two exact solvers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from policies.pig.bots import POLICIES, SOLVED_POLICIES, Solved, dummy_turn, dummy_win
from sim.core import stats
from sim.core.cache import load_table, save_table, table_path
from sim.core.config import DicesimError, config_hash, sections_hash
from sim.core.events import RunLog, Section
from sim.games.base import Game
from sim.games.pig import play as P
from sim.games.pig import rules as R
from sim.games.pig.columns import COLUMNS
from sim.games.pig.config import PigConfig, freeze, freeze_policies
from sim.games.pig.describe import describe, first_holds
from sim.games.pig.options import CAPABILITIES, OPTIONS, REPORT_POLICIES, TITLE, compare_plan
from sim.games.pig.replay import EVENTS, render
from sim.games.pig.solve import hold_thresholds, solve_turn, solve_win, win_hold
from sim.jit.codehash import code_version
from sim.jit.progress import compile_seconds

REPLAY_ROWS = 100_000
MAX_SWEEPS = 100_000
STAT_COLUMNS = [c.name for c in COLUMNS[5:]]  # kernel ``stat`` order
assert len(STAT_COLUMNS) == P.N_STAT


def rules_key(cfg: PigConfig) -> str:
    """Hash of what the solvers read (the dice, the goal and the solver's settings; not the bots or the turn cap)."""
    return sections_hash(cfg, ("dice", "goal", "solver"))


class Pig(Game):
    name = "pig"
    title = TITLE
    Config = PigConfig
    policies = tuple(POLICIES)
    solved_policies = SOLVED_POLICIES
    report_policies = REPORT_POLICIES
    option_specs = OPTIONS
    capabilities = CAPABILITIES
    events = EVENTS
    columns = COLUMNS
    primary_metric = "win"
    headline = {"win_rate_first_listed": "the first-listed policy wins", "win_rate_seat_0": "the first seat wins",
                "game_length_turns": "turns per game"}
    # a game's length, run by run (both seats' rows hold it): the same dice under two rule sets pair by it
    per_run = {"game_length_turns": lambda t: t["game_turns"]}
    key_chart = "hold_totals.png"
    rule_charts = ("hold_totals.png",)
    chart_notes = {"win_rate_by_seat.png": "Share of games each seat wins (95 % intervals) against the fair share.",
                   "game_length.png": "How many turns a game lasts (both seats counted).",
                   "hold_totals.png": "The turn total from which Optimal win holds at every pair of scores (grey: "
                   "it throws for the goal), and each policy's by own score."}

    def __init__(self) -> None:
        self._turn: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._win: dict[str, dict[str, Any]] = {}

    # --- setup ------------------------------------------------------------------------------

    def compare_plan(self, policies: list[str], options: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """One policy: it plays itself. Several: every pair head to head, seats alternated on shared dice."""
        for p in policies:
            self.check_policy(p)
        return compare_plan(policies, options)

    def played_as(self, cfg: PigConfig, seats: list[str]) -> tuple[list[str], str]:
        """The skill, and where the hold-20 bot holds when the rules move it (``policies.hold_at=25``: "Hold 20"
        holding at 25 said nowhere but in the config)."""
        said, note = super().played_as(cfg, seats)
        default = type(cfg.policies).model_fields["hold_at"].default
        if "hold-20" in seats and cfg.policies.hold_at != default:
            who = "" if set(seats) == {"hold-20"} else "Hold 20 "  # its own answer names it already
            said = [*said, f"{who}holding at {cfg.policies.hold_at}"]
        return said, note

    def turn_solution(self, cfg: PigConfig) -> tuple[np.ndarray, np.ndarray]:
        """(T, hold) of ``solve.solve_turn`` (in memory: it takes milliseconds)."""
        key = rules_key(cfg)
        if key not in self._turn:
            self._turn[key] = solve_turn(freeze(cfg))
        return self._turn[key]

    def win_solution(self, cfg: PigConfig, use_cache: bool = True) -> tuple[dict[str, Any], float, bool]:
        """The two-player solution (memory, then the checked table file, then solve): ``W``, ``hold``, sweeps,
        residual. Returns (solution, seconds, cached)."""
        if cfg.goal.target > cfg.solver.max_win_goal:
            raise DicesimError(f"optimal-win solves goals up to solver.max_win_goal = {cfg.solver.max_win_goal} "
                               f"(its table grows as the goal cubed), got goal.target = {cfg.goal.target}")
        key = rules_key(cfg)
        if use_cache and key in self._win:
            return self._win[key], 0.0, True
        rp = freeze(cfg)
        path = table_path(self.name, "win", key, code_version("sim.games.pig.solve"))  # rules + solver code
        stored = load_table(path) if use_cache else None
        g = cfg.goal.target
        if stored is not None and stored["W"].shape == (g, g) and stored["hold"].shape == (g, g, g):
            sol = {"W": stored["W"], "hold": stored["hold"], "sweeps": int(stored["sweeps"]),
                   "residual": float(stored["residual"]), "seconds": float(stored["seconds"])}
            self._win[key] = sol
            return sol, 0.0, True
        with compile_seconds() as compiling:
            t0 = time.perf_counter()
            W, sweeps, residual = solve_win(rp, cfg.solver.tolerance, MAX_SWEEPS)
            hold = win_hold(rp, W)
            secs = time.perf_counter() - t0 - compiling()
        if residual >= cfg.solver.tolerance:
            raise DicesimError(f"optimal-win did not converge in {MAX_SWEEPS} sweeps (residual {residual:.2g})")
        sol = {"W": W, "hold": hold, "sweeps": int(sweeps), "residual": float(residual), "seconds": secs}
        self._win[key] = sol
        save_table(path, {"W": W, "hold": hold, "sweeps": np.int64(sweeps), "residual": np.float64(residual),
                          "seconds": np.float64(secs)})
        return sol, secs, False

    def solved(self, cfg: PigConfig, policies: list[str]) -> Solved:
        """The tables the seated policies read (one-cell dummies for the others)."""
        turn = self.turn_solution(cfg)[1] if "optimal-turn" in policies else dummy_turn()
        win = self.win_solution(cfg)[0]["hold"] if "optimal-win" in policies else dummy_win()
        return Solved(turn, win)

    def prepare(self, cfg: PigConfig, policies: list[str], options: dict[str, Any]) -> None:
        self.solved(cfg, policies)

    # --- play -------------------------------------------------------------------------------

    def _kernel_args(self, cfg: PigConfig, policies: list[str]):
        if len(policies) != R.PLAYERS:
            raise DicesimError(f"Pig seats {R.PLAYERS} players, got {len(policies)} policies")
        pids = np.array([POLICIES[p] for p in policies], np.int64)
        return pids, len(set(policies)) > 1, freeze(cfg), freeze_policies(cfg), self.solved(cfg, policies)

    def play_chunk(self, cfg, policies, seed, start, count, options) -> list[Any]:
        pids, rotate, rp, pp, sol = self._kernel_args(cfg, policies)
        k = R.PLAYERS
        turns = np.zeros(count, np.int64)
        winners = np.zeros(count, np.int64)
        stat = np.zeros((count, k, P.N_STAT), np.int64)
        P.play_games(seed, start, count, pids, rotate, rp.base, pp.base, sol, turns, winners, stat)
        runs = np.arange(start, start + count)
        rot = runs % k if rotate else np.zeros(count, np.int64)
        seat = np.tile(np.arange(k), count)
        names = np.array(policies, dtype=object)
        return [np.repeat(runs, k), seat, names[(seat + np.repeat(rot, k)) % k], np.repeat(turns, k),
                np.repeat(winners, k), stat.reshape(count * k, P.N_STAT)]

    # --- results ----------------------------------------------------------------------------

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: PigConfig) -> dict[str, dict[str, Any]]:
        games = table[table["seat"] == 0]
        m: dict[str, dict[str, Any]] = {}
        for seat, part in table.groupby("seat"):
            m[f"win_rate_seat_{seat}"] = stats.rate(part["win"] == 1)
        decided = float(np.mean(games["winner"].to_numpy() >= 0))  # a draw is no seat's: the fair share of the rest
        m["first_player_advantage"] = stats.shifted(m["win_rate_seat_0"], decided / 2)
        if table["policy"].nunique() > 1:  # a mirror has no first-listed policy: its 50.0 % would say nothing
            first = table["policy"].iloc[0]  # run 0, seat 0: the first policy listed (``a`` of ``a vs b``)
            m["win_rate_first_listed"] = stats.rate(table.loc[table["policy"] == first, "win"] == 1)
            for pol, part in table.groupby("policy"):
                m[f"win_rate_{pol}"] = stats.rate(part["win"] == 1)
        m["draw_rate"] = stats.rate(games["winner"] < 0)
        m["game_length_turns"] = stats.mean(games["game_turns"])
        for q, v in stats.quantiles(games["game_turns"]).items():
            m[f"game_length_turns_{q}"] = v
        per_run = table.groupby("run")[["held", "turns", "rolls", "busts", "holds", "lost"]].sum()
        m["mean_turn_score"] = stats.ratio(per_run["held"], per_run["turns"])
        m["mean_held_turn"] = stats.ratio(per_run["held"], per_run["holds"])
        m["rolls_per_turn"] = stats.ratio(per_run["rolls"], per_run["turns"])
        m["bust_rate"] = stats.share(per_run["busts"].sum(), per_run["turns"].sum())
        m["points_lost_per_bust"] = stats.ratio(per_run["lost"], per_run["busts"])
        m["best_turn"] = stats.mean(table["best_turn"])
        return m

    def paired(self, tables: dict[str, pd.DataFrame], options: dict[str, Any],
               cfg: Any = None) -> dict[str, dict[str, Any]]:
        """Per head-to-head match: win rate of the first policy minus the second's, per shared deal."""
        out = {}
        for label, t in tables.items():
            if " vs " not in label or t["policy"].nunique() != 2:
                continue
            a, b = label.split(" vs ")
            rows_a, rows_b = t[t["policy"] == a], t[t["policy"] == b]
            k = R.PLAYERS  # a deal: the pair's games on the same dice, each policy first once
            out[f"win: {a} - {b}"] = stats.deal_difference(rows_a["win"].to_numpy(), rows_a["run"].to_numpy() // k,
                                                           rows_b["win"].to_numpy(), rows_b["run"].to_numpy() // k)
        return out

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: PigConfig
    ) -> list[Path]:
        from sim.games.pig.charts import game_length, hold_totals, win_rate_by_seat  # heavy library (matplotlib)

        paths = [win_rate_by_seat(tables, out_dir), game_length(tables, out_dir)]
        if cfg.goal.target <= cfg.solver.max_win_goal:
            paths.append(hold_totals(self.turn_solution(cfg)[1], self.win_solution(cfg)[0]["hold"],
                                     cfg.policies.hold_at, out_dir))
        return paths

    # --- single runs and rule tables --------------------------------------------------------

    def replay_log(self, cfg, policies, seed, run, options) -> RunLog:
        """One game with its roll log (the same ``play_game`` as the batch); both seats' rows of the table."""
        pids, rotate, rp, pp, sol = self._kernel_args(cfg, policies)
        turns, winner, stat, log = P.replay_game(seed, run, pids, rotate, rp, pp, sol, REPLAY_ROWS)
        k = R.PLAYERS
        rot = run % k if rotate else 0
        seats = [policies[(s + rot) % k] for s in range(k)]
        facts = {"seats": seats, "goal": int(rp.goal_target), "turns": int(turns), "winner": int(winner),
                 "scores": [int(stat[s, P.S_SCORE]) for s in range(k)]}
        rows = [{"run": run, "seat": s, "policy": seats[s], "game_turns": int(turns), "winner": int(winner),
                 **{c: int(stat[s, j]) for j, c in enumerate(STAT_COLUMNS)}} for s in range(k)]
        return RunLog([Section(log, limit=REPLAY_ROWS)], facts, rows)

    def render_replay(self, replay, cfg, options) -> str:
        return render(replay)

    def describe(self, cfg, options) -> dict[str, Any]:
        return describe(cfg, options)

    def solve(self, cfg, options) -> dict[str, Any]:
        rp = freeze(cfg)
        use_cache = not options.get("no_cache", False)
        out: dict[str, Any] = {"game": self.name, "objective": options.get("objective") or "turn"}
        if out["objective"] == "turn":
            t0 = time.perf_counter()
            if not use_cache:
                self._turn.pop(rules_key(cfg), None)
            T, hold = self.turn_solution(cfg)
            out.update(value=float(T[0, 0]), value_means="expected points of a turn from score 0 (optimal-turn)",
                       seconds=time.perf_counter() - t0, config_hash=config_hash(cfg),
                       states=int(rp.goal_target * (rp.goal_target + 1) // 2),
                       holds_from=first_holds(hold, rp)["0"],
                       holds_from_by_own_score=first_holds(hold, rp))
            return out
        t0 = time.perf_counter()
        sol, secs, cached = self.win_solution(cfg, use_cache=use_cache)
        W, hold = sol["W"], sol["hold"]
        g = int(rp.goal_target)
        out.update(
            value=float(W[0, 0]),
            first_player_win_probability=float(W[0, 0]),
            value_means="the first player's chance to win when both play optimal-win",
            seconds=secs if not cached else time.perf_counter() - t0,
            solve_seconds=sol["seconds"],
            cached=cached,
            config_hash=config_hash(cfg),
            states=g * g * (g + 1) // 2,
            sweeps=sol["sweeps"],
            residual=sol["residual"],
            tolerance=cfg.solver.tolerance,
            holds_at_start=hold_thresholds(hold, 0, 0)[:1] and hold_thresholds(hold, 0, 0)[0],
            memory_mb=round((W.nbytes + hold.nbytes) / 2**20, 1),
        )
        return out


GAME = Pig()
