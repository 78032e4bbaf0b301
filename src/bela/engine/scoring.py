"""Scoring a played round: štiglja, the "more than half" test, pad and visi.

Kept apart from the round state machine so the rules of writing points can be
read (and tested) on their own, from plain numbers.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from bela.engine.errors import InvalidValueError, shown
from bela.engine.guards import as_int, check_flag, check_int

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
    caller: object,
    card_points: object,
    zvanja: object,
    bela: object,
    tricks: object,
    visi: object = False,
    stiglja_bonus: object = STIGLJA_BONUS,
    bela_always_counts: object = False,
) -> Score:
    """Score a round from its numbers; ``caller`` is the calling seat or team (parity counts).

    Each pair is (team 0, team 1) of whole numbers 0 or more; ``tricks`` are 0..8 each
    (8 is a štiglja, so not both). ``visi``, ``stiglja_bonus`` (90 or 100) and
    ``bela_always_counts`` are the house rules of the same names in ``Rules``. The arguments
    are typed ``object`` because they are checked here: the compiled build would otherwise
    refuse a wrong type with a ``TypeError`` before these checks could say what is wrong.
    """
    if type(stiglja_bonus) is not int or stiglja_bonus not in (90, 100):
        raise InvalidValueError(f"stiglja_bonus is 90 or 100, not {shown(stiglja_bonus)}")
    always = check_flag(bela_always_counts, "bela_always_counts")
    # the common case, tuples of plain ints, in a few compares (bots score in loops)
    if (
        type(caller) is int
        and 0 <= caller <= 3
        and (visi is False or visi is True)
        and type(card_points) is tuple
        and type(zvanja) is tuple
        and type(bela) is tuple
        and type(tricks) is tuple
        and len(card_points) == len(zvanja) == len(bela) == len(tricks) == 2
    ):
        c0, c1 = card_points
        z0, z1 = zvanja
        b0, b1 = bela
        t0, t1 = tricks
        if (
            c0.__class__ is c1.__class__ is z0.__class__ is z1.__class__ is int
            and b0.__class__ is b1.__class__ is t0.__class__ is t1.__class__ is int
            and c0 >= 0
            and c1 >= 0
            and z0 >= 0
            and z1 >= 0
            and b0 >= 0
            and b1 >= 0
            and 0 <= t0 <= 8
            and 0 <= t1 <= 8
            and t0 + t1 < 16  # not both 8
        ):
            return tally(
                caller, (c0, c1), (z0, z1), (b0, b1), (t0, t1), visi, stiglja_bonus, always
            )
    pairs = (
        _pair(card_points, "card_points"),
        _pair(zvanja, "zvanja"),
        _pair(bela, "bela"),
        _pair(tricks, "tricks"),
    )
    tricks_won = pairs[3]
    if max(tricks_won) > 8 or tricks_won == (8, 8):
        raise InvalidValueError(f"a round has 8 tricks: tricks cannot be {tricks_won}")
    return tally(
        check_int(caller, "caller", 0, 3),
        *pairs,
        check_flag(visi, "visi"),
        stiglja_bonus,
        always,
    )


def _pair(value: object, what: str) -> Pair:
    """A (team 0, team 1) pair of whole numbers 0 or more."""
    if isinstance(value, (tuple, list)) and len(value) == 2:
        first, second = as_int(value[0]), as_int(value[1])
        if first is not None and second is not None and first >= 0 and second >= 0:
            return first, second
    raise InvalidValueError(
        f"{what} is a pair (team 0, team 1) of whole numbers 0 or more, not {shown(value)}"
    )


def tally(
    caller: int,
    card_points: Pair,
    zvanja: Pair,
    bela: Pair,
    tricks: Pair,
    visi: bool,
    stiglja_bonus: int = STIGLJA_BONUS,
    bela_always_counts: bool = False,
) -> Score:
    """``score_round_detail`` for numbers the engine has already checked (``Round``'s path).

    ``bela_always_counts`` ("bela se uvijek piše"): callers who fall keep their own
    announced bela (what is left of it after a štiglja), and the defenders' share of
    the pad is the combined total less that bela.
    """
    t0, t1, w0, w1, fell, stiglja, tie, hanging = tally_flat(
        caller,
        card_points[0],
        card_points[1],
        zvanja[0],
        zvanja[1],
        bela[0],
        bela[1],
        tricks[0],
        tricks[1],
        visi,
        stiglja_bonus,
        bela_always_counts,
    )
    # tuple.__new__ skips the named tuple's Python-level __new__: bots score in loops
    return _new_tuple(
        Score, ((t0, t1), (w0, w1), fell, None if stiglja < 0 else stiglja, tie, hanging)
    )


Flat = tuple[int, int, int, int, bool, int, bool, int]


def tally_flat(
    caller: int,
    c0: int,
    c1: int,
    z0: int,
    z1: int,
    b0: int,
    b1: int,
    tricks0: int,
    tricks1: int,
    visi: bool,
    stiglja_bonus: int,
    bela_always_counts: bool,
) -> Flat:
    """``tally`` as plain numbers: the totals, the written points, fell, the sweeping team
    (-1 for none), tie and hanging. Compiled, the arguments and the answer are C values:
    the end of every simulated round scores with no object made."""
    callers = caller & 1
    t0 = c0 + z0 + b0
    t1 = c1 + z1 + b1
    stiglja = -1
    if tricks0 == 8:  # the swept team's zvanja and bela go to the sweeper
        stiglja = 0
        t0 += stiglja_bonus + z1 + b1
        t1 -= z1 + b1
    elif tricks1 == 8:
        stiglja = 1
        t1 += stiglja_bonus + z0 + b0
        t0 -= z0 + b0
    combined = t0 + t1
    doubled = 2 * (t1 if callers else t0)
    if doubled > combined:
        return t0, t1, t0, t1, False, stiglja, False, 0
    tie = doubled == combined
    # the callers' own bela, kept when they fall under "bela se uvijek piše" (not once swept)
    kept = (b1 if callers else b0) if bela_always_counts and stiglja < 0 else 0
    if tie and visi:  # defenders write their own; the callers' total hangs
        if callers:
            return t0, t1, t0, kept, True, stiglja, True, t1 - kept
        return t0, t1, kept, t1, True, stiglja, True, t0 - kept
    if callers == 0:
        return t0, t1, kept, combined - kept, True, stiglja, tie, 0
    return t0, t1, combined - kept, kept, True, stiglja, tie, 0


def score_round(
    *, caller: object, card_points: object, zvanja: object, bela: object, tricks: object
) -> Pair:
    """What each team writes under the default rules.

    Each argument but ``caller`` is a pair (team 0, team 1): card points
    including the last trick, recognised zvanja, announced bela, tricks won.
    ``caller`` may be the calling seat or team.
    """
    return score_round_detail(
        caller=caller, card_points=card_points, zvanja=zvanja, bela=bela, tricks=tricks
    ).points
