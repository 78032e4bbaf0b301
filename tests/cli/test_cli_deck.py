"""``--deck`` on the command line (issue #35): mađarice in the replay's text, French by
default, the settings' deck without the option; JSON and records keep the card codes.
Also the placeholders of ``--help`` (FILE, SEED) in the player's language."""

from __future__ import annotations

import json

import pytest

from bela.cli import main
from bela.settings import Settings, save_settings

FRENCH = set("♥♦♠♣")
GERMAN = set("❤◉❦♁")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_replay_with_the_madjarice_deck_in_croatian(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["--lang", "hr", "--deck", "german", "replay", "--seed", "5", "--round", "1"], capsys
    )
    assert code == 0, err
    assert not set(out) & FRENCH, out
    assert set(out) & GERMAN
    assert "Adut ◉ bundeva" in out  # seed 5's first round: seat 1 calls diamonds (bells)
    assert "herc" not in out and "karo" not in out


def test_the_deck_option_goes_after_the_command_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", "--seed", "5", "--round", "1", "--deck", "german"], capsys)
    assert code == 0, err
    assert "bells" in out and not set(out) & FRENCH


def test_without_the_option_the_deck_is_the_settings_then_french(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(["replay", "--seed", "5", "--round", "1"], capsys)
    assert code == 0 and set(out) & FRENCH and not set(out) & GERMAN
    assert save_settings(Settings(deck="german")) is None
    code, out, _err = run(["replay", "--seed", "5", "--round", "1"], capsys)
    assert code == 0 and set(out) & GERMAN and not set(out) & FRENCH
    code, out, _err = run(["replay", "--seed", "5", "--round", "1", "--deck", "french"], capsys)
    assert code == 0 and set(out) & FRENCH and not set(out) & GERMAN


def test_a_deck_that_is_not_one_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _out, err = run(["replay", "--seed", "5", "--deck", "tarot"], capsys)
    assert code == 2
    assert "tarot" in err and "german" in err
    assert err.count("\n") <= 2  # usage and the one line


def test_json_is_the_same_in_either_deck(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["replay", "--seed", "5", "--round", "1", "--json"]
    code, french, _err = run(argv, capsys)
    assert code == 0
    code, german, _err = run(["--deck", "german", *argv], capsys)
    assert code == 0
    assert json.loads(german) == json.loads(french)


def test_help_placeholders_are_croatian_under_lang_hr(capsys: pytest.CaptureFixture[str]) -> None:
    """``bela --lang hr replay --help`` said ``[--seed SEED] [FILE]`` in English."""
    code, out, _err = run(["--lang", "hr", "replay", "--help"], capsys)
    assert code == 0
    assert "--seed SJEME" in out and "DATOTEKA" in out
    assert "SEED" not in out and "FILE" not in out
    code, out, _err = run(["--lang", "hr", "--help"], capsys)
    assert code == 0 and "NAREDBA" in out and "COMMAND" not in out


def test_a_missing_argument_is_named_in_croatian(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(["--lang", "hr", "join"], capsys)
    assert code == 2
    assert "ADRESA" in err and "ADDRESS" not in err


def test_plain_mode_speaks_madjarice_suits_as_words() -> None:
    """``--plain --words`` says each card's suit as a word in either deck."""
    from bela.cli.plain import spoken
    from bela.deck import set_deck
    from bela.i18n import set_language

    set_language("hr")
    set_deck("german")
    assert spoken("Dobivaš D◉ 10♁.", words=True) == "Dobivaš D bundeva 10 žir."
    assert spoken("Adut: ◉ bundeva", words=False) == "Adut: bundeva"


def test_the_house_rules_in_help_name_the_decks_cards(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue #35: ``--help``'s list of house rules said "adutski K i Q" with mađarice."""
    code, out, _err = run(["--lang", "hr", "--deck", "german", "play", "--help"], capsys)
    assert code == 0
    text = " ".join(out.split())
    assert "s drugom od adutskih K i B" in text and "adutski K i B zajedno" in text
    assert "od četiri kralja i četiri babe" in text and "K i Q" not in text
    code, out, _err = run(["--lang", "hr", "play", "--help"], capsys)
    assert "adutski K i Q zajedno" in " ".join(out.split())
