"""A round's review, as a chess game review: every card of the player's labelled, with a board.

The round summary (``v``) and the history's step-through open it. The hard bot judges
each card from the player's own information (``bela.lab.card_review``), about a second
a card, in a thread worker with a progress bar, so the screen opens at once. Then the
player's cards are listed with their labels and the round's accuracy; the key moment
(the costliest card) is highlighted first. Beside it is the board of that moment: every
card the player could play there, and choosing one says what it would have written on
average on the same guessed deals, against the player's own card and the hard bot's.

Then the match's other rounds are reviewed in the same worker, and the line under the
round's accuracy gives the match's, as ``bela review`` prints it: over the whole match from
the history, over the match so far from a round's summary. Each round's review is kept
for the rest of the session (``reviewed_round``), so the next round's summary judges only
its own round.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from bela.engine import Match
from bela.i18n import N_, _, ngettext
from bela.lab.card_review import CardJudgement, RoundReview, reviewed_round
from bela.tui.widgets import TooSmall

__all__ = ["ReviewScreen"]


class ReviewScreen(ModalScreen[None]):
    """The review of round ``index`` of ``match`` for the player in ``seat``."""

    DEFAULT_CSS = """
    ReviewScreen #review-dialog { width: 78; height: 22; }
    ReviewScreen #review-panes { height: 1fr; }
    ReviewScreen #review-cards { width: 34; height: 1fr; padding: 0; }
    ReviewScreen #review-side { width: 1fr; height: 1fr; padding: 0 0 0 1; }
    ReviewScreen #review-board { height: auto; max-height: 9; padding: 0; }
    ReviewScreen #review-try { height: auto; }
    ReviewScreen #review-key { height: auto; }
    ReviewScreen #review-match { height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", N_("Back"))]

    def __init__(self, match: Match, index: int, seat: int = 0) -> None:
        super().__init__()
        self.match = match
        self.index = index
        self.seat = seat
        self.review: RoundReview | None = None
        self.card: CardJudgement | None = None
        """The card whose board is shown."""
        self.tried: str | None = None
        """The card chosen on the board (as the engine writes it)."""
        self.kept: int | str | None = None
        """How many of the round's moments became new puzzles (or why none was kept)."""
        self.match_reviews: list[RoundReview] | None = None
        """Every reviewable round of the match (this one included), once all are reviewed."""

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="review-dialog", classes="dialog"):
            title = _("Round {n}: review of your cards").format(n=self.index + 1)
            yield Static(Text(title, style="bold"), id="review-title")
            yield Static(_("The hard bot weighs each of your cards…"), id="review-status")
            yield ProgressBar(id="review-progress", show_eta=False)
            yield Static("", id="review-match")
            with Horizontal(id="review-panes"):
                yield OptionList(id="review-cards")
                with Vertical(id="review-side"):
                    yield Static("", id="review-moment")
                    yield OptionList(id="review-board")
                    yield Static("", id="review-try")
            yield Static("", id="review-key")
            yield Button(_("Back (Esc)"), id="review-back", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#review-panes").display = False
        self._review()

    @work(thread=True, exclusive=True, group="review")
    def _review(self) -> None:
        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        try:
            review = reviewed_round(self.match, self.index, self.seat, progress)
        except Exception as exc:  # any failure is said, and the app goes on
            from bela.foundation.untrusted import oneline

            message = oneline(_("the review failed: {error}").format(error=exc))
            self.app.call_from_thread(self._failed, message)
            return
        self.app.call_from_thread(self._show, review)
        if not self._review_match(review):
            return
        kept = self._own_puzzles(review)
        self.app.call_from_thread(self._kept, kept)

    def _review_match(self, review: RoundReview) -> bool:
        """Review the match's other rounds and say the match's accuracy (False when the
        screen closed meanwhile: the worker stops)."""
        from textual.worker import get_current_worker

        from bela.foundation.untrusted import oneline
        from bela.lab.card_review import match_accuracy, reviewable_rounds
        from bela.lab.review_text import match_accuracy_text, match_progress_text

        worker = get_current_worker()
        indexes = reviewable_rounds(self.match)
        reviews = []
        for done, index in enumerate(indexes):
            if worker.is_cancelled:
                return False
            if index == self.index:
                reviews.append(review)
                continue
            self.app.call_from_thread(self._match_line, match_progress_text(done, len(indexes)))
            try:
                reviews.append(reviewed_round(self.match, index, self.seat))
            except Exception as exc:  # said on the line; the round's review stays
                message = oneline(_("the review failed: {error}").format(error=exc))
                self.app.call_from_thread(self._match_line, message)
                return True
        if worker.is_cancelled:
            return False
        accuracy = match_accuracy(reviews)
        text = match_accuracy_text(accuracy, len(reviews), self.match.is_over)
        self.match_reviews = reviews
        self.app.call_from_thread(self._match_line, text)
        return True

    def _match_line(self, text: str) -> None:
        from textual.css.query import NoMatches

        try:
            self.query_one("#review-match", Static).update(Text(text, style="bold"))
        except NoMatches:  # pragma: no cover - the screen closed meanwhile
            return

    def _own_puzzles(self, review: RoundReview) -> int | str:
        """The round's costly moments judged as puzzles and kept in the player's own queue
        (``bela.lab.own_puzzles``): how many were new, or why none could be kept."""
        from bela.archive.own_puzzles import keep_own_puzzles
        from bela.archive.storage import data_dir
        from bela.foundation.untrusted import oneline
        from bela.lab.own_puzzles import puzzles_of_review

        try:
            lines = puzzles_of_review(self.match, review)
            return keep_own_puzzles(data_dir(), lines) if lines else 0
        except OSError as exc:
            return oneline(_("your puzzles were not kept: {error}").format(error=exc))

    def _kept(self, kept: int | str) -> None:
        """Say what became of the round's costly moments (nothing when none was a puzzle)."""
        from textual.css.query import NoMatches

        self.kept = kept
        if kept == 0:
            return
        if isinstance(kept, str):
            text = kept
        else:
            text = ngettext(
                '{n} costly moment of yours became a puzzle: F6, then the theme "from your games".',
                '{n} costly moments of yours became puzzles: F6, then the theme "from your games".',
                kept,
            ).format(n=kept)
        try:
            key = self.query_one("#review-key", Static)
        except NoMatches:  # pragma: no cover - the screen closed meanwhile
            return
        key.update(Text(f"{key.content}\n{text}" if str(key.content) else text))

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#review-progress", ProgressBar).update(total=total, progress=done)

    def _failed(self, message: str) -> None:
        self.query_one("#review-status", Static).update(Text(message))
        self.query_one("#review-progress", ProgressBar).display = False

    def _show(self, review: RoundReview) -> None:
        from bela.lab.review_text import (
            LABEL_STYLES,
            accuracy_text,
            card_words,
            key_moment_text,
            label_name,
        )

        self.review = review
        self.query_one("#review-progress", ProgressBar).display = False
        status = _("Accuracy {accuracy}: each card against the hard bot, from your cards").format(
            accuracy=accuracy_text(review.accuracy)
        )
        self.query_one("#review-status", Static).update(Text(status, style="bold"))
        self.query_one("#review-key", Static).update(Text(key_moment_text(review)))
        cards = self.query_one("#review-cards", OptionList)
        for number, card in enumerate(review.cards):
            line = Text(f"{card.trick}. {card_words(card.played):>3}  ")
            line.append(label_name(card.label), style=LABEL_STYLES.get(card.label, ""))
            if card.judged and card.label != "best":
                line.append(f"  −{card.loss:.1f}")
            cards.add_option(Option(line, id=f"card-{number}"))
        self.query_one("#review-panes").display = True
        key = review.key_moment
        start = review.cards.index(key) if key is not None else 0
        if review.cards:
            cards.highlighted = start
            self.show_board(review.cards[start])
        cards.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.review is None or event.option_id is None:
            return
        if event.option_list.id == "review-cards":
            self.show_board(self.review.cards[int(event.option_id.removeprefix("card-"))])
        elif event.option_list.id == "review-board":
            self.try_card(event.option_id.removeprefix("try-"))

    def show_board(self, card: CardJudgement) -> None:
        """The moment of ``card``: the cards on the table, and every card the player could play."""
        from bela.lab.review_text import board_lines, card_words

        self.card = card
        rnd = self.match.deal(self.index)
        played = next(r for r in self.match.rounds if r.index == self.index)
        for action in played.actions[: card.step]:
            rnd.push(action)
        table = " ".join(card_words(str(c)) for c in rnd.trick)
        if table:
            moment = _("Trick {trick}, on the table: {cards}").format(trick=card.trick, cards=table)
        else:
            moment = _("Trick {trick}: you lead").format(trick=card.trick)
        self.query_one("#review-moment", Static).update(Text(moment))
        board = self.query_one("#review-board", OptionList)
        board.clear_options()
        try_text = self.query_one("#review-try", Static)
        if not card.judged:
            if card.label == "only":
                try_text.update(Text(_("Your only card here: nothing to choose.")))
            else:
                try_text.update(Text(_("The hard bot gave no values here: not judged.")))
            return
        for text, words, value, note in board_lines(card):
            line = Text(f"{words:>3} {value:>7}")
            if note:
                line.append(f"  {note}", style="dim")
            board.add_option(Option(line, id="try-" + text))
        self.try_card(card.played)

    def try_card(self, text: str) -> None:
        """Say what ``text`` (a card of the board) would have written there on average."""
        from bela.lab.review_text import card_words, signed

        card = self.card
        if card is None or text not in card.values:
            return
        self.tried = text
        assert card.hard is not None
        sentence = _(
            "With {card}: {value} written points on average, your pair's minus theirs. "
            "Yours, {played}: {mine}; the hard bot's, {hard}: {best}."
        ).format(
            card=card_words(text),
            value=signed(card.values[text]),
            played=card_words(card.played),
            mine=signed(card.values[card.played]),
            hard=card_words(card.hard),
            best=signed(card.values[card.hard]),
        )
        self.query_one("#review-try", Static).update(Text(sentence))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "review")
