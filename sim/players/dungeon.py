"""Würfel Dungeon's players fitted by their outcomes: the rooms each game cleared (a win: every room).

The dungeon's policies have no action values, so no choice has a likelihood; what a level does shows in how far the
runs get. The log is the outcome table (one row per game: rooms cleared, won, coins, difficulty). The fit plays
``vorschlag`` at a grid of levels on the same seeds (paired: each level's runs share their dice, so the simulated
rooms histogram moves smoothly with the level, as in ``sim.experiments.calibrate``), and reads each player's games'
likelihood off those histograms (add-½ smoothed): ``[player, level]`` log-likelihoods, interpolated between the grid's
levels, that the population's level, each player's and the mixtures (``sim.players.fit``) are fitted from. The
intervals widen for the simulation's own noise, measured by a jackknife over blocks of the simulated runs
(``sim.players.outcomes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.core.batch import run_batch
from sim.core.limits import kernel_seed
from sim.core.skill import at_level, run_levels
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.describe import enemy_names
from sim.games.dungeon.game import GAME, frozen
from sim.games.dungeon.layout import JK_HEAL
from sim.games.dungeon.loadout import with_loadout
from sim.games.dungeon.replay_text import EVENT_LABELS, EVENTS, item_label
from sim.games.dungeon.rows import EFF, N_EFF
from sim.games.dungeon.words import CARD_NAMES
from sim.players.dungeon_columns import DECISION_COLUMNS, OUTCOME_COLUMNS
from sim.players.dungeon_rows import check_outcomes
from sim.players.fit import MAX_GROUPS
from sim.players.logs import LogError, columns, outcome_columns, refuse, shown
from sim.players.outcomes import BLOCKS, LEVELS, SIM_RUNS, LevelFit, counted, fit_levels

SECRET_CARD = CARD_NAMES[3]  # the path card whose room holds a secret (Geheimnis)
NONE = "-"  # a cell with nothing to say (no enemy outside a fight, no dice outside a roll): a log has no empty cell
FACES = frozenset("123456")  # a logged die's face (a Glückssieben 1 is logged as the 1 it shows)
KINDS = ("path", "secret", "hold", "combo", "last_chance", "reward", "buy")
POLICY = "vorschlag"  # the policy whose level the outcomes say
WORDS = {"what": "rooms cleared", "by": "the rooms they cleared", "policy": POLICY, "key": "rooms",
         "setting": "difficulty", "per_game": ("rooms_per_game", "rooms per game"),
         "chart": "rooms cleared (the last: a win)"}  # the fit's page and chart (``sim.players.page``)

__all__ = ["DECISION_COLUMNS", "GAME", "LogError", "OUTCOME_COLUMNS", "decisions", "fit_outcomes", "load", "record"]


def _faces(packed: int, nd: int) -> str:
    return " ".join(str(packed).rjust(nd, "0"))


def _start(played: DungeonConfig, difficulty: str) -> tuple[int, int]:
    """A run's LP and coins before room 1, as ``play.start_run`` sets them: full LP (the start loadout's max-LP
    effects folded in by the rules' own ``fold_mods``) and the start coins with the talents' coins."""
    fz, _ = frozen(played, difficulty)
    owned = np.zeros(fz.up_eff.shape[0])
    owned[: fz.loadout.shape[0]] = fz.loadout
    mods = np.zeros(N_EFF)
    R.fold_mods(fz.up_eff, owned, mods)
    rp = fz.rp[0]
    return int(rp.start_lp + mods[EFF.max_lp]), int(rp.start_coins + rp.talent_coins)


def decisions(cfg: DungeonConfig, policy: str, n: int, seed: int, options: dict[str, Any]) -> pd.DataFrame:
    """Runs 0..n-1 replayed (``GAME.replay_log``: the batch's ``play_run``, so a run is that run of the batch) and
    their decisions read off the event log (``replay_text.EVENTS``), one row each, in the order played: the path
    card (``room``; a Geheimnis card at its ``secret``, which the log writes before the room's fight opens), a
    secret's answer, each hold before a reroll (the dice kept, from the next roll's held mask),
    the combo played, a last chance bought, the reward picked, each item bought."""
    opts = GAME.check_options(options)
    seats = GAME.seat_policies(policy, opts)
    played, _ = with_loadout(cfg, seats[0])
    names = enemy_names(played)
    rolls = int(played.turn.rolls)
    G = cfg.skill.games_per_player
    kseed = kernel_seed(seed)
    rows: list[tuple] = []
    start_lp, start_coins = _start(played, opts["difficulty"])
    for run in range(n):
        st: dict[str, Any] = {"player": f"p{run // G:04d}", "game": run % G, "room": 0, "lp": start_lp,
                              "coins": start_coins, "enemy": NONE, "enemy_lp": 0}
        turn, shown, made, stock, path_room = 0, "", 0, [], 0

        def add(kind: str, choice: str, offer: str = NONE, dice: str = NONE, left: int = 0, at: int = 0,
                st: dict[str, Any] = st) -> None:
            rows.append((st["player"], st["game"], st["room"], at, kind, st["lp"], st["coins"], st["enemy"],
                         st["enemy_lp"], dice, left, offer, choice))

        for ev in EVENTS.decode(GAME.replay_log(cfg, seats, kseed, run, opts).sections[0].rows):
            k = ev["event"]
            if k == "room":
                stock = []
                if path_room != ev["room"]:  # no secret before it: the room's first event
                    st.update(room=ev["room"], lp=ev["lp"], coins=ev["coins"])
                    add("path", CARD_NAMES[ev["card"]], f"kampf|elite|{CARD_NAMES[ev['third_card']]}")
                st.update(room=ev["room"], lp=ev["lp"], coins=ev["coins"], enemy=names[ev["enemy"]],
                          enemy_lp=ev["enemy_lp"])
            elif k == "secret":  # logged before the room's fight opens: the Geheimnis card was the path chosen
                st["room"] = path_room = ev["room"]
                add("path", SECRET_CARD, f"kampf|elite|{SECRET_CARD}")
                add("secret", "accept" if ev["accepted"] else "decline", EVENT_LABELS[ev["secret"]])
                st.update(lp=ev["lp"], coins=ev["coins"])
            elif k == "turn":
                turn, made = ev["turn"], 0
                st.update(lp=ev["lp"], enemy_lp=ev["enemy_lp"])
            elif k == "roll":
                if ev["roll"] > 1 and ev["how"] == 0 and shown:
                    faces = shown.split()
                    kept = " ".join(f for i, f in enumerate(faces) if (ev["held_mask"] >> i) & 1) or "-"
                    add("hold", kept, dice=shown, left=rolls - made, at=turn)
                shown, made = _faces(ev["dice_packed"], ev["dice"]), made + 1
            elif k == "last_chance":
                add("last_chance", "buy", dice=shown, left=rolls - made, at=turn)
                st["coins"] = ev["coins"]
            elif k == "combo":
                add("combo", f"{R.combo_name(ev['combo'])} {R.combo_dice(ev['combo'])} {R.ROLE_LABELS[ev['role']]}",
                    dice=shown, left=rolls - made, at=turn)
            elif k == "resolve":
                st.update(lp=ev["lp"], enemy_lp=ev["enemy_lp"])
                shown = ""
            elif k == "enemy":
                st.update(lp=ev["lp"], enemy_lp=ev["enemy_lp"])
            elif k == "fight_end":
                st.update(lp=ev["lp"], coins=ev["coins"], enemy=NONE, enemy_lp=0)
                turn = 0
            elif k == "reward":
                offer = "|".join(item_label(played, x) for x in ev["offers"] if x >= 0)
                add("reward", item_label(played, ev["picked"]), offer)
                st.update(lp=ev["lp"], coins=ev["coins"])
            elif k == "joker" and ev["kind"] == JK_HEAL:  # a heal joker in a turn: the turn's later choices see it
                st["lp"] = ev["detail"][1]
            elif k == "stock":
                stock.append(item_label(played, ev["item"]) if ev["item"] != -2 else "Joker-Pack")
            elif k == "buy":
                add("buy", item_label(played, ev["item"]), "|".join(stock) or NONE)
                st.update(coins=ev["coins"], lp=ev["lp"])  # a Lebenselixier heals: the next buy sees its LP
    return pd.DataFrame(rows, columns=[c.name for c in DECISION_COLUMNS])


def record(cfg: DungeonConfig, policy: str, n: int, seed: int, options: dict[str, Any]) -> tuple[pd.DataFrame,
                                                                                                 pd.DataFrame]:
    """Runs 0..n-1 of the batch as outcome rows (the log of a game fitted by outcomes): (outcomes, outcomes)."""
    opts = GAME.check_options(options)
    t = run_batch(GAME, cfg, GAME.seat_policies(policy, opts), n, seed, opts, progress=False).table
    G = cfg.skill.games_per_player
    runs = t["run"].to_numpy()
    out = pd.DataFrame({"player": [f"p{r // G:04d}" for r in runs], "game": runs % G, "run": runs,
                        "rooms_cleared": t["rooms_cleared"].to_numpy(), "win": t["win"].to_numpy().astype(int),
                        "coins": t["coins"].to_numpy(), "difficulty": t["difficulty"].astype(str).to_numpy(),
                        "level": run_levels(cfg.skill, runs)})
    return out, out


@dataclass
class Outcomes:
    """A checked outcome log: each game's player and rooms cleared."""

    ids: np.ndarray
    player: np.ndarray
    rooms: np.ndarray
    n_rooms: int
    difficulty: str
    table: pd.DataFrame

    labels = None  # the categories are the rooms cleared, 0..n_rooms

    @property
    def n_games(self) -> int:
        return len(self.rooms)

    @property
    def category(self) -> np.ndarray:
        """Each game's outcome as the fit counts it (``sim.players.outcomes``): its rooms cleared."""
        return self.rooms

    @property
    def n_categories(self) -> int:
        return self.n_rooms + 1

    @property
    def won_categories(self) -> list[int]:
        return [self.n_rooms]

    @property
    def setting(self) -> dict[str, str]:
        return {"difficulty": self.difficulty}

    def play_line(self, config: str) -> str:
        """The command that plays the fitted population (``config``: its population.toml, quoted for a shell)."""
        return f"dicesim play dungeon --policy {POLICY} --difficulty {self.difficulty} --config {config}"


def load(cfg: DungeonConfig, out_df: pd.DataFrame, where: str) -> Outcomes:
    """Check every row (``dungeon_rows.check_outcomes``: rooms within the dungeon, a win exactly when every room is
    cleared, one difficulty) and count each game's rooms."""
    col, level = check_outcomes(cfg, out_df, where)
    ids, pidx = np.unique(col["player"], return_inverse=True)
    return Outcomes(ids, pidx, col["rooms_cleared"], int(cfg.rooms.count), level, pd.DataFrame(dict(col)))


def check_decisions(dec_df: pd.DataFrame, out_df: pd.DataFrame, where: str, out_where: str) -> None:
    """A decision log beside its outcome table (``play dungeon --log``): its columns, its kinds, and the shared
    outcome check (``logs.outcome_columns``: every outcome's player has decisions, every logged game an outcome
    row). The decisions are not fitted (no action values); the outcomes are."""
    col = columns(dec_df, DECISION_COLUMNS, where)
    bad = np.flatnonzero(~np.isin(col["kind"], KINDS))
    if len(bad):
        raise refuse(where, bad[0], f"kind {shown(col['kind'][bad[0]])} is not one of {', '.join(KINDS)}")
    if "dice" in col:
        for i, cell in enumerate(col["dice"]):
            if cell != NONE and not all(f in FACES for f in cell.split()):
                raise refuse(where, i, f"dice {shown(cell)} are not faces 1 .. 6 apart by spaces (or {NONE})")
    oc = outcome_columns(out_df, OUTCOME_COLUMNS, out_where, col["player"], col["game"], where)
    # a decision lies in a room the run reached: up to the one it fell in (a won run: its last room)
    last = {(p, g): r + (0 if w else 1) for p, g, r, w in zip(oc["player"].tolist(), oc["game"].tolist(),
                                                              oc["rooms_cleared"].tolist(), oc["win"].tolist(),
                                                              strict=True)}
    reached = np.array([last[k] for k in zip(col["player"].tolist(), col["game"].tolist(), strict=True)])
    bad = np.flatnonzero(col["room"] > reached)
    if len(bad):
        i = bad[0]
        raise refuse(where, i, f"room {col['room'][i]}: player {shown(col['player'][i])} game {col['game'][i]} "
                     f"reached room {reached[i]} at most ({out_where})")


def histograms(cfg: DungeonConfig, levels: np.ndarray, n: int, seed: int, difficulty: str) -> np.ndarray:
    """``[block, level, rooms cleared]``: ``n`` paired runs at each level, counted by block
    (``sim.players.outcomes.counted``)."""
    opts = GAME.check_options({"difficulty": difficulty})
    seats = GAME.seat_policies(POLICY, opts)
    out = np.zeros((BLOCKS, len(levels), cfg.rooms.count + 1))
    for g, lv in enumerate(levels):
        t = run_batch(GAME, at_level(cfg, float(lv)), seats, n, seed, opts, progress=False).table
        out[:, g] = counted(t["rooms_cleared"].to_numpy(), t["run"].to_numpy(), cfg.rooms.count + 1)
    return out


def fit_outcomes(cfg: DungeonConfig, log: Outcomes, n: int = SIM_RUNS, seed: int = 1,
                 max_groups: int = MAX_GROUPS) -> LevelFit:
    """The population's level (profile interval), each player's, and the mixture BIC prefers
    (``sim.players.outcomes.fit_levels`` on the rooms histograms)."""
    f = fit_levels(histograms(cfg, LEVELS, n, seed, log.difficulty), log.rooms, log.player, log.ids, max_groups)
    f.players["rooms_per_game"] = np.bincount(log.player, log.rooms, len(log.ids)) / f.players["games"].to_numpy()
    return f
