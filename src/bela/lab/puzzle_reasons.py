"""Why a puzzle's answer is right, as data: computed from guessed deals like the judge's.

The judge (``bela.lab.puzzle_judge``) says *which* card is right; a player wants to
know *why*. At the puzzle's moment this module deals the unseen cards afresh
(uniformly among the deals that fit what the seat has seen, as the judge does),
solves the rest of the round exactly after the answer and after the card it is
compared with (the player's own card, or the best alternative when the player was
right), and reads off:

* how often that card does **better, the same or worse** than the answer;
* the **hidden fact** that decides it: the one card in one other seat's hand whose
  presence best tells the deals where the card does worse from the others ("if Ivo
  holds A♠, on 58 of 96 deals, your 10♠ does worse");
* what is **at stake**: the call (pad: the caller's team takes no more than half),
  štiglja (one team takes every trick), or card points alone; and beside those, the
  last trick's 10 (the answer takes the last trick for us where the compared card gives
  it to them, both lines played out at best with every card seen) and bela's 20 (the
  holder's team writes them after one card and loses them, to a fall or a štiglja, after
  the other);
* a **typical deal**: of the deals where the answer does better and its result has
  the sign of its average, the one whose advantage is the median one (so it never
  shows a result of the opposite sign, nor two equal results), played out both ways
  with every card seen, and the **worst deal** for the card, from which the player
  may play on.

Pure data, no language: ``bela.puzzle_words`` turns it into sentences, one message
per kind of reason. Seeded by the caller, so the same puzzle explains the same way
on every machine and in both the app and the command line.

The bela's 20 points and the last trick's 10 are part of every value here (the
scorer counts them as the judge does); they are told as stakes of their own when the
two cards differ in them on enough deals (``MIN_STAKE_SHARE``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from statistics import median
from typing import Final

from bela.ai.guessing import GuessSampler
from bela.ai.hard import Scorer, card_classes, rebuild_round
from bela.engine import Action, Card, Phase, Play, Round
from bela.engine.actions import choice_of, parse_action
from bela.engine.cards import cards_in
from bela.engine.scoring import Score
from bela.engine.view import SeatView
from bela.lab.puzzle_gen import best_play
from bela.lab.puzzle_stakes import NODE_LIMIT, score_of
from bela.search.sampling import Hands, knowledge_of
from bela.search.solver import NodeLimitExceeded, Position, Solver

__all__ = [
    "DEALS",
    "Holding",
    "Line",
    "Reasons",
    "Stake",
    "reasons",
]

DEALS: Final = 96
"""Guessed deals the reasons are read from (the judge's number)."""
MIN_PRECISION: Final = 0.6
"""A hidden fact is told only when the card does worse on at least this share of the deals
where the fact holds..."""
MIN_LIFT: Final = 0.25
"""...and on at least this share more than where it does not: a fact that does not tell the
bad deals from the good ones explains nothing."""
_TIE: Final = 1e-9
MIN_STAKE_SHARE: Final = 20
"""A stake is told when the two cards differ in it on at least one deal in this many."""


@dataclass(frozen=True, slots=True)
class Holding:
    """The hidden fact that decides it: ``seat`` holds ``card`` on ``deals`` of the guessed
    deals; on ``worse`` of those the compared card does worse than the answer, by ``loss``
    written points on average there."""

    seat: int
    card: Card
    deals: int
    worse: int
    loss: float


@dataclass(frozen=True, slots=True)
class Stake:
    """What is at stake, and on how many deals the two cards differ in it.

    ``kind``: ``fall-ours`` (the compared card makes our call fall where the answer keeps
    it), ``fall-theirs`` (the answer makes their call fall where the compared card lets
    it stand), ``stiglja-ours`` (the answer takes every trick for us, the compared card
    does not), ``stiglja-theirs`` (the compared card lets them take every trick), or
    ``points`` (card points alone: ``value`` is the answer's mean lead in card points);
    and beside those ``last-trick`` (the answer takes the last trick, and its 10, for us
    where the compared card gives it to them), ``bela-ours`` (we hold bela: our 20 are
    written after the answer and lost, to a fall or a štiglja, after the compared card)
    and ``bela-theirs`` (they hold bela: the answer takes their 20 from them, by a fall or
    a štiglja, where the compared card lets them write it).
    """

    kind: str
    deals: int
    value: float = 0.0


@dataclass(frozen=True, slots=True)
class Line:
    """The rest of the round after one card on one deal, both teams at their best with
    every card seen, and what each team writes (team 0, team 1)."""

    actions: tuple[Action, ...]
    written: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Reasons:
    """Why ``answer`` beats ``other`` (the player's card when ``mine``, else the best
    alternative), over ``deals`` guessed deals.

    ``better``/``equal``/``worse``: on how many deals ``other`` did better, the same,
    worse than the answer (by what the round would write). ``typical``: the deal of the
    median advantage, with the answer's line and ``other``'s on it; ``worst``: the deal
    where ``other`` loses most against the answer (four hands, masks by seat), and
    ``worst_loss`` how much.
    """

    deals: int
    answer: tuple[Action, ...]
    other: tuple[Action, ...]
    mine: bool
    better: int
    equal: int
    worse: int
    holding: Holding | None
    stakes: tuple[Stake, ...]
    typical: Hands
    lines: tuple[Line, Line]
    worst: Hands
    worst_loss: float


def reasons(
    rnd: Round,
    answer: Sequence[Action],
    chosen: Action,
    rng: Random,
    deals: int = DEALS,
) -> Reasons | None:
    """The reasons at ``rnd``'s moment (a card to play) for ``answer`` against ``chosen``
    (or, when ``chosen`` is the answer, against the best other card). None for a bid, or
    when there is only one choice."""
    seat = rnd.to_act
    if seat is None or rnd.phase is not Phase.PLAYING:
        return None
    view = rnd.view(seat)
    if view.trump is None or not answer:
        return None
    cards = sorted({a.card for a in view.legal_actions if isinstance(a, Play)})
    knowledge = knowledge_of(view)
    classes = card_classes(view, knowledge, cards)
    if len(classes) < 2:
        return None
    key = {choice_of(a) for a in answer}
    # the answer's classes: one, or the trump king's and queen's ("play bela", either is right)
    answers = [i for i, g in enumerate(classes) if choice_of(Play(g[0])) in key]
    if not answers:
        return None
    mine_at = next(
        (i for i, g in enumerate(classes) if isinstance(chosen, Play) and chosen.card in g), None
    )
    at = mine_at if mine_at in answers else answers[0]
    sampler = GuessSampler(knowledge)  # the judge's deals: the view and the bids (bela.ai.guessing)
    scorer = Scorer(view, knowledge)
    trump = int(view.trump)
    values: list[list[float]] = [[] for _ in classes]
    details: list[list[Score]] = [[] for _ in classes]
    belas: list[tuple[int, int]] = []
    seen: list[Hands] = []
    for _ in range(deals):
        hands = sampler.sample(rng)
        pos = Position.from_view(view, hands)
        try:
            margins = Solver(trump, node_limit=NODE_LIMIT).card_margins(pos)
        except NodeLimitExceeded:  # pragma: no cover - far above any position's need
            continue
        bela = scorer.bela(hands)
        rest = scorer.remaining(pos)
        for i, group in enumerate(classes):
            score = score_of(scorer, margins[group[0]], rest, bela)
            values[i].append(float(score.points[scorer.team] - score.points[1 - scorer.team]))
            details[i].append(score)
        belas.append(bela)
        seen.append(hands)
    n = len(seen)
    if not n:  # pragma: no cover - every solve fits the node limit
        return None
    if mine_at is None or mine_at == at:
        others = [i for i in range(len(classes)) if i not in answers]
        if not others:
            return None
        other = max(others, key=lambda i: (sum(values[i]), -i))
    else:
        other = mine_at
    ans, oth = values[at], values[other]
    adv = [a - o for a, o in zip(ans, oth, strict=True)]
    better = sum(1 for d in adv if d < -_TIE)
    worse = sum(1 for d in adv if d > _TIE)
    typical = _typical(adv, ans)
    worst = max(range(n), key=lambda d: (adv[d], -d))
    answer_action = _play(view, classes[at][0])
    other_action = _play(view, classes[other][0])
    lines = (
        _line(view, seen[typical], answer_action),
        _line(view, seen[typical], other_action),
    )
    return Reasons(
        deals=n,
        answer=tuple(_play(view, c) for c in classes[at]),
        other=tuple(_play(view, c) for c in classes[other]),
        mine=other == mine_at,
        better=better,
        equal=n - better - worse,
        worse=worse,
        holding=_holding(seen, adv, seat, knowledge.unseen),
        stakes=_stakes(scorer, details[at], details[other], view.caller)
        + _bela_stakes(scorer, details[at], details[other], belas)
        + _last_trick(
            view, seen, adv, (answer_action, other_action), (details[at], details[other])
        ),
        typical=seen[typical],
        lines=lines,
        worst=seen[worst],
        worst_loss=adv[worst],
    )


def _typical(adv: Sequence[float], ans: Sequence[float]) -> int:
    """The deal to show: one where the answer does better (a deal where both cards write
    the same would show nothing) and where the answer's own result has the sign of its
    average (the explanation says "7♥ averages −57": a deal where it writes +40 would
    contradict it); of those, the one whose advantage is nearest the median advantage,
    then whose result is nearest the median result. Each condition is dropped only when
    no deal meets it."""
    n = len(adv)
    mean = sum(ans) / n
    ahead = [d for d in range(n) if adv[d] > _TIE] or list(range(n))
    pool = [d for d in ahead if _sign(ans[d]) == _sign(mean)] or ahead
    mid = median(adv[d] for d in pool)
    mid_result = median(ans[d] for d in pool)
    return min(pool, key=lambda d: (abs(adv[d] - mid), abs(ans[d] - mid_result), d))


def _sign(value: float) -> int:
    return (value > _TIE) - (value < -_TIE)


def _holding(seen: Sequence[Hands], adv: Sequence[float], me: int, unseen: int) -> Holding | None:
    """The (seat, card) whose holding best separates the deals where the compared card does
    worse from the others; None when none does clearly (or it does worse nearly always)."""
    n = len(seen)
    bad = [d > _TIE for d in adv]
    total_bad = sum(bad)
    if not total_bad or total_bad == n:
        return None
    best: tuple[float, int, int] | None = None
    found: Holding | None = None
    for seat in range(4):
        if seat == me:
            continue
        for card in cards_in(unseen):
            bit = 1 << card
            held = [d for d in range(n) if seen[d][seat] & bit]
            k = len(held)
            if not k or k == n:
                continue
            w = sum(1 for d in held if bad[d])
            precision = w / k
            rest = (total_bad - w) / (n - k)
            lift = precision - rest
            if precision < MIN_PRECISION or lift < MIN_LIFT or w * 3 < total_bad:
                continue
            rank = (lift * w, w, -card)
            if best is None or rank > best:
                best = (rank[0], rank[1], rank[2])
                loss = sum(adv[d] for d in held) / k
                found = Holding(seat, Card(card), k, w, loss)
    return found


def _stakes(
    scorer: Scorer, ans: Sequence[Score], oth: Sequence[Score], caller: int | None
) -> tuple[Stake, ...]:
    """What the two cards' rounds differ in: the call, štiglja, or card points alone."""
    team = scorer.team
    out: list[Stake] = []
    if caller is not None:
        if caller & 1 == team:
            k = sum(1 for a, o in zip(ans, oth, strict=True) if o.fell and not a.fell)
            if k:
                out.append(Stake("fall-ours", k))
        else:
            k = sum(1 for a, o in zip(ans, oth, strict=True) if a.fell and not o.fell)
            if k:
                out.append(Stake("fall-theirs", k))
    ours = sum(1 for a, o in zip(ans, oth, strict=True) if a.stiglja == team != o.stiglja)
    if ours:
        out.append(Stake("stiglja-ours", ours))
    theirs = sum(1 for a, o in zip(ans, oth, strict=True) if o.stiglja == 1 - team != a.stiglja)
    if theirs:
        out.append(Stake("stiglja-theirs", theirs))
    out = sorted((s for s in out if s.deals * MIN_STAKE_SHARE >= len(ans)), key=lambda s: -s.deals)
    if not out:  # a few deals in a hundred decide nothing: say what the rest is about
        lead = sum(
            (a.totals[team] - a.totals[1 - team]) - (o.totals[team] - o.totals[1 - team])
            for a, o in zip(ans, oth, strict=True)
        ) / (2 * len(ans))
        out.append(Stake("points", sum(1 for a, o in zip(ans, oth, strict=True) if a != o), lead))
    return tuple(out)


def _bela_stakes(
    scorer: Scorer, ans: Sequence[Score], oth: Sequence[Score], belas: Sequence[tuple[int, int]]
) -> tuple[Stake, ...]:
    """Bela's 20 when the two cards differ in who writes them: the holder's team loses them
    when it is swept, or when it called and fell (unless the house rule "bela se uvijek
    piše" lets the callers keep their own bela)."""
    team = scorer.team
    caller = scorer.caller & 1

    def kept(score: Score, holder: int) -> bool:
        if score.stiglja is not None and score.stiglja != holder:
            return False
        return not (score.fell and holder == caller and not scorer.bela_always_counts)

    ours = theirs = 0
    for a, o, bela in zip(ans, oth, belas, strict=True):
        if bela[team]:
            ours += kept(a, team) and not kept(o, team)
        elif bela[1 - team]:
            theirs += kept(o, 1 - team) and not kept(a, 1 - team)
    n = len(ans)
    out = [Stake("bela-ours", ours)] if ours and ours * MIN_STAKE_SHARE >= n else []
    if theirs and theirs * MIN_STAKE_SHARE >= n:
        out.append(Stake("bela-theirs", theirs))
    return tuple(out)


def _last_trick(
    view: SeatView,
    seen: Sequence[Hands],
    adv: Sequence[float],
    firsts: tuple[Action, Action],
    scores: tuple[Sequence[Score], Sequence[Score]],
) -> tuple[Stake, ...]:
    """The last trick's 10: on how many deals the answer's line takes the last trick for us
    where the compared card's gives it to them (both played out at best, every card seen).
    Only on the deals where the two cards write differently and neither is a štiglja: on
    the others the last trick decides nothing, or the štiglja says more. Told when it
    happens on enough deals, and more often than the other way round."""
    team = view.seat & 1
    knowledge = knowledge_of(view)
    assert view.trump is not None
    kept = lost = 0
    for hands, d, a, o in zip(seen, adv, *scores, strict=True):
        if abs(d) <= _TIE or a.stiglja is not None or o.stiglja is not None:
            continue
        solver = Solver(int(view.trump))  # one table for both lines of a deal: they share hands
        answer, other = (
            _last_winner(rebuild_round(view, knowledge, hands), first, solver) for first in firsts
        )
        if answer is None or other is None:
            continue
        kept += answer & 1 == team != other & 1
        lost += other & 1 == team != answer & 1
    if kept > lost and kept * MIN_STAKE_SHARE >= len(seen):
        return (Stake("last-trick", kept),)
    return ()


def _last_winner(rnd: Round, first: Action, solver: Solver) -> int | None:
    """Who takes the last trick after ``first`` in ``rnd`` (a guessed deal at the moment), the
    rest played at best with every card seen as ``best_play`` plays it (the same choices,
    with ``solver``'s table kept from move to move); None when the round stopped before it."""
    rnd.push(first)
    while rnd.phase is Phase.PLAYING:
        seat = rnd.to_act
        assert seat is not None
        legal = [a for a in rnd.legal_actions() if isinstance(a, Play)]
        if not legal:  # a claim or šutim moment: as best_play, the first legal action
            rnd.push(rnd.legal_actions()[0])
            continue
        margins = solver.card_margins(Position.from_round(rnd))
        sign = 1 if seat & 1 == 0 else -1
        card = max(margins, key=lambda c: (sign * margins[c], -int(c)))
        rnd.push(max((a for a in legal if a.card == card), key=lambda a: a.bela))
    tricks = rnd.tricks
    return tricks[-1].winner if len(tricks) == 8 else None


def _play(view: SeatView, card: Card) -> Action:
    """The action for a card: with bela announced whenever the rules let it be."""
    plays = [a for a in view.legal_actions if isinstance(a, Play) and a.card == card]
    return max(plays, key=lambda a: a.bela)


def _line(view: SeatView, hands: Hands, first: Action) -> Line:
    """``first`` played on the deal ``hands``, then the rest at best with every card seen."""
    rnd = rebuild_round(view, knowledge_of(view), hands)
    rnd.push(first)
    played = [str(first)]
    best_play(rnd, played)
    result = rnd.result
    assert result is not None
    return Line(tuple(parse_action(t) for t in played), (result.points[0], result.points[1]))
