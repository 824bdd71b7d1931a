"""Dungeon24: the creature pyramid battle (two players, one d6 each per exchange)."""
