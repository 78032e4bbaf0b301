"""Seeded deals that come out the same on every platform and Python version.

Python's ``random`` promises little across versions, so a seed is turned into
bytes by SHAKE-256 (a standard, so the same everywhere) and the deck is sorted
by 16-bit keys read from them: exactly uniform, all in C-level calls. Match
seeds are mixed into per-round seeds with splitmix64, plain 64-bit integer
arithmetic.
"""

from __future__ import annotations

from hashlib import shake_256
from struct import Struct
from typing import Final

from bela.engine.errors import InvalidValueError, shown
from bela.engine.guards import check_seat

__all__ = ["MAX_SEED", "check_seed", "deal_from_seed", "round_seed"]

MAX_SEED: Final = (1 << 64) - 1
_MASK64: Final = MAX_SEED


def check_seed(seed: object) -> int:
    """A seed is an int 0..2**64-1; anything else is an ``InvalidValueError`` that says so."""
    if type(seed) is int and 0 <= seed <= MAX_SEED:
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {shown(seed)}")
    return int(seed)


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def check_round_index(index: object) -> int:
    """A match's round index is an int 0..2**64-1 (``InvalidValueError`` otherwise)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= MAX_SEED:
        raise InvalidValueError(
            f"a round index is a whole number from 0 to {MAX_SEED}, not {shown(index)}"
        )
    return int(index)


def round_seed(match_seed: object, index: object) -> int:
    """The seed of the ``index``-th deal (0-based) of a match."""
    number = check_round_index(index)
    return _splitmix64(_splitmix64(check_seed(match_seed)) ^ number)


_KEYS: Final = Struct("<32H")
_BIT: Final = tuple(1 << c for c in range(32))
_CARDS: Final = range(32)
_PERSON: Final = b"bela deal v1"


def _ranked_cards(seed_bytes: bytes) -> list[int]:
    """The 32 cards ordered by 16-bit SHAKE-256 keys, drawn until all 32 keys differ.

    Sorting by distinct uniform keys gives every order the same chance (a tie
    would favour the lower card, so a stream with a tie is skipped: 0.8% of seeds).
    """
    stream = shake_256(seed_bytes)
    length = 64
    while True:
        keys = _KEYS.unpack(stream.digest(length)[-64:])
        if len(set(keys)) == 32:
            return sorted(_CARDS, key=keys.__getitem__)
        length += 64


def deal_from_seed(seed: object, dealer: object) -> tuple[list[int], list[int]]:
    """The seeded deal: six-card hands and two-card talons, as masks by seat.

    Dealt as at the table from the shuffled deck: six cards to each seat from
    the first player (dealer + 1) on, then two talon cards each.
    """
    return deal_checked(check_seed(seed), check_seat(dealer, "the dealer"))


def deal_checked(seed: int, dealer: int) -> tuple[list[int], list[int]]:
    """``deal_from_seed`` for a seed and dealer already checked (``Round.from_seed``)."""
    deck = _ranked_cards(_PERSON + seed.to_bytes(8, "little"))
    bit = _BIT
    hands = [0, 0, 0, 0]
    talons = [0, 0, 0, 0]
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        i = 6 * k
        hands[seat] = (
            bit[deck[i]]
            | bit[deck[i + 1]]
            | bit[deck[i + 2]]
            | bit[deck[i + 3]]
            | bit[deck[i + 4]]
            | bit[deck[i + 5]]
        )
        talons[seat] = bit[deck[24 + 2 * k]] | bit[deck[25 + 2 * k]]
    return hands, talons
