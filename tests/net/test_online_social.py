"""Invitations by name and muting at the public server (issue #39): an invitation seats the
invitee at a private table without its code, blocked players cannot invite each other,
invitations are rate-limited, and a muted player's talk never reaches the one who muted."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import OnlinePlayer, Stores, next_of, start_site

from bela.net.invitations import BURST
from bela.net.lobby_protocol import Created, Declined, InviteList, Muted
from bela.net.protocol import Notice, Refused, Said, Welcome


async def refused(player: OnlinePlayer, request: dict[str, object]) -> str:
    await player.request(request)
    refusal = await next_of(player, Refused)
    assert isinstance(refusal, Refused) and refusal.code is not None
    return refusal.code


async def notice(player: OnlinePlayer, code: str) -> Notice:
    """The next notice of that kind (others, such as who sits down, pass by)."""
    while True:
        said = await next_of(player, Notice)
        assert isinstance(said, Notice)
        if said.code == code:
            return said


async def test_an_invitation_seats_the_invitee_at_a_private_table_without_its_code(
    tmp_path: Path, stores: Stores
) -> None:
    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        ivo.online.client.log = frames = []
        await ana.request({"type": "create", "target": 501, "private": True, "invite": ["ivo"]})
        created = await next_of(ana, Created)
        assert isinstance(created, Created) and created.code is not None
        sent = await notice(ana, "invitation_sent")  # after the welcome: the seat's client
        assert sent.args["name"] == "Ivo"
        told = await notice(ivo, "invited_you")  # in the lobby: told at once
        assert told.args["name"] == "Ana"
        await ivo.request({"type": "invites"})
        found = await next_of(ivo, InviteList)
        assert isinstance(found, InviteList)
        (invitation,) = found.invites
        assert invitation.name == "Ana" and invitation.private and invitation.target == 501
        assert invitation.seated == ("Ana",)
        await ivo.request({"type": "answer", "name": "ANA", "accept": True})
        welcome = await next_of(ivo, Welcome)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
        table = next(iter(site.server.meta.values())).table
        assert [s.name for s in table.seats[:2]] == ["Ana", "Ivo"]
        assert created.code not in b"".join(frames).decode()  # the code never went to Ivo
        # an invitation is answered once
        assert await refused(ivo, {"type": "answer", "name": "Ana", "accept": True}) in (
            "already_seated",
            "no_invitation",
        )
        # a guest can neither invite nor be asked
        eva = await site.sign_in("Eva", guest=True)
        assert await refused(eva, {"type": "invite", "name": "Ana"}) == "guest_no_account"
        assert await refused(ana, {"type": "invite", "name": "Eva"}) == "cannot_invite"
        # inviting is from a table
        mate = await site.sign_in("Mate", Ed25519PrivateKey.generate())
        assert await refused(mate, {"type": "invite", "name": "Ana"}) == "invite_not_seated"
    finally:
        await site.server.close()


async def test_declining_tells_the_inviter_and_blocked_players_cannot_invite_each_other(
    tmp_path: Path, stores: Stores
) -> None:
    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        eva = await site.sign_in("Eva", Ed25519PrivateKey.generate())
        await ana.request({"type": "create", "target": 501})
        await next_of(ana, Welcome)
        await ana.request({"type": "invite", "name": "Eva"})
        await notice(ana, "invitation_sent")
        await eva.request({"type": "answer", "accept": False})
        declined = await next_of(eva, Declined)
        assert isinstance(declined, Declined) and declined.name == "Ana"
        said = await notice(ana, "invite_declined")
        assert said.args["name"] == "Eva"
        await eva.request({"type": "invites"})
        left = await next_of(eva, InviteList)
        assert isinstance(left, InviteList) and left.invites == ()
        # Ivo blocks Ana: neither may invite the other, and Ivo is not told why
        await ivo.request({"type": "block", "name": "Ana"})
        assert await refused(ana, {"type": "invite", "name": "Ivo"}) == "cannot_invite"
        await ivo.request({"type": "create", "target": 701})
        await next_of(ivo, Welcome)
        assert await refused(ivo, {"type": "invite", "name": "Ana"}) == "cannot_invite"
        # nor may Eva invite Ivo to a table where Ana sits (Ivo blocked her)
        await eva.request({"type": "join", "table": next(iter(site.server.meta))})
        await next_of(eva, Welcome)
        assert await refused(eva, {"type": "invite", "name": "Ivo"}) == "cannot_invite"
        assert await refused(ana, {"type": "invite", "name": "Nobody"}) == "cannot_invite"
    finally:
        await site.server.close()


async def test_invitations_are_rate_limited_per_account(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    try:
        key = Ed25519PrivateKey.generate()
        ana = await site.sign_in("Ana", key)
        names = [f"P{i}" for i in range(BURST + 1)]
        for name in names:
            other = await site.sign_in(name, Ed25519PrivateKey.generate())
            await other.online.close()
        await ana.request({"type": "create", "target": 501})
        await next_of(ana, Welcome)
        for name in names[:BURST]:
            await ana.request({"type": "invite", "name": name})
            await notice(ana, "invitation_sent")
        assert await refused(ana, {"type": "invite", "name": names[-1]}) == "too_many_invitations"
        assert len(site.server.invitations.pending) == BURST
        # signing in again, at a new table, is the same account's window
        await ana.online.close()
        await asyncio.sleep(0.05)
        ana = await site.sign_in("Ana", key)
        await ana.request({"type": "create", "target": 501})
        await next_of(ana, Welcome)
        assert await refused(ana, {"type": "invite", "name": names[-1]}) == "too_many_invitations"
    finally:
        await site.server.close()


async def test_a_muted_players_talk_is_not_shown_and_muting_is_kept(
    tmp_path: Path, stores: Stores
) -> None:
    site = await start_site(tmp_path, stores)
    try:
        ana_key = Ed25519PrivateKey.generate()
        ana = await site.sign_in("Ana", ana_key)
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        await ana.request({"type": "mute", "name": "ivo"})
        done = await next_of(ana, Muted)
        assert isinstance(done, Muted) and done.name == "Ivo" and done.on
        await ana.request({"type": "create", "target": 501, "rated": False})
        created = await next_of(ana, Created)
        assert isinstance(created, Created)
        await ivo.request({"type": "join", "table": created.table})
        await next_of(ivo, Welcome)
        await ivo.request({"type": "chat", "text": "bravo"})
        heard = await next_of(ivo, Said)  # Ivo sees his own line
        assert isinstance(heard, Said) and heard.text == "bravo"
        await ana.request({"type": "chat", "text": "hvala"})
        line = await next_of(ana, Said)
        assert isinstance(line, Said) and line.name == "Ana"  # Ivo's line never reached Ana
        # kept with the account: after signing in again, still muted
        await ana.online.close()
        await asyncio.sleep(0.05)
        ana = await site.sign_in("Ana", ana_key)
        await ana.request({"type": "join", "table": created.table})
        await next_of(ana, Welcome)
        await ivo.request({"type": "chat", "text": "idemo"})
        await next_of(ivo, Said)
        await ana.request({"type": "chat", "text": "dobro"})
        while True:
            line = await next_of(ana, Said)
            assert isinstance(line, Said) and line.name != "Ivo"
            if line.text == "dobro":
                break
        await ana.request({"type": "mute", "name": "Ivo", "on": False})
        await next_of(ana, Muted)
        await ivo.request({"type": "chat", "text": "ajme"})
        line = await next_of(ana, Said)
        while isinstance(line, Said) and line.name == "Ana":
            line = await next_of(ana, Said)
        assert isinstance(line, Said) and line.name == "Ivo" and line.text == "ajme"
        assert await refused(ana, {"type": "mute", "name": "Nobody"}) == "no_such_player"
    finally:
        await site.server.close()
