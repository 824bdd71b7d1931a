"""The dungeon bots: registry, dispatcher, decisions."""
