"""Würfel Dungeon's game words as the integer codes the kernel, the policies and the reports share.

They belong to the game, not to a policy: the policies (``policies.dungeon.bots*``) import them from here, and nothing
in this module, ``rules`` or the record layouts imports a policy. Config-side names (events ``EV_*``, joker kinds
``JK_*``, rarities) stay in ``config`` where the TOML spells them.
"""

from __future__ import annotations

# path cards (the seed's Wegkarten): the first two are always offered, the third is drawn per room
KAMPF, ELITE, RAST, GEHEIMNIS = 0, 1, 2, 3
CARD_NAMES = ("kampf", "elite", "rastplatz", "geheimnis")

# what a reward slot or market item is
ITEM_UPGRADE, ITEM_JOKER, ITEM_DICE = 0, 1, 2

# the fight-state vector the kernel fills before each in-fight decision (what a policy may look at)
(FS_EHP, FS_EBLOCK, FS_EPOISON, FS_LP, FS_MAXLP, FS_SHIELD, FS_INCOMING, FS_ATT_MUL, FS_COINS, FS_LC_COST,
 FS_LC_OK) = range(11)
FS_SIZE = 11
