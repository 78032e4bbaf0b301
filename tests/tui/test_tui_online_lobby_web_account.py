"""A browser's guest at the public server becomes an account from the lobby (issue #39):
the page says it plays as a guest and that ``n`` picks a name the browser keeps; a name
refused is said and changes nothing; a name taken makes the account, the line goes, and
``n`` renames as for any account from then on."""

from __future__ import annotations

from typing import Any

from net_pilot import until
from textual.widgets import Static

from bela.tui import BelaApp
from bela.tui.screens.online_lobby import OnlineLobby, OnlineLobbyScreen
from bela.tui.screens.online_pages import NamePrompt


async def test_n_at_a_browser_guests_lobby_makes_the_account() -> None:
    picked: list[str] = []
    renamed: list[dict[str, object]] = []

    async def listing() -> tuple[Any, ...]:
        return ()

    async def ask(request: dict[str, object], kinds: tuple[str, ...]) -> Any:
        if request.get("type") == "rename":
            renamed.append(request)
        raise ConnectionError("not here")

    async def account(name: str) -> str:
        picked.append(name)
        if name == "Ivo":
            raise ConnectionError("the name Ivo is taken")
        return name

    note = "You play as a guest (unrated tables). n picks your name."
    lobby = OnlineLobby(
        "127.0.0.1:4713",
        listing,
        lambda _r: None,
        ask,
        account=account,
        note=note,  # type: ignore[arg-type,return-value]
    )
    app = BelaApp(online_lobby=lobby)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, OnlineLobbyScreen)
        shown = screen.query_one("#lobby-note", Static)
        said = screen.query_one("#lobby-said", Static)
        assert "n picks your name" in str(shown.content)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NamePrompt))
        question = app.screen.query_one(".title", Static)
        assert "This browser will keep your account" in str(question.content)
        await pilot.press(*"Ivo", "enter")
        await until(pilot, lambda: "taken" in str(said.content))
        assert screen.account is not None and "n picks" in str(shown.content)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NamePrompt))
        await pilot.press(*"Ana", "enter")
        await until(pilot, lambda: "this browser keeps your account" in str(said.content))
        assert "You are Ana now" in str(said.content)
        assert picked == ["Ivo", "Ana"] and screen.account is None
        assert str(shown.content) == ""
        await pilot.press("n")  # an account now: n renames it
        await until(pilot, lambda: isinstance(app.screen, NamePrompt))
        assert "Your new name?" in str(app.screen.query_one(".title", Static).content)
        await pilot.press(*"Anica", "enter")
        await until(pilot, lambda: renamed == [{"type": "rename", "name": "Anica"}])
        assert picked == ["Ivo", "Ana"]
