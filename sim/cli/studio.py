"""The ``studio`` command (registered on ``sim.cli.app``): the balance studio in the browser.

    dicesim studio [--host 127.0.0.1] [--port 8765] [--out reports/studio]

The web library is imported only when the command runs, so other commands stay fast.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import typer

from sim.cli.common import app
from sim.core.config import DicesimError
from sim.jit.progress import say


def _check_free(host: str, port: int) -> None:
    """Fail with one line (not a server traceback) when the address cannot be bound."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        raise DicesimError(f"--host {host!r} cannot be resolved: {e}") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            raise DicesimError(f"cannot listen on {host}:{port} ({e.strerror}); pass another --port") from None


@app.command()
def studio(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (loopback unless told otherwise)"),
    port: int = typer.Option(8765, "--port", help="port to listen on"),
    out: Path = typer.Option(Path("reports/studio"), "--out", help="default folder for saved configs and results"),
) -> None:
    """A live balance studio in the browser: edit config fields, run, compare with the previous run."""
    if not 0 < port < 65536:
        raise DicesimError(f"--port must be 1..65535, got {port}")
    _check_free(host, port)
    from sim.jit import tier
    from sim.studio.app import serve

    if tier.compile_full_in_background() is not None:  # a long session: the optimised kernels for the next one
        say("compiling the Würfel Dungeon's optimised kernels in the background (low priority, once); "
            "this session plays it on its quick kernels (same numbers)")
    print(f"dicesim studio: http://{host}:{port}  (Ctrl+C stops it)", file=sys.stderr, flush=True)
    serve(host, port, out)
