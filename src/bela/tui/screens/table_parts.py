"""What the local table and a network seat share: the layout, the card keys, the hint's words.

Both screens draw the same table (``screens.table`` holds a ``Match``,
``screens.net_table`` the host's last ``State``), so the widgets, their ids and
the keys a player learns are built here once; each screen adds only its own
pieces (the lobby and the talk line at a network seat).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Container, Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from bela.i18n import N_, _, ngettext
from bela.keys import bid_keys
from bela.table_text import symbolize
from bela.tui.widgets import BidMenu, Hand, ScoreSheet, SeatBadge, TooSmall, TrickView
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.table_talk import TableTalk
from bela.tui.widgets.zvanja import ZvanjaPanel

if TYPE_CHECKING:
    from bela.ai.hard import Advice

__all__ = [
    "CHOOSE_BINDINGS",
    "HUGE_HEIGHT",
    "HUGE_WIDTH",
    "TABLE_LETTERS",
    "HintBook",
    "choose_first",
    "mark_huge",
    "no_such_card",
    "table_layout",
]

_NUMBER_KEYS: Final = tuple(str(n) for n in range(1, 9))

HUGE_WIDTH: Final = 160
HUGE_HEIGHT: Final = 50
"""From this window size on the table grows again (bela.tcss, "more room still"): wider
seats and side panel, a taller middle, the hand's cards spread apart. Textual gives a
screen one breakpoint class a dimension, so this one is the table screens' own."""


def mark_huge(screen: Widget, width: int, height: int) -> None:
    """Give ``screen`` the ``-huge`` class at ``HUGE_WIDTH`` × ``HUGE_HEIGHT`` and more
    (issue #35: past 120 × 40 the table stopped growing and left the room empty)."""
    screen.set_class(width >= HUGE_WIDTH and height >= HUGE_HEIGHT, "-huge")


CHOOSE_BINDINGS: Final = [
    # footer words kept short: at 80 columns every key, F1 help included, must show
    Binding("enter", "choose", N_("Play")),
    # the same key while trump is being named: the footer says "Bid", not "Play" (as short:
    # at 80 columns the footer has no cell to spare)
    # (a screen's check_action shows one of the two, issue #35)
    Binding("enter", "choose_bid", N_("Bid")),
    Binding("left", "move(-1)", N_("Left"), show=False),
    Binding("right", "move(1)", N_("Right"), show=False),
    Binding("up", "move(-1)", N_("Up"), show=False),
    Binding("down", "move(1)", N_("Down"), show=False),
    *(Binding(k, f"pick({n})", f"Card {k}", show=False) for n, k in enumerate(_NUMBER_KEYS)),
]
"""Enter plays; the arrows and 1-8 choose a card (or a bid while trump is being named)."""

TABLE_LETTERS: Final = (
    "hearts",
    "diamonds",
    "spades",
    "clubs",
    "pass",
    "last_trick",
    "dosta",
    "hint",
)
"""The lettered actions (``bela.keys``) both tables bind, in the player's language."""


def no_such_card(index: int, held: int) -> str:
    """A number key past the hand (8 with seven cards): what the player is told.

    Nothing stays chosen after it, so an Enter that follows cannot play a card the
    player did not pick (the cursor's old card, say).
    """
    return ngettext(
        "You hold {n} card: there is no card {number}. Choose one with ←/→ or its number.",
        "You hold {n} cards: there is no card {number}. Choose one with ←/→ or 1-{n}.",
        held,
    ).format(n=held, number=index + 1)


def no_such_bid(index: int) -> str:
    """A number key past the bid menu (6, 7 or 8 with its five choices): what the player is
    told, with the letters that bid. The menu's cursor stays where it was, so Enter cannot
    say dalje unasked."""
    keys = bid_keys()
    return _("There is no choice {number}: name trump ({suits}) or say dalje ({key}).").format(
        number=index + 1, suits=" ".join(keys[:4]), key=keys[4]
    )


def choose_first(held: int) -> str:
    """Enter with no card chosen (after a number key past the hand)."""
    return ngettext(
        "No card is chosen: pick your card with ←/→ or its number, then Enter.",
        "No card is chosen: pick one with ←/→ or 1-{n}, then Enter.",
        held,
    ).format(n=held)


def table_layout(
    *,
    clockwise: bool,
    sheet: ScoreSheet,
    centre: Iterable[Widget] = (),
    side: Iterable[Widget] = (),
) -> ComposeResult:
    """The table (``yield from`` it in ``compose``): seat 0 at the bottom, the partner on
    top, the trick and the bids in the centre (with ``centre``'s widgets), and beside it
    ``sheet``, the zvanja of the first trick, the table talk and ``side``'s widgets.

    ``clockwise`` (a house rule) seats 1 on the left and 3 on the right.
    """
    yield TooSmall()
    with Horizontal(id="main"):
        with Vertical(id="table"):
            yield Static(id="status")
            with Center():
                yield SeatBadge(id="seat-2", classes="badge top")
            with Horizontal(id="middle"):
                left, right = (1, 3) if clockwise else (3, 1)
                yield SeatBadge(id=f"seat-{left}", classes="badge side")
                with Container(id="centre"):
                    trick = TrickView(id="trick")
                    trick.clockwise = clockwise
                    yield trick
                    yield BidMenu(id="bids")
                    yield from centre
                yield SeatBadge(id=f"seat-{right}", classes="badge side")
            yield Static(id="message")
            with Center():
                yield SeatBadge(id="seat-0", classes="badge you")
            with Center():
                yield Hand(id="hand")
        with Vertical(id="side"):
            yield sheet
            yield ZvanjaPanel(id="zvanja")
            log = TableTalk(id="log")
            log.border_title = _("Table talk")
            yield log
            yield from side
    yield Footer(compact=True)  # every key, F1 help and F2 settings too, fits 80 columns


class HintBook:
    """The hint on show and the position it was asked in.

    The words say what the card does here (draws trumps, wins the trick, …); the
    search's averages over guessed deals are evidence for whoever wants them, not
    an explanation, so they wait behind a second press of ``i`` in the same position
    (answered at once, from here).
    """

    def __init__(self) -> None:
        self._asked: object = None
        self._advice: Advice | None = None
        self._details = False

    def known(self, position: object) -> Advice | None:
        """The advice already worked out for ``position`` (the same object), if any."""
        return self._advice if self._asked is position else None

    def words(self, position: object, advice: Advice) -> str:
        """The hint in a player's words; asked again in the same position, the numbers."""
        again = self._asked is position
        self._details = again and not self._details and bool(advice.details)
        self._asked, self._advice = position, advice
        if self._details:
            return _("Hint, the numbers: {details}. (i: in words)").format(
                details=symbolize(advice.details)
            )
        why = symbolize(advice.why)
        if advice.details:
            return _("Hint: {why}. (i again: the numbers)").format(why=why)
        return _("Hint: {why}.").format(why=why)
