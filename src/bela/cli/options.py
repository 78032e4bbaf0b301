"""The command line's grammar: argparse parsers and the typed options they produce.

Kept apart from the commands so tests can check parsing (``parse``) without
starting the app or an arena. Every parse error is one line and exit code 2.

Arguments are outside text: a bad one is quoted back escaped and cut short
(``bela.foundation.untrusted.shown``), and every usage error line goes through
``oneline``, since argparse itself puts some arguments into its messages as they
are. Counts have upper bounds, checked here before any work starts, so
``--deals`` with a hundred digits is a usage error and not a ``MemoryError``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn

from bela import DISTRIBUTION, __version__
from bela.cli.argparse_words import metavar_words
from bela.deck import DECKS
from bela.engine import QUICK_TARGET, TARGETS, Rules
from bela.engine.deal import MAX_SEED
from bela.engine.rules import DEFAULT_RULES
from bela.foundation.native import build
from bela.foundation.untrusted import oneline, shown
from bela.i18n import LANGUAGES, N_, _

if TYPE_CHECKING:
    from typing import TypeAlias

    from _typeshed import SupportsWrite

    from bela.cli.analyze import AnalyzeOptions
    from bela.cli.coach import CoachOptions
    from bela.cli.history import HistoryOptions, StatsOptions
    from bela.cli.lab import LabOptions
    from bela.cli.ladder import LadderOptions
    from bela.cli.net import HostOptions, JoinOptions, ServeOptions
    from bela.cli.online import AdminOptions, OnlineOptions, ServerCommandOptions
    from bela.cli.puzzles import PuzzlesOptions
    from bela.cli.review import ReviewOptions

__all__ = [
    "COMMANDS",
    "DIFFICULTIES",
    "HOUSE_RULES",
    "MAX_DEAL_PAIRS",
    "MAX_JOBS",
    "MAX_MATCHES",
    "MAX_ROUND",
    "ArenaOptions",
    "PlayOptions",
    "ReplayOptions",
    "build_parser",
    "parse",
    "parse_round",
    "parse_rules",
    "parse_seed",
    "random_seed",
    "whole_number",
]

DIFFICULTIES = ("easy", "normal", "hard")
MAX_ROUND = 1_000_000
DEFAULT_DEAL_PAIRS = 500
# The arena's bounds: a run keeps every deal's result in memory (about 300 bytes a
# deal pair), so 100,000 pairs is some 30 MB and minutes with quick bots; 10,000
# match pairs is about as much play again. Both are 50 times the runs in docs/bots.md.
MAX_DEAL_PAIRS = 100_000
MAX_MATCHES = 10_000
# Refused above this; below it, more jobs than usable CPUs are cut down with a notice.
MAX_JOBS = 256
_TOO_MANY_DIGITS: Final = 40  # more digits than any bound here has (the seed's 39)
_TOO_BIG: Final = 10**40  # stands for any number of more digits than that


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """``bela play``; ``round`` counts from 1 (the match's first deal), ``seed_chosen`` is ours.

    ``target`` and ``difficulty`` are None when not given: the app then opens on
    those of the match played last.
    """

    target: int | None
    seed: int
    seed_chosen: bool
    difficulty: str | None
    round: int
    resume: bool | None
    rules: Rules | None = None
    """``--rules``; None when not given (the app's own choice)."""
    lang: str | None = None
    """``--lang``; None when not given (the settings', else the system's language)."""
    deck: str | None = None
    """``--deck``; None when not given (the settings' deck, else French)."""
    plain: bool = False
    """``--plain``: the match as lines of text (``bela.cli.plain``); also chosen by itself
    where the app cannot run (``TERM=dumb``, input or output not a terminal)."""
    words: bool = False
    """``--words``: in plain mode, each card's suit as a word ("9 of spades"), for speech."""


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    """``bela replay``: a seed (bots play it out) or a record file; ``round`` counts from 1."""

    seed: int | None
    file: Path | None
    round: int | None
    target: int
    difficulty: str | None
    json: bool
    sheet: bool = False
    """Only the score sheet ("blok"): every round's line, both columns summed."""
    rules: Rules = DEFAULT_RULES
    """With --seed: the house rules the bots play the match under."""
    bot_in_my_seat: bool = False
    """Each round again with ``seat_bot`` in the player's seat, beside the round as played."""
    last: int | None = None
    """With ``bot_in_my_seat`` and no file or seed: the last N archived matches, summed up."""
    seat_bot: str = "hard"
    """The bot that takes the player's seat."""
    jobs: int | None = None
    """Worker processes for ``last`` (None: the usable CPUs)."""


@dataclass(frozen=True, slots=True)
class ArenaOptions:
    """``bela arena``: two bots on duplicate deals."""

    bot_a: str
    bot_b: str
    deal_pairs: int
    seed: int
    jobs: int | None
    matches: int
    target: int
    json: bool
    rules: Rules = DEFAULT_RULES
    cluster: str | None = None
    """``--cluster``: a Ray cluster's address (``bela.lab.runner``); None runs locally."""
    control: bool = False
    """``--control``: also play B against itself on the same deals (issue #38)."""


if TYPE_CHECKING:
    Options: TypeAlias = (
        PlayOptions
        | ReplayOptions
        | ArenaOptions
        | AnalyzeOptions
        | HistoryOptions
        | StatsOptions
        | LadderOptions
        | LabOptions
        | CoachOptions
        | PuzzlesOptions
        | ReviewOptions
        | HostOptions
        | JoinOptions
        | ServeOptions
        | ServerCommandOptions
        | AdminOptions
        | OnlineOptions
    )
    """What ``parse`` gives; each command's class lives with the command (imported lazily)."""

COMMANDS: Final[dict[str, str]] = {
    "play": N_("play a match in the terminal app (the default)"),
    "replay": N_("print a seeded round or match, or a saved match, in full"),
    "arena": N_("pit two bots against each other on duplicate deals"),
    "ladder": N_("rate several bots on one Elo scale: every pair on duplicate deals"),
    "analyze": N_("show what each card of a played round cost, with all cards visible"),
    "history": N_("list every match played, newest first"),
    "stats": N_("statistics of the matches played"),
    "lab": N_("the lab: generate data and refit the bots' models"),
    "coach": N_("where your written points went, over your archived matches"),
    "review": N_("every card of yours in a match labelled, as a chess game review does"),
    "puzzles": N_("puzzles from real deals, rated like a chess player's"),
    "host": N_("host a table for friends on the network, and play at it"),
    "join": N_("sit down at a table somebody hosts"),
    "serve": N_("play in a web browser (needs the 'net' extra)"),
    "server": N_("run the public server: a lobby, accounts, ratings, many tables"),
    "online": N_("play at a public server: its lobby, quick match, ratings"),
}
"""Every command in the order ``bela --help`` lists them, with its line there.

The line is all ``bela --help`` needs of a command, so only the command named on the
command line gets its whole parser (and imports its module): the start screen does
not wait for the grammar of the arena, the network and the lab (issue #26).
"""


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage dump) so bad input reads as one sentence.

    The message is made inert and short here (``oneline``), whatever argparse put
    into it: it quotes some arguments as they are (``unrecognized arguments: ...``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        line = _("{prog}: error: {message} (see {prog} --help)").format(
            prog=self.prog,
            message=oneline(metavar_words(message)),  # "izostavi DATOTEKA"
        )
        self.exit(2, line + "\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """Write as argparse does, but let a failed write raise.

        argparse swallows the ``OSError``, so ``bela --help > /dev/full`` would print
        nothing and exit 0; ``main`` reports it like any other failed output.
        """
        if message:
            (file or sys.stderr).write(message)


class _Formatter(argparse.HelpFormatter):
    """argparse's help, except that a text written in lines (the house-rule list) keeps them."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "\n".join(indent + line for line in text.splitlines())
        return super()._fill_text(text, width, indent)


class _Version(argparse._VersionAction):
    """``--version`` on one line however narrow the terminal (argparse would wrap it): the
    pure build's reason can be long, and a script reads the line whole."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        parser._print_message(f"{self.version}\n", sys.stdout)
        parser.exit()


def random_seed() -> int:
    """A fresh seed, 128 bits from ``secrets`` (shown, so the match can be replayed)."""
    from bela.engine.deal import new_seed

    return new_seed()


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits, or None if it is not one.

    ``int`` alone would take ``"٣"``, ``"1_000"`` and ``"+5"``, and fail on ``"²"``
    (which ``isdigit`` accepts) or on more than 4300 digits. A number with more than
    ``_TOO_MANY_DIGITS`` digits comes back as ``_TOO_BIG``, above every
    bound, without converting megabytes of digits.
    """
    cleaned = text.strip()
    if not cleaned or not cleaned.isascii() or not cleaned.isdigit():
        return None
    digits = cleaned.lstrip("0") or "0"
    if len(digits) > _TOO_MANY_DIGITS:
        return _TOO_BIG
    return int(digits)


def parse_seed(text: str) -> int:
    """A seed: a whole number 0..2**128-1 written in decimal."""
    seed = whole_number(text)
    if seed is None:
        raise argparse.ArgumentTypeError(
            _("a seed is a whole number from 0 to {max}, not {text}").format(
                max=MAX_SEED, text=shown(text)
            )
        )
    if seed > MAX_SEED:
        raise argparse.ArgumentTypeError(
            _("a seed is at most {max}, not {text}").format(max=MAX_SEED, text=shown(text))
        )
    return seed


def parse_round(text: str) -> int:
    """A round number as people count: 1 is the match's first deal."""
    number = whole_number(text)
    if number is None or not 1 <= number <= MAX_ROUND:
        raise argparse.ArgumentTypeError(
            _("a round number is a whole number from 1 to {max}, not {text}").format(
                max=f"{MAX_ROUND:,}", text=shown(text)
            )
        )
    return number


def _count(least: int, most: int) -> Callable[[str], int]:
    def convert(text: str) -> int:
        number = whole_number(text)
        if number is None or not least <= number <= most:
            raise argparse.ArgumentTypeError(
                _(
                    "expected a whole number of at least {least} and at most {most}, not {text}"
                ).format(least=least, most=f"{most:,}", text=shown(text))
            )
        return number

    return convert


def _target(text: str) -> int:
    number = whole_number(text)
    if number is None or number not in TARGETS:
        choices = ", ".join(map(str, TARGETS))
        raise argparse.ArgumentTypeError(
            _("the target is one of {choices}, not {text}").format(
                choices=choices, text=shown(text)
            )
        )
    return number


_TARGETS_SHOWN: Final = "{" + ",".join(map(str, TARGETS)) + "}"


def _quick() -> str:
    return _("{target} is a quick match of three deals ('brza 163')").format(target=QUICK_TARGET)


HOUSE_RULES: Final[dict[str, tuple[dict[str, bool | int], str]]] = {
    "bela-second": (
        {"bela_on_second": True},
        N_("bela is said with the second of trump {king} and {queen}"),
    ),
    "no-zvanja": ({"no_zvanja": True}, N_("no declarations (nor belot); bela still counts")),
    "no-bela": ({"no_bela": True}, N_("trump {king} and {queen} score nothing together")),
    "bela-always": ({"bela_always_counts": True}, N_("callers who fall keep their bela")),
    "stiglja-100": ({"stiglja_bonus": 100}, N_("all eight tricks add 100, not 90")),
    "dosta": ({"dosta": True}, N_("'na dosta': a right claim after a won trick ends the match")),
    "visi": ({"visi": True}, N_("an exact tie hangs for the next round's winner")),
    "tens-over-kings": ({"tens_over_kings": True}, N_("four tens beat four {kings} and {queens}")),
    "clockwise": ({"clockwise": True}, N_("the app draws the seats clockwise")),
    "hide-tricks": ({"hide_played_tricks": True}, N_("the app hides finished tricks")),
    "no-forced-trump": ({"no_forced_trump": True}, N_("the dealer may pass (a foreign variant)")),
}
"""The names ``--rules`` takes, the ``Rules`` fields each sets, and a line for ``--help``."""


def _rules_help() -> str:
    return _("house rules, names separated by commas (default: standard; list below)")


def _rules_epilog() -> str:
    from bela.engine.cards import Rank
    from bela.wording import rank_plural, rank_text

    head = _("house rules for --rules (e.g. --rules dosta,stiglja-100):")
    cards = {  # the cards as the deck in use names them (hr mađarice: K i B, kralja i babe)
        "king": rank_text(Rank.KING),
        "queen": rank_text(Rank.QUEEN),
        "kings": rank_plural(Rank.KING),
        "queens": rank_plural(Rank.QUEEN),
    }
    lines = [f"  {name:<16} {_(text).format(**cards)}" for name, (_f, text) in HOUSE_RULES.items()]
    return head + "\n" + "\n".join(lines)


def parse_rules(text: str) -> Rules:
    """``--rules``: house-rule names separated by commas (``dosta,stiglja-100``)."""
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    if not names:
        raise argparse.ArgumentTypeError(_("name a house rule, or 'standard' for none"))
    fields: dict[str, bool | int] = {}
    for name in names:
        if name == "standard":
            continue
        if name not in HOUSE_RULES:
            raise argparse.ArgumentTypeError(
                _("{name} is not a house rule: choose from {names} or standard").format(
                    name=shown(name), names=", ".join(HOUSE_RULES)
                )
            )
        fields.update(HOUSE_RULES[name][0])
    return Rules(**fields)


MAX_LAST = 10_000
"""More archived matches than anyone plays; ``--last`` above it is refused."""


def _check_bot_in_my_seat(args: argparse.Namespace, sub: argparse.ArgumentParser) -> None:
    """``--last``, ``--bot`` and ``--jobs`` go with ``--bot-in-my-seat``, which has no sheet."""
    if not args.bot_in_my_seat:
        if args.last is not None or args.bot is not None or args.jobs is not None:
            sub.error(_("--last, --bot and --jobs go with --bot-in-my-seat"))
        return
    if args.sheet:
        sub.error(_("--bot-in-my-seat shows each round beside its retake: leave out --sheet"))
    if args.last is not None and (args.seed is not None or args.file is not None):
        sub.error(_("--last reads your archive: leave out FILE and --seed"))
    if args.last is not None and args.round is not None:
        sub.error(_("--last sums up whole matches: leave out --round"))
    if args.jobs is not None and args.last is None:
        sub.error(_("--jobs goes with --last"))
    if args.last is None and args.seed is None and args.file is None:
        sub.error(_("give a record FILE, --seed N or --last N"))


def _difficulty(text: str) -> str:
    cleaned = text.strip().lower()
    if cleaned not in DIFFICULTIES:
        raise argparse.ArgumentTypeError(
            _("the difficulty is one of {levels}, not {text}").format(
                levels=", ".join(DIFFICULTIES), text=shown(text)
            )
        )
    return cleaned


MAX_ADDRESS = 300
"""Longer than any host and port; a longer --cluster is refused before Ray sees it."""


def parse_cluster(text: str) -> str:
    """``--cluster``: a Ray address (``local``, ``auto``, ``HOST:PORT``, ``ray://HOST:PORT``)."""
    cleaned = text.strip()
    if not cleaned or len(cleaned) > MAX_ADDRESS or not cleaned.isprintable() or " " in cleaned:
        raise argparse.ArgumentTypeError(
            f"a cluster address is local, auto, HOST:PORT or ray://HOST:PORT, not {shown(text)}"
        )
    return cleaned


def add_cluster_option(parser: argparse.ArgumentParser) -> None:
    """``--cluster ADDRESS``, the same for every command that can run on Ray."""
    parser.add_argument(
        "--cluster",
        type=parse_cluster,
        metavar="ADDRESS",
        help=_(
            "run on a Ray cluster instead of local processes: 'local' starts one on this "
            "machine for the run, 'auto' joins the one started here with 'ray start', "
            "ray://HOST:10001 reaches one elsewhere; needs pip install 'croatian-bela[cluster]' "
            "(the result is the same as without it)"
        ),
    )


def version_line() -> str:
    """``bela --version``: the version, the package it came from (``pipx install`` needs that
    name, not ``bela``), and which build of the engine runs (issue #26); the pure build's hard
    bot searches a share of its deals (``bela.ai.hard.PURE_SHARE``), and the player hears it."""
    chosen = build()
    head = f"bela {__version__} ({DISTRIBUTION})"
    if chosen.compiled:
        return f"{head}, " + _("compiled with mypyc")
    elif chosen.reason == "forced":
        built = _("pure Python (BELA_PURE is set)")
    elif chosen.reason == "stale":
        built = _(
            "pure Python (the compiled build is out of date: {file} changed after it; "
            "make compiled)"
        ).format(file=chosen.module.replace(".", "/") + ".py")
    else:
        built = _("pure Python (not compiled)")
    lighter = _("the hard bot searches fewer guessed deals than on the compiled build")
    return f"{head}, {built}; {lighter}"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``bela`` parser with its subcommands, ``command``'s parser whole (or none)."""
    return _build(command)[0]


def _build(
    command: str | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``bela`` parser, and the whole parsers of ``command`` and the commands built with it.

    Every other command gets a bare parser with its line for ``bela --help`` (``COMMANDS``):
    it is never parsed with, since the command named is the one built.
    """
    parser = _Parser(
        prog="bela",
        description=_(
            "Croatian Bela in the terminal: you and a computer partner against two "
            "computer opponents. Without a command, plays (same as 'bela play')."
        ),
        allow_abbrev=False,
    )
    # argparse's own default help for --version is a plain English string (Python 3.11 and
    # 3.12 never look it up): given here, it comes from the catalog like every other word
    parser.add_argument(
        "--version",
        action=_Version,
        version=version_line(),
        help=_("show program's version number and exit"),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    together = next((group for group in _BUILT_TOGETHER if command in group), (command,))
    for name, line in COMMANDS.items():
        if name == together[0]:  # in its place, so that the list reads the same
            _add_command(commands, name)
        elif name not in together:
            commands.add_parser(name, help=_(line), add_help=False)
    _add_lang(parser)
    return parser, {name: commands.choices[name] for name in together if name in COMMANDS}


_BUILT_TOGETHER: Final = (("history", "stats"), ("host", "join", "serve"), ("server", "online"))
"""Commands whose parsers one function builds (``add_history_parsers``, ``add_net_parsers``)."""


def _add_command(commands: Any, command: str) -> None:
    """Add ``command``'s whole parser to ``commands`` (with the commands built alongside it)."""
    if command == "play":
        _add_play_parser(commands)
    elif command == "replay":
        _add_replay_parser(commands)
    elif command == "arena":
        _add_arena_parser(commands)
    elif command == "ladder":
        from bela.cli.ladder import add_ladder_parser

        add_ladder_parser(commands)
    elif command == "analyze":
        from bela.cli.analyze import add_analyze_parser

        add_analyze_parser(commands)
    elif command in ("history", "stats"):
        from bela.cli.history import add_history_parsers

        add_history_parsers(commands)
    elif command == "lab":
        from bela.cli.lab import add_lab_parser

        add_lab_parser(commands)
    elif command == "coach":
        from bela.cli.coach import add_coach_parser

        add_coach_parser(commands)
    elif command == "review":
        from bela.cli.review import add_review_parser

        add_review_parser(commands)
    elif command == "puzzles":
        from bela.cli.puzzles import add_puzzles_parser

        add_puzzles_parser(commands)
    elif command in ("server", "online"):
        from bela.cli.online import add_online_parsers

        add_online_parsers(commands)
    else:
        from bela.cli.net import add_net_parsers

        add_net_parsers(commands, _target, _TARGETS_SHOWN)


def _add_play_parser(commands: Any) -> None:
    play = commands.add_parser(
        "play",
        help=_(COMMANDS["play"]),
        description=_(
            "Play a match against three computer players. The seed is shown so any "
            "match can be reported and replayed with 'bela replay --seed N'."
        ),
        epilog=_rules_epilog(),
        allow_abbrev=False,
    )
    play.add_argument(
        "--target",
        type=_target,
        metavar=_TARGETS_SHOWN,
        help=_("points to win the match (default: the last match's, else 1001); {quick}").format(
            quick=_quick()
        ),
    )
    play.add_argument("--rules", type=parse_rules, metavar="NAMES", help=_rules_help())
    play.add_argument(
        "--seed", type=parse_seed, help=_("deal from this seed (default: a random one, shown)")
    )
    play.add_argument(
        "--difficulty",
        type=_difficulty,
        metavar="{easy,normal,hard}",
        help=_("how well the computer players play (default: the last match's, else normal)"),
    )
    play.add_argument(
        "--round",
        type=parse_round,
        default=1,
        metavar="N",
        help=_("start at the N-th deal of the seed's match (default 1)"),
    )
    play.add_argument(
        "--plain",
        action="store_true",
        help=_(
            "play as lines of text, one sentence for each event, answered by typing: for "
            "screen readers and terminals that cannot draw the app (chosen by itself when "
            "TERM=dumb or when input or output is not a terminal)"
        ),
    )
    play.add_argument(
        "--words",
        action="store_true",
        help=_(
            "in plain mode, write each card's suit as a word (9 of spades, not 9♠), as a "
            "screen reader should say it"
        ),
    )
    resume = play.add_mutually_exclusive_group()
    resume.add_argument(
        "--resume",
        dest="resume",
        action="store_const",
        const=True,
        help=_("resume the unfinished match without asking"),
    )
    resume.add_argument(
        "--new",
        dest="resume",
        action="store_const",
        const=False,
        help=_(
            "start a new match even if one is unfinished (the unfinished one is kept in "
            "the archive of matches, replayable with 'bela replay FILE')"
        ),
    )


def _add_replay_parser(commands: Any) -> None:
    replay = commands.add_parser(
        "replay",
        help=_(COMMANDS["replay"]),
        description=_(
            "Print a round or a whole match: the hands and talons, the bids, the "
            "zvanja, every trick, bela and the written result. With --seed the computer players "
            "play all four seats, exactly as they would in the app."
        ),
        epilog=_("examples: bela replay --seed 42 --round 3 | bela replay match.json --json"),
        allow_abbrev=False,
    )
    replay.add_argument("file", nargs="?", type=Path, metavar="FILE", help=_("a match record"))
    replay.add_argument("--seed", type=parse_seed, help=_("replay the match of this seed"))
    replay.add_argument(
        "--round", type=parse_round, metavar="K", help=_("only the K-th round (1 = the first deal)")
    )
    replay.add_argument(
        "--target",
        type=_target,
        metavar=_TARGETS_SHOWN,
        help=_("with --seed: the match's target (default 1001); {quick}").format(quick=_quick()),
    )
    replay.add_argument(
        "--rules",
        type=parse_rules,
        metavar="NAMES",
        help=_(
            "with --seed: the house rules the match is played under (a record file has its "
            "own); the names are those of 'bela play --help'"
        ),
    )
    replay.add_argument(
        "--difficulty",
        type=_difficulty,
        metavar="{easy,normal,hard}",
        help=_("with --seed: the computer players' level (default normal)"),
    )
    replay.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    replay.add_argument(
        "--sheet",
        action="store_true",
        help=_(
            "only the score sheet (blok): every round's line with pad, štiglja and belot "
            "marked, both columns summed, the target shown"
        ),
    )
    replay.add_argument(
        "--bot-in-my-seat",
        action="store_true",
        help=_(
            "each round again with a bot playing your cards (the others as they were), "
            "beside the round as you played it"
        ),
    )
    replay.add_argument(
        "--last",
        type=_count(1, MAX_LAST),
        metavar="N",
        help=_(
            "with --bot-in-my-seat and no FILE: over your last N archived matches, how much "
            "more the bot would have written a round"
        ),
    )
    replay.add_argument(
        "--bot",
        type=_difficulty,
        metavar="{easy,normal,hard}",
        help=_("with --bot-in-my-seat: the bot in your seat (default hard)"),
    )
    replay.add_argument(
        "--jobs",
        type=_count(1, MAX_JOBS),
        metavar="J",
        help=_("with --last: worker processes (default: the usable CPUs)"),
    )


def _add_arena_parser(commands: Any) -> None:
    arena = commands.add_parser(
        "arena",
        help=_(COMMANDS["arena"]),
        description=_(
            "Play each seeded deal twice with the bots swapping seats, so the luck of "
            "the cards cancels, and report the difference with confidence intervals."
        ),
        allow_abbrev=False,
    )
    arena.add_argument("bot_a", metavar="A", help=_("the first bot (e.g. normal)"))
    arena.add_argument("bot_b", metavar="B", help=_("the second bot (e.g. random)"))
    arena.add_argument(
        "--deals",
        type=_count(1, MAX_DEAL_PAIRS),
        default=DEFAULT_DEAL_PAIRS,
        metavar="N",
        help=_("number of deal pairs, 1 to {max} (default {default})").format(
            max=f"{MAX_DEAL_PAIRS:,}", default=DEFAULT_DEAL_PAIRS
        ),
    )
    arena.add_argument(
        "--seed", type=parse_seed, default=1, help=_("seed of the deals (default 1)")
    )
    arena.add_argument(
        "--jobs",
        type=_count(1, MAX_JOBS),
        metavar="N",
        help=_(
            "worker processes, 1 to {max}; never more than the CPUs bela may use, "
            "which is also the default (the result is the same for any N)"
        ).format(max=MAX_JOBS),
    )
    arena.add_argument(
        "--matches",
        type=_count(0, MAX_MATCHES),
        default=0,
        metavar="N",
        help=_("also play N full matches per seating, 0 to {max} (default 0)").format(
            max=f"{MAX_MATCHES:,}"
        ),
    )
    arena.add_argument(
        "--target",
        type=_target,
        default=1001,
        metavar=_TARGETS_SHOWN,
        help=_("the target of those matches (default 1001); {quick}").format(quick=_quick()),
    )
    arena.add_argument(
        "--rules",
        type=parse_rules,
        default=Rules(),
        metavar="NAMES",
        help=_("house rules for every deal and match; the names are those of 'bela play --help'"),
    )
    arena.add_argument(
        "--control",
        action="store_true",
        help=_(
            "also play B against B on the same deals, the identical-bot control that must "
            "come out at 0 within its interval, and print it beside the result"
        ),
    )
    add_cluster_option(arena)
    arena.add_argument("--json", action="store_true", help=_("print JSON for machines"))


def _add_lang(parser: argparse.ArgumentParser) -> None:
    """``--lang`` and ``--deck`` on the parser and on every command under it, however deep.

    The language and the deck are chosen before parsing (``bela.cli.choose_language``);
    the options are declared so that ``--help`` lists them and a wrong value is refused.
    """
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=argparse.SUPPRESS,
        help=_(
            "the language of bela's words and help (default: the one in the settings, "
            "else the system's, else English)"
        ),
    )
    parser.add_argument(
        "--deck",
        choices=DECKS,
        default=argparse.SUPPRESS,
        help=_(
            "the cards as they are named and drawn: french (♥ ♦ ♠ ♣) or german, the "
            "mađarice (❤ ◉ ❦ ♁; default: the one in the settings, else french); records "
            "keep the same card codes"
        ),
    )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                _add_lang(sub)


def _global_options(args: Sequence[str]) -> int:
    """How many of ``args``' first arguments are ``--lang X`` / ``--lang=X`` (or ``--deck``):
    the options ``bela`` itself takes before a command (``bela --lang hr history``)."""
    at = 0
    while at < len(args):
        if args[at] in ("--lang", "--deck"):
            at += 2  # past the end when the value is missing: bela says so
        elif args[at].startswith(("--lang=", "--deck=")):
            at += 1
        else:
            break
    return at


def _with_default_command(argv: Sequence[str]) -> list[str]:
    """``bela`` alone, or ``bela --seed 5``, means ``bela play ...``.

    ``play`` goes after ``bela``'s own ``--lang``, so that ``bela --lang hr history``
    runs the history and a bad ``--lang`` is reported by ``bela`` itself, not by
    ``bela play`` (whose usage line would name the wrong command).
    """
    args = list(argv)
    at = _global_options(args)
    if at > len(args):  # "bela --lang" without its value
        return args
    rest = args[at:]
    if not rest or (rest[0].startswith("-") and rest[0] not in ("-h", "--help", "--version")):
        return [*args[:at], "play", *rest]
    return args


def _command_named(args: Sequence[str]) -> str | None:
    """The command ``args`` name (after ``bela``'s own ``--lang``), if it is one of ours."""
    at = _global_options(args)
    if at < len(args) and args[at] in COMMANDS:
        return args[at]
    return None


def parse(argv: Sequence[str]) -> Options:
    """Parse a command line into options; argparse exits (code 2, one line) on bad input."""
    args_given = _with_default_command(argv)
    parser, subparsers = _build(_command_named(args_given))
    args, extras = parser.parse_known_args(args_given)
    if extras:  # what parse_args says, with each argument quoted and escaped
        listed = " ".join(shown(extra) for extra in extras[:5])
        more = " …" if len(extras) > 5 else ""
        parser.error(_("unrecognized arguments: %s") % (listed + more))
    if args.command == "play":
        chosen = args.seed is None
        return PlayOptions(
            target=args.target,
            seed=random_seed() if chosen else args.seed,
            seed_chosen=chosen,
            difficulty=args.difficulty,
            round=args.round,
            resume=args.resume,
            rules=args.rules,
            lang=getattr(args, "lang", None),
            deck=getattr(args, "deck", None),
            plain=args.plain,
            words=args.words,
        )
    if args.command == "replay":
        sub = subparsers["replay"]
        _check_bot_in_my_seat(args, sub)
        if args.last is None and (args.seed is None) == (args.file is None):
            sub.error(_("give either --seed N or a record FILE"))
        if args.file is not None and (
            args.target is not None or args.difficulty is not None or args.rules is not None
        ):
            sub.error(
                _("--target, --difficulty and --rules go with --seed: a record file has its own")
            )
        if args.sheet and args.round is not None:
            sub.error(_("--sheet shows every round: leave out --round"))
        return ReplayOptions(
            seed=args.seed,
            file=args.file,
            round=args.round,
            target=1001 if args.target is None else args.target,
            difficulty=args.difficulty,
            json=args.json,
            sheet=args.sheet,
            rules=Rules() if args.rules is None else args.rules,
            bot_in_my_seat=args.bot_in_my_seat,
            last=args.last,
            seat_bot="hard" if args.bot is None else args.bot,
            jobs=args.jobs,
        )
    if args.command == "arena":
        return _arena_options(args)
    return _other_options(args, subparsers)


def _arena_options(args: argparse.Namespace) -> ArenaOptions:
    return ArenaOptions(
        bot_a=args.bot_a,
        bot_b=args.bot_b,
        deal_pairs=args.deals,
        seed=args.seed,
        jobs=args.jobs,
        matches=args.matches,
        target=args.target,
        json=args.json,
        rules=args.rules,
        cluster=args.cluster,
        control=args.control,
    )


def _other_options(
    args: argparse.Namespace, subparsers: dict[str, argparse.ArgumentParser]
) -> Options:
    """The options of a command whose parser lives with the command, from its module."""
    if args.command == "analyze":
        from bela.cli.analyze import analyze_options

        return analyze_options(args, subparsers["analyze"])
    if args.command == "ladder":
        from bela.cli.ladder import ladder_options

        return ladder_options(args, subparsers["ladder"])
    if args.command == "history":
        from bela.cli.history import history_options

        return history_options(args)
    if args.command == "stats":
        from bela.cli.history import stats_options

        return stats_options(args)
    if args.command == "lab":
        from bela.cli.lab import lab_options

        return lab_options(args)
    if args.command == "coach":
        from bela.cli.coach import coach_options

        return coach_options(args)
    if args.command == "review":
        from bela.cli.review import review_options

        return review_options(args)
    if args.command == "puzzles":
        from bela.cli.puzzles import puzzles_options

        return puzzles_options(args, subparsers["puzzles"])
    if args.command in ("server", "online"):
        from bela.cli.online import online_command_options

        return online_command_options(args)
    from bela.cli.net import net_options

    return net_options(args)
