"""The ``studio`` command (registered on ``sim.cli.app``): the balance studio in the browser.

    dicesim studio [--host 127.0.0.1] [--port 8765] [--out reports/studio] [--token T] [--max-jobs K]

On loopback (the default) nobody else can reach it and no token is asked; on any other address every
request must carry a token, printed once at start in the address to open (as Jupyter does). The web
library is imported only when the command runs, so other commands stay fast.
"""

from __future__ import annotations

import os
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


MAX_JOBS = 1024


@app.command()
def studio(
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on (loopback unless told otherwise; "
                             "any other address asks every visitor for the token)"),
    port: int = typer.Option(8765, "--port", help="port to listen on"),
    out: Path = typer.Option(Path("reports/studio"), "--out", help="the only folder the page saves configs and "
                             "results in (paths on the page are relative to it)"),
    token: str | None = typer.Option(None, "--token", help="the token a visitor must bring (default off loopback: "
                                     "a new random one, printed at start; given on loopback, it is asked there too)"),
    max_jobs: int | None = typer.Option(None, "--max-jobs", help="jobs the server runs at once over every page "
                                        "(default: one per core); more wait, and say so"),
) -> None:
    """A live balance studio in the browser: edit config fields, run, compare with the previous run."""
    from sim.studio.access import check_token, is_loopback, new_token

    if not 0 < port < 65536:
        raise DicesimError(f"--port must be 1..65535, got {port}")
    if max_jobs is not None and not 1 <= max_jobs <= MAX_JOBS:
        raise DicesimError(f"--max-jobs must be 1..{MAX_JOBS}, got {max_jobs}")
    if token is not None and (why := check_token(token)):
        raise DicesimError(why)
    if out.exists() and not out.is_dir():
        raise DicesimError(f"--out {out} is a file, not a folder")
    _check_free(host, port)
    local = is_loopback(host)
    if not local and token is None:
        token = new_token()
    from sim.jit import tier
    from sim.studio.app import serve

    if tier.compile_full_in_background() is not None:  # a long session: the optimised kernels for the next one
        say("compiling the Würfel Dungeon's optimised kernels in the background (low priority, once); "
            "this session plays it on its quick kernels (same numbers)")
    jobs = max_jobs or os.cpu_count() or 1
    cap = f"at most {jobs} job{'s' if jobs != 1 else ''} at once"
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    if token is None:
        print(f"dicesim studio: http://{shown}:{port}  (loopback only; saves under {out}; {cap}; Ctrl+C stops it)",
              file=sys.stderr, flush=True)
    else:
        where = "this machine only" if local else f"{host}, reachable beyond this machine"
        print(f"dicesim studio: listening on {where}; every visitor needs the token, which is in this address:\n"
              f"    http://{shown}:{port}/?token={token}\n"
              f"  saves under {out}; {cap}; Ctrl+C stops it", file=sys.stderr, flush=True)
    serve(host, port, out, token=token, max_jobs=jobs)
