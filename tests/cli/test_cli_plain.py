"""``bela play --plain`` (issue #37): the whole match as lines of text, answered by typing.

Driven through its input and output as a screen reader's user would: a scripted player reads
the table's state and types the table's letters, numbers or card codes; a real subprocess plays
a brza 163 to its end through a pipe.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.ai import make_bot
from bela.cli import main
from bela.cli.plain import PlainTable
from bela.cli.play import wants_plain
from bela.engine import Call, Card, Match, Pass, Phase, Play, Suit
from bela.table_text import HUMAN, hand_order

BOX_OR_ESCAPE = re.compile(r"[\u2500-\u257f\x1b\r]")


class Player(io.StringIO):
    """The player's keyboard: each line read is worked out from the table's state then (the
    first legal card by its number in the hand, dalje or the first suit), after the lines
    given first (``typed``)."""

    def __init__(self, typed: list[str] | None = None, *, then_eof: bool = False) -> None:
        super().__init__()
        self.typed = list(typed or [])
        self.then_eof = then_eof
        self.table: PlainTable | None = None
        self.read = 0

    def readline(self, size: int | None = -1) -> str:
        self.read += 1
        if self.typed:
            return self.typed.pop(0) + "\n"
        if self.then_eof:
            return ""
        assert self.table is not None
        rnd = self.table.match.current
        assert rnd is not None and rnd.to_act == HUMAN
        if rnd.phase is Phase.BIDDING:
            return "p\n" if Pass() in rnd.legal_actions() else "c\n"
        hand = hand_order(rnd.hand(HUMAN), rnd.trump)
        mask = rnd.legal_mask()
        index = next(i for i, c in enumerate(hand) if mask >> int(c) & 1)
        return f"{index + 1}\n"


def table_for(
    match: Match, player: Player, **kwargs: object
) -> tuple[PlainTable, io.StringIO, list[Match]]:
    out = io.StringIO()
    saved: list[Match] = []
    archived: list[Match] = []

    def save(m: Match) -> None:
        saved.append(m)

    def archive(m: Match) -> None:
        archived.append(m)

    table = PlainTable(
        match,
        "normal",
        {seat: make_bot("normal") for seat in (1, 2, 3)},
        player,
        out,
        save=save,  # type: ignore[arg-type]
        archive=archive,  # type: ignore[arg-type]
        **kwargs,  # type: ignore[arg-type]
    )
    player.table = table
    table.saved = saved  # type: ignore[attr-defined]
    return table, out, archived


def test_a_whole_match_is_lines_of_text_one_sentence_for_each_event() -> None:
    player = Player()
    table, out, archived = table_for(Match.new(11, 163), player)
    assert table.play() == 0
    text = out.getvalue()
    assert table.match.is_over and archived == [table.match]
    assert not BOX_OR_ESCAPE.search(text), "box drawing, an escape code or a carriage return"
    lines = text.splitlines()
    rounds = len(table.match.rounds)
    played = [line for line in lines if re.fullmatch(r"(You play|\w+ plays) \S+\.", line)]
    dealt = sum(1 for r in table.match.rounds if not r.result.redeal and r.result.belot is None)
    assert len(played) == 32 * dealt  # every card, with who played it
    assert sum(line.startswith("— Round ") for line in lines) == rounds
    assert sum(bool(re.match(r"Trick \d: ", line)) for line in lines) == 8 * dealt
    assert lines[-1].startswith(("We win", "They win"))
    assert all(line.strip() == line and line for line in lines)  # whole lines, nothing blank


def test_question_mark_lists_only_the_legal_moves_and_answers_change_nothing() -> None:
    match = Match.new(5, 1001)
    rnd = match.current
    assert rnd is not None
    while rnd.to_act != HUMAN or rnd.phase is not Phase.PLAYING:
        action = (
            Call(Suit.HEARTS)
            if rnd.phase is Phase.BIDDING and Pass() not in rnd.legal_actions()
            else rnd.legal_actions()[0]
        )
        match = match.apply(action, rnd.to_act)
        rnd = match.current
        assert rnd is not None
    player = Player(["?", "zz", "s", "b", "99", "q"])
    table, out, _ = table_for(match, player)
    assert table.play() == 0
    assert table.match is match  # nothing the player typed moved the game
    lines = out.getvalue().splitlines()
    (listed,) = [line for line in lines if line.startswith("You may play: ")]
    hand = hand_order(rnd.hand(HUMAN), rnd.trump)
    legal = [c for c in hand if rnd.legal_mask() >> int(c) & 1]
    assert listed.count(":") - 1 == len(legal)
    assert "zz: not a card you hold or a choice here; ? lists them." in lines
    assert "99: not a card you hold or a choice here; ? lists them." in lines
    assert "Score: mi 0, vi 0; the match is to 1001." in lines
    assert "No round has been written yet." in lines
    assert lines[-1] == "Saved: bela play --plain goes on with this match."


@pytest.mark.parametrize("typed", ["10H", "10♥", "th", "10h"])
def test_a_card_is_named_by_its_code_with_letter_or_symbol(typed: str) -> None:
    table, _, _ = table_for(Match.new(1, 1001), Player())
    rnd = _first_human_lead(table)
    ten = Card.parse("10H")
    assert table._read_card(rnd, typed) == (Play(ten) if ten in rnd.hand(HUMAN) else None)


def _first_human_lead(table: PlainTable):  # type: ignore[no-untyped-def]
    """A round where the player leads with 10♥ in hand (seeded search over deals)."""
    for seed in range(200):
        match = Match.new(seed, 1001)
        rnd = match.current
        assert rnd is not None
        while rnd is not None and rnd.phase is Phase.BIDDING:
            match = match.apply(Call(Suit.SPADES), rnd.to_act)
            rnd = match.current
        if rnd is not None and rnd.to_act == HUMAN and Card.parse("10H") in rnd.hand(HUMAN):
            table.match = match
            return rnd
    raise AssertionError("no such deal")


def test_bids_by_the_tables_letters_dalje_and_call() -> None:
    table, _, _ = table_for(Match.new(5, 1001), Player())
    rnd = table.match.current
    assert rnd is not None and rnd.to_act == HUMAN and rnd.phase is Phase.BIDDING
    assert table._read(rnd, "h") == Call(Suit.HEARTS)
    assert table._read(rnd, "call S") == Call(Suit.SPADES)
    assert table._read(rnd, "call ♣") == Call(Suit.CLUBS)
    assert table._read(rnd, "dalje") == Pass()
    assert table._read(rnd, "p") == Pass()


def test_croatian_bids_are_croatias_letters_and_the_talk_is_croatian() -> None:
    from bela.i18n import set_language

    set_language("hr")
    try:
        player = Player(["s", "c", "k", "q"])
        table, out, _ = table_for(Match.new(5, 1001), player)
        table.play()
    finally:
        set_language("en")
    text = out.getvalue()
    assert "Ti: karo je adut" in text  # k is karo in Croatian
    # s and c are English's letters, not the table's: refused with the table's letters
    # (issue #36), nothing named
    letters = "h k p t zovu aduta (herc, karo, pik, tref), d kaže dalje"
    assert f"'s' nije odluka o adutu: {letters}" in text
    assert f"'c' nije odluka o adutu: {letters}" in text
    assert "Runda 1" in text
    assert "Your" not in text and " plays " not in text  # every line in Croatian


def test_bela_is_asked_when_the_setting_asks_and_said_with_the_card() -> None:
    for seed in range(400):
        match = Match.new(seed, 1001)
        rnd = match.current
        assert rnd is not None
        while rnd is not None and rnd.phase is Phase.BIDDING:
            match = match.apply(Call(Suit.HEARTS), rnd.to_act)
            rnd = match.current
        if rnd is None or rnd.to_act != HUMAN:
            continue
        queen = Card.parse("QH")
        if queen in rnd.hand(HUMAN) and rnd.can_announce_bela(queen):
            break
    else:
        raise AssertionError("no deal with bela in the player's first lead")
    table, out, _ = table_for(match, Player(["y"]), auto_bela=False)
    assert table._read(rnd, "QH") == Play(queen, True)
    assert "Say bela with Q♥? (y/n)" in out.getvalue()
    table, _, _ = table_for(match, Player(["n"]), auto_bela=False)
    assert table._read(rnd, "QH") == Play(queen, False)
    assert table._read(rnd, "QH bela") == Play(queen, True)


def test_the_end_of_the_input_saves_and_quits() -> None:
    table, out, _ = table_for(Match.new(3, 1001), Player(["p"], then_eof=True))
    table.play()
    assert out.getvalue().splitlines()[-1] == "Saved: bela play --plain goes on with this match."
    assert table.saved  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("given", "term", "ttys", "plain"),
    [
        (True, "xterm-256color", True, True),
        (False, "dumb", True, True),
        (False, "xterm-256color", False, True),
        (False, "xterm-256color", True, False),
    ],
)
def test_plain_mode_is_chosen_where_the_app_cannot_run(
    given: bool, term: str, ttys: bool, plain: bool
) -> None:
    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return ttys

    assert wants_plain(given, Stream(), Stream(), {"TERM": term}) is plain


def test_bela_serve_s_browser_gets_the_app_though_its_pipes_are_not_terminals() -> None:
    """textual-serve runs ``bela play`` with pipes and its web driver (TEXTUAL_DRIVER)."""
    pipe = io.StringIO()
    driver = {"TERM": "xterm", "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"}
    assert not wants_plain(False, pipe, pipe, driver)
    assert wants_plain(True, pipe, pipe, driver)


def run_bela(
    args: list[str], typed: str, data: Path, config: Path
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "BELA_DATA_DIR": str(data),
        "BELA_CONFIG_DIR": str(config),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }
    env.pop("LANGUAGE", None)
    return subprocess.run(
        [sys.executable, "-m", "bela", *args],
        input=typed,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_a_real_bela_play_through_a_pipe_is_plain_saves_resumes_and_archives(
    data_dir: Path, config_dir: Path
) -> None:
    """stdin and stdout are pipes, so plain mode without --plain; q saves, the next run goes
    on with the same match, and the finished match is in the archive (bela history)."""
    first = run_bela(["play", "--seed", "9", "--target", "163"], "p\nc\nq\n", data_dir, config_dir)
    assert first.returncode == 0, first.stderr
    assert "Saved: bela play --plain goes on with this match." in first.stdout
    autosave = json.loads((data_dir / "autosave.json").read_text())
    assert autosave["seed"] == 9
    cycle = "p\nc\n" + "".join(f"{n}\n" for n in range(1, 9))
    second = run_bela(["play", "--plain"], cycle * 300, data_dir, config_dir)
    assert second.returncode == 0, second.stderr
    out = second.stdout
    assert "Resuming your unfinished match." in out
    assert "Brza 163 (three deals), seed 9, bots: normal." in out
    assert re.search(r"^(We|They) win \d+ : \d+ \(mi : vi\)$", out, re.MULTILINE), out[-2000:]
    assert not BOX_OR_ESCAPE.search(out)
    assert list((data_dir / "matches").glob("*-9.json"))


def test_plain_mode_never_imports_the_app() -> None:
    """The command line's plain table stands on the building blocks below bela.tui."""
    code = (
        "import sys, io\n"
        "from bela.cli import main\n"
        "sys.stdin = io.StringIO('q\\n')\n"
        "main(['play', '--plain', '--seed', '3'])\n"
        "print('APP' if 'bela.tui' in sys.modules or 'textual' in sys.modules else 'NO APP')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stdout.splitlines()[-1] == "NO APP", done.stdout + done.stderr


def test_bela_play_plain_is_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    assert "--plain" in capsys.readouterr().out


def test_spoken_lines_name_a_suit_once_and_words_write_the_suit_out() -> None:
    """espeak-ng read "♦ diamonds" as "diamonds diamonds" and "9♠" as "nine spade suit"."""
    from bela.cli.plain import spoken

    assert spoken("Ana: ♦ diamonds is trump", False) == "Ana: diamonds is trump"
    assert spoken("You play 9♠.", False) == "You play 9♠."
    assert spoken("Trick 1: you take it, +14 (10♥ A♠)", True) == (
        "Trick 1: you take it, +14 (10 of hearts A of spades)"
    )


def test_words_on_the_command_line_reach_the_table(data_dir: Path, config_dir: Path) -> None:
    done = run_bela(["play", "--plain", "--words", "--seed", "9"], "q\n", data_dir, config_dir)
    assert "Your cards: 1: " in done.stdout and " of " in done.stdout and "♠" not in done.stdout


def test_new_keeps_the_unfinished_match_in_the_archive(data_dir: Path, config_dir: Path) -> None:
    """--new starts another match; the unfinished one is kept (bela replay FILE), as in the app."""
    first = run_bela(["play", "--plain", "--seed", "9"], "q\n", data_dir, config_dir)
    assert first.returncode == 0, first.stderr
    second = run_bela(["play", "--plain", "--new", "--seed", "10"], "q\n", data_dir, config_dir)
    assert second.returncode == 0, second.stderr
    assert "Resuming" not in second.stdout
    assert json.loads((data_dir / "autosave.json").read_text())["seed"] == 10
    assert list((data_dir / "matches").glob("*-9.json"))


@pytest.mark.slow
def test_the_hint_says_why_and_asked_again_the_numbers() -> None:
    """i (the app's hint key) asks the hard bot; asked again in the same place, its numbers."""
    table, out, _ = table_for(Match.new(5, 1001), Player(["i", "i", "q"]))
    table.play()
    lines = out.getvalue().splitlines()
    hints = [line for line in lines if line.startswith("Hint")]
    assert len(hints) == 2 and hints[0].startswith("Hint: ")
    assert hints[1].startswith(("Hint, the numbers: ", "Hint: "))
    assert table.match.current is not None and not table.match.current.actions


def test_at_40_columns_a_sentence_breaks_between_words() -> None:
    """A terminal cuts a long line mid-word ("O / dgovaraš" at 40 columns in tmux): on a
    terminal the table breaks it between words; every word stays whole."""
    player = Player(["q"])
    table, out, _ = table_for(Match.new(5, 1001), player)
    table.width = 40
    table.play()
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 40 for line in lines), [line for line in lines if len(line) > 40]
    words = " ".join(lines).split()
    assert "Plain" in words and "saves" in words and "quits." in words


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30) | st.sampled_from(["²", "١", "10♥ bela", "call", "call Z"]))
def test_whatever_is_typed_is_refused_or_a_legal_action(text: str) -> None:
    """Bad input gets a line and changes nothing: no exception, and an action only when the
    engine takes it (hypothesis over any text, in bidding and in play)."""
    for match in (_BIDDING, _PLAYING):
        rnd = match.current
        assert rnd is not None
        table, out, _ = table_for(match, Player(["n"] * 3, then_eof=True), auto_bela=False)
        action = (
            table._read(rnd, text.strip())
            if text.strip().casefold() not in {"q", "quit", "exit", "i", "hint", "h"}
            else None
        )
        if action is not None:
            rnd.apply(action, HUMAN)  # legal: the engine takes it
        assert table.match is match
        assert all(len(line) < 400 for line in out.getvalue().splitlines())


def _to_play(match: Match) -> Match:
    rnd = match.current
    assert rnd is not None
    while rnd.to_act != HUMAN or rnd.phase is not Phase.PLAYING:
        action = (
            Call(Suit.HEARTS)
            if rnd.phase is Phase.BIDDING and Pass() not in rnd.legal_actions()
            else rnd.legal_actions()[0]
        )
        match = match.apply(action, rnd.to_act)
        rnd = match.current
        assert rnd is not None
    return match


_BIDDING = Match.new(5, 1001)
_PLAYING = _to_play(Match.new(5, 1001))


@pytest.mark.parametrize("typed", ["10s", "10❤", "10S", "10H"])
def test_with_madjarice_a_card_is_typed_as_the_deck_shows_it(typed: str) -> None:
    """hr mađarice: 10❤ is srce's ten and ``s`` its key; the engine's 10H still reads."""
    from bela.deck import set_deck
    from bela.i18n import set_language

    set_language("hr")
    set_deck("german")
    table, _, _ = table_for(Match.new(1, 1001), Player())
    rnd = _first_human_lead(table)
    ten = Card.parse("10H")
    assert table._read_card(rnd, typed) == (Play(ten) if ten in rnd.hand(HUMAN) else None)


def test_with_madjarice_the_keys_line_shows_a_code_of_the_deck() -> None:
    from bela.cli.plain import _keys_line
    from bela.deck import set_deck
    from bela.i18n import set_language

    set_language("hr")
    assert "(10H)" in _keys_line()
    set_deck("german")
    assert "(10s)" in _keys_line()


def test_with_madjarice_the_bid_prompt_names_the_decks_suits() -> None:
    """Issue #35, played in hr with mađarice through a pipe: the bid prompt said "s u t ž
    zovu aduta (herc, karo, pik, tref)", the French deck's suits beside mađarice's keys."""
    from bela.deck import set_deck
    from bela.i18n import set_language

    set_language("hr")
    set_deck("german")
    match = Match.new(5, 1001)
    rnd = match.current
    assert rnd is not None
    while rnd.to_act != HUMAN:
        match = match.apply(Pass(), rnd.to_act)
        rnd = match.current
        assert rnd is not None
    table, _, _ = table_for(match, Player())
    prompt = table._prompt(rnd)
    assert "s u t ž zovu aduta (srce, bundeva, list, žir)" in prompt, prompt
    assert "herc" not in prompt
