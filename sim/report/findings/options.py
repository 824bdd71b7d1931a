"""``dominant_option`` and ``trap_option``: one of a game's choices whose paired lift is far above, or below, all
the others.

A family of options is a list of (option, lift, 95 % interval) measured on the same seeds: the Würfel Dungeon's
upgrade lift (``upgrade_lift``: win rate started with the upgrade minus without), Dungeon24's people ability lift
(``ability_lift``) and its people matchup (``matchup``: how much more than half a people wins, averaged over the
opponent's peoples; only a mirror matchup, both sides the same policy, says what a people is worth). An option is
dominant when its lift is above the median of the others by at least
``dominant_margin_pp``, above the best of them by ``dominant_gap_pp`` and its interval lies above every other
option's lift; a trap when its lift is below 0 (interval included), below the median of the others by
``trap_margin_pp``, below the worst of them by ``trap_gap_pp`` and its interval below every other's. A few options
close together and together clear of the rest (at most a third of them) are a dominant or trap tier, judged the same
way by the tier's weakest member against the rest (``_tier``).
Does not apply to a game without such a table (Kniffel, Dadox), nor to choices whose tables are observational
only (a path card chosen or not differs in more than the card): those have no paired lift to compare.
"""

from __future__ import annotations

import math
from statistics import median
from typing import Any

from sim.core.errors import DicesimError
from sim.report import words
from sim.report.findings.base import Tables, finding, interval_pp, pp, replay_command
from sim.report.findings.config import FindingsConfig

Family = tuple[str, str, list[tuple[str, float, list[float]]], dict[str, Any]]  # (family, metric, rows, facts)


def families(t: Tables) -> list[Family]:
    """The option families the tables hold: (family words, metric, [(option, lift, ci95)], facts)."""
    out: list[Family] = []
    lift = t.extras.get("upgrade_lift")
    if lift is not None and len(lift):
        rows = [(str(r.upgrade), float(r.win_lift), [float(r.ci95_low), float(r.ci95_high)])
                for r in lift.itertuples()]
        out.append(("upgrade", "win_lift", rows, {"policy": str(lift["policy"].iloc[0]), "runs": int(lift["n"].iloc[0]),
                                                  "comparison": "win rate started with it minus without, same seeds"}))
    ab = t.extras.get("ability_lift")
    if ab:
        rows = [(str(p), float(m["value"]), [float(x) for x in m["ci95"]])
                for p, m in zip(ab["people"], ab["lift"], strict=True)]
        named = dict(zip(ab["people"], ab.get("ability") or [], strict=False))  # absent in a table from before
        out.append(("people ability", "ability_lift", rows,
                    {"policy": ab.get("policy"), "runs": int(ab.get("n", 0)), "abilities": named,
                     "comparison": "score with the ability minus without (mirror match, both seatings, same seeds)"}))
    mu = t.extras.get("matchup")
    # a people's edge only where both sides play alike: Heuristic's peoples against Greedy's measure the policies too
    # (every people came out +12 to +21 pp, Grünlinge "dominant", where a mirror gives them +2)
    # (and one skill level: a novice against full-strength opponents under one policy is no mirror either)
    if mu and mu.get("win_rate") and mu.get("policy_a") == mu.get("policy_b") and mu.get("mirror_diagonal", True):
        rows = []
        for i, p in enumerate(mu["people"]):
            cells = [(float(v), mu["ci95"][i][j]) for j, v in enumerate(mu["win_rate"][i]) if not math.isnan(float(v))]
            if not cells:
                continue
            mean = sum(v for v, _ in cells) / len(cells)
            half = math.sqrt(sum(((c[1] - c[0]) / 2) ** 2 for _, c in cells)) / len(cells)
            rows.append((str(p), mean - 0.5, [mean - 0.5 - half, mean - 0.5 + half]))
        out.append(("people", "matchup", rows,
                    {"policy": mu.get("policy_a"), "runs": int(mu.get("n", 0)),
                     "comparison": "mean score (a win 1, a draw ½) over the opponent's peoples minus 50 %"}))
    return out


ABILITY = ("people ability",)  # families whose option is a people but whose lift is the people's ability's


def _option_name(t: Tables, family: str, option: str, facts: dict[str, Any], alone: bool) -> str:
    """An option in the game's words. A people ability's lift is the ability's (switched on and off, the people
    kept), so it is named by the ability with its people: ``Blutrausch, the Grünlinge's ability,`` (``alone``: the
    title's one subject, before its verb), ``the Grünlinge's Blutrausch`` in a list; ``the Grünlinge's ability``
    where the table does not name it (a lift table written before it did)."""
    people = words.word(t.game, option)
    if family not in ABILITY:
        return people
    ability = (facts.get("abilities") or {}).get(option)
    if not ability or ability == "none":
        return f"the {people}'s ability"
    return f"{words.word(t.game, ability)}, the {people}'s ability," if alone else \
        f"the {people}'s {words.word(t.game, ability)}"


def _replay(t: Tables, family: str, option: str, facts: dict[str, Any]) -> str | None:
    policy = str(facts.get("policy") or (t.report_policies[0] if t.report_policies else ""))
    if not policy:
        return None
    if family == "upgrade":
        return replay_command(t, f"{policy}@{option}", _run_with(t, policy, option))
    opts = {"people": option}
    if family == "people ability":
        opts["opponent_people"] = option
    elif family == "people":  # the mirror matchup it was measured in: the same policy on the other side
        opts["opponent"] = policy
    return replay_command(t, policy, 0, opts)


def _run_with(t: Tables, policy: str, option: str) -> int:
    """A run that the upgrade turned around (won with it, lost without; same seed), where more runs can be played."""
    if t.play is None:
        return 0
    n = min(t.n, 2000)
    try:
        base, withit = t.play(policy, n), t.play(f"{policy}@{option}", n)
    except DicesimError:  # a unique upgrade the loadout owns already, or a die past a full hand: nothing to play
        return 0
    if "win" not in base.columns or "win" not in withit.columns:
        return 0
    flipped = ((withit["win"].to_numpy() > 0) != (base["win"].to_numpy() > 0)).nonzero()[0]
    return int(withit["run"].iloc[flipped[0]]) if len(flipped) else 0


PLURAL = {"upgrade": "upgrades", "people ability": "people abilities", "people": "peoples"}


def far(x: float) -> str:
    """A distance in percentage points, its direction said in words (``12.0 pp below``, not ``−12.0 pp below``)."""
    return pp(abs(x), sign=False)


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _capital(text: str) -> str:
    """A title's first letter upper case (``the Grünlinge's ability`` opens a sentence), the rest as written."""
    return text[:1].upper() + text[1:]


def _tier(rows: list[tuple[str, float, list[float]]], f: FindingsConfig, kind: str) -> tuple[int, list]:
    """How many options, best first (worst first for a trap), stand clear of all the others together (0: none), and
    the options in that order.

    A tier of k options (at most a third of them) is clear when its weakest member is above the median of the rest
    by the margin and above the best of the rest by the gap, and every member's interval lies above the best of the
    rest (mirrored for a trap, whose members' intervals must also lie below 0). One option clear of the others is the
    plain dominant option; three upgrades within a point of each other and far above the rest are a dominant tier
    (none of the three is far above *all* others).
    """
    sign = 1.0 if kind == "dominant_option" else -1.0
    margin, gap = ((f.dominant_margin_pp, f.dominant_gap_pp) if sign > 0 else (f.trap_margin_pp, f.trap_gap_pp))
    order = sorted(rows, key=lambda r: -sign * r[1])
    for k in range(1, max(1, len(rows) // 3) + 1):
        top, rest = order[:k], [sign * r[1] for r in order[k:]]
        edge, mid, nearest = sign * top[-1][1], median(rest), max(rest)
        near_ends = [sign * (ci[0] if sign > 0 else ci[1]) for _, _, ci in top]
        if (edge - mid >= margin / 100 and edge - nearest >= gap / 100 and min(near_ends) > nearest
                and (sign > 0 or all(ci[1] < 0 for _, _, ci in top))):
            return k, order
    return 0, order


def _detect(t: Tables, f: FindingsConfig, kind: str) -> list[dict[str, Any]]:
    out = []
    dominant = kind == "dominant_option"
    for family, metric, rows, facts in families(t):
        if len(rows) < f.min_options:
            continue
        k, order = _tier(rows, f, kind)
        if not k:
            continue
        top, rest = order[:k], [r[1] for r in order[k:]]
        mid = median(rest)
        nearest = max(rest) if dominant else min(rest)
        edge, edge_ci = top[-1][1], top[-1][2]
        names = [_option_name(t, family, r[0], facts, k == 1) for r in top]
        what, where, end = ("dominant", "above", "best") if dominant else ("trap", "below", "worst")
        said = f"{names[0]} is a {what} {family}" if family not in ABILITY else \
            f"{_capital(names[0])} is {what if dominant else 'a ' + what}"
        if k == 1:
            title = (f"{said}: {pp(edge)}{interval_pp(edge_ci)} wins, {far(edge - mid)} "
                     f"{where} the median of the other {len(rest)} and {far(edge - nearest)} {where} the {end} of "
                     "them.")
        else:
            lo, hi = sorted((top[0][1], edge))
            other = _option_name(t, family, order[k][0], facts, False)
            title = (f"{_capital(_names(names))} are {what} {PLURAL.get(family, family + 's')}: each moves the wins "
                     f"by {pp(lo)} to {pp(hi)}, {far(edge - nearest)} {where} the {end} of the other {len(rest)} "
                     f"({other} {pp(nearest)}) and {far(edge - mid)} {where} their median.")
        out.append(finding(
            t, kind, title, edge, edge_ci, "pp",
            {"metric": metric, "family": family, "comparison": facts["comparison"], "runs": facts["runs"],
             "policy": facts.get("policy"), "median_of_others": mid, "best_other": max(rest),
             "worst_other": min(rest), "options": len(rows),
             "tier": [{"option": r[0], "value": r[1], "ci95": list(r[2])} for r in top]},
            _replay(t, family, top[0][0], facts), subject=f"{family}:{'+'.join(r[0] for r in top)}"))
    return out


def dominant_option(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Options far above all others (see the module)."""
    return _detect(t, f, "dominant_option")


def trap_option(t: Tables, f: FindingsConfig) -> list[dict[str, Any]]:
    """Options that cost wins, far below all others (see the module)."""
    return _detect(t, f, "trap_option")
