"""Pig is registered in one place: besides its own files and the docs, only the registry line names it.

A fifth game that needed edits across the engine would show here: the engine, the command line, the reports, the
studio and the shared tests must reach every game through the registry (``sim.games.GAMES``), never by name.
"""

from __future__ import annotations

import re
import subprocess

from sim.games import GAMES, available
from tests.conftest import ROOT

WORD = re.compile(r"\bpig\b", re.IGNORECASE)
OWN = ("sim/games/pig/", "policies/pig/", "configs/pig/", "docs/",
       "tests/golden/hashes/pig.json", "tests/golden/replays/pig/")  # its golden files: written by tests.golden
OWN_TESTS = re.compile(r"^tests/games/test_pig_[a-z_]+\.py$")
REGISTRY = "sim/games/__init__.py"
REGISTRY_LINE = '    "pig": "sim.games.pig.game",'
README = "README.md"  # the games list and two example commands (the project's front page)
RECORD = "benchmarks/results.json"  # measurements name the games they timed (a record, not wiring)


def repository_files() -> list[str]:
    """Every file of the checkout that git tracks or would add (ignored build output left out)."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if (ROOT / p).is_file()]


def naming_lines(path: str) -> list[str]:
    try:
        text = (ROOT / path).read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary file (an image, a notebook's output): no source names anything there
        return []
    return [line for line in text.splitlines() if WORD.search(line)]


def test_no_shared_file_names_the_game():
    files = repository_files()
    assert "sim/games/pig/game.py" in files and REGISTRY in files
    offenders = {}
    for path in files:
        if path.startswith(OWN) or OWN_TESTS.match(path) or path in (README, RECORD):
            continue
        lines = naming_lines(path)
        if path == REGISTRY:
            lines = [line for line in lines if line != REGISTRY_LINE]
        if lines:
            offenders[path] = lines[:3]
    assert not offenders, f"shared files name the game: {offenders}"


def test_the_registry_line_is_the_registration():
    assert naming_lines(REGISTRY) == [REGISTRY_LINE]
    assert GAMES["pig"] == "sim.games.pig.game" and "pig" in available()


def test_the_word_is_matched_whole():
    """The check finds the name in any case and only as a word (no "pigment", no "spigot")."""
    assert WORD.search("GAMES = {'Pig': ...}") and WORD.search("a pig-out") and WORD.search("games/pig/x")
    assert not any(WORD.search(w) for w in ("pigment", "spigot", "pigeon", "piggy"))
