"""The public server's lobby messages (``bela server``, ``bela online``), versioned.

A connection to the public server is TLS. Its first frame is ``Login`` (a key and the
name wanted for a new account, or ``guest``); a key's login is answered with a
``Challenge`` the client signs (``Proof``, ``bela.net.identity.login_message``), then
``Hi`` names the account. After that a frame is either a lobby request (below) or,
once seated, one of the table's own messages (``bela.net.protocol``: act, chat,
sit, start, ...), as at a friends' table: the table code is the friends' table's.

Nothing the lobby sends holds a hand or a private table's code: ``TableInfo`` has
names, ratings, seats' kinds, the house rules and the score; a private table's code
is sent only to its creator (``Created``) and is never listed.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bela.net.protocol import (
    CLIENT_FRAME_LIMIT,
    SERVER_FRAME_LIMIT,
    Act,
    Again,
    Chat,
    Control,
    Leave,
    ProtocolError,
    Quit,
    RulesInfo,
    Show,
    Sit,
    Start,
    _why,
)
from bela.net.redirects import HOST_LIMIT, valid_host

__all__ = [
    "LOBBY_TYPES",
    "LOBBY_VERSION",
    "Answer",
    "Block",
    "Blocked",
    "Challenge",
    "Create",
    "Created",
    "Declined",
    "Hi",
    "Invite",
    "InviteInfo",
    "InviteList",
    "InvitesAsk",
    "Join",
    "Leaderboard",
    "Leaders",
    "LeagueAsk",
    "LeagueRow",
    "LeagueTable",
    "LobbyReply",
    "Login",
    "Mute",
    "Muted",
    "PlayerAsk",
    "PlayerPage",
    "Proof",
    "Queued",
    "Quick",
    "Redirect",
    "Rename",
    "Report",
    "Reported",
    "SeatEntry",
    "TableInfo",
    "TableList",
    "Tables",
    "Watch",
    "decode_lobby_server",
    "decode_online",
]

LOBBY_VERSION: Final = 1
"""Bumped on any change a peer of the previous version would misread."""

Short = Annotated[str, Field(max_length=64)]
Name = Annotated[str, Field(min_length=1, max_length=24)]
B64 = Annotated[str, Field(max_length=100)]
Target = Literal[163, 501, 701, 1001]
Wait = Annotated[int, Field(ge=0, le=600)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ---------------------------------------------------------------------- client -> server


class Login(_Message):
    """The first frame: ``key`` (Ed25519, 32 bytes of base64) and the name for a new
    account (ignored when the key has one), or ``guest`` with a name to play unrated."""

    type: Literal["login"]
    v: int
    name: Name
    key: B64 | None = None
    guest: bool = False


class Proof(_Message):
    """The signature of ``login_message`` (64 bytes of base64)."""

    type: Literal["proof"]
    sig: B64


class Tables(_Message):
    """List the public tables."""

    type: Literal["tables"]


class Create(_Message):
    """A new table, the creator seated at it (and its leader: they start the match)."""

    type: Literal["create"]
    target: Target = 1001
    private: bool = False
    rated: bool = True
    rules: RulesInfo = RulesInfo()
    invite: Annotated[tuple[Name, ...], Field(max_length=3)] = ()
    """Accounts invited by name to the new table (``Invite`` for each)."""


class Join(_Message):
    """Sit at a public table by its id, or at a private one by its code."""

    type: Literal["join"]
    table: Short | None = None
    code: Short | None = None


class Quick(_Message):
    """Quick match: seated with players near your rating; after ``wait`` seconds bots
    fill the empty seats (and a table with a bot is unrated)."""

    type: Literal["quick"]
    target: Target = 1001
    wait: Wait = 60


class Watch(_Message):
    type: Literal["watch"]
    table: Short


class Rename(_Message):
    type: Literal["rename"]
    name: Name


class Leaders(_Message):
    type: Literal["leaders"]


class Block(_Message):
    """Never be seated with ``name`` again (``on``), or no longer; their tables are not
    listed for you, nor yours for them."""

    type: Literal["block"]
    name: Name
    on: bool = True


class Report(_Message):
    """A report about ``name`` for the server's operator."""

    type: Literal["report"]
    name: Name
    text: Annotated[str, Field(min_length=1, max_length=300)]


class PlayerAsk(_Message):
    """A player's page: rating over time, the newest matches, reliability."""

    type: Literal["player"]
    name: Name


class Invite(_Message):
    """Invite the account ``name`` to the table you sit at (``bela.net.invitations``).

    Answered as a table's message (a notice, or a refusal), since it is sent from a seat:
    the seat's client reads the table's messages only."""

    type: Literal["invite"]
    name: Name


class InvitesAsk(_Message):
    """Your pending invitations."""

    type: Literal["invites"]


class Answer(_Message):
    """Accept (sit at its table) or decline the newest invitation from ``name`` (or the
    newest of all, ``name`` absent)."""

    type: Literal["answer"]
    name: Name | None = None
    accept: bool


class Mute(_Message):
    """No longer see ``name``'s table talk (``on``), or see it again; kept with the account."""

    type: Literal["mute"]
    name: Name
    on: bool = True


class LeagueAsk(_Message):
    """Your division of the weekly league, this week."""

    type: Literal["league"]


OnlineRequest = (
    Tables
    | Invite
    | InvitesAsk
    | Answer
    | Mute
    | LeagueAsk
    | Create
    | Join
    | Quick
    | Watch
    | Rename
    | Leaders
    | PlayerAsk
    | Block
    | Report
    | Sit
    | Start
    | Act
    | Chat
    | Leave
    | Again
    | Show
    | Control
    | Quit
)
"""Every frame a client may send after the login: a lobby request or a table message."""

OnlineMessage = Annotated[OnlineRequest, Field(discriminator="type")]
_ONLINE: TypeAdapter[OnlineRequest] = TypeAdapter(OnlineMessage)
_FIRST: TypeAdapter[Login] = TypeAdapter(Login)
_PROOF: TypeAdapter[Proof] = TypeAdapter(Proof)


_T = TypeVar("_T")


def _decode(adapter: TypeAdapter[_T], frame: bytes) -> _T:
    if len(frame) > CLIENT_FRAME_LIMIT:
        raise ProtocolError(f"frame too large (the limit is {CLIENT_FRAME_LIMIT} bytes)")
    try:
        return adapter.validate_json(frame)
    except ValidationError as exc:
        raise ProtocolError(_why(exc)) from None


def decode_login(frame: bytes) -> Login:
    return _decode(_FIRST, frame)


def decode_proof(frame: bytes) -> Proof:
    return _decode(_PROOF, frame)


def decode_online(frame: bytes) -> OnlineRequest:
    """A frame after the login: a lobby request or a table message."""
    return _decode(_ONLINE, frame)


# ---------------------------------------------------------------------- server -> client


class Challenge(_Message):
    type: Literal["challenge"]
    nonce: B64


class Hi(_Message):
    """Signed in: the account (or the guest) and its standing."""

    type: Literal["hi"]
    v: int
    name: Name
    guest: bool
    key: Annotated[str, Field(max_length=100)] | None = None
    rating: int | None = None
    rd: int | None = None
    provisional: bool = True
    reliability: Annotated[float, Field(ge=0, le=1)] | None = None
    seated: bool = False
    """The account holds a seat in a match (it dropped): ``Welcome`` follows at once."""


class SeatEntry(_Message):
    name: Name | None
    kind: Literal["open", "human", "away", "bot"]
    rating: int | None = None
    provisional: bool = False
    reliability: Annotated[float, Field(ge=0, le=1)] | None = None


class TableInfo(_Message):
    id: Short
    target: int
    rules: RulesInfo
    rated: bool
    started: bool
    seats: tuple[SeatEntry, SeatEntry, SeatEntry, SeatEntry]
    watchers: Annotated[tuple[Name, ...], Field(max_length=16)]
    scores: tuple[int, int] | None = None


class TableList(_Message):
    type: Literal["tables"]
    tables: Annotated[tuple[TableInfo, ...], Field(max_length=200)]


class Created(_Message):
    """Your new table; ``code`` only for a private one (give it to your friends)."""

    type: Literal["created"]
    table: Short
    code: Short | None = None


class Queued(_Message):
    type: Literal["queued"]
    target: int
    wait: int


class LeaderEntry(_Message):
    name: Name
    rating: int
    rd: int
    rated: int
    provisional: bool
    reliability: Annotated[float, Field(ge=0, le=1)] | None


class Leaderboard(_Message):
    type: Literal["leaders"]
    leaders: Annotated[tuple[LeaderEntry, ...], Field(max_length=100)]


class MatchEntry(_Message):
    ended: float
    rated: bool
    won: bool | None
    scores: tuple[int, int]
    """The player's pair's score first."""
    left: bool


class PlayerPage(_Message):
    type: Literal["player"]
    name: Name
    rating: int
    rd: int
    rated: int
    provisional: bool
    reliability: Annotated[float, Field(ge=0, le=1)] | None
    history: Annotated[tuple[tuple[float, int], ...], Field(max_length=100)]
    """(when, rating) after each rated result, oldest first."""
    matches: Annotated[tuple[MatchEntry, ...], Field(max_length=20)]
    """The newest finished matches, newest first."""


class Blocked(_Message):
    type: Literal["blocked"]
    name: Name
    on: bool


class Reported(_Message):
    type: Literal["reported"]
    name: Name


class Renamed(_Message):
    type: Literal["renamed"]
    name: Name


def _host(text: str) -> str:
    if not valid_host(text):
        raise ValueError("not a host name or an IP address")
    return text


class Redirect(_Message):
    """Go on at another worker of this server: ``host`` (another machine's; without it,
    the machine this connection reached, as an older server sends it), ``port`` (many
    workers, docs/server.md). The client connects there, checks that it shows the
    certificate this connection showed, signs in again and sends its last request again.
    The host is checked here (``bela.net.redirects.valid_host``): a frame naming anything
    else is no bela frame."""

    type: Literal["redirect"]
    port: Annotated[int, Field(ge=1, le=65535)]
    host: Annotated[str, Field(max_length=HOST_LIMIT), AfterValidator(_host)] | None = None


class InviteInfo(_Message):
    """An invitation as its invitee sees it: who, and the table's public facts (no code)."""

    name: Name
    target: int
    rated: bool
    private: bool
    rules: RulesInfo
    seated: tuple[Name, ...]


class InviteList(_Message):
    type: Literal["invites"]
    invites: Annotated[tuple[InviteInfo, ...], Field(max_length=10)]


class Declined(_Message):
    type: Literal["declined"]
    name: Name


class Muted(_Message):
    type: Literal["muted"]
    name: Name
    on: bool


class LeagueRow(_Message):
    name: Name
    points: int
    played: int


class LeagueTable(_Message):
    """Your division this week: its players who played, best first."""

    type: Literal["league"]
    week: Short
    division: int
    divisions: int
    member: bool
    """False: you join the league (in this, the lowest division) with your first rated match."""
    rows: Annotated[tuple[LeagueRow, ...], Field(max_length=200)]
    promoted: int
    relegated: int
    ends: float
    place: int | None = None
    """Your place in ``rows`` (1 the best; None: you have not played this week)."""


LobbyReply = (
    Challenge
    | InviteList
    | Declined
    | Muted
    | LeagueTable
    | Hi
    | Redirect
    | TableList
    | Created
    | Queued
    | Leaderboard
    | Renamed
    | PlayerPage
    | Blocked
    | Reported
)
"""What the lobby sends (the table's own messages are ``bela.net.protocol``'s)."""
LobbyServerMessage = Annotated[LobbyReply, Field(discriminator="type")]
_LOBBY_SERVER: TypeAdapter[LobbyReply] = TypeAdapter(LobbyServerMessage)

LOBBY_TYPES: Final = frozenset(
    {
        "challenge",
        "hi",
        "redirect",
        "tables",
        "created",
        "queued",
        "leaders",
        "renamed",
        "player",
        "blocked",
        "reported",
        "invites",
        "declined",
        "muted",
        "league",
    }
)


def decode_lobby_server(frame: bytes) -> LobbyReply:
    if len(frame) > SERVER_FRAME_LIMIT:
        raise ProtocolError(f"frame too large (the limit is {SERVER_FRAME_LIMIT} bytes)")
    try:
        return _LOBBY_SERVER.validate_json(frame)
    except ValidationError as exc:
        raise ProtocolError(_why(exc)) from None
