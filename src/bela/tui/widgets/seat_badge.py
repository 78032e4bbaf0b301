"""A seat's badge: name, team, cards left, dealer, what it said, and whether it is to act.

The turn is shown by a ``▶`` before the name as well as by the border colour
(the ``-to-act`` class), so it reads without colour too.

A label is never cut without a mark: ``badge_lines`` lays the badge out in the
lines it has (name, then team and cards, then the notes; fewer lines merge the
first groups), wraps between the " · " parts, and when the text still does not
fit, the last line ends in "…". With ``height: auto`` the badge asks for as many
lines as it needs (``get_content_height``), up to its CSS ``max-height``.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from bela.i18n import _, ngettext
from bela.tui.model import SeatModel

__all__ = ["SeatBadge", "badge_lines"]

_INDENT = "  "
_SEP = " · "

Chunk = tuple[Text, str]
"""One unbreakable part of a label and the glue put before it when it shares a line."""


def _groups(model: SeatModel) -> list[list[Chunk]]:
    """The badge's parts in the groups that start a line when there is room: who, what, notes."""
    name: list[Chunk] = [(Text(model.name, style="bold"), "")]
    if model.dealer:
        name.append((Text(_("(dealer)"), style="italic"), " "))
    cards = ngettext("{n} card", "{n} cards", model.cards_left).format(n=model.cards_left)
    info: list[Chunk] = [(Text(model.team), ""), (Text(cards), _SEP)]
    groups = [name, info]
    notes = [part for part in model.note.split(_SEP) if part]
    if notes:
        groups.append(
            [(Text(part, style="bold"), "" if i == 0 else _SEP) for i, part in enumerate(notes)]
        )
    return groups


def _pack(groups: list[list[Chunk]], width: int) -> list[Text]:
    """Each group on a new line, its parts wrapped between parts; a part too wide is cut with …."""
    lines: list[Text] = []
    for group in groups:
        line: Text | None = None
        for chunk, glue in group:
            if chunk.cell_len > width:
                chunk = chunk.copy()
                chunk.truncate(max(width, 1), overflow="ellipsis")
            if line is not None and line.cell_len + len(glue) + chunk.cell_len <= width:
                line.append(glue)
                line.append_text(chunk)
                continue
            if line is not None:
                lines.append(line)
            line = chunk.copy()
        if line is not None:
            lines.append(line)
    return lines


def badge_lines(model: SeatModel, width: int, height: int | None = None) -> tuple[list[Text], bool]:
    """The badge in at most ``height`` lines of ``width`` cells; True if something did not fit.

    The first line starts with the turn marker (``▶``), the others are indented
    to match; a cut label ends in "…".
    """
    room = max(width - len(_INDENT), 1)
    groups = _groups(model)
    if height is not None:
        while len(groups) > max(height, 1):  # fewer lines: who and what share the first
            first, second, *rest = groups
            groups = [[*first, (second[0][0], _SEP), *second[1:]], *rest]
    lines = _pack(groups, room)
    cut = height is not None and len(lines) > height
    if cut and height is not None:
        lines = lines[: max(height, 1)]
        last = lines[-1]
        if last.cell_len + 2 <= room:
            last.append(" …")
        else:
            last.truncate(room - 1)
            last.append("…")
    marker = Text("▶ " if model.to_act else _INDENT, style="bold")
    return [(marker if i == 0 else Text(_INDENT)) + line for i, line in enumerate(lines)], cut


class SeatBadge(Widget):
    """Draws a ``SeatModel`` in the lines the badge has (see ``badge_lines``)."""

    model: reactive[SeatModel | None] = reactive(None, layout=True)

    def watch_model(self, model: SeatModel | None) -> None:
        self.set_class(model is not None and model.to_act, "-to-act")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The fewest lines that show the whole label (for ``height: auto``)."""
        model = self.model
        if model is None:
            return 1
        lines, _size = badge_lines(model, width)
        for height in range(1, len(lines)):
            if not badge_lines(model, width, height)[1]:
                return height
        return max(len(lines), 1)

    def render(self) -> Text:
        model = self.model
        if model is None:
            return Text()
        size = self.content_size
        lines, _size = badge_lines(model, size.width, max(size.height, 1))
        return Text("\n").join(lines)
