"""The puzzle judge: its verdicts agree with a brute-force count, and its early stop is exact.

The brute force is independent of the solver and of the hard bot's scoring: on
the very deals the judge draws (the same seeded sampler), every way the last
tricks can be played is tried (each team choosing what is best for it in card
points, as the solver does), the round is finished by the engine, and what it
writes is read from the engine's own result.
"""

from __future__ import annotations

from random import Random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bela.ai import make_bot
from bela.ai.guessing import GuessSampler
from bela.ai.hard import rebuild_round
from bela.engine import Phase, Play, Round
from bela.engine.rules import DEFAULT_RULES
from bela.lab.puzzle_judge import BEST_SHARE, MIN_GAP, judge
from bela.search.sampling import knowledge_of


def _moment(seed: int, trick: int, order: int) -> Round | None:
    """The deal of ``seed`` played by normal bots up to card ``order`` of trick ``trick``."""
    rnd = Round.from_seed(seed, seed % 4, DEFAULT_RULES)
    bot = make_bot("normal")
    rng = Random(seed)
    while rnd.phase is not Phase.FINISHED:
        if rnd.phase is Phase.PLAYING and len(rnd.tricks) + 1 == trick and len(rnd.trick) == order:
            return rnd
        seat = rnd.to_act
        assert seat is not None
        rnd.push(bot.act(rnd.view(seat), rng))
    return None


def _brute(rnd: Round) -> tuple[int, Round]:
    """(team 0's written points less team 1's, the finished round) under best play.

    Each team picks what is best for it in written points; written points only grow
    with card points taken, so this is the same best play as the solver's.
    """
    if rnd.phase is Phase.FINISHED:
        return _written(rnd, 0), rnd
    seat = rnd.to_act
    assert seat is not None
    best: tuple[int, Round] | None = None
    for action in rnd.view(seat).legal_actions:
        if not isinstance(action, Play):
            continue
        after = rnd.copy()
        after.push(action)
        value = _brute(after)
        if best is None or (value[0] > best[0] if seat % 2 == 0 else value[0] < best[0]):
            best = value
    assert best is not None
    return best


def _written(finished: Round, team: int) -> int:
    result = finished.result
    assert result is not None
    return result.points[team] - result.points[1 - team]


@pytest.mark.parametrize(("seed", "order"), [(3, 0), (4, 1), (5, 2), (8, 3), (11, 0), (12, 2)])
def test_the_judge_values_each_choice_as_best_play_on_its_own_deals_would(
    seed: int, order: int
) -> None:
    rnd = _moment(seed, 7, order)
    assert rnd is not None
    seat = rnd.to_act
    assert seat is not None
    view = rnd.view(seat)
    deals = 24
    verdict = judge(rnd, Random(seed), deals, early_stop=False)
    # the same deals, drawn again from the same seed
    sampler = GuessSampler.of_view(view)
    rng = Random(seed)
    guessed = [sampler.sample(rng) for _ in range(deals)]
    knowledge = knowledge_of(view)
    team = seat & 1
    per_choice: list[list[int]] = []
    for choice in verdict.choices:
        values = []
        for hands in guessed:
            base = rebuild_round(view, knowledge, hands)
            base.push(choice.actions[0])
            values.append(_written(_brute(base)[1], team))
        per_choice.append(values)
    for choice, values in zip(verdict.choices, per_choice, strict=True):
        assert choice.written == pytest.approx(sum(values) / deals)
    for i, choice in enumerate(verdict.choices):
        best = sum(1 for d in range(deals) if per_choice[i][d] >= max(v[d] for v in per_choice))
        assert choice.best == best


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), trick=st.integers(5, 7), order=st.integers(0, 3))
@example(seed=815, trick=7, order=0)  # found hopeless on the 40th and last deal
def test_an_early_stop_never_hides_a_clear_puzzle(seed: int, trick: int, order: int) -> None:
    rnd = _moment(seed, trick, order)
    if rnd is None:
        return
    quick = judge(rnd, Random(seed), 40)
    full = judge(rnd, Random(seed), 40, early_stop=False)
    if not quick.complete:
        assert not full.clear
        assert quick.deals < full.deals
    else:
        assert quick == full


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), trick=st.integers(4, 7), order=st.integers(0, 3))
def test_a_verdict_covers_every_legal_card_once_and_says_clear_only_when_it_is(
    seed: int, trick: int, order: int
) -> None:
    rnd = _moment(seed, trick, order)
    if rnd is None:
        return
    seat = rnd.to_act
    assert seat is not None
    verdict = judge(rnd, Random(seed), 32, early_stop=False)
    legal = {a.card for a in rnd.view(seat).legal_actions if isinstance(a, Play)}
    judged = [a.card for c in verdict.choices for a in c.actions if isinstance(a, Play)]
    assert sorted(judged) == sorted(legal)
    writtens = [c.written for c in verdict.choices]
    assert writtens == sorted(writtens, reverse=True)
    assert all(0 <= c.best <= verdict.deals for c in verdict.choices)
    assert verdict.choices[0].best >= 1
    assert verdict.clear == (
        len(verdict.choices) > 1
        and verdict.choices[0].best >= BEST_SHARE * verdict.deals
        and verdict.choices[0].written - verdict.choices[1].written >= MIN_GAP
    )
    assert judge(rnd, Random(seed), 32, early_stop=False) == verdict


def test_a_bid_is_judged_over_every_bid_the_seat_may_make() -> None:
    rnd = Round.from_seed(2_000_079, 3, DEFAULT_RULES)
    seat = rnd.to_act
    assert seat is not None
    verdict = judge(rnd, Random(1), 1, early_stop=False)
    assert verdict.kind == "bid"
    assert {c.actions[0] for c in verdict.choices} == set(rnd.view(seat).legal_actions)
    assert verdict.deals == 1
    assert verdict.typical is not None
    assert sum(h.bit_count() for h in verdict.typical) == 32


def test_a_finished_round_has_nothing_to_judge() -> None:
    rnd = _moment(3, 7, 0)
    assert rnd is not None
    while rnd.phase is not Phase.FINISHED:
        seat = rnd.to_act
        assert seat is not None
        rnd.push(rnd.view(seat).legal_actions[0])
    with pytest.raises(ValueError, match="nobody is to act"):
        judge(rnd, Random(0))


def test_a_judgement_told_what_is_wanted_completes_with_the_same_verdict_or_gives_up() -> None:
    """``judge(wanted=...)`` only stops sooner: a verdict it completes is the plain one, and
    it gives up (incomplete) when none of the wanted cards' choices can be best."""
    import json
    from pathlib import Path

    from bela.lab.puzzle_check import moment_of

    sample = Path(__file__).parents[1] / "puzzles" / "fixtures" / "sample.jsonl"
    lines = [json.loads(t) for t in sample.read_text().splitlines() if t.strip()]
    cleared = 0
    for line in lines[:6]:
        rnd = moment_of(line)
        assert rnd.to_act is not None
        legal = sorted({a.card for a in rnd.view(rnd.to_act).legal_actions if isinstance(a, Play)})
        plain = judge(rnd, Random(1), 24, share=0.94)
        for card in legal:
            told = judge(rnd, Random(1), 24, share=0.94, wanted={card})
            if told.complete:
                assert told == plain
            assert told.deals <= plain.deals
        best = {a.card for a in plain.answer if isinstance(a, Play)}
        if plain.clear:
            assert judge(rnd, Random(1), 24, share=0.94, wanted=best) == plain
            assert not judge(rnd, Random(1), 24, share=0.94, wanted=set(legal) - best).complete
            cleared += 1
    assert cleared >= 3
