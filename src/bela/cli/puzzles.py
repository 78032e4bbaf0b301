"""``bela puzzles``: puzzles in the terminal, their rating and stats, export, and generation.

* ``bela puzzles``: one puzzle after another, chosen near the player's rating
  (``bela.archive.puzzle_store``): the seat's view as text, the answer read as the
  table's words (``10H``, ``10♥``, ``dalje``, ``call H``), then the explanation
  (``bela.puzzle_words``, the same sentences as the app), the real deal and the
  rating's change. ``--theme``, ``--daily``, ``--count``;
* ``--json``: the next puzzles as JSON (nothing is recorded); ``--export FILE``: the
  selected puzzles' seed, dealer, actions, seat and answer as JSON lines;
* ``--stats``: rating, RD, streak, solved, by theme, the rating's history;
* ``bela puzzles generate``: look for puzzles in new deals (``bela.lab.puzzle_gen``)
  and append them to ``<data dir>/puzzles/own-<time>.jsonl`` as they are found.

The pack is untrusted (``bela.archive.puzzle_pack`` checks every line); what is
printed of it is cards, actions and numbers, and the id (short hex).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bela.cli.common import EXIT_ENVIRONMENT, CliError, writing_output
from bela.foundation.puzzle_themes import THEMES
from bela.foundation.untrusted import json_for_terminal, oneline, shown, shown_path
from bela.i18n import _, ngettext

if TYPE_CHECKING:
    from bela.archive.puzzle_pack import Pack, Puzzle
    from bela.archive.puzzle_store import PuzzleStore
    from bela.engine import Action, Round

__all__ = [
    "PuzzlesOptions",
    "add_puzzles_parser",
    "puzzles_options",
    "read_answer",
    "run_puzzles",
    "view_lines",
]

MAX_COUNT = 100_000
MAX_DEALS = 10_000_000
MIN_GUESSES = 4
MAX_GUESSES = 1_000
_STOP = ("q", "quit", "exit")
"""What stops a session at a prompt (the end of the input does too)."""


@dataclass(frozen=True, slots=True)
class PuzzlesOptions:
    """``bela puzzles`` (``task`` "play", "json", "export" or "stats") or ``bela puzzles
    generate`` (``task`` "generate")."""

    task: str
    theme: str | None = None
    bids: bool = False
    daily: bool = False
    count: int | None = None
    export: Path | None = None
    deals: int = 100
    guesses: int = 96
    jobs: int | None = None
    cluster: str | None = None
    seed: int | None = None
    json: bool = False
    mode: str | None = None
    """A puzzle mode to play (``streak`` or ``storm``: ``bela.archive.puzzle_modes``)."""


def add_puzzles_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``puzzles`` (with its ``generate`` task) to argparse's subparsers ``commands``."""
    from bela.cli.options import (
        COMMANDS,
        MAX_JOBS,
        _count,
        _Parser,
        add_cluster_option,
        parse_seed,
    )

    puzzles: argparse.ArgumentParser = commands.add_parser(
        "puzzles",
        help=_(COMMANDS["puzzles"]),
        description=_(
            "Puzzles: a moment of a real deal where one card or one bid is clearly right "
            "whatever the hidden cards are. You see what your seat saw and answer as at the "
            "table (10H or 10♥, dalje, call H); then the answer's average over the guessed "
            "deals against yours, a typical deal, the real deal, and your rating's change. "
            "Your rating (Glicko-2) chooses the next puzzle; missed ones come back later."
        ),
        epilog=_(
            "examples: bela puzzles | bela puzzles --theme lead | bela puzzles --daily | "
            "bela puzzles --stats | bela puzzles --json --count 5 | "
            "bela puzzles --export puzzles.jsonl | bela puzzles generate --deals 20"
        ),
        allow_abbrev=False,
    )
    puzzles.add_argument(
        "--theme",
        type=_theme,
        choices=THEMES,
        metavar="THEME",
        help=_("only puzzles of this theme: {themes}").format(themes=_themes_listed()),
    )
    puzzles.add_argument(
        "--bids",
        action="store_true",
        help=_("only bid puzzles: call or dalje, which suit, pod mus"),
    )
    puzzles.add_argument(
        "--daily", action="store_true", help=_("today's puzzle, the same for everyone")
    )
    puzzles.add_argument(
        "--count",
        type=_count(1, MAX_COUNT),
        metavar="N",
        help=_("at most N puzzles (to play, print or export; default: play until you stop)"),
    )
    shown_as = puzzles.add_mutually_exclusive_group()
    shown_as.add_argument(
        "--json", action="store_true", help=_("print the next puzzles as JSON for machines")
    )
    shown_as.add_argument(
        "--export",
        type=Path,
        metavar="FILE",
        help=_(
            "write the puzzles' seed, dealer, actions, seat and answer to FILE (JSON lines; "
            "- for the standard output)"
        ),
    )
    shown_as.add_argument(
        "--streak",
        action="store_const",
        const="streak",
        dest="mode",
        help=_("puzzle streak: puzzles one after another until the first miss; the best is kept"),
    )
    shown_as.add_argument(
        "--storm",
        action="store_const",
        const="storm",
        dest="mode",
        help=_("puzzle storm: as many puzzles as you can solve in three minutes; the best is kept"),
    )
    shown_as.add_argument(
        "--stats",
        "--list",
        action="store_true",
        dest="stats",
        help=_("your rating, streak and solved puzzles, by theme"),
    )
    tasks = puzzles.add_subparsers(dest="puzzles_task", metavar="TASK", parser_class=_Parser)
    generate = tasks.add_parser(
        "generate",
        help=_("look for new puzzles in deals played by the bots, on this machine"),
        description=_(
            "Deal new rounds, let the bots play them, and judge their moments: a card or a bid "
            "best on nine guessed deals in ten and 10 written points ahead of the next choice "
            "is a puzzle. Found puzzles are added to a new file in the puzzles folder of your "
            "data directory as they come, so stopping keeps what was found. Slow: a deal "
            "takes seconds to minutes of CPU."
        ),
        epilog=_("example: bela puzzles generate --deals 50 --jobs 2"),
        allow_abbrev=False,
    )
    generate.add_argument(
        "--deals",
        type=_count(1, MAX_DEALS),
        default=100,
        metavar="N",
        help=_("how many deals to look in (default 100)"),
    )
    generate.add_argument(
        "--guesses",
        type=_count(MIN_GUESSES, MAX_GUESSES),
        default=96,
        metavar="G",
        help=_("guessed deals that judge each moment (default 96; fewer is faster and less sure)"),
    )
    generate.add_argument(
        "--jobs",
        type=_count(1, MAX_JOBS),
        metavar="J",
        help=_("worker processes (default: the CPUs bela may use)"),
    )
    generate.add_argument(
        "--seed",
        type=parse_seed,
        metavar="S",
        help=_("the first deal's seed (default: a random one); the deals are S, S+1, …"),
    )
    add_cluster_option(generate)
    return puzzles


def _theme(text: str) -> str:
    """A theme as ``--theme`` takes it: its id (``lead``) or its name in the player's language
    ("prvi u štihu"), so that no English has to be typed in hr; anything else is left for
    argparse's choices to refuse in one line."""
    from bela.puzzle_words import theme_name

    wanted = " ".join(text.split()).casefold()
    for theme in THEMES:
        if wanted in (theme, theme_name(theme).casefold()):
            return theme
    return text


def _themes_listed() -> str:
    """Every theme for ``--help``: its id and, where they differ, its name ("lead (prvi u
    štihu)"); either is taken."""
    from bela.puzzle_words import theme_name

    return ", ".join(
        theme if theme_name(theme) == theme else f"{theme} ({theme_name(theme)})"
        for theme in THEMES
    )


def puzzles_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> PuzzlesOptions:
    """The parsed ``bela puzzles`` arguments as options."""
    if args.puzzles_task == "generate":
        if (
            args.theme
            or args.bids
            or args.daily
            or args.count
            or args.json
            or args.export
            or args.stats
        ):
            parser.error(_("generate takes its own options: give them after 'generate'"))
        return PuzzlesOptions(
            task="generate",
            deals=args.deals,
            guesses=args.guesses,
            jobs=args.jobs,
            cluster=args.cluster,
            seed=args.seed,
        )
    task = "json" if args.json else "export" if args.export else "stats" if args.stats else "play"
    if args.daily and task in ("export", "stats"):
        parser.error(_("--daily goes with playing or --json"))
    if args.daily and args.bids:
        parser.error(_("--daily is one puzzle of any kind: leave out --bids"))
    if args.daily and (args.theme or args.count):
        parser.error(_("--daily is one puzzle: leave out --theme and --count"))
    if task == "stats" and (args.theme or args.count):
        parser.error(_("--stats covers every theme: leave out --theme and --count"))
    if args.mode and (args.daily or args.count):
        parser.error(_("--streak and --storm go on by themselves: leave out --daily and --count"))
    return PuzzlesOptions(
        task=task,
        theme=args.theme,
        bids=args.bids,
        daily=args.daily,
        count=args.count,
        export=args.export,
        mode=args.mode,
    )


# ---------------------------------------------------------------------- running


def run_puzzles(
    options: PuzzlesOptions, out: TextIO, err: TextIO, answers: TextIO | None = None
) -> int:
    """Run ``bela puzzles``; ``answers`` is where the player's answers are read (stdin)."""
    import sys

    if options.task == "generate":
        return _generate(options, out, err)
    pack, store = _open(err)
    if options.bids:  # bid puzzles alone (``bela.archive.bid_puzzles``)
        from bela.archive.puzzle_pack import Pack

        pack = Pack(tuple(p for p in pack.puzzles if p.kind == "bid"), pack.skipped)
    with store:
        if options.task == "stats":
            return _stats(pack, store, out)
        if options.task == "export":
            return _export(pack, store, options, out)
        if options.task == "json":  # machines get a list, an empty one too
            return _json(pack, store, options, out)
        if not pack.puzzles:
            with writing_output():
                print(_no_puzzles(), file=out)
            return 0
        return _play(pack, store, options, out, answers or sys.stdin)


def _no_puzzles() -> str:
    return _("there are no puzzles yet: make some with 'bela puzzles generate'")


def _open(err: TextIO) -> tuple[Pack, PuzzleStore]:
    from bela.archive.puzzle_pack import load_pack
    from bela.archive.puzzle_store import PuzzleStore
    from bela.archive.storage import data_dir

    folder = data_dir()
    pack = load_pack(folder)
    if pack.skipped:
        _say(
            err,
            ngettext(
                "bela: {n} puzzle line that is not a usable puzzle was skipped",
                "bela: {n} puzzle lines that are not usable puzzles were skipped",
                len(pack.skipped),
            ).format(n=len(pack.skipped)),
        )
    store = PuzzleStore.in_data_dir(folder)
    if store.notice is not None:
        _say(err, f"bela: {oneline(store.notice)}")
    return pack, store


def _say(err: TextIO, line: str) -> None:
    with contextlib.suppress(OSError):
        print(line, file=err, flush=True)


def _selected(pack: Pack, store: PuzzleStore, options: PuzzlesOptions) -> list[Puzzle]:
    """The puzzles ``--json`` prints: the daily one, or the next ``count`` (1 by default)."""
    if options.daily:
        puzzle = store.daily(pack, date.today())
        return [] if puzzle is None else [puzzle]
    chosen: list[Puzzle] = []
    for _n in range(options.count or 1):
        puzzle = store.next_puzzle(pack, options.theme, skip={p.id for p in chosen})
        if puzzle is None:
            break
        chosen.append(puzzle)
    return chosen


def _json(pack: Pack, store: PuzzleStore, options: PuzzlesOptions, out: TextIO) -> int:
    from bela.archive.puzzle_pack import puzzle_data

    rows = []
    for puzzle in _selected(pack, store, options):
        data = puzzle_data(puzzle)
        data["local_rating"] = round(store.puzzle_rating(puzzle).rating, 1)
        rows.append(data)
    text = json.dumps(rows, ensure_ascii=False, indent=2)
    with writing_output():
        print(json_for_terminal(text), file=out)
    return 0


def _export(pack: Pack, store: PuzzleStore, options: PuzzlesOptions, out: TextIO) -> int:
    """The selected puzzles (the theme's, else all; at most ``count``) as JSON lines,
    written atomically: the file is the whole export or untouched. ``-`` is the standard
    output (the lines alone, no count after them)."""
    from bela.foundation.files import replace_regular_file
    from bela.foundation.untrusted import shown_path

    assert options.export is not None
    puzzles = [p for p in pack.puzzles if options.theme is None or options.theme in p.themes]
    if options.count is not None:
        puzzles = puzzles[: options.count]
    lines = [
        json.dumps(
            {
                "id": p.id,
                "seed": p.seed,
                "dealer": p.dealer,
                "actions": [str(a) for a in p.actions],
                "seat": p.seat,
                "answer": [str(a) for a in p.answer],
            },
            ensure_ascii=False,
        )
        for p in puzzles
    ]
    target = options.export
    text = "".join(line + "\n" for line in lines)
    if str(target) == "-":  # the usual name of the standard output
        with writing_output():
            out.write(text)
            out.flush()
        return 0
    try:
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not target.parent.is_dir():  # a mistyped folder is not made: it is said
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))
        # a regular file or a new one only: a device, a FIFO or a link is refused, and an
        # existing file keeps its mode
        replace_regular_file(target, text, ".bela-export-")
    except OSError as exc:
        from bela.archive.storage import os_error_text

        raise CliError(
            _("cannot write {file}: {reason}").format(
                file=shown_path(target), reason=oneline(os_error_text(exc), 200)
            ),
            EXIT_ENVIRONMENT,
        ) from None
    with writing_output():
        print(
            ngettext(
                "{n} puzzle written to {file}", "{n} puzzles written to {file}", len(lines)
            ).format(n=len(lines), file=shown_path(target)),
            file=out,
        )
    return 0


def _stats(pack: Pack, store: PuzzleStore, out: TextIO) -> int:
    from bela.lab.coach_text import sparkline
    from bela.puzzle_words import PROVISIONAL_RD, streak_text, theme_name

    rating = store.player()
    streak = store.streak()
    head = _("Your puzzle rating: {rating} ± {rd}").format(
        rating=round(rating.rating), rd=round(2 * rating.rd)
    )
    if rating.rd > PROVISIONAL_RD:
        head += " " + _("(provisional)")
    lines = [
        head,
        ngettext("{n} puzzle solved", "{n} puzzles solved", store.solved_count()).format(
            n=store.solved_count()
        )
        + _(", ")
        + ngettext("{n} attempt", "{n} attempts", len(store.attempts())).format(
            n=len(store.attempts())
        ),
        streak_text(streak),
        ngettext(
            "{n} daily puzzle solved", "{n} daily puzzles solved", store.daily_solved()
        ).format(n=store.daily_solved()),
        ngettext("{n} puzzle in the pack", "{n} puzzles in the pack", len(pack.puzzles)).format(
            n=len(pack.puzzles)
        ),
    ]
    history = [r for _at, r in store.history()]
    if len(history) > 1:
        lines.append(
            _("Your rating, oldest first: {line} ({low}–{high})").format(
                line=sparkline(history[-60:]),
                low=round(min(history[-60:])),
                high=round(max(history[-60:])),
            )
        )
    from bela.archive.puzzle_modes import read_best
    from bela.archive.storage import data_dir
    from bela.puzzle_words import mode_label, weak_lines

    best = read_best(data_dir())
    lines.extend(mode_label(mode, score) for mode, score in best.items())
    lines.extend(weak_lines(_weakest(pack, store)))
    themes = store.by_theme(pack)
    if themes:
        lines.append(_("By theme: solved / tried / puzzles"))
        width = max(len(theme_name(t)) for t in themes)
        for theme, numbers in themes.items():
            lines.append(
                f"  {theme_name(theme).ljust(width)}  "
                f"{numbers.solved:>5} / {numbers.tried:>5} / {numbers.puzzles:>5}"
            )
    with writing_output():
        for line in lines:
            print(line, file=out)
    return 0


def _weakest(pack: Pack, store: PuzzleStore) -> list[Any]:
    """The player's weakest themes (``bela.archive.puzzle_modes.weakest_themes``)."""
    from bela.archive.puzzle_modes import weakest_themes

    return weakest_themes(
        {p.id: p.themes for p in pack.puzzles}, [(a.puzzle, a.right) for a in store.attempts()]
    )


# ---------------------------------------------------------------------- playing


def _play(
    pack: Pack, store: PuzzleStore, options: PuzzlesOptions, out: TextIO, answers: TextIO
) -> int:
    if options.mode is not None:
        return _play_mode(pack, store, options, out, answers)
    played = 0
    while options.count is None or played < options.count:
        if options.daily:
            puzzle = store.daily(pack, date.today())
            if puzzle is None:
                with writing_output():
                    print(
                        _("there is no daily puzzle: no pack is shipped with this bela"), file=out
                    )
                return 0
        else:
            puzzle = store.next_puzzle(pack, options.theme)
            if puzzle is None:
                with writing_output():
                    if options.theme is not None and options.theme not in pack.themes():
                        print(_("there are no puzzles of this theme yet"), file=out)
                    else:
                        print(_("you have solved every puzzle here: well done"), file=out)
                return 0
        if _one(puzzle, store, out, answers, daily=options.daily) is None:
            break
        played += 1
        if options.daily or played == options.count:
            break
        with writing_output():  # the explanation stays on the screen until the player goes on
            print(_("Enter for the next puzzle, q to stop: "), end="", file=out, flush=True)
        text = answers.readline()
        if not text or text.strip().casefold() in _STOP:
            with writing_output():
                print(file=out)
            break
    return 0


def _play_mode(
    pack: Pack, store: PuzzleStore, options: PuzzlesOptions, out: TextIO, answers: TextIO
) -> int:
    """A streak (until the first miss) or a storm (three minutes): puzzles near the player's
    rating one after another, then the score and the best kept (``bela.archive.puzzle_modes``).
    A storm shows only whether each answer was right, so the clock goes to solving."""
    from bela.archive.puzzle_modes import ModeRun, record_run
    from bela.archive.storage import data_dir, os_error_text
    from bela.puzzle_words import run_over, run_status

    assert options.mode is not None
    run = ModeRun(options.mode, time.monotonic())
    done: set[str] = set()
    while not run.over:
        puzzle = store.next_puzzle(pack, options.theme, skip=done, fresh_only=True)
        if puzzle is None or run.expired(time.monotonic()):
            break
        done.add(puzzle.id)
        with writing_output():
            print(_wrapped(run_status(run, time.monotonic()), out), file=out)
        right = _one(puzzle, store, out, answers, daily=False, brief=run.mode == "storm")
        if right is None:
            break
        run.answer(right, time.monotonic())
        if run.over or run.mode == "storm":
            continue
        with writing_output():
            print(_("Enter for the next puzzle, q to stop: "), end="", file=out, flush=True)
        text = answers.readline()
        if not text or text.strip().casefold() in _STOP:
            with writing_output():
                print(file=out)
            break
    try:
        result = record_run(data_dir(), run)
    except OSError as exc:
        raise CliError(
            _("your best score could not be kept: {reason}").format(
                reason=oneline(os_error_text(exc), 200)
            ),
            EXIT_ENVIRONMENT,
        ) from None
    with writing_output():
        print(_wrapped(run_over(result), out), file=out)
    return 0


def _one(
    puzzle: Puzzle,
    store: PuzzleStore,
    out: TextIO,
    answers: TextIO,
    *,
    daily: bool,
    brief: bool = False,
) -> bool | None:
    """Ask ``puzzle`` and show what the answer did: whether it was right, or None when the
    player stops (q or EOF). ``brief``: say only right or not and the rating (a storm)."""
    from bela.archive.storage import os_error_text
    from bela.puzzle_words import (
        explanation,
        puzzle_reasons,
        question,
        rating_change,
        reason_sentences,
        streak_text,
        table_names,
        theme_lines,
        themes_text,
        typical_text,
        typical_tricks,
        verdict,
        with_typical,
    )
    from bela.wording import at_table

    with at_table(table_names(puzzle.seat), puzzle.seat):
        rnd = puzzle.moment()
        local = store.puzzle_rating(puzzle).rating
        with writing_output():
            for line in view_lines(puzzle, rnd, local, daily=daily):
                print(_wrapped(line, out), file=out)
            if puzzle.bid is not None:  # where the seat speaks (``bela.bid_puzzle_words``)
                from bela.bid_puzzle_words import bid_place

                print(_wrapped(bid_place(puzzle), out), file=out)
            print(question(puzzle), file=out)
        start = time.monotonic()
        while True:
            with writing_output():
                print(
                    _wrapped(_prompt(puzzle, rnd).rstrip(), out) + " ", end="", file=out, flush=True
                )
            text = answers.readline()
            if not text:
                with writing_output():
                    print(file=out)
                return None
            if text.strip().casefold() in _STOP:
                return None
            answer = read_answer(text, rnd, puzzle.seat)
            if isinstance(answer, str):
                with writing_output():
                    print(answer, file=out)
                continue
            break
        seconds = time.monotonic() - start
        try:
            outcome = store.record(
                puzzle, answer, seconds, datetime.now(UTC), daily=date.today() if daily else None
            )
        except OSError as exc:
            raise CliError(
                _("your answer could not be kept: {reason}").format(
                    reason=oneline(os_error_text(exc), 200)
                ),
                EXIT_ENVIRONMENT,
            ) from None
        if brief:
            if puzzle.bid is not None:  # also good is said as such, not as a miss
                from bela.bid_puzzle_words import bid_verdict

                said = bid_verdict(puzzle, answer)
            else:
                said = verdict(puzzle, answer)
            with writing_output():
                for line in (said, rating_change(outcome), ""):
                    print(_wrapped(line, out), file=out)
            return outcome.right
        themes = _("Themes: {themes} · puzzle rating {rating}").format(  # as asked, above
            themes=themes_text(puzzle.themes) or "-", rating=round(local)
        )
        if puzzle.bid is not None:  # a bid puzzle: reasons in words (``bela.bid_puzzle_words``)
            from bela.bid_puzzle_words import bid_reasons, bid_verdict, typical_hands

            lines = [bid_verdict(puzzle, answer), *bid_reasons(puzzle, answer), themes]
            lines.extend(typical_hands(puzzle))
        else:
            lines = [verdict(puzzle, answer), explanation(puzzle, answer)]
            why = puzzle_reasons(puzzle, answer)
            if why is not None:
                lines.extend(reason_sentences(why))
            lines.append(themes)
            lines.extend(theme_lines(puzzle.themes))
            shown_deal = with_typical(puzzle, why)  # the deal of the median advantage
            typical = typical_text(shown_deal, why)
            if typical is not None:
                lines.append(typical)
                lines.extend(typical_tricks(shown_deal))  # who played what, who took it
            if why is not None and not puzzle.is_right(answer):
                lines.append(_replay_hint())
        lines.extend(deal_lines(rnd))
        lines.append(rating_change(outcome))
        if puzzle.bid is not None and outcome.rated:  # (a puzzle is rated once)
            from bela.bid_puzzle_words import credit_text

            lines.append(credit_text(outcome.credit))
        lines.append(streak_text(outcome.streak))
        lines.append("")
        with writing_output():
            for line in lines:
                print(_wrapped(line, out), file=out)
    return outcome.right


def _width(out: TextIO) -> int | None:
    """The width to wrap at on a terminal (a pipe gets every line whole: None)."""
    import shutil

    if not out.isatty():
        return None
    return max(40, min(shutil.get_terminal_size().columns, 100) - 1)


def _wrapped(line: str, out: TextIO) -> str:
    """A long sentence wrapped at the terminal's width between words (a pipe gets it whole)."""
    import textwrap

    width = _width(out)
    if width is None or line.startswith(" "):
        return line
    return textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False)


def _prompt(puzzle: Puzzle, rnd: Round) -> str:
    """What the answer line asks for: a card, a bid, or under pod mus (where dalje is
    refused) the trump alone. A bid's letters are the app's (``bela.bid_reading``)."""
    from bela.bid_reading import letters_line
    from bela.table_talk import forced_call

    if puzzle.kind == "card":
        return _("Your card (e.g. {code} or {face}; q to stop): ").format(**_card_examples())
    if forced_call(rnd):
        return _("Your trump ({names}, or {keys}; q to stop): ").format(**_suit_examples())
    return _("Your bid ({suits} name trump: {names}; {dalje} says dalje; q to stop): ").format(
        names=_suit_examples()["names"], **letters_line()
    )


def _suit_examples() -> dict[str, str]:
    """The suits a bid prompt names, in the deck in use: their names (``hearts, …`` or
    mađarice's ``srce, bundeva, …``) and the app's keys for them in the player's language
    (``bela.keys.bid_keys``: hr ``h / k / p / t``, with mađarice ``s / u / t / ž``), the
    letters ``read_answer`` reads."""
    from bela.engine.cards import Suit
    from bela.keys import bid_keys
    from bela.wording import suit_name

    letters = bid_keys()[:4]
    return {"names": ", ".join(suit_name(s) for s in Suit), "keys": " / ".join(letters)}


def _card_examples() -> dict[str, str]:
    """The cards a prompt shows as examples, in the deck in use (``bela.wording.typed_card``
    and ``card_text``): ``10H``, ``10♥``, ``QS`` with the French deck; with mađarice in hr
    ``10s``, ``10❤``, ``Bt``, as the player types and sees them (``read_card`` reads them)."""
    from bela.engine import Card
    from bela.wording import card_text, typed_card

    ten, queen = Card.parse("10H"), Card.parse("QS")
    return {"code": typed_card(ten), "face": card_text(ten), "code2": typed_card(queen)}


def _not_a_card(words: str) -> str:
    return _("{text} is not a card: write it like {code}, {face} or {code2}").format(
        text=shown(words, 20), **_card_examples()
    )


def read_answer(text: str, rnd: Round, seat: int) -> Action | str:
    """The action ``text`` names, if legal at ``rnd`` for ``seat``; else one line that says
    why. A card as ``10H``/``10♥``/``th``; a bid as the app's keys and words read it
    (``bela.bid_reading``: hr ``d`` is dalje and ``k`` karo), never the engine's letters
    where they mean another bid."""
    from bela.archive.records import RecordError, parse_action
    from bela.bid_reading import DALJE, read_bid, refusal
    from bela.engine import BelaError, Call, Pass, Phase, Play
    from bela.engine.cards import Suit
    from bela.wording import action_error, read_card

    words = text.strip()
    view = rnd.view(seat)
    legal = view.legal_actions
    if view.phase is Phase.BIDDING:
        index = read_bid(words)
        if index is None:
            return refusal(words, Pass() in legal)
        bid: Action = Pass() if index == DALJE else Call(Suit(index))
        if bid in legal:
            return bid
        return action_error(_dealer_error()) if isinstance(bid, Pass) else refusal(words)
    action: Action | None = None
    parts = words.split()
    said = len(parts) == 2 and parts[1].casefold() == "bela"
    card = read_card(parts[0]) if len(parts) == 1 or said else None
    if card is not None:
        action = Play(card, said)
    if action is None:
        try:
            action = parse_action(words[:16])
        except RecordError:
            return _not_a_card(words)
    if action in legal:
        return action
    if isinstance(action, Play) and not action.bela and Play(action.card, True) in legal:
        return action  # bela may be said or not: the card is the answer
    if isinstance(action, Play) and action.bela and Play(action.card) in legal:
        return Play(action.card)
    if not isinstance(action, Play):
        return _not_a_card(words)
    probe = rnd.copy()
    try:
        probe.push(action)
    except BelaError as exc:
        return action_error(exc)
    return action


def _dealer_error() -> Exception:
    from bela.engine import IllegalBidError

    return IllegalBidError("the dealer must call")


def view_lines(puzzle: Puzzle, rnd: Round, rating: float, *, daily: bool = False) -> list[str]:
    """The seat's view as text: the puzzle's line, trump and dealer, the bids, the tricks
    played, the trick on the table, who is void in what, and the hand."""
    from bela.engine import Phase
    from bela.outcome_words import sentences
    from bela.puzzle_words import action_name, void_sentences
    from bela.table_talk import zvanja_lines
    from bela.wording import card_text, seat_name, suit_name, suit_symbol

    view = rnd.view(puzzle.seat)
    head = (
        _("Daily puzzle {id} · rating {rating}") if daily else _("Puzzle {id} · rating {rating}")
    ).format(id=puzzle.id, rating=round(rating))
    # the themes are named after the answer: "saving a ten" before it gives the answer away
    dealer = (
        _("You deal.")
        if view.dealer == puzzle.seat
        else _("Dealer: {name}.").format(name=seat_name(view.dealer))
    )
    lines = [head, dealer]
    if view.bids:
        lines.append(
            _("Bids: {bids}").format(
                bids=_(", ").join(f"{seat_name(s)} {action_name(b)}" for s, b in view.bids)
            )
        )
    if view.trump is not None and view.caller is not None:
        values = {"symbol": suit_symbol(view.trump), "suit": suit_name(view.trump)}
        suit = f"{suit_symbol(view.trump)} {suit_name(view.trump)}"
        if _pod_mus(puzzle):  # the dealer had to call: a weak trump is no fault of theirs
            if view.caller == puzzle.seat:
                lines.append(_("Pod mus, you name {suit} as trump").format(suit=suit))
            else:
                lines.append(
                    _("{name} (pod mus) names {suit} as trump").format(
                        name=seat_name(view.caller), suit=suit
                    )
                )
        if view.caller == puzzle.seat:
            lines.append(_("Trump: {symbol} {suit}, called by you.").format(**values))
        else:
            lines.append(
                _("Trump: {symbol} {suit}, called by {name}.").format(
                    name=seat_name(view.caller), **values
                )
            )
    if view.trump is not None:
        lines.extend(zvanja_lines(rnd))  # what the table declared, and whose count
    for number, trick in enumerate(view.tricks, start=1):
        cards = "  ".join(
            f"{seat_name((trick.leader + i) % 4)} {card_text(c)}" for i, c in enumerate(trick.cards)
        )
        lines.append(
            _("Trick {n}: {cards} → {player}").format(
                n=number, cards=cards, player=seat_name(trick.winner)
            )
        )
    if view.phase is Phase.PLAYING:
        taken = rnd.card_points
        team = puzzle.seat % 2
        lines.append(
            _("In tricks so far: mi {mi}, vi {vi}.").format(mi=taken[team], vi=taken[1 - team])
        )
    if view.phase is Phase.PLAYING and view.trick_leader is not None:
        if view.trick:
            cards = "  ".join(
                f"{seat_name((view.trick_leader + i) % 4)} {card_text(c)}"
                for i, c in enumerate(view.trick)
            )
            lines.append(_("On the table (trick {n}): {cards}").format(n=puzzle.trick, cards=cards))
        else:
            lines.append(_("Trick {n}: you lead.").format(n=puzzle.trick))
    voids = void_sentences(puzzle.seat, view)
    if voids:
        lines.append(sentences(voids))
    if view.bela_announced:
        lines.append(
            _("Bela announced by: {names}.").format(
                names=_(", ").join(seat_name(s) for s in view.bela_announced)
            )
        )
    hand = "  ".join(card_text(c) for c in _sorted(view.hand, view.trump))
    lines.append(_("Your hand: {cards}").format(cards=hand))
    return lines


def _replay_hint() -> str:
    """After a miss: where the deal that goes worst for the player's card can be played on."""
    from bela.keys import letter

    return _(
        "In the app's puzzles (F6), {key} after a miss plays on from the moment on the deal "
        "where your card loses most, against the bots."
    ).format(key=letter("puzzle_play"))


def _pod_mus(puzzle: Puzzle) -> bool:
    """Whether the call at the puzzle's moment was forced: the dealer named trump pod mus."""
    from bela.engine import Call
    from bela.table_talk import forced_call

    rnd = puzzle.deal()
    for action in puzzle.actions:
        if isinstance(action, Call):
            return forced_call(rnd)
        rnd.push(action)
    return False


def _sorted(cards: Sequence[Any], trump: Any) -> list[Any]:
    """A hand by suit (trump first), high cards first within a suit, as a player holds it."""
    first = -1 if trump is None else int(trump)
    return sorted(cards, key=lambda c: (c.suit != first, int(c.suit), -int(c)))


def deal_lines(rnd: Round) -> list[str]:
    """The real deal at the moment: every seat's cards, now shown, from the seat to act round."""
    from bela.wording import card_text, seat_name

    lines = ["", _("The real deal:")]
    me = rnd.to_act or 0
    for s in ((me + k) % 4 for k in range(4)):
        hand = rnd.view(s).hand
        lines.append(
            f"  {seat_name(s)}: " + "  ".join(card_text(c) for c in _sorted(hand, rnd.trump))
        )
    return lines


# ---------------------------------------------------------------------- generating


def _generate(options: PuzzlesOptions, out: TextIO, err: TextIO) -> int:
    from bela.archive.puzzle_pack import own_dir
    from bela.archive.storage import data_dir, os_error_text
    from bela.cli.cluster import cluster_errors
    from bela.cli.common import worker_jobs
    from bela.cli.options import random_seed
    from bela.engine.deal import MAX_SEED
    from bela.foundation.files import timestamp
    from bela.lab.progress import ProgressBar
    from bela.lab.puzzle_gen import GenSettings, generate

    start = options.seed if options.seed is not None else random_seed()
    start = min(start, MAX_SEED - options.deals + 1)
    folder = own_dir(data_dir())
    target = folder / f"own-{timestamp()}.jsonl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(target, "x", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise CliError(
            _("cannot write {file}: {reason}").format(
                file=shown_path(target), reason=oneline(os_error_text(exc), 200)
            ),
            EXIT_ENVIRONMENT,
        ) from None
    jobs = worker_jobs(options.jobs, err) if options.cluster is None else (options.jobs or 1)
    _say(
        err,
        ngettext(
            "bela: looking for puzzles in {n} deal from seed {seed}",
            "bela: looking for puzzles in {n} deals from seed {seed}",
            options.deals,
        ).format(n=options.deals, seed=start),
    )

    def sink(batch: list[dict[str, Any]]) -> None:
        for row in batch:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())

    found = 0
    try:
        with (
            handle,
            cluster_errors(),
            ProgressBar(err.isatty(), options.deals, _("Looking for puzzles")) as bar,
        ):
            found = generate(
                range(start, start + options.deals),
                sink,
                GenSettings(deals=options.guesses),
                jobs=jobs,
                cluster=options.cluster,
                progress=bar,
            )
    except OSError as exc:
        raise CliError(
            _("cannot write {file}: {reason}").format(
                file=shown_path(target), reason=oneline(os_error_text(exc), 200)
            ),
            EXIT_ENVIRONMENT,
        ) from None
    finally:
        # a run that found nothing, or failed before its first puzzle (a cluster that cannot
        # be reached, Ctrl+C), leaves no empty file behind; what it found is kept
        with contextlib.suppress(OSError):
            if target.stat().st_size == 0:
                target.unlink()
    with writing_output():
        if found:
            print(
                ngettext(
                    "{n} puzzle found, added to {file}.",
                    "{n} puzzles found, added to {file}.",
                    found,
                ).format(n=found, file=shown_path(target)),
                file=out,
            )
        else:
            print(_("No puzzle found: look in more deals."), file=out)
        print(
            ngettext("{n} deal looked at.", "{n} deals looked at.", options.deals).format(
                n=options.deals
            ),
            file=out,
        )
    return 0
