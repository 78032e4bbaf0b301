"""The argument types the network commands share: ``bela host``/``join``/``serve``
(``bela.cli.net``) and ``bela server``/``online`` (``bela.cli.online``).

One module so that a port, a bot level or a name is refused in the same words
whichever command was typed; neither command module imports the other (each is
loaded only for its own commands, ``tests/cli/test_cli_lazy_commands.py``).
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Final

from bela.foundation.untrusted import shown
from bela.i18n import _

__all__ = ["LEVELS", "bot_level", "login_name", "port_number", "table_name"]

LEVELS: Final = ("random", "easy", "normal", "hard")
"""The bots a table may seat in an empty chair."""

NAME_LIMIT: Final = 24
"""A name at the table: at most this many printable characters."""


def port_number(text: str) -> int:
    """``--port``: a TCP port, 0 (any free one) to 65535."""
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is a number 0 to 65535, not {text}").format(text=shown(text))
        )
    return int(text)


def bot_level(text: str) -> str:
    """``--bots``: one of ``LEVELS``, in any case."""
    level = text.strip().lower()
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(
            _("the bots are one of {levels}, not {text}").format(
                levels=", ".join(LEVELS), text=shown(text)
            )
        )
    return level


def table_name(text: str) -> str:
    """``--name``: the printable characters of ``text``, 1 to ``NAME_LIMIT`` of them."""
    cleaned = "".join(ch for ch in text if ch.isprintable()).strip()
    if not 1 <= len(cleaned) <= NAME_LIMIT:
        raise argparse.ArgumentTypeError(
            _("a name is 1 to 24 characters, not {text}").format(text=shown(text))
        )
    return cleaned


def login_name() -> str:
    """The name a player who gives none sits down under: their login on this machine (so
    the host's pasted line, which names nobody, still tells friends apart), else "player"."""
    import getpass

    with contextlib.suppress(Exception):  # no login name (a container, an odd environment)
        cleaned = "".join(ch for ch in getpass.getuser() if ch.isprintable()).strip()[:NAME_LIMIT]
        if cleaned:
            return cleaned
    return _("Player")
