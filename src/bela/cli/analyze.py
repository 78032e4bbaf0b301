"""``bela analyze``: what each card of a played round cost, with every card visible.

A seeded round (played by the bots, exactly as ``bela replay`` plays it) or
the rounds of a match record are replayed, and from trick 3 on (``--from-trick``)
every card is compared with the best card the double-dummy solver finds
(``bela.search.analysis``). Costly cards are marked with the card points and
written points they gave away.

The options live here rather than in ``options.py`` so the command is one
module; ``options.py`` only registers the subparser.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bela.cli.common import CliError, output_console, writing_output
from bela.foundation.untrusted import as_text, json_for_terminal
from bela.i18n import _, ngettext
from bela.wording import level_name, suit_name, suit_symbol

if TYPE_CHECKING:
    from rich.console import RenderableType

    from bela.archive.replay_text import RoundView
    from bela.search.analysis import RoundAnalysis

__all__ = ["AnalyzeOptions", "add_analyze_parser", "analyze_options", "run_analyze"]


@dataclass(frozen=True, slots=True)
class AnalyzeOptions:
    """``bela analyze``: a seed and round (the bots play it) or a record file (one round or all)."""

    seed: int | None
    file: Path | None
    round: int | None
    difficulty: str | None
    from_trick: int
    json: bool


def add_analyze_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``analyze`` subparser to ``commands`` (argparse's subparsers action)."""
    from bela.cli.options import COMMANDS, _difficulty, parse_round, parse_seed

    sub: argparse.ArgumentParser = commands.add_parser(
        "analyze",
        help=_(COMMANDS["analyze"]),
        description=_(
            "Replay a finished round and, from trick 3 on, compare every card played "
            "with the best card a double-dummy solver finds (all hands visible, best play "
            "afterwards). Costly cards are marked with the points they gave away."
        ),
        epilog=_("examples: bela analyze --seed 42 --round 1 | bela analyze match.json --round 2"),
        allow_abbrev=False,
    )
    sub.add_argument("file", nargs="?", type=Path, metavar="FILE", help=_("a match record"))
    sub.add_argument("--seed", type=parse_seed, help=_("analyse a round of this seed's match"))
    sub.add_argument(
        "--round", type=parse_round, metavar="K", help=_("the K-th round (1 = the first deal)")
    )
    sub.add_argument(
        "--difficulty",
        type=_difficulty,
        metavar="{easy,normal,hard}",
        help=_("with --seed: the computer players' level (default normal)"),
    )
    sub.add_argument(
        "--from-trick",
        type=_trick,
        default=3,
        metavar="T",
        help=_("first trick to analyse, 1..8 (default 3; early tricks are slow to solve)"),
    )
    sub.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    return sub


def _trick(text: str) -> int:
    from bela.cli.options import whole_number
    from bela.foundation.untrusted import shown

    number = whole_number(text)
    if number is None or not 1 <= number <= 8:
        raise argparse.ArgumentTypeError(
            _("a trick number is 1 to 8, not {text}").format(text=shown(text))
        )
    return number


def analyze_options(args: argparse.Namespace, sub: argparse.ArgumentParser) -> AnalyzeOptions:
    """Check the parsed ``analyze`` arguments (argparse exits with code 2 on a bad mix)."""
    if (args.seed is None) == (args.file is None):
        sub.error(_("give either --seed N --round K or a record FILE"))
    if args.seed is not None and args.round is None:
        sub.error(_("--seed needs --round K: the round to analyse"))
    if args.file is not None and args.difficulty is not None:
        sub.error(_("--difficulty goes with --seed: a record file has its own"))
    return AnalyzeOptions(
        seed=args.seed,
        file=args.file,
        round=args.round,
        difficulty=args.difficulty,
        from_trick=args.from_trick,
        json=args.json,
    )


def run_analyze(options: AnalyzeOptions, out: TextIO, err: TextIO) -> int:
    from bela.archive.replay_text import match_rounds
    from bela.cli.common import resolve_difficulty
    from bela.cli.replay import play_seeded, read_record_file
    from bela.search.analysis import analysis_json, analyze_round
    from bela.wording import at_table

    players: tuple[str, ...] | None = None
    me: int | None = None
    if options.file is not None:
        from bela.foundation.untrusted import shown_path

        match, record = read_record_file(options.file)
        # a network copy: the seats by their players' names, from its reader's seat
        difficulty, players, me = record.difficulty, record.players, record.me
        source = _("record {path}").format(
            path=shown_path(options.file)
        )  # shown on the terminal: made inert
    else:
        from bela.ai import BOT_KINDS

        assert options.seed is not None and options.round is not None
        difficulty, notice = resolve_difficulty(options.difficulty or "normal", BOT_KINDS)
        if notice is not None:
            print(f"bela: {notice}", file=err)
        match = play_seeded(options.seed, 1001, difficulty, options.round)
        source = _("seed {seed}").format(seed=options.seed)
    finished = [v for v in match_rounds(match) if v.written is not None]
    if options.round is not None:
        chosen = [v for v in finished if v.number == options.round]
        if not chosen:
            span = (
                _("rounds {first} to {last}").format(
                    first=finished[0].number, last=finished[-1].number
                )
                if finished
                else _("no finished round")
            )
            raise CliError(
                _("there is no finished round {n} here: it has {span}").format(
                    n=options.round, span=span
                )
            )
    else:
        chosen = finished
        if not chosen:
            raise CliError(_("the match has no finished round to analyse"))
    results = [(v, analyze_round(v.round, from_trick=options.from_trick)) for v in chosen]
    if options.json:
        data = {
            "source": source,
            "difficulty": difficulty,
            "rounds": [{"number": v.number, **analysis_json(a)} for v, a in results],
        }
        with writing_output():
            print(json_for_terminal(json.dumps(data, ensure_ascii=False, indent=2)), file=out)
        return 0
    console = output_console(out)
    for view, analysis in results:
        with at_table(players, me):
            rendered = render_analysis(view, analysis, source, difficulty)
        with writing_output():
            console.print(rendered)
    return 0


def render_analysis(
    view: RoundView, analysis: RoundAnalysis, source: str, difficulty: str
) -> RenderableType:
    """One round's analysis as rich text: a line per card, costly ones marked."""
    from rich.console import Group
    from rich.rule import Rule
    from rich.table import Table
    from rich.text import Text

    from bela.archive.replay_text import card_text, seat_name, summary
    from bela.engine import Suit

    rnd = view.round
    # Text, not a str: rich would read a file name's "[...]" in ``source`` as markup
    title = Text(
        _("Round {n} · {source} · bots {level}").format(
            n=view.number, source=source, level=level_name(difficulty)
        )
    )
    parts: list[RenderableType] = [Rule(title, align="left")]
    result = rnd.result
    if result is not None and view.written is not None:
        parts.append(Text(summary(result, view.written)))
    if analysis.note or analysis.trump is None:
        parts.append(
            Text(_("Nothing to analyse: {note}.").format(note=analysis.note), style="italic")
        )
        return Group(*parts)
    assert analysis.caller is not None
    suit = Suit(analysis.trump)
    parts.append(
        Text(
            _(
                "Trump {symbol} {suit}, called by {seat}. From trick {n} on, each card against "
                "the best card with all hands visible (points the player's team takes from "
                "there on, best play after)."
            ).format(
                symbol=suit_symbol(suit),
                suit=suit_name(suit),
                seat=seat_name(analysis.caller),
                n=analysis.from_trick,
            ),
        )
    )
    table = Table(box=None, pad_edge=False)
    for name, justify in (
        ("#", "right"),
        (_("seat"), "left"),
        (_("played"), "left"),
        (_("takes"), "right"),
        (_("best"), "left"),
        (_("takes"), "right"),
        (_("cost"), "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    last_trick = 0
    for move in analysis.moves:
        mine = move.choice
        best = move.choices[0]
        if move.forced:
            cost = Text(_("forced"), style="dim")
        elif move.costly:
            lost = move.lost_points
            if not lost:  # written points only: never "−0 points"
                cost = Text(_("−{points} written").format(points=move.lost_written), style="red")
            else:
                cost = Text(
                    ngettext("−{points} point", "−{points} points", lost).format(points=lost),
                    style="bold red",
                )
            if lost and move.lost_written:
                cost.append(_(" (−{points} written)").format(points=move.lost_written), style="red")
        else:
            cost = Text(_("✓ best"), style="green")
        best_cards = Text(" ").join(card_text(c) for c in move.best)
        table.add_row(
            str(move.trick) if move.trick != last_trick else "",
            as_text(seat_name(move.seat)),  # a player's name at a network table: never markup
            card_text(move.played, bold=move.costly),
            str(mine.value),
            best_cards,
            str(best.value),
            cost,
        )
        last_trick = move.trick
    parts.append(table)
    for trick, seat, card in analysis.skipped:
        parts.append(
            Text(
                _("Trick {n}, {name}, {card}: too big to solve, skipped.").format(
                    n=trick, name=seat_name(seat), card=card
                )
            )
        )
    lines = []
    for seat, (points, written) in enumerate(analysis.lost_by_seat()):
        lines.append(f"{seat_name(seat)} {points} ({written})")
    parts.append(Text(_("Points given away (written): ") + ", ".join(lines), style="bold"))
    return Group(*parts)
