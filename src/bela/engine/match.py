"""A match: rounds dealt from one seed until a team reaches the target.

Round k (0-based) is dealt by seat ``(first_dealer + k) % 4`` from
``round_seed(seed, k)``, so a match replays from its seed and its actions.
After each complete round: a team at or above the target wins; if both are,
the higher total wins; if they are exactly equal, another round is played.
Belot ends the match at once for the team that held it. Under "na dosta" a
claim ends it at once too: for the claimers if it holds, else for the others.
A quick match (target 163, "brza 163") lasts three played deals; the higher
total wins, and while the totals are equal one more deal is played.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mypy_extensions import mypyc_attr

from bela.engine.actions import Action
from bela.engine.deal import MAX_ROUND_INDEX, check_round_index, check_seed, round_seed
from bela.engine.errors import InvalidValueError, RoundOverError, shown
from bela.engine.guards import as_int, check_int, check_seat, check_sequence
from bela.engine.pickling import by_fields
from bela.engine.round import Round, RoundResult
from bela.engine.rules import DEFAULT_RULES, QUICK_DEALS, QUICK_TARGET, TARGETS, Rules

__all__ = ["DEFAULT_FIRST_DEALER", "Match", "RoundRecord", "decide_quick_winner"]

# Seat 3 deals first, so seat 0 (the human in the app) is the first to speak.
DEFAULT_FIRST_DEALER = 3
Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round of a match: how it was dealt, what was done, what was written.

    ``written`` is what goes on the score sheet: the round's points plus, under
    visi, the hanging points this round's winner collected.
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    index: int
    dealer: int
    seed: int
    actions: tuple[Action, ...]
    result: RoundResult
    written: Pair


# A plain Python class in the compiled build too: a native one's constructor would check the
# fields' types first, raising TypeError for Match(seed="7") before __post_init__ could say
# what is wrong (the fields are read with getattr there, as objects, for the same reason).
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Match:
    """An immutable match state; ``apply`` returns the next one."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    seed: int
    target: int = 1001
    rules: Rules = DEFAULT_RULES
    first_dealer: int = DEFAULT_FIRST_DEALER
    rounds: tuple[RoundRecord, ...] = ()
    current: Round | None = None
    scores: Pair = (0, 0)
    hanging: int = 0
    winner: int | None = None
    start_index: int = 0

    def __post_init__(self) -> None:
        """Refuse settings a match cannot have (``Match(...)``, ``Match.new``, ``replace``)."""
        given_seed: object = getattr(self, "seed")  # noqa: B009
        seed = check_seed(given_seed)
        target: object = getattr(self, "target")  # noqa: B009
        if type(target) is not int or target not in TARGETS:
            targets = ", ".join(map(str, TARGETS))
            raise InvalidValueError(f"the target is one of {targets}, not {shown(target)}")
        rules: object = getattr(self, "rules")  # noqa: B009
        if not isinstance(rules, Rules):
            raise InvalidValueError(f"rules are a Rules(...), not {shown(rules)}")
        given_dealer: object = getattr(self, "first_dealer")  # noqa: B009
        first_dealer = check_seat(given_dealer, "the first dealer")
        given_index: object = getattr(self, "start_index")  # noqa: B009
        start_index = check_int(given_index, "the first round index", 0, MAX_ROUND_INDEX)
        # an int-like that is not an int (an IntEnum member) is kept as its plain value
        if type(given_seed) is not int:
            object.__setattr__(self, "seed", seed)
        if type(given_dealer) is not int:
            object.__setattr__(self, "first_dealer", first_dealer)
        if type(given_index) is not int:
            object.__setattr__(self, "start_index", start_index)

    @classmethod
    def new(
        cls,
        seed: object,
        target: object = 1001,
        rules: object = DEFAULT_RULES,
        first_dealer: object = DEFAULT_FIRST_DEALER,
        start_index: object = 0,
    ) -> Match:
        """A match about to deal its first round (``start_index`` skips to a later deal).

        The arguments are checked by the constructor (``InvalidValueError``), so they are typed
        ``object``: the compiled build would refuse a wrong type with a ``TypeError`` first.
        """
        match = cls(seed, target, rules, first_dealer, start_index=start_index)  # type: ignore[arg-type]
        return replace(match, current=match.deal(start_index))

    def deal(self, index: object) -> Round:
        """The ``index``-th round of this match, freshly dealt."""
        number = check_round_index(index)
        seed = round_seed(self.seed, number)
        rnd = Round.from_seed(seed, (self.first_dealer + number) % 4, self.rules)
        if self.target != QUICK_TARGET:
            # the score written before this deal (also when an earlier deal is dealt
            # again, to replay it): what a claim counts, and what the players see
            before = [0, 0]
            for played in self.rounds:
                if played.index < number:
                    before[0] += played.written[0]
                    before[1] += played.written[1]
            rnd._match_context = (before[0], before[1], self.target)
            if self.rules.dosta:
                rnd._claim_context = rnd._match_context
        return rnd

    @property
    def next_index(self) -> int:
        return self.start_index + len(self.rounds)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def belot(self) -> bool:
        """Whether the match ended by belot."""
        return bool(self.rounds) and self.rounds[-1].result.belot is not None

    def apply(self, action: object, seat: object = None) -> Match:
        """The match after ``action`` in the current round (a new round is dealt as needed)."""
        if self.current is None:
            raise RoundOverError("the match is over: no more actions")
        after = self.current.apply(action, seat)
        if after.result is None:
            return replace(self, current=after)
        return self._close_round(after, after.result)

    def _close_round(self, played: Round, result: RoundResult) -> Match:
        written = list(result.points)
        hanging = self.hanging
        decided = not result.redeal and result.belot is None and not result.tie
        if result.tie and self.rules.visi:
            hanging += result.hanging
        elif decided and hanging and result.caller is not None:
            callers = result.caller % 2
            round_winner = 1 - callers if result.fell else callers
            if result.claim is not None:  # a "dosta" round is won by the team the claim favours
                round_winner = result.claim if result.claim_ok else 1 - result.claim
            written[round_winner] += hanging
            hanging = 0
        record = RoundRecord(
            index=self.next_index,
            dealer=played.dealer,
            seed=played.seed if played.seed is not None else 0,
            actions=played.actions,
            result=result,
            written=(written[0], written[1]),
        )
        scores = (self.scores[0] + written[0], self.scores[1] + written[1])
        rounds = (*self.rounds, record)
        if result.claim is not None:  # "dosta": the claim decides, right or wrong
            winner: int | None = result.claim if result.claim_ok else 1 - result.claim
        elif self.target == QUICK_TARGET:
            deals = sum(1 for r in rounds if not r.result.redeal)
            winner = decide_quick_winner(scores, deals, result.belot)
        else:
            winner = decide_winner(scores, self.target, result.belot)
        state = replace(self, rounds=rounds, scores=scores, hanging=hanging, winner=winner)
        if winner is not None:
            return replace(state, current=None)
        return replace(state, current=state.deal(state.next_index))

    def replay(self, rounds: object) -> Match:
        """This match with each round's actions applied in order."""
        match = self
        for actions in check_sequence(rounds, "rounds of actions"):
            for action in check_sequence(actions, "actions"):
                match = match.apply(action)
        return match


def decide_quick_winner(scores: Pair, deals: int, belot: int | None = None) -> int | None:
    """The winner of a quick match ("brza 163") after ``deals`` played deals, or None.

    Belot wins at once; otherwise after three played deals (void deals do not
    count) the higher total wins, and equal totals play one more deal, as a
    match to a target does when both teams reach it with equal totals.
    """
    if belot is not None:
        return belot
    if deals < QUICK_DEALS or scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def decide_winner(scores: object, target: object, belot: object = None) -> int | None:
    """The match winner after a round, or None to play on."""
    if not (
        isinstance(scores, (tuple, list))
        and len(scores) == 2
        and as_int(scores[0]) is not None
        and as_int(scores[1]) is not None
    ):
        raise InvalidValueError(f"scores are a pair (team 0, team 1) of ints, not {shown(scores)}")
    goal = check_int(target, "the target", 1)
    if belot is not None:
        return check_int(belot, "the belot team", 0, 1)
    over = [t for t in (0, 1) if scores[t] >= goal]
    if len(over) == 1:
        return over[0]
    if len(over) == 2 and scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return None
