"""Zvanja (declarations): finding them in a hand and deciding which team scores.

Sequences run in natural order 7 8 9 10 J Q K A whatever the trump; a maximal
run counts once at its full length (3 = 20, 4 = 50, 5..7 = 100). Fours of J, 9,
A, 10, K, Q score 200, 150, 100. All eight cards of a suit is belot, which wins
the match outright and is never compared with other zvanja.

Comparison (only the team with the single best declaration scores, and then all
of its two players' declarations): more points; at equal points a four beats a
sequence; then the higher top card in natural order; then the player who comes
first in playing order from the first player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from bela.engine.cards import RANK_MASK, Card, Rank, Suit, cards_in, parse_cards
from bela.engine.errors import InvalidValueError
from bela.engine.guards import check_seat, check_sequence
from bela.engine.pickling import by_fields
from bela.engine.tricks import distinct_mask

Pair = tuple[int, int]

__all__ = [
    "Zvanje",
    "ZvanjeKind",
    "belot_suit",
    "find_zvanja",
    "resolve_zvanja",
    "zvanja_of_mask",
]


class ZvanjeKind(Enum):
    SEQUENCE = "sequence"
    FOUR = "four"
    BELOT = "belot"


@dataclass(frozen=True, slots=True)
class Zvanje:
    """One declaration: its kind, points and the cards that make it.

    ``top`` is the highest card in natural order (for a four, the rank's
    heart, since only the rank matters). Belot carries 0 points: it wins the
    match instead of scoring.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    kind: ZvanjeKind
    points: int
    cards: tuple[Card, ...]
    top_rank: Rank

    @property
    def is_four(self) -> bool:
        return self.kind is ZvanjeKind.FOUR

    @property
    def key(self) -> tuple[int, int, int]:
        """Strength for comparison, before seat order: points, four-beats-sequence, top card."""
        return (self.points, 1 if self.kind is ZvanjeKind.FOUR else 0, int(self.top_rank))

    def __str__(self) -> str:
        if self.kind is ZvanjeKind.FOUR:
            return f"four {self.top_rank}s ({self.points})"
        if self.kind is ZvanjeKind.BELOT:
            return f"belot in {self.cards[0].suit.noun}"
        names = " ".join(str(c) for c in self.cards)
        return f"{len(self.cards)}-card sequence {names} ({self.points})"


_SEQUENCE_POINTS: Final = {3: 20, 4: 50, 5: 100, 6: 100, 7: 100}
FOUR_POINTS: Final = (0, 0, 150, 100, 200, 100, 100, 100)  # by rank; 7s and 8s score nothing


def _runs(byte: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs of length >= 3 in an 8-bit suit mask, as (start rank, length)."""
    runs = []
    r = 0
    while r < 8:
        if byte >> r & 1:
            start = r
            while r < 8 and byte >> r & 1:
                r += 1
            if r - start >= 3:
                runs.append((start, r - start))
        else:
            r += 1
    return tuple(runs)


_RUNS: Final = tuple(_runs(v) for v in range(256))
# Total sequence points per suit byte (belot excluded), for the fast path. At most 100 (a run
# of 7, or 3 and 4), so ``bytes``: an index gives a small int with no object to unbox.
SEQUENCE_POINTS_BY_BYTE: Final = bytes(
    [sum(_SEQUENCE_POINTS.get(length, 0) for _, length in _RUNS[v]) for v in range(256)]
)


def _best_sequence_key(byte: int) -> int:
    if byte == 0xFF:
        return 0
    keys = [_SEQUENCE_POINTS[length] << 4 | (start + length - 1) for start, length in _RUNS[byte]]
    return max(keys, default=0)


# Packed comparison keys for the fast path: points << 4 | is_four << 3 | top rank.
SEQUENCE_KEY_BY_BYTE: Final = tuple(_best_sequence_key(v) for v in range(256))


def _four_key(common: int) -> tuple[int, int]:
    """Best packed key and total points of the fours whose rank bits are set in ``common``."""
    ranks = [r for r in range(2, 8) if common >> r & 1]
    best = max((FOUR_POINTS[r] << 4 | 8 | r for r in ranks), default=0)
    return best, sum(FOUR_POINTS[r] for r in ranks)


# Indexed by the AND of a hand's four suit bytes: the ranks held in every suit.
FOUR_BY_COMMON: Final = tuple(_four_key(v) for v in range(256))

# The same with the house rule "tens over kings": among the 100-point fours A > 10 > K > Q
# (trick order). Only the rank in the key changes (10 -> 6, K -> 5, Q -> 4); 200- and
# 150-point fours are alone at their points, so their rank never decides anything.
_TENS_HIGH_RANK: Final = (0, 1, 2, 6, 4, 4, 5, 7)


def _four_key_tens_high(common: int) -> tuple[int, int]:
    ranks = [r for r in range(2, 8) if common >> r & 1]
    best = max((FOUR_POINTS[r] << 4 | 8 | _TENS_HIGH_RANK[r] for r in ranks), default=0)
    return best, sum(FOUR_POINTS[r] for r in ranks)


FOUR_BY_COMMON_TENS_HIGH: Final = tuple(_four_key_tens_high(v) for v in range(256))


def zvanja_key(mask: int, tens_high: bool = False) -> tuple[int, int]:
    """A hand's best declaration as a packed key (0 if none) and its total points.

    Keys compare like ``Zvanje.key``: points, then four over sequence, then top rank.
    Table lookups on the four suit bytes (small ints), no loops; a hand with no
    sequence and no four, the usual case, is done after four lookups.
    """
    b0 = mask & 0xFF
    b1 = mask >> 8 & 0xFF
    b2 = mask >> 16 & 0xFF
    b3 = mask >> 24 & 0xFF
    points = SEQUENCE_POINTS_BY_BYTE
    total = points[b0] + points[b1] + points[b2] + points[b3]
    common = b0 & b1 & b2 & b3 & 0xFC
    if not total and not common:
        return 0, 0
    keys = SEQUENCE_KEY_BY_BYTE
    best = keys[b0]  # the highest of the four, compared in place (no call to max)
    key = keys[b1]
    if key > best:
        best = key
    key = keys[b2]
    if key > best:
        best = key
    key = keys[b3]
    if key > best:
        best = key
    if common:
        four_best, four_total = (FOUR_BY_COMMON_TENS_HIGH if tens_high else FOUR_BY_COMMON)[common]
        total += four_total
        if four_best > best:
            best = four_best
    return best, total


def best_zvanja_seat(
    hands: Sequence[int], first_player: int, tens_high: bool = False
) -> tuple[int, Pair]:
    """The seat with the single best declaration (-1 if none) and each team's zvanja points.

    Only the best seat's team keeps its points; the other team's are 0. ``tens_high``
    is the house rule ``Rules.tens_over_kings``.
    """
    return best_zvanja_of(hands[0], hands[1], hands[2], hands[3], first_player, tens_high)


def best_zvanja_of(
    h0: int, h1: int, h2: int, h3: int, first_player: int, tens_high: bool
) -> tuple[int, Pair]:
    """``best_zvanja_seat`` of the four hands by seat, as four ints (the round's fields)."""
    k0, z0 = zvanja_key(h0, tens_high)
    k1, z1 = zvanja_key(h1, tens_high)
    k2, z2 = zvanja_key(h2, tens_high)
    k3, z3 = zvanja_key(h3, tens_high)
    if not (k0 or k1 or k2 or k3):  # the usual case: nobody has a declaration
        return -1, (0, 0)
    best_key = 0
    best_seat = -1
    for offset in range(4):
        seat = (first_player + offset) & 3
        key = k0 if seat == 0 else k1 if seat == 1 else k2 if seat == 2 else k3
        if key > best_key:  # strict: an equal key later in playing order loses
            best_key, best_seat = key, seat
    if best_seat & 1:
        return best_seat, (0, z1 + z3)
    return best_seat, (z0 + z2, 0)


def belot_suit(mask: int) -> Suit | None:
    """The suit whose eight cards are all in ``mask``, if any."""
    for s in range(4):
        if (mask >> (8 * s)) & 0xFF == 0xFF:
            return Suit(s)
    return None


def zvanja_of_mask(mask: int) -> list[Zvanje]:
    """The declarations in a hand given as a mask, best first."""
    found: list[Zvanje] = []
    for r in range(2, 8):
        if mask & RANK_MASK[r] == RANK_MASK[r]:
            cards = tuple(Card(s * 8 + r) for s in range(4))
            found.append(Zvanje(ZvanjeKind.FOUR, FOUR_POINTS[r], cards, Rank(r)))
    for s in range(4):
        byte = (mask >> (8 * s)) & 0xFF
        if byte == 0xFF:
            cards = tuple(Card(s * 8 + r) for r in range(8))
            found.append(Zvanje(ZvanjeKind.BELOT, 0, cards, Rank.ACE))
            continue
        for start, length in _RUNS[byte]:
            cards = tuple(Card(s * 8 + r) for r in range(start, start + length))
            found.append(
                Zvanje(
                    ZvanjeKind.SEQUENCE, _SEQUENCE_POINTS[length], cards, Rank(start + length - 1)
                )
            )
    found.sort(key=lambda z: z.key, reverse=True)
    return found


def find_zvanja(cards: object) -> list[Zvanje]:
    """The declarations in one player's cards (normally 8, at most 8), best first."""
    return zvanja_of_mask(_hand_mask(cards, "the cards"))


def _hand_mask(cards: object, where: str) -> int:
    """The mask of one player's cards: at most 8, none twice."""
    parsed = parse_cards(cards)
    if len(parsed) > 8:
        raise InvalidValueError(f"a player holds at most 8 cards, not {len(parsed)}")
    return distinct_mask(parsed, where)


def resolve_zvanja(hands: object, first_player: object) -> tuple[int | None, int]:
    """Which team's zvanja count, and their total (belot excluded).

    ``hands`` are the four players' cards by seat; ``first_player`` is the seat
    that leads the first trick (dealer + 1), which breaks exact ties.
    Returns ``(None, 0)`` when nobody has a declaration.
    """
    by_seat = check_sequence(hands, "the four hands")
    if len(by_seat) != 4:
        raise InvalidValueError(
            f"resolve_zvanja needs the four hands by seat, not {len(by_seat)} hands"
        )
    first = check_seat(first_player, "the first player")
    masks = [_hand_mask(hand, f"seat {seat}'s hand") for seat, hand in enumerate(by_seat)]
    seen = 0
    for mask in masks:
        if seen & mask:
            names = ", ".join(map(str, cards_in(seen & mask)))
            raise InvalidValueError(f"{names} cannot be in two hands")
        seen |= mask
    # the same comparison the Round makes when trump is named: one rule, one implementation
    seat, points = best_zvanja_seat(masks, first)
    if seat < 0:
        return None, 0
    team = seat & 1
    return team, points[team]
