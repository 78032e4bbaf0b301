"""The bot in your seat: a played deal again, with a bot playing the player's cards.

Players ask "would the computer have done better with my cards?". This answers it
with the same deal: the round is dealt again from its seed and dealer, the chosen
bot (``hard`` by default) acts for the player's seat, and every other seat is
played by the bots of the match's level, each decision drawing from the same
per-decision RNG the match used (``bela.ai.driver``). Where the player did what
the other bots would have answered anyway, the round reads the same; where the
player's cards went another way, the others answer the new situation as they
would have in the app.

The comparison is in written points for the player's team: what the team wrote
minus what the other team wrote, in the round as played and in the retake.
``gain`` is the retake's margin less the played one: positive when the bot in the
seat would have written more. A match played at a network table had people in
other seats: they cannot be asked again, so the match's bots play them (the
report says so).

Pure apart from the bots' own work: no I/O, so the command line, the app and
the lab's runner all use it; a task is a pure function of its arguments, so
``swap_many`` gives the same figures on one process or several.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bela.ai import make_bot
from bela.ai.base import Bot
from bela.ai.driver import bot_action_in_round
from bela.engine import Match, Round, RoundRecord
from bela.lab.runner import Progress, map_tasks

__all__ = [
    "DEFAULT_SEAT_BOT",
    "SeatSwap",
    "SwapSummary",
    "summarize",
    "swap_many",
    "swap_match",
    "swap_round",
]

DEFAULT_SEAT_BOT = "hard"
"""The bot that takes the player's seat unless another is asked for."""


@dataclass(frozen=True, slots=True)
class SeatSwap:
    """One round as played and as the bot in ``seat`` would have played it.

    ``index`` is the round's index in the match (0 = the first deal), ``seat`` the
    player's seat; ``played`` and ``retaken`` are the two finished rounds.
    """

    index: int
    seat: int
    played: Round
    retaken: Round

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def played_margin(self) -> int:
        """What the player's team wrote minus what the other team wrote, as played."""
        return _margin(self.played, self.team)

    @property
    def bot_margin(self) -> int:
        """The same with the bot in the seat."""
        return _margin(self.retaken, self.team)

    @property
    def gain(self) -> int:
        """How many written points more (or fewer) the bot's margin is than the player's."""
        return self.bot_margin - self.played_margin

    @property
    def same(self) -> bool:
        """Whether the bot did exactly what was done: the retake is the same round."""
        return self.played.actions == self.retaken.actions


def _margin(rnd: Round, team: int) -> int:
    result = rnd.result
    if result is None:
        raise ValueError("the round is not finished")
    return result.points[team] - result.points[1 - team]


def _record(match: Match, index: int) -> RoundRecord:
    for played in match.rounds:
        if played.index == index:
            return played
    raise ValueError(f"the match has no finished round {index}")


def swap_round(
    match: Match,
    index: int,
    seat: int,
    level: str,
    seat_bot: str = DEFAULT_SEAT_BOT,
    bots: dict[str, Bot] | None = None,
) -> SeatSwap:
    """Round ``index`` of ``match`` as played, and again with ``seat_bot`` in ``seat``.

    ``level`` is the bot kind for the other three seats (the match's own bots).
    ``bots`` caches one bot per kind across calls (bots keep no state between
    decisions: each acts on a seat view and its own RNG).
    """
    cache = {} if bots is None else bots

    def bot(kind: str) -> Bot:
        if kind not in cache:
            cache[kind] = make_bot(kind)
        return cache[kind]

    record = _record(match, index)
    played = match.deal(index).replay(record.actions)
    rnd = match.deal(index)
    while rnd.to_act is not None:
        acting = rnd.to_act
        kind = seat_bot if acting == seat else level
        rnd = rnd.apply(bot_action_in_round(rnd, bot(kind), match.seed, index), acting)
    return SeatSwap(index=index, seat=seat, played=played, retaken=rnd)


def swap_match(
    match: Match, seat: int, level: str, seat_bot: str = DEFAULT_SEAT_BOT
) -> list[SeatSwap]:
    """Every finished round of ``match`` with ``seat_bot`` in ``seat``."""
    bots: dict[str, Bot] = {}
    return [swap_round(match, r.index, seat, level, seat_bot, bots) for r in match.rounds]


SwapTask = tuple[Match, int, str, str]
"""A match, the player's seat, the match's bot level, the bot for the seat."""


def _gains(task: SwapTask) -> list[int]:
    match, seat, level, seat_bot = task
    return [swap.gain for swap in swap_match(match, seat, level, seat_bot)]


def swap_many(
    tasks: Sequence[SwapTask],
    jobs: int | None = None,
    progress: Progress | None = None,
    run: Callable[..., list[list[int]]] = map_tasks,
) -> list[list[int]]:
    """Each match's per-round gains, spread over ``jobs`` worker processes."""
    return run(_gains, list(tasks), jobs=jobs, progress=progress)


@dataclass(frozen=True, slots=True)
class SwapSummary:
    """The mean gain a round over many rounds, with a 95% interval (normal approximation)."""

    rounds: int
    matches: int
    mean: float
    half_width: float
    better: int
    worse: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


def summarize(per_match: Sequence[Sequence[int]]) -> SwapSummary:
    """The mean gain a round and its 95% interval over all the rounds of ``per_match``
    (the arena's ``Estimate``: a normal approximation, no interval for a single round)."""
    from bela.lab.arena import Estimate

    gains = [g for match in per_match for g in match]
    estimate = Estimate.of([float(g) for g in gains])
    better = sum(1 for g in gains if g > 0)
    worse = sum(1 for g in gains if g < 0)
    return SwapSummary(
        len(gains), len(per_match), estimate.mean, estimate.half_width, better, worse
    )
