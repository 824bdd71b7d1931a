"""The layouts of Würfel Dungeon's frozen arrays: the index names the kernels read them by, and the game's
fixed name lists (difficulties, challenges, events, rarities, joker kinds) in the order their codes follow.

No pydantic and no policy here: the kernels, the policies and ``freeze`` share these numbers. The rule
parameters ``rp`` are a float64 vector at the ``RP_*`` indices; ``RP_DTYPE`` names the same slots as a numpy
record (field ``n_rooms`` for ``RP_N_ROOMS``). ``Frozen.rpr`` is ``rp`` viewed as that record: the policies read
their weights by name from it (``rp.vw_shield``) at no cost, since a record is passed by pointer and carries no
reference count.
"""

from __future__ import annotations

import numpy as np

DIFFICULTIES = ("leicht", "normal", "schwer")
CHALLENGES = ("ohne_heilung", "drei_kombos", "schnell")
EVENTS = ("opferaltar", "joker_haendler", "verfluchte_truhe")
EV_ALTAR, EV_JOKER, EV_TRUHE = 0, 1, 2
RARITIES = ("haeufig", "selten", "episch")
JOKER_KINDS = ("set_die", "reroll", "heal")
JK_SET, JK_REROLL, JK_HEAL = 0, 1, 2
MAX_OFFERS = 5
MAX_STOCK = 8
MAX_JOKERS = 8

(RP_LP, RP_DICE, RP_COINS, RP_ROLLS, RP_ADJUSTS, RP_ADJ_STEP, RP_LC_COST, RP_LC_N, RP_MAX_TURNS, RP_DIFF_HP,
 RP_DIFF_DMG, RP_DIFF_BOSS, RP_POINTS, RP_BOSS_REROLLS, RP_HP_PER_ROOM, RP_HP_FACTOR, RP_GROWTH, RP_COMPOUND,
 RP_N_ROOMS, RP_ELITE_HP, RP_ELITE_ATT, RP_ELITE_COINS, RP_REST_HEAL, RP_REST_COINS, RP_REST_CHANCE, RP_ALTAR_LP,
 RP_ALTAR_ATT, RP_JH_COINS, RP_TRUHE_COINS, RP_TRUHE_DIE, RP_ACTION_BASE, RP_STEP_FLOOR, RP_CAP, RP_BOSS_CAP,
 RP_WIN, RP_BOSS_WIN, RP_CHALLENGE, RP_CH_COMBOS, RP_CH_TURNS, RP_SHIELD_NEEDS_ATT, RP_STEAL_RETURN,
 RP_POISON_DECAY, RP_SC_ROOM, RP_SC_LP, RP_SC_BUDGET, RP_SC_WIN, RP_T_ROLL, RP_T_ASSIGN, RP_T_TURN, RP_T_PATH,
 RP_T_REWARD, RP_T_INTRO, RP_START_ALTAR, RP_DIFFICULTY, RP_WEAK_MUL, RP_CRIT_MUL, RP_N_PROF) = range(57)
# progression (rewards, market, jokers, dice bonus, hero)
(RP_REWARDS_ON, RP_OFFERS, RP_ITEM_CHANCE, RP_ITEM_FROM, RP_JOKER_SHARE, RP_DISTINCT, RP_MAX_JOKERS, RP_MARKET_ON,
 RP_MK_UPGRADES, RP_JOKER_PACK, RP_JOKER_PACK_N, RP_DICE_PACK, RP_DB_REROLLS, RP_DB_FIGHTS, RP_HERO_ON,
 RP_HERO_FACTOR, RP_HERO_N, RP_N_UP, RP_N_JK, RP_TALENT_COINS) = range(57, 77)
# boss scaling, boss-room Rastplatz, thinking time
RP_BOSS_STAGE, RP_BOSS_REST_COINS, RP_T_DECIDE = range(77, 80)

EN_HP, EN_DMG, EN_BOSS, EN_I0, EN_IN, EN_RANDOM = range(6)
EN_SIZE = 6
IN_DMG, IN_HITS, IN_BLOCK, IN_HEAL, IN_WEAKEN, IN_CURSE, IN_STEAL, IN_BUFF, IN_EAT, IN_WEIGHT = range(10)
IN_SIZE = 10
(RM_SECTION, RM_BOSS, RM_POOL0, RM_POOLN, RM_PATH, RM_CHALLENGE, RM_EBLOCK, RM_PSHIELD, RM_ATTBONUS,
 RM_MARKET) = range(10)
RM_SIZE = 10
JK_KIND, JK_AMOUNT, JK_WEIGHT = range(3)
# the fitted Vorschlag offer weights and thresholds (``[policies.vorschlag]``, ``config.VorschlagWeights``)
(RP_VW_ATT_COMBOS, RP_VW_SHIELD, RP_VW_HEAL, RP_VW_POISON, RP_VW_PASCH, RP_VW_E_ATT, RP_VW_CRIT, RP_VW_BERSERK,
 RP_VW_ADJUST, RP_VW_KEEP, RP_VW_LUCKY, RP_VW_DICE, RP_VW_MAXLP, RP_VW_JOKER_SET, RP_VW_JOKER_REROLL,
 RP_VW_JOKER_HEAL, RP_VW_DICE_BONUS, RP_VW_PER_COIN, RP_VW_RESERVE, RP_VW_JOKER_HEAL_SHARE, RP_VW_JOKER_SET_GAIN,
 RP_VW_HERO_GAIN) = range(80, 102)
# the skill levels (``[skill]``, ``sim.core.skill``) in parts per million (``policies.skill.SCALE``): the player's, and
# ``skill.opponents`` (kept for the shared section; the dungeon is played alone, so nothing reads it)
RP_SK_PLAYER, RP_SK_OPPONENTS = range(102, 104)
# the rollout policy (``[rollout]``, ``sim.games.dungeon.rollout``): its base policy's id and continuations per option
RP_RO_BASE, RP_RO_K = range(104, 106)
# rules round 3: a heal joker counts as healing for the "ohne Heilung" challenge (``challenges.joker_heal_counts``)
RP_JOKER_HEAL_COUNTS = 106
RP_SIZE = 107
ROLLOUT_BASES = ("vorschlag", "greedy", "expectimax", "random")  # in the order of their ids (``policies.dungeon.ids``)


def _rp_fields() -> list[tuple[str, type]]:
    """``RP_X`` at index ``i`` -> field ``x`` at offset ``8 * i`` (checked: every index named once)."""
    named = sorted((v, k[3:].lower()) for k, v in globals().items()
                   if k.startswith("RP_") and k != "RP_SIZE" and isinstance(v, int))
    assert [i for i, _ in named] == list(range(RP_SIZE)), "RP_* indices must cover 0..RP_SIZE-1 once"
    return [(n, np.float64) for _, n in named]


RP_DTYPE = np.dtype(_rp_fields())  # the rule parameters as one record: ``rp.n_rooms`` is ``rp[RP_N_ROOMS]``
