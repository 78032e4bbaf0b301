"""Where the puzzles of the player's own matches are kept: ``<data dir>/puzzles/yours.jsonl``.

The pack reads every ``*.jsonl`` of that folder (``bela.archive.puzzle_pack.load_pack``),
checking each line as untrusted, so a puzzle kept here is asked, judged and rated like the
shipped ones, and its attempts go to the puzzle store's journal like theirs. Each line is
appended by ``append_durably`` (a regular file only, every byte or none, flushed to the
disk), and a puzzle whose id the file already holds is not written again: reviewing the
same round twice adds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from bela.archive.puzzle_pack import own_dir, read_lines
from bela.foundation.files import append_durably, read_limited

__all__ = ["OWN_FILE", "keep_own_puzzles"]

OWN_FILE: Final = "yours.jsonl"
"""The file of the player's own puzzles, in the puzzles folder of the data directory."""

_READ_LIMIT: Final = 64 * 1024 * 1024


def keep_own_puzzles(data_dir: Path, lines: Iterable[dict[str, Any]]) -> int:
    """Append the puzzles ``lines`` not kept yet to ``OWN_FILE``; how many were new.

    A line the pack would not read (``read_lines`` checks it as it checks any) is not
    kept. ``OSError`` (a full disk, a folder in the file's place) is the caller's to say.
    """
    folder = own_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / OWN_FILE
    known = _ids(path)
    added = 0
    for data in lines:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        pack = read_lines([text], OWN_FILE)
        if not pack.puzzles or pack.puzzles[0].id in known:
            continue
        append_durably(path, (text + "\n").encode())
        known.add(pack.puzzles[0].id)
        added += 1
    return added


def _ids(path: Path) -> set[str]:
    """The ids of the puzzles ``path`` holds (none when it does not exist yet)."""
    try:
        text = read_limited(path, _READ_LIMIT).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return set()
    return {p.id for p in read_lines(text.splitlines(), OWN_FILE).puzzles}
