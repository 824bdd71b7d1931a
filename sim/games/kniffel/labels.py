"""Kniffel's policies named for readers (chart legends, reports, the two-player table)."""

from __future__ import annotations

# what each policy maximises: optimal is exact for the expected score of one sheet, not for the chance to beat an
# opponent
POLICY_LABELS = {"optimal": "optimal (maximum expected score)"}


def policy_label(policy: str) -> str:
    """A policy's name for readers: ``optimal`` says that it maximises the expected score."""
    return POLICY_LABELS.get(policy, policy)
