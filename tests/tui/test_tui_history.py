"""Issue #13's screens: the history (F3), stepping through a match, resuming a shelved one,
the statistics (F4) and the full score sheet ("blok", b).

The archive is written straight into ``matches/`` with fixed time stamps in the
names (as ``storage.archive_match`` names them), from matches played by random
legal moves: quick, and the same every run, so the pictures are too.
"""

from __future__ import annotations

import io
import itertools
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static
from tui_pilot import human_move, make_app, settle, table

from bela.archive.history import open_history
from bela.archive.records import dumps, record_from_match
from bela.archive.replay_text import card_text, match_rounds
from bela.archive.stats import statistics
from bela.archive.storage import matches_dir, read_record
from bela.engine import Match, Pass, Rules
from bela.table_text import SEAT_NAMES
from bela.tui import BelaApp
from bela.tui.commands import BelaCommands
from bela.tui.screens.history import HistoryScreen, ReplayScreen
from bela.tui.screens.sheet import SheetScreen
from bela.tui.screens.stats import StatsScreen, race_text, stats_text
from bela.tui.widgets.score_sheet import ScoreSheet

SIZE = (80, 24)
Snap = Callable[..., bool]


def random_match(seed: int, steps: int | None = None, target: int = 501, **rules: Any) -> Match:
    """The match of ``seed`` after ``steps`` random legal actions (to its end when None)."""
    rng = random.Random(seed)
    match = Match.new(seed, target=target, rules=Rules(**rules))
    done = 0
    while match.current is not None and (steps is None or done < steps):
        match = match.apply(rng.choice(match.current.legal_actions()))
        done += 1
    return match


def long_unfinished(rounds: int, seed: int = 5) -> Match:
    """An unfinished match of ``rounds`` rounds: all pass (a redeal each time), then one more."""
    rng = random.Random(seed)
    match = Match.new(seed, target=501, rules=Rules(no_forced_trump=True))
    while match.next_index < rounds:
        assert match.current is not None
        legal = match.current.legal_actions()
        match = match.apply(Pass() if Pass() in legal else rng.choice(legal))
    return match


def put(match: Match, difficulty: str, day: int) -> str:
    """Archive ``match`` as if on day ``day`` of January 2026; returns the file name."""
    name = f"202601{day:02d}T120000Z-{match.seed}.json"
    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(dumps(record_from_match(match, difficulty)), encoding="utf-8")
    return name


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Dates are shown in local time: pin it, so the lists and pictures are the same anywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def archive(data_dir: Path) -> dict[str, str]:
    """Four matches, by seed: finished (easy, normal, normal under visi), one unfinished (hard)."""
    return {
        "1": put(random_match(1), "easy", 1),
        "2": put(random_match(2, target=701), "normal", 2),
        "3": put(random_match(3, 150, 1001), "hard", 3),
        "4": put(random_match(4, visi=True), "normal", 4),
    }


def still(**kwargs: Any) -> BelaApp:
    app = make_app(**{"difficulty": "random", "resume": None, **kwargs})
    app.notify = lambda *args, **kw: None  # type: ignore[method-assign]
    return app


async def open_history_screen(pilot: Pilot[Any]) -> HistoryScreen:
    await pilot.pause()
    await pilot.press("f3")
    for _ in range(200):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, HistoryScreen) and screen.loaded:
            return screen
    raise AssertionError("the history never loaded")


def listed(screen: HistoryScreen) -> list[str]:
    grid = screen.query_one("#history-table", DataTable)
    return [str(key.value) for key in grid.rows]


def shown_text(widget: Static) -> str:
    return str(widget.content)


def rendered(renderable: Any, width: int = 120) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


# ---------------------------------------------------------------------- the list


@pytest.mark.slow
async def test_the_history_lists_every_match_newest_first_and_filters(
    archive: dict[str, str],
) -> None:
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        assert listed(screen) == [archive[s] for s in ("4", "3", "2", "1")]
        grid = screen.query_one("#history-table", DataTable)
        first = [str(cell) for cell in grid.get_row_at(0)]
        assert first[:3] == ["2026-01-04 12:00", "501", "normal"]
        assert first[3] == "visi" and first[4].startswith(("won ", "lost "))

        screen.query_one("#history-difficulty", Select).value = "normal"
        await pilot.pause()
        assert listed(screen) == [archive["4"], archive["2"]]
        screen.query_one("#history-outcome", Select).value = "unfinished"
        await pilot.pause()
        assert listed(screen) == []
        screen.query_one("#history-difficulty", Select).value = "all"
        await pilot.pause()
        assert listed(screen) == [archive["3"]]
        screen.query_one("#history-outcome", Select).value = "all"
        await pilot.press("slash", *"visi")
        await pilot.pause()
        assert screen.query_one("#history-text", Input).has_focus
        assert listed(screen) == [archive["4"]]


@pytest.mark.slow
async def test_a_damaged_record_is_listed_with_its_reason_and_a_hostile_name_literally(
    data_dir: Path,
) -> None:
    put(random_match(1), "easy", 1)
    hostile = "20250101T000000Z-[@click=app.quit]x[b]y[@click=].json"
    (matches_dir() / hostile).write_text("{nope", encoding="utf-8")
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        assert listed(screen)[-1] == hostile
        grid = screen.query_one("#history-table", DataTable)
        assert "damaged" in [str(cell) for cell in grid.get_row_at(1)]
        await pilot.press("down")
        detail = shown_text(screen.query_one("#history-detail", Static))
        assert hostile in detail
        assert "not a bela match record" in detail and "JSON" in detail
        await pilot.press("enter")  # a damaged match cannot be opened: it stays listed
        await pilot.pause()
        assert app.screen is screen and app.is_running


@pytest.mark.slow
async def test_a_first_full_build_shows_its_progress_and_then_the_list(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for day in range(1, 26):
        put(Match.new(day, 501), "easy", day)  # unplayed: quick to write and to replay
    seen: list[tuple[int, bool]] = []
    building = HistoryScreen._building

    def spy(screen: HistoryScreen, todo: int) -> None:
        building(screen, todo)
        bar = screen.query_one("#history-progress")
        seen.append((todo, bar.display and not bar.has_class("-done")))

    monkeypatch.setattr(HistoryScreen, "_building", spy)
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        assert seen == [(25, True)]
        assert screen.query_one("#history-progress").has_class("-done")
        assert len(listed(screen)) == 25
        await pilot.press("escape")
        await open_history_screen(pilot)  # the index is built: no progress the second time
        assert len(seen) == 1


# ---------------------------------------------------------------------- one match


@pytest.mark.slow
async def test_left_and_right_step_through_the_tricks_and_up_down_through_rounds(
    archive: dict[str, str],
) -> None:
    match = random_match(1)
    views = match_rounds(match)
    steps = [(i, t) for i, view in enumerate(views) for t in range(len(view.round.tricks) + 1)]
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        grid = screen.query_one("#history-table", DataTable)
        grid.move_cursor(row=3)
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.row.file == archive["1"]
        assert replay.steps == steps

        def shown() -> str:
            return shown_text(replay.query_one("#replay-step", Static))

        assert f"Round 1 of {len(views)}" in shown() and "The deal" in shown()
        wanted = next(k for k, (i, t) in enumerate(steps) if t == 3)  # the third trick played
        await pilot.press(*["right"] * wanted)
        index, trick_no = steps[wanted]
        trick = views[index].round.tricks[trick_no - 1]
        text = shown()
        assert f"Round {index + 1} of" in text
        assert f"Trick 3 of {len(views[index].round.tricks)}" in text
        seats = {line[:11].split()[0]: line[11:] for line in text.splitlines()[4:8]}
        for place, card in enumerate(trick.cards):
            name = SEAT_NAMES[trick.seat_of(place)]
            assert seats[name].split()[0] == card_text(card).plain, seats
        first = views[index].round.tricks[0]
        yours = seats["You"]
        assert card_text(first.cards[(0 - first.leader) % 4]).plain not in yours
        assert sum(yours.count(suit) for suit in "♥♦♠♣") == 1 + 6  # the card played, the hand
        await pilot.press("left")
        assert "Trick 2 of" in shown()
        await pilot.press("down")
        assert f"Round {index + 2} of" in shown() and "The deal" in shown()
        sheet = shown_text(replay.query_one("#replay-sheet", Static))
        assert sheet.splitlines()[-2].lstrip().startswith(str(index + 2))
        await pilot.press("up", "up")
        assert f"Round {index} of" in shown() or index == 0
        await pilot.press("s")  # this match's score race
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen) and app.screen.file == archive["1"]


# ---------------------------------------------------------------------- resume


@pytest.mark.slow
async def test_resuming_a_shelved_match_keeps_the_one_at_the_table(
    archive: dict[str, str],
) -> None:
    app = still(resume=False, seed=7)
    async with app.run_test(size=(100, 32)) as pilot:
        assert await settle(pilot) == "turn"
        await human_move(pilot, table(app))
        assert await settle(pilot) == "turn"
        playing = table(app).match
        screen = await open_history_screen(pilot)
        grid = screen.query_one("#history-table", DataTable)
        grid.move_cursor(row=listed(screen).index(archive["3"]))
        await pilot.press("r")
        for _ in range(100):
            await pilot.pause()
            if table(app).match.seed == 3:
                break
        resumed = table(app).match
        assert resumed.seed == 3 and not resumed.is_over
        assert len(app.screen_stack) == 2
    shelved = read_record(matches_dir() / archive["3"].replace(".json", ".resumed"))
    assert shelved.seed == 3
    assert not (matches_dir() / archive["3"]).exists()
    kept = [read_record(p) for p in matches_dir().glob("*-7.json")]
    assert [(r.seed, r.winner) for r in kept] == [(7, None)]
    assert len(kept[0].rounds[-1].actions) >= len(playing.current.actions)  # type: ignore[union-attr]
    with open_history() as history:
        files = [row.file for row in history.matches()]
    assert archive["3"] not in files and len(files) == 4  # not offered twice


@pytest.mark.slow
async def test_resuming_from_the_start_screen_opens_the_table(archive: dict[str, str]) -> None:
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        grid = screen.query_one("#history-table", DataTable)
        grid.move_cursor(row=listed(screen).index(archive["3"]))
        await pilot.press("r")
        assert await settle(pilot) == "turn"
        assert table(app).match.seed == 3 and len(app.screen_stack) == 2
    assert (matches_dir() / archive["3"].replace(".json", ".resumed")).exists()
    assert sorted(p.name for p in matches_dir().glob("*.json")) == sorted(
        archive[s] for s in ("1", "2", "4")
    )


@pytest.mark.slow
async def test_a_finished_match_is_not_resumed(archive: dict[str, str]) -> None:
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        await pilot.press("r")  # the newest is finished
        await pilot.pause()
        assert app.screen is screen
    assert sorted(p.name for p in matches_dir().iterdir()) == sorted(archive.values())


# ---------------------------------------------------------------------- statistics


async def open_stats(pilot: Pilot[Any]) -> StatsScreen:
    await pilot.pause()
    await pilot.press("f4")
    for _ in range(200):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, StatsScreen) and screen.statistics is not None:
            await pilot.pause()
            return screen
    raise AssertionError("the statistics never came")


async def test_the_statistics_screen_shows_the_numbers_of_stats_statistics(
    archive: dict[str, str],
) -> None:
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_stats(pilot)
        with open_history() as history:
            expected = statistics(history)
        assert screen.statistics == expected
        text = shown_text(screen.query_one("#stats-numbers", Static))
        assert text == stats_text(expected).plain
        assert f"Matches {expected.played}: won {expected.won}" in text
        assert f"Rounds {expected.rounds}" in text
        assert screen.query("#race") and screen.query("#results")


async def test_without_plotext_the_plots_are_text(
    archive: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "textual_plotext", None)  # import fails
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_stats(pilot)
        race = screen.query_one("#race", Static)
        assert shown_text(race).startswith("Score race to 501")  # the newest: seed 4, to 501
        with open_history() as history:
            from bela.archive.stats import score_race

            assert shown_text(race) == race_text(score_race(history, archive["4"]), 501).plain


# ---------------------------------------------------------------------- the full sheet


@pytest.mark.slow
async def test_b_shows_every_round_of_a_long_match(data_dir: Path) -> None:
    match = long_unfinished(40)
    app = still(resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "turn"
        app.open_table(match, "random")
        await pilot.pause()
        await pilot.pause()
        side = table(app).query_one(ScoreSheet)
        assert "earlier (b: all)" in side.render().plain  # the side panel folds, and says how
        await pilot.press("b")
        await pilot.pause()
        sheet = app.screen
        assert isinstance(sheet, SheetScreen)
        text = rendered(sheet.query_one("#full-sheet-table", Static).content)
        numbers = [line.split("│")[1].strip() for line in text.splitlines() if "│" in line]
        assert numbers[:40] == [str(n) for n in range(1, 41)] and "earlier" not in text
        assert "target 501" in text and "redeal" in text
        names = [name for name, _, _ in BelaCommands(table(app))._commands()]
        assert {"Score sheet", "History", "Statistics"} <= set(names)
        await pilot.press("b")
        await pilot.pause()
        assert app.screen is table(app)


@pytest.mark.slow
async def test_the_match_end_screen_opens_the_full_sheet(data_dir: Path) -> None:
    from bela.tui.screens.match_end import MatchEndScreen

    match = random_match(2)
    app = still(resume=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "turn"
        await app.push_screen(MatchEndScreen(match))
        await pilot.pause()
        await pilot.click("#blok")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen) and app.screen.match is match
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MatchEndScreen)
        # the dialog hides the app's keys; the history and the statistics still open
        for key, kind in (("f3", HistoryScreen), ("f4", StatsScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind), key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MatchEndScreen)


# ---------------------------------------------------------------------- pictures


def test_history_screen_picture(snap_compare: Snap, archive: dict[str, str]) -> None:
    (matches_dir() / "20250101T000000Z-[@click=app.quit]x.json").write_text("{", "utf-8")

    async def ready(pilot: Pilot[Any]) -> None:
        await open_history_screen(pilot)
        await pilot.pause()

    assert snap_compare(still(), terminal_size=SIZE, run_before=ready)


def test_replay_screen_picture(snap_compare: Snap, archive: dict[str, str]) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        screen = await open_history_screen(pilot)
        screen.query_one("#history-table", DataTable).move_cursor(row=1)
        await pilot.press("enter", "down", "right", "right")
        await pilot.pause()

    assert snap_compare(still(), terminal_size=SIZE, run_before=ready)


@pytest.mark.slow
def test_statistics_screen_picture(snap_compare: Snap, archive: dict[str, str]) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        await open_stats(pilot)
        await pilot.pause()

    assert snap_compare(still(), terminal_size=SIZE, run_before=ready)


@pytest.mark.slow
def test_sheet_screen_picture(snap_compare: Snap) -> None:
    async def ready(pilot: Pilot[Any]) -> None:
        assert await settle(pilot) == "turn"
        pilot.app.open_table(random_match(2, 700, 701), "random")  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(still(resume=False), terminal_size=SIZE, run_before=ready)


@given(values=st.lists(st.integers(-600, 1200), min_size=1, max_size=60), most=st.integers(2, 12))
def test_plot_axes_tick_whole_numbers_only(values: list[int], most: int) -> None:
    """A round, a match and a written point are whole: the F4 plots never say 2.5, tick at
    a round step (1, 2, 5 x 10^k) inside the data's span, and show 0 when the span has it."""
    from bela.tui.screens.stats import _whole_ticks

    ticks = _whole_ticks(values, most)
    assert 1 <= len(ticks) <= most and all(isinstance(t, int) for t in ticks)
    assert min(values) <= ticks[0] and ticks[-1] <= max(values)
    if len(ticks) > 1:
        step = ticks[1] - ticks[0]
        assert str(step).rstrip("0") in ("1", "2", "5")
        assert all(b - a == step and a % step == 0 for a, b in itertools.pairwise(ticks))
        assert ticks[0] - step < min(values) and ticks[-1] + step > max(values)
        if min(values) <= 0 <= max(values):
            assert 0 in ticks


@pytest.mark.slow
async def test_a_network_copy_is_stepped_through_with_the_names_from_the_readers_seat(
    data_dir: Path,
) -> None:
    """A player's copy of a network match (seat 3) names the seats by the players, the
    reader's too (their name at that table, not "You" used as a name: issue #35), puts the
    reader's team first in "now"; a markup-like name is text."""
    match = random_match(5)
    names = ("Ana", "[b]Ivo", "Mara", "Luka")
    record = record_from_match(match, "normal").model_copy(update={"players": names, "me": 3})
    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "20260110T120000Z-5.json").write_text(dumps(record), encoding="utf-8")
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        assert listed(screen) == ["20260110T120000Z-5.json"]
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        text = shown_text(replay.query_one("#replay-step", Static))
        seats = [line[:11].strip() for line in text.splitlines()[4:8]]
        assert seats == ["Ana (vi)", "[b]Ivo (mi)", "Mara (vi)", "Luka (mi)"]
        sheet = shown_text(replay.query_one("#replay-sheet", Static))
        first = sheet.splitlines()[0].split()
        assert first[1:3] == ["vi", "mi"]  # team 0's column first: theirs, from seat 3
        assert f"now {match.rounds[0].written[1]}:{match.rounds[0].written[0]}" in sheet


def test_network_matches_in_the_statistics_screen_name_no_bots_as_partners(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a network match counted the partner and the opponents were people: the
    screen does not call them Marko, Ivo and Ana; the history lists it with their names."""
    from bela.archive.storage import archive_match
    from bela.engine import Match
    from bela.tui.screens.history import matches_shown
    from bela.tui.screens.stats import stats_text

    monkeypatch.setenv("BELA_DATA_DIR", str(tmp_path / "data"))
    rng = random.Random(6)
    match = Match.new(6, 501)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    record = record_from_match(match, "easy")
    archive_match(record)
    with open_history() as history:
        alone = stats_text(statistics(history)).plain
    assert "mi (you, Marko)" in alone
    names = ("Ana", "Ivo", "Mara", "Luka")
    archive_match(record.model_copy(update={"players": names, "me": 1}))
    with open_history() as history:
        both = stats_text(statistics(history)).plain
        rows = history.matches()
    assert "Marko" not in both and "mi (you and your partner)" in both
    network = [row for row in rows if row.players is not None]
    assert [row.difficulty for row in network] == ["network"]
    assert matches_shown(rows, "network") == network  # the history's level filter
    assert matches_shown(rows, "all", text="luka") == network  # names are searched too


@pytest.mark.slow
async def test_a_brza_163_is_stepped_through_as_three_deals_not_to_163(data_dir: Path) -> None:
    """Issue #22: the replay said "to 163" of a quick match both teams were far past."""
    quick = random_match(9, target=163)
    assert quick.is_over
    put(quick, "easy", 5)
    app = still()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        screen.query_one("#history-table", DataTable).move_cursor(row=0)
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        step = shown_text(replay.query_one("#replay-step", Static))
        sheet = shown_text(replay.query_one("#replay-sheet", Static))
        assert "brza 163 (three deals)" in step and "to 163" not in step
        assert "brza 163 · now" in sheet and "to 163" not in sheet


async def test_at_80_columns_the_bots_level_is_not_cut_in_croatian(
    archive: dict[str, str],
) -> None:
    """Issue #35: F3's bots column was 6 wide, and "normalni" read "normal" at 80x24."""
    app = still(language="hr")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_history_screen(pilot)
        grid = screen.query_one("#history-table", DataTable)
        bots = next(column for column in grid.columns.values() if column.key.value == "bots")
        assert bots.width >= len("normalni")
        levels = {str(grid.get_row_at(i)[2]) for i in range(grid.row_count)}
        assert "normalni" in levels
        region = grid.region
        assert screen.region.contains_region(region)


async def test_at_80_columns_the_filters_read_whole_in_croatian(
    archive: dict[str, str],
) -> None:
    """Issue #35: at 80x24 F3's outcome filter read "Bilo koji" over a stray "rezultat", and
    the text filter's hint was cut after "pravila,"."""
    from rich.cells import cell_len

    app = still(language="hr")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_history_screen(pilot)
        text = screen.query_one("#history-text", Input)
        assert cell_len(str(text.placeholder)) <= text.content_size.width
        outcome = screen.query_one("#history-outcome", Select)
        label = next(str(p) for p, v in outcome._options if v == outcome.value)
        assert cell_len(label) + 2 <= outcome.content_size.width  # the label and its ▼


@pytest.mark.parametrize("lang", ["en", "hr"])
async def test_the_replays_sheet_head_is_whole_at_80x24(data_dir: Path, lang: str) -> None:
    """Issue #35, read at 80x24 in hr: the step-through's sheet headed "... Σvi bilj…". The
    note column's word is left out where it does not fit (the marks say what they are)."""
    from rich.cells import cell_len

    match = random_match(5)
    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    record = record_from_match(match, "normal")
    (directory / "20260110T120000Z-5.json").write_text(dumps(record), encoding="utf-8")
    app = still(language=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_history_screen(pilot)
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        head = shown_text(replay.query_one("#replay-sheet", Static)).splitlines()[0]
        box = replay.query_one("#replay-sheet-box")
        assert cell_len(head) <= box.content_size.width, head
        assert head.split()[-1] == ("note" if lang == "en" else "Σvi")
