"""The golden cases: fixed (game, policy, options, --set overrides) played on fixed seeds.

Each game's cases live in one file per game (``hashes/<game>.json``, ``replays/<game>/``) so that work on
one game regenerates only its own files.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.games import GAMES as REGISTRY

HERE = Path(__file__).resolve().parent
SEED = 20261130
N = 400


@dataclass(frozen=True)
class Case:
    game: str
    policy: str
    options: dict[str, Any] = field(default_factory=dict)
    sets: tuple[str, ...] = ()
    config: str | None = None
    n: int = N

    @property
    def id(self) -> str:
        parts = [self.policy.replace(",", "+")]
        parts += [f"{k}={v}" for k, v in sorted(self.options.items())]
        if self.config:
            parts.append(Path(self.config).stem)
        parts += list(self.sets)
        return "|".join(parts)


ECONOMY_OFF = ("rewards.enabled=false", "market.enabled=false")

TABLE_CASES: list[Case] = [
    Case("kniffel", "random"),
    Case("kniffel", "greedy"),
    Case("kniffel", "optimal"),
    Case("kniffel", "optimal,greedy", {"players": 2}),
    Case("kniffel", "optimal", config="configs/kniffel/free-joker.toml"),
    Case("dungeon", "vorschlag", {"difficulty": "leicht"}),
    Case("dungeon", "greedy", {"difficulty": "leicht"}),
    Case("dungeon", "expectimax", {"difficulty": "leicht"}, n=150),
    Case("dungeon", "random", {"difficulty": "leicht"}),
    Case("dungeon", "vorschlag", {"difficulty": "normal"}),
    Case("dungeon", "vorschlag", {"difficulty": "schwer"}),
    Case("dungeon", "greedy", {"difficulty": "schwer"}, ECONOMY_OFF),
    Case("dungeon", "vorschlag@paschmeister", {"difficulty": "leicht"}),
    Case("dadox", "threshold", {"players": 2}),
    Case("dadox", "greedy", {"players": 2}),
    Case("dadox", "optimal-turn,threshold", {"players": 2}),
    Case("dadox", "random", {"players": 2}),
    Case("dadox", "threshold", {"players": 5}),
    Case("dadox", "threshold", {"players": 2}, config="configs/dadox/classic.toml"),
    Case("dadox", "threshold", {"players": 2}, config="configs/dadox/lenient.toml"),
    Case("dadox", "optimal-turn,threshold", {"players": 2}, config="configs/dadox/lenient.toml"),
    Case("dadox", "threshold,greedy,optimal-turn", {"players": 6}, n=120),
    Case("dadox", "leader-win,threshold,greedy", {"players": 6}, ("goal.target=2000", "solver.score_floor=-1000"),
         n=120),
    Case("dungeon24", "random", {"opponent": "greedy"}),
    Case("dungeon24", "greedy", {"opponent": "greedy"}),
    Case("dungeon24", "heuristic", {"opponent": "greedy", "people": "untote", "opponent_people": "dunkelelfen"}),
    Case("dungeon24", "exact-exchange", {"opponent": "heuristic"}, n=200),
    Case("dungeon24", "heuristic", {"opponent": "heuristic"}, ("rules.charge_every=1",)),
    Case("dungeon24", "random", {"opponent": "heuristic", "people": "untote"}, ("rules.fire_timing='any_turn'",)),
    Case("dungeon24", "expectimax", {"opponent": "exact-exchange", "opponent_people": "untote"}, n=60),
]

# (case, run) pairs whose replay text is stored
REPLAY_CASES: list[tuple[Case, int]] = [
    (Case("kniffel", "optimal"), 3),
    (Case("kniffel", "greedy"), 0),
    (Case("kniffel", "optimal"), 1354),  # turn 5: a joker Kniffel on the first roll is scored at once
    (Case("kniffel", "optimal,greedy", {"players": 2}), 1),  # greedy wins; each seat once holds all five and stops
    (Case("dungeon", "vorschlag", {"difficulty": "leicht"}), 1),
    (Case("dungeon", "expectimax", {"difficulty": "normal"}), 2),
    (Case("dadox", "threshold", {"players": 2}), 0),
    (Case("dadox", "optimal-turn,greedy", {"players": 2}), 4),  # turns 1 and 11: a first-throw triple confirmed,
    # a declined triple that obliges a throw; the same dice under the earlier readings:
    (Case("dadox", "optimal-turn,greedy", {"players": 2}, config="configs/dadox/lenient.toml"), 4),
    (Case("dungeon24", "heuristic", {"opponent": "greedy"}), 0),
    (Case("dungeon24", "exact-exchange", {"opponent": "heuristic", "people": "dunkelelfen"}), 5),
    (Case("dungeon24", "heuristic", {"opponent": "heuristic"}, ("rules.charge_every=1",)), 0),  # stacked charges
    (Case("dungeon24", "expectimax", {"opponent": "exact-exchange", "opponent_people": "untote"}, n=60), 1),
]

GAMES = tuple(REGISTRY)  # every registered game has golden files


def default_cases(game: str) -> list[Case]:
    """A game listed in neither list above gets these: each report policy on the default rules and options, then
    its last report policy seated before its first (cycled over the seats), and the replay of run 0 of that one."""
    from sim.games import get_game

    names = list(get_game(game).report_policies)
    return [Case(game, p) for p in names] + ([Case(game, f"{names[-1]},{names[0]}")] if len(names) > 1 else [])


_listed = {c.game for c in TABLE_CASES}
for _game in GAMES:
    if _game not in _listed:
        _cases = default_cases(_game)
        TABLE_CASES += _cases
        REPLAY_CASES.append((_cases[-1], 0))


def _setup(case: Case):
    from sim.games import get_game

    g = get_game(case.game)
    options = g.check_options(dict(case.options))
    cfg = g.load(HERE.parent.parent / case.config if case.config else None, list(case.sets))
    seats = g.seat_policies(case.policy, options)
    return g, cfg, options, seats


def table_hash(table: pd.DataFrame) -> str:
    """sha256 over every column's name, dtype and values."""
    h = hashlib.sha256()
    for name in table.columns:
        col = table[name]
        h.update(str(name).encode())
        arr = np.ascontiguousarray(col.to_numpy())
        if arr.dtype.kind in "biuf":
            h.update(str(arr.dtype).encode())
            h.update(arr.tobytes())
        else:  # categoricals, strings, objects: their labels, never object pointers
            h.update("\x1f".join(map(str, arr)).encode())
    return h.hexdigest()[:24]


def play_hash(case: Case) -> str:
    from sim.core.batch import run_batch

    g, cfg, options, seats = _setup(case)
    batch = run_batch(g, cfg, seats, case.n, SEED, options, chunk=128, progress=False)
    return table_hash(batch.table)


def replay_text(case: Case, run: int) -> str:
    g, cfg, options, seats = _setup(case)
    g.prepare(cfg, seats, options)
    return g.replay(cfg, seats, SEED, run, options).rstrip() + "\n"


def replay_path(case: Case, run: int) -> Path:
    safe = case.id.replace("|", "_").replace("=", "-").replace("@", "-at-").replace("/", "_")
    return HERE / "replays" / case.game / f"{safe}_run{run}.txt"


def hash_path(game: str) -> Path:
    return HERE / "hashes" / f"{game}.json"
