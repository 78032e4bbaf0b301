"""Rules and keys, one screen away from the table (F1 or ``?``).

The house rules come first: those of the match at the table, or of the next new
match from the start screen (issue #13), since they change what the rules below
say.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Select

from bela.engine import Rules
from bela.i18n import N_, _
from bela.settings import RULE_CHOICES
from bela.tui.keys import help_lines
from bela.tui.text import SEAT_NAMES
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.language import LanguageRedraw, language_picker

__all__ = ["HelpScreen", "help_text", "house_rules_text"]


def markdown_text(text: str) -> str:
    """``text`` (a name the player typed) as Markdown that shows it as it is: every mark
    escaped, so ``*Ana*`` or ``[x](y)`` is read, never rendered as emphasis or a link."""
    return "".join("\\" + ch if ch in "\\`*_{}[]()#+-.!|<>~" else ch for ch in text)


def help_text() -> str:
    """The rules, and every key from ``bela.tui.keys`` (the README's key table shows the same).

    Each paragraph is one message in the catalog, so a translator meets a
    paragraph at a time and the Markdown marks (``**``, ``*``) stay theirs to place.
    """
    paragraphs = [
        "# " + _("Bela: rules and keys"),
        "## " + _("Keys"),
        help_lines(),
        "## " + _("The game"),
        _(
            "Four players, partners opposite: you (bottom) and **{partner}** (top) are **mi**; "
            "**{right}** (right) and **{left}** (left) are **vi**. Play goes counter-clockwise: "
            "you, {right}, {partner}, {left}."
        ).format(
            partner=markdown_text(SEAT_NAMES[2]),
            right=markdown_text(SEAT_NAMES[1]),
            left=markdown_text(SEAT_NAMES[3]),
        ),
        _(
            "**Cards.** 32 cards, 7 to A in ♥ ♦ ♠ ♣. Trump ranks J 9 A 10 K Q 8 7 (J 20, "
            "9 14, A 11, 10 10, K 4, Q 3); other suits A 10 K Q J 9 8 7 (A 11, 10 10, K 4, "
            "Q 3, J 2). The last trick adds 10: 162 points in all."
        ),
        _(
            "**Trump.** Everybody gets 6 cards and 2 face-down talon cards. From the "
            "player after the dealer, each names a trump suit or says *dalje*; the first "
            "suit named is trump. If three pass, the dealer must name one. Then everybody "
            "takes up the talon (8 cards each)."
        ),
        _(
            "**Zvanja** (declarations, counted automatically before the first trick): "
            "3 in a row 20, 4 in a row 50, 5 or more 100; four jacks 200, four nines 150, "
            "four aces, tens, kings or queens 100. Only the team with the single best "
            "declaration scores, with all its declarations. All 8 cards of one suit "
            "(*belot*) wins the match at once."
        ),
        _(
            "**Šutim.** A player may keep their zvanja back: in the first trick, before "
            "their card. Kept back, they score nothing and the comparison is made without "
            "them; bela is not a declaration and is always said. Yours are declared for you "
            "unless *Declare my zvanja for me* is off in the settings (F2); then you are asked."
        ),
        _(
            "**Play.** The player after the dealer leads the first trick; the winner of a "
            "trick leads the next. You must follow suit, and beat the highest card of the "
            "suit led when you can (unless the trick is already trumped). With none of the "
            "suit led you must trump, over-trumping when you can. Only with neither may you "
            "play anything. The highest trump wins, otherwise the highest card of the suit led."
        ),
        _(
            "**Bela.** Trump K and Q in one hand: 20 points, announced when playing the "
            "second of them (you are asked)."
        ),
        _(
            "**Scoring.** Each team totals its card points, zvanja and bela. The team that "
            "named trump must have *more than half* of both teams' total; otherwise it "
            "**falls** (*pad*): it writes 0 and the other team writes everything. A team that "
            "takes all 8 tricks (*štiglja*) gets 90 extra. First to the target (501, 701 or "
            "1001) wins; if both pass it, the higher total wins."
        ),
        _("Press Escape to go back."),
    ]
    return "\n\n".join(paragraphs) + "\n"


def house_rules_text(rules: Rules, in_play: bool) -> str:
    """A Markdown section naming the house rules (the labels are ours: no outside text)."""
    if in_play:
        lines = ["## " + _("House rules of this match"), ""]
    else:
        lines = ["## " + _("House rules of the next new match"), ""]
    chosen = [_(c.label) for c in RULE_CHOICES if getattr(rules, c.field) == c.value]
    if chosen:
        lines += [f"- {label}" for label in chosen]
        lines += ["", _("Where they differ from the rules below, they win.")]
    else:
        lines.append(_("None: the standard game described below."))
    lines += [
        "",
        _("Change them in the settings (F2); a match keeps the rules it was dealt under."),
    ]
    return "\n".join(lines) + "\n\n"


class HelpScreen(LanguageRedraw, ModalScreen[None]):
    """The rules and the key bindings, scrollable."""

    def __init__(self, rules: Rules | None = None, in_play: bool = False) -> None:
        super().__init__()
        self.rules = rules if rules is not None else Rules()
        self.in_play = in_play

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "close", N_("Back"))
    ]

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="help"):
            yield language_picker(self._language_setting(), prefixed=True)
            title, rest = help_text().split("\n", 1)
            yield Markdown(f"{title}\n\n{house_rules_text(self.rules, self.in_play)}{rest}")
        yield Footer()

    def on_select_changed(self, event: Select.Changed) -> None:
        """The language picked at the top of the help (as in the settings), saved."""
        event.stop()
        from bela.tui.app import BelaApp

        app = self.app
        value = event.value
        if isinstance(app, BelaApp) and isinstance(value, str) and value != app.language_setting:
            app.change_language(value)

    def _language_setting(self) -> str:
        from bela.tui.app import BelaApp

        app = self.app
        return app.language_setting if isinstance(app, BelaApp) else ""

    def redraw_language(self) -> None:
        self.refresh(recompose=True)

    def action_close(self) -> None:
        self.dismiss(None)
