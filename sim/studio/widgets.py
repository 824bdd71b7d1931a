"""Small helpers the studio's views share: test ids and the one-line error under an input."""

from __future__ import annotations

from nicegui import ui

from sim.core.errors import one_line


def tid(el: ui.element, test_id: str) -> ui.element:
    """Tag an element for scripts and tests (``data-testid``)."""
    el.props["data-testid"] = test_id
    return el


def error_to(widget: ui.element, msg: str) -> None:
    """The CLI's one-line message under an input ('' clears it; editing the input clears it too), cut as the
    command line cuts it (a 5,000-character policy typed in came back whole)."""
    widget.error = one_line(msg or "") or None
