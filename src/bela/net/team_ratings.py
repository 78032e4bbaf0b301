"""Glicko-2 for a game of pairs: each player rated from the team's result.

Bela is played two against two, and Glicko-2 (``bela.archive.glicko``) rates one
player against one opponent. A pair's strength is taken as the mean of its two
ratings. Each player's match is then one Glicko-2 game against a *virtual
opponent* whose rating is chosen so that the player's expected score is exactly the
pair's expected score against the other pair:

    opponent = own rating + (their pair's mean - our pair's mean)

so a strong partner raises what is expected of you (a win with them gains less, a
loss costs more), and strong opponents lower it. The virtual opponent's deviation
is what is unsure about that difference, the partner's and both opponents'
deviations: sqrt(rd_partner^2 + rd_opp1^2 + rd_opp2^2) / 2. Each player's own
deviation and volatility then decide how far their rating moves: a new player
moves a lot, a settled one little; partners with the same result can move by
different amounts.

A player who abandons a rated match is given a loss against the same virtual
opponent (and nobody else at the table is rated for that match). A deviation is
never let grow past a new player's (350).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from bela.archive.glicko import NEW_RD, Rating, update

__all__ = ["PROVISIONAL_MATCHES", "rate_abandon", "rate_match", "virtual_opponent"]

PROVISIONAL_MATCHES: Final = 10
"""A player's first rated matches: their rating is shown as provisional."""


def _partner(seat: int) -> int:
    return (seat + 2) % 4


def virtual_opponent(ratings: Sequence[Rating], seat: int) -> Rating:
    """The one opponent that stands for the other three players, for ``seat``."""
    me, partner = ratings[seat], ratings[_partner(seat)]
    opp = [ratings[(seat + 1) % 4], ratings[(seat + 3) % 4]]
    ours = (me.rating + partner.rating) / 2
    theirs = (opp[0].rating + opp[1].rating) / 2
    rd = math.sqrt(partner.rd**2 + opp[0].rd ** 2 + opp[1].rd ** 2) / 2
    return Rating(rating=me.rating + theirs - ours, rd=rd)


def _capped(rating: Rating) -> Rating:
    """Never more unsure than a new player (``NEW_RD``): a near-certain result tells
    Glicko-2 almost nothing, and its step 6 then lets the deviation grow past it."""
    return replace(rating, rd=min(rating.rd, NEW_RD))


def rate_match(ratings: Sequence[Rating], winner: int) -> list[Rating]:
    """The four seats' ratings after a rated match won by team ``winner`` (seats 0 and 2
    are team 0)."""
    return [
        _capped(
            update(
                ratings[seat],
                [(virtual_opponent(ratings, seat), 1.0 if seat % 2 == winner else 0.0)],
            )
        )
        for seat in range(4)
    ]


def rate_abandon(ratings: Sequence[Rating], seat: int) -> Rating:
    """``seat``'s rating after leaving a rated match: a loss."""
    return _capped(update(ratings[seat], [(virtual_opponent(ratings, seat), 0.0)]))
