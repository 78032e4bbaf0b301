"""Issue #33, point 4, against the real ``bela host`` process: a hand cannot be sniped by a
watcher with a friend's name.

An opponent opened a watcher named as the friend and got Ana's six cards, while the
table was told "Ana lets Mia see their hand": ``w`` showed the hand to "the newest
watcher", and watcher names were not unique. Now a look-alike of a seated name is turned
away, and a hand goes only to the watcher the player names.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from netplay import real_host

from bela.net.client import Client, JoinError
from bela.net.protocol import Refused, State, WatcherList


async def _next(client: Client, kind: type, timeout: float = 20.0) -> object:
    async def loop() -> object:
        while True:
            message = await client.receive()
            if isinstance(message, kind):
                return message

    return await asyncio.wait_for(loop(), timeout)


async def test_a_look_alike_watcher_is_turned_away_and_the_named_one_alone_sees(
    tmp_path: Path,
) -> None:
    clients: list[Client] = []
    async with real_host(tmp_path, "--bots", "random") as (port, code):
        try:
            ana = await Client.connect("127.0.0.1", port, code, "Ana")
            mia = await Client.connect("127.0.0.1", port, code, "Mia", watch=True)
            clients += [ana, mia]
            for fake in ("\u0410na", "ANA", "A\u200bna", "Mia"):  # Cyrillic А, case, ZWSP, taken
                with pytest.raises(JoinError) as refused:
                    await Client.connect("127.0.0.1", port, code, fake, watch=True)
                assert refused.value.code == "watch_name_taken", fake
            snoop = await Client.connect("127.0.0.1", port, code, "Snoop", watch=True)
            clients.append(snoop)
            listed = await _next(ana, WatcherList)
            while isinstance(listed, WatcherList) and listed.names != ("Mia", "Snoop"):
                listed = await _next(ana, WatcherList)
            await ana.send({"type": "start"})
            await _next(ana, State)
            await ana.send({"type": "show", "on": True})  # "the newest watcher" is no answer
            said = await _next(ana, Refused)
            assert isinstance(said, Refused) and said.code == "name_the_watcher"
            await ana.send({"type": "show", "on": True, "watcher": "Mia"})
            seen = await _next(mia, State)
            while isinstance(seen, State) and not seen.view.hand:
                seen = await _next(mia, State)
            assert isinstance(seen, State) and seen.view.hand
            snoop_states: list[State] = []
            try:
                while True:
                    message = await asyncio.wait_for(snoop.receive(), 1.0)
                    if isinstance(message, State):
                        snoop_states.append(message)
            except TimeoutError:
                pass
            assert snoop_states and all(not s.view.hand for s in snoop_states)
        finally:
            for client in clients:
                await client.close()
