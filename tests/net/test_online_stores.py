"""The public server's stores (issue #39): the same contract for the accounts on SQLite and
on a real PostgreSQL, and for the table directory on SQLite and on a real Redis; and what
only a store shared by several workers must do (two processes' connections at once, a
finished match written once, a worker's tables its own). The PostgreSQL and Redis params
are marked ``server``: ``make server-check`` starts both servers for them."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.archive.glicko import Rating
from bela.foundation.lookalike import skeleton
from bela.net.accounts import (
    DB_FILE,
    Accounts,
    SqliteStore,
    TableDirectory,
    TableEntry,
    clean_name,
)

server = pytest.mark.server
STORE_KINDS = ["sqlite", pytest.param("postgres", marks=server)]


def open_accounts(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Accounts:
    if kind == "sqlite":
        return SqliteStore(tmp_path / DB_FILE)
    from bela.net.store_postgres import PostgresStore

    return PostgresStore(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=STORE_KINDS)
def accounts(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Accounts]:
    store = open_accounts(request.param, tmp_path, request)
    yield store
    store.close()


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=server)])
def directory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableDirectory]:
    if request.param == "sqlite":
        made: TableDirectory = SqliteStore(tmp_path / DB_FILE)
    else:
        from bela.net.store_redis import RedisDirectory

        url, prefix = request.getfixturevalue("redis_prefix")
        made = RedisDirectory(url, prefix=prefix)
    yield made
    made.close()


def test_accounts_names_ratings_and_history(accounts: Accounts) -> None:
    ana = accounts.register("Ana", "ed25519:a")
    assert ana is not None and ana.rating == Rating(1500.0, 350.0, 0.06)
    assert ana.provisional and ana.reliability is None
    assert accounts.register("Аna", "ed25519:b") is None  # a Cyrillic А: the same name
    assert accounts.register("Ivo", "ed25519:a") is None  # the same key
    ivo = accounts.register("Ivo", "ed25519:b")
    assert ivo is not None and ivo.id != ana.id
    assert not accounts.name_free("ÍVO") and accounts.name_free("ivo", but=ivo.id)
    assert accounts.rename(ivo.id, "A\u200bna") is None and accounts.rename(ivo.id, "Ivan")
    assert accounts.by_name("ivan") == accounts.by_id(ivo.id)
    accounts.count_started([ana.id, ivo.id])
    accounts.set_rating(ana.id, Rating(1600.0, 300.0, 0.06), counted=True)
    accounts.set_rating(ana.id, Rating(1650.5, 280.0, 0.059), counted=True)
    accounts.count_finished([ana.id])
    after = accounts.by_key("ed25519:a")
    assert after is not None and after.rating == Rating(1650.5, 280.0, 0.059)
    assert after.rated == 2 and after.reliability == 1.0
    assert [rating for _at, rating in accounts.history(ana.id, 10)] == [1600.0, 1650.5]
    assert [rating for _at, rating in accounts.history(ana.id, 1)] == [1650.5]
    assert [a.name for a in accounts.leaders(10)] == ["Ana"]  # Ivan has no rated match
    ivan = accounts.by_id(ivo.id)
    assert ivan is not None and ivan.reliability == 0.0


def test_bans_blocks_and_reports(accounts: Accounts) -> None:
    ana, ivo = accounts.register("Ana", "k1"), accounts.register("Ivo", "k2")
    assert ana is not None and ivo is not None
    assert not accounts.banned("k2")
    accounts.ban("k2")
    accounts.ban("k2")  # twice is once
    assert accounts.banned("k2")
    accounts.block(ana.id, ivo.id, True)
    accounts.block(ana.id, ivo.id, True)
    assert accounts.avoided(ana.id) == {ivo.id} and accounts.avoided(ivo.id) == {ana.id}
    accounts.block(ana.id, ivo.id, False)
    assert accounts.avoided(ivo.id) == set()
    accounts.report(ana.id, ivo.id, "first")
    accounts.report(ivo.id, ana.id, "second")
    assert [(by, about, text) for _at, by, about, text in accounts.reports(10)] == [
        ("Ivo", "Ana", "second"),
        ("Ana", "Ivo", "first"),
    ]


def test_a_finished_match_is_archived_once_by_its_id(accounts: Accounts) -> None:
    ids = []
    for index in range(4):
        account = accounts.register(f"P{index}", f"key{index}")
        assert account is not None
        ids.append(account.id)
    accounts.record_match("T1", True, 0, (1001, 640), ids, None, match_id="m1")
    accounts.record_match("T1", True, 0, (1001, 640), ids, None, match_id="m1")  # a retry
    accounts.record_match("T1", False, 0, (501, 12), [ids[0], None, ids[2], None], ids[1], "m2")
    first = accounts.matches_of(ids[0], 10)
    assert [(m.rated, m.won, m.scores, m.left) for m in first] == [
        (False, True, (501, 12), False),
        (True, True, (1001, 640), False),
    ]
    second = accounts.matches_of(ids[1], 10)
    assert [(m.rated, m.won, m.scores, m.left) for m in second] == [
        (True, False, (640, 1001), False)
    ]
    assert len(accounts.matches_of(ids[3], 10)) == 1
    # without an id each write is its own match
    accounts.record_match("T2", False, 0, (501, 0), ids, None)
    accounts.record_match("T2", False, 0, (501, 0), ids, None)
    assert len(accounts.matches_of(ids[3], 10)) == 3


def test_the_directory_lists_and_forgets_tables(directory: TableDirectory) -> None:
    first = TableEntry("T1", True, True, 1001, False, ("Ana", None, None, None), 0)
    second = TableEntry("T2", False, False, 501, True, ("Ivo", "Eva", "bot", "Mate"), 2)
    directory.put(first)
    directory.put(second)
    assert directory.entries() == [first, second]
    moved = TableEntry("T1", True, True, 1001, True, ("Ana", "Ivo", "Eva", "Mate"), 1)
    directory.put(moved)
    assert directory.entries() == [second, moved]  # the longest unchanged first
    directory.remove("T2")
    assert directory.entries() == [moved]
    directory.clear()
    assert directory.entries() == []


# ---------------------------------------------------------------------- PostgreSQL only


@server
def test_postgres_schema_is_made_idempotently_and_shared(postgres_url: str) -> None:
    """Two workers' stores on one database: the schema made once, counters that add up,
    a name taken by one refused to the other."""
    from bela.net.store_postgres import PostgresStore

    one, two = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        ana = one.register("Ana", "k1")
        assert ana is not None and two.by_key("k1") == ana
        assert two.register("ANA", "k2") is None
        for _ in range(5):
            one.count_started([ana.id])
            two.count_started([ana.id])
        again = PostgresStore(postgres_url)  # a third start: the schema is there already
        counted = again.by_id(ana.id)
        again.close()
        assert counted is not None and counted.started == 10
    finally:
        one.close()
        two.close()


# ---------------------------------------------------------------------- Redis only


@server
def test_redis_directory_is_shared_by_workers_each_owning_its_tables(
    redis_prefix: tuple[str, str],
) -> None:
    from bela.net.store_redis import RedisDirectory

    url, prefix = redis_prefix
    one = RedisDirectory(url, worker="w1", prefix=prefix)
    two = RedisDirectory(url, worker="w2", prefix=prefix)
    events = two.subscribe()
    try:
        events.get_message(timeout=1.0)  # the subscription is confirmed before the first put
        one.put(TableEntry("T1", True, False, 501, False, ("Ana", None, None, None), 0))
        two.put(TableEntry("T2", True, False, 501, False, ("Ivo", None, None, None), 0))
        assert [e.id for e in one.entries()] == ["T1", "T2"] == [e.id for e in two.entries()]
        assert one.owner("T2") == "w2" and two.owner("T1") == "w1" and one.owner("T9") is None
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + 5
        while len(seen) < 2 and time.monotonic() < deadline:
            message = events.get_message(timeout=0.5)
            if message is not None:
                seen.append(json.loads(message["data"]))
        assert seen == [{"put": "T1"}, {"put": "T2"}]
        # presence: an account online at one worker; a stale "gone" from another changes nothing
        one.set_online(7, True)
        assert two.online() == {7: "w1"}
        two.set_online(7, False)
        assert one.online() == {7: "w1"}
        one.set_online(7, False)
        assert one.online() == {}
        # a worker's start or end clears its own tables only
        one.clear()
        assert [e.id for e in two.entries()] == ["T2"]
        # a worker that stops renewing its heartbeat is gone: its tables are orphans
        assert one.orphans() == {}
        two.redis.delete(prefix + "alive:w2")
        assert one.orphans() == {"w2": ["T2"]}
        two.heartbeat()
        assert one.orphans() == {}
        # a new worker's start forgets what a dead one left: its tables, its online marks
        two.set_online(8, True)
        one.set_online(9, True)
        two.redis.delete(prefix + "alive:w2")
        three = RedisDirectory(url, worker="w3", prefix=prefix)
        three.clear()
        three.close()
        assert one.entries() == [] and one.online() == {9: "w1"}
    finally:
        events.close()
        one.close()
        two.close()


@pytest.fixture
def taken() -> set[str]:
    """The skeletons taken in ``accounts`` so far (the two live as long as each other)."""
    return set()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(names=st.lists(st.text(max_size=30), max_size=6), lookups=st.lists(st.text(), max_size=3))
def test_any_name_is_registered_once_as_it_reads_and_any_lookup_answers(
    accounts: Accounts, taken: set[str], names: list[str], lookups: list[str]
) -> None:
    """One store for all the examples: a name is taken iff no name that reads the same was
    taken before, in this example or an earlier one; a lookup of any text the lobby's
    decoder lets through (NUL among it) finds an account that reads so, or nothing."""
    for name in names:
        kept = clean_name(name)
        if not kept:
            continue
        made = accounts.register(kept, "ed25519:" + secrets.token_hex(8))
        assert (made is not None) == (skeleton(kept) not in taken)
        taken.add(skeleton(kept))
        assert accounts.by_name(kept) is not None and not accounts.name_free(kept)
    for text in lookups:
        found = accounts.by_name(text)
        assert (found is not None) == (skeleton(text) in taken)
        assert found is None or skeleton(found.name) == skeleton(text)


def test_mutes_are_kept_per_account(accounts: Accounts) -> None:
    ana, ivo, eva = (accounts.register(n, f"k{n}") for n in ("Ana", "Ivo", "Eva"))
    assert ana is not None and ivo is not None and eva is not None
    accounts.mute(ana.id, ivo.id, True)
    accounts.mute(ana.id, ivo.id, True)  # twice is once
    accounts.mute(ana.id, eva.id, True)
    assert accounts.muted(ana.id) == {ivo.id, eva.id} and accounts.muted(ivo.id) == set()
    accounts.mute(ana.id, ivo.id, False)
    assert accounts.muted(ana.id) == {eva.id}


def test_the_weekly_league_promotes_and_relegates_at_the_week_boundary(
    accounts: Accounts,
) -> None:
    """A synthetic week on an injected clock: twelve players in the lowest division, their
    points from rated matches; at Monday 00:00 UTC the top three go up, the bottom three
    stay (the lowest division relegates nobody); a week later the top of division 4 goes
    up again and its bottom goes back down; who did not play stays."""
    from datetime import UTC, datetime

    from bela.net.league import DIVISIONS, LOSS, WIN, League, week_of

    now = [datetime(2026, 12, 2, 12, 0, tzinfo=UTC).timestamp()]  # a Wednesday
    league = League(accounts, clock=lambda: now[0])
    ids = []
    for index in range(12):
        account = accounts.register(f"P{index:02d}", f"key{index}")
        assert account is not None
        ids.append(account.id)
    for index, account in enumerate(ids):  # P00 wins most, P11 least
        for match in range(12 - index):
            league.record({account: WIN if match % 2 == 0 else LOSS})
    idle = accounts.register("Idle", "idle")
    assert idle is not None
    standing = league.standing(ids[0])
    assert standing.week == "2026-W49" == week_of(now[0]) and standing.member
    assert standing.division == DIVISIONS and [line.account for line in standing.lines] == ids
    assert (standing.promoted, standing.relegated) == (3, 0)
    assert standing.lines[0].played == 12 and standing.lines[0].points == 6 * WIN + 6 * LOSS
    assert not league.standing(idle.id).member
    assert standing.ends == datetime(2026, 12, 7, tzinfo=UTC).timestamp()
    now[0] = datetime(2026, 12, 6, 23, 59, 59, tzinfo=UTC).timestamp()  # Sunday: no change
    assert league.current() == "2026-W49" and accounts.league_division(ids[0]) == DIVISIONS
    now[0] = datetime(2026, 12, 7, 0, 0, 1, tzinfo=UTC).timestamp()  # Monday: the boundary
    assert league.current() == "2026-W50"
    assert [accounts.league_division(i) for i in ids] == [DIVISIONS - 1] * 3 + [DIVISIONS] * 9
    assert league.standing(ids[0]).lines == []  # a new week: nobody has played yet
    # the roll happens once: a second process that saw the same boundary rolls nothing
    assert not accounts.league_roll("2026-W49", "2026-W50", {ids[0]: 1})
    assert accounts.league_division(ids[0]) == DIVISIONS - 1
    # week 50: the three of division 4 play, P02 best; P00 least; P05 plays below
    for account, wins in ((ids[2], 3), (ids[1], 2), (ids[0], 1)):
        for _ in range(wins):
            league.record({account: WIN})
    league.record({ids[5]: LOSS})
    now[0] = datetime(2026, 12, 14, 9, 0, tzinfo=UTC).timestamp()
    assert league.current() == "2026-W51"
    assert accounts.league_division(ids[2]) == DIVISIONS - 2  # up again
    assert accounts.league_division(ids[1]) == DIVISIONS - 1  # the middle stays
    assert accounts.league_division(ids[0]) == DIVISIONS  # the bottom goes back down
    assert accounts.league_division(ids[5]) == DIVISIONS  # one player alone moves nowhere
    assert accounts.league_division(ids[11]) == DIVISIONS  # did not play: stays


@given(
    st.dictionaries(
        st.integers(1, 5),
        st.lists(st.integers(0, 10_000), unique=True, max_size=30),
    )
)
def test_league_moves_are_one_division_and_never_more_than_a_third(
    tables: dict[int, list[int]],
) -> None:
    from bela.net.league import DIVISIONS, moves

    players = [p for ranked in tables.values() for p in ranked]
    if len(players) != len(set(players)):  # one account is in one division
        return
    moved = moves(tables)
    for division, ranked in tables.items():
        ups = [p for p in ranked if moved.get(p) == division - 1]
        downs = [p for p in ranked if moved.get(p) == division + 1]
        assert len(ups) <= len(ranked) // 3 and len(downs) <= len(ranked) // 3
        assert all(moved.get(p, division) in (division - 1, division, division + 1) for p in ranked)
        assert ups == ranked[: len(ups)] and downs == ranked[len(ranked) - len(downs) :]
        assert not (division == 1 and ups) and not (division == DIVISIONS and downs)
