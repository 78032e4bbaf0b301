"""The public server's lobby, quick match, ratings and fair play (issue #39)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import OnlinePlayer, Site, Stores, next_of, start_site

from bela.net.client import JoinError
from bela.net.lobby_protocol import Created, Leaderboard, PlayerPage, Queued, TableList
from bela.net.protocol import Closing, Notice, Refused, Said, State, Welcome

CARD = re.compile(r'"(7|8|9|10|J|Q|K|A)[HDSC]"')


async def listing(player: OnlinePlayer) -> TableList:
    await player.request({"type": "tables"})
    found = await next_of(player, TableList)
    assert isinstance(found, TableList)
    return found


async def quick_four(site: Site, wait: int = 60) -> list[OnlinePlayer]:
    players = []
    for index, name in enumerate(("Ana", "Ivo", "Eva", "Mate")):
        player = await site.sign_in(name, Ed25519PrivateKey.generate())
        player.rng.seed(index)
        await player.request({"type": "quick", "target": 501, "wait": wait})
        players.append(player)
    for player in players:
        await next_of(player, Welcome)
    return players


async def test_the_lobby_leaks_no_hand_and_no_private_table(tmp_path: Path, stores: Stores) -> None:
    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request({"type": "create", "target": 501, "private": True})
        private = await next_of(ana, Created)
        assert isinstance(private, Created) and private.code is not None
        assert len(private.code) == 26  # 130 bits
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        await ivo.request({"type": "create", "target": 701})
        public = await next_of(ivo, Created)
        assert isinstance(public, Created) and public.code is None
        await next_of(ivo, Welcome)
        await ivo.request({"type": "start"})  # bots in the empty seats: a match in play
        await next_of(ivo, State)
        eva = await site.sign_in("Eva", guest=True)
        eva.online.client.log = frames = []
        tables = await listing(eva)
        assert [t.id for t in tables.tables] == [public.table]
        shown = tables.tables[0]
        assert shown.started and not shown.rated  # bots sit there: unrated
        assert shown.seats[0].name == "Ivo" and shown.seats[0].rating == 1500
        text = b"".join(frames).decode()
        assert private.table not in text and private.code not in text
        assert not CARD.search(text) and "hand" not in text
        # the operator's directory (SQLite, or Redis for many workers) lists both, no code
        site.server._sync_directory()
        listed = {entry.id: entry for entry in site.server.directory.entries()}
        assert set(listed) == {private.table, public.table} and not listed[private.table].public
        assert listed[public.table].seats[0] == "Ivo" and private.code not in repr(listed)
        # a wrong code finds nothing, and the private table is not joined by its id
        await eva.request({"type": "join", "table": private.table})
        refusal = await next_of(eva, Refused)
        assert isinstance(refusal, Refused) and refusal.code == "no_such_table"
        await eva.request({"type": "join", "code": "2" * 26})
        refusal = await next_of(eva, Refused)
        assert isinstance(refusal, Refused) and refusal.code == "no_such_table"
        # the code seats a friend
        mate = await site.sign_in("Mate", Ed25519PrivateKey.generate())
        await mate.request({"type": "join", "code": private.code})
        welcome = await next_of(mate, Welcome)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
    finally:
        await site.server.close()


async def test_quick_match_seats_four_and_their_ratings_move(
    tmp_path: Path, stores: Stores
) -> None:
    site = await start_site(tmp_path, stores)
    try:
        players = await quick_four(site)
        assert len({p.online.client.welcome.table for p in players}) == 1  # type: ignore[union-attr]
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)
        await asyncio.sleep(0.05)
        winner = players[0].over.winner  # type: ignore[union-attr]
        await players[0].request({"type": "leaders"})
        board = await next_of(players[0], Leaderboard)
        assert isinstance(board, Leaderboard) and len(board.leaders) == 4
        by_name = {entry.name: entry for entry in board.leaders}
        for player in players:
            entry = by_name[player.hi.name]
            won = player.seat % 2 == winner
            assert (entry.rating > 1500) == won and entry.rated == 1
            assert entry.reliability == 1.0 and entry.provisional
        database = site.server.accounts.db  # type: ignore[attr-defined]
        rows = database.execute("SELECT rated, winner FROM matches").fetchall()
        assert rows == [(1, winner)]
        # each player's page: the rating after the match, the match from their side
        for player in players:
            await players[0].request({"type": "player", "name": player.hi.name.lower()})
            page = await next_of(players[0], PlayerPage)
            assert isinstance(page, PlayerPage) and page.name == player.hi.name
            assert [r for _at, r in page.history] == [by_name[player.hi.name].rating]
            (match,) = page.matches
            won = player.seat % 2 == winner
            assert match.rated and match.won == won and not match.left
            assert (match.scores[0] > match.scores[1]) == won
        await players[0].request({"type": "player", "name": "Nobody"})
        refusal = await next_of(players[0], Refused)
        assert isinstance(refusal, Refused) and refusal.code == "no_such_player"
        # the weekly league: the four joined the lowest division with the match's points
        from bela.net.league import DIVISIONS, LOSS, WIN
        from bela.net.lobby_protocol import LeagueTable

        await players[0].request({"type": "league"})
        table = await next_of(players[0], LeagueTable)
        assert isinstance(table, LeagueTable) and table.member and table.division == DIVISIONS
        points = {row.name: row.points for row in table.rows}
        assert points == {p.hi.name: WIN if p.seat % 2 == winner else LOSS for p in players}
        assert table.place is not None and table.rows[table.place - 1].name == "Ana"
    finally:
        await site.server.close()


async def test_quick_match_fills_with_bots_after_the_wait_unrated(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request({"type": "quick", "target": 501, "wait": 0})
        assert isinstance(await next_of(ana, Queued), Queued)
        await next_of(ana, Welcome)
        await next_of(ana, State)
        tables = await listing(ana)
        assert [s.kind for s in tables.tables[0].seats] == ["human", "bot", "bot", "bot"]
        assert not tables.tables[0].rated
    finally:
        await site.server.close()


async def test_a_rated_table_started_with_a_bot_says_its_match_is_not_rated(
    tmp_path: Path,
) -> None:
    """The acceptance run's finding: a table created rated (the lobby's default) whose host
    pressed g before all four sat down started with bots, unrated, and nobody was told;
    the lobby at the table had said only that bots fill the empty seats."""
    site = await start_site(tmp_path)
    try:
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        await ivo.request({"type": "create", "target": 501})
        assert isinstance(await next_of(ivo, Created), Created)
        await next_of(ivo, Welcome)
        await ivo.request({"type": "start"})
        told = await next_of(ivo, Notice)
        while isinstance(told, Notice) and told.code != "unrated_with_bots":
            assert told.code != "rated_match"
            told = await next_of(ivo, Notice)
        assert isinstance(told, Notice) and told.code == "unrated_with_bots"
    finally:
        await site.server.close()


async def test_leaving_a_rated_match_is_a_loss_and_lowers_reliability(
    tmp_path: Path, stores: Stores
) -> None:
    site = await start_site(tmp_path, stores)
    try:
        players = await quick_four(site)
        leaver = players[0]
        await leaver.request({"type": "leave"})
        told = await next_of(players[1], Notice)
        while isinstance(told, Notice) and told.code != "abandoned":
            told = await next_of(players[1], Notice)
        account = site.server.accounts.by_key(str(leaver.hi.key))
        assert account is not None
        assert account.rating.rating < 1500 and account.reliability == 0.0
        other = site.server.accounts.by_key(str(players[1].hi.key))
        assert other is not None and other.rating.rating == 1500 and other.reliability == 1.0
        # the match goes on unrated: its end moves nobody's rating
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players[1:])), 60)
        again = site.server.accounts.by_key(str(players[1].hi.key))
        assert again is not None and again.rating.rating == 1500
        page = site.server.accounts.matches_of(account.id, 5)
        assert [(m.left, m.won, m.rated) for m in page] == [(True, False, False)]
    finally:
        await site.server.close()


async def test_a_dropped_player_comes_back_to_their_seat(tmp_path: Path, stores: Stores) -> None:
    site = await start_site(tmp_path, stores)
    try:
        keys = [Ed25519PrivateKey.generate() for _ in range(4)]
        players = []
        for key, name in zip(keys, ("Ana", "Ivo", "Eva", "Mate"), strict=True):
            player = await site.sign_in(name, key)
            await player.request({"type": "quick", "target": 501, "wait": 60})
            players.append(player)
        welcomes = [await next_of(p, Welcome) for p in players]
        seat = welcomes[2].seat  # type: ignore[union-attr]
        await players[2].online.close()
        back = await site.sign_in("Eva", keys[2])
        welcome = await next_of(back, Welcome)
        assert isinstance(welcome, Welcome) and welcome.seat == seat
        state = await next_of(back, State)
        assert isinstance(state, State) and len(state.view.hand) > 0
        account = site.server.accounts.by_key(str(back.hi.key))
        assert account is not None and account.rating.rating == 1500  # no loss: came back
    finally:
        await site.server.close()


async def test_a_second_login_of_one_account_ends_the_first(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    key = Ed25519PrivateKey.generate()
    try:
        first = await site.sign_in("Ana", key)
        await site.sign_in("Ana", key)
        closing = await next_of(first, Closing)
        assert isinstance(closing, Closing) and closing.code == "signed_in_elsewhere"
    finally:
        await site.server.close()


async def test_rated_tables_allow_only_phrases_and_no_help(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    try:
        players = await quick_four(site)
        ana = players[0]
        told = await next_of(ana, Notice)
        while isinstance(told, Notice) and told.code != "rated_match":
            told = await next_of(ana, Notice)  # the app turns its hints off on this one
        await ana.request({"type": "chat", "text": "I hold the ace of hearts"})
        refusal = await next_of(ana, Refused)
        assert isinstance(refusal, Refused) and refusal.code == "rated_phrases_only"
        await ana.request({"type": "chat", "text": "bravo"})
        said = await next_of(players[1], Said)
        assert isinstance(said, Said) and said.text == "bravo"
        await ana.request({"type": "show", "on": True, "watcher": "Somebody"})
        refusal = await next_of(ana, Refused)
        assert isinstance(refusal, Refused) and refusal.code == "rated_no_help"
        for do in ("bot", "pause"):
            await ana.request({"type": "control", "do": do, "seat": 1})
            refusal = await next_of(ana, Refused)
            assert isinstance(refusal, Refused) and refusal.code == "rated_no_help"
    finally:
        await site.server.close()


async def test_malformed_frames_and_floods_are_refused(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    try:
        for frame in (b"not json\n", b'{"type":"hello"}\n', b"x" * 5000 + b"\n"):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", site.port, ssl=_tls(), server_hostname=""
            )
            writer.write(frame)
            await writer.drain()
            answer = json.loads(await asyncio.wait_for(reader.readline(), 5))
            assert answer["type"] == "closing"
            writer.close()
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        for _ in range(30):
            await ana.request({"type": "tables"})
        refusal = await next_of(ana, Refused)
        assert isinstance(refusal, Refused) and refusal.code == "slow_down"
        await ana.online.client.writer.drain()
        ana.online.client.writer.write(b'{"type":"tables","extra":1}\n')
        closing = await next_of(ana, Closing)
        assert isinstance(closing, Closing)
    finally:
        await site.server.close()


def _tls() -> object:
    from bela.net.identity import client_context

    return client_context()


async def test_away_longer_than_the_wait_counts_as_leaving(tmp_path: Path) -> None:
    """A dropped player has the table's wait (two minutes at a real server) to come back;
    past it a bot plays the seat and the rated match is a loss for them."""
    site = await start_site(tmp_path, wait=0.2)
    try:
        players = await quick_four(site)
        gone = players[3]
        await gone.online.close()
        told = await next_of(players[0], Notice)
        while isinstance(told, Notice) and told.code != "abandoned":
            told = await next_of(players[0], Notice)
        account = site.server.accounts.by_key(str(gone.hi.key))
        assert account is not None and account.rating.rating < 1500
        assert account.started == 1 and account.finished == 0
    finally:
        await site.server.close()


async def test_leaving_the_quick_match_queue(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request({"type": "quick", "target": 501, "wait": 600})
        await next_of(ana, Queued)
        await ana.request({"type": "create", "target": 501})
        refusal = await next_of(ana, Refused)
        assert isinstance(refusal, Refused) and refusal.code == "already_seated"
        await ana.request({"type": "leave"})
        await next_of(ana, Notice)
        assert site.server.queue == []
        await ana.request({"type": "create", "target": 501})
        assert isinstance(await next_of(ana, Created), Created)
    finally:
        await site.server.close()


async def test_a_table_left_before_its_start_is_gone(tmp_path: Path, stores: Stores) -> None:
    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request({"type": "create", "target": 501})
        await next_of(ana, Welcome)
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        assert len((await listing(ivo)).tables) == 1
        await ana.request({"type": "leave"})
        await next_of(ana, Notice)
        await asyncio.sleep(0.05)
        assert (await listing(ivo)).tables == ()
        assert site.server.directory.entries() == []
    finally:
        await site.server.close()


async def test_one_address_holds_only_so_many_signed_in_connections(tmp_path: Path) -> None:
    """A guest needs no secret: one machine cannot hold every connection the server has."""

    site = await start_site(tmp_path)
    site.server.signed_in_per_address = 2
    try:
        kept = [await site.sign_in("Gost1", guest=True), await site.sign_in("Gost2", guest=True)]
        with pytest.raises(JoinError) as refused:
            await site.sign_in("Gost3", guest=True)
        assert refused.value.code == "too_many_signed_in"
        assert len(site.server.who) == len(kept)
    finally:
        await site.server.close()


async def test_a_blocked_players_table_does_not_leak_and_they_are_never_seated_together(
    tmp_path: Path,
    stores: Stores,
) -> None:
    """Ana blocks Ivo: his table is not listed for her nor hers for him, joining or watching
    it is as if it were not there, and a quick match never seats them together."""
    from bela.net.lobby_protocol import Blocked

    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        eva = await site.sign_in("Eva", Ed25519PrivateKey.generate())
        await ana.request({"type": "block", "name": "ivo"})
        done = await next_of(ana, Blocked)
        assert isinstance(done, Blocked) and done.name == "Ivo" and done.on
        await ivo.request({"type": "create", "target": 501})
        created = await next_of(ivo, Created)
        assert isinstance(created, Created)
        ana.online.client.log = frames = []
        assert (await listing(ana)).tables == ()
        assert created.table.encode() not in b"".join(frames)
        assert len((await listing(eva)).tables) == 1  # the others see it
        for request in (
            {"type": "join", "table": created.table},
            {"type": "watch", "table": created.table},
        ):
            await ana.request(request)
            refusal = await next_of(ana, Refused)
            assert isinstance(refusal, Refused) and refusal.code == "no_such_table"
        # Ivo does not see a table Ana sits at either
        await ana.request({"type": "create", "target": 701})
        await next_of(ana, Created)
        assert [t.seats[0].name for t in (await listing(ivo)).tables] == ["Ivo"]
        # a quick match: Ana and Ivo are never at one table, whatever their ratings
        await ana.request({"type": "leave"})
        await next_of(ana, Notice)
        await ivo.request({"type": "leave"})
        await next_of(ivo, Notice)
        others = [
            await site.sign_in(n, Ed25519PrivateKey.generate()) for n in ("Mate", "Iva", "Luka")
        ]
        for player in (ana, ivo, eva, *others):
            await player.request({"type": "quick", "target": 501, "wait": 600})
        for _ in range(200):  # six wait, near in rating: four of them are seated
            started = [set(m.people) for m in site.server.meta.values() if m.table.started]
            if started:
                break
            await asyncio.sleep(0.05)
        assert started and all(not {"Ana", "Ivo"} <= names for names in started)
    finally:
        await site.server.close()


async def test_a_table_is_created_with_its_house_rules_and_they_are_listed(
    tmp_path: Path, stores: Stores
) -> None:
    site = await start_site(tmp_path, stores)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request(
            {"type": "create", "target": 701, "rules": {"dosta": True, "stiglja_bonus": 100}}
        )
        await next_of(ana, Welcome)
        (table,) = (await listing(ana)).tables
        assert table.target == 701 and table.rules.dosta and table.rules.stiglja_bonus == 100
        await ana.request({"type": "start"})
        await next_of(ana, State)
        match = next(iter(site.server.meta.values())).table.match
        assert match is not None and match.rules.dosta and match.target == 701
    finally:
        await site.server.close()


async def test_a_rated_match_in_play_does_not_count_against_its_players_reliability(
    tmp_path: Path, stores: Stores
) -> None:
    """Found in the issue #39 acceptance run: four new players in their first rated match
    were listed at "1500? 0%", as if each had left every match they started."""
    site = await start_site(tmp_path, stores)
    try:
        players = await quick_four(site)
        watcher = await site.sign_in("Gost", guest=True)
        tables = await listing(watcher)
        shown = tables.tables[0]
        assert shown.started and shown.rated
        assert [s.reliability for s in shown.seats] == [None, None, None, None]
        await players[0].request({"type": "leave"})  # decided: a loss for the leaver
        told = await next_of(players[1], Notice)
        while isinstance(told, Notice) and told.code != "abandoned":
            told = await next_of(players[1], Notice)
        shown = (await listing(watcher)).tables[0]
        assert not shown.rated
        assert sorted(s.reliability for s in shown.seats if s.name != "Ana") == [1.0, 1.0, 1.0]
    finally:
        await site.server.close()
