"""The dungeon24 bots: registry, dispatcher, decisions."""
