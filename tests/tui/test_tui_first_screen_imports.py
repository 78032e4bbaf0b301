"""The start screen is drawn without the bots, records or other screens loaded (issue #12).

Not a timing test (``benchmarks/bench_first_screen.py`` measures the time): a
fresh interpreter runs the real ``bela`` command up to the start screen, with
the app headless, and reports which modules were imported by then. Each module
named here cost time before the first paint until it was made lazy; an import
added at the top of a module on that path brings it back, and this test says
which one came back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

# Imported only when first needed: when a match opens, a save is read, or help is shown.
NOT_BEFORE_THE_START_SCREEN = (
    "pydantic",  # records: only once a save or an archived match is read
    "bela.archive.records",
    "bela.engine.round",  # the engine past its rules and seeds: when a match is dealt
    "bela.engine.view",
    "bela.ai.normal.heuristic",  # the bots: when the table opens
    "bela.ai.hard",
    "bela.search.solver",
    "bela.tui.screens.table",
    "bela.tui.widgets.hand",
    "bela.tui.screens.help",  # Textual's Markdown: when help is first shown
    "markdown_it",
    # the other commands' parsers and code: only the command named is built (issue #26)
    "bela.cli.analyze",
    "bela.cli.arena",
    "bela.cli.coach",
    "bela.cli.history",
    "bela.cli.lab",
    "bela.cli.ladder",
    "bela.cli.net",
    "bela.cli.puzzles",
    "bela.cli.replay",
    "bela.net",
    "secrets",  # the random seed comes from random.SystemRandom (secrets brought hmac too)
)

# ``bela`` as the console script runs it, with ``App.run`` made headless and ended
# once the first screen is up; the last line printed is what was imported by then.
RUN_TO_FIRST_SCREEN = textwrap.dedent(
    """
    import json, sys
    import textual.app

    seen = {}
    run = textual.app.App.run

    from bela.tui.screens.start import StartScreen

    mount = StartScreen.on_mount

    def first_mount(self):  # the start screen as it goes up, before any save is read
        seen.setdefault("at_mount", sorted(sys.modules))
        mount(self)

    StartScreen.on_mount = first_mount

    def headless_run(self, *args, **kwargs):
        async def look(pilot):
            await pilot.pause()
            seen["screen"] = type(pilot.app.screen).__name__
            seen["modules"] = sorted(sys.modules)
            pilot.app.exit()

        return run(self, headless=True, size=(100, 40), auto_pilot=look)

    textual.app.App.run = headless_run
    import bela.cli.play  # a terminal that can run the app (this one's output is a pipe)

    bela.cli.play.wants_plain = lambda *args: False
    from bela.cli import main

    code = main([])
    print(json.dumps({"code": code, **seen}))
    """
)


def run_to_first_screen(data: Path) -> dict[str, Any]:
    """Run ``bela`` with ``data`` as its data directory up to the start screen; its report."""
    env = dict(os.environ, BELA_DATA_DIR=str(data))
    result = subprocess.run(
        [sys.executable, "-c", RUN_TO_FIRST_SCREEN],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert isinstance(report, dict)
    return report


def test_the_start_screen_comes_up_without_bots_records_or_other_screens(tmp_path: Path) -> None:
    report = run_to_first_screen(tmp_path / "data")
    assert report["code"] == 0
    assert report["screen"] == "StartScreen"
    loaded = set(report["modules"])
    assert [name for name in NOT_BEFORE_THE_START_SCREEN if name in loaded] == []


@pytest.mark.slow
def test_an_unfinished_match_is_read_after_the_start_screen_goes_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a save, the screen still goes up first; the save is read and offered after."""
    from bela.archive.records import record_from_match
    from bela.archive.storage import save_autosave
    from bela.engine import Match

    data = tmp_path / "data"
    monkeypatch.setenv("BELA_DATA_DIR", str(data))
    save_autosave(record_from_match(Match.new(5, 501), "easy"))
    report = run_to_first_screen(data)
    assert report["screen"] == "StartScreen"
    at_mount = set(report["at_mount"])
    assert [name for name in NOT_BEFORE_THE_START_SCREEN if name in at_mount] == []
    assert "bela.archive.records" in set(report["modules"])  # and then it was read
