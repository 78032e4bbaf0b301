"""Issue #37: a bell (off by default, F2 and settings.json) when it becomes the player's turn
at a network table, and once more when the turn has waited a few seconds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from net_pilot import host, net_screen, until
from textual.widgets import Checkbox

from bela.settings import Settings, load_settings
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.screens.net_table import NetTableScreen


def _settings(config_dir: Path, **values: object) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    data = {"schema_version": 1, **values}
    (config_dir / "settings.json").write_text(json.dumps(data), encoding="utf-8")


async def _bells(monkeypatch: pytest.MonkeyPatch) -> int:
    """The bells rung from the start of the match until its first turn has waited."""
    monkeypatch.setattr(NetTableScreen, "BELL_AGAIN", 0.2)
    server, port = await host()
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True)
    rung: list[str] = []
    monkeypatch.setattr(app, "bell", lambda: rung.append("bell"))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            assert not rung  # the lobby rings nothing
            await pilot.press("g")
            await until(pilot, lambda: net_screen(app).my_turn())
            await pilot.pause(0.6)  # the turn waits: the bell once more, and only once
            return len(rung)
    finally:
        await server.close()


async def test_the_bell_rings_for_the_turn_and_once_more_when_it_waits(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _settings(config_dir, turn_bell=True)
    assert await _bells(monkeypatch) == 2


async def test_no_bell_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().turn_bell is False
    assert await _bells(monkeypatch) == 0


async def test_f2_turns_the_bell_on_and_keeps_it() -> None:
    app = BelaApp(reduced_motion=True, resume=False, bot_delay=0, hold_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        box = app.screen.query_one("#set-bell", Checkbox)
        assert box.value is False
        box.value = True
        await pilot.pause()
        assert app.turn_bell is True
    assert load_settings().settings.turn_bell is True
