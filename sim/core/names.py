"""Names as a designer types them: a game or a policy in any case, spaces around the commas of a seated list.

The registry's game names and every policy name (and Würfel Dungeon upgrade) are lowercase, so ``Kniffel`` is
``kniffel`` and ``Vorschlag@Paschmeister, Greedy`` is ``vorschlag@paschmeister,greedy`` — on the command line and in
sweep, tune and targets files alike. Light: no imports but the error type, read before anything loads.
"""

from __future__ import annotations

from typing import Any

from sim.core.errors import DicesimError


def game_name(value: Any) -> Any:
    """A game as named by a person (``Kniffel``, `` DADOX``): the registry's lowercase name; anything else as it is."""
    return value.strip().lower() if isinstance(value, str) else value


def policy_label(value: Any) -> Any:
    """A policy or a comma list of seats (``greedy, RANDOM``) as the games spell it (``greedy,random``)."""
    return ",".join(p.strip() for p in value.lower().split(",")) if isinstance(value, str) else value


def policy_text(value: Any, what: str = "policy") -> str:
    """A policy as the Python API takes it: a name, a comma list of seats, or a list of them (``["greedy",
    "random"]`` is ``"greedy,random"``), in any case; anything else refused in words, not an AttributeError."""
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        value = ",".join(value)
    if not isinstance(value, str):
        raise DicesimError(f"{what} must be a policy name such as 'greedy' (or a list of them), got {value!r}")
    return policy_label(value)


def compared(policies: str, flag: str = "--policies") -> list[str]:
    """The policies a comparison plays, each once: ``"a, b"`` is ``[a, b]``; none, or one named twice, refused."""
    parts = policy_label(policies).split(",")
    names = [p for p in parts if p]
    if not names:
        raise DicesimError(f"{flag} is empty")
    if len(names) < len(parts):  # "hold-20," or ["hold-20", ""]: the empty one was dropped in silence
        raise DicesimError(f"{flag} {policies!r} has an empty name: give each policy once, comma-separated"[:200])
    if twice := next((p for i, p in enumerate(names) if p in names[:i]), None):
        raise DicesimError(f"{flag} names {twice!r} twice: compare each policy once")
    return names
