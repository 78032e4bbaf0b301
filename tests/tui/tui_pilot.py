"""Driving the app from tests: a human who presses keys, and waits for the bots.

The human's policy is simple and deterministic: say dalje unless forced (then
name hearts), play the first card that is allowed, announce bela. Every move is
made with the keys a player would press (a number key, then Enter), and the
bots run with no delay, so a seeded match plays out the same way every time.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen

from bela.engine import Card, Pass, Phase
from bela.keys import bid_keys
from bela.tui import BelaApp
from bela.tui.screens.match_end import MatchEndScreen
from bela.tui.screens.prompts import BelaPrompt
from bela.tui.screens.summary import RoundSummaryScreen
from bela.tui.screens.table import TableScreen

MAX_WAIT = 2000


def make_app(**kwargs: Any) -> BelaApp:
    """An app with instant bots and no animations (tests never wait on timers)."""
    settings: dict[str, Any] = {
        "target": 501,
        "seed": 7,
        "difficulty": "normal",
        "resume": False,
        "bot_delay": 0.0,
        "hold_delay": 0.0,
        "reduced_motion": True,  # no animation in flight while a test presses keys
    }
    settings.update(kwargs)
    return BelaApp(**settings)


def table(app: BelaApp) -> TableScreen:
    screens = [s for s in app.screen_stack if isinstance(s, TableScreen)]
    assert screens, f"no table among {app.screen_stack}"
    return screens[-1]


async def settle(pilot: Pilot[Any]) -> str:
    """Wait until the human must do something; returns what: turn, summary, bela, end."""
    app = pilot.app
    for _ in range(MAX_WAIT):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, RoundSummaryScreen):
            return "summary"
        if isinstance(screen, MatchEndScreen):
            return "end"
        if isinstance(screen, BelaPrompt):
            return "bela"
        if isinstance(screen, TableScreen) and screen.human_turn():
            return "turn"
    raise AssertionError("the app never came back to the human")


def first_legal_index(screen: TableScreen) -> int:
    rnd = screen.match.current
    assert rnd is not None
    legal = {Card(c) for c in range(32) if rnd.legal_mask() >> c & 1}
    return next(i for i, card in enumerate(screen.hand_cards()) if card in legal)


async def human_move(pilot: Pilot[Any], screen: TableScreen, arrows: bool = False) -> None:
    """One move by key presses: a bid (p, or h when forced), then a card.

    A card is chosen with its number key, or with ``arrows`` by stepping the
    cursor with → to it; Enter plays it.
    """
    rnd = screen.match.current
    assert rnd is not None and rnd.to_act == 0
    if rnd.phase is Phase.BIDDING:
        can_pass = any(isinstance(a, Pass) for a in rnd.legal_actions())
        dalje, hearts = bid_keys()[4], bid_keys()[0]  # the letters of the language in use
        await pilot.press(dalje if can_pass else hearts)
        return
    target = first_legal_index(screen)
    if arrows:
        steps = (target - screen.cursor) % len(screen.hand_cards())
        await pilot.press(*(["right"] * steps), "enter")
    else:
        await pilot.press(str(target + 1), "enter")


async def play_round(pilot: Pilot[Any], arrows: bool = False) -> int:
    """Play until the round summary shows; returns how many moves the human made."""
    moves = 0
    while True:
        state = await settle(pilot)
        if state == "summary":
            return moves
        if state == "bela":
            await pilot.press("y")
        elif state == "turn":
            await human_move(pilot, table(pilot.app), arrows)  # type: ignore[arg-type]
            moves += 1
        else:
            raise AssertionError(f"unexpected {state} in the middle of a round")


async def until_zvanja(pilot: Pilot[Any]) -> Screen[Any]:
    """Make the human's moves until the zvanja moment opens; returns its screen."""
    from bela.tui.screens.zvanja import ZvanjaScreen

    app = pilot.app
    for _ in range(MAX_WAIT):
        await pilot.pause()
        if isinstance(app.screen, ZvanjaScreen):
            return app.screen
        screen = table(app)  # type: ignore[arg-type]
        if app.screen is screen and screen.human_turn():
            await human_move(pilot, screen)
    raise AssertionError("the zvanja moment never came")
