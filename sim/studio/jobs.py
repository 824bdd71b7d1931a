"""Background work: each browser page has its own queue, and the server runs at most ``max_jobs`` at once.

The page only submits work and polls a ``Job`` (status, progress, message, result), so a long batch
never blocks it. A page's jobs run one after another on that page's own thread (a run, then the sweep
pressed meanwhile), so one person's million-run job never holds up another's; across the server at
most ``max_jobs`` run at a time (``dicesim studio --max-jobs``, default one per core) and a job over
that waits in state ``waiting``, which the page shows. Most kernels hold the interpreter lock while
they play, so jobs running together take turns call by call (each call uses every core); the Würfel
Dungeon's releases it and plays beside the others, each call on a profile cache of its own
(``inputs.borrowed``). Every run draws from its own seed streams, so the numbers never depend on what else runs. A
user error becomes the job's one-line ``error:`` message; any other exception is reported the same
way (with its type) and logged, so nothing a job does can take the server down.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sim.core.config import DicesimError
from sim.studio.engine import Cancelled

log = logging.getLogger("dicesim.studio")
WAIT_S = 0.2  # how often a waiting job looks at its Stop button


@dataclass
class Job:
    """One unit of background work and what the page shows of it."""

    kind: str  # play | sweep | calibrate | save
    total: float = 1.0  # progress units (runs, chunk files, …)
    done: float = 0.0
    status: str = "queued"  # queued | waiting | running | done | failed | cancelled
    error: str = ""
    result: Any = None
    partial: Any = None  # what the page may show before the job ends (a play's numbers while its charts draw)
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)
    probe: Callable[[], float] | None = None  # reads progress from outside (e.g. files written)

    @property
    def progress(self) -> float:
        done = self.probe() if self.probe is not None and self.status == "running" else self.done
        if self.status == "done":
            return 1.0
        return max(0.0, min(1.0, done / self.total)) if self.total > 0 else 0.0

    @property
    def finished(self) -> bool:
        return self.status in ("done", "failed", "cancelled")

    def advance(self, units: float) -> None:
        self.done += units


class RunManager:
    """The server's job slots (at most ``max_jobs`` running at once) and the pages' queues."""

    def __init__(self, max_jobs: int | None = None) -> None:
        self.max_jobs = max_jobs or os.cpu_count() or 1
        self.running = 0
        self.slots = threading.Condition()
        self.sessions: set[Session] = set()
        self.redact: Callable[[str], str] = lambda s: s  # hides the server's paths in messages

    def session(self) -> Session:
        """A new page's own queue."""
        s = Session(self)
        self.sessions.add(s)
        return s

    def waiting_text(self) -> str:
        return (f"waiting for a free slot: this studio runs at most {self.max_jobs} job"
                f"{'s' if self.max_jobs != 1 else ''} at once, {self.running} running now")

    def _take_slot(self, job: Job) -> bool:
        with self.slots:
            while self.running >= self.max_jobs:
                job.status = "waiting"
                if job.cancel.is_set():
                    return False
                self.slots.wait(WAIT_S)
            self.running += 1
            return True

    def _free_slot(self) -> None:
        with self.slots:
            self.running -= 1
            self.slots.notify()

    def run(self, job: Job, work: Callable[[Job], Any]) -> None:
        """Run ``work(job)`` in a free slot (waiting for one); its return value becomes ``job.result``."""
        if job.cancel.is_set() or not self._take_slot(job):
            job.status, job.error = "cancelled", "stopped"
            return
        job.status = "running"
        job.started = time.monotonic()
        try:
            job.result = work(job)
            job.status = "done"
        except Cancelled:
            job.status = "cancelled"
            job.error = "stopped"
        except DicesimError as e:
            job.status = "failed"
            job.error = self.redact(f"error: {e}")
        except Exception as e:  # noqa: BLE001 - a failed job must never take the server down
            log.exception("studio job %s failed", job.kind)
            job.status = "failed"
            job.error = self.redact(f"error: {type(e).__name__}: {e}")
        finally:
            self._free_slot()

    def shutdown(self) -> None:
        for s in list(self.sessions):
            s.close()


class Session:
    """One page's queue: its jobs run one after another on its own thread, each in a server slot."""

    def __init__(self, manager: RunManager) -> None:
        self.manager = manager
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dicesim-studio-page")
        self.jobs: list[Job] = []

    def submit(self, job: Job, work: Callable[[Job], Any]) -> Job:
        """Queue ``work(job)`` behind this page's earlier jobs."""
        self.jobs = [j for j in self.jobs if not j.finished] + [job]
        self.pool.submit(self.manager.run, job, work)
        return job

    def close(self) -> None:
        """The page is gone: stop its jobs and its thread."""
        for j in self.jobs:
            j.cancel.set()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.manager.sessions.discard(self)


MANAGER = RunManager()
