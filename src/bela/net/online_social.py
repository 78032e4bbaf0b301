"""The public server's lobby requests between players: invitations by name, muting, and the
weekly league's table (``bela.net.invitations``, ``bela.net.league``).

Kept out of ``bela.net.online_server`` so that the server's core (login, tables, quick
match, ratings) stays one module's reading; these functions act on an ``OnlineServer``
and its connections as its own methods would.

- **Invite** (at a table, or with ``Create``'s ``invite``): an account, by name, is asked
  to the inviter's table. Refused alike ("cannot be invited") for nobody by that name, for
  yourself, and when either of the two blocked the other or anybody at the table is
  blocked by or blocks the invitee: a blocked player learns nothing more than that.
  Rate-limited per account (``bela.net.invitations``). The invitee, if signed in and not
  at a table, is told at once; the lobby lists the invitation (``invites``).
- **Answer**: accepting seats the invitee at the table whether it is public or private
  (the code is never sent to them); declining tells the inviter.
- **Mute**: the muted player's table talk (phrases included) is no longer sent to the
  one who muted them, at any table, kept with the account in the store. By account: a
  guest has none, so a guest's talk cannot be muted (a guest plays unrated tables only).
- **League**: the player's division this week.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bela.foundation.lookalike import same_name
from bela.net.accounts import clean_name
from bela.net.league import DIVISIONS
from bela.net.lobby_protocol import Answer, Invite, InvitesAsk, LeagueAsk, Mute
from bela.net.phrases import Phrase

if TYPE_CHECKING:
    from bela.net.online_server import Meta, OnlineServer, Who
    from bela.net.server import Connection
    from bela.net.table import Table

__all__ = ["SOCIAL", "handle", "invite", "listens"]

SOCIAL = Invite | InvitesAsk | Answer | Mute | LeagueAsk
"""The requests this module answers."""
LEAGUE_ROWS = 200
SHOWN = ("target", "rated", "private", "rules", "seated")
"""The facts of an invitation's table its invitee is shown (``_facts`` has its accounts too)."""


def _refuse(conn: Connection, phrase: Phrase) -> None:
    conn.send({"type": "refused", **phrase.fields("reason")})


def handle(server: OnlineServer, conn: Connection, who: Who, message: object) -> None:
    """Answer one of ``SOCIAL``'s requests."""
    if who.account is None:
        _refuse(conn, Phrase("guest_no_account"))
    elif isinstance(message, Invite):
        invite(server, conn, who, message.name)
    elif isinstance(message, InvitesAsk):
        conn.send({"type": "invites", "invites": _invites(server, who)})
    elif isinstance(message, Answer):
        _answer(server, conn, who, message)
    elif isinstance(message, Mute):
        _mute(server, conn, who, message.name, message.on)
    elif isinstance(message, LeagueAsk):
        _league(server, conn, who.account.id)


def _meta_of(server: OnlineServer, conn: Connection) -> Meta | None:
    """The table ``conn`` sits at (not watches), as the server knows it."""
    table = conn.table
    if table is None or conn.seat is None or conn.watcher is not None or table.closed:
        return None
    return server.meta.get(table.table_id)


def invite(server: OnlineServer, conn: Connection, who: Who, name: str) -> None:
    """``who`` (seated) invites the account called ``name`` to their table."""
    if who.account is None:
        _refuse(conn, Phrase("guest_no_account"))
        return
    meta = _meta_of(server, conn)
    if meta is None:
        _refuse(conn, Phrase("invite_not_seated"))
        return
    other = server.accounts.by_name(name)
    if (
        other is None
        or other.id == who.account.id
        or other.id in server.accounts.avoided(who.account.id)
        or server._minds(meta, server.accounts.avoided(other.id))
    ):
        _refuse(conn, Phrase("cannot_invite", {"name": clean_name(name)}))
        return
    if not server.invitations.may_send(who.account.id):
        _refuse(conn, Phrase("too_many_invitations"))
        return
    server.invitations.add(meta.table.table_id, who.account.id, who.name, other.id, _facts(meta))
    server.event("invite", f"{who.name} -> {other.name} at {meta.table.table_id}")
    conn.send({"type": "notice", **Phrase("invitation_sent", {"name": other.name}).fields()})
    # in the lobby now (here, or at another worker): told at once
    server.tell(other.id, Phrase("invited_you", {"name": who.name}), lobby_only=True)


def _facts(meta: Meta) -> dict[str, Any]:
    """A table's public facts as an invitation shows them (never its code); ``accounts``,
    who sits there, is for the blocking rule and is not shown."""
    table = meta.table
    return {
        "target": table.target,
        "rated": meta.rated if table.started else meta.rated_wanted,
        "private": not meta.public,
        "rules": meta.rules.changed(),
        "seated": [s.name for s in table.seats if s.name is not None],
        "accounts": [i for i in meta.people.values() if i is not None],
    }


def _invites(server: OnlineServer, who: Who) -> list[dict[str, Any]]:
    """``who``'s invitations whose tables are still there and still free of anybody
    blocked either way; the table's public facts only (never its code)."""
    assert who.account is not None
    avoid = server.accounts.avoided(who.account.id)
    out = []
    for invitation in server.invitations.to(who.account.id):
        meta = server.meta.get(invitation.table_id)
        if meta is None:  # at another worker, or gone
            facts = server.remote_invitation(invitation, avoid)
        elif meta.table.closed or server._minds(meta, avoid):
            facts = None
        else:
            facts = _facts(meta)
        if facts is None or any(key not in facts for key in SHOWN):
            continue
        out.append({"name": invitation.by_name, **{key: facts[key] for key in SHOWN}})
    return out[:10]


def _answer(server: OnlineServer, conn: Connection, who: Who, message: Answer) -> None:
    assert who.account is not None
    if message.accept and (conn.table is not None or any(w.conn is conn for w in server.queue)):
        _refuse(conn, Phrase("already_seated"))
        return
    invitation = server.invitations.find(who.account.id, message.name, same_name)
    if invitation is not None and message.accept:
        redirect = server.invitation_elsewhere(invitation)
        if redirect == 0:  # its worker died and nobody has taken its tables up yet
            _refuse(conn, Phrase("host_busy"))
            return
        if isinstance(redirect, dict):  # the table is at another worker: answered there
            conn.send(redirect)
            return
    if invitation is None or not server.invitations.remove(invitation):
        _refuse(conn, Phrase("no_invitation"))
        return
    if not message.accept:
        server.tell(invitation.by, Phrase("invite_declined", {"name": who.name}))
        conn.send({"type": "declined", "name": invitation.by_name})
        return
    meta = server.meta.get(invitation.table_id)
    if meta is None or meta.table.closed or server._minds(meta, server._avoided(who)):
        _refuse(conn, Phrase("no_such_table"))
        return
    if meta.rated_wanted and who.guest:  # pragma: no cover - a guest has no invitations
        _refuse(conn, Phrase("guest_unrated"))
        return
    server.event("accept", f"{who.name} at {meta.table.table_id}")
    server._sit(conn, who, meta)


def _mute(server: OnlineServer, conn: Connection, who: Who, name: str, on: bool) -> None:
    assert who.account is not None
    other = server.accounts.by_name(name)
    if other is None or other.id == who.account.id:
        _refuse(conn, Phrase("no_such_player", {"name": clean_name(name)}))
        return
    server.accounts.mute(who.account.id, other.id, on)
    server.mutes[who.account.id] = server.accounts.muted(who.account.id)
    server.event("mute" if on else "unmute", f"{who.name} -> {other.name}")
    conn.send({"type": "muted", "name": other.name, "on": on})


def listens(server: OnlineServer, table: Table, link: Any, index: int) -> bool:
    """Whether the person on ``link`` is shown what seat ``index`` of ``table`` says: not
    when their account muted the account sitting there."""
    who = server.who.get(link)
    if who is None or who.account is None:
        return True
    muted = server.mutes.get(who.account.id)
    if muted is None:
        muted = server.mutes[who.account.id] = server.accounts.muted(who.account.id)
    if not muted:
        return True
    meta = server.meta.get(table.table_id)
    name = table.seats[index].name
    speaker = meta.people.get(name) if meta is not None and name is not None else None
    return speaker not in muted


def _league(server: OnlineServer, conn: Connection, account_id: int) -> None:
    standing = server.league.standing(account_id)
    place = next(
        (n for n, line in enumerate(standing.lines, 1) if line.account == account_id), None
    )
    conn.send(
        {
            "type": "league",
            "week": standing.week,
            "division": standing.division,
            "divisions": DIVISIONS,
            "member": standing.member,
            "rows": [
                {"name": line.name, "points": line.points, "played": line.played}
                for line in standing.lines[:LEAGUE_ROWS]
            ],
            "promoted": standing.promoted,
            "relegated": standing.relegated,
            "ends": standing.ends,
            "place": place,
        }
    )
