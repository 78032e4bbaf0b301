"""The zvanja on the cloth: what was said, and the winning team's cards laid face up.

``talk_text`` is the exchange, one line a turn; ``laid_text`` the declarations
that count, as card boxes (for the zvanja moment) or one-line chips (for the
panel beside the table during the first trick). Both draw a ``ZvanjaTalk``,
which holds only what the rules make public: the losing side's cards are not in
it, so no widget can show them.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from bela.engine import Card, Zvanje
from bela.i18n import _
from bela.table_text import TEAM_NAMES
from bela.tui.widgets.cards import Look, card_chip, card_lines
from bela.tui.zvanja_talk import ZvanjaTalk
from bela.wording import ours, padded

__all__ = ["ZvanjaPanel", "laid_heading", "laid_text", "talk_text"]


def talk_text(talk: ZvanjaTalk) -> Text:
    """The exchange, one line per thing said; a silent player's line is dimmed."""
    lines = [Text(said.line(talk.names), style="dim" if said.silent else "") for said in talk.said]
    return Text("\n").join(lines)


def laid_heading(talk: ZvanjaTalk) -> str:
    """``mi score 70 in zvanja`` (or nobody declares)."""
    if talk.team is None:
        return _("Nobody has anything to declare.")
    if ours(talk.team):
        return _("Our zvanja count: {points}").format(points=talk.points)
    return _("Their zvanja count: {points}").format(points=talk.points)


def _points(zvanja: tuple[Zvanje, ...]) -> str:
    return " + ".join(str(z.points) for z in zvanja)


def _boxes(zvanja: tuple[Zvanje, ...]) -> list[Text]:
    """Three lines of card boxes, one declaration after another with a gap between."""
    rows = [Text(), Text(), Text()]
    for n, zvanje in enumerate(zvanja):
        for card in zvanje.cards:
            for row, line in zip(rows, card_lines(Card(card), Look.FACE), strict=True):
                row.append_text(line)
        if n < len(zvanja) - 1:
            for row in rows:
                row.append("  ")
    return rows


def laid_text(talk: ZvanjaTalk, *, compact: bool) -> Text:
    """The winning team's declarations by seat, with their points.

    ``compact``: cards as one-line chips under each name (a narrow panel);
    otherwise as card boxes beside the name.
    """
    lines: list[Text] = []
    for seat, zvanja in talk.laid:
        name = talk.name(seat)
        if compact:
            lines.append(Text.assemble((name, "bold"), f" {_points(zvanja)}"))
            for zvanje in zvanja:
                chips = Text(" ").join(card_chip(Card(c)) for c in zvanje.cards)
                lines.append(Text(" ") + chips)
            continue
        rows = _boxes(zvanja)
        label = padded(name, 7)
        lines.append(Text(" " * cell_len(label)) + rows[0])
        lines.append(Text(label, style="bold") + rows[1] + Text(f"  {_points(zvanja)}"))
        lines.append(Text(" " * cell_len(label)) + rows[2])
    return Text("\n").join(lines)


class ZvanjaPanel(Static):
    """Beside the table during the first trick: the declarations that count, face up.

    Hidden whenever ``talk`` is None (any other trick, or nobody declared).
    """

    DEFAULT_CSS = """
    ZvanjaPanel {
        height: auto;
        max-height: 9;
        border: round $accent;
        border-title-color: $accent;
        padding: 0;
    }
    """

    talk: reactive[ZvanjaTalk | None] = reactive(None)

    def watch_talk(self, talk: ZvanjaTalk | None) -> None:
        self.display = talk is not None and talk.anyone
        if talk is None or not talk.anyone:
            self.update("")
            return
        self.border_title = f"Zvanja · {TEAM_NAMES[talk.team or 0]} {talk.points}"
        self.update(laid_text(talk, compact=True))
