"""The host's choice of table, in the app (issue #23, point 7).

``bela host`` on a data directory with unfinished tables opens them all for their
players and its app asks which one to sit at: each table with its code, target,
players, score and when it was last played (the last played first); a number or
Enter resumes one, ``n`` starts a new table, and the table talk says which. A
choice the options forbid (``--target 163`` for a match to 501) is said in one
line and the list stays.

The host runs for real (``_Hosting``: its own event loop in a thread, as ``bela
host`` runs it); the tables are saved by an earlier server on the same data
directory, the second one a moment later than the first.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from net_pilot import net_screen, until
from textual.widgets import OptionList, Static

from bela.cli.net import HostOptions, _Hosting, host_choice
from bela.cli.options import parse
from bela.net.saves import TableSaver, tables_dir
from bela.net.server import Server, ServerOptions
from bela.tui import BelaApp
from bela.tui.screens.host_choice import HostChoiceScreen, last_played_words
from bela.tui.widgets.table_talk import TableTalk


async def _two_unfinished_tables() -> list[str]:
    """Two started tables to 501, saved; the second played last (its files are newer)."""
    server = Server(ServerOptions(difficulty="random", bot_delay=0.0, target=501), TableSaver())
    codes = []
    for name in ("Ana", "Ivo"):
        table = server.new_table()
        table.seats[0].name = name
        table.seats[0].host = True  # the host's own app sat there: it comes back by the key
        table.start(7, server.options.rules)
        codes.append(table.code)
    await asyncio.sleep(0.3)  # saved at the start
    await server.close()
    older = time.time() - 3600
    for path in tables_dir().iterdir():
        if codes[0] in path.read_text(errors="replace"):
            os.utime(path, (older, older))
    return codes


def _hosting(*flags: str) -> _Hosting:
    options = parse(["host", "--port", "0", "--bot-delay", "0", "--bots", "random", *flags])
    assert isinstance(options, HostOptions)
    hosting = _Hosting(options, defer=True)
    hosting.start()
    return hosting


def _lines(screen: HostChoiceScreen) -> list[str]:
    options = screen.query_one("#tables", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_the_host_resumes_the_table_it_chooses_by_its_number(data_dir: Path) -> None:
    ana, ivo = await _two_unfinished_tables()
    hosting = _hosting()
    try:
        app = BelaApp(host_choice=host_choice(hosting), reduced_motion=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HostChoiceScreen))
            screen = app.screen
            assert isinstance(screen, HostChoiceScreen)
            lines = _lines(screen)
            assert len(lines) == 3 and "A new table" in lines[2]
            first = f"1. {ivo} · to 501 · Ivo and bot 3 0 : 0 bot 2 and bot 4 · today "
            assert lines[0].startswith(first)  # last played first
            assert lines[1].startswith(
                f"2. {ana} · to 501 · Ana and bot 3 0 : 0 bot 2 and bot 4 · "
            )
            await pilot.press("2")
            await until(pilot, lambda: net_screen(app).state is not None)
            table = net_screen(app)
            assert table.session.code == ana and hosting.code == ana
            assert table.state is not None and table.state.seats[0].name == "Ana"
            talk = table.query_one("#log", TableTalk)
            said = [e.plain for e in talk.entries]
            assert any(line.startswith(f"Resuming the table {ana}") for line in said)
            assert any(f"bela join 127.0.0.1:{hosting.port} {ana}" in line for line in said)
    finally:
        hosting.stop()


async def test_n_starts_a_new_table_and_the_unfinished_ones_stay_open(data_dir: Path) -> None:
    codes = await _two_unfinished_tables()
    hosting = _hosting()
    try:
        app = BelaApp(host_choice=host_choice(hosting), reduced_motion=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HostChoiceScreen))
            await pilot.press("n")
            await until(pilot, lambda: net_screen(app).lobby is not None)
            table = net_screen(app)
            assert table.session.code not in codes
            said = [e.plain for e in table.query_one("#log", TableTalk).entries]
            assert any("A new table" in line for line in said)
            assert hosting.server is not None
            open_codes = {t.code for t in hosting.server.tables.values()}
            assert set(codes) | {table.session.code} <= open_codes
    finally:
        hosting.stop()


async def test_a_choice_the_options_forbid_is_said_and_the_list_stays(data_dir: Path) -> None:
    _ana, ivo = await _two_unfinished_tables()
    hosting = _hosting("--target", "163")
    try:
        app = BelaApp(host_choice=host_choice(hosting), reduced_motion=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HostChoiceScreen))
            screen = app.screen
            assert isinstance(screen, HostChoiceScreen)
            await pilot.press("enter")  # the first: Ivo's table, a match to 501
            problem = screen.query_one("#choice-problem", Static)
            await until(pilot, lambda: "--target 163" in str(problem.render()))
            text = str(problem.render())
            assert ivo in text and "--new" in text and "\n" not in text.strip()
            assert app.screen is screen and hosting.code is None  # nothing chosen
            await pilot.press("n")  # a new table to 163, as asked
            await until(pilot, lambda: net_screen(app).lobby is not None)
            lobby = net_screen(app).lobby
            assert lobby is not None and lobby.target == 163
    finally:
        hosting.stop()


async def test_no_unfinished_table_means_no_question(data_dir: Path) -> None:
    hosting = _hosting()
    try:
        assert hosting.code is not None and hosting.about == []  # a new table at once
    finally:
        hosting.stop()


def test_last_played_is_the_time_today_else_the_date() -> None:
    now = time.mktime((2026, 12, 2, 12, 0, 0, 0, 0, -1))
    assert last_played_words(now - 3600, now) == "today 11:00"
    assert last_played_words(now - 3 * 86400, now) == "2026-11-29 12:00"
    assert last_played_words(None, now) == "-"


def test_each_pair_is_named_beside_its_score() -> None:
    """Issue #33: the resume chooser said "23 : 411" without saying which pair had which."""
    from bela.tui.screens.host_choice import UnfinishedTable, table_line

    table = UnfinishedTable("ABCD-EFGH-JK", 501, ("Ana", "Ivo", "Mia", None), (23, 411), None)
    line = table_line(1, table).plain
    assert "Ana and Mia 23 : 411 Ivo and bot 4" in line
