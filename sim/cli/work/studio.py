"""The work of ``studio`` (its arguments: ``sim.cli.studio``): check the token and the address, then serve."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

from sim.core.config import DicesimError
from sim.jit import tier
from sim.jit.progress import say
from sim.studio.access import check_token, is_loopback, new_token
from sim.studio.app import serve


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


def studio(host: str, port: int, out: Path, token: str | None, max_jobs: int | None) -> None:
    if token is not None and (why := check_token(token)):
        raise DicesimError(why)
    _check_free(host, port)
    local = is_loopback(host)
    if not local and token is None:
        token = new_token()
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
