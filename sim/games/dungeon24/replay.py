"""Dungeon24's event log (declared once: kinds and their named fields) and its text, turn by turn."""

from __future__ import annotations

from typing import Any

from sim.core.events import EventKind, EventLog
from sim.games.dungeon24 import play
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import PEOPLE_LABELS, Dungeon24Config, volk
from sim.games.dungeon24.labels import END_WORDS
from sim.report.words import policy_name

# log rows of ``play.play_game``: [kind, turn, seat, a, b, c, d, e]
EVENTS = EventLog((
    EventKind(play.EV_ROLLOFF, "rolloff", ("turn", "seat", "roll0", "roll1", "_", "_", "_")),
    EventKind(play.EV_CURSE, "curse", ("turn", "seat", "lp_lost", "lp", "_", "_", "_")),
    EventKind(play.EV_FIRE, "fire", ("turn", "seat", "ability", "returned", "charges", "window", "_")),
    EventKind(play.EV_COUNTER, "counter", ("turn", "seat", "card", "_", "_", "_", "_")),
    EventKind(play.EV_DEPLOY, "deploy", ("turn", "seat", "card", "_", "_", "_", "_")),
    EventKind(play.EV_ATTACK, "attack", ("turn", "seat", "card", "blocker", "attack_dice", "defence_dice",
                                         "bloodlust")),
    EventKind(play.EV_REROLL, "reroll", ("turn", "seat", "attacker", "old", "new", "discarded", "_")),
    EventKind(play.EV_HIT, "hit", ("turn", "seat", "blocker", "margin", "lp", "wins", "charges")),
    EventKind(play.EV_BLOCK, "block", ("turn", "seat", "attack", "defence", "_", "_", "_")),
    EventKind(play.EV_REINFORCE, "reinforce", ("turn", "seat", "card", "_", "_", "_", "_")),
    EventKind(play.EV_END, "end", ("turns", "winner", "end", "_", "_", "_", "_")),
))


def render(replay: Any, cfg: Dungeon24Config) -> str:
    """Human-readable lines of one run's decoded events (``replay``: ``sim.core.events.Replay``)."""
    f = replay.facts
    people, pols, cards = f["people"], replay.policies, f["cards"]

    def card(s: int, pos: int) -> str:
        v = volk(cfg, people[s])
        c = cards[s][pos]
        cc = v.boss if c == R.BOSS else v.cards[c]
        return f"{cc.name} ({cc.a}/{cc.v})"

    seat = [f"seat {s + 1} ({policy_name('dungeon24', pols[s])}, {PEOPLE_LABELS[people[s]]})" for s in range(2)]
    lines = [f"Dungeon24 run {replay.run} seed {replay.seed}: {seat[0]} vs {seat[1]}"]
    for s in range(2):
        pyr = [card(s, pos) for pos in range(R.N_POS)]
        lines.append(f"  {seat[s]} pyramid: front {', '.join(pyr[:3])} | middle {', '.join(pyr[3:5])} | boss {pyr[5]}")
    for ev in replay.sections[0]["events"]:
        kind = ev["event"]
        t, p = ev.get("turn"), ev.get("seat")
        if kind == "rolloff":
            a, b = ev["roll0"], ev["roll1"]
            tail = " (tie, again)" if a == b else f", seat {1 if a > b else 2} attacks first"
            lines.append(f"roll-off: {a} vs {b}{tail}")
        elif kind == "curse":
            lines.append(f"turn {t}: Schattenschmerz costs seat {p + 1} {ev['lp_lost']} LP (LP {ev['lp']})")
        elif kind == "fire":
            a, c = ev["ability"], ev["charges"]
            extra = f", {card(p, ev['returned'])} returns" if a == R.AB_AUFERSTEHUNG and ev["returned"] >= 0 else ""
            lines.append(f"turn {t}: seat {p + 1} fires {R.ABILITY_NAMES[a]}{extra} at the "
                         f"{R.WINDOW_NAMES[ev['window']]} ({c} charge{'' if c == 1 else 's'} left)")
        elif kind == "counter":
            lines.append(f"turn {t}: seat {p + 1} answers with its boss early: {card(p, R.BOSS)}")
        elif kind == "deploy":
            lines.append(f"turn {t}: seat {p + 1} deploys {card(p, ev['card'])}")
        elif kind == "attack":
            bonus = f" + Blutrausch {ev['bloodlust']}" if ev["bloodlust"] else ""
            lines.append(f"turn {t}: seat {p + 1} attacks with {card(p, ev['card'])} against "
                         f"{card(1 - p, ev['blocker'])}: dice {ev['attack_dice']}{bonus} vs {ev['defence_dice']}")
        elif kind == "reroll":
            role = "attacker" if ev["attacker"] else "defender"
            lines.append(f"turn {t}:   focus: seat {p + 1} ({role}) discards {card(p, ev['discarded'])}, rerolls "
                         f"{ev['old']} -> {ev['new']}")
        elif kind == "hit":
            lines.append(f"turn {t}:   hit by {ev['margin']}: {card(1 - p, ev['blocker'])} falls, seat {2 - p} LP "
                         f"{ev['lp']}; seat {p + 1} wins {ev['wins']}, charges {ev['charges']}")
        elif kind == "block":
            lines.append(f"turn {t}:   blocked ({ev['attack']} vs {ev['defence']})")
        elif kind == "reinforce":
            lines.append(f"turn {t}:   seat {p + 1} reinforces: {card(p, ev['card'])}")
        elif kind == "end":
            w = ev["winner"]
            who = f"seat {w + 1} wins" if w >= 0 else "draw"
            end = R.END_NAMES[ev["end"]]
            lines.append(f"end after {ev['turns']} turns: {who} ({END_WORDS.get(end, end)}); LP {f['lp'][0]} / "
                         f"{f['lp'][1]}, wins {f['wins'][0]} / {f['wins'][1]}")
    return "\n".join(lines)
