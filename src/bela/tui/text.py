"""Words the app shows: seat and team names, cards with suit symbols, and sentences.

Pure functions of engine values, kept apart from the widgets so the wording can
be tested without running the app (and reused by anything else that explains a
round in plain language).
"""

from __future__ import annotations

import re
from typing import Final

from bela.engine import Action, Call, Card, Pass, Play, Rank, RoundResult, Suit, Zvanje, ZvanjeKind

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

# Seat 1 sits to the human's right, 2 opposite (the partner), 3 to the left: play
# passes counter-clockwise, seat s + 1 after seat s.
SEAT_NAMES: Final = ("You", "Ivo", "Marko", "Ana")
TEAM_NAMES: Final = ("mi", "vi")

_RANK_PLURAL: Final = {
    Rank.JACK: "jacks",
    Rank.NINE: "nines",
    Rank.ACE: "aces",
    Rank.TEN: "tens",
    Rank.KING: "kings",
    Rank.QUEEN: "queens",
    Rank.EIGHT: "eights",
    Rank.SEVEN: "sevens",
}
_CARD_CODE: Final = re.compile(r"\b(10|[789JQKA])([HDSC])\b")


def team_of(seat: int) -> int:
    return seat % 2


def card_text(card: Card) -> str:
    """``10♥``: rank and suit symbol, as printed on the table."""
    return f"{card.rank}{card.suit.symbol}"


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
        return f"four {_RANK_PLURAL[zvanje.top_rank]} ({zvanje.points})"
    if zvanje.kind is ZvanjeKind.BELOT:
        return f"belot in {zvanje.cards[0].suit.noun}"
    cards = " ".join(card_text(c) for c in zvanje.cards)
    return f"sequence {cards} ({zvanje.points})"


def action_text(action: Action) -> str:
    """How a seat's action reads in the log: ``dalje``, ``calls ♥ hearts``, ``plays Q♥``."""
    if isinstance(action, Pass):
        return "dalje"
    if isinstance(action, Call):
        return f"calls {action.suit.symbol} {action.suit.noun}"
    assert isinstance(action, Play)
    return f"plays {card_text(action.card)}" + (" and says bela!" if action.bela else "")


def _subject(seat: int) -> str:
    return SEAT_NAMES[seat]


def _explain_claim(result: RoundResult, written: tuple[int, int]) -> str:
    """A round stopped by "dosta" (the na dosta house rule), and what it wrote."""
    team = result.claim if result.claim is not None else 0
    claimers, others = TEAM_NAMES[team], TEAM_NAMES[1 - team]
    mi, vi = written
    if result.claim_ok:
        return (
            f"{claimers.capitalize()} said dosta and had reached the target: play stops, "
            f"mi write {mi}, vi write {vi}, and {claimers} win the match."
        )
    return (
        f"{claimers.capitalize()} said dosta but had not reached the target: the claim is "
        f"written like a pad (mi {mi}, vi {vi}) and {others} win the match."
    )


def explain_round(result: RoundResult, written: tuple[int, int] | None = None) -> str:
    """The round's outcome in a sentence or two, e.g.

    "You called hearts and mi made 96 of 162, more than half: mi write 96, vi write 66."
    """
    written = result.points if written is None else written
    if result.redeal:
        return "Everybody said dalje: nothing is written and the next dealer deals again."
    if result.belot is not None:
        holder = result.belot_seat if result.belot_seat is not None else 0
        suit = result.trump.noun if result.trump is not None else "one suit"
        team = TEAM_NAMES[result.belot]
        held = "hold" if holder == HUMAN else "holds"
        return (
            f"{_subject(holder)} {held} all eight cards of a suit (belot, trump {suit}): "
            f"{team} win the match outright."
        )
    if result.claim is not None:
        return _explain_claim(result, written)
    caller = result.caller if result.caller is not None else 0
    callers = team_of(caller)
    defenders = 1 - callers
    c_name, d_name = TEAM_NAMES[callers], TEAM_NAMES[defenders]
    suit = result.trump.noun if result.trump is not None else "trump"
    made = result.totals[callers]
    combined = result.combined
    parts: list[str] = []
    if result.stiglja is not None:
        sweeper = TEAM_NAMES[result.stiglja]
        parts.append(f"{sweeper.capitalize()} took all eight tricks (štiglja, 90 extra). ")
    who = _subject(caller)
    if not result.fell:
        parts.append(
            f"{who} called {suit} and {c_name} made {made} of {combined}, more than half: "
            f"{c_name} write {written[callers]}, {d_name} write {written[defenders]}."
        )
    elif result.tie:
        if result.hanging:
            parts.append(
                f"{who} called {suit} and {c_name} made exactly half ({made} of {combined}): "
                f"{d_name} write their {written[defenders]} and {c_name}'s {result.hanging} "
                "hang until the next round that is not a tie."
            )
        else:
            parts.append(
                f"{who} called {suit} and {c_name} made exactly half ({made} of {combined}), "
                f"which is not more than half: {c_name} fall (pad) and {d_name} write all "
                f"{written[defenders]}."
            )
    else:
        parts.append(
            f"{who} called {suit} but {c_name} made only {made} of {combined}, not more than "
            f"half: {c_name} fall (pad) and {d_name} write all {written[defenders]}."
        )
    return "".join(parts)
