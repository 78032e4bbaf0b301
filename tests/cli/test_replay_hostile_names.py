"""``bela replay FILE`` with players' names that look like markup (issue #24, finding 1).

A network copy of a match names its players, and the names are whatever the
other players typed. The round's title (a Rich ``Rule``) read them as markup:
``[/]`` ended in a ``MarkupError`` traceback, ``[link=...]`` put a clickable
link over the title and ``[bold red on white]`` restyled it.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

from bela.archive.records import dumps, record_from_match
from bela.archive.replay_text import match_rounds, render_round
from bela.cli import main
from bela.engine import Match
from bela.wording import at_table

HOSTILE = ("Ana", "[/]", "[link=file:///etc/hosts]", "[bold red on white]")


def _copy(tmp_path: Path) -> tuple[Path, Match]:
    rng = random.Random(7)
    match = Match.new(7, 501)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    record = record_from_match(match, "normal").model_copy(update={"players": HOSTILE, "me": 0})
    path = tmp_path / "copy.json"
    path.write_text(dumps(record))
    return path, match


def test_names_in_the_round_titles_are_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _copy(tmp_path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    titles = [line for line in out.splitlines() if re.search(r"Round \d+ · dealer", line)]
    assert len(titles) >= 4  # the dealer goes round: every seat's name is in a title
    joined = "\n".join(titles)
    for name in HOSTILE[1:]:
        assert f"dealer {name}" in joined or f"first to speak {name}" in joined, name


def test_no_link_or_style_comes_from_a_name(tmp_path: Path) -> None:
    """Rendered for a colour terminal: no OSC 8 hyperlink, no style but the rule's own."""
    _, match = _copy(tmp_path)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="truecolor", width=200)
    with at_table(HOSTILE, 0):
        for view in match_rounds(match)[:4]:
            console.print(render_round(view))
    out = buffer.getvalue()
    assert "\x1b]8;" not in out  # a hyperlink
    assert "[link=file:///etc/hosts]" in out and "[bold red on white]" in out
    assert "\x1b[1;31;47m" not in out  # bold red on white


def test_the_analysis_table_names_players_as_text(tmp_path: Path) -> None:
    """``render_analysis`` under a network table's names (as the app's post-mortem is): the
    seat column was a plain str, which a Rich table reads as markup."""
    from bela.cli.analyze import render_analysis
    from bela.search.analysis import analyze_round

    _, match = _copy(tmp_path)
    view = next(v for v in match_rounds(match) if v.written is not None)
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, color_system=None)
    with at_table(HOSTILE, 0):
        console.print(render_analysis(view, analyze_round(view.round, from_trick=6), "x", "normal"))
    out = buffer.getvalue()
    assert "[/]" in out and "[link=file:///etc/hosts]" in out
