"""Playing the app by pressing keys: whole rounds and a whole match, with the bots at full speed.

Each test drives ``BelaApp`` through Textual's pilot and checks both what the
screen shows and the engine state behind it.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import RichLog
from tui_pilot import first_legal_index, human_move, make_app, play_round, settle, table

from bela.ai.driver import bot_action
from bela.engine import Call, Card, Match, Pass, Phase, Play, Rank, Suit
from bela.session import make_bots
from bela.table_text import explain_round, sentence
from bela.tui.model import hand_order, sheet_model
from bela.tui.screens.help import HelpScreen
from bela.tui.screens.match_end import MatchEndScreen, winner_text
from bela.tui.screens.prompts import LastTrickScreen
from bela.tui.screens.start import StartScreen
from bela.tui.screens.summary import RoundSummaryScreen
from bela.tui.screens.table import TableScreen
from bela.tui.widgets import Hand, TooSmall


def log_text(screen: TableScreen) -> str:
    return "\n".join(strip.text for strip in screen.query_one("#log", RichLog).lines)


def static_text(screen: Screen[object], selector: str) -> str:
    """The text a widget shows on screen, line by line (wrapped as it is drawn)."""
    widget = screen.query_one(selector)
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(line.text.rstrip() for line in lines)


# ---------------------------------------------------------------------- whole rounds


@pytest.mark.slow
async def test_a_seeded_round_is_played_by_keys_to_its_summary() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        rnd = screen.match.current
        assert rnd is not None and rnd.phase is Phase.BIDDING
        hand = screen.query_one("#hand", Hand).model
        assert hand.cards == hand_order(rnd.hand(0), None)
        assert hand.face_down == 2  # the talon stays face down while trump is chosen
        assert "Round 1" in static_text(screen, "#status")
        assert "dealer Ana" in static_text(screen, "#status")

        moves = await play_round(pilot)

        assert moves >= 8  # a bid (unless someone called first) and eight cards
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        record = screen.match.rounds[0]
        assert summary.record is record
        result = record.result
        assert result.belot is None
        assert sum(result.card_points) == 162
        assert sum(result.tricks) == 8
        explanation = " ".join(static_text(summary, "#explain").split())  # unwrap the lines
        assert explanation == explain_round(result, record.written)
        assert str(record.written[0]) in static_text(summary, "#summary-table")
        assert "Trick 8:" in log_text(screen)

        await pilot.press("enter")
        assert await settle(pilot) in ("turn", "summary")
        assert screen.match.next_index == 1
        assert "Round 2" in static_text(screen, "#status")
        sheet = sheet_model(screen.match)
        assert [(r.mi, r.vi) for r in sheet.rows] == [record.written]
        assert "— Round 2 —" in log_text(screen)


@pytest.mark.slow
async def test_a_round_fits_80x24_and_plays_with_arrow_keys() -> None:
    app = make_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        assert not screen.query_one(TooSmall).display
        whole = screen.region
        for selector in ("#status", "#seat-2", "#seat-1", "#seat-3", "#bids", "#hand", "#sheet"):
            region = screen.query_one(selector).region
            assert whole.contains_region(region), f"{selector} is cut off: {region}"
        left = screen.query_one("#seat-3").region
        right = screen.query_one("#seat-1").region
        centre = screen.query_one("#centre").region
        assert left.right <= centre.x and centre.right <= right.x
        assert centre.width >= 19  # room for the trick's cross of cards (and the bid menu)

        await play_round(pilot, arrows=True)

        assert isinstance(app.screen, RoundSummaryScreen)
        assert screen.match.next_index == 1


@pytest.mark.slow
async def test_a_short_match_is_played_to_the_end() -> None:
    app = make_app(seed=3, target=501)
    async with app.run_test(size=(100, 36)) as pilot:
        rounds = 0
        while True:
            await play_round(pilot)
            rounds += 1
            await pilot.press("enter")
            if await settle(pilot) == "end":
                break
        end = app.screen
        assert isinstance(end, MatchEndScreen)
        match = end.match
        assert match.is_over and match.winner is not None
        assert len(match.rounds) == rounds
        assert match.belot or match.scores[match.winner] >= 501
        assert static_text(end, "#winner") == winner_text(match)
        data = Path(os.environ["BELA_DATA_DIR"])
        assert not (data / "autosave.json").exists()  # a finished match is archived, not resumed
        assert len(list((data / "matches").glob("*.json"))) == 1
        await pilot.press("q")
    assert app.return_code == 0


# ---------------------------------------------------------------------- rules shown to the player


@pytest.mark.slow
async def test_an_illegal_card_is_refused_with_the_engine_reason() -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(100, 36)) as pilot:
        for _ in range(40):
            assert await settle(pilot) == "turn"
            screen = table(app)
            rnd = screen.match.current
            assert rnd is not None
            cards = screen.hand_cards()
            illegal = [
                i
                for i, c in enumerate(cards)
                if rnd.phase is Phase.PLAYING and not rnd.legal_mask() >> c & 1
            ]
            if illegal:
                break
            await human_move(pilot, screen)
        else:
            raise AssertionError("no turn with a card that may not be played")
        before = screen.match
        index = illegal[0]
        card = cards[index]
        hand = screen.query_one("#hand", Hand)
        assert "┆" in hand.render().plain  # not-allowed cards are drawn dotted, not only dimmed

        await pilot.press(str(index + 1), "enter")
        await pilot.pause()

        try:
            rnd.apply(Play(card), 0)
        except ValueError as exc:
            reason = sentence(str(exc))
        else:  # pragma: no cover - the card was chosen as illegal
            raise AssertionError("the card was legal")
        message = " ".join(static_text(screen, "#message").split())
        assert message == f"✗ {reason}"
        assert "not allowed" in message
        assert screen.match is before  # nothing was applied
        assert card in screen.hand_cards()
        assert screen.human_turn()


def _forced_dealer_seed() -> int:
    """A seed whose second deal (the human deals) has all three bots saying dalje."""
    bots = make_bots("normal")
    for seed in range(500):
        match = Match.new(seed, 501, start_index=1)
        for _ in range(3):
            rnd = match.current
            assert rnd is not None and rnd.to_act is not None
            action = bot_action(match, bots[rnd.to_act])
            if not isinstance(action, Pass):
                break
            match = match.apply(action)
        else:
            return seed
    raise AssertionError("no seed where everybody passes to the dealer")


async def test_the_dealer_must_name_trump_after_three_passes() -> None:
    seed = _forced_dealer_seed()
    app = make_app(seed=seed, start_round=1)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        rnd = screen.match.current
        assert rnd is not None and rnd.dealer == 0 and len(rnd.bids) == 3
        menu = screen.query_one("#bids")
        assert menu.display
        shown = menu.render().plain
        assert "You must name trump" in shown and "Dalje ✗" in shown
        talk = log_text(screen)
        for name in ("Ivo", "Marko", "Ana"):
            assert f"{name}: dalje" in talk  # every bot's dalje is shown
        assert screen.query_one("#seat-1").render().plain.count("dalje") == 1

        await pilot.press("p")
        await pilot.pause()
        assert "✗ The dealer may not say dalje" in static_text(screen, "#message")
        assert screen.match.current is rnd

        talon = rnd.talon(0)
        await pilot.press("h")
        assert await settle(pilot) == "turn"
        after = screen.match.current
        assert after is not None and after.trump is Suit.HEARTS and after.caller == 0
        hand = screen.query_one("#hand", Hand).model
        assert len(hand.cards) == 8 and hand.face_down == 0  # the talon joined the hand...
        assert hand.fresh == frozenset(talon)  # ...marked as new
        assert "new" in screen.query_one("#hand", Hand).render().plain
        assert "Trump ♥ hearts, your call" in static_text(screen, "#status")


def _bela_seed() -> tuple[int, Suit]:
    """A seed where the human, first to speak, holds trump K and Q after naming their suit."""
    for seed in range(500):
        rnd = Match.new(seed, 501).current
        assert rnd is not None
        cards = set(rnd.hand(0)) | set(rnd.talon(0))
        for suit in Suit:
            if {Card.of(Rank.KING, suit), Card.of(Rank.QUEEN, suit)} <= cards:
                after = rnd.apply(Call(suit), 0)
                if after.result is None:
                    return seed, suit
    raise AssertionError("no seed with a bela for the human")


@pytest.mark.slow
async def test_bela_is_offered_with_the_second_card_and_announced() -> None:
    seed, suit = _bela_seed()
    app = make_app(seed=seed, auto_bela=False)  # asked, not announced automatically
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        await pilot.press("hdsc"[suit])
        pair = {Card.of(Rank.KING, suit), Card.of(Rank.QUEEN, suit)}
        while True:
            state = await settle(pilot)
            if state == "bela":
                break
            assert state == "turn", "the round ended without the bela question"
            screen = table(app)
            rnd = screen.match.current
            assert rnd is not None
            cards = screen.hand_cards()
            wanted = [i for i, c in enumerate(cards) if c in pair and rnd.legal_mask() >> c & 1]
            index = wanted[0] if wanted else first_legal_index(screen)
            await pilot.press(str(index + 1), "enter")
        await pilot.press("enter")  # Enter announces (no letter answers it, issue #35)
        await settle(pilot)
        screen = table(app)
        assert "You: bela! (+20 for us)" in log_text(screen)
        played = screen.shown
        assert played is not None and played.bela_announced_by == 0


# ---------------------------------------------------------------------- saving and resuming


@pytest.mark.slow
async def test_resume_continues_at_the_exact_point() -> None:
    first = make_app(seed=21)
    async with first.run_test(size=(100, 36)) as pilot:
        for _ in range(4):
            assert await settle(pilot) == "turn"
            await human_move(pilot, table(first))
        assert await settle(pilot) == "turn"
        left = table(first).match
        shown_hand = table(first).query_one("#hand", Hand).model.cards
        await pilot.press("ctrl+q")
    assert left.current is not None

    again = make_app(seed=999, resume=True)
    async with again.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(again)
        resumed = screen.match
        assert resumed.seed == 21
        assert resumed.current is not None
        assert resumed.current.actions == left.current.actions
        assert resumed.scores == left.scores
        assert screen.query_one("#hand", Hand).model.cards == shown_hand

    offered = make_app(seed=999, resume=None)
    async with offered.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        start = offered.screen
        assert isinstance(start, StartScreen)
        assert "Unfinished match: round 1" in static_text(start, "#saved")
        await pilot.press("enter")  # the Resume button has the focus
        assert await settle(pilot) == "turn"
        current = table(offered).match.current
        assert current is not None and current.actions == left.current.actions


@pytest.mark.slow
async def test_a_new_match_keeps_the_unfinished_one_in_the_archive() -> None:
    """Starting afresh must not lose the match in progress: it moves to matches/."""
    from bela.archive.records import loads
    from bela.archive.storage import load_autosave, matches_dir

    first = make_app(seed=21)
    async with first.run_test(size=(100, 36)) as pilot:
        for _ in range(2):
            assert await settle(pilot) == "turn"
            await human_move(pilot, table(first))
        assert await settle(pilot) == "turn"
        left = table(first).match
        await pilot.press("ctrl+q")
    assert left.current is not None and not list(matches_dir().glob("*.json"))

    fresh = make_app(seed=33, resume=False)
    async with fresh.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        assert table(fresh).match.seed == 33
    kept = list(matches_dir().glob("*-21.json"))
    assert len(kept) == 1
    record = loads(kept[0].read_text(encoding="utf-8"))
    assert record.seed == 21
    assert sum(len(r.actions) for r in record.rounds) == len(left.current.actions)
    saved = load_autosave()
    assert saved is not None and saved.seed == 33


@pytest.mark.slow
async def test_the_start_screen_starts_a_match_with_the_chosen_seed() -> None:
    app = make_app(seed=4, resume=None, target=1001)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert start.saved is None
        seed_input = start.query_one("#seed")
        seed_input.value = "12345"  # type: ignore[attr-defined]
        await pilot.press("ctrl+n")
        assert await settle(pilot) == "turn"
        match = table(app).match
        assert match.seed == 12345 and match.target == 1001


# ---------------------------------------------------------------------- the rest of the interface


@pytest.mark.slow
async def test_a_too_small_terminal_asks_for_a_larger_window() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        screen = table(app)
        notice = screen.query_one(TooSmall)
        assert notice.display and notice.region.width > 0
        assert "at least 80 columns × 24 rows" in str(notice.render())
        assert screen.query_one("#main").region.width == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert notice.region.width == 0
        assert screen.query_one("#hand").region.width > 0


@pytest.mark.slow
async def test_a_card_is_played_by_mouse_click() -> None:
    app = make_app(seed=9)
    async with app.run_test(size=(100, 36)) as pilot:
        while True:
            assert await settle(pilot) == "turn"
            screen = table(app)
            rnd = screen.match.current
            assert rnd is not None
            if rnd.phase is Phase.PLAYING:
                break
            await human_move(pilot, screen)
        index = first_legal_index(screen)
        card = screen.hand_cards()[index]
        await pilot.click("#hand", offset=(index * 6 + 2, 2))
        await pilot.pause()
        played = screen.shown
        assert played is not None
        everything = [c for t in played.tricks for c in t.cards] + list(played.trick)
        assert card in everything
        assert card not in screen.hand_cards()


@pytest.mark.slow
async def test_the_last_trick_help_and_palette_open_over_the_table() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = table(app)
        while not (screen.shown is not None and screen.shown.tricks):
            assert await settle(pilot) == "turn"
            await human_move(pilot, screen)
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, LastTrickScreen)
        assert screen.shown is not None and review.trick == screen.shown.tricks[-1]
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


@pytest.mark.slow
async def test_a_new_match_cancels_the_thinking_bots() -> None:
    app = make_app(seed=7, bot_delay=30.0, hold_delay=30.0)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        await human_move(pilot, screen)  # now the bots are to act, slowly
        await pilot.pause()
        driver = [w for w in app.workers if w.group == "table-driver" and w.is_running]
        assert driver, "the bots should be waiting in a worker"
        await pilot.press("n")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert all(w.is_cancelled or w.is_finished for w in driver)
        assert app.screen.saved is not None  # the left match can be resumed


@pytest.mark.slow
async def test_no_color_keeps_every_mark_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(seed=5)
    async with app.run_test(size=(100, 36)) as pilot:
        assert app.no_color
        screen = table(app)
        while True:
            assert await settle(pilot) == "turn"
            rnd = screen.match.current
            assert rnd is not None
            if rnd.phase is Phase.PLAYING and rnd.trick:
                break
            await human_move(pilot, screen)
        hand = screen.query_one("#hand", Hand).render().plain
        assert "┏" in hand and "▲" in hand  # the chosen card: heavy border and a pointer
        you = screen.query_one("#seat-0").render().plain
        assert you.startswith("▶")  # whose turn, as a sign


@pytest.mark.slow
async def test_new_match_from_the_match_end_screen_starts_one() -> None:
    """Match end → "new match" → start screen → Enter deals a new match (nothing hangs)."""
    app = make_app(seed=7)
    async with asyncio.timeout(60), app.run_test(size=(80, 24)) as pilot:  # it once hung
        assert await settle(pilot) == "turn"
        screen = table(app)
        app.push_screen(MatchEndScreen(screen.match), screen._after_match_end)
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert start.seed != 7  # a new match is offered new cards (the seed stays editable)
        await pilot.press("enter")  # the focused button (Resume: the match is unfinished)
        assert await settle(pilot) == "turn"
        assert isinstance(app.screen, TableScreen) and app.screen is not screen


def test_run_app_passes_the_command_line_settings_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bela play`` calls ``run_app``; the app gets its settings and its exit code comes back."""
    from bela.tui import BelaApp, run_app

    seen: list[BelaApp] = []

    def fake_run(self: BelaApp) -> None:
        seen.append(self)
        self.exit(return_code=3)

    monkeypatch.setattr(BelaApp, "run", fake_run)
    code = run_app(target=701, seed=99, difficulty="easy", start_round=2, resume=None)
    assert code == 3
    [app] = seen
    assert (app.target, app.seed, app.difficulty, app.start_round, app.resume) == (
        701,
        99,
        "easy",
        2,
        None,
    )


class _StubbornBot:
    """A broken bot: always says dalje, even when cards must be played."""

    name = "stubborn"

    def act(self, view: object, rng: object) -> Pass:
        return Pass()


@pytest.mark.slow
async def test_a_broken_bot_does_not_end_the_match() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        screen.bots[1] = _StubbornBot()
        await pilot.press("h")  # hearts: now Ivo must play cards, and his bot cannot
        assert await settle(pilot) == "turn"
        await human_move(pilot, screen)  # the human leads; Ivo is next
        assert await settle(pilot) == "turn"
        rnd = screen.match.current
        assert rnd is not None and rnd.phase is Phase.PLAYING and len(rnd.tricks) == 1
        messages = [n.message for n in app._notifications]
        assert any("Ivo's bot chose dalje, which is not allowed" in m for m in messages)


async def test_a_failing_autosave_is_reported_once_and_play_goes_on(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = data_dir.parent / "not-a-directory"
    blocked.write_text("a file where the data directory should be")
    monkeypatch.setenv("BELA_DATA_DIR", str(blocked))
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        for _ in range(3):
            assert await settle(pilot) == "turn"
            await human_move(pilot, table(app))
        assert await settle(pilot) == "turn"
        warnings = [n for n in app._notifications if "could not save the match" in n.message]
        assert len(warnings) == 1
        assert len(table(app).match.current.actions) >= 4  # type: ignore[union-attr]
