"""Click-to-result in the studio (issue 30): a real ``dicesim studio`` driven by Chromium through Playwright.

Measures, for Würfel Dungeon and N = 5,000 on warm kernel caches: the seconds from pressing Run to the headline
numbers (the status line reads "run K: … runs/s") and to the charts, for the first run of the page, a repeat, and
two runs after a rules edit (a rules edit needs no new kernel). Run: ``python -m benchmarks.studio_click``
(``--record`` writes ``studio_click`` into ``benchmarks/results.json``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from benchmarks.record import record

ROOT = Path(__file__).resolve().parent.parent
N = 5000
EDITS = ["difficulty.leicht.hp", "0.8", "0.9"]  # the field and the two values typed before runs 3 and 4


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


def _click(pg, label: str) -> tuple[float, float]:
    t0 = time.perf_counter()
    pg.locator('[data-testid="run"]').click()
    pg.wait_for_function(f"() => document.querySelector('[data-testid=status]')?.innerText.startsWith('{label}: ')"
                         " && document.querySelector('[data-testid=status]').innerText.includes('runs/s')",
                         timeout=600_000)
    numbers = time.perf_counter() - t0
    pg.wait_for_function("() => [...document.querySelectorAll('[data-testid=results] img')].length >= 1 && "
                         "[...document.querySelectorAll('[data-testid=results] img')].every(i => i.complete)",
                         timeout=600_000)
    return round(numbers, 2), round(time.perf_counter() - t0, 2)


def measure() -> dict:
    port, where = _port(), Path(tempfile.mkdtemp())
    server = subprocess.Popen([sys.executable, "-m", "sim.cli", "studio", "--port", str(port), "--out",
                               str(where / "out")], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        while not _up(url):
            time.sleep(0.2)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            pg = b.new_page(viewport={"width": 1400, "height": 1000})
            pg.goto(url)
            pg.wait_for_selector('[data-testid="run"]')
            pg.locator('input[data-testid="n"]').fill(str(N))
            clicks = {"first": _click(pg, "run 1"), "repeat": _click(pg, "run 2")}
            field, *values = EDITS
            keys = field.split(".")
            for i in range(1, len(keys)):
                pg.locator(f'[data-testid="section-{".".join(keys[:i])}"] .q-item').first.click()
            for k, v in enumerate(values):
                pg.locator(f'input[data-testid="field-{field}"]').fill(v)
                pg.wait_for_function("() => document.querySelector('[data-testid=set-lines]')"
                                     f".innerText.includes('{field}={v}')")
                clicks[f"after_edit_{k + 1}"] = _click(pg, f"run {3 + k}")
            b.close()
    finally:
        server.terminate()
        server.wait(20)
    return {"game": "dungeon", "n": N, "bytecode_cache": os.environ.get("PYTHONDONTWRITEBYTECODE") is None,
            "load_1min": os.getloadavg()[0],
            **{k: {"to_numbers_s": a, "to_charts_s": c} for k, (a, c) in clicks.items()}}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", action="store_true", help="write the figures into benchmarks/results.json")
    figures = measure()
    print(figures)
    if ap.parse_args().record:
        record("studio_click", figures)
