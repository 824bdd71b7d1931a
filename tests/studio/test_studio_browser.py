"""The studio and the report pages in a real browser: the distribution's Chromium driven by Playwright.

The studio runs as ``dicesim studio`` in a subprocess on a free loopback port; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from sim.core.batch import run_batch
from sim.games import get_game
from sim.report import words
from tests.conftest import ROOT, cli_here

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium found: install the distribution's chromium package (.ci/run does)")
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra)")

ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
N = 1500
SEED = 1
OPTS = {"difficulty": "leicht"}
FIELD = "difficulty.leicht.hp"
RUN_S = 300_000  # ms for one run on a busy machine (kernels are loaded from the disk cache)


def reference(sets: list[str]) -> dict:
    """The same config, policy, N and seed played straight through the engine."""
    g = get_game("dungeon")
    cfg = g.load(None, sets)
    b = run_batch(g, cfg, ["vorschlag"], N, SEED, OPTS, progress=False)
    return g.metrics(b.table, OPTS, cfg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _status(url: str) -> int | None:
    """The HTTP status the server answers ``url`` with (None when it does not answer)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
    except OSError:
        return None


def _answers(url: str) -> bool:
    return _status(url) == 200


@contextlib.contextmanager
def serving(where: Path, *args: str, host: str = "127.0.0.1"):
    """``dicesim studio`` on a free port, its --out under ``where``; yields (url, out folder, server log)."""
    port = _free_port()
    log = where / "server.log"
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}  # a real server, not NiceGUI's test mode
    with open(log, "w") as fh:
        proc = subprocess.Popen([sys.executable, "-c", "from sim.cli import main; main()", "studio", "--host", host,
                                 "--port", str(port), "--out", str(where / "out"), *args], cwd=ROOT, env=env,
                                stdout=fh, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        # while the server starts (it plays nothing before a test presses Run): compiles the kernel into the disk
        # cache here, so the server only loads it
        reference([])
        for _ in range(240):
            if _status(url) is not None or proc.poll() is not None:
                break
            time.sleep(0.5)
        assert _status(url) is not None, f"studio did not start: {log.read_text()[-2000:]}"
        yield url, where / "out", log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("studio"), "--max-jobs", "2") as (url, out, _):
        yield url, out


@pytest.fixture(scope="module")
def studio(server):
    return server[0]


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, studio):
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    pg.set_default_timeout(30_000)
    pg.goto(studio)
    pg.wait_for_selector('[data-testid="run"]')
    yield pg
    pg.close()


def open_field(pg, path: str):
    """Open the expansions down to a field and return its input."""
    keys = path.split(".")
    for i in range(1, len(keys)):
        pg.locator(f'[data-testid="section-{".".join(keys[:i])}"] .q-item').first.click()
    return pg.locator(f'input[data-testid="field-{path}"]')


def message_of(field) -> str:
    """The error message Quasar shows under an input (role=alert, once its transition is over)."""
    alert = field.locator("xpath=ancestor::label[1]").locator("[role=alert]")
    alert.wait_for()
    return alert.inner_text().strip()


def run_and_wait(pg, label: str) -> None:
    pg.locator('[data-testid="run"]').click()
    wait_done(pg, label)


def wait_done(pg, label: str) -> None:
    """Until the run named ``label`` has finished (its status gives the speed)."""
    pg.wait_for_function(f"() => document.querySelector('[data-testid=status]')?.innerText.startsWith('{label}: ')"
                         f" && document.querySelector('[data-testid=status]').innerText.includes('runs/s')",
                         timeout=RUN_S)


def expect_message(field, text: str) -> None:
    """The message under an input reads ``text`` (waiting for the server to put it there)."""
    playwright_api.expect(field.locator("xpath=ancestor::label[1]").locator("[role=alert]")).to_have_text(text)


def value_of(pg, test_id: str) -> float:
    return float(pg.locator(f'[data-testid="{test_id}"]').get_attribute("data-value"))


def test_edit_a_difficulty_field_run_and_read_the_new_win_rate(page):
    before, after = reference([]), reference([f"{FIELD}=0.8"])
    page.locator('input[data-testid="n"]').fill(str(N))
    run_and_wait(page, "run 1")
    assert value_of(page, "metric-win_rate") == before["win_rate"]["value"]
    field = open_field(page, FIELD)
    field.fill("0.8")
    page.wait_for_function(f"() => document.querySelector('[data-testid=set-lines]').innerText.includes('{FIELD}=0.8')")
    run_and_wait(page, "run 2")
    win = page.locator('[data-testid="metric-win_rate"]')
    assert float(win.get_attribute("data-value")) == after["win_rate"]["value"]
    assert win.inner_text() == words.value_text("win_rate", after["win_rate"]["value"])  # "51.6 %", as on the pages
    assert win.inner_text().endswith(" %") and page.locator('[data-testid="name-win_rate"]').inner_text() == "wins"
    assert value_of(page, "previous-win_rate") == before["win_rate"]["value"]
    diff = after["win_rate"]["value"] - before["win_rate"]["value"]
    assert value_of(page, "diff-win_rate") == pytest.approx(diff, abs=1e-12) and diff > 0
    assert page.locator('[data-testid="diff-win_rate"]').inner_text() == words.value_text("win_rate", diff, diff=True)
    assert page.locator('[data-testid="diff-win_rate"]').inner_text().endswith(" pp")
    said = page.locator('[data-testid="verdict"]').inner_text()  # the answer first, in one sentence
    assert said.startswith(f"Vorschlag wins {words.value_text('win_rate', after['win_rate']['value'])} [")
    assert f": {words.value_text('win_rate', diff, diff=True)} [" in said and "against run 1 on the same seeds" in said
    assert "paired" in page.locator('[data-testid="headline"]').inner_text()
    # the game's charts, the previous run overlaid, every image loaded
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=results] img')].length >= 3 && "
                           "[...document.querySelectorAll('[data-testid=results] img')].every(i => i.complete)")
    widths = page.eval_on_selector_all('[data-testid="results"] img', "imgs => imgs.map(i => i.naturalWidth)")
    assert widths and all(w > 0 for w in widths)


def test_a_bad_field_value_shows_the_cli_message_and_the_server_keeps_answering(page, studio):
    cli = cli_here("play", "dungeon", "--policy", "vorschlag", "--n", "10", "--no-report", "--set", f"{FIELD}=-1")
    assert cli.returncode == 2
    field = open_field(page, FIELD)
    field.fill("-1")
    page.wait_for_function("() => document.querySelector('.q-field--error') !== null")
    assert message_of(field) == cli.stderr.strip()
    page.locator('[data-testid="run"]').click()
    page.wait_for_function("() => document.querySelector('[data-testid=status]').innerText.includes('fix the marked')")
    page.locator('input[data-testid="n"]').fill("0")
    page.locator('[data-testid="run"]').click()
    n_field = page.locator('input[data-testid="n"]')
    page.wait_for_function("() => document.querySelectorAll('.q-field--error').length >= 2")
    assert message_of(n_field) == "error: N runs must be a whole number from 1 to 1,000,000, got 0"
    assert _answers(studio)
    field.fill("1.05")  # fixed: the message goes away
    page.wait_for_function("() => document.querySelectorAll('.q-field--error').length == 1")
    assert "fix the marked" in page.locator('[data-testid="status"]').inner_text()  # N is still marked
    page.locator('input[data-testid="n"]').fill("1000")  # the last fix: the stale "fix the marked" line goes too
    page.wait_for_function("() => document.querySelectorAll('.q-field--error').length == 0 && "
                           "!document.querySelector('[data-testid=status]').innerText.includes('fix the marked')")


def test_a_long_run_never_blocks_the_page_and_can_be_stopped(page):
    page.locator('input[data-testid="n"]').fill("1000000")
    page.locator('[data-testid="run"]').click()
    status = page.locator('[data-testid="status"]')
    page.wait_for_function("() => / \\/ 1,000,000 runs/.test(document.querySelector('[data-testid=status]').innerText)"
                           " && !document.querySelector('[data-testid=status]').innerText.startsWith('run 1: 0 ')",
                           timeout=RUN_S)
    first = status.inner_text()
    page.locator('input[data-testid="field-filter"]').fill("boss_rerolls")  # the page answers while it plays
    page.wait_for_selector('input[data-testid="field-difficulty.schwer.boss_rerolls"]')
    page.wait_for_function(f"() => document.querySelector('[data-testid=status]').innerText !== {first!r}")
    page.locator('[data-testid="stop"]').click()
    page.wait_for_function("() => document.querySelector('[data-testid=status]').innerText === 'stopped'",
                           timeout=RUN_S)


def test_changing_the_game_stops_its_run_and_the_next_run_plays(page):
    """A Würfel Dungeon run went on after the game was switched to Kniffel: Stop was gone, Run did nothing, and its
    numbers came under Kniffel's form. The switch stops it and says so; the next Run plays Kniffel."""
    page.locator('input[data-testid="n"]').fill("1000000")
    page.locator('[data-testid="run"]').click()
    page.wait_for_function("() => / \\/ 1,000,000 runs/.test(document.querySelector('[data-testid=status]').innerText)",
                           timeout=RUN_S)
    page.locator('[data-testid="game"]').click()
    page.get_by_role("option", name="Kniffel", exact=True).click()
    status = page.locator('[data-testid="status"]')
    playwright_api.expect(status).to_have_text("the game changed: the running job of the game before was stopped")
    page.locator('input[data-testid="n"]').fill("200")
    run_and_wait(page, "run 2")
    playwright_api.expect(page.locator('[data-testid="headline"]')).to_contain_text("mean_score")  # Kniffel's


def test_report_pages_render_with_no_broken_image(browser, tmp_path):
    out = tmp_path / "report"
    done = cli_here("play", "dungeon", "--policy", "vorschlag", "--n", "400", "--out", str(out))
    assert done.returncode == 0, done.stderr
    pg = browser.new_page()
    try:
        pg.goto(Path(out / "report.html").resolve().as_uri())
        pg.wait_for_function("() => [...document.images].every(i => i.complete)", timeout=30_000)
        widths = pg.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)")
    finally:
        pg.close()
    assert len(widths) >= 3 and all(w > 0 for w in widths), widths


def choose(pg, test_id: str, option: str) -> None:
    """Pick an option of a searchable select by typing part of it and clicking it."""
    box = pg.locator(f'input[data-testid="{test_id}"]')
    box.click()
    box.fill(option)
    pg.get_by_role("option", name=option, exact=True).click()


def test_sweep_a_field_from_the_page(page):
    """Choosing a field prefills its range (±20 % of its value: Leicht's HP 1.05 gives 0.84 to 1.26); the sweep plays
    that range. The range is not typed over: a fill racing the prefill's own update of the same inputs can be lost in
    the browser (seen once in CI: the sweep ran the prefilled range), which would test the browser, not the studio."""
    page.get_by_role("tab", name="Sweep").click()
    choose(page, "sweep-field", FIELD)
    g = get_game("dungeon")
    value = float(g.load(None, []).difficulty.leicht.hp)
    lo, hi = f"{value * 0.8:.4g}", f"{value * 1.2:.4g}"
    playwright_api.expect(page.locator('input[data-testid="sweep-from"]')).to_have_value(lo)
    playwright_api.expect(page.locator('input[data-testid="sweep-to"]')).to_have_value(hi)
    page.locator('input[data-testid="sweep-steps"]').fill("3")
    page.locator('input[data-testid="sweep-n"]').fill("400")
    page.locator('[data-testid="sweep-run"]').click()
    page.wait_for_function("() => /^sweep done|^error/.test(document.querySelector('[data-testid=sweep-status]')"
                           ".innerText)", timeout=RUN_S)
    assert page.locator('[data-testid="sweep-status"]').inner_text().startswith("sweep done: 3 points")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=sweep-results] img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    values = page.locator('[data-testid="sweep-value"]').all_inner_texts()
    points = [float(lo), round((float(lo) + float(hi)) / 2, 6), float(hi)]
    for x in points:  # each point's number is that config played on the same seeds, in % (words)
        cfg = g.load(None, [f"{FIELD}={x:g}"])
        b = run_batch(g, cfg, ["vorschlag"], 400, SEED, OPTS, progress=False)
        m = g.metrics(b.table, OPTS, cfg)["win_rate"]
        assert words.value_text("win_rate", m["value"], m["ci95"]) in values, (x, values)
    assert "sweep done: 3 points, wins with 95 % intervals" in page.locator('[data-testid="sweep-status"]').inner_text()


def test_save_the_edited_config_and_the_results(page, server):
    from sim.core.config import config_hash

    out = server[1]
    open_field(page, FIELD).fill("0.9")
    page.locator('input[data-testid="n"]').fill("300")
    run_and_wait(page, "run 1")
    page.get_by_role("tab", name="Save").click()
    page.locator('input[data-testid="save-toml-path"]').fill("saved/edited.toml")  # relative to --out
    page.locator('[data-testid="save-toml"]').click()
    page.wait_for_function("() => document.querySelector('[data-testid=save-status]').innerText.startsWith('saved')")
    status = page.locator('[data-testid="save-status"]').inner_text()
    assert status.startswith("saved saved/edited.toml and edited.set.txt") and str(out) not in status
    saved = cli_here("describe", "dungeon", "--config", str(out / "saved" / "edited.toml"), "--json")
    assert saved.returncode == 0, saved.stderr
    g = get_game("dungeon")
    assert f'"config_hash": "{config_hash(g.load(None, [f"{FIELD}=0.9"]))}"' in saved.stdout
    assert (out / "saved" / "edited.set.txt").read_text() == f"{FIELD}=0.9\n"
    page.locator('input[data-testid="save-out-path"]').fill("saved/run")
    page.locator('[data-testid="save-out"]').click()
    page.wait_for_function("() => /^saved run|^error/.test(document.querySelector('[data-testid=save-status]')"
                           ".innerText)", timeout=RUN_S)
    assert page.locator('[data-testid="save-status"]').inner_text() == "saved run 1: saved/run/report.html"
    assert (out / "saved" / "run" / "report.html").is_file()
    assert (out / "saved" / "run" / "runs-vorschlag.parquet").is_file()
    with page.context.expect_page() as opened:  # the saved report opens from the studio, every image loaded
        page.locator('[data-testid="save-report"]').click()
    report = opened.value
    report.wait_for_function("() => document.images.length >= 3 && [...document.images].every(i => i.complete)")
    assert all(w > 0 for w in report.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)"))
    # only the saved run's folder is served: its neighbour, the config saved beside it, is not
    folder = report.url.rsplit("/", 1)[0]
    assert _status(f"{folder}/manifest.json") == 200
    assert _status(f"{folder}/../edited.toml") == 404 and _status(f"{folder}/%2e%2e/edited.toml") == 404
    report.close()
    rebuilt = cli_here("report", str(out / "saved" / "run"))  # the usual output folder: `dicesim report` rebuilds it
    assert rebuilt.returncode == 0, rebuilt.stderr


def files_in(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*")} if folder.exists() else set()


def test_a_save_outside_the_out_folder_is_refused_under_the_field(page, server, tmp_path):
    out = server[1]
    page.get_by_role("tab", name="Save").click()
    toml = page.locator('input[data-testid="save-toml-path"]')
    before = files_in(out.parent)
    for typed, says in [("../evil.toml", "error: '..' is not allowed: give the file as a path inside the output "
                                         "folder (--out)"),
                        (str(tmp_path / "evil.toml"), f"error: {str(tmp_path / 'evil.toml')!r} is outside the output "
                                                      "folder (--out): give the file as a path inside it")]:
        toml.fill(typed)
        page.locator('[data-testid="save-toml"]').click()
        expect_message(toml, says)
        assert page.locator('[data-testid="save-status"]').inner_text() == "not saved"
    assert files_in(out.parent) == before and not (tmp_path / "evil.toml").exists()  # nothing written anywhere
    # a folder where the --set lines go: refused naming it (Replace wrote the TOML, then failed naming the TOML)
    (out / "setdir.set.txt").mkdir(parents=True)
    toml.fill("setdir.toml")
    page.locator('[data-testid="save-toml"]').click()
    expect_message(toml, "error: setdir.set.txt (where the --set lines go) is a folder: type another name")
    assert not (out / "setdir.toml").exists()
    # over a file that exists: refused until the button, now "Replace", is pressed again
    toml.fill("again.toml")
    page.locator('[data-testid="save-toml"]').click()
    page.wait_for_function("() => document.querySelector('[data-testid=save-status]').innerText.startsWith('saved')")
    first = (out / "again.toml").read_text()
    open_field(page, FIELD).fill("0.7")
    page.get_by_role("tab", name="Save").click()
    page.locator('[data-testid="save-toml"]').click()
    expect_message(toml, "again.toml and again.set.txt exist already: press Replace to overwrite them, "
                         "or type another name")
    assert page.locator('[data-testid="save-toml"]').inner_text().strip().lower().endswith("replace")
    assert (out / "again.toml").read_text() == first
    page.locator('[data-testid="save-toml"]').click()
    page.wait_for_function("() => document.querySelector('[data-testid=save-status]').innerText"
                           ".startsWith('saved again.toml')")
    assert (out / "again.set.txt").read_text() == f"{FIELD}=0.7\n" and (out / "again.toml").read_text() != first
    # the results folder too
    page.locator('input[data-testid="n"]').fill("200")
    run_and_wait(page, "run 1")
    page.get_by_role("tab", name="Save").click()
    folder = page.locator('input[data-testid="save-out-path"]')
    folder.fill("../outside")
    page.locator('[data-testid="save-out"]').click()
    expect_message(folder, "error: '..' is not allowed: give the folder as a path inside the output folder (--out)")
    assert not (out.parent / "outside").exists() and not page.locator('[data-testid="save-report"]').count()


def run_status(pg) -> str:
    return pg.locator('[data-testid="status"]').inner_text()


def test_two_sessions_run_at_once(browser, studio):
    """Two browsers (separate contexts, so separate sessions): a long run in one does not hold up the other."""
    pages = []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        pg = ctx.new_page()
        pg.set_default_timeout(30_000)
        pg.goto(studio)
        pg.wait_for_selector('[data-testid="run"]')
        pages.append(pg)
    long, short = pages
    try:
        long.locator('input[data-testid="n"]').fill("200000")
        long.locator('[data-testid="run"]').click()
        long.wait_for_function("() => / \\/ 200,000 runs/.test(document.querySelector('[data-testid=status]')"
                               ".innerText)", timeout=RUN_S)
        short.locator('input[data-testid="n"]').fill(str(N))
        run_and_wait(short, "run 1")  # finishes while the other page still plays
        assert "/ 200,000 runs" in run_status(long), run_status(long)
        assert value_of(short, "metric-win_rate") == reference([])["win_rate"]["value"]
        wait_done(long, "run 1")  # and that one finishes too
        assert run_status(long).startswith("run 1: 200,000 runs in")
    finally:
        for pg in pages:
            pg.context.close()


TOKEN = "test-token-0123456789"


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """A studio on every address (0.0.0.0) with a token, and room for one job at a time."""
    with serving(tmp_path_factory.mktemp("shared"), "--token", TOKEN, "--max-jobs", "1", host="0.0.0.0") as got:
        yield got


def test_a_shared_studio_refuses_without_its_token_and_serves_with_it(browser, shared):
    url, _, log = shared
    said = log.read_text()
    assert f"/?token={TOKEN}" in said and "every visitor needs the token" in said
    assert _status(url) == 403 and _status(f"{url}?token=wrong-token-000") == 403
    assert _status(f"{url}studio-files/") == 403  # every route, not only the page
    ctx = browser.new_context()
    try:
        pg = ctx.new_page()
        answer = pg.goto(url)
        assert answer.status == 403
        assert "needs the studio's token" in pg.inner_text("h1") and not pg.locator('[data-testid="run"]').count()
        answer = pg.goto(f"{url}?token={TOKEN}")
        assert answer.status == 200
        pg.wait_for_selector('[data-testid="run"]')
        pg.goto(url)  # the token is remembered for this browser (a cookie), so the plain address works now
        pg.wait_for_selector('[data-testid="run"]')
        pg.locator('input[data-testid="n"]').fill("200")
        run_and_wait(pg, "run 1")  # its live connection passes the gate too
    finally:
        ctx.close()


def test_a_request_longer_than_an_upload_is_refused_by_the_server_unread(server):
    """The page's uploader refuses a log over the limit before sending it; a hand-made POST meets the server's."""
    import http.client

    from sim.studio.fitting import UPLOAD_MAX_MB

    port = int(server[0].rstrip("/").rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("POST", "/_nicegui/client/x/upload/1")
        conn.putheader("Content-Type", "multipart/form-data; boundary=b")
        conn.putheader("Content-Length", str((UPLOAD_MAX_MB + 2) * 2**20))
        conn.endheaders(b"--b\r\n")
        answer = conn.getresponse()
        assert answer.status == 413 and b"at most" in answer.read()
    finally:
        conn.close()

def test_a_job_over_the_cap_waits_and_says_so(browser, shared):
    url = shared[0]
    pages = []
    for _ in range(2):
        ctx = browser.new_context()
        pg = ctx.new_page()
        pg.set_default_timeout(30_000)
        pg.goto(f"{url}?token={TOKEN}")
        pg.wait_for_selector('[data-testid="run"]')
        pages.append(pg)
    first, second = pages
    try:
        first.locator('input[data-testid="n"]').fill("1000000")
        first.locator('[data-testid="run"]').click()
        first.wait_for_function("() => / \\/ 1,000,000 runs/.test(document.querySelector('[data-testid=status]')"
                                ".innerText)", timeout=RUN_S)
        second.locator('input[data-testid="n"]').fill("200")
        second.locator('[data-testid="run"]').click()
        second.wait_for_function("() => document.querySelector('[data-testid=status]').innerText.startsWith("
                                 "'run 1: waiting for a free slot')")
        assert run_status(second) == ("run 1: waiting for a free slot: this studio runs at most 1 job at once, "
                                      "1 running now")
        first.locator('[data-testid="stop"]').click()
        wait_done(second, "run 1")  # the slot freed: it runs
    finally:
        for pg in pages:
            pg.context.close()


def test_calibrate_a_field_from_the_page(page):
    from sim.experiments.calibrate import calibrate

    page.locator('input[data-testid="n"]').fill("300")
    run_and_wait(page, "run 1")  # the metric choices come from the last result
    page.get_by_role("tab", name="Calibrate").click()
    # the metric picker names each metric in words, the code beside it for typing
    playwright_api.expect(page.locator('input[data-testid="cal-metric"]')).to_have_value("wins (win_rate)")
    page.locator('input[data-testid="cal-metric"]').click()
    playwright_api.expect(page.get_by_role("option", name="rooms cleared (mean_rooms_cleared)")).to_be_visible()
    page.keyboard.press("Escape")
    choose(page, "cal-field", "difficulty.leicht.damage")
    page.locator('input[data-testid="cal-target"]').fill("60 %")  # a rate as the pages print it
    page.locator('input[data-testid="cal-n"]').fill("500")
    page.locator('[data-testid="cal-run"]').click()
    page.wait_for_function("() => / converge|^error/.test("
                           "document.querySelector('[data-testid=cal-status]').innerText)", timeout=RUN_S)
    answer = page.locator('[data-testid="cal-answer"]').inner_text()
    ref = calibrate(get_game("dungeon"), "difficulty.leicht.damage", "win_rate", 0.6, "vorschlag", n=500, seed=SEED,
                    options=OPTS)
    gives = words.metric_text("dungeon", "win_rate", ref.estimate["value"], ref.estimate["ci95"],
                              headline=get_game("dungeon").headline)
    assert answer == f"difficulty.leicht.damage = {ref.value:g}: {gives} (target 60.0 %)", answer
    page.get_by_text(f"use difficulty.leicht.damage = {ref.value:g}").click()
    page.wait_for_function("() => document.querySelector('[data-testid=set-lines]').innerText"
                           f".includes('difficulty.leicht.damage={ref.value!r}')")


def test_an_edit_the_options_do_not_reach_says_so_and_offers_the_switch(page):
    """Normal's HP edited while the run plays Leicht: the page says the edit is not read and switches on a click."""
    hint = page.locator('[data-testid="unused-hint"]')
    open_field(page, "difficulty.normal.hp").fill("0.8")
    playwright_api.expect(hint).to_contain_text("difficulty.normal.hp is not used by this run (difficulty: Leicht)")
    page.locator('[data-testid="switch-option"]').click()
    playwright_api.expect(hint).to_be_hidden()
    assert page.locator('[data-testid="option-difficulty"]').inner_text().strip().endswith("Normal")  # in words


def test_an_edit_only_another_policy_reads_offers_that_policy(page):
    """Dadox's Greedy bank edited while Threshold plays: the page says only Greedy reads it, and the switch picks
    Greedy in the policy picker."""
    page.locator('[data-testid="game"]').click()
    page.get_by_role("option", name="Dadox", exact=True).click()
    playwright_api.expect(page.locator('input[data-testid="policy"]')).to_have_value("Threshold")
    hint = page.locator('[data-testid="unused-hint"]')
    open_field(page, "policies.greedy_bank_at").fill("500")
    playwright_api.expect(hint).to_contain_text("policies.greedy_bank_at is read only by Greedy, and this run plays "
                                                "Threshold")
    page.locator('[data-testid="switch-option"]').click()
    playwright_api.expect(hint).to_be_hidden()
    playwright_api.expect(page.locator('input[data-testid="policy"]')).to_have_value("Greedy")


def test_kniffel_opens_on_a_policy_a_rule_edit_moves(page):
    page.locator('[data-testid="game"]').click()
    page.get_by_role("option", name="Kniffel", exact=True).click()  # games by their titles
    playwright_api.expect(page.locator('input[data-testid="policy"]')).to_have_value("Greedy")


def test_dadox_runs_from_the_page(page):
    """Dadox could not be run: the card offered ``objective`` (a solve's option, filled with 'turn') and every run
    read 'error: objective applies only to dicesim solve'. The card holds the run's options only, and the run shows."""
    page.locator('[data-testid="game"]').click()
    page.get_by_role("option", name="Dadox", exact=True).click()
    playwright_api.expect(page.locator('[data-testid="option-players"]')).to_be_visible()
    assert page.locator('[data-testid="option-objective"]').count() == 0
    page.locator('input[data-testid="n"]').fill("100")
    run_and_wait(page, "run 1")
    playwright_api.expect(page.locator('[data-testid="headline"]')).to_contain_text("the first seat wins")


def test_dungeon24_options_are_chosen_by_their_words(page):
    """The run card's options are pickers in the game's words (issue 31): Dungeon24's peoples read Grünlinge, its
    opponent Greedy; picking Untote plays ``untote`` (the run's heading names it in words too)."""
    page.locator('[data-testid="game"]').click()
    page.get_by_role("option", name="Dungeon24", exact=True).click()
    people = page.locator('[data-testid="option-people"]')
    playwright_api.expect(people).to_contain_text("Grünlinge")
    playwright_api.expect(page.locator('[data-testid="option-opponent"]')).to_contain_text("Greedy")
    people.click()
    page.get_by_role("option", name="Untote", exact=True).click()
    playwright_api.expect(people).to_contain_text("Untote")
    assert "gruenlinge" not in page.locator('[data-testid="option-opponent_people"]').inner_text()


def test_a_fitted_population_is_a_config_the_page_offers_and_plays(page, server, tmp_path):
    """``dicesim fit`` writes population.toml; in the studio's --out it is offered as a config file, named by where it
    lies there, and a run on it plays the fitted skill: the numbers of ``dicesim play --config`` on that file."""
    log, pop = tmp_path / "d.parquet", server[1] / "fits" / "mine" / "population.toml"
    played = cli_here("play", "kniffel", "--policy", "optimal", "--n", "60", "--games-per-player", "3", "--set",
                      "skill.level=0.5", "--log", str(log), "--no-report", "--out", str(tmp_path / "play"))
    assert played.returncode == 0, played.stderr
    fitted = cli_here("fit", "kniffel", str(log), "--out", str(pop.parent), "--json")
    assert fitted.returncode == 0 and pop.is_file(), fitted.stderr
    ref = cli_here("play", "kniffel", "--policy", "optimal", "--n", "300", "--seed", str(SEED), "--config", str(pop),
                   "--no-report", "--json", "--out", str(tmp_path / "ref"))
    assert ref.returncode == 0, ref.stderr
    want = json.loads(ref.stdout)["metrics"]["mean_score"]["value"]
    g = get_game("kniffel")
    full = g.metrics(run_batch(g, g.load(None, []), ["optimal"], 300, SEED, {}, progress=False).table, {},
                     g.load(None, []))["mean_score"]["value"]
    assert want < full  # the fitted level (about 0.5) loses points: the file is not the default rules
    page.locator('[data-testid="game"]').click()
    page.get_by_role("option", name="Kniffel", exact=True).click()  # the picker lists the game's files anew
    # the run card is rebuilt on the server: open the new picker, not the old one a fast click could still reach
    playwright_api.expect(page.locator('[data-testid="config"]')).to_contain_text("configs/kniffel/default.toml")
    page.locator('[data-testid="config"]').click()
    page.get_by_role("option", name="fits/mine/population.toml (in --out)", exact=True).click()
    choose(page, "policy", "Optimal")
    page.locator('input[data-testid="n"]').fill("300")
    run_and_wait(page, "run 1")
    assert value_of(page, "metric-mean_score") == want
    assert str(server[1]) not in page.locator('[data-testid="config"]').inner_text()  # never the server's path
    if os.environ.get("DICESIM_SHOT"):
        page.screenshot(path=os.environ["DICESIM_SHOT"], full_page=True)


def open_fit_tab(page, game: str = "Kniffel") -> None:
    """The game chosen (its run card rebuilt: wait for its default config) and the Fit tab open."""
    page.locator('[data-testid="game"]').click()
    page.get_by_role("option", name=game, exact=True).click()
    playwright_api.expect(page.locator('[data-testid="config"]')).to_contain_text(f"configs/{game.lower()}/default")
    page.get_by_role("tab", name="Fit").click()


def wait_fit(page) -> str:
    page.wait_for_function("() => /^fitted|^not fitted/.test(document.querySelector('[data-testid=fit-status]')"
                           ".innerText)", timeout=RUN_S)
    return page.locator('[data-testid="fit-status"]').inner_text()


def test_fit_a_log_in_the_page_and_play_its_population(page, server, tmp_path):
    """A Kniffel log under --out, fitted in the page: the level the CLI fits from the same log (same seed), its
    interval in the sentence, the fit's files under fits/<log name>/, charts that load; "Play this population" makes
    the next run play population.toml, as ``dicesim play --config`` does."""
    out = server[1]
    log = out / "logs" / "k.parquet"
    played = cli_here("play", "kniffel", "--policy", "optimal", "--n", "60", "--games-per-player", "3", "--set",
                      "skill.level=0.5", "--log", str(log), "--no-report", "--out", str(tmp_path / "play"))
    assert played.returncode == 0, played.stderr
    ref = cli_here("fit", "kniffel", str(log), "--out", str(tmp_path / "fit"), "--json", "--seed", str(SEED))
    assert ref.returncode == 0, ref.stderr
    want = json.loads(ref.stdout)
    open_fit_tab(page)
    choose(page, "fit-log", "logs/k.parquet")
    page.locator('[data-testid="fit-run"]').click()
    assert wait_fit(page) == "fitted: fits/k"
    said = page.locator('[data-testid="fit-verdict"]')
    assert float(said.get_attribute("data-value")) == want["level"]["value"]
    lo, hi = want["level"]["ci95"]
    assert f"{want['level']['value']:.2f} [{lo:.2f}, {hi:.2f}]" in said.inner_text(), said.inner_text()
    assert "Optimal" in said.inner_text() and str(out) not in page.locator('[data-testid="fit-results"]').inner_text()
    pop = out / "fits" / "k" / "population.toml"
    assert pop.is_file() and (out / "fits" / "k" / "fit.html").is_file()
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=fit-results] img')].length >= 2 && "
                           "[...document.querySelectorAll('[data-testid=fit-results] img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    page.locator('[data-testid="fit-play"]').click()
    playwright_api.expect(page.locator('[data-testid="config"]')).to_contain_text("fits/k/population.toml (in --out)")
    playwright_api.expect(page.locator('input[data-testid="policy"]')).to_have_value("Optimal")  # the fitted one
    page.locator('input[data-testid="n"]').fill("300")
    page.get_by_role("tab", name="Results").click()
    run_and_wait(page, "run 1")
    cli = cli_here("play", "kniffel", "--policy", "optimal", "--n", "300", "--seed", str(SEED), "--config", str(pop),
                   "--no-report", "--json", "--out", str(tmp_path / "ref"))
    assert cli.returncode == 0, cli.stderr
    assert value_of(page, "metric-mean_score") == json.loads(cli.stdout)["metrics"]["mean_score"]["value"]
    if os.environ.get("DICESIM_SHOT"):
        page.get_by_role("tab", name="Fit").click()
        page.wait_for_timeout(1000)  # the tabs' slide is over
        page.screenshot(path=os.environ["DICESIM_SHOT"], full_page=True)


def test_a_bad_log_in_the_fit_tab_is_refused_under_it_and_nothing_is_written(page, server, tmp_path):
    """A log that misses a column: the CLI's reason under the log picker, the server's folders not named, no
    fits folder."""
    out = server[1]
    good = tmp_path / "g.csv"
    played = cli_here("play", "kniffel", "--policy", "greedy", "--n", "4", "--log", str(good), "--no-report",
                      "--out", str(tmp_path / "play"))
    assert played.returncode == 0, played.stderr
    bad = out / "logs" / "broken.csv"
    bad.parent.mkdir(parents=True, exist_ok=True)
    import pandas as pd

    pd.read_csv(good).drop(columns=["d3"]).to_csv(bad, index=False)
    cli = cli_here("fit", "kniffel", str(bad), "--out", str(tmp_path / "fit"))
    assert cli.returncode == 2 and "missing column d3" in cli.stderr
    open_fit_tab(page)
    choose(page, "fit-log", "logs/broken.csv")
    page.locator('[data-testid="fit-run"]').click()
    assert wait_fit(page) == "not fitted"
    field = page.locator('input[data-testid="fit-log"]')
    msg = message_of(field)
    said = cli.stderr.strip().rstrip("…").replace(str(bad), "(--out)/logs/broken.csv")  # the CLI's line, cut at
    assert msg.startswith(said) and "missing column d3" in msg and str(out) not in msg, (msg, said)  # its width
    assert not (out / "fits" / "broken").exists()


def test_a_log_uploaded_to_the_fit_tab_lands_under_logs_and_fits(page, server, tmp_path):
    """An upload is kept under --out/logs/ by its name (a second file of that name is refused), offered in the
    picker and fitted."""
    out = server[1]
    src = tmp_path / "mine.parquet"
    played = cli_here("play", "kniffel", "--policy", "optimal", "--n", "30", "--games-per-player", "3", "--set",
                      "skill.level=0.7", "--log", str(src), "--no-report", "--out", str(tmp_path / "play"))
    assert played.returncode == 0, played.stderr
    open_fit_tab(page)
    upload = page.locator('[data-testid="fit-upload"] input[type=file]')
    upload.set_input_files(str(src))
    playwright_api.expect(page.locator('[data-testid="fit-status"]')).to_have_text("uploaded logs/mine.parquet")
    assert (out / "logs" / "mine.parquet").read_bytes() == src.read_bytes()
    playwright_api.expect(page.locator('input[data-testid="fit-log"]')).to_have_value("logs/mine.parquet")
    page.locator('[data-testid="fit-run"]').click()
    assert wait_fit(page) == "fitted: fits/mine"
    upload.set_input_files(str(src))  # the same name again: refused, the kept file untouched
    expect_message(page.locator('input[data-testid="fit-log"]'),
                   "error: logs/mine.parquet exists already: rename the file to upload it again")
    other = tmp_path / "dadox.csv"  # another game's log: kept, said so, not offered here
    played = cli_here("play", "dadox", "--policy", "optimal-turn", "--n", "4", "--log", str(other), "--no-report",
                      "--out", str(tmp_path / "play2"))
    assert played.returncode == 0, played.stderr
    upload.set_input_files(str(other))  # (the previous message fades out beside the new one: find the new by text)
    playwright_api.expect(page.get_by_role("alert").filter(has_text="error: logs/dadox.csv is not a Kniffel log "
                                                           "(docs/logs.md has its columns): it is kept, and listed "
                                                           "under its own game")).to_be_visible()
    page.locator('input[data-testid="fit-log"]').click()
    playwright_api.expect(page.get_by_role("option", name="logs/dadox.csv", exact=True)).to_have_count(0)
    playwright_api.expect(page.get_by_role("option", name="logs/mine.parquet", exact=True)).to_have_count(1)


def test_an_upload_that_is_no_log_is_refused_and_nothing_is_kept(page, server, tmp_path):
    """A binary file, an empty one, a Latin-1 CSV, garbage.parquet and a name with a right-to-left override were kept
    under logs/ ("it is kept, and listed under its own game"): each is refused in one line and leaves no file."""
    out = server[1]
    before = files_in(out / "logs")
    open_fit_tab(page)
    upload = page.locator('[data-testid="fit-upload"] input[type=file]')
    cases = [("binary.csv", bytes(range(256)), "error: binary.csv holds NUL bytes: a CSV log is text"),
             ("empty.csv", b"", "error: empty.csv is empty"),
             ("latin1.csv", "player,game,turn\np\xe9,0,1\n".encode("latin-1"), "error: latin1.csv is not UTF-8 text"),
             ("garbage.parquet", b"garbage", "error: garbage.parquet is not a readable parquet table"),
             ("ok\u202e.csv", b"player,game\n", "error: an uploaded log's name holds a control character (U+202E")]
    for name, content, says in cases:
        src = tmp_path / name
        src.write_bytes(content)
        upload.set_input_files(str(src))
        playwright_api.expect(page.get_by_role("alert").filter(has_text=says)).to_be_visible()
        playwright_api.expect(page.locator('[data-testid="fit-status"]')).to_have_text("not uploaded")
    assert files_in(out / "logs") == before
