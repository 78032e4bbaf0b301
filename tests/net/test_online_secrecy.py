"""The friends' table's seat-secrecy check, run against the public server (issue #39):
no frame a seat at a rated quick match is sent, lobby's or table's, names a card that
seat may not know; a watcher of the public table sees no hand."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import next_of, start_site
from test_net_secrecy import _card_tokens, check_frames

from bela.archive.records import loads
from bela.net.lobby_protocol import LOBBY_TYPES
from bela.net.protocol import Over, Watching, Welcome


async def test_no_seat_at_the_public_server_is_sent_a_hidden_card(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    try:
        players, logs = [], []
        for index, name in enumerate(("Ana", "Ivo", "Eva", "Mate")):
            player = await site.sign_in(name, Ed25519PrivateKey.generate())
            player.rng.seed(index)
            player.online.client.log = log = []
            await player.request({"type": "quick", "target": 501, "wait": 600})
            players.append(player)
            logs.append(log)
        welcome = await next_of(players[0], Welcome)
        assert isinstance(welcome, Welcome)
        for player in players[1:]:
            await next_of(player, Welcome)
        watcher = await site.sign_in("Kibic", Ed25519PrivateKey.generate())
        await watcher.request({"type": "watch", "table": welcome.table})
        await next_of(watcher, Watching)
        watcher.online.client.log = watched = []
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)
        await asyncio.sleep(0.05)
        over = players[0].over
        assert over is not None
        record = loads(json.dumps(over.record))
        for player, log in zip(players, logs, strict=True):
            table_frames = [f for f in log if json.loads(f)["type"] not in LOBBY_TYPES]
            assert len(table_frames) < len(log)  # the lobby's frames were there, and checked
            for frame in log:
                if json.loads(frame)["type"] in LOBBY_TYPES:
                    assert not _card_tokens(json.loads(frame))
            assert check_frames(table_frames, player.seat, record) > 20
        await next_of(watcher, Over, 10)  # everything the watcher was sent, read
        states = [json.loads(f) for f in watched if json.loads(f)["type"] == "state"]
        assert states and all(s["view"]["hand"] == [] and s["view"]["talon"] == [] for s in states)
    finally:
        await site.server.close()
