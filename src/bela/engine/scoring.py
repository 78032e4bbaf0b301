"""Scoring a played round: štiglja, the "more than half" test, pad and visi.

Kept apart from the round state machine so the rules of writing points can be
read (and tested) on their own, from plain numbers.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["STIGLJA_BONUS", "Score", "score_round", "score_round_detail"]

STIGLJA_BONUS: Final = 90
Pair = tuple[int, int]
_new_tuple: Final = tuple.__new__


class Score(NamedTuple):
    """What a round's numbers come to.

    ``totals`` are each team's total after štiglja (the swept team's zvanja and
    bela moved to the sweeper); ``points`` is what each team writes; under
    visi an exact tie leaves ``hanging`` points (the callers' total) unwritten.
    """

    totals: Pair
    points: Pair
    fell: bool
    stiglja: int | None
    tie: bool
    hanging: int


def score_round_detail(
    *,
    caller: int,
    card_points: Pair,
    zvanja: Pair,
    bela: Pair,
    tricks: Pair,
    visi: bool = False,
) -> Score:
    """Score a round from its numbers; ``caller`` is the calling seat or team (parity counts)."""
    callers = caller & 1
    z0, z1 = zvanja
    b0, b1 = bela
    t0 = card_points[0] + z0 + b0
    t1 = card_points[1] + z1 + b1
    stiglja: int | None = None
    if tricks[0] == 8:  # the swept team's zvanja and bela go to the sweeper
        stiglja = 0
        t0 += STIGLJA_BONUS + z1 + b1
        t1 -= z1 + b1
    elif tricks[1] == 8:
        stiglja = 1
        t1 += STIGLJA_BONUS + z0 + b0
        t0 -= z0 + b0
    totals = (t0, t1)
    combined = t0 + t1
    doubled = 2 * (t1 if callers else t0)
    # tuple.__new__ skips the named tuple's Python-level __new__: every simulated round scores
    if doubled > combined:
        return _new_tuple(Score, (totals, totals, False, stiglja, False, 0))
    tie = doubled == combined
    if tie and visi:  # defenders write their own; the callers' total hangs
        written = (t0, 0) if callers else (0, t1)
        return _new_tuple(Score, (totals, written, True, stiglja, True, t1 if callers else t0))
    written = (0, combined) if callers == 0 else (combined, 0)
    return _new_tuple(Score, (totals, written, True, stiglja, tie, 0))


def score_round(*, caller: int, card_points: Pair, zvanja: Pair, bela: Pair, tricks: Pair) -> Pair:
    """What each team writes under the default rules.

    Each argument but ``caller`` is a pair (team 0, team 1): card points
    including the last trick, recognised zvanja, announced bela, tricks won.
    ``caller`` may be the calling seat or team.
    """
    return score_round_detail(
        caller=caller, card_points=card_points, zvanja=zvanja, bela=bela, tricks=tricks
    ).points
