"""What one seated player may know, and nothing more: the input to every bot.

A ``SeatView`` is built by ``Round.view(seat)``. It holds the player's own cards
(the talon only once trump is named), every bid, the winning team's zvanja,
every card played in order, bela announcements, and whose turn it is. Other
hands never appear in it, so a bot handed a view cannot peek.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from bela.engine.actions import Action, Call, Pass
from bela.engine.cards import Card, Suit
from bela.engine.guards import check_int
from bela.engine.pickling import by_fields
from bela.engine.rules import Rules
from bela.engine.zvanja import Zvanje

__all__ = ["CompletedTrick", "Phase", "SeatView"]


class Phase(Enum):
    """Where a round is: naming trump, playing tricks, or done."""

    BIDDING = "bidding"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class CompletedTrick:
    """A finished trick: who led, the cards in play order, who won it and its points."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, index: object) -> int:
        """The seat that played ``cards[index]`` (``index`` 0..3, as for ``cards``)."""
        if type(index) is not int or not 0 <= index < len(self.cards):
            index = check_int(index, "a card's place in the trick", 0, len(self.cards) - 1)
        return (self.leader + index) % 4


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a round at one moment."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    seat: int
    dealer: int
    rules: Rules
    phase: Phase
    hand: tuple[Card, ...]
    talon: tuple[Card, ...]
    bids: tuple[tuple[int, Pass | Call], ...]
    trump: Suit | None
    caller: int | None
    own_zvanja: tuple[Zvanje, ...]
    shown_zvanja: tuple[tuple[int, tuple[Zvanje, ...]], ...]
    zvanja_team: int | None
    tricks: tuple[CompletedTrick, ...]
    trick_leader: int | None
    trick: tuple[Card, ...]
    bela_announced: tuple[int, ...]
    hand_sizes: tuple[int, int, int, int]
    to_act: int | None
    legal_actions: tuple[Action, ...]
    claim_context: tuple[int, int, int] | None = None
    """(team 0's score, team 1's score, target) before this round when "dosta" may be said."""
    match_context: tuple[int, int, int] | None = None
    """(team 0's score, team 1's score, target) before this round, in a match to a target
    (None for a bare round or a quick match): the score every player at the table sees."""
    silent: tuple[int, ...] = ()
    """The seats that kept their zvanja back ("šutim"): the table knows they said nothing."""
    may_stay_silent: bool = False
    """Whether this seat, to act, may still keep its zvanja back (``Round.can_stay_silent``)."""

    @property
    def first_player(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far, in order (finished tricks, then the current one)."""
        return tuple(c for t in self.tricks for c in t.cards) + self.trick
