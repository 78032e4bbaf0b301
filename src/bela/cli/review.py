"""``bela review RECORD``: every card of yours in a match, labelled as a chess game review does.

Each card is judged against the hard bot's evaluation from your own information
(``bela.lab.card_review``: the seat's view at that moment, the hidden cards guessed);
the words are ``bela.lab.review_text``'s, which the app's review screen shows too.
The hard bot thinks about a second a card, so a progress bar counts the cards on
standard error while it works.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bela.cli.common import CliError, output_console, writing_output
from bela.foundation.untrusted import json_for_terminal
from bela.i18n import _
from bela.lab.review_text import own_puzzles_text

if TYPE_CHECKING:
    from bela.engine import Match
    from bela.lab.card_review import RoundReview

__all__ = ["ReviewOptions", "add_review_parser", "review_options", "run_review"]


@dataclass(frozen=True, slots=True)
class ReviewOptions:
    """``bela review``: ``file``'s rounds (only round ``round``, counted from 1, if given)."""

    file: Path
    round: int | None
    json: bool


def _round_number(text: str) -> int:
    from bela.cli.options import whole_number
    from bela.foundation.untrusted import shown

    number = whole_number(text)
    if number is None or not 1 <= number <= 10_000:
        raise argparse.ArgumentTypeError(
            _("expected a whole number of at least {least} and at most {most}, not {text}").format(
                least=1, most="10,000", text=shown(text)
            )
        )
    return number


def add_review_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``review`` to argparse's subparsers ``commands``."""
    from bela.cli.options import COMMANDS

    review: argparse.ArgumentParser = commands.add_parser(
        "review",
        help=_(COMMANDS["review"]),
        description=_(
            "Review a played match as a chess game review does: every card you played is "
            "labelled best, good, inaccuracy, mistake or blunder by what it gave away on "
            "average against the hard bot's evaluation from your own information (not from "
            "all cards seen), with each round's accuracy, its key moment and what each card "
            "you could play there would have written. About a second of CPU a card."
        ),
        epilog=_("examples: bela review match.json | bela review match.json --round 2 --json"),
        allow_abbrev=False,
    )
    review.add_argument("file", type=Path, metavar="RECORD", help=_("a match record"))
    review.add_argument(
        "--round",
        type=_round_number,
        metavar="N",
        help=_("only round N (counted from 1)"),
    )
    review.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    return review


def review_options(args: argparse.Namespace) -> ReviewOptions:
    return ReviewOptions(file=args.file, round=args.round, json=args.json)


def run_review(options: ReviewOptions, out: TextIO, err: TextIO) -> int:
    from bela.cli.replay import read_record_file
    from bela.lab.card_review import match_accuracy, review_json, review_round, reviewable_rounds
    from bela.lab.progress import ProgressBar
    from bela.lab.review_text import render_review

    match, record = read_record_file(options.file)
    seat = 0 if record.me is None else record.me
    indexes = reviewable_rounds(match)
    if options.round is not None:
        wanted = options.round - 1
        if wanted not in indexes:
            raise CliError(
                _("round {n} has no cards to review (the match has {count} rounds)").format(
                    n=options.round, count=len(match.rounds)
                )
            )
        indexes = [wanted]
    if not indexes:
        raise CliError(_("the match has no played round to review"))
    reviews = []
    with ProgressBar(err.isatty(), 8 * len(indexes), _("Reviewing your cards")) as bar:
        for number, index in enumerate(indexes):

            def progress(done: int, total: int, number: int = number) -> None:
                bar(number * total + done, len(indexes) * total)

            reviews.append(review_round(match, index, seat, progress))
    accuracy = match_accuracy(reviews)
    kept = _own_puzzles(match, reviews, err)
    whole = options.round is None  # one round asked for is not the match
    if options.json:
        data = {
            "seat": seat,
            "accuracy": None if accuracy is None else round(accuracy, 1),
            "match": {
                "accuracy": None if accuracy is None else round(accuracy, 1),
                "rounds": len(reviews),
                "finished": match.is_over,
            }
            if whole
            else None,
            "rounds": [review_json(r) for r in reviews],
            "new_puzzles": kept,
        }
        with writing_output():
            print(json_for_terminal(json.dumps(data, ensure_ascii=False, indent=2)), file=out)
        return 0
    with writing_output():
        output_console(out).print(
            render_review(reviews, accuracy, match.is_over if whole else None)
        )
        if kept:
            print(own_puzzles_text(kept), file=out)
    return 0


def _own_puzzles(match: Match, reviews: list[RoundReview], err: TextIO) -> int:
    """Judge the reviews' costly moments as puzzles and keep the clear ones in the player's
    own queue (``bela.lab.own_puzzles``); how many were new. A queue that cannot be
    written is said in one line on ``err``, and the review is printed all the same."""
    from bela.archive.own_puzzles import keep_own_puzzles
    from bela.archive.storage import data_dir
    from bela.foundation.untrusted import oneline
    from bela.lab.own_puzzles import puzzles_of_review
    from bela.lab.progress import ProgressBar

    lines = []
    label = _("Judging your costly moments as puzzles")
    with ProgressBar(err.isatty(), len(reviews), label) as bar:
        for number, review in enumerate(reviews):

            def progress(done: int, total: int, number: int = number) -> None:
                bar(number * total + done, len(reviews) * total)

            lines += puzzles_of_review(match, review, progress=progress)
    if not lines:
        return 0
    try:
        return keep_own_puzzles(data_dir(), lines)
    except OSError as exc:
        message = _("bela: your puzzles were not kept: {error}").format(error=oneline(exc))
        print(message, file=err)
        return 0
