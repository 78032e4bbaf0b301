"""Post-mortem of a finished round: each card from trick 3 on against the double-dummy best.

The solver runs in a thread worker (a round takes a fraction of a second, a
hard one a few seconds), so the dialog opens at once and fills in when done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from bela.engine import Round
from bela.i18n import N_, _, ngettext
from bela.search.analysis import RoundAnalysis, analyze_round
from bela.table_text import SEAT_NAMES, card_text
from bela.tui.widgets import TooSmall
from bela.wording import at_table, card_list

__all__ = ["AnalysisScreen", "analysis_lines"]


def analysis_lines(analysis: RoundAnalysis) -> list[Text]:
    """What the dialog shows: a line per costly card, then each seat's total."""
    if analysis.note:
        return [Text(analysis.note[:1].upper() + analysis.note[1:] + ".")]
    lines = [
        Text(
            _(
                "From trick {n} on, with all cards visible, each card played was "
                "compared with the best one."
            ).format(n=analysis.from_trick),
            style="italic",
        )
    ]
    costly = analysis.costly_moves()
    if not costly:
        lines.append(Text(_("Every card was a best card: nothing was given away.")))
    for move in costly:
        best = card_list(move.best)
        who = SEAT_NAMES[move.seat]
        # only what was lost: a card may cost written points and no card points, or the
        # reverse, and "−0" says nothing (issue #35)
        costs: list[Text] = []
        if move.lost_points:
            points = ngettext("−{points} card point", "−{points} card points", move.lost_points)
            costs.append(Text(points.format(points=move.lost_points), style="bold red"))
        if move.lost_written:
            costs.append(Text(_("−{points} written").format(points=move.lost_written)))
        lines.append(
            Text.assemble(
                (_("Trick {n}: ").format(n=move.trick), "bold"),
                _("{name}: {card}, the best was {best}: ").format(
                    name=who, card=card_text(move.played), best=best
                ),
                Text(", ").join(costs),
            )
        )
    totals = analysis.lost_by_seat()
    lines.append(Text(""))
    lines.append(
        Text(
            _("Given away (card points / written): ")
            + " · ".join(f"{SEAT_NAMES[s]} {c}/{w}" for s, (c, w) in enumerate(totals))
        )
    )
    if analysis.skipped:
        count = len(analysis.skipped)
        lines.append(
            Text(
                ngettext(
                    "{n} card was too costly to solve and skipped.",
                    "{n} cards were too costly to solve and skipped.",
                    count,
                ).format(n=count)
            )
        )
    return lines


class AnalysisScreen(ModalScreen[None]):
    """The round's post-mortem; Escape or Enter goes back to the summary."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,a", "close", N_("Back"))]

    def __init__(
        self,
        index: int,
        played: Round,
        players: Sequence[str] | None = None,
        me: int | None = None,
    ) -> None:
        """Round ``index`` (0-based), ``played`` to its end; ``players`` and ``me`` name the
        seats of a network table (``bela.wording.at_table``), "You" for seat ``me``."""
        super().__init__()
        self.index = index
        self.played = played
        self.players = players
        self.me = me
        self.analysis: RoundAnalysis | None = None

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="analysis", classes="dialog"):
            yield Static(Text(_("Round {n}: analysis").format(n=self.index + 1), style="bold"))
            with VerticalScroll(id="analysis-body"):
                yield Static(_("Solving the round with all cards visible…"), id="analysis-text")
            yield Button(_("Back (Esc)"), id="analysis-back", variant="primary")

    def on_mount(self) -> None:
        self._analyse()

    @work(thread=True, exclusive=True, group="analysis")
    def _analyse(self) -> None:
        analysis = analyze_round(self.played)
        self.app.call_from_thread(self._show, analysis)

    def _show(self, analysis: RoundAnalysis) -> None:
        self.analysis = analysis
        with at_table(self.players, self.me):  # a network table's names, as text
            lines = analysis_lines(analysis)
        self.query_one("#analysis-text", Static).update(Text("\n").join(lines))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "analysis")
