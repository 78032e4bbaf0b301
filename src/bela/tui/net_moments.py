"""The local table's moments at a network seat, worked out from the seat's own view.

The zvanja moment, the "bela!" callout, the last trick and the round's summary
are drawn by the same screens and widgets as at the local table. Those number
the seats from the player's (0, "You") and the teams from the player's ("mi"),
so what the host sent is turned here: seat ``s`` is drawn as ``(s - me) % 4``,
and the seats' names go with it (the players' own names, plain text).

Only the view is read (``bela.net.seat_view``): the zvanja of the team that
won them, the player's own, and the bela announced. The exchange the local
table tells ("nemam", "do koje karte") needs the other hands, so here only the
declarations the table has seen are said.
"""

from __future__ import annotations

from collections.abc import Sequence

from bela.engine import Card, CompletedTrick, Phase, Rank, RoundRecord, SeatView, Zvanje
from bela.tui.zvanja_talk import Said, ZvanjaTalk, height_words

__all__ = [
    "bela_callout",
    "first_trick_talk",
    "turned_names",
    "turned_record",
    "turned_trick",
    "zvanja_due",
    "zvanja_talk_of",
]


def _turn(seat: int, me: int) -> int:
    return (seat - me) % 4


def turned_names(names: Sequence[str], me: int) -> tuple[str, ...]:
    """The seats' names as drawn: the player first, then in the order of play.

    The player is named as the table knows them (their name from F2 or ``--name``), never
    by the pronoun "You" used as a name ("Ti" on the last trick's seats, issue #35): a
    sentence about the player is said to them by its own message (``wording.is_you``)."""
    return tuple(names[(s + me) % 4] for s in range(4))


def turned_trick(trick: CompletedTrick, me: int) -> CompletedTrick:
    return CompletedTrick(
        _turn(trick.leader, me), trick.cards, _turn(trick.winner, me), trick.points
    )


def turned_record(record: RoundRecord, me: int) -> RoundRecord:
    """The round's record with the player's team as team 0 ("mi") and the player as seat 0."""
    r = record.result

    def pair(p: tuple[int, int]) -> tuple[int, int]:
        return (p[1], p[0]) if me % 2 else p

    def team(t: int | None) -> int | None:
        return None if t is None else (t - me) % 2

    def seat(s: int | None) -> int | None:
        return None if s is None else _turn(s, me)

    result = r._replace(
        points=pair(r.points),
        card_points=pair(r.card_points),
        zvanja=pair(r.zvanja),
        bela=pair(r.bela),
        tricks=pair(r.tricks),
        totals=pair(r.totals),
        caller=seat(r.caller),
        stiglja=team(r.stiglja),
        belot=team(r.belot),
        belot_seat=seat(r.belot_seat),
        claim=team(r.claim),
    )
    return RoundRecord(
        record.index,
        _turn(record.dealer, me),
        record.seed,
        record.actions,
        result,
        pair(record.written),
    )


def _best(zvanja: Sequence[Zvanje]) -> Zvanje:
    return max(zvanja, key=lambda z: z.key)


def zvanja_talk_of(view: SeatView, names: Sequence[str]) -> ZvanjaTalk | None:
    """The declarations the table has seen, told and laid out (None when none count).

    In turn from the first player: each seat of the winning team says its best
    height, and the player says theirs too when the other team's won.
    """
    team = view.zvanja_team
    if team is None or not view.shown_zvanja:
        return None
    me = view.seat
    shown = dict(view.shown_zvanja)
    said: list[Said] = []
    for offset in range(4):
        seat = (view.first_player + offset) % 4
        mine = view.own_zvanja if seat == me and seat not in view.silent else ()
        declared = shown.get(seat) or mine  # kept back ("šutim"): not said
        if declared:
            words, english = height_words(_best(declared))
            said.append(Said(_turn(seat, me), words, english))
    laid = tuple((_turn(seat, me), zvanja) for seat, zvanja in view.shown_zvanja)
    points = sum(z.points for _seat, zvanja in view.shown_zvanja for z in zvanja)
    return ZvanjaTalk(tuple(said), (team - me) % 2, points, laid, turned_names(names, me))


def zvanja_due(view: SeatView) -> bool:
    """Whether the zvanja moment is due: trump named, the first trick under way."""
    return view.phase is Phase.PLAYING and not view.tricks and bool(view.shown_zvanja)


def first_trick_talk(view: SeatView, names: Sequence[str]) -> ZvanjaTalk | None:
    """The declarations that count, for as long as the first trick is on the table."""
    first_trick = (not view.tricks and view.phase is Phase.PLAYING) or (
        len(view.tricks) == 1 and not view.trick
    )
    return zvanja_talk_of(view, names) if first_trick else None


def bela_callout(view: SeatView) -> int | None:
    """The seat (as sent) whose "bela!" is still heard: its card is in the trick on show
    (the one under way, or the one just taken while no card of the next is down)."""
    if not view.bela_announced or view.trump is None:
        return None
    seat = view.bela_announced[0]
    pair = {Card.of(Rank.KING, view.trump), Card.of(Rank.QUEEN, view.trump)}
    tricks = [*view.tricks, CompletedTrick(view.trick_leader or 0, view.trick, 0, 0)]
    found = [
        index
        for index, trick in enumerate(tricks)
        for place, card in enumerate(trick.cards)
        if card in pair and trick.seat_of(place) == seat
    ]
    if not found:
        return None
    said_in = found[-1] if view.rules.bela_on_second else found[0]
    on_show = len(view.tricks) if view.trick or not view.tricks else len(view.tricks) - 1
    return seat if said_in == on_show else None
