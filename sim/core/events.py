"""Event logs and replays: a game declares its log's event kinds and their fields once; the engine decodes the
kernel's rows into named records, renders text, prints ``replay --json`` and reports truncation the same way for
every game.

Why: each game used to read its own log rows by column number in its renderer, and only some said when the log
ran out of room. Now the layout lives in one declaration (``EventLog``) next to the game, the records are what
``--json`` prints, and the text renderer reads records by name.

A kernel log is an int64 array ``[events, width]``. ``EventLog.kind_column`` holds the event code; each
``EventKind`` names the other columns in order: ``"dice:5"`` takes five columns as a list, ``"_"`` skips one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.core.limits import kernel_seed

TRUNCATED = "(log truncated after {n} events)"


@dataclass(frozen=True)
class EventKind:
    """One kind of event: its code in the log, its name, and the names of the log columns it uses."""
    code: int
    name: str
    fields: tuple[str, ...]
    text: str = ""  # optional template over the fields for the generic renderer

    def decode(self, row: list[int]) -> dict[str, Any]:
        rec: dict[str, Any] = {"event": self.name}
        i = 0
        for f in self.fields:
            name, _, width = f.partition(":")
            k = int(width) if width else 1
            if name != "_":
                rec[name] = row[i:i + k] if width else row[i]
            i += k
        return rec

    @property
    def width(self) -> int:
        return sum(int(f.partition(":")[2] or 1) for f in self.fields)


@dataclass(frozen=True)
class EventLog:
    """A kernel's log layout: the event kinds and the column that says which kind a row is."""
    kinds: tuple[EventKind, ...]
    kind_column: int = 0

    def __post_init__(self) -> None:
        codes = [k.code for k in self.kinds]
        if len(set(codes)) != len(codes):
            raise ValueError(f"event codes repeat: {codes}")

    def kind(self, code: int) -> EventKind:
        for k in self.kinds:
            if k.code == code:
                return k
        raise ValueError(f"unknown event code {code}")

    def decode(self, rows: np.ndarray) -> list[dict[str, Any]]:
        """Named records of the log's rows, in order."""
        out = []
        for row in np.asarray(rows).tolist():
            code = row[self.kind_column]
            rest = row[:self.kind_column] + row[self.kind_column + 1:]
            kind = self.kind(code)
            if kind.width != len(rest):
                raise ValueError(f"event {kind.name} declares {kind.width} columns, the log has {len(rest)}")
            out.append(kind.decode(rest))
        return out


@dataclass
class Section:
    """A part of a replay with its own log (Kniffel: one sheet per seat); ``facts`` head it."""
    rows: np.ndarray
    facts: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None  # rows the kernel had room for: a full log may have lost events


@dataclass
class RunLog:
    """What a game's ``replay_log`` returns: the raw log(s), facts for the header and end, and the per-run table
    rows this run produced (``table_rows``: one dict per row of the batch table, a subset of its columns)."""
    sections: list[Section]
    facts: dict[str, Any] = field(default_factory=dict)
    table_rows: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Replay:
    """A decoded replay: the JSON of ``dicesim replay --json`` and what ``render_replay`` reads."""
    game: str
    seed: int
    run: int
    policies: list[str]
    facts: dict[str, Any]
    sections: list[dict[str, Any]]  # {"facts": {...}, "events": [records]}
    table_rows: list[dict[str, Any]]
    truncated: bool = False
    logged: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "run": self.run, "policies": self.policies,
                "facts": self.facts, "sections": self.sections, "table_rows": self.table_rows,
                "events": self.logged, "truncated": self.truncated}


def _plain(v: Any) -> Any:
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    if isinstance(v, np.ndarray):
        return v.tolist()
    return v


def decode(game: Any, log: RunLog, seed: int, run: int, policies: list[str]) -> Replay:
    """Records of every section; truncated when a section filled its log."""
    sections, truncated, logged = [], False, 0
    for s in log.sections:
        sections.append({"facts": _plain(s.facts), "events": game.events.decode(s.rows)})
        logged += len(s.rows)
        truncated |= s.limit is not None and len(s.rows) >= s.limit
    return Replay(game.name, seed, run, list(policies), _plain(log.facts), sections, _plain(log.table_rows),
                  truncated, logged)


def replay(game: Any, cfg: Any, policies: list[str], seed: int, run: int, options: dict[str, Any]) -> Replay:
    """One run of a game that declares ``events``, decoded."""
    return decode(game, game.replay_log(cfg, policies, kernel_seed(seed), run, options), seed, run, policies)


def with_truncation(text: str, rep: Replay) -> str:
    return text + ("\n" + TRUNCATED.format(n=rep.logged) if rep.truncated else "")


def replay_text(game: Any, cfg: Any, policies: list[str], seed: int, run: int, options: dict[str, Any]) -> str:
    rep = replay(game, cfg, policies, seed, run, options)
    return with_truncation(game.render_replay(rep, cfg, options), rep)


def replay_json(game: Any, cfg: Any, policies: list[str], seed: int, run: int, options: dict[str, Any]
                ) -> dict[str, Any]:
    """``replay --json`` for any game: the decoded records, the table rows and the text."""
    rep = replay(game, cfg, policies, seed, run, options)
    return {**rep.to_json(), "text": with_truncation(game.render_replay(rep, cfg, options), rep)}


def render_generic(rep: Replay, log: EventLog) -> str:
    """Each event on a line by its kind's template (or its name and fields)."""
    lines = []
    for sec in rep.sections:
        for ev in sec["events"]:
            kind = next((k for k in log.kinds if k.name == ev["event"]), None)
            if kind is not None and kind.text:
                lines.append(kind.text.format(**ev))
            else:
                lines.append(ev["event"] + " " + " ".join(f"{k}={v}" for k, v in ev.items() if k != "event"))
    return "\n".join(lines)
