"""Only the command named gets its whole parser (issue #26: the first screen sooner).

``bela --help`` lists every command with its line from ``COMMANDS`` alone; the
command named on the line is the one whose parser is built and whose module is
imported. These tests pin both halves: every command still has its whole help,
and naming one command does not load the others.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from bela.cli import main
from bela.cli.options import COMMANDS, build_parser
from bela.i18n import _, set_language

# every module a command's parser or its code lives in
COMMAND_MODULES = {
    "analyze": "bela.cli.analyze",
    "coach": "bela.cli.coach",
    "history": "bela.cli.history",
    "stats": "bela.cli.history",
    "lab": "bela.cli.lab",
    "ladder": "bela.cli.ladder",
    "host": "bela.cli.net",
    "join": "bela.cli.net",
    "serve": "bela.cli.net",
    "puzzles": "bela.cli.puzzles",
    "review": "bela.cli.review",
    "server": "bela.cli.online",
    "online": "bela.cli.online",
}

# A fresh interpreter parses ``sys.argv[1:]`` and prints the modules of bela.cli it
# imported; parse errors and --help exit as they do for a player.
PARSE_AND_LIST = textwrap.dedent(
    """
    import json, sys
    from bela.cli.options import parse

    try:
        parse(sys.argv[1:])
    finally:
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("bela.cli"))))
    """
)


def cli_modules_after(*argv: str) -> set[str]:
    """The ``bela.cli`` modules a fresh interpreter has imported after parsing ``argv``."""
    result = subprocess.run(
        [sys.executable, "-c", PARSE_AND_LIST, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    last = result.stdout.strip().splitlines()[-1]
    modules = json.loads(last)
    assert isinstance(modules, list)
    return set(modules)


def flat(text: str) -> str:
    """``text`` without argparse's line breaks, to find a wrapped sentence in it."""
    return " ".join(text.split())


@pytest.mark.parametrize("lang", ["en", "hr"])
def test_bela_help_lists_every_command_with_its_line(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", lang, "--help"]) == 0
    text = capsys.readouterr().out
    out = flat(text)
    set_language(lang)
    for name, line in COMMANDS.items():
        assert f" {name} {flat(_(line))}" in out, name
    rows = [line.split() for line in text.splitlines() if line.startswith("    ")]
    listed = [row[0] for row in rows if row and row[0] in COMMANDS]
    assert listed == list(COMMANDS)  # each once, in the table's order


TASKS = [["lab", "bid-data"], ["lab", "bid-fit"], ["puzzles", "generate"]]


@pytest.mark.parametrize("command", [[name] for name in COMMANDS] + TASKS, ids=" ".join)
def test_every_command_has_its_whole_help(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser built for the command named: its usage, its options and ``--lang``."""
    assert main([*command, "--help"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    out = flat(captured.out)
    assert out.startswith(f"usage: bela {' '.join(command)} ")
    assert "-h, --help show this help message and exit" in out
    assert "--lang {en,hr,es,ru,zh,ar}" in out


def test_the_line_of_a_command_is_the_one_its_own_parser_has(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A built command is listed with the same line as the bare one it stands for."""
    assert main(["--help"]) == 0
    bare = flat(capsys.readouterr().out).split("options:")[0]
    for name in COMMANDS:
        listed = flat(build_parser(name).format_help()).split("options:")[0]
        assert listed == bare, name


def test_a_word_that_is_no_command_is_refused_with_every_command_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["plya"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "invalid choice: 'plya'" in err
    for name in COMMANDS:
        assert f"'{name}'" in err


def test_playing_builds_no_other_command() -> None:
    loaded = cli_modules_after()
    assert "bela.cli.options" in loaded
    assert sorted(set(COMMAND_MODULES.values()) & loaded) == []


@pytest.mark.parametrize("command", sorted(COMMAND_MODULES))
def test_a_command_builds_its_own_parser_and_no_other(command: str) -> None:
    loaded = cli_modules_after("--lang", "en", command, "--help")
    own = COMMAND_MODULES[command]
    assert own in loaded
    others = set(COMMAND_MODULES.values()) - {own}
    assert sorted(others & loaded) == []
