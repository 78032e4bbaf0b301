"""``bela host`` / ``bela join`` / ``bela serve`` on the command line.

The crash test runs the real command: ``bela host --no-play`` in a child
process, a scripted player joins with the printed code and starts the match,
the host is killed with SIGKILL mid-match, started again on the same data
directory, resumes the table under the same code, the player sits down again
with the seat's token and plays to the end: the archive then holds the whole
match, with the seat names, and it replays.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bela.archive.records import match_from_record
from bela.archive.storage import matches_dir, read_record
from bela.cli import main
from bela.cli.net import HostOptions, JoinOptions, ServeOptions
from bela.cli.options import parse
from bela.net.client import Client
from bela.net.protocol import Over, State


def test_host_join_and_serve_parse() -> None:
    host = parse(["host", "--port", "5000", "--public", "--bots", "hard", "--wait", "30"])
    assert isinstance(host, HostOptions)
    assert (host.port, host.public, host.bots, host.wait, host.play) == (
        5000,
        True,
        "hard",
        30,
        True,
    )
    assert isinstance(parse(["host", "--no-play"]), HostOptions)
    join = parse(["join", "10.0.0.2:5000", "ABCD-EFGH-JK", "--name", "Ana"])
    assert join == JoinOptions("10.0.0.2:5000", "ABCD-EFGH-JK", "Ana")
    serve = parse(["serve", "--join", "127.0.0.1:4711", "ABCD-EFGH-JK"])
    assert isinstance(serve, ServeOptions) and serve.join == ("127.0.0.1:4711", "ABCD-EFGH-JK")


@pytest.mark.parametrize(
    "argv",
    [
        ["host", "--port", "70000"],
        ["host", "--bots", "genius"],
        ["host", "--wait", "-1"],
        ["join", "host", "CODE", "--name", ""],
    ],
)
def test_bad_net_arguments_are_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from bela.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0]


def test_join_with_a_bad_address_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    from bela.cli import main

    assert main(["join", "host:http", "ABCD-EFGH-JK"]) == 2
    assert "bad address" in capsys.readouterr().err


def _ctrl_c_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_host(data_dir: Path) -> tuple[subprocess.Popen[str], int, str]:
    env = dict(os.environ, BELA_DATA_DIR=str(data_dir))
    flags = ["--bots", "random", "--bot-delay", "0", "--wait", "30", "--target", "501"]
    child = subprocess.Popen(
        [sys.executable, "-m", "bela", "host", "--no-play", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C (SIGINT) ends the host as a player's terminal would, even when the tests
        # run as a background job, whose children inherit SIGINT ignored
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    assert child.stdout is not None
    lines = []
    while True:
        line = child.stdout.readline()
        assert line, f"the host ended early: {lines}"
        lines.append(line)
        if "Table open at" in line:
            break
    found = re.search(r"at ([\d.]+):(\d+)\s+join code: (\S+)", lines[-1])
    assert found is not None
    return child, int(found.group(2)), found.group(3)


async def _play(client: Client, seat: int, until: int | None) -> State | Over:
    """Answer every turn with the first legal action until ``until`` states (or the end)."""
    seen = 0
    acted: tuple[int, int] | None = None
    while True:
        message = await asyncio.wait_for(client.receive(), 20)
        if isinstance(message, Over):
            return message
        if not isinstance(message, State):
            continue
        seen += 1
        if until is not None and seen >= until:
            return message
        key = (message.seq, message.round)
        if message.view.to_act == seat and message.view.legal and key != acted:
            acted = key
            await client.act(message.view.legal[0])


def _table_files(data_dir: Path) -> list[Path]:
    """The tables' saves: snapshots and journals (not the host's lock)."""
    return [p for p in (data_dir / "tables").iterdir() if p.suffix in (".json", ".log")]


def test_a_killed_host_resumes_its_table_and_the_match_is_archived_whole(
    data_dir: Path,
) -> None:
    async def scenario() -> Over | State:
        child, port, code = _start_host(data_dir)
        try:
            client = await Client.connect("127.0.0.1", port, code, "Ana")
            assert client.welcome is not None
            token, seat = client.welcome.token, client.welcome.seat
            await client.send({"type": "start"})  # the first to sit down leads the table
            mid = await _play(client, seat, until=40)
            assert isinstance(mid, State)
            await asyncio.sleep(0.3)  # the last save is written (they follow each action)
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        assert list((data_dir / "tables").glob("*.json")), "the table was saved"
        again, port, code_again = _start_host(data_dir)
        try:
            assert code_again == code  # the same table, under the same code
            back = await Client.connect("127.0.0.1", port, code, "Ana", token=token)
            assert back.welcome is not None and back.welcome.seat == seat
            end = await _play(back, seat, until=None)
            await back.close()
            # the table's files go with the archiving, before Over is sent: stopping the
            # host right now leaves nothing to resume (tests/net/test_net_saves.py has
            # every order of the last write and a stop)
            assert not _table_files(data_dir)
            return end
        finally:
            again.send_signal(signal.SIGINT)
            again.wait(10)

    end = asyncio.run(scenario())
    assert isinstance(end, Over)
    archived = [read_record(p) for p in matches_dir().glob("*.json")]
    assert len(archived) == 1
    record = archived[0]
    assert record.players is not None and record.players[0] == "Ana"
    assert match_from_record(record).is_over
    assert not _table_files(data_dir)


def test_the_host_prints_one_line_a_friend_pastes_as_it_is(data_dir: Path) -> None:
    """``Friends join with:  bela join HOST:PORT CODE``: pasted whole, it seats the friend
    under their login name (no NAME placeholder to edit, or everybody is called NAME)."""
    import shlex

    from bela.cli.net import login_name

    child, port, code = _start_host(data_dir)
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("Friends join with:")
        argv = shlex.split(line.partition(":")[2])
        assert argv == ["bela", "join", f"127.0.0.1:{port}", code]
        options = parse(argv[1:])
        assert isinstance(options, JoinOptions) and options.name == login_name()

        async def sit_down() -> str:
            host, _, where = options.address.partition(":")
            client = await Client.connect(host, int(where), options.code, options.name)
            lobby = await asyncio.wait_for(client.receive(), 10)
            await client.close()
            assert client.welcome is not None and lobby.type == "lobby"
            return str(lobby.seats[client.welcome.seat].name)

        assert asyncio.run(sit_down()) == login_name()
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(10)


def test_a_second_host_on_the_same_data_directory_is_refused(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bela.cli import main

    child, _, _ = _start_host(data_dir)
    try:
        assert main(["host", "--no-play", "--port", "0"]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "another bela host is running" in err[0]
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(10)


@pytest.mark.parametrize("lang", ["hr", "es", "en"])
def test_join_opens_the_app_in_the_language_asked_for(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bela join --lang hr`` is a Croatian app, whatever the settings or the system say
    (the app used to choose its language again and forget ``--lang``)."""
    import bela.tui.app

    seen: dict[str, object] = {}

    class App:
        return_code = 0

        def __init__(self, **kwargs: object) -> None:
            seen.update(kwargs)

        def run(self) -> None:
            pass

    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.setattr(bela.tui.app, "BelaApp", App)
    # a terminal that runs the app (the test's input is not one: that would be plain)
    monkeypatch.setattr("bela.cli.play.wants_plain", lambda *_args: False)
    assert main(["join", "127.0.0.1:4711", "ABCD-EFGH-JK", "--lang", lang]) == 0
    assert seen["language"] == lang


def test_a_hostile_machine_name_is_printed_through_the_gate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a network to probe, ``bela host --public`` prints the machine's name, which
    comes from its configuration: escape sequences in it reach the terminal made visible."""
    import socket

    from bela.cli import net

    def no_network(*args: object, **kwargs: object) -> socket.socket:
        raise OSError("network unreachable")

    monkeypatch.setattr(net.socket, "socket", no_network)
    monkeypatch.setattr(net.socket, "gethostname", lambda: "box\x1b]0;pwned\x07\u202e[b]")
    shown = net._shown_host(public=True)
    assert "pwned" in shown and "[b]" in shown
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
