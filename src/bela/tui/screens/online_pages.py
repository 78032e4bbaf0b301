"""The public server's dialogs in the app's lobby: a new table's choices, a page of lines
(the leaderboard, a player's page, the weekly league) and a name asked for.

Why dialogs over the lobby and not screens of their own: the lobby's list stays where it
was behind them, and Esc always goes back to it.

Every name and line shown here came from the network: plain ``Text``, never markup.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from bela.engine import TARGETS, Rules
from bela.foundation.untrusted import oneline
from bela.i18n import N_, _
from bela.settings import RULE_CHOICES, rule_label
from bela.tui.screens.settings import Tick
from bela.tui.widgets import TooSmall

__all__ = ["INVITE_LIMIT", "LobbyPage", "NamePrompt", "NewTableDialog", "invite_names"]

INVITE_LIMIT = 3
NAME_LENGTH = 24


def invite_names(text: str) -> list[str]:
    """The names typed for invitations, separated by commas (each trimmed, empty ones left
    out); ``ValueError`` when more than ``INVITE_LIMIT`` or one too long."""
    names = [" ".join(part.split()) for part in text.split(",")]
    names = [name for name in names if name]
    if len(names) > INVITE_LIMIT:
        raise ValueError(_("at most three players can be invited to a table"))
    for name in names:
        if len(name) > NAME_LENGTH:
            raise ValueError(
                _("a name is at most {count} characters: {name}").format(
                    count=NAME_LENGTH, name=oneline(name, NAME_LENGTH)
                )
            )
    return names


class NewTableDialog(ModalScreen[dict[str, Any] | None]):
    """A new table's target, house rules, private or public, rated or not, and whom to
    invite; dismissed with the lobby's ``create`` request, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Back"))]

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="new-table", classes="dialog"):
            yield Static(_("A new table"), classes="title")
            yield Label(_("Play to"))
            yield Select(
                [(str(target), target) for target in TARGETS],
                value=1001,
                allow_blank=False,
                id="target",
            )
            yield Tick(
                _("Private: friends join with its code or your invitation"),
                value=False,
                id="private",
            )
            yield Tick(
                _("Rated (no bot, no guest; ratings and the league move)"), value=True, id="rated"
            )
            yield Label(_("House rules"))
            with VerticalScroll(id="new-table-rules"):
                for choice in RULE_CHOICES:
                    yield Tick(rule_label(choice), value=False, id=f"rule-{choice.field}")
            yield Label(_("Invite players by name (up to three, separated by commas)"))
            yield Input(id="invite", max_length=100)
            yield Static(id="new-table-problem")
            with Horizontal(classes="buttons"):
                yield Button(_("Create"), id="create", variant="primary")
                yield Button(_("Back"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#target", Select).focus()

    def request(self) -> dict[str, Any]:
        """The lobby's ``create`` request for what is chosen; ``ValueError`` for bad names."""
        values: dict[str, bool | int] = {}
        for choice in RULE_CHOICES:
            if self.query_one(f"#rule-{choice.field}", Tick).value:
                values[choice.field] = choice.value
        target = self.query_one("#target", Select).value
        made: dict[str, Any] = {
            "type": "create",
            "target": target if isinstance(target, int) else 1001,
            "private": self.query_one("#private", Tick).value,
            "rated": self.query_one("#rated", Tick).value,
            "rules": Rules(**values).changed(),
        }
        names = invite_names(self.query_one("#invite", Input).value)
        if names:
            made["invite"] = names
        return made

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "create":
            self._create()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._create()

    def _create(self) -> None:
        try:
            request = self.request()
        except ValueError as exc:
            self.query_one("#new-table-problem", Static).update(Text(f"✗ {exc}"))
            return
        self.dismiss(request)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LobbyPage(ModalScreen[None]):
    """Lines to read (the leaderboard, a player's page, the league's table); Esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back")),
        Binding("enter", "close", N_("Back"), show=False),
    ]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="lobby-page", classes="dialog"):
            yield Static(Text(self.title_text), classes="title")
            with VerticalScroll(id="lobby-page-lines"):
                yield Static(Text("\n".join(oneline(line, 200) for line in self.lines)))
            yield Static(_("Esc goes back to the tables."))

    def action_close(self) -> None:
        self.dismiss(None)


class NamePrompt(ModalScreen[str | None]):
    """A player's name asked for (whose page, whom to mute, your new name)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Back"))]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="name-prompt", classes="dialog"):
            yield Static(self.question, classes="title")
            yield Input(id="name", max_length=NAME_LENGTH)
            yield Static(_("Enter confirms, Esc goes back."))

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        name = " ".join(event.value.split())
        self.dismiss(name or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
