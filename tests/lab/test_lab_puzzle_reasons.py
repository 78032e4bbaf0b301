"""Why a puzzle's answer is right (``bela.lab.puzzle_reasons``): the counts, the hidden fact,
the stakes, the typical deal of the median advantage, and the worst deal, checked against
the engine playing the lines out on the very deals the reasons name.

The moments are the generator's card puzzles of ``tests/puzzles/fixtures/sample.jsonl``.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bela.ai.hard import rebuild_round
from bela.engine import Play
from bela.engine.actions import choice_of, parse_action
from bela.lab.puzzle_check import moment_of
from bela.lab.puzzle_judge import _finish
from bela.lab.puzzle_reasons import Reasons, _typical, reasons
from bela.search.sampling import knowledge_of

SAMPLE = Path(__file__).parents[1] / "puzzles" / "fixtures" / "sample.jsonl"


def _puzzles() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


def _by_id(ident: str) -> dict[str, Any]:
    return next(p for p in _puzzles() if p["id"] == ident)


def _reasons(puzzle: dict[str, Any], chosen: str, seed: int = 1, deals: int = 96) -> Reasons:
    answer = [parse_action(t) for t in puzzle["answer"]]
    found = reasons(moment_of(puzzle), answer, parse_action(chosen), Random(seed), deals)
    assert found is not None
    return found


def _margin(puzzle: dict[str, Any], written: tuple[int, int]) -> int:
    team = puzzle["seat"] % 2
    return written[team] - written[1 - team]


def test_a_wrong_card_is_compared_with_the_answer_deal_by_deal() -> None:
    puzzle = _by_id("841453bfc4")  # trick 7: 9♠ keeps the last tricks, J♥ gives them away
    found = _reasons(puzzle, "JH")
    assert found.mine
    assert [str(a) for a in found.answer] == ["9S"] and [str(a) for a in found.other] == ["JH"]
    assert found.better + found.equal + found.worse == found.deals == 96
    assert found.worse > found.better
    # the hidden fact: a card in one other seat's hand on which J♥ does worse far more often
    holding = found.holding
    assert holding is not None and holding.seat != puzzle["seat"]
    assert 0 < holding.worse <= holding.deals < found.deals and holding.worse <= found.worse
    assert holding.worse / holding.deals >= 0.6 and holding.loss > 0


def test_a_right_answer_is_compared_with_the_best_alternative() -> None:
    puzzle = _by_id("841453bfc4")
    found = _reasons(puzzle, "9S")
    assert not found.mine and [str(a) for a in found.other] == ["JH"]


def test_the_lines_replay_to_what_the_solver_says_on_the_deals_named() -> None:
    """The typical deal's two lines and the worst deal, played out by the engine from the
    moment, write what the reasons claim: the worst deal's loss is the difference of the two
    lines on it, and the typical deal shows the answer ahead."""
    from bela.lab.puzzle_gen import best_play

    puzzle = _by_id("1a318c5ea7")  # trick 4: 7♠ or 8♠ against A♠
    found = _reasons(puzzle, "AS")
    view = moment_of(puzzle).view(puzzle["seat"])
    assert found.lines[0].actions[0] in found.answer
    assert choice_of(found.lines[1].actions[0]) == choice_of(Play(parse_action("AS").card))
    ahead = _margin(puzzle, found.lines[0].written) - _margin(puzzle, found.lines[1].written)
    assert ahead > 0
    results = []
    for first in (found.answer[0], found.other[0]):
        rnd = rebuild_round(view, knowledge_of(view), found.worst)
        rnd.push(first)
        best_play(rnd, [])
        assert rnd.result is not None
        results.append(_margin(puzzle, rnd.result.points))
    assert results[0] - results[1] == found.worst_loss > 0


def test_what_is_at_stake_is_named() -> None:
    kinds = {s.kind for s in _reasons(_by_id("d42a70b868"), "AD").stakes}
    assert kinds == {"stiglja-theirs"}  # A♦ gives them every trick on many deals
    stakes = _reasons(_by_id("f72eede6d5"), "10C").stakes  # trick 7: the ten itself
    assert [s.kind for s in stakes] == ["points"] and stakes[0].value == 10
    assert "fall-ours" in {s.kind for s in _reasons(_by_id("1f0a978c0e"), "JD").stakes}


def test_the_typical_deal_is_the_median_one_of_the_answers_sign() -> None:
    # advantages 1, 2, 3, 4, 40, 100, 100: the one nearest the mean (35.7) is 40, the median
    # is 4; the eighth deal, where the answer writes +40 while it averages below zero, is
    # never the one shown
    adv = [1.0, 2.0, 3.0, 4.0, 40.0, 100.0, 100.0, 4.0]
    ans = [-10.0] * 7 + [40.0]
    assert _typical(adv, ans) == 3
    assert _typical([5.0, 10.0, 20.0], [-30.0, 40.0, -20.0]) == 0
    # never a deal where the answer does worse or the same, when one where it does better exists
    assert _typical([0.0, -5.0, 0.0, 30.0], [10.0, 10.0, 10.0, 10.0]) == 3


def test_the_judge_shows_the_median_deal_too() -> None:
    first = [10.0, 20.0, 30.0, 315.0]  # advantages 10, 20, 30, 315: median 25, mean 93.75
    second = [0.0, 0.0, 0.0, 0.0]
    hands = [(i, 0, 0, 0) for i in range(4)]
    verdict = _finish(
        "card",
        0,
        ((Play(parse_action("7H").card),), (Play(parse_action("8H").card),)),
        [first, second],
        hands,
        True,
    )
    assert verdict.typical == hands[1]  # the mean would have shown the 30


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10), st.integers(0, 3), st.integers(0, 2**32))
def test_counts_add_up_and_the_typical_deal_favours_the_answer(
    index: int, which: int, seed: int
) -> None:
    puzzle = _puzzles()[index]
    choices = puzzle["choices"]
    chosen = choices[which % len(choices)]["actions"][0]
    found = _reasons(puzzle, chosen, seed, deals=16)
    assert found.better + found.equal + found.worse == found.deals == 16
    assert found.mine == (which % len(choices) != 0)
    ahead = _margin(puzzle, found.lines[0].written) - _margin(puzzle, found.lines[1].written)
    assert ahead > 0 or found.worse == 0
    assert found.worst_loss >= 0 or found.worse == 0
    for stake in found.stakes:
        assert 0 < stake.deals <= found.deals
