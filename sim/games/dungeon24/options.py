"""Dungeon24's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option

PEOPLES = ("gruenlinge", "untote", "dunkelelfen")  # the order of config.PEOPLES (checked by the game at import)
OPTIONS = (
    Option("opponent", "greedy", str, "two-player games: the opponent's policy"),
    Option("people", "gruenlinge", str, "Dungeon24: your people", PEOPLES),
    Option("opponent_people", "gruenlinge", str, "Dungeon24: the opponent's people", PEOPLES),
    Option("arrangement", "policy", str, "Dungeon24: policy | search | a card order like 2,0,1,4,3"),
)
