"""Würfel Dungeon rules: combos, the attack-maximising partition, values, scaling, coins, score.

Pure functions over numpy arrays and ints; every rule number comes from the frozen config
(``sim.games.dungeon.config.freeze``). Dice are multisets indexed by ``sim.core.dice.multisets(6)``
(all multisets of 0..6 dice; a multiset of ``m`` dice is a full roll of ``m`` dice), so 5 dice,
6 dice (Extra-Würfel) and fewer dice (Würfelfresser) share one table.

A *combo* is one entry of the catalog below (kind + faces): ``C_KIND``, ``C_FA`` (the face W of an
n-of-a-kind, the pair face a of a Full House, the first face of a straight), ``C_FB`` (the triple
face b of a Full House, else 0), ``C_COUNTS`` (the dice it uses). A *partition* of a multiset is a
set of at most 3 disjoint combos; the game shows the one with the highest total attack (ties: fewer
combos, then more shield + heal). A Drilling and a Pasch of different faces never stand side by side
(they are merged into the Full House automatically); the Full House can be split by the player
(``C_SPLIT``), a Vierling or larger appears split only when the parts give more attack.

The catalog ends with the two straights through 7 that Glückssieben makes when its 1 counts as 7 in straights too
(``upgrades.glueckssieben.in_straights``): Kleine Straße 4-5-6-7 and Große Straße 3-4-5-6-7 (``C_SEVEN``); then
the straights from 1 (``C_ONE_STRAIGHT``) are none. ``combo_valid`` says which rows are combos.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from sim.core.dice import POW7, multisets
from sim.games.dungeon.layout import KINDS as KINDS
from sim.games.dungeon.layout import MAX_DICE as MAX_DICE
from sim.games.dungeon.rows import EFF, FOLD, FOLD_CHANCE, FOLD_MAX, FOLD_MUL, N_EFF
from sim.jit.plain import njit
from sim.jit.scalar import smax, smin, trunc
from sim.jit.tier import INLINE

KIND_LABELS = ("Pasch", "Drilling", "Kleine Straße", "Full House", "Vierling", "Große Straße", "Fünfling", "Sechsling")
PASCH, DRILLING, KLEINE, FULL_HOUSE, VIERLING, GROSSE, FUENFLING, SECHSLING = range(8)
N_KIND = 8
OF_A_KIND = {PASCH: 2, DRILLING: 3, VIERLING: 4, FUENFLING: 5, SECHSLING: 6}
STRAIGHT = {KLEINE: 4, GROSSE: 5}
MAX_COMBOS = 3  # 6 dice hold at most three combos (three Pasch)
TM = multisets(MAX_DICE)  # the universal multiset table (924 entries)
N_MS = len(TM.counts)

# roles of an assigned combo
NONE, ATTACK, SHIELD, HEAL = 0, 1, 2, 3
# the codes of the choices the rule record holds (``config.RULES.choice``: a choice's place in its ``Literal``)
ROUND_FLOOR = 0  # ``rp.coins_step_rounding``: "floor" (else "round")
BOSS_DAMAGE_STAGE = 1  # ``rp.scaling_boss_damage``: "stage" (else "boss": the boss factor only)
ROLE_LABELS = ("—", "Angriff", "Schild", "Heilung")


def _catalog():
    rows = []
    for kind in range(N_KIND):
        if kind in OF_A_KIND:
            for w in range(1, 7):
                c = [0] * 6
                c[w - 1] = OF_A_KIND[kind]
                rows.append((kind, w, 0, c))
        elif kind in STRAIGHT:
            for s in range(1, 8 - STRAIGHT[kind]):
                c = [1 if s - 1 <= f < s - 1 + STRAIGHT[kind] else 0 for f in range(6)]
                rows.append((kind, s, 0, c))
        else:
            for b in range(1, 7):
                for a in range(1, 7):
                    if a != b:
                        c = [0] * 6
                        c[b - 1] = 3
                        c[a - 1] = 2
                        rows.append((kind, a, b, c))
    # Glückssieben's straights through 7 (the 1 as 7): 4-5-6-7 and 3-4-5-6-7, after the seed's rows (their ids stay)
    for kind in (KLEINE, GROSSE):
        s = 8 - STRAIGHT[kind]
        rows.append((kind, s, 0, [1 if f == 0 or f >= s - 1 else 0 for f in range(6)]))
    kind = np.array([r[0] for r in rows], np.int64)
    fa = np.array([r[1] for r in rows], np.int64)
    fb = np.array([r[2] for r in rows], np.int64)
    counts = np.array([r[3] for r in rows], np.int64)
    return kind, fa, fb, counts


C_KIND, C_FA, C_FB, C_COUNTS = _catalog()
N_COMBO = len(C_KIND)  # 67: the seed's 65 and Glückssieben's two straights through 7
_STRAIGHT_ROW = (C_KIND == KLEINE) | (C_KIND == GROSSE)
C_SEVEN = _STRAIGHT_ROW & (C_COUNTS[:, 0] == 1) & (C_FA > 1)  # a straight whose 1 is the 7 (Glückssieben)
C_ONE_STRAIGHT = _STRAIGHT_ROW & (C_FA == 1)  # a straight from 1 (1-2-3-4, 1-2-3-4-5): none when the 1 is a 7
C_SIZE = C_COUNTS.sum(axis=1)
C_PIPS = C_COUNTS @ np.arange(1, 7)
C_INDEX = {(int(k), int(a), int(b)): i for i, (k, a, b) in enumerate(zip(C_KIND, C_FA, C_FB, strict=True))}
C_OAK = np.array([OF_A_KIND.get(int(k), 0) for k in C_KIND], np.int64)  # dice of an n-of-a-kind, else 0
OAK_ID = np.full((MAX_DICE + 1, 7), -1, np.int64)  # [dice, face] -> the n-of-a-kind combo (Vereinen's whole)
for _i in range(len(C_KIND)):
    if C_OAK[_i] > 0:
        OAK_ID[C_OAK[_i], C_FA[_i]] = _i
C_SPLIT = np.full((N_COMBO, 2), -1, np.int64)  # Full House -> (Drilling b, Pasch a)
for _i in range(N_COMBO):
    if C_KIND[_i] == FULL_HOUSE:
        C_SPLIT[_i, 0] = C_INDEX[(DRILLING, int(C_FB[_i]), 0)]
        C_SPLIT[_i, 1] = C_INDEX[(PASCH, int(C_FA[_i]), 0)]


def combo_dice(cid: int) -> list[int]:
    """The sorted faces a combo uses (a straight through 7 ends with its 1: 4, 5, 6, 1)."""
    faces = [f + 1 for f in range(6) for _ in range(int(C_COUNTS[cid, f]))]
    return faces[1:] + faces[:1] if C_SEVEN[cid] else faces


def combo_valid(lucky: bool, in_straights: bool) -> np.ndarray:
    """Which catalog rows are combos: with Glückssieben counting its 1 as 7 in straights (``lucky`` and
    ``in_straights``) the straights through 7 and not those from 1 (1-2-3-4 is no straight then), else the seed's
    rows."""
    if lucky and in_straights:
        return ~C_ONE_STRAIGHT
    return ~C_SEVEN


def combo_name(cid: int) -> str:
    """The seed's German name of a combo."""
    return KIND_LABELS[int(C_KIND[cid])]


@njit(cache=True, inline=INLINE)
def round_half_up(x: float) -> int:
    return trunc(np.floor(x + 0.5))


@njit(cache=True)
def combo_values(coef, shield_factor, lucky, lucky_face, kind, fa, fb, out):
    """Base attack, shield, heal of every combo (no upgrades): ``out[c] = (att, sh, heal)``.

    ``coef[kind, role, 0..2]`` = (× W or × pair face a, × triple face b, + flat) for the roles
    attack, shield (before × ``shield_factor``, rounded), heal. With ``lucky`` (Glückssieben) a 1
    counts as ``lucky_face``; straights use their first face as W.
    """
    for c in range(kind.shape[0]):
        k = kind[c]
        wa = fa[c]
        wb = fb[c]
        if lucky and k != KLEINE and k != GROSSE:
            if wa == 1:
                wa = lucky_face
            if wb == 1:
                wb = lucky_face
        for r in range(3):
            x = coef[k, r, 0] * wa + coef[k, r, 1] * wb + coef[k, r, 2]
            if r == 1:
                x = x * shield_factor
            out[c, r] = round_half_up(x)


@cache
def partition_candidates():
    """Every set of <= 3 disjoint combos that fits each multiset (structure only, no values).

    Returns (start [N_MS], n [N_MS], combos [K, 3] padded with -1). Sets holding a Drilling and a
    Pasch of different faces are left out: the game merges those into the Full House.
    """
    counts = TM.counts
    starts = np.zeros(N_MS, np.int64)
    ns = np.zeros(N_MS, np.int64)
    out: list[list[int]] = []
    cc = [tuple(int(x) for x in row) for row in C_COUNTS]

    def rec(rest, first, chosen, acc):
        acc.append(list(chosen))
        if len(chosen) == MAX_COMBOS:
            return
        for c in range(first, N_COMBO):
            need = cc[c]
            if all(rest[f] >= need[f] for f in range(6)):
                rec([rest[f] - need[f] for f in range(6)], c, chosen + [c], acc)

    for k in range(N_MS):
        acc: list[list[int]] = []
        rec([int(x) for x in counts[k]], 0, [], acc)
        starts[k] = len(out)
        for s in acc:
            ds = {int(C_FA[c]) for c in s if C_KIND[c] == DRILLING}
            ps = {int(C_FA[c]) for c in s if C_KIND[c] == PASCH}
            if any(d != p for d in ds for p in ps):
                continue
            out.append(s + [-1] * (MAX_COMBOS - len(s)))
        ns[k] = len(out) - starts[k]
    return starts, ns, np.array(out, np.int64)


@njit(cache=True)
def best_partitions(cstart, cn, cand, att, sh, he, coins, part):
    """``part[k] = (n, c0, c1, c2)``: the shown partition of multiset ``k`` for these values.

    Highest total ``att``; ties: fewer combos, then more shield + heal, then more coins, then the
    first found.
    """
    for k in range(cstart.shape[0]):
        best_a = -1e18
        best_n = 99
        best_o = -1e18
        best_c = -1e18
        bi = -1
        for i in range(cstart[k], cstart[k] + cn[k]):
            a = 0.0
            o = 0.0
            m = 0.0
            n = 0
            for j in range(3):
                c = cand[i, j]
                if c >= 0:
                    a += att[c]
                    o += sh[c] + he[c]
                    m += coins[c]
                    n += 1
            if a > best_a or (
                a == best_a and (n < best_n or (n == best_n and (o > best_o or (o == best_o and m > best_c))))
            ):
                best_a = a
                best_n = n
                best_o = o
                best_c = m
                bi = i
        n = 0
        for j in range(3):
            c = cand[bi, j]
            part[k, 1 + j] = c
            if c >= 0:
                n += 1
        part[k, 0] = n


@njit(cache=True, inline=INLINE)
def effective_values(base, kind, mods, altar, action_base, coin_bonus, out):
    """Values the kernel reads for one modifier state: ``out[c] = (att, shield, heal, coins)``.

    ``base[c]`` = (att, shield, heal, pip sum, is a combo) (``config.base_table``). Attack: base × (Paschmeister on
    Pasch) + attack_flat (Wetzstein) + Opferaltar bonus; shield + shield_flat; heal + heal_flat; coins =
    action_base + combo bonus + pip sum of the combo (with Glückssieben a 1 counts as 7 there too). A row that is
    no combo with this loadout (``rules.combo_valid``) is worth 0 everywhere, so no shown partition takes it (the
    same partition without it has the same attack and fewer combos).
    """
    for c in range(base.shape[0]):
        if base[c, 4] == 0:
            for r in range(4):
                out[c, r] = 0.0
            continue
        a = float(base[c, 0])
        if kind[c] == PASCH:
            a = round_half_up(a * mods[EFF.pasch_attack_mul])
        out[c, 0] = a + mods[EFF.attack_flat] + altar
        out[c, 1] = base[c, 1] + mods[EFF.shield_flat]
        out[c, 2] = base[c, 2] + mods[EFF.heal_flat]
        out[c, 3] = action_base + coin_bonus[kind[c]] + base[c, 3]


# --- upgrade effects (the loadout folded into one modifier vector) ----------------------------


@njit(cache=True, inline=INLINE)
def fold_mods(eff, owned, out):
    """Combine owned upgrades (``owned[u]`` copies of row ``eff[u]``) into one modifier vector (columns ``EFF``).

    Each effect combines by its declared fold (``rows.FOLD``): additive effects add; multipliers stack additively
    too ("a non-unique upgrade taken again adds its effect": two Paschmeister ×2 make ×3, three ×4), never
    compounding; keep/threshold/flag effects take the maximum; crit chances combine as independent chances.
    """
    for e in range(N_EFF):  # a chance column holds the chance of missing until the end
        out[e] = 1.0 if FOLD[e] == FOLD_MUL or FOLD[e] == FOLD_CHANCE else 0.0
    for u in range(eff.shape[0]):
        for _ in range(owned[u]):
            for e in range(N_EFF):
                v = eff[u, e]
                fold = FOLD[e]
                if fold == FOLD_MUL:
                    out[e] += v - 1.0
                elif fold == FOLD_MAX:
                    out[e] = smax(out[e], v)
                elif fold == FOLD_CHANCE:
                    out[e] *= 1.0 - v
                else:
                    out[e] += v
    for e in range(N_EFF):
        if FOLD[e] == FOLD_CHANCE:
            out[e] = 1.0 - out[e]


# --- enemies, sections, coins, score ----------------------------------------------------------


@njit(cache=True)
def enemy_hp(base_hp, room, boss, elite, hp_per_room, hp_factor, diff_hp, diff_boss, elite_hp):
    """Enemy LP: bosses round(base × boss factor), others round((base + 2·room) × 1.12 × stage); an Elite's that LP
    × 1.25, rounded again; at least 1 (a multiplier near 0 rounded enemies to 0 LP, fights the rules do not have)."""
    if boss:
        x = base_hp * diff_boss
    else:
        x = (base_hp + hp_per_room * room) * hp_factor * diff_hp
    hp = max(1, round_half_up(x))
    if elite:  # "Gegner-LP ×1,25": of the enemy's LP as the game shows it (109 → 136, not 109.2 × 1.25 → 137)
        hp = max(1, round_half_up(hp * elite_hp))
    return hp


@njit(cache=True)
def damage_scale(room, diff_damage, growth, compound, boss, diff_boss, boss_stage):
    """Factor on an enemy's base damage in ``room``: stage damage factor × (+3 % per room) for normal enemies;
    the boss factor alone for bosses ("Bosse nutzen nur den Boss-Faktor"), or with ``boss_stage`` the normal
    enemies' scaling (an Elite card's factor is on the hit: ``hit_damage``)."""
    if boss and not boss_stage:
        return diff_boss
    g = (1.0 + growth) ** (room - 1) if compound else 1.0 + growth * (room - 1)
    return diff_damage * g


@njit(cache=True, inline=INLINE)
def hit_damage(base_damage, mult, scale, elite_mul, section_bonus, buff):
    """One enemy hit: round(base × intent multiple × scale), on an Elite card that hit × 1.15 rounded again ("jeder
    Angriff ×1,15" of the hit the game shows: 17 → 20, not 16.6 × 1.15 → 19), + section bonus (Aschehallen) +
    buffs."""
    if mult <= 0.0:
        return 0
    hit = round_half_up(base_damage * mult * scale)
    if elite_mul != 1.0:
        hit = round_half_up(hit * elite_mul)
    return hit + section_bonus + buff


@njit(cache=True, inline=INLINE)
def action_coins(base, nth, steps, rounding_floor):
    """Coins for the ``nth`` (0-based) action of one kind in a fight: base × steps[nth] (0 after)."""
    if nth >= steps.shape[0]:
        return 0
    x = base * steps[nth]
    return trunc(np.floor(x)) if rounding_floor else round_half_up(x)


@njit(cache=True, inline=INLINE)
def player_attack(att, weak_mul, berserk_mul, crit_mul):
    """Damage of one attack combo: × crit (2 on a Glücksklee crit, else 1) × weakened 0.7 × Berserker 1.25,
    rounded half up."""
    return round_half_up(att * weak_mul * berserk_mul * crit_mul)


@njit(cache=True)
def score(rooms_cleared, lp, seconds, win, per_room, per_lp, budget, win_points, points):
    """(rooms × 100 + LP × 5 + max(0, 600 − seconds) + 500 on a win) × points factor, rounded."""
    x = rooms_cleared * per_room + smax(lp, 0) * per_lp + smax(0.0, budget - seconds)
    if win:
        x += win_points
    return round_half_up(x * points)


def code_of(dice) -> int:
    """Multiset code of a list of faces."""
    c = np.bincount(np.asarray(dice, dtype=np.int64) - 1, minlength=6)
    return int(c @ POW7)


def ms_index(dice) -> int:
    """Index in ``TM`` of the multiset of these faces (0..6 dice)."""
    return int(TM.index_of_code[code_of(dice)])


POW7_T = POW7.copy()
C_COUNTS_T = C_COUNTS.copy()
C_PIPS_F = C_PIPS.astype(np.float64)


@njit(cache=True, inline=INLINE)
def resolve_attacks(cv, ids, roles, m, hero_j, hero_factor, mods, weak_mul, berserk, crit_mul, crit_draws, state,
                    dealt, crits):
    """Attack step of a turn's resolution, combo by combo (Glücksklee crit, weakness, Berserker, enemy block
    first, Giftdolch poison per attack combo). ``state`` = [enemy LP, enemy block, poison]; ``crit_draws[j]``
    is the uniform draw of combo ``j`` (a crit when below the crit chance); ``hero_j``: the combo the hero
    ability multiplies by ``hero_factor`` (-1: none). Writes ``dealt[j]`` (before block) and ``crits[j]``;
    returns the LP damage done."""
    total = 0.0
    for j in range(m):
        if roles[j] != ATTACK:
            continue
        c = ids[j]
        cm = 1.0
        crits[j] = 0
        if mods[EFF.crit_chance] > 0 and crit_draws[j] < mods[EFF.crit_chance]:
            cm = crit_mul
            crits[j] = 1
        a = cv[c, 0] * (hero_factor if j == hero_j else 1.0)
        d = player_attack(a, weak_mul, berserk, cm)
        dealt[j] = d
        b = smin(state[1], float(d))
        state[1] -= b
        state[0] -= d - b
        total += d - b
        state[2] += mods[EFF.poison]
    return total


@njit(cache=True, inline=INLINE)
def turn_start_shield(shield, mods):
    """Player shield at the start of the next turn: 0, or up to ``shield_keep`` kept (Eherne Mauer)."""
    return smin(shield, mods[EFF.shield_keep])


@njit(cache=True, inline=INLINE)
def berserk_factor(lp, maxlp, mods):
    """Berserker's attack factor at this LP (× ``berserker_mul`` while LP ≤ ``berserker_lp`` × max LP)."""
    return mods[EFF.berserker_mul] if lp <= mods[EFF.berserker_lp] * maxlp else 1.0
