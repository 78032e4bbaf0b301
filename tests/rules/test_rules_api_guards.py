"""The engine's public API refuses what it cannot take, with its typed errors (hardening items
12 and 13).

Every value handed to the engine either works and gives the right answer, or raises a
``BelaError`` (a ``ValueError``) whose message is one short line: never an ``IndexError``,
``AttributeError``, ``TypeError`` or plain ``ValueError`` from deep inside, and never a
quietly wrong answer (``Card(-1)`` used to be AC, ``view(-1)`` seat 3's view). The scenario
tests pin each case the audit found and its relatives; the properties feed the entry points
arbitrary values and compare every success with an answer worked out independently here.
"""

# These tests hand the API values of the wrong type on purpose.
# mypy: disable-error-code="arg-type, list-item"

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeGuard

import pytest
from bela_scenarios import DEAL_T, call, new_round
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import (
    BelaError,
    Call,
    Card,
    CardParseError,
    IllegalActionError,
    InvalidValueError,
    MalformedActionError,
    Match,
    OutOfTurnError,
    Pass,
    Phase,
    Play,
    Rank,
    Round,
    Rules,
    SeatError,
    Suit,
    card_points,
    cards_in,
    check_seed,
    deal_from_seed,
    decide_winner,
    explain_illegal,
    find_zvanja,
    legal_plays,
    mask_of,
    resolve_zvanja,
    round_seed,
    score_round,
    trick_winner,
)

MESSAGE_LIMIT = 300
HUGE_TEXT = "x" * 10_000_000


class HugeInt(int):
    """An int too long to print (``str`` and ``repr`` fail past 4300 digits) with a short name."""

    def __str__(self) -> str:
        return "10**5000"


HUGE_INT = HugeInt(10**5000)


def refused(action: Callable[[], object], error: type[BaseException] = BelaError) -> str:
    """Run ``action``, which must raise ``error``; return its message, checked to be one line."""
    with pytest.raises(error) as caught:
        action()
    assert isinstance(caught.value, BelaError)
    return one_short_line(caught.value)


def one_short_line(error: BaseException) -> str:
    message = str(error)
    assert message, "an error with no message"
    assert "\n" not in message and "\r" not in message, message
    assert len(message) <= MESSAGE_LIMIT, message[:200]
    return message


def outcome(action: Callable[[], Any]) -> tuple[bool, Any]:
    """``(True, result)`` or ``(False, error)`` for a ``BelaError``; anything else propagates."""
    try:
        return True, action()
    except BelaError as error:
        one_short_line(error)
        return False, error


def t_round_in_play() -> Round:
    """Deal T with hearts named: seat 1 to lead, holding JH 9H 10D 7D 9S JS 9C JC."""
    return call(new_round(0, DEAL_T), "H")


def snapshot(rnd: Round) -> tuple[Any, ...]:
    return (
        rnd.actions,
        tuple(rnd.hand_mask(s) for s in range(4)),
        rnd.trick,
        rnd.phase,
        rnd.to_act,
        rnd.tricks,
        rnd.result,
    )


def around_constructor(cls: type[Any], **fields: object) -> Any:
    """An instance of a frozen action class with ``fields`` put in past its constructor."""
    action = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


# ------------------------------------------------------------------------------ the family


def test_the_typed_errors_are_one_family_of_value_errors() -> None:
    """Callers that catch ``ValueError`` or ``IllegalActionError`` keep working: the new
    classes sit under the old ones (records catch ``IllegalActionError`` around ``apply``)."""
    assert issubclass(BelaError, ValueError)
    for error in (InvalidValueError, IllegalActionError):
        assert issubclass(error, BelaError)
    for error in (CardParseError, SeatError):
        assert issubclass(error, InvalidValueError)
    assert issubclass(MalformedActionError, IllegalActionError)
    assert issubclass(MalformedActionError, InvalidValueError)
    from bela.engine.cards import CardParseError as from_cards

    assert from_cards is CardParseError


# ------------------------------------------------------------------------------ item 12: cards


@pytest.mark.parametrize(
    "value", [-1, -32, 32, 10**30, True, False, 1.5, 1.0, None, "QH", b"QH", [3], object()]
)
def test_a_card_index_outside_0_to_31_or_not_an_int_is_refused(value: object) -> None:
    """``Card(-1)`` was AC and ``Card(-32)`` 7H (tuple indexing from the end); a bool is not a
    card either, nor a float, nor text (that is ``Card.parse``)."""
    refused(lambda: Card(value), CardParseError)


def test_the_card_message_names_the_value_and_what_a_card_is() -> None:
    assert refused(lambda: Play(-1), CardParseError) == (
        "card -1 is not a card: cards are 0..31 or text like 'QH'"
    )
    assert "-1" in refused(lambda: Card(-1)) and "0..31" in refused(lambda: Card(-1))


@pytest.mark.parametrize("value", [-1, -32, 32, True, 1.5, 3.0, None, b"QH", "QQ", object()])
def test_play_refuses_what_is_not_a_card(value: object) -> None:
    """``Play(-1)`` used to play AC."""
    refused(lambda: Play(value), CardParseError)


@pytest.mark.parametrize("bela", [1, 0, "yes", None, 1.0])
def test_play_refuses_a_bela_flag_that_is_not_a_bool(bela: object) -> None:
    refused(lambda: Play(Card.parse("KH"), bela), MalformedActionError)


def test_card_text_and_indices_still_make_plays() -> None:
    queen = Card.parse("QH")
    assert Play("QH").card is queen and Play(" qh ").card is queen and Play(5).card is queen
    assert Play(queen, True).bela is True
    assert Play(Rank.QUEEN).card is queen  # an int-like that is not a bool: its value


def test_legal_plays_refuses_a_card_that_is_not_one() -> None:
    """``legal_plays([-1], [], "H")`` was ``[AC]``."""
    refused(lambda: legal_plays([-1], [], "H"), CardParseError)
    refused(lambda: legal_plays(["7H"], [-1], "H"), CardParseError)
    refused(lambda: legal_plays([1.5], [], "H"), CardParseError)
    refused(lambda: legal_plays([True], [], "H"), CardParseError)


@pytest.mark.parametrize("trump", [4, -1, True, 1.0, None, "X", b"H"])
def test_legal_plays_refuses_a_trump_that_is_not_a_suit(trump: object) -> None:
    refused(lambda: legal_plays(["7H"], [], trump), CardParseError)


def test_legal_plays_refuses_a_card_given_twice() -> None:
    """``legal_plays(["7H", "7H"], [], "H")`` returned ``[7H, 7H]``."""
    assert "7H" in refused(lambda: legal_plays(["7H", "7H"], [], "H"), InvalidValueError)
    assert "7H" in refused(lambda: legal_plays("7H 7h", [], "H"), InvalidValueError)
    assert "8S" in refused(lambda: legal_plays(["7H"], ["8S", "8S"], "H"), InvalidValueError)


@pytest.mark.parametrize("trick", ["8H 9H 10H JH", "8H 9H 10H JH QH", "8S 9S 10S JS QS KS"])
def test_legal_plays_refuses_a_trick_that_is_already_complete(trick: str) -> None:
    """A trick takes four cards: with four already played, no fifth may follow."""
    refused(lambda: legal_plays(["7H"], trick, "H"), InvalidValueError)
    assert legal_plays(["7H", "AS"], "8H 9H 10H", "S") == [Card.parse("7H")]


def test_legal_plays_refuses_a_hand_of_more_than_eight_cards() -> None:
    nine = "7H 8H 9H 10H JH QH KH AH 7S"
    refused(lambda: legal_plays(nine, [], "H"), InvalidValueError)
    refused(lambda: find_zvanja(nine), InvalidValueError)


# ------------------------------------------------------------------------------ item 12: seats

SEAT_METHODS = ["view", "hand", "hand_mask", "talon", "declarations"]
BAD_SEATS: list[object] = [-1, 4, -4, 2**64, True, False, 1.5, 1.0, "1", b"1", None, [1]]


@pytest.mark.parametrize("method", SEAT_METHODS)
@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_a_seat_outside_0_to_3_is_refused_by_every_seat_method(method: str, seat: object) -> None:
    """``view(-1)`` (and ``hand``, ``hand_mask``, ``talon``) quietly answered for seat 3, and
    ``view(4)`` raised ``IndexError``."""
    rnd = t_round_in_play()
    message = refused(lambda: getattr(rnd, method)(seat), SeatError)
    assert "seat" in message


def test_the_seat_methods_still_answer_for_seats_0_to_3() -> None:
    rnd = t_round_in_play()
    assert rnd.view(1).hand == tuple(rnd.hand(1)) == tuple(cards_in(rnd.hand_mask(1)))
    assert [len(rnd.talon(s)) for s in range(4)] == [2, 2, 2, 2]


# ------------------------------------------------------------------------------ item 12: suits


@pytest.mark.parametrize("suit", [None, 31, 4, -1, True, 1.5, 2.0, "X", "", b"H", [0]])
def test_call_refuses_what_is_not_a_suit(suit: object) -> None:
    """``Call(None)`` and ``Call(31)`` raised a plain ``ValueError``."""
    refused(lambda: Call(suit), CardParseError)


def test_call_still_takes_a_suit_its_letter_or_its_index() -> None:
    assert Call("h").suit is Call(0).suit is Call(Suit.HEARTS).suit is Suit.HEARTS
    assert Call("♠").suit is Suit.SPADES


@pytest.mark.parametrize("value", [5, -1, None, "H", 1.5, b"\x00", True, 1.0, HUGE_INT], ids=str)
def test_suit_and_rank_lookups_refuse_values_out_of_range(value: object) -> None:
    """``Suit(5)`` raised the enum's plain ``ValueError`` (and ``Suit(10**5000)`` a
    ``ValueError`` from building that message); ``Suit(True)`` was diamonds."""
    refused(lambda: Suit(value), CardParseError)
    if value != 5:
        refused(lambda: Rank(value), CardParseError)
    refused(lambda: Rank(8), CardParseError)


@pytest.mark.parametrize("text", [None, b"H", 3, ["H"]])
def test_parse_refuses_what_is_not_text(text: object) -> None:
    refused(lambda: Suit.parse(text), CardParseError)
    refused(lambda: Rank.parse(text), CardParseError)
    refused(lambda: Card.parse(text), CardParseError)


@pytest.mark.parametrize(("rank", "suit"), [(8, 0), (-1, 0), (0, 4), (0, -1), (True, 0), (1.5, 0)])
def test_card_of_refuses_ranks_and_suits_out_of_range(rank: object, suit: object) -> None:
    """``Card.of(8, 0)`` was 7D (index 8) and ``Card.of(-1, 0)`` AC."""
    refused(lambda: Card.of(rank, suit), CardParseError)
    assert Card.of(Rank.ACE, Suit.CLUBS) is Card.parse("AC")


def test_messages_quote_huge_values_cut_short() -> None:
    """A ten-million-character string or an int too long to print makes a short message."""
    for action in (
        lambda: Card.parse(HUGE_TEXT),
        lambda: Suit.parse(HUGE_TEXT),
        lambda: Rank.parse(HUGE_TEXT),
        lambda: Play(HUGE_TEXT),
        lambda: Call(HUGE_TEXT),
        lambda: Card(10**5000),
        lambda: Play(10**5000),
        lambda: legal_plays([HUGE_TEXT], [], "H"),
        lambda: t_round_in_play().view(HUGE_TEXT),
        lambda: check_seed(-(10**5000)),
        lambda: Match.new(1, start_index=[HUGE_TEXT] * 10**5),
        lambda: t_round_in_play().apply(HUGE_TEXT),
    ):
        refused(action)
    assert "\\x1b" in refused(lambda: Card.parse("\x1b[2J"))  # a terminal escape is shown escaped


# ------------------------------------------------------------------------------ item 13: actions


@pytest.mark.parametrize("cls", [Play, Call])
def test_an_action_made_without_its_constructor_is_refused(cls: type[Any]) -> None:
    """``object.__new__(Play)`` has no ``card``: ``apply`` raised ``AttributeError``."""
    rnd = t_round_in_play() if cls is Play else new_round(0, DEAL_T)
    before = snapshot(rnd)
    bare = object.__new__(cls)
    refused(lambda: rnd.apply(bare), MalformedActionError)
    refused(lambda: rnd.copy().push(bare), MalformedActionError)
    assert not rnd.is_legal(bare)
    match = dataclasses.replace(Match.new(1, first_dealer=0), current=rnd)
    refused(lambda: match.apply(bare), MalformedActionError)
    assert snapshot(rnd) == before


@pytest.mark.parametrize("card", [4.5, 4.0, 4, -1, -28, "JH", None, True, Rank.JACK])
def test_a_play_whose_card_was_put_in_past_the_constructor_is_refused(card: object) -> None:
    """Seat 1 holds JH (index 4): a ``Play`` whose card is 4.5 used to play JH (``int(4.5)``),
    and -28 would have been JH too. Only a ``Card`` is a card inside an action."""
    rnd = t_round_in_play()
    before = snapshot(rnd)
    bad = around_constructor(Play, card=card, bela=False)
    refused(lambda: rnd.apply(bad), MalformedActionError)
    refused(lambda: rnd.copy().push(bad), MalformedActionError)
    assert not rnd.is_legal(bad)
    assert snapshot(rnd) == before
    assert rnd.apply(Play(Card.parse("JH"))).trick == (Card.parse("JH"),)


@pytest.mark.parametrize("bela", [1, "yes", None, 0])
def test_a_play_whose_bela_flag_was_put_in_past_the_constructor_is_refused(bela: object) -> None:
    rnd = t_round_in_play()
    bad = around_constructor(Play, card=Card.parse("JH"), bela=bela)
    refused(lambda: rnd.apply(bad), MalformedActionError)


@pytest.mark.parametrize("suit", [31, None, "H", 1, True, 1.0])
def test_a_call_whose_suit_was_put_in_past_the_constructor_is_refused(suit: object) -> None:
    rnd = new_round(0, DEAL_T)
    bad = around_constructor(Call, suit=suit)
    refused(lambda: rnd.apply(bad), MalformedActionError)
    refused(lambda: rnd.copy().push(bad), MalformedActionError)
    assert not rnd.is_legal(bad)


@pytest.mark.parametrize("thing", [None, "QH", "dalje", 5, Card.parse("JH"), Pass, Suit.HEARTS])
def test_something_that_is_not_an_action_is_refused(thing: object) -> None:
    rnd = t_round_in_play()
    refused(lambda: rnd.apply(thing), MalformedActionError)
    refused(lambda: Match.new(1).apply(thing), MalformedActionError)
    assert not rnd.is_legal(thing)


@pytest.mark.parametrize("seat", [-1, 4, 5, True, 1.0, 1.5, "1", b"1", [1]], ids=repr)
def test_a_seat_given_with_an_action_must_be_a_seat(seat: object) -> None:
    """Seat 1 is to act: ``apply(..., seat=True)`` and ``seat=1.0`` were taken as seat 1, and
    ``seat="1"`` looked like another seat's turn. Each is a malformed action now."""
    rnd = t_round_in_play()
    assert rnd.to_act == 1
    jack = Play(Card.parse("JH"))
    refused(lambda: rnd.apply(jack, seat), MalformedActionError)
    refused(lambda: rnd.copy().push(jack, seat), MalformedActionError)
    match = Match.new(1, first_dealer=0)
    first = match.current.to_act if match.current else None
    refused(lambda: match.apply(Pass(), seat), MalformedActionError)
    assert match.apply(Pass(), first).current is not None
    with pytest.raises(OutOfTurnError):
        rnd.apply(jack, 2)


# ------------------------------------------------------------------------------ relatives


@pytest.mark.parametrize(
    "settings_",
    [
        {"target": 1001.0},
        {"target": True},
        {"target": "1001"},
        {"target": 500},
        {"first_dealer": True},
        {"first_dealer": 1.0},
        {"first_dealer": -1},
        {"first_dealer": 4},
        {"first_dealer": None},
        {"start_index": -1},
        {"start_index": 1.5},
        {"start_index": True},
        {"start_index": "1"},
        {"start_index": 2**64},
        {"rules": None},
        {"rules": "visi"},
        {"seed": -1},
        {"seed": 1.0},
    ],
    ids=repr,
)
def test_match_settings_are_checked(settings_: dict[str, object]) -> None:
    """``Match.new(1, first_dealer=True)`` made a match; ``start_index="1"`` raised
    ``TypeError``. The same checks hold for ``Match(...)`` and ``dataclasses.replace``."""
    arguments: dict[str, Any] = {"seed": 1, **settings_}
    refused(lambda: Match.new(**arguments), InvalidValueError)
    refused(lambda: Match(**arguments), InvalidValueError)
    refused(lambda: dataclasses.replace(Match.new(1), **settings_), InvalidValueError)


def test_a_bad_first_dealer_is_a_seat_error() -> None:
    refused(lambda: Match.new(1, first_dealer=4), SeatError)


@pytest.mark.parametrize("dealer", [True, 1.0, -1, 4, None, "1"], ids=repr)
def test_round_constructors_refuse_a_dealer_that_is_not_a_seat(dealer: object) -> None:
    """``Round.from_seed(1, dealer=True)`` dealt as dealer 1; ``dealer=1.0`` raised
    ``TypeError``."""
    refused(lambda: Round.from_seed(1, dealer), SeatError)
    refused(lambda: Round.random(__import__("random").Random(1), dealer), SeatError)
    deal = Round.from_seed(1)
    refused(lambda: Round(dealer, deal.deal_hands, deal.deal_talons), SeatError)
    refused(lambda: deal_from_seed(1, dealer), SeatError)


def test_deal_from_seed_refuses_a_dealer_it_used_to_wrap() -> None:
    """``deal_from_seed(1, 5)`` dealt as if seat 1 dealt."""
    refused(lambda: deal_from_seed(1, 5), SeatError)


def test_round_constructors_refuse_bad_rules_rngs_and_deals() -> None:
    deal = Round.from_seed(1)
    hands, talons = deal.deal_hands, deal.deal_talons
    refused(lambda: Round.from_seed(1, 0, None), InvalidValueError)
    refused(lambda: Round.random(None), InvalidValueError)
    refused(lambda: Round(0, [-1, *hands[1:]], talons), InvalidValueError)
    refused(lambda: Round(0, [hands[0] | 1 << 40, *hands[1:]], talons), InvalidValueError)
    refused(lambda: Round(0, [float(hands[0]), *hands[1:]], talons), InvalidValueError)
    refused(lambda: Round(0, hands[:3], talons), InvalidValueError)
    refused(lambda: Round(0, None, talons), InvalidValueError)
    refused(lambda: Round(0, hands, talons, seed=-1), InvalidValueError)
    refused(lambda: Round.from_hands(0, None, None), InvalidValueError)
    refused(lambda: Round.from_hands(0, ["7H 7H 8H 9H 10H JH"] * 4, [""] * 4), InvalidValueError)
    assert Round(deal.dealer, hands, talons).deal_hands == hands


@pytest.mark.parametrize("flags", [{"visi": "yes"}, {"visi": 1}, {"no_forced_trump": None}])
def test_rules_flags_are_bools(flags: dict[str, object]) -> None:
    """``Rules(visi="yes")`` made a rule set that was truthy by accident."""
    refused(lambda: Rules(**flags), InvalidValueError)


def test_seeds_and_round_indices_raise_the_typed_error() -> None:
    """These were plain ``ValueError``s; the message is the same."""
    message = refused(lambda: check_seed(-1), InvalidValueError)
    assert message.startswith(
        "a seed is a whole number from 0 to 340282366920938463463374607431768211455"
    )
    refused(lambda: round_seed(1, True), InvalidValueError)
    refused(lambda: round_seed(1, -1), InvalidValueError)
    refused(lambda: Match.new(1).deal("2"), InvalidValueError)


@pytest.mark.parametrize("mask", [-1, 2**32, 2**40, True, 1.5, "7", None])
def test_masks_must_be_32_bit_card_sets(mask: object) -> None:
    """``cards_in(-1)`` was all 32 cards and ``cards_in(2**40)`` no card at all."""
    refused(lambda: cards_in(mask), InvalidValueError)
    assert cards_in(0b11) == [Card(0), Card(1)]


def test_mask_of_refuses_a_card_given_twice() -> None:
    """``mask_of`` raised a plain ``ValueError`` for a duplicate."""
    assert "7H" in refused(lambda: mask_of("7H 8H 7h"), InvalidValueError)


@pytest.mark.parametrize("cards", [None, 5, b"QH", object()])
def test_card_lists_must_be_lists_or_text(cards: object) -> None:
    """``mask_of(None)`` and ``find_zvanja(None)`` raised ``TypeError``."""
    refused(lambda: mask_of(cards), InvalidValueError)
    refused(lambda: find_zvanja(cards), InvalidValueError)
    refused(lambda: legal_plays(cards, [], "H"), InvalidValueError)


def test_card_points_and_trick_winner_check_their_arguments() -> None:
    refused(lambda: card_points(True, "H"), CardParseError)
    refused(lambda: card_points(0, True), CardParseError)  # was diamonds
    refused(lambda: card_points(0, 1.0), CardParseError)
    refused(lambda: trick_winner([], "H"), InvalidValueError)  # a plain ValueError before
    refused(lambda: trick_winner("7H 8H 9H 10H JH", "H"), InvalidValueError)
    refused(lambda: trick_winner("7H 8H 7H", "H"), InvalidValueError)
    assert trick_winner("7H 8H 9H 10H", "H") == 2


def test_explain_illegal_checks_its_arguments() -> None:
    hand = mask_of("7H 8S")
    refused(lambda: explain_illegal(-1, [], 0, 0), InvalidValueError)
    refused(lambda: explain_illegal(hand, [0, 0], 0, 0), InvalidValueError)
    refused(lambda: explain_illegal(hand, [9, 10, 11, 12], 0, 0), InvalidValueError)
    refused(lambda: explain_illegal(hand, [], 4, 0), CardParseError)
    refused(lambda: explain_illegal(hand, [], 0, -1), CardParseError)
    assert explain_illegal(hand, ["9S"], "H", "7H") is not None
    assert explain_illegal(hand, ["9S"], "H", "8S") is None


@pytest.mark.parametrize("first", [5, -1, True, 1.5, None])
def test_resolve_zvanja_refuses_a_first_player_it_used_to_wrap(first: object) -> None:
    """``resolve_zvanja(hands, 5)`` was read as seat 1 (``5 % 4``)."""
    deal = Round.from_seed(3)
    hands = [cards_in(deal.deal_hands[s] | deal.deal_talons[s]) for s in range(4)]
    refused(lambda: resolve_zvanja(hands, first), SeatError)
    refused(lambda: resolve_zvanja(hands[:3], 0), InvalidValueError)
    refused(lambda: resolve_zvanja([hands[0], hands[0], hands[2], hands[3]], 0), InvalidValueError)
    refused(lambda: resolve_zvanja(None, 0), InvalidValueError)


@pytest.mark.parametrize(
    "change",
    [
        {"caller": True},
        {"caller": 5},
        {"caller": -1},
        {"caller": None},
        {"card_points": (-1, 0)},
        {"card_points": (1, 2, 3)},
        {"card_points": None},
        {"zvanja": (1.5, 0)},
        {"bela": "20"},
        {"tricks": (9, 0)},
        {"tricks": (8, 8)},
    ],
    ids=repr,
)
def test_score_round_checks_its_numbers(change: dict[str, object]) -> None:
    numbers: dict[str, Any] = {
        "caller": 0,
        "card_points": (82, 80),
        "zvanja": (0, 0),
        "bela": (0, 0),
        "tricks": (4, 4),
    }
    assert score_round(**numbers) == (82, 80)
    refused(lambda: score_round(**(numbers | change)), InvalidValueError)


def test_decide_winner_checks_its_arguments() -> None:
    assert decide_winner((510, 400), 501) == 0
    refused(lambda: decide_winner(None, 501), InvalidValueError)
    refused(lambda: decide_winner((1, 2), "501"), InvalidValueError)
    refused(lambda: decide_winner((1, 2), 501, 2), InvalidValueError)


def test_replays_and_playouts_check_what_they_are_given() -> None:
    rnd = new_round(0, DEAL_T)
    refused(lambda: rnd.replay(5), InvalidValueError)
    refused(lambda: Match.new(1).replay(None), InvalidValueError)
    refused(lambda: Match.new(1).replay([None]), InvalidValueError)
    refused(lambda: rnd.copy().play_out_random(None), InvalidValueError)
    assert rnd.phase is Phase.BIDDING


@pytest.mark.parametrize("index", [4, -1, True, 1.5, None, "0"])
def test_seat_of_refuses_a_place_outside_the_trick(index: object) -> None:
    """``seat_of(4)`` on a four-card trick answered the leader's seat again."""
    rnd = t_round_in_play()
    for card in ["JH", "7H", "QH", "10H"]:
        rnd = rnd.apply(Play(card))
    trick = rnd.tricks[0]
    refused(lambda: trick.seat_of(index), InvalidValueError)
    assert [trick.seat_of(i) for i in range(4)] == [1, 2, 3, 0]


@pytest.mark.parametrize("card", [-1, 32, 1.5, True, None, "KH?"])
def test_can_announce_bela_refuses_what_is_not_a_card(card: object) -> None:
    rnd = t_round_in_play()
    refused(lambda: rnd.can_announce_bela(card), CardParseError)
    assert rnd.can_announce_bela(Card.parse("KH")) is False  # seat 1 does not hold it


# ------------------------------------------------------------------------------ properties

CARD_TEXTS = [rank + suit for suit in "HDSC" for rank in ("7", "8", "9", "10", "J", "Q", "K", "A")]
RANK_SPELLINGS = {"7": 0, "8": 1, "9": 2, "10": 3, "T": 3, "J": 4, "Q": 5, "K": 6, "A": 7}
SUIT_SPELLINGS = {"H": 0, "D": 1, "S": 2, "C": 3, "♥": 0, "♦": 1, "♠": 2, "♣": 3}
SUIT_NAMES = {"HEARTS": 0, "DIAMONDS": 1, "SPADES": 2, "CLUBS": 3}

ANYTHING = st.one_of(
    st.integers(-3, 40),
    st.integers(-(2**70), 2**70),
    st.just(10**5000),
    st.floats(),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.sampled_from([*CARD_TEXTS, " qh ", "T♠", "10h", "H", "♥", "hearts", "", "QQ"]),
    st.binary(max_size=3),
    st.lists(st.integers(-1, 33), max_size=3),
    st.builds(object),
    st.sampled_from([*Suit, *Rank]),
    st.sampled_from([Card(c) for c in range(32)]),
)
SEATISH = st.one_of(st.integers(0, 3), ANYTHING)


def is_int(value: object) -> TypeGuard[int]:
    """A whole number that is not a bool (ints, ``Card``, ``Suit``, ``Rank``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def expected_card_index(value: object) -> int | None:
    return int(value) if is_int(value) and 0 <= value <= 31 else None


def expected_card_text(value: object) -> int | None:
    """The card a text names, worked out from the notation (rank then suit), or None."""
    if not isinstance(value, str):
        return None
    text = value.strip().upper()
    for rank, r in RANK_SPELLINGS.items():
        suit = text[len(rank) :]
        if text.startswith(rank) and suit in SUIT_SPELLINGS:
            return SUIT_SPELLINGS[suit] * 8 + r
    return None


def expected_card(value: object) -> int | None:
    """What the API's ``Card | str | int`` arguments should read ``value`` as."""
    return expected_card_text(value) if isinstance(value, str) else expected_card_index(value)


def expected_suit(value: object) -> int | None:
    if isinstance(value, str):
        text = value.strip().upper()
        return SUIT_SPELLINGS.get(text, SUIT_NAMES.get(text))
    return int(value) if is_int(value) and 0 <= value <= 3 else None


def expected_seat(value: object) -> int | None:
    return int(value) if is_int(value) and 0 <= value <= 3 else None


def agrees(result: tuple[bool, Any], expected: object) -> bool:
    """A success exactly when a value was expected, and then the expected value."""
    ok, value = result
    return ok == (expected is not None) and (not ok or value == expected)


PROPERTY = settings(max_examples=150, deadline=None)


@PROPERTY
@given(value=ANYTHING)
def test_card_entry_points_take_cards_and_refuse_everything_else(value: object) -> None:
    index, text = expected_card_index(value), expected_card_text(value)
    card = expected_card(value)
    assert agrees(outcome(lambda: Card(value)), index)
    parsed = outcome(lambda: Card.parse(value))
    assert agrees(parsed, value if isinstance(value, Card) else text)
    assert agrees(outcome(lambda: Play(value).card), card)
    assert agrees(outcome(lambda: legal_plays([value], [], "S")), None if card is None else [card])
    assert agrees(outcome(lambda: mask_of([value])), None if card is None else 1 << card)
    points = outcome(lambda: card_points(value, "C"))
    assert points[0] == (card is not None)
    can_bela = outcome(lambda: t_round_in_play().can_announce_bela(value))
    assert agrees(can_bela, None if card is None else False)
    for ok, result in (parsed, points):
        if ok and isinstance(result, Card):
            assert result is Card(int(result))  # one instance per card


@PROPERTY
@given(value=ANYTHING)
def test_suit_entry_points_take_suits_and_refuse_everything_else(value: object) -> None:
    suit = expected_suit(value)
    assert agrees(outcome(lambda: int(Call(value).suit)), suit)
    text = suit if isinstance(value, str) else None
    assert agrees(outcome(lambda: int(Suit.parse(value))), text)
    trump = outcome(lambda: card_points("JD", value))
    assert agrees(trump, None if suit is None else (20 if suit == 1 else 2))
    index = None if isinstance(value, str) else suit  # ``Suit(x)`` looks up an index only
    assert agrees(outcome(lambda: int(Suit(value))), index)
    rank = expected_card_index(value)
    assert agrees(outcome(lambda: int(Rank(value))), rank if rank in range(8) else None)


@PROPERTY
@given(value=SEATISH, method=st.sampled_from(SEAT_METHODS), seed=st.integers(0, 2**64 - 1))
def test_seat_entry_points_take_seats_and_refuse_everything_else(
    value: object, method: str, seed: int
) -> None:
    seat = expected_seat(value)
    rnd = Round.from_seed(seed, 2)
    while rnd.phase is Phase.BIDDING:
        rnd.push(rnd.legal_actions()[-1])
    asked = outcome(lambda: getattr(rnd, method)(value))
    assert agrees(asked, None if seat is None else getattr(rnd, method)(seat))
    dealt = outcome(lambda: Round.from_seed(seed, value).deal_hands)
    assert agrees(dealt, None if seat is None else Round.from_seed(seed, seat).deal_hands)
    assert agrees(
        outcome(lambda: deal_from_seed(seed, value)),
        None if seat is None else deal_from_seed(seed, seat),
    )
    first = outcome(lambda: Match.new(seed, first_dealer=value).first_dealer)
    assert agrees(first, seat)
    hands = [cards_in(rnd.deal_hands[s] | rnd.deal_talons[s]) for s in range(4)]
    resolved = outcome(lambda: resolve_zvanja(hands, value))
    assert agrees(resolved, None if seat is None else resolve_zvanja(hands, seat))


@PROPERTY
@given(
    seed=st.one_of(st.integers(0, 2**128 - 1), ANYTHING),
    target=st.one_of(st.sampled_from([501, 701, 1001]), ANYTHING),
    start=st.one_of(st.integers(0, 50), ANYTHING),
    rules=st.one_of(st.builds(Rules, st.booleans(), st.booleans()), ANYTHING),
)
def test_match_settings_take_valid_values_and_refuse_everything_else(
    seed: object, target: object, start: object, rules: object
) -> None:
    valid = (
        is_int(seed)
        and 0 <= seed < 2**128
        and type(target) is int
        and target in (501, 701, 1001)
        and is_int(start)
        and 0 <= start < 2**64
        and isinstance(rules, Rules)
    )
    made = outcome(lambda: Match.new(seed, target, rules, 3, start))
    assert made[0] == valid
    if valid:
        match = made[1]
        assert (match.seed, match.target, match.rules, match.start_index) == (
            seed,
            target,
            rules,
            start,
        )
        assert match.current is not None and match.current.rules is rules


@PROPERTY
@given(flags=st.tuples(st.one_of(st.booleans(), ANYTHING), st.one_of(st.booleans(), ANYTHING)))
def test_rules_take_bools_and_refuse_everything_else(flags: tuple[object, object]) -> None:
    made = outcome(lambda: Rules(*flags))
    assert made[0] == all(flag is True or flag is False for flag in flags)


@PROPERTY
@given(mask=st.one_of(st.integers(0, 2**32 - 1), ANYTHING))
def test_masks_take_32_bit_ints_and_refuse_everything_else(mask: object) -> None:
    valid = is_int(mask) and 0 <= mask < 2**32
    expected = [c for c in range(32) if mask >> c & 1] if is_int(mask) and valid else None
    assert agrees(outcome(lambda: [int(c) for c in cards_in(mask)]), expected)


@PROPERTY
@given(
    hand=st.lists(
        st.one_of(st.sampled_from(CARD_TEXTS), st.integers(0, 31), ANYTHING), max_size=10
    ),
    trick=st.lists(
        st.one_of(st.sampled_from(CARD_TEXTS), st.integers(0, 31), ANYTHING), max_size=5
    ),
    trump=st.one_of(st.sampled_from("HDSC"), ANYTHING),
)
def test_legal_plays_answers_only_for_a_position_that_can_occur(
    hand: list[object], trick: list[object], trump: object
) -> None:
    hand_cards = [expected_card(c) for c in hand]
    trick_cards = [expected_card(c) for c in trick]
    valid = (
        None not in hand_cards
        and None not in trick_cards
        and expected_suit(trump) is not None
        and len(hand) <= 8
        and len(trick) <= 3
        and len(set(hand_cards)) == len(hand_cards)
        and len(set(trick_cards)) == len(trick_cards)
    )
    answer = outcome(lambda: legal_plays(hand, trick, trump))
    assert answer[0] == valid
    if valid:
        legal = [int(c) for c in answer[1]]
        assert legal == [c for c in hand_cards if c in legal]  # a part of the hand, in order
        assert bool(legal) == bool(hand_cards)  # a player with cards always has a legal one
        if not trick_cards:
            assert legal == hand_cards


@PROPERTY
@given(first=ANYTHING, second=ANYTHING, third=ANYTHING, which=st.integers(0, 11))
def test_other_entry_points_answer_or_raise_the_typed_error(
    first: object, second: object, third: object, which: int
) -> None:
    """Whatever they are handed, these either answer or raise a ``BelaError`` (``outcome``
    lets any other exception through, failing the test)."""
    calls: list[Callable[[], object]] = [
        lambda: score_round(
            caller=first, card_points=(second, 80), zvanja=third, bela=(0, 0), tricks=(4, 4)
        ),
        lambda: decide_winner(first, second, third),
        lambda: trick_winner(first, second),
        lambda: find_zvanja(first),
        lambda: check_seed(first),
        lambda: round_seed(first, second),
        lambda: Card.of(first, second),
        lambda: explain_illegal(first, [], second, third),
        lambda: Round.from_hands(first, second, third),
        lambda: Round(first, second, third),
        lambda: Match.new(1).replay([[first]]),
        lambda: Rank.parse(first),
    ]
    outcome(calls[which])


def malformed_actions() -> st.SearchStrategy[object]:
    """Actions built around the constructors, and things that are not actions at all."""
    return st.one_of(
        st.builds(object.__new__, st.sampled_from([Play, Call, Pass])),
        st.builds(
            lambda card, bela: around_constructor(Play, card=card, bela=bela), ANYTHING, ANYTHING
        ),
        st.builds(
            lambda card, bela: around_constructor(Play, card=card, bela=bela),
            st.sampled_from([Card(c) for c in range(32)]),
            st.one_of(st.booleans(), ANYTHING),
        ),
        st.builds(
            lambda suit: around_constructor(Call, suit=suit),
            st.one_of(st.sampled_from(Suit), ANYTHING),
        ),
        ANYTHING,
    )


def well_formed(action: object) -> bool:
    if type(action) is Pass:
        return True
    if type(action) is Call:
        return type(getattr(action, "suit", None)) is Suit
    if type(action) is Play:
        return (
            type(getattr(action, "card", None)) is Card
            and type(getattr(action, "bela", None)) is bool
        )
    return False


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 40),
    pick=st.integers(0, 10**6),
    action=st.one_of(st.sampled_from([Pass(), *(Call(s) for s in Suit)]), malformed_actions()),
    legal_instead=st.booleans(),
    seat=st.one_of(st.none(), SEATISH),
)
def test_apply_takes_well_formed_legal_actions_and_refuses_everything_else(
    seed: int, steps: int, pick: int, action: object, legal_instead: bool, seat: object
) -> None:
    match = Match.new(seed, 501, Rules(), seed % 4)
    for step in range(steps):
        if match.current is None:
            break
        options = match.current.legal_actions()
        match = match.apply(options[(pick + step) % len(options)])
    rnd = match.current
    if rnd is None:
        return
    if legal_instead:
        options = rnd.legal_actions()
        action = options[pick % len(options)]
    before = snapshot(rnd)
    seat_ok = seat is None or (expected_seat(seat) is not None and seat == rnd.to_act)
    allowed = well_formed(action) and rnd.is_legal(action) and seat_ok
    if well_formed(action):
        assert rnd.is_legal(action) == (action in rnd.legal_actions())
    else:
        assert not rnd.is_legal(action)
    applied = outcome(lambda: rnd.apply(action, seat))
    pushed = outcome(lambda: rnd.copy().push(action, seat))
    via_match = outcome(lambda: match.apply(action, seat))
    assert applied[0] == pushed[0] == via_match[0] == allowed
    if allowed:
        assert applied[1].actions[-1] == action
        assert snapshot(applied[1]) == snapshot(rnd.replay([action]))
    else:
        assert isinstance(applied[1], IllegalActionError)
        assert isinstance(via_match[1], IllegalActionError)
        if not well_formed(action) or (expected_seat(seat) is None and seat is not None):
            assert isinstance(applied[1], MalformedActionError)
    assert snapshot(rnd) == before
