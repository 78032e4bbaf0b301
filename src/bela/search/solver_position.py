"""A play-phase position with every card visible: the double-dummy solver's input.

A position is the four hands (masks by seat), the trump, the trick on the
table (its leader and the cards in play order) and how many tricks each team
has completed. That is exactly what decides the rest of the card play: the
points already taken do not change which card is best, and the completed
tricks matter only through the last trick's +10 (their number) and štiglja
(whether a team has already lost a trick). Bela and zvanja are settled
outside the card play and are not part of a position.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bela.engine import Card, Phase, Round, SeatView, Suit, cards_in, mask_of
from bela.engine.cards import to_card, to_suit
from bela.engine.errors import InvalidValueError, shown
from bela.engine.pickling import by_fields
from bela.engine.tricks import BEATS, legal_mask

__all__ = ["Position"]


@dataclass(frozen=True, slots=True)
class Position:
    """All remaining cards and whose turn it is, validated on construction.

    ``hands`` are masks by seat (bit ``card`` set), ``trick`` the cards on the
    table in play order starting with ``leader``'s, ``tricks_won`` the
    completed tricks per team (team = seat % 2). The seat to act is
    ``(leader + len(trick)) % 4``.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    hands: tuple[int, int, int, int]
    trump: int
    leader: int
    trick: tuple[int, ...] = ()
    tricks_won: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.hands) != 4:
            raise ValueError("a position has four hands, by seat")
        if self.trump not in (0, 1, 2, 3) or self.leader not in (0, 1, 2, 3):
            raise ValueError("trump is a suit 0..3 and the leader a seat 0..3")
        if len(self.trick) > 3:
            raise ValueError("a trick in progress has at most three cards on the table")
        won0, won1 = self.tricks_won
        done = won0 + won1
        if won0 < 0 or won1 < 0 or done > 7:
            raise ValueError(f"{self.tricks_won} completed tricks leave no trick to play")
        seen = 0
        for card in self.trick:
            if not 0 <= card < 32 or seen >> card & 1:
                raise ValueError(f"the trick {self.trick} repeats a card or holds a non-card")
            seen |= 1 << card
        for seat, hand in enumerate(self.hands):
            if seen & hand:
                raise ValueError(f"seat {seat} holds a card already seen elsewhere")
            seen |= hand
            played = (seat - self.leader) % 4 < len(self.trick)
            want = 8 - done - played
            if hand.bit_count() != want or hand >> 32:
                raise ValueError(f"seat {seat} should hold {want} cards, not {hand.bit_count()}")

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_cards(
        cls,
        hands: Sequence[Iterable[Card | str | int] | str],
        trump: Suit | str | int,
        leader: int,
        trick: Iterable[Card | str | int] | str = (),
        tricks_won: tuple[int, int] = (0, 0),
    ) -> Position:
        """A position from readable cards: ``hands=["JH 9H", "AS 7S", ...]``, ``trump="H"``."""
        if len(hands) != 4:
            raise ValueError("a position has four hands, by seat")
        if isinstance(trick, str):
            trick = trick.replace(",", " ").split()
        masks = (mask_of(hands[0]), mask_of(hands[1]), mask_of(hands[2]), mask_of(hands[3]))
        return cls(
            masks,
            int(to_suit(trump)),
            leader,
            tuple(int(to_card(c)) for c in trick),
            tricks_won,
        )

    @classmethod
    def from_round(cls, rnd: object) -> Position:
        """The card-play position of a round in the play phase (bela and zvanja left out)."""
        if not isinstance(rnd, Round):
            raise InvalidValueError(f"a solver position is made of a Round, not {shown(rnd)}")
        if rnd.phase is not Phase.PLAYING or rnd.trump is None:
            raise InvalidValueError("a solver position needs a round in the play phase")
        won = [0, 0]
        for done in rnd.tricks:
            won[done.winner % 2] += 1
        return cls(
            (rnd.hand_mask(0), rnd.hand_mask(1), rnd.hand_mask(2), rnd.hand_mask(3)),
            int(rnd.trump),
            rnd.trick_leader,
            tuple(int(c) for c in rnd.trick),
            (won[0], won[1]),
        )

    @classmethod
    def from_view(cls, view: SeatView, hands: Sequence[int]) -> Position:
        """A position from what a seat sees plus a guess of all four hands (masks by seat).

        For a bot sampling the unseen cards: the view gives the trump, the
        trick on the table and the completed tricks; ``hands`` must hold the
        seat's own hand and a deal of the unseen cards consistent with it.
        """
        if view.phase is not Phase.PLAYING or view.trump is None or view.trick_leader is None:
            raise ValueError("a solver position needs a view in the play phase")
        if hands[view.seat] != mask_of(view.hand):
            raise ValueError("the hands given do not keep the seat's own hand")
        won = [0, 0]
        for done in view.tricks:
            won[done.winner % 2] += 1
        return cls(
            (hands[0], hands[1], hands[2], hands[3]),
            int(view.trump),
            view.trick_leader,
            tuple(int(c) for c in view.trick),
            (won[0], won[1]),
        )

    # ------------------------------------------------------------------ state

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def tricks_done(self) -> int:
        return self.tricks_won[0] + self.tricks_won[1]

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        return 8 - self.tricks_done

    def winning(self) -> tuple[int, int]:
        """(card, seat) currently winning the trick in progress; (-1, -1) before the lead."""
        if not self.trick:
            return -1, -1
        return _winner(self.trick, self.leader, self.trump)

    def legal_mask(self) -> int:
        """The cards the seat to act may play, as a mask."""
        hand = self.hands[self.to_act]
        if not self.trick:
            return hand
        return legal_mask(hand, self.trick[0] >> 3, self.winning()[0], self.trump)

    def legal_cards(self) -> list[Card]:
        return cards_in(self.legal_mask())

    def play(self, card: object) -> Position:
        """The position after the seat to act plays ``card`` (which must be legal)."""
        c = int(to_card(card))
        if not self.legal_mask() >> c & 1:
            raise InvalidValueError(f"{Card(c)} is not a legal play here")
        seat = self.to_act
        hands = list(self.hands)
        hands[seat] ^= 1 << c
        new_hands = (hands[0], hands[1], hands[2], hands[3])
        trick = (*self.trick, c)
        if len(trick) < 4:
            return Position(new_hands, self.trump, self.leader, trick, self.tricks_won)
        win_seat = _winner(trick, self.leader, self.trump)[1]
        won = [self.tricks_won[0], self.tricks_won[1]]
        won[win_seat % 2] += 1
        if won[0] + won[1] == 8:
            raise ValueError("the last card ends the round: there is no position after it")
        return Position(new_hands, self.trump, win_seat, (), (won[0], won[1]))

    def __str__(self) -> str:
        hands = " | ".join(" ".join(str(c) for c in cards_in(h)) for h in self.hands)
        trick = " ".join(str(Card(c)) for c in self.trick)
        return (
            f"trump {Suit(self.trump)}; hands {hands}; leader {self.leader}; "
            f"trick [{trick}]; tricks won {self.tricks_won}"
        )


def _winner(trick: Sequence[int], leader: int, trump: int) -> tuple[int, int]:
    """(card, seat) winning a non-empty trick led by ``leader``."""
    base = trump * 32
    win, pos = trick[0], 0
    for i in range(1, len(trick)):
        if BEATS[base + win] >> trick[i] & 1:
            win, pos = trick[i], i
    return win, (leader + pos) % 4


def position_of(value: object) -> Position:
    """``value`` if it is a ``Position``; ``InvalidValueError`` otherwise. The search's entry
    points take ``object`` and check it here, so that the compiled build refuses a wrong
    value with the same error and words as the pure one (not mypyc's ``TypeError``)."""
    if isinstance(value, Position):
        return value
    raise InvalidValueError(f"a solver position is a Position, not {shown(value)}")
