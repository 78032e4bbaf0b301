"""The idea themes (count-to-pad, štiglja, draw-trumps, drive-out-ace, unblock, partner-void)
on explicit deals, each beside a control that differs in the one fact the rule reads."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

import pytest
from theme_deals import (
    CLUB_DEAL,
    DRY_DEAL,
    LONG_CLUB_DEAL,
    TEN_DEAL,
    VOID_DEAL,
    bot_moments,
    deal,
    verdict,
)

from bela.ai.guessing import GuessSampler
from bela.ai.hard import rebuild_round
from bela.engine import Card, Play, Round, Score, score_round_detail
from bela.engine.view import SeatView
from bela.lab import puzzle_themes
from bela.lab.puzzle_reasons import reasons
from bela.lab.puzzle_stakes import last_trick_takers, outcomes
from bela.lab.puzzle_themes import forces_ace, shown_voids, theme_moment, themes_of
from bela.search.sampling import knowledge_of


def _themes(rnd_plays: tuple[Sequence[str], str], answer: str, other: str) -> tuple[str, ...]:
    eights, plays = rnd_plays
    rnd = deal(eights, plays)
    return themes_of(rnd, verdict(rnd, answer, other))


# --- partner-void --------------------------------------------------------------------
VOID_LEAD = (VOID_DEAL, "AS 8S 7H 7S QD KD AD 9D")  # seat 2 ruffed the spade ace; seat 0 leads


def test_a_spade_led_to_the_partner_who_ruffed_spades_is_partner_void() -> None:
    assert "partner-void" in _themes(VOID_LEAD, "10S", "7D")
    assert "partner-void" not in _themes(VOID_LEAD, "7D", "10S")  # the answer leads no void
    # 10S against 9S is which spade, not whether to lead into the void
    assert "partner-void" not in _themes(VOID_LEAD, "10S", "9S")


def test_a_partner_without_trumps_cannot_ruff_so_his_void_is_no_theme() -> None:
    # seat 2 discarded a club on the spade ace: void in spades and (it had to trump) in hearts
    dry = (DRY_DEAL, "AS 8S 7C QS")
    rnd = deal(*dry)
    assert shown_voids(rnd.view(0))[2] == {2, 0}  # spades and hearts (trump)
    assert "partner-void" not in _themes(dry, "10S", "7D")


# --- drive-out-ace -------------------------------------------------------------------
def test_leading_the_ten_under_an_unseen_ace_drives_it_out() -> None:
    first = (TEN_DEAL, "")
    assert "drive-out-ace" in _themes(first, "10C", "AS")
    assert "drive-out-ace" not in _themes(first, "AS", "10C")
    # the 8C is beaten by the king too: leading it forces nothing
    assert "drive-out-ace" not in _themes(first, "8C", "AS")


def test_only_the_highest_unseen_card_below_the_ace_forces_it() -> None:
    trump = 0  # hearts
    ten, king, eight = int(Card.parse("10C")), int(Card.parse("KC")), int(Card.parse("8C"))
    everything = (1 << 32) - 1
    assert forces_ace(ten, trump, everything)
    assert not forces_ace(king, trump, everything)  # the ten is out: it may cover the king
    assert forces_ace(king, trump, everything & ~(1 << ten))  # the ten seen: only the ace
    assert not forces_ace(eight, trump, everything & ~(1 << ten))  # the king still out
    assert not forces_ace(ten, trump, everything & ~(1 << int(Card.parse("AC"))))  # no ace out
    assert not forces_ace(int(Card.parse("10H")), trump, everything)  # a trump is no plain card


# --- draw-trumps ---------------------------------------------------------------------
def test_a_trump_lead_instead_of_a_plain_one_draws_trumps() -> None:
    first = (TEN_DEAL, "")
    assert "draw-trumps" in _themes(first, "JH", "AS")
    assert "draw-trumps" not in _themes(first, "AS", "JH")
    assert "draw-trumps" not in _themes(first, "JH", "8H")  # which trump, not whether


# --- unblock -------------------------------------------------------------------------
CLUB_FOLLOW = (CLUB_DEAL, "AS 8S 7H 7S AC 7C")  # the partner leads AC, seat 0 holds KC 8C


def test_the_king_under_the_partners_ace_from_two_clubs_unblocks() -> None:
    assert "unblock" in _themes(CLUB_FOLLOW, "KC", "8C")
    assert "unblock" not in _themes(CLUB_FOLLOW, "8C", "KC")  # the low card is what it needs


def test_the_king_from_four_clubs_is_no_unblock() -> None:
    """With low clubs to follow for several rounds, the king blocks nothing yet."""
    long = (LONG_CLUB_DEAL, "AS 8S 7H 7S AC 8C")
    assert "unblock" not in _themes(long, "KC", "7C")


# --- count-to-pad and štiglja --------------------------------------------------------
def _score(caller: int, ours: int, tricks: tuple[int, int] = (4, 4)) -> Score:
    """The score when ``caller`` named trump and team 0 took ``ours`` card points."""
    return score_round_detail(
        caller=caller, card_points=(ours, 162 - ours), zvanja=(0, 0), bela=(0, 0), tricks=tricks
    )


MADE, FELL = _score(0, 90), _score(0, 70)  # team 0 calls: 90 makes it, 70 falls
SWEPT, ALMOST = _score(0, 162, (8, 0)), _score(0, 150, (7, 1))


def _with(monkeypatch: pytest.MonkeyPatch, pairs: list[tuple[Score, Score]]) -> tuple[str, ...]:
    """The themes at seat 0's lead of VOID_LEAD (team 0) when the guessed deals give ``pairs``
    (the answer's score, the next choice's)."""

    def fake(
        view: SeatView, cards: Sequence[Card], rng: Random, deals: int
    ) -> list[tuple[Score, ...]]:
        assert deals == puzzle_themes.STAKE_DEALS and len(cards) == 2
        return list(pairs)

    monkeypatch.setattr(puzzle_themes, "outcomes", fake)
    return _themes(VOID_LEAD, "10S", "7D")


def test_a_call_kept_on_a_quarter_of_the_deals_and_most_of_the_gain_is_count_to_pad(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = (_score(0, 92), _score(0, 90))  # 2 card points more: 4 written points
    assert "count-to-pad" in _with(monkeypatch, [(MADE, FELL)] * 4 + [small] * 12)
    # three deals in sixteen: a risk in the tail, not the idea
    assert "count-to-pad" not in _with(monkeypatch, [(MADE, FELL)] * 3 + [small] * 13)
    # the swing is there, but the card points on the other deals are worth more
    big = (_score(0, 160), _score(0, 90))
    assert "count-to-pad" not in _with(monkeypatch, [(MADE, FELL)] * 4 + [big] * 12)
    # the answer makes our call fall where the other keeps it: that is no gain from the count
    assert "count-to-pad" not in _with(monkeypatch, [(FELL, MADE)] * 4 + [small] * 12)


def test_taking_every_trick_on_a_quarter_of_the_deals_is_stiglja_not_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    same = (MADE, MADE)
    themes = _with(monkeypatch, [(SWEPT, ALMOST)] * 4 + [same] * 12)
    assert "stiglja" in themes and "count-to-pad" not in themes
    assert "stiglja" not in _with(monkeypatch, [(SWEPT, ALMOST)] * 3 + [same] * 13)
    # defenders sweeping the callers is a štiglja swing too, not a pad one
    their_sweep = _score(0, 0, (0, 8))
    themes = _with(monkeypatch, [(MADE, their_sweep)] * 4 + [same] * 12)
    assert "stiglja" in themes and "count-to-pad" not in themes


def test_a_moment_skipped_as_settled_has_the_same_fall_and_sweep_after_every_card() -> None:
    """``_stake_possible`` skips the solves only where no card can change the call or a
    sweep: checked on every card of every such moment of 40 bot-played deals, on 4 deals.
    The first two tricks are never solved (their cost): no theme of the two there."""
    settled = 0
    for rnd in bot_moments(range(40)):
        view = rnd.view(rnd.to_act or 0)
        if len(view.tricks) < 2 or puzzle_themes._stake_possible(view):
            continue  # the first two tricks are skipped for their cost, not as settled
        settled += 1
        cards = sorted({a.card for a in view.legal_actions if isinstance(a, Play)})
        for scores in outcomes(view, cards, Random(settled), 4):
            assert len({(s.fell, s.stiglja) for s in scores}) == 1
    assert settled >= 40


@pytest.mark.parametrize(
    ("theme", "kinds"),
    [
        ("count-to-pad", {"fall-ours", "fall-theirs"}),
        ("stiglja", {"stiglja-ours", "stiglja-theirs"}),
    ],
)
def test_a_real_moment_of_the_theme_is_explained_by_what_it_turns(
    theme: str, kinds: set[str]
) -> None:
    """On bot-played deals, the first two moments the rule gives the theme (the first legal card
    against the second): the puzzle's reasons, on 96 deals of their own, name the call (or
    the sweep) among the stakes."""
    found = 0
    for rnd in bot_moments(range(80)):
        seat = rnd.to_act
        assert seat is not None
        cards = sorted({str(a.card) for a in rnd.view(seat).legal_actions if isinstance(a, Play)})
        if len(rnd.tricks) < 3 or len(cards) < 2:
            continue
        first = verdict(rnd, cards[0], cards[1])
        if theme not in themes_of(rnd, first):
            continue
        why = reasons(rnd, first.answer, first.choices[1].actions[0], Random(7))
        assert why is not None
        assert {s.kind for s in why.stakes} & kinds
        found += 1
        if found == 2:
            return
    raise AssertionError(f"{found} {theme} moments in 80 deals")


def test_theme_moment_sees_each_idea_of_these_deals() -> None:
    assert theme_moment(deal(*VOID_LEAD))  # partner-void
    assert theme_moment(deal(*CLUB_FOLLOW))  # unblock (and namazati is not possible: KC)


def test_the_first_two_tricks_are_never_solved_for_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fail(*args: object) -> list[tuple[Score, ...]]:
        raise AssertionError("solved an early trick")

    monkeypatch.setattr(puzzle_themes, "outcomes", fail)
    second = deal(CLUB_DEAL, "AS 8S 7H 7S AC 7C")
    assert "unblock" in themes_of(second, verdict(second, "KC", "8C"))
    assert themes_of(deal(TEN_DEAL), verdict(deal(TEN_DEAL), "JH", "AS")) == ("lead", "draw-trumps")


# --- last-trick ----------------------------------------------------------------------
def _last(monkeypatch: pytest.MonkeyPatch, rnd: Round, rows: list[tuple[int, int]]) -> bool:
    """Whether the answer keeps the last trick at ``rnd`` when the deals give ``rows`` (the
    team taking the eighth trick after the answer, after the next choice)."""

    def fake(
        view: SeatView, cards: Sequence[Card], rng: Random, deals: int
    ) -> list[tuple[int, ...]]:
        assert deals == puzzle_themes.STAKE_DEALS and len(cards) == 2
        return list(rows)

    monkeypatch.setattr(puzzle_themes, "last_trick_takers", fake)
    seat = rnd.to_act
    assert seat is not None
    cards = sorted({str(a.card) for a in rnd.view(seat).legal_actions if isinstance(a, Play)})
    return "last-trick" in themes_of(rnd, verdict(rnd, cards[0], cards[1]))


def test_keeping_the_last_trick_on_a_quarter_of_the_deals_more_is_the_theme(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    late = next(r for r in bot_moments(range(5)) if len(r.tricks) == 6)
    us = (late.to_act or 0) & 1
    them = 1 - us
    assert _last(monkeypatch, late, [(us, them)] * 4 + [(us, us)] * 12)
    assert not _last(monkeypatch, late, [(us, them)] * 3 + [(us, us)] * 13)
    # as many deals the other way round: the card does not keep it
    assert not _last(monkeypatch, late, [(us, them)] * 4 + [(them, us)] * 4 + [(us, us)] * 8)
    assert not _last(monkeypatch, late, [(them, us)] * 8 + [(us, us)] * 8)
    early = next(r for r in bot_moments(range(5)) if len(r.tricks) == 4)  # the fifth trick
    assert not _last(monkeypatch, early, [(us, them)] * 16)


def test_who_takes_the_last_trick_is_played_out_right_where_the_play_is_forced() -> None:
    """Fourth to play in the seventh trick, the seat's card ends the trick and the eighth is
    one card each: on the same guessed deals, played out by hand, the same team takes it."""
    checked = 0
    for rnd in bot_moments(range(40)):
        if len(rnd.tricks) != 6 or len(rnd.trick) != 3:
            continue
        view = rnd.view(rnd.to_act or 0)
        cards = sorted({a.card for a in view.legal_actions if isinstance(a, Play)})
        takers = last_trick_takers(view, cards, Random(checked), 6)
        knowledge = knowledge_of(view)
        sampler, rng = GuessSampler(knowledge), Random(checked)
        for row in takers:
            base = rebuild_round(view, knowledge, sampler.sample(rng))
            for card, team in zip(cards, row, strict=True):
                game = base.copy()
                game.push(Play(card))
                while not game.is_finished:
                    (action,) = {a for a in game.legal_actions() if isinstance(a, Play)}
                    game.push(action)
                assert game.tricks[-1].winner & 1 == team
        checked += 1
    assert checked >= 5
