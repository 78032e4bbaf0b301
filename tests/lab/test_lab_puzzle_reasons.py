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
from bela.lab.puzzle_reasons import Reasons, Stake, _typical, reasons
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
    assert [s.kind for s in stakes][:1] == ["points"] and stakes[0].value == 10
    assert "fall-ours" in {s.kind for s in _reasons(_by_id("1f0a978c0e"), "JD").stakes}


STAKES = Path(__file__).parents[1] / "puzzles" / "fixtures" / "stakes.jsonl"
"""Two moments of the shipped pack (copied, so that a rebuilt pack does not move them) where
bela decides: ours (05e163f7ca) and theirs (04eae95090)."""


def _stake_moment(ident: str) -> dict[str, Any]:
    lines = STAKES.read_text(encoding="utf-8").splitlines()
    return next(p for p in map(json.loads, lines) if p["id"] == ident)


def _played_out(puzzle: dict[str, Any], chosen: str, seed: int = 1, deals: int = 96) -> Any:
    """Deal by deal, the very deals ``reasons`` draws (same sampler, same seed): the engine's
    result and the last trick's winner after the answer and after ``chosen``, each played
    out at best with every card seen by the engine itself."""
    from bela.ai.guessing import GuessSampler
    from bela.lab.puzzle_gen import best_play

    rnd = moment_of(puzzle)
    view = rnd.view(puzzle["seat"])
    knowledge = knowledge_of(view)
    sampler = GuessSampler(knowledge)
    rng = Random(seed)
    found = _reasons(puzzle, chosen, seed, deals)
    out = []
    for _ in range(deals):
        hands = sampler.sample(rng)
        pair = []
        for first in (found.answer[0], found.other[0]):
            line = rebuild_round(view, knowledge, hands)
            line.push(first)
            best_play(line, [])
            assert line.result is not None
            pair.append((line.result, line.tricks[-1].winner))
        out.append(pair)
    return found, out


def test_the_last_tricks_ten_is_at_stake_where_the_answer_keeps_the_last_trick() -> None:
    puzzle = _by_id("841453bfc4")  # trick 7: 9♠ keeps the last trick, J♥ gives it away
    team = puzzle["seat"] % 2
    found, deals = _played_out(puzzle, "JH")
    (stake,) = [s for s in found.stakes if s.kind == "last-trick"]
    kept = lost = 0
    for (a, a_last), (o, o_last) in deals:
        differ = _margin(puzzle, a.points) != _margin(puzzle, o.points)
        if differ and a.stiglja is None and o.stiglja is None:
            kept += a_last % 2 == team != o_last % 2
            lost += o_last % 2 == team != a_last % 2
    assert stake.deals == kept > lost and kept * 20 >= found.deals
    # the card points stake is still said: the 10 is part of those points
    assert "points" in {s.kind for s in found.stakes}
    # a right answer compared with the best alternative: the same deals, the same stake
    assert "last-trick" in {s.kind for s in _reasons(puzzle, "9S").stakes}
    # and in words, one message of its own, in English and in Croatian
    from bela.i18n import set_language
    from bela.puzzle_words import reason_sentences

    try:
        said = {}
        for lang in ("en", "hr"):
            set_language(lang)
            said[lang] = reason_sentences(found)
    finally:
        set_language("en")
    k = stake.deals
    assert (
        f"At stake is the last trick's 10: on {k} of these deals 9♠ takes the last trick for "
        "us, where J♥ gives it to them."
    ) in said["en"]
    assert (
        f"U pitanju je deset od zadnjeg: na {k} od tih dijeljenja s 9♠ mi nosimo zadnji štih, "
        "a s J♥ oni."
    ) in said["hr"]


def _bela_recount(puzzle: dict[str, Any], chosen: str) -> tuple[Any, int, int]:
    """The reasons, and on how many of their deals our bela's 20 (theirs) are written after
    one card and lost after the other, by the engine's own results."""
    team = puzzle["seat"] % 2
    found, deals = _played_out(puzzle, chosen)
    ours = theirs = 0

    def kept(result: Any, holder: int) -> bool:
        swept = result.stiglja is not None and result.stiglja != holder
        return not swept and not (result.fell and holder == result.caller % 2)

    for (a, _), (o, _) in deals:
        if a.bela[team] or o.bela[team]:
            ours += kept(a, team) and not kept(o, team)
        elif a.bela[1 - team] or o.bela[1 - team]:
            theirs += kept(o, 1 - team) and not kept(a, 1 - team)
    return found, ours, theirs


def test_our_bela_is_at_stake_where_the_other_card_makes_us_fall() -> None:
    puzzle = _stake_moment("05e163f7ca")  # we called clubs; 10♦ falls where 7♦ makes it
    found, ours, theirs = _bela_recount(puzzle, "10D")
    stakes = {s.kind: s.deals for s in found.stakes}
    assert stakes["bela-ours"] == ours > 0 and theirs == 0 and "bela-theirs" not in stakes
    assert stakes["fall-ours"] >= ours  # bela is lost with the call here, never without it


def test_their_bela_is_at_stake_where_the_answer_makes_them_fall() -> None:
    puzzle = _stake_moment("04eae95090")  # they called diamonds and announced bela
    found, ours, theirs = _bela_recount(puzzle, "10D")
    stakes = {s.kind: s.deals for s in found.stakes}
    assert stakes["bela-theirs"] == theirs > 0 and ours == 0 and "bela-ours" not in stakes


def test_bela_kept_by_the_house_rule_is_no_stake() -> None:
    """Under "bela se uvijek piše" the callers who fall keep their own bela: a fall takes
    nothing of it, a štiglja still does."""
    from types import SimpleNamespace

    from bela.engine.scoring import score_round_detail
    from bela.lab.puzzle_reasons import _bela_stakes

    def score(card_points: tuple[int, int], tricks: tuple[int, int], always: bool) -> Any:
        return score_round_detail(
            caller=0,
            card_points=card_points,
            zvanja=(0, 0),
            bela=(20, 0),
            tricks=tricks,
            bela_always_counts=always,
        )

    for always in (False, True):
        scorer: Any = SimpleNamespace(team=0, caller=0, bela_always_counts=always)
        made = score((100, 62), (5, 3), always)
        fell = score((60, 102), (3, 5), always)
        swept = score((0, 162), (0, 8), always)
        assert made.fell is False and fell.fell is True and swept.stiglja == 1
        by_fall = _bela_stakes(scorer, [made], [fell], [(20, 0)])
        by_sweep = _bela_stakes(scorer, [made], [swept], [(20, 0)])
        assert by_fall == (() if always else (Stake("bela-ours", 1),))
        assert by_sweep == (Stake("bela-ours", 1),)
        # the callers' bela seen by the defenders: the answer that makes them fall takes it
        defenders: Any = SimpleNamespace(team=1, caller=0, bela_always_counts=always)
        taken = () if always else (Stake("bela-theirs", 1),)
        assert _bela_stakes(defenders, [fell], [made], [(20, 0)]) == taken
        # the defenders' bela: the callers' fall never takes it from them
        assert _bela_stakes(scorer, [made], [fell], [(0, 20)]) == ()


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
