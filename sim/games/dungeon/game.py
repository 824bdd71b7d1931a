"""Würfel Dungeon in the engine: the ``Game`` adapter (batches, metrics, charts, replay, describe, combo cup).

The jobs behind it live in their own modules: the kernel (``play``), the per-run table's declaration
(``table_schema``), the event log's declaration and its text (``replay_text``), charts (``charts``), per-upgrade
statistics (``upgrade_stats``), the ``policy@upgrade`` loadout syntax (``loadout``), the options (``options``) and
the rule views the CLI prints (``describe``: ``combos_json``, ``describe``). Their public names are re-exported
here for the callers that import them from this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from policies.dungeon.bots import EXPECTIMAX, POLICIES
from sim.core import atomic, stats
from sim.core.config import DicesimError
from sim.core.events import Replay, RunLog, Section
from sim.core.schema import Column
from sim.core.skill import SkillChart, play_groups, run_player
from sim.games.base import Game
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon import runs as RUNS
from sim.games.dungeon.charts import _n_rooms, difficulty_sentence, make_charts, upgrade_chart, upgrade_sentence
from sim.games.dungeon.config import DIFFICULTIES, DungeonConfig
from sim.games.dungeon.describe import combos_json, cup_json, describe, enemy_names
from sim.games.dungeon.inputs import TM, borrowed, check_difficulty, frozen
from sim.games.dungeon.loadout import with_loadout
from sim.games.dungeon.options import CAPABILITIES, CUP_SIZES, OPTIONS, POLICY_VARIANT, REPORT_POLICIES, TITLE
from sim.games.dungeon.options import DIFFICULTIES as OPTION_DIFFICULTIES
from sim.games.dungeon.replay_text import EVENTS, MAX_EVENTS, item_label, render
from sim.games.dungeon.table_schema import FLOAT_COLS, column_names, run_record, table_columns
from sim.games.dungeon.upgrade_stats import progression_metrics, stratified_lift, upgrade_names_of, upgrade_stats
from sim.jit import tier

if TYPE_CHECKING:
    import pandas as pd  # only in annotations: describe, combos and replay load no table library

assert tuple(DIFFICULTIES) == OPTION_DIFFICULTIES, "options.DIFFICULTIES must list layout.DIFFICULTIES in order"
assert CUP_SIZES == tuple(range(1, R.MAX_DICE + 1)), "options.CUP_SIZES must be 1..layout.MAX_DICE"


class Dungeon(Game):
    name = "dungeon"
    title = TITLE
    skill_groups = True  # a population's mixture: each group's runs played at its level (``play_chunk``)
    Config = DungeonConfig
    policies = tuple(POLICIES)
    policy_variant = POLICY_VARIANT  # name@loadout: the run starts with that loadout (``with_loadout``)
    report_policies = REPORT_POLICIES
    option_specs = OPTIONS
    capabilities = CAPABILITIES
    events = EVENTS
    headline = {"win_rate": "wins", "mean_rooms_cleared": "rooms cleared", "mean_score": "mean score"}
    per_run = {"win_rate": lambda t: t["win"], "mean_rooms_cleared": lambda t: t["rooms_cleared"],
               "mean_score": lambda t: t["score"]}
    per_run_means = {"mean_final_lp": lambda t: t["lp"],
                     "mean_turns_per_fight": lambda t: t["turns"] / t["fights"].clip(lower=1)}
    skill_chart = SkillChart(tuple((d.capitalize(), "vorschlag", {"difficulty": d}) for d in DIFFICULTIES), "win_rate",
                             "Würfel Dungeon: win rate by skill (Vorschlag), per difficulty",
                             "win rate (all rooms cleared)", player_values=lambda t: t["win"].to_numpy(np.float64),
                             legend="difficulty", opponents="none (played alone)")
    key_chart = "dungeon_survival.png"
    chart_notes = {
        "dungeon_survival.png": "Share of runs still alive entering each room (95 % bands): where runs die.",
        "dungeon_lp_room_bands.png": "LP after each room won (median, p10-p90 band): how much health a run carries.",
        "dungeon_coins_room_bands.png": "Coins after each room won (median, p10-p90 band): the economy's curve.",
        "dungeon_win_rate_by_difficulty.png": "Win rate per policy at the difficulty played (95 % intervals).",
        "dungeon_death_rooms.png": "Share of runs that die in each room: the walls of the dungeon.",
        "dungeon_upgrades_pick_vs_lift.png": "Per upgrade: how much taking it at its first offer lifts the win "
                                             "rate (observational, 95 %), with how often the policy picks it. "
                                             "Observational: runs that take an upgrade when it is first offered "
                                             "differ from those that leave it (how they stand when it comes, what "
                                             "else was offered), so this lift can disagree with the upgrade-value "
                                             "chart of the balance report and `dicesim findings dungeon`, which "
                                             "starts every run with the upgrade on the same seeds: that chart is "
                                             "the upgrade's own effect. A missing bar: that policy "
                                             "always (or never) took it, so there is nothing to compare.",
    }
    metric_groups = (
        ("per upgrade", r"^upgrade_(?P<row>.+?)_(?P<col>offer_rate|offers|pick_rate|buy_rate|win_rate_picked|"
                        r"win_rate_not_picked|win_lift|dominant|trap)$"),
        ("per combo", r"^(?P<col>combos)_(?P<row>.+)$"),
        ("per path card", r"^(?P<col>path)_(?P<row>.+)$"),
    )

    def prepare(self, cfg: DungeonConfig, policies: list[str], options: dict[str, Any]) -> None:
        tier.played()  # the quick-kernels note after the command is about these runs
        for p in policies:
            frozen(with_loadout(cfg, p)[0], check_difficulty(options))

    def table_columns(self, cfg: DungeonConfig, options: dict[str, Any]) -> tuple[Column, ...]:
        """``run``, the kernel's row (``table.columns`` of this config) and the ``policy``/``difficulty`` labels."""
        return table_columns(cfg, options)

    def _seat(self, cfg: DungeonConfig, policies: list[str], options: dict[str, Any]
              ) -> tuple[DungeonConfig, str, str]:
        """The rules with the policy's forced loadout, the policy's name without it, and the difficulty."""
        if len(policies) != 1:
            raise DicesimError("Würfel Dungeon is played by one policy per run")
        self.check_policy(policies[0])
        cfg, policy = with_loadout(cfg, policies[0])
        return cfg, policy, check_difficulty(options)

    def play_chunk(self, cfg: DungeonConfig, policies: list[str], seed: int, start: int, count: int,
                   options: dict[str, Any]) -> list[Any]:
        """``[run, the kernel's rows, policy, difficulty]`` for runs ``start .. start + count - 1``."""
        if cfg.skill.groups:  # a population: each group's runs at its level
            return play_groups(lambda c: self.play_chunk(c, policies, seed, start, count, options), cfg, start, count)
        cfg, policy, diff = self._seat(cfg, policies, options)
        out = np.zeros((count, len(column_names(cfg))))
        with borrowed(cfg, diff) as (fz, cache):
            RUNS.play_batch(POLICIES[policy], int(seed), int(start), int(count), fz, cache, TM, out)
        return [np.arange(start, start + count), out, np.full(count, policies[0], dtype=object),
                np.full(count, diff, dtype=object)]

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: DungeonConfig) -> dict[str, dict[str, Any]]:
        nr = _n_rooms(table)
        m: dict[str, dict[str, Any]] = {
            "win_rate": stats.rate(table["win"].to_numpy()),
            "mean_rooms_cleared": stats.mean(table["rooms_cleared"], most=cfg.rooms.count),
            "mean_score": stats.mean(table["score"]),
        }
        for q, v in stats.quantiles(table["score"], (0.1, 0.5, 0.9)).items():
            m[f"score_{q}"] = v
        m["mean_turns_per_fight"] = stats.mean(table["turns"] / table["fights"].clip(lower=1))
        m["mean_coins"] = stats.mean(table["coins"])
        m["mean_final_lp"] = stats.mean(table["lp"])
        m["mean_seconds"] = stats.mean(table["seconds"])
        m["mean_last_chances"] = stats.mean(table["last_chances"])
        m["mean_adjusts"] = stats.mean(table["adjusts"])
        m["mean_challenges"] = stats.mean(table["challenges"])
        m["mean_coins_stolen"] = stats.mean(table["coins_stolen"])
        death = table["death_room"].to_numpy()
        for r in range(1, nr + 1):
            m[f"death_room_{r}"] = stats.rate(death == r)
        for r in range(1, nr + 1):
            m[f"survival_room_{r}"] = stats.rate((death == 0) | (death >= r))
        for col in ("lp_room", "coins_room"):
            vals = table[[f"{col}_{r}" for r in range(1, nr + 1)]].to_numpy(dtype=float)
            b = stats.bands(vals)
            for r in range(nr):
                for qi, q in enumerate(("p10", "p50", "p90")):
                    m[f"{col}_{r + 1}_{q}"] = stats.value(b[qi, r])
        for k in R.KINDS:
            m[f"combos_{k}"] = stats.mean(table[f"combos_{k}"])
        for p in P.PATH_KINDS:
            m[f"path_{p}"] = stats.mean(table[f"path_{p}"])
        if "rewards" in table.columns:
            m.update(progression_metrics(table, {**options, "flags": cfg.analysis.model_dump()}))
        return m

    def played_as(self, cfg: DungeonConfig, seats: list[str]) -> tuple[list[str], str]:
        """The skill, and the start loadout the rules give every run (``loadout.upgrades=['paschmeister']``: a run
        that starts with Paschmeister wins far more often than the policy's own)."""
        from sim.report.words import word  # the report's words: not at the game's import

        said, note = super().played_as(cfg, seats)
        lo = cfg.loadout
        if lo.upgrades and seats and "@" in seats[0]:  # the policy's upgrades come on top: say what a run starts with
            lo = with_loadout(cfg, seats[0])[0].loadout  # ('Vorschlag with Paschmeister' beside a loadout of one more)
        items = [word(self.name, x) for x in (*lo.upgrades, *lo.talents, *lo.jokers)]
        items += [f"Opferaltar {lo.altar}"] if lo.altar else []
        return ([*said, "start loadout " + ", ".join(items)] if items else said), note

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: DungeonConfig
    ) -> list[Path]:
        paths = make_charts(tables, out_dir)
        p = upgrade_chart(tables, out_dir)
        return paths + ([p] if p else [])

    def replay_log(self, cfg: DungeonConfig, policies: list[str], seed: int, run: int,
                   options: dict[str, Any]) -> RunLog:
        """One run with its event log (``run_one``: the batch's ``play_run``) and its row of the batch table
        (the cells the run never reached, NaN in the table, left out)."""
        played, policy, diff = self._seat(run_player(cfg, run), policies, options)  # a population: its group's level
        with borrowed(played, diff) as (fz, hold):
            row, log = RUNS.run_one(POLICIES[policy], int(seed), int(run), fz, hold, TM, len(column_names(played)),
                                 log_rows=MAX_EVENTS)
        facts = {"policy": policy, "difficulty": diff, "start_upgrades": list(played.loadout.upgrades)}
        return RunLog([Section(log, limit=MAX_EVENTS)], facts, [run_record(cfg, run, row, policies[0], diff)])

    def render_replay(self, replay: Replay, cfg: DungeonConfig, options: dict[str, Any]) -> str:
        """The run's events as text, read with the rules it was played with (its forced loadout included)."""
        played, _ = with_loadout(cfg, replay.policies[0])
        return render(replay, played, frozen(played, replay.facts["difficulty"])[0])

    def balance_extras(self, cfg, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """Difficulty scaling (win rate by difficulty per policy) and each upgrade's measured value (win-rate
        lift when started with it, same seeds) against the Vorschlag rating, for the balance report."""
        from sim.games.dungeon.difficulty import difficulty_chart, difficulty_table
        from sim.games.dungeon.upgrade_lift import (
            pick_rate_chart,
            pick_rates,
            rank_agreement,
            upgrade_lift,
            upgrade_lift_chart,
        )
        from sim.report.skill import balance_skill

        table = difficulty_table(self, cfg, ["vorschlag", "greedy"], max(1000, n // 4), seed)
        atomic.write_csv(table, Path(out) / "difficulty.csv")
        png = difficulty_chart(table, Path(out) / "win_rate_by_difficulty.png")
        lift = upgrade_lift(self, cfg, "vorschlag", max(1000, n // 4), seed, self.options["difficulty"])
        atomic.write_csv(lift, Path(out) / "upgrade_lift.csv")
        lift_png = upgrade_lift_chart(lift, Path(out) / "upgrade_lift.png")
        # the expert's picks: rollout plays ~100 runs/s, so a fortieth of the report's runs (500 at the default)
        picks = pick_rates(self, cfg, ["vorschlag", "rollout"], max(200, n // 40), seed, self.options["difficulty"])
        atomic.write_csv(picks, Path(out) / "upgrade_picks.csv")
        picks_png = pick_rate_chart(lift, picks, ["vorschlag", "rollout"], Path(out) / "upgrade_picks.png")
        said = [s for s in (difficulty_sentence(table), upgrade_sentence(lift)) if s]
        atomic.write_json(Path(out) / "verdicts.json", said, indent=2)  # the page and the card say them first
        return [
            ("Win rate by difficulty (Vorschlag, Greedy; same seeds)", png.name),
            (f"Upgrade value: win-rate lift when started with it (Vorschlag, same seeds) vs its Vorschlag rating; "
             f"rank agreement {rank_agreement(lift):.2f}. This is each upgrade's own effect; the per-upgrade chart "
             "'when taken at the first offer' compares runs that chose differently and can disagree (e.g. an "
             "upgrade that is worth more the earlier a run has it)", lift_png.name),
            ("Upgrade picks: how often the Vorschlag rating and the rollout expert take each upgrade when offered "
             "as a reward (same seeds), upgrades ordered by their measured lift", picks_png.name),
        ] + balance_skill(self, cfg, out, n, seed)

    def describe(self, cfg, options) -> dict[str, Any]:
        return describe(cfg, options)

    def combos(self, dice: list[int], cfg) -> dict[str, Any]:
        return combos_json(dice, cfg)

    def cup(self, cfg) -> dict[str, dict[str, Any]]:
        return cup_json(cfg)


__all__ = [
    "EVENTS", "EXPECTIMAX", "FLOAT_COLS", "GAME", "TM", "Dungeon", "combos_json", "cup_json", "describe", "enemy_names",
    "frozen", "item_label", "make_charts", "progression_metrics", "render", "stratified_lift", "table_columns",
    "upgrade_chart", "upgrade_names_of", "upgrade_stats", "with_loadout",
]

GAME = Dungeon()
