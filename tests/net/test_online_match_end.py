"""The end of a rated match is one transaction (issue #39): the archive row, the four
ratings and their history, the finished counters (reliability), the weekly league's points
and the removal of the table's live save land together or not at all, and a repeat of the
same match id changes nothing. A store whose n-th statement of the end raises (for every n)
leaves everything as it was; the retry then lands it all, once. On SQLite in ``make test``;
on a real PostgreSQL under ``make server-check`` (the ``server`` marker)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import OnlinePlayer, Site, Stores, next_of, start_site

from bela.archive.glicko import Rating
from bela.net.accounts import DB_FILE, Accounts, MatchEnd, SqliteStore
from bela.net.league import DIVISIONS, LOSS, WIN
from bela.net.live_tables import LiveStore, SqliteLiveTables
from bela.net.protocol import Welcome

NAMES = ("Ana", "Ivo", "Eva", "Mate")


class Failing:
    """A store's connection whose ``fail_at``-th statement (counting from 1) raises, and every
    statement containing ``fail_on`` (until the test puts the real connection back)."""

    def __init__(self, db: Any, fail_at: int = 0, fail_on: str = "") -> None:
        self.db, self.fail_at, self.fail_on = db, fail_at, fail_on
        self.statements: list[str] = []
        self.failures = 0

    def execute(self, query: str, *args: Any) -> Any:
        self.statements.append(query)
        if len(self.statements) == self.fail_at or (self.fail_on and self.fail_on in query):
            self.failures += 1
            raise RuntimeError("the process dies here")
        return self.db.execute(query, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.server)])
def both(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Accounts, LiveStore]]:
    """The accounts and the live tables on one database, as ``bela server`` has them."""
    if request.param == "sqlite":
        made: tuple[Accounts, LiveStore] = (
            SqliteStore(tmp_path / DB_FILE),
            SqliteLiveTables(tmp_path / DB_FILE),
        )
    else:
        from bela.net.live_postgres import PostgresLiveTables
        from bela.net.store_postgres import PostgresStore

        url = request.getfixturevalue("postgres_url")
        made = (PostgresStore(url), PostgresLiveTables(url))
    yield made
    for store in made:
        store.close()


def everything(accounts: Accounts, live: LiveStore, ids: list[int]) -> object:
    """All a match's end may change, as the store holds it."""
    return (
        [accounts.by_id(i) for i in ids],
        [accounts.history(i, 10) for i in ids],
        [accounts.matches_of(i, 10) for i in ids],
        [accounts.league_division(i) for i in ids],
        accounts.league_table("2026-W49", DIVISIONS),
        live.owned("w1"),
    )


def test_a_match_end_lands_whole_or_not_at_all_and_once(
    both: tuple[Accounts, LiveStore],
) -> None:
    accounts, live = both
    ids = []
    for name in NAMES:
        account = accounts.register(name, f"key:{name}")
        assert account is not None
        ids.append(account.id)
    accounts.count_started(ids)
    assert live.put("T1", "w1", '{"the": "save"}')
    end = MatchEnd(
        match_id="m1",
        table_id="T1",
        archive=True,
        rated=True,
        winner=0,
        scores=(1001, 640),
        seats=tuple(ids),
        abandoned_by=None,
        ratings=tuple((i, Rating(1600.0 - 200 * (n % 2), 300.0, 0.06)) for n, i in enumerate(ids)),
        finished=tuple(ids),
        week="2026-W49",
        points=tuple((i, WIN if n % 2 == 0 else LOSS) for n, i in enumerate(ids)),
        entry=DIVISIONS,
        save_of="w1",
    )
    before = everything(accounts, live, ids)
    real = accounts.db  # type: ignore[attr-defined]
    fail_at = 0
    while True:  # the 1st statement of the end fails, then the 2nd, ... until none is left
        fail_at += 1
        failing = Failing(real, fail_at=fail_at)
        accounts.db = failing  # type: ignore[attr-defined]
        try:
            landed = accounts.end_match(end)
        except RuntimeError:
            landed = False
            assert everything(accounts, live, ids) == before, f"statement {fail_at} left a part"
        finally:
            accounts.db = real  # type: ignore[attr-defined]
        if landed:  # the retry after the last failure lands it all
            assert len(failing.statements) < fail_at
            break
    assert fail_at > 10  # archive, counted, 4 x (rating, history), finished, league, save
    after = everything(accounts, live, ids)
    for n, i in enumerate(ids):
        account = accounts.by_id(i)
        assert account is not None and account.rated == 1 and account.finished == 1
        assert account.rating.rating == 1600.0 - 200 * (n % 2)
        assert len(accounts.history(i, 10)) == 1
        (line,) = accounts.matches_of(i, 10)
        assert line.rated and line.won == (n % 2 == 0)
        assert accounts.league_division(i) == DIVISIONS
    table = accounts.league_table("2026-W49", DIVISIONS)
    assert sorted((line.points, line.played) for line in table) == [(1, 1)] * 2 + [(3, 1)] * 2
    assert live.owned("w1") == []
    assert not accounts.end_match(end)  # a repeat of the same match id: nothing more
    assert everything(accounts, live, ids) == after
    # an abandonment counted under a match id is not counted again by that match's end
    live.put("T2", "w1", "{}")
    left = MatchEnd(**{**_fields(end), "match_id": "m2", "table_id": "T2", "archive": False})
    assert accounts.end_match(left)
    assert live.owned("w1") == [("T2", "{}")]  # not archived: the table plays on
    again = MatchEnd(**{**_fields(end), "match_id": "m2", "table_id": "T2"})
    assert accounts.end_match(again)  # archived now, its save gone, nobody counted twice
    account = accounts.by_id(ids[0])
    assert account is not None and account.rated == 2 and account.finished == 2
    assert len(accounts.matches_of(ids[0], 10)) == 2 and live.owned("w1") == []


def _fields(end: MatchEnd) -> dict[str, Any]:
    return {name: getattr(end, name) for name in MatchEnd.__slots__}


# ---------------------------------------------------------------------- at the server


async def seat_four(site: Site, keys: list[Ed25519PrivateKey]) -> list[OnlinePlayer]:
    players = []
    for index, (key, name) in enumerate(zip(keys, NAMES, strict=True)):
        player = await site.sign_in(name, key)
        player.rng.seed(index)
        await player.request({"type": "quick", "target": 501, "wait": 60})
        players.append(player)
    for player in players:
        await next_of(player, Welcome)
    return players


def counted(site: Site) -> dict[str, tuple[float, int, int, int]]:
    """Each player's rating, rated and finished matches, and archived matches."""
    out = {}
    for name in NAMES:
        account = site.server.accounts.by_name(name)
        assert account is not None
        lines = site.server.accounts.matches_of(account.id, 5)
        out[name] = (account.rating.rating, account.rated, account.finished, len(lines))
    return out


@pytest.mark.parametrize("then", ["retry", "restart"])
async def test_a_rated_match_whose_end_fails_midway_lands_later_whole_and_once(
    tmp_path: Path, stores: Stores, then: str
) -> None:
    """The store fails at the league's points, after the ratings in the order the server
    writes them: nothing of the end has landed (not archived, nobody rated, the save kept);
    then the server's tick tries again, or a restarted server takes the table up from its
    save, and the end lands once; a second restart changes nothing."""
    keys = [Ed25519PrivateKey.generate() for _ in range(4)]
    site = await start_site(tmp_path, stores)
    try:
        players = await seat_four(site, keys)
        untouched = counted(site)
        assert all(v == (1500.0, 0, 0, 0) for v in untouched.values())
        real = site.server.accounts.db  # type: ignore[attr-defined]
        failing = Failing(real, fail_on="INSERT INTO league_points")
        site.server.accounts.db = failing  # type: ignore[attr-defined]
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120)
        assert all(p.over is not None for p in players)
        assert failing.failures >= 1 and site.server.ends.unsettled
        assert counted(site) == untouched  # nothing of the end landed
        table_id = players[0].online.client.welcome.table  # type: ignore[union-attr]
        owned = site.server.keeper.store.owned(site.server.keeper.worker)
        assert [t for t, _ in owned] == [table_id]  # the save, to end it from, is kept
        site.server.accounts.db = real  # type: ignore[attr-defined]  # the store is back
        if then == "retry":
            async with asyncio.timeout(10):
                while site.server.ends.unsettled:
                    await asyncio.sleep(0.05)
            landed = counted(site)
    finally:
        if then == "restart":
            site.server.ends.unsettled.clear()  # as if the process died here
        await site.server.close()
    for _ in range(2):  # a restart takes the save up (once) and ends the match, then nothing
        site = await start_site(tmp_path, stores)
        try:
            await asyncio.sleep(0.1)
            if then == "restart":
                landed = counted(site)
            assert counted(site) == landed
            assert site.server.keeper.store.owned(site.server.keeper.worker) == []
        finally:
            await site.server.close()
    for name, (rating, rated, finished, archived) in landed.items():
        assert (rated, finished, archived) == (1, 1, 1), name
        assert rating != 1500.0
