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
``bela.net.web_session``, a guest in a directory of its own.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Final

__all__ = ["COOKIE", "DEFAULT_TABS", "guarded_server", "new_page_key"]

COOKIE: Final = "bela_page"
DEFAULT_TABS: Final = 4


def new_page_key() -> str:
    """A page key: 128 bits from ``secrets``, safe in a URL."""
    return secrets.token_urlsafe(16)


def guarded_server(
    command: str,
    host: str,
    port: int,
    public_url: str,
    key: str | None,
    tabs: int = DEFAULT_TABS,
    quiet: bool = False,
) -> Any:
    """A textual-serve ``Server`` for ``command`` that asks for ``key`` (None: a public
    page) and runs at most ``tabs`` pages at once (textual-serve is imported here: it is an
    extra). ``quiet``: textual-serve prints nothing of its own at the start (the caller
    says where it serves)."""
    from aiohttp import web
    from textual_serve.server import Server

    running = 0

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
        if key is not None and request.query.get("key"):
            response.set_cookie(COOKIE, key, httponly=True, samesite="Strict", path="/")
        return response

    class Guarded(Server):
        async def _make_app(self) -> web.Application:
            app: web.Application = await super()._make_app()
            app.middlewares.append(guard)
            return app

        async def on_startup(self, app: web.Application) -> None:
            if not quiet:
                await super().on_startup(app)

    return Guarded(command, host=host, port=port, public_url=public_url)
