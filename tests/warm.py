"""``python -m tests.warm``: compile every game's kernels into the kernel cache as the tests load them (the quick
tier), as the xdist controller does before the first test (``tests.conftest``). ``.ci/run`` runs it while apt still
installs Chromium, so the compile takes that wait instead of coming after it."""

from __future__ import annotations

import os

import tests.conftest  # noqa: F401  (the tests' compile tier and no background compile: its environment)
from sim.games import GAMES, get_game
from sim.jit import warmup


def main() -> None:
    for game in warmup.start(list(GAMES), workers=os.cpu_count() or 1):
        warmup.wait_for(game, get_game(game).title)


if __name__ == "__main__":
    main()
