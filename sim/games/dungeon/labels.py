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
# a level's factors (``[difficulty.*]``), each growing from Leicht to Schwer in the seed's table
FACTOR_WORDS = {"hp": "enemy LP factor", "damage": "enemy damage factor", "boss": "boss factor",
                "points": "score factor"}
POLICY_WORDS = {"vorschlag": "Vorschlag", "greedy": "Greedy", "expectimax": "Expectimax", "random": "Random",
                "rollout": "Rollout"}
CARD_WORDS = {"kampf": "Kampf", "elite": "Elite", "rastplatz": "Rastplatz", "geheimnis": "Geheimnis"}
EVENT_WORDS = {"opferaltar": "Opferaltar", "joker_haendler": "Joker-Händler", "verfluchte_truhe": "Verfluchte Truhe"}
SECTION_WORDS = {"kristallhoehlen": "Kristallhöhlen", "krypta": "Krypta", "aschehallen": "Aschehallen"}
# the enemies as the rules page names them (its suggested rosters, the two bosses)
ENEMY_WORDS = {"skelett": "Skelett", "rostratte": "Rostratte", "kultist": "Kultist", "giftspinne": "Giftspinne",
               "kristallgolem": "Kristallgolem", "hoehlentroll": "Höhlentroll", "fluchpriester": "Fluchpriester",
               "aschedaemon": "Aschedämon", "glutwaechter": "Glutwächter", "wuerfelfresser": "Würfelfresser",
               "auge_der_sechs": "Auge der Sechs"}
# the combos as the rules page's combo table names them
RARITY_WORDS = {"haeufig": "häufig", "selten": "selten", "episch": "episch"}  # the seed's Seltenheit, lower case
JOKER_WORDS = {"wuerfel_setzen": "Würfel setzen", "extra_wurf": "Extra-Wurf", "heiltrank": "Heiltrank"}
COMBO_WORDS = {"pasch": "Pasch", "drilling": "Drilling", "kleine_strasse": "Kleine Straße",
               "full_house": "Full House", "vierling": "Vierling", "grosse_strasse": "Große Straße",
               "fuenfling": "Fünfling", "sechsling": "Sechsling"}
# a room's challenge (config.CHALLENGES), as the seed names them: win without healing, three combos, four turns
# the seed's words ("drei verschiedene Kombos nutzen"); "schnell" wins in coins.challenge_turns turns (4 by default)
CHALLENGE_WORDS = {"ohne_heilung": "Ohne Heilung", "drei_kombos": "Drei verschiedene Kombos", "schnell": "Schnell"}
WORDS = {"dungeon": "Würfel Dungeon", **UPGRADE_WORDS, **DIFFICULTY_WORDS, **POLICY_WORDS, **CARD_WORDS,
         **EVENT_WORDS, **SECTION_WORDS, **ENEMY_WORDS, **JOKER_WORDS, **COMBO_WORDS, **CHALLENGE_WORDS,
         # the per-upgrade table's flags compare runs that took an upgrade with runs that left it (observed: a bot
         # takes Lebenselixier when its LP run low), not a start with it against one without (findings, paired)
         "dominant": "observed dominant", "trap": "observed trap",
         # what a run's coins are: held at its end, not earned ("mean coins 605.5 coins" said neither)
         "mean_coins": "mean coins held at the end", "mean_coins_stolen": "mean coins stolen"}

# the assumed values of the config (its ``assumed`` list) in words, naming what the numbers are: the dashboard and the
# game page list them so ("which enemies appear in the Krypta"), the config path small behind (``sim.report.words``)
CONFIG_WORDS = {
    "enemies": "the enemies: base LP, base damage and intent cycles",
    # the fields a designer sweeps first, in words ("start › lp" read as code)
    "start.lp": "LP at the start", "start.dice": "dice at the start", "start.coins": "coins at the start",
    "turn.adjusts": "Justieren per fight", "rewards.offers": "reward offers to choose from",
    "coins.fight_cap": "coins a fight pays at most", "coins.boss_fight_cap": "coins a boss fight pays at most",
    # an enemy's numbers by its name (a sweep over enemies.skelett.hp read "enemies › Skelett › hp")
    **{f"enemies.{k}.{f}": f"{v}: {said}" for k, v in ENEMY_WORDS.items()
       for f, said in (("hp", "base LP"), ("damage", "base damage"), ("intents", "intent cycle"))},
    **{f"difficulty.{k}.{f}": f"{v}: {said}" for k, v in DIFFICULTY_WORDS.items() for f, said in FACTOR_WORDS.items()},
    **{f"sections.{k}.roster": f"which enemies appear in the {v}" for k, v in SECTION_WORDS.items()},
    "scaling.damage_growth_compound": "room damage growth compounds (else linear, 3 % a room)",
    "coins.step_rounding": "coins per useful action rounded",
    "coins.useful_shield_needs_attack_intent": "a shield pays coins only against an announced attack",
    "coins.steal_returned_on_win": "the Rostratte's stolen coins come back on a win",
    "path.events.weights": "how often each event comes up (Opferaltar, Joker-Händler, Verfluchte Truhe)",
    "path.boss_rest_win_coins": "coins for a boss win after a Rastplatz",
    "path.elite_coins": "Elite coins on top of the win reward",
    "time": "the clock: seconds per roll, combo, decision and choice (the score's time bonus)",
    "upgrades": "the upgrades and their effects",
    "turn.max_turns": "turns before a fight is called off",
    "poison.decay": "poison lost per turn",
    "rewards.distinct": "the three reward offers differ",
    "rewards.max_jokers": "jokers a run holds at most",
    "market.upgrades": "upgrades on sale at the Tagesmarkt",
    "market.joker_pack_size": "jokers in a joker pack",
    "market.prices": "Tagesmarkt upgrade prices in coins (Häufig, Selten, Episch)",
    "market.joker_pack": "price of a joker pack in coins",
    "market.dice_pack": "price of a dice pack in coins",
    "dice_bonus": "what a dice bonus gives (extra rerolls a turn)",
    "hero": "the hero ability",
    "mastery": "Kombomeisterschaft (combo mastery)",
    "jokers": "the jokers and their effects",
    "talents": "the talents",
    "analysis": "the balance analyses' settings (runs per upgrade lift)",
    "policies": "the bots' ratings (the Vorschlag offer rating, expectimax's terms)",
}
# the units of the dungeon's own count metrics (``sim.report.words.unit_of``): rooms of the ten, uses a run
# metrics that are a yes/no flag (1 or 0): said "yes"/"no" in the tables (they read 1 and 0)
FLAGS = (r"^upgrade_\w+_(dominant|trap)$",)
UNITS = {r"^mean_rooms_cleared$": "rooms", r"^mean_market_spent$": "coins", r"^mean_poison_damage$": "LP",
         r"^mean_(last_chances|adjusts|challenges|rewards|upgrades_gained|jokers_\w+|dice_bonuses|hero_uses|crits|"
         r"market_buys)$": "a run"}


# the metric tables' column headings where the code names a column, not a metric (``death_room``, the per-room table's
# ``death_room_3``; ``combos``, the one value of the per-combo table): ``sim.report.pages`` reads them for the headings
# only, so "combos Pasch" stays the metric's name elsewhere
COLUMN_WORDS = {
    "death_room": "runs that die in the room", "survival_room": "runs that reach the room",
    **{f"{what}_room {q}": f"{unit} after winning it, {said}" for what, unit in (("lp", "LP"), ("coins", "coins"))
       for q, said in (("p10", "10th percentile"), ("p50", "median"), ("p90", "90th percentile"))},
    "coins_spent_market": "coins spent at the market after the room", "combos": "played a run (mean)",
    "path": "taken a run (mean)",
    # the lift compares runs offered it in the same room (stratified); the two rates beside it do not
    "win_lift": "win lift, taken vs left in the same room", "win_rate_picked": "wins when taken (any room)",
    "win_rate_not_picked": "wins when left (any room)",
}
