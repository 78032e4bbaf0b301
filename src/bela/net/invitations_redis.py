"""Invitations shared by the workers of a public server (``bela server --workers N``), in Redis.

A player invited at one worker may be signed in at another, and the table may be at a third:
so the invitations are kept where every worker reads them, under the rules of
``bela.net.invitations`` (``LIFETIME``, ``BURST`` in ``WINDOW`` per account, one per inviter
and invitee, ``HELD`` per invitee). Keys, under the directory's prefix:

- ``invites:<invitee>``: a hash, the inviter's account id -> the invitation as JSON (its
  id, table, inviter, when, the table's public facts: never a code). One field per inviter
  is the "one per inviter and invitee" rule; the key expires ``LIFETIME`` after the last
  invitation to it, and each is read only while younger than ``LIFETIME``.
- ``invited:<table>``: a set of the invitees of a table, so that the table's end drops its
  invitations wherever they are kept.
- ``invites-sent:<inviter>``: a sorted set of when the inviter sent (the rate limit, across
  workers: an account is at one worker at a time, but may sign in at another).
- ``notices:<worker>``: a list of sentences for players signed in at that worker (an
  invitation for a player in its lobby, a declined invitation for its inviter), which the
  worker takes each tick and tells them (``take_notices``).

Answering is a claim: ``remove`` deletes the invitation's field only if it still holds that
invitation, so of two answers (two workers, a replaced invitation) one wins. Times are wall
clock seconds (``time.time``): the workers share them.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from bela.net.invitations import BURST, HELD, LIFETIME, WINDOW, Invitation

if TYPE_CHECKING:
    from bela.net.store_redis import RedisDirectory

__all__ = ["NOTICES_AT_ONCE", "NOTICES_KEPT", "RedisInvitations"]

NOTICES_KEPT: Final = 60
"""Seconds a notice for a worker is kept (one that nobody takes, its worker gone, lapses)."""
NOTICES_AT_ONCE: Final = 500
"""Notices taken in one tick at most (the rest wait for the next)."""
_REMOVE: Final = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if raw and cjson.decode(raw)['id'] == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""
"""Delete the inviter's field of the invitee's hash if it still holds that invitation (by
its id: a newer one from the same inviter is left alone)."""


def _invitation(raw: str) -> Invitation | None:
    try:
        data = json.loads(raw)
        facts = data.get("facts", {})
        return Invitation(
            str(data["id"]),
            str(data["table"]),
            int(data["by"]),
            str(data["by_name"]),
            int(data["to"]),
            float(data["at"]),
            facts if isinstance(facts, dict) else {},
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _raw(invitation: Invitation) -> str:
    return json.dumps(
        {
            "id": invitation.id,
            "table": invitation.table_id,
            "by": invitation.by,
            "by_name": invitation.by_name,
            "to": invitation.to,
            "at": invitation.at,
            "facts": invitation.facts,
        }
    )


class RedisInvitations:
    """``bela.net.invitations.InvitationBook`` in Redis, shared by the workers."""

    def __init__(self, directory: RedisDirectory, clock: Callable[[], float] = time.time) -> None:
        self.redis = directory.redis
        self.prefix = directory.prefix
        self.clock = clock

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def may_send(self, by: int) -> bool:
        key = self._key("invites-sent", str(by))
        now = self.clock()
        self.redis.zremrangebyscore(key, "-inf", now - WINDOW)
        return int(self.redis.zcard(key)) < BURST

    def add(
        self, table_id: str, by: int, by_name: str, to: int, facts: dict[str, Any]
    ) -> Invitation:
        now = self.clock()
        invitation = Invitation(secrets.token_hex(16), table_id, by, by_name, to, now, facts)
        sent = self._key("invites-sent", str(by))
        held = self._key("invites", str(to))
        invited = self._key("invited", table_id)
        pipe = self.redis.pipeline()
        pipe.zadd(sent, {invitation.id: now})
        pipe.expire(sent, int(WINDOW) + 1)
        pipe.hset(held, str(by), _raw(invitation))
        pipe.expire(held, int(LIFETIME) + 1)
        pipe.sadd(invited, str(to))
        pipe.expire(invited, int(LIFETIME) + 1)
        pipe.execute()
        mine = self._all(to)
        for old in mine[HELD:]:  # the invitee holds too many: the oldest go
            self.remove(old)
        return invitation

    def _all(self, account: int) -> list[Invitation]:
        """``account``'s invitations still in their lifetime, newest first."""
        raw: dict[str, str] = self.redis.hgetall(self._key("invites", str(account)))  # type: ignore[assignment]
        now = self.clock()
        found = [i for i in map(_invitation, raw.values()) if i is not None]
        return sorted(
            (i for i in found if now - i.at < LIFETIME and i.to == account),
            key=lambda i: i.at,
            reverse=True,
        )

    def to(self, account: int) -> list[Invitation]:
        return self._all(account)[:HELD]

    def find(
        self, account: int, by_name: str | None, same: Callable[[str, str], bool]
    ) -> Invitation | None:
        for invitation in self.to(account):
            if by_name is None or same(invitation.by_name, by_name):
                return invitation
        return None

    def remove(self, invitation: Invitation) -> bool:
        """Take the invitation away if it is still there (the claim of one answer)."""
        done = self.redis.eval(
            _REMOVE,
            1,
            self._key("invites", str(invitation.to)),
            str(invitation.by),
            invitation.id,
        )
        return bool(done)

    def drop_table(self, table_id: str) -> None:
        invited = self._key("invited", table_id)
        members: set[str] = self.redis.smembers(invited)  # type: ignore[assignment]
        for account in members:
            if not account.isdigit():
                continue
            for invitation in self._all(int(account)):
                if invitation.table_id == table_id:
                    self.remove(invitation)
        self.redis.delete(invited)

    # ------------------------------------------------------------------ notices

    def notify(self, worker: str, account: int, phrase: dict[str, Any], lobby_only: bool) -> None:
        """A sentence (``Phrase.fields()``) for ``account``, signed in at ``worker``; said
        only while they are in the lobby when ``lobby_only``."""
        key = self._key("notices", worker)
        pipe = self.redis.pipeline()
        pipe.rpush(key, json.dumps({"to": account, "phrase": phrase, "lobby": lobby_only}))
        pipe.expire(key, NOTICES_KEPT)
        pipe.execute()

    def take_notices(self, worker: str) -> list[tuple[int, dict[str, Any], bool]]:
        """The notices waiting for ``worker``'s players, taken (each is told once)."""
        # one command a tick (LPOP with a count, Redis 6.2 on): most ticks find nothing
        raw: list[str] | None = self.redis.lpop(self._key("notices", worker), NOTICES_AT_ONCE)  # type: ignore[assignment]
        out = []
        for line in raw or []:
            try:
                data = json.loads(line)
                out.append((int(data["to"]), dict(data["phrase"]), bool(data["lobby"])))
            except (ValueError, KeyError, TypeError):
                continue
        return out
