"""The table protocol: newline-delimited JSON frames, each one message, versioned and validated.

Both directions are closed sets of pydantic models told apart by ``type``. A
frame that is too long, is not JSON, has an unknown ``type`` or a field that
does not fit is *malformed*: the receiver closes that one connection with a
reason (``Closing``) and nobody else notices. A well-formed message that the
rules or the table's state do not allow now (a card out of turn, ``start`` from
a guest) is *refused*: the sender alone gets ``Refused`` with the reason, and
nothing changes.

What the server sends is built from ``Round.view(seat)`` only (``bela.net.views``);
the client validates it like any other untrusted input.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bela.foundation.untrusted import oneline

__all__ = [
    "CLIENT_FRAME_LIMIT",
    "PROTOCOL_VERSION",
    "QUICK_PHRASES",
    "SERVER_FRAME_LIMIT",
    "Act",
    "Again",
    "Chat",
    "ClientMessage",
    "Closing",
    "Control",
    "Hello",
    "Leave",
    "Lobby",
    "Notice",
    "Over",
    "ProtocolError",
    "Quit",
    "Refused",
    "Said",
    "ServerMessage",
    "Show",
    "Sit",
    "Start",
    "State",
    "WatcherList",
    "Watching",
    "Welcome",
    "decode_client",
    "decode_server",
    "encode",
]

PROTOCOL_VERSION: Final = 6
"""Bumped on any change a peer of the previous version would misread.

2: the host's sentences as codes and values (``bela.net.phrases``); the lobby
tells each player's seat.
3: ``ViewInfo`` carries the house rules and the scores before the round
(``rules``, ``match_context``, ``claim_context``) and ``State`` the result of a
round that just ended (``ended``). An older client forbids fields it does not
know, so it would drop the line at the first ``State``; the version check in
``Hello`` turns that into one clear line instead.
4: what every card table has: ``Said.n`` (a returning player is sent the recent
talk again), a phrase's ``seat`` is shown 1-4; see docs/network.md for the rest.
5: ``ViewInfo.silent`` and ``ViewInfo.may_stay_silent``: a seat may say "šutim", and every
seat learns who did; bids and legal actions must be spelled as the engine writes them."""

CLIENT_FRAME_LIMIT: Final = 2048
"""Bytes in one client frame, newline included: the longest real one (a chat line) is ~700."""

SERVER_FRAME_LIMIT: Final = 256 * 1024
"""Bytes in one server frame: a state is ~4 KB; ``Over`` carries the match record."""

CHAT_LIMIT: Final = 160
NAME_LIMIT: Final = 24

QUICK_PHRASES: Final = ("dobro", "bela!", "hvala", "bravo", "ajme", "idemo")
"""Table talk said with one key (F5..F10 in the app)."""


class ProtocolError(ValueError):
    """A frame that is not a valid message; the reason is one line for the peer."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


Seat = Annotated[int, Field(ge=0, le=3)]
Name = Annotated[str, Field(min_length=1, max_length=NAME_LIMIT)]
Short = Annotated[str, Field(max_length=64)]
Args = Annotated[dict[Short, Annotated[str, Field(max_length=300)] | int], Field(max_length=12)]
"""The values of a host's phrase (``bela.net.phrases``): names, seats, points, cards."""


# ---------------------------------------------------------------------- client -> server


class Hello(_Message):
    """The first frame of every connection: the join code, a name, and a token to sit again."""

    type: Literal["hello"]
    v: int
    code: Short
    name: Name
    token: Short | None = None
    """The reconnect token of a seat this player held (``Welcome.token``)."""
    lead: Short | None = None
    """The table's leader key, which only the host's own app knows: it may start the match."""
    watch: bool = False
    """Follow the table without a seat, as the public sees it (``bela.net.watchers``)."""


class Sit(_Message):
    """Move to an empty seat before the match starts (partners sit opposite: 0-2, 1-3)."""

    type: Literal["sit"]
    seat: Seat


class Start(_Message):
    """The leader starts the match; bots take the empty seats."""

    type: Literal["start"]


class Act(_Message):
    """An action, spelled as in a match record: ``dalje``, ``call H``, ``10H``, ``QH bela``,
    ``dosta``, ``šutim``."""

    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=16)]


class Chat(_Message):
    """A line of table talk (a quick phrase is just a short line)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_LIMIT)]


class Leave(_Message):
    """Leaving for good: a bot takes the seat at once."""

    type: Literal["leave"]


class Show(_Message):
    """A seated player lets ``watcher`` (a name from ``Watchers``) see their hand (``on``),
    or takes it back. The player names the watcher: never "whoever came last", which a
    stranger could arrange to be."""

    type: Literal["show"]
    on: bool
    watcher: Name | None = None


class Control(_Message):
    """The host's controls (the leader only, ``bela.net.host_controls``): ``move`` the
    players of ``seat`` and ``to`` before the start, hand ``seat`` to a ``bot`` now (a
    player who dropped), ``pause`` or ``resume`` the table."""

    type: Literal["control"]
    do: Literal["move", "bot", "pause", "resume"]
    seat: Seat | None = None
    to: Seat | None = None


class Again(_Message):
    """Još jednu: once the match is over, ask for another at the same table; it starts
    when everybody connected has asked (``bela.net.rematch``)."""

    type: Literal["again"]


class Quit(_Message):
    """The player closes the app on purpose: the table is told they left (not that their
    line was lost); the seat waits for its token as after a drop."""

    type: Literal["quit"]


ClientMessage = Annotated[
    Hello | Sit | Start | Act | Chat | Leave | Again | Show | Control | Quit,
    Field(discriminator="type"),
]


# ---------------------------------------------------------------------- server -> client


class Welcome(_Message):
    type: Literal["welcome"]
    v: int
    table: Short
    seat: Seat
    token: Short
    """Keep it: ``Hello.token`` with it gets this seat (and its hand) back after a drop."""
    leader: bool


class Watching(_Message):
    """You follow the table as a watcher (``Hello.watch``): no seat, no token."""

    type: Literal["watching"]
    v: int
    table: Short


class WatcherList(_Message):
    """Who watches the table, by name (each unique at the table and unlike every seated
    name), sent to everyone whenever it changes and to each newcomer."""

    type: Literal["watchers"]
    names: Annotated[tuple[Name, ...], Field(max_length=16)]


class SeatInfo(_Message):
    name: Name | None
    kind: Literal["open", "human", "away", "bot"]
    """open: nobody yet; human: connected; away: dropped, seat kept; bot: a bot plays it."""


class Lobby(_Message):
    """The table before the match starts: who sits where."""

    type: Literal["lobby"]
    seats: tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]
    bots: Short
    target: int
    leader: Seat | None
    seat: Seat | None = None
    """Where the player it is sent to sits now (it changes when they move in the lobby)."""
    clock: Annotated[float, Field(gt=0)] | None = None
    """Seconds a player has for a turn before a bot plays it for them; None: no clock."""


class ZvanjeInfo(_Message):
    text: Annotated[str, Field(max_length=64)]
    points: int
    cards: tuple[Annotated[str, Field(max_length=3)], ...]


CardText = Annotated[str, Field(min_length=2, max_length=3)]
BidText = Annotated[str, Field(pattern=r"^(dalje|call [HDSC])$")]
"""A bid as the engine writes it: a host that sends another ("call Z") is not bela."""
ActionText = Annotated[
    str, Field(pattern=r"^(dalje|call [HDSC]|(7|8|9|10|J|Q|K|A)[HDSC]( bela)?|dosta|šutim)$")
]
"""A legal action as the engine writes it (``bela.archive.records.parse_action`` reads it)."""


class TrickInfo(_Message):
    leader: Seat
    cards: tuple[CardText, ...]
    winner: Seat
    points: int


Context = tuple[int, int, int]
"""(team 0's score, team 1's score, target) before the round: public, on the score sheet."""


class RulesInfo(_Message):
    """The house rules the table plays with, named as ``Rules``' fields (standard if absent).

    Only the fields that differ from the standard game are sent (``Rules.changed``).
    """

    no_forced_trump: bool = False
    visi: bool = False
    bela_on_second: bool = False
    no_zvanja: bool = False
    no_bela: bool = False
    bela_always_counts: bool = False
    stiglja_bonus: Literal[90, 100] = 90
    dosta: bool = False
    tens_over_kings: bool = False
    clockwise: bool = False
    hide_played_tricks: bool = False


class ViewInfo(_Message):
    """``Round.view(seat)`` as JSON: cards as ``"10H"``, actions as record text."""

    dealer: Seat
    phase: Literal["bidding", "playing", "finished"]
    hand: tuple[CardText, ...]
    talon: tuple[CardText, ...]
    bids: tuple[tuple[Seat, BidText], ...]
    trump: Annotated[str, Field(pattern="^[HDSC]$")] | None
    caller: Seat | None
    own_zvanja: tuple[ZvanjeInfo, ...]
    shown_zvanja: tuple[tuple[Seat, tuple[ZvanjeInfo, ...]], ...]
    zvanja_team: Annotated[int, Field(ge=0, le=1)] | None
    tricks: tuple[TrickInfo, ...]
    trick_leader: Seat | None
    trick: tuple[CardText, ...]
    bela_announced: tuple[Seat, ...]
    hand_sizes: tuple[int, int, int, int]
    to_act: Seat | None
    legal: tuple[ActionText, ...]
    can_claim: bool
    clockwise: bool
    rules: RulesInfo = RulesInfo()
    match_context: Context | None = None
    claim_context: Context | None = None
    silent: tuple[Seat, ...] = ()
    """The seats that kept their zvanja back this round ("šutim"): public, as said aloud."""
    may_stay_silent: bool = False
    """This seat, to act, may still say "šutim" (``Round.can_stay_silent``): send the
    action ``šutim`` to keep its zvanja back."""


class RoundInfo(_Message):
    """A finished round as the score sheet writes it."""

    index: int
    written: tuple[int, int]
    note: Annotated[str, Field(max_length=200)]
    marks: Annotated[tuple[Annotated[str, Field(max_length=24)], ...], Field(max_length=8)] = ()
    """The sheet's marks as codes (``bela.wording.sheet_mark_codes``): each app words them
    for its own team ("pad mi"); ``note`` is the host's English."""


Pair = tuple[int, int]
Team = Annotated[int, Field(ge=0, le=1)]


class RoundEndInfo(_Message):
    """A round that has just ended, as its summary shows it: ``RoundResult`` and what each
    team writes. Numbers only, no cards (a round stopped by dosta or redealt leaves cards
    unplayed, and those stay hidden)."""

    index: int
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
    hanging: int
    stiglja: Team | None
    belot: Team | None
    belot_seat: Seat | None
    redeal: bool
    claim: Team | None
    claim_ok: bool


class State(_Message):
    """The table as one seat may see it, after every action (``seq`` counts them)."""

    type: Literal["state"]
    seq: int
    seat: Seat
    seats: tuple[SeatInfo, SeatInfo, SeatInfo, SeatInfo]
    target: int
    scores: tuple[int, int]
    hanging: int
    round: int
    view: ViewInfo
    sheet: tuple[RoundInfo, ...]
    winner: Annotated[int, Field(ge=0, le=1)] | None
    last: Annotated[str, Field(max_length=300)] | None = None
    """What the action just taken did, in words (a trick taken, a round's result)."""
    last_code: Short | None = None
    """``last`` as a phrase's code, with ``last_args``, worded by the app."""
    last_args: Args | None = None
    ended: RoundEndInfo | None = None
    """The result of the round on show, once it has ended (its last trick is still shown)."""
    series: Pair | None = None
    """Matches won by team 0 and team 1 at this table this evening, once one has ended."""


class Refused(_Message):
    type: Literal["refused"]
    reason: Annotated[str, Field(max_length=300)]
    code: Short | None = None
    """The reason as a phrase (``bela.net.phrases``), worded in each app's language."""
    args: Args | None = None


class Said(_Message):
    type: Literal["said"]
    seat: Seat
    name: Name
    text: Annotated[str, Field(max_length=CHAT_LIMIT)]
    n: int | None = None
    """The line's number at its table: a player who comes back is sent the newest lines
    again, and the app shows only those it has not shown."""


class Notice(_Message):
    type: Literal["notice"]
    text: Annotated[str, Field(max_length=300)]
    code: Short | None = None
    args: Args | None = None


class Over(_Message):
    """The match is over; ``record`` is its record (it replays the seed: sent only now)."""

    type: Literal["over"]
    winner: Annotated[int, Field(ge=0, le=1)]
    scores: tuple[int, int]
    record: dict[str, Any]
    archived: Annotated[str, Field(max_length=300)] | None
    series: Pair | None = None
    """Matches won by each team at this table, this one counted (``State.series``)."""


class Closing(_Message):
    """The last frame before the server closes this connection, with the reason."""

    type: Literal["closing"]
    reason: Annotated[str, Field(max_length=300)]
    code: Short | None = None
    args: Args | None = None


ServerMessage = Annotated[
    Welcome | Watching | WatcherList | Lobby | State | Refused | Said | Notice | Over | Closing,
    Field(discriminator="type"),
]

_CLIENT: TypeAdapter[Hello | Sit | Start | Act | Chat | Leave | Again | Show | Control | Quit] = (
    TypeAdapter(ClientMessage)
)
_SERVER: TypeAdapter[
    Welcome | Watching | WatcherList | Lobby | State | Refused | Said | Notice | Over | Closing
] = TypeAdapter(ServerMessage)


def encode(message: BaseModel | dict[str, Any]) -> bytes:
    """One frame: compact JSON and a newline (JSON never holds a raw newline)."""
    if isinstance(message, BaseModel):
        return message.model_dump_json().encode() + b"\n"
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def _why(exc: ValidationError) -> str:
    error = exc.errors(include_url=False, include_input=False, include_context=False)[0]
    if error["type"] == "json_invalid":
        return "the frame is not JSON"
    if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return "unknown message type"
    # the location is made of the peer's own keys: escaped and cut, never raw text
    where = ".".join(oneline(part, 20) for part in error["loc"]) or "the message"
    said = str(error["msg"]).removeprefix("Value error, ")  # a validator's own reason
    return oneline(f"{where}: {said.lower()}", 160)


def decode_client(
    frame: bytes,
) -> Hello | Sit | Start | Act | Chat | Leave | Again | Show | Control | Quit:
    """A client frame as a message, or ``ProtocolError`` saying why it is none."""
    if len(frame) > CLIENT_FRAME_LIMIT:
        raise ProtocolError(f"frame too large (the limit is {CLIENT_FRAME_LIMIT} bytes)")
    try:
        return _CLIENT.validate_json(frame)
    except ValidationError as exc:
        raise ProtocolError(_why(exc)) from None


def decode_server(
    frame: bytes,
) -> Welcome | Watching | WatcherList | Lobby | State | Refused | Said | Notice | Over | Closing:
    """A server frame as a message, or ``ProtocolError`` saying why it is none."""
    if len(frame) > SERVER_FRAME_LIMIT:
        raise ProtocolError(f"frame too large (the limit is {SERVER_FRAME_LIMIT} bytes)")
    try:
        return _SERVER.validate_json(frame)
    except ValidationError as exc:
        raise ProtocolError(_why(exc)) from None
