"""What one Würfel Dungeon run carries from phase to phase, and one fight from step to step: numpy records, read
as ``rs.lp``, ``f.ehp``.

The run kernel is a room loop over phase functions (``room``: enter the room and the loadout's profile;
``fight``: the turns; ``after``: coins, reward, market). Each phase is its own compiled function and hands the
run on in this record. A record is passed by pointer and carries no reference count. A phase reads and writes
its fields by name (``rs.lp``): once a room, a few loads and stores. A loop that reads a field many times takes it
into a local before the loop (fields read in a hot loop are loads and stores: measured 9-15 % slower when the whole
fight lived in records, hence the fight's stack record below).

Only state that crosses a phase boundary is here; a phase's own working values stay its locals.

The fight's record (``FIGHT_DTYPE``, ``f.ehp``) crosses the steps of a turn (``fight``, ``player``) several times a
turn, so it lives on the stack of the function that inlines the fight (``new_fight``, ``sim.jit.stackrec``), where LLVM
keeps its fields in registers; it is aligned so that each field loads as one word.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.jit.stackrec import stack_record

RUN_DTYPE = np.dtype([
    ("lp", np.float64), ("maxlp", np.float64), ("coins", np.float64), ("seconds", np.float64),
    ("altar", np.int64),  # Opferaltar attack bonus
    ("nj", np.int64),  # jokers held (the stack is in the scratch ``items``)
    ("db_left", np.int64),  # dice-bonus fights left
    ("truhe_mask", np.int64),  # dice the Verfluchte Truhe curses in the next fight
    ("nl", np.int64),  # event-log rows written
    ("sa", np.int64),  # stream salt of a rollout continuation (0 in a plain run, ``rollctl``)
    ("mk_index", np.int64),  # markets visited
    # the loadout changed (fold its effects again); the profile key the combo values were last computed for and
    # the profile cache slot that holds its tables; dice per roll with this loadout
    ("dirty", np.bool_), ("slot", np.int64), ("nd_base", np.int64),
    ("k_att", np.float64), ("k_altar", np.int64), ("k_sh", np.float64), ("k_he", np.float64), ("k_pm", np.float64),
    ("k_lk", np.float64),
    # the room entered: path card, the third card, the Geheimnis event, the enemy
    ("card", np.int64), ("third", np.int64), ("event", np.int64), ("enemy", np.int64),
    # the fight's outcome, read after the room
    ("won", np.bool_), ("elite", np.bool_), ("boss", np.bool_), ("turn", np.int64), ("fight_coins", np.float64),
    ("stolen", np.float64), ("kinds_used", np.int64), ("healed", np.bool_),
    # where the row's column groups start (``table``): LP, coins and turns by room, combos, paths, markets, upgrades
    ("b_lp", np.int64), ("b_coins", np.int64), ("b_turns", np.int64), ("b_combo", np.int64), ("b_path", np.int64),
    ("b_mk", np.int64), ("b_up", np.int64),
    # after a won room, for the policies that rate offers by their attack gain (``after.expected_attack``): the
    # loadout's expected turn attack now, with one more roll, with one more die
    ("e3", np.float64), ("e4", np.float64), ("e3p", np.float64),
])

FIGHT_DTYPE = np.dtype([
    # the room's enemy: LP (and its maximum), block, poison, buffs; its damage (base, scale, the room's bonus);
    # its intents (first row, count, drawn at random or in turn) and the one announced (``ii`` in its list)
    ("ehp", np.float64), ("ehp_max", np.float64), ("eblock", np.float64), ("epoison", np.float64),
    ("ebuff", np.int64), ("ebase", np.float64), ("scale", np.float64), ("sec_bonus", np.int64),
    ("i0", np.int64), ("ni", np.int64), ("rnd_mode", np.bool_), ("ii", np.int64),
    ("elite", np.bool_), ("boss", np.bool_),
    # the player's budgets for the fight: rerolls per turn, extra rerolls allowed (jokers, last chance), last
    # chances, hero uses, adjusts (Justieren) left; the coin cap; full skill (no lapses)
    ("rerolls", np.int64), ("extra_ok", np.bool_), ("lc_left", np.int64), ("hero_left", np.int64),
    ("adjusts", np.int64), ("cap", np.float64), ("full", np.bool_),
    # what the enemy's last turn left: shield kept, weakened turns, dice cursed or eaten next turn
    ("shield", np.float64), ("weak", np.int64), ("cursed_next", np.int64), ("eat_next", np.int64),
    # the turn: its number; dice, the cursed ones (mask, multiset), the announced hit (damage, hits) and the
    # attack factors; rolls so far; expectimax's adjust levels; the assignment's actions and the hero's action
    ("turn", np.int64), ("nd", np.int64), ("cmask", np.int64), ("cursed", np.int64), ("it", np.int64),
    ("hit", np.int64), ("hits", np.int64), ("berserk", np.float64), ("weak_mul", np.float64),
    ("nroll", np.int64), ("na", np.int64), ("m", np.int64), ("hero_j", np.int64),
    # the fight's outcome
    ("won", np.bool_), ("fight_coins", np.float64), ("stolen", np.float64), ("kinds_used", np.int64),
    ("healed", np.bool_),
], align=True)

# one fight's record, on the stack of the function that inlines the fight (``sim.jit.stackrec``): its fields stay in
# registers from step to step
new_fight = stack_record(FIGHT_DTYPE)


# the phases' arguments, grouped by meaning (CONTRIBUTING.md: a kernel takes a few named groups); ``play_run``
# builds them from its borrowed arrays, and a phase unpacks the ones it reads in one line


class Player(NamedTuple):
    """Who plays which run: the policy id, the batch's seed and the run's number (the keys of its streams)."""

    pid: int
    seed: int
    run: int


class Profiles(NamedTuple):
    """The profile tables: the cache (``tables.new_cache``), this thread's row of it, and the policies' tables
    ``tm`` that ``tables.lookup`` builds a profile from."""

    cache: tuple
    t: int
    tm: np.ndarray


class Written(NamedTuple):
    """What a run writes: its row of the table (``table.columns``) and its event log (no rows: none)."""

    out: np.ndarray
    log: np.ndarray


class Control(NamedTuple):
    """The rollout control (``rollctl``): the forced run-level choices and the control vector; empty in a plain run."""

    forced: np.ndarray
    rc: np.ndarray
