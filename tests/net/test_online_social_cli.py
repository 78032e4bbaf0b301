"""``bela online`` on the command line for invitations, muting and the weekly league
(issue #39), against a server in this process: the list shows an invitation and how to
answer it, ``--decline`` tells the inviter, ``--mute`` is kept, ``--league`` prints the
division's table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import next_of, start_site

from bela.cli import main
from bela.net.protocol import Notice, Welcome


async def bela(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = await asyncio.to_thread(main, ["--lang", "en", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


async def test_invitations_muting_and_the_league_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BELA_CONFIG_DIR", str(tmp_path / "config"))
    site = await start_site(tmp_path)
    where = f"127.0.0.1:{site.port}"
    try:
        assert "Signed in as Ana" in await bela(capsys, "online", where, "--name", "Ana")
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        await ivo.request({"type": "create", "target": 701, "private": True, "invite": ["Ana"]})
        await next_of(ivo, Welcome)
        listed = await bela(capsys, "online", where, "--list")
        assert "Ivo invites you to a private rated table to 701; seated: Ivo" in listed
        assert "Accept with --accept Ivo, decline with --decline Ivo." in listed
        declined = await bela(capsys, "online", where, "--decline", "Ivo")
        assert "You declined Ivo's invitation." in declined
        while (said := await next_of(ivo, Notice)).code != "invite_declined":  # type: ignore[attr-defined]
            pass
        assert "invites you" not in await bela(capsys, "online", where)
        muted = await bela(capsys, "online", where, "--mute", "ivo")
        assert "You will not see what Ivo says at the table." in muted
        assert site.server.accounts.muted(1) == {2}
        await bela(capsys, "online", where, "--unmute", "Ivo")
        assert site.server.accounts.muted(1) == set()
        league = await bela(capsys, "online", where, "--league")
        assert "division 5 of 5 (1 is the highest)" in league
        assert "You join the league in this division with your first rated match." in league
        del said
    finally:
        await site.server.close()


def test_invite_goes_with_create(capsys: pytest.CaptureFixture[str]) -> None:
    from bela.cli.online import OnlineOptions, _request
    from bela.cli.options import parse

    alone = parse(["online", "h", "--invite", "Ivo", "--invite", "Eva", "--private"])
    assert isinstance(alone, OnlineOptions) and alone.action == "create"
    assert _request(alone) == {
        "type": "create",
        "target": 1001,
        "private": True,
        "rated": True,
        "rules": {},
        "invite": ["Ivo", "Eva"],
    }
    accept = parse(["online", "h", "--accept", "Ivo"])
    assert isinstance(accept, OnlineOptions)
    assert _request(accept) == {"type": "answer", "name": "Ivo", "accept": True}
    assert main(["--lang", "en", "online", "h", "--join", "T", "--invite", "Ivo"]) == 2
    assert "--invite goes with --create" in capsys.readouterr().err
    many = ["--invite", "A", "--invite", "B", "--invite", "C", "--invite", "D"]
    assert main(["--lang", "en", "online", "h", *many]) == 2
    assert "at most three" in capsys.readouterr().err


def test_the_shared_pages_cut_hostile_names_to_one_plain_line() -> None:
    """Names from the network in the league's table, an invitation, the leaderboard and a
    player's page: control characters gone, each cut short; markup stays text (the app
    shows these lines as ``Text``, never as markup)."""
    from bela.net.lobby_protocol import (
        InviteInfo,
        Leaderboard,
        LeagueTable,
        PlayerPage,
    )
    from bela.net.lobby_text import invite_line, leader_lines, league_lines, player_lines

    hostile = "[b]Ivo\x1b[2J\n\u202e" + "x" * 30
    invite = InviteInfo.model_validate_json(
        json.dumps(
            {
                "name": hostile[:24],
                "target": 501,
                "rated": True,
                "private": False,
                "rules": {},
                "seated": [hostile[:24]],
            }
        )
    )
    table = LeagueTable.model_validate_json(
        json.dumps(
            {
                "type": "league",
                "week": "2026-W49\x1b",
                "division": 5,
                "divisions": 5,
                "member": True,
                "rows": [{"name": hostile[:24], "points": 3, "played": 1}],
                "promoted": 0,
                "relegated": 0,
                "ends": 0.0,
                "place": 1,
            }
        )
    )
    board = Leaderboard.model_validate_json(
        json.dumps(
            {
                "type": "leaders",
                "leaders": [
                    {
                        "name": hostile[:24],
                        "rating": 1500,
                        "rd": 350,
                        "rated": 1,
                        "provisional": True,
                        "reliability": None,
                    }
                ],
            }
        )
    )
    page = PlayerPage.model_validate_json(
        json.dumps(
            {
                "type": "player",
                "name": hostile[:24],
                "rating": 1500,
                "rd": 350,
                "rated": 0,
                "provisional": True,
                "reliability": None,
                "history": [],
                "matches": [],
            }
        )
    )
    lines = [invite_line(invite), *league_lines(table), *leader_lines(board), *player_lines(page)]
    for line in lines:
        assert "\x1b" not in line and "\n" not in line and "\u202e" not in line
    assert "[b]Ivo" in lines[0]


async def test_a_command_while_holding_a_seat_says_it_goes_back_to_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--invite`` (or any request) while the account holds a seat mid-match: the app goes
    back to that seat, and the command says its request was not sent (it said nothing)."""
    from bela.net.identity import load_or_make_key
    from bela.net.protocol import State
    from bela.tui.app import BelaApp

    monkeypatch.setenv("BELA_CONFIG_DIR", str(tmp_path / "config"))
    opened: list[object] = []
    monkeypatch.setattr(BelaApp, "run", lambda self, *a, **k: opened.append(self.remote))
    site = await start_site(tmp_path)
    where = f"127.0.0.1:{site.port}"
    try:
        await bela(capsys, "online", where, "--name", "Ana")
        ivo = await site.sign_in("Ivo", Ed25519PrivateKey.generate())
        ana = await site.sign_in("Ana", load_or_make_key(tmp_path / "config"))
        await ana.request({"type": "create", "target": 501})
        await next_of(ana, Welcome)
        await ana.request({"type": "start"})
        await next_of(ana, State)
        await ana.online.close()  # the line drops mid-match: the seat waits
        await asyncio.sleep(0.1)
        out = await bela(capsys, "online", where, "--invite", "Ivo")
        assert "You hold a seat in a match: back to it" in out
        assert opened and not site.server.invitations.pending
        del ivo
    finally:
        await site.server.close()
