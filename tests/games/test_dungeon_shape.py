"""Würfel Dungeon's shape as the seed gives it: a path before every room, bosses scaled by the boss factor
only, and a roster whose bosses are the peaks (read from each config's derived room table, on every
difficulty, for the default dungeon and both regions)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from sim.core.events import replay
from sim.games.dungeon import config as C
from sim.games.dungeon import rules as R
from sim.games.dungeon.game import GAME, describe
from tests.conftest import cli_here

CONFIGS = {name: GAME.load(path) for name, path in (
    ("default", None),
    ("gruene-ruinen", Path("configs/dungeon/gruene-ruinen.toml")),
    ("aschefestung", Path("configs/dungeon/aschefestung.toml")),
)}
CASES = [(c, d) for c in CONFIGS for d in C.DIFFICULTIES]


def _rooms(cfg, diff):
    return describe(cfg, {"difficulty": diff})["rooms"]


def _boss(rooms, room):
    (b,) = [r for r in rooms if r["room"] == room]
    assert b["boss"]
    return b


HIT_FIELDS = ("damage", "max_hit", "mean_hit")


@pytest.mark.parametrize("name, diff", CASES)
def test_bosses_are_the_peaks(name, diff):
    """The roster's shape (the rules file, issue 27): every normal enemy that can appear in rooms 1–4, Elite card
    included, has fewer LP than the Würfelfresser (room 5, Kampf card) and a strictly smaller typical hit
    (``damage``), largest single hit (``max_hit``) and mean damage per enemy turn (``mean_hit``); rooms 6–9
    likewise against the Auge der Sechs (room 10), the Aschehallen attack bonus included on both sides. Every
    candidate of each room's roster counts, not one drawn run."""
    cfg = CONFIGS[name]
    rooms = _rooms(cfg, diff)
    for lo, hi, boss_room in ((1, 4, 5), (6, 9, 10)):
        boss = _boss(rooms, boss_room)
        normal = [r for r in rooms if lo <= r["room"] <= hi]
        assert {r["room"] for r in normal} == set(range(lo, hi + 1)) and not any(r["boss"] for r in normal)
        for room in range(lo, hi + 1):  # every roster candidate of the room is listed
            sec = next(s for s in cfg.sections.values() if s.first_room <= room <= s.last_room)
            assert sorted(r["enemy"] for r in normal if r["room"] == room) == sorted(sec.roster)
        for r in normal:
            for tag in ("", "elite_"):
                assert r[f"{tag}hp"] < boss["hp"], (name, diff, r["room"], r["enemy"], tag, r[f"{tag}hp"], boss["hp"])
                for k in HIT_FIELDS:
                    assert r[f"{tag}{k}"] < boss[k], (name, diff, r["room"], r["enemy"], tag, k, r[f"{tag}{k}"])


def _brute_mean_hit(enemy, scale, bonus, elite=1.0):
    """Mean damage per enemy turn over one pass of ``len(intents)`` turns, recomputed from the config's intent
    list: every hit round(base × multiple × scale), on an Elite card that × 1.15 rounded again, + section bonus +
    the buffs of the turns before, × hits; a hitless intent deals 0. Random mode: every sequence of draws, weighted
    by its probability."""
    its = enemy.intents
    n = len(its)
    if enemy.mode == "cycle":
        seqs = [(tuple(its), 1.0)]
    else:
        tot = sum(i.weight for i in its)
        seqs = [(seq, math.prod(i.weight / tot for i in seq)) for seq in itertools.product(its, repeat=n)]
    mean = 0.0
    for seq, prob in seqs:
        buff, dealt = 0, 0
        for it in seq:
            if it.damage > 0:
                hit = R.round_half_up(enemy.damage * it.damage * scale)
                dealt += it.hits * ((R.round_half_up(hit * elite) if elite != 1.0 else hit) + bonus + buff)
            buff += it.buff
        mean += prob * dealt / n
    return mean


def _check_mean_hits(cfg, diff):
    d = getattr(cfg.difficulty, diff)
    checked = 0
    for r in _rooms(cfg, diff):
        e = cfg.enemies[r["enemy"]]
        sec = next(s for s in cfg.sections.values() if s.first_room <= r["room"] <= s.last_room)
        base_scale = d.boss if e.boss else d.damage * (1 + cfg.scaling.damage_growth * (r["room"] - 1))
        for tag, elite in (("", 1.0), ("elite_", cfg.path.elite_attack)):
            want = _brute_mean_hit(e, base_scale, sec.attack_bonus, elite)
            assert r[f"{tag}mean_hit"] == pytest.approx(want, abs=1e-9), (diff, r["room"], r["enemy"], tag)
            checked += 1
    return checked


@pytest.mark.parametrize("name, diff", CASES)
def test_mean_hit_against_brute_force(name, diff):
    """``describe``'s ``mean_hit`` / ``elite_mean_hit`` (derived from the frozen arrays and the kernel's hit
    function) equal an independent recomputation from the config's intent lists, for every room and enemy."""
    assert _check_mean_hits(CONFIGS[name], diff) > 40


def test_mean_hit_by_hand_and_in_random_mode():
    """A hand value: the Kultist in room 1 on Leicht (base 15, × 1.10) hits 0.8 → 13, buffs +2, hits 1 → 17 + 2:
    (13 + 0 + 19) / 3. A random-mode enemy with a buff and a multi-hit agrees with the brute force over all
    27 draw sequences, and a block-only cycle deals 0."""
    hand = GAME.load(overrides=["enemies.kultist.damage=15.0"])
    (k1,) = [r for r in _rooms(hand, "leicht") if r["room"] == 1 and r["enemy"] == "kultist"]
    assert k1["mean_hit"] == pytest.approx(32 / 3)
    rnd = GAME.load(overrides=['enemies.kultist={hp=25, damage=15.0, mode="random", intents=[{damage=0.8, block=4,'
                               " weight=2.0}, {buff=3, weight=1.0}, {damage=0.6, hits=2, weight=1.5}]}",
                               "enemies.rostratte.intents=[{block=6, steal=12}]"])
    for diff in C.DIFFICULTIES:
        assert _check_mean_hits(rnd, diff) > 40
        assert all(r["mean_hit"] == 0 for r in _rooms(rnd, diff) if r["enemy"] == "rostratte")
    (k1,) = [r for r in _rooms(rnd, "leicht") if r["room"] == 1 and r["enemy"] == "kultist"]
    # hits 13 (p 4/9) and 2 × 10 (p 1/3); buff +3 per draw with p 2/9: turn t adds 3 · (t − 1) · 2/9 per hit
    assert k1["mean_hit"] == pytest.approx(4 / 9 * 13 + 1 / 3 * 20 + 2 / 9 * 3 * 1 * (4 / 9 + 2 / 3))


def test_mean_hit_is_the_kernels_announced_damage():
    """Against the kernel itself: in played runs (Schwer, 12 runs; 10,000 LP and tough enemies so that fights
    last a whole intent cycle), the damage each enemy turn announces (the replay's ``intent_damage``: hit ×
    hits, buffs included) averaged over a fight's first pass of the cycle is ``describe``'s ``mean_hit`` (or
    ``elite_mean_hit`` on the Elite card), for every enemy of the default roster and both bosses."""
    base = CONFIGS["default"]
    cfg = GAME.load(overrides=["start.lp=10000"] + [f"enemies.{e}.hp={400 if v.boss else 150}"
                                                    for e, v in base.enemies.items()])
    names = list(cfg.enemies)
    want = {(r["room"], r["enemy"], t): r[t + "mean_hit"] for r in _rooms(cfg, "schwer") for t in ("", "elite_")}
    seen, cards = set(), set()
    for run in range(12):
        fight = None
        for ev in replay(GAME, cfg, ["vorschlag"], 1, run, {"difficulty": "schwer"}).sections[0]["events"]:
            if ev["event"] == "room":
                fight = {"room": ev["room"], "enemy": names[ev["enemy"]], "elite": bool(ev["elite"]), "turns": []}
            elif ev["event"] == "turn":
                fight["turns"].append(ev["intent_damage"])
            elif ev["event"] == "fight_end":
                ni = len(cfg.enemies[fight["enemy"]].intents)
                if len(fight["turns"]) >= ni:
                    tag = "elite_" if fight["elite"] else ""
                    assert sum(fight["turns"][:ni]) / ni == pytest.approx(want[(fight["room"], fight["enemy"], tag)])
                    seen.add(fight["enemy"])
                    cards.add(fight["elite"])
    assert seen == {e for sec in cfg.sections.values() for e in sec.roster} | {"wuerfelfresser", "auge_der_sechs"}
    assert cards == {False, True}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_normal_base_lp_in_the_rules_range(name):
    """Normal enemies keep base LP near the rules file's 18–30: the difficulty comes from damage, intents,
    block and prices, not from turning every room into a boss fight."""
    cfg = CONFIGS[name]
    for sec in cfg.sections.values():
        for e in sec.roster:
            assert 18 <= cfg.enemies[e].hp <= 30, (name, e, cfg.enemies[e].hp)


@pytest.mark.parametrize("name, diff", CASES)
def test_path_before_every_room_and_boss_scaling(name, diff):
    """Three cards before every room, boss rooms 5 and 10 included ("Vor jedem Raum liegen drei Karten"); the
    bosses use the boss factor alone for LP and damage ("Bosse nutzen nur den Boss-Faktor"), the Elite card
    multiplies both."""
    cfg = CONFIGS[name]
    rooms = _rooms(cfg, diff)
    assert all(r["path_choice"] for r in rooms)
    d = getattr(cfg.difficulty, diff)
    p = cfg.path
    for room in (5, 10):
        b = _boss(rooms, room)
        e = cfg.enemies[b["enemy"]]
        bonus = next(s.attack_bonus for s in cfg.sections.values() if s.first_room <= room <= s.last_room)
        assert b["hp"] == R.round_half_up(e.hp * d.boss)
        # the Elite's factors are of the numbers the game shows (LP 109 → 136, a hit of 37 → 43), rounded again
        assert b["elite_hp"] == R.round_half_up(R.round_half_up(e.hp * d.boss) * p.elite_hp)
        assert b["damage"] == R.round_half_up(e.damage * d.boss) + bonus
        assert b["elite_damage"] == R.round_half_up(R.round_half_up(e.damage * d.boss) * p.elite_attack) + bonus
        assert b["max_hit"] == max(R.round_half_up(e.damage * it.damage * d.boss) + bonus
                                   for it in e.intents if it.damage > 0)


def test_seed_boss_lp():
    """The seed's golden values: Würfelfresser 65 / 71 / 71, Auge der Sechs 109 / 120 / 120."""
    want = {"leicht": (65, 109), "normal": (71, 120), "schwer": (71, 120)}
    for cfg in CONFIGS.values():
        for diff, (wf, auge) in want.items():
            rooms = _rooms(cfg, diff)
            assert (_boss(rooms, 5)["hp"], _boss(rooms, 10)["hp"]) == (wf, auge)


def test_older_readings_stay_switchable():
    """``path.boss_rooms = false`` removes the boss rooms' cards; ``scaling.boss_damage = "stage"`` scales boss
    damage like a normal enemy's (stage factor, +3 % per room)."""
    old = GAME.load(overrides=["path.boss_rooms=false", 'scaling.boss_damage="stage"'])
    rooms = _rooms(old, "normal")
    assert [r["path_choice"] for r in rooms if r["boss"]] == [False, False]
    assert all(r["path_choice"] for r in rooms if not r["boss"])
    b = _boss(rooms, 10)
    e = old.enemies[b["enemy"]]
    growth = 1 + old.scaling.damage_growth * 9
    assert b["damage"] == R.round_half_up(e.damage * old.difficulty.normal.damage * growth) + 1
    assert "elite_hp" not in b


@pytest.mark.parametrize("diff", C.DIFFICULTIES)
def test_describe_cli_shows_the_shape(diff):
    """What a new user sees: ``dicesim describe dungeon --difficulty D --json`` has a path before rooms 5 and
    10, boss hits without room growth, and the bosses on top in LP, typical, largest and mean hit."""
    res = cli_here("describe", "dungeon", "--difficulty", diff, "--json")  # the command's output, in this process
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    rooms = out["rooms"]
    d = getattr(CONFIGS["default"].difficulty, diff)
    for room in (5, 10):
        b = _boss(rooms, room)
        assert b["path_choice"] is True
        e = CONFIGS["default"].enemies[b["enemy"]]
        assert b["damage"] == R.round_half_up(e.damage * d.boss) + (1 if room == 10 else 0)
    for lo, hi, boss_room in ((1, 4, 5), (6, 9, 10)):
        boss = _boss(rooms, boss_room)
        for k in ("hp",) + HIT_FIELDS:
            top = max(r[t + k] for r in rooms if lo <= r["room"] <= hi for t in ("", "elite_"))
            assert top < boss[k], (diff, boss_room, k)


def test_describe_json_names_enemies_and_sections_in_words():
    """``describe dungeon --json`` names each room's enemy and section as the rules page does (issue 31), beside the
    config's keys: the two bosses read Würfelfresser and Auge der Sechs, each section as its word
    (``kristallhoehlen`` reads Kristallhöhlen)."""
    res = cli_here("describe", "dungeon", "--json")
    assert res.returncode == 0, res.stderr
    rooms = json.loads(res.stdout)["rooms"]
    assert [_boss(rooms, r)["enemy_name"] for r in (5, 10)] == ["Würfelfresser", "Auge der Sechs"]
    assert {(r["section"], r["section_name"]) for r in rooms} >= {("krypta", "Krypta"),
                                                                    ("kristallhoehlen", "Kristallhöhlen")}
    assert {r["enemy"]: r["enemy_name"] for r in rooms}["hoehlentroll"] == "Höhlentroll"
    assert all(r["enemy_name"] and "_" not in r["enemy_name"] and r["enemy_name"][0].isupper() for r in rooms)
