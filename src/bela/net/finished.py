"""The join codes of finished tables, kept across a host's restart.

A player who comes back with the code (and token) of a match that has ended is told it is
over and where its record is, not "wrong join code": a wrong code counts against their
address, and a minute's block for a friend who only came back late is wrong (issue #33).
The host remembers that one line per finished table in memory; this keeps it in
``finished.codes`` in the data directory too (beside ``tables/``, which holds only live
tables), so a restarted host still knows. It is a
convenience, never the truth: a file that cannot be read or does not fit is ignored (the
codes then read as unknown, as before), and only plain values of the two phrases it can
hold are taken from it.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Final

from bela.foundation.files import read_limited, replace_atomically
from bela.foundation.numbers import load_json, whole_in
from bela.net.phrases import Phrase

__all__ = ["FINISHED_FILE", "FINISHED_KEPT", "keep_finished", "load_finished"]

FINISHED_FILE: Final = "finished.codes"
"""In the data directory, beside ``tables/`` (whose every file is a live table's)."""
FINISHED_KEPT: Final = 10_000
"""Finished tables' codes remembered (with a line about the result), newest last."""
_LIMIT: Final = 4 * 1024 * 1024
_CODES: Final = ("code_over", "code_over_kept")


def load_finished(directory: Path) -> dict[str, Phrase]:
    """The finished tables' phrases by join code, as kept in ``directory``; {} when none or
    when the file is not one this host wrote."""
    try:
        data = load_json(read_limited(directory / FINISHED_FILE, _LIMIT))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    kept: dict[str, Phrase] = {}
    for code, entry in list(data.items())[-FINISHED_KEPT:]:
        phrase = _phrase(code, entry)
        if phrase is not None:
            kept[code] = phrase
    return kept


def _phrase(code: object, entry: object) -> Phrase | None:
    if not isinstance(code, str) or not 0 < len(code) <= 16 or not isinstance(entry, dict):
        return None
    kind = entry.get("code")
    score0 = whole_in(entry.get("score0"), 0, 100_000)  # the one bounded reader of numbers
    score1 = whole_in(entry.get("score1"), 0, 100_000)
    if kind not in _CODES or score0 is None or score1 is None:
        return None
    values: dict[str, str | int] = {"score0": score0, "score1": score1}
    if kind == "code_over_kept":
        name = entry.get("file")
        if not isinstance(name, str) or not 0 < len(name) <= 200:
            return None
        values["file"] = name
    return Phrase(str(kind), values)


def keep_finished(directory: Path, finished: dict[str, Phrase]) -> None:
    """Write the newest ``FINISHED_KEPT`` phrases (atomically); a failure only means a
    restarted host will not know these codes."""
    newest = list(finished.items())[-FINISHED_KEPT:]
    text = json.dumps({code: {"code": p.code, **p.args} for code, p in newest}, indent=0)
    with contextlib.suppress(OSError):
        directory.mkdir(parents=True, exist_ok=True)
        replace_atomically(directory / FINISHED_FILE, text, ".finished-")
