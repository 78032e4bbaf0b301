"""The app's log of a resumed match: the finished rounds as the table talk told them.

The talk itself (``action_lines``, ``result_line``, ...) is ``bela.table_talk``, shared with the
plain mode; only the headings' style is the app's.
"""

from __future__ import annotations

from rich.text import Text

from bela.engine import Match
from bela.i18n import _
from bela.table_talk import result_line, round_lines

__all__ = ["history_lines"]


def history_lines(match: Match) -> list[str | Text]:
    """The finished rounds of a match as the log told them: a heading, the talk, the result.

    Shown when a saved match is resumed, so the table talk goes back to its start.
    """
    lines: list[str | Text] = []
    scores = (0, 0)
    for record in match.rounds:
        lines.append(Text(_("— Round {n} —").format(n=record.index + 1), style="bold"))
        lines.extend(round_lines(match.deal(record.index), record.actions))
        scores = (scores[0] + record.written[0], scores[1] + record.written[1])
        lines.append(Text(result_line(record, scores), style="bold"))
    return lines
