"""``bela coach``: where your written points went, over your archived matches.

Each finished match is read once by the coach (``bela.lab.coach``: every card of
yours from trick 3 on against the best play with all cards seen, and against the
hard bot's card with only your view; your calls that fell, pod mus included; each
dalje, and each suit named pod mus, that the hard bot's bid search finds clearly
worth less than another choice) and the lesson is kept in the history database
(``bela.archive.coach_cache``), so the report over a hundred matches opens at once
the second time. The first reading shows a progress bar and spreads over ``--jobs``
worker processes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bela.cli.common import output_console, worker_jobs, writing_output
from bela.foundation.untrusted import json_for_terminal, oneline, shown
from bela.i18n import _, ngettext

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from bela.archive.history import History
    from bela.engine import Match
    from bela.lab.coach import CoachReport, Habit, Lesson

__all__ = [
    "CoachOptions",
    "add_coach_parser",
    "coach_options",
    "habit_name",
    "role_name",
    "run_coach",
    "sparkline",
]

DEFAULT_LAST = 100
MAX_LAST = 10_000


@dataclass(frozen=True, slots=True)
class CoachOptions:
    """``bela coach``: the last ``last`` finished matches; ``bot``: compare with the hard bot."""

    last: int
    bot: bool
    jobs: int | None
    json: bool


def _count(text: str) -> int:
    from bela.cli.options import whole_number

    number = whole_number(text)
    if number is None or not 1 <= number <= MAX_LAST:
        raise argparse.ArgumentTypeError(
            _("expected a whole number of at least {least} and at most {most}, not {text}").format(
                least=1, most=f"{MAX_LAST:,}", text=shown(text)
            )
        )
    return number


def add_coach_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``coach`` to argparse's subparsers ``commands``."""
    from bela.cli.options import COMMANDS

    coach: argparse.ArgumentParser = commands.add_parser(
        "coach",
        help=_(COMMANDS["coach"]),
        description=_(
            "Read your finished matches as a coach would: every card you played from trick 3 on "
            "against the best play with all cards seen, and against the hard bot's card with "
            "only your view; by your place in the trick, by trick, in bidding (called and fell, "
            "pod mus, dalje when calling was clearly worth more), over time, and your three "
            "costliest habits with an example each. Each match is read once and kept in the "
            "history database."
        ),
        epilog=_("examples: bela coach | bela coach --last 20 --no-bot --json"),
        allow_abbrev=False,
    )
    coach.add_argument(
        "--last",
        type=_count,
        metavar="N",
        default=DEFAULT_LAST,
        help=_("the last N finished matches (default {n})").format(n=DEFAULT_LAST),
    )
    coach.add_argument(
        "--no-bot",
        action="store_true",
        help=_(
            "leave out the hard bot's judging of your cards and bids (much faster the first time)"
        ),
    )
    coach.add_argument(
        "--jobs",
        type=_count,
        metavar="J",
        help=_("worker processes for the first reading (default: the usable CPUs)"),
    )
    coach.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    return coach


def coach_options(args: argparse.Namespace) -> CoachOptions:
    return CoachOptions(last=args.last, bot=not args.no_bot, jobs=args.jobs, json=args.json)


# ---------------------------------------------------------------------- running


def run_coach(options: CoachOptions, out: TextIO, err: TextIO) -> int:
    from bela.cli.history import _open

    with _open(err) as history:
        lessons = gather_lessons(history, options.last, options.bot, options.jobs, err)
        matches_dir = history.matches_dir
    if not lessons:
        # nothing to read yet is no error: a fresh install runs the README's line too
        with writing_output():
            print(_("the archive has no finished match yet: play one first"), file=out)
        return 0
    from bela.lab.coach import report

    result = report(lessons)
    if options.json:
        with writing_output():
            text = json.dumps(report_json(result, options.bot), ensure_ascii=False, indent=2)
            print(json_for_terminal(text), file=out)
        return 0
    with writing_output():
        output_console(out).print(render_report(result, options.bot, matches_dir))
    return 0


def gather_lessons(
    history: History,
    last: int,
    with_bot: bool,
    jobs: int | None,
    err: TextIO | None = None,
    progress: Any = None,
) -> list[tuple[str, Lesson]]:
    """The lessons of the last ``last`` finished matches, oldest first, reading the ones
    not stored yet (in ``jobs`` processes, with ``progress`` or a bar on ``err``)."""
    from bela.archive.coach_cache import load_lessons, store_lessons
    from bela.lab.coach import Lesson, lesson_task
    from bela.lab.progress import ProgressBar
    from bela.lab.runner import map_tasks

    rounds = _finished_files(history, last)
    files = list(rounds)
    stored = load_lessons(history.connection, files, with_bot)
    lessons: dict[str, Lesson] = {}
    for file, data in stored.items():
        # another version's, a damaged or an edited one: the match is read again
        with contextlib.suppress(ValueError):
            lessons[file] = Lesson.from_json(data, rounds[file])
    todo = _read_matches(history, [f for f in files if f not in lessons], err)
    if todo:
        tasks = [(match, seat, with_bot) for _f, match, seat in todo]
        count = worker_jobs(jobs, err) if err is not None else 1
        show = err is not None and err.isatty()
        with ProgressBar(show, len(tasks), _("The coach reads your matches")) as bar:
            results = map_tasks(lesson_task, tasks, jobs=count, progress=progress or bar)
        fresh = [(file, data) for (file, _m, _s), data in zip(todo, results, strict=True)]
        store_lessons(history.connection, fresh, with_bot)
        for file, data in fresh:
            lessons[file] = Lesson.from_json(data, rounds[file])
    return [(file, lessons[file]) for file in reversed(files) if file in lessons]


def _finished_files(history: History, last: int) -> dict[str, int]:
    """The record files of the newest ``last`` finished matches, newest first, each with
    its rounds (no lesson of it may speak of more)."""
    from bela.archive.history import Outcome

    rows = [r for r in history.matches() if r.outcome in (Outcome.WON, Outcome.LOST)][:last]
    return {r.file: r.rounds for r in rows}


def _read_matches(
    history: History, files: Sequence[str], err: TextIO | None
) -> list[tuple[str, Match, int]]:
    """(file, match, the player's seat) of ``files``; one that cannot be read is said
    and left out (it changed since it was indexed)."""
    from bela.archive.records import RecordError, match_from_record
    from bela.archive.storage import read_record

    read: list[tuple[str, Match, int]] = []
    for file in files:
        try:
            record = read_record(history.path_of(file))
            match = match_from_record(record)
        except (OSError, RecordError) as exc:
            if err is not None:
                message = _("bela: {file} skipped: {error}").format(
                    file=oneline(file), error=oneline(exc)
                )
                print(message, file=err)
            continue
        read.append((file, match, 0 if record.me is None else record.me))
    return read


# ---------------------------------------------------------------------- words


def role_name(order: int) -> str:
    return (_("leading"), _("second hand"), _("third hand"), _("fourth hand"))[order]


def habit_name(kind: str) -> str:
    """One message per habit: a role in early or late tricks, or calling and falling."""
    names = {
        "lead:early": _("Leading in tricks 3–5"),
        "lead:late": _("Leading in tricks 6–8"),
        "second:early": _("Second hand in tricks 3–5"),
        "second:late": _("Second hand in tricks 6–8"),
        "third:early": _("Third hand in tricks 3–5"),
        "third:late": _("Third hand in tricks 6–8"),
        "fourth:early": _("Fourth hand in tricks 3–5"),
        "fourth:late": _("Fourth hand in tricks 6–8"),
        "fell": _("Calling trump and falling (pad)"),
        "passed": _("Saying dalje when calling was worth more"),
        "pod_mus_suit": _("Pod mus: naming a weaker suit"),
    }
    return names.get(kind, kind)


def sparkline(values: Sequence[float]) -> str:
    """The values as a row of block characters, lowest ▁ to highest █."""
    bars = "▁▂▃▄▅▆▇█"
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    return "".join(bars[0 if span == 0 else round((v - low) / span * 7)] for v in values)


def _per(total: int, count: int) -> str:
    return f"{total / count:.1f}" if count else "–"


def _suit_words(letter: str) -> str:
    """A suit the engine writes ``"H"`` as a player reads it: ``♥ herc``."""
    from bela.engine import Suit
    from bela.wording import suit_name, suit_symbol

    suit = Suit.parse(letter)
    return f"{suit_symbol(suit)} {suit_name(suit)}"


def example_text(habit: Habit, matches_dir: Path | None = None) -> Text:
    """Where the habit's costliest card (or bid) was, and the command that shows it."""
    from rich.text import Text

    from bela.engine import Card
    from bela.lab.coach import BidSlip

    if habit.example is None:
        return Text("")
    file, slip = habit.example
    where = oneline(str(file if matches_dir is None else matches_dir / file), 300)
    if isinstance(slip, BidSlip):
        if slip.forced:
            words = _(
                "Round {round}, pod mus: you named {chosen}; {best} was worth {lost} more "
                "on average; bela replay {file} --round {round}"
            )
        else:
            words = _(
                "Round {round}, the bidding: you said dalje; naming {best} was worth {lost} "
                "more on average; bela replay {file} --round {round}"
            )
        chosen = "" if slip.chosen == "dalje" else _suit_words(slip.chosen)
        return Text(
            words.format(
                round=slip.round + 1,
                chosen=chosen,
                best=_suit_words(slip.best),
                lost=slip.lost,
                file=where,
            )
        )
    from bela.wording import card_text

    played, best = Card.parse(slip.played), Card.parse(slip.best)
    text = _(
        "Round {round}, trick {trick}: you played {played}, best was {best} "
        "({lost} given away); bela replay {file} --round {round}"
    ).format(
        round=slip.round + 1,
        trick=slip.trick,
        played=card_text(played),
        best=card_text(best),
        lost=slip.lost,
        file=where,
    )
    return Text(text)


def render_report(
    result: CoachReport, with_bot: bool, matches_dir: Path | None = None
) -> RenderableType:
    """The coach's report as rich text (plain ``Text`` throughout: nothing is markup)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    head = ngettext(
        "The coach read your last {n} finished match.",
        "The coach read your last {n} finished matches.",
        result.matches,
    ).format(n=result.matches)
    facts = Table(box=None, pad_edge=False, show_header=False)
    facts.add_column("")
    facts.add_column("", justify="right")
    facts.add_row(_("rounds"), str(result.rounds))
    facts.add_row(_("your cards from trick 3 on"), str(result.cards))
    facts.add_row(
        _("written points given away a round, against the best play"),
        _per(result.lost, result.rounds),
    )
    if with_bot:
        facts.add_row(
            _("written points a round the hard bot's cards would have added"),
            _per(result.vs_hard, result.rounds),
        )
    roles = Table(title=_("By your place in the trick"), title_justify="left", box=None)
    roles.add_column("")
    roles.add_column(_("cards"), justify="right")
    roles.add_column(_("given away"), justify="right")
    roles.add_column(_("a card"), justify="right")
    for order, (cards, lost) in enumerate(result.by_role):
        roles.add_row(role_name(order), str(cards), str(lost), _per(lost, cards))
    tricks = Table(title=_("By trick"), title_justify="left", box=None)
    tricks.add_column(_("trick"), justify="right")
    tricks.add_column(_("cards"), justify="right")
    tricks.add_column(_("given away"), justify="right")
    for number, (cards, lost) in enumerate(result.by_trick, start=1):
        if cards:
            tricks.add_row(str(number), str(cards), str(lost))
    bidding = Table(title=_("Bidding"), title_justify="left", box=None, show_header=False)
    bidding.add_column("")
    bidding.add_column("", justify="right")
    bidding.add_row(_("rounds you called trump"), str(result.called))
    bidding.add_row(_("of them fell (pad)"), str(result.fell))
    bidding.add_row(_("written points lost by falling"), str(result.fell_lost))
    bidding.add_row(_("forced to call as dealer (pod mus)"), str(result.pod_mus))
    bidding.add_row(_("of them fell"), str(result.pod_mus_fell))
    bidding.add_row(_("rounds you said dalje"), str(result.passed))
    if with_bot:
        bidding.add_row(_("of them calling was clearly worth more"), str(result.passed_slips))
        bidding.add_row(_("written points lost by saying dalje"), str(result.passed_lost))
        bidding.add_row(_("pod mus, another suit clearly worth more"), str(result.pod_mus_slips))
        bidding.add_row(_("written points lost by the weaker suit"), str(result.pod_mus_lost))
    parts: list[RenderableType] = [Text(head, style="bold"), facts, roles, tricks, bidding]
    values = [v for _k, v in result.trend]
    if len(values) > 1:
        parts.append(
            Text(
                _("Given away a round, match by match (oldest first): {line}").format(
                    line=sparkline(values)
                )
            )
        )
    if result.habits:
        parts.append(Text(_("Your three costliest habits"), style="bold"))
        for number, habit in enumerate(result.habits, start=1):
            line = _("{n}. {habit}: {lost} written points given away").format(
                n=number, habit=habit_name(habit.kind), lost=habit.lost
            )
            parts.append(Text(line))
            example = example_text(habit, matches_dir)
            if example.plain:
                parts.append(Text("   ") + example)
    return Group(*parts)


def report_json(result: CoachReport, with_bot: bool = True) -> dict[str, Any]:
    """The report as JSON data (English keys; cards and suits as the engine writes them).

    Without the hard bot the bids are not judged: those figures are null, not 0."""
    return {
        "matches": result.matches,
        "rounds": result.rounds,
        "cards": result.cards,
        "lost": result.lost,
        "vs_hard": result.vs_hard,
        "by_role": [
            {"role": r, "cards": c, "lost": x}
            for r, (c, x) in zip(("lead", "second", "third", "fourth"), result.by_role, strict=True)
        ],
        "by_trick": [
            {"trick": t + 1, "cards": c, "lost": x} for t, (c, x) in enumerate(result.by_trick)
        ],
        "bidding": {
            "called": result.called,
            "fell": result.fell,
            "fell_lost": result.fell_lost,
            "pod_mus": result.pod_mus,
            "pod_mus_fell": result.pod_mus_fell,
            "passed": result.passed,
            "passed_worth_more": (
                {"count": result.passed_slips, "lost": result.passed_lost} if with_bot else None
            ),
            "pod_mus_weaker_suit": (
                {"count": result.pod_mus_slips, "lost": result.pod_mus_lost} if with_bot else None
            ),
        },
        "trend": [{"file": f, "lost_per_round": round(v, 2)} for f, v in result.trend],
        "habits": [
            {
                "kind": h.kind,
                "count": h.count,
                "lost": h.lost,
                "example": None
                if h.example is None
                else {"file": h.example[0], **_slip_json(h.example[1])},
            }
            for h in result.habits
        ],
    }


def _slip_json(slip: Any) -> dict[str, Any]:
    from bela.lab.coach import BidSlip

    if isinstance(slip, BidSlip):
        return {
            "round": slip.round + 1,
            "trick": 0,
            "bid": slip.chosen,
            "forced": slip.forced,
            "best": slip.best,
            "lost": slip.lost,
            "samples": slip.samples,
        }
    return {
        "round": slip.round + 1,
        "trick": slip.trick,
        "played": slip.played,
        "best": slip.best,
        "hard": slip.hard,
        "lost": slip.lost,
    }
