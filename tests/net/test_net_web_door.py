"""Issue #33: ``bela serve``'s page asks for its key and runs a few tabs at most.

Anybody who reached the port got a process of bela (six tabs started twelve processes and
took six seats at a table). The page and its websocket now need the key ``bela serve``
prints (128 bits), and one more page than ``--tabs`` is refused: neither starts anything.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bela.cli.options import parse
from bela.net.web_door import COOKIE, guarded_server, new_page_key


async def _client(key: str, tabs: int, started: list[str]) -> TestClient[Any, Any]:
    server = guarded_server("sleep 30", "127.0.0.1", 0, "http://127.0.0.1:0", key, tabs)

    async def pretend(request: Any) -> Any:  # the websocket's handler: counts, starts nothing
        from aiohttp import web

        started.append(request.path)
        await asyncio.sleep(0.5)
        return web.Response(text="ok")

    server.handle_websocket = pretend
    app = await server._make_app()
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    return client


async def test_the_page_needs_its_key_and_the_websocket_too() -> None:
    key, started = new_page_key(), []
    client = await _client(key, 4, started)
    try:
        assert (await client.get("/")).status == 403
        assert (await client.get("/?key=" + "x" * len(key))).status == 403
        assert (await client.get("/ws")).status == 403
        assert started == []
        page = await client.get(f"/?key={key}")
        assert page.status == 200
        assert page.cookies[COOKIE].value == key and page.cookies[COOKIE]["httponly"]
        assert (await client.get("/ws")).status == 200  # the cookie the page set
        assert started == ["/ws"]
        assert (await client.get("/static/js/textual.js")).status in (200, 404)  # no key needed
    finally:
        await client.close()


async def test_one_page_more_than_the_cap_starts_nothing() -> None:
    key, started = new_page_key(), []
    client = await _client(key, 2, started)
    try:
        first = [asyncio.create_task(client.get(f"/ws?key={key}")) for _ in range(2)]
        await asyncio.sleep(0.1)
        third = await client.get(f"/ws?key={key}")
        assert third.status == 503 and len(started) == 2
        assert [(await t).status for t in first] == [200, 200]
        assert (await client.get(f"/ws?key={key}")).status == 200  # room again
    finally:
        await client.close()


def test_a_page_key_is_128_bits_and_new_each_time() -> None:
    keys = {new_page_key() for _ in range(50)}
    assert len(keys) == 50 and all(len(k) >= 22 for k in keys)


@pytest.mark.parametrize(("text", "ok"), [("1", True), ("4", True), ("0", False), ("x", False)])
def test_serve_takes_a_cap_on_tabs(text: str, ok: bool) -> None:
    if ok:
        assert parse(["serve", "--tabs", text]).tabs == int(text)  # type: ignore[union-attr]
    else:
        with pytest.raises(SystemExit):
            parse(["serve", "--tabs", text])
