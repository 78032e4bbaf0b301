"""Invitations by name at the public server: a player at a table asks an account to sit there.

Why by name and not by code: a friend who is a stranger's account at the server has no
channel to receive a code, and a private table's code is a secret that should travel as
little as possible. An invitation names the table; accepting it seats the invitee at
that table, private or not, and the code is never sent to them.

A one-process server keeps its invitations in memory (``Invitations``); the workers of
many share theirs in Redis (``bela.net.invitations_redis``), under the same rules. Each
lasts ``LIFETIME`` seconds, until answered, or until its table is gone or full. Nobody
floods another with them: one account sends at most ``BURST`` in ``WINDOW`` seconds
(counted per account, so signing in again does not reset it), one invitation per inviter
and invitee is kept (a new one replaces it), and an invitee holds at most ``HELD`` (the
oldest is dropped).
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

__all__ = [
    "BURST",
    "HELD",
    "LIFETIME",
    "WINDOW",
    "Invitation",
    "InvitationBook",
    "Invitations",
]

LIFETIME: Final = 600.0
BURST: Final = 5
WINDOW: Final = 60.0
HELD: Final = 10


@dataclass(frozen=True, slots=True)
class Invitation:
    id: str
    """128 bits from ``secrets``: which invitation an answer means (not a key to anything:
    only the invitee may answer it)."""
    table_id: str
    by: int
    by_name: str
    to: int
    at: float
    facts: dict[str, Any] = field(default_factory=dict)
    """The table's public facts when the invitation was made (the target, rated, private,
    the house rules, who sits there and their accounts): what the invitee's lobby shows
    when the table is at another worker. Never its code."""


class InvitationBook(Protocol):
    """Where a server keeps its invitations (memory, or Redis shared by its workers)."""

    def may_send(self, by: int) -> bool: ...

    def add(
        self, table_id: str, by: int, by_name: str, to: int, facts: dict[str, Any]
    ) -> Invitation: ...

    def to(self, account: int) -> list[Invitation]: ...

    def find(
        self, account: int, by_name: str | None, same: Callable[[str, str], bool]
    ) -> Invitation | None: ...

    def remove(self, invitation: Invitation) -> bool: ...

    def drop_table(self, table_id: str) -> None: ...


class Invitations:
    """The pending invitations of one server; ``clock`` gives monotonic seconds."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.pending: list[Invitation] = []
        self._sent: dict[int, deque[float]] = {}

    def may_send(self, by: int) -> bool:
        """``by`` has not sent ``BURST`` invitations in the last ``WINDOW`` seconds."""
        now = self.clock()
        times = self._sent.get(by)
        if times is None:
            return True
        while times and now - times[0] > WINDOW:
            times.popleft()
        if not times:  # no memory kept for an account that sent nothing lately
            del self._sent[by]
        return len(times) < BURST

    def add(
        self, table_id: str, by: int, by_name: str, to: int, facts: dict[str, Any]
    ) -> Invitation:
        """A new invitation (the caller asked ``may_send`` first): it replaces ``by``'s
        earlier one to ``to``; the invitee's oldest goes when they hold too many."""
        now = self.clock()
        self._sent.setdefault(by, deque()).append(now)
        self.expire()
        self.pending = [i for i in self.pending if not (i.by == by and i.to == to)]
        held = [i for i in self.pending if i.to == to]
        if len(held) >= HELD:
            self.pending.remove(held[0])
        invitation = Invitation(secrets.token_hex(16), table_id, by, by_name, to, now, facts)
        self.pending.append(invitation)
        return invitation

    def expire(self) -> None:
        now = self.clock()
        self.pending = [i for i in self.pending if now - i.at < LIFETIME]

    def to(self, account: int) -> list[Invitation]:
        """``account``'s invitations, newest first."""
        self.expire()
        return [i for i in reversed(self.pending) if i.to == account]

    def find(
        self, account: int, by_name: str | None, same: Callable[[str, str], bool]
    ) -> Invitation | None:
        """``account``'s newest invitation from ``by_name`` (as names read: ``same``), or
        their newest of all when ``by_name`` is None; left where it is."""
        for invitation in self.to(account):
            if by_name is None or same(invitation.by_name, by_name):
                return invitation
        return None

    def remove(self, invitation: Invitation) -> bool:
        """Take ``invitation`` away (answered); False when it was no longer there."""
        if invitation not in self.pending:
            return False
        self.pending.remove(invitation)
        return True

    def drop_table(self, table_id: str) -> None:
        """The table is gone (or full): its invitations with it."""
        self.pending = [i for i in self.pending if i.table_id != table_id]
