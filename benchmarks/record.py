"""Merge one benchmark's figures into benchmarks/results.json (with machine facts and a date)."""

from __future__ import annotations

import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.json"


def machine() -> dict:
    return {
        "cpus": os.cpu_count(),
        "numba_threads": int(os.environ.get("NUMBA_NUM_THREADS", os.cpu_count() or 1)),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def record(section: str, figures: dict) -> dict:
    data = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    data[section] = {**figures, "measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine()}
    RESULTS.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    return data[section]


if __name__ == "__main__":  # record a JSON object read from stdin: python benchmarks/record.py SECTION
    print(json.dumps(record(sys.argv[1], json.load(sys.stdin)), indent=2))
