"""Dungeon24's display names for readers (reports, charts, the studio): code name -> the game's own word."""

from __future__ import annotations

from sim.games.dungeon24.options import PEOPLE_WORDS, POLICY_WORDS

# each people's ability as the rules write it (``config.Volk.ability``'s codes)
ABILITY_WORDS = {"blutrausch": "Blutrausch", "auferstehung": "Auferstehung", "schattenschmerz": "Schattenschmerz"}
# the game's own metrics (per seat too: ``mean_wins1`` reads "duels won (seat 2)"; "mean wins 3.78 duels" and "end LP
# rate" read as code)
METRIC_WORDS = {"mean_wins": "duels won", "mean_focus": "focus rerolls", "mean_deploys": "cards deployed",
                "boss_counter_rate": "games with a boss counter", "boss_lost_rate": "games whose boss fell",
                "ability_used_rate": "games with the ability used", "end_lp_rate": "games ended by life points",
                "end_no_creatures_rate": "games ended with no creature left",
                "end_boss_rate": "games ended by a fallen boss", "end_turn_limit_rate": "games ended at the turn limit"}
WORDS = {"dungeon24": "Dungeon24", **PEOPLE_WORDS, **POLICY_WORDS, **ABILITY_WORDS, **METRIC_WORDS}

# units of the game's own count metrics, per seat too (``sim.report.words.unit_of``: pattern -> unit)
UNITS = {r"^ability_uses[01]$": "uses", r"^mean_wins[01]$": "duels", r"^mean_focus[01]$": "focus rerolls",
         r"^mean_deploys[01]$": "cards", r"^(mean_)?turns(_p\d+)?$": "turns"}
# how a game ended (``rules.END_NAMES``), as the replay's last line says it
END_WORDS = {"lp": "the loser's life points ran out", "no_creatures": "the loser had no creature left",
             "boss": "the loser's boss fell", "turn_limit": "the turn limit"}
# config paths whose field says too little on a page (``sim.report.words.config_label``): each people's name and
# ability
CONFIG_WORDS = {f"peoples.{p}.{k}": f"{w}: {said}" for p, w in PEOPLE_WORDS.items()
                for k, said in (("label", "name on the page"), ("ability", "people ability"))}
