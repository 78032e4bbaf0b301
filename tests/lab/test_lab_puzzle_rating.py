"""The solvers' ladder that gives a card puzzle its first rating (bela.lab.puzzle_rating)."""

from __future__ import annotations

import math
from itertools import pairwise
from random import Random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bela.lab.puzzle_rating import LEVEL_RATINGS, LEVELS, PRIOR_MEAN, TRIALS, first_rating, fit

_SCALE = 400.0 / math.log(10.0)

misses_st = st.fixed_dictionaries({k: st.integers(0, TRIALS[k]) for k in LEVELS})


@given(misses_st, st.sampled_from(LEVELS))
def test_one_more_miss_never_lowers_a_rating(misses: dict[str, int], level: str) -> None:
    if misses[level] == TRIALS[level]:
        return
    more = dict(misses, **{level: misses[level] + 1})
    assert first_rating(more) > first_rating(misses)


def test_a_puzzle_every_solver_finds_is_easy_and_one_every_solver_misses_is_hard() -> None:
    none = dict.fromkeys(LEVELS, 0)
    every = {k: TRIALS[k] for k in LEVELS}
    assert first_rating(none) < PRIOR_MEAN - 200
    assert first_rating(every) > max(LEVEL_RATINGS.values())


@given(misses_st, misses_st)
def test_on_the_elo_curve_only_the_number_of_misses_counts(
    a: dict[str, int], b: dict[str, int]
) -> None:
    """The logistic model's sufficient statistic: the solvers' strengths are in the
    expectation, so which solver missed moves the rating only through how many did (a miss
    by a strong solver is rarer, which is where it says more)."""
    if sum(a.values()) == sum(b.values()):
        assert math.isclose(first_rating(a), first_rating(b), abs_tol=0.05)


def test_the_fit_finds_the_order_and_spacing_of_solvers_it_was_not_told() -> None:
    """Misses drawn from known strengths and ratings: the fit recovers the solvers' order and
    puts the puzzles in the order of their true ratings, by and large."""
    true = {k: 1200.0 + 150.0 * i for i, k in enumerate(LEVELS)}
    true["normal"], true["hard-2"] = true["hard-2"], true["normal"]  # not the prior's order
    rng = Random(36)
    ratings = [rng.gauss(1500.0, 300.0) for _ in range(1500)]
    trials = dict.fromkeys(LEVELS, 4)
    pack = [
        {
            k: sum(rng.random() > 1 / (1 + math.exp((d - true[k]) / _SCALE)) for _ in range(4))
            for k in LEVELS
        }
        for d in ratings
    ]
    fitted, strengths = fit(pack, trials)
    assert sorted(LEVELS, key=strengths.__getitem__) == sorted(LEVELS, key=true.__getitem__)
    gaps = [strengths["hard"] - strengths["easy"], true["hard"] - true["easy"]]
    assert abs(gaps[0] - gaps[1]) < 150
    pairs = [(a, b) for a, b in zip(fitted, ratings, strict=True)]
    agree = sum((a1 - a2) * (b1 - b2) > 0 for (a1, b1), (a2, b2) in pairwise(pairs))
    assert agree > 0.7 * (len(pairs) - 1)


@given(misses_st)
@example({"easy": 1, "normal": 0, "hard-2": 3, "hard-4": 4, "hard-8": 3, "hard-16": 4, "hard": 3})
def test_a_first_rating_is_a_rating_a_pack_line_may_carry(misses: dict[str, int]) -> None:
    """A first rebuild of the pack wrote -1321 for this puzzle (Newton's steps overshot),
    and the pack's reader skipped it."""
    from bela.lab.puzzle_rating import HIGHEST, LOWEST

    assert LOWEST <= first_rating(misses) <= HIGHEST


# --- bid puzzles on the same ladder -----------------------------------------------------
def _bid_line() -> dict[str, object]:
    import json
    from pathlib import Path

    fixture = Path(__file__).parents[1] / "puzzles" / "fixtures" / "bid_puzzles.jsonl"
    return dict(json.loads(fixture.read_text(encoding="utf-8").splitlines()[0]))


def test_at_a_bid_an_also_good_answer_is_half_a_miss(monkeypatch: pytest.MonkeyPatch) -> None:
    from bela.engine.actions import parse_action
    from bela.lab import puzzle_rating
    from bela.lab.puzzle_check import moment_of

    line = _bid_line()
    line["answer"], line["bid"] = ["call D"], {"good": ["call H"], "versus": []}
    picks = {"easy": "dalje", "normal": "call H", "hard": "call D"}

    class Fixed:
        def __init__(self, text: str) -> None:
            self.text = text

        def act(self, view: object, rng: object) -> object:
            return parse_action(self.text)

    def fixed(level: str) -> Fixed:
        return Fixed(picks.get(level, "call H" if level in ("hard-2", "hard-4") else "call D"))

    monkeypatch.setattr(puzzle_rating, "solver", fixed)
    rnd = moment_of(line)
    misses = puzzle_rating.misses_of(line, rnd)
    assert misses["easy"] == 1 and misses["normal"] == 0.5 and misses["hard"] == 0
    assert misses["hard-2"] == 0.5 * TRIALS["hard-2"] and misses["hard-8"] == 0


def test_the_hard_bot_with_fewer_deals_searches_a_bid_on_fewer_too() -> None:
    from bela.ai.hard import HardBot
    from bela.lab.puzzle_rating import solver

    samples = []
    for level in LEVELS[2:]:
        bot = solver(level)
        assert isinstance(bot, HardBot)
        samples.append(bot.config.bid_samples)
    assert samples == sorted(samples) and len(set(samples)) == len(samples)


def test_a_bid_line_is_rated_against_the_bid_strengths() -> None:
    from bela.lab.puzzle_rating import BID_LEVEL_RATINGS, rate_pack

    line = _bid_line()
    misses = dict(line["misses"])  # type: ignore[call-overload]
    [rated] = rate_pack([line], lambda p: (_ for _ in ()).throw(AssertionError("replayed")))
    assert rated["rating"] == round(first_rating(misses, BID_LEVEL_RATINGS))
    assert rated["rating"] != round(first_rating(misses, LEVEL_RATINGS))


def test_the_bots_a_line_names_are_the_packs() -> None:
    from bela.archive.puzzle_pack import BOTS
    from bela.lab.puzzle_rating import PACK_BOTS, bots_found

    assert PACK_BOTS == BOTS
    misses = {
        "easy": 1,
        "normal": 0,
        "hard-2": 4,
        "hard-4": 4,
        "hard-8": 4,
        "hard-16": 4,
        "hard": 2,
    }
    assert bots_found(misses) == {"easy": False, "normal": True, "hard": False}
