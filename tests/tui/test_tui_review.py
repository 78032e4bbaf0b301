"""The round review (``v``): every card of the player's labelled against the hard bot from
the player's information, the key moment first, and a board to try another card there."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from tui_pilot import make_app, play_round, table

from bela.archive.puzzle_pack import load_pack
from bela.archive.records import dumps, record_from_match
from bela.archive.storage import matches_dir
from bela.engine import Match
from bela.i18n import set_language
from bela.lab.card_review import match_accuracy, review_round, reviewable_rounds
from bela.lab.review_text import match_accuracy_text, match_progress_text
from bela.tui.screens.history import HistoryScreen, ReplayScreen
from bela.tui.screens.review import ReviewScreen
from bela.tui.screens.summary import RoundSummaryScreen


def random_match(seed: int) -> Match:
    """A brza 163 played at random to its end."""
    rng = random.Random(seed)
    match = Match.new(seed, target=163)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


async def wait_for(pilot: Pilot[Any], check: Any, tries: int = 1200) -> None:
    for _ in range(tries):
        await pilot.pause(0.05)
        if check():
            return
    raise AssertionError("timed out waiting")


def shown(screen: ReviewScreen, ident: str) -> str:
    console = Console(record=True, width=200, file=io.StringIO())
    console.print(screen.query_one(ident, Static).content)
    return console.export_text()


async def test_v_on_the_summary_reviews_the_round_with_the_key_moment_first() -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_round(pilot)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        assert summary.query("#review")  # the button is there
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await wait_for(pilot, lambda: screen.review is not None)
        review = screen.review
        assert review is not None
        expected = review_round(table(app).match, summary.record.index, 0)
        assert review == expected  # the same guessed deals: the same values, every time
        cards = screen.query_one("#review-cards", OptionList)
        assert cards.option_count == len(review.cards)
        key = review.key_moment
        if key is not None:  # the key moment's board is shown first
            assert screen.card == key and cards.highlighted == review.cards.index(key)
        assert "Accuracy" in shown(screen, "#review-status")
        # the match so far is this one round: its accuracy, said as the match's so far
        await wait_for(pilot, lambda: screen.match_reviews is not None)
        assert screen.match_reviews == [review]
        so_far = f"Accuracy over the match so far: {review.accuracy:.0f}% (1 round reviewed)"
        assert review.accuracy is not None and shown(screen, "#review-match").strip() == so_far
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, RoundSummaryScreen))


async def test_the_board_says_what_another_card_would_have_written(data_dir: Path) -> None:
    match = random_match(33)  # its first round has a costly card of seat 0's
    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    record = record_from_match(match, "normal")
    (directory / "20260110T120000Z-33.json").write_text(dumps(record), encoding="utf-8")
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await wait_for(pilot, lambda: screen.review is not None)
        key = screen.card
        assert key is not None and screen.review is not None
        assert key == screen.review.key_moment and key.hard != key.played
        assert "Key moment" in shown(screen, "#review-key")
        # the board: every card the seat could play there; choosing the hard bot's says its value
        board = screen.query_one("#review-board", OptionList)
        assert board.option_count == len(key.values)
        assert key.hard is not None
        ids = [board.get_option_at_index(i).id for i in range(board.option_count)]
        board.focus()
        board.highlighted = ids.index(f"try-{key.hard}")
        await wait_for(pilot, lambda: screen.tried == key.hard)
        text = shown(screen, "#review-try")
        value = f"{key.values[key.hard]:+.1f}".replace("-", "−")
        assert text.startswith("With ") and value in text
        assert "on average, your pair's minus theirs." in text  # was "your pair's less theirs"
        # another card of the player's list shows its own moment's board
        cards = screen.query_one("#review-cards", OptionList)
        other = next(i for i, c in enumerate(screen.review.cards) if c != key)
        cards.focus()
        cards.highlighted = other
        await wait_for(pilot, lambda: screen.card == screen.review.cards[other])
        # the round's costly moments the judge finds clear are kept as the player's puzzles
        await wait_for(pilot, lambda: screen.kept is not None)
        assert isinstance(screen.kept, int) and screen.kept >= 1
        assert "became puzzles" in shown(screen, "#review-key") or "became a puzzle" in shown(
            screen, "#review-key"
        )
        pack = load_pack(data_dir)
        assert len([p for p in pack.puzzles if "yours" in p.themes]) == screen.kept


async def test_the_review_from_the_history_says_the_whole_matchs_accuracy(data_dir: Path) -> None:
    match = random_match(33)  # three rounds, each with cards to judge
    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    record = record_from_match(match, "normal")
    (directory / "20260110T120000Z-33.json").write_text(dumps(record), encoding="utf-8")
    reviews = [review_round(match, index, 0) for index in reviewable_rounds(match)]
    expected = match_accuracy(reviews)
    assert len(reviews) == 3 and expected is not None
    assert f"{expected:.0f}" != f"{reviews[0].accuracy:.0f}"  # the match's is not the round's
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await wait_for(pilot, lambda: screen.match_reviews is not None)
        assert screen.match_reviews == reviews  # every round, judged as bela review judges it
        line = shown(screen, "#review-match").strip()
        assert line == f"Accuracy over the match: {expected:.0f}% (3 rounds reviewed)"
        assert line == match_accuracy_text(expected, 3, True)
        round_line = shown(screen, "#review-status")  # the round's own accuracy stays above
        assert f"Accuracy {reviews[0].accuracy:.0f}%" in round_line


def test_a_rounds_review_is_kept_for_the_session_and_told_apart_by_its_match(
    monkeypatch: Any,
) -> None:
    import bela.lab.card_review as card_review

    match = random_match(33)
    first = card_review.reviewed_round(match, 0, 0)
    assert first == review_round(match, 0, 0)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a kept review was judged again")

    monkeypatch.setattr(card_review, "review_round", refuse)
    assert card_review.reviewed_round(match, 0, 0) is first  # the next summary: at once
    with pytest.raises(AssertionError, match="judged again"):  # another seat: not the kept one
        card_review.reviewed_round(match, 0, 1)
    with pytest.raises(AssertionError, match="judged again"):  # nor another match
        card_review.reviewed_round(random_match(34), 0, 0)


def test_the_match_accuracy_lines_in_english_and_croatian() -> None:
    try:
        set_language("en")
        assert [
            match_accuracy_text(71.26, 3, True),
            match_accuracy_text(80.0, 1, False),
            match_accuracy_text(None, 2, True),
            match_progress_text(1, 4),
        ] == [
            "Accuracy over the match: 71% (3 rounds reviewed)",
            "Accuracy over the match so far: 80% (1 round reviewed)",
            "Accuracy over the match: – (2 rounds reviewed)",
            "Accuracy over the match: the hard bot weighs round 2 of 4…",
        ]
        set_language("hr")
        assert [
            match_accuracy_text(71.26, 3, True),
            match_accuracy_text(80.0, 1, False),
            match_accuracy_text(64.0, 5, False),
            match_progress_text(1, 4),
        ] == [
            "Točnost u cijeloj partiji: 71% (pregledane 3 runde)",
            "Točnost u partiji dosad: 80% (pregledana 1 runda)",
            "Točnost u partiji dosad: 64% (pregledano 5 rundi)",
            "Točnost u partiji: jaki bot procjenjuje rundu 2 od 4…",
        ]
    finally:
        set_language("en")
