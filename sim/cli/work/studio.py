"""The work of ``studio`` (its arguments, the token and the address are checked by ``sim.cli.studio``): serve."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

from sim.jit import tier
from sim.jit.progress import say
from sim.studio.access import is_loopback, new_token
from sim.studio.app import serve


def studio(host: str, port: int, out: Path, token: str | None, max_jobs: int | None) -> None:
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
