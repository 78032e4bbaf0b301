"""``bela history`` and ``bela stats``: the archived matches listed, and what they add up to.

Both read the history index (``bela.archive.history``), which is brought up to date
with the archive first, so a match finished a minute ago is there. Tables are
rich ``Table``s of ``Text`` cells: file names and damage reasons are outside
text and are never read as markup. ``--json`` prints the same data with keys
that do not change from one run to the next (every key present, null where
there is no value).

The options live here rather than in ``options.py`` so the commands are one
module; ``options.py`` only registers the subparsers.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TextIO

from bela.cli.common import EXIT_ENVIRONMENT, CliError, output_console, writing_output
from bela.foundation.untrusted import as_text, json_for_terminal, oneline, shown, shown_path
from bela.i18n import _, ngettext
from bela.settings import stored_rule_name
from bela.wording import level_name, match_kind, outcome_name

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from bela.archive.history import History, MatchRow
    from bela.archive.stats import CallRecord, Statistics

__all__ = [
    "HistoryOptions",
    "StatsOptions",
    "add_history_parsers",
    "history_options",
    "run_history",
    "run_stats",
    "stats_options",
]

MAX_LIMIT: Final = 1_000_000
RESULTS: Final = ("won", "lost", "unfinished", "damaged")
_FILE_WIDTH: Final = 140  # fits every column of the history unfolded
_LEVEL: Final = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")  # what a record may name as difficulty


@dataclass(frozen=True, slots=True)
class HistoryOptions:
    """``bela history``: which matches to list, and how."""

    difficulty: str | None
    result: str | None
    limit: int | None
    json: bool


@dataclass(frozen=True, slots=True)
class StatsOptions:
    """``bela stats``: the statistics of all matches, or of one difficulty."""

    difficulty: str | None
    json: bool


def _rules_text(row: MatchRow) -> str:
    """A match's house rules by their one names (``standard`` when none; nothing if damaged)."""
    return ", ".join(map(stored_rule_name, row.rules)) or ("" if row.reason else _("standard"))


def _level(text: str) -> str:
    cleaned = text.strip().lower()
    if not _LEVEL.match(cleaned):
        raise argparse.ArgumentTypeError(
            _("a difficulty is a name such as easy, normal or hard, not {text}").format(
                text=shown(text)
            )
        )
    return cleaned


def _result(text: str) -> str:
    cleaned = text.strip().lower()
    if cleaned not in RESULTS:
        raise argparse.ArgumentTypeError(
            _("the result is one of {results}, not {text}").format(
                results=", ".join(RESULTS), text=shown(text)
            )
        )
    return cleaned


def _limit(text: str) -> int:
    from bela.cli.options import whole_number

    number = whole_number(text)
    if number is None or not 1 <= number <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(
            _("the limit is a whole number from 1 to {max}, not {text}").format(
                max=f"{MAX_LIMIT:,}", text=shown(text)
            )
        )
    return number


def add_history_parsers(commands: Any) -> dict[str, argparse.ArgumentParser]:
    """Add the ``history`` and ``stats`` subparsers to ``commands`` (argparse's subparsers)."""
    from bela.cli.options import COMMANDS

    history: argparse.ArgumentParser = commands.add_parser(
        "history",
        help=_(COMMANDS["history"]),
        description=_(
            "List the matches kept in the archive of the data directory, newest first: "
            "date, target, difficulty, rules, result, seed and file. A record that cannot be read "
            "is listed as damaged, with the reason. Any of them replays with 'bela replay FILE'."
        ),
        epilog=_("examples: bela history --limit 10 | bela history --result won --difficulty hard"),
        allow_abbrev=False,
    )
    history.add_argument(
        "--difficulty",
        type=_level,
        metavar="LEVEL",
        help=_("only matches at this level (e.g. hard)"),
    )
    history.add_argument(
        "--result",
        type=_result,
        metavar="{won,lost,unfinished,damaged}",
        help=_("only matches with this result (for you and your partner)"),
    )
    history.add_argument(
        "--limit", type=_limit, metavar="N", help=_("only the N newest (after the other filters)")
    )
    history.add_argument("--json", action="store_true", help=_("print JSON for machines"))

    stats = commands.add_parser(
        "stats",
        help=_(COMMANDS["stats"]),
        description=_(
            "What the archived matches add up to, for you (the seat you sat in) and your team "
            "(mi) against the opponents (vi): matches won by difficulty (network matches on "
            "their own line), rounds, trump called and made, "
            "pad rate, štiglja, points written per round, zvanja and bela."
        ),
        epilog=_("examples: bela stats | bela stats --difficulty hard --json"),
        allow_abbrev=False,
    )
    stats.add_argument(
        "--difficulty", type=_level, metavar="LEVEL", help=_("only matches at this level")
    )
    stats.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    return {"history": history, "stats": stats}


def history_options(args: argparse.Namespace) -> HistoryOptions:
    return HistoryOptions(
        difficulty=args.difficulty, result=args.result, limit=args.limit, json=args.json
    )


def stats_options(args: argparse.Namespace) -> StatsOptions:
    return StatsOptions(difficulty=args.difficulty, json=args.json)


# ---------------------------------------------------------------------- running


def _open(err: TextIO) -> History:
    """The history, up to date; a notice (index kept in memory) goes to stderr."""
    import sqlite3

    from bela.archive.history import open_history

    try:
        history = open_history()
    except sqlite3.Error as exc:  # not expected: open_history falls back to memory
        raise CliError(
            _("the match history cannot be read: {error}").format(error=oneline(exc)),
            EXIT_ENVIRONMENT,
        ) from None
    if history.notice is not None:
        with writing_output():
            print(f"bela: {oneline(history.notice)}", file=err)
    return history


def _query_failed(exc: Exception) -> CliError:
    return CliError(
        _("the match history index failed: {error}").format(error=oneline(exc)), EXIT_ENVIRONMENT
    )


def run_history(options: HistoryOptions, out: TextIO, err: TextIO) -> int:
    import sqlite3

    from bela.archive.history import Outcome

    with _open(err) as history:
        try:
            rows = history.matches(
                difficulty=options.difficulty,
                outcome=None if options.result is None else Outcome(options.result),
                limit=options.limit,
            )
        except sqlite3.Error as exc:
            raise _query_failed(exc) from None
        if options.json:
            data = {
                "archive": str(history.matches_dir),
                "notice": history.notice,
                "matches": [_match_json(row, history) for row in rows],
            }
            with writing_output():
                print(json_for_terminal(json.dumps(data, ensure_ascii=False, indent=2)), file=out)
            return 0
        rendered = _history_table(rows, history)
    with writing_output():
        console = output_console(out)
        if not console.is_terminal:  # a file or a pipe: whole lines rather than 80 columns
            console.width = max(console.width, _FILE_WIDTH)
        console.print(rendered)
    return 0


def _match_json(row: MatchRow, history: History) -> dict[str, Any]:
    return {
        "file": row.file,
        "path": str(history.matches_dir / row.file),
        "played_at": row.played_at.isoformat(),
        "result": row.outcome.value,
        "reason": row.reason,
        "seed": row.seed,
        "target": row.target,
        "difficulty": row.difficulty,
        "players": None if row.players is None else list(row.players),
        "seat": row.me,
        "rules": None if row.reason is not None else list(row.rules),
        "rounds": row.rounds,
        "scores": None if row.scores is None else list(row.scores),
        "winner": row.winner,
        "belot": row.belot,
    }


def _result_text(row: MatchRow) -> Text:
    from rich.text import Text

    styles = {"won": "bold green", "lost": "red", "unfinished": "yellow", "damaged": "bold red"}
    text = Text(outcome_name(row.outcome.value), style=styles[row.outcome.value])
    if row.scores is not None:
        text.append(f" {row.scores[0]} : {row.scores[1]}")
    if row.belot is not None:
        text.append(" (belot)")
    return text


def _rules_word(row: MatchRow) -> str:
    return "" if row.reason else _("standard")


def _history_table(rows: list[MatchRow], history: History) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    where = Text(_("Archive: {path}").format(path=shown_path(history.matches_dir)))
    if not rows:
        return Group(Text(_("No matches to list.")), where)
    table = Table(title=_("Matches ({n}), newest first").format(n=len(rows)), title_justify="left")
    names = (
        _("date (UTC)"),
        _("target"),
        _("difficulty"),
        _("rules"),
        _("result"),
        _("seed"),
        _("file"),
    )
    for i, name in enumerate(names):
        table.add_column(
            name,
            justify="right" if i in (1, 5) else "left",
            overflow="fold",
            no_wrap=i in (0, 4),
        )
    for row in rows:
        table.add_row(
            Text(row.played_at.strftime("%Y-%m-%d %H:%M")),
            Text("" if row.target is None else str(row.target)),
            as_text(match_kind(row.difficulty, row.players, row.me), 200)
            if row.difficulty
            else Text(""),
            as_text(_rules_text(row), 200),
            _result_text(row),
            Text("" if row.seed is None else str(row.seed)),
            as_text(row.file, 120),
        )
    parts: list[RenderableType] = [table]
    for row in rows:
        if row.reason is not None:  # the index's text: through the gate, never markup
            line = _("damaged: {file}: {reason}").format(
                file=oneline(row.file, 120), reason=oneline(row.reason, 200)
            )
            parts.append(as_text(line, style="red"))
    replay = _("Replay one with: bela replay FILE (--sheet for its score sheet)")
    parts.extend([where, Text(replay)])
    return Group(*parts)


def run_stats(options: StatsOptions, out: TextIO, err: TextIO) -> int:
    import sqlite3

    from bela.archive.stats import statistics

    with _open(err) as history:
        try:
            stats = statistics(history, options.difficulty)
        except sqlite3.Error as exc:
            raise _query_failed(exc) from None
        notice = history.notice
    if options.json:
        data = stats_json(stats)
        data["notice"] = notice
        with writing_output():
            print(json_for_terminal(json.dumps(data, ensure_ascii=False, indent=2)), file=out)
        return 0
    with writing_output():
        output_console(out).print(_stats_view(stats))
    return 0


def _rate(rate: float | None) -> float | None:
    return None if rate is None else round(rate, 4)


def _calls_json(record: CallRecord) -> dict[str, Any]:
    return {
        "called": record.called,
        "made": record.made,
        "fell": record.fell,
        "pad_rate": _rate(record.pad_rate),
    }


def _pair(pair: tuple[int, int]) -> dict[str, int]:
    return {"mi": pair[0], "vi": pair[1]}


def stats_json(stats: Statistics) -> dict[str, Any]:
    """The statistics as JSON-ready data with stable keys (rates rounded to 4 places)."""
    average = stats.average_written
    return {
        "matches": {
            "total": stats.matches,
            "played": stats.played,
            "won": stats.won,
            "lost": stats.lost,
            "unfinished": stats.unfinished,
            "damaged": stats.damaged,
            "win_rate": _rate(stats.win_rate),
        },
        "by_difficulty": [
            {
                "difficulty": level.difficulty,
                "played": level.played,
                "won": level.won,
                "lost": level.lost,
                "unfinished": level.unfinished,
                "win_rate": _rate(level.win_rate),
            }
            for level in stats.by_difficulty
        ],
        "rounds": {"total": stats.rounds, "played": stats.played_rounds, "redeals": stats.redeals},
        "calls": {
            "you": {**_calls_json(stats.you), "seats": list(stats.seats)},
            "mi": _calls_json(stats.mi),
            "vi": _calls_json(stats.vi),
        },
        "stiglja": _pair(stats.stiglja),
        "written": _pair(stats.written),
        "average_written": None
        if average is None
        else {"mi": round(average[0], 2), "vi": round(average[1], 2)},
        "zvanja_rounds": _pair(stats.zvanja_rounds),
        "zvanja_points": _pair(stats.zvanja_points),
        "bela": _pair(stats.bela),
        "belot": _pair(stats.belot),
    }


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def _you(seats: tuple[int, ...]) -> str:
    """The "you" row's label: the seat you sat in, numbered 1-4 as the lobby and ``bela
    replay`` number the seats (at a network table the seat you chose, against the bots 1)."""
    if len(seats) == 1:
        return _("you (seat {seat})").format(seat=seats[0] + 1)
    return _("you (your own seat)")


def _stats_view(stats: Statistics) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if not stats.matches:
        return Text(_("No matches played yet: nothing to count."))
    matches = Table(title=_("Matches"), title_justify="left", show_footer=True)
    for i, (name, footer) in enumerate(
        (
            (_("difficulty"), _("all")),
            (_("played"), str(stats.played)),
            (_("won"), str(stats.won)),
            (_("lost"), str(stats.lost)),
            (_("unfinished"), str(stats.unfinished)),
            (_("won of finished"), _percent(stats.win_rate)),
        )
    ):
        matches.add_column(name, footer=footer, justify="left" if i == 0 else "right")
    for level in stats.by_difficulty:
        matches.add_row(
            Text(level_name(level.difficulty)),
            str(level.played),
            str(level.won),
            str(level.lost),
            str(level.unfinished),
            _percent(level.win_rate),
        )
    calls = Table(title=_("Trump called"), title_justify="left")
    for i, name in enumerate((_("by"), _("called"), _("made"), _("pad"), _("pad rate"))):
        calls.add_column(name, justify="left" if i == 0 else "right")
    for who, record in ((_you(stats.seats), stats.you), ("mi", stats.mi), ("vi", stats.vi)):
        calls.add_row(
            who, str(record.called), str(record.made), str(record.fell), _percent(record.pad_rate)
        )
    points = Table(title=_("Rounds"), title_justify="left")
    for name in ("", "mi", "vi"):
        points.add_column(name, justify="left" if not name else "right")
    average = stats.average_written
    written = ("-", "-") if average is None else (f"{average[0]:.1f}", f"{average[1]:.1f}")
    points.add_row(_("written per round"), *written)
    for label, pair in (
        (_("štiglja"), stats.stiglja),
        (_("rounds with zvanja"), stats.zvanja_rounds),
        (_("zvanja points"), stats.zvanja_points),
        (_("bela announced"), stats.bela),
        (_("belot"), stats.belot),
    ):
        points.add_row(label, str(pair[0]), str(pair[1]))
    parts: list[RenderableType] = [matches, calls, points]
    parts.append(
        Text(
            ngettext(
                "{rounds} round, {redeals} of them redealt (all passed).",
                "{rounds} rounds, {redeals} of them redealt (all passed).",
                stats.rounds,
            ).format(rounds=stats.rounds, redeals=stats.redeals)
        )
    )
    if stats.damaged:
        parts.append(
            Text(
                ngettext(
                    "{n} damaged record not counted: see bela history --result damaged",
                    "{n} damaged records not counted: see bela history --result damaged",
                    stats.damaged,
                ).format(n=stats.damaged)
            )
        )
    return Group(*parts)
