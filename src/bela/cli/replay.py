"""``bela replay``: a seeded match played out by the bots, or a saved record, in full."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bela.cli.common import CliError, output_console, resolve_difficulty, writing_output
from bela.cli.options import ReplayOptions
from bela.engine import Match, Rules
from bela.engine.rules import DEFAULT_RULES
from bela.foundation.untrusted import json_for_terminal, oneline, shown_path
from bela.i18n import _, english
from bela.wording import at_table

if TYPE_CHECKING:
    from bela.archive.records import MatchRecord

__all__ = ["load_record_file", "play_seeded", "run_replay"]


def play_seeded(
    seed: int, target: int, kind: str, rounds: int | None = None, rules: Rules = DEFAULT_RULES
) -> Match:
    """The match of ``seed`` with bots of ``kind`` in all four seats, as the app's bots play it.

    Every decision draws from ``bela.ai.driver``'s per-decision RNG, so the same
    seed gives the same match. With ``rounds`` it stops once that many are done.
    ``rules``: the house rules it is played under (``--rules``).
    """
    from bela.ai import make_bot
    from bela.ai.driver import play_bots_until

    bots = {seat: make_bot(kind) for seat in range(4)}
    match = Match.new(seed, target, rules)
    while match.current is not None and (rounds is None or match.next_index < rounds):
        match = play_bots_until(match, bots)
    return match


def load_record_file(path: Path) -> tuple[Match, str]:
    """The match a record file holds (replayed and checked) and its bots' level."""
    match, record = read_record_file(path)
    return match, record.difficulty


def read_record_file(path: Path) -> tuple[Match, MatchRecord]:
    """The match a record file holds (replayed and checked) and the record itself.

    The path came from the command line: messages show it through ``shown_path``.
    """
    from bela.archive.records import RecordError, match_from_record
    from bela.archive.storage import read_record

    try:
        record = read_record(path)  # a regular file of bounded size, never blocking
        return match_from_record(record), record
    except FileNotFoundError:
        raise CliError(_("{path}: no such file").format(path=shown_path(path))) from None
    except OSError as exc:
        reason = oneline(exc.strerror or exc)  # str(exc) would repeat the name, unescaped
        raise CliError(
            _("{path}: cannot read it ({error})").format(path=shown_path(path), error=reason)
        ) from None
    except RecordError as exc:
        raise CliError(f"{shown_path(path)}: {exc}") from None


def run_replay(options: ReplayOptions, out: TextIO, err: TextIO) -> int:
    from bela.archive.replay_text import match_json, match_rounds, render_match

    if options.bot_in_my_seat:
        from bela.cli.bot_seat import run_bot_in_my_seat

        return run_bot_in_my_seat(options, out, err)

    players: tuple[str, ...] | None = None
    me: int | None = None
    bot_rounds: tuple[tuple[int, int], ...] = ()
    if options.file is not None:
        match, record = read_record_file(options.file)
        difficulty, players, me = record.difficulty, record.players, record.me
        bot_rounds = record.bot_rounds or ()
    else:
        from bela.ai import BOT_KINDS

        assert options.seed is not None
        difficulty, notice = resolve_difficulty(options.difficulty or "normal", BOT_KINDS)
        if notice is not None:
            print(f"bela: {notice}", file=err)
        match = play_seeded(options.seed, options.target, difficulty, options.round, options.rules)
    if options.sheet:
        return _print_sheet(match, difficulty, options.json, out, (players, me))
    views = match_rounds(match)
    if options.round is not None:
        views = [v for v in views if v.number == options.round]
        if not views:
            played = match_rounds(match)
            if played:
                span = _("rounds {first} to {last}").format(
                    first=played[0].number, last=played[-1].number
                )
            else:
                span = _("no rounds")
            raise CliError(
                _("there is no round {n} in this match: it has {span}").format(
                    n=options.round, span=span
                )
            )
    if options.json:
        with english():  # --json reads the same in every language
            data = match_json(match, difficulty, views)
        text = json_for_terminal(json.dumps(data, ensure_ascii=False, indent=2))
        with writing_output():
            print(text, file=out)
    else:
        with at_table(players, me):  # a network match: seats by name, from the reader's side
            rendered = render_match(match, difficulty, views, bot_rounds)
        with writing_output():
            output_console(out).print(rendered)
    return 0


def _print_sheet(
    match: Match,
    difficulty: str,
    as_json: bool,
    out: TextIO,
    seats: tuple[tuple[str, ...] | None, int | None] = (None, None),
) -> int:
    """``--sheet``: the score sheet alone, every round's line, as text or JSON."""
    from bela.archive.replay_text import render_sheet, sheet_json

    if as_json:
        with english():
            data = sheet_json(match, difficulty)
        text = json_for_terminal(json.dumps(data, ensure_ascii=False, indent=2))
        with writing_output():
            print(text, file=out)
        return 0
    with at_table(*seats):
        rendered = render_sheet(match, difficulty)
    with writing_output():
        output_console(out).print(rendered)
    return 0
