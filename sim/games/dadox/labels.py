"""Dadox's display names for readers (reports, charts, the studio): code name -> the word a player uses."""

from __future__ import annotations

from sim.games.dadox.options import POLICY_WORDS

WORDS = {"dadox": "Dadox", **POLICY_WORDS,
         # a throw's bust share by the dice thrown ("bust rate 1 dice" read as code), over every kind of throw: first,
         # later and confirmation throws bust at different chances (describe's tables), the measure mixes them
         **{f"bust_rate_{n}_dice": f"bust rate throwing {n} {'die' if n == 1 else 'dice'} (all throws)"
            for n in range(1, 7)}}
