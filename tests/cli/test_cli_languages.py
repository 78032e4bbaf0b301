"""The command line in every language (issue #15): help, messages, replay text; JSON stays put.

What each language must say is read from its own catalog (the translation of a
few English messages), not written here, so the test checks that the words come
through, whichever words a translator chose.
"""

from __future__ import annotations

import gettext
import json
import subprocess
import sys
from typing import Any

import pytest

from bela.cli import main
from bela.engine import Suit
from bela.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from bela.settings import Settings, save_settings

TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
RUN_BELA = "import sys; from bela.cli import main; sys.exit(main())"


def catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=lang == "en")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("lang", TRANSLATED)
def test_play_help_follows_lang_in_the_environment(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``LANG=hr_HR.UTF-8 bela play --help``: argparse's words and ours, in the language."""
    monkeypatch.setenv("LANG", f"{lang}_XX.UTF-8")
    code, out, _err = run(["play", "--help"], capsys)
    words = catalog(lang)
    assert code == 0
    assert out.startswith(words.gettext("usage: "))
    assert words.gettext("options") + ":" in out
    flat = " ".join(out.split())  # argparse wraps long help: compare without the breaks
    assert " ".join(words.gettext("resume the unfinished match without asking").split()) in flat
    assert words.gettext("show this help message and exit") in flat
    assert "show this help message and exit" not in out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_replay_text_follows_the_lang_flag(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``bela replay --seed 42 --round 1 --lang hr``: the whole told round in the language."""
    code, out, err = run(["replay", "--seed", "42", "--round", "1", "--lang", lang], capsys)
    words = catalog(lang)
    assert code == 0, err
    for english in ("Deal", "Tricks", "Result", "last trick"):
        assert words.gettext(english) in out
    trump = Suit.parse(json_round(capsys)["trump"])
    assert words.pgettext("suit", trump.noun) in out  # the trump of the round, named
    assert "Tricks" not in out and "called by" not in out


def json_round(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Seed 42's first round as ``--json`` gives it (what the text must tell)."""
    code, out, err = run(["replay", "--seed", "42", "--round", "1", "--json"], capsys)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)["rounds"][0]
    return data


def test_replay_json_is_the_same_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` keeps English keys and words in every language: programs read it."""
    outputs = set()
    for lang in LANGUAGES:
        code, out, err = run(
            ["replay", "--seed", "42", "--round", "1", "--json", "--lang", lang], capsys
        )
        assert code == 0, err
        outputs.add(out)
    assert len(outputs) == 1
    data = json.loads(outputs.pop())
    trump = Suit.parse(data["rounds"][0]["trump"])
    assert trump.noun in data["rounds"][0]["result"]["summary"]  # English words


def test_the_saved_language_is_used_and_the_flag_wins(capsys: pytest.CaptureFixture[str]) -> None:
    assert save_settings(Settings(language="ru")) is None
    code, out, _err = run(["replay", "--seed", "42", "--round", "1"], capsys)
    assert code == 0
    assert catalog("ru").gettext("Tricks") in out
    code, out, _err = run(["replay", "--seed", "42", "--round", "1", "--lang", "en"], capsys)
    assert code == 0
    assert "Tricks" in out


def test_a_language_not_shipped_is_one_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["replay", "--seed", "42", "--lang", "tlh"], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "--lang" in err and "tlh" in err


@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_error_line_is_in_the_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(
        ["replay", "--lang", lang, "--seed", "42", "--target", "163", "--round", "9"], capsys
    )
    words = catalog(lang)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    head = words.gettext("bela: error: {message}").split("{")[0]
    sentence = words.gettext("there is no round {n} in this match: it has {span}")
    assert err.startswith(head)
    assert sentence.split("{")[0].strip() in err


def test_lang_in_the_environment_reaches_a_real_process() -> None:
    """The installed command, as a player runs it: ``LANG=hr_HR.UTF-8 bela play --help``."""
    env = {"LANG": "hr_HR.UTF-8", "BELA_CONFIG_DIR": "/nonexistent-bela-config"}
    done = subprocess.run(
        [sys.executable, "-c", RUN_BELA, "play", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(catalog("hr").gettext("usage: "))


@pytest.mark.parametrize(
    "argv",
    [
        ["--lang", "hr", "history"],
        ["--lang=hr", "history"],
        ["--lang", "hr", "replay", "--seed", "42", "--round", "1"],
        ["--lang", "ru", "--lang", "hr", "stats"],
    ],
    ids=" ".join,
)
def test_lang_before_the_command_is_bela_s_own(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``bela --lang hr history`` (issue #24, 6): the global option, then the command."""
    code, out, err = run(argv, capsys)
    assert code == 0, err
    words = catalog("hr")
    command = argv[-1] if argv[-1] in ("history", "stats") else "replay"
    expected = {
        "history": "No matches to list.",
        "stats": "No matches played yet: nothing to count.",
        "replay": "Tricks",
    }[command]
    assert words.gettext(expected) in out and expected not in out


@pytest.mark.parametrize(
    "argv",
    [["--lang", "tlh"], ["--lang", "tlh", "history"], ["--lang=tlh", "--seed", "5"], ["--lang"]],
    ids=" ".join,
)
def test_a_bad_lang_before_the_command_is_reported_by_bela(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Not ``bela play: error``: the option was given to bela, and so is its usage hint."""
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("bela: error: argument --lang") and "(see bela --help)" in err
