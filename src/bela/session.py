"""What the app needs from outside the table: bots by difficulty, and the save files.

The save functions never raise into the game: a disk that cannot be written must
not stop a match, so they return the problem in words for the app to show.

``bela.archive.records`` (pydantic) is imported by the functions that read or write a
record, not here: the start screen imports this module (issue #12).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bela.ai import BOT_KINDS, make_bot
from bela.archive.record_basics import RecordError
from bela.archive.storage import (
    SaveSlot,
    archive_match,
    autosave_path,
    clear_autosave,
    keep_what_is_saved,
    load_autosave,
    matches_dir,
    os_error_text,
    save_autosave,
)
from bela.foundation.untrusted import oneline, shown_path
from bela.i18n import _

if TYPE_CHECKING:
    from bela.ai import Bot
    from bela.archive.records import MatchRecord
    from bela.engine import Match

__all__ = [
    "BOT_SEATS",
    "DIFFICULTIES",
    "Saved",
    "archive",
    "autosave",
    "bot_kind",
    "last_settings",
    "load_saved",
    "make_bots",
    "shelve_unfinished",
    "slot_notice",
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
        from bela.archive.records import match_from_record

        return Saved(match_from_record(record), record.difficulty), None
    except RecordError as exc:
        return None, oneline(exc)
    except OSError as exc:
        return None, _("cannot read the saved match: {error}").format(error=os_error_text(exc))


def _named(record: MatchRecord, names: tuple[str, ...] | None) -> MatchRecord:
    """The record with the table's names (the player's and the bots', from the settings)."""
    if names is None or record.players is not None:
        return record
    from bela.archive.records import seated

    return seated(record, "app", (names[0], names[1], names[2], names[3]))


def autosave(match: Match, difficulty: str, names: tuple[str, ...] | None = None) -> str | None:
    """Save the match in progress; returns a problem to show, or None.

    ``names``: the seats' names to keep in the record (``BelaApp.record_names``).

    The problem names the directory and the reason, never the random temp file
    name, so the same failure reads the same after every card and is shown once.
    """
    from bela.archive.records import record_from_match

    try:
        save_autosave(_named(record_from_match(match, difficulty), names))
    except RecordError as exc:
        return oneline(_("could not save the match: {error}").format(error=exc))
    except OSError as exc:
        where = shown_path(autosave_path().parent)
        return oneline(
            _("could not save the match in {path}: {error}").format(
                path=where, error=os_error_text(exc)
            )
        )
    return None


def shelve_unfinished() -> str | None:
    """Before a new match replaces the autosave, keep what it holds.

    Nothing the player did is lost: an unfinished match (or a finished one that
    never reached the archive) stays replayable from ``matches/`` (``bela replay
    FILE``), a damaged or unreadable save is moved aside, and one that cannot be
    moved is left alone (the new match is then not saved over it). Returns what
    happened, in words, or None when there was nothing to keep.
    """
    try:
        kept = keep_what_is_saved()
    except RecordError as exc:
        return oneline(exc)
    except OSError as exc:
        where = shown_path(matches_dir())
        return oneline(
            _(
                "the saved match could not be archived in {path} ({error}); "
                "it was left where it was"
            ).format(path=where, error=os_error_text(exc))
        )
    if kept is None:
        return None
    return oneline(_("your previous match was kept in {path}").format(path=shown_path(kept)))


def archive(match: Match, difficulty: str, names: tuple[str, ...] | None = None) -> str | None:
    """Keep a finished match and forget the autosave; returns a problem to show, or None."""
    from bela.archive.records import record_from_match

    try:
        archive_match(_named(record_from_match(match, difficulty), names))
    except RecordError as exc:
        return oneline(_("could not archive the match: {error}").format(error=exc))
    except OSError as exc:
        where = shown_path(matches_dir())
        return oneline(
            _("could not archive the match in {path}: {error}").format(
                path=where, error=os_error_text(exc)
            )
        )
    try:
        clear_autosave()
    except OSError as exc:
        return oneline(
            _("the match was archived, but its autosave stays: {error}").format(
                error=os_error_text(exc)
            )
        )
    return None


def slot_notice(slot: SaveSlot) -> str | None:
    """What the player should know about the save slot this window took, or None."""
    if not slot.is_main:
        return oneline(
            _(
                "Another bela window is playing from this data directory, so this window "
                "saves its own match, in {path}; neither overwrites the other."
            ).format(path=shown_path(slot.path))
        )
    if slot.adopted is not None:
        return oneline(
            _(
                "The unfinished match of a window that was closed ({path}) is the one offered here."
            ).format(path=shown_path(slot.adopted))
        )
    if slot.waiting:
        names = ", ".join(path.name for path in slot.waiting)
        return oneline(
            _(
                "A window that was closed left an unfinished match in {names}: bela offers it "
                "at a later start, once the match here is finished."
            ).format(names=names)
        )
    return None


_NEWEST_TRIED: Final = 5
"""Archived matches read, newest first, before giving up on finding the last settings."""


def last_settings(saved: Saved | None = None) -> tuple[int, str] | None:
    """The target and difficulty of the match played last, or None if there is none.

    The start screen opens on them, so a player who always plays to 501 is not
    offered 1001 every time, and resuming a 501 match does not show 1001. The
    match played last is the unfinished one (``saved``, else the autosave, read
    without moving anything aside), else the newest archived one. Unreadable
    files are skipped: this only chooses what the screen shows first.
    Once there is a settings file (``bela.settings``, issue #13) the app uses
    this only for an unfinished match; the saved settings stand otherwise.
    """
    from bela.archive.storage import read_record

    if saved is not None:
        return saved.match.target, saved.difficulty
    try:
        record = read_record(autosave_path())
        if not record.is_finished:
            return record.target, record.difficulty
    except (OSError, RecordError):
        pass
    try:
        # archive names start with a UTC timestamp (storage.archive_match): newest sorts last
        names = sorted(
            (p for p in matches_dir().iterdir() if p.name[:1].isdigit() and p.suffix == ".json"),
            key=lambda p: p.name,
            reverse=True,
        )
    except OSError:
        return None
    for path in names[:_NEWEST_TRIED]:
        try:
            record = read_record(path)
        except (OSError, RecordError):
            continue
        return record.target, record.difficulty
    return None
