"""A host that sends what the engine never writes (issue #23): a bid "call Z" made the
app's table raise while drawing the seats. The frame is not bela: the app says so in one
line, closes the line (sitting down again would only be sent the same), and stays open.
"""

from __future__ import annotations

import asyncio
import json

from net_pilot import host, net_screen, until

from bela.engine import Rules
from bela.net.client import Client
from bela.net.protocol import PROTOCOL_VERSION, State
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.widgets.table_talk import TableTalk


async def _a_real_state() -> dict[str, object]:
    """A ``State`` frame as a real host sends it, mid-bidding (seed 8: seat 0 has bid)."""
    server, port = await host(wait=5)
    table = server.new_table()
    frames: list[bytes] = []
    try:
        ana = await Client.connect("127.0.0.1", port, table.code, "Ana", log=frames)
        table.start(8, Rules())
        while not isinstance(await asyncio.wait_for(ana.receive(), 10), State):
            pass
        await ana.close()
    finally:
        await server.close()
    state = next(json.loads(f) for f in frames if f.startswith(b'{"type":"state"'))
    assert isinstance(state, dict)
    return state


async def test_a_bid_the_engine_never_writes_closes_the_line_not_the_app() -> None:
    state = await _a_real_state()
    view = dict(state["view"])  # type: ignore[arg-type]
    view.update(bids=[[0, "call Z"]], to_act=1, legal=[])
    bad = {**state, "view": view}
    connections = 0

    async def fake_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        await reader.readline()  # the hello
        welcome = {"type": "welcome", "v": PROTOCOL_VERSION, "table": "t", "seat": 0}
        welcome.update(token="tok", leader=True)
        writer.write(json.dumps(welcome).encode() + b"\n")
        writer.write(json.dumps({**state, "seq": 1}).encode() + b"\n")
        writer.write(json.dumps({**bad, "seq": 2}).encode() + b"\n")
        await writer.drain()
        await reader.read()  # until the app hangs up
        writer.close()

    server = await asyncio.start_server(fake_host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    session = RemoteSession("127.0.0.1", port, "ABCD-EFGH-JK", "Ana", keep=False)
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).state is not None)
            screen = net_screen(app)
            log = screen.query_one("#log", TableTalk)
            await until(pilot, lambda: any("not bela" in e.plain for e in log.entries))
            await until(pilot, lambda: session.client is None)
            await pilot.pause(0.5)
            assert app.is_running and app.screen is screen
            assert screen.state is not None and screen.state.seq == 1  # the good one stays
            assert connections == 1  # no sitting down again to be sent the same
            said = [e.plain for e in log.entries if "not bela" in e.plain]
            assert len(said) == 1 and "\n" not in said[0]
            assert "view.bids" in said[0]
    finally:
        server.close()
