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

from bela.i18n import N_, _, ngettext

__all__ = ["ARGPARSE_WORDS", "use_bela_catalog"]

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


def _plural_words(n: int) -> str:
    """argparse's one plural message, written as a call so the extractor sees both forms."""
    return ngettext("expected %s argument", "expected %s arguments", n)


def use_bela_catalog() -> None:
    """Make argparse speak the player's language, from bela's catalog."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
