"""Seeded deals that come out the same on every platform and Python version.

Python's ``random`` promises little across versions, so a seed drives our own
Fisher-Yates through splitmix64, plain 64-bit integer arithmetic that gives the
same deck everywhere. Match seeds are mixed into per-round seeds the same way.
"""

from __future__ import annotations

__all__ = ["MAX_SEED", "check_seed", "deal_from_seed", "round_seed", "shuffled_deck"]

MAX_SEED = (1 << 64) - 1
_MASK64 = MAX_SEED


def check_seed(seed: object) -> int:
    """A seed is an int 0..2**64-1; anything else is a ``ValueError`` that says so."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed}")
    return seed


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def round_seed(match_seed: int, index: int) -> int:
    """The seed of the ``index``-th deal (0-based) of a match."""
    return _splitmix64(_splitmix64(check_seed(match_seed)) ^ index)


def _radix_chunks() -> tuple[tuple[int, ...], ...]:
    """Radices 2..32 of an inside-out Fisher-Yates, grouped so each group's product < 2**46.

    One 64-bit splitmix64 output then yields a whole group's positions by
    repeated division, with a bias below 2**-18: far cheaper than 31 generator calls.
    """
    chunks: list[tuple[int, ...]] = []
    current: list[int] = []
    product = 1
    for radix in range(2, 33):
        if product * radix >= 1 << 46:
            chunks.append(tuple(current))
            current, product = [], 1
        current.append(radix)
        product *= radix
    chunks.append(tuple(current))
    return tuple(chunks)


_CHUNKS = _radix_chunks()


def shuffled_deck(seed: int) -> list[int]:
    """The 32 card indices in the order a seed shuffles them (pure 64-bit arithmetic).

    Inside-out Fisher-Yates: card ``r - 1`` is inserted at a uniform position
    among the ``r`` places of the deck built so far, for r = 2..32.
    """
    deck = [0]
    insert = deck.insert
    state = check_seed(seed)
    for radices in _CHUNKS:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        x = z ^ (z >> 31)
        for radix in radices:
            insert(x % radix, radix - 1)
            x //= radix
    return deck


def deal_deck(deck: list[int], dealer: int) -> tuple[list[int], list[int]]:
    """Six cards and a two-card talon per seat, as masks by seat, from a shuffled deck.

    Dealt as at the table: starting with the first player (dealer + 1), six
    cards each from the top, then two talon cards each.
    """
    hands = [0, 0, 0, 0]
    talons = [0, 0, 0, 0]
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        base = 6 * k
        hands[seat] = (
            (1 << deck[base])
            | (1 << deck[base + 1])
            | (1 << deck[base + 2])
            | (1 << deck[base + 3])
            | (1 << deck[base + 4])
            | (1 << deck[base + 5])
        )
        talons[seat] = (1 << deck[24 + 2 * k]) | (1 << deck[25 + 2 * k])
    return hands, talons


def deal_from_seed(seed: int, dealer: int) -> tuple[list[int], list[int]]:
    """The seeded deal: hands and talons as masks by seat."""
    return deal_deck(shuffled_deck(seed), dealer)
