"""The themes of a puzzle, as a player names what a moment is about.

A puzzle may have several: its place in the trick (lead, second, third, fourth
hand), and what the answer does. They are read off the moment and the judge's
verdict, never guessed from the answer's value alone. Each rule is exact, and says
why in its function's docstring:

* ``count-to-pad``: most of the answer's gain over the next choice comes from deals
  where the call falls with one card and not with the other, on a quarter of them or more
  (``_stakes``);
* ``stiglja``: most of it comes from deals where one team takes every trick with one
  card and not with the other (hunting or denying štiglja);
* ``draw-trumps``: at lead, the answer is a trump, the next choice a plain card, and an
  opponent may still hold a trump;
* ``drive-out-ace``: at lead, the answer is a plain card that only its suit's ace, still
  out and maybe with an opponent, can beat (``forces_ace``);
* ``unblock``: on the partner's winning lead, the answer follows with a higher card of
  the suit than it needs from a short holding;
* ``partner-void``: at lead, the answer leads a plain suit the partner has shown void
  in (``shown_voids``), while the partner may still trump it;
* ``overtrump``: trumps are on the table and the answer is a higher trump;
* ``namazati``: the partner is winning the trick and the answer gives them an ace or
  a ten without taking the trick from them (giving points to the partner);
* ``save-ten``: the next-best choice is to play a ten of the seat's, and the answer,
  which keeps it, is at least ten written points better on average;
* ``bela``: the answer is the trump king or queen of a seat holding both;
* ``last-trick``: from the sixth trick on, the answer takes the eighth trick (its 10)
  for the seat's team where the next choice gives it away, on a quarter of the guessed
  deals or more (``_keeps_last_trick``);
* ``last-tricks``: the sixth trick or later;
* bids: ``call`` (the answer names trump), ``pass`` (dalje is right), ``pod-mus``
  (the dealer must name trump: which suit).

There is no theme for *not* overtrumping: in this game a player who cannot follow
and can go over the trump on the table must (``docs/rules.md`` § 8, with no
exemption for a winning partner), so that is never a choice; which trump to go over
with is, and that is ``overtrump``.

``count-to-pad``, ``stiglja`` and ``last-trick`` need outcomes the verdict does not
keep: they are read on ``STAKE_DEALS`` guessed deals of their own, seeded by the
moment, so the same puzzle gets the same themes on every machine and either build
(on the shipped pack: 10 ms a puzzle at the median, 34 ms at the 90th percentile,
0.3 s at most; the first two tricks are left out, where the solves take up to seconds).
``theme_moment`` is the generator's cheap look for moments that may hold one of the
rarer themes.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Final

from bela.engine import Call, Card, Pass, Phase, Play, Round
from bela.engine.cards import SUIT_MASK
from bela.engine.tricks import winning_index
from bela.engine.view import SeatView
from bela.foundation.puzzle_themes import ROLES, THEMES
from bela.lab.puzzle_judge import MIN_GAP, Verdict
from bela.lab.puzzle_stakes import last_trick_takers, outcomes
from bela.search.sampling import knowledge_of

__all__ = [
    "CHANCE_THEMES",
    "ROLES",
    "STAKE_DEALS",
    "THEMES",
    "forces_ace",
    "shown_voids",
    "theme_chances",
    "theme_moment",
    "themes_of",
]


_TEN: Final = 3
_QUEEN: Final = 5
_KING: Final = 6
_ACE: Final = 7
_PLAIN_ORDER: Final = (7, 3, 6, 5, 4, 2, 1, 0)
"""A plain suit's ranks from the highest in a trick: A 10 K Q J 9 8 7."""
STAKE_DEALS: Final = 16
"""Guessed deals ``count-to-pad`` and ``stiglja`` are read on."""
_STAKE_FROM: Final = 2
"""...once this many tricks are complete (``_stake_possible``)."""
_LAST_TRICK_FROM: Final = 5
"""``last-trick`` is read once this many tricks are complete: from the sixth trick on."""


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
    other = _cards_of(verdict, 1)
    if len(view.tricks) + 1 >= 6:
        found.add("last-tricks")
    if trick:
        at = winning_index(trick, trump)
        winner = trick[at]
        partner_wins = _partner_wins(view)
        if winner >> 3 == trump and any(
            c >> 3 == trump and winning_index([*trick, c], trump) == len(trick) for c in cards
        ):
            found.add("overtrump")
        if partner_wins and any(
            c >> 3 != trump and (c & 7) in (_TEN, _ACE) and winning_index([*trick, c], trump) == at
            for c in cards
        ):
            found.add("namazati")
        if _unblocks(view, cards):
            found.add("unblock")
    elif cards and other:
        if _draws_trumps(view, cards, other):
            found.add("draw-trumps")
        if _drives_out_ace(view, cards, other):
            found.add("drive-out-ace")
        if _leads_to_partner_void(view, cards, other):
            found.add("partner-void")
    hand = [int(c) for c in view.hand]
    tens = {c for c in hand if c & 7 == _TEN}
    if tens and not tens & set(cards) and set(other) & tens and verdict.gap >= MIN_GAP:
        found.add("save-ten")
    king, queen = trump * 8 + _KING, trump * 8 + _QUEEN
    if king in hand and queen in hand and set(cards) & {king, queen}:
        found.add("bela")
    if cards and other:
        found |= _stakes(rnd, view, cards[0], other[0])
        if _keeps_last_trick(rnd, view, cards[0], other[0]):
            found.add("last-trick")
    return tuple(t for t in THEMES if t in found)


def _cards_of(verdict: Verdict, i: int) -> list[int]:
    """The cards of the verdict's ``i``-th choice (none when there is no such choice)."""
    if len(verdict.choices) <= i:
        return []
    return [int(a.card) for a in verdict.choices[i].actions if isinstance(a, Play)]


def _opponents_may_hold(view: SeatView, mask: int) -> bool:
    """Some opponent may hold a card of ``mask``, by every fact the seat has seen."""
    allowed = knowledge_of(view).allowed
    return any(allowed[(view.seat + k) % 4] & mask for k in (1, 3))


def _draws_trumps(view: SeatView, cards: Sequence[int], other: Sequence[int]) -> bool:
    """At lead, the answer is a trump and the next choice is a plain card, while an opponent
    may still hold a trump.

    Drawing trumps is leading them to take the opponents' out, so they cannot ruff the
    plain winners later: it is a choice of a trump *over* a plain lead (a trump against
    another trump is which trump, not whether), and it means something only while the
    opponents may have trumps left (``bela.search.sampling.knowledge_of``: not shown void,
    and some trump unseen).
    """
    assert view.trump is not None
    trump = int(view.trump)
    if not all(c >> 3 == trump for c in cards) or any(c >> 3 == trump for c in other):
        return False
    return _opponents_may_hold(view, SUIT_MASK[trump])


def _drives_out_ace(view: SeatView, cards: Sequence[int], other: Sequence[int]) -> bool:
    """At lead, the answer is a plain card only its suit's ace can beat (``forces_ace``),
    that ace may be with an opponent, and the next choice is no such card of that suit.

    Whoever holds the ace must then give it up on this trick (or keep it by ruffing, if
    void), so the seat's and the partner's next cards of the suit become winners. When
    the next choice forces the same ace, the puzzle is about which card, not this idea.
    """
    assert view.trump is not None
    trump = int(view.trump)
    out = _unseen(view)
    for c in cards:
        if not forces_ace(c, trump, out):
            continue
        ace = 1 << ((c & ~7) + _ACE)
        rivals = any(o >> 3 == c >> 3 and forces_ace(o, trump, out) for o in other)
        if not rivals and _opponents_may_hold(view, ace):
            return True
    return False


def _leads_to_partner_void(view: SeatView, cards: Sequence[int], other: Sequence[int]) -> bool:
    """At lead, the answer is a plain suit the partner has shown void in (``shown_voids``),
    the partner may still hold a trump, and the next choice leads another suit.

    The partner then ruffs it (a player without the suit must trump, rules § 8) and the
    trick is ours however high the opponents play. A partner with no trump left could
    only discard on it, which is another idea; so is which card of that suit to lead.
    """
    assert view.trump is not None
    trump = int(view.trump)
    partner = (view.seat + 2) % 4
    voids = shown_voids(view)[partner]
    suits = {c >> 3 for c in cards}
    if len(suits) != 1:
        return False
    suit = next(iter(suits))
    if suit == trump or suit not in voids or any(o >> 3 == suit for o in other):
        return False
    return bool(knowledge_of(view).allowed[partner] & SUIT_MASK[trump])


def _unblocks(view: SeatView, cards: Sequence[int]) -> bool:
    """The partner led a plain suit and is winning the trick; the seat, holding two or three
    cards of that suit, follows with a higher card than it needs (a lower card of the suit
    was legal and is not the answer) without taking the trick from the partner.

    Kept, the high card would win a later round of the suit and stop the partner's
    remaining winners there (or be caught under them): played now under the partner's
    winner, it clears the way. From a long holding the seat has low cards to follow
    with for a while, so only a short holding makes it the idea.
    """
    assert view.trump is not None
    trump = int(view.trump)
    trick = [int(c) for c in view.trick]
    if view.trick_leader != (view.seat + 2) % 4 or not _partner_wins(view):
        return False
    led = trick[0] >> 3
    if led == trump or any(c >> 3 == trump for c in trick):
        return False
    held = [int(c) for c in view.hand if int(c) >> 3 == led]
    if not cards or not 2 <= len(held) <= 3 or any(c >> 3 != led for c in cards):
        return False
    at = winning_index(trick, trump)
    if any(winning_index([*trick, c], trump) != at for c in cards):
        return False
    legal = {int(a.card) for a in view.legal_actions if isinstance(a, Play)}
    lowest = min(cards, key=lambda c: -_PLAIN_ORDER.index(c & 7))
    return any(
        c in legal and c not in cards and _PLAIN_ORDER.index(c & 7) > _PLAIN_ORDER.index(lowest & 7)
        for c in held
    )


def _stakes(rnd: Round, view: SeatView, answer: int, other: int) -> set[str]:
    """``count-to-pad`` and ``stiglja``: what most of the answer's gain over the next choice
    comes from, on ``STAKE_DEALS`` guessed deals seeded by the moment.

    On each deal both cards are solved exactly and scored as the round would write it.
    A deal where the call falls after one card and not after the other is a pad swing
    (``count-to-pad``: the answer keeps our call or breaks theirs); one where one team
    takes every trick after one card and not after the other is a štiglja swing (a
    sweep also drops the swept callers' call, and is counted as štiglja only). The
    theme is the swing whose deals hold more than half of the answer's total lead over
    the next choice (the idea is then the count, or the sweep, not the card points) and
    are at least a quarter of the deals: a fall swings some 160 written points, so a
    swing on one deal in sixteen can outweigh the card points of all the others, yet it
    is a risk in the tail, not what the moment is about.
    """
    team = view.seat & 1
    if not _stake_possible(view):
        return set()
    seed = f"themes {_moment_key(rnd, view)}"
    scores = outcomes(view, [Card(answer), Card(other)], Random(seed), STAKE_DEALS)
    total = pad = sweep = 0.0
    pads = sweeps = 0
    for a, o in scores:
        lead = (a.points[team] - a.points[1 - team]) - (o.points[team] - o.points[1 - team])
        total += lead
        if a.stiglja != o.stiglja:
            sweep += lead
            sweeps += 1
        elif a.fell != o.fell:
            pad += lead
            pads += 1
    found: set[str] = set()
    if total > 0 and 2 * pad > total and 4 * pads >= len(scores):
        found.add("count-to-pad")
    if total > 0 and 2 * sweep > total and 4 * sweeps >= len(scores):
        found.add("stiglja")
    return found


def _keeps_last_trick(rnd: Round, view: SeatView, answer: int, other: int) -> bool:
    """From the sixth trick on, the answer takes the eighth trick (and its 10) for the seat's
    team, where the next choice gives it away, on a quarter of ``STAKE_DEALS`` guessed deals
    or more beyond those where it is the other way round (seeded by the moment).

    Each deal is played out both ways with every card seen (``last_trick_takers``). The
    last trick is a theme of the end of the round: earlier, who takes it depends on most of
    the round still to come, not on this card.
    """
    if len(view.tricks) < _LAST_TRICK_FROM:
        return False
    team = view.seat & 1
    seed = f"last trick {_moment_key(rnd, view)}"
    takers = last_trick_takers(view, [Card(answer), Card(other)], Random(seed), STAKE_DEALS)
    kept = sum(1 for a, o in takers if a == team != o)
    lost = sum(1 for a, o in takers if o == team != a)
    return 4 * (kept - lost) >= len(takers) > 0


def _moment_key(rnd: Round, view: SeatView) -> str:
    """The moment as text, to seed its guessed deals: the seat, every action so far and the
    seat's hand (the same on every machine and either build of the engine)."""
    actions = " ".join(str(a) for a in rnd.actions)
    return f"{view.seat} {actions} {' '.join(str(c) for c in view.hand)}"


def _stake_possible(view: SeatView) -> bool:
    """Whether a pad or a sweep can still turn on this card: no team has taken a trick from
    the other yet, or the callers can still end either above or at most level with the
    defenders (they fall when their total is not more than half, rules § 13), counting the
    points still in play and a bela not yet announced on either side. Skips the solves
    where neither can happen, and in the first two tricks, where a solve takes from tens
    to hundreds of milliseconds (little is known yet: 16 of them cost 0.7 s a moment in
    the second trick, seconds in the first) and what an early card turns is most of the
    round, not one idea."""
    if view.caller is None or len(view.tricks) < _STAKE_FROM:
        return False
    if len({t.winner & 1 for t in view.tricks}) <= 1:
        return True
    callers = view.caller & 1
    have = [0, 0]
    for t in view.tricks:
        have[t.winner & 1] += t.points
    rest = 162 - have[0] - have[1]
    for s, zvanja in view.shown_zvanja:
        have[s & 1] += sum(z.points for z in zvanja)
    for s in view.bela_announced:
        have[s & 1] += 20
    spare = rest + (0 if view.bela_announced or view.rules.no_bela else 20)
    lead = have[callers] - have[1 - callers]
    return lead - spare <= 0 <= lead + spare


def theme_moment(rnd: Round) -> bool:
    """A card moment that may be one of the rarer themes: judge it whatever its trick.

    Cheap (no search, the seat's own view only), so the generator can ask it of every
    card moment and judge these always: left to chance, the moments that can only be
    namazati, overtrumping, bela, leading to the partner's void, unblocking, driving
    out an ace, drawing trumps or štiglja are a few in a hundred puzzles.
    It is a chance, not the theme: the verdict decides that (``themes_of``). A moment
    with a single choice is never one (nothing to judge).
    """
    return bool(theme_chances(rnd))


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
    """At lead, holding a plain suit the partner has shown void in (``shown_voids``), while
    the partner has not shown himself out of trumps too (he could not ruff it)."""
    if view.trick or view.trump is None:
        return False
    trump = int(view.trump)
    voids = shown_voids(view)[(view.seat + 2) % 4]
    return trump not in voids and any(c >> 3 in voids and c >> 3 != trump for c in legal)


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


_CHANCES: Final = (
    _namazati_chance,
    _overtrump_chance,
    _bela_chance,
    _partner_void_chance,
    _drive_out_chance,
    _draw_trumps_chance,
    _unblock_chance,
    _stiglja_chance,
)

CHANCE_THEMES: Final = (
    "namazati",
    "overtrump",
    "bela",
    "partner-void",
    "drive-out-ace",
    "draw-trumps",
    "unblock",
    "stiglja",
)
"""The theme each of ``_CHANCES`` looks for, in the same order."""


def theme_chances(rnd: Round) -> frozenset[str]:
    """The rarer themes the moment ``rnd`` may be (``theme_moment``, by name): a generation
    run aimed at themes a pack lacks judges only these moments (``GenSettings.focus``)."""
    seat = rnd.to_act
    if seat is None or rnd.phase is not Phase.PLAYING or rnd.trump is None:
        return frozenset()
    view = rnd.view(seat)
    legal = sorted({int(a.card) for a in view.legal_actions if isinstance(a, Play)})
    if len(legal) < 2:
        return frozenset()
    return frozenset(
        name for name, chance in zip(CHANCE_THEMES, _CHANCES, strict=True) if chance(view, legal)
    )


"""Every chance ``theme_moment`` looks for. Not the count: ``count-to-pad`` is no rare
theme (379 of the 2,054 puzzles of the pack shipped before it), and a close count held
for 15% of all card moments, most of them judged anyway."""


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
