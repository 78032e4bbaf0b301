"""How big a public server's live table's save gets over a match to 1001 (issue #39).

The server writes a table's whole save after every action (``bela.net.live_tables``): the
record of the match so far, the seats, what the public server knows of the table. This
runs a ``bela server`` in this process (SQLite in a temporary directory), seats
``--tables`` tables by quick match (four new accounts each, a random legal action at once,
as ``bench_online.py`` plays) with a target of ``--target``, and records the length of
every save the server writes, with the number of rounds the match had finished then.

It prints the saves' sizes: all of them (mean, median, 90th percentile, largest), and by
rounds finished (the largest save while in each round), each match's rounds and last save,
and what of a save is not the match's record (the seats, tokens' hashes, the table's facts).

Random play ends a match sooner than people do (a random bid falls often, and a fallen
round gives the other pair everything), so ``--bot-matches`` then plays that many matches
with four ``--bot`` bots in the engine alone and prints how many rounds they took and the
record's size at their end: the save at the end of a match is that record plus the rest.
A measurement, not a test: nothing is asserted.

    nice .venv/bin/python benchmarks/bench_live_save.py --tables 8 --bot-matches 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bela.ai import make_bot
from bela.ai.driver import play_bots_until
from bela.archive.records import record_from_match
from bela.engine import Match
from bela.net.identity import Pins
from bela.net.online_client import Online
from bela.net.online_server import OnlineServer, online_options
from bela.net.protocol import Over, State, Welcome


def ninetieth(values: list[int]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


async def play(online: Online, rng: random.Random) -> None:
    while True:
        message = await online.receive()
        if isinstance(message, Over):
            return
        if isinstance(message, State):
            view = message.view
            if view.to_act == message.seat and view.legal and view.phase != "finished":
                await online.send({"type": "act", "action": rng.choice(view.legal)})


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = OnlineServer(
            Path(tmp) / "server",
            online_options(difficulty="random", target=args.target, bot_delay=0.0),
            say=lambda _line: None,
        )
        saves: list[tuple[str, int, int]] = []
        """(table id, rounds finished, bytes) of every save written."""
        rest: list[int] = []
        """The bytes of each save that are not the match's record."""
        put = server.keeper.store.put

        def measured(table_id: str, worker: str, text: str) -> bool:
            meta = server.meta.get(table_id)
            match = meta.table.match if meta is not None else None
            rounds = len(match.rounds) if match is not None else -1
            saves.append((table_id, rounds, len(text.encode())))
            record = json.loads(text)["table"]["record"]
            kept = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
            rest.append(len(text.encode()) - len(kept.encode()))
            return put(table_id, worker, text)

        server.keeper.store.put = measured  # type: ignore[method-assign]
        host, port = await server.start("127.0.0.1", 0)
        pins = Pins(Path(tmp) / "client")
        try:
            clients = []
            for n in range(4 * args.tables):
                online = await Online.connect(
                    host, port, f"P{n}", Ed25519PrivateKey.generate(), pins
                )
                await online.send({"type": "quick", "target": args.target, "wait": 600})
                clients.append(online)
            for online in clients:
                while not isinstance(await online.receive(), Welcome):
                    pass
            rng = random.Random(args.seed)
            await asyncio.gather(*(play(o, random.Random(rng.random())) for o in clients))
            for online in clients:
                await online.close()
        finally:
            await server.close()
    sizes = [size for _, _, size in saves]
    print(f"{len(saves)} saves of {args.tables} matches to {args.target}")
    print(
        f"all saves: mean {statistics.mean(sizes) / 1024:.1f} KB, "
        f"median {statistics.median(sizes) / 1024:.1f} KB, "
        f"90th percentile {ninetieth(sizes) / 1024:.1f} KB, "
        f"largest {max(sizes) / 1024:.1f} KB"
    )
    by_rounds: dict[int, list[int]] = defaultdict(list)
    for _, rounds, size in saves:
        by_rounds[rounds].append(size)
    for rounds in sorted(by_rounds):
        found = by_rounds[rounds]
        print(
            f"  {rounds:2d} rounds finished: {len(found):4d} saves, "
            f"median {statistics.median(found) / 1024:5.1f} KB, largest {max(found) / 1024:5.1f} KB"
        )
    tables: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for table_id, rounds, size in saves:
        tables[table_id].append((rounds, size))
    for table_id, kept in tables.items():
        rounds = max(r for r, _ in kept)
        print(f"  match {table_id[:8]}: {rounds} rounds, last save {kept[-1][1] / 1024:.1f} KB")
    print(f"a save beside its record: {min(rest)} to {max(rest)} bytes")
    if args.bot_matches:
        bots_play(args, max(rest))


def bots_play(args: argparse.Namespace, beside: int) -> None:
    """``--bot-matches`` matches of four ``--bot`` bots: their rounds and end records."""
    bot = make_bot(args.bot)
    bots = dict.fromkeys(range(4), bot)
    rng = random.Random(args.seed)
    rounds, records = [], []
    for _ in range(args.bot_matches):
        match = Match.new(rng.getrandbits(63), target=args.target)
        match = play_bots_until(match, bots, stop_at_round_end=False)
        rounds.append(len(match.rounds))
        records.append(len(record_from_match(match, args.bot).model_dump_json().encode()))
    print(
        f"{args.bot_matches} matches of four {args.bot} bots to {args.target}: rounds "
        f"median {statistics.median(rounds):.0f}, 90th percentile {ninetieth(rounds):.0f}, "
        f"most {max(rounds)}"
    )
    ends = sorted(records)
    print(
        f"  the record at the match's end: median {statistics.median(ends) / 1024:.1f} KB, "
        f"90th percentile {ninetieth(ends) / 1024:.1f} KB, "
        f"largest {ends[-1] / 1024:.1f} KB; the last save some {beside} bytes more"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--target", type=int, default=1001)
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--bot-matches", type=int, default=0)
    parser.add_argument("--bot", default="normal")
    asyncio.run(main(parser.parse_args()))
