"""A hand-made POST to the page's upload route that carries no file: NiceGUI reads every form part as a file, so a
plain form field (``curl -F a=b``) or a part without a file name raised inside it, answered 500 and printed a
hundred-line traceback in the studio's log. This ASGI middleware answers such a request 400 in one line; the
route's own answers (a file taken, a malformed form's 400) pass unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

UPLOAD_ROUTE = re.compile(r"/_nicegui/client/[^/]+/upload/[^/]+")  # NiceGUI's ``ui.upload`` posts here
REFUSAL = b"an upload carries one file (a form part with a file name): this request held none"


class UploadGuard:
    """ASGI middleware: an error of the upload route on a request without a file is a 400, not a 500."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or not UPLOAD_ROUTE.fullmatch(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except (AttributeError, TypeError):  # a str where NiceGUI expects an UploadFile (``.read``, ``.close``)
            if started:
                return
            await send({"type": "http.response.start", "status": 400,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"content-length", str(len(REFUSAL)).encode())]})
            await send({"type": "http.response.body", "body": REFUSAL})
