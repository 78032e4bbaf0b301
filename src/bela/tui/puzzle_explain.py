"""What the puzzles screen says once the player has answered: why the answer is right.

In the order a player reads a chess site's solved puzzle: right or wrong; the
numbers behind it (the answer's average over the guessed deals against the
player's choice and the best alternative, in written points: what "mi" write
minus what "vi" write); what happens in a typical deal (every seat's cards, then
the rest of the round after the answer and after the alternative, each side
playing its best with every card seen); the real deal (what each seat held); and
the rating change and the streak.

Every sentence is said from the puzzle's seat (``puzzle_table.from_seat``): its
player is "you", the others are named by their places at the table. Nothing of
the pack's own text is shown: a puzzle is parsed into cards, actions and numbers
(``bela.archive.puzzle_pack``), and those are what is drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bela.engine import Action
from bela.i18n import _
from bela.keys import letter
from bela.puzzle_words import typical_tricks
from bela.tui.model import hand_order
from bela.tui.puzzle_table import SEATS, from_seat, moment_line
from bela.wording import card_text, seat_name, team_name

if TYPE_CHECKING:
    from bela.archive.puzzle_pack import Puzzle
    from bela.archive.puzzle_store import Outcome
    from bela.lab.puzzle_reasons import Reasons

__all__ = ["explanation"]


def _typical(puzzle: Puzzle, me: int) -> list[Text]:
    typical = puzzle.typical
    if typical is None:
        return []
    lines = [Text(_("What happens in a typical deal"), style="bold underline")]
    if puzzle.kind == "bid":  # a guessed deal is guessed whole: talons and all
        lines.append(Text(_("One of the guessed deals; the eight cards each seat gets:")))
    else:
        lines.append(Text(_("One of the guessed deals; the hands at this moment:")))
    moment = puzzle.moment()
    for seat in _round_the_table(me):
        cards = " ".join(card_text(c) for c in hand_order(list(typical.hands[seat]), moment.trump))
        lines.append(Text(f"  {_who(seat)}: {cards}"))
    lines.extend(Text(line) for line in typical_tricks(puzzle))
    return lines


def _who(seat: int) -> str:
    """A seat and its team: ``Marko (mi)``."""
    return f"{seat_name(seat)} ({team_name(seat % 2)})"


def _round_the_table(me: int) -> list[int]:
    """The seats from ``me`` on, in the order they play."""
    return [(me + k) % SEATS for k in range(SEATS)]


def _real_deal(puzzle: Puzzle, me: int) -> list[Text]:
    """What each seat really held at the moment; while trump is still to be named, each
    seat's six cards and, apart, the talon it would have taken up."""
    rnd = puzzle.moment()
    lines = [Text(_("The real deal"), style="bold underline")]
    bidding = rnd.trump is None
    if bidding:
        lines.append(Text(_("What each seat really held at this moment, and its talon:")))
    else:
        lines.append(Text(_("What each seat really held at this moment:")))
    for seat in _round_the_table(me):
        cards = " ".join(card_text(c) for c in hand_order(list(rnd.hand(seat)), rnd.trump))
        line = f"  {_who(seat)}: {cards}"
        if bidding:
            talon = " ".join(card_text(c) for c in hand_order(list(rnd.talon(seat)), None))
            line += f" · {_('talon')} {talon}"
        lines.append(Text(line))
    return lines


def explanation(
    puzzle: Puzzle,
    chosen: Action,
    outcome: Outcome | None,
    reasons: Reasons | None = None,
    *,
    pending: bool = False,
) -> Text:
    """Everything the screen shows after ``chosen`` was answered, as one block of text
    (``outcome``: what the store made of it; None when the answer could not be kept).

    ``reasons``: why, in words (``bela.lab.puzzle_reasons``, worked out off the UI's
    thread); its typical deal, of the median advantage, replaces the pack's. ``pending``:
    they are still being worked out (a line says so)."""
    from bela import bid_puzzle_words as bid_words
    from bela import puzzle_words as words

    me = puzzle.seat
    shown = words.with_typical(puzzle, reasons)
    right = puzzle.is_right(chosen)
    bid = puzzle.bid is not None  # a bid puzzle: also-good answers and reasons in words
    with from_seat(me):
        if bid:
            credit = puzzle.credit(chosen)
            style = "bold green" if right else "bold yellow" if credit > 0 else "bold red"
            lines: list[Text] = [Text(bid_words.bid_verdict(puzzle, chosen), style=style)]
        else:
            lines = [
                Text(words.verdict(puzzle, chosen), style="bold green" if right else "bold red")
            ]
        if outcome is not None:
            lines.append(Text(words.rating_change(outcome), style="bold"))
            if bid and outcome.rated:  # a puzzle is rated at its first attempt only
                lines.append(Text(bid_words.credit_text(outcome.credit)))
            if outcome.streak.best:  # before any right answer, a streak of 0 says nothing
                lines.append(Text(words.streak_text(outcome.streak)))
        lines.append(Text())
        lines.append(Text(moment_line(puzzle.moment(), me), style="italic"))
        if bid:
            lines += [Text(line) for line in bid_words.bid_reasons(puzzle, chosen)]
        else:
            lines.append(Text(words.explanation(puzzle, chosen)))
            if reasons is not None:
                lines.extend(Text(sentence) for sentence in words.reason_sentences(reasons))
            elif pending:
                lines.append(Text(_("Working out why…"), style="dim"))
        lines.append(
            Text(
                _("Themes: {themes} · puzzle rating {rating}").format(
                    themes=words.themes_text(puzzle.themes) or "-", rating=round(puzzle.rating)
                ),
                style="italic",
            )
        )
        lines.extend(Text(line, style="italic") for line in words.theme_lines(puzzle.themes))
        typical = _typical(shown, me)
        if typical:
            lines.append(Text())
            lines += typical
            summary = words.typical_text(shown, reasons)
            if summary is not None:
                lines.append(Text(summary, style="bold"))
        lines.append(Text())
        lines += _real_deal(puzzle, me)
        lines.append(Text())
        if reasons is not None and not right:
            lines.append(
                Text(
                    _(
                        "{key}: play on from this moment on the deal where your card loses most"
                    ).format(key=letter("puzzle_play")),
                    style="bold",
                )
            )
        # the streak and the storm have no room in the footer at 80 columns: said here
        lines.append(
            Text(
                _("Enter: the next puzzle · {key}: a streak or a storm · Esc: back").format(
                    key=letter("puzzle_modes")
                ),
                style="dim",
            )
        )
    return Text("\n").join(lines)
