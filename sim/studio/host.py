"""What a studio panel may use of the page that holds it (``sim.studio.app.Studio`` provides it).

The sweep and calibrate panels live in their own modules and are built by the page; they see the page
through this protocol, so that neither imports the other (no import cycle between the page and its panels).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from nicegui import ui

from sim.studio.form_view import ConfigForm
from sim.studio.jobs import Session


class StudioHost(Protocol):
    """The page's state and actions a panel reads: the game, config and policy chosen, the form, the page's
    job queue and work folder, the run counter, and the status line."""

    game: str
    config: str | None
    form: ConfigForm
    policy_sel: ui.select
    status: ui.label
    queue: Session
    files: Path
    out_root: Path
    runs: int

    def collect(self) -> tuple[dict[str, Any], int, int, list[str]] | None: ...

    def refresh_field_choices(self) -> None: ...

    def url(self, p: Path) -> str: ...

    def use_config(self, path: str) -> None: ...
