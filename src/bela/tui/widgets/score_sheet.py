"""The "mi / vi" score sheet: a row per round, running totals, the target.

Pad and štiglja are written in a note column beside the round's row. When the
rows do not fit, the most recent ones are shown (the totals always are). The
house rules that differ from the standard game are named under the header,
since they change what the numbers mean (issue #13).
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from bela.engine.rules import QUICK_DEALS
from bela.i18n import _
from bela.table_text import TEAM_NAMES
from bela.tui.model import SheetModel

__all__ = ["ScoreSheet", "sheet_text"]


def sheet_text(model: SheetModel, max_rows: int | None = None, rules: str = "") -> Text:
    """The sheet as text; ``max_rows`` keeps only the latest rounds; ``rules`` names the
    house rules (empty for the standard game)."""
    head = f"{'#':>2} {TEAM_NAMES[0]:>4} {TEAM_NAMES[1]:>4} " + _("note")
    lines: list[Text] = [Text(head, style="bold underline")]
    if rules:
        lines.append(Text(rules, style="italic"))
    rows = model.rows
    hidden = 0
    if max_rows is not None and len(rows) > max_rows:
        keep = max(max_rows - 1, 0)
        hidden = len(rows) - keep
        rows = rows[len(rows) - keep :] if keep else ()
    if hidden:
        lines.append(Text(_("  … {n} earlier (b: all)").format(n=hidden), style="italic"))
    for row in rows:
        note_style = "bold" if row.note else ""
        lines.append(
            Text.assemble(f"{row.number:>2} {row.mi:>4} {row.vi:>4} ", (row.note, note_style))
        )
    if not model.rows:
        lines.append(Text(_("  no rounds yet"), style="italic"))
    lines.append(Text("─" * 12))
    lines.append(Text(f"{'Σ':>2} {model.totals[0]:>4} {model.totals[1]:>4}", style="bold"))
    if model.deal:  # brza 163: three deals, not a race to 163
        target = _("  deal {n} of {total}").format(n=model.deal, total=QUICK_DEALS)
    else:
        target = _("  to {target}").format(target=model.target)
    if model.hanging:
        target += _(" · {points} hanging").format(points=model.hanging)
    lines.append(Text(target, style="italic"))
    text = Text("\n").join(lines)
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


class ScoreSheet(Widget):
    """Draws a ``SheetModel``, fitted to its height."""

    model: reactive[SheetModel] = reactive(SheetModel)
    rules: reactive[str] = reactive("")
    """The match's house rules by name (``bela.settings.rules_summary``), or empty."""

    def render(self) -> Text:
        fixed = 5 if self.rules else 4  # header, the rules, rule, totals, target
        room = max(self.content_size.height - fixed, 1)
        rules, width = self.rules, max(self.content_size.width, 1)
        if len(rules) > width:  # one line, cut: a wrapped one would push the totals off
            rules = rules[: width - 1] + "…"
        return sheet_text(self.model, room, rules)
