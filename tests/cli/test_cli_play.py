"""``bela play`` hands validated options to ``bela.tui.run_app``, or says why it cannot."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import bela.ai
import bela.cli.play
from bela.archive.records import record_from_match
from bela.archive.storage import autosave_path, save_autosave
from bela.cli import main
from bela.cli.common import CliError, resolve_difficulty
from bela.engine import Match


@pytest.fixture(autouse=True)
def app_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal that can run the app (pytest's output is not one: plain mode otherwise)."""
    monkeypatch.setattr(bela.cli.play, "wants_plain", lambda *args: False)


@pytest.fixture
def app_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """A stand-in ``bela.tui`` whose ``run_app`` records how it was called.

    It plays no match, so it reports no seed played (``played`` stays empty).
    """
    calls: list[dict[str, Any]] = []
    fake = ModuleType("bela.tui")

    def run_app(**kwargs: Any) -> int:
        assert kwargs.pop("played") == []
        calls.append(kwargs)
        return 0

    fake.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bela.tui", fake)
    monkeypatch.setattr(bela.ai, "BOT_KINDS", ("easy", "normal", "random"))
    return calls


def test_options_reach_the_app(app_calls: list[dict[str, Any]]) -> None:
    argv = ["play", "--seed", "7", "--target", "501", "--difficulty", "easy", "--round", "3"]
    assert main(argv) == 0
    assert app_calls == [
        {"target": 501, "seed": 7, "difficulty": "easy", "start_round": 2, "resume": None}
    ]


def test_bare_bela_starts_the_app_on_the_last_settings_with_a_random_seed(
    app_calls: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([]) == 0
    (call,) = app_calls
    assert call["target"] is None and call["difficulty"] is None and call["start_round"] == 0
    assert 0 <= call["seed"] < 2**128
    # nothing was played, so no seed is named: the app shows its seed itself
    assert capsys.readouterr().out == ""


def test_the_seed_named_after_the_app_is_the_seed_of_the_match_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #12: the player changed the seed to 777 on the start screen and played.

    The command line used to print the seed it chose, before the app ran, so it
    named a match that was never dealt.
    """
    fake = ModuleType("bela.tui")

    def run_app(**kwargs: Any) -> int:
        kwargs["played"].append(777)  # what the app reports: the match it dealt
        return 0

    fake.run_app = run_app  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bela.tui", fake)
    assert main([]) == 0
    assert capsys.readouterr().out == (
        "bela: your match used seed 777 (the same cards: bela play --seed 777 --new; "
        "your match: bela history)\n"
    )


def test_a_given_seed_is_not_announced_as_chosen(
    app_calls: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--seed", "11"]) == 0
    assert capsys.readouterr().out == ""


def test_the_apps_exit_code_is_returned(
    app_calls: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.modules["bela.tui"], "run_app", lambda **kwargs: 3)
    assert main(["play", "--seed", "1"]) == 3


def test_hard_falls_back_to_normal_with_a_notice(
    app_calls: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--seed", "1", "--difficulty", "hard"]) == 0
    assert app_calls[0]["difficulty"] == "normal"
    assert "'hard'" in capsys.readouterr().err


def test_hard_is_used_once_it_exists(
    app_calls: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bela.ai, "BOT_KINDS", ("easy", "normal", "hard", "random"))
    assert main(["play", "--seed", "1", "--difficulty", "hard"]) == 0
    assert app_calls[0]["difficulty"] == "hard"


def test_difficulty_fallbacks() -> None:
    assert resolve_difficulty("normal", ("normal", "random")) == ("normal", None)
    kind, notice = resolve_difficulty("normal", ("random",))
    assert kind == "random" and notice is not None
    assert resolve_difficulty("easy", ("easy",)) == ("easy", None)
    with pytest.raises(CliError):
        resolve_difficulty("hard", ())


def test_missing_app_exits_1_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "bela.tui", None)  # makes `import bela.tui` fail
    assert main(["play", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not available yet" in err


def test_app_without_run_app_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "bela.tui", ModuleType("bela.tui"))
    assert main(["play", "--seed", "1"]) == 1
    assert "not available yet" in capsys.readouterr().err


def test_resume_without_a_saved_match_is_refused(
    app_calls: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--resume"]) == 2
    assert app_calls == []
    assert "no unfinished match" in capsys.readouterr().err


def test_resume_with_a_saved_match_starts_the_app(app_calls: list[dict[str, Any]]) -> None:
    match = Match.new(5, target=501)
    match = match.apply(match.current.legal_actions()[0]) if match.current else match
    save_autosave(record_from_match(match, "normal"))
    assert main(["play", "--resume"]) == 0
    assert app_calls[0]["resume"] is True


def test_resume_with_a_corrupt_save_moves_it_aside_and_says_where(
    app_calls: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    data_dir.mkdir(parents=True)
    autosave_path().write_text('{"schema_version": 1, "seed": ')
    assert main(["play", "--resume"]) == 2
    assert app_calls == []
    (moved,) = data_dir.glob("autosave.corrupt-*.json")
    assert moved.read_text() == '{"schema_version": 1, "seed": '
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(moved) in err
