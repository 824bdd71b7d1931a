"""Regenerate the golden files: ``python -m tests.golden [--game G ...]`` (``make golden``)."""

from __future__ import annotations

import argparse
import json

from tests.golden.cases import GAMES, REPLAY_CASES, TABLE_CASES, hash_path, play_hash, replay_path, replay_text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    games = ap.parse_args().game or list(GAMES)
    for game in games:
        hashes = {c.id: play_hash(c) for c in TABLE_CASES if c.game == game}
        path = hash_path(game)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
        print(f"{path}: {len(hashes)} table hashes")
        for case, run in REPLAY_CASES:
            if case.game == game:
                p = replay_path(case, run)
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_text(replay_text(case, run))
                print(f"{p}")


if __name__ == "__main__":
    main()
