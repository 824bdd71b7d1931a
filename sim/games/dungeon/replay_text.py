"""The replay of one Würfel Dungeon run as text: the kernel's event log (``eventlog``) rendered turn by turn."""

from __future__ import annotations

import numpy as np

from sim.games.dungeon import config as C
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import DungeonConfig
from sim.games.dungeon.describe import enemy_names
from sim.games.dungeon.words import CARD_NAMES


def _dice(packed: int, nd: int) -> str:
    s = str(packed).rjust(nd, "0")
    return " ".join(s)


def _intent_text(cfg: DungeonConfig, enemy: int, it: int, fz: C.Frozen, hit_total: int) -> str:
    row = fz.intents[it]
    parts = []
    if row[C.IN_DMG] > 0:
        hits = int(row[C.IN_HITS])
        parts.append(f"Angriff {hit_total // hits}×{hits}" if hits > 1 else f"Angriff {hit_total}")
    for idx, label in ((C.IN_BLOCK, "Block"), (C.IN_HEAL, "Heilung"), (C.IN_WEAKEN, "Schwächung"),
                       (C.IN_CURSE, "Fluch"), (C.IN_STEAL, "Diebstahl"), (C.IN_BUFF, "Stärkung"),
                       (C.IN_EAT, "frisst Würfel")):
        if row[idx] > 0:
            parts.append(f"{label} {int(row[idx])}")
    return ", ".join(parts) or "nichts"


EVENT_LABELS = ("Opferaltar", "Joker-Händler", "Verfluchte Truhe")
UP_LABELS = {"wetzstein": "Wetzstein", "dicke_haut": "Dicke Haut", "heilkraeuter": "Heilkräuter",
             "paschmeister": "Paschmeister", "gluecksklee": "Glücksklee", "gluecksmuenze": "Glücksmünze",
             "eherne_mauer": "Eherne Mauer", "giftdolch": "Giftdolch", "berserker": "Berserker",
             "glueckssieben": "Glückssieben", "extra_wuerfel": "Extra-Würfel", "lebenselixier": "Lebenselixier"}
JOKER_KIND_LABELS = ("Würfel setzen", "Extra-Wurf", "Heilung")


def item_label(cfg: DungeonConfig, item: int) -> str:
    """Name of a reward/market item code: upgrade id, ``n_up + joker id``, ``n_up + n_jk`` (dice bonus)."""
    ups = list(cfg.upgrades)
    jks = list(cfg.jokers)
    if item < 0:
        return "—"
    if item < len(ups):
        u = cfg.upgrades[ups[item]]
        return f"{UP_LABELS.get(ups[item], ups[item])} ({u.rarity})"
    if item < len(ups) + len(jks):
        return f"Joker {jks[item - len(ups)]}"
    return "Würfel-Bonus"


def render(cfg: DungeonConfig, fz: C.Frozen, log: np.ndarray, policy: str, seed: int, run: int, diff: str) -> str:
    """The event log of one run as text, room by room and turn by turn."""
    names = enemy_names(cfg)
    lines = [f"Würfel Dungeon — run {run}, seed {seed}, policy {policy}, difficulty {diff}"]
    enemy = 0
    for row in log:
        kind, room, turn = int(row[0]), int(row[1]), int(row[2])
        a = [int(x) for x in row[3:]]
        if kind == P.LG_EVENT:
            sold = f", Joker {list(cfg.jokers)[a[4]]} verkauft" if a[0] == C.EV_JOKER and a[1] and a[4] >= 0 else ""
            lines.append(f"  Geheimnis: {EVENT_LABELS[a[0]]} — {'angenommen' if a[1] else 'abgelehnt'}"
                         f" (LP {a[2]}, Coins {a[3]}{sold})")
        elif kind == P.LG_ROOM:
            enemy = a[1]
            third = CARD_NAMES[a[4]]
            lines.append("")
            lines.append(f"Raum {room}: {CARD_NAMES[a[0]]} (Karten: kampf, elite, {third}) — {names[enemy]}"
                         f"{' (Elite)' if a[7] else ''}: {a[2]} LP, Block {a[3]}; du: {a[5]} LP, {a[6]} Coins")
        elif kind == P.LG_TURN:
            extra = []
            if a[6] > 0:
                extra.append(f"geschwächt {a[6]}")
            if a[8]:
                extra.append("verflucht: " + ",".join(str(i + 1) for i in range(6) if (a[8] >> i) & 1))
            if a[7] != cfg.start.dice:
                extra.append(f"{a[7]} Würfel")
            lines.append(f"  Zug {turn}: LP {a[0]}, Schild {a[1]} | Gegner {a[2]} LP, Block {a[3]}, Absicht: "
                         f"{_intent_text(cfg, enemy, a[4], fz, a[5])}" + (f" [{'; '.join(extra)}]" if extra else ""))
        elif kind == P.LG_ROLL:
            kept = ",".join(str(i + 1) for i in range(a[3]) if (a[2] >> i) & 1) or "—"
            held = "" if a[0] == 1 else f" (gehalten: {kept})"
            tag = (" Letzte Chance" if a[4] == 1 else " Joker") if a[4] else ""
            lines.append(f"    Wurf {a[0]}{tag}: {_dice(a[1], a[3])}{held}")
        elif kind == P.LG_LC:
            lines.append(f"    Letzte Chance gekauft (Coins {a[0]})")
        elif kind == P.LG_ADJ:
            when = " (vor dem Nachwurf)" if a[3] > 0 else ""
            lines.append(f"    Justieren{when}: Würfel {a[0] + 1} von {a[1]} auf {a[2]}")
        elif kind == P.LG_COMBO:
            c = a[0]
            role = R.ROLE_LABELS[a[1]]
            crit = " kritisch!" if a[4] else ""
            lines.append(f"    {R.combo_name(c)} {R.combo_dice(c)} → {role} {a[2]}{crit} (+{a[3]} Coins)")
        elif kind == P.LG_RESOLVE:
            lines.append(f"    Abrechnung: Gegner {max(a[0], 0)} LP, Block {a[1]}; du {a[2]} LP, Schild {a[3]}"
                         + (f", Gift {a[4]}" if a[4] else ""))
        elif kind == P.LG_ENEMY:
            txt = f"    Gegnerzug: {a[1]} Schaden → du {a[2]} LP, Schild {a[3]}; Gegner {max(a[5], 0)} LP, Block {a[4]}"
            if a[6]:
                txt += f", stiehlt {a[6]} Coins"
            if a[7]:
                txt += f", Gift {a[7]}"
            lines.append(txt)
        elif kind == P.LG_END:
            if a[0]:
                ch = "geschafft" if a[2] else "verfehlt"
                lines.append(f"  Sieg in {turn} Zügen: +{a[1]} Coins (Herausforderung {ch}), Kampf-Coins {a[5]};"
                             f" jetzt {a[4]} LP, {a[3]} Coins")
            else:
                lines.append(f"  Niederlage in Raum {room} nach {turn} Zügen")
        elif kind == P.LG_REWARD:
            offers = [item_label(cfg, x) for x in a[:5] if x >= 0]
            lines.append(f"  Belohnung: {' | '.join(offers)} → gewählt: {item_label(cfg, a[5])}"
                         f" (LP {a[6]}/{a[7]}, Coins {a[8]})")
        elif kind == P.LG_STOCK:
            name = "Joker-Pack" if a[0] == -2 else item_label(cfg, a[0])
            if a[0] == len(cfg.upgrades) + len(cfg.jokers):
                name = "Würfel-Pack"
            lines.append(f"  Tagesmarkt: {name} für {a[1]} Coins" + (f" (du hast {a[2]} Coins)" if a[2] >= 0 else ""))
        elif kind == P.LG_BUY:
            lines.append(f"  Gekauft: {item_label(cfg, a[0])}{' (aus dem Joker-Pack)' if a[3] else ''} für {a[1]}"
                         f" Coins → {a[2]} Coins")
        elif kind == P.LG_JOKER:
            jn = list(cfg.jokers)[a[0]]
            if a[1] == C.JK_SET:
                lines.append(f"    Joker {jn}: Würfel {a[2] + 1} von {a[3]} auf {a[4]} gesetzt")
            elif a[1] == C.JK_HEAL:
                lines.append(f"    Joker {jn}: +{a[2]} LP → {a[3]} LP")
            else:
                lines.append(f"    Joker {jn}: Extra-Wurf")
        elif kind == P.LG_HERO:
            lines.append(f"    Heldenfähigkeit: {R.combo_name(a[0])} {R.combo_dice(a[0])} ({R.ROLE_LABELS[a[1]]})"
                         f" × {cfg.hero.factor:g}")
        elif kind == P.LG_RUN:
            lines.append("")
            lines.append(f"Ergebnis: {'gewonnen' if a[0] else 'verloren'}, {a[1]} Räume geschafft, Punkte {a[2]},"
                         f" Zeit {a[3] / 10:.1f} s")
    return "\n".join(lines)
