"""Every network test gets its own data directory: the host's saves and archive stay there."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bela-data"
    monkeypatch.setenv("BELA_DATA_DIR", str(path))
    return path


# ---------------------------------------------------------------------- the public server's stores
# "sqlite": the one-process server's SQLite file (make test). "postgres": accounts on a real
# PostgreSQL and the table directory on a real Redis, which `make server-check` starts and names
# in BELA_TEST_POSTGRES and BELA_TEST_REDIS; those params are marked `server`, and make test and
# make test-slow leave them out.
STORE_KINDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.server)]


def service_url(variable: str) -> str:
    url = os.environ.get(variable, "")
    if not url:
        pytest.fail(f"{variable} is not set: run the tests marked server with make server-check")
    return url


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh database of its own on the real PostgreSQL, dropped afterwards."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    admin_url = service_url("BELA_TEST_POSTGRES")
    name = "bela_test_" + secrets.token_hex(8)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield make_conninfo(admin_url, dbname=name)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def redis_prefix() -> Iterator[tuple[str, str]]:
    """The real Redis's URL and a key prefix of this test's own, its keys deleted afterwards."""
    import redis

    url = service_url("BELA_TEST_REDIS")
    prefix = f"bela-test-{secrets.token_hex(8)}:"
    try:
        yield url, prefix
    finally:
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture(params=STORE_KINDS)
def stores(request: pytest.FixtureRequest) -> Callable[[], dict[str, object]]:
    """Makes the ``accounts``, ``directory`` and ``live`` keywords for an ``OnlineServer`` ({} for
    SQLite in its data directory; PostgreSQL and Redis under the server marker)."""
    if request.param == "sqlite":
        return dict
    url = request.getfixturevalue("postgres_url")
    redis_url, prefix = request.getfixturevalue("redis_prefix")

    def make() -> dict[str, object]:
        from bela.net.live_postgres import PostgresLiveTables
        from bela.net.store_postgres import PostgresStore
        from bela.net.store_redis import RedisDirectory

        return {
            "accounts": PostgresStore(url),
            "directory": RedisDirectory(redis_url, prefix=prefix),
            "live": PostgresLiveTables(url),
        }

    return make
