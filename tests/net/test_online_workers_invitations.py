"""Invitations across the workers of a public server (issue #39), on a real Redis and
PostgreSQL: the invitee signed in at another worker than the table's is told at once and
sees the invitation in their lobby, accepting sends them on to the table's worker and seats
them there, a private table's code goes neither to them nor into Redis, a decline reaches
the inviter at the other worker, blocked players cannot invite each other, and the rate
limit counts an account's invitations at every worker."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import OnlinePlayer, next_of
from test_online_workers import Cluster, cluster, port_of

from bela.net.invitations import BURST
from bela.net.lobby_protocol import Created, Declined, InviteList
from bela.net.online_client import Online, take_seat
from bela.net.protocol import Notice, Refused, Welcome

pytestmark = pytest.mark.server


async def at(site: Cluster, index: int, name: str, key: Ed25519PrivateKey) -> OnlinePlayer:
    """Signed in at worker ``index`` itself (not through the front door)."""
    online = await Online.connect("127.0.0.1", port_of(site.workers[index]), name, key, site.pins)
    return OnlinePlayer(online.client, online=online)


async def notice(player: OnlinePlayer, code: str) -> Notice:
    while True:
        said = await next_of(player, Notice)
        assert isinstance(said, Notice)
        if said.code == code:
            return said


async def refused(player: OnlinePlayer, request: dict[str, object]) -> str:
    await player.request(request)
    refusal = await next_of(player, Refused)
    assert isinstance(refusal, Refused) and refusal.code is not None
    return refusal.code


async def test_an_invitation_made_at_one_worker_is_answered_at_another(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    import redis

    async with cluster(tmp_path, postgres_url, redis_prefix, count=2) as site:
        keys = {name: Ed25519PrivateKey.generate() for name in ("Ana", "Ivo", "Eva", "Luka")}
        ana = await at(site, 0, "Ana", keys["Ana"])
        ivo = await at(site, 1, "Ivo", keys["Ivo"])
        ivo.online.client.log = frames = []
        await ana.request({"type": "create", "target": 501, "private": True, "invite": ["ivo"]})
        created = await next_of(ana, Created)
        assert isinstance(created, Created) and created.code is not None
        sent = await notice(ana, "invitation_sent")
        assert sent.args["name"] == "Ivo"
        told = await notice(ivo, "invited_you")  # at the other worker, in the lobby: told
        assert told.args["name"] == "Ana"
        await ivo.request({"type": "invites"})
        found = await next_of(ivo, InviteList)
        assert isinstance(found, InviteList)
        (invitation,) = found.invites
        assert invitation.name == "Ana" and invitation.private and invitation.target == 501
        assert invitation.seated == ("Ana",)
        # accepting at worker 1 sends Ivo on to worker 0, which seats him at Ana's table
        await ivo.online.close()
        client = await take_seat(
            "127.0.0.1",
            port_of(site.workers[1]),
            "Ivo",
            keys["Ivo"],
            site.pins,
            {"type": "answer", "name": "ANA", "accept": True},
        )
        assert isinstance(client.welcome, Welcome) and client.welcome.seat == 1
        assert client.writer.get_extra_info("peername")[1] == port_of(site.workers[0])
        table = next(iter(site.workers[0].meta.values())).table  # type: ignore[attr-defined]
        assert [s.name for s in table.seats[:2]] == ["Ana", "Ivo"]
        assert created.code not in b"".join(frames).decode()  # never sent to Ivo
        store = redis.Redis.from_url(redis_prefix[0], decode_responses=True)
        try:  # nor kept in Redis (its hash is, for the code's lookup, as before)
            for name in store.scan_iter(match=redis_prefix[1] + "*"):
                kind = store.type(name)
                value = (
                    store.hgetall(name)
                    if kind == "hash"
                    else store.lrange(name, 0, -1)
                    if kind == "list"
                    else store.get(name)
                    if kind == "string"
                    else sorted(store.smembers(name))
                    if kind == "set"
                    else []
                )
                assert created.code not in json.dumps(value)
        finally:
            store.close()
        # an invitation is answered once
        again = await at(site, 1, "Ivo", keys["Ivo"])
        assert await refused(again, {"type": "answer", "name": "Ana", "accept": True}) in (
            "already_seated",
            "no_invitation",
        )
        await again.online.close()
        # a decline at worker 1 reaches the inviter at worker 0, at her table
        luka = await at(site, 1, "Luka", keys["Luka"])
        await ana.request({"type": "invite", "name": "Luka"})
        await notice(ana, "invitation_sent")
        await notice(luka, "invited_you")
        await luka.request({"type": "answer", "accept": False})
        declined = await next_of(luka, Declined)
        assert isinstance(declined, Declined) and declined.name == "Ana"
        said = await notice(ana, "invite_declined")
        assert said.args["name"] == "Luka"
        await luka.request({"type": "invites"})
        left = await next_of(luka, InviteList)
        assert isinstance(left, InviteList) and left.invites == ()
        # Eva (at worker 1) blocks Ana: Ana cannot invite her, and is not told why
        eva = await at(site, 1, "Eva", keys["Eva"])
        await eva.request({"type": "block", "name": "Ana"})
        await asyncio.sleep(0.1)
        assert await refused(ana, {"type": "invite", "name": "Eva"}) == "cannot_invite"
        await client.close()


async def test_the_rate_limit_counts_an_accounts_invitations_at_every_worker(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    async with cluster(tmp_path, postgres_url, redis_prefix, count=2) as site:
        names = [f"P{i}" for i in range(BURST + 1)]
        for name in names:
            other = await at(site, 1, name, Ed25519PrivateKey.generate())
            await other.online.close()
        key = Ed25519PrivateKey.generate()
        mate = await at(site, 0, "Mate", key)
        await mate.request({"type": "create", "target": 501})
        await next_of(mate, Welcome)
        for name in names[:BURST]:
            await mate.request({"type": "invite", "name": name})
            await notice(mate, "invitation_sent")
        assert await refused(mate, {"type": "invite", "name": names[-1]}) == "too_many_invitations"
        await mate.online.close()
        await asyncio.sleep(0.1)
        mate = await at(site, 1, "Mate", key)  # the other worker: the same account's window
        await mate.request({"type": "create", "target": 501})
        await next_of(mate, Welcome)
        assert await refused(mate, {"type": "invite", "name": names[-1]}) == "too_many_invitations"
        await mate.online.close()


def test_the_shared_invitations_keep_the_rules_of_one_process(
    redis_prefix: tuple[str, str],
) -> None:
    """One per inviter and invitee (the newer replaces the older, which can no longer be
    answered), at most ``HELD`` an invitee (the oldest go), ``LIFETIME`` each, and a table's
    end drops its invitations."""
    from bela.foundation.lookalike import same_name
    from bela.net.invitations import HELD, LIFETIME
    from bela.net.invitations_redis import RedisInvitations
    from bela.net.store_redis import RedisDirectory

    url, prefix = redis_prefix
    directory = RedisDirectory(url, worker="w", prefix=prefix)
    now = [1000.0]
    book = RedisInvitations(directory, clock=lambda: now[0])
    try:
        first = book.add("t1", 1, "Ana", 9, {"target": 501})
        now[0] += 1
        second = book.add("t2", 1, "Ana", 9, {"target": 701})
        assert [i.id for i in book.to(9)] == [second.id]  # the newer replaced the older
        assert not book.remove(first)  # nor can the older be answered
        for by in range(2, HELD + 3):
            now[0] += 1
            book.add("t3", by, f"P{by}", 9, {})
        held = book.to(9)
        assert len(held) == HELD and held[0].by == HELD + 2  # newest first
        assert second.id not in {i.id for i in held}  # the oldest went
        found = book.find(9, "p5", same_name)
        assert found is not None and found.by == 5
        assert book.remove(found) and not book.remove(found)  # answered once
        book.drop_table("t3")
        assert book.to(9) == []
        book.add("t4", 1, "Ana", 8, {})
        now[0] += LIFETIME
        assert book.to(8) == []  # lapsed
    finally:
        directory.close()
