"""Na dosta at the table: a bot's claim is said and scored, and the player can claim too.

A bot's "dosta" once crashed the app (the table talk knew only bids and cards),
and since the claim was never saved, every resume crashed again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tui_pilot import make_app, settle, table

from bela.ai import make_bot
from bela.engine import Claim, Phase, Rules
from bela.tui.screens.prompts import DostaPrompt
from bela.tui.screens.summary import RoundSummaryScreen


class _ClaimingBot:
    """Says dosta the moment it may (right or wrong), else plays like the easy bot."""

    name = "claiming"

    def __init__(self) -> None:
        self.inner = make_bot("easy")

    def act(self, view: Any, rng: Any) -> Any:
        if any(isinstance(a, Claim) for a in view.legal_actions):
            return Claim()
        return self.inner.act(view, rng)


def message(screen: Any) -> str:
    return str(screen.query_one("#message").content)


def talk(app: Any) -> str:
    return "\n".join(str(line) for line in table(app).query_one("#log").lines)


@pytest.mark.slow
async def test_a_bots_dosta_is_said_scored_and_ends_the_match() -> None:
    app = make_app(seed=3, rules=Rules(dosta=True))
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        for seat in (1, 2, 3):
            screen.bots[seat] = _ClaimingBot()  # type: ignore[assignment]
        await pilot.press("h")  # we name hearts; the bots claim after the first trick they take
        for _ in range(8):
            state = await settle(pilot)
            if state != "turn":
                break
            rnd = screen.match.current
            assert rnd is not None and rnd.phase is Phase.PLAYING
            legal = [i for i, c in enumerate(screen.hand_cards()) if rnd.legal_mask() >> c & 1]
            await pilot.press(str(legal[0] + 1), "enter")
        assert state == "summary"
        assert "dosta! The claim" in talk(app)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        assert screen.match.is_over  # a claim, right or wrong, ends the match
        assert screen.match.rounds[-1].result.claim is not None


async def _our_lead_after_a_trick(pilot: Any, screen: Any) -> Any:
    """Play the first legal card until we have taken a trick and lead again."""
    await pilot.press("h")
    while True:
        assert await settle(pilot) == "turn"
        rnd = screen.match.current
        assert rnd is not None
        if rnd.can_claim():
            return rnd
        legal = [i for i, c in enumerate(screen.hand_cards()) if rnd.legal_mask() >> c & 1]
        await pilot.press(str(legal[0] + 1), "enter")


@pytest.mark.slow
async def test_short_of_the_target_the_dosta_key_only_says_what_is_missing() -> None:
    """Issue #35: a stray dosta key and Enter (the key of every card) lost the match, as
    the question short of the target put the losing claim on Enter. Now nothing is asked."""
    app = make_app(seed=3, rules=Rules(dosta=True))
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        await pilot.press("k")  # bidding: nothing to claim yet, and nothing happens
        assert screen.match.current is not None and not screen.match.current.actions
        rnd = await _our_lead_after_a_trick(pilot, screen)
        assert "dosta" not in message(screen)  # not offered: far from the target
        before = screen.match
        points = rnd.counted(0)
        await pilot.press("k")
        await pilot.pause()
        assert app.screen is screen  # nothing asked
        assert message(screen) == (
            f"Not dosta yet: we have {points} of 501, {501 - points} points short."
        )
        assert screen.match is before  # nothing said
        await pilot.press("enter")  # the stray Enter plays the chosen card, as ever
        await settle(pilot)
        assert not screen.match.is_over and screen.match.current is not None
        assert Claim() not in screen.match.current.actions


@pytest.mark.slow
async def test_dosta_is_offered_once_the_points_counted_reach_the_target() -> None:
    app = make_app(seed=3, rules=Rules(dosta=True))
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        rnd = await _our_lead_after_a_trick(pilot, screen)
        # as if we had written 490 before this deal: the trick just taken reaches 501
        near = rnd.with_claim_context((490, 0), 501)
        assert near.counted(0) >= 501
        screen.match = replace(screen.match, current=near, scores=(490, 0))
        screen.shown = near
        screen.refresh_view()
        assert f"k: say dosta (we have {near.counted(0)})" in message(screen)
        before = screen.match
        await pilot.press("k")
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, DostaPrompt)
        assert prompt.question() == (
            f"Say dosta? We have {near.counted(0)} of 501.\nk: dosta, Enter or Esc: play on"
        )
        await pilot.press("enter")  # the safe answer: play on
        await pilot.pause()
        assert app.screen is screen and screen.match is before
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, DostaPrompt)
        await pilot.press("k")  # the dosta key again says it
        assert await settle(pilot) == "summary"
        assert "You: dosta! The claim" in talk(app)
        assert screen.match.rounds[-1].result.claim_ok and screen.match.winner == 0


async def test_no_dosta_in_a_match_played_na_prolaz() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        await pilot.press("h")
        assert await settle(pilot) == "turn"
        before = table(app).match
        await pilot.press("k")
        await pilot.pause()
        assert table(app).match is before
