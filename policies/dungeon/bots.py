"""Würfel Dungeon bot policies: holds, combo assignment, adjust, last chance, path, events and the economy.

Registry ``POLICIES`` maps a name to the integer id the run kernel (``sim.games.dungeon.play``)
dispatches on, so the compiled kernel stays in numba's disk cache for every policy. This module is the
policies' front door: it re-exports the decision functions, which live by decision kind in

- ``ids`` (the ids and what each needs the kernel to compute, ``NEEDS_*``; ``needs`` tests it in a kernel),
  ``rating`` (the Vorschlag rating and assignment search),
- ``holds`` (``decide_keep``, expectimax's expectation tables, the static hold tables),
- ``turn`` (assignment, adjust, last chance, jokers, hero ability: the in-fight decisions after a roll),
- ``run`` (path card, Geheimnis event, offer rating, reward, market: the run-level decisions).

Each ``decide_*`` is the one dispatch point of its decision kind. Adding a policy: one id in ``dungeon_ids``, one
branch in each dispatcher, and its id in the ``NEEDS_*`` of what it reads. The kernel checks every request against
the rules and refuses (and counts, column ``illegal_requests``) what they forbid; ``BROKEN`` (``dungeon_ids``) is a
test policy that asks for exactly that. The game's words (path cards ``KAMPF`` …, items ``ITEM_*``, the fight-state
vector ``FS_*``) come from ``sim.games.dungeon.words``; nothing in the game's rules imports a policy.

Decision signatures (all jitted; ``fs`` is the fight-state vector, indices ``FS_*``, that the
kernel fills before each decision; ``cv`` the combo values of the current modifier profile;
``part`` its shown partitions; ``tm`` the multiset tables ``(counts, child, parent, size_start,
index_of_code)`` of ``rules.TM``):

- ``decide_keep(pid, roll, cursed, rolls_left, hold, etab, tm, st, work) -> keep``: multiset indices;
  ``roll`` is the whole roll (cursed dice included), ``keep`` must lie between ``cursed`` and ``roll``.
- ``decide_assign(pid, fs, ids, n, cv, out_ids, out_roles, st, work) -> m``: which combos (``m`` of them,
  after an optional Full House split) go to attack/shield/heal (``rules.ATTACK`` …).
- ``decide_adjust(pid, fs, dice, nd, cursed_mask, …) -> (die, new face)`` or ``(-1, 0)`` after the last roll;
  ``decide_adjust_hold(pid, dice, nd, cursed_mask, step, rolls_left, adjusts, na, …)`` the same before a hold
  decision (the hold is then chosen on the adjusted dice), asked only where ``adjust_hold_considered(pid,
  rolls_left, adjusts)`` (scalars) allows it.
- ``decide_last_chance(pid, fs, …) -> bool``, asked where ``last_chance_considered(pid, lc_left, coins, cost)``
  (scalars) allows it; ``decide_path(pid, cards, lp, maxlp, st) -> card``;
  ``decide_event(pid, event, lp, maxlp, altar_lp, st, jokers, nj, jk) -> bool``.
- Progression: ``offer_value(pid, kind, up_eff, u, jk, j, db_rerolls, lp, maxlp, g_att, g_dice, e_att,
  crit_mul, rp) -> float`` rates one offer (``kind`` ``ITEM_UPGRADE``/``ITEM_JOKER``/``ITEM_DICE``; ``u``, ``j``
  its rows; ``rp`` the rule record with Vorschlag's weights;
  ``g_att`` the exact gain in expected turn attack from the kernel's profile tables, ``g_dice`` that of one
  more die, ``e_att`` the current expected turn attack); ``decide_reward(pid, vals, ok, n, st) -> slot``;
  ``decide_buy(pid, vals, prices, ok, n, coins, st, per_coin, reserve) -> item or -1`` (called until it returns
  -1); jokers: ``decide_joker_heal``, ``decide_joker_reroll``, ``decide_set_die``; the hero ability
  ``decide_hero`` (Vorschlag's thresholds from ``[policies.vorschlag]`` as scalar arguments).

The policies:

- ``vorschlag`` — the game's suggestion button. Assignment: every combo goes to attack, shield or
  heal (a Full House may be split into Drilling + Pasch) so as to maximise the *Vorschlag rating*
  (``rate``): a kill this turn (assigned attack ≥ enemy LP + block, or poison finishes it) is worth
  ``W_KILL`` plus the LP healed; otherwise the enemy LP removed plus ``w_lp`` × the change of own LP
  over the turn (heal, then the announced hit minus shield), where ``w_lp = W_LP0 + W_LP1 × missing
  LP share``; losing all LP is −``W_KILL``. Hold rule: keep the dice of the shown combos; with no
  combo, keep the longest run of ≥ 3 consecutive faces (one die each), else reroll all. Adjust: before the
  last reroll when one ±1 turn raises the shown total attack by at least ``ADJ_GAIN_HOLD`` (a combo completed,
  e.g. 4-4-4-3 into a Vierling, which the hold then keeps); after the last roll when it raises it by more than
  ``ADJ_GAIN``; last chance when the rolls left no combo and coins allow.
  Path: Rastplatz when LP ≤ 60 %, Elite when LP ≥ 80 %, else Geheimnis when offered, else Kampf;
  Opferaltar accepted when LP after paying stays ≥ 70 %, Verfluchte Truhe always.
- ``greedy`` — holds toward the highest expected total attack at turn end (exact over the remaining
  rolls, a static table per modifier profile); everything to attack unless the announced hit would
  kill and attack cannot kill first: then the assignment that survives with the most attack. Adjust
  before the last reroll by Vorschlag's rule (``ADJ_GAIN_HOLD``) but only with a spare adjust (Glücksmünze: the
  last one of the fight stays for the end of a turn), after the last roll when it raises attack; never buys
  the last chance. Path: Elite when LP ≥ 50 %, else Rastplatz when
  offered, else Kampf; never opens a Geheimnis.
- ``expectimax`` — holds by exact expectation over the remaining rolls (all rerolled-dice outcomes
  as multisets with their probabilities) of the best assignment's Vorschlag rating; assignment as
  Vorschlag; last chance when the expected rating of one more roll beats stopping. Justieren is part of the
  search (``expectation_tables``: exact values with 0..``MAX_ADJ`` adjusts left, an adjust allowed before each
  hold decision and after the last roll); it adjusts before a reroll when that beats keeping the adjust for
  later in the turn, which never happens strictly (an adjust at the end reproduces it: held dice do not
  change), so in effect its holds count on the end-of-turn adjust, made whenever it raises the rating. An
  adjust's value in later turns of the fight is not counted. Path and events as Vorschlag.
- ``random`` — each free die kept with probability 1/2 before every reroll, each combo to a uniform
  role, a uniform path card, events accepted with probability 1/2 (when affordable).

Progression decisions (rewards, market, jokers, hero ability):

- ``vorschlag`` rates every offer by the *offer rating* (``offer_value``): an estimate of what the item adds
  per turn in attack-equivalents, from its effect fields and the weights of ``[policies.vorschlag]`` (attack
  per attack combo ``att_combos``, ``shield``, ``heal``, Paschmeister ``pasch`` per × step, crit chance ×
  ``e_att`` × ``crit``, adjusts, kept shield, poison, Berserker, Glückssieben, the sixth
  die, max LP weighted by the missing LP share, each joker kind and the dice bonus; the upgrade weights are
  fitted to each upgrade's measured win-rate lift, see ``sim.games.dungeon.upgrade_lift``). It takes the
  best reward; at the market it buys the best rating per coin while that is ≥ ``per_coin`` and
  ``reserve`` coins (a last chance) stay.
  Jokers: heal when the announced hit would kill or LP ≤ ``joker_heal_share``; extra reroll when the
  rolls left no combo; set a die when it raises the shown attack by ≥ ``joker_set_gain`` or makes the
  attack lethal. Hero ability: on the combo where doubling gains most rating, when it kills, saves the
  run, or gains ≥ ``hero_gain``. Joker-Händler: sells the last joker unless it is a heal joker and
  LP < 60 %.
- ``greedy`` — the highest immediate attack gain: ``g_att`` (exact, from the tables), crits, Berserker
  only when active now, poison, the sixth die; items that add no attack rate 0. Buys the highest gain per
  coin while it is > 0 and affordable. Uses every joker as soon as it helps (set a die whenever attack
  rises, heal only to survive, reroll when no combo); hero ability on the first turn, on the strongest
  attack combo; never sells jokers.
- ``expectimax`` — the Vorschlag rating with the attack terms replaced by the exact one-turn expectation
  (``g_att``, ``g_dice``: a lookahead over every roll of the next turn, cheap from the profile tables);
  jokers and hero ability by the rating (set die and extra reroll by the exact expectation tables).
- ``random`` — a uniform offer; each market item bought with probability 1/2 when affordable; each
  joker used with probability 1/2 when it can be; hero ability with probability 1/2.
"""

from __future__ import annotations

from policies.dungeon.holds import (
    HOLD_GREEDY1,
    HOLD_GREEDY2,
    HOLD_VORSCHLAG,
    MAX_ADJ,
    MAX_LEVELS,
    N_HOLD,
    best_subset,
    build_hold_tables,
    build_holds,
    decide_keep,
    expectation_table,
    expectation_tables,
    tm_tuple,
)
from policies.dungeon.ids import (
    BROKEN,
    EXPECTIMAX,
    GREEDY,
    NEEDS_ATTACK_GAIN,
    NEEDS_ETAB,
    POLICIES,
    RANDOM,
    VORSCHLAG,
)
from policies.dungeon.needs import needs_attack_gain, needs_etab
from policies.dungeon.rating import (
    W_KILL,
    W_LP0,
    W_LP1,
    best_assignment,
    leaf_value,
    rate,
)
from policies.dungeon.run import (
    decide_buy,
    decide_event,
    decide_path,
    decide_reward,
    offer_value,
)
from policies.dungeon.turn import (
    ADJ_GAIN,
    ADJ_GAIN_HOLD,
    adjust_hold_considered,
    decide_adjust,
    decide_adjust_hold,
    decide_assign,
    decide_hero,
    decide_joker_heal,
    decide_joker_reroll,
    decide_last_chance,
    decide_set_die,
    last_chance_considered,
)
from sim.games.dungeon.words import (
    CARD_NAMES,
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

__all__ = [
    "ADJ_GAIN",
    "ADJ_GAIN_HOLD",
    "BROKEN",
    "CARD_NAMES",
    "ELITE",
    "EXPECTIMAX",
    "FS_ATT_MUL",
    "FS_COINS",
    "FS_EBLOCK",
    "FS_EHP",
    "FS_EPOISON",
    "FS_INCOMING",
    "FS_LC_COST",
    "FS_LC_OK",
    "FS_LP",
    "FS_MAXLP",
    "FS_SHIELD",
    "FS_SIZE",
    "GEHEIMNIS",
    "GREEDY",
    "HOLD_GREEDY1",
    "HOLD_GREEDY2",
    "HOLD_VORSCHLAG",
    "ITEM_DICE",
    "ITEM_JOKER",
    "ITEM_UPGRADE",
    "KAMPF",
    "MAX_ADJ",
    "MAX_LEVELS",
    "NEEDS_ATTACK_GAIN",
    "NEEDS_ETAB",
    "N_HOLD",
    "POLICIES",
    "RANDOM",
    "RAST",
    "VORSCHLAG",
    "W_KILL",
    "W_LP0",
    "W_LP1",
    "adjust_hold_considered",
    "best_assignment",
    "best_subset",
    "build_hold_tables",
    "build_holds",
    "decide_adjust",
    "decide_adjust_hold",
    "decide_assign",
    "decide_buy",
    "decide_event",
    "decide_hero",
    "decide_joker_heal",
    "decide_joker_reroll",
    "decide_keep",
    "decide_last_chance",
    "decide_path",
    "decide_reward",
    "decide_set_die",
    "expectation_table",
    "expectation_tables",
    "last_chance_considered",
    "leaf_value",
    "needs_attack_gain",
    "needs_etab",
    "offer_value",
    "rate",
    "tm_tuple",
]
