"""A bid typed on the command line means what the app's key means (issue #36's tryout).

A tester found ``printf 'd\\n' | bela --lang hr puzzles --bids --count 1`` calling karo
(the engine's ``D``) where the app's ``d`` is dalje, and Spanish ``c`` and ``s`` reading as
clubs and spades where the app's are corazones and paso. Every command line that reads a
bid now reads it through ``bela.bid_reading`` from the letters the app binds.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bela.archive.puzzle_pack as puzzle_pack
from bela.bid_reading import DALJE, bid_letters, bid_words, read_bid, refusal, word_meanings
from bela.cli import main
from bela.cli.plain import PlainTable
from bela.cli.plain_seat import PlainSeat
from bela.cli.puzzles import read_answer
from bela.deck import DECKS, set_deck
from bela.engine import Action, Call, Match, Pass, Phase, Round, Suit
from bela.i18n import LANGUAGES, set_language
from bela.keys import ACTIONS, bid_keys, bind_letters, letters_of

BIDS = ("hearts", "diamonds", "spades", "clubs", "pass")
"""The ``bela.keys.ACTIONS`` the app binds for the bid menu."""

FIXTURE = Path(__file__).parents[1] / "puzzles" / "fixtures" / "bid_puzzles.jsonl"


def _bound(language: str, deck: str) -> dict[str, int]:
    """Each bid letter as the app binds it: its table's and its puzzle screen's letters
    (``TABLE_LETTERS``, ``PUZZLE_LETTERS``) bound by ``bind_letters`` on a widget, in
    ``language`` and ``deck``; each key that runs ``bid(N)``, to N."""
    from textual.widget import Widget

    from bela.tui.screens.puzzles import PUZZLE_LETTERS
    from bela.tui.screens.table_parts import TABLE_LETTERS

    set_language(language)
    set_deck(deck)
    bound: dict[str, int] = {}
    for letters in (TABLE_LETTERS, PUZZLE_LETTERS):
        widget = Widget()
        bind_letters(widget, letters)
        for key, bindings in widget._bindings.key_to_bindings.items():
            for binding in bindings:
                found = re.fullmatch(r"bid\((\d)\)", binding.action)
                if found is not None:
                    assert bound.setdefault(key, int(found.group(1))) == int(found.group(1))
    assert sorted(bound.values()) == [0, 1, 2, 3, 4]
    return bound


def _meant(index: int) -> Action:
    return Pass() if index == DALJE else Call(Suit(index))


def _bidding() -> Round:
    """The first bid of seed 5's match: seat 0 speaks first (not the dealer: dalje is legal)."""
    rnd = Match.new(5, 1001).current
    assert rnd is not None and rnd.phase is Phase.BIDDING and rnd.to_act == 0
    assert Pass() in rnd.legal_actions()
    return rnd


def _plain_table(rnd: Round) -> tuple[PlainTable, io.StringIO]:
    out = io.StringIO()
    match = Match.new(5, 1001)
    return PlainTable(match, "normal", {}, io.StringIO(), out), out


class _Session:
    """The network seat's line to the host: what the plain seat sends is kept."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.seat = 0
        self.name = "Ivo"

    async def send(self, message: dict[str, Any]) -> bool:
        self.sent.append(message)
        return True


def _seat_answer(text: str, legal: tuple[str, ...]) -> tuple[list[dict[str, Any]], str]:
    """What a plain network seat sends and says for ``text`` at its own turn to bid."""
    session = _Session()
    out = io.StringIO()
    seat = PlainSeat(cast(Any, session), io.StringIO(), out)
    view = SimpleNamespace(phase="bidding", to_act=0, legal=legal, hand=(), trick=())
    seat.state = cast(Any, SimpleNamespace(view=view, seat=0, seq=1))
    assert asyncio.run(seat._answer(text))
    return session.sent, out.getvalue()


_ALL_BIDS = ("call H", "call D", "call S", "call C", "dalje")


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bid_letter_the_app_binds_means_that_bid_on_every_command_line(
    language: str, deck: str
) -> None:
    set_language(language)
    set_deck(deck)
    rnd = _bidding()
    bound = _bound(language, deck)
    assert len(bound) == 5  # five letters, one for each bid
    for key, index in bound.items():
        for typed in (key, key.upper()):
            assert read_bid(typed) == index, (typed, index)
            # bela puzzles --bids
            assert read_answer(typed, rnd, 0) == _meant(index), typed
            # bela play --plain
            table, out = _plain_table(rnd)
            assert table._read(rnd, typed) == _meant(index), (typed, out.getvalue())
            # bela join --plain: sent to the host as the host spells it
            sent, said = _seat_answer(typed, _ALL_BIDS)
            assert sent == [{"type": "act", "action": _ALL_BIDS[index]}], (typed, said)


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_letter_or_word_means_two_bids_or_anything_else_while_bidding(
    language: str, deck: str
) -> None:
    set_language(language)
    set_deck(deck)
    letters = bid_letters()
    own = _bound(language, deck)
    assert {k: v for k, v in letters.items() if k in own} == own  # the app's letters win
    others = {
        letters_of(language, deck)[action]
        for action, spec in ACTIONS.items()
        if action not in BIDS and spec.moments & {"bidding", "puzzle"}
    }
    assert not others & set(letters), others & set(letters)
    assert not {"q", "?"} & set(letters)
    # an English letter read besides the language's own never means anything else in it,
    # in either deck (hr d is dalje, es c corazones: English's letters are not read there)
    for key, index in letters.items():
        if key in own:
            continue
        for one_deck in DECKS:
            table = letters_of(language, one_deck)
            meanings = {a for a, k in table.items() if k == key}
            assert meanings <= {BIDS[index]}, (key, one_deck, meanings)
    # no word names two bids, and no word is a letter of another bid
    twice = {word: bids for word, bids in word_meanings().items() if len(bids) > 1}
    assert not twice
    for word, index in bid_words().items():
        assert letters.get(word, index) == index, word


def test_in_croatian_d_is_dalje_and_k_p_t_are_karo_pik_tref() -> None:
    """The tester's case: hr ``d`` called karo without a word; ``k``, ``p``, ``t`` were
    refused. Now each means what the app's key does, and English's ``s`` and ``c`` are
    refused with a line that lists the letters."""
    set_language("hr")
    rnd = _bidding()
    assert read_answer("d", rnd, 0) == Pass()
    assert read_answer("D", rnd, 0) == Pass()
    assert read_answer("k", rnd, 0) == Call(Suit.DIAMONDS)
    assert read_answer("p", rnd, 0) == Call(Suit.SPADES)
    assert read_answer("t", rnd, 0) == Call(Suit.CLUBS)
    assert read_answer("karo", rnd, 0) == Call(Suit.DIAMONDS)
    assert read_answer("bundeva", rnd, 0) == Call(Suit.DIAMONDS)  # mađarice's name for it
    assert read_answer("zovem k", rnd, 0) == Call(Suit.DIAMONDS)
    assert read_answer("dalje", rnd, 0) == Pass()
    refused = "'s' nije odluka o adutu: h k p t zovu aduta (herc, karo, pik, tref), d kaže dalje"
    assert read_answer("s", rnd, 0) == refused
    assert read_answer("call d", rnd, 0) != Call(Suit.DIAMONDS)  # d is dalje, not a suit
    assert isinstance(read_answer("c", rnd, 0), str)
    table, out = _plain_table(rnd)
    assert table._read(rnd, "c") is None
    assert "h k p t zovu aduta" in out.getvalue()


def test_in_spanish_c_is_corazones_and_s_paso() -> None:
    set_language("es")
    rnd = _bidding()
    assert read_answer("c", rnd, 0) == Call(Suit.HEARTS)
    assert read_answer("s", rnd, 0) == Pass()
    assert read_answer("corazones", rnd, 0) == Call(Suit.HEARTS)
    assert isinstance(read_answer("h", rnd, 0), str)  # h is hablar, not hearts
    set_deck("german")
    assert read_answer("a", rnd, 0) == Call(Suit.DIAMONDS)  # cascabeles
    assert read_answer("j", rnd, 0) == Call(Suit.SPADES)  # hojas
    assert isinstance(read_answer("p", rnd, 0), str)  # p is picas with the French deck


def test_the_network_seats_s_is_spades_while_trump_is_named_not_the_score() -> None:
    """English's ``s`` is the plain seat's score letter; while trump is named it is the
    app's spades, as at the local table (it showed the score instead)."""
    sent, said = _seat_answer("s", _ALL_BIDS)
    assert sent == [{"type": "act", "action": "call S"}], said
    set_language("hr")
    sent, said = _seat_answer("s", _ALL_BIDS)
    assert sent == []
    assert "'s' nije odluka o adutu: h k p t zovu aduta" in said


def test_under_pod_mus_the_refusal_lists_the_suits_alone() -> None:
    set_language("hr")
    sent, said = _seat_answer("x", _ALL_BIDS[:4])
    assert sent == []
    assert said.strip() == "'x' nije adut: h k p t zovu aduta (herc, karo, pik, tref)"


@pytest.fixture
def bid_pack(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The four bid puzzles of the fixture as the player's own pack, and no shipped one."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    monkeypatch.setattr(puzzle_pack, "_shipped_root", lambda: shipped)
    folder = puzzle_pack.own_dir(data_dir)
    folder.mkdir(parents=True)
    (folder / "bids.jsonl").write_text(FIXTURE.read_text(encoding="utf-8"))
    return data_dir


@pytest.mark.parametrize(
    ("argv", "typed", "said"),
    [
        (["--lang", "hr"], "d", "dalje"),
        (["--lang", "hr"], "k", "call D"),
        (["--lang", "es"], "c", "call H"),
        (["--lang", "es"], "s", "dalje"),
        (["--lang", "hr", "--deck", "german"], "u", "call D"),
        ([], "d", "call D"),
    ],
)
def test_bela_puzzles_bids_reads_the_apps_letter(
    argv: list[str],
    typed: str,
    said: str,
    bid_pack: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``printf 'd\\n' | bela --lang hr puzzles --bids --count 1`` says dalje."""
    from bela.archive.puzzle_store import JOURNAL_NAME

    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
    code = main([*argv, "puzzles", "--bids", "--theme", "pass", "--count", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    keys = bid_keys(argv[1] if argv else "en", "german" if "german" in argv else "french")
    assert f"{' '.join(keys[:4])} " in out and f"; {keys[4]} " in out  # the prompt's letters
    journal = (bid_pack / JOURNAL_NAME).read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["action"] for line in journal] == [said]


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(max_size=12) | st.sampled_from(["d", "D", "call d", "zovem k", "♥", "karo"]),
    language=st.sampled_from(LANGUAGES),
    deck=st.sampled_from(DECKS),
)
def test_a_bid_is_read_only_from_the_letters_and_words_that_name_it(
    text: str, language: str, deck: str
) -> None:
    """No silent reading: whatever is typed, a bid comes only from a bid letter or word of
    the language and deck in use (alone, or after call / zovem / adut), and any other line
    is refused with the letters listed."""
    set_language(language)
    set_deck(deck)
    index = read_bid(text)
    parts = text.casefold().split()
    named = {**bid_words(), **bid_letters()}
    if index is None:
        assert not (len(parts) == 1 and parts[0] in named)
        line = refusal(text)
        assert "\n" not in line and " ".join(bid_keys()[:4]) in line
    else:
        assert parts[-1] in named and named[parts[-1]] == index
        assert len(parts) == 1 or parts[0] in {"call", "zovem", "adut"}
    set_language("en")
    set_deck(None)
