"""Explicit deals for the theme tests: each moment holds one idea and its control.

Trump is hearts, called by seat 1 (seat 0 says dalje first); seat 3 deals, so seat 0
leads the first trick. No hand holds a zvanje. Each deal lists the eight cards of
seats 0..3 (six in hand, then two in the talon).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from random import Random

from bela.ai import make_bot
from bela.engine import Action, Pass, Phase, Play, Round
from bela.engine.actions import parse_action
from bela.engine.rules import DEFAULT_RULES
from bela.lab.puzzle_judge import Choice, Verdict

VOID_DEAL = (
    "AS 10S 9S JH 8H AD 7D 8C",
    "KS 8S AH 10D 9D KC QC 9C",
    "7H 9H QD JD 8D AC 10C JC",  # seat 2: no spades
    "QS JS 7S 10H QH KH KD 7C",  # seat 3: bela (KH QH)
)
FOLLOW_DEAL = (  # VOID_DEAL with the 7S in seat 2's hand and the AC in seat 3's
    "AS 10S 9S JH 8H AD 7D 8C",
    "KS 8S AH 10D 9D KC QC 9C",
    "7H 9H QD JD 8D 7S 10C JC",
    "QS JS AC 10H QH KH KD 7C",
)
CLUB_DEAL = (  # seat 0 holds KC 8C under the partner's AC 10C JC
    "AS 10S 9S JH 8H AD KC 8C",
    "KS 8S AH 10D 9D 7D QC 9C",
    "7H 9H QD JD 8D AC 10C JC",
    "QS JS 7S 10H QH KH KD 7C",
)
LONG_CLUB_DEAL = (  # seat 0 holds KC JC 9C 7C under the partner's AC 10C QC
    "AS 10S JH 8H KC JC 9C 7C",
    "KS 8S 9S AH 10D 9D 7D AD",
    "7H 9H QD JD 8D AC 10C QC",
    "QS JS 7S 8C 10H QH KH KD",
)
TEN_DEAL = (  # seat 0 holds 10C 8C; the AC and KC are out
    "AS 10S 9S JH 8H AD 10C 8C",
    "KS 8S AH 10D 9D 7D QC 9C",
    "7H 9H QD JD 8D AC KC JC",
    "QS JS 7S 10H QH KH KD 7C",
)
DRY_DEAL = (  # seat 2 holds neither spades nor trumps: it discards on a spade
    "AS 10S 9S JH 8H AD 7D 8C",
    "KS 8S AH 10D 9D QC 7H 9H",
    "QD JD 8D AC 10C KC 9C 7C",
    "QS JS 7S 10H QH KH KD JC",
)


def deal(eights: Sequence[str], plays: str = "") -> Round:
    """Seat 1 names hearts after seat 0's dalje, then ``plays`` (cards, in order)."""
    hands = [h.split() for h in eights]
    rnd = Round.from_hands(3, [h[:6] for h in hands], [h[6:] for h in hands])
    rnd.push(Pass())
    rnd.push(parse_action("call H"))
    for text in plays.split():
        rnd.push(parse_action(text))
    assert rnd.phase is Phase.PLAYING
    return rnd


def verdict(rnd: Round, answer: str, runner_up: str, gap: float = 20.0) -> Verdict:
    """A clear verdict at ``rnd``: ``answer`` first, ``runner_up`` ``gap`` points behind."""
    seat = rnd.to_act
    assert seat is not None
    legal = rnd.view(seat).legal_actions

    def play(text: str) -> Action:
        action = parse_action(text)
        assert isinstance(action, Play) and action in legal, text
        return action

    choices = (Choice((play(answer),), 30.0, 96), Choice((play(runner_up),), 30.0 - gap, 10))
    return Verdict("card", seat, choices, 96, True)


def bot_moments(seeds: range) -> Iterator[Round]:
    """Every card moment with a choice in the deals of ``seeds``, played by normal bots."""
    bot = make_bot("normal")
    for seed in seeds:
        rnd = Round.from_seed(seed, seed % 4, DEFAULT_RULES)
        rng = Random(seed)
        while rnd.phase is not Phase.FINISHED:
            seat = rnd.to_act
            assert seat is not None
            view = rnd.view(seat)
            if view.phase is Phase.PLAYING and len({a for a in view.legal_actions}) >= 2:
                yield rnd.copy()
            rnd.push(bot.act(view, rng))
