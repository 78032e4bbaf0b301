"""Immutable snapshots the widgets draw, built from the engine's state.

Widgets never look at a ``Round`` or a ``Match``: the table screen builds these
small frozen records and hands them over, so a widget redraws exactly when its
snapshot changes and cannot disturb the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bela.engine import (
    QUICK_TARGET,
    Call,
    Card,
    CompletedTrick,
    Match,
    Pass,
    Phase,
    Round,
    RoundRecord,
    Rules,
    Suit,
)
from bela.i18n import _
from bela.keys import bid_keys
from bela.table_text import (
    HUMAN,
    SEAT_NAMES,
    TEAM_NAMES,
    card_text,
    hand_order,
    team_of,
)
from bela.tui.standing import deals_played
from bela.wording import is_pod_mus, is_you, mark_words, suit_name, suit_symbol, you

__all__ = [
    "BidModel",
    "HandModel",
    "SeatModel",
    "SheetModel",
    "SheetRow",
    "TrickModel",
    "bid_model",
    "bid_options",
    "hand_order",
    "seat_model",
    "sheet_model",
    "status_line",
    "taken_text",
]

TRICKS: Final = 8


@dataclass(frozen=True, slots=True)
class HandModel:
    """The human's cards in display order.

    ``legal`` is None when nothing is to be marked (not the human's turn to play);
    ``face_down`` counts talon cards still hidden; ``fresh`` are the cards just
    taken up from the talon.
    """

    cards: tuple[Card, ...] = ()
    legal: frozenset[Card] | None = None
    cursor: int | None = None
    face_down: int = 0
    fresh: frozenset[Card] = frozenset()
    trump: Suit | None = None


@dataclass(frozen=True, slots=True)
class SeatModel:
    """One seat's badge: who, which team, cards left, and what it said or did."""

    seat: int
    name: str
    team: str
    cards_left: int
    dealer: bool
    to_act: bool
    note: str


@dataclass(frozen=True, slots=True)
class TrickModel:
    """The cards on the table by seat; ``winner`` is set while a finished trick is shown."""

    cards: tuple[tuple[int, Card], ...] = ()
    winner: int | None = None
    waiting: int | None = None
    trump: Suit | None = None


@dataclass(frozen=True, slots=True)
class BidModel:
    """The trump choice: options as (key, label, enabled), the highlighted one, a prompt."""

    options: tuple[tuple[str, str, bool], ...]
    cursor: int
    prompt: str


@dataclass(frozen=True, slots=True)
class SheetRow:
    number: int
    mi: int
    vi: int
    note: str


@dataclass(frozen=True, slots=True)
class SheetModel:
    """The "mi / vi" score sheet."""

    rows: tuple[SheetRow, ...] = ()
    totals: tuple[int, int] = (0, 0)
    target: int = 1001
    hanging: int = 0
    deal: int = 0
    """The deal in play of a brza 163 (the sheet counts deals there, not to the target);
    0 in a match to a target."""


def bid_options() -> tuple[Call | Pass, ...]:
    """The bid menu in a fixed order: the four suits, then dalje."""
    return (*(Call(s) for s in Suit), Pass())


def bid_model(rnd: Round, cursor: int) -> BidModel:
    """The menu the human chooses trump from (dalje disabled for the forced dealer)."""
    legal = rnd.legal_actions() if rnd.to_act == HUMAN else []
    options: list[tuple[str, str, bool]] = []
    for key, action in zip(bid_keys(), bid_options(), strict=True):
        if isinstance(action, Call):
            label = f"{suit_symbol(action.suit)} {suit_name(action.suit).capitalize()}"
        else:
            label = _("Dalje (pass)") if action in legal else _("Dalje ✗")
        options.append((key, label, action in legal))
    forced = not any(isinstance(a, Pass) for a in legal)
    # "pod mus": the dealer after three passes, as Croatian tables call it
    prompt = _("Pod mus: all passed\nYou must name trump") if forced else _("Trump or dalje?")
    return BidModel(tuple(options), cursor, prompt)


def _note(rnd: Round, seat: int) -> str:
    """What a badge says under the name: the bid, the call, zvanja, bela."""
    if rnd.phase is Phase.BIDDING or rnd.trump is None:
        for bidder, bid in rnd.bids:
            if bidder == seat:
                if isinstance(bid, Pass):
                    return _("dalje")
                return _("calls {symbol}").format(symbol=suit_symbol(bid.suit))
        return ""
    notes: list[str] = []
    if rnd.caller == seat:
        notes.append(_("called {symbol}").format(symbol=suit_symbol(rnd.trump)))
    if rnd.bela_announced_by == seat:
        notes.append(_("bela!"))
    elif not rnd.tricks and rnd.zvanja_team == team_of(seat) and rnd.declared(seat):
        points = sum(z.points for z in rnd.declared(seat))  # a seat that kept them back: none
        if points:
            notes.append(_("zvanja {points}").format(points=points))
    return " · ".join(notes)


def seat_model(rnd: Round, seat: int, finished_trick: bool) -> SeatModel:
    to_act = rnd.to_act == seat and not finished_trick
    return SeatModel(
        seat=seat,
        name=SEAT_NAMES[seat],
        team=TEAM_NAMES[team_of(seat)],
        cards_left=len(rnd.hand(seat)),
        dealer=rnd.dealer == seat,
        to_act=to_act,
        note=_note(rnd, seat),
    )


def _round_note(record: RoundRecord, rules: Rules) -> str:
    result = record.result
    if result.redeal:
        return _("redeal")
    if result.belot is not None:
        return mark_words(f"belot:{result.belot}", you() % 2)
    notes: list[str] = []
    if result.fell and result.caller is not None and not result.hanging:  # visi hangs
        notes.append(mark_words(f"pad:{team_of(result.caller)}", you() % 2))
    if result.stiglja is not None:
        notes.append(mark_words(f"stiglja:{result.stiglja}", you() % 2))
    if not notes and result.caller is not None and is_pod_mus(record, rules):
        # the dealer had to call: said where the panel's narrow column has room (a pad or
        # a štiglja says more); the blok (b) and the round's summary always say it
        notes.append(mark_words(f"podmus:{team_of(result.caller)}", you() % 2))
    return " ".join(notes)


def sheet_model(match: Match) -> SheetModel:
    rows = tuple(
        SheetRow(r.index + 1, r.written[0], r.written[1], _round_note(r, match.rules))
        for r in match.rounds
    )
    deal = 0
    if match.target == QUICK_TARGET:
        deal = deals_played(match.rounds) + (0 if match.is_over else 1)
    return SheetModel(rows, match.scores, match.target, match.hanging, deal)


def taken_text(rnd: Round, trick: CompletedTrick) -> str:
    """Who took the trick on show and what comes next: "Ivo takes the trick (+24) and leads
    next", or "... takes the last trick" when the round is over."""
    winner = SEAT_NAMES[trick.winner]
    points = trick.points
    if rnd.to_act is None or len(rnd.tricks) == TRICKS:
        if is_you(trick.winner):
            return _("You take the last trick (+{points})").format(points=points)
        return _("{name} takes the last trick (+{points})").format(name=winner, points=points)
    if is_you(trick.winner):
        return _("You take the trick (+{points}) and lead next").format(points=points)
    return _("{name} takes the trick (+{points}) and leads next").format(name=winner, points=points)


def status_line(rnd: Round, finished_trick: bool) -> str:
    """The always-visible line: trump and who called it, whose turn (or who leads next)."""
    if rnd.trump is None:
        parts = [_("Trump not named yet")]
    else:
        values = {"symbol": suit_symbol(rnd.trump), "suit": suit_name(rnd.trump)}
        if rnd.caller is not None and is_you(rnd.caller):
            parts = [_("Trump {symbol} {suit}, your call").format(**values)]
        else:
            caller = SEAT_NAMES[rnd.caller] if rnd.caller is not None else "?"
            parts = [_("Trump {symbol} {suit}, called by {name}").format(name=caller, **values)]
    if rnd.to_act is None:
        parts.append(_("round over"))
    elif finished_trick:  # short: at 80 columns the line has 20 left after the trump
        leader = rnd.to_act
        if leader == HUMAN:
            parts.append(_("you lead next"))
        else:
            parts.append(_("{name} leads next").format(name=SEAT_NAMES[leader]))
    elif rnd.to_act == HUMAN:
        parts.append(_("your turn"))
    else:
        parts.append(_("{name}'s turn").format(name=SEAT_NAMES[rnd.to_act]))
    return " · ".join(parts)


def trick_cards(leader: int, cards: tuple[Card, ...]) -> tuple[tuple[int, Card], ...]:
    return tuple(((leader + i) % 4, card) for i, card in enumerate(cards))


def last_cards_text(cards: tuple[tuple[int, Card], ...]) -> str:
    return ", ".join(f"{SEAT_NAMES[s]} {card_text(c)}" for s, c in cards)
