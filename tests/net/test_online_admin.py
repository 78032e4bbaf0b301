"""``bela server admin list`` names the worker that holds each table (issue #39): one process
is ``main``; a server of many (``--workers N``) answers from every worker's control socket,
each table with its worker's name as the table directory holds it (``host:port``)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import next_of, start_site

from bela.cli.online import AdminOptions, _print_list, run_admin
from bela.net.lobby_protocol import Created


async def test_admin_list_names_the_worker_of_each_table(tmp_path: Path) -> None:
    site = await start_site(tmp_path)
    try:
        ana = await site.sign_in("Ana", Ed25519PrivateKey.generate())
        await ana.request({"type": "create", "target": 701})
        created = await next_of(ana, Created)
        assert isinstance(created, Created)
        (table,) = site.server.admin_list()["tables"]
        assert table["worker"] == site.server.keeper.worker == "main"
        out = io.StringIO()
        options = AdminOptions(tmp_path / "server", "list", None)
        assert await asyncio.to_thread(run_admin, options, out, io.StringIO()) == 0
        (line,) = [line for line in out.getvalue().splitlines() if created.table in line]
        assert line.endswith("  @main")
        await ana.online.close()
    finally:
        await site.server.close()


def test_the_merged_answers_of_many_workers_say_which_holds_each_table() -> None:
    seat = {"name": "Ana", "kind": "person", "key": "ed25519:AAAA"}
    answer = {
        "ok": True,
        "tables": [
            {"id": "T1", "public": True, "rated": True, "target": 1001, "seats": [seat]},
            {"id": "T2", "public": False, "rated": False, "target": 501, "seats": [seat]},
        ],
        "online": [],
    }
    answer["tables"][0]["worker"] = "bela-1:7000"  # type: ignore[index]
    answer["tables"][1]["worker"] = "bela-2:7001\x1b[2J"  # type: ignore[index]
    out = io.StringIO()
    _print_list(answer, out)
    first, second = out.getvalue().splitlines()
    assert first.startswith("T1") and first.endswith("  @bela-1:7000")
    assert second.startswith("T2") and "@bela-2:7001" in second and "\x1b" not in second
