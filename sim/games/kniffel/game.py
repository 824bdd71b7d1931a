"""Kniffel in the engine: batches, metrics, charts, replay, describe and the exact solver."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from policies.kniffel.bots import GREEDY, OPTIMAL, POLICIES, greedy_tables
from sim.core import atomic, stats
from sim.core.config import config_hash
from sim.core.dice import dice_of, multisets
from sim.core.events import RunLog, Section
from sim.core.schema import Column
from sim.core.skill import SkillChart, play_groups, rules_hash, run_player
from sim.games.base import Game
from sim.games.kniffel import rules as R
from sim.games.kniffel.columns import COLUMNS, table_columns
from sim.games.kniffel.config import KniffelConfig, freeze
from sim.games.kniffel.describe import describe
from sim.games.kniffel.labels import policy_label
from sim.games.kniffel.options import CAPABILITIES, OPTIONS, REPORT_POLICIES, TITLE
from sim.games.kniffel.play import EV_KEEP, EV_ROLL, EV_SCORE, Rules, Sheets, play_sheets, player, replay_sheet
from sim.games.kniffel.replay import EVENTS, render, result
from sim.games.kniffel.solve import tables
from sim.games.kniffel.states import state_levels
from sim.games.kniffel.table import solved_table

if TYPE_CHECKING:
    import pandas as pd

T5 = multisets(5)
# pairings of the two-player results in the balance report (seat 1, seat 2)
TWO_PLAYER_PAIRINGS = (("optimal", "optimal"), ("optimal", "greedy"), ("greedy", "optimal"), ("greedy", "greedy"))

def _reached(table: pd.DataFrame, cfg: KniffelConfig) -> pd.Series:
    """Whether each sheet's upper sum reached the bonus threshold (the bonus is earned there, whatever it pays)."""
    return table["upper_sum"] >= cfg.bonus.threshold


class Kniffel(Game):
    name = "kniffel"
    title = TITLE
    Config = KniffelConfig
    policies = tuple(POLICIES)
    solved_policies = ("optimal",)
    report_policies = REPORT_POLICIES
    option_specs = OPTIONS
    capabilities = CAPABILITIES
    events = EVENTS
    chunk = 262_144  # optimal play shares turn plans between the sheets of a chunk
    headline = {"mean_score": "scores", "upper_bonus_rate": "upper bonus reached",
                "kniffel_rate": "at least one Kniffel rolled"}
    # the upper bonus is earned at the threshold, whatever it pays (bonus.value = 0 read 0 % where 9 % got there)
    per_run_rules = {"upper_bonus_rate": lambda t, cfg: _reached(t, cfg)}
    per_run = {"mean_score": lambda t: t["score"], "upper_bonus_rate": lambda t: t["upper_bonus"] > 0,
               "kniffel_rate": lambda t: t["kniffels"] > 0}
    skill_chart = SkillChart(tuple((p, p, {"players": 1}) for p in ("greedy", "optimal")), "mean_score",
                             "Kniffel: mean score by skill", "mean final score",
                             player_values=lambda t: t["score"].to_numpy(np.float64), opponents=None)
    key_chart = "score_distribution.png"
    chart_notes = {"score_distribution.png": "How final scores spread per policy (share of games per point).",
                   "category_heatmap.png": "Which box each policy fills in which turn: late boxes are the hard ones."}
    skill_groups = True  # a population's mixture: each group's runs played at its level (``play_chunk``)
    metric_groups = (("per box", rf"^(?P<col>mean|zero_rate)_(?P<row>{'|'.join(R.CATEGORIES)})$"),)

    def __init__(self) -> None:
        self._solved: dict[str, np.ndarray] = {}
        self._greedy: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    # --- setup ------------------------------------------------------------------------------

    def table_for(self, cfg: KniffelConfig) -> np.ndarray:
        """The solved expectimax table for these rules (memory, then disk cache, then solve)."""
        h = rules_hash(cfg)
        if h not in self._solved:
            self._solved[h] = solved_table(freeze(cfg), h)[0]
        return self._solved[h]

    def greedy_for(self, cfg: KniffelConfig) -> tuple[np.ndarray, np.ndarray]:
        """Greedy's decision tables for these rules (built once per process, ~0.1 s)."""
        h = rules_hash(cfg)
        if h not in self._greedy:
            rp = freeze(cfg)
            T, sc, _ = tables(rp)
            self._greedy[h] = greedy_tables(T, T5.index_of_code, rp.base, sc)
        return self._greedy[h]

    def decision_tables(self, cfg: KniffelConfig, pid: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(E, keep table, box table) the kernel reads for policy ``pid``; dummies where unused."""
        E = self.table_for(cfg) if pid == OPTIMAL else np.zeros(1)
        if pid == GREEDY:
            gk, gc = self.greedy_for(cfg)
        else:
            gk, gc = np.zeros((1, 1, 1), np.int16), np.zeros((1, 1), np.int8)
        return E, gk, gc

    def prepare(self, cfg: KniffelConfig, policies: list[str], options: dict[str, Any]) -> None:
        for p in set(policies):
            self.decision_tables(cfg, POLICIES[p])

    # --- play -------------------------------------------------------------------------------

    def table_columns(self, cfg: KniffelConfig, options: dict[str, Any]) -> tuple[Column, ...]:
        return table_columns(cfg, options)

    def play_chunk(self, cfg, policies, seed, start, count, options) -> list[Any]:
        if cfg.skill.groups:  # a population: each group's runs at its level (rows: run, seat)
            return play_groups(lambda c: self.play_chunk(c, policies, seed, start, count, options), cfg, start, count,
                               len(policies))
        rp = freeze(cfg)
        T, sc, kn = tables(rp)
        k = len(policies)
        cats = np.zeros((k, count, R.N_CAT), np.int16)
        turns = np.zeros((k, count, R.N_CAT), np.int8)
        ub = np.zeros((k, count), np.int64)
        kb = np.zeros((k, count), np.int64)
        kn_count = np.zeros((k, count), np.int64)
        for seat, policy in enumerate(policies):
            pid = POLICIES[policy]
            E, gk, gc = self.decision_tables(cfg, pid)
            play_sheets(player(pid, seed, seat, rp, E, gk, gc), Rules(rp.base, T, T5.index_of_code, sc, kn),
                        Sheets(start, cats[seat], turns[seat], ub[seat], kb[seat], kn_count[seat]))
        score = cats.sum(axis=2) + ub + kb  # [seat, run]
        top = score.max(axis=0)
        n_top = (score == top).sum(axis=0)
        blocks: list[Any] = [
            np.repeat(np.arange(start, start + count), k), np.tile(np.arange(k), count), seat_labels(policies, count),
            score.T.ravel(), cats[:, :, :6].sum(axis=2).T.ravel(), ub.T.ravel(), kb.T.ravel(), kn_count.T.ravel(),
        ]
        if k > 1:
            blocks += [((score == top) & (n_top == 1)).T.ravel(), ((score == top) & (n_top > 1)).T.ravel()]
        # [seat, run, box] -> rows (run, seat), one column per box
        return [*blocks, cats.transpose(1, 0, 2).reshape(-1, R.N_CAT), turns.transpose(1, 0, 2).reshape(-1, R.N_CAT)]

    # --- results ----------------------------------------------------------------------------

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: KniffelConfig) -> dict[str, dict[str, Any]]:
        m: dict[str, dict[str, Any]] = {"mean_score": stats.mean(table["score"])}
        if table["policy"].nunique() > 1:  # a mixed table's mean score pools its policies: each its own beside it
            for pol, part in table.groupby("policy"):
                m[f"mean_score_{pol}"] = stats.mean(part["score"])
        # one game has no spread to measure (it read "standard deviation 0 points"): undefined, shown as such
        m["sd_score"] = stats.value(table["score"].std(ddof=1) if len(table) > 1 else float("nan"))
        for q, v in stats.quantiles(table["score"]).items():
            m[f"score_{q}"] = v
        m["upper_bonus_rate"] = stats.rate(_reached(table, cfg))
        m["kniffel_rate"] = stats.rate(table["kniffels"] > 0)
        m["mean_kniffel_bonus"] = stats.mean(table["kniffel_bonus"])
        for name in R.CATEGORIES:
            m[f"mean_{name}"] = stats.mean(table[f"s_{name}"])
            m[f"zero_rate_{name}"] = stats.rate(table[f"s_{name}"] == 0)
        if "win" in table.columns:
            for seat, part in table.groupby("seat"):
                m[f"win_rate_seat_{seat}"] = stats.rate(part["win"])
            m["tie_rate"] = stats.rate(table.groupby("run")["tie"].any())
            for pol, part in table.groupby("policy"):
                m[f"win_rate_{pol}"] = stats.rate(part["win"])
            if table["policy"].nunique() > 1:
                for pol, won in stats.game_shares(table["run"], table["policy"], table["win"] > 0).items():
                    m[f"game_share_{pol}"] = won
        return m

    def two_player(self, cfg: KniffelConfig, n: int, seed: int,
                   pairings: tuple[tuple[str, str], ...] = TWO_PLAYER_PAIRINGS) -> dict[str, Any]:
        """Two-player games (the seed is a game for two): per pairing of seat policies, the win rate of each seat,
        the tie rate, the seat advantage (seat 1 wins minus seat 2 wins, per game, with its interval) and the mean
        scores. Seats play independent sheets, so a mirror pairing shows what chance alone decides."""
        from sim.core.experiment import run_plan  # heavy library (pandas): `dicesim solve` never needs it

        opts = self.check_options({"players": 2})
        exp = run_plan(self, cfg, [(",".join(seats), list(seats)) for seats in pairings], n, seed, opts,
                       with_metrics=False)
        rows = []
        for seats in pairings:
            t = exp.arms[",".join(seats)].table
            s0, s1 = (t[t["seat"] == k].reset_index(drop=True) for k in (0, 1))
            rows.append({
                "seats": list(seats),
                "labels": [policy_label(p) for p in seats],
                "win_rate_seat_1": stats.rate(s0["win"].to_numpy()),
                "win_rate_seat_2": stats.rate(s1["win"].to_numpy()),
                "tie_rate": stats.rate(s0["tie"].to_numpy()),
                # a difference of two rates on the same games: Newcombe's interval (a normal one read −100 pp
                # [−139.7, −60.3] after one game)
                "seat_advantage": stats.paired_rates(s0["win"].to_numpy() > 0, s1["win"].to_numpy() > 0),
                "mean_score_seat_1": stats.mean(s0["score"].to_numpy()),
                "mean_score_seat_2": stats.mean(s1["score"].to_numpy()),
            })
        return {"game": self.name, "n": n, "seed": seed, "config_hash": config_hash(cfg), "pairings": rows}

    def balance_extras(self, cfg: KniffelConfig, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """The seed's two-player game beside the solitaire scores: win rates, seat advantage, ties."""
        from sim.games.kniffel.charts import two_player_chart  # heavy library (matplotlib): only for the report
        from sim.report.skill import balance_skill  # heavy library (pandas)

        result = self.two_player(cfg, n, seed)
        atomic.write_json(Path(out) / "two_player.json", result, indent=2)
        png = two_player_chart(result, Path(out) / "two_player.png")
        return [("Two players (the seed's Dice Party): win rates per seat, seat advantage and ties; optimal maximises "
                 "the expected score, not the chance to win", png.name)] + balance_skill(self, cfg, out, n, seed)

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: KniffelConfig
    ) -> list[Path]:
        from sim.games.kniffel.charts import category_heatmap, score_distribution  # heavy library (matplotlib)

        return [score_distribution(tables, out_dir), category_heatmap(tables, out_dir)]

    # --- single runs and rule tables --------------------------------------------------------

    def replay_log(self, cfg, policies, seed, run, options) -> RunLog:
        """One sheet per seat (the same ``play_turn`` calls as the batch); each seat's final score is its row. With
        several seats the facts name the winner (``replay.result``)."""
        cfg = run_player(cfg, run)  # a population: the run's player at its group's level
        rp = freeze(cfg)
        T, sc, kn = tables(rp)
        sections, rows = [], []
        for seat, policy in enumerate(policies):
            pid = POLICIES[policy]
            E, gk, gc = self.decision_tables(cfg, pid)
            log = replay_sheet(player(pid, seed, seat, rp, E, gk, gc), Rules(rp.base, T, T5.index_of_code, sc, kn), run)
            scored = log[log[:, 0] == EV_SCORE]
            sections.append(Section(log, {"seat": seat, "policy": policy}))
            rows.append({"run": run, "seat": seat, "score": int(scored[:, 9:12].sum()),
                         "upper_bonus": int(scored[:, 10].sum()), "kniffel_bonus": int(scored[:, 11].sum())})
        facts: dict[str, Any] = {"players": len(policies)}
        if len(policies) > 1:  # who won, as the table's win / tie columns count it
            facts.update(result([r["score"] for r in rows], list(policies)))
        return RunLog(sections, facts, rows)

    def render_replay(self, replay, cfg, options) -> str:
        rp = freeze(cfg)
        T, sc, kn = tables(rp)
        out = []
        for sec in replay.sections:
            seat, policy = sec["facts"]["seat"], sec["facts"]["policy"]
            pid = POLICIES[policy]
            E = self.decision_tables(cfg, pid)[0]
            out.append(render(sec["events"], policy, seat, len(replay.policies), pid, E, rp, T, sc, kn))
        text = "\n\n".join(out)
        return text + "\n\n" + replay.facts["result"] if "result" in replay.facts else text

    def describe(self, cfg, options) -> dict[str, Any]:
        return describe(cfg, options)

    def solve(self, cfg, options) -> dict[str, Any]:
        rp = freeze(cfg)
        h = rules_hash(cfg)
        t0 = time.perf_counter()
        E, secs, cached = solved_table(rp, h, use_cache=not options.get("no_cache", False))
        self._solved[h] = E
        return {
            "game": self.name,
            "objective": "maximum expected score of one sheet (solitaire)",
            "value": float(E[0]),
            "seconds": secs if not cached else time.perf_counter() - t0,
            "cached": cached,
            "config_hash": config_hash(cfg),
            "states": int(sum(len(x) for x in state_levels(rp))),
        }


def seat_labels(policies: list[str], count: int) -> pd.Categorical:
    """The ``policy`` column of ``count`` runs x seats as a categorical (seat order within a run)."""
    names = list(dict.fromkeys(policies))
    codes = np.array([names.index(p) for p in policies], dtype=np.int8)
    import pandas as pd  # lazily: `dicesim solve` never needs it

    return pd.Categorical.from_codes(np.tile(codes, count), names)


__all__ = ["GAME", "Kniffel", "EV_KEEP", "EV_ROLL", "EV_SCORE", "GREEDY", "dice_of", "COLUMNS"]

GAME = Kniffel()
