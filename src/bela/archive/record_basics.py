"""What a record file is, without pydantic: the error it raises and the largest one read.

``bela.archive.records`` (pydantic models, parsing, replay) re-exports both. They live
here so ``bela.archive.storage`` can claim a save slot, find there is no save and
define its own errors without importing pydantic: the app's start screen is
drawn before any record is read (issue #12).
"""

from __future__ import annotations

import json
from string import Formatter
from typing import Final

__all__ = ["RECORD_SIZE_LIMIT", "RecordError", "reason_text"]

RECORD_SIZE_LIMIT: Final = 2 << 20
"""The largest record file bela reads: 2 MiB, refused before it is parsed.

A match to 1001 takes about 3 KiB a round and rarely more than 15 rounds (about
50 KiB); a round that is redealt (everyone passed, under the no-forced-trump
rule) takes about 1 KiB. 2 MiB holds several hundred rounds.
"""


class RecordError(ValueError):
    """A record that cannot be used; the message is one line a player can act on.

    Raised with the English message (marked ``N_``) and the values it names, so that it is
    said in the language in use whenever it is said: ``str()`` now, and the history's index,
    which keeps ``stored()`` and says it again with ``reason_text`` (a player who files a
    damaged record in one language and reads the list in another reads their own). A message
    without values is said as it stands.
    """

    def __init__(self, message: str, **values: str | int) -> None:
        super().__init__(message)
        self.message = message
        self.values = values

    def __reduce__(self) -> tuple[object, ...]:  # a worker's error keeps its values
        return (_restore, (self.message, self.values))

    def __str__(self) -> str:
        from bela.i18n import _

        return _(self.message).format(**self.values) if self.values else _(self.message)

    def in_english(self) -> str:
        """The message in English whatever the language in use: for a peer on the network,
        who reads another language than the host's (as before the messages were translated)."""
        return self.message.format(**self.values) if self.values else self.message

    def stored(self) -> str:
        """The message and its values as the history's index keeps them (``reason_text``)."""
        return json.dumps({"reason": self.message, "values": self.values}, ensure_ascii=False)


def _restore(message: str, values: dict[str, str | int]) -> RecordError:
    return RecordError(message, **values)


def reason_text(stored: str) -> str:
    """A damage reason kept by the index, in the language in use.

    ``stored`` is ``RecordError.stored()`` or, from an older index or another kind of
    failure, plain text, said as it stands. The index is a file anyone could edit: a
    message is formatted only when every one of its fields is a plain name with a value
    (no attribute, index, format or conversion, which a hostile one could use to fill the
    memory), and said as it stands otherwise.
    """
    try:
        data = json.loads(stored)
    except ValueError:
        return stored
    if not isinstance(data, dict) or set(data) != {"reason", "values"}:
        return stored
    message, values = data["reason"], data["values"]
    if not isinstance(message, str) or not isinstance(values, dict):
        return stored
    if not all(type(v) in (str, int) for v in values.values()):
        return message
    try:
        fields = list(Formatter().parse(message))
    except ValueError:
        return message
    for _literal, name, spec, conversion in fields:
        if name is not None and (name not in values or spec or conversion):
            return message
    from bela.i18n import _

    said = _(message)
    try:
        return said.format(**values)
    except (KeyError, IndexError, ValueError):  # a translation that names other fields
        return message.format(**values)
