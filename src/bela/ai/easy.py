"""The easy player: plain rules of thumb, no inference, no look-ahead.

A sensible beginner, never random:

* bidding: counts trump J (20), 9 (14), A (11), 5 for every trump, and 11 for
  each side ace; names its best suit at 46 or more (the forced dealer always);
* leading: a master (the highest card still out in its suit, counting the
  cards gone), side suits first, the one worth most; with none, its cheapest
  card;
* following: if the partner is winning and nobody can take the trick from
  him (he is last but one, or his card is a master), gives him its most
  valuable side card; if an opponent is winning and it can beat the card,
  the cheapest card that beats it; otherwise its cheapest card;
* bela is always announced.

It counts the cards played but deduces nothing about who holds what, plans
nothing beyond the trick on the table, and never plays the endgame exactly;
that is what separates it from ``normal`` (see docs/bots.md for the margin).
"""

from __future__ import annotations

from random import Random
from typing import Final

from bela.ai.base import claim_action, play_action
from bela.engine import Action, Call, Pass, Phase, Play, SeatView, Suit
from bela.engine.cards import ALL_CARDS_MASK, SUIT_MASK
from bela.engine.tricks import BEATS, CARD_POINTS, TRUMP_STRENGTH

__all__ = ["EasyBot"]

_PLAIN_STRENGTH: Final = (0, 1, 2, 6, 3, 4, 5, 7)
_TRUMP_COUNT: Final = {4: 20, 2: 14, 7: 11}  # J, 9, A of trump by natural rank
CALL_AT: Final = 46  # 50 left the dealer forced in 60% of self-play rounds; 46: 36%


class EasyBot:
    """The ``easy`` level."""

    name = "easy"

    def act(self, view: SeatView, rng: Random) -> Action:
        if view.phase is Phase.BIDDING:
            return _bid(view)
        claim = claim_action(view)
        if claim is not None:
            return claim
        return play_action(view, _card(view))


def _bid(view: SeatView) -> Action:
    best, best_count = 0, -1
    for suit in range(4):
        count = 0
        for c in view.hand:
            if c >> 3 == suit:
                count += _TRUMP_COUNT.get(c & 7, 0) + 5
            elif c & 7 == 7:
                count += 11
        if count > best_count:
            best, best_count = suit, count
    if Pass() not in view.legal_actions or best_count >= CALL_AT:
        return Call(Suit(best))
    return Pass()


def _strength(card: int, trump: int) -> int:
    return 10 + TRUMP_STRENGTH[card & 7] if card >> 3 == trump else _PLAIN_STRENGTH[card & 7]


def _card(view: SeatView) -> int:
    assert view.trump is not None
    trump = int(view.trump)
    base = trump * 32
    legal = sorted({int(a.card) for a in view.legal_actions if isinstance(a, Play)})
    gone = 0
    for c in view.played:
        gone |= 1 << c
    for c in view.hand:
        gone |= 1 << c
    out = ALL_CARDS_MASK & ~gone

    def master(card: int) -> bool:
        return not BEATS[base + card] & SUIT_MASK[card >> 3] & out

    def cheapest(cards: list[int]) -> int:
        return min(cards, key=lambda c: (CARD_POINTS[base + c], _strength(c, trump)))

    if not view.trick:
        masters = [c for c in legal if master(c)]
        if masters:
            return max(masters, key=lambda c: (c >> 3 != trump, CARD_POINTS[base + c]))
        return cheapest(legal)
    trick = view.trick
    win, at = trick[0], 0
    for i in range(1, len(trick)):
        if BEATS[base + win] >> trick[i] & 1:
            win, at = trick[i], i
    leader = view.trick_leader if view.trick_leader is not None else view.seat
    partner_winning = (leader + at) % 4 == (view.seat + 2) % 4
    if partner_winning and (len(trick) == 3 or master(win)):
        return max(
            legal,
            key=lambda c: (c >> 3 != trump, CARD_POINTS[base + c], -_strength(c, trump)),
        )
    beaters = [c for c in legal if BEATS[base + win] >> c & 1]
    if beaters and not partner_winning:
        return min(beaters, key=lambda c: _strength(c, trump))
    return cheapest(legal)
