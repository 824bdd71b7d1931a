"""The replay of one Würfel Dungeon run: the kernel's event log (``eventlog``) declared once (``EVENTS``: every
kind's named fields, what ``replay --json`` prints) and rendered as text turn by turn from the decoded records."""

from __future__ import annotations

from typing import Any

from sim.core.events import EventKind, EventLog
from sim.games.dungeon import config as C
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.describe import enemy_names
from sim.games.dungeon.freeze import Frozen
from sim.games.dungeon.labels import (
    CARD_WORDS,
    DIFFICULTY_WORDS,
    ENEMY_WORDS,
    JOKER_WORDS,
    POLICY_WORDS,
    RARITY_WORDS,
    UPGRADE_WORDS,
)
from sim.games.dungeon.rows import IN
from sim.games.dungeon.words import CARD_NAMES

MAX_EVENTS = 20_000  # log rows a replay has room for (a longer run is reported as truncated)
_ = "_"  # a log column the kind leaves at 0
# log rows ``[kind, room, turn, a .. i]`` (``eventlog.log_event``); the fields name room .. i in order
EVENTS = EventLog((
    EventKind(P.LG_ROOM, "room", ("room", _, "card", "enemy", "enemy_lp", "enemy_block", "third_card", "lp", "coins",
                                  "elite", "dice")),
    EventKind(P.LG_EVENT, "secret", ("room", _, "secret", "accepted", "lp", "coins", "sold_joker", _, _, _, _)),
    EventKind(P.LG_TURN, "turn", ("room", "turn", "lp", "shield", "enemy_lp", "enemy_block", "intent",
                                  "intent_damage", "weakened", "dice", "cursed_mask")),
    # ``dice_packed``: the faces as one decimal number (3-5-5 -> 355); ``how``: 0 a roll, 1 last chance, 2 joker
    EventKind(P.LG_ROLL, "roll", ("room", "turn", "roll", "dice_packed", "held_mask", "dice", "how", _, _, _, _)),
    EventKind(P.LG_ADJ, "adjust", ("room", "turn", "die", "from", "to", "before_reroll", _, _, _, _, _)),
    EventKind(P.LG_COMBO, "combo", ("room", "turn", "combo", "role", "amount", "coins", "crit", _, _, _, _)),
    EventKind(P.LG_RESOLVE, "resolve", ("room", "turn", "enemy_lp", "enemy_block", "lp", "shield", "enemy_poison",
                                        _, _, _, _)),
    EventKind(P.LG_ENEMY, "enemy", ("room", "turn", "intent", "damage", "lp", "shield", "enemy_block", "enemy_lp",
                                    "stolen", "poison", _)),
    EventKind(P.LG_END, "fight_end", ("room", "turn", "won", "reward", "challenge_met", "coins", "lp", "fight_coins",
                                      _, _, _)),
    EventKind(P.LG_RUN, "run_end", (_, _, "won", "rooms_cleared", "score", "tenths", _, _, _, _, _)),
    EventKind(P.LG_LC, "last_chance", ("room", "turn", "coins", _, _, _, _, _, _, _, _)),
    # items: upgrade id, n_upgrades + joker id, n_upgrades + n_jokers (dice bonus), -1 none, -2 the joker pack
    EventKind(P.LG_REWARD, "reward", ("room", _, "offers:5", "picked", "lp", "max_lp", "coins")),
    EventKind(P.LG_STOCK, "stock", ("room", _, "item", "price", "coins", _, _, _, _, _, _)),
    EventKind(P.LG_BUY, "buy", ("room", _, "item", "price", "coins", "from_pack", "lp", "max_lp", _, _, _)),
    # ``detail``: set-die [die, from, to]; heal [LP healed, LP after, 0]; extra roll [0, 0, 0]
    EventKind(P.LG_JOKER, "joker", ("room", "turn", "joker", "kind", "detail:3", _, _, _, _)),
    EventKind(P.LG_HERO, "hero", ("room", "turn", "combo", "role", _, _, _, _, _, _, _)),
))


def _zuege(turns: int) -> str:
    """``1 Zug``, ``3 Zügen`` (after "in" and "nach": the dative plural)."""
    return f"{turns} Zug" if turns == 1 else f"{turns} Zügen"


def _dice(packed: int, nd: int) -> str:
    s = str(packed).rjust(nd, "0")
    return " ".join(s)


def _intent_text(cfg: DungeonConfig, enemy: int, it: int, fz: Frozen, hit_total: int) -> str:
    row = fz.intents[it]
    parts = []
    if row[IN.damage] > 0:
        hits = int(row[IN.hits])
        parts.append(f"Angriff {hit_total // hits}×{hits}" if hits > 1 else f"Angriff {hit_total}")
    for idx, label in ((IN.block, "Block"), (IN.heal, "Heilung"), (IN.weaken, "Schwächung"),
                       (IN.curse, "Fluch"), (IN.steal, "Diebstahl"), (IN.buff, "Stärkung"),
                       (IN.eat, "frisst Würfel")):
        if row[idx] > 0:
            parts.append(f"{label} {int(row[idx])}")
    return ", ".join(parts) or "nichts"


EVENT_LABELS = ("Opferaltar", "Joker-Händler", "Verfluchte Truhe")
UP_LABELS = UPGRADE_WORDS  # the display names of every page (``labels``)
JOKER_KIND_LABELS = ("Würfel setzen", "Extra-Wurf", "Heilung")


def item_label(cfg: DungeonConfig, item: int) -> str:
    """Name of a reward/market item code: upgrade id, ``n_up + joker id``, ``n_up + n_jk`` (dice bonus)."""
    ups = list(cfg.upgrades)
    jks = list(cfg.jokers)
    if item < 0:
        return "—"
    if item < len(ups):
        u = cfg.upgrades[ups[item]]
        return f"{UP_LABELS.get(ups[item], ups[item])} ({RARITY_WORDS.get(u.rarity, u.rarity)})"
    if item < len(ups) + len(jks):
        return f"Joker {JOKER_WORDS.get(jks[item - len(ups)], jks[item - len(ups)])}"
    return "Würfel-Bonus"


def render(replay: Any, cfg: DungeonConfig, fz: Frozen) -> str:
    """The decoded events of one run (``replay``: ``sim.core.events.Replay``) as text, room by room and turn by turn;
    ``cfg`` and ``fz`` are the rules the run was played with (its loadout included)."""
    f = replay.facts
    names = enemy_names(cfg)
    jokers = list(cfg.jokers)
    start = f.get("start_upgrades") or []  # the loadout's and the policy's after '@' (vorschlag@wetzstein)
    lines = [f"Würfel Dungeon · {POLICY_WORDS.get(f['policy'], f['policy'])} · difficulty "
             f"{DIFFICULTY_WORDS.get(f['difficulty'], f['difficulty'])} · run {replay.run}, seed {replay.seed}"
             + (f" · starts with {', '.join(UP_LABELS.get(u, u) for u in start)}" if start else "")]
    enemy = 0
    secret: list[str] = []  # a Geheimnis room's event comes before its room in the log: said under the room's line
    events = replay.sections[0]["events"]
    for i, ev in enumerate(events):
        kind = ev["event"]
        if kind == "secret":
            sold = (f", Joker {JOKER_WORDS.get(jokers[ev['sold_joker']], jokers[ev['sold_joker']])} verkauft"
                    if ev["secret"] == C.EV_JOKER and ev["accepted"] and ev["sold_joker"] >= 0 else "")
            answer = "angenommen" if ev["accepted"] else "abgelehnt"
            secret.append(f"  Geheimnis: {EVENT_LABELS[ev['secret']]} — {answer} (LP {ev['lp']}, "
                          f"Coins {ev['coins']}{sold})")
        elif kind == "room":
            enemy = ev["enemy"]
            lines.append("")
            card, third = (CARD_WORDS[CARD_NAMES[c]] for c in (ev["card"], ev["third_card"]))
            lines.append(f"Raum {ev['room']}: {card} (Karten: Kampf, Elite, {third}) — "
                         f"{ENEMY_WORDS.get(names[enemy], names[enemy])}{' (Elite)' if ev['elite'] else ''}: "
                         f"{ev['enemy_lp']} LP, Block {ev['enemy_block']}; du: {ev['lp']} LP, {ev['coins']} Coins")
            lines += secret
            secret = []
        elif kind == "turn":
            extra = []
            if ev["weakened"] > 0:
                extra.append(f"geschwächt {ev['weakened']}")
            if ev["cursed_mask"]:
                extra.append("verflucht: " + ",".join(str(i + 1) for i in range(6) if (ev["cursed_mask"] >> i) & 1))
            if ev["dice"] != cfg.start.dice:
                extra.append(f"{ev['dice']} Würfel")
            lines.append(f"  Zug {ev['turn']}: LP {ev['lp']}, Schild {ev['shield']} | Gegner {ev['enemy_lp']} LP, "
                         f"Block {ev['enemy_block']}, Absicht: "
                         f"{_intent_text(cfg, enemy, ev['intent'], fz, ev['intent_damage'])}"
                         + (f" [{'; '.join(extra)}]" if extra else ""))
        elif kind == "roll":
            kept = ",".join(str(i + 1) for i in range(ev["dice"]) if (ev["held_mask"] >> i) & 1) or "—"
            held = "" if ev["roll"] == 1 else f" (gehalten: {kept})"
            tag = (" Letzte Chance" if ev["how"] == 1 else " Joker") if ev["how"] else ""
            lines.append(f"    Wurf {ev['roll']}{tag}: {_dice(ev['dice_packed'], ev['dice'])}{held}")
        elif kind == "last_chance":
            lines.append(f"    Letzte Chance gekauft (Coins {ev['coins']})")
        elif kind == "adjust":
            # "before the reroll" only where a reroll follows (rerolls left over were said so before a Fünfling)
            after = next((e["event"] for e in events[i + 1:] if e["event"] != "adjust"), None)
            when = " (vor dem Nachwurf)" if ev["before_reroll"] > 0 and after == "roll" else ""
            lines.append(f"    Justieren{when}: Würfel {ev['die'] + 1} von {ev['from']} auf {ev['to']}")
        elif kind == "combo":
            c = ev["combo"]
            crit = " kritisch!" if ev["crit"] else ""
            lines.append(f"    {R.combo_name(c)} {R.combo_dice(c)} → {R.ROLE_LABELS[ev['role']]} {ev['amount']}{crit}"
                         f" (+{ev['coins']} Coins)")
        elif kind == "resolve":
            poison = f", Gift {ev['enemy_poison']}" if ev["enemy_poison"] else ""  # the poison on the enemy
            lines.append(f"    Abrechnung: Gegner {max(ev['enemy_lp'], 0)} LP, Block {ev['enemy_block']}{poison}; "
                         f"du {ev['lp']} LP, Schild {ev['shield']}")
        elif kind == "enemy":
            txt = (f"    Gegnerzug: {ev['damage']} Schaden → du {ev['lp']} LP, Schild {ev['shield']}; "
                   f"Gegner {max(ev['enemy_lp'], 0)} LP, Block {ev['enemy_block']}")
            if ev["stolen"]:
                txt += f", stiehlt {ev['stolen']} Coins"
            if ev["poison"]:
                txt += f", Gift {ev['poison']}"
            lines.append(txt)
        elif kind == "fight_end":
            if ev["won"]:
                ch = "geschafft" if ev["challenge_met"] else "verfehlt"
                lines.append(f"  Sieg in {_zuege(ev['turn'])}: +{ev['reward']} Coins (Herausforderung {ch}), "
                             f"Kampf-Coins {ev['fight_coins']}; jetzt {ev['lp']} LP, {ev['coins']} Coins")
            else:
                lines.append(f"  Niederlage in Raum {ev['room']} nach {_zuege(ev['turn'])}")
        elif kind == "reward":
            offers = [item_label(cfg, x) for x in ev["offers"] if x >= 0]
            lines.append(f"  Belohnung: {' | '.join(offers)} → gewählt: {item_label(cfg, ev['picked'])}"
                         f" (LP {ev['lp']}/{ev['max_lp']}, Coins {ev['coins']})")
        elif kind == "stock":
            item = ev["item"]
            name = "Joker-Pack" if item == -2 else item_label(cfg, item)
            if item == len(cfg.upgrades) + len(cfg.jokers):
                name = "Würfel-Pack"
            lines.append(f"  Tagesmarkt: {name} für {ev['price']} Coins"
                         + (f" (du hast {ev['coins']} Coins)" if ev["coins"] >= 0 else ""))
        elif kind == "buy":
            bought = "Würfel-Pack" if ev["item"] == len(cfg.upgrades) + len(cfg.jokers) else item_label(cfg, ev["item"])
            lines.append(f"  Gekauft: {bought}{' (aus dem Joker-Pack)' if ev['from_pack'] else ''}"  # as it was offered
                         f" für {ev['price']} Coins → {ev['coins']} Coins")
        elif kind == "joker":
            jn = JOKER_WORDS.get(jokers[ev["joker"]], jokers[ev["joker"]])
            d = ev["detail"]
            if ev["kind"] == C.JK_SET:
                lines.append(f"    Joker {jn}: Würfel {d[0] + 1} von {d[1]} auf {d[2]} gesetzt")
            elif ev["kind"] == C.JK_HEAL:
                lines.append(f"    Joker {jn}: +{d[0]} LP → {d[1]} LP")
            else:
                lines.append(f"    Joker {jn}: ein Wurf mehr")
        elif kind == "hero":
            lines.append(f"    Heldenfähigkeit: {R.combo_name(ev['combo'])} {R.combo_dice(ev['combo'])} "
                         f"({R.ROLE_LABELS[ev['role']]}) × {cfg.hero.factor:g}")
        elif kind == "run_end":
            lines += secret
            lines.append("")
            lines.append(f"Ergebnis: {'gewonnen' if ev['won'] else 'verloren'}, {ev['rooms_cleared']} Räume geschafft, "
                         f"Punkte {ev['score']}, Zeit {ev['tenths'] / 10:.1f} s")
    return "\n".join(lines)
