"""HTML pieces shared by every dicesim page: self-contained (charts embedded as data URIs), answers first.

A page must survive being mailed or attached to a ticket, so images are embedded, never linked, and the
layout prints (folded tables open for printing, figures kept whole). Numbers are formatted the same way
everywhere: rates as percentages with their 95 % interval, paired rate differences in percentage points.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core.config import value_at
from sim.games import declared
from sim.games.options import cycled, policy_names
from sim.report import words
from sim.report.findings.config import SEAT_MIN_PP
from sim.report.words import DRAWS_SAID

STYLE = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}
h1{margin-bottom:0.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:0.6em 0;font-size:0.9em}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;vertical-align:top}
td{white-space:nowrap}
th:first-child{text-align:left}small,.muted{color:#666}code{background:#f4f4f4;padding:1px 4px}
figure{margin:1em 0;break-inside:avoid}figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:0.95em;margin:0.2em 0 0.6em}
details{margin:0.4em 0}summary{cursor:pointer;font-weight:600}
.answer{font-size:1.15em;margin:0.4em 0}.missing{color:#a33}.wide{overflow-x:auto;max-width:100%}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:1em}
.card{border:1px solid #ccc;border-radius:6px;padding:0.8em 1em;break-inside:avoid}
.card h2{margin:0 0 0.3em;border:0}.card img{width:100%;border:1px solid #eee}
.card table{font-size:0.82em}.card td{white-space:normal}
@media print{body{margin:0;max-width:none}.cards{display:block}.card{margin-bottom:1em}a{color:#222}
summary{list-style:none}table{font-size:0.72em}td{white-space:normal}pre{white-space:pre-wrap}}"""

# closed <details> would print closed: open them all for printing
PRINT_SCRIPT = ("<script>window.addEventListener('beforeprint',()=>document.querySelectorAll('details')"
                ".forEach(d=>d.open=true))</script>")

is_rate = words.is_rate  # a share: shown as a percentage (sim.report.words, shared with the studio)
value_text = words.value_text  # ``50.1 % [49.4, 50.8]``, ``+3.2 pp``, ``12.5 LP``: one formatter everywhere


def num(v: Any) -> str:
    """A plain number: thousands separated, four significant digits otherwise."""
    return words.num(v)


def esc(x: Any) -> str:
    return html.escape(str(x))


# --- images --------------------------------------------------------------------------------------


def data_uri(path: str | Path, max_width: int | None = None) -> str:
    """A PNG as a ``data:`` URI; with ``max_width`` scaled down first (thumbnails stay small)."""
    raw = Path(path).read_bytes()
    if max_width:
        from PIL import Image  # heavy library (Pillow): only to shrink a chart

        with Image.open(io.BytesIO(raw)) as im:
            if im.width > max_width:
                im = im.convert("RGB")
                im.thumbnail((max_width, max_width * im.height // im.width + 1))
                buf = io.BytesIO()
                im.save(buf, format="PNG", optimize=True)
                raw = buf.getvalue()
    return "data:image/png;base64," + base64.b64encode(raw).decode("ascii")


def figure(path: str | Path, caption: str, alt: str | None = None) -> str:
    """An embedded chart with its one-sentence caption (a missing file says so instead of a broken image)."""
    path = Path(path)
    if not path.is_file():
        return f"<p class='missing'>Chart {esc(path.name)} was not written.</p>"
    if path.suffix.lower() != ".png":  # an extra analysis that is a table or document: beside the page
        return f"<p>{esc(caption)} <a href='{esc(path.name)}'>{esc(path.name)}</a></p>"
    return (f"<figure><img src='{data_uri(path)}' alt='{esc(alt or caption)}'>"
            f"<figcaption>{esc(caption)}</figcaption></figure>")


def caption_of(name: str, notes: dict[str, str]) -> str:
    """The game's sentence for a chart file, else its file name in words."""
    return notes.get(name) or Path(name).stem.replace("_", " ").capitalize() + "."


# --- documents -----------------------------------------------------------------------------------


def document(title: str, body: Iterable[str]) -> str:
    return "\n".join([
        f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>",
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><style>{STYLE}</style></head><body>",
        *body, PRINT_SCRIPT, "</body></html>",
    ])


def facts_line(facts: dict[str, Any]) -> str:
    return "<p class='muted'>" + " · ".join(f"<b>{esc(k)}</b> {esc(v)}" for k, v in facts.items()) + "</p>"


def assumed_items(assumed: list[str], game: str | None = None, model: Any = None,
                  config: dict[str, Any] | None = None) -> list[str]:
    """Each assumed value as HTML: its words from the config model (``joker also when the Kniffel box holds 0``),
    the value it had in this run, the code path small behind it (what to change in the config)."""
    out = []
    for path in assumed:
        label = words.config_label(game, model, path) if model is not None else path.replace("_", " ")
        value = value_at(config, path)
        plain = _plain(value, game) if value is not None else ""
        shown = f" = {esc(plain)}" if plain and len(plain) <= 60 else ""  # a whole table: the config has it
        out.append(f"<span title='{esc(path)}'>{esc(label)}{shown} <small><code>{esc(path)}</code></small></span>")
    return out


def _plain(v: Any, game: str | None = None) -> str:
    """A config value as a person reads it: yes/no, lists comma-separated, names in the game's words (a roster
    ``skelett, rostratte`` reads ``Skelett, Rostratte``)."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(_plain(x, game) for x in v) if all(not isinstance(x, dict | list) for x in v) else ""
    if isinstance(v, dict):  # a small table of plain values: ``rerolls 1, fights 1``; else the config has it
        if any(isinstance(x, dict | list) for x in v.values()):
            return ""
        return ", ".join(f"{words.word(game, k)} {_plain(x, game)}" for k, x in v.items() if x != "")
    return words.word(game, v) if isinstance(v, str) else str(v)


def assumed_html(assumed: list[str], brief: int = 6, game: str | None = None, model: Any = None,
                 config: dict[str, Any] | None = None) -> str:
    """Name the assumed values used in words (the config path secondary): a few inline, the rest folded."""
    if not assumed:
        return "<p class='muted'>Assumed values used: none (every number is the rules page's).</p>"
    items = assumed_items(assumed, game, model, config)
    shown = "; ".join(items[:brief])
    more = ""
    if len(items) > brief:
        more = f"<details><summary>{len(items) - brief} more</summary><p>{'; '.join(items[brief:])}</p></details>"
    return (f"<p><b>{len(items)} assumed values used</b> (not fixed by the rules page; change them in the config): "
            f"{shown}{' …' if more else ''}</p>{more}")


# --- metric tables -------------------------------------------------------------------------------

_NUMBERED = re.compile(r"^(?P<col>[a-z_]+?)_(?P<row>\d+)(?:_(?P<post>[a-z0-9_]+))?$")


def group_of(name: str, groups: Iterable[tuple[str, str]]) -> tuple[str, str, str] | None:
    """(group title, row, column) of a metric: the game's patterns first, then ``<stem>_<number>[_<suffix>]``
    (e.g. ``death_room_3`` -> per room, row 3), else ``None``."""
    for title, pattern in groups:
        m = re.match(pattern, name)
        if m:
            d = m.groupdict()
            return title, d["row"], d.get("col") or "value"
    m = _NUMBERED.match(name)
    if m:
        col, post = m["col"], m["post"]
        return f"per {col.rsplit('_', 1)[-1]}", m["row"], f"{col} {post}" if post else col
    return None


def _cell(name: str, r: Any, game: str | None = None) -> str:
    ci = None if pd.isna(r.ci95_low) else (r.ci95_low, r.ci95_high)
    return f"<td title='{esc(name)}'>{esc(value_text(name, r.value, ci, game=game))}</td>"


def _row_key(row: str) -> tuple:
    return (0, int(row), "") if row.isdigit() else (1, 0, row)


def grouped_metrics_html(metrics: pd.DataFrame, groups: Iterable[tuple[str, str]] = (),
                         skip: Iterable[str] = (), game: str | None = None) -> str:
    """The full metric table, folded: ungrouped metrics (one row each, a column per label), then one ``<details>``
    per group (rows x columns per label). Nothing is dropped: every metric appears once. Names in words (``game``:
    its display names), each code name as its cell's or row's tooltip."""
    labels = list(dict.fromkeys(metrics["label"]))
    idx = {(r.label, r.metric): r for r in metrics.itertuples()}
    groups = list(groups)
    plain: list[str] = []
    grouped: dict[str, dict[str, dict[str, str]]] = {}  # title -> col -> row -> metric
    skip = set(skip)
    for name in dict.fromkeys(metrics["metric"]):
        if name in skip:
            continue
        g = group_of(name, groups)
        if g is None:
            plain.append(name)
        else:
            grouped.setdefault(g[0], {}).setdefault(g[2], {})[g[1]] = name
    parts = []
    head = "".join(f"<th title='{esc(lab)}'>{esc(words.policy_name(game, lab))}</th>" for lab in labels)

    if plain:
        rows = "".join(
            f"<tr><th title='{esc(n)}'>{esc(words.metric_name(game, n))}</th>"
            + "".join(_cell(n, idx[(lab, n)], game) if (lab, n) in idx else "<td></td>" for lab in labels) + "</tr>"
            for n in plain)
        parts.append(f"<details><summary>Summary metrics ({len(plain)})</summary>"
                     f"<table><tr><th>metric</th>{head}</tr>{rows}</table></details>")
    for title, cols in grouped.items():
        # rows as the game reports them (Kniffel's boxes from Einser to Chance; they read Chance, Dreier, …), numbers
        # in order
        seen = list(dict.fromkeys(r for c in cols.values() for r in c))
        rows_ = sorted(seen, key=_row_key) if all(r.isdigit() for r in seen) else seen
        seats = title.endswith("seat")  # seats count from 0 in the code, from 1 at the table

        def said(code: str, seats: bool = seats) -> str:  # a row or column (a room, an upgrade, a seat) in words
            if code.isdigit():
                return f"seat {int(code) + 1}" if seats else code
            return words.column_word(game, code)

        count = sum(len(c) for c in cols.values())
        tables = []
        if len(cols) == 1:  # one value per row: a column per label
            col, names = next(iter(cols.items()))
            body = "".join(
                f"<tr><th>{esc(said(r))}</th>" + "".join(
                    _cell(names[r], idx[(lab, names[r])], game) if r in names and (lab, names[r]) in idx
                    else "<td></td>" for lab in labels) + "</tr>" for r in rows_)
            tables.append(f"<table><tr><th>{esc(said(col))}</th>{head}</tr>{body}</table>")
        else:
            chead = "".join(f"<th>{esc(said(c))}</th>" for c in cols)
            for lab in labels:
                body = "".join(
                    f"<tr><th>{esc(said(r))}</th>" + "".join(
                        _cell(names[r], idx[(lab, names[r])], game) if r in names and (lab, names[r]) in idx
                        else "<td></td>" for names in cols.values()) + "</tr>" for r in rows_)
                cap = f"<p><b>{esc(words.policy_name(game, lab))}</b></p>" if len(labels) > 1 else ""
                tables.append(f"{cap}<table><tr><th></th>{chead}</tr>{body}</table>")
        parts.append(f"<details><summary>{esc(title.capitalize())} ({count} metrics)</summary>{''.join(tables)}"
                     "</details>")
    return "\n".join(parts)


# --- answers ---------------------------------------------------------------------------------------


def headline_rows(metrics: pd.DataFrame, headline: dict[str, str]) -> tuple[list[str], list[str]]:
    """(declared headline metrics present, those missing from every label)."""
    have = set(metrics["metric"])
    return [m for m in headline if m in have], [m for m in headline if m not in have]


def answer_sentence(metrics: pd.DataFrame, headline: dict[str, str], limit: int = 8, game: str | None = None) -> str:
    """``vorschlag wins 50.1 % [49.4, 50.8] · greedy wins …`` for the first declared headline metric present (with
    ``game``: the policies in its words, ``Vorschlag wins …``)."""
    present, _ = headline_rows(metrics, headline)
    if not present:
        return ""
    name = present[0]
    said = headline[name]
    rows = metrics[metrics["metric"] == name]
    bits = []
    for r in rows.head(limit).itertuples():
        own = _each_policy(metrics, r.label, name)  # a mixed table: each policy's own (its seats pooled said nothing)
        if own:
            bits += [f"{words.policy_name(game, p) if game else p} {said} {value_text(name, v, ci, game=game)}"
                     for p, v, ci in own]
            continue
        label = words.policy_name(game, r.label) if game else str(r.label)
        who = f"{label}:" if " vs " in str(r.label) else label  # a match ("a vs b") reads as a heading
        ci = None if pd.isna(r.ci95_low) else (r.ci95_low, r.ci95_high)
        bits.append(f"{who} {said} {value_text(name, r.value, ci, game=game)}")
    return " · ".join(bits)


def _each_policy(metrics: pd.DataFrame, label: Any, name: str) -> list[tuple[str, float, Any]]:
    """(policy, value, interval) of ``name`` for each policy of a mixed table's ``label`` (``optimal,greedy``: its
    ``mean_score_optimal`` and ``mean_score_greedy``), where the table reports them all; else none."""
    pols = list(dict.fromkeys(p.strip() for p in str(label).split(",")))
    if len(pols) < 2:
        return []
    mine = metrics[metrics["label"] == label].set_index("metric")
    if not all(f"{name}_{p}" in mine.index for p in pols):
        return []
    out = []
    for p in pols:
        r = mine.loc[f"{name}_{p}"]
        out.append((p, r["value"], None if pd.isna(r["ci95_low"]) else (r["ci95_low"], r["ci95_high"])))
    return out


def _ci(v: dict[str, Any] | None) -> tuple[float, float] | None:
    ci = (v or {}).get("ci95")
    if not ci or len(ci) != 2 or any(math.isnan(float(x)) for x in ci):
        return None
    return float(ci[0]), float(ci[1])


def _pair(paired: dict[str, dict[str, Any]], metric: str, a: str, b: str) -> tuple[float, tuple | None] | None:
    """``metric``'s paired difference ``a - b`` (either way round in ``paired``), with its interval."""
    if f"{metric}: {a} - {b}" in paired:
        v = paired[f"{metric}: {a} - {b}"]
        return float(v["value"]), _ci(v)
    if f"{metric}: {b} - {a}" in paired:
        v = paired[f"{metric}: {b} - {a}"]
        ci = _ci(v)
        return -float(v["value"]), (-ci[1], -ci[0]) if ci else None
    return None


def _sure(ci: tuple | None) -> bool:
    return ci is not None and (ci[0] > 0 or ci[1] < 0)


TIE_PP = 0.10  # a difference of win rates whose interval holds 0 but reaches past ±10 pp: too few games to call a tie


def _too_few(ci: tuple | None, rate: bool = True) -> bool:
    """Whether an interval that holds 0 says "too few games" rather than "a near tie": none at all (one run), or a
    difference of rates that could still be large either way (one game read 'a near tie: 100 : 0')."""
    if ci is None or not all(math.isfinite(float(x)) for x in ci):
        return True
    return rate and (ci[0] < -TIE_PP or ci[1] > TIE_PP)


def head_to_head(metrics: pd.DataFrame, paired: dict[str, dict[str, Any]], game: str | None = None) -> list[str]:
    """Who beats whom in each match ``a vs b`` (seats alternated on shared dice): ``Optimal turn beats Threshold
    80 : 20 (+60.0 pp [57.1, 62.9] per deal, 95 %)``, or that the two are a near tie (the interval includes 0)."""
    val = {(r.label, r.metric): r for r in metrics.itertuples()}
    out, level = [], []
    for lab in dict.fromkeys(metrics["label"]):
        if " vs " not in str(lab):
            continue
        a, b = str(lab).split(" vs ", 1)
        ra, rb = val.get((lab, f"win_rate_{a}")), val.get((lab, f"win_rate_{b}"))
        d = _pair(paired, "win", a, b) or _pair(paired, "win_rate", a, b)
        if ra is None or rb is None:
            continue
        wa, wb = float(ra.value), float(rb.value)
        if d is not None:
            diff, ci = d
        else:
            diff, ci = wa - wb, None
        if diff < 0:
            (a, wa), (b, wb), diff = (b, wb), (a, wa), -diff
            ci = (-ci[1], -ci[0]) if ci else None
        na, nb = words.policy_name(game, a), words.policy_name(game, b)
        whole = (round(wa * 100), round(wb * 100))
        score = f"{whole[0]} : {whole[1]}"
        # the tenths where whole percent would say nothing ("beats … 50 : 50") or disagree with the gap beside them,
        # as written to the tenth (53.5 : 46.5 read "53 : 47 (+7.0 pp)", 53.05 : 46.95 "53 : 47 (+6.1 pp)")
        if whole[0] == whole[1] or f"{whole[0] - whole[1]:.1f}" != f"{diff * 100:.1f}":
            score = f"{wa * 100:.1f} : {wb * 100:.1f}"
        gap = f"{value_text('win', diff, ci, diff=True)} per deal, 95 %" if ci else value_text("win", diff, diff=True)
        if ci is None and diff == 0:
            level.append(f"{na} and {nb} are level: {score}.")
        elif ci is None or _sure(ci):
            out.append(f"{na} beats {nb} {score} ({gap}).")
        elif _too_few(ci):
            level.append(f"{na} and {nb} are not told apart by so few games: {score} ({gap}: the interval includes "
                         "0).")
        else:
            level.append(f"{na} and {nb} are a near tie: {score} ({gap}: the interval includes 0).")
    return out + level  # the clear wins first


def ranking(metrics: pd.DataFrame, paired: dict[str, dict[str, Any]], headline: dict[str, str],
            game: str | None = None, against: str | None = None) -> list[str]:
    """Policies played alone (or each against the same opponent), best first by the first headline metric:
    ``Mean score: Optimal 245.9 [..] > Greedy 221.0 [..]``, then each step down as a paired difference on the
    same dice (``Optimal − Greedy +24.9 [24.3, 25.5]``)."""
    present, _ = headline_rows(metrics, headline)
    labels = [lab for lab in dict.fromkeys(metrics["label"]) if " vs " not in str(lab)]
    if not present or len(labels) < 2:
        return []
    name = present[0]
    rows = {r.label: r for r in metrics[metrics["metric"] == name].itertuples() if r.label in labels}
    fewer = name in words.FEWER_IS_BETTER  # solitaire Dadox by turns per game: "Random 189.6 > Optimal 30.4" read
    order = sorted(rows, key=lambda lab: float(rows[lab].value) if fewer else -float(rows[lab].value))
    if len(order) < 2:
        return []
    said = words.metric_noun(name, headline) + (", fewer is better" if fewer else "")

    def one(lab: str) -> str:
        r = rows[lab]
        ci = None if pd.isna(r.ci95_low) else (r.ci95_low, r.ci95_high)
        return f"{words.policy_name(game, lab)} {value_text(name, r.value, ci, game=game)}"

    if against:  # every policy against the same opponent: the ranking says so
        said += f", each against {words.policy_name(game, against)}"
    # "=" between equal values ("Greedy 100.0 % > Vorschlag 100.0 %" read as a ranking of one run)
    chain = one(order[0]) + "".join((" = " if float(rows[a].value) == float(rows[b].value) else " < " if fewer
                                     else " > ") + one(b) for a, b in itertools.pairwise(order))
    out = [f"Who does best ({said}): {chain}."]
    steps = []
    for hi, lo in zip(order, order[1:], strict=False):
        d = _pair(paired, name, str(hi), str(lo))
        if d is None:
            continue
        diff, ci = d
        what = ("ahead" if _sure(ci) else "not told apart by so few runs" if _too_few(ci, words.is_rate(name))
                else "a near tie (the interval includes 0)")
        steps.append(f"{words.policy_name(game, hi)} {words.MINUS} {words.policy_name(game, lo)} "
                     f"{value_text(name, diff, ci, diff=True, game=game)}: {what}")
    if steps:
        out.append("On the same dice: " + "; ".join(steps) + ".")
    return out


def seat_sentence(metrics: pd.DataFrame, game: str | None = None) -> str:
    """How fair the seats are: the first seat's win rate per match against the fair share ``1 / seats``, how far off
    where its interval leaves the fair share out ("small" under the ``SEAT_MIN_PP`` a finding needs); not of a
    mixed table whose seats keep their policies (the game's ``SEATS_ROTATE`` is False): its first seat's rate is
    that policy's, whatever the seat order is worth."""
    fixed = game is not None and declared(game, "SEATS_ROTATE") is False
    bits = []
    all_drawn = False
    for lab in dict.fromkeys(metrics["label"]):
        if fixed and len(set(policy_names(str(lab)))) > 1:
            continue
        part = metrics[metrics["label"] == lab]
        seats = part[part["metric"].str.match(r"^win_rate_seat_\d+$")]
        first = seats[seats["metric"] == "win_rate_seat_0"]
        if len(seats) < 2 or first.empty:
            continue
        r = next(first.itertuples())
        ci = None if pd.isna(r.ci95_low) else (r.ci95_low, r.ci95_high)
        drawn = part.loc[part["metric"] == "draw_rate", "value"]
        drawn = float(drawn.iloc[0]) if len(drawn) and not pd.isna(drawn.iloc[0]) else 0.0
        if drawn > 1 - DRAWS_SAID:
            all_drawn = True
            continue  # (almost) every game a draw: no seat wins, nothing to say of their order
        # the games won are shared among the seats, the drawn ones by none; under the draws said (DRAWS_SAID) the
        # fair share the sentence names, 1 / seats: "56.6 % (+6.7 pp off fair)" against 49.95 % read wrong
        fair = (1 - drawn) / len(seats) if drawn >= DRAWS_SAID else 1 / len(seats)
        off = r.value - fair
        said = ""
        if ci is not None and (ci[0] > fair or ci[1] < fair):  # the interval leaves the fair share out
            small = abs(off) * 100 < SEAT_MIN_PP
            said = f"{words.signed(f'{off * 100:+.1f}')} pp off fair{': small' if small else ''}"
        if drawn >= DRAWS_SAID:
            said = f"fair {100 * fair:.1f} % with {100 * drawn:.1f} % draws" + (f", {said}" if said else "")
        said = f" ({said})" if said else ""
        bits.append(f"{value_text('win_rate', r.value, ci)} in {words.policy_name(game, lab)}{said}")
        k = len(seats)
    if not bits:
        if all_drawn:
            return ""
        return first_mover_sentence(game, {str(r.label): {r.metric: {"value": r.value, "ci95": [r.ci95_low,
                                                                                               r.ci95_high]}}
                                           for r in metrics.itertuples()})
    return f"Seat fairness against a fair {round(100 / k, 1):g} %: the first seat wins {'; '.join(bits)}."


def _off_fair(value: float, ci: Any, fair: float) -> str:
    """`` (+12.0 pp off fair)`` where the interval leaves the fair share out ("small" under ``SEAT_MIN_PP``)."""
    if ci is None or not (ci[0] > fair or ci[1] < fair):
        return ""
    off = value - fair
    return f" ({words.signed(f'{off * 100:+.1f}')} pp off fair{': small' if abs(off) * 100 < SEAT_MIN_PP else ''})"


def first_mover_sentence(game: str | None, by_label: dict[str, dict[str, dict[str, Any]]]) -> str:
    """How fair moving first is in a two-player game without seat columns (Dungeon24's first attacker: the game's
    ``FIRST_MOVER`` metric), per label (``by_label``: label -> its metrics): ``Seat fairness against a fair 50 %: the
    first attacker wins 62.0 % [59.8, 64.1] (+12.0 pp off fair).``"""
    metric, said = (declared(game, "FIRST_MOVER") if game else None) or (None, None)
    rates = {lab: m[metric] for lab, m in by_label.items() if metric in m}
    bits = []
    for lab, m in rates.items():
        if m.get("value") is None or not math.isfinite(float(m["value"])):
            continue
        ci = m.get("ci95")
        ci = None if ci is None or any(pd.isna(x) for x in ci) else ci
        where = f" in {words.policy_name(game, lab)}" if len(rates) > 1 else ""
        bits.append(f"{value_text('win_rate', m['value'], ci)}{where}{_off_fair(float(m['value']), ci, 0.5)}")
    return f"Seat fairness against a fair 50 %: {said} {'; '.join(bits)}." if metric and bits else ""


def verdicts(metrics: pd.DataFrame, paired: dict[str, dict[str, Any]], headline: dict[str, str],
             game: str | None = None, options: dict[str, Any] | None = None) -> list[str]:
    """The answers a designer asks first, one sentence each: who beats whom (head to head, or ranked on the same
    dice, each against the ``opponent`` option where the game has one), then how fair the seats are; the first
    headline metric per policy where neither applies."""
    against = (options or {}).get("opponent")
    out = head_to_head(metrics, paired or {}, game) or ranking(metrics, paired or {}, headline, game,
                                                                against if isinstance(against, str) else None)
    draws = draw_sentence(game, {str(r.label): {"value": r.value, "ci95": None if pd.isna(r.ci95_low)
                                                 else [r.ci95_low, r.ci95_high]}
                                 for r in metrics[metrics["metric"] == "draw_rate"].itertuples()})
    seat = seat_sentence(metrics, game)
    if seat:
        out.append(seat)
    if not out and not draws:  # every game drawn: the draws are the answer
        sentence = answer_sentence(metrics, headline, game=game)
        out = [sentence] if sentence else []
    return out[:1] + ([draws] if draws else []) + out[1:]


def draw_sentence(game: str | None, rates: dict[str, dict[str, Any]]) -> str:
    """Where games often end at the game's turn limit without a winner (a Dadox bot that never banks, a Dungeon24
    stand-off), said in words: a win rate of 0 % read as a lost game, not as one that never ends. ``rates``: each
    label's ``draw_rate`` (``{"value", "ci95"}``)."""
    high = {lab: r for lab, r in rates.items() if r and r.get("value") is not None and r["value"] >= DRAWS_SAID}
    if not high:
        return ""
    if len(rates) == 1:
        r = next(iter(high.values()))
        return f"{value_text('draw_rate', r['value'], r.get('ci95'))} of the games are draws: they reach the turn " \
               "limit without a winner."
    bits = [f"{value_text('draw_rate', r['value'], r.get('ci95'))} in {words.policy_name(game, lab)}"
            for lab, r in high.items()]
    return f"Draws (games that reach the turn limit without a winner): {'; '.join(bits)}."


def play_verdicts(game: str, policy: str, metrics: dict[str, dict[str, Any]], headline: dict[str, str],
                  played_as: tuple[list[str], str] = ([], ""), against: str | None = None,
                  seats: list[str] | None = None) -> list[str]:
    """A play's answer (``dicesim play``, ``sim.play``): who wins where the seats hold different policies (``Who
    wins (share of games): Optimal 76.5 % [71.4, 81.0], Greedy 22.9 % …``), else its first headline metric with its
    interval (``Greedy scores 208.1 points [205.8, 210.4].``); ``played_as`` (``Game.played_as``): how the seats play
    beyond the policy (``Optimal (skill casual 0.5) scores …``) and a sentence of caution it brings; ``against``: the
    opponent's policy that fills the other seats (``Heuristic wins 67.8 % [65.8, 69.9] against Greedy.``); ``seats``:
    the policy of every seat, where an opponent fills some (``Game.seat_policies``)."""
    said_as, caution = played_as
    who = words.policy_name(game, policy) + (f" ({'; '.join(said_as)})" if said_as else "")
    shares = _game_shares(game, ",".join(seats) if seats else policy, metrics, said_as)
    name = next((m for m in headline if m in metrics), None)
    out = [shares] if shares else []
    if name is not None and not shares:
        m = metrics[name]
        said = value_text(name, m.get("value"), m.get("ci95"), game=game)
        # "Greedy scores …", "Vorschlag wins …"; a phrase about seats or the game ("the first seat wins", "turns per
        # game") follows a colon: "Threshold the first seat wins" read as garble
        says_of_policy = says_of_a_policy(headline[name])
        rival = f" against {words.policy_name(game, against)}" if against and says_of_policy and " vs " not in who \
            else ""
        out.append(f"{who}{':' if ' vs ' in who or not says_of_policy else ''} {headline[name]} {said}{rival}.")
    draws = "" if shares else draw_sentence(game, {policy: metrics.get("draw_rate")})  # shares say the draws
    fair = first_mover_sentence(game, {policy: metrics})
    return out + ([draws] if draws else []) + ([fair] if fair else []) + ([caution] if caution else [])


def says_of_a_policy(phrase: str) -> bool:
    """Whether a headline phrase reads after a policy's name ("Greedy scores …", "Vorschlag wins …"); a phrase about
    seats or the game ("the first seat wins", "turns per game") follows a colon ("Threshold the first seat wins" read
    as garble)."""
    return phrase.split(" ", 1)[0] in ("scores", "wins", "draws")


def _game_shares(game: str, policy: str, metrics: dict[str, dict[str, Any]], said_as: list[str]) -> str:
    """Where the seats hold different policies: each policy's share of the games (``game_share_<policy>``, where a
    policy holds several seats: a policy on two of six seats whose seats win 35 % each wins 70 % of the games; else
    its win rate), best first; ``said_as``: how the seats play (the skill levels), said in the opening parenthesis."""
    names = policy_names(policy)
    seats = sum(1 for k in metrics if k.startswith("win_rate_seat_"))
    held = Counter(cycled(",".join(names), seats)) if seats else Counter()
    rates = {p: metrics.get(f"game_share_{p}") or (metrics.get(f"win_rate_{p}") if held[p] == 1 else None)
             for p in held}
    if len(held) < 2 or any(r is None or r.get("value") is None for r in rates.values()):
        return ""
    parts = []
    for p in sorted(held, key=lambda p: -float(rates[p]["value"])):
        k, r = held[p], rates[p]
        seats_said = f" ({k} of {seats} seats)" if k > 1 else ""
        parts.append(f"{words.policy_name(game, p)} {value_text('win_rate', float(r['value']), r.get('ci95'))}"
                     f"{seats_said}")
    draws = metrics.get("draw_rate") or metrics.get("tie_rate")
    tail = f"; draws {value_text('draw_rate', draws['value'], draws.get('ci95'))}" if draws and draws.get("value") \
        else ""
    return f"Who wins ({'; '.join([*said_as, 'share of games'])}): " + ", ".join(parts) + tail + "."


def extra_verdicts(out: Path | None) -> list[str]:
    """Sentences a game's balance analyses wrote beside its tables (``verdicts.json``: how the difficulty steps
    scale, what an upgrade is worth), said after who beats whom; none where the file is absent or unreadable."""
    path = Path(out) / "verdicts.json" if out is not None else None
    if path is None or not path.is_file():
        return []
    try:
        said = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [str(x) for x in said if isinstance(x, str)] if isinstance(said, list) else []


def headline_table(metrics: pd.DataFrame, headline: dict[str, str], game: str | None = None,
                   reported: set[str] | None = None) -> str:
    """Rows: labels (in the game's words); columns: the headline metrics with intervals; a missing declared metric
    is named."""
    present, missing = headline_rows(metrics, headline)
    missing = [m for m in missing if reported is None or m in reported]  # one these seats never report: not missing
    out = []
    if present:
        idx = {(r.label, r.metric): r for r in metrics.itertuples()}
        head = "".join(f"<th>{esc(words.heading(game, m, headline))}<br><small>{esc(m)}</small></th>"
                       for m in present)
        body = "".join(
            f"<tr><th title='{esc(lab)}'>{esc(words.policy_name(game, lab) if game else lab)}</th>"
            + "".join(_cell(m, idx[(lab, m)], game) if (lab, m) in idx else "<td>—</td>" for m in present) + "</tr>"
            for lab in dict.fromkeys(metrics["label"]))
        out.append(f"<table><tr><th></th>{head}</tr>{body}</table>")
    if missing:
        out.append("<p class='missing'>Not reported by this run (the game declares it as a headline metric, the "
                   "batch has no such metric): " + ", ".join(f"<code>{esc(m)}</code>" for m in missing) + "</p>")
    return "\n".join(out)


def paired_html(paired: dict[str, dict[str, Any]], game: str | None = None,
                headline: dict[str, str] | None = None) -> str:
    """Paired differences (same runs on both sides) with their 95 % intervals, in words (``Greedy − Random: mean
    score``, the code key as the row's tooltip); rates in percentage points."""
    if not paired:
        return ""
    rows = []
    seen = set()
    for key, v in paired.items():
        metric, pair = key.split(":", 1) if ":" in key else (key, "")
        same = (pair, v["value"], tuple(v.get("ci95") or ()))
        if same in seen:  # e.g. ``score:`` and ``mean_score:`` of the same runs: one row is enough
            continue
        seen.add(same)
        ci = _ci(v)
        sure = "" if ci is None else ("yes" if _sure(ci) else "no")
        rows.append(f"<tr><th title='{esc(key)}'>{esc(words.paired_label(game, key, headline))}</th>"
                    f"<td>{esc(value_text(metric, v['value'], ci, diff=True, game=game))}</td><td>{sure}</td></tr>")
    return ("<table><tr><th>comparison (same seeds)</th><th>difference [95 %]</th><th>interval excludes 0</th></tr>"
            + "".join(rows) + "</table>")
