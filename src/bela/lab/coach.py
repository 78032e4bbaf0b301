"""The coach: where a player's written points went, over their archived matches.

For every finished round of a match it asks two questions about each card the
player played from trick 3 on (``bela.search.analysis``; earlier tricks cost the
solver far more):

* against the best play with every card seen (double dummy): how many written
  points the card gave away (``lost``);
* against the hard bot with only the player's view: what the bot's card would
  have written with best play afterwards, less the player's (``vs_hard``;
  positive when the bot's choice was better, negative when the player's was).

And about the bidding: the rounds the player called trump and fell (pad), the
rounds they were forced to call as dealer (pod mus), with what falling cost; and,
with the hard bot, each dalje the hard bot's bid search finds clearly worth less
than calling, and each suit named pod mus clearly worth less than another
(``bela.lab.coach_bids``).

Everything is a pure function of the match and the seat, so a lesson is computed
once per match and cached (``bela.archive.coach_cache``), and the lab's runner
can spread the first computation over worker processes. ``report`` adds lessons
up by role in the trick, by trick, by bidding, over time, and names the three
costliest habits with an example each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from bela.ai.base import decision_rng
from bela.engine import Call, Match, Play, Round
from bela.foundation.numbers import whole_in
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

LESSON_VERSION = 2
"""Bump when what a lesson holds, or how it is computed, changes: cached ones are redone."""

MAX_MATCH_ROUNDS = 10_000
"""More rounds than any match of bela's holds (a record keeps at most a few hundred)."""
_MAX_ROUND_INDEX = 2_000_000
"""A round's index in its match: a match may start at a later deal (a record's
``start_index``, at most 1,000,000), so an index is bounded by that, not by the count."""

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

    ``by_role[k]`` / ``by_trick[t]`` are (cards, written points lost) for the player's
    cards in place ``k`` of a trick / in trick ``t + 1``. ``passed`` counts the
    player's dalje; ``bid_slips`` are the clear ones among them and among the suits
    named pod mus (judged only with the hard bot).
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
    called = _whole(data, "called", 0, rounds)
    fell = _whole(data, "fell", 0, called)
    pod_mus = _whole(data, "pod_mus", 0, called)
    slips, bids = data["slips"], data["bid_slips"]
    if not isinstance(slips, list) or len(slips) > cards:
        raise ValueError("the slips are not a list of the cards'")
    if not isinstance(bids, list) or len(bids) > rounds:
        raise ValueError("the bid slips are not a list of the rounds'")
    return Lesson(
        seat=_whole(data, "seat", 0, 3),
        rounds=rounds,
        cards=cards,
        lost=lost,
        vs_hard=_whole(data, "vs_hard", -cards * _MAX_CARD_POINTS, cards * _MAX_CARD_POINTS),
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
    )


def _hard_card(rnd: Round, seat: int, match_seed: int, index: int, step: int) -> Any:
    """The hard bot's card for ``seat`` at this point of the round (its view only)."""
    from bela.ai.hard import advise

    advice = advise(rnd.view(seat), decision_rng(match_seed, index, step))
    action = advice.action
    return action.card if isinstance(action, Play) else None


def lesson_of(
    match: Match, seat: int, with_bot: bool = True, bid_samples: int = BID_SAMPLES
) -> Lesson:
    """The lesson of ``match`` for the player in ``seat`` (see the module docstring);
    ``bid_samples``: guessed deals for each bid judged (with the hard bot only)."""
    team = seat % 2
    by_role = [[0, 0] for _ in ROLES]
    by_trick = [[0, 0] for _ in range(8)]
    cards = lost = vs_hard = 0
    called = fell = fell_lost = pod_mus = pod_mus_fell = 0
    slips: list[Slip] = []
    bids: list[BidSlip] = []
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
        analysis = analyze_round(rnd, from_trick=DEFAULT_FROM_TRICK)
        steps = _play_steps(rnd)
        replay = match.deal(played.index)
        done = 0
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
            hard_card = None
            gain = 0
            if with_bot:
                step = steps[(move.trick, move.order)]
                while done < step:
                    replay.push(rnd.actions[done])
                    done += 1
                hard_card = _hard_card(replay, seat, match.seed, played.index, step)
                by_card = {c.card: c.written for c in move.choices}
                if hard_card in by_card:
                    gain = by_card[hard_card] - by_card[move.played]
                    vs_hard += gain
            if move.lost_written > 0 or gain > 0:
                slips.append(
                    Slip(
                        round=played.index,
                        trick=move.trick,
                        order=move.order,
                        played=str(move.played),
                        best=str(move.best[0]),
                        hard=None if hard_card is None else str(hard_card),
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
    )


def _forced(rnd: Round) -> int:
    """1 when the caller was the dealer after three passes (pod mus), else 0."""
    bids = rnd.bids
    if rnd.rules.no_forced_trump or len(bids) != 4:
        return 0
    return int(all(not isinstance(b, Call) for _s, b in bids[:3]))


def _play_steps(rnd: Round) -> dict[tuple[int, int], int]:
    """(trick, order) of each card played → its action's index in the round."""
    steps: dict[tuple[int, int], int] = {}
    plays = 0
    for i, action in enumerate(rnd.actions):
        if isinstance(action, Play):
            steps[(plays // 4 + 1, plays % 4)] = i
            plays += 1
    return steps


# ---------------------------------------------------------------------- the report


@dataclass(frozen=True, slots=True)
class Habit:
    """A kind of card that cost the most, with the costliest example of it.

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
    """(match key, written points lost a round in it), oldest first."""
    habits: list[Habit]

    @property
    def lost_per_round(self) -> float:
        return self.lost / self.rounds if self.rounds else 0.0


def report(lessons: Sequence[tuple[str, Lesson]]) -> CoachReport:
    """Add up ``lessons`` given as (match key, lesson), oldest first."""
    by_role = [[0, 0] for _ in ROLES]
    by_trick = [[0, 0] for _ in range(8)]
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
    for key, lesson in lessons:
        for name in totals:
            totals[name] += getattr(lesson, name)
        for k in range(4):
            by_role[k][0] += lesson.by_role[k][0]
            by_role[k][1] += lesson.by_role[k][1]
        for t in range(8):
            by_trick[t][0] += lesson.by_trick[t][0]
            by_trick[t][1] += lesson.by_trick[t][1]
        if lesson.rounds:
            trend.append((key, lesson.lost / lesson.rounds))
        for slip in lesson.slips:
            if slip.lost <= 0:
                continue
            phase = "early" if slip.trick <= 5 else "late"
            entry = kinds.setdefault(f"{ROLES[slip.order]}:{phase}", [0, 0, None])
            entry[0] += 1
            entry[1] += slip.lost
            if entry[2] is None or slip.lost > entry[2][1].lost:
                entry[2] = (key, slip)
        for bid in lesson.bid_slips:
            entry = kinds.setdefault("pod_mus_suit" if bid.forced else "passed", [0, 0, None])
            entry[0] += 1
            entry[1] += bid.lost
            if entry[2] is None or bid.lost > entry[2][1].lost:
                entry[2] = (key, bid)
    bid_kinds = {kind: kinds.get(kind, [0, 0, None]) for kind in ("passed", "pod_mus_suit")}
    habits = [Habit(kind, count, lost, example) for kind, (count, lost, example) in kinds.items()]
    if totals["fell"]:
        habits.append(Habit("fell", totals["fell"], totals["fell_lost"], None))
    habits.sort(key=lambda h: (-h.lost, h.kind))
    return CoachReport(
        matches=len(lessons),
        rounds=totals["rounds"],
        cards=totals["cards"],
        lost=totals["lost"],
        vs_hard=totals["vs_hard"],
        by_role=by_role,
        by_trick=by_trick,
        called=totals["called"],
        fell=totals["fell"],
        fell_lost=totals["fell_lost"],
        pod_mus=totals["pod_mus"],
        pod_mus_fell=totals["pod_mus_fell"],
        passed=totals["passed"],
        passed_slips=bid_kinds["passed"][0],
        passed_lost=bid_kinds["passed"][1],
        pod_mus_slips=bid_kinds["pod_mus_suit"][0],
        pod_mus_lost=bid_kinds["pod_mus_suit"][1],
        trend=trend,
        habits=habits[:3],
    )


def lesson_task(task: tuple[Match, int, bool]) -> dict[str, Any]:
    """One match's lesson as JSON data (the runner's task: picklable in and out)."""
    match, seat, with_bot = task
    return lesson_of(match, seat, with_bot).to_json()
