"""What the app needs from outside the table: bots by difficulty, and the save files.

The save functions never raise into the game: a disk that cannot be written must
not stop a match, so they return the problem in words for the app to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bela.ai import BOT_KINDS, Bot, make_bot
from bela.engine import Match
from bela.records import RecordError, match_from_record, record_from_match
from bela.storage import archive_match, clear_autosave, load_autosave, save_autosave

__all__ = [
    "BOT_SEATS",
    "DIFFICULTIES",
    "Saved",
    "archive",
    "autosave",
    "bot_kind",
    "load_saved",
    "make_bots",
    "shelve_unfinished",
]

BOT_SEATS: Final = (1, 2, 3)
DIFFICULTIES: Final = ("easy", "normal", "hard")


def bot_kind(difficulty: str) -> str:
    """The bot that plays ``difficulty``: the first available of it, normal, heuristic, random."""
    for kind in (difficulty, "normal", "heuristic", "random"):
        if kind in BOT_KINDS:
            return kind
    return BOT_KINDS[0]


def make_bots(difficulty: str) -> dict[int, Bot]:
    """The partner and both opponents, all of the same level."""
    kind = bot_kind(difficulty)
    return {seat: make_bot(kind) for seat in BOT_SEATS}


@dataclass(frozen=True, slots=True)
class Saved:
    """An unfinished match found on disk, ready to resume."""

    match: Match
    difficulty: str


def load_saved() -> tuple[Saved | None, str | None]:
    """The autosaved match (or None) and, if the save could not be used, why."""
    try:
        record = load_autosave()
        if record is None:
            return None, None
        return Saved(match_from_record(record), record.difficulty), None
    except RecordError as exc:
        return None, str(exc)
    except OSError as exc:
        return None, f"cannot read the saved match: {exc.strerror or exc}"


def autosave(match: Match, difficulty: str) -> str | None:
    """Save the match in progress; returns a problem to show, or None."""
    try:
        save_autosave(record_from_match(match, difficulty))
    except (OSError, RecordError) as exc:
        return f"could not save the match: {exc}"
    return None


def shelve_unfinished() -> str | None:
    """Before a new match replaces the autosave, keep the unfinished one in the archive.

    Nothing the player did is lost: the old match stays replayable from
    ``matches/`` (``bela replay FILE``). Returns where it went, or None.
    """
    try:
        record = load_autosave()
        if record is None:
            return None
        return f"your unfinished match was kept in {archive_match(record)}"
    except (OSError, RecordError):
        return None  # an unreadable save was already moved aside by load_autosave


def archive(match: Match, difficulty: str) -> str | None:
    """Keep a finished match and forget the autosave; returns a problem to show, or None."""
    try:
        archive_match(record_from_match(match, difficulty))
        clear_autosave()
    except (OSError, RecordError) as exc:
        return f"could not archive the match: {exc}"
    return None
