"""``bela serve``'s page, locked: a key in its address, and a cap on the tabs it runs.

textual-serve starts one process of bela for every page that opens its websocket, on the
serving machine, as the one serving it. Before issue #33 anybody who reached the port got
one: six tabs started twelve processes and took six seats at a table (``--join``). Now:

- **The page's key.** The page is served only at the address ``bela serve`` prints, which
  carries a key of 128 bits from ``secrets`` (``?key=``); the first visit sets it as a
  cookie (HttpOnly, SameSite=Strict), so the page's own websocket carries it too. Without
  it the page and the websocket answer 403 and start nothing. The key is compared in
  constant time.
- **A cap on tabs.** At most ``tabs`` pages run at once (4 by default: a table's seats);
  one more is answered 503, and starts nothing.

The page's static files (scripts, fonts) are the same for everybody and are served
without the key.

``bela server --web-port`` serves the public server's lobby the same way with no key
(``key`` None: the page is public, as the server is), still capped: each page runs
``bela.net.web_session``. With ``accounts`` (the homes' directory,
``bela.net.web_accounts``) the page over TLS sets the browser's account cookie (32 bytes
from ``secrets``; HttpOnly, Secure, SameSite=Strict; a malformed one is replaced) and the
page's session is told the cookie's hash, never the cookie; over plain HTTP no cookie is
set or read and the session is told the page is plain (a guest, which says why).

The page's addresses (its scripts, its websocket) are made from the address the browser
asked for (its scheme and ``Host``), so a page reached by any of the server's names works,
over ``wss:`` when the page is ``https:``.
"""

from __future__ import annotations

import contextvars
import hmac
import re
import secrets
import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

from bela.net.web_accounts import ACCOUNT_COOKIE, COOKIE_MAX_AGE, home_name, new_cookie, well_formed

__all__ = ["COOKIE", "DEFAULT_TABS", "guarded_server", "new_page_key", "page_command"]

COOKIE: Final = "bela_page"
DEFAULT_TABS: Final = 4
_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
"""A ``Host`` header the page's addresses may be made from (a name or an address, a port)."""
_page: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "bela_page", default=None
)
"""The command and the address of the request being served (set by the guard in the
request's own task, read by textual-serve's handlers there)."""


def new_page_key() -> str:
    """A page key: 128 bits from ``secrets``, safe in a URL."""
    return secrets.token_urlsafe(16)


def page_command(command: str, accounts: Path | None, secure: bool, cookie: str | None) -> str:
    """The command a page runs: ``command`` as it is without ``accounts``; else
    ``web_session``'s arguments for the page: ``--plain`` over plain HTTP, the homes'
    directory and the cookie's hash over TLS with a well-formed cookie, nothing more
    without one (a guest)."""
    if accounts is None:
        return command
    if not secure:
        return f"{command} --plain"
    if well_formed(cookie):
        assert cookie is not None
        return f"{command} {shlex.quote(str(accounts))} {home_name(cookie)}"
    return command


def guarded_server(
    command: str,
    host: str,
    port: int,
    public_url: str,
    key: str | None,
    tabs: int = DEFAULT_TABS,
    quiet: bool = False,
    accounts: Path | None = None,
) -> Any:
    """A textual-serve ``Server`` for ``command`` that asks for ``key`` (None: a public
    page) and runs at most ``tabs`` pages at once (textual-serve is imported here: it is an
    extra). ``quiet``: textual-serve prints nothing of its own at the start (the caller
    says where it serves). ``accounts``: the browsers' homes (``page_command``)."""
    from aiohttp import web
    from textual_serve.server import Server

    running = 0

    def address(request: web.Request) -> str:
        """The page's own address, as the browser asked for it (else ``public_url``)."""
        if _HOST.fullmatch(request.host) is None:
            return public_url
        return f"{'https' if request.secure else 'http'}://{request.host}"

    def allowed(request: web.Request) -> bool:
        if key is None:
            return True
        given = request.query.get("key") or request.cookies.get(COOKIE) or ""
        return hmac.compare_digest(given.encode(), key.encode())

    @web.middleware
    async def guard(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        nonlocal running
        if request.path.startswith("/static/"):
            return await handler(request)
        if not allowed(request):
            raise web.HTTPForbidden(text="bela: this page needs the address bela serve printed")
        cookie = request.cookies.get(ACCOUNT_COOKIE) if request.secure else None
        cookie = cookie if well_formed(cookie) else None  # else a fresh one below
        this = page_command(command, accounts, request.secure, cookie)
        reset = _page.set((this, address(request)))
        try:
            if request.path == "/ws":
                if running >= tabs:
                    raise web.HTTPServiceUnavailable(
                        text=f"bela: {tabs} pages are open already; close one first"
                    )
                running += 1
                try:
                    return await handler(request)
                finally:
                    running -= 1
            response = await handler(request)
        finally:
            _page.reset(reset)
        if key is not None and request.query.get("key"):
            response.set_cookie(COOKIE, key, httponly=True, samesite="Strict", path="/")
        if accounts is not None and request.secure and request.path == "/":
            response.set_cookie(  # kept 400 days from the last visit
                ACCOUNT_COOKIE,
                cookie or new_cookie(),
                max_age=COOKIE_MAX_AGE,
                path="/",
                secure=True,
                httponly=True,
                samesite="Strict",
            )
        return response

    class Guarded(Server):
        """textual-serve's server, whose command and address are the request's own."""

        @property
        def command(self) -> str:
            page = _page.get()
            return page[0] if page is not None else self._command

        @command.setter
        def command(self, value: str) -> None:
            self._command = value

        @property
        def public_url(self) -> str:
            page = _page.get()
            return page[1] if page is not None else self._public_url

        @public_url.setter
        def public_url(self, value: str) -> None:
            self._public_url = value

        async def _make_app(self) -> web.Application:
            app: web.Application = await super()._make_app()
            app.middlewares.append(guard)
            return app

        async def on_startup(self, app: web.Application) -> None:
            if not quiet:
                await super().on_startup(app)

    return Guarded(command, host=host, port=port, public_url=public_url)
