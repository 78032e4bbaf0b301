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
from bela.wording import illegal_text, level_name

__all__ = [
    "PHRASES",
    "ROUND_CODES",
    "Phrase",
    "illegal_phrase",
    "render",
    "round_over",
    "seated_pairs",
    "shown_seats",
    "team_names",
]

PHRASES: Final[dict[str, str]] = {
    # notices to every seat
    "sits_down": N_("{name} sits down at seat {seat}."),
    "moves_seat": N_("{name} moves to seat {seat}."),
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
    "watching": N_("{name} is watching the table."),
    "moved_by_host": N_("The host moves {name} to seat {seat}."),
    "paused": N_("{name} paused the table."),
    "resumed": N_("{name} resumed the table: play on."),
    "pause_ends": N_("{name} paused the table and left: the pause is over, play on."),
    "clock_warning": N_("Your turn: {seconds} s left before a bot plays it for you."),
    "clock_played": N_("{name}'s time ran out: a bot played this turn for them."),
    "stops_watching": N_("{name} stops watching."),
    "hand_shown": N_("{name} lets {watcher} see their hand."),
    "hand_hidden": N_("{name} no longer shows their hand to {watcher}."),
    "wants_again": N_("{name} wants another match (još jednu). Waiting for: {names}."),
    "again_starts": N_(
        "Još jednu: a new match to {target} at the same seats; {name} deals first. "
        "Matches won: {pair0} {won0}, {pair1} {won1}."
    ),
    "not_saving": N_(
        "The host cannot save the table just now: play waits until it can (nothing is lost)."
    ),
    "saving_again": N_("The host saves the table again: play goes on."),
    # the line after an action
    "takes_trick": N_("{name} takes the trick (+{points})."),
    "round_end": N_(
        "Round {n} over: we write {ours}, they write {theirs}; the score is "
        "{total_ours} : {total_theirs}."
    ),
    "round_end_note": N_(
        "Round {n} over ({note}): we write {ours}, they write {theirs}; the score is "
        "{total_ours} : {total_theirs}."
    ),
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
    "watchers_full": N_("the table has {most} watchers already"),
    "only_watching": N_("a watcher only watches"),
    "no_watcher": N_("nobody is watching who could see your hand"),
    "one_watcher": N_("{watcher} already sees your hand (one watcher at a time)"),
    "nobody_sees_hand": N_("no watcher sees your hand"),
    "name_the_watcher": N_("say which watcher may see your hand"),
    "no_such_watcher": N_("{watcher} is not watching this table"),
    "watcher_sees_other": N_("{watcher} already sees another player's hand"),
    "watch_name_taken": N_(
        "the name {name} is taken at this table, or looks like one that is: watch under another"
    ),
    "only_host_controls": N_("only the host does that"),
    "still_connected": N_(
        "{name} is still at the table: a bot takes only the seat of someone away"
    ),
    "already_paused": N_("the table is already paused"),
    "not_paused": N_("the table is not paused"),
    "table_paused": N_("the table is paused: wait for the host to resume it"),
    "no_such_control": N_("there is no such control"),
    "not_over_yet": N_("another match is asked for once this one is over"),
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
    # the public server (bela server, bela online): its lobby and accounts
    "abandoned": N_(
        "{name} left the rated match: it counts as a loss for them, and the match is no "
        "longer rated."
    ),
    "bad_name": N_("that name cannot be used: choose one with letters or digits"),
    "name_taken": N_("the name {name} is taken (or one that reads like it)"),
    "bad_signature": N_("the key's signature does not check out"),
    "banned": N_("this key is banned from this server"),
    "signed_in_elsewhere": N_("you signed in again from another connection"),
    "guest_unrated": N_("a guest plays only at unrated tables"),
    "guest_rename": N_("a guest's name is chosen when signing in"),
    "already_seated": N_("you already sit at, watch or wait for a table: leave it first"),
    "not_seated": N_("you are not at a table"),
    "no_such_table": N_("there is no such table"),
    "rated_phrases_only": N_("at a rated table, talk is the quick phrases only"),
    "rated_no_help": N_("not at a rated table until the match has ended"),
    "ended_by_operator": N_("the server's operator ended this table"),
    "too_many_signed_in": N_("too many players are signed in from your address just now"),
    "no_such_player": N_("nobody is called {name} here"),
    "guest_no_account": N_("a guest has no account for that: sign in with a key"),
    "rated_match": N_(
        "The match is rated: no hints, no analysis and only the quick phrases until it ends."
    ),
    "unrated_with_bots": N_(
        "A bot plays at this table, so this match is not rated: a rated match needs four players."
    ),
    "invite_not_seated": N_("sit at a table first: an invitation is to the table you sit at"),
    "cannot_invite": N_("{name} cannot be invited"),
    "invitation_sent": N_("{name} is invited to this table."),
    "too_many_invitations": N_("too many invitations just now: wait a minute"),
    "invited_you": N_("{name} invites you to their table: the lobby shows the invitation."),
    "invite_declined": N_("{name} declined your invitation."),
    "no_invitation": N_("there is no such invitation (it may have expired)"),
}
"""Every sentence the host may compose, by code (the English is the msgid)."""

ROUND_CODES: Final = ("round_end", "round_end_note")
"""The line after a round: worded from the reader's own team ("we write 96"), so the host
sends the teams by number and each app picks the messages for its seat's side."""

_TO_YOU: Final[dict[str, str]] = {
    "sits_down": N_("You sit down at seat {seat}."),
    "takes_trick": N_("You take the trick (+{points})."),
}
"""A phrase about a seat (``seat`` among its values), as said to the player in that seat:
its own message, never "You" put where a name goes."""

_NOTE_WORDS: Final[dict[str, tuple[str, str]]] = {
    "belot": (N_("belot: we win the match"), N_("belot: they win the match")),
    "fell": (N_("we fell (pad)"), N_("they fell (pad)")),
    "stiglja": (N_("štiglja for us"), N_("štiglja for them")),
}
"""A round's note about a team, from the reader's side: (our team, the other)."""

_NOTE_PLAIN: Final[dict[str, str]] = {
    "redeal": N_("redeal: all passed"),
    "claim_ok": N_("dosta holds"),
    "claim_wrong": N_("dosta was wrong"),
}

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
            object.__setattr__(self, "text", PHRASES[self.code].format(**shown_seats(self.args)))

    def fields(self, key: str = "text") -> dict[str, Any]:
        """The phrase as message fields: the English under ``key``, the code and the values."""
        return {key: self.text[:300], "code": self.code, "args": dict(self.args)}


def shown_seats(values: Mapping[str, str | int]) -> dict[str, str | int]:
    """The values as a player reads them: a ``seat`` travels as the protocol's 0-3 and is
    said 1-4, as the lobby's keys 1-4 and its lines number the seats."""
    shown = dict(values)
    seat = shown.get("seat")
    if isinstance(seat, int):
        shown["seat"] = seat + 1
    return shown


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
"""The parts of a round's note, in the order they are said (values: a team's number)."""


def round_over(record: RoundRecord, names: Sequence[str], scores: tuple[int, int]) -> Phrase:
    """The line after a round: the points written, what happened (fell, štiglja...) and the
    totals, with the teams by number (0: seats 0 and 2), never by a word: each app says
    "we"/"they" from its own seat. The English text (a log's, an older app's) names the
    teams by their players."""
    result = record.result
    values: dict[str, str | int] = {
        "n": record.index + 1,
        "written0": record.written[0],
        "written1": record.written[1],
        "score0": scores[0],
        "score1": scores[1],
    }
    if result.redeal:
        values["redeal"] = ""
    elif result.belot is not None:
        values["belot"] = result.belot
    else:
        if result.caller is not None and result.fell and not result.hanging:  # visi hangs
            values["fell"] = result.caller % 2
        if result.stiglja is not None:
            values["stiglja"] = result.stiglja
        if result.claim is not None:
            values["claim_ok" if result.claim_ok else "claim_wrong"] = ""
    teams = [f"{names[t]} & {names[t + 2]}" for t in (0, 1)]
    english = _english_note(values, teams)
    code = "round_end_note" if english else "round_end"
    text = f"Round {values['n']} over: {teams[0]} {record.written[0]}, {teams[1]} " + (
        f"{record.written[1]} ({english}). " if english else f"{record.written[1]}. "
    )
    return Phrase(code, values, text + f"Totals {scores[0]} : {scores[1]}.")


def _english_note(values: Mapping[str, str | int], teams: Sequence[str]) -> str:
    """The note in the host's English, the teams by their players' names (for a log)."""
    parts = {
        "redeal": "redeal: all passed",
        "belot": "belot: {team} win the match",
        "fell": "{team} fell (pad)",
        "stiglja": "štiglja {team}",
        "claim_ok": "dosta holds",
        "claim_wrong": "dosta was wrong",
    }
    said = []
    for part in _NOTES:
        if part in values:
            value = values[part]
            team = teams[value] if isinstance(value, int) else ""
            said.append(parts[part].format(team=team))
    return ", ".join(said)


def render(
    text: str,
    code: str | None,
    args: Mapping[str, str | int] | None,
    me: int | None = None,
    teams: tuple[str, str] | None = None,
) -> str:
    """The host's sentence in this app's language; ``text`` (the host's English) when the
    code is unknown here or its values do not fit. ``me``: the reader's seat, for the
    phrases said from a side ("we write 96", "you take the trick"). A watcher has no side:
    ``teams`` names the two teams (seats 0 and 2, 1 and 3) for the lines said of them
    ("Ana and Ivo write 96"); with neither, those are the host's English."""
    if code is None:
        return text
    values = {k: v if isinstance(v, int) else v[:_VALUE_LIMIT] for k, v in (args or {}).items()}
    try:
        if code == _ILLEGAL:
            return _illegal(values)
        template = PHRASES.get(code)
        if template is None:
            return text
        if code in ROUND_CODES:
            if me is not None:
                return _round_line(code, values, me)
            return text if teams is None else _round_line_named(code, values, teams)
        if "level" in values:  # a bots' level by its name in this language, not its id
            values["level"] = level_name(str(values["level"]))
        if code in _TO_YOU and me is not None and values.get("seat") == me:
            template = _TO_YOU[code]
        return _(template).format(**shown_seats(values))
    except (KeyError, ValueError, IndexError, AttributeError, TypeError, AssertionError):
        return text


def _round_line(code: str, values: Mapping[str, str | int], me: int) -> str:
    """A round's end worded from seat ``me``'s team."""
    mine = me % 2
    words = {
        "n": values["n"],
        "ours": int(values[f"written{mine}"]),
        "theirs": int(values[f"written{1 - mine}"]),
        "total_ours": int(values[f"score{mine}"]),
        "total_theirs": int(values[f"score{1 - mine}"]),
    }
    if code == "round_end_note":
        words["note"] = _note(values, mine)
        if not words["note"]:
            raise ValueError("a note with nothing in it")
    return _(PHRASES[code]).format(**words)


_NAMED_ROUND: Final = N_(
    "Round {n} over: {pair0} write {written0}, {pair1} write {written1}; the score is "
    "{score0} : {score1}."
)
_NAMED_ROUND_NOTE: Final = N_(
    "Round {n} over ({note}): {pair0} write {written0}, {pair1} write {written1}; the score "
    "is {score0} : {score1}."
)
_NAMED_NOTE_WORDS: Final[dict[str, str]] = {
    "belot": N_("belot: {pair} win the match"),
    "fell": N_("{pair} fell (pad)"),
    "stiglja": N_("štiglja for {pair}"),
}
"""A round's note about a team, for a watcher: the team by its players' names."""


def team_names(names: Sequence[str]) -> tuple[str, str]:
    """The two teams by their players (seats 0 and 2, 1 and 3): "Ana and Ivo"."""
    return (
        _("{first} and {second}").format(first=names[0], second=names[2]),
        _("{first} and {second}").format(first=names[1], second=names[3]),
    )


def seated_pairs(names: Sequence[str | None]) -> tuple[str, str]:
    """The two pairs of a table by the names its seats hold (outside text: through the
    gate, 24 characters), a seat nobody took as its bot ("bot 4"), as the table says it."""
    seats = (*names, None, None, None, None)[:4]
    return team_names([oneline(n, 24) if n else f"bot {i + 1}" for i, n in enumerate(seats)])


def _round_line_named(code: str, values: Mapping[str, str | int], teams: tuple[str, str]) -> str:
    """A round's end for a watcher: each team by its players' names, nobody as "we"."""
    words: dict[str, str | int] = {
        "n": values["n"],
        "pair0": teams[0],
        "pair1": teams[1],
        "written0": int(values["written0"]),
        "written1": int(values["written1"]),
        "score0": int(values["score0"]),
        "score1": int(values["score1"]),
    }
    if code == "round_end":
        return _(_NAMED_ROUND).format(**words)
    parts = []
    for part in _NOTES:
        if part not in values:
            continue
        if part in _NAMED_NOTE_WORDS:
            team = values[part]
            if team not in (0, 1):
                raise ValueError(part)
            parts.append(_(_NAMED_NOTE_WORDS[part]).format(pair=teams[int(team)]))
        else:
            parts.append(_(_NOTE_PLAIN[part]))
    if not parts:
        raise ValueError("a note with nothing in it")
    return _(_NAMED_ROUND_NOTE).format(note=", ".join(parts), **words)


def _note(values: Mapping[str, str | int], mine: int) -> str:
    """What happened in a round, from the parts the host named, said from team ``mine``."""
    parts = []
    for part in _NOTES:
        if part not in values:
            continue
        if part in _NOTE_WORDS:
            team = values[part]
            if team not in (0, 1):
                raise ValueError(part)
            parts.append(_(_NOTE_WORDS[part][0 if team == mine else 1]))
        else:
            parts.append(_(_NOTE_PLAIN[part]))
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
