"""What the host says to the seats, as data: a code and its values, worded by each player's app.

A table's players may each read a different language, and the host has none of
its own: so every sentence the host composes (a notice, a refusal, the reason a
connection is closed, the line after an action) travels as a ``Phrase``, a code
from ``PHRASES`` and the values it names (names, seats, points, cards by their
codes). The app words it in its player's language with ``render``. The English
sentence travels too, for a log and for a peer that does not know the code.

Values come from the network: ``render`` inserts them into the template of the
*receiving* app's own catalogue (never formats text the host sent), cuts them
to a sane length, and falls back to the English text when the code is unknown
or a value is missing, so a strange host can say nothing but plain words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bela.engine import Card, RoundRecord, Suit
from bela.engine.errors import (
    IllegalBidError,
    IllegalClaimError,
    IllegalPlayError,
    OutOfTurnError,
)
from bela.engine.tricks import ILLEGAL_CODES, Illegal
from bela.foundation.untrusted import oneline
from bela.i18n import N_, _
from bela.wording import illegal_text

__all__ = ["PHRASES", "Phrase", "illegal_phrase", "render", "round_over"]

PHRASES: Final[dict[str, str]] = {
    # notices to every seat
    "sits_down": N_("{name} sits down at seat {seat}."),
    "back": N_("{name} is back."),
    "back_from_bot": N_("{name} is back. The bot hands the seat back."),
    "left": N_("{name} left the table."),
    "lost_connection": N_(
        "{name} lost the connection: a bot plays for them in {wait} s unless they come back."
    ),
    "closed_app": N_(
        "{name} closed the app and left the table: a bot plays for them in {wait} s "
        "unless they come back."
    ),
    "bot_plays_for": N_("A bot ({level}) now plays for {name} until they come back."),
    "match_starts": N_("The match to {target} starts: {names}."),
    "not_saving": N_(
        "The host cannot save the table just now: play waits until it can (nothing is lost)."
    ),
    "saving_again": N_("The host saves the table again: play goes on."),
    # the line after an action
    "takes_trick": N_("{name} takes the trick (+{points})."),
    "round_over": N_(
        "Round {n} over: {team0} {written0}, {team1} {written1}. Totals {score0} : {score1}."
    ),
    "round_over_note": N_(
        "Round {n} over: {team0} {written0}, {team1} {written1} ({note}). "
        "Totals {score0} : {score1}."
    ),
    "note_redeal": N_("redeal: all passed"),
    "note_belot": N_("belot: {team} win the match"),
    "note_fell": N_("{team} fell (pad)"),
    "note_stiglja": N_("štiglja {team}"),
    "note_claim_ok": N_("dosta holds"),
    "note_claim_wrong": N_("dosta was wrong"),
    # refusals, to the one who asked
    "table_full": N_("the table is full"),
    "match_started_full": N_(
        "the match has started: only the players who sat down before it can sit at this table"
    ),
    "seats_fixed": N_("the match has started: seats are fixed"),
    "no_such_seat": N_("there is no such seat"),
    "seat_taken": N_("seat {seat} is taken by {name}"),
    "shutting_down": N_("the host is shutting down"),
    "not_started": N_("the match has not started"),
    "match_over": N_("the match is over"),
    "bot_playing": N_("a bot is playing this seat"),
    "already_started": N_("the match has already started"),
    "only_host_starts": N_("only the host starts the match"),
    "slow_down": N_("slow down: a few lines at a time"),
    "nothing_to_say": N_("nothing to say"),
    "not_your_turn": N_("it is not your turn"),
    "dealer_must_call": N_("the dealer may not say dalje: name a trump suit"),
    "claim_when": N_(
        "'dosta' is said by the player who has just won a trick, before the next lead"
    ),
    # why a connection is closed
    "taken_up_again": N_("this seat was taken up again with its token from another connection"),
    "not_reading": N_("you are not reading what the table sends"),
    "frame_too_large": N_("frame too large (the limit is {limit} bytes)"),
    "frame_cut": N_("the last frame was cut off"),
    "line_too_slow": N_("a line took more than {seconds} s to arrive whole"),
    "host_busy": N_("the host has too many connections just now: try again in a minute"),
    "too_many_from_address": N_(
        "too many connections from your address are waiting to join: try again in a minute"
    ),
    "no_hello": N_("no hello in time"),
    "hello_first": N_("the first message must be hello"),
    "hello_again": N_("hello was already said"),
    "goodbye": N_("goodbye"),
    "wrong_version": N_(
        "this host speaks protocol version {version}, not {theirs}: update bela on one side"
    ),
    "too_many_wrong": N_("too many wrong join codes from your address: try again in {wait} s"),
    "wrong_code": N_("wrong join code"),
    "stale_token": N_("that reconnect token does not hold a seat at this table"),
    "table_closed": N_("the match is over and the table has closed"),
    "code_over": N_("the match at this join code is over ({score0} : {score1})"),
    "code_over_kept": N_(
        "the match at this join code is over ({score0} : {score1}); its record is in {file} "
        "on the host"
    ),
}
"""Every sentence the host may compose, by code (the English is the msgid)."""

_ILLEGAL: Final = "illegal"
"""An illegal card: the values are the engine's ``Illegal`` fields (cards and suits by code)."""

_VALUE_LIMIT: Final = 80

_SENT_LIMIT: Final = 200
"""The most characters of one value a phrase carries: a value can echo what a peer sent
(the protocol version of a hello, a name), and a peer can send 1,900 digits."""


def _sent(value: str | int) -> str | int:
    """A value cut to a sane length before it is sent or worded (a huge number as text)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if -(10**15) < value < 10**15:
            return value
        try:
            return str(value)[:20] + "…"
        except ValueError:  # Python refuses to print an int of more than 4,300 digits
            return "…"
    return oneline(value, _SENT_LIMIT)


@dataclass(frozen=True, slots=True)
class Phrase:
    """A sentence the host says, as a code and its values."""

    code: str
    args: dict[str, str | int] = field(default_factory=dict)
    text: str = ""
    """The English sentence; composed from ``PHRASES`` when left empty."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", {k: _sent(v) for k, v in self.args.items()})
        if not self.text:
            object.__setattr__(self, "text", PHRASES[self.code].format(**self.args))

    def fields(self, key: str = "text") -> dict[str, Any]:
        """The phrase as message fields: the English under ``key``, the code and the values."""
        return {key: self.text[:300], "code": self.code, "args": dict(self.args)}


def illegal_phrase(exc: Exception) -> Phrase:
    """An action the engine refused, as a phrase: an illegal card with the engine's data,
    the other refusals by their kind (the English is the engine's own message)."""
    text = str(exc)[:300]
    reason = getattr(exc, "reason", None)
    if isinstance(exc, IllegalPlayError) and reason is not None:
        args: dict[str, str | int] = {"reason": reason.code, "card": str(reason.card)}
        for name in ("led", "trump", "win"):
            value = getattr(reason, name)
            if value is not None:
                args[name] = str(value)
        args["legal"] = " ".join(str(c) for c in reason.legal)
        return Phrase(_ILLEGAL, args, text)
    if isinstance(exc, IllegalClaimError):
        return Phrase("claim_when", {}, text)
    if isinstance(exc, IllegalBidError):
        return Phrase("dealer_must_call", {}, text)
    if isinstance(exc, OutOfTurnError):
        return Phrase("not_your_turn", {}, text)
    return Phrase("engine", {}, text)


_NOTES: Final = ("redeal", "belot", "fell", "stiglja", "claim_ok", "claim_wrong")
"""The parts of a round's note, in the order they are said (values: the team's names)."""


def round_over(record: RoundRecord, names: Sequence[str], scores: tuple[int, int]) -> Phrase:
    """The line after a round: each team by its players' names (not "mi"/"vi", which depend
    on who reads it), the points written, what happened (fell, štiglja...) and the totals."""
    result = record.result
    teams = [f"{names[t]} & {names[t + 2]}" for t in (0, 1)]
    values: dict[str, str | int] = {
        "n": record.index + 1,
        "team0": teams[0],
        "written0": record.written[0],
        "team1": teams[1],
        "written1": record.written[1],
        "score0": scores[0],
        "score1": scores[1],
    }
    if result.redeal:
        values["redeal"] = ""
    elif result.belot is not None:
        values["belot"] = teams[result.belot]
    else:
        if result.caller is not None and result.fell:
            values["fell"] = teams[result.caller % 2]
        if result.stiglja is not None:
            values["stiglja"] = teams[result.stiglja]
        if result.claim is not None:
            values["claim_ok" if result.claim_ok else "claim_wrong"] = ""
    english = _note(values, translate=False)  # the same parts the apps word
    code = "round_over_note" if english else "round_over"
    return Phrase(code, values, PHRASES[code].format(**values, note=english))


def render(text: str, code: str | None, args: Mapping[str, str | int] | None) -> str:
    """The host's sentence in this app's language; ``text`` (the host's English) when the
    code is unknown here or its values do not fit."""
    if code is None:
        return text
    values = {k: v if isinstance(v, int) else v[:_VALUE_LIMIT] for k, v in (args or {}).items()}
    try:
        if code == _ILLEGAL:
            return _illegal(values)
        template = PHRASES.get(code)
        if template is None or code.startswith("note_"):
            return text
        if code == "round_over_note":
            values["note"] = _note(values)
            if not values["note"]:
                return text
        return _(template).format(**values)
    except (KeyError, ValueError, IndexError, AttributeError, TypeError, AssertionError):
        return text


def _note(values: Mapping[str, str | int], translate: bool = True) -> str:
    """What happened in a round, from the parts the host named: in this app's language,
    or (``translate=False``) in the host's English; "" when nothing did."""
    word = _ if translate else str
    parts = [
        word(PHRASES[f"note_{part}"]).format(team=values[part]) for part in _NOTES if part in values
    ]
    return ", ".join(parts)


def _illegal(values: Mapping[str, str | int]) -> str:
    def suit(name: str) -> Suit | None:
        value = values.get(name)
        return None if value is None else Suit.parse(str(value))

    win = values.get("win")
    reason = str(values["reason"])
    if reason not in ILLEGAL_CODES:
        raise ValueError(reason)
    illegal = Illegal(
        code=reason,
        card=Card.parse(str(values["card"])),
        led=suit("led"),
        trump=suit("trump"),
        win=None if win is None else Card.parse(str(win)),
        legal=tuple(Card.parse(c) for c in str(values.get("legal", "")).split()),
    )
    return illegal_text(illegal)
