"""A round's review in words, for ``bela review`` and the app's review screen.

Built below both (``bela.lab.card_review`` computes it): each card's label in the
player's language, the round's accuracy, the key moment, and the "board" of every
card the player could have played there with what it would have written on average.
One message per sentence through gettext; numbers and cards only are filled in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bela.i18n import _, ngettext

if TYPE_CHECKING:
    from rich.console import RenderableType

    from bela.lab.card_review import CardJudgement, RoundReview

__all__ = [
    "LABEL_STYLES",
    "accuracy_text",
    "board_lines",
    "card_words",
    "key_moment_text",
    "label_name",
    "match_accuracy_text",
    "match_progress_text",
    "own_puzzles_text",
    "render_review",
    "role_of",
    "signed",
]

LABEL_STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
    "only": "dim",
    "unjudged": "dim",
}
"""How each label is coloured (the words carry the meaning; colour only helps)."""


def label_name(label: str) -> str:
    """A card's label (``bela.lab.card_review.LABELS``, or ``only``) in the player's words."""
    names = {
        "best": _("best"),
        "good": _("good"),
        "inaccuracy": _("inaccuracy"),
        "mistake": _("mistake"),
        "blunder": _("blunder"),
        "only": _("only card"),
        "unjudged": _("not judged"),
    }
    return names.get(label, label)


def card_words(text: str) -> str:
    """A card as the engine writes it ("10H") as the table shows it ("10♥")."""
    from bela.engine import Card
    from bela.wording import card_text

    return card_text(Card.parse(text))


def signed(value: float) -> str:
    """A written-points average with its sign: ``+12.5``, ``−3.0`` (a true minus sign)."""
    return f"{value:+.1f}".replace("-", "−")


def role_of(order: int) -> str:
    return (_("led"), _("second hand"), _("third hand"), _("fourth hand"))[order]


def key_moment_text(review: RoundReview) -> str:
    """The round's key moment (its costliest card) in one sentence, or that there was none."""
    key = review.key_moment
    if key is None:
        return _("No card of yours gave points away against the hard bot in this round.")
    assert key.hard is not None
    return ngettext(
        "Key moment: trick {trick}, you played {played}; the hard bot plays {hard} from your "
        "cards, {loss} written points more on average over {n} guessed deal.",
        "Key moment: trick {trick}, you played {played}; the hard bot plays {hard} from your "
        "cards, {loss} written points more on average over {n} guessed deals.",
        key.samples,
    ).format(
        trick=key.trick,
        played=card_words(key.played),
        hard=card_words(key.hard),
        loss=f"{key.loss:.1f}",
        n=key.samples,
    )


def board_lines(card: CardJudgement) -> list[tuple[str, str, str, str]]:
    """Every card the player could play at ``card``'s moment, best first: (the card as the
    engine writes it, as the table shows it, what the round would write on average, ours
    minus theirs, and a note: yours / the hard bot's)."""
    rows = []
    for text, value in sorted(card.values.items(), key=lambda kv: (-kv[1], kv[0])):
        notes = []
        if text == card.played:
            notes.append(_("yours"))
        if text == card.hard:
            notes.append(_("the hard bot's"))
        rows.append((text, card_words(text), signed(value), ", ".join(notes)))
    return rows


def own_puzzles_text(count: int) -> str:
    """That ``count`` moments of the player's became puzzles, and where to find them."""
    return ngettext(
        "{n} costly moment of yours became a puzzle: bela puzzles --theme yours "
        '(in the app: F6, then the theme "from your games").',
        "{n} costly moments of yours became puzzles: bela puzzles --theme yours "
        '(in the app: F6, then the theme "from your games").',
        count,
    ).format(n=count)


def accuracy_text(accuracy: float | None) -> str:
    return "–" if accuracy is None else f"{accuracy:.0f}%"


def match_accuracy_text(accuracy: float | None, rounds: int, finished: bool) -> str:
    """The match's accuracy over its ``rounds`` reviewed rounds, as ``bela review`` prints it
    at its end: over the whole match when it is ``finished``, else over the match so far
    (the app's round summary, or an unfinished match of the history)."""
    if finished:
        words = ngettext(
            "Accuracy over the match: {accuracy} ({n} round reviewed)",
            "Accuracy over the match: {accuracy} ({n} rounds reviewed)",
            rounds,
        )
    else:
        words = ngettext(
            "Accuracy over the match so far: {accuracy} ({n} round reviewed)",
            "Accuracy over the match so far: {accuracy} ({n} rounds reviewed)",
            rounds,
        )
    return words.format(accuracy=accuracy_text(accuracy), n=rounds)


def match_progress_text(done: int, total: int) -> str:
    """While the match's other rounds are reviewed: how far the hard bot has come."""
    return _("Accuracy over the match: the hard bot weighs round {n} of {total}…").format(
        n=done + 1, total=total
    )


def render_review(
    reviews: Sequence[RoundReview], match_accuracy: float | None, finished: bool | None
) -> RenderableType:
    """Each round's cards with their labels, its accuracy and key moment with its board,
    and the match's accuracy (``match_accuracy_text``: over the whole match when it is
    ``finished``, so far when not); ``finished`` None when ``reviews`` are not the whole
    match (one round was asked for): no line for the match then, as one round is not it.
    Plain ``Text`` throughout: nothing is markup."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[RenderableType] = []
    for review in reviews:
        head = _("Round {n}: accuracy {accuracy}").format(
            n=review.index + 1, accuracy=accuracy_text(review.accuracy)
        )
        parts.append(Text(head, style="bold"))
        table = Table(box=None, pad_edge=False)
        table.add_column(_("trick"), justify="right")
        table.add_column(_("place"))
        table.add_column(_("yours"))
        table.add_column(_("label"))
        table.add_column(_("loss"), justify="right")
        table.add_column(_("the hard bot's"))
        for card in review.cards:
            table.add_row(
                str(card.trick),
                role_of(card.order),
                card_words(card.played),
                Text(label_name(card.label), style=LABEL_STYLES.get(card.label, "")),
                f"{card.loss:.1f}" if card.judged else "",
                "" if card.hard is None or not card.judged else card_words(card.hard),
            )
        parts.append(table)
        parts.append(Text(key_moment_text(review)))
        key = review.key_moment
        if key is not None:
            parts.append(Text(_("What each card would have written there, on the same deals:")))
            for _text, words, value, note in board_lines(key):
                line = Text(f"  {words:>4} {value:>7}")
                if note:
                    line.append(f"  {note}")
                parts.append(line)
        parts.append(Text(""))
    if finished is not None:
        words = match_accuracy_text(match_accuracy, len(reviews), finished)
        parts.append(Text(words, style="bold"))
    return Group(*parts)
