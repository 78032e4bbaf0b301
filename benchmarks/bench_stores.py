"""The public server's stores, timed: what one call costs on SQLite, on PostgreSQL and on
Redis (issue #39). Prints figures; asserts nothing about speed.

Run it where the services are (``make server-check`` starts them; this uses the URLs it
sets):

    bash tools/server_check.sh .venv/bin/python benchmarks/bench_stores.py

Without BELA_TEST_POSTGRES and BELA_TEST_REDIS it times SQLite only.
"""

from __future__ import annotations

import os
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bela.archive.glicko import Rating
from bela.net.accounts import DB_FILE, Accounts, SqliteStore, TableDirectory, TableEntry

N = 300


def timed(label: str, what: Callable[[int], object]) -> None:
    start = time.perf_counter()
    for i in range(N):
        what(i)
    each = (time.perf_counter() - start) / N
    print(f"  {label:<34} {each * 1000:7.3f} ms")


def accounts_figures(name: str, store: Accounts) -> None:
    print(f"{name}: {N} calls each")
    tag = secrets.token_hex(4)
    timed("register (a new account)", lambda i: store.register(f"P{tag}{i}", f"k{tag}{i}"))
    timed("by_key (each sign-in)", lambda i: store.by_key(f"k{tag}{i}"))
    first = store.by_key(f"k{tag}0")
    assert first is not None
    timed(
        "set_rating (with its history)",
        lambda i: store.set_rating(first.id, Rating(1500.0 + i, 300.0, 0.06), True),
    )
    timed(
        "record_match (once by id)",
        lambda i: store.record_match("T", True, 0, (1001, 500), [first.id] * 4, None, f"{tag}{i}"),
    )
    timed("matches_of (a player's page)", lambda i: store.matches_of(first.id, 20))
    timed("leaders(20)", lambda i: store.leaders(20))


def directory_figures(name: str, directory: TableDirectory) -> None:
    print(f"{name}: {N} calls each")
    timed(
        "put (a table changed)",
        lambda i: directory.put(
            TableEntry(f"T{i % 100}", True, True, 1001, True, ("Ana", "Ivo", "Eva", None), i % 3)
        ),
    )
    timed("entries (100 tables listed)", lambda i: directory.entries())
    directory.clear()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        sqlite = SqliteStore(Path(folder) / DB_FILE)
        accounts_figures("SQLite (WAL, synchronous=NORMAL)", sqlite)
        directory_figures("SQLite directory", sqlite)
        sqlite.close()
    postgres_url = os.environ.get("BELA_TEST_POSTGRES")
    if postgres_url:
        from bela.net.store_postgres import PostgresStore

        postgres = PostgresStore(postgres_url)
        accounts_figures("PostgreSQL (loopback TCP)", postgres)
        postgres.close()
    redis_url = os.environ.get("BELA_TEST_REDIS")
    if redis_url:
        from bela.net.store_redis import RedisDirectory

        redis = RedisDirectory(redis_url, worker="bench", prefix="bela-bench:")
        directory_figures("Redis directory (loopback TCP)", redis)
        redis.close()


if __name__ == "__main__":
    main()
