"""``dicesim describe GAME`` as a person reads it: the derived rule tables as text tables, in the game's words.

The answer is the same dictionary ``--json`` prints (each game's ``describe``); this renders its shapes, not any one
game's keys, so a new game's tables read without a line here: a list of records is a table (or, where a record
holds its own list, a heading and an indented table), a short mapping of numbers a row under its keys, a mapping of
records a table by key, a matrix a grid. Chances (keys naming a probability, a chance or a hit) read as percentages,
code names in the game's words (``skelett`` -> Skelett); a ``*_means`` note follows the table it explains. The
rules themselves (``config``) and the per-run table's columns stay in ``--json``; the last line says so.
"""

from __future__ import annotations

import textwrap
from typing import Any

from sim.core.config import value_at
from sim.games import GAMES, declared
from sim.report.words import config_label, word

WIDTH = 100  # wrapped prose and lists
WIDE = 120  # a wider table is shown in parts
ACROSS = 12  # a mapping of at most this many numbers reads as one row under its keys
OMITTED = ("config", "columns")  # in --json only
HEADER = ("game", "config_hash", "difficulty", "assumed")


def describe_text(d: dict[str, Any], model: Any = None) -> str:
    """The lines ``describe`` prints without ``--json``; ``model``: the game's config model, which names the assumed
    values in words (else by their paths)."""
    game = str(d.get("game", ""))
    out = [_title(d, game)]
    scalars = [(k, v) for k, v in d.items() if _scalar(v) and k not in HEADER and not k.endswith("_means")]
    if scalars:
        out += ["", *_pairs(scalars, game, "")]
    tables = [k for k, v in d.items() if k not in HEADER and k not in OMITTED and not k.endswith("_means")
              and not _scalar(v)]
    notes = {}  # a note follows the last table its stem names (bust_probability_means: the three bust tables)
    for k, v in d.items():
        if k.endswith("_means") and isinstance(v, str):
            named = [t for t in tables if t.startswith(k[: -len("_means")])]
            notes.setdefault(named[-1] if named else None, []).append(v)
    for key in tables:
        out += ["", *_wrap(_label(key, game), ""), *_block(key, d[key], game, "  ")]  # a long heading wraps
        out += [line for note in notes.get(key, []) for line in _wrap(note, "  ")]
    out += [line for note in notes.get(None, []) for line in ["", *_wrap(note, "")]]
    return "\n".join(out + ["", *_footer(d, game, model)])


def _title(d: dict[str, Any], game: str) -> str:
    title = declared(game, "TITLE") or game
    parts = [title]
    if d.get("difficulty"):
        parts.append(word(game, d["difficulty"]))
    if d.get("config_hash"):
        parts.append(f"rules {d['config_hash']}")
    return " · ".join(parts)


def _footer(d: dict[str, Any], game: str, model: Any = None) -> list[str]:
    out = []
    if d.get("assumed") and model is not None:
        out.append("Assumed (numbers the rule page leaves open, set by us; change them in the config):")
        out += [line for path in d["assumed"] for line in _wrap(_assumed(str(path), d.get("config"), game, model),
                                                                "  ")]
    elif d.get("assumed"):
        out += _wrap("Assumed (numbers the rule page leaves open, set by us): " + ", ".join(map(str, d["assumed"])), "")
    kept = [k for k in OMITTED if k in d]
    if kept:
        what = {"config": "the rules as configured", "columns": f"the {len(d['columns'])} columns of a batch's table"}
        name = game if game in GAMES else "GAME"
        out.append(f"With --json ({' and '.join(what[k] for k in kept)}): dicesim describe {name} --json")
    return out


def _assumed(path: str, config: Any, game: str, model: Any) -> str:
    """An assumed value in words, its value where it is one number, name or short list, its path after it
    (``banking past an exact target = void (goal.overshoot)``); a whole table (a roster) is the config's to show."""
    value = value_at(config, path)

    def one(x: Any) -> str:  # a name in the game's words, a whole number without ".0" (a price of 68, not 68.0)
        if isinstance(x, bool):
            return "yes" if x else "no"
        if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
            return str(int(x))
        return word(game, x) if isinstance(x, str) else str(x)

    if isinstance(value, list) and all(_scalar(x) and x is not None for x in value):
        shown = ", ".join(one(x) for x in value)
    elif _scalar(value) and value is not None:
        shown = one(value)
    else:
        shown = ""
    said = config_label(game, model, path)
    return f"{said}{f' = {shown}' if shown and len(shown) <= 40 else ''} ({path})"


def _own(key: str, game: str) -> str | None:
    return (declared(game, "DESCRIBE_WORDS") or {}).get(str(key)) if game else None


def _label(key: str, game: str = "") -> str:
    """A key as a heading: the game's own words for it (``DESCRIBE_WORDS`` in its options module: what a bare key
    cannot say, ``bust_probability`` -> "Bust chance by dice thrown"), else the key with spaces."""
    said = _own(key, game)
    if said:
        return said
    text = " ".join(w.upper() if w in ("lp", "hp") else w for w in str(key).split("_"))
    return text[:1].upper() + text[1:]


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def _chance(path: str) -> bool:
    """A chance by its key or a key above it (``hit_chance_vs.gruenlinge``): shown as a percentage."""
    k = str(path).lower()
    return "probability" in k or "chance" in k or k.rsplit(".", 1)[-1] == "hit"


def _cell(key: str, v: Any, game: str) -> str:
    """One value in words: a chance as a percentage, a count with separators, a code name in the game's words."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    if isinstance(v, float):
        if _chance(key) and 0.0 <= v <= 1.0:
            return f"{100 * v:.1f} %"
        if v == int(v) and abs(v) < 1e15:
            return _cell(key, int(v), game)
        a = abs(v)
        return f"{v:.3g}" if a < 1 else f"{v:.2f}" if a < 100 else f"{v:,.1f}" if a < 1e15 else f"{v:.3e}"
    if isinstance(v, str):
        return word(game, v) if v.isidentifier() and v.lower() == v else v
    if isinstance(v, list) and all(_scalar(x) for x in v):
        return " ".join(_cell(key, x, game) for x in v)
    return str(v)


def _numeric(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) or v is None


def _block(key: str, value: Any, game: str, pad: str) -> list[str]:
    """The lines of one value under its heading, indented by ``pad``; ``key``: its path (``decks.untote.cards``)."""
    if isinstance(value, dict):
        return _mapping(key, value, game, pad)
    if isinstance(value, list):
        if value and all(isinstance(r, dict) for r in value):
            return _records(key, value, game, pad)
        if value and all(isinstance(r, list) for r in value):
            return _table(None, [[_cell(key, x, game) for x in r] for r in value], pad)
        if any(isinstance(x, str) and " " in x for x in value):
            return [line for x in value for line in _wrap(f"- {_cell(key, x, game)}", pad, "  ")]
        return _wrap(_listed(key, value, game), pad)
    return [pad + _cell(key, value, game)]


def _listed(key: str, value: list[Any], game: str) -> str:
    return ", ".join(_cell(key, x, game) for x in value) or "none"


def _mapping(key: str, m: dict[str, Any], game: str, pad: str) -> list[str]:
    if not m:
        return [pad + "none"]
    values = list(m.values())
    if all(_numeric(v) for v in values) and len(m) <= ACROSS:
        return _table([_head(k, game) for k in m], [[_cell(f"{key}.{k}", v, game) for k, v in m.items()]], pad)
    if all(isinstance(v, dict) and all(_scalar(x) for x in v.values()) for v in values):
        cols = list(dict.fromkeys(c for v in values for c in v))
        rows = [[_head(k, game)] + [_cell(f"{key}.{c}", v.get(c), game) for c in cols] for k, v in m.items()]
        return _table([_label(_key_word(key), game)] + [_label(c, game) for c in cols], rows, pad)
    flat = [(k, v) for k, v in m.items() if _scalar(v) or _flat_list(v)]
    out = _pairs([(k, _listed(f"{key}.{k}", v, game) if isinstance(v, list) else _cell(f"{key}.{k}", v, game))
                  for k, v in flat], game, pad, shown=True)
    for k, v in m.items():
        if _scalar(v) or _flat_list(v):
            continue
        titled = isinstance(v, dict) and isinstance(v.get("label"), str)
        out += [pad + (v["label"] if titled else _own(k, game) or _label(word(game, k))),
                *_block(f"{key}.{k}", {x: y for x, y in v.items() if x != "label"} if titled else v, game, pad + "  ")]
    return out


def _head(k: str, game: str) -> str:
    """A mapping's key as a column heading or a row's first cell: numbers as they are, names in words."""
    return (_own(k, game) or _label(word(game, k))) if str(k).isidentifier() else str(k)


def _key_word(key: str) -> str:
    """The heading of a mapping's key column: what its keys count (``exchange_by_advantage`` -> advantage)."""
    last = key.rsplit(".", 1)[-1]
    return last.rsplit("_by_", 1)[1] if "_by_" in last else ""


def _records(key: str, rows: list[dict[str, Any]], game: str, pad: str) -> list[str]:
    """A list of records as a table (a column of words that repeats an earlier one left out; ``x_name``'s words
    under ``x``); records holding their own lists each as a heading line and their tables."""
    keys = {k for r in rows for k in r}
    cols = [c for c in dict.fromkeys(c for r in rows for c in r) if not (c.endswith("_name") and c[:-5] in keys)]
    nested = [c for c in cols if any(not _scalar(r.get(c)) and not _flat_list(r.get(c)) for r in rows)]

    def cell(r: dict[str, Any], c: str) -> str:
        return _cell(f"{key}.{c}", r.get(f"{c}_name", r.get(c)), game)

    flat, seen = [], set()
    for c in cols:
        cells = tuple(cell(r, c) for r in rows)
        if c in nested or cells in seen:  # a code name beside its words (Kniffel's box and label): once
            continue
        flat.append(c)
        if not all(_looks_numeric(x) for x in cells):
            seen.add(cells)
    def head(c: str) -> str:  # the table's own words for a column first (rooms.damage), then the key's
        return _own(f"{key}.{c}", game) or _label(c, game)

    if not nested:
        return _table([head(c) for c in flat], [[cell(r, c) for c in flat] for r in rows], pad)
    out: list[str] = []
    for r in rows:
        out.append(pad + " · ".join(cell(r, c) if i == 0 else f"{head(c).lower()} {cell(r, c)}"
                                    for i, c in enumerate(flat)))
        for c in nested:
            out += _block(f"{key}.{c}", r.get(c), game, pad + "  ")
    return out


def _flat_list(v: Any) -> bool:
    return isinstance(v, list) and all(_scalar(x) for x in v)


def _pairs(items: list[tuple[str, Any]], game: str, pad: str, shown: bool = False) -> list[str]:
    """``label  value`` lines, the values in one column; a long value wraps under itself (``shown``: the values
    are in words already)."""
    width = max((len(_label(k, game)) for k, _ in items), default=0)
    out: list[str] = []
    for k, v in items:
        head = f"{pad}{_label(k, game):<{width}}  "
        out += textwrap.wrap(v if shown else _cell(k, v, game), WIDTH, initial_indent=head,
                             subsequent_indent=" " * len(head)) or [head.rstrip()]
    return out


def _table(head: list[str] | None, rows: list[list[str]], pad: str) -> list[str]:
    """Columns padded to their widest cell, numbers right-aligned, words left; a table wider than ``WIDE`` in parts
    one under the other, each repeating the leading columns that name a row (the first and the words after it)."""
    grid = ([head] if head else []) + rows
    n = max(len(r) for r in grid)
    grid = [r + [""] * (n - len(r)) for r in grid]
    widths = [max(len(r[i]) for r in grid) for i in range(n)]
    right = [all(_looks_numeric(r[i]) for r in rows) for i in range(n)]
    keys = 1
    while keys < n - 1 and not right[keys]:
        keys += 1
    parts = _parts(widths, keys, WIDE)
    for even in range(WIDE * len(parts) // (len(parts) + 1), WIDE):  # as few parts, of even widths
        if len(parts) > 1 and len(tried := _parts(widths, keys, even)) == len(parts):
            parts = tried
            break
    out: list[str] = []
    for k, cols in enumerate(parts):
        out += [""] if k else []
        out += [pad + "  ".join(r[i].rjust(widths[i]) if right[i] else r[i].ljust(widths[i]) for i in cols).rstrip()
                for r in grid]
    return out


def _parts(widths: list[int], keys: int, limit: int) -> list[list[int]]:
    """Column indices in parts no wider than ``limit`` (one column at least beside the ``keys`` leading ones)."""
    parts, part = [], list(range(keys))
    for i in range(keys, len(widths)):
        if len(part) > keys and sum(widths[j] + 2 for j in part) + widths[i] > limit:
            parts.append(part)
            part = list(range(keys))
        part.append(i)
    return parts + [part]


def _looks_numeric(text: str) -> bool:
    t = text.replace(",", "").replace(" %", "").replace("—", "0").replace("−", "-").replace(" ", "")
    try:
        float(t)
    except ValueError:
        return False
    return True


def _wrap(text: str, pad: str, hang: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=pad, subsequent_indent=pad + hang) or [pad]
