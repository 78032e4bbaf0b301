"""A redirect names the worker's host as well as its port (workers on several machines,
docs/server.md): the host is untrusted network data, checked before the client connects
anywhere; a redirect without one (an older server's) still goes on to the machine the
client reached; a host that shows another certificate is refused as any worker."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from bela.net.client import NotBela
from bela.net.faults import FaultLog
from bela.net.front_door import FrontDoor
from bela.net.identity import PinMismatch, Pins, load_or_make_certificate, server_context
from bela.net.lobby_protocol import Redirect, decode_lobby_server
from bela.net.online_client import Online
from bela.net.online_server import OnlineServer, online_options
from bela.net.protocol import ProtocolError
from bela.net.redirects import redirect_frame, valid_host

GOOD = ("bela.example", "BELA.example.", "w-1.eu.bela.example", "a", "127.0.0.2", "::1", "fd00::7")
BAD = (
    "",
    "bela example",
    "bela.example\n",
    "bela\x1b[31m.example",
    "bela.example:4714",
    "https://bela.example",
    "-bela.example",
    "bela-.example",
    "bela..example",
    "bela_1.example",
    "1.2.3",
    "300.1.1.1",
    "fe80::1%eth0",
    "[::1]",
    "béla.example",
    "a" * 64 + ".example",
    ".".join(["a" * 60] * 5),
)


async def server_at(data: Path, host: str) -> tuple[OnlineServer, int]:
    """A one-process server on ``host`` only (another machine, on one box)."""
    server = OnlineServer(data / "server", online_options(bot_delay=0.0), say=lambda _l: None)
    _host, port = await server.start(host, 0)
    return server, port


def frame(**fields: object) -> bytes:
    return json.dumps({"type": "redirect", **fields}).encode() + b"\n"


def test_an_older_servers_redirect_without_a_host_still_decodes() -> None:
    message = decode_lobby_server(frame(port=4714))
    assert isinstance(message, Redirect) and message.port == 4714 and message.host is None


@pytest.mark.parametrize("host", GOOD)
def test_a_redirect_names_a_host_name_or_an_address(host: str) -> None:
    message = decode_lobby_server(frame(port=4714, host=host))
    assert isinstance(message, Redirect) and message.host == host


@pytest.mark.parametrize("host", BAD)
def test_a_redirect_to_anything_else_is_no_bela_frame(host: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_lobby_server(frame(port=4714, host=host))
    said = str(caught.value)
    assert "\n" not in said and "\x1b" not in said and len(said) <= 160
    assert said.startswith("redirect.host: ")


@given(st.text(max_size=300))
def test_a_host_taken_is_printable_ascii_and_short(text: str) -> None:
    if valid_host(text):
        assert text.isascii() and text.isprintable() and len(text) <= 253
        assert not any(c in text for c in " /[]%@_")


def test_the_host_travels_only_to_another_machine() -> None:
    assert redirect_frame((None, 4714), None) == {"type": "redirect", "port": 4714}
    assert redirect_frame(("a.example", 4714), "a.example") == {"type": "redirect", "port": 4714}
    assert redirect_frame(("b.example", 4715), "a.example") == {
        "type": "redirect",
        "port": 4715,
        "host": "b.example",
    }


async def test_a_redirect_is_followed_to_another_host(tmp_path: Path) -> None:
    """The front door on 127.0.0.1 sends the client to a server listening only on
    127.0.0.2 (another machine, on one box): the client signs in there."""
    there, port = await server_at(tmp_path, "127.0.0.2")  # and so its certificate
    cert, key, _ = load_or_make_certificate(tmp_path / "server")
    door = FrontDoor(server_context(cert, key), lambda: {"w": ("127.0.0.2", port)}, FaultLog())
    _h, door_port = await door.start("127.0.0.1", 0)
    try:
        online = await Online.connect(
            "127.0.0.1", door_port, "Ana", Ed25519PrivateKey.generate(), Pins(tmp_path / "c")
        )
        assert online.client.writer.get_extra_info("peername")[:2] == ("127.0.0.2", port)
        assert online.hi.name == "Ana" and online.first_use
        await online.close()
    finally:
        await door.close()
        await there.close()


async def test_a_redirect_naming_a_bad_host_fails_in_one_line(tmp_path: Path) -> None:
    cert, key, _ = load_or_make_certificate(tmp_path)
    door = FrontDoor(
        server_context(cert, key), lambda: {"w": ("x\x1b]0;y", 4714)}, FaultLog(), here="z"
    )
    _h, door_port = await door.start("127.0.0.1", 0)
    try:
        with pytest.raises(NotBela) as caught:
            await Online.connect(
                "127.0.0.1", door_port, "Ana", Ed25519PrivateKey.generate(), Pins(tmp_path / "c")
            )
    finally:
        await door.close()
    said = str(caught.value)
    assert "\n" not in said and "\x1b" not in said
    assert said.endswith("host: not a host name or an ip address")


async def test_a_redirect_to_a_host_with_another_certificate_is_refused(tmp_path: Path) -> None:
    there, port = await server_at(tmp_path / "b", "127.0.0.2")  # its own certificate
    cert, key, _ = load_or_make_certificate(tmp_path / "a")
    door = FrontDoor(server_context(cert, key), lambda: {"w": ("127.0.0.2", port)}, FaultLog())
    _h, door_port = await door.start("127.0.0.1", 0)
    try:
        with pytest.raises(PinMismatch) as caught:
            await Online.connect(
                "127.0.0.1", door_port, "Ana", Ed25519PrivateKey.generate(), Pins(tmp_path / "c")
            )
        assert caught.value.where == f"127.0.0.2:{port}"
    finally:
        await door.close()
        await there.close()


async def test_the_door_sends_to_its_own_machine_first(tmp_path: Path) -> None:
    """Its own machine's workers (the host it advertises) in turn, without a host in the
    frame; another machine's only when none of its own is alive, with their host; never a
    worker of another machine that advertises no host."""
    cert, key, _ = load_or_make_certificate(tmp_path)
    found = {"a1": ("a", 1), "a2": ("a", 2), "b1": ("b", 3), "x": (None, 4)}
    door = FrontDoor(server_context(cert, key), lambda: dict(found), FaultLog(), here="a")
    assert {door.next_address() for _ in range(4)} == {("a", 1), ("a", 2)}
    del found["a1"], found["a2"]
    assert door.next_address() == ("b", 3)
    del found["b1"]
    assert door.next_address() is None


def bela(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bela", "--lang", "en", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


async def test_bela_online_tries_the_servers_addresses_in_turn(tmp_path: Path) -> None:
    """``bela online A,B``: A cannot be reached (its machine is down), B signs us in."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    server, port = await server_at(tmp_path, "127.0.0.1")
    env = dict(os.environ, BELA_CONFIG_DIR=str(tmp_path / "config"))
    try:
        both = f"127.0.0.1:{dead},127.0.0.1:{port}"
        done = await asyncio.to_thread(bela, env, "online", both, "--name", "Ana")
        assert done.returncode == 0, done.stderr
        assert f"First visit to 127.0.0.1:{port}" in done.stdout
        assert "Signed in as Ana" in done.stdout
        bad = await asyncio.to_thread(bela, env, "online", f"127.0.0.1:{port},:9", "--name", "Ana")
        assert bad.returncode == 2 and "bad address" in bad.stderr
        alone = await asyncio.to_thread(bela, env, "online", f"127.0.0.1:{dead}", "--name", "Ana")
        assert alone.returncode != 0 and "nobody is hosting" in alone.stderr
    finally:
        await server.close()
