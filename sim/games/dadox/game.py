"""Dadox in the engine: batches, metrics, charts, replay, describe and the two exact solvers."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from policies.dadox.bots import POLICIES, WIN_POLICIES, Solved
from sim.core import stats
from sim.core.cache import load_table, save_table, table_path
from sim.core.config import config_hash, sections_hash
from sim.core.events import RunLog, Section
from sim.core.skill import SkillChart, play_groups, run_player
from sim.games.base import Game
from sim.games.dadox import play as P
from sim.games.dadox import rules as R
from sim.games.dadox.columns import COLUMNS
from sim.games.dadox.config import DadoxConfig, freeze, freeze_policies
from sim.games.dadox.describe import describe, optimal_thresholds
from sim.games.dadox.options import (
    CAPABILITIES,
    OPTIONS,
    REPORT_POLICIES,
    TITLE,
    check_table_size,
    compare_plan,
    with_opponent,
)
from sim.games.dadox.replay import EVENTS
from sim.games.dadox.solve import solve_turn
from sim.games.dadox.solve_win import WinSolution, solve_win, win_bytes, win_structure
from sim.games.dadox.tables import build_tables
from sim.games.dadox.winplan import win_plan, worth_building
from sim.jit.codehash import code_version
from sim.jit.progress import compile_seconds

REPLAY_ROWS = 200_000
STAT_COLUMNS = [c.name for c in COLUMNS[5:]]  # kernel ``stat`` order (checked against play.N_STAT at import)
assert len(STAT_COLUMNS) == P.N_STAT


def rules_key(cfg: DadoxConfig) -> str:
    """Hash of what the solvers read (rules and solver settings, not the bots' parameters)."""
    return sections_hash(cfg, ("scoring", "turn", "bust", "goal", "solver"))


class Dadox(Game):
    name = "dadox"
    title = TITLE
    Config = DadoxConfig
    policies = tuple(POLICIES)
    solved_policies = ("optimal-turn", *WIN_POLICIES)
    report_policies = REPORT_POLICIES
    option_specs = OPTIONS
    capabilities = CAPABILITIES
    events = EVENTS
    columns = COLUMNS
    primary_metric = "win"
    # turns before draws: a solitaire study (``--players 1``) has no seats to compare, its answer is how long a game
    # takes (a draw there is a game that never reached the target)
    headline = {"win_rate_seat_0": "the first seat wins", "game_length_turns": "turns per game",
                "draw_rate": "draws"}
    # a game's length, run by run (every seat's row holds it): two policies played alone are told apart on the same
    # dice by it ("Threshold 46.6 turns < Greedy 46.7 turns" said nothing of the 0.1-turn gap's interval)
    per_run = {"game_length_turns": lambda t: t["game_turns"]}
    skill_groups = True  # a population's mixture: each group's runs played at its level (``play_chunk``)
    skill_chart = SkillChart(tuple((p, p, {"players": 2, "opponent": p}) for p in ("threshold", "optimal-turn")),
                             "win_rate", "Dadox: win rate by skill against the full-strength policy (player moves "
                             "first)", "player's win rate")
    key_chart = "win_rate_by_seat.png"
    rule_charts = ("bank_thresholds.png",)
    chart_notes = {"win_rate_by_seat.png": "Share of games each seat wins (95 % intervals) against the fair share.",
                   "game_length.png": "How many turns a game lasts (all seats counted).",
                   "bank_thresholds.png": "When the exact turn optimum banks, by dice left, beside the threshold bot."}
    metric_groups = (("per dice count", r"^(?P<col>bust_rate)_(?P<row>\d)_dice$"),)

    def __init__(self) -> None:
        self._turn: dict[str, Any] = {}
        self._win: dict[str, WinSolution] = {}
        self._solved: dict[tuple[str, bool, bool], Solved] = {}
        self._bare_runs: dict[tuple[str, bool, bool], int] = {}  # runs played without optimal-win's plan, by rules

    # --- setup ------------------------------------------------------------------------------

    def seat_policies(self, policy: str, options: dict[str, Any]) -> list[str]:
        """``a`` or ``a,b,…`` cycled over the seats; with ``--opponent x``: ``a`` then ``x`` everywhere else."""
        return with_opponent(super().seat_policies(policy, options), options, policy)

    def compare_plan(self, policies: list[str], options: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """Solitaire: each policy alone. Otherwise every pair head to head, seats rotated on shared deals."""
        if self.seat_count(options) == 1:
            return super().compare_plan(policies, options)  # each name checked
        return compare_plan(policies, options)

    def turn_solution(self, cfg: DadoxConfig):
        key = rules_key(cfg)
        if key not in self._turn:
            self._turn[key] = solve_turn(freeze(cfg), cfg.solver.turn_cap)
        return self._turn[key]

    def win_solution(self, cfg: DadoxConfig, use_cache: bool = True, log=None) -> tuple[WinSolution, float, bool]:
        """The two-player solution (memory, then disk cache, then solve). Returns (solution, seconds, cached)."""
        key = rules_key(cfg)
        if use_cache and key in self._win:
            return self._win[key], 0.0, True
        self._solved.clear()
        rp = freeze(cfg)
        path = table_path("dadox", "win", key, code_version("sim.games.dadox.solve_win"))  # rules + solver code
        stored = load_table(path) if use_cache else None
        if stored is not None:
            st, lo, index, bank_to, bust_to, cap, start = win_structure(rp, cfg.solver.score_floor)
            V, iterations, residual = stored["V"], int(stored["iterations"]), float(stored["residual"])
            floor_share = float(stored["floor_share"]) if "floor_share" in stored else float("nan")
            if V.shape == (len(st), len(st)):
                unit = int(rp.unit)
                sol = WinSolution(V, st[:, 0] * unit, st[:, 1].copy(), index, lo, bank_to, bust_to, cap, start,
                                  iterations, residual, floor_share)
                self._win[key] = sol
                return sol, 0.0, True
        with compile_seconds() as compiling:
            t0 = time.perf_counter()
            sol = solve_win(rp, cfg.solver.score_floor, cfg.solver.tolerance,  # a play's solve says so too
                            log=log or (lambda m: print(m, file=sys.stderr)))
            secs = time.perf_counter() - t0 - compiling()
        self._win[key] = sol
        save_table(path, {"V": sol.V, "iterations": sol.iterations, "residual": sol.residual, "seconds": secs,
                          "floor_share": sol.floor_share})
        return sol, secs, False

    def solved(self, cfg: DadoxConfig, policies: list[str], runs: int = 0) -> Solved:
        """The tables the seated policies read (small dummies for the others) for ``runs`` runs to play next.

        optimal-win's plan (``winplan``) is built once this process has played enough runs to pay for it
        (``winplan.worth_building``); before that each turn solves its pair of states from ``V``, the same values.
        ``play dadox --policy optimal-win --opponent greedy --n 200`` took 12 s for a plan it read a few thousand
        times, now 2 s; a million games still build it first. Between the two (1,000 games of two optimal-win seats)
        either way costs ~11 s: the plan is ~67,600 pair solves, each turn one."""
        key = (rules_key(cfg), "optimal-turn" in policies, any(p in WIN_POLICIES for p in policies))
        if key not in self._solved:
            self._solved[key] = self._build_solved(cfg, policies)
        sol = self._solved[key]
        if runs and key[2] and sol.plan.size == 0:
            self._bare_runs[key] = played = self._bare_runs.get(key, 0) + runs
            if worth_building(len(sol.cap), sum(p in WIN_POLICIES for p in policies), played):
                plan = win_plan(freeze(cfg), self.win_solution(cfg)[0])
                sol = self._solved[key] = sol._replace(plan=plan.plan, plan_off=plan.off, plan_rows=plan.rows,
                                                       plan_cols=plan.cols)
        return sol

    def _build_solved(self, cfg: DadoxConfig, policies: list[str]) -> Solved:
        rp = freeze(cfg)
        unit = int(rp.unit)
        if "optimal-turn" in policies:
            ts = self.turn_solution(cfg)
            cap = ts.cap
            turn = (ts.q, ts.thr, cap, np.arange(cap + 1) * float(unit))
            ok = np.array([[R.may_bank(o == 1, t * unit, False, rp) for t in range(cap + 1)] for o in (0, 1)])
        else:
            turn = (np.zeros((2, 1)), np.zeros((2, 1, R.N_DICE, 2)), 0, np.zeros(1))
            ok = np.zeros((2, 1), np.bool_)
        if any(p in WIN_POLICIES for p in policies):
            ws = self.win_solution(cfg)[0]
            win = (ws.V, ws.index, ws.lo, ws.bank_to, ws.bust_to, ws.cap)  # the plan later (``solved``)
        else:
            win = (np.zeros((1, 1)), np.zeros((2, 1), np.int64), 0, np.zeros((1, 1), np.int64),
                   np.zeros((1, 1), np.int64), np.zeros(1, np.int64))
        return Solved(*turn, ok, *win)

    def prepare(self, cfg: DadoxConfig, policies: list[str], options: dict[str, Any]) -> None:
        check_table_size(policies)
        self.solved(cfg, policies)

    # --- play -------------------------------------------------------------------------------

    def _kernel_args(self, cfg: DadoxConfig, policies: list[str], runs: int = 1):
        check_table_size(policies)
        rp = freeze(cfg)
        tb = build_tables(rp)
        pids = np.array([POLICIES[p] for p in policies], np.int64)
        rotate = len(set(policies)) > 1
        return pids, rotate, rp, freeze_policies(cfg), tb, self.solved(cfg, policies, runs)

    def play_chunk(self, cfg, policies, seed, start, count, options) -> list[Any]:
        if cfg.skill.groups:  # a population: each group's runs at its level (rows: run, seat)
            return play_groups(lambda c: self.play_chunk(c, policies, seed, start, count, options), cfg, start, count,
                               len(policies))
        pids, rotate, rp, pp, tb, sol = self._kernel_args(cfg, policies, count)
        k = len(policies)
        turns = np.zeros(count, np.int64)
        winners = np.zeros(count, np.int64)
        stat = np.zeros((count, k, P.N_STAT), np.int64)
        P.play_games(seed, start, count, pids, rotate, rp.base, pp.base, tb, sol, turns, winners, stat)
        runs = np.arange(start, start + count)
        rot = runs % k if rotate else np.zeros(count, np.int64)
        seat = np.tile(np.arange(k), count)
        names = np.array(policies, dtype=object)
        return [np.repeat(runs, k), seat, names[(seat + np.repeat(rot, k)) % k], np.repeat(turns, k),
                np.repeat(winners, k), stat.reshape(count * k, P.N_STAT)]

    # --- results ----------------------------------------------------------------------------

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: DadoxConfig) -> dict[str, dict[str, Any]]:
        k = int(table["seat"].max()) + 1
        games = table[table["seat"] == 0]
        m: dict[str, dict[str, Any]] = {}
        if k > 1:
            for seat, part in table.groupby("seat"):
                m[f"win_rate_seat_{seat}"] = stats.rate(part["win"] == 1)
            decided = float(np.mean(games["winner"].to_numpy() >= 0))  # a draw is no seat's: the fair share of the rest
            m["first_player_advantage"] = stats.shifted(m["win_rate_seat_0"], decided / k)
            if table["policy"].nunique() > 1:
                for pol, part in table.groupby("policy"):
                    m[f"win_rate_{pol}"] = stats.rate(part["win"] == 1)
                for pol, won in stats.game_shares(table["run"], table["policy"], table["win"] == 1).items():
                    m[f"game_share_{pol}"] = won
        m["draw_rate"] = stats.rate(games["winner"] < 0)
        m["game_length_turns"] = stats.mean(games["game_turns"])
        for q, v in stats.quantiles(games["game_turns"]).items():
            m[f"game_length_turns_{q}"] = v
        per_run = table.groupby("run")[
            ["banked", "banks", "score", "turns", "overshoots", "hot_dice"]
            + [f"throws_{n}" for n in range(1, 7)] + [f"busts_{n}" for n in range(1, 7)]
        ].sum()
        m["mean_banked_turn_score"] = stats.ratio(per_run["banked"], per_run["banks"])
        m["mean_turn_score"] = stats.ratio(per_run["score"], per_run["turns"])
        for n in range(1, R.N_DICE + 1):
            m[f"bust_rate_{n}_dice"] = stats.share(per_run[f"busts_{n}"].sum(), per_run[f"throws_{n}"].sum())
        m["overshoot_rate"] = stats.share(per_run["overshoots"].sum(), (per_run["overshoots"] + per_run["banks"]).sum())
        m["negative_score_rate"] = stats.rate(table["min_score"] < 0)
        m["hot_dice_per_turn"] = stats.ratio(per_run["hot_dice"], per_run["turns"])
        return m

    def paired(self, tables: dict[str, pd.DataFrame], options: dict[str, Any],
               cfg: Any = None) -> dict[str, dict[str, Any]]:
        """Per head-to-head match: win rate of the first policy minus the second's, per shared deal; policies
        played alone (a solitaire study) pair run by run as in any game (``Game.paired``: the game's length)."""
        alone = {label: t for label, t in tables.items() if " vs " not in label}
        out = super().paired(alone, options, cfg) if len(alone) > 1 else {}
        for label, t in tables.items():
            pols = list(dict.fromkeys(t["policy"]))
            if " vs " not in label or len(pols) != 2:
                continue
            a, b = label.split(" vs ")
            k = int(t["seat"].max()) + 1
            rows_a, rows_b = t[t["policy"] == a], t[t["policy"] == b]
            out[f"win: {a} - {b}"] = stats.deal_difference(rows_a["win"].to_numpy(), rows_a["run"].to_numpy() // k,
                                                           rows_b["win"].to_numpy(), rows_b["run"].to_numpy() // k)
        return out

    def balance_extras(self, cfg: DadoxConfig, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """Win rate by skill for the balance report (``sim.report.skill``)."""
        from sim.report.skill import balance_skill

        return balance_skill(self, cfg, out, n, seed)

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: DadoxConfig
    ) -> list[Path]:
        from sim.games.dadox.charts import bank_thresholds, game_length, win_rate_by_seat

        paths = [game_length(tables, out_dir)]
        if any(t["seat"].max() > 0 for t in tables.values()):
            paths.append(win_rate_by_seat(tables, out_dir))
        paths.append(bank_thresholds(optimal_thresholds(self.turn_solution(cfg), cfg), cfg, out_dir))
        return paths

    # --- single runs and rule tables --------------------------------------------------------

    def replay_log(self, cfg, policies, seed, run, options) -> RunLog:
        """One game with its throw log (the same ``play_game`` as the batch); every seat's row of the table."""
        cfg = run_player(cfg, run)  # a population: the run's player at its group's level
        pids, rotate, rp, pp, tb, sol = self._kernel_args(cfg, policies)
        turns, winner, stat, log = P.replay_game(seed, run, pids, rotate, rp, pp, tb, sol, REPLAY_ROWS)
        k = len(policies)
        rot = run % k if rotate else 0
        seats = [policies[(s + rot) % k] for s in range(k)]
        facts = {"seats": seats, "target": int(rp.goal_target), "exact": bool(rp.goal_exact), "turns": int(turns),
                 "winner": int(winner), "scores": [int(stat[s, P.S_SCORE]) for s in range(k)]}
        rows = [{"run": run, "seat": s, "policy": seats[s], "game_turns": int(turns), "winner": int(winner),
                 **{c: int(stat[s, j]) for j, c in enumerate(STAT_COLUMNS)}} for s in range(k)]
        return RunLog([Section(log, limit=REPLAY_ROWS)], facts, rows)

    def render_replay(self, replay, cfg, options) -> str:
        from sim.games.dadox.replay import render

        return render(replay, build_tables(freeze(cfg)), freeze(cfg))

    def describe(self, cfg, options) -> dict[str, Any]:
        return describe(cfg, options, self.turn_solution(cfg))

    def solve(self, cfg, options) -> dict[str, Any]:
        rp = freeze(cfg)
        use_cache = not options.get("no_cache", False)
        out: dict[str, Any] = {"game": self.name, "objective": options.get("objective", "turn")}
        if out["objective"] == "turn":
            t0 = time.perf_counter()
            if not use_cache:
                self._turn.pop(rules_key(cfg), None)
                self._solved.clear()
            ts = self.turn_solution(cfg)
            out.update(
                value=float(ts.value[1]),
                seconds=time.perf_counter() - t0,
                config_hash=config_hash(cfg),
                states=int((ts.cap + 1) * R.N_DICE * 2),
                bank_thresholds=optimal_thresholds(ts, cfg),
            )
            if rp.turn_opening_minimum > 0:
                out["value_before_opening"] = float(ts.value[0])
            return out
        t0 = time.perf_counter()
        ws, secs, cached = self.win_solution(cfg, use_cache=use_cache, log=lambda m: print(m, file=sys.stderr))
        n = len(ws.score)
        out.update(
            value=float(ws.V[ws.start, ws.start]),
            first_player_win_probability=float(ws.V[ws.start, ws.start]),
            seconds=secs if not cached else time.perf_counter() - t0,
            cached=cached,
            config_hash=config_hash(cfg),
            player_states=n,
            states=n * n,
            turn_states=int((ws.cap + 1).sum()) * n * R.N_DICE * 2,
            iterations=ws.iterations,
            residual=ws.residual,
            tolerance=cfg.solver.tolerance,
            score_range=[int(ws.score.min()), int(ws.score.max())],
            players=2,
            floor_share=None if np.isnan(ws.floor_share) else ws.floor_share,  # None: a cached solution without it
            floor_share_means="share of the turns of a game between two optimal players begun at the score floor "
            "(solver.score_floor: lower scores count as it, so this is how much the truncation can matter)",
            memory_mb=round(win_bytes(n) / 2**20, 1),
        )
        return out


GAME = Dadox()
