"""``dicesim studio`` refuses an address it cannot use with one line, before starting the web server."""

from __future__ import annotations

import socket

from tests.conftest import run_cli


def test_a_busy_port_is_one_error_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = run_cli("studio", "--port", str(port), timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1].startswith(f"error: cannot listen on 127.0.0.1:{port}")
    assert "Traceback" not in out.stderr


def test_a_port_out_of_range_is_refused():
    out = run_cli("studio", "--port", "70000", timeout=60)
    assert out.returncode == 2 and out.stderr.strip() == "error: --port must be 1..65535, got 70000"


def test_help_names_the_defaults():
    out = run_cli("studio", "--help", timeout=60)
    assert out.returncode == 0 and "127.0.0.1" in out.stdout and "8765" in out.stdout
