"""``bela arena`` calls ``bela.lab.arena`` with exactly the parsed options."""

from __future__ import annotations

import json
import sys
from types import ModuleType
from typing import Any

import pytest
from rich.text import Text

import bela.ai
from bela.cli import main
from bela.engine import Rules


@pytest.fixture
def arena_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """A stand-in ``bela.lab.arena`` that records its calls and returns a tiny report."""
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    fake = ModuleType("bela.lab.arena")

    def run_arena(*args: Any, **kwargs: Any) -> str:
        calls.append((args, kwargs))
        return "REPORT"

    fake.run_arena = run_arena  # type: ignore[attr-defined]
    fake.render_report = lambda report: f"rendered {report}"  # type: ignore[attr-defined]
    fake.report_to_dict = lambda report: {"report": report}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bela.lab.arena", fake)
    monkeypatch.setattr(bela.ai, "BOT_KINDS", ("easy", "normal", "random"))
    return calls


def test_every_option_is_passed_on(
    arena_calls: list[tuple[tuple[Any, ...], dict[str, Any]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["arena", "normal", "random", "--deals", "3", "--seed", "9", "--jobs", "2"]
    rest = ["--matches", "4", "--target", "501", "--rules", "dosta,visi", "--control"]
    assert main([*argv, *rest]) == 0
    assert arena_calls == [
        (
            ("normal", "random"),
            {
                "deal_pairs": 3,
                "seed": 9,
                "jobs": 2,
                "matches": 4,
                "target": 501,
                "progress": True,
                "rules": Rules(dosta=True, visi=True),
                "cluster": None,
                "control": True,
            },
        )
    ]
    assert capsys.readouterr().out == "rendered REPORT\n"


def test_json_output_and_defaults(
    arena_calls: list[tuple[tuple[Any, ...], dict[str, Any]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "easy", "random", "--json"]) == 0
    (_, kwargs) = arena_calls[0]
    assert kwargs["jobs"] >= 1 and kwargs["matches"] == 0 and kwargs["target"] == 1001
    assert kwargs["progress"] is False and kwargs["control"] is False
    assert json.loads(capsys.readouterr().out) == {"report": "REPORT"}


def test_json_to_a_file_still_shows_progress_on_a_terminal(
    arena_calls: list[tuple[tuple[Any, ...], dict[str, Any]]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["arena", "easy", "random", "--json"]) == 0
    assert arena_calls[0][1]["progress"] is True
    assert json.loads(capsys.readouterr().out) == {"report": "REPORT"}


def test_a_rich_report_is_printed_as_text(
    arena_calls: list[tuple[tuple[Any, ...], dict[str, Any]]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        sys.modules["bela.lab.arena"], "render_report", lambda report: Text("styled report")
    )
    assert main(["arena", "easy", "random", "--deals", "1"]) == 0
    assert capsys.readouterr().out == "styled report\n"


def test_an_unknown_bot_exits_2_before_any_play(
    arena_calls: list[tuple[tuple[Any, ...], dict[str, Any]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "normal", "grandmaster"]) == 2
    assert arena_calls == []
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown bot 'grandmaster'" in err


def test_a_missing_arena_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "bela.lab.arena", None)
    assert main(["arena", "random", "random"]) == 1
    assert "not available yet" in capsys.readouterr().err
