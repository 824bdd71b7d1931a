"""Würfel Dungeon's display names for readers (reports, charts, the studio): code name -> the game's own word.

Kept apart from ``words`` (the integer codes the kernel shares) so that a new display name never touches a kernel.
``sim.report.words`` reads ``WORDS``; the replay text and the charts use the same names.
"""

from __future__ import annotations

UPGRADE_WORDS = {"wetzstein": "Wetzstein", "dicke_haut": "Dicke Haut", "heilkraeuter": "Heilkräuter",
                 "paschmeister": "Paschmeister", "gluecksklee": "Glücksklee", "gluecksmuenze": "Glücksmünze",
                 "eherne_mauer": "Eherne Mauer", "giftdolch": "Giftdolch", "berserker": "Berserker",
                 "glueckssieben": "Glückssieben", "extra_wuerfel": "Extra-Würfel", "lebenselixier": "Lebenselixier"}
DIFFICULTY_WORDS = {"leicht": "Leicht", "normal": "Normal", "schwer": "Schwer"}
POLICY_WORDS = {"vorschlag": "Vorschlag", "greedy": "Greedy", "expectimax": "Expectimax", "random": "Random"}
CARD_WORDS = {"kampf": "Kampf", "elite": "Elite", "rastplatz": "Rastplatz", "geheimnis": "Geheimnis"}
EVENT_WORDS = {"opferaltar": "Opferaltar", "joker_haendler": "Joker-Händler", "verfluchte_truhe": "Verfluchte Truhe"}
SECTION_WORDS = {"kristallhoehlen": "Kristallhöhlen", "krypta": "Krypta", "aschehallen": "Aschehallen"}
WORDS = {"dungeon": "Würfel Dungeon", **UPGRADE_WORDS, **DIFFICULTY_WORDS, **POLICY_WORDS, **CARD_WORDS,
         **EVENT_WORDS,
         **SECTION_WORDS}
