"""Helpers for the network tests (imported as ``netplay``): a host on localhost, scripted players.

Bots are the random ones and wait 0 s, a dropped seat waits a fraction of a
second: a whole match to 501 is played in well under a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from bela.net.client import Client
from bela.net.protocol import Closing, Over, Refused, ServerMessage, State, Welcome
from bela.net.saves import TableSaver
from bela.net.server import Server, ServerOptions, WrongCodes


def options(**changes: object) -> ServerOptions:
    base: dict[str, object] = {"difficulty": "random", "target": 501, "bot_delay": 0.0, "wait": 0.2}
    base.update(changes)
    return ServerOptions(**base)  # type: ignore[arg-type]


@dataclass
class Host:
    server: Server
    host: str
    port: int

    async def join(self, code: str, name: str, **kw: object) -> Client:
        return await Client.connect(self.host, self.port, code, name, **kw)  # type: ignore[arg-type]


async def start_host(
    wrong: WrongCodes | None = None, saver: bool = True, **changes: object
) -> Host:
    server = Server(options(**changes), TableSaver() if saver else None, wrong)
    address = await server.listen("127.0.0.1", 0)
    return Host(server, *address)


@dataclass
class Player:
    """A scripted seat: plays a random legal action whenever it is its turn."""

    client: Client
    seed: int = 0
    states: list[State] = field(default_factory=list)
    others: list[ServerMessage] = field(default_factory=list)
    over: Over | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def seat(self) -> int:
        welcome = self.client.welcome
        assert isinstance(welcome, Welcome)
        return welcome.seat

    async def step(self) -> ServerMessage:
        message = await self.client.receive()
        if isinstance(message, State):
            self.states.append(message)
        elif isinstance(message, Over):
            self.over = message
        else:
            self.others.append(message)
        return message

    def my_turn(self) -> bool:
        if not self.states:
            return False
        view = self.states[-1].view
        return view.to_act == self.states[-1].seat and bool(view.legal)

    async def play(self, stop_after: int | None = None) -> None:
        """Play until the match is over (or ``stop_after`` own actions), reading everything."""
        done = 0
        while self.over is None:
            if self.my_turn() and self.states[-1].view.phase != "finished":
                if stop_after is not None and done >= stop_after:
                    return
                await self.client.act(self.rng.choice(self.states[-1].view.legal))
                done += 1
                self.states.append(self.states[-1].model_copy(update={"view": _no_turn(self)}))
            message = await self.step()
            if isinstance(message, Closing):
                raise ConnectionError(message.reason)


def _no_turn(player: Player) -> object:
    """The last view with no turn, so the player waits for the next state before acting."""
    return player.states[-1].view.model_copy(update={"to_act": None, "legal": ()})


async def wait_for(player: Player, kind: type, timeout: float = 5.0) -> ServerMessage:
    """Read until a message of ``kind`` arrives."""

    async def loop() -> ServerMessage:
        while True:
            message = await player.step()
            if isinstance(message, kind):
                return message

    return await asyncio.wait_for(loop(), timeout)


async def refused(player: Player, timeout: float = 5.0) -> Refused:
    message = await wait_for(player, Refused, timeout)
    assert isinstance(message, Refused)
    return message


@contextlib.asynccontextmanager
async def real_host(data_dir: Path, *flags: str) -> AsyncIterator[tuple[int, str]]:
    """A real ``bela host --no-play`` process on ``data_dir``: (its port, its join code),
    killed at the end."""
    host = subprocess.Popen(
        [sys.executable, "-m", "bela", "host", "--no-play", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, BELA_DATA_DIR=str(data_dir)),
    )
    assert host.stdout is not None
    port = code = ""
    try:
        while line := await asyncio.to_thread(host.stdout.readline):
            found = re.search(r"open at \S+:(\d+)\s+join code: (\S+)", line)
            if found:
                port, code = found.group(1), found.group(2)
            if "Hosting until" in line:
                break
        assert code, "the host printed no join code"
        yield int(port), code
    finally:
        host.kill()
        host.wait()
