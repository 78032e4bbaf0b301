"""The public server's accounts (issue #39): a key is an account, one key cannot act as
another, names cannot be taken over, guests play unrated, the certificate is pinned."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import Stores, start_site

from bela.net.client import JoinError
from bela.net.identity import (
    PinMismatch,
    Pins,
    b64,
    client_context,
    load_or_make_key,
    login_message,
    public_raw,
    sign,
    unb64,
)
from bela.net.lobby_protocol import LOBBY_VERSION
from bela.net.online_client import Online


async def raw_tls(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(
        "127.0.0.1", port, ssl=client_context(), server_hostname=""
    )


async def send(writer: asyncio.StreamWriter, message: dict[str, object]) -> None:
    writer.write(json.dumps(message).encode() + b"\n")
    await writer.drain()


async def read(reader: asyncio.StreamReader) -> dict[str, object]:
    line = await asyncio.wait_for(reader.readline(), 5)
    data = json.loads(line)
    assert isinstance(data, dict)
    return data


async def test_a_key_is_an_account_and_keeps_its_name(tmp_path: Path, stores: Stores) -> None:
    site = await start_site(tmp_path, stores)
    key = Ed25519PrivateKey.generate()
    try:
        ana = await site.sign_in("Ana", key)
        assert ana.hi.name == "Ana" and not ana.hi.guest and ana.hi.provisional
        await ana.online.close()
        again = await site.sign_in("Somebody else", key)  # the key has its name already
        assert again.hi.name == "Ana"
        assert again.hi.key == ana.hi.key
    finally:
        await site.server.close()


async def test_one_key_cannot_sign_in_as_another(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    victim, thief = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    try:
        await (await site.sign_in("Ana", victim)).online.close()
        reader, writer = await raw_tls(site.port)
        # the thief claims Ana's public key and signs with their own
        await send(
            writer,
            {"type": "login", "v": LOBBY_VERSION, "name": "x", "key": b64(public_raw(victim))},
        )
        challenge = await read(reader)
        nonce = unb64(str(challenge["nonce"]), 32)
        assert nonce is not None
        forged = sign(thief, login_message(nonce, site.server.fingerprint, public_raw(victim)))
        await send(writer, {"type": "proof", "sig": b64(forged)})
        answer = await read(reader)
        assert answer["type"] == "closing" and answer["code"] == "bad_signature"
        writer.close()
    finally:
        await site.server.close()


async def test_a_signature_is_good_for_one_challenge_only(tmp_path: Path) -> None:
    """A proof seen once (a replay) does not sign in again: every login has a fresh nonce."""
    site = await start_site(tmp_path)
    key = Ed25519PrivateKey.generate()
    login = {"type": "login", "v": LOBBY_VERSION, "name": "Ana", "key": b64(public_raw(key))}
    try:
        reader, writer = await raw_tls(site.port)
        await send(writer, login)
        nonce = unb64(str((await read(reader))["nonce"]), 32)
        assert nonce is not None
        proof = b64(sign(key, login_message(nonce, site.server.fingerprint, public_raw(key))))
        await send(writer, {"type": "proof", "sig": proof})
        assert (await read(reader))["type"] == "hi"
        writer.close()
        reader, writer = await raw_tls(site.port)
        await send(writer, login)
        second = await read(reader)
        assert second["nonce"] != b64(nonce)
        await send(writer, {"type": "proof", "sig": proof})
        answer = await read(reader)
        assert answer["type"] == "closing" and answer["code"] == "bad_signature"
        writer.close()
    finally:
        await site.server.close()


@pytest.mark.parametrize("taken_as", ["Ana", "ana", "Аna", "A\u200bna", "Ána"])
async def test_names_cannot_be_taken_over(tmp_path: Path, stores: Stores, taken_as: str) -> None:
    """Another key cannot register a name that reads as one taken (Cyrillic А, case,
    accents, invisible characters), nor can a guest use it, nor a rename take it."""
    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        with pytest.raises(JoinError) as new_account:
            await site.sign_in(taken_as, Ed25519PrivateKey.generate())
        assert new_account.value.code == "name_taken"
        with pytest.raises(JoinError) as guest:
            await site.sign_in(taken_as, guest=True)
        assert guest.value.code == "name_taken"
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        await ivo.request({"type": "rename", "name": taken_as})
        refusal = await ivo.step()
        assert refusal.type == "refused" and refusal.code == "name_taken"  # type: ignore[union-attr]
        assert site.server.accounts.by_key(str(ivo.hi.key)).name == "Ivo"  # type: ignore[union-attr]
        await ana.online.close()
    finally:
        await site.server.close()


async def test_a_name_can_be_changed(tmp_path: Path, stores: Stores) -> None:
    site = await start_site(tmp_path, stores)
    key = Ed25519PrivateKey.generate()
    try:
        ana = await site.sign_in("Ana", key)
        await ana.request({"type": "rename", "name": "Anamarija"})
        renamed = await ana.step()
        assert renamed.type == "renamed" and renamed.name == "Anamarija"  # type: ignore[union-attr]
        await ana.online.close()
        assert (await site.sign_in("whatever", key)).hi.name == "Anamarija"
        ivo = await site.sign_in("Ana", Ed25519PrivateKey.generate())  # the old name is free
        assert ivo.hi.name == "Ana"
    finally:
        await site.server.close()


async def test_a_guest_plays_only_unrated(tmp_path: Path, stores: Stores) -> None:
    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request({"type": "create", "target": 501})
        created = await ana.step()
        guest = await site.sign_in("Gost", guest=True)
        assert guest.hi.guest and guest.hi.rating is None
        await guest.request({"type": "join", "table": created.table})  # type: ignore[union-attr]
        refusal = await guest.step()
        assert refusal.type == "refused" and refusal.code == "guest_unrated"  # type: ignore[union-attr]
        await guest.request({"type": "create", "target": 501, "rated": True})
        await guest.step()  # created: unrated, whatever was asked
        await ana.request({"type": "tables"})
        listing = await ana.step()
        while listing.type != "tables":
            listing = await ana.step()
        rated = {t.seats[0].name: t.rated for t in listing.tables}  # type: ignore[union-attr]
        assert rated == {"Ana": True, "Gost": False}
    finally:
        await site.server.close()


async def test_a_changed_certificate_is_refused(tmp_path: Path) -> None:
    """Trust on first use: the first connection pins the certificate; a server showing
    another one at that address later is refused before anything is sent."""
    site = await start_site(tmp_path)
    try:
        first = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        assert first.online.first_use
        assert first.online.fingerprint == site.server.fingerprint
        again = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        assert not again.online.first_use
        pins = Pins(tmp_path / "client")
        pins.path.write_text(json.dumps({f"127.0.0.1:{site.port}": "SHA256:00"}))
        with pytest.raises(PinMismatch):
            await Online.connect("127.0.0.1", site.port, "Eva", None, pins)
        assert not site.server.who or all(w.name != "Eva" for w in site.server.who.values())
    finally:
        await site.server.close()


def test_the_players_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    key = load_or_make_key(tmp_path)
    again = load_or_make_key(tmp_path)
    assert public_raw(key) == public_raw(again)
    mode = (tmp_path / "online_key.pem").stat().st_mode & 0o777
    assert mode == 0o600
