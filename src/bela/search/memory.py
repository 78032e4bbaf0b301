"""Card memory: what one seat can deduce about the hidden cards from its view.

Everything here is derived from a ``SeatView`` alone, afresh at each decision
(no state is carried between calls, so a bot replays the same way from a save).
The deductions are the hard ones a careful club player makes:

* every card played, and so every card still out (``unseen``);
* a player who did not follow the suit led holds none of it (a *void*); one who
  discarded a plain card instead of trumping holds no trump either;
* a player who followed (or trumped) without beating the winning card when the
  rules forced a beat holds no card that would have beaten it ("could not
  overtake", "could not overtrump");
* the zvanja shown to the table name cards in their owners' hands;
* an announced bela names the trump K and Q as the announcer's: with the first
  card (the default rule) the other one is still in that hand;
* counting: a player whose possible cards are exactly as many as the cards they
  hold holds all of them, and a card only one player can hold is theirs.

The result is, for each seat, a mask of the cards it may hold (``possible``) and
of those it surely holds (``known``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bela.engine import SeatView
from bela.engine.cards import ALL_CARDS_MASK, SUIT_MASK
from bela.engine.tricks import BEATS, TRUMP_STRENGTH

__all__ = ["CardMemory", "mask_from", "trump_order"]

# Trump cards of a suit byte strongest first, as natural rank indices (J 9 A 10 K Q 8 7).
TRUMP_RANKS_HIGH_FIRST: Final = tuple(sorted(range(8), key=lambda r: -TRUMP_STRENGTH[r]))
# Plain ranks strongest first (A 10 K Q J 9 8 7).
PLAIN_RANKS_HIGH_FIRST: Final = (7, 3, 6, 5, 4, 2, 1, 0)
# The K and Q of every suit (rank bits 5 and 6 of each suit byte).
_KQ_BITS: Final = 0x60606060


def mask_from(cards: tuple[int, ...] | list[int]) -> int:
    """The mask of some card ints."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def trump_order(suit: int, trump: int) -> tuple[int, ...]:
    """The cards of ``suit`` strongest first, given the trump."""
    ranks = TRUMP_RANKS_HIGH_FIRST if suit == trump else PLAIN_RANKS_HIGH_FIRST
    return tuple(suit * 8 + r for r in ranks)


@dataclass(slots=True)
class CardMemory:
    """Deductions about who holds which unplayed card, for one seat at one moment.

    ``possible[s]`` is the mask of cards seat ``s`` may hold (for the own seat,
    exactly its hand); ``known[s]`` those it surely holds. ``sizes[s]`` is how
    many cards each seat holds now.
    """

    seat: int
    trump: int
    hand: int
    played: int
    unseen: int
    possible: list[int]
    known: list[int]
    sizes: tuple[int, int, int, int]

    @classmethod
    def from_view(cls, view: SeatView) -> CardMemory:
        """Read the view's record of play and apply every deduction (needs trump named)."""
        if view.trump is None:
            raise ValueError("card memory starts once trump is named")
        trump = int(view.trump)
        base = trump * 32
        trump_mask = SUIT_MASK[trump]
        seat = view.seat
        hand = mask_from(view.hand)
        played = 0
        allowed = [ALL_CARDS_MASK, ALL_CARDS_MASK, ALL_CARDS_MASK, ALL_CARDS_MASK]
        tricks: list[tuple[int, tuple[int, ...]]] = [(t.leader, t.cards) for t in view.tricks]
        if view.trick and view.trick_leader is not None:
            tricks.append((view.trick_leader, view.trick))
        for leader, cards in tricks:
            led = cards[0] >> 3
            win = cards[0]
            played |= 1 << win
            for i in range(1, len(cards)):
                card = cards[i]
                p = (leader + i) & 3
                played |= 1 << card
                beats = BEATS[base + win]
                suit = card >> 3
                if suit == led:
                    # Following: a beat was forced unless a plain suit was already trumped.
                    if not beats >> card & 1 and (led == trump or (win >> 3) != trump):
                        allowed[p] &= ~(beats & SUIT_MASK[led])
                else:
                    allowed[p] &= ~SUIT_MASK[led]
                    if suit == trump:
                        if not beats >> card & 1:
                            allowed[p] &= ~(beats & trump_mask)  # could not overtrump
                    else:
                        allowed[p] &= ~trump_mask  # discarded: no trump either
                if beats >> card & 1:
                    win = card
        unseen = ALL_CARDS_MASK & ~played & ~hand
        sizes = view.hand_sizes
        possible = [allowed[s] & unseen for s in range(4)]
        possible[seat] = hand
        known = [0, 0, 0, 0]
        known[seat] = hand
        for s, zvanja in view.shown_zvanja:
            if s == seat:
                continue
            shown = 0
            for z in zvanja:
                shown |= mask_from(z.cards)
            shown &= unseen
            known[s] |= shown
        for s in view.bela_announced:
            if s != seat:  # both trump K and Q were the announcer's: what is left of them still is
                known[s] |= SUIT_MASK[trump] & _KQ_BITS & unseen
        memory = cls(seat, trump, hand, played, unseen, possible, known, sizes)
        memory._propagate()
        return memory

    def reveal(self, seat: int, hand: int) -> None:
        """Be told ``seat``'s whole hand (a mask), as the view never tells it.

        Not for fair play: experiments use it to measure what knowledge the
        view withholds (a partner's hand, every hand) would be worth.
        """
        if seat == self.seat:
            raise ValueError("the memory's own hand is already known")
        held = hand & self.unseen
        if held.bit_count() != self.sizes[seat] or held & ~self.possible[seat]:
            raise ValueError(f"seat {seat} cannot hold those cards: the view rules it out")
        self.known[seat] = held
        self.possible[seat] = held
        self._propagate()  # which also takes the known cards from the other seats

    def _propagate(self) -> None:
        """Close the deductions under counting until nothing changes."""
        possible, known, sizes, seat = self.possible, self.known, self.sizes, self.seat
        others = [s for s in range(4) if s != seat]
        changed = True
        while changed:
            changed = False
            # Known cards belong to one seat only.
            for s in others:
                for t in others:
                    if t != s and possible[t] & known[s]:
                        possible[t] &= ~known[s]
                        changed = True
            for s in others:
                if known[s] & ~possible[s]:
                    possible[s] |= known[s]
            # A card only one seat may hold is that seat's.
            a, b, c = (possible[s] for s in others)
            only = [a & ~b & ~c, b & ~a & ~c, c & ~a & ~b]
            for k, s in enumerate(others):
                if only[k] & ~known[s]:
                    known[s] |= only[k]
                    changed = True
            # A seat with exactly as many possible cards as it holds holds them all.
            for s in others:
                if possible[s].bit_count() == sizes[s] and known[s] != possible[s]:
                    known[s] = possible[s]
                    changed = True
                elif known[s].bit_count() == sizes[s] and possible[s] != known[s]:
                    possible[s] = known[s]
                    changed = True

    # ------------------------------------------------------------------ queries

    def out(self, mask: int) -> int:
        """The cards of ``mask`` still held by someone other than this seat."""
        return mask & self.unseen

    def surely_has(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` certainly holds a card of ``suit`` (known, or by counting)."""
        if self.known[seat] & SUIT_MASK[suit]:
            return True
        return (self.possible[seat] & ~SUIT_MASK[suit]).bit_count() < self.sizes[seat]

    def may_beat(self, seat: int, led: int, win: int) -> bool:
        """Whether ``seat``, still to play, may hold a legal card beating ``win``.

        With the suit led ``led`` (not trump) a trump can only come from a
        player void in it, so trumps are ruled out when the seat surely follows.
        """
        beaters = self.possible[seat] & BEATS[self.trump * 32 + win]
        if not beaters:
            return False
        if led != self.trump and self.surely_has(seat, led):
            beaters &= SUIT_MASK[led]
        return bool(beaters)

    def is_master(self, card: int) -> bool:
        """Whether no card still out beats ``card`` in its own suit (trumping aside)."""
        return not (BEATS[self.trump * 32 + card] & SUIT_MASK[card >> 3] & self.unseen)

    def void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` is known to hold no card of ``suit``."""
        return not self.possible[seat] & SUIT_MASK[suit]
