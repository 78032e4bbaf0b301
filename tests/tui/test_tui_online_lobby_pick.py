"""The lobby's list always has a table under the cursor (issue #39, found in tmux and in the
browser): "Enter or its number sits at a table, w watches it" said the screen, but until the
player moved with an arrow nothing was highlighted, so Enter and w did nothing at all; and
every reading of the list (r, or by itself every 20 s) forgot the table the player had
moved to."""

from __future__ import annotations

from typing import Any

from bela.net.lobby_protocol import RulesInfo, SeatEntry, TableInfo
from bela.tui import BelaApp
from bela.tui.screens.online_lobby import OnlineLobby, OnlineLobbyScreen


def _table(table_id: str, name: str) -> TableInfo:
    seat = SeatEntry(name=name, kind="human", rating=1500, provisional=True)
    open_seat = SeatEntry(name=None, kind="open")
    return TableInfo(
        id=table_id,
        target=501,
        rules=RulesInfo(),
        rated=True,
        started=False,
        seats=(seat, open_seat, open_seat, open_seat),
        watchers=(),
    )


async def test_w_and_enter_act_on_a_table_without_an_arrow_first_and_a_reread_keeps_it(
    monkeypatch: Any,
) -> None:
    tables = [_table("aaaa1111", "Ivo"), _table("bbbb2222", "Eva")]

    async def listing() -> tuple[TableInfo, ...]:
        return tuple(tables)

    asked: list[dict[str, Any]] = []
    monkeypatch.setattr(OnlineLobbyScreen, "_go", lambda self, request: asked.append(request))
    app = BelaApp(online_lobby=OnlineLobby("127.0.0.1:4713", listing, lambda _r: None))  # type: ignore[arg-type,return-value]
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.screen
        assert isinstance(screen, OnlineLobbyScreen)
        for _ in range(50):
            if screen.tables:
                break
            await pilot.pause(0.02)
        await pilot.pause()
        await pilot.press("w")
        assert asked == [{"type": "watch", "table": "aaaa1111"}]
        await pilot.press("enter")
        assert asked[-1] == {"type": "join", "table": "aaaa1111"}
        await pilot.press("down")
        tables.insert(0, _table("cccc3333", "Ana"))  # a new table comes first on the next reading
        screen.action_refresh()
        for _ in range(50):
            if len(screen.tables) == 3:
                break
            await pilot.pause(0.02)
        await pilot.pause()
        await pilot.press("w")
        assert asked[-1] == {"type": "watch", "table": "bbbb2222"}  # still the one chosen
