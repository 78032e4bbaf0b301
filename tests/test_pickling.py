"""The engine's values survive pickle, in whichever build runs (the lab's workers need it).

A mypyc-compiled frozen dataclass does not pickle by itself: ``bela arena --jobs 2`` hung on
the compiled build, its workers unable to read the rules they were sent. The differential
test (``differential_trace.py``) pickles every round's rules, rounds, a view and the actions
in both builds; this checks each kind of value in the build this process runs.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from bela.engine import Call, Card, Claim, Match, Pass, Phase, Play, Round, Rules, Suit
from bela.search.sampling import BidEvidence, knowledge_of
from bela.search.solver import Position, Solver


def zvanja() -> tuple[Any, ...]:
    """The zvanja of the first seeded rounds that have any."""
    found: tuple[Any, ...] = ()
    seed = 0
    while len(found) < 3:
        rnd = Round.from_seed(seed, 0)
        rnd.play_out_random(random.Random(seed))
        found += tuple(z for s in range(4) for z in rnd.declarations(s))
        seed += 1
    return found


def done() -> Round:
    rnd = Round.from_seed(5, 1)
    rnd.play_out_random(random.Random(1))
    return rnd


def playing() -> Round:
    rnd = Round.from_seed(7, 0, Rules(visi=True))
    while rnd.phase is Phase.BIDDING:
        rnd.push(rnd.legal_actions()[-1])
    return rnd


def seat_view() -> Any:
    rnd = playing()
    assert rnd.to_act is not None
    return rnd.view(rnd.to_act)


def solved(pos: Position) -> Any:
    return Solver(pos.trump).solve(pos)


# Each value built only by the test that pickles it: built all at once for every test, the
# solved position alone made the ten tests take about fifty seconds between them.
VALUES: dict[str, Callable[[], Any]] = {
    "rules": lambda: Rules(visi=True, stiglja_bonus=100),
    "actions": lambda: (Play(Card(3), True), Call(Suit.CLUBS), Pass(), Claim()),
    "result": lambda: done().result,
    "view": seat_view,
    "zvanja": zvanja,
    "trick": lambda: done().tricks[0],
    "position": lambda: Position.from_round(playing()),
    "solved": lambda: solved(Position.from_round(playing())),
    "evidence": BidEvidence,
    "knowledge": lambda: knowledge_of(seat_view()),
}


@pytest.mark.parametrize("name", list(VALUES))
def test_a_value_comes_back_equal(name: str) -> None:
    value = VALUES[name]()
    assert pickle.loads(pickle.dumps(value)) == value


def test_a_round_comes_back_playing_on_the_same() -> None:
    rnd = Round.from_seed(11, 2, Rules(dosta=True)).with_claim_context((100, 480), 501)
    rnd.push(rnd.legal_actions()[0])
    back = pickle.loads(pickle.dumps(rnd))
    assert back.view(0) == rnd.view(0) and back.actions == rnd.actions
    assert back.play_out_random(random.Random(3)) == rnd.play_out_random(random.Random(3))


def test_a_match_comes_back_with_its_rounds() -> None:
    match = Match.new(3, target=501, rules=Rules(no_bela=True))
    back = pickle.loads(pickle.dumps(match))
    assert (back.seed, back.target, back.rules) == (match.seed, match.target, match.rules)


def test_the_pickled_fields_of_a_round_are_all_its_slots() -> None:
    from bela.engine import round as round_module

    slots = getattr(Round, "__slots__", round_module._ROUND_FIELDS)  # none when compiled
    assert tuple(slots) == round_module._ROUND_FIELDS
