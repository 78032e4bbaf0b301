"""Dealing the unseen cards the way the table could really hold them.

A searching bot guesses the hidden hands many times and plays well against
each guess. A guess the table has already ruled out (a card in the hand of a
player who showed a void in its suit) makes the search plan against a deal
that cannot happen, so every guess here is consistent with everything the
seat's view reveals, and only with the view: nothing else is read.

Hard facts, all from ``SeatView``:

* hand sizes, the cards seen (the own hand, every card played);
* every card a player could not hold given the cards they played: Bela's
  rules force following suit, beating the winning card when possible, and
  trumping (over-trumping when possible) when void, so a player who played
  ``c`` to a trick holds no unseen card that would have made ``c`` illegal.
  This one test covers the voids ("did not follow"), "no trumps" ("did not
  trump when void"), "could not overtake" and "could not over-trump", and
  stays right whatever rule variant the engine's ``legal_mask`` implements;
* the zvanja: the winning team's declarations are shown, so their cards are
  with their holders (unless played), those two players hold no other
  declaration, and nobody in the other team holds a better one; with no
  zvanja shown, nobody holds any;
* an announced bela puts both trump K and Q in the announcer's hand: with the
  first card (the default rule) the one still unseen is required there; with
  the second (``Rules.bela_on_second``) both are already on the table;
* under ``Rules.no_zvanja`` nothing is declared, so the zvanja say nothing
  (and belot does not end a deal), and ``tens_over_kings`` ranks the fours
  as the table does.

The deals meeting the card-by-card facts are drawn exactly uniformly (counted
by grouping the unseen cards by which players may hold them); the zvanja facts
and the soft bidding evidence are applied by rejection, which keeps the draw
uniform among the deals that pass (or weighted by the evidence). Nothing about
the talon is inferred: each player's two talon cards are unknown to the others.

The bidding evidence is soft: a player who said "dalje" holds the trump jack
and nine of one suit less often, and a caller more often holds the jack or
nine of trump or length in it. Deals against the evidence are kept with a
lower probability (``BidEvidence``), never excluded, because players differ.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import comb
from random import Random
from typing import Any, Final

from bela.engine import Call, Pass, Phase, SeatView
from bela.engine.cards import ALL_CARDS_MASK, SUIT_MASK
from bela.engine.pickling import by_fields
from bela.engine.tricks import BEATS, legal_mask
from bela.engine.zvanja import best_zvanja_seat, zvanja_of_mask

__all__ = [
    "BidEvidence",
    "BiddingWeight",
    "DealSampler",
    "DealWeight",
    "Knowledge",
    "bidding_deals",
    "knowledge_of",
    "sample_deals",
]

Hands = tuple[int, int, int, int]
# The chance to keep a drawn deal (current hands by seat), given the RNG for any guess it makes.
DealWeight = Callable[[Hands, Random], float]
# The same while trump is being named: the chance to keep a deal of six-card hands by seat.
BiddingWeight = Callable[[Hands], float]

_JACK: Final = 4
_NINE: Final = 2
_MAX_TRIES: Final = 400


@dataclass(frozen=True, slots=True)
class BidEvidence:
    """How strongly the bids weigh a guessed deal (1.0 everywhere = ignore the bids).

    ``pass_jack_nine``: weight of a deal in which a player who said "dalje"
    held the jack and nine of one suit among the six cards they bid on.
    ``caller_bare``: weight of a deal in which the caller held neither the
    trump jack nor the nine and fewer than three trumps (``forced_bare`` for
    the dealer who had to name a suit).
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    pass_jack_nine: float = 0.45
    caller_bare: float = 0.35
    forced_bare: float = 0.8


NO_EVIDENCE: Final = BidEvidence(1.0, 1.0, 1.0)
# Chance that two given cards of an eight-card hand were both among the six
# cards it bid on (the other two being the talon): C(6,2) / C(8,2).
_BOTH_IN_SIX: Final = 15 / 28


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat knows about the hidden cards during play, as masks by seat.

    ``unseen``: cards neither in the own hand nor played. ``need[s]``: how many
    unseen cards seat ``s`` holds (0 for the own seat). ``allowed[s]``: the
    unseen cards ``s`` may hold; ``required[s]``: those it surely holds (shown
    zvanja). ``hands_known[s]``: cards already placed (the own hand, else 0).
    ``played[s]``: the cards ``s`` has played (for the zvanja of its eight).
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    seat: int
    trump: int
    first_player: int
    unseen: int
    need: Hands
    allowed: Hands
    required: Hands
    own_hand: int
    played: Hands
    zvanja_team: int | None
    shown: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]
    bids: tuple[tuple[int, Pass | Call], ...]
    caller: int | None
    no_zvanja: bool = False
    tens_high: bool = False
    silent: int = 0
    """The seats (as bits) that kept their zvanja back: they took no part in the comparison."""

    def consistent(self, hands: Sequence[int]) -> bool:
        """Whether a full deal of the current hands (by seat) fits every hard fact."""
        seen = 0
        for s in range(4):
            h = hands[s]
            if seen & h:
                return False
            seen |= h
            if s == self.seat:
                if h != self.own_hand:
                    return False
                continue
            if h & ~self.allowed[s] or h.bit_count() != self.need[s]:
                return False
            if self.required[s] & ~h:
                return False
        if seen != self.own_hand | self.unseen:
            return False
        return self.zvanja_fit(hands)

    def eights(self, hands: Sequence[int]) -> Hands:
        """The eight cards each seat held after the talon, given its current hand."""
        p = self.played
        return (hands[0] | p[0], hands[1] | p[1], hands[2] | p[2], hands[3] | p[3])

    def zvanja_fit(self, hands: Sequence[int]) -> bool:
        """Whether the deal gives the zvanja the table saw (winner, shown declarations)."""
        if self.no_zvanja:  # nothing declared: no zvanja and no belot to fit
            return True
        eights = self.eights(hands)
        for h in eights:
            if h in _SUIT_MASKS:  # belot: the round would not have been played
                return False
        compared: Sequence[int] = eights
        if self.silent:  # a silent seat's hand is compared as if it held nothing
            compared = [0 if self.silent >> s & 1 else eights[s] for s in range(4)]
        best, _ = best_zvanja_seat(compared, self.first_player, self.tens_high)
        team = None if best < 0 else best & 1
        if team != self.zvanja_team:
            return False
        if team is None:
            return True
        shown = dict(self.shown)
        for s in (team, team + 2):
            if s == self.seat:
                continue
            want = shown.get(s, ())
            if _declared(compared[s]) != want:
                return False
        return True

    def bid_weight(self, hands: Sequence[int], evidence: BidEvidence) -> float:
        """How much the bids favour this deal, in (0, 1] (1 when they say nothing against it)."""
        if evidence == NO_EVIDENCE:
            return 1.0
        eights = self.eights(hands)
        w = 1.0
        for s, bid in self.bids:
            if s == self.seat:
                continue
            h = eights[s]
            if isinstance(bid, Pass):
                if _has_jack_nine(h):
                    # only when both were among the six cards bid on (not the talon)
                    w *= 1.0 - _BOTH_IN_SIX * (1.0 - evidence.pass_jack_nine)
            else:
                byte = (h >> (8 * int(bid.suit))) & 0xFF
                if not byte & (1 << _JACK | 1 << _NINE) and byte.bit_count() < 3:
                    forced = len(self.bids) == 4
                    w *= evidence.forced_bare if forced else evidence.caller_bare
        return w


_SUIT_MASKS: Final = frozenset(SUIT_MASK)
# Trump K and Q by trump suit.
_BELA_BITS: Final = tuple(0x60 << (8 * s) for s in range(4))


def _declared(eight: int) -> tuple[tuple[int, ...], ...]:
    """A hand's declarations as sorted card tuples (belot left out), to compare with shown ones."""
    return tuple(
        sorted(tuple(int(c) for c in z.cards) for z in zvanja_of_mask(eight) if z.points > 0)
    )


def _mask(cards: Sequence[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _has_jack_nine(hand: int) -> bool:
    for s in range(4):
        byte = (hand >> (8 * s)) & 0xFF
        if byte >> _JACK & 1 and byte >> _NINE & 1:
            return True
    return False


def _forbidden(card: int, led: int, win: int, trump: int, unseen: int) -> int:
    """Unseen cards whose presence in the hand would have made ``card`` illegal here.

    Legal plays are the highest-priority non-empty class of the hand (beat in
    the suit led, follow, over-trump, trump, anything), and a card's class does
    not depend on the rest of the hand. So peel off the classes above
    ``card``'s one by one with the engine's own ``legal_mask``.
    """
    bit = 1 << card
    rest = unseen | bit
    out = 0
    while True:
        legal = legal_mask(rest, led, win, trump)
        if legal & bit:
            return out
        out |= legal
        rest &= ~legal


def knowledge_of(view: SeatView) -> Knowledge:
    """Read every hard fact about the hidden cards out of a play-phase view."""
    if view.phase is not Phase.PLAYING or view.trump is None or view.trick_leader is None:
        raise ValueError("dealing the unseen cards needs a view in the play phase")
    trump = int(view.trump)
    seat = view.seat
    own = _mask(view.hand)
    played = [0, 0, 0, 0]
    tricks: list[tuple[int, tuple[int, ...]]] = [
        (t.leader, tuple(int(c) for c in t.cards)) for t in view.tricks
    ]
    tricks.append((view.trick_leader, tuple(int(c) for c in view.trick)))
    seen = own
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            played[(leader + i) & 3] |= 1 << c
            seen |= 1 << c
    unseen = ALL_CARDS_MASK & ~seen
    allowed = [unseen, unseen, unseen, unseen]
    allowed[seat] = 0
    base = trump * 32
    for leader, cards in tricks:
        if not cards:
            continue
        led = cards[0] >> 3
        win = cards[0]
        for i in range(1, len(cards)):
            c = cards[i]
            s = (leader + i) & 3
            if s != seat:
                allowed[s] &= ~_forbidden(c, led, win, trump, unseen)
            if BEATS[base + win] >> c & 1:
                win = c
    required = [0, 0, 0, 0]
    shown: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
    for s, zvanja in view.shown_zvanja:
        cards_of = tuple(sorted(tuple(int(c) for c in z.cards) for z in zvanja if z.points > 0))
        shown.append((s, cards_of))
        if s == seat:
            continue
        for group in cards_of:
            for c in group:
                if unseen >> c & 1:
                    required[s] |= 1 << c
    for s in view.bela_announced:  # the announcer held both trump K and Q
        if s != seat:
            required[s] |= _BELA_BITS[trump] & unseen
    for s in range(4):
        if s != seat:
            for t in range(4):
                if t != s:
                    allowed[t] &= ~required[s]
            allowed[s] |= required[s]
    need = [view.hand_sizes[s] for s in range(4)]
    need[seat] = 0
    return Knowledge(
        seat=seat,
        trump=trump,
        first_player=view.first_player,
        unseen=unseen,
        need=(need[0], need[1], need[2], need[3]),
        allowed=(allowed[0], allowed[1], allowed[2], allowed[3]),
        required=(required[0], required[1], required[2], required[3]),
        own_hand=own,
        played=(played[0], played[1], played[2], played[3]),
        zvanja_team=view.zvanja_team,
        shown=tuple(shown),
        bids=view.bids,
        caller=view.caller,
        no_zvanja=view.rules.no_zvanja,
        tens_high=view.rules.tens_over_kings,
        silent=sum(1 << s for s in view.silent),
    )


class DealSampler:
    """Draws deals of the unseen cards consistent with a view, exactly uniformly.

    Built once per decision (the counting is done here), then ``sample(rng)``
    as often as wanted. Cards that only one player may hold are placed; the
    rest are grouped by the set of players that may hold them, the number of
    deals of every way of splitting each group among its players is counted,
    and a split is drawn in proportion to it, then the cards of each group are
    shuffled into their places.
    """

    def __init__(
        self,
        knowledge: Knowledge,
        evidence: BidEvidence = BidEvidence(),
        weight: DealWeight | None = None,
    ) -> None:
        """``weight``, when given, replaces ``evidence``: the chance to keep a drawn deal."""
        self.knowledge = knowledge
        self.evidence = evidence
        self.weight = weight
        k = knowledge
        self.others = tuple(s for s in range(4) if s != k.seat)
        fixed = [k.required[s] for s in range(4)]
        fixed[k.seat] = k.own_hand
        cap = [k.need[s] - k.required[s].bit_count() for s in range(4)]
        groups: dict[int, list[int]] = {}
        rest = k.unseen & ~(k.required[0] | k.required[1] | k.required[2] | k.required[3])
        while rest:
            low = rest & -rest
            rest ^= low
            code = 0
            for i, s in enumerate(self.others):
                if k.allowed[s] & low:
                    code |= 1 << i
            if code == 0:
                raise ValueError("the view's facts leave a card nobody can hold")
            groups.setdefault(code, []).append(low.bit_length() - 1)
        if any(c < 0 for c in cap):
            raise ValueError("a player shows more declared cards than they hold")
        # Groups one player may hold are placed outright.
        for code in (1, 2, 4):
            cards = groups.pop(code, [])
            s = self.others[code.bit_length() - 1]
            for c in cards:
                fixed[s] |= 1 << c
            cap[s] -= len(cards)
        self.fixed: Hands = (fixed[0], fixed[1], fixed[2], fixed[3])
        self.groups: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
            (code, tuple(cards)) for code, cards in sorted(groups.items())
        )
        caps = tuple(cap[s] for s in self.others)
        self.splits: list[tuple[tuple[int, ...], ...]] = []
        self.cumulative: list[int] = []
        self._count(0, caps, 1, [])
        if not self.splits:
            raise ValueError("no deal of the unseen cards fits the view")
        self.total = self.cumulative[-1]

    def _count(
        self, i: int, caps: tuple[int, ...], weight: int, chosen: list[tuple[int, ...]]
    ) -> None:
        """Enumerate the splits of groups ``i``.. within the remaining capacities."""
        if i == len(self.groups):
            if not any(caps):
                self.splits.append(tuple(chosen))
                self.cumulative.append((self.cumulative[-1] if self.cumulative else 0) + weight)
            return
        code, cards = self.groups[i]
        n = len(cards)
        members = [j for j in range(3) if code >> j & 1]
        for split in _splits(n, [caps[j] for j in members]):
            counts = [0, 0, 0]
            w = weight
            left = n
            for j, k in zip(members, split, strict=True):
                counts[j] = k
                w *= comb(left, k)
                left -= k
            new_caps = tuple(caps[j] - counts[j] for j in range(3))
            chosen.append((counts[0], counts[1], counts[2]))
            self._count(i + 1, new_caps, w, chosen)
            chosen.pop()

    def draw(self, rng: Random) -> Hands:
        """One deal meeting the card-by-card facts (not yet the zvanja or the bids)."""
        pick = bisect_right(self.cumulative, rng.randrange(self.total))
        split = self.splits[pick]
        hands = list(self.fixed)
        for (_, cards), counts in zip(self.groups, split, strict=True):
            order = list(cards)
            rng.shuffle(order)
            at = 0
            for j, s in enumerate(self.others):
                for c in order[at : at + counts[j]]:
                    hands[s] |= 1 << c
                at += counts[j]
        return (hands[0], hands[1], hands[2], hands[3])

    def sample(self, rng: Random) -> Hands:
        """One deal of the current hands by seat, consistent with the view.

        Draws until a deal also gives the zvanja the table saw and is kept by
        the bidding evidence. Should that take too long (very unlikely), the
        first deal that fits the zvanja is returned, else the last draw.
        """
        k = self.knowledge
        fallback: Hands | None = None
        hands = self.fixed
        for _ in range(_MAX_TRIES):
            hands = self.draw(rng)
            if not k.zvanja_fit(hands):
                continue
            if fallback is None:
                fallback = hands
            if self.weight is None:
                w = k.bid_weight(hands, self.evidence)
            else:
                w = self.weight(hands, rng)
            if w >= 1.0 or rng.random() < w:
                return hands
        return fallback if fallback is not None else hands


def _splits(n: int, caps: Sequence[int]) -> list[tuple[int, ...]]:
    """Ways to write ``n`` as a sum of len(caps) parts, each part within its cap."""
    if len(caps) == 1:
        return [(n,)] if n <= caps[0] else []
    out: list[tuple[int, ...]] = []
    for k in range(min(n, caps[0]) + 1):
        for rest in _splits(n - k, caps[1:]):
            out.append((k, *rest))
    return out


def sample_deals(
    view: SeatView, rng: Random, count: int, evidence: BidEvidence = BidEvidence()
) -> list[Hands]:
    """``count`` guesses of the current hands by seat (the own hand as it is)."""
    sampler = DealSampler(knowledge_of(view), evidence)
    return [sampler.sample(rng) for _ in range(count)]


def bidding_deals(
    view: SeatView,
    rng: Random,
    count: int,
    evidence: BidEvidence = BidEvidence(),
    weight: BiddingWeight | None = None,
) -> list[tuple[Hands, Hands]]:
    """``count`` guesses of a whole deal while trump is being named: (hands, talons) by seat.

    Only the own six cards are known; every other card (the own talon
    included) is dealt at random, a player who already said "dalje" holding
    the jack and nine of one suit less often (or, with ``weight``, each deal
    kept with the chance it gives).
    """
    if view.phase is not Phase.BIDDING:
        raise ValueError("bidding deals are guessed during the bidding")
    seat = view.seat
    own = _mask(view.hand)
    rest = [c for c in range(32) if not own >> c & 1]
    passers = [s for s, bid in view.bids if isinstance(bid, Pass) and s != seat]
    out: list[tuple[Hands, Hands]] = []
    for _ in range(count):
        deal: tuple[Hands, Hands] | None = None
        for _ in range(_MAX_TRIES):
            order = rest[:]
            rng.shuffle(order)
            hands = [0, 0, 0, 0]
            talons = [0, 0, 0, 0]
            hands[seat] = own
            at = 0
            for s in range(4):
                if s != seat:
                    for c in order[at : at + 6]:
                        hands[s] |= 1 << c
                    at += 6
                for c in order[at : at + 2]:
                    talons[s] |= 1 << c
                at += 2
            deal = (
                (hands[0], hands[1], hands[2], hands[3]),
                (talons[0], talons[1], talons[2], talons[3]),
            )
            w = 1.0
            if weight is not None:
                w = weight(deal[0])
            else:
                for s in passers:
                    if _has_jack_nine(hands[s]):
                        w *= evidence.pass_jack_nine
            if w >= 1.0 or rng.random() < w:
                break
        assert deal is not None
        out.append(deal)
    return out
