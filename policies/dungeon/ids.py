"""Würfel Dungeon policy ids: the integers the run kernel dispatches on (``POLICIES`` maps the names)."""

from __future__ import annotations

POLICIES = {"vorschlag": 0, "greedy": 1, "expectimax": 2, "random": 3, "rollout": 4}
VORSCHLAG, GREEDY, EXPECTIMAX, RANDOM, ROLLOUT = 0, 1, 2, 3, 4  # ROLLOUT: the driver (``sim.games.dungeon.rollout``)
# What each policy needs the kernel to compute for it (``needs``): the rules test these, never a policy id.
NEEDS_ETAB = (EXPECTIMAX,)  # the per-turn expectation tables before its holds
NEEDS_ATTACK_GAIN = (GREEDY, EXPECTIMAX)  # the exact gain in expected turn attack of each offer
# A test policy, in no registry (no name reaches it; tests pass the id to ``play.run_one`` / ``play_batch``): it asks
# for what the rules forbid (an adjust past the budget, beyond the step, out of 1..6 or on a cursed die; a hold that
# rerolls a cursed die; a last chance once it is spent or unaffordable), so the kernel's refusals can be counted
# (``illegal_requests``). Its other decisions are the dispatchers' default branches.
BROKEN = 5  # policies that read the per-turn expectation table
