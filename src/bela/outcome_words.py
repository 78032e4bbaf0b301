"""A round's outcome in sentences, each subject its own message.

Who did something at the table is a person, not a label: "we write 96" and "you
write 66" conjugate differently in Croatian ("mi pišemo", "vi pišete"), Russian
and Spanish, and "Ivo" needs a third-person verb where "you" needs a second. So no
sentence here takes a team or a player as a placeholder: each has one message for
us (the reader's team), one for the other team, one for the reader and one for a
named player, and the code picks the message, never a word for a slot. Where a
past tense would need the player's gender (hr, ru) the messages say it in the
present or as "Ana: ...", which every name fits.

The local table's summary (``bela.table_text``) and the replay's (``bela.archive.
replay_text``) both speak through here, so a round reads the same in both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bela.engine import RoundResult, Suit
from bela.i18n import _
from bela.wording import is_you, ours, seat_name, suit_called, suit_name

__all__ = [
    "belot_holder",
    "belot_win",
    "called_by",
    "called_by_team",
    "claim",
    "outcome",
    "sentences",
    "stiglja",
]

_CLOSED: Final = ("。", "！", "？")
"""Full-width stops: a Chinese sentence after one follows with no space."""


def sentences(parts: Sequence[str]) -> str:
    """Sentences one after another: a space after a Latin stop, none after a full-width one."""
    text = ""
    for part in parts:
        text += part if not text or text.endswith(_CLOSED) else " " + part
    return text


def _name(seat: int, names: Sequence[str] | None) -> str:
    return seat_name(seat) if names is None else names[seat]


def _pair(written: tuple[int, int]) -> dict[str, int]:
    """The points as the reader's team ("ours") and the other's ("theirs")."""
    we = 0 if ours(0) else 1
    return {"ours": written[we], "theirs": written[1 - we]}


def called_by(seat: int, trump: Suit, names: Sequence[str] | None = None) -> str:
    """``You called hearts.`` / ``Ivo called hearts.`` (``names``: a network table's)."""
    if is_you(seat):
        return _("You called {suit}.").format(suit=suit_called(trump))
    return _("{name} called {suit}.").format(name=_name(seat, names), suit=suit_called(trump))


def called_by_team(team: int, trump: Suit) -> str:
    """``We called hearts.`` / ``They called hearts.``: a replay names the team, not a seat."""
    if ours(team):
        return _("We called {suit}.").format(suit=suit_called(trump))
    return _("They called {suit}.").format(suit=suit_called(trump))


def outcome(result: RoundResult, written: tuple[int, int]) -> str:
    """What the calling team made and what each team writes: made, tied (hanging or pad),
    or fell."""
    callers = result.caller_team
    assert callers is not None
    values = {**_pair(written), "made": result.totals[callers], "combined": result.combined}
    values["hanging"] = result.hanging
    we = ours(callers)
    if not result.fell:
        text = (
            _("We made {made} of {combined}, more than half: we write {ours}, they write {theirs}.")
            if we
            else _(
                "They made {made} of {combined}, more than half: they write {theirs}, "
                "we write {ours}."
            )
        )
    elif result.tie and result.hanging:
        text = (
            _(
                "We made exactly half ({made} of {combined}): they write their {theirs} and "
                "our {hanging} hang until a round that is not a tie."
            )
            if we
            else _(
                "They made exactly half ({made} of {combined}): we write our {ours} and "
                "their {hanging} hang until a round that is not a tie."
            )
        )
    elif result.tie:
        text = (
            _(
                "We made exactly half ({made} of {combined}), which is not more than half: "
                "we fall (pad) and they write all {theirs}."
            )
            if we
            else _(
                "They made exactly half ({made} of {combined}), which is not more than half: "
                "they fall (pad) and we write all {ours}."
            )
        )
    else:
        text = (
            _(
                "We made only {made} of {combined}, not more than half: we fall (pad) and "
                "they write all {theirs}."
            )
            if we
            else _(
                "They made only {made} of {combined}, not more than half: they fall (pad) and "
                "we write all {ours}."
            )
        )
    return text.format(**values)


def stiglja(team: int) -> str:
    """All eight tricks to one team."""
    if ours(team):
        return _("We took all eight tricks (štiglja, 90 extra).")
    return _("They took all eight tricks (štiglja, 90 extra).")


def belot_holder(seat: int, trump: Suit | None, names: Sequence[str] | None = None) -> str:
    """Who holds all eight cards of a suit."""
    suit = suit_name(trump) if trump is not None else ""
    if is_you(seat):
        return _("You hold all eight cards of a suit (belot, trump {suit}).").format(suit=suit)
    return _("{name} holds all eight cards of a suit (belot, trump {suit}).").format(
        name=_name(seat, names), suit=suit
    )


def belot_win(team: int) -> str:
    """The team whose player holds belot wins the match at once."""
    if ours(team):
        return _("Belot: we win the match outright.")
    return _("Belot: they win the match outright.")


def claim(result: RoundResult, written: tuple[int, int]) -> str:
    """A round stopped by "dosta" (the na dosta house rule): right or wrong, and what it wrote."""
    team = result.claim if result.claim is not None else 0
    values = _pair(written)
    if result.claim_ok:
        text = (
            _(
                "We said dosta and had reached the target: play stops, we write {ours}, "
                "they write {theirs}, and we win the match."
            )
            if ours(team)
            else _(
                "They said dosta and had reached the target: play stops, they write {theirs}, "
                "we write {ours}, and they win the match."
            )
        )
    else:
        text = (
            _(
                "We said dosta but had not reached the target: it is written like a pad "
                "(we {ours}, they {theirs}) and they win the match."
            )
            if ours(team)
            else _(
                "They said dosta but had not reached the target: it is written like a pad "
                "(they {theirs}, we {ours}) and we win the match."
            )
        )
    return text.format(**values)
