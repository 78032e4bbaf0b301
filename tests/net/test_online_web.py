"""``bela server --web-port``: the public server's lobby in a browser (issue #39). The page
is served over HTTPS; a browser keeps an account (a cookie, a home named by its hash) and
a new one is a guest until its player picks a name; over plain HTTP every page is a guest
and no cookie is set. Each page's app gets none of the serving process's environment but
where Python is and the web driver's variables, the page needs no key (the server is
public) and the pages are capped."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bela.cli.online import ServerCommandOptions
from bela.cli.options import parse
from bela.net.web_accounts import ACCOUNT_COOKIE, home_name, new_cookie
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
    # a server bound by --listen to another address: its pages sign in there
    command = session_command(4713, "Gost-abcdef", host="127.0.0.2")
    assert command[-4:] == ["online", "127.0.0.2:4713", "--guest", "--name=Gost-abcdef"]
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


async def _door(tmp_path: Path, tls: bool) -> tuple[Any, str, list[str], Path]:
    """The public page (``_start_web``'s guard) on a real socket, over TLS with the
    server's own certificate or plain; its websocket's handler records the command the
    page would run, and starts nothing."""
    from aiohttp import web

    from bela.net.identity import load_or_make_certificate, server_context
    from bela.net.web_accounts import homes_root

    accounts = homes_root(tmp_path / "server")
    commands: list[str] = []
    server = guarded_server(
        "web_session 4713", "127.0.0.1", 0, "https://x:1", None, 4, quiet=True, accounts=accounts
    )

    async def pretend(request: Any) -> Any:
        commands.append(server.command)  # as textual-serve reads it for this page
        return web.Response(text="ok")

    server.handle_websocket = pretend
    runner = web.AppRunner(await server._make_app())
    await runner.setup()
    context = None
    if tls:
        cert, key, _ = load_or_make_certificate(tmp_path / "server")
        context = server_context(cert, key)
    await web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context).start()
    port = runner.addresses[0][1]
    return runner, f"{'https' if tls else 'http'}://127.0.0.1:{port}", commands, accounts


async def test_over_https_the_page_sets_the_account_cookie_and_names_its_hash(
    tmp_path: Path,
) -> None:
    import aiohttp

    runner, url, commands, accounts = await _door(tmp_path, tls=True)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            page = await http.get(url + "/", ssl=False)
            assert page.status == 200
            said = page.headers.getall("Set-Cookie")
            assert len(said) == 1
            attributes = [part.strip() for part in said[0].split(";")]
            name, cookie = attributes[0].split("=", 1)
            assert name == ACCOUNT_COOKIE and len(cookie) == 43
            assert {"HttpOnly", "Secure", "SameSite=Strict", "Path=/"} <= set(attributes)
            assert "Max-Age=34560000" in attributes
            assert f"wss://127.0.0.1:{url.rsplit(':', 1)[1]}/ws" in await page.text()
            # the page's websocket with the cookie: the session is told its hash, only
            await http.get(url + "/ws", ssl=False, headers={"Cookie": f"{ACCOUNT_COOKIE}={cookie}"})
            assert commands[-1] == f"web_session 4713 {accounts} {home_name(cookie)}"
            assert cookie not in commands[-1]
            assert not any(accounts.iterdir())  # a page makes no home
            # the same browser again: the same cookie, kept another 400 days
            again = await http.get(
                url + "/", ssl=False, headers={"Cookie": f"bela_account={cookie}"}
            )
            assert again.headers["Set-Cookie"].startswith(f"{ACCOUNT_COOKIE}={cookie};")
            # a malformed cookie: a fresh one, and the websocket is a guest's
            for bad in ("../../etc", "x" * 42, cookie + "x"):
                fresh = await http.get(
                    url + "/", ssl=False, headers={"Cookie": f"{ACCOUNT_COOKIE}={bad}"}
                )
                value = fresh.headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
                assert value not in (bad, cookie) and len(value) == 43
                await http.get(
                    url + "/ws", ssl=False, headers={"Cookie": f"{ACCOUNT_COOKIE}={bad}"}
                )
                assert commands[-1] == "web_session 4713"
    finally:
        await runner.cleanup()


async def test_over_plain_http_no_cookie_is_set_or_read_and_the_page_says_it_is_plain(
    tmp_path: Path,
) -> None:
    import aiohttp

    runner, url, commands, _accounts = await _door(tmp_path, tls=False)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            page = await http.get(url + "/")
            assert page.status == 200 and "Set-Cookie" not in page.headers
            assert f"ws://127.0.0.1:{url.rsplit(':', 1)[1]}/ws" in await page.text()
            cookie = new_cookie()
            await http.get(url + "/ws", headers={"Cookie": f"{ACCOUNT_COOKIE}={cookie}"})
            assert commands == ["web_session 4713 --plain"]
    finally:
        await runner.cleanup()


def test_bela_server_takes_a_web_port_and_a_cap() -> None:
    options = parse(["server", "--web-port", "8080", "--web-tabs", "8"])
    assert isinstance(options, ServerCommandOptions)
    assert (options.web_port, options.web_tabs) == (8080, 8)
    assert parse(["server"]).web_tabs == 16  # type: ignore[union-attr]
    plain = parse(["server", "--web-port", "8080", "--web-http"])
    assert isinstance(plain, ServerCommandOptions) and plain.web_http and not options.web_http
    own = parse(["server", "--web-port", "1", "--web-cert", "c.pem", "--web-key", "k.pem"])
    assert isinstance(own, ServerCommandOptions)
    assert (own.web_cert, own.web_key) == (Path("c.pem"), Path("k.pem"))
    for bad in (["server", "--web-tabs", "0"], ["server", "--web-port", "70000"]):
        with pytest.raises(SystemExit):
            parse(bad)


async def _lobby_drawn(ws: Any) -> str:
    """What the page's app wrote until the lobby's title showed."""
    import aiohttp

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
    return text


async def _signed(events: list[str], count: int) -> list[str]:
    """The sign-ins the server saw, once there are ``count`` of them."""
    for _ in range(200):
        signed = [line for line in events if ": guest: " in line or ": login: " in line]
        if len(signed) >= count:
            return signed
        await asyncio.sleep(0.1)
    return signed


@pytest.mark.slow
async def test_a_browser_page_is_a_guest_and_a_returning_browser_its_account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Real pages over HTTPS (the server's own certificate): textual-serve starts each
    page's app, which signs in over localhost and draws the lobby. A page without the
    account cookie is a guest named Gost-...; a browser whose cookie's home holds a key
    (made when its player picked a name) signs in as that account, by its key alone."""
    import io

    import aiohttp

    from bela.cli.online import OnlineOptions, _start_web, _web_account
    from bela.net.online_server import OnlineServer, online_options
    from bela.net.web_accounts import has_key, home_of, homes_root

    events: list[str] = []
    server = OnlineServer(tmp_path / "server", online_options(), say=events.append)
    _, port = await server.start("127.0.0.1", 0)
    out = io.StringIO()
    options = ServerCommandOptions(0, False, None, "normal", 120, web_port=0, web_tabs=2)
    runner = await _start_web("127.0.0.1", 0, port, options, tmp_path / "server", out)
    web_port = runner.addresses[0][1]
    assert f"https://127.0.0.1:{web_port}/" in out.getvalue()
    url = f"https://127.0.0.1:{web_port}/ws?width=100&height=30"
    try:
        async with aiohttp.ClientSession() as session, session.ws_connect(url, ssl=False) as ws:
            await _lobby_drawn(ws)
        signed = await _signed(events, 1)
        assert signed and all("guest: Gost-" in line for line in signed)
        # a browser whose player picked the name Ana (the lobby's n): its home has the key
        monkeypatch.setenv("BELA_CONFIG_DIR", str(tmp_path / "guest-config"))
        cookie = new_cookie()
        home = home_of(homes_root(tmp_path / "server"), home_name(cookie))
        guest = OnlineOptions("127.0.0.1", "Gost-1", True, "default", None, 1001, 60, False, False)
        await _web_account("127.0.0.1", port, guest, home, "Ana", io.StringIO())
        assert has_key(home)
        events.clear()
        headers = {"Cookie": f"{ACCOUNT_COOKIE}={cookie}"}
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(url, ssl=False, headers=headers) as ws,
        ):
            await _lobby_drawn(ws)
        signed = await _signed(events, 1)
        assert signed and all(line.endswith("login: Ana") for line in signed)
    finally:
        await runner.cleanup()
        await server.close()


async def test_a_browser_guest_becomes_an_account_in_its_home_and_a_taken_name_leaves_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``n`` at a browser guest's lobby: the home is made then (not before), the key made in
    it, the account signed in with the name picked; the next page of that browser signs in
    with that key. A name taken is refused with the reason and leaves no home behind."""
    import io
    import stat

    from bela.cli.online import OnlineOptions, _key, _web_account
    from bela.net.identity import key_id, public_raw
    from bela.net.online_server import OnlineServer, online_options
    from bela.net.web_accounts import has_key, home_of, homes_root

    monkeypatch.setenv("BELA_CONFIG_DIR", str(tmp_path / "guest-config"))
    events: list[str] = []
    server = OnlineServer(tmp_path / "server", online_options(), say=events.append)
    _, port = await server.start("127.0.0.1", 0)
    root = homes_root(tmp_path / "server")
    guest = OnlineOptions("127.0.0.1", "Gost-abcdef", True, "default", None, 1001, 60, False, False)
    try:
        home = home_of(root, home_name(new_cookie()))
        account = await _web_account("127.0.0.1", port, guest, home, "Ana", io.StringIO())
        assert (account.guest, account.name, account.key_dir) == (False, "Ana", home / "config")
        assert has_key(home) and stat.S_IMODE(home.stat().st_mode) == 0o700
        assert any(line.endswith("login: Ana") for line in events)
        stored = server.accounts.by_name("Ana")
        assert stored is not None
        # the next page of that browser: the key in its home is the same account
        key = _key(account)
        assert key is not None and stored.key == key_id(public_raw(key))
        # another browser asks for the same name: refused, and no home is left
        other = home_of(root, home_name(new_cookie()))
        with pytest.raises(ConnectionError, match="taken"):
            await _web_account("127.0.0.1", port, guest, other, "ANA", io.StringIO())
        assert not other.exists()
        with pytest.raises(ConnectionError):  # a page that may not keep an account
            await _web_account("127.0.0.1", port, guest, None, "Eva", io.StringIO())
    finally:
        await server.close()


def test_the_pages_certificate_options_are_checked_before_anything_starts(tmp_path: Path) -> None:
    """--web-cert without --web-key (or without --web-port), or a file that is no
    certificate: one line, exit 2 or the environment's code, nothing listens."""
    import io

    from bela.cli.common import CliError
    from bela.cli.online import _web_tls, run_server

    base = ServerCommandOptions(0, False, tmp_path / "srv", "normal", 120)
    alone = ServerCommandOptions(
        0, False, tmp_path / "srv", "normal", 120, web_cert=tmp_path / "c.pem"
    )
    with pytest.raises(CliError, match="--web-port") as caught:
        run_server(alone, io.StringIO(), io.StringIO())
    assert caught.value.code == 2 and not (tmp_path / "srv").exists()
    half = ServerCommandOptions(0, False, None, "normal", 120, web_port=0, web_cert=Path("c"))
    with pytest.raises(CliError, match="go together"):
        _web_tls(half, tmp_path)
    (tmp_path / "c.pem").write_text("not a certificate")
    (tmp_path / "k.pem").write_text("not a key")
    bad = ServerCommandOptions(
        0,
        False,
        None,
        "normal",
        120,
        web_port=0,
        web_cert=tmp_path / "c.pem",
        web_key=tmp_path / "k.pem",
    )
    with pytest.raises(CliError, match="cannot use the certificate"):
        _web_tls(bad, tmp_path)
    assert _web_tls(base, tmp_path / "own") is not None  # the server's own, made on first use
    assert (tmp_path / "own" / "server_cert.pem").exists()


def test_a_page_is_told_the_servers_address_and_refuses_anything_else() -> None:
    from bela.net.web_session import _address, main

    assert _address("4713") == ("127.0.0.1", 4713)
    assert _address("127.0.0.2:4713") == ("127.0.0.2", 4713)
    for bad in ("", "0", "70000", "x:4713", "evil.example:4713", "127.0.0.1:", "٣"):
        assert _address(bad) is None
        assert main([bad]) == 2
