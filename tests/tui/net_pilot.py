"""A host in the test's own event loop and an app seated at it: for the network pilot tests."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from bela.engine import Rules
from bela.net.saves import TableSaver
from bela.net.server import Server, ServerOptions
from bela.tui import BelaApp
from bela.tui.screens.net_table import NetTableScreen


async def host(
    target: int = 501, wait: float = 0.2, rules: Rules | None = None
) -> tuple[Server, int]:
    options = ServerOptions(
        difficulty="random", target=target, bot_delay=0.0, wait=wait, rules=rules or Rules()
    )
    server = Server(options, TableSaver())
    _, port = await server.listen("127.0.0.1", 0)
    return server, port


async def until(pilot: Pilot[Any], check: Any, tries: int = 3000) -> None:
    """Wait for ``check`` (up to about 30 s: a host and an app on two busy cores, beside
    the other test workers, can take seconds; a passing check returns at once)."""
    for _ in range(tries):
        await pilot.pause(0.01)
        if check():
            return
    raise AssertionError("the app never got there")


def net_screen(app: BelaApp) -> NetTableScreen:
    screen = app.screen
    assert isinstance(screen, NetTableScreen)
    return screen
