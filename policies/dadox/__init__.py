"""The dadox bots: registry, dispatcher, decisions."""
