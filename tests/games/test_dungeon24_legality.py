"""Dungeon24 legality: every event of many played games is legal in the state it happens in.

A small reference model written here in plain Python from the rules (not the kernel's code) replays each
game's event log and checks every roll-off, curse, fire, Boss-Konter, deploy, attack, focus reroll, hit,
block, reinforcement and the end against its own state; at the end its state must equal the kernel's.
The checker is shown to catch corrupted logs, so the sweep can fail.
"""

from __future__ import annotations

import numpy as np
import pytest

from policies.dungeon24.bots import POLICIES
from sim.games import get_game
from sim.games.dungeon24 import game as G
from sim.games.dungeon24 import play
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import PEOPLES, volk

GAME = get_game("dungeon24")
DOWN, ACTIVE, FALLEN, DISCARDED = "down", "active", "fallen", "discarded"


class Illegal(AssertionError):
    """An event that the rules do not allow in its state."""


def need(cond: bool, msg: str) -> None:
    if not cond:
        raise Illegal(msg)


class Model:
    """The game state as the rules describe it, advanced by the events of one log."""

    def __init__(self, cfg, people: list[int], cards: np.ndarray) -> None:
        self.cfg = cfg
        r = cfg.rules
        self.every, self.focus, self.cost = r.charge_every, r.focus, r.focus_cost
        self.boss_defeat, self.counter_mode, self.anytime = r.boss_loss == "defeat", r.boss_counter, \
            r.fire_timing == "any_turn"
        ab = cfg.abilities
        self.blut_dice, self.auf_count, self.curse_lp, self.curse_turns = (
            ab.blutrausch_dice, ab.auferstehung_count, ab.schattenschmerz_lp, ab.schattenschmerz_turns)
        self.ability = [volk(cfg, people[s]).ability for s in range(2)]
        self.av = [[(int(cards[s, pos, 0]), int(cards[s, pos, 1])) for pos in range(6)] for s in range(2)]
        self.status = [[ACTIVE if pos < cfg.start.active else DOWN for pos in range(6)] for _ in range(2)]
        self.lp = [cfg.start.lp] * 2
        self.wins, self.charges, self.lost, self.blut, self.fired = [0, 0], [0, 0], [False] * 2, [0, 0], [0, 0]
        self.fallen: list[list[int]] = [[], []]
        self.curse = [[0] * 40, [0] * 40]
        self.turn, self.mover, self.first = 0, -1, -1
        self.phase = "rolloff"
        self.last = None  # previous event kind and seat (a Boss-Konter answers the fire just before it)
        self.ended = None  # (winner, reason) once decided by the model
        self.reinforce = None  # (seat, position) the next event must reveal
        self.x: dict = {}  # the exchange in progress

    # --- helpers -------------------------------------------------------------------------------

    def active(self, s: int) -> list[int]:
        return [pos for pos in range(6) if self.status[s][pos] == ACTIVE]

    def reserve(self, s: int) -> list[int]:
        return [pos for pos in range(5) if self.status[s][pos] == DOWN]

    def can_fire(self, s: int) -> bool:
        ab = self.ability[s]
        if self.charges[s] <= 0 or self.lost[s] or ab == "none":
            return False
        return ab != "auferstehung" or (bool(self.fallen[s]) and self.auf_count > 0)

    def end(self, winner: int, reason: str) -> None:
        need(self.ended is None, "the game ended twice")
        self.ended = (winner, reason)

    def fall(self, s: int, pos: int) -> None:
        """Creature ``pos`` of ``s`` falls; the boss costs the ability (or the game); reinforcement is checked
        by the next event."""
        self.status[s][pos] = FALLEN
        self.fallen[s].append(pos)
        if pos == R.BOSS:
            if self.boss_defeat:
                self.end(1 - s, "boss")
                return
            self.lost[s] = True
            self.charges[s] = 0
        if not self.active(s):
            nxt = [pos for pos in range(6) if self.status[s][pos] == DOWN]
            if nxt:
                self.reinforce = (s, nxt[0])
            else:
                self.end(1 - s, "no_creatures")

    # --- events --------------------------------------------------------------------------------

    def start_turn(self, t: int, ev) -> bool:
        """Advance to turn ``t``: alternate movers, tick the curses. Returns True when ``ev`` was the curse."""
        need(t == self.turn + 1, f"turn {t} follows turn {self.turn}")
        need(self.phase in ("start", "after") and self.ended is None, f"turn {t} starts in phase {self.phase}")
        self.turn = t
        self.mover = self.first if t == 1 else 1 - self.mover
        self.phase = "start"
        sched = self.curse[self.mover]
        dmg = sched.pop(0)
        sched.append(0)
        if dmg == 0:
            return False
        need(ev[0] == play.EV_CURSE and ev[2] == self.mover and ev[3] == dmg, f"turn {t}: curse of {dmg} LP missing")
        self.lp[self.mover] -= dmg
        need(ev[4] == self.lp[self.mover], "LP after the curse")
        if self.lp[self.mover] <= 0:
            self.end(1 - self.mover, "lp")
        return True

    def event(self, ev) -> None:
        kind, t, s, a, b, c, d, e = ev
        need(self.ended is None or kind == play.EV_END, f"event {kind} after the end")
        need(self.reinforce is None or kind == play.EV_REINFORCE, "reinforcement must come at once")
        if kind == play.EV_ROLLOFF:
            need(self.phase == "rolloff" and 1 <= a <= 6 and 1 <= b <= 6, "roll-off")
            if a != b:
                self.first, self.phase = (0 if a > b else 1), "after"
            return
        if kind == play.EV_END:
            self.check_end(t, s, a)
            return
        if t != self.turn and self.start_turn(t, ev):
            return
        need(t == self.turn, "event of another turn")
        if kind == play.EV_FIRE:
            self.fire(s, a, b, c, d)
        elif kind == play.EV_COUNTER:
            need(self.last is not None and self.last[0] == play.EV_FIRE and self.last[1] == 1 - s,
                 "Boss-Konter without the opponent's fire just before")
            need(self.status[s][R.BOSS] == DOWN and self.counter_mode != "off", "Boss-Konter not allowed")
            need(self.counter_mode == "every" or self.fired[1 - s] == 1, "Boss-Konter after a later fire (mode first)")
            need(a == R.BOSS, "the counter activates the boss")
            self.status[s][R.BOSS] = ACTIVE
        elif kind == play.EV_DEPLOY:
            need(self.phase == "start" and s == self.mover, "deploy outside the mover's action")
            res = self.reserve(s)
            need(bool(res) and a == res[0], f"deploy reveals {a}, the next reserve card is {res[:1]}")
            self.status[s][a] = ACTIVE
            self.phase = "after"
        elif kind == play.EV_ATTACK:
            o = 1 - s
            need(self.phase == "start" and s == self.mover, "attack outside the mover's action")
            need(self.status[s][a] == ACTIVE and self.status[o][b] == ACTIVE, "fighter and blocker must be active")
            need(1 <= c <= 6 and 1 <= d <= 6, "dice are d6")
            k = self.blut[s]
            need(k <= e <= 6 * k, f"Blutrausch bonus {e} from {k} dice")
            self.blut[s] = 0
            self.x = {"f": a, "b": b, "da": c, "dd": d, "bonus": e, "rolled": []}
            self.phase = "exchange"
        elif kind == play.EV_REROLL:
            x = self.x
            is_att = a == 1
            need(self.phase == "exchange" and self.focus, "focus outside an exchange or switched off")
            need(s == (self.mover if is_att else 1 - self.mover), "focus by the wrong side")
            need(is_att not in x["rolled"], "focus twice by one side in one exchange")
            need(not (is_att and False in x["rolled"]), "the attacker decides before the defender")
            res = self.reserve(s)
            need(len(res) >= self.cost and (self.cost == 0 or d in res), "focus must be paid with reserve cards")
            need(b == (x["da"] if is_att else x["dd"]) and 1 <= c <= 6, "reroll of the die on the table")
            if self.cost > 0:
                self.status[s][d] = DISCARDED
                left = self.cost - 1
                for q in range(4, -1, -1):
                    if left > 0 and self.status[s][q] == DOWN:
                        self.status[s][q] = DISCARDED
                        left -= 1
            x["rolled"].append(is_att)
            x["da" if is_att else "dd"] = c
        elif kind in (play.EV_HIT, play.EV_BLOCK):
            need(self.phase == "exchange" and s == self.mover, "exchange result outside an exchange")
            x, o = self.x, 1 - s
            att = self.av[s][x["f"]][0] + x["bonus"] + x["da"]
            dfn = self.av[o][x["b"]][1] + x["dd"]
            self.phase = "after"
            if kind == play.EV_BLOCK:
                need(att <= dfn and (a, b) == (att, dfn), f"block {a} vs {b}, expected {att} vs {dfn}")
                return
            need(att > dfn and b == att - dfn and a == x["b"], f"hit by {b}, expected {att - dfn}")
            self.lp[o] -= b
            self.wins[s] += 1
            if not self.lost[s] and self.ability[s] != "none" and self.wins[s] % self.every == 0:
                self.charges[s] += 1
            if self.lp[o] <= 0:  # LP decide the game; the creature still falls (a boss takes the ability along)
                self.status[o][a] = FALLEN
                self.fallen[o].append(a)
                if a == R.BOSS:
                    self.lost[o], self.charges[o] = True, 0
                self.end(s, "lp")
            else:
                self.fall(o, a)
            need((c, d, e) == (self.lp[o], self.wins[s], self.charges[s]), "LP, wins and charges after the hit")
        elif kind == play.EV_REINFORCE:
            need(self.reinforce == (s, a), f"reinforcement {s}:{a}, expected {self.reinforce}")
            self.status[s][a] = ACTIVE
            self.reinforce = None
        else:
            raise Illegal(f"unknown event {kind}")
        self.last = (kind, s)

    def fire(self, s: int, ab: int, eff: int, left: int, w: int) -> None:
        own = s == self.mover
        need(self.phase in ("start", "after"), "fire inside an exchange")
        want = (R.W_START if self.phase == "start" else R.W_END) if own else \
            (R.W_OPP_START if self.phase == "start" else R.W_OPP_END)
        need(w == want, f"fire at window {w}, the game is at {want}")
        need(own or self.anytime, "fire during the opponent's turn (fire_timing = own_turn)")
        need(self.can_fire(s), f"seat {s} fires without a usable charge")
        need(R.ABILITY_NAMES[ab].lower() == self.ability[s], "fires another people's ability")
        self.charges[s] -= 1
        self.fired[s] += 1
        if self.ability[s] == "blutrausch":
            self.blut[s] += self.blut_dice
        elif self.ability[s] == "auferstehung":
            back = [self.fallen[s].pop() for _ in range(min(self.auf_count, len(self.fallen[s])))]
            need(eff == back[0], f"Auferstehung returns {eff}, the last fallen is {back[0]}")
            for pos in back:
                self.status[s][pos] = ACTIVE
        else:
            for k in range(self.curse_turns):
                self.curse[1 - s][k] += self.curse_lp
        need(left == self.charges[s], "charges left after the fire")

    def check_end(self, t: int, winner: int, reason: int) -> None:
        name = R.END_NAMES[reason]
        if name == "turn_limit":
            need(self.ended is None and winner == -1 and t == self.cfg.rules.max_turns, "turn limit")
            return
        need(self.ended == (winner, name), f"end {winner}/{name}, the model says {self.ended}")
        need(t == self.turn, "end turn")

    def compare(self, S: np.ndarray) -> None:
        """The kernel's final state equals the model's."""
        names = {R.DOWN: DOWN, R.ACTIVE: ACTIVE, R.FALLEN: FALLEN, R.DISCARDED: DISCARDED}
        for s in range(2):
            need(int(S[R.S_LP + s]) == self.lp[s] and int(S[R.S_WINS + s]) == self.wins[s], "final LP / wins")
            need(int(S[R.S_CHARGES + s]) == self.charges[s], "final charges")
            need([names[int(S[R.S_STATUS + 6 * s + pos])] for pos in range(6)] == self.status[s], "final statuses")


def check_log(cfg, people: list[int], S: np.ndarray, log: np.ndarray) -> Model:
    cards = np.array([[[cfg_card.a, cfg_card.v] for cfg_card in _deck(cfg, people[s], S, s)] for s in range(2)])
    m = Model(cfg, people, cards)
    for ev in log.tolist():
        m.event(ev)
    need(log[-1][0] == play.EV_END, "the log ends with the end")
    m.compare(S)
    return m


def _deck(cfg, people: int, S: np.ndarray, s: int):
    """The seat's pyramid as config cards, position 0..5 (the arrangement is read from the kernel's state)."""
    v = volk(cfg, people)
    return [v.boss if int(S[R.S_CARD + 6 * s + pos]) == R.BOSS else v.cards[int(S[R.S_CARD + 6 * s + pos])]
            for pos in range(6)]


def play_logs(cfg, pols: list[str], people: list[int], seed: int, runs: range):
    rp, cards, ability = G.frozen(cfg)
    ppl = np.array(people, np.int64)
    pf = np.full((2, R.N_BASIC), -1, np.int64)
    ids = np.array([POLICIES[p] for p in pols], np.int64)
    for run in runs:
        yield play.replay_game(seed, run, ids, ppl, ability[ppl].copy(), pf, rp, cards, G.MAX_EVENTS)


VARIANTS = {
    "default": [],
    "any_turn": ["rules.fire_timing='any_turn'"],
    "charge_every_1": ["rules.charge_every=1", "abilities.auferstehung_count=2"],
    "house_off_focus_2": ["rules.boss_loss='defeat'", "rules.boss_counter='first'", "rules.focus_cost=2"],
    "no_focus_any_turn": ["rules.focus=false", "rules.fire_timing='any_turn'", "rules.charge_every=2"],
}
PAIRS = [("random", "random"), ("greedy", "random"), ("heuristic", "greedy"), ("exact-exchange", "heuristic"),
         ("expectimax", "greedy")]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_event_is_legal(variant):
    cfg = GAME.load(None, VARIANTS[variant])
    counts = {"fires": 0, "stacked": 0, "counters": 0, "rerolls": 0, "opp_fires": 0}
    for k, (a, b) in enumerate(PAIRS):
        for i in range(3):
            for j in range(3):
                for S, log in play_logs(cfg, [a, b], [i, j], 100 + k, range(12)):
                    check_log(cfg, [i, j], S, log)
                    kinds = log[:, 0]
                    fires = kinds == play.EV_FIRE
                    counts["fires"] += int(fires.sum())
                    counts["stacked"] += int((fires[1:] & fires[:-1] & (log[1:, 2] == log[:-1, 2])).sum())
                    counts["counters"] += int((kinds == play.EV_COUNTER).sum())
                    counts["rerolls"] += int((kinds == play.EV_REROLL).sum())
                    counts["opp_fires"] += int((fires & (log[:, 6] >= R.W_OPP_START)).sum())
    # the sweep exercised what it checks
    assert counts["fires"] > 50 and counts["counters"] > 5, counts
    assert (counts["rerolls"] > 50) == (variant != "no_focus_any_turn"), counts
    assert (counts["opp_fires"] > 0) == ("any_turn" in variant), counts
    if variant == "charge_every_1":
        assert counts["stacked"] > 10, counts


def _log_of(cfg, pols, people, seed, run):
    S, log = next(play_logs(cfg, pols, people, seed, range(run, run + 1)))
    return S, log.copy()


def test_checker_rejects_corrupted_logs():
    """Each corruption of a real log is caught: a fallen fighter, a wrong hit, a fire without a charge, a deploy
    of the boss, a focus without a reserve card, a fire in the opponent's turn."""
    cfg = GAME.load(None, ["rules.charge_every=1"])
    S, log = _log_of(cfg, ["heuristic", "heuristic"], [0, 0], 7, 0)
    check_log(cfg, [0, 0], S, log)
    kinds = log[:, 0]
    att0 = int(np.flatnonzero(kinds == play.EV_ATTACK)[0])
    hit = int(np.flatnonzero(kinds == play.EV_HIT)[0])
    fire = int(np.flatnonzero(kinds == play.EV_FIRE)[0])
    corruptions = []
    bad = log.copy()
    bad[att0, 3] = R.BOSS  # the face-down boss fights
    corruptions.append(bad)
    bad = log.copy()
    bad[hit, 4] += 1
    corruptions.append(bad)
    bad = log.copy()
    bad[fire, 5] += 1  # charges left wrong
    corruptions.append(bad)
    bad = np.insert(log, fire, log[fire], axis=0)  # one fire too many
    corruptions.append(bad)
    bad = log.copy()
    bad[fire, 6] = R.W_OPP_START
    corruptions.append(bad)
    bad = log.copy()
    bad[att0] = [play.EV_DEPLOY, log[att0, 1], log[att0, 2], R.BOSS, 0, 0, 0, 0]
    corruptions.append(bad)
    caught = 0
    for b in corruptions:
        try:
            check_log(cfg, [0, 0], S, b)
        except Illegal:
            caught += 1
    assert caught == len(corruptions)


def test_checker_rejects_a_fire_at_the_wrong_time_in_own_turn_rules():
    """With ``fire_timing = own_turn`` a fire by the seat not to move is illegal, with ``any_turn`` legal."""
    cfg_any = GAME.load(None, ["rules.fire_timing='any_turn'", "rules.charge_every=1"])
    cfg_own = GAME.load(None, ["rules.charge_every=1"])
    for run in range(40):
        S, log = _log_of(cfg_any, ["random", "random"], [2, 2], 3, run)
        opp = (log[:, 0] == play.EV_FIRE) & (log[:, 6] >= R.W_OPP_START)
        if opp.any():
            check_log(cfg_any, [2, 2], S, log)
            with pytest.raises(Illegal):
                check_log(cfg_own, [2, 2], S, log)
            return
    pytest.fail("no fire in the opponent's turn in 40 games")


def test_peoples_constant():
    assert PEOPLES == ("gruenlinge", "untote", "dunkelelfen")
