"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), as chess sites rate
players and puzzles.

A player and a puzzle each have a rating, a rating deviation (how unsure the rating
is) and a volatility (how erratic the results are). Every attempt is one rating
period of one game for both: a right answer is the player's win and the puzzle's
loss. This is the paper's algorithm step by step, with the Illinois iteration for
the volatility (step 5.1); ``tests/archive/test_glicko.py`` checks the paper's
worked example.

Written here rather than taken from PyPI: the ``glicko2`` package (2.1.0) is a
mutable, untyped class using the paper's older Newton iteration for the volatility.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["NEW_RD", "SCALE", "TAU", "Rating", "idle", "update"]

SCALE: Final = 173.7178
"""Glicko-2's scale factor between the Glicko scale (1500-centred) and its own."""

TAU: Final = 0.5
"""The system constant: how much the volatility may change (the paper's example uses 0.5)."""

_EPSILON: Final = 0.000001

NEW_RD: Final = 350.0
"""A new player's rating deviation, the most a rating is ever unsure."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale, its deviation (RD) and its volatility."""

    rating: float = 1500.0
    rd: float = NEW_RD
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period of ``games`` (opponent, score 0..1).

    With no games only the deviation grows (the paper's step for a player who did
    not compete).
    """
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, grown * SCALE, sigma)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)


def idle(player: Rating, periods: int) -> Rating:
    """``player`` after ``periods`` rating periods without a game: only the deviation grows
    (the paper's step for a player who did not compete, once a period), never past the
    deviation of a new player (350), so a rating left for months is held loosely again and
    the next results move it as they would a newcomer's, at most."""
    rating = player
    for _ in range(max(0, periods)):
        rating = update(rating, [])
        if rating.rd >= NEW_RD:
            return Rating(player.rating, NEW_RD, player.volatility)
    return rating


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
