"""The public server's pages as a player reads them: the leaderboard, a player's page, the
weekly league's table and an invitation, worded once for ``bela online``'s printout and
the app's lobby alike (the command line and the app import nothing of each other's).

Every name here came over the network: each is cut to one line (``oneline``); the
caller shows the lines as plain text, never as markup.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from bela.foundation.untrusted import oneline
from bela.i18n import _, ngettext

if TYPE_CHECKING:
    from bela.net.lobby_protocol import (
        InviteInfo,
        Leaderboard,
        LeagueTable,
        PlayerPage,
    )

__all__ = ["invite_line", "leader_lines", "league_lines", "player_lines", "standing"]


def standing(rating: int | None, provisional: bool, reliability: float | None) -> str:
    """A rating as lists show it: ``?`` when provisional, then the reliability."""
    if rating is None:
        return _("guest, unrated")
    text = f"{rating}?" if provisional else str(rating)
    if reliability is not None:
        text += f", {round(reliability * 100)}%"
    return text


def leader_lines(board: Leaderboard) -> list[str]:
    if not board.leaders:
        return [_("Nobody has played a rated match yet.")]
    return [
        f"{place:3}. {oneline(entry.name, 24)}  "
        f"{standing(entry.rating, entry.provisional, entry.reliability)}"
        for place, entry in enumerate(board.leaders, 1)
    ]


def player_lines(page: PlayerPage) -> list[str]:
    """A player's page: standing, rating over time, the newest matches."""
    rating = f"{page.rating}?" if page.provisional else str(page.rating)
    reliability = "-" if page.reliability is None else f"{round(page.reliability * 100)}%"
    lines = [
        ngettext(
            "{name}: {rating} ± {rd}, {count} rated match, reliability {reliability}",
            "{name}: {rating} ± {rd}, {count} rated matches, reliability {reliability}",
            page.rated,
        ).format(
            name=oneline(page.name, 24),
            rating=rating,
            rd=page.rd,
            count=page.rated,
            reliability=reliability,
        )
    ]
    if page.history:
        steps = " → ".join(str(rating) for _when, rating in page.history[-12:])
        lines.append(_("Rating over time: {steps}").format(steps=steps))
    for match in page.matches:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(match.ended))
        if match.left:
            result = _("left the rated match") if match.rated else _("left the match")
        elif match.won:
            result = _("won, rated") if match.rated else _("won, unrated")
        else:
            result = _("lost, rated") if match.rated else _("lost, unrated")
        own, theirs = match.scores
        lines.append(f"{when}  {own} : {theirs}  {result}")
    return lines


def league_lines(table: LeagueTable) -> list[str]:
    """Your division this week: who played, best first, the promotion (↑) and relegation
    (↓) places marked, and when the week ends."""
    ends = time.strftime("%Y-%m-%d %H:%M", time.gmtime(table.ends))
    lines = [
        _("Weekly league {week}: division {division} of {divisions} (1 is the highest).").format(
            week=oneline(table.week, 12), division=table.division, divisions=table.divisions
        ),
        _("The week ends {when} UTC.").format(when=ends),
    ]
    if not table.member:
        lines.append(_("You join the league in this division with your first rated match."))
    if not table.rows:
        lines.append(_("Nobody in this division has played a rated match this week yet."))
    else:
        lines.append(_("       player                    points  matches"))
        count = len(table.rows)
        for place, row in enumerate(table.rows, 1):
            mark = " "
            if place <= table.promoted:
                mark = "↑"
            elif place > count - table.relegated:
                mark = "↓"
            you = "*" if place == table.place else " "
            lines.append(
                f"{mark}{you}{place:3}. {oneline(row.name, 24):24}  {row.points:6}  {row.played:7}"
            )
    if table.promoted:
        lines.append(
            ngettext(
                "↑ At the week's end the top {count} player goes up a division.",
                "↑ At the week's end the top {count} players go up a division.",
                table.promoted,
            ).format(count=table.promoted)
        )
    if table.relegated:
        lines.append(
            ngettext(
                "↓ At the week's end the last {count} player goes down a division.",
                "↓ At the week's end the last {count} players go down a division.",
                table.relegated,
            ).format(count=table.relegated)
        )
    if table.member and table.place is None:
        lines.append(_("You have not played a rated match this week."))
    return lines


def invite_line(invite: InviteInfo) -> str:
    """An invitation as its invitee reads it (the inviter's name, the table's facts)."""
    if invite.rated:
        text = (
            _("{name} invites you to a private rated table to {target}; seated: {players}")
            if invite.private
            else _("{name} invites you to a rated table to {target}; seated: {players}")
        )
    else:
        text = (
            _("{name} invites you to a private unrated table to {target}; seated: {players}")
            if invite.private
            else _("{name} invites you to an unrated table to {target}; seated: {players}")
        )
    return text.format(
        name=oneline(invite.name, 24),
        target=invite.target,
        players=", ".join(oneline(name, 24) for name in invite.seated),
    )
