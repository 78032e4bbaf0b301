"""One round, from the deal to the written score, as a state machine.

Phases: BIDDING (each player from the first in turn passes or names trump; the
dealer is forced after three passes) → PLAYING (talons taken up, zvanja counted
for everyone who holds them unless a player keeps them to himself with
``Silent`` in the first trick, eight tricks) → FINISHED (``result`` set). Belot ends the round
right after the call; under "no forced trump" four passes end it void.

``apply`` returns a new round and leaves the original untouched. Search code
may instead ``copy()`` once and ``push``/``push_card`` in place: the same
transitions without the defensive copy (``push_card`` also skips validation).
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any, Final, NamedTuple

from mypy_extensions import i64

from bela.engine.actions import Action, Call, Claim, Pass, Play, Silent
from bela.engine.cards import (
    ALL_CARDS_MASK,
    CARDS,
    SUIT_MASK,
    Card,
    Rank,
    Suit,
    cards_in,
    mask_cards,
    mask_of,
    to_card,
)
from bela.engine.deal import check_seed, dealt
from bela.engine.errors import (
    IllegalBelaError,
    IllegalBidError,
    IllegalClaimError,
    IllegalPlayError,
    InvalidValueError,
    MalformedActionError,
    OutOfTurnError,
    RoundOverError,
    WrongPhaseError,
)
from bela.engine.errors import shown as quoted
from bela.engine.guards import check_int, check_mask, check_seat, check_sequence
from bela.engine.rules import DEFAULT_RULES, Rules
from bela.engine.scoring import tally_flat
from bela.engine.tricks import BEATS, CARD_POINTS, english_reason, illegal_reason, legal_mask
from bela.engine.view import CompletedTrick, Phase, SeatView
from bela.engine.zvanja import (
    Zvanje,
    ZvanjeKind,
    best_zvanja_of,
    best_zvanja_seat,
    zvanja_of_mask,
)

__all__ = ["BELA_POINTS", "LAST_TRICK_BONUS", "Round", "RoundResult"]

DEALER: Final = "the dealer"
LAST_TRICK_BONUS: Final = 10
BELA_POINTS: Final = 20

PASS: Final = Pass()
CLAIM: Final = Claim()
SILENT: Final = Silent()
CALLS: Final = tuple(Call(s) for s in Suit)
PLAYS: Final = tuple(Play(Card(c)) for c in range(32))
PLAYS_BELA: Final = tuple(Play(Card(c), True) for c in range(32))
_KING: Final = int(Rank.KING)
_QUEEN: Final = int(Rank.QUEEN)
# Mask of trump K and Q, by trump suit.
BELA_MASK: Final = tuple((1 << (s * 8 + _KING)) | (1 << (s * 8 + _QUEEN)) for s in range(4))

_SUIT_MASKS: Final = frozenset(SUIT_MASK)
# The phases as module constants: the compiled build reads a constant where ``Phase.PLAYING`` is
# an attribute lookup on the enum class, on every action.
_BIDDING: Final = Phase.BIDDING
_PLAYING: Final = Phase.PLAYING
_FINISHED: Final = Phase.FINISHED
_SUITS: Final = tuple(Suit)

# Byte tables for the random playout, which keeps each hand as four suit bytes (ranks as
# bits, natural order): ``bytes`` because indexing one gives a small int, which the compiled
# build reads without unboxing an object and the pure build gets from its small-int cache.
_COUNT: Final = bytes([b.bit_count() for b in range(256)])


def _kth_bits() -> bytes:
    """``_KTH[b << 3 | k]``: the bit of the k-th lowest rank in byte b (0 past the last)."""
    table = bytearray(2048)
    for b in range(256):
        k = b << 3
        for r in range(8):
            if b >> r & 1:
                table[k] = 1 << r
                k += 1
    return bytes(table)


def _cards_of_bits() -> bytes:
    """``_CARD_OF[suit << 8 | bit]``: the card of a suit and a rank's bit."""
    table = bytearray(1024)
    for card in range(32):
        table[(card >> 3) << 8 | 1 << (card & 7)] = card
    return bytes(table)


_KTH: Final = _kth_bits()
_CARD_OF: Final = _cards_of_bits()
# By trump: each card's points, and the ranks of its own suit that beat it (as a byte)
_POINTS: Final = tuple(bytes(CARD_POINTS[t * 32 : t * 32 + 32]) for t in range(4))
_ABOVE: Final = tuple(
    bytes([BEATS[t * 32 + c] >> (c & ~7) & 0xFF for c in range(32)]) for t in range(4)
)
# The tricks (by the number played before) at which ``play_out_random`` takes a fresh 60-bit
# draw. A trick with ``n`` cards in each hand reads at most four digits of bases ``n`` or
# fewer, so the draws' stretches, tricks 1-2, 3-5 and 6-8, read digits whose bases multiply
# to at most 8**4 * 7**4, 6**4 * 5**4 * 4**4 and 3**4 * 2**4, all under 2**30: each choice
# is uniform to within 2**-30 (a test checks the bound). A playout that starts later in the
# round draws at its start too, and its first stretch is the end of one of these.
_DRAW_AT: Final = bytes([0, 0, 1, 0, 0, 1, 0, 0])
# The three seats after each leader, as offsets into the playout's suit bytes (seat * 4)
_FOLLOW_AT: Final = tuple(tuple(((s + i) & 3) * 4 for i in (1, 2, 3)) for s in range(4))
_KQ: Final = (1 << _KING) | (1 << _QUEEN)
Pair = tuple[int, int]
Four = tuple[int, int, int, int]
Trick = tuple[int, int, int, int, int, int, int]
_new_tuple: Final = tuple.__new__


class RoundResult(NamedTuple):
    """How a round ended and what each team writes.

    ``points`` is what team 0 ("mi") and team 1 ("vi") write. ``card_points``
    include the last trick; ``zvanja`` are the recognised zvanja and ``bela``
    the announced bela, each before a štiglja moves the swept team's to the
    sweeper; ``totals`` are after that move. ``caller`` is the calling seat.
    ``belot`` is the team whose player held belot (the match is theirs);
    ``redeal`` marks four passes under "no forced trump". ``claim`` is the team
    whose player said "dosta" (the round stopped there) and ``claim_ok``
    whether the claim held: the match goes to that team if it did, to the
    other team if it did not. A named tuple because
    one is built at the end of every simulated round: cheap to make, immutable.
    """

    points: Pair
    card_points: Pair
    zvanja: Pair
    bela: Pair
    tricks: Pair
    totals: Pair
    caller: int | None
    trump: Suit | None
    fell: bool
    tie: bool
    hanging: int
    stiglja: int | None
    belot: int | None
    belot_seat: int | None
    redeal: bool
    claim: int | None = None
    claim_ok: bool = False

    @property
    def caller_team(self) -> int | None:
        return None if self.caller is None else self.caller % 2

    @property
    def combined(self) -> int:
        """Both teams' totals together (what a pad hands to the defenders)."""
        return self.totals[0] + self.totals[1]


class Round:
    """A round of Bela. Construct with ``from_hands`` or ``from_seed``."""

    __slots__ = (
        "_actions",
        "_bela0",
        "_bela1",
        "_bela_by",
        "_bela_seat",
        "_bids",
        "_caller",
        "_claim_context",
        "_declarations",
        "_h0",
        "_h1",
        "_h2",
        "_h3",
        "_history",
        "_leader",
        "_match_context",
        "_phase",
        "_pts0",
        "_pts1",
        "_result",
        "_silent",
        "_to_play",
        "_trick",
        "_trump",
        "_win_card",
        "_win_pos",
        "_won0",
        "_won1",
        "_zvanja_pts",
        "_zvanja_seat",
        "_zvanja_team",
        "deal_hands",
        "deal_talons",
        "dealer",
        "rules",
        "seed",
    )

    rules: Rules
    dealer: int
    seed: int | None
    _claim_context: tuple[int, int, int] | None
    _match_context: tuple[int, int, int] | None
    deal_hands: tuple[int, int, int, int]
    deal_talons: tuple[int, int, int, int]

    # ------------------------------------------------------------------ construction

    def __init__(
        self,
        dealer: object,
        hands: object,
        talons: object,
        rules: object = DEFAULT_RULES,
        seed: object = None,
    ) -> None:
        """Build from masks (6-card hands, 2-card talons, by seat); prefer the classmethods.

        The entry points take ``object`` and check it themselves (``bela.engine.guards``).
        """
        if hands is _UNSET:  # _blank: from_seed and copy set every field themselves
            return
        first = check_seat(dealer, "the dealer")
        checked_rules = _check_rules(rules)
        checked_seed = None if seed is None else check_seed(seed)
        hand_masks = [check_mask(h, "a hand") for h in _four(hands, "hands")]
        talon_masks = [check_mask(t, "a talon") for t in _four(talons, "talons")]
        seen = 0
        for seat in range(4):
            if hand_masks[seat].bit_count() != 6 or talon_masks[seat].bit_count() != 2:
                raise InvalidValueError(f"seat {seat} needs 6 cards and a 2-card talon")
            for part in (hand_masks[seat], talon_masks[seat]):
                if seen & part:
                    dup = ", ".join(str(c) for c in cards_in(seen & part))
                    raise InvalidValueError(f"{dup} dealt twice")
                seen |= part
        if seen != ALL_CARDS_MASK:  # pragma: no cover - implied by the counts above
            raise InvalidValueError("a deal uses all 32 cards")
        self._start(
            first,
            (hand_masks[0], hand_masks[1], hand_masks[2], hand_masks[3]),
            (talon_masks[0], talon_masks[1], talon_masks[2], talon_masks[3]),
            checked_rules,
            checked_seed,
        )

    def _start(
        self,
        dealer: int,
        hands: Four,
        talons: Four,
        rules: Rules,
        seed: int | None,
    ) -> None:
        """Set up the freshly dealt state (the deal is trusted here)."""
        self.rules = rules
        self.dealer = dealer
        self.seed = seed
        self.deal_hands = hands
        self.deal_talons = talons
        self._phase = _BIDDING
        self._bids: list[tuple[int, Pass | Call]] = []
        self._caller = -1
        self._trump = -1
        self._h0, self._h1, self._h2, self._h3 = hands
        self._declarations: tuple[tuple[Zvanje, ...], ...] | None = None
        self._zvanja_pts: Pair = (0, 0)
        self._zvanja_seat = -1
        self._zvanja_team = -1
        self._bela_seat = -1
        self._bela0 = self._bela1 = 0
        self._bela_by = -1
        self._silent = 0
        self._leader = (dealer + 1) % 4
        self._to_play = (dealer + 1) % 4
        self._trick: list[int] = []
        self._win_card = -1
        self._win_pos = -1
        # each finished trick as one flat tuple: leader, its four cards, winner, points
        self._history: list[Trick] = []
        self._pts0 = self._pts1 = 0  # card points taken, by team
        self._won0 = self._won1 = 0  # tricks taken, by team
        self._actions: list[Action] = []
        self._result: RoundResult | None = None
        self._claim_context = None
        self._match_context = None

    @classmethod
    def from_hands(
        cls, dealer: object, hands: object, talons: object, rules: object = DEFAULT_RULES
    ) -> Round:
        """A round from an explicit deal: 4 × 6 cards and 4 × 2 talon cards, by seat (each a
        list of ``Card``, text or indices, or one string like ``"JH 9H AH 7S 8S 9S"``)."""
        dealer = check_seat(dealer, "the dealer")
        hand_masks = [mask_of(h) for h in _four(hands, "hands")]
        talon_masks = [mask_of(t) for t in _four(talons, "talons")]
        return cls(dealer, hand_masks, talon_masks, rules)

    @classmethod
    def from_seed(cls, seed: object, dealer: object = 0, rules: object = DEFAULT_RULES) -> Round:
        """A round dealt from an integer seed (the same cards on every platform)."""
        first = (
            dealer if type(dealer) is int and 0 <= dealer <= 3 else check_seat(dealer, "the dealer")
        )
        checked_rules = rules if type(rules) is Rules else _check_rules(rules)
        checked_seed = check_seed(seed)
        hands, talons = dealt(checked_seed, first)
        rnd = _blank(cls)  # without the checks of __init__
        # a seeded deal is valid by construction
        rnd._start(first, hands, talons, checked_rules, checked_seed)
        return rnd

    @classmethod
    def random(cls, rng: object, dealer: object = 0, rules: object = DEFAULT_RULES) -> Round:
        """A round dealt from a seed drawn from ``rng``, a ``random.Random`` (the caller owns the
        randomness)."""
        return cls.from_seed(_getrandbits(rng)(64), dealer, rules)

    def copy(self) -> Round:
        """An independent copy (for search: copy once, then ``push`` in place)."""
        new = _blank(Round)
        new.rules = self.rules
        new.dealer = self.dealer
        new.seed = self.seed
        new.deal_hands = self.deal_hands
        new.deal_talons = self.deal_talons
        new._phase = self._phase
        new._bids = self._bids.copy()
        new._caller = self._caller
        new._trump = self._trump
        new._h0 = self._h0
        new._h1 = self._h1
        new._h2 = self._h2
        new._h3 = self._h3
        new._declarations = self._declarations
        new._zvanja_pts = self._zvanja_pts
        new._zvanja_seat = self._zvanja_seat
        new._zvanja_team = self._zvanja_team
        new._bela_seat = self._bela_seat
        new._bela0 = self._bela0
        new._bela1 = self._bela1
        new._bela_by = self._bela_by
        new._silent = self._silent
        new._leader = self._leader
        new._to_play = self._to_play
        new._trick = self._trick.copy()
        new._win_card = self._win_card
        new._win_pos = self._win_pos
        new._history = self._history.copy()
        new._pts0 = self._pts0
        new._pts1 = self._pts1
        new._won0 = self._won0
        new._won1 = self._won1
        new._actions = self._actions.copy()
        new._result = self._result
        new._claim_context = self._claim_context
        new._match_context = self._match_context
        return new

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its fields (the compiled class has no default pickling)."""
        state = {name: getattr(self, name) for name in _ROUND_FIELDS if hasattr(self, name)}
        return _restored, (state,)

    def replay(self, actions: object) -> Round:
        """This round with ``actions`` applied in order (each validated)."""
        new = self.copy()
        for action in check_sequence(actions, "actions"):
            new.push(action)
        return new

    # ------------------------------------------------------------------ state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def first_player(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is, or None once the round is finished."""
        if self._phase is _FINISHED:
            return None
        if self._phase is _BIDDING:
            return (self.dealer + 1 + len(self._bids)) % 4
        return self._to_play

    @property
    def trump(self) -> Suit | None:
        return None if self._trump < 0 else _SUITS[self._trump]

    @property
    def caller(self) -> int | None:
        return None if self._caller < 0 else self._caller

    @property
    def bids(self) -> tuple[tuple[int, Pass | Call], ...]:
        return tuple(self._bids)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action so far; ``from_hands``/``from_seed`` + these replays the round."""
        return tuple(self._actions)

    @property
    def result(self) -> RoundResult | None:
        return self._result

    @property
    def is_finished(self) -> bool:
        return self._phase is _FINISHED

    def hand(self, seat: object) -> list[Card]:
        """The cards a seat holds now (6 before the call, then 8 less those played)."""
        seat = seat if type(seat) is int and 0 <= seat <= 3 else check_seat(seat)
        return mask_cards(self._hand(seat))

    def hand_mask(self, seat: object) -> int:
        seat = seat if type(seat) is int and 0 <= seat <= 3 else check_seat(seat)
        return self._hand(seat)

    def talon(self, seat: object) -> list[Card]:
        seat = seat if type(seat) is int and 0 <= seat <= 3 else check_seat(seat)
        return mask_cards(self.deal_talons[seat])

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards on the table in the trick in progress, in play order."""
        return tuple(map(CARDS.__getitem__, self._trick))

    @property
    def trick_leader(self) -> int:
        return self._leader

    @property
    def tricks(self) -> tuple[CompletedTrick, ...]:
        cards = CARDS
        return tuple(
            CompletedTrick(leader, (cards[c0], cards[c1], cards[c2], cards[c3]), winner, points)
            for leader, c0, c1, c2, c3, winner, points in self._history
        )

    @property
    def card_points(self) -> Pair:
        """Card points taken so far (the last trick's 10 included once it is won)."""
        return self._pts0, self._pts1

    @property
    def tricks_won(self) -> Pair:
        return self._won0, self._won1

    def declarations(self, seat: object) -> tuple[Zvanje, ...]:
        """A seat's zvanja in its eight cards (empty before the call), best first."""
        seat = seat if type(seat) is int and 0 <= seat <= 3 else check_seat(seat)
        if self._trump < 0 or self.rules.no_zvanja:
            return ()
        if self._declarations is None:
            self._declarations = tuple(
                tuple(zvanja_of_mask(self.deal_hands[s] | self.deal_talons[s])) for s in range(4)
            )
        return self._declarations[seat]

    def declared(self, seat: object) -> tuple[Zvanje, ...]:
        """A seat's zvanja as the table knows them: none once it has kept them to itself."""
        seat = seat if type(seat) is int and 0 <= seat <= 3 else check_seat(seat)
        return () if self._silent >> seat & 1 else self.declarations(seat)

    @property
    def silent_seats(self) -> tuple[int, ...]:
        """The seats that kept their zvanja to themselves (``Silent``), in seat order."""
        return tuple(s for s in range(4) if self._silent >> s & 1)

    def can_stay_silent(self) -> bool:
        """Whether the player to act may keep his zvanja to himself (``Silent``) now.

        In the first trick, before his card, when he holds a declaration and has
        not said "šutim" already. Not listed in ``legal_actions``: it is never
        needed to finish a round, and the lists stay the plays they were for
        every caller that picks from them (search, random play).
        """
        seat = self._to_play
        return (
            self._phase is _PLAYING
            and not self._history
            and not self._silent >> seat & 1
            and bool(self.declarations(seat))
        )

    @property
    def zvanja_team(self) -> int | None:
        """The team whose zvanja count (after the call), or None."""
        return None if self._zvanja_team < 0 else self._zvanja_team

    @property
    def zvanja_points(self) -> Pair:
        """Recognised zvanja points per team."""
        return self._zvanja_pts

    @property
    def bela_seat(self) -> int | None:
        """The seat that holds (or held) both trump K and Q, if any."""
        return None if self._bela_seat < 0 else self._bela_seat

    @property
    def bela_announced_by(self) -> int | None:
        return None if self._bela_by < 0 else self._bela_by

    @property
    def claim_context(self) -> tuple[int, int, int] | None:
        """(team 0's score, team 1's score, target) before this round, when "dosta" may be said.

        Set by ``Match`` for a round of a match played "na dosta"; None otherwise
        (a bare round, "na prolaz", or a quick match, which has no target score).
        """
        return self._claim_context

    def with_claim_context(self, scores: object, target: object) -> Round:
        """A copy of this round in which a claim is checked against ``scores`` and ``target``.

        Only under ``Rules(dosta=True)``; the match deals each round this way.
        """
        if not self.rules.dosta:
            raise InvalidValueError("a claim needs Rules(dosta=True): the match is 'na prolaz'")
        pair = check_sequence(scores, "the scores")
        if len(pair) != 2:
            raise InvalidValueError(f"the scores are two numbers, not {quoted(scores)}")
        s0 = check_int(pair[0], "a score", 0)
        s1 = check_int(pair[1], "a score", 0)
        new = self.copy()
        new._claim_context = (s0, s1, check_int(target, "the target", 1))
        return new

    def counted(self, team: object) -> int:
        """What ``team`` has counted so far: match score, card points, zvanja and bela.

        The number a "dosta" claim is checked against: the team's score before this
        round (0 outside a match played "na dosta"), the card points of the tricks it
        has taken (the last trick's 10 included once won), its recognised zvanja and
        its announced bela.
        """
        team = check_int(team, "a team", 0, 1)
        base = 0 if self._claim_context is None else self._claim_context[team]
        if team:
            return base + self._pts1 + self._zvanja_pts[1] + self._bela1
        return base + self._pts0 + self._zvanja_pts[0] + self._bela0

    def can_claim(self) -> bool:
        """Whether the player to act may say "dosta" now.

        Under ``Rules(dosta=True)`` in a match with a target score: during play, at
        least one trick taken, no card yet on the next trick: the player to lead is
        the one who has just won a trick.
        """
        return (
            self._claim_context is not None
            and self._phase is _PLAYING
            and not self._trick
            and bool(self._history)
        )

    def __repr__(self) -> str:
        return (
            f"<Round dealer={self.dealer} phase={self._phase.value} "
            f"trump={self.trump} to_act={self.to_act} actions={len(self._actions)}>"
        )

    def _hand(self, seat: int) -> int:
        """The mask a seat holds now (four int fields: the compiled build boxes no mask)."""
        if seat == 0:
            return self._h0
        if seat == 1:
            return self._h1
        if seat == 2:
            return self._h2
        return self._h3

    def _add_bela(self, seat: int) -> None:
        """``seat`` announces bela: its team's 20 points."""
        if seat & 1:
            self._bela1 += BELA_POINTS
        else:
            self._bela0 += BELA_POINTS
        self._bela_by = seat

    # ------------------------------------------------------------------ legality

    def legal_mask(self) -> int:
        """The cards the player to act may play, as a mask (0 outside the play phase)."""
        if self._phase is not _PLAYING:
            return 0
        hand = self._hand(self._to_play)
        if not self._trick:
            return hand
        return legal_mask(hand, self._trick[0] >> 3, self._win_card, self._trump)

    def can_announce_bela(self, card: object) -> bool:
        """Whether playing ``card`` (a ``Card``, text or index) now may carry a bela
        announcement."""
        card = card if type(card) is int and 0 <= card <= 31 else int(to_card(card))
        seat = self._to_play
        if seat != self._bela_seat or self._phase is not _PLAYING:  # the cheap test first
            return False
        both = BELA_MASK[self._trump]
        bit = 1 << card
        if self.rules.bela_on_second:
            # the card is one of trump K/Q and the other one has already left the hand
            return bool(both & bit) and self._hand(seat) & both == bit
        # the card is one of trump K/Q and the other one is still in the hand
        return bool(both & bit) and self._hand(seat) & both == both

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now."""
        if self._phase is _BIDDING:
            forced = len(self._bids) == 3 and not self.rules.no_forced_trump
            return list(CALLS) if forced else [PASS, *CALLS]
        if self._phase is _PLAYING:
            out: list[Action] = []
            # the cards that may carry bela: with the first of trump K/Q, either while the
            # bela seat holds both; with the second, the one it still holds
            bela_bit = 0
            if self._to_play == self._bela_seat:
                both = BELA_MASK[self._trump]
                held = self._hand(self._to_play) & both
                if self.rules.bela_on_second:
                    if held != both:
                        bela_bit = held
                elif held == both:
                    bela_bit = both
            for card in mask_cards(self.legal_mask()):
                out.append(PLAYS[card])
                if bela_bit >> card & 1:
                    out.append(PLAYS_BELA[card])
            if self.can_claim():
                out.append(CLAIM)
            return out
        return []

    def _check(self, action: object, seat: object) -> Action:
        """Raise the specific error for an action that is not allowed now.

        First the action's shape (a ``Pass``, ``Call`` or ``Play`` whose fields are a
        ``Suit``, a ``Card`` and a bool, however it was built) and the seat (0..3),
        then the rules.
        """
        act: Any = action  # whatever the caller handed in, until it is checked
        cls = act.__class__
        try:  # the common case, well-formed, in a few compares; _check_shape says what is wrong
            if cls is Play:
                bela = act.bela
                well_formed = act.card.__class__ is Card and (bela is True or bela is False)
            else:
                well_formed = cls is Pass or (cls is Call and act.suit.__class__ is Suit)
        except AttributeError:  # a Play or Call made with object.__new__: its fields are unset
            well_formed = False
        if not well_formed and cls is not Claim and cls is not Silent:
            _check_shape(action)
        if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
            seat = check_seat(seat, "the seat acting", MalformedActionError)
        if self._phase is _FINISHED:
            raise RoundOverError("the round is over: no more actions")
        if seat is not None and seat != self.to_act:
            raise OutOfTurnError(f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if isinstance(action, Claim):
            if not self.rules.dosta or self._claim_context is None:
                raise IllegalClaimError(
                    "'dosta' is not part of this game: the match is played out ('na prolaz')"
                )
            if not self.can_claim():
                raise IllegalClaimError(
                    "'dosta' is said by the player who has just won a trick, before the next lead"
                )
            return action
        if isinstance(action, Silent):
            if self._phase is not _PLAYING or self._history:
                raise WrongPhaseError("zvanja are kept back in the first trick, before one's card")
            if self._silent >> self._to_play & 1:
                raise WrongPhaseError("this player has already kept his zvanja back")
            if not self.declarations(self._to_play):
                raise WrongPhaseError("this player has no zvanja to keep back")
            return action
        if isinstance(action, (Pass, Call)):
            if self._phase is not _BIDDING:
                raise WrongPhaseError(f"trump is already {self.trump}: play a card")
            if isinstance(action, Pass) and len(self._bids) == 3 and not self.rules.no_forced_trump:
                raise IllegalBidError("the dealer may not say dalje: name a trump suit")
            return action
        if not isinstance(action, Play):  # pragma: no cover - _check_shape refused it above
            raise MalformedActionError(f"{quoted(action)} is not an action")
        if self._phase is not _PLAYING:
            raise WrongPhaseError("trump has not been named yet: pass (dalje) or name a suit")
        card = int(action.card)
        hand = self._hand(self._to_play)
        reason = illegal_reason(hand, self._trick, self._trump, card)
        if reason is not None:
            raise IllegalPlayError(english_reason(reason), reason)
        if action.bela and not self.can_announce_bela(card):
            which = "second" if self.rules.bela_on_second else "first"
            raise IllegalBelaError(
                f"bela is announced with the {which} of the trump king and queen held by one "
                f"player; {action.card} is not that card"
            )
        return action

    def is_legal(self, action: object) -> bool:
        try:
            self._check(action, None)
        except ValueError:
            return False
        return True

    # ------------------------------------------------------------------ transitions

    def apply(self, action: object, seat: object = None) -> Round:
        """The round after ``action`` (an ``Action``); this round is unchanged.

        ``seat``, if given, must be the seat to act (``OutOfTurnError`` otherwise).
        Any illegal action raises an ``IllegalActionError`` subclass explaining why.
        """
        checked = self._check(action, seat)
        new = self.copy()
        new._push_checked(checked)
        return new

    def push(self, action: object, seat: object = None) -> None:
        """Apply ``action`` in place (validated). For search on a ``copy()``."""
        self._push_checked(self._check(action, seat))

    def _push_checked(self, action: Action) -> None:
        if isinstance(action, Play):
            self.push_card(int(action.card), action.bela)
        elif isinstance(action, Claim):
            self._actions.append(CLAIM)
            self._finish_claimed()
        elif isinstance(action, Silent):
            self._actions.append(SILENT)
            self._silent |= 1 << self._to_play
            self._compare_declared()
        elif isinstance(action, Call):
            self._bid_call(int(action.suit))
        else:
            self._bid_pass()

    def _bid_pass(self) -> None:
        bids = self._bids
        bids.append(((self.dealer + 1 + len(bids)) & 3, PASS))
        self._actions.append(PASS)
        if len(bids) == 4:
            self._finish_unplayed(None)

    def _bid_call(self, trump: int) -> None:
        call = CALLS[trump]  # the canonical instance, whatever was handed in
        bids = self._bids
        seat = (self.dealer + 1 + len(bids)) & 3
        bids.append((seat, call))
        self._actions.append(call)
        self._call(seat, trump)

    def _call(self, seat: int, trump: int) -> None:
        self._caller = seat
        self._trump = trump
        t0, t1, t2, t3 = self.deal_talons
        h0 = self._h0 = self._h0 | t0
        h1 = self._h1 = self._h1 | t1
        h2 = self._h2 = self._h2 | t2
        h3 = self._h3 = self._h3 | t3
        first = (self.dealer + 1) & 3
        rules = self.rules
        # someone holds eight cards of one suit (belot is a declaration: not without zvanja);
        # such a hand is 255 times a power of 256, so 0 modulo 255 (so are a few others)
        if not rules.no_zvanja and not (h0 % 255 and h1 % 255 and h2 % 255 and h3 % 255):
            hands = (h0, h1, h2, h3)
            for offset in range(4):
                s = (first + offset) & 3
                if hands[s] in _SUIT_MASKS:
                    self._finish_unplayed(s)
                    return
        if not rules.no_bela:
            both = BELA_MASK[trump]
            if h0 & both == both:
                self._bela_seat = 0
            elif h1 & both == both:
                self._bela_seat = 1
            elif h2 & both == both:
                self._bela_seat = 2
            elif h3 & both == both:
                self._bela_seat = 3
        if not rules.no_zvanja:
            best_seat, self._zvanja_pts = best_zvanja_of(
                h0, h1, h2, h3, first, rules.tens_over_kings
            )
            if best_seat >= 0:
                self._zvanja_seat = best_seat
                self._zvanja_team = best_seat & 1
        self._phase = _PLAYING

    def _compare_declared(self) -> None:
        """The zvanja comparison again, over the seats that have not kept theirs back.

        The same comparison as at the call (one rule, one implementation); a silent
        seat takes part as a hand with nothing to declare.
        """
        hands = [
            0 if self._silent >> s & 1 else self.deal_hands[s] | self.deal_talons[s]
            for s in range(4)
        ]
        first = (self.dealer + 1) & 3
        best_seat, self._zvanja_pts = best_zvanja_seat(hands, first, self.rules.tens_over_kings)
        self._zvanja_seat = best_seat
        self._zvanja_team = best_seat & 1 if best_seat >= 0 else -1

    def push_card(self, card: int, bela: bool = False) -> None:
        """Play ``card`` for the seat to act, in place, without validation (search's fast path)."""
        seat = self._to_play
        bit = 1 << card
        if seat == 0:
            self._h0 ^= bit
        elif seat == 1:
            self._h1 ^= bit
        elif seat == 2:
            self._h2 ^= bit
        else:
            self._h3 ^= bit
        trick = self._trick
        if not trick:
            self._win_card = card
            self._win_pos = 0
        elif BEATS[self._trump * 32 + self._win_card] >> card & 1:
            self._win_card = card
            self._win_pos = len(trick)
        trick.append(card)
        if bela:
            self._add_bela(seat)
            self._actions.append(PLAYS_BELA[card])
        else:
            self._actions.append(PLAYS[card])
        if len(trick) < 4:
            self._to_play = (seat + 1) & 3
            return
        winner = (self._leader + self._win_pos) & 3
        base = self._trump * 32
        points = (
            CARD_POINTS[base + trick[0]]
            + CARD_POINTS[base + trick[1]]
            + CARD_POINTS[base + trick[2]]
            + CARD_POINTS[base + trick[3]]
        )
        history = self._history
        if len(history) == 7:
            points += LAST_TRICK_BONUS
        history.append((self._leader, trick[0], trick[1], trick[2], trick[3], winner, points))
        if winner & 1:
            self._pts1 += points
            self._won1 += 1
        else:
            self._pts0 += points
            self._won0 += 1
        trick.clear()
        self._leader = self._to_play = winner
        if len(history) == 8:
            self._finish_played()

    def play_out_random(self, rng: Random) -> RoundResult:
        """Play the rest of the round in place with uniformly random legal actions.

        The hot loop of random rollouts and of the engine benchmark: the same
        transitions as ``push``/``push_card``, inlined a trick at a time. Bids
        still to make are drawn first (pass or any suit; the forced dealer names
        one). Bela is always announced when it may be (with the first or the
        second card, as the rules say). Every house rule is honoured; "dosta" is
        never said (a claim is a choice, and the playout plays the deal out).
        Returns the result.

        In the main loop a choice among ``n`` cards is the next digit, in base ``n``, of a
        60-bit ``getrandbits`` draw: three calls serve the whole play (in the compiled build
        a call costs more than a trick's arithmetic), and a draw is taken afresh before the
        digits' bases can multiply past 2**30 (``_DRAW_AT``), so every choice is uniform to
        within 2**-30 (under 1e-9). The bids and a trick already in progress take one 32-bit
        draw a choice.
        """
        grb = _getrandbits(rng)
        if self._result is not None:
            raise WrongPhaseError("play_out_random needs a round that is not finished")
        if self._phase is _BIDDING:
            self._bid_randomly(grb)
            ended = self._ended()
            if ended is not None:  # belot, or four passes without a forced dealer
                return ended
        while self._trick:  # finish a trick in progress the plain way
            allowed = self.legal_mask()
            skip = grb(32) % allowed.bit_count()
            while skip:
                allowed &= allowed - 1
                skip -= 1
            chosen = (allowed & -allowed).bit_length() - 1
            self.push_card(chosen, self.can_announce_bela(chosen))
            ended = self._ended()
            if ended is not None:
                return ended
        # native ints (i64) in the compiled build: C arithmetic with no tag checks
        trump: i64 = self._trump
        h0, h1, h2, h3 = self._h0, self._h1, self._h2, self._h3
        # the ranks each seat holds in each suit, as bytes: hs[seat * 4 + suit]
        hs = [
            h0 & 0xFF,
            h0 >> 8 & 0xFF,
            h0 >> 16 & 0xFF,
            h0 >> 24,
            h1 & 0xFF,
            h1 >> 8 & 0xFF,
            h1 >> 16 & 0xFF,
            h1 >> 24,
            h2 & 0xFF,
            h2 >> 8 & 0xFF,
            h2 >> 16 & 0xFF,
            h2 >> 24,
            h3 & 0xFF,
            h3 >> 8 & 0xFF,
            h3 >> 16 & 0xFF,
            h3 >> 24,
        ]
        count = _COUNT
        kth = _KTH
        card_of = _CARD_OF
        above_of = _ABOVE[trump]
        points_of = _POINTS[trump]
        follow_at = _FOLLOW_AT
        bela_seat = self._bela_seat
        # under the first-card rule the announcement is still to come only while the
        # bela seat holds both cards; a first card played silently gave bela up
        bela_first = (
            bela_seat >= 0
            and not self.rules.bela_on_second
            and self._bela_by < 0
            and self._hand(bela_seat) & BELA_MASK[trump] == BELA_MASK[trump]
        )
        history = self._history
        leader: i64 = self._leader
        played: list[int] = []
        bela_at = -1
        done: i64 = len(history)
        win: i64 = -1
        pts0: i64 = 0
        pts1: i64 = 0
        won0: i64 = 0
        won1: i64 = 0
        n: i64
        k: i64
        at: i64
        s: i64
        b: i64
        c: i64
        bit: i64
        led: i64
        win_suit: i64
        card: i64
        points: i64
        above: i64
        legal: i64
        win_at: i64
        win_seat: i64
        t: i64
        pool: i64 = grb(60)  # the digits of the last draw not read yet
        draw_at = _DRAW_AT
        while done < 8:
            n = 8 - done  # every hand holds this many cards at the lead
            # the lead: the k-th card of the hand, counting suit by suit
            if draw_at[done]:
                pool = grb(60)
            k = pool % n
            pool //= n
            at = leader * 4
            s = 0
            b = hs[at]
            c = count[b]
            while k >= c:
                k -= c
                s += 1
                b = hs[at + s]
                c = count[b]
            bit = kth[b << 3 | k]
            hs[at + s] = b ^ bit
            led = win_suit = s
            win = card_of[s << 8 | bit]
            played.append(win)
            points = points_of[win]
            above = above_of[win]  # the ranks of the winning suit that beat the winner
            win_at = at
            for at in follow_at[leader]:
                b = hs[at + led]
                if b:
                    s = led
                else:
                    b = hs[at + trump]
                    if b:
                        s = trump
                    else:  # neither the suit led nor trump: any card, as at the lead
                        k = pool % n
                        pool //= n
                        s = 0
                        b = hs[at]
                        c = count[b]
                        while k >= c:
                            k -= c
                            s += 1
                            b = hs[at + s]
                            c = count[b]
                        bit = kth[b << 3 | k]
                        hs[at + s] = b ^ bit
                        card = card_of[s << 8 | bit]
                        played.append(card)
                        points += points_of[card]
                        continue
                # follow (or trump), beating the winner when it is in this suit and one can
                legal = b & above or b if s == win_suit else b
                c = count[legal]
                if c > 1:
                    bit = kth[legal << 3 | pool % c]
                    pool //= c
                else:
                    bit = legal
                hs[at + s] = b ^ bit
                card = card_of[s << 8 | bit]
                played.append(card)
                points += points_of[card]
                if s == win_suit:
                    if above & bit:
                        win = card
                        win_at = at
                        above = above_of[card]
                elif s == trump:  # the first trump on a plain lead
                    win = card
                    win_at = at
                    win_suit = s
                    above = above_of[card]
            t = len(played) - 4
            done += 1
            if done == 8:
                points += LAST_TRICK_BONUS
            win_seat = win_at >> 2
            history.append(
                (leader, played[t], played[t + 1], played[t + 2], played[t + 3], win_seat, points)
            )
            if win_seat & 1:
                pts1 += points
                won1 += 1
            else:
                pts0 += points
                won0 += 1
            leader = win_seat
        self._pts0 += pts0
        self._pts1 += pts1
        self._won0 += won0
        self._won1 += won1
        self._h0 = self._h1 = self._h2 = self._h3 = 0
        plays = PLAYS
        actions = [plays[c] for c in played]
        if bela_first:
            # bela goes with the first of trump K and Q, both still in the holder's hand
            king, queen = trump * 8 + _KING, trump * 8 + _QUEEN
            bela_at = min(played.index(king), played.index(queen))
        elif bela_seat >= 0 and self.rules.bela_on_second:
            # bela goes with the second of trump K and Q, both in the holder's hand at the
            # call; one played before this playout leaves the other as the second
            king, queen = trump * 8 + _KING, trump * 8 + _QUEEN
            bela_at = max(
                played.index(king) if king in played else -1,
                played.index(queen) if queen in played else -1,
            )
        if bela_at >= 0:
            actions[bela_at] = PLAYS_BELA[played[bela_at]]
            self._add_bela(bela_seat)
        self._actions.extend(actions)
        self._leader = self._to_play = leader
        self._win_card = win
        last = history[7]  # the last trick: who led it and who won it
        self._win_pos = (last[5] - last[0]) & 3
        self._finish_played()
        result = self._ended()
        assert result is not None
        return result

    def _ended(self) -> RoundResult | None:
        """``_result``, read afresh: after ``if self._result is not None: raise`` mypy holds it
        None through the calls that set it, and mypyc compiles that belief into a type check."""
        return self._result

    def _bid_randomly(self, getrandbits: Callable[[int], int]) -> None:
        """Make the bids still due at random: each legal bid equally likely."""
        forced_allowed = not self.rules.no_forced_trump
        while self._phase is _BIDDING:
            if len(self._bids) == 3 and forced_allowed:
                # the forced dealer names one of four suits
                self._bid_call(getrandbits(32) & 3)
            else:
                choice = getrandbits(32) % 5  # 0 is dalje
                if choice:
                    self._bid_call(choice - 1)
                else:
                    self._bid_pass()

    # ------------------------------------------------------------------ endings

    def _finish_played(self) -> None:
        rules = self.rules
        pts0, pts1 = self._pts0, self._pts1
        z0, z1 = self._zvanja_pts
        bela0, bela1 = self._bela0, self._bela1
        won0, won1 = self._won0, self._won1
        t0, t1, w0, w1, fell, stiglja, tie, hanging = tally_flat(
            self._caller,
            pts0,
            pts1,
            z0,
            z1,
            bela0,
            bela1,
            won0,
            won1,
            rules.visi,
            rules.stiglja_bonus,
            rules.bela_always_counts,
        )
        totals = (t0, t1)
        # tuple.__new__ skips the named tuple's Python-level __new__: this runs at
        # the end of every simulated round
        self._result = _new_tuple(
            RoundResult,
            (
                totals if fell is False else (w0, w1),
                (pts0, pts1),
                (z0, z1),
                (bela0, bela1),
                (won0, won1),
                totals,
                self._caller,
                _SUITS[self._trump],
                fell,
                tie,
                hanging,
                None if stiglja < 0 else stiglja,
                None,
                None,
                False,
                None,
                False,
            ),
        )
        self._phase = _FINISHED

    def _finish_claimed(self) -> None:
        """End the round on a "dosta": check the claim; what each team counted is written.

        A claim that holds writes each team's counted points (card points so far,
        recognised zvanja, announced bela): no "more than half" test, the deal was
        not finished. A wrong claim is written like a pad against the claimers:
        they write 0 and the other team writes both teams' counted points. The
        match ends either way (``Match``): for the claimers if the claim held,
        for the other team if it did not.
        """
        assert self._claim_context is not None
        team = self._to_play & 1
        totals = (
            self._pts0 + self._zvanja_pts[0] + self._bela0,
            self._pts1 + self._zvanja_pts[1] + self._bela1,
        )
        ok = self.counted(team) >= self._claim_context[2]
        if ok:
            points = totals
        else:
            combined = totals[0] + totals[1]
            points = (0, combined) if team == 0 else (combined, 0)
        self._result = RoundResult(
            points=points,
            card_points=self.card_points,
            zvanja=self._zvanja_pts,
            bela=(self._bela0, self._bela1),
            tricks=self.tricks_won,
            totals=totals,
            caller=self.caller,
            trump=self.trump,
            fell=False,
            tie=False,
            hanging=0,
            stiglja=None,
            belot=None,
            belot_seat=None,
            redeal=False,
            claim=team,
            claim_ok=ok,
        )
        self._phase = _FINISHED

    def _finish_unplayed(self, belot_seat: int | None) -> None:
        """End a round whose cards are not played: belot, or four passes (a void deal)."""
        zero = (0, 0)
        self._result = RoundResult(
            points=zero,
            card_points=zero,
            zvanja=zero,
            bela=zero,
            tricks=zero,
            totals=zero,
            caller=self.caller,
            trump=self.trump,
            fell=False,
            tie=False,
            hanging=0,
            stiglja=None,
            belot=None if belot_seat is None else belot_seat % 2,
            belot_seat=belot_seat,
            redeal=belot_seat is None,
        )
        self._phase = _FINISHED

    # ------------------------------------------------------------------ views

    def view(self, seat: object) -> SeatView:
        """What ``seat`` may know now (its own cards, the public record, nothing else)."""
        seat = seat if type(seat) is int and 0 <= seat <= 3 else check_seat(seat)
        called = self._trump >= 0
        shown: tuple[tuple[int, tuple[Zvanje, ...]], ...] = ()
        if self._zvanja_team >= 0:
            t = self._zvanja_team
            shown = tuple((s, self.declared(s)) for s in (t, t + 2) if self.declared(s))
        elif self._result is not None and self._result.belot_seat is not None:
            # belot is shown to the table: it is what ends the round
            shown = ((self._result.belot_seat, self.declarations(self._result.belot_seat)),)
        own = tuple(z for z in self.declarations(seat) if z.kind is not ZvanjeKind.BELOT)
        to_act = self.to_act
        return SeatView(
            seat=seat,
            dealer=self.dealer,
            rules=self.rules,
            phase=self._phase,
            hand=tuple(mask_cards(self._hand(seat))),
            talon=tuple(mask_cards(self.deal_talons[seat])) if called else (),
            bids=tuple(self._bids),
            trump=self.trump,
            caller=self.caller,
            own_zvanja=own,
            shown_zvanja=shown,
            zvanja_team=self.zvanja_team,
            tricks=self.tricks,
            trick_leader=self._leader if self._phase is _PLAYING else None,
            trick=self.trick,
            bela_announced=() if self._bela_by < 0 else (self._bela_by,),
            hand_sizes=(
                self._h0.bit_count(),
                self._h1.bit_count(),
                self._h2.bit_count(),
                self._h3.bit_count(),
            ),
            to_act=to_act,
            legal_actions=tuple(self.legal_actions()) if to_act == seat else (),
            claim_context=self._claim_context,
            match_context=self._match_context,
            silent=self.silent_seats,
            may_stay_silent=to_act == seat and self.can_stay_silent(),
        )


# ---------------------------------------------------------------------- checks at the entry points


def _check_shape(action: object) -> None:
    """``MalformedActionError`` unless ``action`` is a ``Pass``, or a ``Call`` of a ``Suit``, or a
    ``Play`` of a ``Card`` with a bool ``bela``: actions built around their constructors
    (``object.__new__``, ``object.__setattr__``) are caught here, where they enter."""
    cls = action.__class__
    if cls is Play or (cls is not Call and cls is not Pass and isinstance(action, Play)):
        card = getattr(action, "card", None)
        bela = getattr(action, "bela", None)
        if card.__class__ is not Card or (bela is not False and bela is not True):
            raise MalformedActionError(
                f"a Play holds a Card and a bool bela, not {quoted(card)} and {quoted(bela)}: "
                "build it as Play(card) or Play(card, bela=True)"
            )
    elif cls is Call or isinstance(action, Call):
        suit = getattr(action, "suit", None)
        if suit.__class__ is not Suit:
            raise MalformedActionError(
                f"a Call holds a Suit, not {quoted(suit)}: build it as Call(suit)"
            )
    elif cls is not Pass and not isinstance(action, (Pass, Claim, Silent)):
        raise MalformedActionError(
            f"{quoted(action)} is not an action: use Pass(), Call(suit) or Play(card)"
        )


# A round whose fields are still to be set (``from_seed`` and ``copy`` set them all, skipping the
# checks ``__init__`` makes). ``object.__new__(Round)`` would do in pure Python, but a
# mypyc-compiled class refuses it (and its ``__new__`` runs ``__init__``), so ``__init__``
# itself stops at once when handed this list, which nobody else holds.
_UNSET: Final[list[int]] = []


def _blank(cls: type[Round]) -> Round:
    # Round itself by name: the compiled build calls its constructor directly
    return Round(0, _UNSET, _UNSET) if cls is Round else cls(0, _UNSET, _UNSET)


# Round's slots again (mypyc gives no ``Round.__slots__``); a test checks they are the same.
_ROUND_FIELDS: Final = (
    "_actions",
    "_bela0",
    "_bela1",
    "_bela_by",
    "_bela_seat",
    "_bids",
    "_caller",
    "_claim_context",
    "_declarations",
    "_h0",
    "_h1",
    "_h2",
    "_h3",
    "_history",
    "_leader",
    "_match_context",
    "_phase",
    "_pts0",
    "_pts1",
    "_result",
    "_silent",
    "_to_play",
    "_trick",
    "_trump",
    "_win_card",
    "_win_pos",
    "_won0",
    "_won1",
    "_zvanja_pts",
    "_zvanja_seat",
    "_zvanja_team",
    "deal_hands",
    "deal_talons",
    "dealer",
    "rules",
    "seed",
)


def _restored(state: dict[str, Any]) -> Round:
    """A round unpickled (``Round.__reduce__``)."""
    rnd = _blank(Round)
    for name, value in state.items():
        setattr(rnd, name, value)
    return rnd


def _check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise InvalidValueError(f"rules are a Rules(...), not {quoted(rules)}")
    return rules


def _four(parts: object, what: str) -> list[Any]:
    """The four per-seat parts of a deal (hands or talons)."""
    items = check_sequence(parts, what)
    if len(items) != 4:
        raise InvalidValueError(f"a deal has four {what}, by seat, not {len(items)}")
    return items


def _getrandbits(rng: object) -> Callable[[int], int]:
    """``rng.getrandbits`` (``InvalidValueError`` if ``rng`` is not a ``random.Random``-like)."""
    try:
        getrandbits: Callable[[int], int] = rng.getrandbits  # type: ignore[attr-defined]
    except AttributeError:
        raise InvalidValueError(f"rng is a random.Random, not {quoted(rng)}") from None
    return getrandbits
