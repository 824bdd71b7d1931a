"""Dungeon24's players fitted by their outcomes: each game's result and the exchanges the player won.

Dungeon24's policies have no exact action values, so, as for the Würfel Dungeon, what a level does is read off how its
games end: the fit plays ``heuristic`` (seat 0, the player) against the log's opponent at a grid of levels on paired
seeds and fits the level whose histogram of (result, exchanges won) makes the logged games likeliest
(``sim.players.outcomes``).

The decision log (``play dungeon24 --log``) is read off each run's event log (``GAME.replay_log``: the batch's own
``play_game``) without touching the kernel: ``_Game`` replays the board in ``play_game``'s order with the rule
functions the kernel plays (``sim.games.dungeon24.rules``), the choices and dice taken from the events, so every row
holds the board before its decision and a declined question (a charge held, a counter or a focus reroll not taken)
is a row too. One row per decision of the player (seat 0): the pyramid it arranged, each decision point with a
charge, each counter it could play, each turn's action (deploy or attack with which card), each blocker it chose,
each focus reroll it could pay for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.core.batch import run_batch
from sim.core.limits import kernel_seed
from sim.core.skill import at_level, run_levels
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import PEOPLES, Dungeon24Config
from sim.games.dungeon24.game import GAME
from sim.games.dungeon24.options import PEOPLE_WORDS, POLICY_WORDS
from sim.games.dungeon24.replay import EVENTS
from sim.games.dungeon24.runs import frozen
from sim.players.dungeon24_columns import DECISION_COLUMNS, OUTCOME_COLUMNS
from sim.players.dungeon24_rows import RESULTS, check_outcomes
from sim.players.fit import MAX_GROUPS
from sim.players.logs import LogError, columns, outcome_columns, refuse, shown
from sim.players.outcomes import BLOCKS, LEVELS, SIM_RUNS, LevelFit, counted, fit_levels

NONE = "-"  # a cell with nothing to say: a log has no empty cell
POLICY = "heuristic"  # the policy whose level the outcomes say (seat 0; the opponent plays at full strength)
KINDS = ("arrange", "fire", "counter", "action", "block", "reroll")
MAX_SCORE = 9  # exchanges won are counted up to this (9: 9 or more) in the fitted histogram
STATUS = "dafx"  # a pyramid position's status letter by its code (rules.DOWN, ACTIVE, FALLEN, DISCARDED)
WORDS = {"what": "results and exchanges won", "by": "their results and exchanges won", "policy": "Heuristic",
         "key": "outcome", "setting": "matchup", "per_game": ("score_per_game", "exchanges won per game"),
         "chart": "result and exchanges won"}  # the fit's page and chart (``sim.players.page``)

__all__ = ["DECISION_COLUMNS", "GAME", "LogError", "OUTCOME_COLUMNS", "decisions", "fit_outcomes", "load", "record"]


def _pyramid(S: np.ndarray, s: int) -> str:
    return " ".join(f"{R.attack_of(S, s, pos)}/{R.defence_of(S, s, pos)}{STATUS[R.status(S, s, pos)]}"
                    for pos in range(R.N_POS))


def _board(S: np.ndarray) -> tuple:
    return (int(S[R.S_LP]), int(S[R.S_LP + 1]), int(S[R.S_CHARGES]), int(S[R.S_CHARGES + 1]), int(S[R.S_WINS]),
            int(S[R.S_WINS + 1]), _pyramid(S, 0), _pyramid(S, 1))


def _seats(options: dict[str, Any], policy: str) -> tuple[dict[str, Any], list[str], list[int]]:
    opts = GAME.check_options(options)
    return opts, GAME.seat_policies(policy, opts), [PEOPLES.index(opts["people"]),
                                                    PEOPLES.index(opts["opponent_people"])]


class _Game:
    """One run's board replayed in ``play_game``'s order, its choices and dice taken from the event log: every
    decision of seat 0 becomes a row, a declined one too (a charge held, a counter or a focus reroll not taken: the
    kernel asks the policy and logs nothing, the board says the question was asked)."""

    def __init__(self, cfg: Dungeon24Config, events: list[dict[str, Any]], cards: list[list[int]],
                 people: list[int]) -> None:
        self.rp, deck, abil = frozen(cfg)
        self.S = np.zeros(R.S_SIZE, np.int64)
        R.init_state(self.S, self.rp, deck, np.array(people, np.int64), abil[np.array(people)].copy(),
                     np.array([c[:R.N_BASIC] for c in cards], np.int64))
        self.events, self.i, self.rows = events, 0, []

    def add(self, seat: int, kind: str, choice: str, dice: str = NONE) -> None:
        if seat == 0:
            self.rows.append((int(self.S[R.S_TURN]), kind, *_board(self.S), dice, choice))

    def next_is(self, event: str, **fields: int) -> bool:
        ev = self.events[self.i] if self.i < len(self.events) else {"event": "none"}
        return ev["event"] == event and all(ev[k] == v for k, v in fields.items())

    def take(self, event: str) -> dict[str, Any]:
        if not self.next_is(event):
            raise RuntimeError(f"Dungeon24 event log out of step at event {self.i}: {event} expected, "
                               f"{self.events[self.i]['event'] if self.i < len(self.events) else 'none'} found")
        self.i += 1
        return self.events[self.i - 1]

    def window(self, s: int, w: int) -> None:
        """``fire_window``: seat ``s`` fires while it wants; each fire may be answered by a Boss-Konter."""
        S, rp, where = self.S, self.rp, R.WINDOW_NAMES[w]
        while R.can_fire(S, s, rp):
            if not self.next_is("fire", seat=s, window=w):
                self.add(s, "fire", f"hold {where}")
                return
            self.add(s, "fire", f"fire {where}")
            self.take("fire")
            R.fire(S, s, rp)
            if R.counter_allowed(S, 1 - s, rp):
                took = self.next_is("counter", seat=1 - s)
                self.add(1 - s, "counter", "boss" if took else "wait")
                if took:
                    self.take("counter")
                    R.activate_boss(S, 1 - s)

    def reroll(self, s: int, attacker: int, dice: list[int]) -> None:
        """Seat ``s``'s focus reroll (``dice``: the attacker's die, the defender's), when it may take one."""
        if not R.can_focus(self.S, s, self.rp):
            return
        took = self.next_is("reroll", seat=s, attacker=attacker)
        mine, theirs = (dice[0], dice[1]) if attacker else (dice[1], dice[0])
        ev = self.take("reroll") if took else None
        self.add(s, "reroll", f"discard {ev['discarded'] + 1}" if ev else "keep", f"{mine} {theirs}")
        if ev:
            R.pay_focus(self.S, s, ev["discarded"], self.rp)
            dice[1 - attacker] = ev["new"]

    def turn(self, p: int, anytime: bool) -> bool:
        """One turn of ``p`` (``play_game``'s loop body); False once the game has ended."""
        S, rp, o = self.S, self.rp, 1 - p
        S[R.S_TURN] += 1
        S[R.S_TOMOVE] = p
        dmg, end = R.curse_tick(S, p, rp)
        if dmg > 0:
            self.take("curse")
        if end != R.END_NONE:
            return False
        self.window(p, R.W_START)
        if anytime:
            self.window(o, R.W_OPP_START)
        if self.next_is("deploy", seat=p):
            self.add(p, "action", "deploy")
            self.take("deploy")
            R.deploy(S, p)
        else:
            ev = self.take("attack")
            self.add(p, "action", f"attack {ev['card'] + 1}")
            self.add(o, "block", f"block {ev['blocker'] + 1}")
            S[R.S_BLUT + p] = 0
            dice = [ev["attack_dice"], ev["defence_dice"]]
            self.reroll(p, 1, dice)
            self.reroll(o, 0, dice)
            if self.next_is("hit"):
                hit = self.take("hit")
                end, r = R.apply_hit(S, p, ev["blocker"], hit["margin"], rp)
                if r >= 0:
                    self.take("reinforce")
                if end != R.END_NONE:
                    return False
            else:
                self.take("block")
        self.window(p, R.W_END)
        if anytime:
            self.window(o, R.W_OPP_END)
        return True


def game_rows(cfg: Dungeon24Config, events: list[dict[str, Any]], cards: list[list[int]], people: list[int],
              arranged: bool) -> tuple[list[tuple], np.ndarray]:
    """One run's decisions of seat 0 (turn, kind, board columns, ``dice``, ``choice``; the caller adds player and
    game) and the board at its end (``_Game``: the pyramids laid out, then ``play_game``'s turns)."""
    g = _Game(cfg, events, cards, people)
    if arranged:
        g.add(0, "arrange", ",".join(str(c) for c in cards[0][:R.N_BASIC]))
    while g.next_is("rolloff"):
        roll = g.take("rolloff")
    p = g.S[R.S_FIRST] = 0 if roll["roll0"] > roll["roll1"] else 1
    anytime = g.rp.rules_fire_timing == R.FIRE_ANY_TURN
    while not g.next_is("end") and g.turn(p, anytime):
        p = 1 - p
    if g.S[R.S_END] == R.END_NONE:  # the turn limit: a draw
        g.S[R.S_END], g.S[R.S_WINNER] = R.END_TURN_LIMIT, -1
    g.take("end")
    return g.rows, g.S


def decisions(cfg: Dungeon24Config, policy: str, n: int, seed: int, options: dict[str, Any]) -> pd.DataFrame:
    """Runs 0..n-1 replayed (``GAME.replay_log``: the batch's ``play_game``, so a run is that run of the batch) and
    seat 0's decisions read off their event logs, one row each, in the order played (``game_rows``)."""
    opts, seats, people = _seats(options, policy)
    arranged = opts["arrangement"] == "policy"  # a searched or given pyramid is no decision of the player
    G = cfg.skill.games_per_player
    kseed = kernel_seed(seed)
    out: list[tuple] = []
    for run in range(n):
        rl = GAME.replay_log(cfg, seats, kseed, run, opts)
        rows, _ = game_rows(cfg, EVENTS.decode(rl.sections[0].rows), rl.facts["cards"], people, arranged)
        out += [(f"p{run // G:04d}", run % G, *r) for r in rows]
    return pd.DataFrame(out, columns=[c.name for c in DECISION_COLUMNS])


def record(cfg: Dungeon24Config, policy: str, n: int, seed: int, options: dict[str, Any]) -> tuple[pd.DataFrame,
                                                                                                   pd.DataFrame]:
    """Runs 0..n-1 of the batch as outcome rows, seat 0 the player: (outcomes, outcomes)."""
    opts, seats, _ = _seats(options, policy)
    t = run_batch(GAME, cfg, seats, n, seed, opts, progress=False).table
    G = cfg.skill.games_per_player
    runs = t["run"].to_numpy()
    w = t["winner"].to_numpy()
    out = pd.DataFrame({"player": [f"p{r // G:04d}" for r in runs], "game": runs % G, "run": runs,
                        "result": np.where(w == 0, "win", np.where(w == 1, "loss", "draw")),
                        "score": t["wins0"].to_numpy(), "lp": t["lp0"].to_numpy(), "opponent_lp": t["lp1"].to_numpy(),
                        "turns": t["turns"].to_numpy(), "people": opts["people"],
                        "opponent_people": opts["opponent_people"], "opponent": seats[1],
                        "level": run_levels(cfg.skill, runs)})
    return out, out


def category(result: np.ndarray, score: np.ndarray) -> np.ndarray:
    """A game's outcome as the fit counts it: the result (loss, draw, win), then the exchanges won (0..MAX_SCORE)."""
    return result * (MAX_SCORE + 1) + np.minimum(score, MAX_SCORE)


LABELS = [f"{r} {s}{'+' if s == MAX_SCORE else ''}" for r in RESULTS for s in range(MAX_SCORE + 1)]


@dataclass
class Outcomes:
    """A checked outcome log: each game's player and outcome category, and the batch options it was played with."""

    ids: np.ndarray
    player: np.ndarray
    category: np.ndarray
    score: np.ndarray
    options: dict[str, str]
    table: pd.DataFrame
    labels = LABELS
    n_categories = len(LABELS)
    won_categories = list(range(2 * (MAX_SCORE + 1), 3 * (MAX_SCORE + 1)))

    @property
    def n_games(self) -> int:
        return len(self.category)

    @property
    def setting(self) -> dict[str, str]:
        o = self.options
        return {"matchup": f"{PEOPLE_WORDS[o['people']]} against {PEOPLE_WORDS[o['opponent_people']]} "
                           f"({POLICY_WORDS[o['opponent']]})", **o}

    def play_line(self, config: str) -> str:
        """The command that plays the fitted population (``config``: its population.toml, quoted for a shell)."""
        o = self.options
        return (f"dicesim play dungeon24 --policy {POLICY} --opponent {o['opponent']} --people {o['people']} "
                f"--opponent-people {o['opponent_people']} --config {config}")


def load(cfg: Dungeon24Config, out_df: pd.DataFrame, where: str) -> Outcomes:
    """Check every row (``dungeon24_rows.check_outcomes``: an end the rules allow, each game once, one set of batch
    options) and count each game's outcome."""
    col, result, options = check_outcomes(cfg, out_df, where)
    ids, pidx = np.unique(col["player"], return_inverse=True)
    return Outcomes(ids, pidx, category(result, col["score"]), col["score"], options, pd.DataFrame(dict(col)))


def _positions(text: str) -> list[tuple[str, str]] | None:
    """A pyramid cell as (A/V, status) per position, or None when it is not six such entries."""
    parts = text.split()
    if len(parts) != R.N_POS or any(len(p) < 4 or p[-1] not in STATUS or p[:-1].count("/") != 1 for p in parts):
        return None
    return [(p[:-1], p[-1]) for p in parts]


def _illegal(kind: str, choice: str, own: list[tuple[str, str]], charges: int) -> str | None:
    """Why ``choice`` cannot be made on the player's pyramid ``own``, or None."""
    word, _, arg = choice.partition(" ")
    pos = int(arg) - 1 if arg.isdigit() else -1
    if kind == "arrange":
        return None if sorted(choice.split(",")) == [str(i) for i in range(R.N_BASIC)] else \
            "an arrangement lists the deck cards 0..4 once each (e.g. 2,0,1,4,3)"
    if kind == "fire":
        return None if word in ("fire", "hold") and charges > 0 else "fire or hold needs a charge held"
    if kind == "counter":
        return None if choice in ("boss", "wait") and own[R.BOSS][1] == "d" else \
            "a counter (boss or wait) needs the boss face down"
    if kind == "action" and choice == "deploy":
        return None if any(s == "d" for _, s in own[:R.BOSS]) else "deploy with no face-down reserve card"
    if kind == "reroll" and choice == "keep":
        return None
    want = {"action": ("attack", "a"), "block": ("block", "a"), "reroll": ("discard", "d")}[kind]
    if word != want[0] or not 0 <= pos < R.N_POS or own[pos][1] != want[1]:
        status = "active" if want[1] == "a" else "face down"
        return (f"{'an' if kind == 'action' else 'a'} {kind} is '{want[0]} N' with position N (1-6) {status} in the "
                "player's pyramid")
    return None


def check_decisions(dec_df: pd.DataFrame, out_df: pd.DataFrame, where: str, out_where: str) -> None:
    """A decision log beside its outcome table (``play dungeon24 --log``): its columns, its kinds, the pyramids, each
    choice legal on the board it states, and the shared outcome check (``logs.outcome_columns``). The decisions are
    not fitted (no action values); the outcomes are."""
    col = columns(dec_df, DECISION_COLUMNS, where)
    for i, kind in enumerate(col["kind"]):
        if kind not in KINDS:
            raise refuse(where, i, f"kind {shown(kind)} is not one of {', '.join(KINDS)}")
        own = _positions(col["pyramid"][i])
        if own is None or _positions(col["opponent_pyramid"][i]) is None:
            raise refuse(where, i, "a pyramid is six positions A/V plus a status letter: d face down, a active, "
                         "f fallen, x discarded (e.g. 3/1a 2/2a 4/2d 5/2d 4/3d 6/4d)")
        why = _illegal(kind, col["choice"][i], own, int(col["charges"][i]))
        if why:
            raise refuse(where, i, f"{kind} {shown(col['choice'][i])}: {why}")
    outcome_columns(out_df, OUTCOME_COLUMNS, out_where, col["player"], col["game"], where)


def histograms(cfg: Dungeon24Config, levels: np.ndarray, n: int, seed: int, options: dict[str, str]) -> np.ndarray:
    """``[block, level, category]``: ``n`` paired runs at each level, counted by block
    (``sim.players.outcomes.counted``)."""
    opts = GAME.check_options(options)
    seats = GAME.seat_policies(POLICY, opts)
    out = np.zeros((BLOCKS, len(levels), len(LABELS)))
    for g, lv in enumerate(levels):
        t = run_batch(GAME, at_level(cfg, float(lv)), seats, n, seed, opts, progress=False).table
        w = t["winner"].to_numpy()
        cat = category(np.where(w == 0, 2, np.where(w == 1, 0, 1)), t["wins0"].to_numpy())
        out[:, g] = counted(cat, t["run"].to_numpy(), len(LABELS))
    return out


def fit_outcomes(cfg: Dungeon24Config, log: Outcomes, n: int = SIM_RUNS, seed: int = 1,
                 max_groups: int = MAX_GROUPS) -> LevelFit:
    """The population's level (profile interval), each player's, and the mixture BIC prefers
    (``sim.players.outcomes.fit_levels`` on the (result, exchanges won) histograms)."""
    f = fit_levels(histograms(cfg, LEVELS, n, seed, log.options), log.category, log.player, log.ids, max_groups)
    f.players["score_per_game"] = np.bincount(log.player, log.score, len(log.ids)) / f.players["games"].to_numpy()
    return f
