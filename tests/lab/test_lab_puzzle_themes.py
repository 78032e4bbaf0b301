"""A puzzle's themes, read off real moments of bot-played deals and a verdict about them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random

from bela.ai import make_bot
from bela.engine import Action, Call, Pass, Phase, Play, Round
from bela.engine.rules import DEFAULT_RULES
from bela.engine.tricks import winning_index
from bela.lab.puzzle_judge import Choice, Verdict
from bela.lab.puzzle_themes import ROLES, THEMES, themes_of


def _moments(seeds: range) -> Iterator[Round]:
    """Every decision of the deals of ``seeds``, played by normal bots."""
    bot = make_bot("normal")
    for seed in seeds:
        rnd = Round.from_seed(seed, seed % 4, DEFAULT_RULES)
        rng = Random(seed)
        while rnd.phase is not Phase.FINISHED:
            yield rnd.copy()
            seat = rnd.to_act
            assert seat is not None
            rnd.push(bot.act(rnd.view(seat), rng))


def _legal(rnd: Round) -> list[Action]:
    seat = rnd.to_act
    assert seat is not None
    return list(rnd.view(seat).legal_actions)


def _verdict(rnd: Round, answer: Action, runner_up: Action, gap: float = 20.0) -> Verdict:
    seat = rnd.to_act
    assert seat is not None
    kind = "bid" if rnd.phase is Phase.BIDDING else "card"
    choices = (Choice((answer,), 30.0, 96), Choice((runner_up,), 30.0 - gap, 10))
    return Verdict(kind, seat, choices, 96, True)


def _find(test: Callable[[Round], tuple[Action, Action] | None]) -> tuple[Round, Action, Action]:
    for rnd in _moments(range(200)):
        found = test(rnd)
        if found is not None:
            return rnd, found[0], found[1]
    raise AssertionError("no such moment in 200 deals")


def _cards(rnd: Round) -> list[Play]:
    return [a for a in _legal(rnd) if isinstance(a, Play)]


def test_namazati_is_an_ace_or_ten_given_to_the_partner_who_wins_the_trick() -> None:
    def test(rnd: Round) -> tuple[Action, Action] | None:
        if rnd.phase is not Phase.PLAYING or not rnd.trick or rnd.trump is None:
            return None
        seat = rnd.to_act
        assert seat is not None
        trick = [int(c) for c in rnd.trick]
        at = winning_index(trick, int(rnd.trump))
        if (seat - len(trick) + at) % 4 != (seat + 2) % 4:
            return None
        rich = [
            a
            for a in _cards(rnd)
            if a.card.suit != rnd.trump
            and a.card.rank.name in ("TEN", "ACE")
            and winning_index([*trick, int(a.card)], int(rnd.trump)) == at
        ]
        others = [a for a in _cards(rnd) if a not in rich]
        return (rich[0], others[0]) if rich and others else None

    rnd, answer, other = _find(test)
    assert "namazati" in themes_of(rnd, _verdict(rnd, answer, other))
    assert "namazati" not in themes_of(rnd, _verdict(rnd, other, answer))


def test_overtrumping_is_a_higher_trump_on_a_trump() -> None:
    """Who can go over a trump must: the choice is which trump, and every one is the theme."""

    def over(rnd: Round) -> tuple[Action, Action] | None:
        if rnd.phase is not Phase.PLAYING or not rnd.trick or rnd.trump is None:
            return None
        trump = int(rnd.trump)
        trick = [int(c) for c in rnd.trick]
        if trick[winning_index(trick, trump)] >> 3 != trump:
            return None
        higher = [
            a
            for a in _cards(rnd)
            if a.card.suit == trump and winning_index([*trick, int(a.card)], trump) == len(trick)
        ]
        return (higher[0], higher[1]) if len(higher) >= 2 else None

    def plain(rnd: Round) -> tuple[Action, Action] | None:
        if rnd.phase is not Phase.PLAYING or not rnd.trick or rnd.trump is None:
            return None
        trump = int(rnd.trump)
        trick = [int(c) for c in rnd.trick]
        if any(c >> 3 == trump for c in trick) or len(_cards(rnd)) < 2:
            return None
        return _cards(rnd)[0], _cards(rnd)[1]

    rnd, answer, other = _find(over)
    assert "overtrump" in themes_of(rnd, _verdict(rnd, answer, other))
    assert "overtrump" in themes_of(rnd, _verdict(rnd, other, answer))
    rnd, answer, other = _find(plain)
    assert "overtrump" not in themes_of(rnd, _verdict(rnd, answer, other))


def test_saving_a_ten_is_keeping_the_ten_the_next_choice_would_throw() -> None:
    def test(rnd: Round) -> tuple[Action, Action] | None:
        if rnd.phase is not Phase.PLAYING:
            return None
        tens = [a for a in _cards(rnd) if a.card.rank.name == "TEN"]
        if not tens:
            return None
        others = [a for a in _cards(rnd) if a.card.rank.name != "TEN"]
        return (others[0], tens[0]) if others else None

    rnd, answer, ten = _find(test)
    assert "save-ten" in themes_of(rnd, _verdict(rnd, answer, ten))
    assert "save-ten" not in themes_of(rnd, _verdict(rnd, answer, ten, gap=9.0))
    assert "save-ten" not in themes_of(rnd, _verdict(rnd, ten, answer))


def test_bela_is_the_trump_king_or_queen_of_a_seat_holding_both() -> None:
    def test(rnd: Round) -> tuple[Action, Action] | None:
        if rnd.phase is not Phase.PLAYING or rnd.trump is None:
            return None
        cards = _cards(rnd)
        pair = [
            a for a in cards if a.card.suit == rnd.trump and a.card.rank.name in ("KING", "QUEEN")
        ]
        hand = rnd.view(rnd.to_act or 0).hand
        both = sum(1 for c in hand if c.suit == rnd.trump and c.rank.name in ("KING", "QUEEN"))
        others = [a for a in cards if a not in pair]
        return (pair[0], others[0]) if both == 2 and pair and others else None

    rnd, answer, other = _find(test)
    assert "bela" in themes_of(rnd, _verdict(rnd, answer, other))
    assert "bela" not in themes_of(rnd, _verdict(rnd, other, answer))


def test_every_card_puzzle_names_its_place_in_the_trick_and_late_ones_the_last_tricks() -> None:
    seen_roles = set()
    for rnd in _moments(range(6)):
        if rnd.phase is not Phase.PLAYING or len(_cards(rnd)) < 2:
            continue
        cards = _cards(rnd)
        themes = themes_of(rnd, _verdict(rnd, cards[0], cards[1]))
        role = ROLES[len(rnd.trick)]
        seen_roles.add(role)
        assert role in themes
        assert sum(t in ROLES for t in themes) == 1
        assert ("last-tricks" in themes) == (len(rnd.tricks) + 1 >= 6)
        assert list(themes) == [t for t in THEMES if t in themes]
    assert seen_roles == set(ROLES)


def test_bid_themes_say_call_pass_or_pod_mus() -> None:
    forced = None
    free = None
    for rnd in _moments(range(40)):
        if rnd.phase is not Phase.BIDDING:
            continue
        if Pass() in _legal(rnd):
            free = free or rnd
        else:
            forced = forced or rnd
        if forced and free:
            break
    assert forced is not None and free is not None
    call = Call(next(a.suit for a in _legal(free) if isinstance(a, Call)))
    assert themes_of(free, _verdict(free, call, Pass())) == ("call",)
    assert themes_of(free, _verdict(free, Pass(), call)) == ("pass",)
    calls = [a for a in _legal(forced) if isinstance(a, Call)]
    assert themes_of(forced, _verdict(forced, calls[0], calls[1])) == ("pod-mus",)
