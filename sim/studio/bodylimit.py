"""How much a request to the studio may send: a log upload at most, refused by the server, not only by the page.

The page's uploader refuses a larger file before sending it, but anyone who can reach the server can POST by hand;
NiceGUI's upload route reads the whole body into a temporary file before the studio sees it. This plain ASGI
middleware answers 413 to a request that announces a longer body, and stops reading one that sends more than it
announced (or announced nothing), so no byte beyond the limit is received.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import ClientDisconnect

REFUSAL = "this studio takes at most {mb} MB in one request (a log upload)"


class _TooLong(Exception):
    """The request's body went past the limit while it was read."""


class BodyLimit:
    """ASGI middleware: an HTTP request's body is at most ``most`` bytes; a longer one gets 413 and is not read."""

    def __init__(self, app: Callable[..., Awaitable[None]], most: int) -> None:
        self.app, self.most = app, most

    async def _refuse(self, send: Callable) -> None:
        body = REFUSAL.format(mb=self.most // 2**20).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = dict(scope.get("headers", [])).get(b"content-length")
        if announced is not None and (not announced.isdigit() or int(announced) > self.most):
            await self._refuse(send)
            return
        got = 0
        started = False

        async def counted() -> dict[str, Any]:
            nonlocal got
            message = await receive()
            if message["type"] == "http.request":
                got += len(message.get("body", b""))
                if got > self.most:
                    raise _TooLong
            return message

        async def watched(message: dict[str, Any]) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLong:
            if not started:
                await self._refuse(send)
        except ClientDisconnect:  # the client went away mid-body: nothing to answer, and no traceback in the log
            return
