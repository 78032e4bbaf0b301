"""``bela arena`` end to end with the real arena, on a tiny number of deals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bela.cli import main


def test_a_tiny_arena_as_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "easy", "random", "--deals", "2", "--seed", "3", "--jobs", "1", "--json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    report = json.loads(first)
    assert (report["bot_a"], report["bot_b"], report["deal_pairs"], report["seed"]) == (
        "easy",
        "random",
        2,
        3,
    )


def test_a_tiny_arena_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "normal", "random", "--deals", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "normal" in out and "random" in out and "written points" in out


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def examples_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """examples/ on the path, here and in any worker the arena starts."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(EXAMPLES), path))))


def test_an_outside_agent_plays_in_the_arena(
    capsys: pytest.CaptureFixture[str], examples_importable: None
) -> None:
    """``module:factory`` seats an agent written outside bela (docs/bots.md)."""
    argv = ["arena", "outside_agent:make_agent", "random", "--deals", "3", "--json"]
    assert main([*argv, "--jobs", "1"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["bot_a"], report["bot_b"], report["deal_pairs"]) == (
        "outside_agent:make_agent",
        "random",
        3,
    )
    # worker processes load it too, with the same result (a fresh bela: forking pytest can hang)
    done = subprocess.run(
        [sys.executable, "-m", "bela", *argv, "--jobs", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == report


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("no_such_module_here:make", "No module named 'no_such_module_here'"),
        ("outside_agent:no_such_factory", "has no attribute 'no_such_factory'"),
        ("random:random", "did not give an agent with act(view, rng)"),
        ("outside_agent:Rank", "failed when called"),
    ],
)
def test_an_outside_agent_that_cannot_be_loaded_is_one_line_before_any_play(
    name: str, reason: str, capsys: pytest.CaptureFixture[str], examples_importable: None
) -> None:
    assert main(["arena", name, "random", "--deals", "1", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"the agent '{name}' cannot be used" in err and reason in err
