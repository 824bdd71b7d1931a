"""What a policy needs the run kernel to compute for it, declared by the policies (``ids.NEEDS_*``).

The rules test these capabilities, never a policy id: a new policy that rates offers by their attack gain, or
holds by expectation tables, names its id in the tuple and the kernel computes what it reads.
"""

from __future__ import annotations

from numba import njit

from policies.dungeon.ids import NEEDS_ATTACK_GAIN, NEEDS_ETAB


@njit(cache=True, inline="always")
def needs_attack_gain(pid):
    """Whether policy ``pid`` rates offers by the exact gain in expected turn attack (``offer_value``'s ``g_att``,
    ``g_dice`` and ``e_att``, read from the profile tables); the others rate from the effect fields alone."""
    for p in NEEDS_ATTACK_GAIN:
        if pid == p:
            return True
    return False


@njit(cache=True, inline="always")
def needs_etab(pid):
    """Whether policy ``pid`` holds by the per-turn expectation tables (``holds.expectation_tables``), which the
    kernel fills before its holds and sizes its scratch for."""
    for p in NEEDS_ETAB:
        if pid == p:
            return True
    return False
