"""The puzzle's sentences (``bela.puzzle_words``), shared by the command line and the app."""

from __future__ import annotations

import pytest
from puzzle_fixtures import sample_lines

from bela.archive.glicko import Rating
from bela.archive.puzzle_pack import THEMES, Puzzle, read_lines
from bela.archive.puzzle_store import Outcome, Streak
from bela.engine import Pass, Suit
from bela.i18n import LANGUAGES, set_language
from bela.puzzle_words import (
    PROVISIONAL_RD,
    THEME_NAMES,
    explanation,
    question,
    rating_change,
    signed,
    streak_text,
    table_names,
    theme_name,
    typical_text,
    verdict,
    void_sentences,
)
from bela.wording import at_table, seat_name, suit_name


def _puzzles() -> tuple[Puzzle, ...]:
    return read_lines(sample_lines()).puzzles


def test_every_theme_has_a_name() -> None:
    assert set(THEME_NAMES) == set(THEMES)
    assert len({theme_name(t) for t in THEMES}) == len(THEMES)


@pytest.mark.parametrize(("value", "text"), [(12.4, "+12"), (-58.12, "\u221258"), (0.3, "0")])
def test_signed(value: float, text: str) -> None:
    assert signed(value) == text


def test_the_explanation_compares_the_right_numbers() -> None:
    puzzle = next(p for p in _puzzles() if len(p.choices) >= 3)
    best, alt, third = puzzle.choices[0], puzzle.choices[1], puzzle.choices[2]
    right = explanation(puzzle, best.actions[0])
    assert signed(best.written) in right and signed(alt.written) in right
    assert "best alternative" in right
    as_alt = explanation(puzzle, alt.actions[0])
    assert "it is the best alternative, and still worse" in as_alt
    other = explanation(puzzle, third.actions[0])
    for value in (best.written, alt.written, third.written):
        assert signed(value) in other
    assert f"best on {round(best.best * puzzle.deals)} of them" in right
    assert signed(alt.written) in explanation(puzzle, Pass())  # not a choice: compared with alt


def test_verdict_and_question() -> None:
    puzzle = _puzzles()[0]
    assert verdict(puzzle, puzzle.answer[0]).startswith("Right")
    assert verdict(puzzle, puzzle.choices[1].actions[0]).startswith("Not this time")
    assert question(puzzle) == "Find the best card."


def test_typical_text_says_we_and_they_from_the_puzzles_seat() -> None:
    puzzle = _puzzles()[0]  # seat 1: "we" are team 1
    assert puzzle.typical is not None
    line = puzzle.typical.lines[0]
    text = typical_text(puzzle)
    assert text is not None
    assert f"we write {line.written[1]} and they write {line.written[0]}" in text


def _outcome(before: float, after: float, rd: float, rated: bool = True) -> Outcome:
    return Outcome(True, Rating(before), Rating(after, rd), 1400.0, Streak(2, 5), rated)


def test_rating_change() -> None:
    assert rating_change(_outcome(1500, 1532.4, 60)) == "Your rating: 1500 → 1532 (+32)."
    assert "provisional" in rating_change(_outcome(1500, 1600, PROVISIONAL_RD + 1))
    assert "first try" in rating_change(_outcome(1500, 1500, 60, rated=False))
    assert streak_text(Streak(1, 4)) == "Streak: 1 right answer in a row (best 4)."


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_sentence_is_in_the_players_language(lang: str) -> None:
    puzzle = next(p for p in _puzzles() if len(p.choices) >= 3)
    english = [
        explanation(puzzle, puzzle.choices[2].actions[0]),
        typical_text(puzzle),
        verdict(puzzle, puzzle.answer[0]),
        question(puzzle),
        rating_change(_outcome(1500, 1600, 200)),
        streak_text(Streak(3, 3)),
        *[theme_name(t) for t in THEMES if t not in ("bela", "pod-mus")],
    ]
    set_language(lang)
    try:
        spoken = [
            explanation(puzzle, puzzle.choices[2].actions[0]),
            typical_text(puzzle),
            verdict(puzzle, puzzle.answer[0]),
            question(puzzle),
            rating_change(_outcome(1500, 1600, 200)),
            streak_text(Streak(3, 3)),
            *[theme_name(t) for t in THEMES if t not in ("bela", "pod-mus")],
        ]
    finally:
        set_language("en")
    for en, text in zip(english, spoken, strict=True):
        assert text != en


def test_table_names_turn_the_table_to_the_puzzles_seat() -> None:
    assert table_names(0) == ("You", "Ivo", "Marko", "Ana")
    assert table_names(1) == ("Ana", "You", "Ivo", "Marko")
    assert table_names(3) == ("Ivo", "Marko", "Ana", "You")


def test_every_void_said_is_a_suit_the_seat_did_not_follow() -> None:
    said = trumps = 0
    for puzzle in _puzzles():
        view = puzzle.moment().view(puzzle.seat)
        with at_table(table_names(puzzle.seat), puzzle.seat):
            sentences = void_sentences(puzzle.seat, view)
            names = {seat_name(s): s for s in range(4)}
        played = [(t.leader, t.cards) for t in view.tricks]
        if view.trick_leader is not None and view.trick:
            played.append((view.trick_leader, view.trick))
        for sentence in sentences:
            name, _has, _no, rest = sentence.split(" ", 3)
            seat = names[name]
            assert seat != puzzle.seat
            for word in rest.rstrip(".").split(", "):
                suit = next(x for x in Suit if suit_name(x) == word)
                # it did not follow that suit, or (trump) it neither followed nor trumped
                shown_by = [
                    (cards[0].suit, cards[(seat - leader) % 4].suit)
                    for leader, cards in played
                    if (seat - leader) % 4 < len(cards)
                ]
                assert any(
                    threw != led and (suit == led or suit == view.trump != threw)
                    for led, threw in shown_by
                )
                said += 1
                trumps += suit == view.trump and not any(
                    cards[0].suit == suit != cards[(seat - leader) % 4].suit
                    for leader, cards in played
                    if (seat - leader) % 4 < len(cards)
                )
    assert said > 5
    assert trumps  # the command line says "no trump" from a seat that threw off, as the app does
