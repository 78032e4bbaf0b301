"""House rules under one name each (issue #22), in the player's language, wherever a
match's rules are listed: start screen, score panel, blok, history, replay. The ids
(``bela-second``) are for ``--rules`` only; the engine's field names never show."""

from __future__ import annotations

import re

import pytest
from rich.console import Console
from textual.widgets import Static
from tui_pilot import make_app, settle, table

from bela.archive.history import _rule_names
from bela.archive.records import record_from_match
from bela.archive.replay_text import render_sheet
from bela.engine import Match, Rules
from bela.i18n import _, set_language
from bela.settings import RULE_CHOICES, rules_summary, stored_rule_name
from bela.tui import BelaApp
from bela.tui.widgets import ScoreSheet


def ids_and_fields(text: str) -> list[str]:
    """Any rule id or engine field name in ``text`` that is not also the rule's own name."""
    found = []
    for choice in RULE_CHOICES:
        own = _(choice.short)
        for word in (choice.name, choice.field):
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text.replace(own, "")):
                found.append(word)
    return found


def _rules(choice_index: int) -> Rules:
    choice = RULE_CHOICES[choice_index]
    return Rules(**{choice.field: choice.value})  # type: ignore[arg-type]


@pytest.mark.parametrize("index", range(len(RULE_CHOICES)))
def test_each_rule_has_one_croatian_name_in_every_list(index: int) -> None:
    set_language("hr")
    choice = RULE_CHOICES[index]
    rules = _rules(index)
    name = _(choice.short)
    match = Match.new(5, 501, rules)
    console = Console(record=True, width=200)
    console.print(render_sheet(match, "normal"))
    blok = console.export_text()
    stored = _rule_names(record_from_match(match, "normal"))
    history = ", ".join(map(stored_rule_name, stored))
    assert rules_summary(rules) == name
    assert history == name
    assert name in blok
    for text in (rules_summary(rules), history, blok):
        assert not ids_and_fields(text), (ids_and_fields(text), text)


def test_the_names_are_croatian_words() -> None:
    set_language("hr")
    names = {c.field: _(c.short) for c in RULE_CHOICES}
    assert names["bela_on_second"] == "bela na drugu kartu"
    assert names["no_forced_trump"] == "bez obaveznog aduta"
    assert names["stiglja_bonus"] == "štiglja 100"
    assert len(set(names.values())) == len(names)  # one name, one rule


@pytest.mark.slow
async def test_start_screen_and_score_panel_name_the_rules_alike() -> None:
    rules = Rules(bela_on_second=True, stiglja_bonus=100)
    app = BelaApp(resume=None, hold_delay=0.0, language="hr", rules=rules)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        start = str(app.screen.query_one("#start-rules", Static).content)
    expected = "bela na drugu kartu, štiglja 100"
    assert expected in start
    app = make_app(seed=7, rules=rules, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        panel = table(app).query_one(ScoreSheet).rules
    assert panel == expected
    for text in (start, panel):
        assert not ids_and_fields(text), text
