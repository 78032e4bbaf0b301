"""A puzzle's moment as the table draws it: seen from the puzzle's seat, placed at the bottom.

A puzzle may be any seat's moment (``Puzzle.seat``), but the player always sits at
the bottom of the table, the partner on top, and the one who plays next on the
right, as at their own table. So the moment is drawn turned: seat ``me`` is shown
where seat 0 is (``place``), the others keep their order round the table, and
they take the names of the bots in those places (``bela.puzzle_words.table_names``). Everything here
builds the table's immutable snapshots (``bela.tui.model``) for the widgets the
table uses, under ``bela.wording.at_table`` so that "you", "mi" and "vi" mean the
puzzle's seat and its team.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from bela.engine import Call, Card, Pass, Phase, Play, Round, Suit
from bela.i18n import _
from bela.keys import bid_keys
from bela.tui.model import BidModel, HandModel, SeatModel, TrickModel, bid_options, hand_order
from bela.wording import at_table, card_text, seat_name, suit_name, suit_symbol, team_name

__all__ = [
    "bid_menu",
    "from_seat",
    "hand_model",
    "legal_cards",
    "moment_line",
    "place",
    "seat_models",
    "seen_lines",
    "status_text",
    "trick_model",
    "voids",
]

SEATS: Final = 4


def place(seat: int, me: int) -> int:
    """Where ``seat`` is drawn when ``me`` sits at the bottom: 0 bottom, 1 right, 2 top, 3 left."""
    return (seat - me) % SEATS


@contextmanager
def from_seat(me: int) -> Iterator[None]:
    """Words said from ``me``'s side: ``me`` is "you", its team "mi", the others by name."""
    from bela.puzzle_words import table_names  # the command line names the seats the same way

    names = table_names(me)  # read before at_table: it changes what seat_name says
    with at_table(names, me):
        yield


def legal_cards(rnd: Round) -> frozenset[Card]:
    """The cards the seat to act may play (none while trump is being named)."""
    return frozenset(a.card for a in rnd.legal_actions() if isinstance(a, Play))


def hand_model(rnd: Round, me: int, cursor: int | None) -> HandModel:
    """``me``'s cards as held, the ones it may play marked; the talon face down while bidding."""
    cards = hand_order(rnd.hand(me), rnd.trump)
    if rnd.phase is Phase.BIDDING:  # six cards: the talon is seen once trump is named
        return HandModel(cards, face_down=len(rnd.talon(me)))
    return HandModel(cards, legal=legal_cards(rnd), cursor=cursor, trump=rnd.trump)


def bid_menu(rnd: Round, cursor: int) -> BidModel:
    """The trump choice of the seat to act, in the keys of the player's language."""
    legal = rnd.legal_actions()
    options: list[tuple[str, str, bool]] = []
    for key, action in zip(bid_keys(), bid_options(), strict=True):
        if isinstance(action, Call):
            label = f"{suit_symbol(action.suit)} {suit_name(action.suit).capitalize()}"
        else:
            label = _("Dalje (pass)") if action in legal else _("Dalje ✗")
        options.append((key, label, action in legal))
    forced = not any(isinstance(a, Pass) for a in legal)
    prompt = _("Pod mus: all passed\nYou must name trump") if forced else _("Trump or dalje?")
    return BidModel(tuple(options), cursor, prompt)


def trick_model(rnd: Round, me: int) -> TrickModel:
    """The trick on the table, each card at its player's place; ``me``'s place awaited."""
    if rnd.phase is not Phase.PLAYING:
        return TrickModel(trump=rnd.trump)
    leader = rnd.trick_leader
    cards = tuple((place((leader + i) % SEATS, me), card) for i, card in enumerate(rnd.trick))
    return TrickModel(cards, waiting=place(me, me), trump=rnd.trump)


def _note(rnd: Round, seat: int) -> str:
    """What a badge says under the name: the bid, the call, bela."""
    if rnd.phase is Phase.BIDDING or rnd.trump is None:
        said = [bid for bidder, bid in rnd.bids if bidder == seat]
        if not said:
            return ""
        bid = said[-1]
        return (
            _("dalje")
            if isinstance(bid, Pass)
            else _("calls {symbol}").format(symbol=suit_symbol(bid.suit))
        )
    notes: list[str] = []
    if rnd.caller == seat:
        notes.append(_("called {symbol}").format(symbol=suit_symbol(rnd.trump)))
    if rnd.bela_announced_by == seat:
        notes.append(_("bela!"))
    return " · ".join(notes)


def seat_models(rnd: Round, me: int) -> dict[int, SeatModel]:
    """Each place's badge (call under ``from_seat(me)``): name, team, cards left, what it said."""
    return {
        place(seat, me): SeatModel(
            seat=place(seat, me),
            name=seat_name(seat),
            team=team_name(seat % 2),
            cards_left=len(rnd.hand(seat)),
            dealer=rnd.dealer == seat,
            to_act=rnd.to_act == seat,
            note=_note(rnd, seat),
        )
        for seat in range(SEATS)
    }


def voids(rnd: Round, me: int) -> dict[int, tuple[Suit, ...]]:
    """The suits each other seat has shown it lacks by its play (``shown_voids``: the same
    inference the command line words)."""
    from bela.puzzle_words import shown_voids

    return shown_voids(me, rnd.view(me))


def status_text(rnd: Round, me: int) -> str:
    """Trump and who named it, and that it is the player's turn (call under ``from_seat(me)``)."""
    if rnd.trump is None or rnd.caller is None:
        trump = _("Trump not named yet")
    else:
        values = {"symbol": suit_symbol(rnd.trump), "suit": suit_name(rnd.trump)}
        if rnd.caller == me:
            trump = _("Trump {symbol} {suit}, your call").format(**values)
        else:
            trump = _("Trump {symbol} {suit}, called by {name}").format(
                name=seat_name(rnd.caller), **values
            )
    return f"{trump} · {_('your turn')}"  # short: at 80 columns it shares the line with trump


def moment_line(rnd: Round, me: int) -> str:
    """The moment in one line, to read beside the explanation (call under ``from_seat(me)``):
    the player's cards, and the trick on the table."""
    cards = " ".join(card_text(c) for c in hand_order(rnd.hand(me), rnd.trump))
    if rnd.phase is Phase.BIDDING:
        return _("Your cards: {cards} (the talon still hidden).").format(cards=cards)
    if not rnd.trick:
        return _("Your cards: {cards} · you lead.").format(cards=cards)
    leader = rnd.trick_leader
    table = ", ".join(
        f"{seat_name((leader + i) % SEATS)} {card_text(card)}" for i, card in enumerate(rnd.trick)
    )
    return _("Your cards: {cards} · on the table: {trick}.").format(cards=cards, trick=table)


def seen_lines(rnd: Round, me: int) -> list[str]:
    """What the player knows besides the table (call under ``from_seat(me)``): the points each
    team has taken in tricks so far, and who has shown a void in which suit."""
    lines: list[str] = []
    if rnd.phase is Phase.PLAYING:
        taken = rnd.card_points
        ours, theirs = taken[me % 2], taken[1 - me % 2]
        lines.append(_("In tricks so far: mi {mi}, vi {vi}.").format(mi=ours, vi=theirs))
    for seat, suits in voids(rnd, me).items():
        symbols = " ".join(suit_symbol(s) for s in suits)
        lines.append(_("{name} has no {suits}.").format(name=seat_name(seat), suits=symbols))
    return lines
