"""Words the app shows: seat and team names, cards with suit symbols, and sentences.

Pure functions of engine values, kept apart from the widgets so the wording can
be tested without running the app (and reused by anything else that explains a
round in plain language).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from bela.engine import Action, Call, Pass, Play, RoundResult, Suit, Zvanje, ZvanjeKind
from bela.i18n import _
from bela.wording import card_text, rank_plural, seat_name, suit_name, team_name

__all__ = [
    "HUMAN",
    "SEAT_NAMES",
    "TEAM_NAMES",
    "action_text",
    "card_text",
    "explain_round",
    "sentence",
    "symbolize",
    "team_of",
    "zvanje_text",
]

HUMAN: Final = 0
"""The human's seat; the human's team (0) is "mi"."""


class _Names:
    """``SEAT_NAMES[seat]`` / ``TEAM_NAMES[team]`` in the current language (read when shown).

    Seat 1 sits to the human's right, 2 opposite (the partner), 3 to the left:
    play passes counter-clockwise, seat s + 1 after seat s.
    """

    def __init__(self, name: Callable[[int], str]) -> None:
        self._name = name

    def __getitem__(self, index: int) -> str:
        return self._name(index)


SEAT_NAMES: Final = _Names(seat_name)
TEAM_NAMES: Final = _Names(team_name)

_CARD_CODE: Final = re.compile(r"\b(10|[789JQKA])([HDSC])\b")


def team_of(seat: int) -> int:
    return seat % 2


def symbolize(message: str) -> str:
    """Engine messages name cards like ``JH``; show them as ``J♥`` instead."""
    return _CARD_CODE.sub(lambda m: m.group(1) + Suit.parse(m.group(2)).symbol, message)


def sentence(message: str) -> str:
    """An engine message as the app shows it: suit symbols, first letter capitalised."""
    text = symbolize(message)
    return text[:1].upper() + text[1:]


def zvanje_text(zvanje: Zvanje) -> str:
    """``sequence 9♥ 10♥ J♥ (20)`` / ``four jacks (200)`` / ``belot in hearts``."""
    if zvanje.kind is ZvanjeKind.FOUR:
        return _("four {rank} ({points})").format(
            rank=rank_plural(zvanje.top_rank), points=zvanje.points
        )
    if zvanje.kind is ZvanjeKind.BELOT:
        return _("belot in {suit}").format(suit=suit_name(zvanje.cards[0].suit))
    cards = " ".join(card_text(c) for c in zvanje.cards)
    return _("sequence {cards} ({points})").format(cards=cards, points=zvanje.points)


def action_text(action: Action) -> str:
    """How a seat's action reads in the log: ``dalje``, ``calls ♥ hearts``, ``plays Q♥``."""
    if isinstance(action, Pass):
        return _("dalje")
    if isinstance(action, Call):
        return _("calls {symbol} {suit}").format(
            symbol=action.suit.symbol, suit=suit_name(action.suit)
        )
    assert isinstance(action, Play)
    if action.bela:
        return _("plays {card} and says bela!").format(card=card_text(action.card))
    return _("plays {card}").format(card=card_text(action.card))


def _subject(seat: int, names: Sequence[str] | None = None) -> str:
    return SEAT_NAMES[seat] if names is None else names[seat]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _explain_claim(result: RoundResult, written: tuple[int, int]) -> str:
    """A round stopped by "dosta" (the na dosta house rule), and what it wrote."""
    team = result.claim if result.claim is not None else 0
    claimers, others = TEAM_NAMES[team], TEAM_NAMES[1 - team]
    mi, vi = written
    values = {"claimers": claimers, "others": others, "mi": mi, "vi": vi}
    if result.claim_ok:
        return _capital(
            _(
                "{claimers} said dosta and had reached the target: play stops, "
                "mi write {mi}, vi write {vi}, and {claimers} win the match."
            ).format(**values)
        )
    return _capital(
        _(
            "{claimers} said dosta but had not reached the target: the claim is "
            "written like a pad (mi {mi}, vi {vi}) and {others} win the match."
        ).format(**values)
    )


def explain_round(
    result: RoundResult,
    written: tuple[int, int] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """The round's outcome in a sentence or two, e.g.

    "You called hearts and mi made 96 of 162, more than half: mi write 96, vi write 66."

    ``names``: the seats' names when they are not the local table's (a network seat,
    seen from seat 0).
    """
    written = result.points if written is None else written
    if result.redeal:
        return _("Everybody said dalje: nothing is written and the next dealer deals again.")
    if result.belot is not None:
        holder = result.belot_seat if result.belot_seat is not None else 0
        values: dict[str, object] = {
            "who": _subject(holder, names),
            "suit": suit_name(result.trump) if result.trump is not None else "",
            "team": TEAM_NAMES[result.belot],
        }
        if holder == HUMAN:
            text = _(
                "{who} hold all eight cards of a suit (belot, trump {suit}): "
                "{team} win the match outright."
            )
        else:
            text = _(
                "{who} holds all eight cards of a suit (belot, trump {suit}): "
                "{team} win the match outright."
            )
        return text.format(**values)
    if result.claim is not None:
        return _explain_claim(result, written)
    caller = result.caller if result.caller is not None else 0
    callers = team_of(caller)
    defenders = 1 - callers
    parts: list[str] = []
    if result.stiglja is not None:
        text = _("{team} took all eight tricks (štiglja, 90 extra). ").format(
            team=TEAM_NAMES[result.stiglja]
        )
        parts.append(_capital(text))
    values = {
        "who": _subject(caller, names),
        "suit": suit_name(result.trump) if result.trump is not None else "",
        "callers": TEAM_NAMES[callers],
        "defenders": TEAM_NAMES[defenders],
        "made": result.totals[callers],
        "combined": result.combined,
        "written_callers": written[callers],
        "written_defenders": written[defenders],
        "hanging": result.hanging,
    }
    if not result.fell:
        text = _(
            "{who} called {suit} and {callers} made {made} of {combined}, more than half: "
            "{callers} write {written_callers}, {defenders} write {written_defenders}."
        )
    elif result.tie and result.hanging:
        text = _(
            "{who} called {suit} and {callers} made exactly half ({made} of {combined}): "
            "{defenders} write their {written_defenders} and {callers}'s {hanging} "
            "hang until the next round that is not a tie."
        )
    elif result.tie:
        text = _(
            "{who} called {suit} and {callers} made exactly half ({made} of {combined}), "
            "which is not more than half: {callers} fall (pad) and {defenders} write all "
            "{written_defenders}."
        )
    else:
        text = _(
            "{who} called {suit} but {callers} made only {made} of {combined}, not more than "
            "half: {callers} fall (pad) and {defenders} write all {written_defenders}."
        )
    parts.append(text.format(**values))
    return "".join(parts)
