"""Names as a designer types them: a game or a policy in any case, spaces around the commas of a seated list.

The registry's game names and every policy name (and Würfel Dungeon upgrade) are lowercase, so ``Kniffel`` is
``kniffel`` and ``Vorschlag@Paschmeister, Greedy`` is ``vorschlag@paschmeister,greedy`` — on the command line and in
sweep, tune and targets files alike. Light: no imports, read before anything loads.
"""

from __future__ import annotations

from typing import Any


def game_name(value: Any) -> Any:
    """A game as named by a person (``Kniffel``, `` DADOX``): the registry's lowercase name; anything else as it is."""
    return value.strip().lower() if isinstance(value, str) else value


def policy_label(value: Any) -> Any:
    """A policy or a comma list of seats (``greedy, RANDOM``) as the games spell it (``greedy,random``)."""
    return ",".join(p.strip() for p in value.lower().split(",")) if isinstance(value, str) else value
