"""Dungeon24's rule tables for ``describe``: the exchange by advantage and each people's deck with its hit chances.
Plain Python (no kernel): ``dicesim describe dungeon24`` computes them with the rules as Python
(``sim.cli.work.tables``)."""

from __future__ import annotations

from typing import Any

from sim.core.config import config_hash
from sim.core.schema import Column
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.columns import COLUMNS
from sim.games.dungeon24.config import PEOPLES, Card, Dungeon24Config, freeze, volk

CONFIG = Dungeon24Config  # the rules these tables read (sim.cli.work.tables loads them without the game)


def table_columns(cfg: Dungeon24Config, options: dict[str, Any]) -> tuple[Column, ...]:
    return COLUMNS


def exchange_stats(adv: int) -> dict[str, float | None]:
    """Exchange of A - V = ``adv`` without rerolls: hit chance and mean LP loss given a hit (exact, 36 pairs); no
    loss where no pair hits (none is lost "when hit" where a hit cannot happen: it read 0)."""
    hits = 0
    dmg = 0
    for a in range(1, 7):
        for d in range(1, 7):
            x = R.exchange(adv + a, d)
            if x > 0:
                hits += 1
                dmg += x
    return {"hit": hits / 36, "lp_loss_given_hit": dmg / hits if hits else None}


def card_names(cards: list[Card]) -> list[str]:
    """The cards' names as the deck gives them, a repeated name numbered (``Skelett (2)``): they key a grid's rows and
    columns, where two cards of one name would be one."""
    seen: dict[str, int] = {}
    out = []
    for c in cards:
        seen[c.name] = seen.get(c.name, 0) + 1
        out.append(c.name if seen[c.name] == 1 else f"{c.name} ({seen[c.name]})")
    return out


def hit_grid(own: list[Card], theirs: list[Card]) -> dict[str, dict[str, float]]:
    """The chance that each own card (rows) hits each of theirs (columns) in one exchange, keyed by the cards' names:
    ``describe`` prints the rows and columns by name, not six bare numbers in deck order."""
    cols = card_names(theirs)
    return {row: {col: round(exchange_stats(a.a - d.v)["hit"], 4) for col, d in zip(cols, theirs, strict=True)}
            for row, a in zip(card_names(own), own, strict=True)}


def describe(cfg: Dungeon24Config, options: dict[str, Any]) -> dict[str, Any]:
    """The exchange table, and per people its cards, sums and hit chance against every other people's cards (by
    name: ``hit_chance_vs[people][own card][their card]``)."""
    freeze(cfg)  # the checks the kernels' arrays make of these rules
    hit = {str(adv): exchange_stats(adv) for adv in range(-6, 7)}
    decks = {}
    for i, name in enumerate(PEOPLES):
        v = volk(cfg, i)
        cs = [*v.cards, v.boss]
        decks[name] = {
            "label": v.label,
            "ability": v.ability,
            "cards": [{"name": c.name, "a": c.a, "v": c.v, "boss": k == R.BOSS} for k, c in enumerate(cs)],
            "sum_a": sum(c.a for c in v.cards), "sum_v": sum(c.v for c in v.cards),
            "hit_chance_vs": {other: hit_grid(cs, [*volk(cfg, j).cards, volk(cfg, j).boss])
                              for j, other in enumerate(PEOPLES)},
        }
    return {"game": "dungeon24", "config_hash": config_hash(cfg), "assumed": list(cfg.assumed),
            "exchange_by_advantage": hit, "decks": decks, "config": cfg.model_dump(mode="json")}
