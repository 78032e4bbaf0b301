"""``bela server --web-port``: the public server's lobby in a browser (issue #39). Each page
is a guest in a directory of its own: its app gets none of the serving process's
environment but where Python is and the web driver's variables, the page needs no key
(the server is public) and the pages are capped."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bela.cli.online import ServerCommandOptions
from bela.cli.options import parse
from bela.net.web_door import guarded_server
from bela.net.web_session import guest_name, session_command, session_env


def test_a_pages_app_gets_its_own_directory_and_nothing_of_the_hosts_environment(
    tmp_path: Path,
) -> None:
    host = {
        "PATH": "/usr/bin",
        "HOME": "/root",
        "BELA_DATA_DIR": "/srv/bela",
        "BELA_CONFIG_DIR": "/root/.config/bela",
        "PGPASSWORD": "secret",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
        "COLUMNS": "100",
        "LINES": "30",
    }
    env = session_env(tmp_path, host)
    assert env["HOME"] == str(tmp_path)
    assert env["BELA_DATA_DIR"] == str(tmp_path / "data")
    assert env["BELA_CONFIG_DIR"] == str(tmp_path / "config")
    assert env["PATH"] == "/usr/bin" and env["TEXTUAL_DRIVER"].endswith("WebDriver")
    assert env["COLUMNS"] == "100" and env["LINES"] == "30"
    assert "PGPASSWORD" not in env and "SSH_AUTH_SOCK" not in env
    assert "secret" not in json.dumps(env) and "/srv/bela" not in json.dumps(env)
    command = session_command(4713, "Gost-abcdef")
    assert command[-4:] == ["online", "127.0.0.1:4713", "--guest", "--name=Gost-abcdef"]
    names = {guest_name() for _ in range(20)}
    assert len(names) == 20 and all(n.startswith("Gost-") and len(n) == 11 for n in names)


async def test_the_lobby_page_needs_no_key_and_is_capped() -> None:
    started: list[str] = []
    server = guarded_server("sleep 30", "127.0.0.1", 0, "http://127.0.0.1:0", None, 1)

    async def pretend(request: Any) -> Any:
        from aiohttp import web

        started.append(request.path)
        await asyncio.sleep(0.5)
        return web.Response(text="ok")

    server.handle_websocket = pretend
    client: TestClient[Any, Any] = TestClient(TestServer(await server._make_app()))
    await client.start_server()
    try:
        page = await client.get("/")
        assert page.status == 200 and "bela_page" not in page.cookies
        first = asyncio.create_task(client.get("/ws"))
        await asyncio.sleep(0.1)
        assert (await client.get("/ws")).status == 503  # one page at a time here
        assert (await first).status == 200 and started == ["/ws"]
    finally:
        await client.close()


def test_bela_server_takes_a_web_port_and_a_cap() -> None:
    options = parse(["server", "--web-port", "8080", "--web-tabs", "8"])
    assert isinstance(options, ServerCommandOptions)
    assert (options.web_port, options.web_tabs) == (8080, 8)
    assert parse(["server"]).web_tabs == 16  # type: ignore[union-attr]
    for bad in (["server", "--web-tabs", "0"], ["server", "--web-port", "70000"]):
        with pytest.raises(SystemExit):
            parse(bad)


@pytest.mark.slow
async def test_a_browser_page_is_a_guest_in_the_lobby(tmp_path: Path) -> None:
    """A real page: textual-serve starts the guest's app, which signs in over localhost and
    draws the lobby; the server sees a guest named Gost-..., and nothing else."""
    import aiohttp

    from bela.cli.online import _start_web
    from bela.net.online_server import OnlineServer, online_options

    events: list[str] = []
    server = OnlineServer(tmp_path / "server", online_options(), say=events.append)
    _, port = await server.start("127.0.0.1", 0)
    out = (tmp_path / "out.txt").open("w")
    runner = await _start_web("127.0.0.1", 0, port, 2, out)
    web_port = runner.addresses[0][1]
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(f"http://127.0.0.1:{web_port}/ws?width=100&height=30") as ws,
        ):
            text = ""
            async with asyncio.timeout(60):
                async for message in ws:
                    if message.type == aiohttp.WSMsgType.BINARY:
                        text += message.data.decode("utf-8", "replace")
                    elif message.type == aiohttp.WSMsgType.TEXT:
                        envelope = json.loads(message.data)
                        if envelope[0] == "stdout":
                            text += envelope[1]
                    if "Tables at" in text:
                        break
            for _ in range(100):  # the lobby's list: a guest signed in, asked, hung up
                if any("guest: Gost-" in line for line in events):
                    break
                await asyncio.sleep(0.1)
            signed = [line for line in events if ": guest: " in line or ": login: " in line]
            assert signed and all("guest: Gost-" in line for line in signed)
    finally:
        out.close()
        await runner.cleanup()
        await server.close()
