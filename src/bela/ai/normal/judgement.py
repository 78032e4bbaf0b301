"""Judging a card: how likely our team takes the trick, and what the card is worth kept.

The single-trick value every play decision starts from:
*(2 · P(our team takes the trick) − 1) · what the trick is worth − what the card
is worth kept in hand*.

* P(we take the trick) comes from the card memory (``memory.py``). Overtaking
  is compulsory in Bela, so a later player beats a card exactly when they hold
  a higher card of the suit led, or are void in it and hold a trump: the memory
  gives each seat's possible cards, and a card's chance of being in a hand is
  shared out by the free places in the hands that may hold it (``Table.prob``).
  A card nobody still to play can beat is a sure winner.
* What a card is worth kept: a trump is control (more for a high one, more for
  the master trump); an ace or a ten that is the master of its suit wins its
  points later unless it is trumped; a ten with the ace still out is a
  liability (it tends to be caught), and so on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bela.engine import SeatView
from bela.engine.cards import SUIT_MASK
from bela.engine.tricks import BEATS, CARD_POINTS, TRUMP_STRENGTH
from bela.search.memory import CardMemory

__all__ = [
    "CONVENTIONS",
    "PlayStyle",
    "Table",
    "bits",
    "card_judgements",
    "card_values",
    "trick_chance",
]


@dataclass(frozen=True, slots=True)
class PlayStyle:
    """Knobs of the heuristic play (the defaults are ``normal``; the others are for experiments)."""

    memory: bool = True  # deduce voids and "could not overtake"; else only count cards
    endgame_deals: int = 90  # exact play of the last two tricks (0: never)
    endgame_sample: int = 40  # deals solved: all if no more, else this many drawn at random
    endgame3_deals: int = 300  # the same for the last three tricks (0: never)
    endgame3_sample: int = 8
    draw_trumps: bool = True
    draw_as_defender: bool = False  # draw with the master trump also when the opponents called
    draw_low_min: int = 0  # lead a low trump holding at least this many trumps (0: never)
    draw_low_defender: bool = False
    cash_q: float = 0.5  # chance a master ace/ten is cashed later when trumps are still out
    trump_base: float = 10.0  # worth of keeping any trump
    trump_step: float = 2.5  # and of each step of trump strength
    master_trump: float = 6.0
    rest_points: float = 2.0  # points a later player is expected to add to the trick
    learned_leads: bool = True  # choose leads by the fitted feature weights (leads.py)
    lead_weights: tuple[float, ...] | None = None  # other weights than leads.LEAD_WEIGHTS
    # Table conventions (docs/bots.md, "Conventions"); every default is off, the old play.
    lead_back: float = 0.0  # podigravati: lead score bonus for a plain suit the partner led
    partner_trump: float = 0.0  # podigravati: lead score bonus for a trump when the partner called
    load_p: float = 0.0  # upuniti: partner's trick at least this likely ours: load the most points
    load_masters: bool = True  # upuniti also with a master ace or ten (else only cards at risk)
    load_spare: bool = False  # the loaded card even where judgement gives a master or a trump
    ten_guard: float = 0.0  # potkovana desetka: worth kept of the one guard of a ten, ace out
    ten_guard_leads: bool = False  # and a lead that leaves such a ten bare costs ten_guard
    draw_limit: int = 0  # draw trumps with the master trump at most this many times (0: no limit)
    trump_again: float = 0.0  # lead score cost of a trump lead per trump our team has led
    match_play: bool = False  # the exact endgame plays to win the match when the score is near


# The conventions ``normal`` follows (``levels.make_normal``), each measured on its own
# against the default style and adopted where it helped or was neutral: docs/bots.md,
# "Conventions", has the figures and where search disagrees.
CONVENTIONS = PlayStyle(
    lead_back=10.0,
    partner_trump=5.0,
    load_p=0.9,
    load_masters=False,
    load_spare=True,
    ten_guard=3.0,
    trump_again=10.0,
)


@dataclass(slots=True)
class Table:
    """One decision's facts: the memory plus the probability tables built from it."""

    view: SeatView
    mem: CardMemory
    style: PlayStyle
    trump: int
    base: int
    seat: int
    team: int
    partner: int
    prob: list[list[float]] = field(default_factory=list)

    def build(self) -> None:
        """Share each unseen card's whereabouts out by the free places in the hands."""
        mem = self.mem
        free = [mem.sizes[s] - mem.known[s].bit_count() for s in range(4)]
        free[self.seat] = 0
        prob = [[0.0] * 32 for _ in range(4)]
        rest = mem.unseen
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            owner = -1
            for s in range(4):
                if s != self.seat and mem.known[s] >> c & 1:
                    owner = s
            if owner >= 0:
                prob[owner][c] = 1.0
                continue
            total = 0
            for s in range(4):
                if s != self.seat and mem.possible[s] >> c & 1:
                    total += free[s]
            if total <= 0:
                continue
            for s in range(4):
                if s != self.seat and mem.possible[s] >> c & 1:
                    prob[s][c] = free[s] / total
        self.prob = prob

    def p_any(self, seat: int, mask: int) -> float:
        """The chance ``seat`` holds at least one card of ``mask``."""
        mask &= self.mem.possible[seat]
        if mask & self.mem.known[seat]:
            return 1.0
        probs = self.prob[seat]
        none = 1.0
        while mask:
            low = mask & -mask
            mask ^= low
            none *= 1.0 - probs[low.bit_length() - 1]
        return 1.0 - none

    def p_void(self, seat: int, suit: int) -> float:
        if self.mem.surely_has(seat, suit):
            return 0.0
        return 1.0 - self.p_any(seat, SUIT_MASK[suit])

    def p_beats(self, seat: int, led: int, win: int) -> float:
        """The chance ``seat``, still to play, takes the trick from ``win`` (beating is forced)."""
        trump = self.trump
        beats = BEATS[self.base + win] & self.mem.possible[seat]
        if not beats:
            return 0.0
        if led == trump:
            return self.p_any(seat, beats)
        higher_led = beats & SUIT_MASK[led]
        trumps = beats & SUIT_MASK[trump]
        p = self.p_any(seat, higher_led) if higher_led else 0.0
        if trumps:
            p += (1.0 - p) * self.p_void(seat, led) * self.p_any(seat, trumps)
        return min(p, 1.0)

    # ------------------------------------------------------------------ card worth kept

    def keep_value(self, card: int, hand: int) -> float:
        """What ``card`` is worth kept in hand, in our-points-minus-theirs."""
        style = self.style
        trump = self.trump
        suit = card >> 3
        pts = CARD_POINTS[self.base + card]
        mem = self.mem
        if suit == trump:
            value = pts + style.trump_base + style.trump_step * TRUMP_STRENGTH[card & 7]
            if mem.is_master(card):
                value += style.master_trump
            return value
        opp_trumps = mem.possible[self.seat ^ 1] | mem.possible[self.seat ^ 3]
        q = style.cash_q if opp_trumps & SUIT_MASK[trump] else 0.95
        if mem.is_master(card):
            return q * (pts + 4.0) - (1.0 - q) * pts
        # A card with a higher one still out: it may be caught, unless it is guarded.
        higher_out = BEATS[self.base + card] & SUIT_MASK[suit] & mem.unseen
        n_higher = higher_out.bit_count()
        mine = hand & SUIT_MASK[suit]
        guards = mine.bit_count() - 1
        if n_higher == 1 and guards >= 1:
            return 0.4 * pts
        if style.ten_guard and self.view.trick and guards == 1 and self.guards_ten(card, hand):
            return style.ten_guard - 0.3 * pts
        return -0.3 * pts

    def guards_ten(self, card: int, hand: int) -> bool:
        """Whether ``card`` is the one card beside a ten whose ace is still out ("potkovana").

        Played or thrown, it leaves the ten bare, to fall under the ace.
        """
        suit = card >> 3
        ten = suit * 8 + 3
        mine = hand & SUIT_MASK[suit]
        return (
            suit != self.trump
            and card != ten
            and mine.bit_count() == 2
            and bool(mine >> ten & 1)
            and bool(self.mem.unseen >> (suit * 8 + 7) & 1)
        )


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_values(t: Table, legal: int) -> list[tuple[int, float]]:
    """Each legal card with its value: (2·P(we take the trick) − 1) · worth − worth kept."""
    return [(card, value) for card, value, _, _ in card_judgements(t, legal)]


def card_judgements(t: Table, legal: int) -> list[tuple[int, float, float, bool]]:
    """Each legal card with its value, our chance to take the trick, and whether it leads it."""
    view = t.view
    base = t.base
    trick = view.trick
    leader = view.trick_leader if view.trick_leader is not None else t.seat
    pos = len(trick)
    led = trick[0] >> 3 if trick else -1
    win, win_seat, trick_pts = -1, -1, 0
    for i, c in enumerate(trick):
        trick_pts += CARD_POINTS[base + c]
        if i == 0 or BEATS[base + win] >> c & 1:
            win, win_seat = c, (leader + i) & 3
    later = [(leader + i) & 3 for i in range(pos + 1, 4)]
    last_trick = len(view.tricks) == 7
    hand = t.mem.hand
    out = []
    for card in bits(legal):
        if pos == 0:
            n_led, n_win, n_ws = card >> 3, card, t.seat
        elif BEATS[base + win] >> card & 1:
            n_led, n_win, n_ws = led, card, t.seat
        else:
            n_led, n_win, n_ws = led, win, win_seat
        p = trick_chance(t, later, n_led, n_win, n_ws)
        worth = trick_pts + CARD_POINTS[base + card] + t.style.rest_points * len(later)
        if last_trick:
            worth += 10
        value = (2.0 * p - 1.0) * worth - t.keep_value(card, hand)
        out.append((card, value, p, n_ws == t.seat))
    return out


def trick_chance(t: Table, later: list[int], led: int, win: int, win_seat: int) -> float:
    """The chance our team takes the trick, ``win`` (played by ``win_seat``) winning now."""
    ours = (win_seat & 1) == t.team
    if ours:
        p = 1.0
        for s in later:
            if (s & 1) != t.team:
                p *= 1.0 - t.p_beats(s, led, win)
        return p
    # The opponents hold the trick: our partner, if still to play, may take it.
    if t.partner not in later:
        return 0.0
    p = t.p_beats(t.partner, led, win)
    after = later[later.index(t.partner) + 1 :]
    before = later[: later.index(t.partner)]
    for s in before:
        p *= 1.0 - 0.5 * t.p_beats(s, led, win)
    for s in after:
        p *= 1.0 - 0.5 * t.p_beats(s, led, win)
    return p
