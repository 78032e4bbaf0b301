"""``bela replay --bot-in-my-seat``: each round beside its retake with a bot in your seat.

With a record FILE (or ``--seed``) every finished round, or ``--round K``, is shown
as played and as the bot would have played your cards (``bela.lab.bot_in_seat``):
the bids, the tricks and what each team wrote, side by side, and how many written
points the bot would have gained or lost for your team. With ``--last N`` the same
over your last N archived matches, summed up as a mean a round with a 95% interval.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from bela.archive.retake_text import retake_view, signed
from bela.cli.common import (
    CliError,
    output_console,
    resolve_difficulty,
    worker_jobs,
    writing_output,
)
from bela.engine import Round
from bela.foundation.untrusted import oneline
from bela.i18n import _, english
from bela.wording import at_table, level_name

if TYPE_CHECKING:
    from bela.archive.history import History
    from bela.cli.options import ReplayOptions
    from bela.engine import Match
    from bela.lab.bot_in_seat import SeatSwap, SwapSummary

__all__ = ["run_bot_in_my_seat"]


def run_bot_in_my_seat(options: ReplayOptions, out: TextIO, err: TextIO) -> int:
    """The command's work: one match round by round, or a summary over the archive."""
    from bela.ai import BOT_KINDS

    seat_bot, notice = resolve_difficulty(options.seat_bot, BOT_KINDS)
    if notice is not None:
        print(f"bela: {notice}", file=err)
    if options.last is not None:
        return _run_last(options, seat_bot, out, err)
    return _run_one(options, seat_bot, out, err)


def _run_one(options: ReplayOptions, seat_bot: str, out: TextIO, err: TextIO) -> int:
    from bela.ai import BOT_KINDS
    from bela.cli.replay import play_seeded, read_record_file
    from bela.lab.bot_in_seat import swap_round

    players: tuple[str, ...] | None = None
    seat = 0
    people = False  # a network match: the other seats were people
    if options.file is not None:
        match, record = read_record_file(options.file)
        level, players = record.difficulty, record.players
        seat = 0 if record.me is None else record.me
        people = record.is_network
    else:
        assert options.seed is not None
        level, notice = resolve_difficulty(options.difficulty or "normal", BOT_KINDS)
        if notice is not None:
            print(f"bela: {notice}", file=err)
        match = play_seeded(options.seed, options.target, level, options.round, options.rules)
    level = _playable(level)
    indices = [r.index for r in match.rounds]
    if options.round is not None:
        indices = [i for i in indices if i + 1 == options.round]
        if not indices:
            raise CliError(
                _("there is no finished round {n} in this match").format(n=options.round)
            )
    if not indices:
        raise CliError(_("this match has no finished round yet"))
    swaps = [swap_round(match, index, seat, level, seat_bot) for index in indices]
    if options.json:
        with english():
            data = _match_json(swaps, seat_bot, level, people)
        with writing_output():
            print(json.dumps(data, ensure_ascii=False, indent=2), file=out)
        return 0
    with at_table(players, seat if players is not None else None):
        parts: list[RenderableType] = [_head(seat_bot, level, people=people)]
        parts.extend(retake_view(s.index, s.seat, s.played, s.retaken) for s in swaps)
        if len(swaps) > 1:
            from bela.lab.bot_in_seat import summarize

            parts.append(_summary_table(summarize([[s.gain for s in swaps]]), seat_bot))
        rendered = Group(*parts)
    with writing_output():
        output_console(out).print(rendered)
    return 0


def _playable(level: str) -> str:
    """The record's bot level as a bot that exists (an older or stranger name: normal)."""
    from bela.ai import BOT_KINDS

    return level if level in BOT_KINDS else "normal"


def _run_last(options: ReplayOptions, seat_bot: str, out: TextIO, err: TextIO) -> int:
    from bela.cli.history import _open
    from bela.lab.bot_in_seat import summarize, swap_many
    from bela.lab.progress import ProgressBar

    assert options.last is not None
    with _open(err) as history:
        tasks = _archived_tasks(history, options.last, seat_bot, err)
    if not tasks:
        # nothing to read yet is no error: a fresh install runs the README's line too
        with writing_output():
            print(_("the archive has no finished match yet: play one first"), file=out)
        return 0
    jobs = worker_jobs(options.jobs, err)
    label = _("The bot in your seat")
    with ProgressBar(err.isatty() and not options.json, len(tasks), label) as bar:
        gains = swap_many(tasks, jobs=jobs, progress=bar)
    result = summarize(gains)
    if options.json:
        data = {
            "bot": seat_bot,
            "matches": result.matches,
            "rounds": result.rounds,
            "mean": round(result.mean, 2),
            "low": round(result.low, 2),
            "high": round(result.high, 2),
            "better": result.better,
            "worse": result.worse,
        }
        with writing_output():
            print(json.dumps(data, ensure_ascii=False, indent=2), file=out)
        return 0
    with writing_output():
        output_console(out).print(_summary_table(result, seat_bot))
    return 0


def _archived_tasks(
    history: History, last: int, seat_bot: str, err: TextIO
) -> list[tuple[Match, int, str, str]]:
    """The last ``last`` archived matches with a finished round, read and replayed."""
    from bela.archive.history import Outcome
    from bela.archive.records import RecordError, match_from_record
    from bela.archive.storage import read_record

    tasks: list[tuple[Match, int, str, str]] = []
    for row in history.matches():
        if len(tasks) >= last:
            break
        if row.outcome is Outcome.DAMAGED or row.rounds == 0:
            continue
        try:
            record = read_record(history.path_of(row.file))
            match = match_from_record(record)
        except (OSError, RecordError) as exc:  # changed since it was indexed: skip it, say so
            message = _("bela: {file} skipped: {error}").format(
                file=oneline(row.file), error=oneline(exc)
            )
            print(message, file=err)
            continue
        if not match.rounds:
            continue
        seat = 0 if record.me is None else record.me
        tasks.append((match, seat, _playable(record.difficulty), seat_bot))
    return tasks


# ---------------------------------------------------------------------- rendering


def _head(seat_bot: str, level: str, *, people: bool) -> Text:
    text = _(
        "Each round again with a bot playing your cards (level: {bot}); the other seats are "
        "played by bots of level {level}, drawing the same random numbers as in the match."
    ).format(bot=level_name(seat_bot), level=level_name(level))
    if people:
        text += " " + _(
            "At a network table the other people cannot be asked again: bots play their seats."
        )
    return Text(text, style="italic")


def _summary_table(result: SwapSummary, seat_bot: str) -> RenderableType:
    table = Table(
        title=Text(
            _("A bot in your seat (level: {bot}), against your play").format(
                bot=level_name(seat_bot)
            )
        ),
        title_justify="left",
        box=None,
        pad_edge=False,
        show_header=False,
    )
    table.add_column("")
    table.add_column("", justify="right")
    table.add_row(_("matches"), str(result.matches))
    table.add_row(_("rounds"), str(result.rounds))
    if result.rounds > 1:
        spread = _("{mean} (interval {low} to {high}, 95%)").format(
            mean=signed(result.mean), low=signed(result.low), high=signed(result.high)
        )
    else:
        spread = signed(result.mean)
    table.add_row(_("written points a round, bot minus you"), spread)
    table.add_row(_("rounds the bot did better"), str(result.better))
    table.add_row(_("rounds the bot did worse"), str(result.worse))
    return table


def _side_json(rnd: Round) -> dict[str, Any]:
    result = rnd.result
    assert result is not None
    return {"actions": [str(a) for a in rnd.actions], "written": list(result.points)}


def _match_json(
    swaps: Sequence[SeatSwap], seat_bot: str, level: str, people: bool
) -> dict[str, Any]:
    from bela.lab.bot_in_seat import summarize

    total = summarize([[s.gain for s in swaps]])
    return {
        "bot": seat_bot,
        "others": level,
        "people_replaced": people,
        "seat": swaps[0].seat if swaps else None,
        "rounds": [
            {
                "round": s.index + 1,
                "same": s.same,
                "played": _side_json(s.played),
                "bot": _side_json(s.retaken),
                "gain": s.gain,
            }
            for s in swaps
        ],
        "mean": round(total.mean, 2),
    }
