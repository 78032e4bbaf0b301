"""Scoring a played round: štiglja, the "more than half" test, pad and visi.

Kept apart from the round state machine so the rules of writing points can be
read (and tested) on their own, from plain numbers.
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = ["STIGLJA_BONUS", "Score", "score_round", "score_round_detail"]

STIGLJA_BONUS: Final = 90
Pair = tuple[int, int]


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
    callers = caller % 2
    defenders = 1 - callers
    totals = [card_points[t] + zvanja[t] + bela[t] for t in (0, 1)]
    stiglja: int | None = None
    for team in (0, 1):
        if tricks[team] == 8:
            stiglja = team
            other = 1 - team
            totals[team] += STIGLJA_BONUS + zvanja[other] + bela[other]
            totals[other] -= zvanja[other] + bela[other]
    combined = totals[0] + totals[1]
    tie = 2 * totals[callers] == combined
    if 2 * totals[callers] > combined:
        points = (totals[0], totals[1])
        return Score((totals[0], totals[1]), points, False, stiglja, False, 0)
    written = [0, 0]
    hanging = 0
    if tie and visi:
        written[defenders] = totals[defenders]
        hanging = totals[callers]
    else:
        written[defenders] = combined
    return Score((totals[0], totals[1]), (written[0], written[1]), True, stiglja, tie, hanging)


def score_round(*, caller: int, card_points: Pair, zvanja: Pair, bela: Pair, tricks: Pair) -> Pair:
    """What each team writes under the default rules.

    Each argument but ``caller`` is a pair (team 0, team 1): card points
    including the last trick, recognised zvanja, announced bela, tricks won.
    ``caller`` may be the calling seat or team.
    """
    return score_round_detail(
        caller=caller, card_points=card_points, zvanja=zvanja, bela=bela, tricks=tricks
    ).points
