"""What the cards of a moment would write on guessed deals, with who fell and who swept.

The judge (``bela.lab.puzzle_judge``) keeps each choice's average; a puzzle's reasons
(``bela.lab.puzzle_reasons``) and its themes (``bela.lab.puzzle_themes``) need more of each
deal: did the call fall, did one team take every trick. Both read it here, so that "the
call falls" means the same in the explanation and in the theme. It sits apart from both
because the generator (``bela.lab.puzzle_gen``) reads the themes and the reasons read the
generator: a module of their own keeps the imports one way.

Each guessed deal is solved exactly (double dummy) once, for every card at the moment;
the result is the round's score as ``bela.engine.scoring`` writes it, with the points
already taken, the zvanja, the bela and the "more than half" test.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final

from bela.ai.guessing import GuessSampler
from bela.ai.hard import Scorer, rebuild_round
from bela.engine import Card, Phase, Play, Round
from bela.engine.scoring import Score, score_round_detail
from bela.engine.view import SeatView
from bela.search.sampling import knowledge_of
from bela.search.solver import NodeLimitExceeded, Position, Solver

__all__ = ["NODE_LIMIT", "last_trick_takers", "outcomes", "score_of"]

NODE_LIMIT: Final = 4_000_000
"""Searched cards per exact solve before a deal is skipped (never reached in practice)."""


def score_of(scorer: Scorer, margin: int, rest: int, bela: tuple[int, int]) -> Score:
    """The round's score if the rest ends at ``margin`` (``bela.search.analysis.written_points``
    with the detail kept: who fell, who swept)."""
    taken, won = scorer.taken, scorer.won
    if margin > rest:  # team 0 takes every trick: štiglja
        cp, tricks = (taken[0] + rest, taken[1]), (8, 0)
    elif margin < -rest:
        cp, tricks = (taken[0], taken[1] + rest), (0, 8)
    else:
        p0 = (rest + margin) // 2
        cp = (taken[0] + p0, taken[1] + rest - p0)
        tricks = (min(won[0] + 1, 7), min(won[1] + 1, 7))
    return score_round_detail(
        caller=scorer.caller,
        card_points=cp,
        zvanja=scorer.zvanja,
        bela=bela,
        tricks=tricks,
        visi=scorer.visi,
        stiglja_bonus=scorer.stiglja_bonus,
        bela_always_counts=scorer.bela_always_counts,
    )


def outcomes(
    view: SeatView, cards: Sequence[Card], rng: Random, deals: int
) -> list[tuple[Score, ...]]:
    """For each of ``deals`` guessed deals (the judge's sampler, drawn from ``rng``), the
    score each of ``cards`` leads to, both teams then playing their best with every card
    seen. ``view`` is the seat to act's, in the play phase."""
    knowledge = knowledge_of(view)
    sampler = GuessSampler(knowledge)
    scorer = Scorer(view, knowledge)
    assert view.trump is not None
    trump = int(view.trump)
    out: list[tuple[Score, ...]] = []
    for _ in range(deals):
        hands = sampler.sample(rng)
        pos = Position.from_view(view, hands)
        try:
            margins = Solver(trump, node_limit=NODE_LIMIT).card_margins(pos)
        except NodeLimitExceeded:  # pragma: no cover - far above any position's need
            continue
        bela = scorer.bela(hands)
        rest = scorer.remaining(pos)
        out.append(tuple(score_of(scorer, margins[c], rest, bela) for c in cards))
    return out


def last_trick_takers(
    view: SeatView, cards: Sequence[Card], rng: Random, deals: int
) -> list[tuple[int, ...]]:
    """For each of ``deals`` guessed deals (the judge's sampler, drawn from ``rng``), the team
    that takes the eighth trick after each of ``cards``: the round played out with every card
    seen, each seat playing the card the solver finds best for its team (the lower card on a
    tie), bela announced whenever it may be. ``view`` is the seat to act's, in the play phase.
    """
    knowledge = knowledge_of(view)
    sampler = GuessSampler(knowledge)
    out: list[tuple[int, ...]] = []
    for _ in range(deals):
        base = rebuild_round(view, knowledge, sampler.sample(rng))
        row: list[int] = []
        for card in cards:
            rnd = base.copy()
            _play(rnd, card)
            while rnd.phase is Phase.PLAYING:
                _play(rnd, _best(rnd))
            row.append(rnd.tricks[-1].winner & 1)
        out.append(tuple(row))
    return out


def _best(rnd: Round) -> Card:
    """The card the seat to act finds best for its team, every card seen."""
    seat = rnd.to_act
    assert seat is not None and rnd.trump is not None
    margins = Solver(int(rnd.trump), node_limit=NODE_LIMIT).card_margins(Position.from_round(rnd))
    sign = 1 if seat & 1 == 0 else -1
    return max(margins, key=lambda c: (sign * margins[c], -int(c)))


def _play(rnd: Round, card: Card) -> None:
    """Play ``card`` for the seat to act, with bela when the rules let it be announced."""
    seat = rnd.to_act
    assert seat is not None
    plays = [a for a in rnd.view(seat).legal_actions if isinstance(a, Play) and a.card == card]
    rnd.push(max(plays, key=lambda a: a.bela))
