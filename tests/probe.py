"""The command line in a fresh interpreter, for the tests of what a command imports (issue 30: a refusal or a kept
answer imports no numba, pandas or game), at the cost of a fork instead of an interpreter start.

``python -c PROBE ARGS`` is the reference: an audit hook notes every module an import statement loads, then
``sim.cli.main`` runs with ``ARGS``, and the exit code and every module seen or still held go to ``$PROBE_OUT``. A
fresh interpreter costs ~0.25 s of CPU before ``main`` starts; a hundred refusals paid half a minute of the suite
for it. :func:`probe` gets the same state from a fork: one server process per test worker starts exactly as the
reference does up to ``main`` (the audit hook, then ``from sim.cli import main``, nothing else) and forks a child
for each call, which sets its environment, folder, argv and standard streams as a new process would have them,
runs ``main`` and writes the same JSON. A call whose environment differs from the server's start (a module may read
it at import) runs the reference itself.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from tests.conftest import ROOT

_START = """import json, os, sys
seen = set()
sys.addaudithook(lambda event, args: seen.add(args[0]) if event == "import" else None)
from sim.cli import main
"""
_RUN = """code = 0
try:
    main()
except SystemExit as e:
    code = e.code
with open(os.environ["PROBE_OUT"], "w") as f:
    json.dump({"code": code, "modules": sorted(seen | set(sys.modules))}, f)
"""
PROBE = _START + 'sys.argv = ["dicesim", *sys.argv[1:]]\n' + _RUN

# The server: PROBE's start, then one request a line on stdin (JSON: args, cwd, env, out, stdout, stderr), a forked
# child per request that runs the rest of PROBE, and the child's exit status a line on stdout.
SERVER = _START + """for line in sys.stdin:
    ask = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.environ.clear()
        os.environ.update(ask["env"])
        os.chdir(ask["cwd"])
        for fd, path, mode in ((0, os.devnull, os.O_RDONLY), (1, ask["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                               (2, ask["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            os.dup2(os.open(path, mode), fd)
        sys.argv = ["dicesim", *ask["args"]]
        status = 0
        try:
""" + textwrap.indent(_RUN, " " * 12) + """        except BaseException:
            import traceback
            traceback.print_exc()
            status = 1
        try:
            import atexit
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""

_lock = threading.Lock()
_server: dict[str, object] = {}


def _same(env: dict[str, str]) -> dict[str, str]:
    """``env`` as the server compares it: pytest names the test running in it, which no import reads."""
    return {k: v for k, v in env.items() if k != "PYTEST_CURRENT_TEST"}


def _started(env: dict[str, str]) -> subprocess.Popen | None:
    """This worker's server, started with ``env`` on the first call; None where fork is missing, ``env`` is not
    the one it started with, or it has died."""
    if not hasattr(os, "fork"):
        return None
    if not _server:
        proc = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        _server.update(proc=proc, env=_same(env))
        atexit.register(proc.kill)
    proc = _server["proc"]
    return proc if _server["env"] == _same(env) and proc.poll() is None else None  # type: ignore[union-attr]


def probe(tmp_path: Path, *args: str, env: dict[str, str] | None = None,
          cwd: Path = ROOT) -> tuple[dict, subprocess.CompletedProcess]:
    """``dicesim ARGS`` as ``python -c PROBE ARGS`` runs it: its JSON (``code``, ``modules``) and the process's
    exit code, stdout and stderr."""
    e = dict(os.environ if env is None else env)
    e.pop("PROBE_OUT", None)
    out = tmp_path / "probe.json"
    out.unlink(missing_ok=True)
    with _lock:
        proc = _started(e)
        if proc is None:
            r = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=cwd, env={**e, "PROBE_OUT": str(out)},
                               capture_output=True, text=True, timeout=600)
        else:
            streams = tmp_path / "probe.stdout", tmp_path / "probe.stderr"
            for s in streams:
                s.unlink(missing_ok=True)
            ask = {"args": list(args), "cwd": str(cwd), "env": {**e, "PROBE_OUT": str(out)}, "out": str(out),
                   "stdout": str(streams[0]), "stderr": str(streams[1])}
            proc.stdin.write(json.dumps(ask) + "\n")
            proc.stdin.flush()
            watchdog = threading.Timer(600, proc.kill)  # a child that never ends: the call fails, not the suite
            watchdog.start()
            try:
                said = proc.stdout.readline()
            finally:
                watchdog.cancel()
            assert said.strip(), f"the probe server died on {args}"
            code = int(said)
            r = subprocess.CompletedProcess(["dicesim", *args], code, *(s.read_text() for s in streams))
    got = json.loads(out.read_text()) if out.is_file() else {}
    return got, r
