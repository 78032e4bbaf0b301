"""What a record file is, without pydantic: the error it raises and the largest one read.

``bela.archive.records`` (pydantic models, parsing, replay) re-exports both. They live
here so ``bela.archive.storage`` can claim a save slot, find there is no save and
define its own errors without importing pydantic: the app's start screen is
drawn before any record is read (issue #12).
"""

from __future__ import annotations

from typing import Final

__all__ = ["RECORD_SIZE_LIMIT", "RecordError"]

RECORD_SIZE_LIMIT: Final = 2 << 20
"""The largest record file bela reads: 2 MiB, refused before it is parsed.

A match to 1001 takes about 3 KiB a round and rarely more than 15 rounds (about
50 KiB); a round that is redealt (everyone passed, under the no-forced-trump
rule) takes about 1 KiB. 2 MiB holds several hundred rounds.
"""


class RecordError(ValueError):
    """A record that cannot be used; the message is one line a player can act on."""
