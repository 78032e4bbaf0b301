"""The end of a round: both teams' points line by line, and what that means in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from bela.engine import LAST_TRICK_BONUS, Match, Round, RoundRecord, Rules
from bela.i18n import N_, _
from bela.keys import bind_letters, letter
from bela.table_text import SEAT_NAMES, TEAM_NAMES, explain_round
from bela.tui.screens.fresh import FreshModal
from bela.tui.standing import deals_played, standing_after
from bela.tui.widgets import TooSmall
from bela.wording import is_pod_mus, is_you, ours, padded, suit_called, suit_symbol

__all__ = ["RoundSummaryScreen", "summary_rows", "summary_title"]


def summary_title(
    record: RoundRecord, names: Sequence[str] | None = None, rules: Rules | None = None
) -> str:
    """``names``: the seats' names at a network table (seat 0 is the player's). ``rules``,
    the match's, say whether the dealer called pod mus (everybody else said dalje)."""
    result = record.result
    n = record.index + 1
    if result.redeal:
        return _("Round {n}: everybody passed").format(n=n)
    if result.caller is None or result.trump is None:
        return _("Round {n}").format(n=n)
    values = {"n": n, "symbol": suit_symbol(result.trump), "suit": suit_called(result.trump)}
    forced = rules is not None and is_pod_mus(record, rules)
    if is_you(result.caller):
        if forced:
            return _("Round {n}: pod mus, you called {symbol} {suit}").format(**values)
        return _("Round {n}: you called {symbol} {suit}").format(**values)
    name = SEAT_NAMES[result.caller] if names is None else names[result.caller]
    if forced:
        return _("Round {n}: pod mus, {name} called {symbol} {suit}").format(name=name, **values)
    return _("Round {n}: {name} called {symbol} {suit}").format(name=name, **values)


def summary_rows(record: RoundRecord, last_trick_team: int | None) -> list[tuple[str, int, int]]:
    """(label, mi, vi) lines from card points to what each team writes."""
    r = record.result
    rows: list[tuple[str, int, int]] = []
    if r.belot is not None or r.redeal:
        return [(_("Written"), record.written[0], record.written[1])]
    label = _("Card points")
    if last_trick_team is not None:
        if ours(last_trick_team):
            label = _("Card points (last trick +{bonus} to us)").format(bonus=LAST_TRICK_BONUS)
        else:
            label = _("Card points (last trick +{bonus} to them)").format(bonus=LAST_TRICK_BONUS)
    rows.append((label, r.card_points[0], r.card_points[1]))
    rows.append((_("Zvanja"), r.zvanja[0], r.zvanja[1]))
    rows.append((_("Bela"), r.bela[0], r.bela[1]))
    if r.stiglja is not None:
        extra = tuple(r.totals[t] - (r.card_points[t] + r.zvanja[t] + r.bela[t]) for t in (0, 1))
        rows.append((_("Štiglja (+90, takes the other's zvanja)"), extra[0], extra[1]))
    rows.append((_("Total"), r.totals[0], r.totals[1]))
    written = _("Written (pad)") if r.fell else _("Written")
    rows.append((written, record.written[0], record.written[1]))
    return rows


class RoundSummaryScreen(FreshModal[None]):
    """Shown after every round; any of Enter, Space or Escape carries on.

    Keys pressed before it appeared (a quick second Enter on the last card) do not close it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", N_("Continue")),
    ]

    def __init__(
        self,
        record: RoundRecord,
        standing: tuple[tuple[int, int], int],
        last_trick_team: int | None,
        *,
        match: Match | None = None,
        names: Sequence[str] | None = None,
        played: Round | None = None,
        seats: tuple[Sequence[str], int] | None = None,
        deal: int | None = None,
        level: str | None = None,
    ) -> None:
        """``standing``: the scores after the round and the target; ``last_trick_team``
        took the last of eight tricks (None if fewer were played). ``match``, when the
        table holds it, offers the analysis; ``names`` are a network table's seats (seen
        from seat 0: the record is turned so the player's team is "mi"). A network seat, which
        never holds the deal, offers the analysis with ``played`` (the round replayed from
        its eight public tricks) and ``seats`` (the players by seat, and the player's own).
        ``deal``: the deal's number as a brza 163 counts them (void deals left out;
        the round's number when None). ``level``, the match's bots, offers the same deal
        with a bot in the player's seat."""
        super().__init__()
        self.level = level
        self.played = played
        self.seats = seats
        self.record = record
        self.standing = standing
        self.last_trick_team = last_trick_team
        self.match = match
        self.names = names
        self.deal = deal if deal is not None else record.index + 1

    @classmethod
    def of_match(
        cls, match: Match, record: RoundRecord, level: str | None = None
    ) -> RoundSummaryScreen:
        """The summary of a round of ``match`` (the local table, which holds the deal);
        ``level``: the bots the match is played with."""
        tricks = match.deal(record.index).replay(record.actions).tricks
        last_team = tricks[-1].winner % 2 if len(tricks) == 8 else None
        deal = deals_played(r for r in match.rounds if r.index <= record.index)
        return cls(
            record, (match.scores, match.target), last_team, match=match, deal=deal, level=level
        )

    def on_mount(self) -> None:
        bind_letters(self, ("analysis", "bot_seat", "review"))

    def compose(self) -> ComposeResult:
        record = self.record
        rows = summary_rows(record, self.last_trick_team)
        width = max(cell_len(label) for label, _mi, _vi in rows) + 2
        head = padded(_("points"), width) + f"{TEAM_NAMES[0]:>6}{TEAM_NAMES[1]:>6}"
        lines = [Text(head, style="bold underline")]
        for i, (label, mi, vi) in enumerate(rows):
            style = "bold" if i >= len(rows) - 2 else ""
            lines.append(Text(f"{padded(label, width)}{mi:>6}{vi:>6}", style=style))
        table = Text("\n").join(lines)
        scores, target = self.standing
        standing = standing_after(scores, target, self.deal)
        yield TooSmall()
        with Vertical(id="summary", classes="dialog"):
            rules = None if self.match is None else self.match.rules
            title = summary_title(record, self.names, rules)
            yield Static(Text(title, style="bold"), classes="title")
            yield Static(table, id="summary-table")
            explained = explain_round(record.result, record.written, self.names)
            yield Static(Text(explained), id="explain")  # names are plain text, never markup
            yield Static(standing, id="standing")
            with Horizontal(id="summary-buttons"):
                yield Button(_("Continue (Enter)"), id="continue", variant="primary")
                if self._analysable():
                    yield Button(_("Analysis (a)"), id="analyse")
                if self._retakable():
                    yield Button(_("Bot in my seat (m)"), id="bot-seat")
            if self._reviewable():  # a row of its own: the one above is full at 80 columns
                label = _("Review of your cards ({key})").format(key=letter("review"))
                yield Button(label, id="review", compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The analysis and bot keys are offered only where the round allows them."""
        if action == "analyse":
            return self._analysable()
        if action == "bot_seat":
            return self._retakable()
        if action == "review":
            return self._reviewable()
        return True

    def _reviewable(self) -> bool:
        """The local table holds the deal: the hard bot can judge the player's cards from
        what the seat knew (a round without cards, void or belot, has nothing to review)."""
        result = self.record.result
        return self.match is not None and result.belot is None and not result.redeal

    def _retakable(self) -> bool:
        """The local table holds the deal and its bots: the round can be dealt again."""
        return self.match is not None and self.level is not None

    def _analysable(self) -> bool:
        """Only a table that holds the deal can replay the round against the best play."""
        result = self.record.result
        held = self.match is not None or self.played is not None
        return held and result.belot is None and not result.redeal

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "analyse":
            self.action_analyse()
            return
        if event.button.id == "bot-seat":
            self.action_bot_seat()
            return
        if event.button.id == "review":
            self.action_review()
            return
        self.dismiss(None)

    def action_analyse(self) -> None:
        """Open the post-mortem: every card from trick 3 on against the double-dummy best."""
        from bela.tui.screens.analysis import AnalysisScreen

        if not self._analysable():
            return
        index = self.record.index
        if self.played is not None:
            players, me = self.seats if self.seats is not None else (None, None)
            self.app.push_screen(AnalysisScreen(index, self.played, players, me))
        elif self.match is not None:
            played = self.match.deal(index).replay(self.record.actions)
            self.app.push_screen(AnalysisScreen(index, played))

    def action_bot_seat(self) -> None:
        """Open the same deal with the hard bot playing the player's cards, side by side."""
        from bela.tui.screens.bot_seat import BotSeatScreen

        if self.match is None or self.level is None:
            return
        self.app.push_screen(BotSeatScreen(self.match, self.record.index, self.level))

    def action_review(self) -> None:
        """Open the review of the round: each card of the player's against the hard bot."""
        from bela.tui.screens.review import ReviewScreen

        if self.match is None or not self._reviewable():
            return
        self.app.push_screen(ReviewScreen(self.match, self.record.index))

    def action_close(self) -> None:
        self.dismiss(None)
