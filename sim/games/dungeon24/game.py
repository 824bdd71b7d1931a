"""Dungeon24 on the engine: two seats (``--policy`` vs ``--opponent``), people per seat, matchups.

Options: ``opponent`` (seat 1's policy), ``people`` / ``opponent_people`` (gruenlinge, untote,
dunkelelfen) and ``arrangement``: ``policy`` (each seat's policy builds its pyramid), ``search``
(seat 0 plays the pyramid that ``best_arrangement`` finds against the opponent) or five card
numbers ``"i,j,k,l,m"`` (seat 0's deck cards 0..4 at front 1..3, middle 1..2).

Designer helpers beyond the ``Game`` interface: ``matchup`` (the 3x3 people matrix of a policy
pair, seat-swapped on paired seeds), ``best_arrangement`` and ``matchup_heatmap``.
"""

from __future__ import annotations

import json
import sys
from itertools import permutations
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from policies.dungeon24 import POLICIES
from sim import stats
from sim.config import DicesimError, config_hash
from sim.games.base import Game
from sim.games.dungeon24 import play
from sim.games.dungeon24 import rules as R
from sim.games.dungeon24.config import PEOPLE_LABELS, PEOPLES, Dungeon24Config, freeze, volk

SEARCH_N = 2000  # paired games per arrangement and seating in the arrangement search
SEARCH_START = 1 << 40  # first run index of the arrangement search (disjoint from the runs a play uses)
MAX_EVENTS = 20000

_frozen: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
_searched: dict[tuple, tuple[int, ...]] = {}


def frozen(cfg: Dungeon24Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``freeze(cfg)``, memoised by the config hash."""
    key = config_hash(cfg)
    if key not in _frozen:
        _frozen[key] = freeze(cfg)
    return _frozen[key]


def people_of(name: str) -> int:
    if name not in PEOPLES:
        raise DicesimError(f"unknown people {name!r} for dungeon24 (choose from {', '.join(PEOPLES)})")
    return PEOPLES.index(name)


def parse_arrangement(value: str) -> tuple[int, ...] | None:
    """``policy``/``search`` -> None; ``"i,j,k,l,m"`` -> the permutation (DicesimError otherwise)."""
    if value in ("policy", "search"):
        return None
    try:
        perm = tuple(int(x) for x in value.split(","))
    except ValueError:
        perm = ()
    if sorted(perm) != list(range(R.N_BASIC)):
        raise DicesimError(
            f"--arrangement must be policy, search or a permutation of 0..4 like 2,0,1,4,3, got {value!r}"
        )
    return perm


def run_games(cfg: Dungeon24Config, pols: list[str], people: list[int], seed: int, start: int, count: int,
              perms: list[tuple[int, ...] | None] | None = None, abilities: list[bool] | None = None) -> np.ndarray:
    """The raw int64 table ``[count, len(play.COLUMNS)]`` for seats ``pols``/``people``.

    ``perms[s]``: a fixed pyramid for seat ``s`` (None: its policy arranges); ``abilities[s]``
    False plays seat ``s`` without its people ability (for the ability lift).
    """
    rp, cards, ability = frozen(cfg)
    pol_ids = np.array([POLICIES[p] for p in pols], np.int64)
    ppl = np.array(people, np.int64)
    abil = ability[ppl].copy()
    for s, on in enumerate(abilities or [True, True]):
        if not on:
            abil[s] = R.AB_NONE
    pf = np.full((2, R.N_BASIC), -1, np.int64)
    for s, perm in enumerate(perms or [None, None]):
        if perm is not None:
            pf[s] = perm
    return play.play_batch(seed, start, count, pol_ids, ppl, abil, pf, rp, cards)


def table_of(raw: np.ndarray) -> dict[str, np.ndarray]:
    out = {}
    for i, c in enumerate(play.COLUMNS):
        col = raw[:, i]
        out[c] = col.astype(np.int32 if c in ("turns", "lp0", "lp1") else np.int16)
    return out


def _seat_scores(cfg: Dungeon24Config, policy: str, opponent: str, a: int, b: int, seed: int, start: int, n: int,
                 perm: tuple[int, ...] | None) -> np.ndarray:
    """Per-run score (win 1, draw 1/2) of ``policy`` with pyramid ``perm`` (None: its own), both seatings averaged."""
    t1 = run_games(cfg, [policy, opponent], [a, b], seed, start, n, [perm, None])[:, 0]
    t2 = run_games(cfg, [opponent, policy], [b, a], seed, start, n, [None, perm])[:, 0]
    s1 = np.where(t1 == 0, 1.0, np.where(t1 == 1, 0.0, 0.5))
    s2 = np.where(t2 == 1, 1.0, np.where(t2 == 0, 0.0, 0.5))
    return (s1 + s2) / 2


def best_arrangement(cfg: Dungeon24Config, policy: str, opponent: str, people: str, opponent_people: str,
                     n: int = SEARCH_N, seed: int = 0, n_check: int | None = None) -> dict[str, Any]:
    """Search all 120 pyramids of ``people`` (played by ``policy``) against ``opponent`` with its own pyramid.

    Every pyramid plays the same ``n`` runs in both seatings (common random numbers). The best of 120 noisy
    estimates is biased upwards, so the chosen pyramid is played again on ``n_check`` (default ``n``) fresh
    runs that the search never saw, beside the policy's own pyramid on the same runs: ``win_rate`` is that
    fresh estimate, ``lift`` the paired difference to the policy's pyramid, ``search_max`` the biased maximum.
    Search and check runs start at ``SEARCH_START``, so they never overlap the runs of a ``play``.
    """
    a, b = people_of(people), people_of(opponent_people)
    n_check = n if n_check is None else n_check
    results = []
    for perm in permutations(range(R.N_BASIC)):
        sc = _seat_scores(cfg, policy, opponent, a, b, seed, SEARCH_START, n, perm)
        results.append((float(sc.mean()), perm))
    results.sort(key=lambda x: -x[0])
    deck = volk(cfg, a)
    best, perm = results[0]
    fresh = _seat_scores(cfg, policy, opponent, a, b, seed, SEARCH_START + n, n_check, perm)
    own = _seat_scores(cfg, policy, opponent, a, b, seed, SEARCH_START + n, n_check, None)
    return {
        "arrangement": list(perm),
        "cards": [deck.cards[c].name for c in perm],
        "win_rate": stats.mean(fresh),
        "policy_pyramid_win_rate": stats.mean(own),
        "lift": stats.paired_difference(fresh, own),
        "search_max": best,
        "n": n,
        "n_check": n_check,
        "all": [{"arrangement": list(p), "win_rate": r} for r, p in results],
    }


def matchup(cfg: Dungeon24Config, policy_a: str, policy_b: str, n: int, seed: int) -> dict[str, Any]:
    """The 3x3 people matrix: ``win_rate[i][j]`` = P(``policy_a`` with people i beats ``policy_b`` with people j).

    Each cell plays runs 0..n-1 twice on the same seeds, seats swapped, so the first-attacker
    advantage cancels; a draw counts 1/2. Intervals: normal, over the n per-seed pair scores.
    Also returns the first-attacker win rate per cell (pooled over both seatings).
    """
    for p in (policy_a, policy_b):
        if p not in POLICIES:
            raise DicesimError(f"unknown policy {p!r} for dungeon24 (choose from {', '.join(POLICIES)})")
    k = len(PEOPLES)
    wr = [[0.0] * k for _ in range(k)]
    ci = [[[0.0, 0.0]] * k for _ in range(k)]
    fa = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            t1 = run_games(cfg, [policy_a, policy_b], [i, j], seed, 0, n)
            t2 = run_games(cfg, [policy_b, policy_a], [j, i], seed, 0, n)
            s1 = np.where(t1[:, 0] == 0, 1.0, np.where(t1[:, 0] == 1, 0.0, 0.5))
            s2 = np.where(t2[:, 0] == 1, 1.0, np.where(t2[:, 0] == 0, 0.0, 0.5))
            m = stats.mean((s1 + s2) / 2)
            wr[i][j] = m["value"]
            ci[i][j] = m["ci95"]
            fa[i][j] = float(((t1[:, 0] == t1[:, 1]).sum() + (t2[:, 0] == t2[:, 1]).sum()) / (2 * n))
    return {"policy_a": policy_a, "policy_b": policy_b, "n": n, "seed": seed, "people": list(PEOPLES),
            "win_rate": wr, "ci95": ci, "first_attacker_win_rate": fa}


def matchup_heatmap(result: dict[str, Any], path: str | Path) -> Path:
    """PNG heatmap of a ``matchup`` result (rows: policy_a's people, columns: policy_b's)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = np.array(result["win_rate"], dtype=float)
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    im = ax.imshow(m, vmin=0, vmax=1, cmap="RdBu")
    labels = [PEOPLE_LABELS[PEOPLES.index(p)] for p in result["people"]]
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel(f"{result['policy_b']} plays")
    ax.set_ylabel(f"{result['policy_a']} plays")
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.3f}", ha="center", va="center", fontsize=9)
    fig.colorbar(im, ax=ax, label=f"P({result['policy_a']} wins)")
    ax.set_title("Dungeon24 people matchup")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def ability_lift(cfg: Dungeon24Config, policy: str, opponent: str, n: int, seed: int) -> dict[str, Any]:
    """Causal win-rate lift of each people's ability, on paired seeds.

    For each people (mirror match, ``policy`` against ``opponent``), the same runs are played with
    ``policy``'s ability on and off, in both seatings; the lift is the mean per-seed difference of
    its score (win 1, draw 1/2) with a normal 95 % interval.
    """
    out = {"policy": policy, "opponent": opponent, "n": n, "seed": seed, "people": list(PEOPLES), "lift": []}
    for i in range(len(PEOPLES)):
        score = {}
        for on in (True, False):
            t1 = run_games(cfg, [policy, opponent], [i, i], seed, 0, n, abilities=[on, True])
            t2 = run_games(cfg, [opponent, policy], [i, i], seed, 0, n, abilities=[True, on])
            s1 = np.where(t1[:, 0] == 0, 1.0, np.where(t1[:, 0] == 1, 0.0, 0.5))
            s2 = np.where(t2[:, 0] == 1, 1.0, np.where(t2[:, 0] == 0, 0.0, 0.5))
            score[on] = (s1 + s2) / 2
        out["lift"].append(stats.paired_difference(score[True], score[False]))
    return out


def ability_lift_chart(result: dict[str, Any], path: str | Path) -> Path:
    """Bar chart of the paired ability lifts with 95 % intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    vals = [d["value"] for d in result["lift"]]
    err = [[max(0.0, v - d["ci95"][0]) for v, d in zip(vals, result["lift"], strict=True)],
           [max(0.0, d["ci95"][1] - v) for v, d in zip(vals, result["lift"], strict=True)]]
    fig, ax = plt.subplots(figsize=(6, 3.8))
    ax.bar([PEOPLE_LABELS[PEOPLES.index(p)] for p in result["people"]], vals, yerr=err, capsize=5)
    ax.axhline(0, color="#555", linewidth=0.8)
    ax.set_ylabel("win-rate lift of the ability")
    ax.set_title(f"Dungeon24: ability lift ({result['policy']} vs {result['opponent']}, mirror, paired seeds)")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


class Dungeon24Game(Game):
    name = "dungeon24"
    title = "Dungeon24"
    Config = Dungeon24Config
    policies = tuple(POLICIES)
    report_policies = ("random", "greedy", "heuristic", "exact-exchange")
    options = {"opponent": "greedy", "people": "gruenlinge", "opponent_people": "gruenlinge", "arrangement": "policy"}
    seats = 2
    headline = {"win_rate": "wins", "draw_rate": "draws", "first_attacker_win_rate": "the first attacker wins"}
    per_run = {"win_rate": lambda t: t["winner"] == 0, "draw_rate": lambda t: t["winner"] < 0,
               "first_attacker_win_rate": lambda t: t["winner"] == t["first_attacker"]}
    key_chart = "matchup.png"
    chart_notes = {"dungeon24_game_length.png": "How many turns a game lasts (both players).",
                   "matchup.png": "Win rate of each people (rows) against each people (columns), seats swapped."}
    metric_groups = (("per seat", r"^(?P<col>[a-z_]+?)(?P<row>[01])$"),)

    def matchup(self, cfg: Dungeon24Config, policy_a: str, policy_b: str, n: int, seed: int) -> dict[str, Any]:
        """The 3x3 people matrix (see module-level ``matchup``)."""
        return matchup(cfg, policy_a, policy_b, n, seed)

    def matchup_chart(self, result: dict[str, Any], path: Path) -> Path:
        return matchup_heatmap(result, path)

    def balance_extras(self, cfg: Dungeon24Config, out: Path, n: int, seed: int) -> list[tuple[str, str]]:
        """The people matchup (heuristic vs greedy) for the balance report."""
        from sim.skill_report import balance_skill

        result = matchup(cfg, "heuristic", "greedy", max(500, n // 10), seed)
        (Path(out) / "matchup.json").write_text(json.dumps(result, indent=2))
        png = matchup_heatmap(result, Path(out) / "matchup.png")
        lift = ability_lift(cfg, "heuristic", "greedy", max(500, n // 10), seed)
        (Path(out) / "ability_lift.json").write_text(json.dumps(lift, indent=2))
        lift_png = ability_lift_chart(lift, Path(out) / "ability_lift.png")
        return [
            ("People matchup: heuristic (rows) vs greedy (columns)", png.name),
            ("Ability lift: win rate with vs without the people ability (same seeds)", lift_png.name),
        ] + balance_skill(self, cfg, out, n, seed)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        opts = super().check_options(options)
        self.check_policy(opts["opponent"])
        people_of(opts["people"])
        people_of(opts["opponent_people"])
        parse_arrangement(opts["arrangement"])
        return opts

    def seat_policies(self, policy: str, options: dict[str, Any]) -> list[str]:
        """``[policy, opponent]`` (a value ``a,b`` names both seats)."""
        names = [p.strip() for p in policy.split(",") if p.strip()]
        if not names:
            raise DicesimError("no policy given")
        if len(names) > 2:
            raise DicesimError(f"dungeon24 has 2 seats, got {len(names)} policies in {policy!r}")
        opts = self.check_options(options)
        seats = names if len(names) == 2 else [names[0], opts["opponent"]]
        for p in seats:
            self.check_policy(p)
        return seats

    def compare_plan(self, policies: list[str], options: dict[str, Any]) -> list[tuple[str, list[str]]]:
        """Each policy in seat 0 against the same ``opponent``, on the same seeds."""
        return [(p, self.seat_policies(p, options)) for p in policies]

    def _perms(self, cfg: Dungeon24Config, policies: list[str], options: dict[str, Any]):
        opts = self.check_options(options)
        fixed = parse_arrangement(opts["arrangement"])
        if fixed is not None:
            return [fixed, None]
        if opts["arrangement"] == "search":
            key = (config_hash(cfg), *policies, opts["people"], opts["opponent_people"])
            if key not in _searched:
                res = best_arrangement(cfg, policies[0], policies[1], opts["people"], opts["opponent_people"])
                _searched[key] = tuple(res["arrangement"])
                wr, lo_hi = res["win_rate"]["value"], res["win_rate"]["ci95"]
                print(f"arrangement search: {', '.join(res['cards'])} wins {wr:.4f} [{lo_hi[0]:.4f}, {lo_hi[1]:.4f}] "
                      f"on {res['n_check']} fresh runs per seating (best of 120 search estimates: "
                      f"{res['search_max']:.4f}, biased upwards)", file=sys.stderr)
            return [_searched[key], None]
        return [None, None]

    def prepare(self, cfg: Dungeon24Config, policies: list[str], options: dict[str, Any]) -> None:
        self._perms(cfg, policies, options)

    def _seats(self, policies: list[str], options: dict[str, Any]) -> tuple[list[str], list[int]]:
        opts = self.check_options(options)
        if len(policies) == 1:
            policies = [policies[0], opts["opponent"]]
        if len(policies) != 2:
            raise DicesimError(f"dungeon24 has 2 seats, got policies {policies}")
        for p in policies:
            self.check_policy(p)
        return list(policies), [people_of(opts["people"]), people_of(opts["opponent_people"])]

    def simulate(self, cfg: Dungeon24Config, policies: list[str], seed: int, start: int, count: int,
                 options: dict[str, Any]) -> dict[str, np.ndarray]:
        pols, people = self._seats(policies, options)
        raw = run_games(cfg, pols, people, seed, start, count, self._perms(cfg, pols, options))
        return table_of(raw)

    def metrics(self, table: pd.DataFrame, options: dict[str, Any], cfg: Dungeon24Config) -> dict[str, dict[str, Any]]:
        w = table["winner"].to_numpy()
        first = table["first_attacker"].to_numpy()
        turns = table["turns"].to_numpy()
        end = table["end"].to_numpy()
        m: dict[str, dict[str, Any]] = {
            "win_rate": stats.rate(w == 0),
            "loss_rate": stats.rate(w == 1),
            "draw_rate": stats.rate(w < 0),
            "first_attacker_win_rate": stats.rate(w == first),
            "win_rate_attacking_first": stats.rate(w[first == 0] == 0),
            "win_rate_attacking_second": stats.rate(w[first == 1] == 0),
            "mean_turns": stats.mean(turns),
        }
        for k, q in stats.quantiles(turns).items():
            m[f"turns_{k}"] = q
        for s in (0, 1):
            uses = table[f"ability_uses{s}"].to_numpy()
            m[f"ability_uses{s}"] = stats.mean(uses)
            m[f"ability_used_rate{s}"] = stats.rate(uses > 0)
            m[f"boss_lost_rate{s}"] = stats.rate(table[f"boss_lost{s}"].to_numpy() > 0)
            m[f"mean_wins{s}"] = stats.mean(table[f"wins{s}"].to_numpy())
            m[f"mean_focus{s}"] = stats.mean(table[f"focus{s}"].to_numpy())
            m[f"mean_deploys{s}"] = stats.mean(table[f"deploys{s}"].to_numpy())
            m[f"boss_counter_rate{s}"] = stats.rate(table[f"counters{s}"].to_numpy() > 0)
        for code, name in enumerate(R.END_NAMES):
            if code:
                m[f"end_{name}_rate"] = stats.rate(end == code)
        return m

    def charts(
        self, tables: dict[str, pd.DataFrame], out_dir: Path, options: dict[str, Any], cfg: Dungeon24Config
    ) -> list[Path]:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        paths = []
        fig, ax = plt.subplots(figsize=(7, 4))
        hi = max(int(t["turns"].max()) for t in tables.values())
        bins = np.arange(0.5, hi + 1.5)
        for label, t in tables.items():
            ax.hist(t["turns"], bins=bins, density=True, histtype="step", label=label)
        ax.set_xlabel("turns (both players)")
        ax.set_ylabel("share of games")
        ax.set_title("Dungeon24 game length")
        ax.legend()
        fig.tight_layout()
        p = out_dir / "dungeon24_game_length.png"
        fig.savefig(p, dpi=110)
        plt.close(fig)
        paths.append(p)
        for label, t in tables.items():
            k = len(PEOPLES)
            wr = [[float("nan")] * k for _ in range(k)]
            for (i, j), g in t.groupby(["people0", "people1"]):
                wr[int(i)][int(j)] = float((g["winner"] == 0).mean())
            pol = self.seat_policies(label, options) if label in POLICIES else [label, "opponent"]
            res = {"policy_a": pol[0], "policy_b": pol[1], "people": list(PEOPLES), "win_rate": wr}
            paths.append(matchup_heatmap(res, out_dir / f"dungeon24_matchup_{label}.png"))
        return paths

    def replay(self, cfg: Dungeon24Config, policies: list[str], seed: int, run: int, options: dict[str, Any]) -> str:
        pols, people = self._seats(policies, options)
        rp, cards, ability = frozen(cfg)
        perms = self._perms(cfg, pols, options)
        pf = np.full((2, R.N_BASIC), -1, np.int64)
        for s, perm in enumerate(perms):
            if perm is not None:
                pf[s] = perm
        S, log = play.replay_game(seed, run, np.array([POLICIES[p] for p in pols], np.int64),
                                  np.array(people, np.int64), ability[np.array(people)].copy(), pf, rp, cards,
                                  MAX_EVENTS)
        return format_replay(cfg, pols, people, seed, run, S, log)

    def describe(self, cfg: Dungeon24Config, options: dict[str, Any]) -> dict[str, Any]:
        rp, cards, ability = frozen(cfg)
        hit = {str(adv): _exchange_stats(adv) for adv in range(-6, 7)}
        decks = {}
        for i, name in enumerate(PEOPLES):
            v = volk(cfg, i)
            cs = [*v.cards, v.boss]
            decks[name] = {
                "label": v.label,
                "ability": v.ability,
                "cards": [{"name": c.name, "a": c.a, "v": c.v, "boss": k == R.BOSS} for k, c in enumerate(cs)],
                "sum_a": sum(c.a for c in v.cards), "sum_v": sum(c.v for c in v.cards),
                "hit_chance_vs": {other: [[round(_exchange_stats(a.a - d.v)["hit"], 4) for d in
                                           [*volk(cfg, j).cards, volk(cfg, j).boss]] for a in cs]
                                  for j, other in enumerate(PEOPLES)},
            }
        return {"game": self.name, "config_hash": config_hash(cfg), "assumed": list(cfg.assumed),
                "exchange_by_advantage": hit, "decks": decks, "config": cfg.model_dump(mode="json")}

    def solve(self, cfg: Dungeon24Config, options: dict[str, Any]) -> dict[str, Any]:
        """The best pyramid for ``people`` when both seats play ``opponent`` (arrangement search); its win rate is
        re-measured on fresh runs (``search_max`` is the biased best of the 120 search estimates)."""
        opts = self.check_options(options)
        res = best_arrangement(cfg, opts["opponent"], opts["opponent"], opts["people"], opts["opponent_people"])
        return {"game": self.name, "value": res["win_rate"]["value"], "win_rate": res["win_rate"],
                "policy_pyramid_win_rate": res["policy_pyramid_win_rate"], "lift": res["lift"],
                "search_max": res["search_max"], "arrangement": res["arrangement"], "cards": res["cards"],
                "n": res["n"], "n_check": res["n_check"]}


def _exchange_stats(adv: int) -> dict[str, float]:
    """Exchange of A - V = ``adv`` without rerolls: hit chance and mean LP loss given a hit (exact, 36 pairs)."""
    hits = 0
    dmg = 0
    for a in range(1, 7):
        for d in range(1, 7):
            x = R.exchange(adv + a, d)
            if x > 0:
                hits += 1
                dmg += x
    return {"hit": hits / 36, "lp_loss_given_hit": dmg / hits if hits else 0.0}


def format_replay(cfg: Dungeon24Config, pols: list[str], people: list[int], seed: int, run: int, S: np.ndarray,
                  log: np.ndarray) -> str:
    """Human-readable lines of one run's event log."""

    def card(s: int, pos: int) -> str:
        v = volk(cfg, people[s])
        c = int(S[R.S_CARD + 6 * s + pos])
        cc = v.boss if c == R.BOSS else v.cards[c]
        return f"{cc.name} ({cc.a}/{cc.v})"

    seat = [f"seat {s} ({pols[s]}, {PEOPLE_LABELS[people[s]]})" for s in range(2)]
    lines = [f"Dungeon24 run {run} seed {seed}: {seat[0]} vs {seat[1]}"]
    for s in range(2):
        pyr = [card(s, pos) for pos in range(R.N_POS)]
        lines.append(f"  {seat[s]} pyramid: front {', '.join(pyr[:3])} | middle {', '.join(pyr[3:5])} | boss {pyr[5]}")
    for kind, t, p, a, b, c, d, e in log.tolist():
        if kind == play.EV_ROLLOFF:
            tail = " (tie, again)" if a == b else f", seat {0 if a > b else 1} attacks first"
            lines.append(f"roll-off: {a} vs {b}{tail}")
        elif kind == play.EV_CURSE:
            lines.append(f"turn {t}: Schattenschmerz costs seat {p} {a} LP (LP {b})")
        elif kind == play.EV_FIRE:
            what = R.ABILITY_NAMES[a]
            extra = f", {card(p, b)} returns" if a == R.AB_AUFERSTEHUNG and b >= 0 else ""
            lines.append(f"turn {t}: seat {p} fires {what}{extra} at the {R.WINDOW_NAMES[d]} "
                         f"({c} charge{'' if c == 1 else 's'} left)")
        elif kind == play.EV_COUNTER:
            lines.append(f"turn {t}: seat {p} answers with its boss early: {card(p, R.BOSS)}")
        elif kind == play.EV_DEPLOY:
            lines.append(f"turn {t}: seat {p} deploys {card(p, a)}")
        elif kind == play.EV_ATTACK:
            bonus = f" + Blutrausch {e}" if e else ""
            lines.append(f"turn {t}: seat {p} attacks with {card(p, a)} against {card(1 - p, b)}: "
                         f"dice {c}{bonus} vs {d}")
        elif kind == play.EV_REROLL:
            role = "attacker" if a else "defender"
            lines.append(f"turn {t}:   focus: seat {p} ({role}) discards {card(p, d)}, rerolls {b} -> {c}")
        elif kind == play.EV_HIT:
            lines.append(f"turn {t}:   hit by {b}: {card(1 - p, a)} falls, seat {1 - p} LP {c}; seat {p} wins {d}, "
                         f"charges {e}")
        elif kind == play.EV_BLOCK:
            lines.append(f"turn {t}:   blocked ({a} vs {b})")
        elif kind == play.EV_REINFORCE:
            lines.append(f"turn {t}:   seat {p} reinforces: {card(p, a)}")
        elif kind == play.EV_END:
            who = f"seat {p} wins" if p >= 0 else "draw"
            lines.append(f"end after {t} turns: {who} ({R.END_NAMES[a]}); LP {S[R.S_LP]} / {S[R.S_LP + 1]}, "
                         f"wins {S[R.S_WINS]} / {S[R.S_WINS + 1]}")
    return "\n".join(lines)


GAME = Dungeon24Game()
