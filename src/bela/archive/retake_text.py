"""A played round beside its retake with a bot in the player's seat, as rich text.

``bela replay --bot-in-my-seat`` and the app's "bot in your seat" dialog both show
it (``bela.lab.bot_in_seat`` plays the retake). Only the engine's rounds are read;
names at a network table come through ``bela.wording.at_table`` as plain text.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from bela.archive.replay_text import TEAM_NAMES, card_text, seat_name
from bela.engine import Call, Round
from bela.i18n import _
from bela.wording import suit_name, suit_symbol

Pair = tuple[int, int]

__all__ = ["gain_text", "retake_view", "signed"]


def signed(value: float, digits: int = 1) -> str:
    """A signed figure with a real minus sign, as a sheet writes it; one that rounds to
    zero is written unsigned ("0.0", never "−0.0" or "+0.0")."""
    text = f"{value:+.{digits}f}"
    if float(text) == 0:
        return f"{0:.{digits}f}"
    return text.replace("-", "\u2212")


def gain_text(played: Pair, retaken: Pair, team: int, same: bool) -> Text:
    """What the bot in the seat would have changed, in a sentence: what we would have
    written and what they would have, each beside what was written. Never the margin
    alone as "points more" (issue #35: "250 more" where we wrote 125 more and they 88
    fewer read as 250 more for us). ``played`` and ``retaken`` are the points written
    (team 0, team 1); ``team`` is the player's."""
    if same:
        return Text(_("The bot would have played this round exactly as you did."))
    ours, theirs = team, 1 - team
    if played == retaken:
        return Text(_("With the bot in your seat the result would have been the same."))
    text = _(
        "With the bot in your seat we would have written {ours} instead of {ours_was}, "
        "and they {theirs} instead of {theirs_was}."
    ).format(
        ours=retaken[ours],
        ours_was=played[ours],
        theirs=retaken[theirs],
        theirs_was=played[theirs],
    )
    gain = (retaken[ours] - retaken[theirs]) - (played[ours] - played[theirs])
    style = "bold green" if gain > 0 else "bold red" if gain < 0 else "bold"
    return Text(text, style=style)


def _bids(rnd: Round, seat: int) -> Text:
    parts: list[Text] = []
    for bidder, bid in rnd.bids:
        said = (
            f"{suit_symbol(bid.suit)} {suit_name(bid.suit)}"
            if isinstance(bid, Call)
            else _("dalje")
        )
        # seats numbered 1-4, as everywhere a player reads them
        parts.append(Text(f"{bidder + 1}: {said}", style="underline" if bidder == seat else ""))
    return Text(", ").join(parts)


def _trick(rnd: Round, number: int, seat: int) -> Text:
    if number >= len(rnd.tricks):
        return Text("")
    trick = rnd.tricks[number]
    cards = []
    for i, card in enumerate(trick.cards):
        who = trick.seat_of(i)
        piece = Text.assemble(f"{who + 1}:", card_text(card, bold=who == trick.winner))
        if who == seat:
            piece.stylize("underline")
        cards.append(piece)
    return Text(" ").join(cards)


def _written(rnd: Round) -> Text:
    result = rnd.result
    assert result is not None
    return Text(
        f"{TEAM_NAMES[0]} {result.points[0]} · {TEAM_NAMES[1]} {result.points[1]}", style="bold"
    )


def retake_view(index: int, seat: int, played: Round, retaken: Round) -> RenderableType:
    """Round ``index`` (0-based) as ``played`` and as ``retaken`` with a bot in ``seat``,
    side by side: the bids, each trick (the winning card bold, the seat's own underlined)
    and what each team wrote, then what each team would have written (``gain_text``)."""
    title = _("Round {n} · dealer {dealer} · you are {seat}").format(
        n=index + 1, dealer=seat_name(played.dealer), seat=seat_name(seat)
    )
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("", justify="right")
    table.add_column(_("As played"))
    table.add_column(_("Bot in your seat"))
    table.add_row(_("bids"), _bids(played, seat), _bids(retaken, seat))
    tricks = max(len(played.tricks), len(retaken.tricks))
    for number in range(tricks):
        table.add_row(
            str(number + 1),
            _trick(played, number, seat),
            _trick(retaken, number, seat),
        )
    table.add_row(_("written"), _written(played), _written(retaken))
    same = played.actions == retaken.actions
    assert played.result is not None and retaken.result is not None
    said = gain_text(played.result.points, retaken.result.points, seat % 2, same)
    return Group(Rule(Text(title), align="left"), table, said)
