"""The coach's lessons of a player's archived matches, for the app and the command line.

``gather_lessons`` reads the newest finished matches of the history, takes the lessons
stored in the history database (``bela.archive.coach_cache``), and reads the others with
the coach (``bela.lab.coach``), on worker processes, storing what it read. It needs both
the archive and the lab, which the layers keep apart, so it sits at the package's top as
``bela.session`` does: the app's coach screen (F5) and ``bela coach`` both call it, and
neither imports the other's modules.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from bela.foundation.untrusted import oneline
from bela.i18n import _

if TYPE_CHECKING:
    from bela.archive.history import History
    from bela.engine import Match
    from bela.lab.coach import Lesson

__all__ = ["gather_lessons"]


def gather_lessons(
    history: History,
    last: int,
    with_bot: bool,
    jobs: int,
    err: TextIO | None = None,
    progress: Any = None,
) -> list[tuple[str, Lesson]]:
    """The lessons of the last ``last`` finished matches, oldest first, reading the ones
    not stored yet (in ``jobs`` processes, with ``progress`` or a bar on ``err``; a
    record that cannot be read is said on ``err`` and left out)."""
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
        show = err is not None and err.isatty()
        with ProgressBar(show, len(tasks), _("The coach reads your matches")) as bar:
            results = map_tasks(lesson_task, tasks, jobs=jobs, progress=progress or bar)
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
