"""A match: rounds dealt from one seed until a team reaches the target.

Round k (0-based) is dealt by seat ``(first_dealer + k) % 4`` from
``round_seed(seed, k)``, so a match replays from its seed and its actions.
After each complete round: a team at or above the target wins; if both are,
the higher total wins; if they are exactly equal, another round is played.
Belot ends the match at once for the team that held it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from bela.engine.actions import Action
from bela.engine.deal import check_seed, round_seed
from bela.engine.errors import RoundOverError
from bela.engine.round import Round, RoundResult
from bela.engine.rules import DEFAULT_RULES, TARGETS, Rules

__all__ = ["DEFAULT_FIRST_DEALER", "Match", "RoundRecord"]

# Seat 3 deals first, so seat 0 (the human in the app) is the first to speak.
DEFAULT_FIRST_DEALER = 3
Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round of a match: how it was dealt, what was done, what was written.

    ``written`` is what goes on the score sheet: the round's points plus, under
    visi, the hanging points this round's winner collected.
    """

    index: int
    dealer: int
    seed: int
    actions: tuple[Action, ...]
    result: RoundResult
    written: Pair


@dataclass(frozen=True, slots=True)
class Match:
    """An immutable match state; ``apply`` returns the next one."""

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

    @classmethod
    def new(
        cls,
        seed: int,
        target: int = 1001,
        rules: Rules = DEFAULT_RULES,
        first_dealer: int = DEFAULT_FIRST_DEALER,
        start_index: int = 0,
    ) -> Match:
        """A match about to deal its first round (``start_index`` skips to a later deal)."""
        check_seed(seed)
        if target not in TARGETS:
            raise ValueError(f"the target is one of {', '.join(map(str, TARGETS))}, not {target}")
        if first_dealer not in (0, 1, 2, 3):
            raise ValueError(f"the first dealer is a seat 0..3, not {first_dealer}")
        if start_index < 0:
            raise ValueError(f"the first round index is 0 or more, not {start_index}")
        match = cls(seed, target, rules, first_dealer, start_index=start_index)
        return replace(match, current=match.deal(start_index))

    def deal(self, index: int) -> Round:
        """The ``index``-th round of this match, freshly dealt."""
        dealer = (self.first_dealer + index) % 4
        return Round.from_seed(round_seed(self.seed, index), dealer, self.rules)

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

    def apply(self, action: Action, seat: int | None = None) -> Match:
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
        winner = decide_winner(scores, self.target, result.belot)
        rounds = (*self.rounds, record)
        state = replace(self, rounds=rounds, scores=scores, hanging=hanging, winner=winner)
        if winner is not None:
            return replace(state, current=None)
        return replace(state, current=state.deal(state.next_index))

    def replay(self, rounds: Sequence[Iterable[Action]]) -> Match:
        """This match with each round's actions applied in order."""
        match = self
        for actions in rounds:
            for action in actions:
                match = match.apply(action)
        return match


def decide_winner(scores: Pair, target: int, belot: int | None = None) -> int | None:
    """The match winner after a round, or None to play on."""
    if belot is not None:
        return belot
    over = [t for t in (0, 1) if scores[t] >= target]
    if len(over) == 1:
        return over[0]
    if len(over) == 2 and scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return None
