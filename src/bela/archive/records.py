"""Match records: a match as versioned JSON that replays to the very same state.

A record keeps a match's inputs (rules, target, seed, first dealer and every
action with its seat) and, beside them, the results each round came to. The
engine is the single source of truth: loading a record replays the actions
through ``Match`` and only *checks* the stored results against that replay, so
a hand-edited, truncated or mismatched file is refused instead of believed.

Pydantic lives here, at the edge; the engine never sees it. Every way a record
can be unusable raises ``RecordError`` with a one-line message for the user.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bela.archive.record_basics import RECORD_SIZE_LIMIT, RecordError
from bela.engine import (
    LEGACY_RULES,
    Action,
    CardParseError,
    IllegalActionError,
    Match,
    Round,
    RoundRecord,
    Rules,
    Silent,
    cards_in,
)
from bela.engine.actions import parse_action as engine_parse_action
from bela.engine.deal import MAX_SEED
from bela.foundation.files import size_text
from bela.foundation.untrusted import oneline, shown
from bela.i18n import N_, _

__all__ = [
    "KIND_VERSION",
    "NEWEST_VERSION",
    "RECORD_SIZE_LIMIT",
    "RECORD_VALUE_LIMIT",
    "SCHEMA_VERSION",
    "SILENT_VERSION",
    "ActionEntry",
    "Kind",
    "MatchRecord",
    "RecordError",
    "ResultEntry",
    "RoundEntry",
    "RulesEntry",
    "action_text",
    "dumps",
    "loads",
    "match_from_record",
    "parse_action",
    "record_from_match",
    "result_entry",
    "rules_of",
    "seated",
]

SCHEMA_VERSION: Final = 2
"""The record format this bela writes for a match in which nobody kept zvanja back.

Version 2 (rules revision 2) stores every house rule in ``rules`` and a "dosta"
claim in a round's result. A version-1 record has only ``no_forced_trump`` and
``visi``: it was played with bela announced on the second card and the other
rules as they were then (``LEGACY_RULES``), and it replays under exactly those.
"""

SILENT_VERSION: Final = 3
"""The first record format with the action ``šutim``.

Version 3 is version 2 with one more action, ``šutim`` (a player keeping his zvanja
back, ``bela.engine.Silent``). Only a match in which somebody said it is written as
version 3 (or later), so every other record stays what it was, and a bela that does not
know the action says it is too old instead of calling the record damaged.
"""

KIND_VERSION: Final = 4
"""The first record format that says where the match was played (``MatchRecord.kind``).

Version 4 is version 3 with the field ``kind``: ``app`` (against bots in the app) or
``network`` (at a ``bela host`` table). It is written with every record that names
its players (``seated``): before it, a bela guessed a network match from the names,
and filed every app match as one once the player had named the seats in F2. A record
without names stays version 2 or 3 (only the app writes such a record).
"""

NEWEST_VERSION: Final = KIND_VERSION
"""The newest record format this bela reads."""

Kind = Literal["app", "network"]
"""Where a match was played: against bots in the app, or at a network table."""

# RECORD_SIZE_LIMIT (2 MiB) and RecordError live in bela.archive.record_basics, which
# needs no pydantic, so the app can look for a save without loading this module.

RECORD_VALUE_LIMIT: Final = 50_000
"""The most JSON values (counted as commas and opening brackets) a record may hold.

A real round has about 145, so this too holds over 300 rounds. It bounds memory:
pydantic's JSON parser builds an object for every value and, for a value of the
wrong type, an error holding a copy of it, about 1.2 KB a value in all. Counted
before parsing, 50,000 values keep any file under the limits to tens of megabytes
(``benchmarks/bench_hostile_records.py`` measures it).
"""

NUMBER_LIMIT = 10**9
"""No number in a record is larger (points, scores, a target): a larger one, however many
digits, is refused by the schema in one short line, as ``bela.foundation.numbers`` bounds
the numbers of every other file (issue #34)."""
Number = Annotated[int, Field(ge=-NUMBER_LIMIT, le=NUMBER_LIMIT)]
Version = Annotated[int, Field(ge=1, le=NUMBER_LIMIT)]
Pair = tuple[Number, Number]
Seat = Annotated[int, Field(ge=0, le=3)]
Team = Annotated[int, Field(ge=0, le=1)]


class _Model(BaseModel):
    # Strict and closed: a record is written by us, so anything unexpected in it
    # (a string where a number belongs, an unknown field) means it was edited or damaged.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class RulesEntry(_Model):
    """The rules the match is played under (see ``bela.engine.Rules``).

    Version 1 knew only the first two; the others are None in a version-1 record
    (which means the rules of then, ``LEGACY_RULES``) and required from version 2 on
    (``rules_of`` checks both).
    """

    no_forced_trump: bool
    visi: bool
    bela_on_second: bool | None = None
    no_zvanja: bool | None = None
    no_bela: bool | None = None
    bela_always_counts: bool | None = None
    stiglja_bonus: Annotated[int, Field(ge=90, le=100)] | None = None
    dosta: bool | None = None
    tens_over_kings: bool | None = None
    clockwise: bool | None = None
    hide_played_tricks: bool | None = None

    @classmethod
    def of(cls, rules: Rules) -> RulesEntry:
        """Every field of ``rules``, as a version-2 record stores them."""
        return cls(**{name: getattr(rules, name) for name in cls.model_fields})


class ActionEntry(_Model):
    """One action and the seat that took it: ``"dalje"``, ``"call H"``, ``"10H"``, ``"QH bela"``."""

    seat: Seat
    action: Annotated[str, Field(min_length=1, max_length=16)]


class ResultEntry(_Model):
    """What a round came to, kept only to check the replay (pairs are team 0 "mi", team 1 "vi")."""

    written: Pair
    points: Pair
    card_points: Pair
    zvanja: Pair
    bela: Pair
    tricks: Pair
    totals: Pair
    caller: Seat | None
    trump: Annotated[str, Field(pattern="^[HDSC]$")] | None
    fell: bool
    tie: bool
    hanging: Number
    stiglja: Team | None
    belot: Team | None
    redeal: bool
    claim: Team | None = None
    claim_ok: bool = False


CardList = Annotated[str, Field(max_length=40)]
PlayerName = Annotated[str, Field(min_length=1, max_length=24)]


class RoundEntry(_Model):
    """A round: its 0-based index in the match, dealer, deal, actions and, once over, its result.

    ``hands`` and ``talons`` (by seat, cards like ``"7H 10H QS"``) are a check like
    the result: the engine deals them from the seed, and a record whose cards differ
    was written by a bela that shuffles differently, or edited.
    """

    index: Annotated[int, Field(ge=0, le=1_000_000)]
    dealer: Seat
    hands: tuple[CardList, CardList, CardList, CardList]
    talons: tuple[CardList, CardList, CardList, CardList]
    actions: tuple[ActionEntry, ...]
    result: ResultEntry | None


class MatchRecord(_Model):
    """A whole match, finished or in progress (the last round may have no result yet)."""

    schema_version: Version
    rules: RulesEntry
    target: Annotated[int, Field(ge=1, le=NUMBER_LIMIT)]
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]
    difficulty: Annotated[str, Field(pattern="^[a-z][a-z0-9_-]{0,31}$")]
    first_dealer: Seat
    start_index: Annotated[int, Field(ge=0, le=1_000_000)]
    rounds: tuple[RoundEntry, ...]
    scores: Pair
    hanging: Number
    winner: Team | None
    players: tuple[PlayerName, PlayerName, PlayerName, PlayerName] | None = None
    """The names at the table by seat, for a match played on the network (``bela.net``);
    None (and left out of the file) for a match against bots in the app."""
    me: Seat | None = None
    """The seat of the player whose copy this is, for a match played on the network: the
    history and the statistics count from that seat's side ("you", "mi"). None (and left
    out of the file) is seat 0: a match against bots in the app, or a host that only hosted."""
    bot_rounds: tuple[tuple[Annotated[int, Field(ge=0, le=1_000_000)], Seat], ...] | None = None
    """A network match: (round index, seat) for every round in which a bot played a person's
    seat (they had dropped or left); the replay says so. None (and left out of the file):
    no bot ever stood in for a person."""
    kind: Kind | None = None
    """Where the match was played, as the bela that played it wrote (``seated``): ``app``
    or ``network``. None (and left out of the file): a record from before version 4,
    read by ``is_network``."""

    @property
    def is_finished(self) -> bool:
        return self.winner is not None

    @property
    def is_network(self) -> bool:
        """Whether the match was played at a network table (else against bots in the app).

        A record says so in ``kind`` from version 4 on. An older one is read by what only
        a network copy holds: the seat of the player whose copy it is (``me``: a client's
        copy, or a host who sat at the table) or the rounds a bot played for a person.
        Names alone prove nothing: the app keeps the names given in F2 too. (An older copy
        of a host who only hosted has neither, and is read as an app match.)
        """
        if self.kind is not None:
            return self.kind == "network"
        return self.players is not None and (self.me is not None or self.bot_rounds is not None)


class _Header(BaseModel):
    """Just the version, read before anything else so a newer file gets the right message."""

    model_config = ConfigDict(extra="ignore", strict=True)
    schema_version: Version


# ---------------------------------------------------------------------- actions as text


def action_text(action: Action) -> str:
    """The record's spelling of an action (the engine's ``str``)."""
    return str(action)


SILENT: Final = Silent()


def parse_action(text: str) -> Action:
    """Read an action back from its record text; ``RecordError`` if it names none."""
    try:
        return engine_parse_action(text)
    except CardParseError:
        raise RecordError(
            N_("{text} is not an action: expected dalje, call H, 10H, QH bela, dosta or šutim"),
            text=shown(text),
        ) from None


# ---------------------------------------------------------------------- match -> record


def result_entry(played: RoundRecord) -> ResultEntry:
    """The checkable summary of a finished round."""
    r = played.result
    return ResultEntry(
        written=played.written,
        points=r.points,
        card_points=r.card_points,
        zvanja=r.zvanja,
        bela=r.bela,
        tricks=r.tricks,
        totals=r.totals,
        caller=r.caller,
        trump=None if r.trump is None else str(r.trump),
        fell=r.fell,
        tie=r.tie,
        hanging=r.hanging,
        stiglja=r.stiglja,
        belot=r.belot,
        redeal=r.redeal,
        claim=r.claim,
        claim_ok=r.claim_ok,
    )


def _cards_of(masks: Iterable[int]) -> tuple[str, str, str, str]:
    a, b, c, d = (" ".join(str(card) for card in cards_in(mask)) for mask in masks)
    return a, b, c, d


def _round_entry(
    deal: Round, index: int, actions: Iterable[Action], result: ResultEntry | None
) -> RoundEntry:
    return RoundEntry(
        index=index,
        dealer=deal.dealer,
        hands=_cards_of(deal.deal_hands),
        talons=_cards_of(deal.deal_talons),
        actions=_seated(deal, actions),
        result=result,
    )


def _current_entry(deal: Round, index: int, current: Round) -> RoundEntry:
    """The entry of the round in progress, its seats read off the round instead of replayed.

    A round in progress has its bids (with their seats) and then its cards (in tricks
    with their leaders), and no claim ("dosta" ends a round); a "šutim" in it (not
    among the bids or the cards) sends it the long way, through ``_seated``: this is what
    ``_seated`` would find, at a fraction of the cost (the network host saves after
    every action; ``tests/net/test_net_views.py`` checks both agree).
    """
    seats = [seat for seat, _ in current.bids]
    for trick in current.tricks:
        seats.extend(trick.seat_of(i) for i in range(len(trick.cards)))
    if current.trick:
        seats.extend((current.trick_leader + i) % 4 for i in range(len(current.trick)))
    actions = current.actions
    if len(seats) != len(actions):  # "šutim" was said
        return _round_entry(deal, index, actions, None)
    return RoundEntry(
        index=index,
        dealer=deal.dealer,
        hands=_cards_of(deal.deal_hands),
        talons=_cards_of(deal.deal_talons),
        actions=tuple(
            ActionEntry(seat=seat, action=action_text(action))
            for seat, action in zip(seats, actions, strict=True)
        ),
        result=None,
    )


def seated(
    record: MatchRecord,
    kind: Kind,
    players: tuple[str, str, str, str],
    **more: object,
) -> MatchRecord:
    """``record`` with where it was played and the names at the table (``more``: ``me``,
    ``bot_rounds``), written as version 4 (``KIND_VERSION``), which says both.

    The app names its seats when the player has named them in F2, the network host
    always: the kind, not the names, says which it was.
    """
    version = max(record.schema_version, KIND_VERSION)
    update = {"kind": kind, "players": players, "schema_version": version, **more}
    return record.model_copy(update=update)


def _seated(deal: Round, actions: Iterable[Action]) -> tuple[ActionEntry, ...]:
    """Each action with the seat that took it, found by replaying the deal."""
    rnd = deal.copy()
    out: list[ActionEntry] = []
    for action in actions:
        seat = rnd.to_act
        assert seat is not None, "an action after the end of a round"
        out.append(ActionEntry(seat=seat, action=action_text(action)))
        rnd.push(action)
    return tuple(out)


def record_from_match(
    match: Match, difficulty: str, known: tuple[RoundEntry, ...] = ()
) -> MatchRecord:
    """The record of ``match`` as it stands, the round in progress and its actions included.

    ``known``: entries of this match's first finished rounds from an earlier record of it
    (``record.rounds``), used as they are instead of being worked out again: the network
    host saves after every action, and a finished round never changes.
    """
    reuse: list[RoundEntry] = []
    for entry, played in zip(known, match.rounds, strict=False):
        if entry.result is None or entry.index != played.index:
            break  # only a run from the first round can stand for the rounds it covers
        reuse.append(entry)
    rounds = reuse + [
        _round_entry(match.deal(played.index), played.index, played.actions, result_entry(played))
        for played in match.rounds[len(reuse) :]
    ]
    if match.current is not None:
        index = match.next_index
        rounds.append(_current_entry(match.deal(index), index, match.current))
    silent = str(SILENT)
    kept_back = any(item.action == silent for entry in rounds for item in entry.actions)
    return MatchRecord(
        schema_version=SILENT_VERSION if kept_back else SCHEMA_VERSION,
        rules=RulesEntry.of(match.rules),
        target=match.target,
        seed=match.seed,
        difficulty=difficulty,
        first_dealer=match.first_dealer,
        start_index=match.start_index,
        rounds=tuple(rounds),
        scores=match.scores,
        hanging=match.hanging,
        winner=match.winner,
    )


# ---------------------------------------------------------------------- record -> match


def _first_difference(stored: _Model, replayed: _Model) -> str:
    for name in type(stored).model_fields:
        a, b = getattr(stored, name), getattr(replayed, name)
        if a != b:
            return f"{name} = {_show(a)} in the record but {_show(b)} on replay"
    return "they differ"  # pragma: no cover - only called when the models differ


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return "none" if value is None else str(value)


_VERSION_1_RULES: Final = ("no_forced_trump", "visi")


def rules_of(record: MatchRecord) -> Rules:
    """The rules a record's match was played under, as its version means them.

    Version 1: the two variants it stores, on the rules of then (bela with the second
    card). Version 2 on: every field, none missing.
    """
    entry = record.rules
    newer = [name for name in RulesEntry.model_fields if name not in _VERSION_1_RULES]
    if record.schema_version == 1:
        given = [name for name in newer if getattr(entry, name) is not None]
        if given:
            raise RecordError(
                N_(
                    "the match record is damaged or was edited: rules.{name} is not part "
                    "of a version 1 record"
                ),
                name=given[0],
            )
        return Rules(
            no_forced_trump=entry.no_forced_trump,
            visi=entry.visi,
            bela_on_second=LEGACY_RULES.bela_on_second,
        )
    missing = [name for name in newer if getattr(entry, name) is None]
    if missing:
        raise RecordError(
            N_("the match record is damaged or was edited: rules.{name} is missing"),
            name=missing[0],
        )
    try:
        return Rules(**{name: getattr(entry, name) for name in RulesEntry.model_fields})
    except ValueError as exc:
        raise RecordError(N_("the record's rules are not valid: {why}"), why=str(exc)) from None


def match_from_record(record: MatchRecord) -> Match:
    """Replay a record through the engine and check every stored result against the replay."""
    rules = rules_of(record)
    if record.kind is not None and record.schema_version < KIND_VERSION:
        raise RecordError(
            N_(
                "the match record is damaged or was edited: the field kind is not part of a "
                "version {version} record"
            ),
            version=record.schema_version,
        )
    if record.kind == "network" and record.players is None:
        raise RecordError(
            N_(
                "the match record is damaged or was edited: a network match's record names "
                "the players"
            )
        )
    try:
        match = Match.new(
            record.seed,
            record.target,
            rules,
            record.first_dealer,
            record.start_index,
        )
    except ValueError as exc:
        raise RecordError(
            N_("the record's match settings are not valid: {why}"), why=str(exc)
        ) from None
    for position, entry in enumerate(record.rounds):
        number = entry.index + 1
        if match.current is None:
            raise RecordError(N_("round {number} comes after the end of the match"), number=number)
        if entry.index != match.next_index:
            raise RecordError(
                N_("round {number} is out of order: round {next} comes next"),
                number=number,
                next=match.next_index + 1,
            )
        if entry.dealer != match.current.dealer:
            raise RecordError(  # seats read 1-4 wherever a player reads them
                N_("round {number} is dealt by seat {dealer}, not seat {said} as the record says"),
                number=number,
                dealer=match.current.dealer + 1,
                said=entry.dealer + 1,
            )
        deal = match.current
        if (entry.hands, entry.talons) != (_cards_of(deal.deal_hands), _cards_of(deal.deal_talons)):
            raise RecordError(
                N_(
                    "round {number}'s cards are not the deal of seed {seed}: the record "
                    "was written by a bela that shuffles differently, or edited"
                ),
                number=number,
                seed=str(record.seed),
            )
        for step, item in enumerate(entry.actions, start=1):
            if match.next_index != entry.index:
                raise RecordError(
                    N_("round {number} has actions after its end (action {step})"),
                    number=number,
                    step=step,
                )
            action = parse_action(item.action)
            if action == SILENT and record.schema_version < SILENT_VERSION:
                raise RecordError(
                    N_(
                        "round {number}, action {step}: {action} is not part of a version "
                        "{version} record"
                    ),
                    number=number,
                    step=step,
                    action=repr(str(SILENT)),
                    version=record.schema_version,
                )
            try:
                match = match.apply(action, item.seat)
            except IllegalActionError as exc:
                raise RecordError(
                    N_(
                        "round {number}, action {step} ({action} by seat {seat}) is not allowed: "
                        "{why}"
                    ),
                    number=number,
                    step=step,
                    action=shown(item.action),
                    seat=item.seat + 1,
                    why=oneline(exc, 200),
                ) from None
        finished = match.next_index != entry.index
        if entry.result is None:
            if finished:
                raise RecordError(
                    N_("round {number} is over but the record has no result for it"),
                    number=number,
                )
            if position != len(record.rounds) - 1:
                raise RecordError(
                    N_("round {number} is unfinished but more rounds follow it"), number=number
                )
        else:
            if not finished:
                raise RecordError(
                    N_("round {number} has a result but its actions do not finish it"),
                    number=number,
                )
            replayed = result_entry(match.rounds[-1])
            if replayed != entry.result:
                raise RecordError(
                    N_("round {number}'s result does not match its replay: {why}"),
                    number=number,
                    why=_first_difference(entry.result, replayed),
                )
    for name, stored, actual in (
        ("scores", record.scores, match.scores),
        ("hanging", record.hanging, match.hanging),
        ("winner", record.winner, match.winner),
    ):
        if stored != actual:
            raise RecordError(
                N_(
                    "the match does not match its replay: {name} = {stored} in the record "
                    "but {actual} on replay"
                ),
                name=name,
                stored=_show(stored),
                actual=_show(actual),
            )
    return match


# ---------------------------------------------------------------------- JSON


def dumps(record: MatchRecord) -> str:
    """The record as indented JSON text (ends with a newline)."""
    # a single-player record has no names: its file stays as it always was
    left_out = {
        name for name in ("players", "me", "bot_rounds", "kind") if getattr(record, name) is None
    }
    return record.model_dump_json(indent=2, exclude=left_out or None) + "\n"


def _one_line(exc: ValidationError) -> str:
    """The first problem pydantic found, as one short line.

    The location is made of the file's own keys, so each part is quoted and
    escaped (a key can hold markup, escape sequences, newlines or ten million
    characters); the message is pydantic's, cut short all the same.
    """
    error = exc.errors(include_url=False, include_input=False, include_context=False)[0]
    if error["type"] == "json_invalid":
        return _("it is not complete JSON (truncated or damaged?)")
    where = (
        ".".join(str(part) if isinstance(part, int) else _key(part) for part in error["loc"])
        or "the top level"
    )
    more = exc.error_count() - 1
    extra = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{where}: {oneline(error['msg'].lower(), 120)}{extra}"


def _key(part: object) -> str:
    """A key of the record as a message shows it: bare when it is a plain name, else quoted."""
    text = str(part)
    plain = text.isascii() and text.replace("_", "a").isalnum() and len(text) <= 40
    return text if plain else shown(text, 60)


def loads(data: str | bytes) -> MatchRecord:
    """Parse and validate record JSON (not yet replayed: see ``match_from_record``)."""
    if len(data) > RECORD_SIZE_LIMIT:
        raise RecordError(
            N_("not a bela match record: it is too large (the limit is {limit})"),
            limit=size_text(RECORD_SIZE_LIMIT),
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(N_("not a bela match record: the file is not UTF-8 text")) from None
    if not data.strip():
        raise RecordError(N_("not a bela match record: the file is empty"))
    values = data.count(",") + data.count("[") + data.count("{")
    if values > RECORD_VALUE_LIMIT:
        raise RecordError(
            N_("not a bela match record: it holds far more values than any match (over {limit})"),
            limit=f"{RECORD_VALUE_LIMIT:,}",
        )
    try:
        version = _Header.model_validate_json(data).schema_version
    except ValidationError as exc:
        raise RecordError(N_("not a bela match record: {why}"), why=_one_line(exc)) from None
    if version > NEWEST_VERSION:
        raise RecordError(
            N_(
                "this record was written by a newer bela (record version {version}, this bela "
                "reads up to {newest}): upgrade bela to open it"
            ),
            version=version,
            newest=NEWEST_VERSION,
        )
    if version < 1:
        raise RecordError(
            N_("not a bela match record: unknown record version {version}"), version=version
        )
    try:
        return MatchRecord.model_validate_json(data)
    except ValidationError as exc:
        raise RecordError(
            N_("the match record is damaged or was edited: {why}"), why=_one_line(exc)
        ) from None
