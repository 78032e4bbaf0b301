"""The themes of a puzzle, as a player names what a moment is about.

A puzzle may have several: its place in the trick (lead, second, third, fourth
hand), and what the answer does. They are read off the moment and the judge's
verdict, never guessed from the answer's value alone:

* ``overtrump``: trumps are on the table and the answer is a higher trump;
* ``namazati``: the partner is winning the trick and the answer gives them an ace or
  a ten without taking the trick from them (giving points to the partner);
* ``save-ten``: the next-best choice is to play a ten of the seat's, and the answer,
  which keeps it, is at least ten written points better on average;
* ``bela``: the answer is the trump king or queen of a seat holding both;
* ``last-tricks``: the sixth trick or later;
* bids: ``call`` (the answer names trump), ``pass`` (dalje is right), ``pod-mus``
  (the dealer must name trump: which suit).
"""

from __future__ import annotations

from typing import Final

from bela.engine import Call, Pass, Phase, Play, Round
from bela.engine.tricks import winning_index
from bela.foundation.puzzle_themes import ROLES, THEMES
from bela.lab.puzzle_judge import MIN_GAP, Verdict

__all__ = ["ROLES", "THEMES", "themes_of"]


_TEN: Final = 3
_QUEEN: Final = 5
_KING: Final = 6
_ACE: Final = 7


def themes_of(rnd: Round, verdict: Verdict) -> tuple[str, ...]:
    """The themes of the moment ``rnd`` is at, given its verdict (in ``THEMES`` order)."""
    seat = rnd.to_act
    if seat is None:
        raise ValueError("the round is over: nobody is to act")
    view = rnd.view(seat)
    found: set[str] = set()
    if view.phase is Phase.BIDDING:
        answer = verdict.answer[0]
        if Pass() not in view.legal_actions:
            found.add("pod-mus")
        elif isinstance(answer, Call):
            found.add("call")
        elif isinstance(answer, Pass):
            found.add("pass")
        return tuple(t for t in THEMES if t in found)
    assert view.trump is not None
    trump = int(view.trump)
    trick = [int(c) for c in view.trick]
    found.add(ROLES[len(trick)])
    cards = [int(a.card) for a in verdict.answer if isinstance(a, Play)]
    if len(view.tricks) + 1 >= 6:
        found.add("last-tricks")
    if trick:
        at = winning_index(trick, trump)
        winner = trick[at]
        leader = (seat - len(trick)) % 4
        partner_wins = (leader + at) % 4 == (seat + 2) % 4
        if winner >> 3 == trump and any(
            c >> 3 == trump and winning_index([*trick, c], trump) == len(trick) for c in cards
        ):
            found.add("overtrump")
        if partner_wins and any(
            c >> 3 != trump and (c & 7) in (_TEN, _ACE) and winning_index([*trick, c], trump) == at
            for c in cards
        ):
            found.add("namazati")
    hand = [int(c) for c in view.hand]
    tens = {c for c in hand if c & 7 == _TEN}
    if tens and not tens & set(cards) and len(verdict.choices) > 1:
        runner_up = verdict.choices[1]
        played = {int(a.card) for a in runner_up.actions if isinstance(a, Play)}
        if played & tens and verdict.gap >= MIN_GAP:
            found.add("save-ten")
    king, queen = trump * 8 + _KING, trump * 8 + _QUEEN
    if king in hand and queen in hand and set(cards) & {king, queen}:
        found.add("bela")
    return tuple(t for t in THEMES if t in found)
