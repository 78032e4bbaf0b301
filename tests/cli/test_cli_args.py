"""Parsing the command line: defaults, every option, and one-line exit-2 errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bela import __version__
from bela.cli import main
from bela.cli.options import ArenaOptions, PlayOptions, ReplayOptions, parse, parse_seed
from bela.engine.deal import MAX_SEED
from bela.foundation.native import build


def test_no_arguments_means_play_with_defaults_and_a_random_seed() -> None:
    options = parse([])
    assert isinstance(options, PlayOptions)
    # no target or difficulty given: the app opens on the last match's (issue #12)
    assert (options.target, options.difficulty, options.round, options.resume) == (
        None,
        None,
        1,
        None,
    )
    assert options.seed_chosen
    assert 0 <= options.seed < 2**128


def test_random_seeds_differ_between_runs() -> None:
    seeds = set()
    for _ in range(5):
        options = parse(["play"])
        assert isinstance(options, PlayOptions)
        seeds.add(options.seed)
    assert len(seeds) > 1


def test_play_options_without_the_word_play() -> None:
    options = parse(["--seed", "5", "--target", "501"])
    assert options == PlayOptions(
        target=501, seed=5, seed_chosen=False, difficulty=None, round=1, resume=None
    )


def test_every_play_option() -> None:
    options = parse(
        ["play", "--target", "701", "--seed", "123", "--difficulty", "hard", "--round", "4"]
    )
    assert options == PlayOptions(
        target=701, seed=123, seed_chosen=False, difficulty="hard", round=4, resume=None
    )
    assert isinstance(parse(["play", "--resume"]), PlayOptions)
    resumed = parse(["play", "--resume"])
    fresh = parse(["play", "--new"])
    assert isinstance(resumed, PlayOptions) and resumed.resume is True
    assert isinstance(fresh, PlayOptions) and fresh.resume is False


def test_replay_options() -> None:
    assert parse(["replay", "--seed", "9", "--round", "2", "--json"]) == ReplayOptions(
        seed=9, file=None, round=2, target=1001, difficulty=None, json=True
    )
    assert parse(["replay", "m.json"]) == ReplayOptions(
        seed=None, file=Path("m.json"), round=None, target=1001, difficulty=None, json=False
    )
    options = parse(["replay", "--seed", "9", "--target", "501", "--difficulty", "easy"])
    assert isinstance(options, ReplayOptions)
    assert (options.target, options.difficulty) == (501, "easy")


def test_arena_options_and_defaults() -> None:
    options = parse(["arena", "normal", "random"])
    assert isinstance(options, ArenaOptions)
    assert (options.bot_a, options.bot_b, options.jobs, options.matches, options.json) == (
        "normal",
        "random",
        None,
        0,
        False,
    )
    options = parse(
        [
            "arena",
            "easy",
            "random",
            "--deals",
            "7",
            "--seed",
            "3",
            "--jobs",
            "2",
            "--json",
            "--matches",
            "4",
            "--target",
            "501",
        ]
    )
    assert options == ArenaOptions(
        bot_a="easy",
        bot_b="random",
        deal_pairs=7,
        seed=3,
        jobs=2,
        matches=4,
        target=501,
        json=True,
    )


def test_seed_range() -> None:
    assert parse_seed("0") == 0
    assert parse_seed(str(MAX_SEED)) == MAX_SEED


@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["arena"]])
def test_help_on_each_command(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: bela")
    assert "--help" in out


def test_version_says_which_build_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    out = capsys.readouterr().out.strip()
    if build().compiled:
        assert out == f"bela {__version__} (croatian-bela), compiled with mypyc"
    else:
        assert out.startswith(f"bela {__version__} (croatian-bela), pure Python (")


def test_version_says_the_pure_build_s_hard_bot_is_the_lighter_search(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Installed without a compiler, the hard bot searches PURE_SHARE of its deals: a weaker
    player than the compiled build's, and --version says so (issue #37)."""
    from bela.foundation import native

    monkeypatch.setattr(native, "_chosen", native.Build("absent"))
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == (
        f"bela {__version__} (croatian-bela), pure Python (not compiled); "
        "the hard bot searches fewer guessed deals than on the compiled build\n"
    )


def test_version_says_a_stale_compiled_build_and_what_to_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A source edited after ``make compiled`` runs pure: which file, and the fix."""
    from bela.foundation import native

    monkeypatch.setattr(native, "_chosen", native.Build("stale", "bela.engine.tricks"))
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == (
        f"bela {__version__} (croatian-bela), pure Python (the compiled build is out of date: "
        "bela/engine/tricks.py changed after it; make compiled); "
        "the hard bot searches fewer guessed deals than on the compiled build\n"
    )


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "C.UTF-8",
            "pure Python (BELA_PURE is set); "
            "the hard bot searches fewer guessed deals than on the compiled build",
        ),
        (
            "hr_HR.UTF-8",
            "čisti Python (postavljen je BELA_PURE); "
            "jaki bot pretražuje manje pretpostavljenih dijeljenja nego na prevedenoj verziji",
        ),
    ],
)
def test_version_names_the_pure_build_when_it_is_forced(lang: str, words: str) -> None:
    env = {**os.environ, "BELA_PURE": "1", "LANG": lang}
    done = subprocess.run(
        [sys.executable, "-m", "bela", "--version"], capture_output=True, text=True, env=env
    )
    assert done.stdout == f"bela {__version__} (croatian-bela), {words}\n"


BAD = [
    (["play", "--seed", "abc"], "seed"),
    (["play", "--seed", "-1"], "seed"),
    (["play", "--seed", "1.5"], "seed"),
    (["play", "--seed", ""], "seed"),
    (["play", "--seed", str(MAX_SEED + 1)], "seed"),
    (["--seed", "0x10"], "seed"),
    (["play", "--target", "500"], "target"),
    (["play", "--target", "many"], "target"),
    (["play", "--difficulty", "expert"], "difficulty"),
    (["play", "--round", "0"], "round"),
    (["play", "--round", "two"], "round"),
    (["play", "--resume", "--new"], "not allowed"),
    (["play", "--sed", "5"], "unrecognized"),
    (["replay"], "either --seed"),
    (["replay", "--seed", "1", "m.json"], "either --seed"),
    (["replay", "m.json", "--target", "501"], "--target"),
    (["replay", "--seed", "1", "--round", "-3"], "round"),
    (["arena", "normal"], "required"),
    (["arena", "normal", "random", "--deals", "0"], "at least 1"),
    (["arena", "normal", "random", "--jobs", "0"], "at least 1"),
    (["arena", "normal", "random", "--matches", "-1"], "at least 0"),
    (["nonsense"], "invalid choice"),
]


@pytest.mark.parametrize(("argv", "words"), BAD)
def test_bad_input_is_one_line_and_exit_code_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "error" in lines[0]
    assert words in lines[0]


def test_python_dash_m_bela_runs_the_same_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bela", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stdout.startswith(f"bela {__version__} (croatian-bela), ")
