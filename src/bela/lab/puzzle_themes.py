"""The themes of a puzzle, as a player names what a moment is about.

A puzzle may have several: its place in the trick (lead, second, third, fourth
hand), and what the answer does. They are read off the moment and the judge's
verdict, never guessed from the answer's value alone:

* ``overtrump``: trumps are on the table and the answer is a higher trump;
* ``namazati``: the partner is winning the trick and the answer gives them an ace or
  a ten without taking the trick from them (giving points to the partner);
* ``save-ten``: the next-best choice is to play a ten of the seat's, and the answer,
  which keeps it, is at least ten written points better on average;
* ``bela``: the answer is the trump king or queen of a seat holding both;
* ``last-tricks``: the sixth trick or later;
* bids: ``call`` (the answer names trump), ``pass`` (dalje is right), ``pod-mus``
  (the dealer must name trump: which suit).
"""

from __future__ import annotations

from typing import Final

from bela.engine import Call, Pass, Phase, Play, Round
from bela.engine.cards import SUIT_MASK
from bela.engine.tricks import winning_index
from bela.engine.view import SeatView
from bela.foundation.puzzle_themes import ROLES, THEMES
from bela.lab.puzzle_judge import MIN_GAP, Verdict

__all__ = ["ROLES", "THEMES", "theme_moment", "themes_of"]


_TEN: Final = 3
_JACK: Final = 4
_QUEEN: Final = 5
_KING: Final = 6
_ACE: Final = 7
_PLAIN_ORDER: Final = (7, 3, 6, 5, 4, 2, 1, 0)
"""A plain suit's ranks from the highest in a trick: A 10 K Q J 9 8 7."""


def themes_of(rnd: Round, verdict: Verdict) -> tuple[str, ...]:
    """The themes of the moment ``rnd`` is at, given its verdict (in ``THEMES`` order)."""
    seat = rnd.to_act
    if seat is None:
        raise ValueError("the round is over: nobody is to act")
    view = rnd.view(seat)
    found: set[str] = set()
    if view.phase is Phase.BIDDING:
        answer = verdict.answer[0]
        if Pass() not in view.legal_actions:
            found.add("pod-mus")
        elif isinstance(answer, Call):
            found.add("call")
        elif isinstance(answer, Pass):
            found.add("pass")
        return tuple(t for t in THEMES if t in found)
    assert view.trump is not None
    trump = int(view.trump)
    trick = [int(c) for c in view.trick]
    found.add(ROLES[len(trick)])
    cards = [int(a.card) for a in verdict.answer if isinstance(a, Play)]
    if len(view.tricks) + 1 >= 6:
        found.add("last-tricks")
    if trick:
        at = winning_index(trick, trump)
        winner = trick[at]
        leader = (seat - len(trick)) % 4
        partner_wins = (leader + at) % 4 == (seat + 2) % 4
        if winner >> 3 == trump and any(
            c >> 3 == trump and winning_index([*trick, c], trump) == len(trick) for c in cards
        ):
            found.add("overtrump")
        if partner_wins and any(
            c >> 3 != trump and (c & 7) in (_TEN, _ACE) and winning_index([*trick, c], trump) == at
            for c in cards
        ):
            found.add("namazati")
    hand = [int(c) for c in view.hand]
    tens = {c for c in hand if c & 7 == _TEN}
    if tens and not tens & set(cards) and len(verdict.choices) > 1:
        runner_up = verdict.choices[1]
        played = {int(a.card) for a in runner_up.actions if isinstance(a, Play)}
        if played & tens and verdict.gap >= MIN_GAP:
            found.add("save-ten")
    king, queen = trump * 8 + _KING, trump * 8 + _QUEEN
    if king in hand and queen in hand and set(cards) & {king, queen}:
        found.add("bela")
    return tuple(t for t in THEMES if t in found)


def theme_moment(rnd: Round) -> bool:
    """A card moment that may be one of the rarer themes: judge it whatever its trick.

    Cheap (no search, the seat's own view only), so the generator can ask it of every
    card moment and judge these always: left to chance, the moments that can only be
    namazati, overtrumping, bela, leading to the partner's void, unblocking, driving
    out an ace, drawing trumps, štiglja or a close count are a few in a hundred puzzles.
    It is a chance, not the theme: the verdict decides that (``themes_of``). A moment
    with a single choice is never one (nothing to judge).
    """
    seat = rnd.to_act
    if seat is None or rnd.phase is not Phase.PLAYING or rnd.trump is None:
        return False
    view = rnd.view(seat)
    legal = sorted({int(a.card) for a in view.legal_actions if isinstance(a, Play)})
    if len(legal) < 2:
        return False
    return any(chance(view, legal) for chance in _CHANCES)


def _partner_wins(view: SeatView) -> bool:
    """The seat's partner is winning the trick on the table."""
    trick = [int(c) for c in view.trick]
    if not trick or view.trick_leader is None or view.trump is None:
        return False
    at = winning_index(trick, int(view.trump))
    return (view.trick_leader + at) % 4 == (view.seat + 2) % 4


def _namazati_chance(view: SeatView, legal: list[int]) -> bool:
    """The partner wins the trick and the seat may give them a plain ace or ten."""
    assert view.trump is not None
    trump = int(view.trump)
    return _partner_wins(view) and any(c >> 3 != trump and (c & 7) in (_TEN, _ACE) for c in legal)


def _overtrump_chance(view: SeatView, legal: list[int]) -> bool:
    """An opponent's (or anyone's) trump wins the trick and the seat may play a higher one."""
    assert view.trump is not None
    trump = int(view.trump)
    trick = [int(c) for c in view.trick]
    if not trick or trick[winning_index(trick, trump)] >> 3 != trump:
        return False
    return any(c >> 3 == trump and winning_index([*trick, c], trump) == len(trick) for c in legal)


def _bela_chance(view: SeatView, legal: list[int]) -> bool:
    """The seat holds the trump king and queen and may play one of them now (bela)."""
    assert view.trump is not None
    pair = {int(view.trump) * 8 + _KING, int(view.trump) * 8 + _QUEEN}
    hand = {int(c) for c in view.hand}
    return pair <= hand and bool(pair & set(legal))


def _partner_void_chance(view: SeatView, legal: list[int]) -> bool:
    """At lead, holding a plain suit the partner has shown void in (``shown_voids``)."""
    if view.trick or view.trump is None:
        return False
    trump = int(view.trump)
    voids = shown_voids(view)[(view.seat + 2) % 4]
    return any(c >> 3 in voids and c >> 3 != trump for c in legal)


def _drive_out_chance(view: SeatView, legal: list[int]) -> bool:
    """At lead, holding a plain card that only its suit's ace can beat while that ace is
    still out (``forces_ace``)."""
    if view.trick or view.trump is None:
        return False
    out = _unseen(view)
    return any(forces_ace(c, int(view.trump), out) for c in legal)


def forces_ace(card: int, trump: int, unseen: int) -> bool:
    """``card`` is a plain card, not an ace, whose suit's ace is among the ``unseen`` cards
    and every card between them is seen (the ten; the king once the ten is gone; ...).

    Led, it can be beaten in its suit by the ace alone, and a player holding the ace who
    follows must beat it (rules § 8: beat the highest card of the suit led when you can),
    so whoever holds the ace must give it up now, and the seat's next cards of the suit
    rise.
    """
    suit = card >> 3
    if suit == trump or card & 7 == _ACE or not unseen >> (suit * 8 + _ACE) & 1:
        return False
    above = [r for r in _PLAIN_ORDER[: _PLAIN_ORDER.index(card & 7)] if r != _ACE]
    return not any(unseen >> (suit * 8 + r) & 1 for r in above)


def _draw_trumps_chance(view: SeatView, legal: list[int]) -> bool:
    """The callers' seat at lead with two trumps or more and a plain card, while some trump is
    still out (drawing trumps is the callers' plan; the defenders' trumps are theirs to keep)."""
    if view.trick or view.trump is None or view.caller is None or (view.caller - view.seat) % 2:
        return False
    trump = int(view.trump)
    trumps = sum(1 for c in legal if c >> 3 == trump)
    return trumps >= 2 and trumps < len(legal) and bool(_unseen(view) & SUIT_MASK[trump])


def _unblock_chance(view: SeatView, legal: list[int]) -> bool:
    """The partner led a plain suit and wins it, and the seat may follow high or low from
    two or three cards of it."""
    if not _partner_wins(view) or view.trump is None or view.trick_leader is None:
        return False
    led = int(view.trick[0]) >> 3
    if led == int(view.trump) or view.trick_leader != (view.seat + 2) % 4:
        return False
    held = [int(c) for c in view.hand if int(c) >> 3 == led]
    return 2 <= len(held) <= 3 and sum(1 for c in legal if c >> 3 == led) >= 2


def _stiglja_chance(view: SeatView, legal: list[int]) -> bool:
    """Four tricks or more are played and one team has taken every one of them."""
    del legal
    teams = {t.winner & 1 for t in view.tricks}
    return len(view.tricks) >= 4 and len(teams) == 1


def _count_chance(view: SeatView, legal: list[int]) -> bool:
    """From the fifth trick on, the call is close: to pass half of what the round will hold,
    the callers need (beyond their tricks, shown zvanja and announced bela so far) between a
    quarter and three quarters of the card points still in play."""
    del legal
    if view.caller is None or len(view.tricks) < 4:
        return False
    callers = view.caller & 1
    have = [0, 0]
    for t in view.tricks:
        have[t.winner & 1] += t.points
    rest = 162 - have[0] - have[1]
    for s, zvanja in view.shown_zvanja:
        have[s & 1] += sum(z.points for z in zvanja)
    for s in view.bela_announced:
        have[s & 1] += 20
    need = (have[0] + have[1] + rest) // 2 + 1 - have[callers]
    return rest <= 4 * need <= 3 * rest


_CHANCES: Final = (
    _namazati_chance,
    _overtrump_chance,
    _bela_chance,
    _partner_void_chance,
    _drive_out_chance,
    _draw_trumps_chance,
    _unblock_chance,
    _stiglja_chance,
    _count_chance,
)


def shown_voids(view: SeatView) -> tuple[frozenset[int], ...]:
    """The suits each seat has shown void in, by seat: it played another suit on a lead of
    that suit (a plain card on a plain lead shows it void in trumps too, since it had to
    trump). Only what the table saw: hidden voids are not guessed."""
    assert view.trump is not None
    trump = int(view.trump)
    voids: list[set[int]] = [set(), set(), set(), set()]
    tricks = [(t.leader, [int(c) for c in t.cards]) for t in view.tricks]
    if view.trick and view.trick_leader is not None:
        tricks.append((view.trick_leader, [int(c) for c in view.trick]))
    for leader, cards in tricks:
        led = cards[0] >> 3
        for i, c in enumerate(cards[1:], 1):
            if c >> 3 != led:
                voids[(leader + i) % 4].add(led)
                if c >> 3 != trump:
                    voids[(leader + i) % 4].add(trump)
    return tuple(frozenset(v) for v in voids)


def _unseen(view: SeatView) -> int:
    """The cards the seat has not seen (neither in its hand nor played), as a mask."""
    seen = 0
    for c in (*view.hand, *view.played):
        seen |= 1 << int(c)
    return ((1 << 32) - 1) & ~seen
