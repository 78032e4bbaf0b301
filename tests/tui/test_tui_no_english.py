"""No English in hr (issue #22): every place a Croatian player met English words.

The command palette (its prompt, "No matches found", Textual's own commands), theme
names, the bela question's keys, the network lobby ("--name NAME", "host", the bots'
level), the arena's bot names, and the record errors of the command line ("not
complete JSON", "written by a newer bela", "a directory"). Each is rendered or
collected in hr and searched for the English words that leaked there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.command import CommandInput, CommandList
from textual.geometry import Region
from textual.widgets import Button

from bela.archive.records import dumps, record_from_match
from bela.cli import main
from bela.cli.net import default_name, join_line
from bela.engine import Card, Match
from bela.i18n import set_language
from bela.lab.arena import render_report, run_arena
from bela.net.phrases import Phrase, render
from bela.tui import BelaApp
from bela.tui.palette import BelaPalette, theme_label
from bela.tui.screens.net_table import lobby_title
from bela.tui.screens.prompts import BelaPrompt

LEAKS = (
    r"Search for",
    r"No matches found",
    r"\bTheme\b",
    r"current theme",
    r"\bQuit\b",
    r"\bKeys\b",
    r"\bScreenshot\b",
    r"\bMaximi[sz]e\b",
    r"\bMinimi[sz]e\b",
    r"\bdark\b",
    r"\blight\b",
    r"\(y\)",
    r"\bNAME\b",
    r"\bhost\b",
    r"\bnormal\b",
    r"\beasy\b",
    r"\bhard\b",
    r"\brandom\b",
    r"not complete JSON",
    r"newer bela",
    r"\bdirectory\b",
    r"regular file",
    r"\bbytes?\b",
    r"\bnot a bela match record\b",
)


def leaks(text: str) -> list[str]:
    return [pattern for pattern in LEAKS if re.search(pattern, text)]


def options_text(app: BelaApp) -> str:
    """Every line the palette lists now (its options' prompts, as plain text)."""
    listed = app.screen.query_one(CommandList)
    out = []
    for index in range(listed.option_count):
        prompt: Any = listed.get_option_at_index(index).prompt
        prompt = getattr(prompt, "renderable", prompt)
        out.append(prompt.plain if hasattr(prompt, "plain") else str(prompt))
    return "\n".join(out)


async def wait_for_options(pilot: Any) -> str:
    for _ in range(50):
        await pilot.pause(0.1)
        text = options_text(pilot.app)
        if text:
            return text
    raise AssertionError("the palette listed nothing")


def screen_text(app: BelaApp) -> str:
    """What the screen on top draws, widget by widget."""
    lines: list[str] = []
    for widget in app.screen.query("*"):
        if not widget.display or not widget.size.area:
            continue
        region = Region(0, 0, widget.size.width, widget.size.height)
        lines += [strip.text for strip in widget.render_lines(region)]
    return "\n".join(lines)


@pytest.mark.slow
async def test_the_command_palette_speaks_croatian() -> None:
    app = BelaApp(resume=None, hold_delay=0.0, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, BelaPalette)
        prompt = app.screen.query_one(CommandInput).placeholder
        listed = await wait_for_options(pilot)
        await pilot.press(*"qxqxqz")
        await pilot.pause(0.3)
        nothing = await wait_for_options(pilot)
        system = [
            f"{command.title} {command.help}" for command in app.get_system_commands(app.screen)
        ]
        await pilot.press("escape")
        await pilot.pause()
        app.search_themes()
        themes = await wait_for_options(pilot) + app.screen.query_one(CommandInput).placeholder
    assert "Ništa ne odgovara" in nothing
    assert "Tema" in " ".join(system)
    assert "Nord" in themes and "tamna" in themes
    for text in (prompt, listed, nothing, *system, themes):
        assert not leaks(text), (leaks(text), text)


def test_every_theme_has_a_croatian_name() -> None:
    app = BelaApp(resume=False)
    set_language("hr")
    names = [theme_label(name) for name in app.available_themes]
    assert "Textual, tamna" in names and "Nord" in names
    assert not leaks("\n".join(names)), names


async def test_the_bela_question_takes_no_letter_that_means_something_else() -> None:
    """Issue #35: in Croatian the question took d (dalje at the table) and n (a new match).
    Now Enter announces, 0 plays without bela, Esc takes the card back, in every language:
    no letter answers it."""
    app = BelaApp(resume=None, hold_delay=0.0, language="hr")
    answers: list[bool | None] = []
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        app.push_screen(BelaPrompt(Card.parse("KH")), answers.append)
        await pilot.pause()
        shown = screen_text(app) + " ".join(str(b.label) for b in app.screen.query(Button))
        await pilot.press("d", "n", "y")  # dalje, a new match, English "yes": no answer
        await pilot.pause()
        assert answers == [] and isinstance(app.screen, BelaPrompt)
        await pilot.press("0")
        await pilot.pause()
        app.push_screen(BelaPrompt(Card.parse("KH")), answers.append)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        app.push_screen(BelaPrompt(Card.parse("KH")), answers.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert answers == [False, True, None]
    assert "Bela! (Enter)" in shown and "Bez bele (0)" in shown and "Natrag (Esc)" in shown
    assert not leaks(shown), shown


def test_the_bela_questions_key_means_nothing_else_in_any_language() -> None:
    from bela.keys import LETTERS
    from bela.tui.screens.prompts import NO_BELA_KEY

    for letters in LETTERS.values():
        assert NO_BELA_KEY not in letters.values()
    assert NO_BELA_KEY not in "12345678"  # the cards' numbers


def test_the_lobby_and_the_hosts_lines() -> None:
    set_language("hr")
    texts = [
        lobby_title(501, "normal"),
        lobby_title(1001, "easy"),
        join_line("127.0.0.1:4711", "K7QF-M2XP-R9"),
        default_name("host"),
        render("", "bot_plays_for", Phrase("bot_plays_for", {"level": "hard", "name": "Ana"}).args),
    ]
    # the line is pasted as it is: the friend's own settings or login name them
    assert "normalni" in texts[0] and texts[2].endswith("bela join 127.0.0.1:4711 K7QF-M2XP-R9")
    for text in texts:
        assert not leaks(text), (leaks(text), text)


def test_the_arena_names_the_bots_in_croatian() -> None:
    set_language("hr")
    report = run_arena("random", "easy", deal_pairs=1, seed=1, jobs=1, progress=False)
    console = Console(record=True, width=120)
    console.print(render_report(report))
    text = console.export_text()
    assert "lagani" in text
    assert not leaks(text), (leaks(text), text)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(argv)
    return capsys.readouterr().err


def test_the_record_errors_of_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = dumps(record_from_match(Match.new(3, target=501), "normal"))
    cut = tmp_path / "cut.json"
    cut.write_text(good[: len(good) // 2])
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(json.loads(good) | {"schema_version": 99}))
    folder = tmp_path / "folder"
    folder.mkdir()
    errors = [run(["replay", str(path), "--lang", "hr"], capsys) for path in (cut, newer, folder)]
    assert "JSON" in errors[0] and "novija bela" in errors[1] and "mapa" in errors[2]
    for text in errors:
        assert not leaks(text), (leaks(text), text)


def test_the_command_lines_help_has_no_english_in_croatian(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue #35: ``bela --lang hr --help`` said "show program's version number and exit"
    (argparse's own default, never looked up), and ``bela puzzles --help`` "call H"."""
    from bela.cli import main

    texts = []
    for argv in (["--lang", "hr", "--help"], ["--lang", "hr", "puzzles", "--help"]):
        assert main(argv) == 0
        texts.append(capsys.readouterr().out)
    assert "prikaži verziju programa i izađi" in texts[0]
    for text in texts:
        for english in ("show program's", "version number", "usage", "options:", "call H"):
            assert english not in text, (english, text)
