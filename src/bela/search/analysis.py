"""Post-mortem of a played round: what each card cost, with every card visible.

``analyze_round(rnd)`` replays a finished round from its deal and, for every
card played from trick ``from_trick`` on (by default the third, where the
double-dummy solver takes a few milliseconds per position), asks the solver
what each legal card would have brought with all hands known and best play by
both teams afterwards. A card is *costly* when a better one was there: it
gave away card points, or written points (a contract that could have been
made or beaten, a štiglja that could have been taken or stopped).

The numbers, all from the point of view of the team of the player to act and
all "from this card on":

* ``value``: card points the team takes (a štiglja's 90 included);
* ``margin``: the team's points minus the other team's (what the solver
  maximises: it also separates "we take nothing" from "they sweep");
* ``written``: what the team writes minus what the other team writes for the
  whole round, given the points already taken, the zvanja and the bela the
  round really had, and the caller's "more than half" test.

Pure: no I/O and no rendering, so ``bela analyze`` and the app's round
summary both build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bela.engine import Card, Phase, Play, Round
from bela.engine.scoring import score_round_detail
from bela.search.solver import NodeLimitExceeded, Position, Solver, remaining_points

__all__ = [
    "CardChoice",
    "MoveAnalysis",
    "RoundAnalysis",
    "analysis_json",
    "analyze_round",
    "written_points",
]

DEFAULT_FROM_TRICK = 3
DEFAULT_NODE_LIMIT = 3_000_000


@dataclass(frozen=True, slots=True)
class CardChoice:
    """One legal card at a decision and what it leads to (see the module docstring)."""

    card: Card
    value: int
    margin: int
    written: int


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One card played: the choices the player had, best first, and what the play cost.

    ``trick`` counts from 1; ``order`` is the card's place in the trick (0 =
    led). ``lost_points`` / ``lost_written``: how much less the team got in
    card points / written points than with the best card (0 for a best card).
    """

    trick: int
    order: int
    seat: int
    played: Card
    choices: tuple[CardChoice, ...]
    lost_points: int
    lost_written: int

    @property
    def best(self) -> tuple[Card, ...]:
        """The cards reaching the best margin (the played one may be among them)."""
        top = self.choices[0].margin
        return tuple(c.card for c in self.choices if c.margin == top)

    @property
    def choice(self) -> CardChoice:
        """The played card's line."""
        return next(c for c in self.choices if c.card == self.played)

    @property
    def costly(self) -> bool:
        return self.lost_points > 0 or self.lost_written > 0

    @property
    def forced(self) -> bool:
        """Only one legal card: nothing to choose."""
        return len(self.choices) == 1


@dataclass(frozen=True, slots=True)
class RoundAnalysis:
    """Every analysed card of a round, in play order.

    ``from_trick``: the first trick analysed; ``skipped``: cards whose
    position was too big for the node limit (their trick, seat, card);
    ``note``: why nothing was analysed, for rounds that were not played.
    """

    dealer: int
    trump: int | None
    caller: int | None
    from_trick: int
    moves: tuple[MoveAnalysis, ...]
    skipped: tuple[tuple[int, int, Card], ...] = ()
    note: str = ""

    def lost_by_seat(self) -> tuple[tuple[int, int], ...]:
        """(card points, written points) each seat gave away, by seat."""
        out = [[0, 0] for _ in range(4)]
        for m in self.moves:
            out[m.seat][0] += m.lost_points
            out[m.seat][1] += m.lost_written
        return tuple((a, b) for a, b in out)

    def costly_moves(self) -> tuple[MoveAnalysis, ...]:
        return tuple(m for m in self.moves if m.costly)


def analyze_round(
    rnd: Round,
    *,
    from_trick: int = DEFAULT_FROM_TRICK,
    node_limit: int | None = DEFAULT_NODE_LIMIT,
) -> RoundAnalysis:
    """Analyse every card of a finished round from trick ``from_trick`` (1..8) on."""
    if not 1 <= from_trick <= 8:
        raise ValueError(f"from_trick is a trick number 1..8, not {from_trick}")
    if rnd.phase is not Phase.FINISHED or rnd.result is None:
        raise ValueError("only a finished round can be analysed")
    result = rnd.result
    if result.trump is None or result.caller is None or len(rnd.tricks) != 8:
        why = "belot ended the round" if result.belot is not None else "nobody named trump"
        return RoundAnalysis(
            rnd.dealer, None, None, from_trick, (), (), f"nothing was played: {why}"
        )
    trump = int(result.trump)
    replay = Round(rnd.dealer, rnd.deal_hands, rnd.deal_talons, rnd.rules)
    solver = Solver(trump, node_limit=node_limit)
    moves: list[MoveAnalysis] = []
    skipped: list[tuple[int, int, Card]] = []
    for action in rnd.actions:
        if isinstance(action, Play) and len(replay.tricks) + 1 >= from_trick:
            trick = len(replay.tricks) + 1
            order = len(replay.trick)
            try:
                moves.append(
                    _move(replay, solver, action.card, trick, order, result.zvanja, result.bela)
                )
            except NodeLimitExceeded:
                skipped.append((trick, replay.to_act or 0, action.card))
        replay.push(action)
    return RoundAnalysis(rnd.dealer, trump, result.caller, from_trick, tuple(moves), tuple(skipped))


def _move(
    rnd: Round,
    solver: Solver,
    played: Card,
    trick: int,
    order: int,
    zvanja: tuple[int, int],
    bela: tuple[int, int],
) -> MoveAnalysis:
    pos = Position.from_round(rnd)
    seat = pos.to_act
    team = seat & 1
    rest = remaining_points(pos)
    taken = rnd.card_points
    won = rnd.tricks_won
    assert rnd.caller is not None
    choices = []
    for card, m in solver.card_margins(pos).items():
        pts = written_points(
            caller=rnd.caller,
            taken=taken,
            won=won,
            margin=m,
            rest=rest,
            zvanja=zvanja,
            bela=bela,
            visi=rnd.rules.visi,
            stiglja_bonus=rnd.rules.stiglja_bonus,
            bela_always_counts=rnd.rules.bela_always_counts,
        )
        mine = -m if team else m
        choices.append(CardChoice(card, _value(m, rest, team), mine, pts[team] - pts[1 - team]))
    choices.sort(key=lambda c: (-c.margin, -c.written, int(c.card)))
    best = choices[0]
    mine_choice = next(c for c in choices if c.card == played)
    return MoveAnalysis(
        trick=trick,
        order=order,
        seat=seat,
        played=played,
        choices=tuple(choices),
        lost_points=max(0, best.value - mine_choice.value),
        lost_written=max(0, max(c.written for c in choices) - mine_choice.written),
    )


def written_points(
    *,
    caller: int,
    taken: tuple[int, int],
    won: tuple[int, int],
    margin: int,
    rest: int,
    zvanja: tuple[int, int],
    bela: tuple[int, int],
    visi: bool = False,
    stiglja_bonus: int = 90,
    bela_always_counts: bool = False,
) -> tuple[int, int]:
    """What each team writes if the rest of the round (worth ``rest``) ends at ``margin``.

    ``taken``/``won``: card points and tricks each team already has;
    ``margin``: the solver's team 0 minus team 1 over the rest, a štiglja's
    90 included (so a margin beyond ``rest`` means a sweep). The written points
    use the house rules given (``stiglja_bonus``, ``bela_always_counts``, ``visi``).
    """
    if margin > rest:  # team 0 takes every trick: štiglja
        cp, tricks = (taken[0] + rest, taken[1]), (8, 0)
    elif margin < -rest:
        cp, tricks = (taken[0], taken[1] + rest), (0, 8)
    else:
        p0 = (rest + margin) // 2
        cp = (taken[0] + p0, taken[1] + rest - p0)
        tricks = (min(won[0] + 1, 7), min(won[1] + 1, 7))
    return score_round_detail(
        caller=caller,
        card_points=cp,
        zvanja=zvanja,
        bela=bela,
        tricks=tricks,
        visi=visi,
        stiglja_bonus=stiglja_bonus,
        bela_always_counts=bela_always_counts,
    ).points


def _value(margin: int, rest: int, team: int) -> int:
    """The points ``team`` takes from here when the rest ends at ``margin`` (team 0 minus 1)."""
    if margin > rest:  # team 0 sweeps
        return margin if team == 0 else 0
    if margin < -rest:
        return -margin if team == 1 else 0
    p0 = (rest + margin) // 2
    return p0 if team == 0 else rest - p0


def analysis_json(analysis: RoundAnalysis) -> dict[str, Any]:
    """The analysis as plain JSON-ready data (cards as "10H")."""
    return {
        "dealer": analysis.dealer,
        "trump": None if analysis.trump is None else "HDSC"[analysis.trump],
        "caller": analysis.caller,
        "from_trick": analysis.from_trick,
        "note": analysis.note,
        "moves": [
            {
                "trick": m.trick,
                "order": m.order,
                "seat": m.seat,
                "played": str(m.played),
                "best": [str(c) for c in m.best],
                "lost_points": m.lost_points,
                "lost_written": m.lost_written,
                "costly": m.costly,
                "choices": [
                    {
                        "card": str(c.card),
                        "value": c.value,
                        "margin": c.margin,
                        "written": c.written,
                    }
                    for c in m.choices
                ],
            }
            for m in analysis.moves
        ],
        "skipped": [{"trick": t, "seat": s, "card": str(c)} for t, s, c in analysis.skipped],
        "lost_by_seat": [
            {"seat": s, "points": p, "written": w}
            for s, (p, w) in enumerate(analysis.lost_by_seat())
        ],
    }
