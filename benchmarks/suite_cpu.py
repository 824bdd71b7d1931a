"""CPU seconds of each test, its own process and the child processes it waited for (CLI subprocesses, studio
servers, installs): a pytest plugin, because wall time on a shared machine says little.

    python -m pytest -p benchmarks.suite_cpu -m "not slow" -n 2 --dist loadfile  # writes DIR/<worker>.json
    python benchmarks/suite_cpu.py DIR                                          # totals and the costliest tests

DIR is $DICESIM_TEST_CPU_DIR, else dicesim-test-cpu in the temporary folder; clear it between runs.

Each record: test id, self CPU (user + system of this process, every thread), children CPU (waited children),
wall. A session-scoped fixture is charged to the first test that uses it.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest

OUT = Path(os.environ.get("DICESIM_TEST_CPU_DIR", Path(tempfile.gettempdir()) / "dicesim-test-cpu"))
_records: list[dict] = []


def _cpu() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    s0, c0 = _cpu()
    t0 = time.perf_counter()
    yield
    s1, c1 = _cpu()
    _records.append({"id": item.nodeid, "self": round(s1 - s0, 3), "children": round(c1 - c0, 3),
                     "wall": round(time.perf_counter() - t0, 3)})


def pytest_sessionfinish(session: pytest.Session) -> None:
    worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
    s, c = _cpu()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{worker}.json").write_text(json.dumps({"process_self": s, "process_children": c,
                                                    "tests": _records}))


def summary(folder: Path, top: int = 60) -> None:
    """Totals per process and per file, and the costliest tests."""
    tests, files = [], defaultdict(float)
    for f in sorted(folder.glob("*.json")):
        d = json.loads(f.read_text())
        print(f"{f.stem}: process {d['process_self']:.0f} s self + {d['process_children']:.0f} s children, "
              f"{len(d['tests'])} tests")
        tests += d["tests"]
    for t in tests:
        files[t["id"].split("::")[0]] += t["self"] + t["children"]
    total = sum(t["self"] + t["children"] for t in tests)
    kids = sum(t["children"] for t in tests)
    print(f"{len(tests)} tests: {total:.0f} CPU-s ({kids:.0f} s in children)")
    print("-- files")
    for name, cpu in sorted(files.items(), key=lambda kv: -kv[1])[:40]:
        print(f"{cpu:7.1f}  {name}")
    print("-- tests")
    for t in sorted(tests, key=lambda t: -(t["self"] + t["children"]))[:top]:
        print(f"{t['self'] + t['children']:6.1f} = {t['self']:5.1f} + {t['children']:5.1f}  wall {t['wall']:5.1f}  "
              f"{t['id']}")


if __name__ == "__main__":
    summary(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT, int(sys.argv[2]) if len(sys.argv) > 2 else 60)
