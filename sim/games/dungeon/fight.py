"""The fight of one Würfel Dungeon room, turn by turn, as the seed plays it.

``begin_fight`` sets the room's enemy and the player's budgets; then each turn:

1. the player's turn (``player``: ``open_turn``, ``player_turn``): the enemy's announced hit; roll and hold, the
   extra rolls, the dice set by hand, a heal joker, the assignment and the hero ability;
2. resolution (``resolve``): the attacks combo by combo (block first), heals, shields; coins per action;
3. the enemy's turn (``enemy_turn``): block drops, poison ticks, the announced intent (hits, block, heal, weaken,
   curse, steal, buff, eat a die), the next intent.

The steps hand the fight on in a numpy record (``runstate.FIGHT_DTYPE``, read as ``f.ehp``) made on the stack
(``runstate.new_fight``, ``sim.jit.stackrec``) and the run in ``rs``; their work arrays are the borrowed scratch
(``scratch``). Each step is inlined, so the fight compiles as one function whose record LLVM splits into
registers: as fast as when it was written as one function with locals (CONTRIBUTING.md, kernel split).

Draws: the dice from the stream (2, room), crits (4, room), the enemy's random choices (5, room), each keyed with
``rs.sa`` added in a rollout's continuation (``rollctl``).
"""

from __future__ import annotations

from numba import njit

from policies.dungeon.skill import full_skill
from sim.core.rng import below, stream_key, uniform
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.draws import draw_intent
from sim.games.dungeon.eventlog import LG_COMBO, LG_ENEMY, LG_RESOLVE, LG_ROOM, log_event
from sim.games.dungeon.player import open_turn, player_turn
from sim.games.dungeon.rows import EFF, IN
from sim.games.dungeon.runstate import new_fight
from sim.games.dungeon.table import (
    O_CRITS,
    O_DEALT,
    O_EARNED,
    O_FIGHTS,
    O_HEALED,
    O_POISON,
    O_STOLEN,
    O_TAKEN,
    O_TURNS,
)
from sim.games.dungeon.words import ELITE
from sim.jit.scalar import smax, smin, trunc

# --- the fight begins ------------------------------------------------------------------------------------------

@njit(cache=True, error_model="numpy", inline="always")
def begin_fight(pid, seed, run, room, fz, rs, f, out, log, sc):
    """The room's enemy (LP, block, damage, intents, the first one announced), the fight's streams and the player's
    budgets: rerolls (a dice-bonus fight adds some, a boss may cap them), last chances, hero uses, adjusts."""
    rp = fz.rp[0]
    en = fz.en
    rooms = fz.rooms
    rr = room - 1
    e = rs.enemy
    sa = rs.sa
    f.full = full_skill(pid, rp.skill_level_ppm)
    f.elite = rs.card == ELITE
    f.boss = en[e, C.EN_BOSS] > 0
    f.ehp = float(R.enemy_hp(en[e, C.EN_HP], room, f.boss, f.elite, rp.scaling_hp_per_room, rp.scaling_hp_factor,
                             rp.difficulty_hp, rp.difficulty_boss, rp.path_elite_hp))
    f.ehp_max = f.ehp
    f.eblock = float(rooms[rr, C.RM_EBLOCK])
    f.scale = R.damage_scale(room, rp.difficulty_damage, rp.scaling_damage_growth,
                             rp.scaling_damage_growth_compound > 0, f.boss, rp.difficulty_boss,
                             rp.scaling_boss_damage == R.BOSS_DAMAGE_STAGE)
    f.sec_bonus = rooms[rr, C.RM_ATTBONUS]
    f.ebase = en[e, C.EN_DMG]
    f.i0 = trunc(en[e, C.EN_I0])
    f.ni = trunc(en[e, C.EN_IN])
    f.rnd_mode = en[e, C.EN_RANDOM] > 0
    sc.st_en[0] = stream_key(seed, run, 5 + sa, room)
    sc.st_dice[0] = stream_key(seed, run, 2 + sa, room)
    sc.st_crit[0] = stream_key(seed, run, 4 + sa, room)
    f.ii = draw_intent(fz.intents, f.i0, f.ni, sc.st_en) if f.rnd_mode else 0
    f.ebuff = 0
    f.epoison = 0.0
    f.shield = float(rooms[rr, C.RM_PSHIELD])
    f.adjusts = trunc(rp.turn_adjusts + sc.mods[EFF.extra_adjusts])
    rerolls = trunc(rp.turn_rolls) - 1
    if rs.db_left > 0:
        rerolls += trunc(rp.dice_bonus_rerolls)
        rs.db_left -= 1
    lc_left = trunc(rp.turn_last_chance_per_fight)
    extra_ok = True
    if f.boss and rp.difficulty_boss_rerolls >= 0:
        rerolls = smin(rerolls, trunc(rp.difficulty_boss_rerolls))
        lc_left = 0
        extra_ok = False
    f.rerolls = rerolls
    f.lc_left = lc_left
    f.extra_ok = extra_ok
    f.hero_left = trunc(rp.hero_per_fight) if rp.hero_enabled > 0 else 0
    f.cap = rp.coins_boss_fight_cap if f.boss else rp.coins_fight_cap
    f.fight_coins = 0.0
    sc.nact[:] = 0
    f.healed = False
    f.kinds_used = 0
    f.stolen = 0.0
    f.cursed_next = rs.truhe_mask  # the Verfluchte Truhe's dice
    rs.truhe_mask = 0
    f.eat_next = 0
    f.weak = 0
    f.turn = 0
    f.won = False
    f.na = 0
    rs.seconds += rp.time_seconds_per_fight_intro
    out[O_FIGHTS] += 1
    if log.shape[0] > 0:
        rs.nl = log_event(log, rs.nl, LG_ROOM, room, 0, rs.card, e, trunc(f.ehp), trunc(f.eblock), rs.third,
                          trunc(rs.lp), trunc(rs.coins), trunc(f.elite), rs.nd_base)


# --- 3b. resolution: attack (combo by combo, block first), heal, shield; coins per action -----------------------

@njit(cache=True, error_model="numpy", inline="always")
def resolve(room, fz, rs, f, out, log, sc):
    """The assigned combos act: attacks (block first, crits with Glücksklee), heals, shields; then coins and
    counts per action in assignment order (a heal at full LP or a shield against no attack earns none)."""
    rp = fz.rp[0]
    mods = sc.mods
    cv = sc.cv
    aid = sc.aid
    arole = sc.arole
    crits = sc.crits
    cdraw = sc.cdraw
    rstate = sc.rstate
    nact = sc.nact
    m = f.m
    hero_j = f.hero_j
    hero_f = rp.hero_factor
    lp_start = rs.lp
    for j in range(m):
        cdraw[j] = 1.0
        if arole[j] == R.ATTACK and mods[EFF.crit_chance] > 0:
            cdraw[j] = uniform(sc.st_crit)
        crits[j] = 0
    rstate[0] = f.ehp
    rstate[1] = f.eblock
    rstate[2] = f.epoison
    out[O_DEALT] += R.resolve_attacks(cv, aid, arole, m, hero_j, hero_f, mods, f.weak_mul, f.berserk,
                                      rp.combat_crit_mul, cdraw, rstate, sc.dealt, crits)
    f.ehp = rstate[0]
    f.eblock = rstate[1]
    f.epoison = rstate[2]
    lp = rs.lp
    maxlp = rs.maxlp
    for j in range(m):
        if arole[j] == R.HEAL:
            h = cv[aid[j], 2] * (hero_f if j == hero_j else 1.0)
            before = lp
            lp = smin(maxlp, lp + h)
            out[O_HEALED] += lp - before
            f.healed = True
    rs.lp = lp
    for j in range(m):
        if arole[j] == R.SHIELD:
            f.shield += cv[aid[j], 1] * (hero_f if j == hero_j else 1.0)
    # coins and stats per action (in assignment order)
    lp_run = lp_start
    steps = fz.steps
    step_floor = rp.coins_step_rounding == R.ROUND_FLOOR
    incoming = f.hit * f.hits > 0 or rp.coins_useful_shield_needs_attack_intent == 0
    alive = f.ehp > 0
    cap = f.cap
    fight_coins = f.fight_coins
    coins = rs.coins
    kinds_used = f.kinds_used
    nl = rs.nl
    for j in range(m):
        c = aid[j]
        role = arole[j]
        hf = hero_f if j == hero_j else 1.0
        if role == R.ATTACK:
            useful = True
            eff = sc.dealt[j]
            out[O_CRITS] += crits[j]
        elif role == R.HEAL:
            useful = lp_run < maxlp
            eff = trunc(smin(maxlp, lp_run + cv[c, 2] * hf) - lp_run)
            lp_run = smin(maxlp, lp_run + cv[c, 2] * hf)
        else:
            useful = alive and incoming
            eff = trunc(cv[c, 1] * hf)
        pay = 0.0
        if useful:
            pay = float(R.action_coins(cv[c, 3], nact[role], steps, step_floor))
            nact[role] += 1
            pay = smin(pay, cap - fight_coins)
            fight_coins += pay
            coins += pay
            out[O_EARNED] += pay
        kind = R.C_KIND[c]
        out[rs.b_combo + kind] += 1
        kinds_used |= 1 << kind
        was_crit = crits[j] if role == R.ATTACK else 0
        if log.shape[0] > 0:
            nl = log_event(log, nl, LG_COMBO, room, f.turn, c, role, eff, trunc(pay), was_crit, 0, 0, 0, 0)
    f.fight_coins = fight_coins
    rs.coins = coins
    f.kinds_used = kinds_used
    rs.nl = nl
    # thinking time: a hold decision before each roll after the first, and the assignment
    rs.seconds += m * rp.time_seconds_per_assignment + rp.time_turn_end + f.nroll * rp.time_seconds_per_decision
    if f.weak > 0:
        f.weak -= 1
    if log.shape[0] > 0:
        rs.nl = log_event(log, rs.nl, LG_RESOLVE, room, f.turn, trunc(f.ehp), trunc(f.eblock), trunc(rs.lp),
                          trunc(f.shield), trunc(f.epoison), 0, 0, 0, 0)


# --- 3c. the enemy's turn: block drops, poison ticks, the announced intent --------------------------------------

@njit(cache=True, error_model="numpy", inline="always")
def enemy_turn(room, fz, rs, f, out, log, sc):
    """The enemy's block drops and poison ticks (it may die of it: ``f.won``); then its announced intent: hits
    (the shield takes them first), block, heal, weaken, curse dice, steal coins, buff, eat a die; then the next
    intent is announced."""
    rp = fz.rp[0]
    intents = fz.intents
    it = f.it
    f.eblock = 0.0
    pdmg = 0
    if f.epoison > 0:
        pdmg = trunc(f.epoison)
        f.ehp -= f.epoison
        out[O_POISON] += f.epoison
        f.epoison = smax(0.0, f.epoison - rp.poison_decay)
        if f.ehp <= 0:
            f.won = True
            if log.shape[0] > 0:
                rs.nl = log_event(log, rs.nl, LG_ENEMY, room, f.turn, it, 0, trunc(rs.lp), trunc(f.shield), 0,
                                  trunc(f.ehp), 0, pdmg, 0)
            return
    taken = 0.0
    hit = f.hit
    if hit > 0:
        shield = f.shield
        lp = rs.lp
        for _ in range(f.hits):
            a = smin(shield, float(hit))
            shield -= a
            lp -= hit - a
            taken += hit - a
        f.shield = shield
        rs.lp = lp
    out[O_TAKEN] += taken
    f.eblock += intents[it, IN.block]
    f.ehp = smin(f.ehp_max, f.ehp + intents[it, IN.heal])
    f.weak = smax(f.weak, trunc(intents[it, IN.weaken]))
    ncurse = trunc(intents[it, IN.curse])
    if ncurse > 0:
        # k distinct random dice (partial Fisher-Yates over the dice indices)
        idx = sc.idx
        nd_base = rs.nd_base
        for q in range(nd_base):
            idx[q] = q
        for q in range(smin(ncurse, nd_base)):
            w = q + below(sc.st_en, nd_base - q)
            tq = idx[q]
            idx[q] = idx[w]
            idx[w] = tq
            f.cursed_next |= 1 << idx[q]
    steal = smin(rs.coins, intents[it, IN.steal])
    rs.coins -= steal
    f.stolen += steal
    out[O_STOLEN] += steal
    f.ebuff += trunc(intents[it, IN.buff])
    f.eat_next = trunc(intents[it, IN.eat])
    if log.shape[0] > 0:
        rs.nl = log_event(log, rs.nl, LG_ENEMY, room, f.turn, it, trunc(taken), trunc(rs.lp), trunc(f.shield),
                          trunc(f.eblock), trunc(f.ehp), trunc(steal), pdmg, 0)
    if rs.lp > 0:
        f.ii = draw_intent(intents, f.i0, f.ni, sc.st_en) if f.rnd_mode else (f.ii + 1) % f.ni


# --- the fight ----------------------------------------------------------------------------------------------------

@njit(cache=True, error_model="numpy", inline="always")  # a phase: one call site, in both tiers
def fight(pl, room, fz, rs, sc, pf, wr):
    """Play the fight of room ``room`` (its path card, enemy and the loadout's profile slot are in ``rs``), turn
    by turn until the enemy or the player falls (or the turn limit, which counts as a loss); leaves LP, coins,
    jokers and the outcome (won, turns, coins earned, stolen, combos used, healed) in ``rs`` and the fight's
    columns in ``out``."""
    pid, seed, run = pl
    cache, t, tm = pf
    out, log = wr
    f = new_fight()
    begin_fight(pid, seed, run, room, fz, rs, f, out, log, sc)
    while True:
        f.turn += 1
        if f.turn > fz.rp[0].turn_max_turns:  # the limit: a loss after the turns played (this one is not)
            f.turn -= 1
            rs.lp = 0.0
            break
        open_turn(room, fz, rs, f, log, sc)
        player_turn(pid, room, fz, rs, f, cache, t, tm, out, log, sc)
        resolve(room, fz, rs, f, out, log, sc)
        if f.ehp <= 0:
            f.won = True
            break
        enemy_turn(room, fz, rs, f, out, log, sc)
        if f.won or rs.lp <= 0:
            break
    out[O_TURNS] += f.turn
    out[rs.b_turns + room - 1] = f.turn
    rs.won = f.won
    rs.elite = f.elite
    rs.boss = f.boss
    rs.turn = f.turn
    rs.fight_coins = f.fight_coins
    rs.stolen = f.stolen
    rs.kinds_used = f.kinds_used
    rs.healed = f.healed
