"""The layouts of Würfel Dungeon's computed frozen rows (enemies ``EN_*``, rooms ``RM_*``, jokers ``JK_*``) and the
game's fixed name lists (difficulties, challenges, events, rarities, joker kinds) in the order their codes follow.

No pydantic and no policy here: the kernels, the policies and ``freeze`` share these numbers. The rule numbers are
no index here: they are the record ``config.RULES`` generated from the config model (``rp.path_elite_attack``),
and the rows that are a model's fields (upgrade effects, enemy intents) take their columns from that model
(``rows.EFF``, ``rows.IN``). The rows below are computed by ``freeze`` (an enemy's intent range, a room's pool),
so their columns are declared here.
"""

from __future__ import annotations

DIFFICULTIES = ("leicht", "normal", "schwer")
CHALLENGES = ("ohne_heilung", "drei_kombos", "schnell")
EVENTS = ("opferaltar", "joker_haendler", "verfluchte_truhe")
EV_ALTAR, EV_JOKER, EV_TRUHE = 0, 1, 2
RARITIES = ("haeufig", "selten", "episch")
JOKER_KINDS = ("set_die", "reroll", "heal")
# the combo kinds in their code order (``rules.PASCH`` .. ``rules.SECHSLING``)
KINDS = ("pasch", "drilling", "kleine_strasse", "full_house", "vierling", "grosse_strasse", "fuenfling", "sechsling")
JK_SET, JK_REROLL, JK_HEAL = 0, 1, 2
MAX_DICE = 6  # a hand: the rule page's combos reach six dice (Sechsling, "nur mit 6 Würfeln")
MAX_OFFERS = 5
MAX_STOCK = 8
MAX_JOKERS = 8

EN_HP, EN_DMG, EN_BOSS, EN_I0, EN_IN, EN_RANDOM = range(6)
EN_SIZE = 6
(RM_SECTION, RM_BOSS, RM_POOL0, RM_POOLN, RM_PATH, RM_CHALLENGE, RM_EBLOCK, RM_PSHIELD, RM_ATTBONUS,
 RM_MARKET) = range(10)
RM_SIZE = 10
JK_KIND, JK_AMOUNT, JK_WEIGHT = range(3)
