"""Issue #37: ``bela join --plain``, a seat at a network table as lines of text.

A real ``bela host`` process (``netplay.real_host``, random bots without a pause) and a
real ``bela join --plain`` process whose input is a pipe: the player starts the match
(the first to sit down leads), names trump or says dalje, plays a few cards by their
number, then the input ends and the seat is left (its token kept).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from netplay import real_host

from bela.net.seat_session import kept_token

_BELA = (sys.executable, "-m", "bela", "--lang", "en")
_RANDOM_BOTS = ("--bots", "random", "--bot-delay", "0")
_PLAYS = "call H\n" + "".join(f"{n}\n" for n in range(1, 9)) * 3


def _join(port: int, code: str, data_dir: Path, lines: str, *flags: str) -> str:
    env = dict(os.environ, BELA_DATA_DIR=str(data_dir), BELA_CONFIG_DIR=str(data_dir / "cfg"))
    env.pop("TERM", None)
    done = subprocess.run(
        [*_BELA, "join", f"127.0.0.1:{port}", code, "--name", "Ana", *flags],
        input=lines,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


async def test_a_plain_seat_plays_at_a_real_host(data_dir: Path) -> None:
    async with real_host(data_dir, "--bots", "random", "--bot-delay", "0") as (port, code):
        out = await asyncio.to_thread(_join, port, code, data_dir, "g\n" + _PLAYS, "--plain")
    lines = out.splitlines()
    assert lines[0] == f"Seated at seat 1. Table code {code}."
    assert "Seat 1: Ana (you)." in lines
    assert "— Round 1 —" in lines
    # the hand at the deal, after trump is named, and again at a turn once cards have gone
    # (their numbers move up)
    assert sum(line.startswith("Your cards: 1: ") for line in lines) >= 3, out
    played = [line for line in lines if line.startswith("You play ")]
    assert played, out  # the player's own cards, by their number
    assert any(" plays " in line for line in lines)  # and the bots', by name
    assert any("takes the trick" in line for line in lines)
    assert "\x1b" not in out  # nothing drawn: no escape sequence at all
    assert lines[-1] == "You left the table; the same bela join sits you down again."
    assert kept_token(f"{code} Ana") is not None  # the seat waits for the same join


async def test_a_pipe_makes_the_seat_plain_by_itself(data_dir: Path) -> None:
    """Input and output not a terminal: the app could not run, so the seat is plain."""
    async with real_host(data_dir, "--bots", "random", "--bot-delay", "0") as (port, code):
        out = await asyncio.to_thread(_join, port, code, data_dir, "g\nq\n")
    assert out.splitlines()[0] == f"Seated at seat 1. Table code {code}."


def test_the_host_plays_plain_at_its_own_table(data_dir: Path) -> None:
    """``bela host --plain``: the host's own seat leads (it starts the match) as text."""
    env = dict(os.environ, BELA_DATA_DIR=str(data_dir), BELA_CONFIG_DIR=str(data_dir / "cfg"))
    done = subprocess.run(
        [*_BELA, "host", "--port", "0", "--plain", *_RANDOM_BOTS, "--name", "Ivo"],
        input="g\n" + _PLAYS,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("Table open at 127.0.0.1:") for line in lines)
    assert "Seat 1: Ivo (you)." in lines
    assert "The match to 1001 starts: Ivo, bot 2, bot 3, bot 4." in lines
    assert any(line.startswith("You play ") for line in lines)


def test_in_croatian_the_other_pair_wins_as_oni() -> None:
    """Tried in tmux: the plain seat's last line said "Vi pobjeđujete" of the opponents
    ("vi" is only the score sheet's column in Croatian; the opponents are "oni")."""
    from bela.i18n import _, set_language

    set_language("hr")
    try:
        line = _("They win {ours} : {theirs} (mi : vi)").format(ours=65, theirs=441)
    finally:
        set_language("en")
    assert line == "Oni pobjeđuju 65 : 441 (mi : vi)"


async def test_a_plain_seat_plays_a_brza_to_the_end_and_keeps_the_record(data_dir: Path) -> None:
    """A whole brza 163 from a pipe: each deal's bid, then the cards by their numbers (the
    host refuses the ones that may not be played); at the end the result, and the record in
    this player's own archive, counted from their seat, as the app keeps it."""
    lines = "g\n" + ("call H\n" + "".join(f"{n}\n" for n in range(1, 9))) * 60
    flags = ("--bots", "random", "--bot-delay", "0", "--target", "163")
    async with real_host(data_dir, *flags) as (port, code):
        out = await asyncio.to_thread(_join, port, code, data_dir / "ana", lines, "--plain")
    said = out.splitlines()
    assert any(line.startswith(("We win ", "They win ")) for line in said), out[-2000:]
    kept = [line for line in said if line.startswith("Kept in ")]
    assert kept, out[-2000:]
    archived = list((data_dir / "ana").rglob("*.json"))
    assert any(kept[0].split()[2] == path.name for path in archived), (kept, archived)
