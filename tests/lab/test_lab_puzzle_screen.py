"""The generator's screen lets most cheapest-card moments go before their full judgement."""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest

from bela.ai import make_bot
from bela.engine import Card, Phase, Play, Round
from bela.engine.rules import DEFAULT_RULES
from bela.engine.tricks import CARD_POINTS
from bela.lab import puzzle_gen
from bela.lab.puzzle_figures import is_cheapest
from bela.lab.puzzle_judge import Choice, Verdict


def _moment() -> Round:
    """A moment of play where the seat to act has legal cards of different worth."""
    for seed in range(1, 200):
        rnd = Round.from_seed(seed, seed % 4, DEFAULT_RULES)
        bot = make_bot("normal")
        rng = Random(seed)
        while rnd.phase is not Phase.FINISHED:
            seat = rnd.to_act
            assert seat is not None
            if rnd.phase is Phase.PLAYING and rnd.trump is not None:
                legal = {a.card for a in rnd.view(seat).legal_actions if isinstance(a, Play)}
                worth = {CARD_POINTS[int(rnd.trump) * 32 + int(c)] for c in legal}
                if len(worth) >= 2:
                    return rnd
            rnd.push(bot.act(rnd.view(seat), rng))
    raise AssertionError("no moment with cards of different worth")


def _verdict(rnd: Round, first: Card, second: Card) -> Verdict:
    assert rnd.to_act is not None
    choices = (Choice((Play(first),), 20.0, 12), Choice((Play(second),), 0.0, 0))
    return Verdict("card", rnd.to_act, choices, 12, True)


def test_a_trump_jack_is_worth_most_and_a_plain_seven_least() -> None:
    jack_of_trumps, seven = Card(4), Card(0)  # suit 0: 7 = rank 0, J = rank 4
    assert is_cheapest([jack_of_trumps, seven], [seven], trump=0)
    assert not is_cheapest([jack_of_trumps, seven], [jack_of_trumps], trump=0)
    # the same jack in a plain suit is worth 2, less than a ten's 10
    ten = Card(3)
    assert is_cheapest([jack_of_trumps, ten], [jack_of_trumps], trump=1)


def _worth(rnd: Round, c: Card) -> int:
    assert rnd.trump is not None
    return CARD_POINTS[int(rnd.trump) * 32 + int(c)]


def test_the_cheapest_cards_are_wanted_only_when_the_draw_keeps_them() -> None:
    rnd = _moment()
    assert rnd.to_act is not None
    legal = sorted({a.card for a in rnd.view(rnd.to_act).legal_actions if isinstance(a, Play)})
    low = min(_worth(rnd, c) for c in legal)
    cheap = {c for c in legal if _worth(rnd, c) == low}
    assert cheap and cheap != set(legal)
    assert puzzle_gen._wanted_cards(rnd, frozenset(), True) == frozenset(legal)
    assert puzzle_gen._wanted_cards(rnd, frozenset(), False) == frozenset(legal) - cheap


def test_a_look_answered_by_a_cheapest_card_is_kept_only_when_the_draw_keeps_it() -> None:
    rnd = _moment()
    assert rnd.to_act is not None
    legal = sorted({a.card for a in rnd.view(rnd.to_act).legal_actions if isinstance(a, Play)})
    cheap = min(legal, key=lambda c: _worth(rnd, c))
    dear = max(legal, key=lambda c: _worth(rnd, c))
    settings = puzzle_gen.GenSettings()
    assert puzzle_gen._keeps(rnd, _verdict(rnd, cheap, dear), settings, True)
    assert not puzzle_gen._keeps(rnd, _verdict(rnd, cheap, dear), settings, False)
    assert puzzle_gen._keeps(rnd, _verdict(rnd, dear, cheap), settings, False)


def test_a_moment_whose_every_card_would_repeat_a_key_of_the_pack_is_not_judged() -> None:
    from bela.lab.puzzle_figures import moment_key

    rnd = _moment()
    assert rnd.to_act is not None
    view = rnd.view(rnd.to_act)
    trick = len(rnd.tricks) + 1
    keys = {moment_key(view, trick, a.card) for a in view.legal_actions if isinstance(a, Play)}
    assert puzzle_gen._all_known(rnd, frozenset(keys))
    assert not puzzle_gen._all_known(rnd, frozenset(list(keys)[1:]))


def test_a_look_whose_best_card_would_repeat_a_known_key_is_not_judged_in_full() -> None:
    from bela.lab.puzzle_figures import moment_key

    rnd = _moment()
    assert rnd.to_act is not None and rnd.trump is not None
    view = rnd.view(rnd.to_act)
    trick = len(rnd.tricks) + 1
    legal = sorted({a.card for a in view.legal_actions if isinstance(a, Play)})
    first, second = legal[0], legal[-1]
    known = frozenset({moment_key(view, trick, first)})
    settings = replace(puzzle_gen.GenSettings(), known=known)
    assert not puzzle_gen._keeps(rnd, _verdict(rnd, first, second), settings, True)
    if moment_key(view, trick, second) not in known:
        assert puzzle_gen._keeps(rnd, _verdict(rnd, second, first), settings, True)
    assert first not in puzzle_gen._wanted_cards(rnd, known, True)


def test_a_deal_does_not_give_again_a_puzzle_whose_key_the_pack_has() -> None:
    from bela.lab.puzzle_figures import facts_of

    quick = puzzle_gen.GenSettings(bids=False, bot_check=False, from_trick=4)
    found = puzzle_gen.puzzles_of_deal(6300010, quick)
    facts = [facts_of(p) for p in found]
    keys = frozenset(f.key for f in facts if f is not None)
    assert keys
    again = puzzle_gen.puzzles_of_deal(6300010, replace(quick, known=keys))
    assert not {f.key for p in again if (f := facts_of(p)) is not None} & keys


def test_the_generator_keeps_a_cheapest_card_puzzle_only_as_the_draw_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bela.lab.puzzle_figures import facts_of

    quick = puzzle_gen.GenSettings(bids=False, bot_check=False, from_trick=4)

    def cheapest(keep: float) -> tuple[int, int]:
        monkeypatch.setattr(puzzle_gen, "CHEAP_KEEP", keep)
        found = [p for s in range(6300009, 6300040) for p in puzzle_gen.puzzles_of_deal(s, quick)]
        facts = [f for f in map(facts_of, found) if f is not None]
        return sum(f.cheapest for f in facts), len(facts)

    kept_all, _ = cheapest(1.0)
    assert kept_all > 0
    kept_none, found_none = cheapest(0.0)
    assert kept_none == 0 and found_none > 0


def test_a_run_asked_for_no_cheapest_card_puzzles_finds_none() -> None:
    from bela.lab.puzzle_figures import facts_of

    quick = puzzle_gen.GenSettings(bids=False, bot_check=False, from_trick=4, cheap_keep=0.0)
    found = [p for s in range(6300009, 6300040) for p in puzzle_gen.puzzles_of_deal(s, quick)]
    facts = [f for f in map(facts_of, found) if f is not None]
    assert facts and not any(f.cheapest for f in facts)
    every = replace(quick, cheap_keep=1.0)
    found = [p for s in range(6300009, 6300040) for p in puzzle_gen.puzzles_of_deal(s, every)]
    assert any(f.cheapest for f in map(facts_of, found) if f is not None)
