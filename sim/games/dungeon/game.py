"""Würfel Dungeon in the engine: batches, metrics, charts, replay, describe and the combo cup.

Plain-Python helpers the CLI calls: ``combos_json(dice, cfg)`` (``dicesim combos``) and
``describe(cfg, options)`` (``dicesim describe dungeon``); the ``Game`` methods wrap them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from policies.dungeon import CARD_NAMES, EXPECTIMAX, POLICIES, tm_tuple
from sim import stats
from sim.config import DicesimError, config_hash
from sim.games.base import Game
from sim.games.dungeon import config as C
from sim.games.dungeon import play as P
from sim.games.dungeon import rules as R
from sim.games.dungeon.config import DIFFICULTIES, DungeonConfig, freeze
from sim.games.dungeon.tables import new_cache

FLOAT_COLS = ("seconds",)
TM = tm_tuple()


def check_difficulty(options: dict[str, Any]) -> str:
    d = options.get("difficulty", "leicht")
    if d not in DIFFICULTIES:
        raise DicesimError(f"--difficulty must be one of {', '.join(DIFFICULTIES)}, got {d!r}")
    return d


_FROZEN: dict[tuple[str, str], tuple[C.Frozen, tuple]] = {}


def frozen(cfg: DungeonConfig, difficulty: str) -> tuple[C.Frozen, tuple]:
    """Frozen arrays and the per-thread profile-table cache (``tables.new_cache``) for (config, difficulty),
    memoised: the cache lives as long as the process, so tables are built once per thread and profile."""
    key = (config_hash(cfg), difficulty)
    if key not in _FROZEN:
        fz = freeze(cfg, difficulty)
        _FROZEN[key] = (fz, new_cache(max(1, numba.config.NUMBA_NUM_THREADS)))
    return _FROZEN[key]


def table_columns(cfg: DungeonConfig) -> list[str]:
    """The per-run table columns of this config (upgrade and market columns depend on it)."""
    markets = [r for r in sorted(set(cfg.market.after_rooms)) if r < cfg.rooms.count]
    return P.columns(cfg.rooms.count, list(cfg.upgrades), markets)


# --- the combo cup and the rule tables --------------------------------------------------------


def combos_json(dice: list[int], cfg: DungeonConfig) -> dict[str, Any]:
    """The seed's "Zum Ausprobieren" cup: the shown combos of 5 or 6 dice with their values."""
    if not isinstance(dice, (list, tuple)) or len(dice) not in (5, 6):
        raise DicesimError(f"combos takes 5 or 6 dice, got {len(dice) if isinstance(dice, (list, tuple)) else dice!r}")
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or not 1 <= int(d) <= 6:
            raise DicesimError(f"a die shows 1..6, got {d!r}")
    fz, _ = frozen(cfg, "leicht")
    prof = min(cfg.loadout.altar, fz.part.shape[0] - 1)
    k = R.ms_index([int(d) for d in dice])
    part = fz.part[prof, k]
    cv = fz.cvals[prof]
    combos = []
    for c in part[1 : 1 + part[0]]:
        c = int(c)
        combos.append({"name": R.combo_name(c), "dice": R.combo_dice(c), "attack": int(cv[c, 0]),
                       "shield": int(cv[c, 1]), "heal": int(cv[c, 2])})
    return {"dice": [int(d) for d in dice], "combos": combos, "total_attack": int(sum(x["attack"] for x in combos))}


def enemy_names(cfg: DungeonConfig) -> list[str]:
    return list(cfg.enemies)


def describe(cfg: DungeonConfig, options: dict[str, Any]) -> dict[str, Any]:
    """Derived rule tables: combo values (per face, as the seed's table), enemy LP/damage per room.

    Per room and enemy: ``hp``, ``damage`` (one hit of an intent with multiple 1), ``max_hit`` (the largest
    hit of its intents, before buffs), and the same with ``elite_`` where a path choice offers the Elite card."""
    diff = check_difficulty(options)
    fz, _ = frozen(cfg, diff)
    rp = fz.rp
    cv = fz.cvals[min(cfg.loadout.altar, fz.part.shape[0] - 1)]
    combo_table = []
    for kind in range(R.N_KIND):
        rows = [c for c in range(R.N_COMBO) if R.C_KIND[c] == kind]
        entry: dict[str, Any] = {"combo": R.KIND_LABELS[kind], "kind": R.KINDS[kind],
                                 "tier": getattr(cfg.combos, R.KINDS[kind]).tier,
                                 "coin_bonus": getattr(cfg.combos, R.KINDS[kind]).coin_bonus, "values": []}
        for c in rows:
            entry["values"].append({"dice": R.combo_dice(c), "attack": int(cv[c, 0]), "shield": int(cv[c, 1]),
                                    "heal": int(cv[c, 2]), "coins": int(cv[c, 3])})
        combo_table.append(entry)
    names = enemy_names(cfg)
    sec_names = list(cfg.sections)
    rooms = []
    for r in range(1, cfg.rooms.count + 1):
        row = fz.rooms[r - 1]
        p0, pn = int(row[C.RM_POOL0]), int(row[C.RM_POOLN])
        pool = [int(row[C.RM_BOSS])] if row[C.RM_BOSS] >= 0 else [int(e) for e in fz.pool[p0 : p0 + pn]]
        for e in pool:
            en = fz.en[e]
            boss = bool(en[C.EN_BOSS] > 0)
            item = {"room": r, "section": sec_names[int(row[C.RM_SECTION])], "enemy": names[e]}
            for tag, elite in (("", False), ("elite_", True)):
                if elite and not row[C.RM_PATH]:
                    continue
                hp = R.enemy_hp(en[C.EN_HP], r, boss, elite, rp[C.RP_HP_PER_ROOM], rp[C.RP_HP_FACTOR],
                                rp[C.RP_DIFF_HP], rp[C.RP_DIFF_BOSS], rp[C.RP_ELITE_HP])
                scale = R.damage_scale(r, rp[C.RP_DIFF_DMG], rp[C.RP_GROWTH], rp[C.RP_COMPOUND] > 0, elite,
                                       rp[C.RP_ELITE_ATT], boss, rp[C.RP_DIFF_BOSS], rp[C.RP_BOSS_STAGE] > 0)
                item[f"{tag}hp"] = int(hp)
                item[f"{tag}damage"] = int(R.hit_damage(en[C.EN_DMG], 1.0, scale, int(row[C.RM_ATTBONUS]), 0))
                i0, ni = int(en[C.EN_I0]), int(en[C.EN_IN])
                item[f"{tag}max_hit"] = max(int(R.hit_damage(en[C.EN_DMG], fz.intents[i, C.IN_DMG], scale,
                                                             int(row[C.RM_ATTBONUS]), 0)) for i in range(i0, i0 + ni))
            item["boss"] = boss
            item["chance"] = 1.0 / len(pool)
            item["enemy_block"] = int(row[C.RM_EBLOCK])
            item["player_shield"] = int(row[C.RM_PSHIELD])
            item["challenge"] = C.CHALLENGES[int(row[C.RM_CHALLENGE])]
            item["path_choice"] = bool(row[C.RM_PATH])
            rooms.append(item)
    d = getattr(cfg.difficulty, diff)
    return {
        "game": "dungeon",
        "difficulty": diff,
        "config_hash": config_hash(cfg),
        "assumed": list(cfg.assumed),
        "difficulty_factors": {"hp": d.hp, "damage": d.damage, "boss": d.boss, "points": d.points,
                               "boss_rerolls": d.boss_rerolls},
        "combos": combo_table,
        "rooms": rooms,
        "loadout": {"upgrades": list(cfg.loadout.upgrades), "altar": cfg.loadout.altar},
        "config": cfg.model_dump(mode="json"),
    }


# --- replay -------------------------------------------------------------------------------


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


# --- charts -------------------------------------------------------------------------------


def _n_rooms(table: pd.DataFrame) -> int:
    return sum(1 for c in table.columns if c.startswith("lp_room_"))


def make_charts(tables: dict[str, pd.DataFrame], out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    # survival curve with intervals
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, t in tables.items():
        nr = _n_rooms(t)
        death = t["death_room"].to_numpy()
        surv = [stats.rate((death == 0) | (death >= r)) for r in range(1, nr + 1)] + [stats.rate(t["win"].to_numpy())]
        x = np.arange(1, nr + 2)
        v = [s["value"] for s in surv]
        ax.plot(x, v, marker="o", label=label)
        ax.fill_between(x, [s["ci95"][0] for s in surv], [s["ci95"][1] for s in surv], alpha=0.2)
    ax.set_xlabel("room entered (last point: run won)")
    ax.set_ylabel("share of runs alive")
    ax.set_ylim(0, 1.02)
    ax.set_title("Survival curve")
    ax.legend()
    p = out_dir / "dungeon_survival.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)
    # LP and coin bands
    for col, title in (("lp_room", "LP after each room won (p10/p50/p90)"),
                       ("coins_room", "Coins after each room won (p10/p50/p90)")):
        fig, ax = plt.subplots(figsize=(7, 4))
        for label, t in tables.items():
            nr = _n_rooms(t)
            vals = t[[f"{col}_{r}" for r in range(1, nr + 1)]].to_numpy(dtype=float)
            b = stats.bands(vals)
            x = np.arange(1, nr + 1)
            ax.plot(x, b[1], marker="o", label=label)
            ax.fill_between(x, b[0], b[2], alpha=0.2)
        ax.set_xlabel("room")
        ax.set_title(title)
        ax.legend()
        p = out_dir / f"dungeon_{col}_bands.png"
        fig.tight_layout()
        fig.savefig(p, dpi=110)
        plt.close(fig)
        paths.append(p)
    # win rate by difficulty per policy
    fig, ax = plt.subplots(figsize=(7, 4))
    labels = list(tables)
    width = 0.8 / max(1, len(DIFFICULTIES))
    for j, diff in enumerate(DIFFICULTIES):
        xs, vs, lo, hi = [], [], [], []
        for i, label in enumerate(labels):
            t = tables[label]
            sub = t[t["difficulty"] == diff] if "difficulty" in t.columns else t.iloc[0:0]
            if len(sub) == 0:
                continue
            r = stats.rate(sub["win"].to_numpy())
            xs.append(i + (j - 1) * width)
            vs.append(r["value"])
            lo.append(r["value"] - r["ci95"][0])
            hi.append(r["ci95"][1] - r["value"])
        if xs:
            ax.bar(xs, vs, width=width, yerr=[lo, hi], label=diff, capsize=3)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by difficulty and policy")
    ax.legend()
    p = out_dir / "dungeon_win_rate_by_difficulty.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)
    # where runs die
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, t in tables.items():
        nr = _n_rooms(t)
        counts = np.bincount(t["death_room"].to_numpy().astype(int), minlength=nr + 1)[1:]
        ax.plot(np.arange(1, nr + 1), counts / max(1, len(t)), marker="o", label=label)
    ax.set_xlabel("room")
    ax.set_ylabel("share of runs dying here")
    ax.set_title("Death room distribution")
    ax.legend()
    p = out_dir / "dungeon_death_rooms.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    paths.append(p)
    return paths


# --- progression: per-upgrade analysis ---------------------------------------------------------

FLAG_DEFAULTS = {"dominant_lift": 0.05, "trap_lift": 0.0, "trap_pick_rate": 0.2, "min_offers": 200}


def upgrade_names_of(table: pd.DataFrame) -> list[str]:
    return [c[len("took_first_"):] for c in table.columns if c.startswith("took_first_")]


def stratified_lift(win: np.ndarray, first: np.ndarray, took: np.ndarray) -> dict[str, Any]:
    """Win-rate lift of taking an upgrade at its first offer over leaving it, stratified by the room of that
    first offer (runs that reach a room alive are comparable there), with a normal 95 % interval."""
    rooms = np.unique(first[first > 0])
    num = 0.0
    var = 0.0
    wsum = 0
    for r in rooms:
        sel = first == r
        a = win[sel & (took > 0)]
        b = win[sel & (took == 0)]
        if len(a) == 0 or len(b) == 0:
            continue
        w = int(sel.sum())
        pa, pb = a.mean(), b.mean()
        num += w * (pa - pb)
        var += w * w * (max(pa * (1 - pa), 0.25 / len(a)) / len(a) + max(pb * (1 - pb), 0.25 / len(b)) / len(b))
        wsum += w
    if wsum == 0:
        return {"value": float("nan"), "ci95": [float("nan"), float("nan")]}
    v = num / wsum
    se = float(np.sqrt(var)) / wsum
    return {"value": float(v), "ci95": [float(v - stats.Z95 * se), float(v + stats.Z95 * se)]}


def upgrade_stats(table: pd.DataFrame, flags: dict[str, float] | None = None) -> dict[str, dict[str, Any]]:
    """Per upgrade: offer rate (runs offered it at least once), pick rate (reward picks per offer), win rate
    when picked (reward or market) vs offered and never taken, the stratified first-offer lift, and flags."""
    f = {**FLAG_DEFAULTS, **(flags or {})}
    win = table["win"].to_numpy().astype(float)
    out: dict[str, dict[str, Any]] = {}
    for u in upgrade_names_of(table):
        offered = table[f"offered_{u}"].to_numpy()
        picked = table[f"picked_{u}"].to_numpy()
        bought = table[f"bought_{u}"].to_numpy()
        first = table[f"first_offer_{u}"].to_numpy()
        took = table[f"took_first_{u}"].to_numpy()
        n_off = int(offered.sum())
        have = (picked + bought) > 0
        left = (offered > 0) & ~have
        lift = stratified_lift(win, first, took)
        pick_rate = picked.sum() / n_off if n_off else float("nan")
        lo_ok = n_off >= f["min_offers"]
        dominant = bool(lo_ok and lift["ci95"][0] > f["dominant_lift"])
        trap = bool(lo_ok and lift["ci95"][1] < f["trap_lift"] and pick_rate >= f["trap_pick_rate"])
        lo, hi = stats.wilson(int(picked.sum()), n_off) if n_off else (float("nan"), float("nan"))
        out[u] = {
            "offer_rate": stats.rate(offered > 0),
            "offers": stats.value(n_off),
            "pick_rate": {"value": float(pick_rate), "ci95": [lo, hi]},
            "buy_rate": stats.mean(bought > 0),
            "win_rate_picked": stats.rate(win[have] > 0) if have.any() else stats.value(float("nan")),
            "win_rate_not_picked": stats.rate(win[left] > 0) if left.any() else stats.value(float("nan")),
            "win_lift": lift,
            "dominant": stats.value(float(dominant)),
            "trap": stats.value(float(trap)),
        }
    return out


def progression_metrics(table: pd.DataFrame, options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Economy metrics: upgrades, jokers, dice bonuses, hero uses, coins spent per market, per-upgrade rows."""
    m: dict[str, dict[str, Any]] = {}
    for c in ("rewards", "upgrades_gained", "jokers_gained", "jokers_used", "jokers_set", "jokers_reroll",
              "jokers_heal", "jokers_sold", "dice_bonuses", "hero_uses", "crits", "poison_damage", "market_spent",
              "market_buys"):
        m[f"mean_{c}"] = stats.mean(table[c])
    for c in table.columns:
        if c.startswith("market_spent_"):
            room = int(c.rsplit("_", 1)[1])
            reached = table["rooms_cleared"].to_numpy() >= room
            m[f"coins_spent_market_{room}"] = stats.mean(table.loc[reached, c]) if reached.sum() > 1 else \
                stats.value(float("nan"))
    for u, row in upgrade_stats(table, options.get("flags")).items():
        for k, v in row.items():
            m[f"upgrade_{u}_{k}"] = v
    return m


def upgrade_chart(tables: dict[str, pd.DataFrame], out_dir: Path) -> Path | None:
    """Scatter of pick rate vs win-rate lift per upgrade (one colour per policy), lift intervals as bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not any("rewards" in t.columns for t in tables.values()):
        return None
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, t in tables.items():
        if "rewards" not in t.columns:
            continue
        st = upgrade_stats(t)
        xs = [v["pick_rate"]["value"] for v in st.values()]
        ys = [v["win_lift"]["value"] for v in st.values()]
        err = [[v["win_lift"]["value"] - v["win_lift"]["ci95"][0] for v in st.values()],
               [v["win_lift"]["ci95"][1] - v["win_lift"]["value"] for v in st.values()]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=2, label=label, alpha=0.8)
        for u, x, y in zip(st, xs, ys, strict=True):
            if np.isfinite(x) and np.isfinite(y):
                ax.annotate(UP_LABELS.get(u, u), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("pick rate (reward picks per offer)")
    ax.set_ylabel("win-rate lift (taken at first offer − left)")
    ax.set_title("Upgrades: pick rate vs win-rate lift")
    ax.legend()
    p = Path(out_dir) / "dungeon_upgrades_pick_vs_lift.png"
    fig.tight_layout()
    fig.savefig(p, dpi=110)
    plt.close(fig)
    return p


# --- the Game --------------------------------------------------------------------------------


def with_loadout(cfg: DungeonConfig, policy: str) -> tuple[DungeonConfig, str]:
    """``"vorschlag@paschmeister+wetzstein"``: the policy ``vorschlag`` with these upgrades added to the start
    loadout (so ``compare --policies vorschlag,vorschlag@paschmeister`` measures one upgrade on paired seeds)."""
    if "@" not in policy:
        return cfg, policy
    name, extra = policy.split("@", 1)
    ups = [u.strip() for u in extra.split("+") if u.strip()]
    for u in ups:
        if u not in cfg.upgrades:
            raise DicesimError(f"unknown upgrade {u!r} in policy {policy!r} (choose from {', '.join(cfg.upgrades)})")
    data = cfg.model_dump()
    data["loadout"]["upgrades"] = list(cfg.loadout.upgrades) + ups
    return DungeonConfig.model_validate(data), name


class Dungeon(Game):
    name = "dungeon"
    title = "Würfel Dungeon"
    Config = DungeonConfig
    policies = tuple(POLICIES)
    report_policies = ("vorschlag", "greedy", "expectimax", "random")
    options = {"difficulty": "leicht"}
    headline = {"win_rate": "wins", "mean_rooms_cleared": "rooms cleared", "mean_score": "mean score"}
    per_run = {"win_rate": lambda t: t["win"], "mean_rooms_cleared": lambda t: t["rooms_cleared"],
               "mean_score": lambda t: t["score"]}
    key_chart = "dungeon_survival.png"
    chart_notes = {
        "dungeon_survival.png": "Share of runs still alive entering each room (95 % bands): where runs die.",
        "dungeon_lp_room_bands.png": "LP after each room won (median, p10-p90 band): how much health a run carries.",
        "dungeon_coins_room_bands.png": "Coins after each room won (median, p10-p90 band): the economy's curve.",
        "dungeon_win_rate_by_difficulty.png": "Win rate per policy at the difficulty played (95 % intervals).",
        "dungeon_death_rooms.png": "Share of runs that die in each room: the walls of the dungeon.",
        "dungeon_upgrades_pick_vs_lift.png": "Per upgrade: how often the policy picks it vs how much taking it "
                                             "at its first offer lifts the win rate (observational).",
    }
    metric_groups = (
        ("per upgrade", r"^upgrade_(?P<row>.+?)_(?P<col>offer_rate|offers|pick_rate|buy_rate|win_rate_picked|"
                        r"win_rate_not_picked|win_lift|dominant|trap)$"),
        ("per combo", r"^combos_(?P<row>.+)$"),
        ("per path card", r"^path_(?P<row>.+)$"),
    )

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = super().check_options(options)
        check_difficulty(opts)
        return opts

    def check_policy(self, policy: str) -> None:
        super().check_policy(policy.split("@", 1)[0])

    def prepare(self, cfg: DungeonConfig, policies: list[str], options: dict[str, Any]) -> None:
        for p in policies:
            frozen(with_loadout(cfg, p)[0], check_difficulty(options))

    def simulate(self, cfg, policies, seed, start, count, options) -> dict[str, np.ndarray]:
        if len(policies) != 1:
            raise DicesimError("Würfel Dungeon is played by one policy per run")
        self.check_policy(policies[0])
        cfg, policy = with_loadout(cfg, policies[0])
        diff = check_difficulty(options)
        fz, cache = frozen(cfg, diff)
        cols = table_columns(cfg)
        out = np.zeros((count, len(cols)))
        P.play_batch(POLICIES[policy], int(seed), int(start), int(count), fz, cache, TM, out)
        table: dict[str, np.ndarray] = {"run": np.arange(start, start + count)}
        for j, c in enumerate(cols):
            col = out[:, j]
            if c == "win":
                table[c] = col > 0
            elif c in FLOAT_COLS or c.startswith("lp_room_") or c.startswith("coins_room_"):
                table[c] = col.copy()
            else:
                table[c] = col.astype(np.int64)
        table["policy"] = np.full(count, policies[0], dtype=object)
        table["difficulty"] = np.full(count, diff, dtype=object)
        return table

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: DungeonConfig) -> dict[str, dict[str, Any]]:
        nr = _n_rooms(table)
        m: dict[str, dict[str, Any]] = {
            "win_rate": stats.rate(table["win"].to_numpy()),
            "mean_rooms_cleared": stats.mean(table["rooms_cleared"]),
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

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: DungeonConfig
    ) -> list[Path]:
        paths = make_charts(tables, out_dir)
        p = upgrade_chart(tables, out_dir)
        return paths + ([p] if p else [])

    def replay(self, cfg, policies, seed, run, options) -> str:
        self.check_policy(policies[0])
        cfg, policy = with_loadout(cfg, policies[0])
        diff = check_difficulty(options)
        fz, hold = frozen(cfg, diff)
        _, log = P.run_one(POLICIES[policy], int(seed), int(run), fz, hold, TM, len(P.columns(cfg.rooms.count)),
                           log_rows=20_000)
        return render(cfg, fz, log, policy, seed, run, diff)

    def replay_row(self, cfg, policy: str, seed: int, run: int, options) -> np.ndarray:
        """The table row of one replayed run (the same code path as ``replay``)."""
        cfg, policy = with_loadout(cfg, policy)
        fz, hold = frozen(cfg, check_difficulty(options))
        return P.run_one(POLICIES[policy], int(seed), int(run), fz, hold, TM, len(P.columns(cfg.rooms.count)),
                         log_rows=20_000)[0]

    def balance_extras(self, cfg, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """Difficulty scaling (win rate by difficulty per policy) and each upgrade's measured value (win-rate
        lift when started with it, same seeds) against the Vorschlag rating, for the balance report."""
        from sim.games.dungeon.difficulty import difficulty_chart, difficulty_table
        from sim.games.dungeon.upgrade_lift import rank_agreement, upgrade_lift, upgrade_lift_chart

        table = difficulty_table(self, cfg, ["vorschlag", "greedy"], max(1000, n // 4), seed)
        table.to_csv(Path(out) / "difficulty.csv", index=False)
        png = difficulty_chart(table, Path(out) / "win_rate_by_difficulty.png")
        lift = upgrade_lift(self, cfg, "vorschlag", max(1000, n // 4), seed, self.options["difficulty"])
        lift.to_csv(Path(out) / "upgrade_lift.csv", index=False)
        lift_png = upgrade_lift_chart(lift, Path(out) / "upgrade_lift.png")
        return [
            ("Win rate by difficulty (vorschlag, greedy; same seeds)", png.name),
            (f"Upgrade value: win-rate lift when started with it (vorschlag, same seeds) vs its Vorschlag rating; "
             f"rank agreement {rank_agreement(lift):.2f}", lift_png.name),
        ]

    def describe(self, cfg, options) -> dict[str, Any]:
        return describe(cfg, options)

    def combos(self, dice: list[int], cfg) -> dict[str, Any]:
        return combos_json(dice, cfg)


__all__ = ["GAME", "Dungeon", "combos_json", "describe", "EXPECTIMAX"]

GAME = Dungeon()
