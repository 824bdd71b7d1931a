"""Würfel Dungeon: 10 rooms of dice fights with path choices, coins and score."""
