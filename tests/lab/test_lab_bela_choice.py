"""The trump king and queen of a seat holding both are one choice of the judge ("play bela").

Judged apart, the two were always within a card point of each other, so no moment where
playing bela is right could be clear and the pack had no ``bela`` puzzle (issue #36)."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from bela.engine import Card, Phase, Play, Round
from bela.lab import puzzle_judge
from bela.lab.puzzle_gen import _play_deal
from bela.lab.puzzle_judge import judge
from bela.lab.puzzle_reasons import reasons
from bela.lab.puzzle_themes import _bela_chance, themes_of


def _bela_moment(seed: int = 8000055, skip: int = 18) -> Round:
    """Trick 5 of a bot-played deal: the seat to act holds the spade (trump) king and queen,
    both legal, and two more spades; the judge finds playing bela best."""
    start, actions = _play_deal(seed)
    rnd = start.copy()
    for action in actions[:skip]:
        rnd.push(action)
    assert rnd.phase is Phase.PLAYING and rnd.to_act is not None
    view = rnd.view(rnd.to_act)
    assert _bela_chance(view, [int(a.card) for a in view.legal_actions if isinstance(a, Play)])
    return rnd


def _kq(rnd: Round) -> set[str]:
    assert rnd.trump is not None
    return {str(Card(int(rnd.trump) * 8 + rank)) for rank in (5, 6)}  # the queen, the king


def test_the_bela_cards_are_one_choice_worth_the_worse_of_the_two(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rnd = _bela_moment()
    merged = judge(rnd, Random(3), 16, early_stop=False)
    monkeypatch.setattr(
        puzzle_judge, "_bela_merged", lambda view, classes: [(i,) for i in range(len(classes))]
    )
    apart = judge(rnd, Random(3), 16, early_stop=False)
    cards = {c.actions[0].card: c for c in apart.choices if isinstance(c.actions[0], Play)}
    pair = [c for c in merged.choices if {str(a.card) for a in c.actions} == _kq(rnd)]
    assert len(pair) == 1 and len(merged.choices) == len(apart.choices) - 1
    alone = [c for c in apart.choices if str(c.actions[0].card) in _kq(rnd)]
    assert len(alone) == 2
    assert pair[0].written <= min(c.written for c in alone) + 1e-9
    assert pair[0].written >= min(c.written for c in alone) - 3  # a card point, rounded up
    for choice in merged.choices:  # the other choices are judged as before
        if choice is not pair[0]:
            assert cards[choice.actions[0].card].written == choice.written


def test_without_bela_in_the_rules_the_king_and_queen_stay_apart() -> None:
    rnd = _bela_moment()
    assert rnd.to_act is not None
    view = rnd.view(rnd.to_act)
    plain = replace(view, rules=replace(view.rules, no_bela=True))
    groups = puzzle_judge._bela_merged(plain, [[c] for c in sorted(set(view.hand))])
    assert all(len(g) == 1 for g in groups)
    assert any(
        len(g) == 2 for g in puzzle_judge._bela_merged(view, [[c] for c in sorted(set(view.hand))])
    )


def test_playing_bela_can_be_a_clear_puzzle_of_the_bela_theme() -> None:
    rnd = _bela_moment()
    verdict = judge(rnd, Random(5), 48)
    assert {str(a.card) for a in verdict.answer if isinstance(a, Play)} == _kq(rnd)
    assert "bela" in themes_of(rnd, verdict)


def test_either_bela_card_is_the_answer_in_the_reasons() -> None:
    rnd = _bela_moment()
    verdict = judge(rnd, Random(5), 48)
    for action in verdict.answer:
        why = reasons(rnd, verdict.answer, action, Random(7), 24)
        assert why is not None and not why.mine
        assert action in why.answer
        assert not {str(a.card) for a in why.other if isinstance(a, Play)} & _kq(rnd)
