"""Textual's footer with the key descriptions in the player's language.

Bindings are class attributes, made when a screen's module is imported, and
the language can change while the app runs; so ``BINDINGS`` keep the English
(marked ``N_`` for the catalog) and this footer translates each description
as it draws the keys.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey, FooterLabel

from bela.i18n import N_, _

__all__ = ["Footer"]


class Footer(TextualFooter):
    """``textual.widgets.Footer``, every description through ``_``."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
            elif isinstance(widget, FooterLabel):
                widget.update(_(str(widget.content)))
            yield widget


N_("palette")  # Textual's own word for the command palette's key, translated with ours
