"""Dungeon24 on the engine: two seats (``--policy`` vs ``--opponent``), people per seat, matchups.

Options: ``opponent`` (seat 1's policy), ``people`` / ``opponent_people`` (gruenlinge, untote,
dunkelelfen) and ``arrangement``: ``policy`` (each seat's policy builds its pyramid), ``search``
(seat 0 plays the pyramid that ``best_arrangement`` finds against the opponent) or five card
numbers ``"i,j,k,l,m"`` (seat 0's deck cards 0..4 at front 1..3, middle 1..2).

The runs and the table declaration live in ``runs.py``, the designer analyses (``matchup``: the 3x3 people
matrix, seat-swapped on paired seeds; ``best_arrangement``; ``ability_lift``) in ``analysis.py``, the event log
and its text in ``replay.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from policies.dungeon24.bots import POLICIES
from sim.core import atomic, stats
from sim.core.config import DicesimError, config_hash
from sim.core.events import RunLog, Section
from sim.core.skill import SkillChart, play_groups, run_player
from sim.games.base import Game
from sim.games.dungeon24 import play
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.analysis import (
    SEARCH_N,
    SEARCH_START,
    _seat_scores,
    ability_lift,
    ability_lift_chart,
    batch_matchup_charts,
    best_arrangement,
    matchup,
    matchup_heatmap,
)
from sim.games.dungeon24.config import PEOPLES, Dungeon24Config
from sim.games.dungeon24.describe import describe
from sim.games.dungeon24.options import CAPABILITIES, OPTIONS, REPORT_POLICIES, TITLE, arrangement_order
from sim.games.dungeon24.options import PEOPLES as OPTION_PEOPLES
from sim.games.dungeon24.replay import EVENTS, render
from sim.games.dungeon24.runs import COLUMNS, _searched, frozen, people_of, run_games
from sim.games.options import check_seat_count
from sim.report import charts
from sim.report.skill import balance_skill

MAX_EVENTS = 20000
assert tuple(PEOPLES) == OPTION_PEOPLES, "options.PEOPLES must list config.PEOPLES in order"
__all__ = ["GAME", "Dungeon24Game", "COLUMNS", "SEARCH_N", "SEARCH_START", "ability_lift", "best_arrangement",
           "matchup", "matchup_heatmap", "run_games", "people_of", "_seat_scores"]


class Dungeon24Game(Game):
    name = "dungeon24"
    title = TITLE
    skill_groups = True  # a population's mixture: each group's runs played at its level (``play_chunk``)
    Config = Dungeon24Config
    policies = tuple(POLICIES)
    report_policies = REPORT_POLICIES
    option_specs = OPTIONS
    capabilities = CAPABILITIES
    columns = COLUMNS
    events = EVENTS
    headline = {"win_rate": "wins", "draw_rate": "draws", "first_attacker_win_rate": "the first attacker wins"}
    per_run = {"win_rate": lambda t: t["winner"] == 0, "draw_rate": lambda t: t["winner"] < 0,
               "first_attacker_win_rate": lambda t: t["winner"] == t["first_attacker"]}
    skill_chart = SkillChart(tuple((p, p, {"opponent": p}) for p in ("greedy", "heuristic")), "win_rate",
                             "Dungeon24: win rate by skill against the full-strength policy",
                             "player's win rate (draws lose)")
    key_chart = "matchup.png"
    chart_notes = {"dungeon24_game_length.png": "How many turns a game lasts (both players).",
                   "matchup.png": "Score of each people (rows) against each people (columns), a win 1 and a draw "
                   "½, seats swapped: every pairing played (a batch plays the one pairing its --people and "
                   "--opponent-people set, so it draws "
                   "no matchup of its own)."}
    metric_groups = (("per seat", r"^(?P<col>[a-z_]+?)(?P<row>[01])$"),)

    def matchup(self, cfg: Dungeon24Config, policy_a: str, policy_b: str, n: int, seed: int) -> dict[str, Any]:
        """The 3x3 people matrix (see module-level ``matchup``)."""
        return matchup(cfg, policy_a, policy_b, n, seed)

    def matchup_chart(self, result: dict[str, Any], path: Path) -> Path:
        return matchup_heatmap(result, path)

    def balance_extras(self, cfg: Dungeon24Config, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """The people matchup for the balance report: Heuristic on both sides, so a cell is what the peoples are worth
        against each other (against Greedy every people won 62 to 76 %: the policies' gap, not the peoples')."""
        result = matchup(cfg, "heuristic", "heuristic", max(500, n // 10), seed)
        atomic.write_json(Path(out) / "matchup.json", result, indent=2)
        png = matchup_heatmap(result, Path(out) / "matchup.png")
        lift = ability_lift(cfg, "heuristic", "greedy", max(500, n // 10), seed)
        atomic.write_json(Path(out) / "ability_lift.json", lift, indent=2)
        lift_png = ability_lift_chart(lift, Path(out) / "ability_lift.png")
        return [
            ("People matchup: each people (rows) against each people (columns), both played by Heuristic, seats "
             "swapped; the row's people's score (a win 1, a draw ½)", png.name),
            ("Ability lift: Heuristic's score (a win 1, a draw ½) with vs without its people's ability against Greedy "
             "with its own, the same people on both sides (same seeds)", lift_png.name),
        ] + balance_skill(self, cfg, out, n, seed)

    def seat_policies(self, policy: str, options: dict[str, Any]) -> list[str]:
        """``[policy, opponent]`` (a value ``a,b`` names both seats)."""
        names = [p.strip() for p in policy.split(",") if p.strip()]
        if not names:
            raise DicesimError("no policy given")
        check_seat_count(self.name, policy, self.seat_count(options), False)
        opts = self.check_options(options)
        seats = names if len(names) == self.seat_count(opts) else [names[0], opts["opponent"]]
        for p in seats:
            self.check_policy(p)
        return seats

    def compare_plan(self, policies: list[str], options: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """Each policy in seat 0 against the same ``opponent``, on the same seeds."""
        return [(p, self.seat_policies(p, options)) for p in policies]

    def _perms(self, cfg: Dungeon24Config, policies: list[str], options: dict[str, Any]):
        opts = self.check_options(options)
        fixed = arrangement_order(opts["arrangement"])
        if fixed is not None:
            return [fixed, None]
        if opts["arrangement"] == "search":
            key = (config_hash(cfg), *policies, opts["people"], opts["opponent_people"])
            if key not in _searched:
                res = best_arrangement(cfg, policies[0], policies[1], opts["people"], opts["opponent_people"])
                _searched[key] = tuple(res["arrangement"])
                from sim.report.words import value_text  # the report's words: not at the game's import

                said = value_text("win_rate", res["win_rate"]["value"], res["win_rate"]["ci95"])
                print(f"card order found by search, before the play: {', '.join(res['cards'])}; it scores {said} "
                      f"(a win 1, a draw ½) on {res['n_check']:,} fresh games per seating (the search's own estimate, "
                      f"{value_text('win_rate', res['search_max'])}, was the best of 120 noisy ones and reads high, so "
                      "the fresh games decide); the play below plays this order on its own dice",
                      file=sys.stderr)
            return [_searched[key], None]
        return [None, None]

    def prepare(self, cfg: Dungeon24Config, policies: list[str], options: dict[str, Any]) -> None:
        self._perms(cfg, policies, options)

    def _seats(self, policies: list[str], options: dict[str, Any]) -> tuple[list[str], list[int]]:
        opts = self.check_options(options)
        if len(policies) == 1:
            policies = [policies[0], opts["opponent"]]
        if len(policies) != 2:
            raise DicesimError(f"dungeon24 has 2 seats, got policies {policies}")
        for p in policies:
            self.check_policy(p)
        return list(policies), [people_of(opts["people"]), people_of(opts["opponent_people"])]

    def play_chunk(self, cfg: Dungeon24Config, policies: list[str], seed: int, start: int, count: int,
                   options: dict[str, Any]) -> list[Any]:
        if cfg.skill.groups:  # a population: each group's runs at its level
            return play_groups(lambda c: self.play_chunk(c, policies, seed, start, count, options), cfg, start, count)
        pols, people = self._seats(policies, options)
        return [np.arange(start, start + count), run_games(cfg, pols, people, seed, start, count,
                                                           self._perms(cfg, pols, options))]

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: Dungeon24Config) -> dict[str, dict[str, Any]]:
        w = table["winner"].to_numpy()
        first = table["first_attacker"].to_numpy()
        turns = table["turns"].to_numpy()
        end = table["end"].to_numpy()
        m: dict[str, dict[str, Any]] = {
            "win_rate": stats.rate(w == 0),
            "loss_rate": stats.rate(w == 1),
            "draw_rate": stats.rate(w < 0),
            "first_attacker_win_rate": stats.rate(w == first),
            "win_rate_attacking_first": stats.rate(w[first == 0] == 0),
            "win_rate_attacking_second": stats.rate(w[first == 1] == 0),
            "mean_turns": stats.mean(turns),
        }
        for k, q in stats.quantiles(turns).items():
            m[f"turns_{k}"] = q
        for s in (0, 1):
            uses = table[f"ability_uses{s}"].to_numpy()
            m[f"ability_uses{s}"] = stats.mean(uses)
            m[f"ability_used_rate{s}"] = stats.rate(uses > 0)
            m[f"boss_lost_rate{s}"] = stats.rate(table[f"boss_lost{s}"].to_numpy() > 0)
            m[f"mean_wins{s}"] = stats.mean(table[f"wins{s}"].to_numpy())
            m[f"mean_focus{s}"] = stats.mean(table[f"focus{s}"].to_numpy())
            m[f"mean_deploys{s}"] = stats.mean(table[f"deploys{s}"].to_numpy())
            m[f"boss_counter_rate{s}"] = stats.rate(table[f"counters{s}"].to_numpy() > 0)
        for code, name in enumerate(R.END_NAMES):
            if code:
                m[f"end_{name}_rate"] = stats.rate(end == code)
        return m

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: Dungeon24Config
    ) -> list[Path]:
        out_dir = Path(out_dir)
        paths = [charts.distribution(charts.named("dungeon24", {label: t["turns"] for label, t in tables.items()}),
                                     out_dir / "dungeon24_game_length.png", "turns (both players)",
                                     "Dungeon24 game length", ylabel="share of games", figsize=(7, 4))]
        def seats(label: str) -> list[str]:
            return self.seat_policies(label, options) if label in POLICIES else [label, "opponent"]

        return paths + batch_matchup_charts(tables, out_dir, seats)

    def replay_log(self, cfg: Dungeon24Config, policies: list[str], seed: int, run: int,
                   options: dict[str, Any]) -> RunLog:
        """One run with its event log (the same ``play_game`` as the batch) and its row of the table."""
        cfg = run_player(cfg, run)  # a population: the run's player at its group's level
        pols, people = self._seats(policies, options)
        rp, cards, ability = frozen(cfg)
        pf = np.full((2, R.N_BASIC), -1, np.int64)
        for s, perm in enumerate(self._perms(cfg, pols, options)):
            if perm is not None:
                pf[s] = perm
        S, log = play.replay_game(seed, run, np.array([POLICIES[p] for p in pols], np.int64),
                                  np.array(people, np.int64), ability[np.array(people)].copy(), pf, rp, cards,
                                  MAX_EVENTS)
        row = np.zeros(len(COLUMNS) - 1, np.int64)
        play.write_row(S, row)
        facts = {"people": people, "cards": [[int(S[R.S_CARD + 6 * s + pos]) for pos in range(R.N_POS)]
                                             for s in range(2)],
                 "lp": [int(S[R.S_LP + s]) for s in range(2)], "wins": [int(S[R.S_WINS + s]) for s in range(2)]}
        table_row = {"run": run, **{c.name: int(v) for c, v in zip(COLUMNS[1:], row, strict=True)}}
        return RunLog([Section(log, limit=MAX_EVENTS)], facts, [table_row])

    def render_replay(self, replay, cfg: Dungeon24Config, options: dict[str, Any]) -> str:
        return render(replay, cfg)

    def describe(self, cfg: Dungeon24Config, options: dict[str, Any]) -> dict[str, Any]:
        return describe(cfg, options)

    def solve(self, cfg: Dungeon24Config, options: dict[str, Any]) -> dict[str, Any]:
        """The best pyramid for ``people`` when both seats play ``opponent`` (arrangement search); its win rate is
        re-measured on fresh runs (``search_max`` is the biased best of the 120 search estimates)."""
        opts = self.check_options(options)
        res = best_arrangement(cfg, opts["opponent"], opts["opponent"], opts["people"], opts["opponent_people"])
        return {"game": self.name, "value": res["win_rate"]["value"], "win_rate": res["win_rate"],
                "policy_pyramid_win_rate": res["policy_pyramid_win_rate"], "lift": res["lift"],
                "search_max": res["search_max"], "arrangement": res["arrangement"], "cards": res["cards"],
                "n": res["n"], "n_check": res["n_check"]}


GAME = Dungeon24Game()
