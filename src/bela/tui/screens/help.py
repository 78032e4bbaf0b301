"""Rules and keys, one screen away from the table (F1 or ``?``).

The house rules come first: those of the match at the table, or of the next new
match from the start screen (issue #13), since they change what the rules below
say.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Select, Static

from bela.deck import is_german
from bela.engine import QUICK_TARGET, Rules
from bela.i18n import N_, _
from bela.keys import help_lines
from bela.settings import RULE_CHOICES, rule_label
from bela.table_text import SEAT_NAMES
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.language import LanguageRedraw, language_picker

__all__ = ["HelpScreen", "help_text", "house_rules_text"]


def markdown_text(text: str) -> str:
    """``text`` (a name the player typed) as Markdown that shows it as it is: every mark
    escaped, so ``*Ana*`` or ``[x](y)`` is read, never rendered as emphasis or a link."""
    return "".join("\\" + ch if ch in "\\`*_{}[]()#+-.!|<>~" else ch for ch in text)


def help_text(rules: Rules | None = None, target: int | None = None, auto_bela: bool = True) -> str:
    """The rules as they are played, and every key from ``bela.keys`` in the player's letters.

    Written from ``rules`` (the match's house rules, or the next match's), the
    ``target`` (None: every target described) and whether the app announces bela
    for the player (``auto_bela``): a paragraph says what the engine does under
    them, so F1 never describes a rule that is not in play (it said bela comes
    with the second card while the first one carries it). Each paragraph is one
    message in the catalog, so a translator meets a paragraph at a time and the
    Markdown marks (``**``, ``*``) stay theirs to place.
    """
    rules = rules if rules is not None else Rules()
    paragraphs = [
        "# " + _("Bela: rules and keys"),
        "## " + _("Keys"),
        help_lines(),
        "## " + _("The game"),
        _seats(rules),
        _cards(),
        _trump(rules),
        _zvanja(rules),
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
        _bela(rules, auto_bela),
        _(
            "**Scoring.** Each team totals its card points, zvanja and bela. The team that "
            "named trump must have *more than half* of both teams' total; otherwise it "
            "**falls** (*pad*): it writes 0 and the other team writes everything. A team that "
            "takes all 8 tricks (*štiglja*) gets {bonus} extra."
        ).format(bonus=rules.stiglja_bonus),
    ]
    if rules.bela_always_counts and not rules.no_bela:
        paragraphs.append(
            _(
                "**Bela se uvijek piše.** A team that falls still writes the bela it announced; "
                "the other team writes the rest."
            )
        )
    if rules.visi:
        paragraphs.append(
            _(
                "**Visi.** On an exact tie the team that named trump falls, but its points "
                "hang: the next team to win a deal that is not tied writes them too."
            )
        )
    paragraphs += [*_match_end(rules, target), _("Press Escape to go back.")]
    return "\n\n".join(paragraphs) + "\n"


def _seats(rules: Rules) -> str:
    """Who sits where, by the names the player gave (escaped: a name is never Markdown)."""
    partner, following, last = (markdown_text(SEAT_NAMES[seat]) for seat in (2, 1, 3))
    if rules.clockwise:
        return _(
            "Four players, partners opposite: you (bottom) and **{partner}** (top) are **mi**; "
            "**{next}** (left) and **{last}** (right) are **vi**. Play goes clockwise (a house "
            "rule): you, {next}, {partner}, {last}."
        ).format(partner=partner, next=following, last=last)
    return _(
        "Four players, partners opposite: you (bottom) and **{partner}** (top) are **mi**; "
        "**{right}** (right) and **{left}** (left) are **vi**. Play goes counter-clockwise: "
        "you, {right}, {partner}, {left}."
    ).format(partner=partner, right=following, left=last)


def _trump(rules: Rules) -> str:
    if rules.no_forced_trump:
        return _(
            "**Trump.** Everybody gets 6 cards and 2 face-down talon cards. From the "
            "player after the dealer, each names a trump suit or says *dalje*; the first "
            "suit named is trump. If all four pass (a house rule), the deal is void, written "
            "0 : 0, and the next dealer deals again. Once trump is named everybody takes up "
            "the talon (8 cards each)."
        )
    return _(
        "**Trump.** Everybody gets 6 cards and 2 face-down talon cards. From the "
        "player after the dealer, each names a trump suit or says *dalje*; the first "
        "suit named is trump. If three pass, the dealer must name one. Then everybody "
        "takes up the talon (8 cards each)."
    )


def _cards() -> str:
    """The cards and their values, in the deck in use (``bela.deck``): with mađarice the
    German suits and ranks, and which French card each one is (the rest of the help
    names the jack and the queen by their French letters)."""
    if is_german():
        return _(
            "**Cards.** 32 mađarice (German-suited cards), 7 to A in ❤ hearts, ◉ bells, "
            "❦ leaves and ♁ acorns; the U (Unter) is the jack and the O (Ober) the queen. "
            "Trump ranks U 9 A 10 K O 8 7 (U 20, 9 14, A 11, 10 10, K 4, O 3); other suits "
            "A 10 K O U 9 8 7 (A 11, 10 10, K 4, O 3, U 2). The last trick adds 10: 162 "
            "points in all."
        )
    return _(
        "**Cards.** 32 cards, 7 to A in ♥ ♦ ♠ ♣. Trump ranks J 9 A 10 K Q 8 7 (J 20, "
        "9 14, A 11, 10 10, K 4, Q 3); other suits A 10 K Q J 9 8 7 (A 11, 10 10, K 4, "
        "Q 3, J 2). The last trick adds 10: 162 points in all."
    )


def _zvanja(rules: Rules) -> str:
    if rules.no_zvanja:
        return _(
            "**Zvanja** (declarations) are not played in this match (a house rule): "
            "sequences and fours score nothing, and eight cards of a suit are just played."
        )
    if is_german():  # mađarice: Unters and Obers, not jacks and queens
        if rules.tens_over_kings:
            return _(
                "**Zvanja** (declarations, counted automatically before the first trick): "
                "3 in a row 20, 4 in a row 50, 5 or more 100; four Unters 200, four nines 150, "
                "four aces, tens, kings or Obers 100 (between two of these, tens rank above "
                "kings and Obers: a house rule). Only the team with the single best "
                "declaration scores, with all its declarations. All 8 cards of one suit "
                "(*belot*) wins the match at once."
            )
        return _(
            "**Zvanja** (declarations, counted automatically before the first trick): "
            "3 in a row 20, 4 in a row 50, 5 or more 100; four Unters 200, four nines 150, "
            "four aces, tens, kings or Obers 100. Only the team with the single best "
            "declaration scores, with all its declarations. All 8 cards of one suit "
            "(*belot*) wins the match at once."
        )
    if rules.tens_over_kings:
        return _(
            "**Zvanja** (declarations, counted automatically before the first trick): "
            "3 in a row 20, 4 in a row 50, 5 or more 100; four jacks 200, four nines 150, "
            "four aces, tens, kings or queens 100 (between two of these, tens rank above "
            "kings and queens: a house rule). Only the team with the single best "
            "declaration scores, with all its declarations. All 8 cards of one suit "
            "(*belot*) wins the match at once."
        )
    return _(
        "**Zvanja** (declarations, counted automatically before the first trick): "
        "3 in a row 20, 4 in a row 50, 5 or more 100; four jacks 200, four nines 150, "
        "four aces, tens, kings or queens 100. Only the team with the single best "
        "declaration scores, with all its declarations. All 8 cards of one suit "
        "(*belot*) wins the match at once."
    )


def _bela(rules: Rules, auto_bela: bool) -> str:
    """When bela is announced: the rule in play, and whether the app asks the player."""
    if is_german():
        return _german_bela(rules, auto_bela)
    if rules.no_bela:
        return _(
            "**Bela** is not played in this match (a house rule): trump K and Q in one "
            "hand are worth nothing together."
        )
    if rules.bela_on_second:
        if auto_bela:
            return _(
                "**Bela.** Trump K and Q in one hand: 20 points, announced with the second "
                "of them to be played (a house rule); the app announces it for you."
            )
        return _(
            "**Bela.** Trump K and Q in one hand: 20 points, announced with the second "
            "of them to be played (a house rule); you are asked."
        )
    if auto_bela:
        return _(
            "**Bela.** Trump K and Q in one hand: 20 points, announced with the first of "
            "them to be played; the app announces it for you (the settings can have you asked)."
        )
    return _(
        "**Bela.** Trump K and Q in one hand: 20 points, announced with the first of "
        "them to be played; you are asked."
    )


def _german_bela(rules: Rules, auto_bela: bool) -> str:
    """``_bela`` with mađarice: the trump king and Ober (baba), as those cards are named."""
    if rules.no_bela:
        return _(
            "**Bela** is not played in this match (a house rule): the trump king and Ober "
            "in one hand are worth nothing together."
        )
    if rules.bela_on_second:
        if auto_bela:
            return _(
                "**Bela.** The trump king and Ober in one hand: 20 points, announced with "
                "the second of them to be played (a house rule); the app announces it for you."
            )
        return _(
            "**Bela.** The trump king and Ober in one hand: 20 points, announced with "
            "the second of them to be played (a house rule); you are asked."
        )
    if auto_bela:
        return _(
            "**Bela.** The trump king and Ober in one hand: 20 points, announced with the "
            "first of them to be played; the app announces it for you (the settings can "
            "have you asked)."
        )
    return _(
        "**Bela.** The trump king and Ober in one hand: 20 points, announced with the "
        "first of them to be played; you are asked."
    )


def _match_end(rules: Rules, target: int | None) -> list[str]:
    """How the match is won: to the target (every target when None), brza 163, dosta."""
    to_target = _(
        "**The match.** First to the target (501, 701 or 1001) wins; if both pass it, the "
        "higher total wins."
    )
    quick = _(
        "**Brza 163** (the quick match): three deals, then the higher total wins; equal "
        "totals play one more deal at a time. Belot still wins at once."
    )
    if target == QUICK_TARGET:
        return [quick]
    parts = (
        [to_target]
        if target is None
        else [
            _(
                "**The match.** This one is played to {target}: the first team to reach it wins; "
                "if both do in the same deal, the higher total wins."
            ).format(target=target)
        ]
    )
    if rules.dosta:
        parts.append(
            _(
                "**Na dosta** (a house rule): the player who has just won a trick may say "
                "*dosta* before leading again, when the points counted so far reach the "
                "target. It ends the match at once: a right claim wins it, a wrong one loses it."
            )
        )
    if target is None:
        parts.append(quick)
    return parts


def house_rules_text(rules: Rules, in_play: bool) -> str:
    """A Markdown section naming the house rules (the labels are ours: no outside text)."""
    if in_play:
        lines = ["## " + _("House rules of this match"), ""]
    else:
        lines = ["## " + _("House rules of the next new match"), ""]
    chosen = [rule_label(c) for c in RULE_CHOICES if getattr(rules, c.field) == c.value]
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

    def __init__(
        self,
        rules: Rules | None = None,
        in_play: bool = False,
        target: int | None = None,
        auto_bela: bool = True,
    ) -> None:
        """``rules`` and ``target`` of the match at the table (``in_play``) or the next one;
        ``auto_bela``: the app announces bela for the player (the help says so)."""
        super().__init__()
        self.rules = rules if rules is not None else Rules()
        self.in_play = in_play
        self.target = target
        self.auto_bela = auto_bela

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,question_mark", "close", N_("Back"))
    ]

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="help"):
            yield language_picker(self._language_setting(), prefixed=True)
            why = self._language_why()
            if why:
                yield Static(Text(why), id="help-language-why")
            text = help_text(self.rules, self.target, self.auto_bela)
            title, rest = text.split("\n", 1)
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

    def _language_why(self) -> str:
        """The language in use when ``--lang`` chose it over the saved one (the picker shows
        the saved setting), said as the settings screen says it; else ""."""
        from bela.i18n import LANGUAGE_NAMES, current_language
        from bela.tui.app import BelaApp

        app = self.app
        if not isinstance(app, BelaApp) or app.sources.get("language") != "flag":
            return ""
        saved = app.language_setting
        if saved == current_language():
            return ""
        return _(
            "{setting}: {value} in this run, given on the command line (saved: {saved})."
        ).format(
            setting=_("Language"),
            value=LANGUAGE_NAMES.get(current_language(), current_language()),
            saved=LANGUAGE_NAMES.get(saved, saved) if saved else _("automatic (from the system)"),
        )

    def _language_setting(self) -> str:
        from bela.tui.app import BelaApp

        app = self.app
        return app.language_setting if isinstance(app, BelaApp) else ""

    def redraw_language(self) -> None:
        self.refresh(recompose=True)

    def action_close(self) -> None:
        self.dismiss(None)
