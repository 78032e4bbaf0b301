"""Seeded deals that come out the same on every platform and Python version.

Python's ``random`` promises little across versions, so a seed is turned into
bytes by SHAKE-256 (a standard, so the same everywhere) and the deck is sorted
by 16-bit keys read from them: exactly uniform, all in C-level calls.

A seed is a whole number of up to 128 bits. A seed nobody may know (every new match,
local or at a network table) is 128 bits from ``secrets``: a seated player who could
search the seeds from their own six cards would know every hand (a 32-bit seed falls to
a search in under an hour on two cores), and 2**128 seeds cannot be searched. Every bit
reaches the deal: a seed below 2**64 is read as 8 bytes, as bela has always read it (so
every record and seeded test deals what it dealt before), a wider one as 16. Match seeds
are mixed into per-round seeds the same two ways: splitmix64, plain 64-bit integer
arithmetic, for a seed below 2**64 (as always), and SHAKE-256 of the seed and the round's
number, 128 bits again, for a wider one, so that no round of a 128-bit match is dealt from
fewer bits than the match.
"""

from __future__ import annotations

from hashlib import shake_256
from random import SystemRandom
from struct import Struct
from typing import Final

from bela.engine.deal_network import deal_parts
from bela.engine.errors import InvalidValueError, shown
from bela.engine.guards import check_seat

__all__ = [
    "MAX_ROUND_INDEX",
    "MAX_SEED",
    "SEED_BITS",
    "check_seed",
    "deal_from_seed",
    "new_seed",
    "round_seed",
]

SEED_BITS: Final = 128
"""The bits of a new match's seed (``secrets.randbits(SEED_BITS)``), and the most a seed holds."""
MAX_SEED: Final = (1 << SEED_BITS) - 1
MAX_ROUND_INDEX: Final = (1 << 64) - 1
_MASK64: Final = MAX_ROUND_INDEX
_WIDE: Final = 1 << 64
"""Seeds from here on are read as 16 bytes (below it, as the 8 bytes bela always read)."""
_ROUND_PERSON: Final = b"bela round v2"


def new_seed() -> int:
    """A new match's seed: ``SEED_BITS`` bits that nobody can search.

    Drawn as ``secrets.randbits`` draws (it *is* ``SystemRandom().getrandbits``: the
    operating system's cryptographic source), without importing ``secrets`` and ``hmac``
    before the app's first screen (issue #12)."""
    return SystemRandom().getrandbits(SEED_BITS)


def check_seed(seed: object) -> int:
    """A seed is an int 0..2**128-1; anything else is an ``InvalidValueError`` that says so."""
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
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= MAX_ROUND_INDEX:
        raise InvalidValueError(
            f"a round index is a whole number from 0 to {MAX_ROUND_INDEX}, not {shown(index)}"
        )
    return int(index)


def round_seed(match_seed: object, index: object) -> int:
    """The seed of the ``index``-th deal (0-based) of a match: as wide as the match's."""
    number = check_round_index(index)
    seed = check_seed(match_seed)
    if seed < _WIDE:
        return _splitmix64(_splitmix64(seed) ^ number)
    mixed = shake_256(_ROUND_PERSON + seed.to_bytes(16, "little") + number.to_bytes(8, "little"))
    return int.from_bytes(mixed.digest(16), "little")


def _seed_bytes(seed: int) -> bytes:
    """What SHAKE-256 reads for ``seed``: 8 bytes below 2**64 (as always), else 16."""
    return _PERSON + seed.to_bytes(8 if seed < _WIDE else 16, "little")


_KEYS: Final = Struct("<32H")
_BIT: Final = tuple(1 << c for c in range(32))
_CARDS: Final = range(32)
_PERSON: Final = b"bela deal v1"
Four = tuple[int, int, int, int]

# Whether this module runs compiled by mypyc (black tells its builds apart the same way). The
# deal is sorted two ways, one for each build, giving the same cards (the differential test
# compares them): the pure build leans on C builtins (set, sorted with a key), where each line
# of Python costs more than their work; the compiled one sorts 32 native ints by a network
# (``deal_network.py``, generated), where those calls and the 32 objects each builds were most
# of the time.
_COMPILED: Final = not __file__.endswith((".py", ".pyc"))


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


def _ranked_parts(seed_bytes: bytes) -> tuple[int, ...]:
    """``_ranked_cards`` as the compiled build runs it: the deal's eight parts as masks, in
    dealing order, from a sorting network over the same keys (``deal_network.py``)."""
    stream = shake_256(seed_bytes)
    length = 64
    while (parts := deal_parts(stream.digest(length), length - 64)) is None:
        length += 64  # two keys tie: the next 64 bytes (0.8% of seeds)
    return parts


def deal_from_seed(seed: object, dealer: object) -> tuple[list[int], list[int]]:
    """The seeded deal: six-card hands and two-card talons, as masks by seat.

    Dealt as at the table from the shuffled deck: six cards to each seat from
    the first player (dealer + 1) on, then two talon cards each.
    """
    return deal_checked(check_seed(seed), check_seat(dealer, "the dealer"))


def deal_checked(seed: int, dealer: int) -> tuple[list[int], list[int]]:
    """``deal_from_seed`` for a seed and dealer already checked."""
    hands, talons = dealt(seed, dealer)
    return list(hands), list(talons)


def dealt(seed: int, dealer: int) -> tuple[Four, Four]:
    """``deal_checked`` as two tuples (``Round.from_seed``: the compiled build makes no object)."""
    seed_bytes = _seed_bytes(seed)
    first = dealer + 1
    if _COMPILED:
        parts = _ranked_parts(seed_bytes)
        first &= 3
        return (
            _by_seat(parts[0], parts[1], parts[2], parts[3], first),
            _by_seat(parts[4], parts[5], parts[6], parts[7], first),
        )
    cards = _ranked_cards(seed_bytes)
    bit = _BIT
    hands = [0, 0, 0, 0]
    talons = [0, 0, 0, 0]
    for k in range(4):
        seat = (first + k) & 3
        i = 6 * k
        hands[seat] = (
            bit[cards[i]]
            | bit[cards[i + 1]]
            | bit[cards[i + 2]]
            | bit[cards[i + 3]]
            | bit[cards[i + 4]]
            | bit[cards[i + 5]]
        )
        talons[seat] = bit[cards[24 + 2 * k]] | bit[cards[25 + 2 * k]]
    return (hands[0], hands[1], hands[2], hands[3]), (talons[0], talons[1], talons[2], talons[3])


def _by_seat(a: int, b: int, c: int, d: int, first: int) -> Four:
    """Four parts of a deal, dealt from the first player on, by seat."""
    if first == 0:
        return a, b, c, d
    if first == 1:
        return d, a, b, c
    if first == 2:
        return c, d, a, b
    return b, c, d, a
