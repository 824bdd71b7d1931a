"""The Würfel Dungeon run kernel: whole runs (10 rooms, path choices, fights, rewards, markets) under a policy.

Why one ~1,050-line module (120 lines of it imports) with one long ``play_run``: measured, not a preference.
The same run written as small phase functions on numpy records (run state, fight state, the rule record
``rp.n_rooms``; kept in this branch's history, commit 59a3549) played identical tables but compiled in 1.8x the
CPU time (298 s against 166 s cold, ``benchmarks/compile_times.py``) and ran 9-15 % slower (vorschlag, greedy):
record fields live in memory where these locals live in registers, and LLVM's passes work harder on every load
and store. So the phases are sections of ``play_run``, in the seed's order, each under a ``# ---`` heading:

1. enter the room: the map draw (third path card, Geheimnis event, enemy), the path card and its event;
2. the loadout's profile: combo values and the cached partition and hold tables (only when the loadout changed);
3. the fight, turn by turn: player turn (roll, hold with Justieren before a reroll, joker rerolls, the last
   chance, adjusts, set-die and heal jokers, assignment, hero ability), resolution, enemy turn;
4. after the room: coins for the win and its challenge, the reward, the Tagesmarkt.

Every policy decision goes through one dispatcher per decision kind (``policies.dungeon``: ``decide_path``,
``decide_event``, ``decide_keep``, ``decide_assign`` …, ``decide_reward``, ``decide_buy``). The row layout is in
``table``, the event log in ``eventlog``, the game's random draws (intents, offers, jokers) in ``draws``.

One run draws only from ``sim.rng`` streams keyed by (seed, run, purpose, room): the map of room ``r`` (third path
card, Geheimnis event, enemy) from (1, r), the dice of room ``r``'s fight from (2, r), the policy's own random
choices from (3, 0), Glücksklee crits from (4, r), the enemy's random choices (intent draws, cursed dice) from
(5, r), the reward offers after room ``r`` from (6, r) and the market after room ``r`` from (7, r); below full
skill (``[skill]``) the lapse coins of every decision from (``SKILL_STREAM``, 0) (``policies.dungeon_skill``). Every
policy therefore meets the same rooms, and a table does not depend on chunking or threads.

``play_run`` plays one run and writes its row of the per-run table (``table.columns``); with a non-empty ``log``
it also writes the event log that ``replay`` renders (the same code path). ``play_batch`` runs ``play_run`` over
a chunk with ``prange``.

The run's progression state: the loadout (``owned`` counts of the rows of ``up_eff``: upgrades, then talents)
folded into ``mods`` (``rules.EFF_*``), which the fight reads for every effect; the combo values ``cv`` of the
loadout and Opferaltar bonus; the shown partitions and hold tables of its profile key from the per-thread cache
(``tables.lookup``, rebuilt on a miss when a pick changes the key); the joker stack (the last one is the one the
Joker-Händler takes); dice-bonus fights left. Progression order after a won room: win coins (and the room's
challenge), the reward (pick 1 of ``rewards.offers``; none after the last room), then the Tagesmarkt after the
market rooms.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from policies.dungeon import (
    EXPECTIMAX,
    GREEDY,
    MAX_ADJ,
    MAX_LEVELS,
    adjust_hold_considered,
    decide_adjust,
    decide_adjust_hold,
    decide_assign,
    decide_buy,
    decide_event,
    decide_hero,
    decide_joker_heal,
    decide_joker_reroll,
    decide_keep,
    decide_last_chance,
    decide_path,
    decide_reward,
    decide_set_die,
    expectation_tables,
    offer_value,
)
from policies.dungeon_ids import ROLLOUT
from policies.dungeon_skill import full_skill, who
from policies.skill import SKILL_STREAM
from sim.borrow import borrow
from sim.games.dungeon import layout as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.draws import (  # noqa: F401 - draw_upgrade re-exported for tests
    draw_eligible,
    draw_intent,
    draw_joker,
    draw_upgrade,
    eligible_upgrades,
    find_joker,
    pop_joker,
)
from sim.games.dungeon.eventlog import (  # noqa: F401 - the log kinds, re-exported for replay and tests
    LG_ADJ,
    LG_BUY,
    LG_COMBO,
    LG_END,
    LG_ENEMY,
    LG_EVENT,
    LG_GAIN,
    LG_HERO,
    LG_JOKER,
    LG_LC,
    LG_RESOLVE,
    LG_REWARD,
    LG_ROLL,
    LG_ROOM,
    LG_RUN,
    LG_STOCK,
    LG_TURN,
    LOG_W,
    log_event,
    pack_dice,
)
from sim.games.dungeon.rollctl import (
    K_BUY,
    K_EVENT,
    K_PATH,
    K_REWARD,
    MAX_DECISIONS,
    RC_DEC,
    RC_HIT,
    RC_SIZE,
    STOP,
    rl_decide,
    salt_now,
)
from sim.games.dungeon.table import (  # noqa: F401 - the row layout, re-exported for game and tests
    FIXED,
    N_FIXED,
    N_UC,
    O_ADJUSTS,
    O_ALTARS,
    O_CHALLENGES,
    O_COINS,
    O_CRITS,
    O_DEALT,
    O_DEATH,
    O_DICE_BONUS,
    O_EARNED,
    O_FIGHTS,
    O_HEALED,
    O_HERO,
    O_JK_GAINED,
    O_JK_HEAL,
    O_JK_REROLL,
    O_JK_SET,
    O_JK_SOLD,
    O_JK_USED,
    O_LC,
    O_LP,
    O_MAXLP,
    O_MK_BUYS,
    O_MK_SPENT,
    O_POISON,
    O_REWARDS,
    O_ROLLS,
    O_ROOMS,
    O_SCORE,
    O_SECONDS,
    O_STOLEN,
    O_TAKEN,
    O_TRUHEN,
    O_TURNS,
    O_UPGRADES,
    O_WIN,
    PATH_KINDS,
    UC_BOUGHT,
    UC_FIRST,
    UC_OFFERED,
    UC_PICKED,
    UC_TOOK_FIRST,
    UP_COLS,
    columns,
    n_columns,
)
from sim.games.dungeon.tables import lookup, probe
from sim.games.dungeon.words import (
    ELITE,
    FS_ATT_MUL,
    FS_COINS,
    FS_EBLOCK,
    FS_EHP,
    FS_EPOISON,
    FS_INCOMING,
    FS_LC_COST,
    FS_LC_OK,
    FS_LP,
    FS_MAXLP,
    FS_SHIELD,
    FS_SIZE,
    GEHEIMNIS,
    ITEM_DICE,
    ITEM_JOKER,
    ITEM_UPGRADE,
    KAMPF,
    RAST,
)
from sim.rng import below, die, stream_key, uniform
from sim.scalar import smax, smin, trunc
from sim.tier import INLINE


@njit(cache=True, error_model="numpy", inline=INLINE)
def _ms(dice, nd, mask, want, ioc):
    """Multiset index of the dice whose bit in ``mask`` equals ``want`` (``want`` -1: all dice)."""
    code = 0
    for i in range(nd):
        if want < 0 or ((mask >> i) & 1) == want:
            code += R.POW7_T[dice[i] - 1]
    return ioc[code]


@njit(cache=True, error_model="numpy", inline=INLINE)
def _reroll(dice, nd, cursed_mask, keep, counts, st, kc):
    """Reroll every die not in multiset ``keep`` (cursed dice are kept first). Returns the held mask."""
    for f in range(6):
        kc[f] = counts[keep, f]
    held = 0
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            kc[dice[i] - 1] -= 1
            held |= 1 << i
    for i in range(nd):
        if (cursed_mask >> i) & 1:
            continue
        if kc[dice[i] - 1] > 0:
            kc[dice[i] - 1] -= 1
            held |= 1 << i
        else:
            dice[i] = die(st)
    return held


@njit(cache=True, error_model="numpy", inline=INLINE)
def _roll_again(dice, nd, cursed_mask, keep, counts, st, kc, out, log, nl, room, turn, nroll, how):
    """Roll number ``nroll`` of the turn: reroll all but multiset ``keep``, count it and log it (``how``: 0 a
    reroll, 1 the last chance, 2 a joker's extra reroll). Returns the log length."""
    held = _reroll(dice, nd, cursed_mask, keep, counts, st, kc)
    out[O_ROLLS] += 1
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_ROLL, room, turn, nroll, pack_dice(dice, nd), held, nd, how, 0, 0, 0, 0)
    return nl


@njit(cache=True, error_model="numpy")
def new_scratch(pid, n_all):
    """Per-thread work arrays of ``play_run``: (floats, ints, streams, etabs (per adjusts left), scratch, memo, cv,
    owned + the eligible-upgrade groups, items, offer floats); ``n_all``: upgrade and talent rows of the loadout."""
    big = pid == EXPECTIMAX
    return (np.zeros(R.N_EFF + FS_SIZE), np.zeros(80, np.int64), np.zeros(7, np.uint64),
            np.zeros((MAX_ADJ + 1, MAX_LEVELS + 1, R.N_MS) if big else (1, 1, 1)),
            np.zeros((2 * MAX_ADJ + 2, R.N_MS) if big else (1, 1)),
            np.zeros(R.N_MS if big else 1), np.zeros((R.N_COMBO, 4)), np.zeros(2 * smax(1, n_all) + 4, np.int64),
            np.zeros(3 * C.MAX_STOCK + C.MAX_JOKERS + 8, np.int64), np.zeros(4 * C.MAX_STOCK))


@njit(cache=True, error_model="numpy")
def play_run(pid, seed, run, fz, cache, t, tm, out, log, sc, forced, rc):
    """Play run ``run``; fill ``out`` (one table row); returns the number of log rows written.

    ``cache``: the profile-table cache (``tables.new_cache``), of which this run uses thread row ``t``;
    ``sc``: work arrays from ``new_scratch`` (reused between runs of one thread); ``forced``, ``rc``: the rollout
    control (``rollctl``: forced run-level choices, continuation salt, stop at the next decision), empty for a
    plain run."""
    # The caller owns every array for the whole run: borrowed, they carry no reference count (sim/borrow.py)
    fz, cache, tm, sc = borrow(fz), borrow(cache), borrow(tm), borrow(sc)
    out, log, forced, rc = borrow(out), borrow(log), borrow(forced), borrow(rc)
    rp = fz.rp
    rpr = fz.rpr[0]  # the same numbers as a record: the policies read their weights by name
    en = fz.en
    intents = fz.intents
    counts = tm[0]
    ioc = tm[4]
    nl = 0
    n_rooms = trunc(rp[C.RP_N_ROOMS])
    n_up = trunc(rp[C.RP_N_UP])
    lp_base = N_FIXED
    coins_base = N_FIXED + n_rooms
    turns_base = N_FIXED + 2 * n_rooms
    combo_base = N_FIXED + 3 * n_rooms
    path_base = combo_base + R.N_KIND
    mk_base = path_base + 4
    n_mk = 0
    for r in range(n_rooms):
        n_mk += fz.rooms[r, C.RM_MARKET]
    up_base = mk_base + n_mk
    for j in range(out.shape[0]):
        out[j] = 0.0
    for r in range(n_rooms):
        out[lp_base + r] = np.nan
        out[coins_base + r] = np.nan
    fbuf, ibuf, ubuf, etabs, scratch, memo, cv, obuf, items, ofl = sc
    n_own = smax(1, fz.loadout.shape[0])
    owned = obuf[:n_own]
    elig = obuf[n_own:]
    mods = fbuf[:R.N_EFF]
    fs = fbuf[R.N_EFF : R.N_EFF + FS_SIZE]
    c_keys = cache[0]
    c_part = cache[1]
    c_pcl = cache[2]
    c_hold = cache[3]
    c_eatt = cache[4]
    for u in range(owned.shape[0]):
        owned[u] = fz.loadout[u] if u < fz.loadout.shape[0] else 0
    R.fold_mods(fz.up_eff, owned, mods)
    maxlp = rp[C.RP_LP] + mods[R.EFF_MAX_LP]
    lp = maxlp
    coins = rp[C.RP_COINS] + rp[C.RP_TALENT_COINS]
    altar = trunc(rp[C.RP_START_ALTAR])
    seconds = 0.0
    want_etab = pid == EXPECTIMAX
    need_gain = pid == GREEDY or pid == EXPECTIMAX
    dice = ibuf[0:6]
    aid = ibuf[6:10]
    arole = ibuf[10:14]
    work = ibuf[14:30]
    kc6 = ibuf[30:36]
    dealt_j = ibuf[36:40]
    crit_j = ibuf[40:44]
    nact = ibuf[44:48]
    idx = ibuf[48:54]
    cards = ibuf[54:57]
    offers = items[0 : C.MAX_STOCK]
    okv = items[C.MAX_STOCK : 2 * C.MAX_STOCK]
    ikind = items[2 * C.MAX_STOCK : 3 * C.MAX_STOCK]
    jokers = items[3 * C.MAX_STOCK : 3 * C.MAX_STOCK + C.MAX_JOKERS]
    vals = ofl[0 : C.MAX_STOCK]
    prices = ofl[C.MAX_STOCK : 2 * C.MAX_STOCK]
    cdraw = ofl[2 * C.MAX_STOCK : 2 * C.MAX_STOCK + 4]
    rstate = ofl[3 * C.MAX_STOCK : 3 * C.MAX_STOCK + 3]
    st_pol = ubuf[0:1]
    st_map = ubuf[1:2]
    st_dice = ubuf[2:3]
    st_en = ubuf[3:4]
    st_crit = ubuf[4:5]
    st_off = ubuf[5:6]
    st_pol[0] = stream_key(seed, run, 3, 0)
    ro = rc.shape[0] > 0  # under rollout control (``rollctl``)
    sa = 0  # purpose-key offset of the streams keyed from now on: 0 but in a rollout's continuation
    if ro:
        rc[RC_DEC] = 0
        rc[RC_HIT] = 0
    # the skill level (``policies.dungeon_skill``): below 1 each decision may lapse into random's move
    sk = rp[C.RP_SK_PLAYER]
    full = full_skill(pid, sk)
    st_sk = ubuf[6:7]
    if not full:
        st_sk[0] = stream_key(seed, run, SKILL_STREAM, 0)
    nj = 0
    for q in range(fz.start_jokers.shape[0]):
        jokers[nj] = fz.start_jokers[q]
        nj += 1
    max_j = trunc(rp[C.RP_MAX_JOKERS])
    db_left = 0
    truhe_mask = 0
    rooms_cleared = 0
    death = 0
    mk_index = 0
    step_floor = rp[C.RP_STEP_FLOOR] > 0
    dirty = True
    slot = 0
    k_att = np.nan  # the effects the combo values were last computed for
    k_altar = -1
    k_sh = np.nan
    k_he = np.nan
    k_pm = np.nan
    k_lk = np.nan
    jk = fz.jk
    steps = fz.steps
    up_rarity = fz.up_rarity
    up_unique = fz.up_unique
    rarity_w = fz.rarity_w
    n_jk = jk.shape[0]
    up_eff = fz.up_eff
    base2 = fz.base2
    coin_bonus = fz.coin_bonus
    cstart = fz.cstart
    cn = fz.cn
    cand = fz.cand
    action_base = rp[C.RP_ACTION_BASE]
    rooms = fz.rooms
    pool = fz.pool
    ev_weights = fz.ev_weights
    ev_tot = ev_weights.sum()
    mk_prices = fz.prices
    n_off = trunc(rp[C.RP_OFFERS])
    n_mk_up = trunc(rp[C.RP_MK_UPGRADES])
    pack_n = trunc(rp[C.RP_JOKER_PACK_N])
    adj_step = trunc(rp[C.RP_ADJ_STEP])
    etab = etabs[0]  # expectimax's table of the adjusts left (the turn loop takes it again)
    jk_wsum = 0.0
    for jj in range(n_jk):
        jk_wsum += jk[jj, C.JK_WEIGHT]
    # the profile tables of the loadout (row views are taken again only when the loadout changed)
    part = c_part[t, 0]
    pcl = c_pcl[t, 0]
    hp_tab = c_hold[t, 0]
    for room in range(1, n_rooms + 1):
        # --- 1. enter the room: map, path card, event ---
        rr = room - 1
        st_map[0] = stream_key(seed, run, 1 + sa, room)
        third = RAST if uniform(st_map) < rp[C.RP_REST_CHANCE] else GEHEIMNIS
        # Geheimnis event and enemy, drawn whatever the choice so that every policy meets the same rooms
        event, e = _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, pool)
        card = KAMPF
        if rooms[rr, C.RM_PATH]:
            cards[0] = KAMPF
            cards[1] = ELITE
            cards[2] = third
            dp = pid if full else who(pid, sk, st_sk)
            ci = -1
            if ro:
                ci = rl_decide(rc, forced, K_PATH, 3, 7)
                if ci == STOP:
                    return nl
            if ci < 0:
                ci = decide_path(dp, cards, lp, maxlp, st_pol)
            card = cards[ci]
            if ro and sa == 0:
                sa = salt_now(rc)
                if sa != 0:
                    _salted(seed, run, sa, room, ubuf)
                    # the cards were seen, not what lies behind them: the continuation meets its own event and enemy
                    st_map[0] = stream_key(seed, run, 1 + sa, room)
                    uniform(st_map)  # the third card, already shown
                    event, e = _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, pool)
            seconds += rp[C.RP_T_PATH]
            out[path_base + card] += 1
            if card == GEHEIMNIS:
                dp = pid if full else who(pid, sk, st_sk)
                ci = -1
                if ro:
                    can = not ((event == C.EV_ALTAR and lp <= rp[C.RP_ALTAR_LP]) or (event == C.EV_JOKER and nj == 0))
                    ci = rl_decide(rc, forced, K_EVENT, 2, 3 if can else 1)
                    if ci == STOP:
                        return nl
                if ci < 0:
                    acc = decide_event(dp, event, lp, maxlp, rp[C.RP_ALTAR_LP], st_pol, jokers, nj, jk)
                else:
                    acc = ci == 1
                if ro and sa == 0:
                    sa = salt_now(rc)
                    if sa != 0:
                        _salted(seed, run, sa, room, ubuf)
                sold = -1
                if acc:
                    if event == C.EV_ALTAR:
                        lp -= rp[C.RP_ALTAR_LP]
                        altar += trunc(rp[C.RP_ALTAR_ATT])
                        out[O_ALTARS] += 1
                        dirty = True
                    elif event == C.EV_JOKER:
                        nj -= 1
                        sold = jokers[nj]
                        coins += rp[C.RP_JH_COINS]
                        out[O_EARNED] += rp[C.RP_JH_COINS]
                        out[O_JK_SOLD] += 1
                    else:
                        coins += rp[C.RP_TRUHE_COINS]
                        out[O_EARNED] += rp[C.RP_TRUHE_COINS]
                        truhe_mask = 1 << (trunc(rp[C.RP_TRUHE_DIE]) - 1)
                        out[O_TRUHEN] += 1
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_EVENT, room, 0, event, trunc(acc), trunc(lp), trunc(coins), sold, 0, 0,
                                   0, 0)
            if card == RAST:
                lp = smin(maxlp, lp + rp[C.RP_REST_HEAL])
        # --- 2. the loadout's profile ---
        if dirty:
            # combo values and profile tables only when an effect they read changed
            R.fold_mods(up_eff, owned, mods)
            a_now = mods[R.EFF_ATTACK_FLAT]
            if (a_now != k_att or altar != k_altar or mods[R.EFF_SHIELD_FLAT] != k_sh or mods[R.EFF_HEAL_FLAT] != k_he
                    or mods[R.EFF_PASCH_MUL] != k_pm or mods[R.EFF_LUCKY] != k_lk):
                R.effective_values(base2[1 if mods[R.EFF_LUCKY] > 0 else 0], R.C_KIND, mods, float(altar), action_base,
                                   coin_bonus, cv)
                k_att = a_now
                k_altar = altar
                k_sh = mods[R.EFF_SHIELD_FLAT]
                k_he = mods[R.EFF_HEAL_FLAT]
                k_pm = mods[R.EFF_PASCH_MUL]
                k_lk = mods[R.EFF_LUCKY]
            dirty = False
        # the profile tables: look up again when the key changed or its slot was reused (a full cache row)
        if not (c_keys[t, slot, 0] == k_att + k_altar and c_keys[t, slot, 1] == k_pm and c_keys[t, slot, 2] == k_lk):
            slot = probe(c_keys, t, k_att + k_altar, k_pm, k_lk)
            if slot < 0:
                slot = lookup(cache, t, k_att + k_altar, k_pm, k_lk, base2, coin_bonus, action_base, cstart, cn, cand,
                              tm)
            part = c_part[t, slot]
            pcl = c_pcl[t, slot]
            hp_tab = c_hold[t, slot]
        nd_base = smin(R.MAX_DICE, trunc(rp[C.RP_DICE] + mods[R.EFF_EXTRA_DICE]))
        # --- 3. the fight ---
        elite = card == ELITE
        boss = en[e, C.EN_BOSS] > 0
        ehp = float(R.enemy_hp(en[e, C.EN_HP], room, boss, elite, rp[C.RP_HP_PER_ROOM], rp[C.RP_HP_FACTOR],
                               rp[C.RP_DIFF_HP], rp[C.RP_DIFF_BOSS], rp[C.RP_ELITE_HP]))
        ehp_max = ehp
        eblock = float(rooms[rr, C.RM_EBLOCK])
        scale = R.damage_scale(room, rp[C.RP_DIFF_DMG], rp[C.RP_GROWTH], rp[C.RP_COMPOUND] > 0, elite,
                               rp[C.RP_ELITE_ATT], boss, rp[C.RP_DIFF_BOSS], rp[C.RP_BOSS_STAGE] > 0)
        sec_bonus = rooms[rr, C.RM_ATTBONUS]
        ebase = en[e, C.EN_DMG]
        i0 = trunc(en[e, C.EN_I0])
        ni = trunc(en[e, C.EN_IN])
        rnd_mode = en[e, C.EN_RANDOM] > 0
        st_en[0] = stream_key(seed, run, 5 + sa, room)
        st_dice[0] = stream_key(seed, run, 2 + sa, room)
        st_crit[0] = stream_key(seed, run, 4 + sa, room)
        ii = draw_intent(intents, i0, ni, st_en) if rnd_mode else 0
        ebuff = 0
        epoison = 0.0
        shield = float(rooms[rr, C.RM_PSHIELD])
        adjusts = trunc(rp[C.RP_ADJUSTS] + mods[R.EFF_ADJUSTS])
        rerolls = trunc(rp[C.RP_ROLLS]) - 1
        if db_left > 0:
            rerolls += trunc(rp[C.RP_DB_REROLLS])
            db_left -= 1
        lc_left = trunc(rp[C.RP_LC_N])
        extra_ok = True
        if boss and rp[C.RP_BOSS_REROLLS] >= 0:
            rerolls = smin(rerolls, trunc(rp[C.RP_BOSS_REROLLS]))
            lc_left = 0
            extra_ok = False
        hero_left = trunc(rp[C.RP_HERO_N]) if rp[C.RP_HERO_ON] > 0 else 0
        cap = rp[C.RP_BOSS_CAP] if boss else rp[C.RP_CAP]
        fight_coins = 0.0
        nact[:] = 0
        healed = False
        kinds_used = 0
        stolen = 0.0
        cursed_next = truhe_mask
        truhe_mask = 0
        eat_next = 0
        weak = 0
        turn = 0
        won = False
        seconds += rp[C.RP_T_INTRO]
        out[O_FIGHTS] += 1
        if log.shape[0] > 0:
            nl = log_event(log, nl, LG_ROOM, room, 0, card, e, trunc(ehp), trunc(eblock), third, trunc(lp),
                           trunc(coins), trunc(elite), nd_base)
        while True:
            # --- 3a. the player's turn: roll, hold, adjust, jokers, assign ---
            turn += 1
            if turn > rp[C.RP_MAX_TURNS]:
                lp = 0.0
                break
            if turn > 1:
                shield = R.turn_start_shield(shield, mods)
            nd = smax(1, nd_base - eat_next)
            eat_next = 0
            cmask = cursed_next & ((1 << nd) - 1)
            cursed_next = 0
            it = i0 + ii
            hit = R.hit_damage(ebase, intents[it, C.IN_DMG], scale, sec_bonus, ebuff)
            hits = trunc(intents[it, C.IN_HITS])
            berserk = R.berserk_factor(lp, maxlp, mods)
            weak_mul = rp[C.RP_WEAK_MUL] if weak > 0 else 1.0
            fs[FS_EHP] = ehp
            fs[FS_EBLOCK] = eblock
            fs[FS_EPOISON] = epoison
            fs[FS_LP] = lp
            fs[FS_MAXLP] = maxlp
            fs[FS_SHIELD] = shield
            fs[FS_INCOMING] = hit * hits
            fs[FS_ATT_MUL] = weak_mul * berserk
            fs[FS_COINS] = coins
            fs[FS_LC_COST] = rp[C.RP_LC_COST]
            fs[FS_LC_OK] = 0.0
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_TURN, room, turn, trunc(lp), trunc(shield), trunc(ehp), trunc(eblock), it,
                          hit * hits, weak, nd, cmask)
            for i in range(nd):
                dice[i] = die(st_dice)
            out[O_ROLLS] += 1
            seconds += rp[C.RP_T_ROLL]
            nroll = 1
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_ROLL, room, turn, 1, pack_dice(dice, nd), 0, nd, 0, 0, 0, 0, 0)
            cursed = _ms(dice, nd, cmask, 1, ioc)
            ncursed = 0
            for i in range(nd):
                ncursed += (cmask >> i) & 1
            # expectimax: tables for 0 .. na adjusts left (``etab``: the one of the adjusts left now; views are taken
            # only for expectimax: each costs a reference count)
            na = 0
            if want_etab:
                levels = smax(1, smin(rerolls, MAX_LEVELS))
                na = smin(adjusts, MAX_ADJ)
                expectation_tables(fs, cursed, nd - ncursed, levels, na, adj_step, part, pcl, cv, tm, etabs, scratch,
                                   memo, work)
                etab = etabs[na]
            for r in range(rerolls, 0, -1):
                # Justieren before the hold decision (the seed's long press at any moment of the turn)
                dp = pid if full else who(pid, sk, st_sk)
                if adjust_hold_considered(dp, r, adjusts):
                    ai, af = decide_adjust_hold(dp, dice, nd, cmask, adj_step, r, adjusts, na, part, cv, etabs, tm,
                                                work)
                    if ai >= 0:
                        if log.shape[0] > 0:
                            nl = log_event(log, nl, LG_ADJ, room, turn, ai, dice[ai], af, r, 0, 0, 0, 0, 0)
                        dice[ai] = af
                        adjusts -= 1
                        out[O_ADJUSTS] += 1
                        if want_etab:
                            etab = etabs[smin(adjusts, na)]
                roll = _ms(dice, nd, 0, -1, ioc)
                dp = pid if full else who(pid, sk, st_sk)
                keep = decide_keep(dp, roll, cursed, r, hp_tab, etab, tm, st_pol, work)
                if keep != roll:
                    nroll += 1
                    seconds += rp[C.RP_T_ROLL]
                    nl = _roll_again(dice, nd, cmask, keep, counts, st_dice, kc6, out, log, nl, room, turn, nroll, 0)
            # joker: extra reroll(s) this turn
            if nj > 0 and extra_ok:
                q = find_joker(jokers, nj, jk, C.JK_REROLL)
                if q >= 0:
                    roll = _ms(dice, nd, 0, -1, ioc)
                    dp = pid if full else who(pid, sk, st_sk)
                    if decide_joker_reroll(dp, fs, roll, cursed, part, cv, etab, tm, st_pol, work):
                        jid = jokers[q]
                        nj = pop_joker(jokers, nj, q)
                        out[O_JK_USED] += 1
                        out[O_JK_REROLL] += 1
                        if log.shape[0] > 0:
                            nl = log_event(log, nl, LG_JOKER, room, turn, jid, C.JK_REROLL, 0, 0, 0, 0, 0, 0, 0)
                        for _ in range(trunc(jk[jid, C.JK_AMOUNT])):
                            roll = _ms(dice, nd, 0, -1, ioc)
                            dp = pid if full else who(pid, sk, st_sk)
                            keep = decide_keep(dp, roll, cursed, 1, hp_tab, etab, tm, st_pol, work)
                            nroll += 1
                            seconds += rp[C.RP_T_ROLL]
                            nl = _roll_again(dice, nd, cmask, keep, counts, st_dice, kc6, out, log, nl, room, turn,
                                             nroll, 2)
            if lc_left > 0 and coins >= rp[C.RP_LC_COST]:
                fs[FS_LC_OK] = 1.0
                roll = _ms(dice, nd, 0, -1, ioc)
                dp = pid if full else who(pid, sk, st_sk)
                if decide_last_chance(dp, fs, roll, cursed, part, cv, etab, tm, work):
                    coins -= rp[C.RP_LC_COST]
                    lc_left -= 1
                    out[O_LC] += 1
                    dp = pid if full else who(pid, sk, st_sk)
                    keep = decide_keep(dp, roll, cursed, 1, hp_tab, etab, tm, st_pol, work)
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_LC, room, turn, trunc(coins), 0, 0, 0, 0, 0, 0, 0, 0)
                    nroll += 1
                    seconds += rp[C.RP_T_ROLL]
                    nl = _roll_again(dice, nd, cmask, keep, counts, st_dice, kc6, out, log, nl, room, turn, nroll, 1)
                fs[FS_LC_OK] = 0.0
                fs[FS_COINS] = coins
            while adjusts > 0:
                dp = pid if full else who(pid, sk, st_sk)
                ai, af = decide_adjust(dp, fs, dice, nd, cmask, adj_step, part, pcl, cv, tm, work)
                if ai < 0:
                    break
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_ADJ, room, turn, ai, dice[ai], af, 0, 0, 0, 0, 0, 0)
                dice[ai] = af
                adjusts -= 1
                out[O_ADJUSTS] += 1
            # joker: set one die to any face
            if nj > 0:
                q = find_joker(jokers, nj, jk, C.JK_SET)
                if q >= 0:
                    dp = pid if full else who(pid, sk, st_sk)
                    si, sf = decide_set_die(dp, fs, dice, nd, cmask, part, cv, tm, st_pol, work,
                                        rp[C.RP_VW_JOKER_SET_GAIN])
                    if si >= 0:
                        jid = jokers[q]
                        nj = pop_joker(jokers, nj, q)
                        out[O_JK_USED] += 1
                        out[O_JK_SET] += 1
                        if log.shape[0] > 0:
                            nl = log_event(log, nl, LG_JOKER, room, turn, jid, C.JK_SET, si, dice[si], sf, 0, 0, 0, 0)
                        dice[si] = sf
            # joker: heal before the assignment
            if nj > 0:
                q = find_joker(jokers, nj, jk, C.JK_HEAL)
                if q >= 0 and decide_joker_heal(pid if full else who(pid, sk, st_sk), fs, jk[jokers[q], C.JK_AMOUNT],
                                                st_pol, rp[C.RP_VW_JOKER_HEAL_SHARE]):
                    jid = jokers[q]
                    nj = pop_joker(jokers, nj, q)
                    before = lp
                    lp = smin(maxlp, lp + jk[jid, C.JK_AMOUNT])
                    out[O_HEALED] += lp - before
                    fs[FS_LP] = lp
                    out[O_JK_USED] += 1
                    out[O_JK_HEAL] += 1
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_JOKER, room, turn, jid, C.JK_HEAL, trunc(lp - before), trunc(lp), 0,
                                       0, 0, 0, 0)
            k = _ms(dice, nd, 0, -1, ioc)
            dp = pid if full else who(pid, sk, st_sk)
            m = decide_assign(dp, fs, part[k, 1:], part[k, 0], cv, aid, arole, st_pol, work)
            hero_j = -1
            hero_f = rp[C.RP_HERO_FACTOR]
            if hero_left > 0 and m > 0:
                dp = pid if full else who(pid, sk, st_sk)
                hero_j = decide_hero(dp, fs, aid, arole, m, cv, hero_f, turn, st_pol, rp[C.RP_VW_HERO_GAIN])
                if hero_j >= 0:
                    hero_left -= 1
                    out[O_HERO] += 1
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_HERO, room, turn, aid[hero_j], arole[hero_j], 0, 0, 0, 0, 0, 0, 0)
            # --- 3b. resolution: attack (combo by combo, block first), heal, shield
            lp_start = lp
            for j in range(m):
                cdraw[j] = 1.0
                if arole[j] == R.ATTACK and mods[R.EFF_CRIT] > 0:
                    cdraw[j] = uniform(st_crit)
                crit_j[j] = 0
            rstate[0] = ehp
            rstate[1] = eblock
            rstate[2] = epoison
            out[O_DEALT] += R.resolve_attacks(cv, aid, arole, m, hero_j, hero_f, mods, weak_mul, berserk,
                                              rp[C.RP_CRIT_MUL], cdraw, rstate, dealt_j, crit_j)
            ehp = rstate[0]
            eblock = rstate[1]
            epoison = rstate[2]
            for j in range(m):
                c = aid[j]
                if arole[j] == R.HEAL:
                    h = cv[c, 2] * (hero_f if j == hero_j else 1.0)
                    before = lp
                    lp = smin(maxlp, lp + h)
                    out[O_HEALED] += lp - before
                    healed = True
            for j in range(m):
                c = aid[j]
                if arole[j] == R.SHIELD:
                    shield += cv[c, 1] * (hero_f if j == hero_j else 1.0)
            # coins and stats per action (in assignment order)
            lp_run = lp_start
            for j in range(m):
                c = aid[j]
                role = arole[j]
                hf = hero_f if j == hero_j else 1.0
                if role == R.ATTACK:
                    useful = True
                    eff = dealt_j[j]
                    out[O_CRITS] += crit_j[j]
                elif role == R.HEAL:
                    useful = lp_run < maxlp
                    eff = trunc(smin(maxlp, lp_run + cv[c, 2] * hf) - lp_run)
                    lp_run = smin(maxlp, lp_run + cv[c, 2] * hf)
                else:
                    useful = ehp > 0 and (hit * hits > 0 or rp[C.RP_SHIELD_NEEDS_ATT] == 0)
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
                out[combo_base + kind] += 1
                kinds_used |= 1 << kind
                was_crit = crit_j[j] if role == R.ATTACK else 0
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_COMBO, room, turn, c, role, eff, trunc(pay), was_crit, 0, 0, 0, 0)
            # thinking time: a hold decision before each roll after the first, and the assignment
            seconds += m * rp[C.RP_T_ASSIGN] + rp[C.RP_T_TURN] + nroll * rp[C.RP_T_DECIDE]
            if weak > 0:
                weak -= 1
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_RESOLVE, room, turn, trunc(ehp), trunc(eblock), trunc(lp), trunc(shield),
                          trunc(epoison), 0, 0, 0, 0)
            if ehp <= 0:
                won = True
                break
            # --- 3c. the enemy's turn: block drops, poison ticks, the announced intent
            eblock = 0.0
            pdmg = 0
            if epoison > 0:
                pdmg = trunc(epoison)
                ehp -= epoison
                out[O_POISON] += epoison
                epoison = smax(0.0, epoison - rp[C.RP_POISON_DECAY])
                if ehp <= 0:
                    won = True
                    if log.shape[0] > 0:
                        nl = log_event(log, nl, LG_ENEMY, room, turn, it, 0, trunc(lp), trunc(shield), 0, trunc(ehp), 0,
                                  pdmg, 0)
                    break
            taken = 0.0
            if hit > 0:
                for _ in range(hits):
                    a = smin(shield, float(hit))
                    shield -= a
                    lp -= hit - a
                    taken += hit - a
            out[O_TAKEN] += taken
            eblock += intents[it, C.IN_BLOCK]
            ehp = smin(ehp_max, ehp + intents[it, C.IN_HEAL])
            weak = smax(weak, trunc(intents[it, C.IN_WEAKEN]))
            ncurse = trunc(intents[it, C.IN_CURSE])
            if ncurse > 0:
                # k distinct random dice (partial Fisher-Yates over the dice indices)
                for q in range(nd_base):
                    idx[q] = q
                for q in range(smin(ncurse, nd_base)):
                    w = q + below(st_en, nd_base - q)
                    tq = idx[q]
                    idx[q] = idx[w]
                    idx[w] = tq
                    cursed_next |= 1 << idx[q]
            s = smin(coins, intents[it, C.IN_STEAL])
            coins -= s
            stolen += s
            out[O_STOLEN] += s
            ebuff += trunc(intents[it, C.IN_BUFF])
            eat_next = trunc(intents[it, C.IN_EAT])
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_ENEMY, room, turn, it, trunc(taken), trunc(lp), trunc(shield), trunc(eblock),
                          trunc(ehp), trunc(s), pdmg, 0)
            if lp <= 0:
                break
            ii = draw_intent(intents, i0, ni, st_en) if rnd_mode else (ii + 1) % ni
        out[O_TURNS] += turn
        out[turns_base + room - 1] = turn
        if not won:
            death = room
            if log.shape[0] > 0:
                nl = log_event(log, nl, LG_END, room, turn, 0, 0, 0, trunc(coins), trunc(lp), trunc(fight_coins), 0, 0,
                               0)
            break
        # --- 4. after the room: coins, challenge, reward, market ---
        rooms_cleared = room
        if boss:
            reward = rp[C.RP_BOSS_REST_COINS] if card == RAST else rp[C.RP_BOSS_WIN]
        elif card == RAST:
            reward = rp[C.RP_REST_COINS]
        else:
            reward = rp[C.RP_WIN]
        if elite:
            reward += rp[C.RP_ELITE_COINS]
        ch = rooms[rr, C.RM_CHALLENGE]
        met = False
        if ch == 0:
            met = not healed
        elif ch == 1:
            nk = 0
            for q in range(R.N_KIND):
                nk += (kinds_used >> q) & 1
            met = nk >= rp[C.RP_CH_COMBOS]
        else:
            met = turn <= rp[C.RP_CH_TURNS]
        if met:
            reward += rp[C.RP_CHALLENGE]
            out[O_CHALLENGES] += 1
        if rp[C.RP_STEAL_RETURN] > 0:
            reward += stolen
        coins += reward
        out[O_EARNED] += reward
        if log.shape[0] > 0:
            nl = log_event(log, nl, LG_END, room, turn, 1, trunc(reward), trunc(met), trunc(coins), trunc(lp),
                      trunc(fight_coins), 0, 0, 0)
        if room < n_rooms and (rp[C.RP_REWARDS_ON] > 0 or rooms[rr, C.RM_MARKET] > 0 and rp[C.RP_MARKET_ON] > 0):
            # expected turn attack now and with one more die / roll (greedy, expectimax rate offers with them)
            e3 = 0.0
            e4 = 0.0
            e3p = 0.0
            if need_gain:
                e3 = c_eatt[t, slot, nd_base, 0]
                e4 = c_eatt[t, slot, nd_base, 1]
                e3p = c_eatt[t, slot, smin(R.MAX_DICE, nd_base + 1), 0]
            # --- the reward: pick 1 of the offers ---
            if rp[C.RP_REWARDS_ON] > 0:
                st_off[0] = stream_key(seed, run, 6 + sa, room)
                eligible_upgrades(up_rarity, up_unique, owned, elig)
                for q in range(n_off):
                    item = -1
                    if q + 1 >= rp[C.RP_ITEM_FROM] and uniform(st_off) < rp[C.RP_ITEM_CHANCE]:
                        if uniform(st_off) < rp[C.RP_JOKER_SHARE]:
                            item = n_up + draw_joker(st_off, jk)
                        else:
                            item = n_up + n_jk
                    else:
                        item = draw_eligible(st_off, up_rarity, rarity_w, elig, offers,
                                             q if rp[C.RP_DISTINCT] > 0 else 0)
                    offers[q] = item
                out[O_REWARDS] += 1
                for q in range(n_off):
                    item = offers[q]
                    g = 0.0
                    if need_gain and 0 <= item < n_up:
                        ch, ga, gp, gl = _with_upgrade(mods[R.EFF_ATTACK_FLAT] + altar, mods[R.EFF_PASCH_MUL],
                                                   mods[R.EFF_LUCKY], up_eff[item, R.EFF_ATTACK_FLAT],
                                                   up_eff[item, R.EFF_PASCH_MUL], up_eff[item, R.EFF_LUCKY])
                        if ch:
                            sl = probe(c_keys, t, ga, gp, gl)
                            if sl < 0:
                                sl = lookup(cache, t, ga, gp, gl, base2, coin_bonus, action_base, cstart, cn, cand, tm)
                            g = c_eatt[t, sl, nd_base, 0] - e3
                    vals[q] = _item_value(pid, item, n_up, n_jk, up_eff, jk, rp, rpr, lp, maxlp, e3, e4, e3p, g)
                    okv[q] = 1 if item >= 0 and not (n_up <= item < n_up + n_jk and nj >= max_j) else 0
                    if 0 <= item < n_up:
                        ub = up_base + N_UC * item
                        out[ub + UC_OFFERED] += 1
                        if out[ub + UC_FIRST] == 0:
                            out[ub + UC_FIRST] = room
                dp = pid if full else who(pid, sk, st_sk)
                ci = -1
                if ro:
                    msk = 0
                    for q in range(n_off):
                        if okv[q]:
                            msk |= 1 << q
                    ci = rl_decide(rc, forced, K_REWARD, n_off, msk)
                    if ci == STOP:
                        return nl
                if ci < 0:
                    pick = decide_reward(dp, vals, okv, n_off, st_pol)
                else:
                    pick = ci
                if ro and sa == 0:
                    sa = salt_now(rc)
                    if sa != 0:
                        _salted(seed, run, sa, room, ubuf)
                seconds += rp[C.RP_T_REWARD]
                got = offers[pick] if pick >= 0 else -1
                if got >= 0:
                    if got < n_up:
                        dirty = True
                        ub = up_base + N_UC * got
                        out[ub + UC_PICKED] += 1
                        if out[ub + UC_FIRST] == room and out[ub + UC_PICKED] == 1:
                            out[ub + UC_TOOK_FIRST] = 1
                    lp, maxlp, nj, db_left = _take(got, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp, db_left,
                                                   out)
                if log.shape[0] > 0:
                    nl = log_event(log, nl, LG_REWARD, room, 0, offers[0], offers[1] if n_off > 1 else -1,
                              offers[2] if n_off > 2 else -1, offers[3] if n_off > 3 else -1,
                              offers[4] if n_off > 4 else -1, got, trunc(lp), trunc(maxlp), trunc(coins))
            # --- the Tagesmarkt ---
            if rooms[rr, C.RM_MARKET] > 0 and rp[C.RP_MARKET_ON] > 0:
                st_off[0] = stream_key(seed, run, 7 + sa, room)
                eligible_upgrades(up_rarity, up_unique, owned, elig)
                ns = 0
                for _q in range(n_mk_up):
                    item = draw_eligible(st_off, up_rarity, rarity_w, elig, offers, ns)
                    if item >= 0:
                        offers[ns] = item
                        prices[ns] = mk_prices[up_rarity[item]]
                        ns += 1
                if rp[C.RP_JOKER_PACK] >= 0:
                    offers[ns] = n_up  # a joker pack: its jokers are drawn when bought
                    ikind[ns] = ITEM_JOKER
                    prices[ns] = rp[C.RP_JOKER_PACK]
                    ns += 1
                offers[ns] = n_up + n_jk
                prices[ns] = rp[C.RP_DICE_PACK]
                ns += 1
                for q in range(ns):
                    okv[q] = 1
                    if log.shape[0] > 0:
                        pk = -2 if (rp[C.RP_JOKER_PACK] >= 0 and q == ns - 2) else offers[q]
                        nl = log_event(log, nl, LG_STOCK, room, 0, pk, trunc(prices[q]), trunc(coins), 0, 0, 0, 0, 0, 0)
                jp = ns - 2 if rp[C.RP_JOKER_PACK] >= 0 else -1
                spent = 0.0
                stale = True  # the item values need (re)computing: first visit, or a buy changed what they read
                regain = need_gain and dirty  # greedy, expectimax: gains from the loadout as it is now
                while True:
                    if regain:
                        R.fold_mods(up_eff, owned, mods)
                        ga = mods[R.EFF_ATTACK_FLAT] + altar
                        sl = probe(c_keys, t, ga, mods[R.EFF_PASCH_MUL], mods[R.EFF_LUCKY])
                        if sl < 0:
                            sl = lookup(cache, t, ga, mods[R.EFF_PASCH_MUL], mods[R.EFF_LUCKY], base2, coin_bonus,
                                        action_base, cstart, cn, cand, tm)
                        nd_base = smin(R.MAX_DICE, trunc(rp[C.RP_DICE] + mods[R.EFF_EXTRA_DICE]))
                        e3 = c_eatt[t, sl, nd_base, 0]
                        e4 = c_eatt[t, sl, nd_base, 1]
                        e3p = c_eatt[t, sl, smin(R.MAX_DICE, nd_base + 1), 0]
                        regain = False
                    if stale:
                        for q in range(ns):
                            if not okv[q]:
                                continue
                            if q == jp:
                                v = 0.0
                                for jj in range(n_jk):
                                    v += jk[jj, C.JK_WEIGHT] * _item_value(pid, n_up + jj, n_up, n_jk, up_eff, jk,
                                                                            rp, rpr, lp, maxlp, e3, e4, e3p, 0.0)
                                vals[q] = v / jk_wsum * smin(pack_n, max_j - nj)
                                if nj >= max_j:
                                    okv[q] = 0
                            else:
                                item = offers[q]
                                g = 0.0
                                if need_gain and 0 <= item < n_up:
                                    ch, ga, gp, gl = _with_upgrade(
                                        mods[R.EFF_ATTACK_FLAT] + altar, mods[R.EFF_PASCH_MUL], mods[R.EFF_LUCKY],
                                        up_eff[item, R.EFF_ATTACK_FLAT], up_eff[item, R.EFF_PASCH_MUL],
                                        up_eff[item, R.EFF_LUCKY])
                                    if ch:
                                        sl = probe(c_keys, t, ga, gp, gl)
                                        if sl < 0:
                                            sl = lookup(cache, t, ga, gp, gl, base2, coin_bonus, action_base, cstart,
                                                        cn, cand, tm)
                                        g = c_eatt[t, sl, nd_base, 0] - e3
                                vals[q] = _item_value(pid, item, n_up, n_jk, up_eff, jk, rp, rpr, lp, maxlp, e3, e4,
                                                      e3p, g)
                        stale = False
                    dp = pid if full else who(pid, sk, st_sk)
                    ci = -1
                    if ro:
                        msk = 1
                        for q in range(ns):
                            if okv[q] and prices[q] <= coins:
                                msk |= 1 << (q + 1)
                        ci = rl_decide(rc, forced, K_BUY, ns + 1, msk)
                        if ci == STOP:
                            return nl
                    if ci < 0:
                        b = decide_buy(dp, vals, prices, okv, ns, coins, st_pol, rp[C.RP_VW_PER_COIN],
                                       rp[C.RP_VW_RESERVE])
                    else:
                        b = ci - 1
                    if ro and sa == 0:
                        sa = salt_now(rc)
                        if sa != 0:
                            _salted(seed, run, sa, room, ubuf)
                    if b < 0:
                        break
                    okv[b] = 0
                    coins -= prices[b]
                    spent += prices[b]
                    out[O_MK_BUYS] += 1
                    lp_was = lp
                    maxlp_was = maxlp
                    nj_was = nj
                    if b == jp:
                        for _ in range(pack_n):
                            got = n_up + draw_joker(st_off, jk)
                            lp, maxlp, nj, db_left = _take(got, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp,
                                                           db_left, out)
                            if log.shape[0] > 0:
                                nl = log_event(log, nl, LG_BUY, room, 0, got, trunc(prices[b]), trunc(coins), 1, 0, 0,
                                               0, 0, 0)
                    else:
                        got = offers[b]
                        if got < n_up:
                            dirty = True
                            stale = True
                            regain = need_gain
                            out[up_base + N_UC * got + UC_BOUGHT] += 1
                        lp, maxlp, nj, db_left = _take(got, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp,
                                                       db_left, out)
                        if log.shape[0] > 0:
                            nl = log_event(log, nl, LG_BUY, room, 0, got, trunc(prices[b]), trunc(coins), 0, 0, 0, 0,
                                           0, 0)
                    if lp != lp_was or maxlp != maxlp_was or nj != nj_was:
                        stale = True
                out[mk_base + mk_index] = spent
                out[O_MK_SPENT] += spent
                mk_index += 1
        out[lp_base + room - 1] = lp
        out[coins_base + room - 1] = coins
    win = rooms_cleared == n_rooms
    out[O_WIN] = 1.0 if win else 0.0
    out[O_ROOMS] = rooms_cleared
    out[O_DEATH] = death
    out[O_LP] = smax(lp, 0.0)
    out[O_MAXLP] = maxlp
    out[O_COINS] = coins
    out[O_SECONDS] = seconds
    out[O_SCORE] = R.score(rooms_cleared, smax(lp, 0.0), seconds, win, rp[C.RP_SC_ROOM], rp[C.RP_SC_LP],
                           rp[C.RP_SC_BUDGET], rp[C.RP_SC_WIN], rp[C.RP_POINTS])
    if log.shape[0] > 0:
        nl = log_event(log, nl, LG_RUN, 0, 0, trunc(win), rooms_cleared, trunc(out[O_SCORE]), trunc(seconds * 10), 0,
                       0, 0, 0, 0)
    return nl


@njit(cache=True, error_model="numpy", inline=INLINE)
def _with_upgrade(att, pmul, lucky, u_att, u_pmul, u_lucky):
    """(changed, key): the profile key (attack per combo, Pasch multiplier, Glückssieben) of the loadout
    ``(att, pmul, lucky)`` plus one upgrade; ``changed`` is False when the upgrade leaves the key as it is (its
    gain in expected turn attack is then 0). Greedy and expectimax rate an upgrade by the expected turn attack
    of that key's tables.

    Scalars only: an array argument of an inlined helper still costs two atomic reference counts per call."""
    a = att + u_att
    p = pmul * u_pmul
    lk = smax(lucky, u_lucky)
    return not (a == att and p == pmul and lk == lucky), a, p, lk


@njit(cache=True, error_model="numpy", inline=INLINE)
def _item_value(pid, item, n_up, n_jk, up_eff, jk, rp, rpr, lp, maxlp, e3, e4, e3p, g):
    """The policy's value of one offer (``item``: upgrade id, ``n_up + joker id`` or ``n_up + n_jk`` the dice
    bonus); ``g``: for greedy and expectimax the exact gain in expected turn attack of an upgrade (the profile
    tables of ``_with_upgrade``'s key), else 0; ``rpr``: the rule record (Vorschlag's weights). One call site of
    ``offer_value``: every call of an inlined helper is compiled again."""
    if item < 0:
        return -1e18
    kind = ITEM_DICE
    u = 0
    j = 0
    g_att = (e4 - e3) * rp[C.RP_DB_REROLLS]
    g_dice = 0.0
    if item < n_up:
        kind = ITEM_UPGRADE
        u = item
        g_att = g
        g_dice = e3p - e3
    elif item < n_up + n_jk:
        kind = ITEM_JOKER
        j = item - n_up
        g_att = 0.0
    return offer_value(pid, kind, up_eff, u, jk, j, rp[C.RP_DB_REROLLS], lp, maxlp, g_att, g_dice, e3,
                       rp[C.RP_CRIT_MUL], rpr)


@njit(cache=True, error_model="numpy")
def _gain(item, n_up, n_jk, fz, rp, owned, jokers, nj, lp, maxlp, db_left, out):
    """Take an item: an upgrade (Lebenselixier-like max LP also heals as much), a joker onto the stack (when
    a place is free), or the dice bonus. Returns (lp, maxlp, jokers held, dice-bonus fights left)."""
    return _take(item, n_up, n_jk, fz.up_eff, rp, owned, jokers, nj, lp, maxlp, db_left, out)


@njit(cache=True, error_model="numpy", inline=INLINE)
def _take(item, n_up, n_jk, up_eff, rp, owned, jokers, nj, lp, maxlp, db_left, out):
    """``_gain`` on the one frozen array it reads."""
    if item < n_up:
        owned[item] += 1
        out[O_UPGRADES] += 1
        add = up_eff[item, R.EFF_MAX_LP]
        if add > 0:
            maxlp += add
            lp = smin(maxlp, lp + add)
    elif item < n_up + n_jk:
        if nj < rp[C.RP_MAX_JOKERS]:
            jokers[nj] = item - n_up
            nj += 1
            out[O_JK_GAINED] += 1
    else:
        db_left += trunc(rp[C.RP_DB_FIGHTS])
        out[O_DICE_BONUS] += 1
    return lp, maxlp, nj, db_left


@njit(cache=True, error_model="numpy", inline=INLINE)
def _behind_the_cards(st_map, ev_weights, ev_tot, rooms, rr, pool):
    """What the path cards hide: the Geheimnis event and the room's enemy (the boss in a boss room)."""
    u = uniform(st_map) * ev_tot
    event = 0
    while event < 2 and u >= ev_weights[event]:
        u -= ev_weights[event]
        event += 1
    if rooms[rr, C.RM_BOSS] >= 0:
        e = rooms[rr, C.RM_BOSS]
    else:
        e = pool[rooms[rr, C.RM_POOL0] + below(st_map, rooms[rr, C.RM_POOLN])]
    return event, e


@njit(cache=True, error_model="numpy")
def _salted(seed, run, sa, room, ubuf):
    """A rollout continuation passes its decision: re-key the streams still drawn from (the market's offers and
    joker packs, the policy's and the skill's) with the salt offset ``sa`` (``rollctl``)."""
    ubuf[5] = stream_key(seed, run, 7 + sa, room)
    ubuf[0] = stream_key(seed, run, 3 + sa, room)
    ubuf[6] = stream_key(seed, run, SKILL_STREAM + sa, room)


from sim.games.dungeon import rollout as RO  # noqa: E402 - the rollout driver calls play_run (defined above)


@njit(cache=True, parallel=True, error_model="numpy")
def play_batch(pid, seed, start, count, fz, cache, tm, out):
    """Runs ``start .. start + count - 1`` into the rows of ``out``: one block of strided runs per cache row
    (each block owns its row of the profile cache). ``rollout`` runs ``RO.rollout_run`` over its base policy."""
    nblk = smin(count, cache[0].shape[0])
    n_all = fz.loadout.shape[0]
    ro = pid == ROLLOUT
    base = trunc(fz.rp[C.RP_RO_BASE]) if ro else pid
    k = trunc(fz.rp[C.RP_RO_K])
    for b in prange(nblk):
        t = np.int64(b)  # prange counts in uint64: one signature of play_run (replay passes int64) = one compile
        nolog = np.zeros((0, LOG_W), np.int64)
        sc = new_scratch(base, n_all)
        forced = np.zeros(MAX_DECISIONS if ro else 0, np.int64)
        rc = np.zeros(RC_SIZE if ro else 0, np.int64)
        for i in range(t, count, nblk):
            if ro:
                RO.rollout_run(base, k, seed, start + i, fz, cache, t, tm, out[i], nolog, sc, forced, rc)
            else:
                play_run(base, seed, start + i, fz, cache, t, tm, out[i], nolog, sc, forced, rc)


def run_one(pid: int, seed: int, run: int, fz, cache, tm, n_cols: int, log_rows: int = 0):
    """One run outside the batch (replay), on cache row 0: its table row and event log."""
    out = np.zeros(max(n_cols, n_columns(fz)))
    log = np.zeros((log_rows, LOG_W), np.int64)
    if pid == ROLLOUT:
        base = int(fz.rp[C.RP_RO_BASE])
        forced, rc = RO.new_rollout_scratch()
        n = RO.rollout_run(base, int(fz.rp[C.RP_RO_K]), seed, run, fz, cache, 0, tm, out, log,
                           new_scratch(base, fz.loadout.shape[0]), forced, rc)
    else:
        n = play_run(pid, seed, run, fz, cache, 0, tm, out, log, new_scratch(pid, fz.loadout.shape[0]),
                     np.zeros(0, np.int64), np.zeros(0, np.int64))
    return out, log[:n]


__all__ = ["columns", "draw_upgrade", "n_columns", "play_batch", "play_run", "run_one"]
