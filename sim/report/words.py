"""Readable names and units for everything a person reads: policies, metrics, config fields, the game's own words.

One formatter for the report pages, the dashboard and the studio, so a rate reads ``wins 11.8 %`` and a difference
of rates ``−14.9 pp`` everywhere, and ``mean_score: greedy - random`` reads ``Greedy − Random: mean score``. The
German display names (``Glückssieben``, ``Grünlinge``) come from the game package's ``labels`` module (``WORDS``:
code name -> display name; apart from the kernel-side ``words``, so a new name never recompiles a kernel), never
from code identifiers turned into text by guesswork; a name no game spells falls back to its code with spaces.
"""

from __future__ import annotations

import math
import re
from functools import cache
from importlib import import_module
from typing import Any, get_args, get_origin

from sim.games import GAMES

DRAWS_SAID = 0.01  # a draw rate from 1 %: games that end at the turn limit are said beside who wins (the
# answers) and the seats' fair share is of the games won (the charts), not only tabled

MINUS = "\u2212"  # a typographic minus: "−14.9 pp" (a hyphen reads as a dash at a glance)

# metric names the engine or several games share, in words (a game's ``headline`` words come first)
METRIC_WORDS = {
    "win_rate": "wins", "draw_rate": "draws", "loss_rate": "losses", "win": "wins", "draw": "draws", "score": "score",
    "mean_score": "mean score", "first_player_advantage": "first seat's edge over a fair share",
    "game_length_turns": "turns per game", "mean_rooms_cleared": "rooms cleared",
}
# metrics where fewer is better: a policy that reaches a solitaire goal in fewer turns does best (a ranking by them
# runs from the lowest)
FEWER_IS_BETTER = frozenset({"game_length_turns"})
# units of count metrics, by the project's naming (a rate is a percentage, see ``is_rate``); a game's own counts
# (Kniffel's box means, Dungeon24's duels and cards) come from its ``labels.UNITS`` first
UNIT_WORDS = (("_lp", "LP"), ("lp_", "LP"), ("coins", "coins"), ("score", "points"), ("seconds", "s"),
              ("turns", "turns"))

_RATE = re.compile(r"(^|_)rate(_|$)|^survival_|^death_room_|_advantage$|_share(_|$)|^(win|draw|loss)$|"
                   r"(^|_)win_lift$")
_SEAT = re.compile(r"^win_rate_seat_(\d+)$")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def is_rate(name: str) -> bool:
    """Whether a metric is a share (shown as a percentage, its differences in pp): by the project's naming
    convention (``*_rate*``, ``survival_*``, ``*_share*``; ``win``/``draw``: a per-run indicator), a per-seat one
    too (Dungeon24's ``boss_lost_rate0``)."""
    return bool(_RATE.search(re.sub(r"(?<=[a-z])[01]$", "", name)))


def axis_unit(name: str) -> str:
    """The unit of a metric's chart axis (``sim.report.charts.in_units``): ``pp`` for an edge over a fair share or a
    lift (a difference of shares, as ``value_text`` writes it), ``%`` for any other share, else none."""
    if not is_rate(name):
        return ""
    return "pp" if name.endswith(("_advantage", "_lift")) else "%"


def with_unit(label: str, unit: str) -> str:
    """An axis label with its unit in brackets, unless the label names it already ("rooms cleared (rooms)", "mean
    final LP (LP)")."""
    return f"{label} ({unit})" if unit and unit.lower() not in label.lower().split() else label


@cache
def game_words(game: str) -> dict[str, str]:
    """The game's display names (``sim.games.<game>.labels.WORDS``), plus its options' choices in words."""
    package = GAMES[game].rsplit(".", 1)[0] if game in GAMES else None
    out: dict[str, str] = {}
    if package is None:
        return out
    try:
        options = import_module(f"{package}.options").OPTIONS
    except ModuleNotFoundError:
        options = ()
    for o in options:
        out.update({str(k): v for k, v in (o.words or {}).items()})
    try:
        out.update(import_module(f"{package}.labels").WORDS)
    except ModuleNotFoundError as e:
        if e.name != f"{package}.labels":
            raise
    return out


def word(game: str | None, code: Any) -> str:
    """A code name in the game's words (``gluecksmuenze`` -> ``Glücksmünze``), else the code with spaces."""
    code = str(code)
    got = game_words(game).get(code) if game else None
    return got if got else code.replace("_", " ")


def policy_name(game: str | None, policy: Any) -> str:
    """``optimal-turn`` -> ``Optimal turn``; a match ``a vs b`` (or seats ``a,b``) word by word: ``A vs B``;
    ``name@variant`` -> ``Name with Variant`` (the game's words first)."""
    policy = str(policy)
    if " vs " in policy or "," in policy:  # a match, or a comma list of seats as typed (``threshold,greedy``)
        return " vs ".join(policy_name(game, p.strip()) for p in re.split(r" vs |,", policy) if p.strip())
    if "@" in policy:  # a start loadout, ``+`` between its upgrades: ``Vorschlag with Wetzstein, Wetzstein``
        base, variant = policy.split("@", 1)
        return f"{policy_name(game, base)} with {', '.join(word(game, v) for v in variant.split('+'))}"
    got = game_words(game).get(policy) if game else None
    if got:
        return got
    text = re.sub(r"[-_]+", " ", policy).strip()
    return text[:1].upper() + text[1:]


def metric_name(game: str | None, metric: str, headline: dict[str, str] | None = None) -> str:
    """A metric in words: the game's headline words, the shared words, ``win_rate_seat_1`` -> ``the second seat wins``,
    ``win_rate_<policy>`` -> ``<Policy> wins, per seat``, else the name with spaces (``mean_last_chances`` ->
    ``mean last chances``)."""
    if headline and metric in headline:
        return headline[metric]
    if metric in METRIC_WORDS:
        return METRIC_WORDS[metric]
    m = _SEAT.match(metric)
    if m:
        seat = int(m[1])  # ordinals as the first seat's words: "the first seat wins" beside "seat 2 wins" read apart
        return f"the {ORDINALS[seat]} seat wins" if seat < len(ORDINALS) else f"seat {seat + 1} wins"
    if metric.startswith("game_share_") and game and metric[11:] in game_words(game):
        return f"{policy_name(game, metric[11:])} wins (share of games)"
    if metric.startswith("mean_score_") and game and metric[11:] in game_words(game):  # one policy of a mixed table
        return f"{policy_name(game, metric[11:])}'s mean score"
    if metric.startswith("win_rate_"):  # win_rate_<policy>: that policy wins; else the condition in words
        rest = metric[9:]
        return (f"{policy_name(game, rest)} wins, per seat" if game and rest in game_words(game)  # its seats won
                else f"wins {word(game, rest)}")  # (beside ``game_share_``: a policy at 2 of 6 seats wins per game x2)
    seat = re.match(r"^(?P<stem>.*[a-z])(?P<seat>[01])$", metric)  # a per-seat metric (``ability_uses0``)
    if seat:
        return f"{metric_name(game, seat['stem'], headline)} (seat {int(seat['seat']) + 1})"
    spread = re.match(r"^sd_(?P<of>.+)$", metric)  # ``sd_score``: the standard deviation of the score
    if spread:
        return f"{metric_name(game, spread['of'])} standard deviation"
    pct = re.match(r"^(?P<of>.+)_p(?P<q>\d{1,2})$", metric)  # ``score_p90``: a percentile
    if pct:
        return f"{metric_name(game, pct['of'])}, {int(pct['q'])}th percentile"
    return re.sub(r"\blp\b", "LP", _in_words(game, metric))  # life points as the rules write them


def heading(game: str | None, metric: str, headline: dict[str, str] | None = None) -> str:
    """A metric as a table's column or row head: the shared noun where there is one ("mean score": Kniffel's answer
    verb "scores" read as a heading), else the game's headline words or the metric's name."""
    return METRIC_WORDS.get(metric) or metric_name(game, metric, headline)


def _in_words(game: str | None, code: str) -> str:
    """A code name in words, its parts in the game's words where the game spells them (``mean_einser`` -> ``mean
    Einser``, ``offers_extra_wuerfel`` -> ``offers Extra-Würfel``): the longest run of parts the game names first."""
    whole = word(game, code)
    if not game or whole != code.replace("_", " "):
        return whole
    known, parts, out, i = game_words(game), code.split("_"), [], 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            got = known.get("_".join(parts[i:j]))
            if got and not (j == i + 1 and parts[i] in _PLAIN):
                out.append(got)
                i = j
                break
        else:
            out.append(parts[i])
            i += 1
    return " ".join(out)


# words too common to read as a name of the game's (a policy ``random`` in ``random_rate`` is the adjective)
_PLAIN = frozenset({"random", "greedy", "normal", "mean", "rate", "win", "score"})


def metric_label(game: str | None, metric: str, headline: dict[str, str] | None = None) -> str:
    """A metric as a table row or a line names it: the shared words first (``mean score``; a game's headline words
    read in its sentences, ``Greedy scores …``), then :func:`metric_name`."""
    return METRIC_WORDS.get(metric) or metric_name(game, metric, headline)


def metric_noun(metric: str, headline: dict[str, str] | None = None) -> str:
    """What a ranking is by: ``win rate``, ``mean score``, else the metric's words."""
    if metric.endswith("_rate") and not metric.startswith("mean_"):
        return metric[:-5].replace("_", " ") + " rate"
    if metric in METRIC_WORDS and metric.startswith("mean_"):
        return METRIC_WORDS[metric]
    return metric_name(None, metric, headline)


@cache
def _labels(game: str | None, attr: str) -> Any:
    """An attribute of the game's ``sim.games.<game>.labels`` (``UNITS``, ``FLAGS``, ``COLUMN_WORDS``), else None."""
    package = GAMES[game].rsplit(".", 1)[0] if game in GAMES else None
    try:
        return getattr(import_module(f"{package}.labels"), attr, None) if package else None
    except ModuleNotFoundError:
        return None


@cache
def game_units(game: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The game's units of its own count metrics (``labels.UNITS``: pattern -> unit), else none."""
    return tuple((re.compile(k), v) for k, v in (_labels(game, "UNITS") or {}).items())


def column_word(game: str | None, code: str) -> str:
    """A metric table's column heading: the game's ``labels.COLUMN_WORDS`` (words for a column, not a metric), else
    :func:`word`."""
    return (_labels(game, "COLUMN_WORDS") or {}).get(code) or word(game, code)


@cache
def game_flags(game: str) -> tuple[re.Pattern[str], ...]:
    """The game's yes/no metrics (``labels.FLAGS``: patterns), else none."""
    return tuple(re.compile(k) for k in _labels(game, "FLAGS") or ())


def unit_of(metric: str, game: str | None = None) -> str:
    """The unit a count metric is in (``LP``, ``coins``; with ``game``: its own units first, ``duels``), else
    empty."""
    if is_rate(metric):
        return ""
    own = next((u for pattern, u in game_units(game) if pattern.search(metric)), "") if game else ""
    return own or next((u for key, u in UNIT_WORDS if key in metric), "")


def signed(text: str) -> str:
    """A leading hyphen as a typographic minus."""
    return MINUS + text[1:] if text.startswith("-") else text


def _finite(x: Any) -> bool:
    try:
        return math.isfinite(float(x))  # inf read "inf points" beside NaN's "—"
    except (TypeError, ValueError):
        return False


def num(v: Any, diff: bool = False, places: int | None = None) -> str:
    """A plain number: thousands separated, four significant digits otherwise, or ``places`` decimals (``+`` on
    differences)."""
    if v is None or not _finite(v):
        return "—"
    v = float(v)
    if places is not None:  # thousands separated here too: 999.96 [999.9, 1000.02] reads 1,000.0 [999.9, 1,000.0]
        if round(v, places) == 0:  # no "−0.0": a difference that rounds to nothing has no sign
            return f"{0.0:.{places}f}"
        return signed(f"{v:+,.{places}f}" if diff else f"{v:,.{places}f}")
    if abs(v) >= 1000:
        return signed(f"{v:+,.0f}" if diff else f"{v:,.0f}")
    if abs(v) < 1e-9:  # a difference of float noise (+1e-09 points, −0 points): nothing, without a sign
        return "0"
    if v.is_integer() and not diff:
        return f"{v:g}"
    if abs(v) < 1e-4:  # four significant digits, never in powers of ten (4e-05 runs): 0.00004
        shown = f"{v:.{min(12, 3 - math.floor(math.log10(abs(v))))}f}".rstrip("0").rstrip(".")
    else:
        shown = f"{v:.4g}"
    return signed(f"+{shown}" if diff and v > 0 else shown)


def _pct(v: float, diff: bool) -> str:
    if round(v * 100, 1) == 0:  # a difference that rounds to nothing has no sign: 0.0 pp, as 0.0 points
        return "0.0"
    return signed(f"{v * 100:+.1f}") if diff else f"{v * 100:.1f}"


def _pair(ci: Any) -> list[float]:
    return [float(x) for x in ci] if ci is not None and len(ci) == 2 and all(_finite(x) for x in ci) else []


def value_text(name: str, value: Any, ci: Any = None, diff: bool = False, unit: bool = True,
               game: str | None = None, like: Any = None) -> str:
    """``50.1 % [49.4, 50.8]`` for rates, ``+3.2 pp [+1.0, +5.0]`` for their differences, ``254.6 [254.2, 255.0]``
    (with its unit: ``12.5 LP``; ``game``: the game's own units too) else; ``—`` for a missing value. A value with
    no interval of its own (a difference of means over different runs) is rounded as the interval ``like`` is
    (``−5.7 LP``, not ``−5.731 LP``)."""
    lo_hi = _pair(ci)
    if value is None or not _finite(value):
        return "—"
    if game and any(p.search(name) for p in game_flags(game)) and float(value) in (0.0, 1.0):
        return "yes" if float(value) else "no"
    if is_rate(name):
        diff = diff or axis_unit(name) == "pp"  # an edge over a fair share, a lift: pp
        txt = _pct(float(value), diff) + (" pp" if diff else " %")
        if lo_hi:
            txt += f" [{_pct(lo_hi[0], diff)}, {_pct(lo_hi[1], diff)}]"
        return txt
    places = _places(float(value), lo_hi) if lo_hi or not _pair(like) else _places(abs(float(value)) or 1.0,
                                                                                    _pair(like))
    txt = num(value, diff, places)
    u = unit_of(name, game) if unit else ""
    if u:
        txt += f" {singular(u) if txt in ('1', '1.0') else u}"  # "1 turn", not "1 turns"
    if lo_hi:
        txt += f" [{num(lo_hi[0], diff, places)}, {num(lo_hi[1], diff, places)}]"
    return txt


def singular(unit: str) -> str:
    """A plural unit or noun for one of it (``turns`` -> ``turn``, ``duels`` -> ``duel``; ``LP``, ``coins`` of
    one coin: ``coin``)."""
    last = unit.split(" ")[0]  # "turns per game": the noun first
    if not (last.isalpha() and last.endswith("s") and not last.endswith("ss") and len(last) > 2):
        return unit
    return last[:-1] + unit[len(last):]


def plural(k: int, noun: str) -> str:
    """``1 chunk``, ``2 chunks``, ``1,000 games``: a count and its noun (given in the plural)."""
    return f"{k:,} {singular(noun) if k == 1 else noun}"


def _places(value: float, lo_hi: list[float]) -> int | None:
    """Decimals a mean is known to: those of its interval's half-width's first digit, one at least (rooms cleared
    ``7.12 [7.09, 7.16]``, not ``7.123``), at most those of four significant digits; None without an interval."""
    if len(lo_hi) != 2 or not lo_hi[1] - lo_hi[0] > 2e-9:  # none, or one of float noise: no decimals to give
        return None
    places = max(1, -math.floor(math.log10((lo_hi[1] - lo_hi[0]) / 2)))  # a tenth at least: 207.5 [205.7, 209.3]
    shown = max(0, 3 - math.floor(math.log10(abs(value)))) if value else 3  # decimals of four significant digits
    return min(places, shown)  # the bounds with the value's decimals: 254.3 [251.7, 257.0]


def metric_text(game: str | None, name: str, value: Any, ci: Any = None, diff: bool = False,
                headline: dict[str, str] | None = None) -> str:
    """``wins 11.8 % [11.2, 12.4]``: the metric's words, then its value in its unit."""
    return f"{metric_name(game, name, headline)} {value_text(name, value, ci, diff, game=game)}"


def paired_label(game: str | None, key: str, headline: dict[str, str] | None = None) -> str:
    """``mean_score: greedy - random`` -> ``Greedy − Random: mean score``."""
    metric, pair = key.split(":", 1) if ":" in key else (key, "")
    a, _, b = pair.strip().partition(" - ")
    who = f"{policy_name(game, a)} {MINUS} {policy_name(game, b)}" if b else policy_name(game, a)
    return f"{who}: {metric_name(game, metric.strip(), headline)}" if who else metric_name(game, metric, headline)


def field_value_text(value: Any, ci: Any) -> str:
    """A calibrated field's value to the decimals its 95 % interval supports (``0.98``, not ``0.983368`` beside an
    interval of ±0.014); whole numbers and a value without an interval as they are (``:g``)."""
    lo_hi = [float(x) for x in ci] if ci is not None and len(ci) == 2 and all(_finite(x) for x in ci) else []
    if isinstance(value, int) or not lo_hi or float(value).is_integer():
        return f"{value:g}"
    return num(value, places=_places(float(value), lo_hi))


def field_interval_text(field: str, ci: Any, evaluated: int, whole: bool = False) -> str:
    """A calibration's interval of the field in words: ``≈ [a, b]`` through the local slope, or why there is none
    (one value evaluated: no slope to carry the metric's interval to the field; a flat metric: none either), never
    ``nan``. ``whole``: a field of whole numbers, whose interval is whole too (widened to them: [0, 90], not
    [0.0, 89.7])."""
    lo_hi = [float(x) for x in ci] if ci is not None and len(ci) == 2 and all(_finite(x) for x in ci) else []
    if lo_hi and whole:
        lo_hi = [float(math.floor(lo_hi[0])), float(math.ceil(lo_hi[1]))]
    if lo_hi:  # to the decimals the answer is given to (field_value_text): [0.97, 1.06] beside 1.01, not 0.9662
        places = None if whole else _places((lo_hi[0] + lo_hi[1]) / 2, lo_hi)
        return (f"{field} 95 % interval ≈ [{num(lo_hi[0], places=places)}, {num(lo_hi[1], places=places)}] (the "
                "metric's interval through the local slope)")
    if evaluated <= 1:
        return (f"no 95 % interval for {field}: only one value was evaluated (it met the tolerance at once), so "
                "there is no slope to carry the metric's interval to the field; give --lo and --hi around it for one")
    return (f"no 95 % interval for {field}: the metric did not change between the {evaluated} values evaluated, "
            "so there is no slope to carry its interval to the field")


# --- config fields ---------------------------------------------------------------------------------


def _sub(node: Any, key: str) -> tuple[Any, Any]:
    """(type below ``key``, its pydantic field or None) of a config section type."""
    fields = getattr(node, "model_fields", None)
    if fields is not None:
        f = fields.get(key)
        return (f.annotation, f) if f is not None else (None, None)
    if get_origin(node) is dict:
        return get_args(node)[1], None
    return None, None


@cache
def config_words(game: str) -> dict[str, str]:
    """The game's config paths in words (``sim.games.<game>.labels.CONFIG_WORDS``: ``sections.krypta.roster`` ->
    ``which enemies appear in the Krypta``), empty where it has none."""
    package = GAMES[game].rsplit(".", 1)[0] if game in GAMES else None
    if package is None:
        return {}
    try:
        return dict(getattr(import_module(f"{package}.labels"), "CONFIG_WORDS", {}))
    except ModuleNotFoundError as e:
        if e.name != f"{package}.labels":
            raise
        return {}


def without_hint(said: str) -> str:
    """A field's words without a closing hint in brackets (``upper bonus points (0: no bonus)`` -> ``upper bonus
    points``): before a value or a code in brackets it read as one of them."""
    return re.sub(r"\s*\([^()]*\)$", "", said) or said


def config_label(game: str | None, model: Any, path: str) -> str:
    """A config path in words: the field's title or description where it says enough (``joker.when_zero`` ->
    ``joker also when the Kniffel box holds 0``), else the path in words (``market › joker pack size``), table keys
    in the game's words (``Krypta › roster``)."""
    said_by_game = config_words(game).get(path) if game else None
    if said_by_game:  # the game names it (the Würfel Dungeon's rosters, prices, clock)
        return said_by_game
    node, field = model, None
    for key in path.split("."):
        node, field = _sub(node, key)
        if node is None and field is None:
            break
    if field is not None and getattr(field, "title", None):  # a field's name given as such (the description says
        return field.title  # its scale: "the player's level" before "0 random moves, 1 the policy as it is")
    said = (getattr(field, "description", None) or "") if field else ""
    said = said.split(";")[0].strip()
    if len(said.split()) >= 4:  # a sentence of its own
        return said
    keys = path.split(".")
    text = " › ".join([*(word(game, k) for k in keys[:-1]), keys[-1].replace("_", " ")])
    return f"{text} ({said})" if said else text
