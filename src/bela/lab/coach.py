"""The coach: where a player's written points went, over their archived matches.

For every finished round of a match it asks two questions about each card the
player played from trick 3 on (``bela.search.analysis``; earlier tricks cost the
solver far more):

* against the best play with every card seen (double dummy): how many written
  points the card gave away (``lost``);
* against the hard bot with only the player's view (``bela.lab.card_review``): what
  the hard bot's card is worth on average over the deals the seat could be facing,
  less the player's card on the same deals (``vs_hard``, never negative: the bot's
  card is the one it values most). A card the hard bot plays too is never blamed,
  whatever the double dummy says.

And about the bidding: the rounds the player called trump and fell (pad), the
rounds they were forced to call as dealer (pod mus), with what falling cost; and,
with the hard bot, each dalje the hard bot's bid search finds clearly worth less
than calling, and each suit named pod mus clearly worth less than another
(``bela.lab.coach_bids``).

Everything is a pure function of the match and the seat, so a lesson is computed
once per match and cached (``bela.archive.coach_cache``), and the lab's runner
can spread the first computation over worker processes. ``report`` adds lessons
up by role in the trick, by trick, by bidding, over time (the role, trick and time
figures against the hard bot from the player's information, as the habits are; the
double-dummy ones are kept beside them for ``--no-bot``), and names the three
costliest habits with an example each: a habit is a kind of fault (a place in the
trick, a bid, falling) that was the costliest fault of at least three rounds, and
each round is counted once, under its costliest fault, so a round that fell
because of one card is one costly round, not two habits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from bela.engine import Call, Match, Round
from bela.foundation.numbers import whole_in
from bela.lab.card_review import CardJudgement, review_round
from bela.lab.coach_bids import BID_SAMPLES, BidSlip, bid_slips
from bela.search.analysis import DEFAULT_FROM_TRICK, analyze_round

__all__ = [
    "LESSON_VERSION",
    "BidSlip",
    "CoachReport",
    "Habit",
    "Lesson",
    "Slip",
    "lesson_of",
    "report",
]

LESSON_VERSION = 4
"""3: the hard bot judges each card by its own values from the player's information
(``bela.lab.card_review``), and a lesson keeps its rounds that fell (``falls``).
4: a lesson keeps what each place in the trick and each trick gave away against the hard
bot (``by_role_hard``, ``by_trick_hard``), which the report's tables and trend show.
Bump when what a lesson holds, or how it is computed, changes: cached ones are redone."""

MAX_MATCH_ROUNDS = 10_000
"""More rounds than any match of bela's holds (a record keeps at most a few hundred)."""
_MAX_ROUND_INDEX = 2_000_000
"""A round's index in its match: a match may start at a later deal (a record's
``start_index``, at most 1,000,000), so an index is bounded by that, not by the count."""

HABIT_OCCURRENCES = 3
"""A kind of fault is a habit when it was the costliest fault of at least this many rounds."""

ROLES = ("lead", "second", "third", "fourth")
"""A card's place in its trick (``MoveAnalysis.order``), as habits are named."""


@dataclass(frozen=True, slots=True)
class Slip:
    """One card of the player's that gave written points away against the best play.

    ``round`` is the round's index in the match (0 = first deal), ``trick`` counts
    from 1, ``order`` is the card's place in the trick (0 = led). Cards as the
    engine writes them ("10H"); ``hard`` is the hard bot's card (None if not asked).
    """

    round: int
    trick: int
    order: int
    played: str
    best: str
    hard: str | None
    lost: int
    vs_hard: int


@dataclass(frozen=True, slots=True)
class Lesson:
    """What one match teaches: totals, and the costly cards themselves.

    ``by_role[k]`` / ``by_trick[t]`` are (cards, written points lost against the best
    play) for the player's cards in place ``k`` of a trick / in trick ``t + 1``;
    ``by_role_hard`` / ``by_trick_hard`` the same cards with what they gave away against
    the hard bot from the player's information (``vs_hard``; 0 without the bot).
    ``passed`` counts the player's dalje; ``bid_slips`` are the clear ones among them and
    among the suits named pod mus (judged only with the hard bot).
    """

    seat: int
    rounds: int
    cards: int
    lost: int
    vs_hard: int
    by_role: list[list[int]]
    by_trick: list[list[int]]
    called: int
    fell: int
    fell_lost: int
    pod_mus: int
    pod_mus_fell: int
    slips: list[Slip] = field(default_factory=list)
    passed: int = 0
    bid_slips: list[BidSlip] = field(default_factory=list)
    falls: list[list[int]] = field(default_factory=list)
    """[round index, written points the fall cost] of each round the player called and fell."""
    by_role_hard: list[list[int]] = field(default_factory=lambda: [[0, 0] for _ in ROLES])
    by_trick_hard: list[list[int]] = field(default_factory=lambda: [[0, 0] for _ in range(8)])
    version: int = LESSON_VERSION

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object, rounds_limit: int = MAX_MATCH_ROUNDS) -> Lesson:
        """A cached lesson, every value checked; ``ValueError`` when it is not one of this
        version that this coach could have written for a match of ``rounds_limit`` rounds.

        The cache is a table anyone can edit: a round of ``-6``, 777,777 rounds, a card
        ``"ZZ"``, counts that are strings or do not add up are refused here (the match
        is read again) rather than believed, printed, or crashing the report.
        """
        return _lesson_of_data(data, rounds_limit)


_MAX_CARD_POINTS = 1000
"""More written points than one card or one bid can give away (a round writes under 1000)."""
_CARDS_A_ROUND = 8 - DEFAULT_FROM_TRICK + 1
"""The player's cards the coach reads in one round: one a trick from ``DEFAULT_FROM_TRICK``."""
_KEYS = frozenset(
    (
        "seat",
        "rounds",
        "cards",
        "lost",
        "vs_hard",
        "by_role",
        "by_trick",
        "called",
        "fell",
        "fell_lost",
        "pod_mus",
        "pod_mus_fell",
        "slips",
        "passed",
        "bid_slips",
        "falls",
        "by_role_hard",
        "by_trick_hard",
        "version",
    )
)


def _whole(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = whole_in(data.get(key), low, high)
    if value is None:
        raise ValueError(f"{key} is not a whole number from {low} to {high}")
    return value


def _card_text(value: object, *, none: bool = False) -> str | None:
    from bela.engine import Card

    if value is None and none:
        return None
    if not isinstance(value, str) or len(value) > 3:
        raise ValueError("a card is not one")
    try:
        card = Card.parse(value)
    except ValueError:
        raise ValueError("a card is not one") from None
    if str(card) != value:
        raise ValueError("a card is not written as the coach writes it")
    return value


def _pairs(value: object, count: int, cards: int, lost: int, what: str) -> list[list[int]]:
    """``count`` [cards, written points lost] pairs that add up to ``cards`` and ``lost``."""
    if not isinstance(value, list) or len(value) != count:
        raise ValueError(f"{what} is not {count} pairs")
    out: list[list[int]] = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"{what} is not {count} pairs")
        n = whole_in(pair[0], 0, cards)
        x = whole_in(pair[1], 0, n * _MAX_CARD_POINTS if n is not None else 0)
        if n is None or x is None:
            raise ValueError(f"{what} holds a count out of range")
        out.append([n, x])
    if sum(p[0] for p in out) != cards or sum(p[1] for p in out) != lost:
        raise ValueError(f"{what} does not add up to the totals")
    return out


def _slip_of(value: object) -> Slip:
    if not isinstance(value, dict) or set(value) != {f.name for f in fields(Slip)}:
        raise ValueError("a slip is not one")
    played = _card_text(value["played"])
    best = _card_text(value["best"])
    assert played is not None and best is not None
    return Slip(
        round=_whole(value, "round", 0, _MAX_ROUND_INDEX),
        trick=_whole(value, "trick", DEFAULT_FROM_TRICK, 8),
        order=_whole(value, "order", 0, 3),
        played=played,
        best=best,
        hard=_card_text(value["hard"], none=True),
        lost=_whole(value, "lost", 0, _MAX_CARD_POINTS),
        vs_hard=_whole(value, "vs_hard", -_MAX_CARD_POINTS, _MAX_CARD_POINTS),
    )


def _bid_slip_of(value: object) -> BidSlip:
    suits = ("H", "D", "S", "C")
    if not isinstance(value, dict) or set(value) != {f.name for f in fields(BidSlip)}:
        raise ValueError("a bid slip is not one")
    forced, chosen, best = value["forced"], value["chosen"], value["best"]
    if forced.__class__ is not bool:
        raise ValueError("a bid slip's forced is not true or false")
    if chosen not in (suits if forced else ("dalje",)) or best not in suits:
        raise ValueError("a bid slip's bid is not one")
    return BidSlip(
        round=_whole(value, "round", 0, _MAX_ROUND_INDEX),
        step=_whole(value, "step", 0, 64),
        forced=bool(forced),
        chosen=str(chosen),
        best=str(best),
        lost=_whole(value, "lost", 0, _MAX_CARD_POINTS),
        samples=_whole(value, "samples", 1, 1_000_000),
    )


def _lesson_of_data(data: object, rounds_limit: int) -> Lesson:
    if not isinstance(data, dict) or set(data) != _KEYS:
        raise ValueError("not a lesson")
    if data["version"].__class__ is not int or data["version"] != LESSON_VERSION:
        raise ValueError("a lesson of another version")
    rounds = _whole(data, "rounds", 0, rounds_limit)
    cards = _whole(data, "cards", 0, rounds * _CARDS_A_ROUND)
    lost = _whole(data, "lost", 0, cards * _MAX_CARD_POINTS)
    # a card's loss against the hard bot is never negative (its card is the one it values most)
    vs_hard = _whole(data, "vs_hard", 0, cards * _MAX_CARD_POINTS)
    called = _whole(data, "called", 0, rounds)
    fell = _whole(data, "fell", 0, called)
    pod_mus = _whole(data, "pod_mus", 0, called)
    slips, bids = data["slips"], data["bid_slips"]
    if not isinstance(slips, list) or len(slips) > cards:
        raise ValueError("the slips are not a list of the cards'")
    if not isinstance(bids, list) or len(bids) > rounds:
        raise ValueError("the bid slips are not a list of the rounds'")
    falls = data["falls"]
    if not isinstance(falls, list) or len(falls) != fell:
        raise ValueError("the falls are not one for each round that fell")
    for fall in falls:
        if not isinstance(fall, list) or len(fall) != 2:
            raise ValueError("a fall is not a round and what it cost")
        if whole_in(fall[0], 0, _MAX_ROUND_INDEX) is None:
            raise ValueError("a fall's round is out of range")
        if whole_in(fall[1], -_MAX_CARD_POINTS, _MAX_CARD_POINTS) is None:
            raise ValueError("a fall's cost is out of range")
    return Lesson(
        seat=_whole(data, "seat", 0, 3),
        rounds=rounds,
        cards=cards,
        lost=lost,
        vs_hard=vs_hard,
        by_role=_pairs(data["by_role"], len(ROLES), cards, lost, "by_role"),
        by_trick=_pairs(data["by_trick"], 8, cards, lost, "by_trick"),
        called=called,
        fell=fell,
        fell_lost=_whole(data, "fell_lost", -fell * _MAX_CARD_POINTS, fell * _MAX_CARD_POINTS),
        pod_mus=pod_mus,
        pod_mus_fell=_whole(data, "pod_mus_fell", 0, min(pod_mus, fell)),
        slips=[_slip_of(s) for s in slips],
        passed=_whole(data, "passed", 0, rounds),
        bid_slips=[_bid_slip_of(b) for b in bids],
        falls=[[int(f[0]), int(f[1])] for f in falls],
        by_role_hard=_pairs(data["by_role_hard"], len(ROLES), cards, vs_hard, "by_role_hard"),
        by_trick_hard=_pairs(data["by_trick_hard"], 8, cards, vs_hard, "by_trick_hard"),
    )


def lesson_of(
    match: Match, seat: int, with_bot: bool = True, bid_samples: int = BID_SAMPLES
) -> Lesson:
    """The lesson of ``match`` for the player in ``seat`` (see the module docstring);
    ``bid_samples``: guessed deals for each bid judged (with the hard bot only)."""
    team = seat % 2
    by_role = [[0, 0] for _ in ROLES]
    by_trick = [[0, 0] for _ in range(8)]
    by_role_hard = [[0, 0] for _ in ROLES]
    by_trick_hard = [[0, 0] for _ in range(8)]
    cards = lost = vs_hard = 0
    called = fell = fell_lost = pod_mus = pod_mus_fell = 0
    slips: list[Slip] = []
    bids: list[BidSlip] = []
    falls: list[list[int]] = []
    rounds = passed = 0
    for played in match.rounds:
        result = played.result
        if result.redeal or result.belot is not None or result.claim is not None:
            continue
        rounds += 1
        rnd = match.deal(played.index).replay(played.actions)
        passes, found = bid_slips(
            match.deal(played.index),
            played.actions,
            seat,
            match.seed,
            played.index,
            bid_samples if with_bot else 0,
        )
        passed += passes
        bids += found
        if result.caller == seat:
            called += 1
            forced = _forced(rnd)
            pod_mus += forced
            if result.fell:
                fell += 1
                pod_mus_fell += forced
                fell_lost += played.written[1 - team] - played.written[team]
                falls.append([played.index, played.written[1 - team] - played.written[team]])
        analysis = analyze_round(rnd, from_trick=DEFAULT_FROM_TRICK)
        judged: dict[tuple[int, int], CardJudgement] = {}
        if with_bot:
            review = review_round(match, played.index, seat, from_trick=DEFAULT_FROM_TRICK)
            judged = {(c.trick, c.order): c for c in review.cards}
        for move in analysis.moves:
            if move.seat != seat:
                continue
            cards += 1
            role, trick = by_role[move.order], by_trick[move.trick - 1]
            role[0] += 1
            trick[0] += 1
            role[1] += move.lost_written
            trick[1] += move.lost_written
            lost += move.lost_written
            judgement = judged.get((move.trick, move.order))
            hard_card = None if judgement is None else judgement.hard
            gain = 0 if judgement is None else round(judgement.loss)
            vs_hard += gain
            for pair in (by_role_hard[move.order], by_trick_hard[move.trick - 1]):
                pair[0] += 1
                pair[1] += gain
            if move.lost_written > 0 or gain > 0:
                slips.append(
                    Slip(
                        round=played.index,
                        trick=move.trick,
                        order=move.order,
                        played=str(move.played),
                        best=str(move.best[0]),
                        hard=hard_card,
                        lost=move.lost_written,
                        vs_hard=gain,
                    )
                )
    return Lesson(
        seat=seat,
        rounds=rounds,
        cards=cards,
        lost=lost,
        vs_hard=vs_hard,
        by_role=by_role,
        by_trick=by_trick,
        called=called,
        fell=fell,
        fell_lost=fell_lost,
        pod_mus=pod_mus,
        pod_mus_fell=pod_mus_fell,
        slips=slips,
        passed=passed,
        bid_slips=bids,
        falls=falls,
        by_role_hard=by_role_hard,
        by_trick_hard=by_trick_hard,
    )


def _forced(rnd: Round) -> int:
    """1 when the caller was the dealer after three passes (pod mus), else 0."""
    bids = rnd.bids
    if rnd.rules.no_forced_trump or len(bids) != 4:
        return 0
    return int(all(not isinstance(b, Call) for _s, b in bids[:3]))


# ---------------------------------------------------------------------- the report


@dataclass(frozen=True, slots=True)
class Habit:
    """A kind of fault that was the costliest of at least ``HABIT_OCCURRENCES`` rounds
    (``count``: how many; ``lost``: what those rounds' faults cost, each round once),
    with its costliest example.

    ``kind`` is ``role:early`` / ``role:late`` (a role of ``ROLES``; tricks 3–5 or
    6–8), ``fell`` (called and fell), ``passed`` (said dalje when calling was
    clearly worth more) or ``pod_mus_suit`` (named a suit pod mus when another was
    clearly worth more). ``example`` is (match key, slip) for the card kinds,
    (match key, bid slip) for the last two, None for ``fell``.
    """

    kind: str
    count: int
    lost: int
    example: tuple[str, Slip | BidSlip] | None


@dataclass(frozen=True, slots=True)
class CoachReport:
    """The lessons of many matches added up (``report``)."""

    matches: int
    rounds: int
    cards: int
    lost: int
    vs_hard: int
    by_role: list[list[int]]
    by_trick: list[list[int]]
    by_role_hard: list[list[int]]
    """(cards, written points given away against the hard bot) by place in the trick."""
    by_trick_hard: list[list[int]]
    """(cards, written points given away against the hard bot) by trick."""
    called: int
    fell: int
    fell_lost: int
    pod_mus: int
    pod_mus_fell: int
    passed: int
    passed_slips: int
    passed_lost: int
    pod_mus_slips: int
    pod_mus_lost: int
    trend: list[tuple[str, float]]
    """(match key, written points a round given away in it against the hard bot from the
    player's information), oldest first: what the coach judges by."""
    trend_best: list[tuple[str, float]]
    """(match key, written points a round lost in it against the best play with every card
    seen), oldest first: the trend without the hard bot (``bela coach --no-bot``)."""
    habits: list[Habit]
    role_examples: list[tuple[str, Slip] | None] = field(default_factory=list)
    """By place in the trick: (match key, the card that gave most away against the hard bot
    there), None where none gave anything; the report shows the hard bot's card beside it."""
    trend_examples: list[tuple[str, Slip] | None] = field(default_factory=list)
    """Beside ``trend``, match by match: (match key, its costliest card against the hard
    bot), or None."""

    @property
    def lost_per_round(self) -> float:
        return self.lost / self.rounds if self.rounds else 0.0


def report(lessons: Sequence[tuple[str, Lesson]]) -> CoachReport:
    """Add up ``lessons`` given as (match key, lesson), oldest first."""
    by_role = [[0, 0] for _ in ROLES]
    by_trick = [[0, 0] for _ in range(8)]
    by_role_hard = [[0, 0] for _ in ROLES]
    by_trick_hard = [[0, 0] for _ in range(8)]
    totals = dict.fromkeys(
        (
            "rounds",
            "cards",
            "lost",
            "vs_hard",
            "called",
            "fell",
            "fell_lost",
            "pod_mus",
            "pod_mus_fell",
            "passed",
        ),
        0,
    )
    kinds: dict[str, list[Any]] = {}
    trend: list[tuple[str, float]] = []
    trend_best: list[tuple[str, float]] = []
    passed_slips = [0, 0]
    pod_mus_slips = [0, 0]
    role_examples: list[tuple[str, Slip] | None] = [None for _ in ROLES]
    trend_examples: list[tuple[str, Slip] | None] = []
    for key, lesson in lessons:
        costly = [s for s in lesson.slips if s.vs_hard > 0 and s.hard is not None]
        for slip in costly:
            now = role_examples[slip.order]
            if now is None or slip.vs_hard > now[1].vs_hard:
                role_examples[slip.order] = (key, slip)
        for name in totals:
            totals[name] += getattr(lesson, name)
        for sums, parts in (
            (by_role, lesson.by_role),
            (by_trick, lesson.by_trick),
            (by_role_hard, lesson.by_role_hard),
            (by_trick_hard, lesson.by_trick_hard),
        ):
            for total, part in zip(sums, parts, strict=True):
                total[0] += part[0]
                total[1] += part[1]
        if lesson.rounds:
            trend.append((key, lesson.vs_hard / lesson.rounds))
            trend_best.append((key, lesson.lost / lesson.rounds))
            worst = max(costly, key=lambda s: s.vs_hard, default=None)
            trend_examples.append(None if worst is None else (key, worst))
        for bid in lesson.bid_slips:
            tally = pod_mus_slips if bid.forced else passed_slips
            tally[0] += 1
            tally[1] += bid.lost
        for kind, cost, example in _costliest_faults(key, lesson):
            entry = kinds.setdefault(kind, [0, 0, None, -1])
            entry[0] += 1
            entry[1] += cost
            if cost > entry[3]:
                entry[2], entry[3] = example, cost
    habits = [
        Habit(kind, count, lost, example)
        for kind, (count, lost, example, _cost) in kinds.items()
        if count >= HABIT_OCCURRENCES
    ]
    habits.sort(key=lambda h: (-h.lost, h.kind))
    return CoachReport(
        matches=len(lessons),
        rounds=totals["rounds"],
        cards=totals["cards"],
        lost=totals["lost"],
        vs_hard=totals["vs_hard"],
        by_role=by_role,
        by_trick=by_trick,
        by_role_hard=by_role_hard,
        by_trick_hard=by_trick_hard,
        called=totals["called"],
        fell=totals["fell"],
        fell_lost=totals["fell_lost"],
        pod_mus=totals["pod_mus"],
        pod_mus_fell=totals["pod_mus_fell"],
        passed=totals["passed"],
        passed_slips=passed_slips[0],
        passed_lost=passed_slips[1],
        pod_mus_slips=pod_mus_slips[0],
        pod_mus_lost=pod_mus_slips[1],
        trend=trend,
        trend_best=trend_best,
        habits=habits[:3],
        role_examples=role_examples,
        trend_examples=trend_examples,
    )


def _costliest_faults(key: str, lesson: Lesson) -> list[tuple[str, int, Any]]:
    """Each round's costliest fault as (habit kind, written points, example), one a round.

    A round's faults are its cards the hard bot valued higher than the player's from
    the player's information (``Slip.vs_hard``), its bids its bid search found clearly
    worse, and its call that fell; a round that fell because of a card is one costly
    round, not two habits, so only its costliest fault is counted."""
    faults: dict[int, tuple[int, str, Any]] = {}

    def fault(round_index: int, cost: int, kind: str, example: Any) -> None:
        if cost <= 0:
            return
        now = faults.get(round_index)
        if now is None or cost > now[0]:
            faults[round_index] = (cost, kind, example)

    for slip in lesson.slips:
        phase = "early" if slip.trick <= 5 else "late"
        fault(slip.round, slip.vs_hard, f"{ROLES[slip.order]}:{phase}", (key, slip))
    for bid in lesson.bid_slips:
        fault(bid.round, bid.lost, "pod_mus_suit" if bid.forced else "passed", (key, bid))
    for round_index, cost in lesson.falls:
        fault(round_index, cost, "fell", None)
    return [(kind, cost, example) for _r, (cost, kind, example) in sorted(faults.items())]


def lesson_task(task: tuple[Match, int, bool]) -> dict[str, Any]:
    """One match's lesson as JSON data (the runner's task: picklable in and out)."""
    match, seat, with_bot = task
    return lesson_of(match, seat, with_bot).to_json()
