"""The ``studio`` command (registered on ``sim.cli.app``): the balance studio in the browser.

    dicesim studio [--host 127.0.0.1] [--port 8765] [--out reports/studio] [--token T] [--max-jobs K]

On loopback (the default) nobody else can reach it and no token is asked; on any other address every
request must carry a token, printed once at start in the address to open (as Jupyter does). The web
library is imported only when the command runs (``sim.cli.work.studio``), so other commands stay fast.
"""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.common import app, check_out, work
from sim.core import atomic
from sim.core.errors import DicesimError
from sim.studio.access import check_address, check_token

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
    if not 0 < port < 65536:
        raise DicesimError(f"--port must be 1..65535, got {port}")
    if max_jobs is not None and not 1 <= max_jobs <= MAX_JOBS:
        raise DicesimError(f"--max-jobs must be 1..{MAX_JOBS}, got {max_jobs}")
    check_out(out)
    atomic.not_shipped(out, "--out", "studio's saves")  # the page would save configs among the shipped ones
    if token is not None and (why := check_token(token)):
        raise DicesimError(why)
    check_address(host, port)  # light: the web library is imported only after this
    work("studio").studio(host, port, out, token, max_jobs)
