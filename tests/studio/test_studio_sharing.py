"""What makes the studio safe to share, without a browser: the job cap and the pages' own queues, the
``--out`` confinement of saves, the token gate, the request size limit, and the command's checks of ``--token``/
``--max-jobs``."""

from __future__ import annotations

import asyncio
import errno
import os
import re
import stat
import threading
import time
from pathlib import Path

import pytest

from sim.core.config import DicesimError
from sim.studio import saving
from sim.studio.access import LoopbackOnly, TokenGate, check_token, is_loopback
from sim.studio.bodylimit import BodyLimit
from sim.studio.jobs import Job, RunManager
from sim.studio.saving import SaveError, inside, save_config, shown, write_atomic
from tests.conftest import run_cli

WAIT = 20.0  # s: every wait below is bounded


def until(cond, timeout: float = WAIT) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def blocker(gate: threading.Event, seen: list[str], name: str):
    def work(job: Job) -> str:
        seen.append(name)
        assert gate.wait(WAIT)
        return name
    return work


# --- the job cap and the pages' queues -------------------------------------------------------------


def test_two_pages_run_at_once_under_the_cap():
    m = RunManager(2)
    a, b = m.session(), m.session()
    gate, seen = threading.Event(), []
    ja = a.submit(Job("play"), blocker(gate, seen, "a"))
    jb = b.submit(Job("play"), blocker(gate, seen, "b"))
    until(lambda: ja.status == jb.status == "running")  # both hold a slot while neither has finished
    assert m.running == 2
    gate.set()
    until(lambda: ja.finished and jb.finished)
    assert (ja.result, jb.result) == ("a", "b") and m.running == 0
    m.shutdown()


def test_a_job_over_the_cap_waits_says_so_and_runs_when_a_slot_frees():
    m = RunManager(1)
    a, b = m.session(), m.session()
    gate, seen = threading.Event(), []
    ja = a.submit(Job("play"), blocker(gate, seen, "a"))
    until(lambda: ja.status == "running")
    jb = b.submit(Job("play"), lambda job: "b")
    until(lambda: jb.status == "waiting")
    assert m.waiting_text() == "waiting for a free slot: this studio runs at most 1 job at once, 1 running now"
    time.sleep(0.3)
    assert jb.status == "waiting" and seen == ["a"]
    gate.set()
    until(lambda: jb.finished)
    assert jb.status == "done" and jb.result == "b"
    m.shutdown()


def test_a_waiting_job_can_be_stopped():
    m = RunManager(1)
    gate = threading.Event()
    ja = m.session().submit(Job("play"), blocker(gate, [], "a"))
    until(lambda: ja.status == "running")
    jb = m.session().submit(Job("play"), lambda job: "b")
    until(lambda: jb.status == "waiting")
    jb.cancel.set()
    until(lambda: jb.finished)
    assert (jb.status, jb.error, jb.result) == ("cancelled", "stopped", None)
    gate.set()
    until(lambda: ja.finished)
    assert m.running == 0
    m.shutdown()


def test_one_page_runs_its_jobs_one_after_another():
    m = RunManager(4)
    s = m.session()
    gate, seen = threading.Event(), []
    first = s.submit(Job("play"), blocker(gate, seen, "first"))
    second = s.submit(Job("sweep"), blocker(gate, seen, "second"))
    until(lambda: first.status == "running")
    time.sleep(0.3)
    assert second.status == "queued" and seen == ["first"]  # behind its own page's job, not waiting for a slot
    gate.set()
    until(lambda: second.finished)
    assert seen == ["first", "second"]
    m.shutdown()


def test_a_failing_job_frees_its_slot_and_hides_the_servers_paths():
    m = RunManager(1)
    m.redact = lambda text: text.replace("/srv/secret", "(--out)")

    def bad(job: Job) -> None:
        raise DicesimError("cannot read /srv/secret/x.toml")

    j = m.session().submit(Job("play"), bad)
    until(lambda: j.finished)
    assert (j.status, j.error, m.running) == ("failed", "error: cannot read (--out)/x.toml", 0)
    boom = m.session().submit(Job("play"), lambda job: 1 / 0)
    until(lambda: boom.finished)
    assert boom.error == "error: ZeroDivisionError: division by zero" and m.running == 0
    m.shutdown()


def test_closing_a_page_stops_its_jobs():
    m = RunManager(1)
    s = m.session()
    stopped = threading.Event()

    def long(job: Job) -> None:
        assert job.cancel.wait(WAIT)
        stopped.set()

    j = s.submit(Job("play"), long)
    until(lambda: j.status == "running")
    s.close()
    assert stopped.wait(WAIT) and s not in m.sessions


# --- saves stay inside --out ----------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["../evil.toml", "a/../../evil.toml", "/etc/evil.toml", "..", "", "  ", ".",
                                   "~/x.toml", "~"])  # ~ read as home: a folder named "~" was made in --out
def test_a_path_out_of_the_folder_is_refused(tmp_path, typed):
    root = tmp_path / "out"
    with pytest.raises(DicesimError) as e:
        inside(root, typed, "file")
    assert "output folder (--out)" in str(e.value) and str(tmp_path) not in str(e.value)
    assert not root.exists() and not (tmp_path / "evil.toml").exists()


@pytest.mark.parametrize("typed, said", [("x\ty.toml", "U+0009"), ("a\u202eb.toml", "U+202E"),
                                         ("x\u200b.toml", "U+200B"), ("x.toml/", "names a folder")])
def test_a_save_name_with_a_hidden_character_or_a_folders_slash_is_refused(tmp_path, typed, said):
    """A save named 'x<TAB>y.toml', with a right-to-left override, or 'x.toml/' was written as typed (or as the file
    x.toml), where an upload of the same name is refused."""
    with pytest.raises(DicesimError, match=re.escape(said)):
        inside(tmp_path / "out", typed, "file")
    assert not (tmp_path / "out").exists()


def test_a_link_out_of_the_folder_is_refused(tmp_path):
    root = tmp_path / "out"
    root.mkdir()
    (root / "away").symlink_to(tmp_path)
    with pytest.raises(DicesimError, match="is outside the output folder"):
        inside(root, "away/evil.toml", "file")


def test_a_path_inside_is_the_file_there(tmp_path):
    root = tmp_path / "out"
    assert inside(root, "a/b.toml", "file") == (root / "a" / "b.toml").resolve()
    assert inside(root, str(root / "c.toml"), "file") == (root / "c.toml").resolve()  # absolute, but inside
    assert shown(root, root / "a" / "b.toml") == "a/b.toml"
    root.mkdir()
    (root / "f").write_text("x")
    with pytest.raises(DicesimError, match="^f is a file, not a folder$"):
        inside(root, "f/b.toml", "file")


def test_write_atomic_replaces_whole_and_leaves_no_temp(tmp_path):
    p = tmp_path / "d" / "x.toml"
    write_atomic(p, "one")
    write_atomic(p, "two")
    assert p.read_text() == "two" and sorted(x.name for x in p.parent.iterdir()) == ["x.toml"]


def test_a_config_save_is_both_files_or_neither_and_names_the_one_that_failed(tmp_path):
    """With ``setdir.set.txt`` a folder, Replace wrote ``setdir.toml``, failed on the --set lines and said "cannot
    write setdir.toml: Is a directory": half the save on disk, the wrong file named."""
    from sim.studio import engine

    cfg = engine.load("kniffel", None, [])
    (tmp_path / "setdir.toml").write_text("old")
    (tmp_path / "setdir.set.txt").mkdir()
    with pytest.raises(SaveError) as e:
        save_config(tmp_path / "setdir.toml", cfg, None, [])
    assert e.value.path == tmp_path / "setdir.set.txt" and e.value.why == "a folder of that name is in the way"
    assert str(e.value).startswith(f"cannot write {tmp_path / 'setdir.set.txt'}: ")
    assert (tmp_path / "setdir.toml").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["setdir.set.txt", "setdir.toml"]


@pytest.mark.parametrize("existed", [True, False])
def test_a_save_failing_on_its_second_rename_puts_the_first_back(tmp_path, monkeypatch, existed):
    a, b = tmp_path / "a.toml", tmp_path / "a.set.txt"
    if existed:
        a.write_text("old a")
        b.write_text("old b")
    real = os.replace

    def failing(src, dst):
        if Path(dst) == b:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(saving.os, "replace", failing)
    with pytest.raises(SaveError, match=r"a\.set\.txt: no space left on device$") as e:
        saving.write_all({a: "new a", b: "new b"})
    assert e.value.path == b
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == (["a.set.txt", "a.toml"] if existed else [])
    if existed:
        assert a.read_text() == "old a" and b.read_text() == "old b"


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o027])
def test_saved_configs_get_the_mode_the_umask_gives_any_file(tmp_path, mask):
    """The saved .toml and .set.txt were 0600 (made by mkstemp) where every other output is 0644."""
    old = os.umask(mask)
    try:
        saving.write_all({tmp_path / "m.toml": "x", tmp_path / "m.set.txt": ""})
        (tmp_path / "plain").write_text("")
    finally:
        os.umask(old)
    want = 0o666 & ~mask
    assert stat.S_IMODE((tmp_path / "plain").stat().st_mode) == want
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.glob("m.*")} == {"m.toml": want,
                                                                                     "m.set.txt": want}


# --- the token gate ---------------------------------------------------------------------------------


def call(gate: TokenGate, kind: str = "http", query: str = "", headers: list[tuple[bytes, bytes]] = ()):
    """One request through the gate: (status or 'closed'/'app', headers sent)."""
    sent: list[dict] = []

    async def app(scope, receive, send):
        if scope["type"] == "websocket":
            await send({"type": "websocket.accept"})
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"the app"})

    async def receive():
        return {"type": "websocket.connect"} if kind == "websocket" else {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    gate.app = app
    scope = {"type": kind, "path": "/", "query_string": query.encode(), "headers": list(headers)}
    asyncio.run(gate(scope, receive, send))
    return sent


def test_the_gate_refuses_without_the_token_and_serves_with_it():
    gate = TokenGate(None, token="s3cret-token")
    refused = call(gate)
    assert refused[0]["status"] == 403 and b"needs the studio's token" in refused[1]["body"]
    assert b"the app" not in refused[1]["body"]
    assert call(gate, query="token=wrong-token")[0]["status"] == 403
    ok = call(gate, query="token=s3cret-token")
    assert ok[0]["status"] == 200 and ok[1]["body"] == b"the app"
    cookie = dict(ok[0]["headers"])[b"set-cookie"].split(b";")[0]
    assert b"s3cret-token" not in cookie  # the cookie holds a digest, not the token
    assert call(gate, headers=[(b"cookie", cookie)])[0]["status"] == 200
    assert call(gate, headers=[(b"cookie", b"dicesim-studio=forged")])[0]["status"] == 403
    assert call(gate, headers=[(b"authorization", b"token s3cret-token")])[0]["status"] == 200
    assert call(gate, kind="websocket") == [{"type": "websocket.close", "code": 1008}]
    assert call(gate, kind="websocket", headers=[(b"cookie", cookie)]) == [{"type": "websocket.accept"}]


def test_on_loopback_only_loopback_names_and_pages_get_in():
    """A studio on loopback answered a request for ``Host: evil.example`` (DNS rebinding: a page elsewhere could run
    jobs and write into --out) and a socket from a foreign ``Origin``. Now 403 / a closed socket; the studio's own
    pages, by any loopback name, pass."""
    gate = LoopbackOnly(None)
    for host in (b"127.0.0.1:8765", b"localhost:8765", b"[::1]:8765", b"127.0.0.2"):
        assert call(gate, headers=[(b"host", host)])[0]["status"] == 200, host
    ok = [(b"host", b"127.0.0.1:8765"), (b"origin", b"http://127.0.0.1:8765")]
    assert call(gate, kind="websocket", headers=ok) == [{"type": "websocket.accept"}]
    refused = call(gate, headers=[(b"host", b"evil.example:8765")])
    assert refused[0]["status"] == 403 and b"evil.example" in refused[1]["body"]
    assert b"the app" not in refused[1]["body"]
    assert call(gate, headers=[(b"host", b"127.0.0.1.nip.io:8765")])[0]["status"] == 403  # a name, never resolved
    assert call(gate, headers=[])[0]["status"] == 403  # no Host at all
    foreign = [(b"host", b"127.0.0.1:8765"), (b"origin", b"http://evil.example")]
    assert call(gate, headers=foreign)[0]["status"] == 403
    assert call(gate, kind="websocket", headers=foreign) == [{"type": "websocket.close", "code": 1008}]


@pytest.mark.parametrize("origin", [b"null", b"NULL", b"file://", b"http://127.0.0.1:1@evil.com",
                                    b"http://evil.example#127.0.0.1", b"127.0.0.1:8765", b"javascript://127.0.0.1"])
def test_on_loopback_a_null_or_malformed_origin_is_refused(origin):
    """``Origin: null`` (a sandboxed iframe, a data: page) got 200: any page could post to the studio through one."""
    gate = LoopbackOnly(None)
    headers = [(b"host", b"127.0.0.1:8765"), (b"origin", origin)]
    refused = call(gate, headers=headers)
    assert refused[0]["status"] == 403 and b"the origin" in refused[1]["body"], origin
    assert call(gate, kind="websocket", headers=headers) == [{"type": "websocket.close", "code": 1008}]
    for ok in (b"http://127.0.0.1:8765", b"http://localhost:8765", b"http://[::1]:8765", b"https://127.0.0.1"):
        assert call(gate, headers=[(b"host", b"127.0.0.1:8765"), (b"origin", ok)])[0]["status"] == 200, ok


@pytest.mark.parametrize("host", [b"127.0.0.1:1@evil.com", b"127.0.0.1:8765 evil.com", b"127.0.0.1:", b"::1",
                                  b"[::1]evil.com", b"[::1]:x", b"127.0.0.1:99999", b"user@127.0.0.1",
                                  b"127.0.0.1:8765/evil", b"localhost:80:80"])
def test_on_loopback_a_malformed_host_is_refused(host):
    """``Host: 127.0.0.1:1@evil.com`` passed: the port was split off with rsplit(':'). The Host is parsed strictly."""
    refused = call(LoopbackOnly(None), headers=[(b"host", host)])
    assert refused[0]["status"] == 403 and b"the host" in refused[1]["body"], host


def test_loopback_and_tokens():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("::")
    assert check_token("abc") == "--token must be at least 8 characters, got 3"
    assert check_token("has space!") == "--token may hold only letters, digits and . _ ~ -"
    assert check_token("A-good_token.1~") is None


# --- the request size limit -------------------------------------------------------------------------


def limited(chunks: list[bytes], length: int | None, most: int = 100):
    """One POST through ``BodyLimit`` whose app reads the whole body: (messages sent, bytes the app read, chunks
    taken from the client)."""
    sent: list[dict] = []
    read = bytearray()
    taken = 0

    async def app(scope, receive, send):
        while True:
            message = await receive()
            read.extend(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"kept"})

    async def receive():
        nonlocal taken
        taken += 1
        return {"type": "http.request", "body": chunks[taken - 1], "more_body": taken < len(chunks)}

    async def send(message):
        sent.append(message)

    headers = [] if length is None else [(b"content-length", str(length).encode())]
    scope = {"type": "http", "method": "POST", "path": "/upload", "headers": headers}
    asyncio.run(BodyLimit(app, most=most)(scope, receive, send))
    return sent, bytes(read), taken


def test_a_body_within_the_limit_reaches_the_app_whole():
    sent, read, _ = limited([b"a" * 60, b"b" * 40], length=100)
    assert sent[0]["status"] == 200 and read == b"a" * 60 + b"b" * 40


def test_a_longer_announced_body_is_refused_unread():
    sent, read, taken = limited([b"a" * 60, b"b" * 41], length=101)
    assert sent[0]["status"] == 413 and b"at most" in sent[1]["body"]
    assert taken == 0 and read == b""


@pytest.mark.parametrize("length", [None, 50])  # chunked (nothing announced), or more than announced
def test_a_body_that_sends_more_than_the_limit_is_cut_off_and_refused(length):
    sent, _, taken = limited([b"a" * 60, b"b" * 60, b"c" * 60], length=length)
    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [413]
    assert taken == 2  # the third chunk is never read



def test_a_client_gone_mid_body_ends_the_request_quietly():
    """A client that disconnects mid-upload printed a hundred-line 'Exception in ASGI application' in the log."""
    from starlette.requests import ClientDisconnect

    sent: list[dict] = []

    async def app(scope, receive, send):
        await receive()
        raise ClientDisconnect

    async def receive():
        return {"type": "http.request", "body": b"x" * 10, "more_body": True}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/upload", "headers": []}
    asyncio.run(BodyLimit(app, most=100)(scope, receive, send))
    assert sent == []

@pytest.mark.parametrize("args, message", [
    (["--token", "short"], "error: --token must be at least 8 characters, got 5"),
    (["--token", "bad token"], "error: --token may hold only letters, digits and . _ ~ -"),
    (["--max-jobs", "0"], "error: --max-jobs must be 1..1024, got 0"),
    # an address of another machine (TEST-NET-1): it advised another --port
    (["--host", "192.0.2.1"], "error: cannot listen on 192.0.2.1:1 (Cannot assign requested address); --host names "
                              "no address of this machine: give one of its own (127.0.0.1, 0.0.0.0)"),
])
def test_bad_sharing_options_are_one_line(args, message):
    out = run_cli("studio", "--port", "1", *args, timeout=60)
    assert out.returncode == 2 and out.stderr.strip() == message


def test_an_out_that_is_a_file_is_refused(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    out = run_cli("studio", "--out", str(f), timeout=60)
    assert out.returncode == 2 and out.stderr.strip() == f"error: --out {f} is a file, not a folder"


def test_an_upload_without_a_file_is_a_400_not_a_traceback():
    """``curl -F a=b`` to the page's upload route: NiceGUI read the plain field as a file and raised
    (``'str' object has no attribute 'read'``), a 500 with a traceback in the studio's log. ``UploadGuard`` answers
    400 in one line there, and leaves every other route's errors and the route's own answers alone."""
    from sim.studio.uploadguard import UploadGuard

    def call(path: str, fail: bool):
        sent: list[dict] = []

        async def app(scope, receive, send):
            if fail:
                raise AttributeError("'str' object has no attribute 'read'")
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b'{"upload":"success"}'})

        async def receive():
            return {"type": "http.request", "body": b"a=b", "more_body": False}

        async def send(message):
            sent.append(message)

        asyncio.run(UploadGuard(app)({"type": "http", "method": "POST", "path": path, "headers": []}, receive, send))
        return sent

    upload = "/_nicegui/client/26ad7244-8d68-4ce4-b1d1-956d270924a9/upload/112"
    refused = call(upload, fail=True)
    assert refused[0]["status"] == 400 and refused[1]["body"].startswith(b"an upload carries one file")
    assert call(upload, fail=False)[0]["status"] == 200
    with pytest.raises(AttributeError):  # elsewhere an error is the server's to report, not hidden as a 400
        call("/_nicegui/client/x/other", fail=True)
