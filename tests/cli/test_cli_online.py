"""``bela online`` and ``bela server`` on the command line (issue #39): what each flag asks
the lobby for, and the answers to bad input."""

from __future__ import annotations

import sys

import pytest

from bela.cli import main
from bela.cli.common import EXIT_UNAVAILABLE
from bela.cli.online import AdminOptions, OnlineOptions, ServerCommandOptions, _request
from bela.cli.options import parse


def test_create_asks_for_the_target_the_house_rules_and_privacy() -> None:
    options = parse(
        [
            "online",
            "host:1",
            "--create",
            "--target",
            "701",
            "--private",
            "--rules",
            "dosta,stiglja-100",
        ]
    )
    assert isinstance(options, OnlineOptions)
    assert _request(options) == {
        "type": "create",
        "target": 701,
        "private": True,
        "rated": True,
        "rules": {"dosta": True, "stiglja_bonus": 100},
    }


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        (["--quick", "--wait", "0"], {"type": "quick", "target": 1001, "wait": 0}),
        (["--join", "abc"], {"type": "join", "table": "abc"}),
        (["--code", "XYZ"], {"type": "join", "code": "XYZ"}),
        (["--watch", "abc"], {"type": "watch", "table": "abc"}),
    ],
)
def test_each_way_to_a_seat_is_one_lobby_request(
    argv: list[str], wanted: dict[str, object]
) -> None:
    options = parse(["online", "host:1", *argv])
    assert isinstance(options, OnlineOptions)
    assert _request(options) == wanted


def test_the_report_and_the_admin_commands_parse() -> None:
    report = parse(["online", "h", "--report", "Ivo", "swore at us"])
    assert isinstance(report, OnlineOptions)
    assert (report.action, report.argument, report.reason) == ("report", "Ivo", "swore at us")
    admin = parse(["server", "admin", "ban", "ed25519:AAAA", "--data", "/tmp/x"])
    assert isinstance(admin, AdminOptions) and admin.action == "ban"
    server = parse(["server", "--port", "0", "--ssh-port", "2222"])
    assert isinstance(server, ServerCommandOptions) and server.ssh_port == 2222


@pytest.mark.parametrize(
    "argv",
    [
        ["online", "h", "--target", "500"],
        ["online", "h", "--quick", "--wait", "601"],
        ["online", "h", "--quick", "--create"],
        ["online", "h", "--rules", "nonsense"],
        ["server", "--port", "70000"],
        ["server", "admin", "shutdown"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "en", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1


def test_admin_end_without_a_table_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "server", "admin", "end"]) == 2
    assert "say which table or key" in capsys.readouterr().err


def test_admin_without_a_running_server_says_so(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "en", "server", "admin", "list", "--data", str(tmp_path)]) == 1
    assert "no server is running" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "url", "said"),
    [
        (
            "--postgres",
            "postgresql://bela@127.0.0.1:1/bela",
            "cannot use the PostgreSQL database: ",
        ),
        ("--redis", "redis://127.0.0.1:1/0", "cannot use Redis: "),
        ("--redis", "http://not-redis", "cannot use Redis: "),
    ],
)
def test_bela_server_says_in_one_line_when_postgres_or_redis_cannot_be_used(
    flag: str, url: str, said: str, tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--lang", "en", "server", "--port", "0", "--data", str(tmp_path), flag, url]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


@pytest.mark.parametrize(("flag", "module"), [("--postgres", "psycopg"), ("--redis", "redis")])
def test_bela_server_names_the_missing_server_extra(
    flag: str,
    module: str,
    tmp_path: object,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if the extra were not installed
    argv = ["--lang", "en", "server", "--port", "0", "--data", str(tmp_path), flag, "x://y"]
    assert main(argv) == EXIT_UNAVAILABLE
    err = capsys.readouterr().err
    assert "pip install 'croatian-bela[net,server]'" in err and err.count("\n") == 1


def test_each_event_line_is_one_write_and_a_workers_line_names_its_port() -> None:
    """``--workers N``'s processes share one standard error: a line written in two pieces
    (print writes the newline apart) ran into another worker's in the acceptance run
    ("back: Nina at T1bela server: login: Luka"), and nothing said which worker it was."""
    from bela.cli.online import _say

    class Pieces:
        def __init__(self) -> None:
            self.writes: list[str] = []

        def write(self, text: str) -> int:
            self.writes.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    one, worker = Pieces(), Pieces()
    _say(one)("bela server: login: Ana")
    _say(worker, 4714)("bela server: back: Ana at T1")
    assert one.writes == ["bela server: login: Ana\n"]
    assert worker.writes == ["bela server [4714]: back: Ana at T1\n"]
