"""argparse's own words ("usage:", "options", its error messages) in bela's catalog.

argparse looks its strings up with ``gettext.gettext`` in the default domain,
which would follow the environment and not ``--lang`` or the settings. So bela
points argparse's ``_`` and ``ngettext`` at its own (``use_bela_catalog``), and
lists here the argparse strings a player can meet (Python 3.11 to 3.13), so that
the extractor puts them into ``bela.pot`` for translators. A string missing
here only stays English.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Final

from bela.i18n import N_, _, ngettext

__all__ = ["ARGPARSE_WORDS", "METAVAR_WORDS", "metavar_words", "use_bela_catalog"]

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("%(prog)s: error: %(message)s\n"),
)


METAVAR_WORDS: Final = {
    "ADDRESS": N_("ADDRESS"),
    "BOT": N_("BOT"),
    "CODE": N_("CODE"),
    "COMMAND": N_("COMMAND"),
    "DATA": N_("DATA"),
    "FILE": N_("FILE"),
    "LEVEL": N_("LEVEL"),
    "NAME": N_("NAME"),
    "NAMES": N_("NAMES"),
    "PORT": N_("PORT"),
    "SECONDS": N_("SECONDS"),
    "SEED": N_("SEED"),
    "TABS": N_("TABS"),
    "TASK": N_("TASK"),
    "THEME": N_("THEME"),
    "WEIGHTS": N_("WEIGHTS"),
}
"""The placeholders in ``--help`` and usage lines (``--seed SEED``, ``FILE``) as words in
the player's language (issue #35: they stayed English under ``--lang hr``). Letters (``N``,
``K``) and choices (``{easy,normal,hard}``) stay as they are; a word not here stays too."""

_PLACEHOLDER: Final = re.compile(r"\b[A-Z][A-Z]+\b")


def metavar_words(text: str) -> str:
    """``text`` (a metavar, or ``BOT=N``) with every placeholder word in the player's language."""
    return _PLACEHOLDER.sub(
        lambda m: _(METAVAR_WORDS[m.group(0)]) if m.group(0) in METAVAR_WORDS else m.group(0),
        text,
    )


def _plural_words(n: int) -> str:
    """argparse's one plural message, written as a call so the extractor sees both forms."""
    return ngettext("expected %s argument", "expected %s arguments", n)


def use_bela_catalog() -> None:
    """Make argparse speak the player's language, from bela's catalog."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    formatter = argparse.HelpFormatter
    if not getattr(formatter, "_bela_words", False):
        original = formatter._metavar_formatter
        named = argparse._get_action_name
        expand = formatter._expand_help

        def metavar_formatter(
            self: argparse.HelpFormatter,
            action: argparse.Action,
            default_metavar: str,
        ) -> Callable[[int], tuple[str, ...]]:
            shown = original(self, action, default_metavar)
            # argparse asks with no default metavar too (add_argument's check): None stays
            return lambda size: tuple(
                metavar_words(part) if isinstance(part, str) else part for part in shown(size)
            )

        def expand_help(self: argparse.HelpFormatter, action: argparse.Action) -> str:
            # a help text names the placeholders too ("bela join ADDRESS CODE")
            return metavar_words(expand(self, action))

        def action_name(argument: argparse.Action | None) -> str | None:
            name = named(argument)
            return None if name is None else metavar_words(name)

        formatter._metavar_formatter = metavar_formatter  # type: ignore[method-assign]
        formatter._expand_help = expand_help  # type: ignore[method-assign]
        argparse._get_action_name = action_name
        formatter._bela_words = True  # type: ignore[attr-defined]
