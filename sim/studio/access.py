"""Who may use the studio: loopback needs nothing; any other address needs the token the studio printed.

The token travels once in the address (``/?token=…``, as Jupyter prints it), or in an
``Authorization: token …`` header; a page opened with it gets a cookie that carries it on from there
(the page's scripts, its live connection, its images). Every other request gets the refusal page
(HTTP 403) or, for the live connection, a closed socket: nothing of the app. This is plain ASGI, so it
guards every route NiceGUI serves, the socket included.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import ipaddress
import re
import secrets
import socket
from collections.abc import Awaitable, Callable
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from sim.core.errors import DicesimError

TOKEN_CHARS = re.compile(r"[A-Za-z0-9._~-]+")
MIN_TOKEN = 8

REFUSAL = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>dicesim studio: token needed</title>
<style>body{{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}}
h1{{font-size:1.4rem;color:#283593}} code{{background:#eee;padding:.1rem .3rem;border-radius:3px}}</style></head>
<body><h1>dicesim studio: this page needs the studio's token</h1>
<p>{why}</p>
<p>This studio listens beyond its own machine, so it serves only those who have the token it printed when it
started. Open the address printed there (it ends in <code>?token=…</code>), or ask the person who started it.</p>
</body></html>
"""


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is this machine's loopback (127.0.0.0/8, ::1, localhost)."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    addrs = {info[4][0] for info in infos}
    try:
        return bool(addrs) and all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addrs)
    except ValueError:
        return False


def check_address(host: str, port: int) -> None:
    """Fail with one line (not a server traceback) when the address cannot be bound."""
    try:
        mapped = ipaddress.ip_address(host.strip("[]")).ipv4_mapped  # type: ignore[union-attr]
    except (ValueError, AttributeError):
        mapped = None
    if mapped is not None:  # the server binds it on an IPv6 socket, which Linux refuses after this check took it
        raise DicesimError(f"--host {host}: an IPv4 address written as IPv6; give it as {mapped}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as e:
        raise DicesimError(f"--host {host[:60]!r} cannot be resolved: {e.strerror or e}") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            fix = ("--host names no address of this machine: give one of its own (127.0.0.1, 0.0.0.0)"
                   if e.errno == errno.EADDRNOTAVAIL else "pass another --port")  # 8.8.8.8 is no port's fault
            raise DicesimError(f"cannot listen on {host}:{port} ({e.strerror}); {fix}") from None


def new_token() -> str:
    return secrets.token_urlsafe(24)


def check_token(token: str) -> str | None:
    """Why a ``--token`` cannot be used (None when it can): it must be typed into an address unquoted."""
    if len(token) < MIN_TOKEN:
        return f"--token must be at least {MIN_TOKEN} characters, got {len(token)}"
    if not TOKEN_CHARS.fullmatch(token):
        return "--token may hold only letters, digits and . _ ~ -"
    return None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def refuse(scope: dict[str, Any], send: Callable, text: str, kind: str) -> None:
    """A request the studio does not serve: 403 with ``text`` (``kind``: its MIME type), or the live socket closed
    (1008, policy violation), so nothing of the app is reached."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    body = text.encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", f"{kind}; charset=utf-8".encode()),
                            (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


class TokenGate:
    """ASGI middleware: a request passes with the token (address, header or cookie); otherwise 403."""

    def __init__(self, app: Callable[..., Awaitable[None]], token: str, cookie: str = "dicesim-studio") -> None:
        self.app, self.token, self.cookie, self.digest = app, token, cookie, _digest(token)

    def _verdict(self, scope: dict[str, Any]) -> tuple[bool, bool, str]:
        """(allowed, came in the address, why not)."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        given = query.get("token", [None])[-1]
        if given is not None:
            ok = hmac.compare_digest(given.encode(), self.token.encode())
            return ok, ok, "" if ok else "The token in this address is not this studio's."
        auth = headers.get("authorization", "")
        if auth.lower().startswith("token "):
            ok = hmac.compare_digest(auth[6:].strip().encode(), self.token.encode())
            return ok, False, "" if ok else "The token sent is not this studio's."
        try:
            jar = SimpleCookie(headers.get("cookie", ""))
        except CookieError:
            jar = SimpleCookie()
        held = jar.get(self.cookie)
        if held is not None and hmac.compare_digest(held.value.encode(), self.digest.encode()):
            return True, False, ""
        return False, False, "This address has no token."

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        ok, in_address, why = self._verdict(scope)
        if not ok:
            await refuse(scope, send, REFUSAL.format(why=why), "text/html")
            return
        if not in_address or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookie = f"{self.cookie}={self.digest}; Path=/; HttpOnly; SameSite=Lax".encode()

        async def send_with_cookie(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


AUTHORITY = re.compile(r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9.-]+))(?::(?P<port>[0-9]{1,5}))?")
ORIGIN = re.compile(r"(?:https?)://(?P<authority>[^/?#]*)")


def _host_name(value: str) -> str | None:
    """The host of a ``Host`` header or an ``Origin``'s authority, without its port (``[::1]:8765`` -> ``::1``), or
    None when it is not strictly ``host[:port]`` or ``[v6][:port]`` with a numeric port (``127.0.0.1:1@evil.com``,
    a bare ``::1``, anything with a user, path or space)."""
    m = AUTHORITY.fullmatch(value.strip().lower())
    if m is None or (m["port"] is not None and int(m["port"]) > 65535):
        return None
    return m["v6"] if m["v6"] is not None else m["name"]


def loopback_name(value: str) -> bool:
    """Whether a ``Host`` (or an ``Origin``'s host) names this machine's loopback by itself: ``localhost`` or a
    loopback address, never a name to resolve (a name that resolves here today is how DNS rebinding gets in)."""
    name = _host_name(value)
    if name is None:
        return False
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def loopback_origin(origin: str) -> bool:
    """Whether an ``Origin`` is a page of this machine's loopback (``http://127.0.0.1:8765``); ``null`` (a sandboxed
    frame, a ``data:`` page, a file) and anything not ``http(s)://host[:port]`` are not."""
    m = ORIGIN.fullmatch(origin.strip().lower())
    return m is not None and loopback_name(m["authority"])


HOST_REFUSAL = ("This studio listens on loopback and answers only to localhost or 127.0.0.1: a request naming {what} "
                "is refused (a web page elsewhere must not drive it).")


class LoopbackOnly:
    """ASGI middleware for a studio on loopback without a token: a request whose ``Host`` is not a loopback name, or
    that comes from a page of another origin (``Origin``; ``null`` too: a sandboxed frame or a ``data:`` page), gets 403
    (the socket: closed); the ``Host`` is parsed strictly (``host[:port]``, ``[v6][:port]``). Without it any web page
    the designer visits could point a name of its own at 127.0.0.1 (DNS rebinding) or post to the studio, and run jobs
    or write files into ``--out``, as Jupyter guards against."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host, origin = headers.get("host", ""), headers.get("origin")
        why = None
        if not loopback_name(host):
            why = f"the host {host[:80]!r}"
        elif origin is not None and not loopback_origin(origin):
            why = f"the origin {origin[:80]!r}"
        if why is None:
            await self.app(scope, receive, send)
            return
        await refuse(scope, send, HOST_REFUSAL.format(what=why), "text/plain")
