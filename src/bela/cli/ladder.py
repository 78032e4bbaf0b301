"""``bela ladder BOT BOT ...``: every pair on duplicate deals, rated on one Elo scale.

The playing and the fit are ``bela.lab.ladder``'s; here are the options, their
checks (each bad input one line, exit 2, before anything is played) and the
output: a rich table, or ``--json`` with stable keys. The options live here
rather than in ``options.py`` so the command is one module; ``options.py``
only registers the subparser.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from bela.cli.common import (
    check_bots,
    optional_module,
    output_console,
    worker_jobs,
    writing_output,
)
from bela.engine import Rules
from bela.engine.rules import DEFAULT_RULES
from bela.foundation.untrusted import shown
from bela.i18n import _, ngettext

__all__ = [
    "DEFAULT_LADDER_DEALS",
    "MAX_BOTS",
    "MAX_LADDER_DEAL_PAIRS",
    "LadderOptions",
    "add_ladder_parser",
    "ladder_options",
    "run_ladder_command",
]

DEFAULT_LADDER_DEALS = 200
MAX_BOTS = 12
"""66 pairs: more would be a tournament of hours even with quick bots."""
MAX_LADDER_DEAL_PAIRS = 500_000
"""Over all pairs: every deal pair's result is kept (some 300 bytes), so about 150 MB."""


@dataclass(frozen=True, slots=True)
class LadderOptions:
    """``bela ladder``: the bots in the order given (the first is the rating's anchor)."""

    bots: tuple[str, ...]
    deal_pairs: int
    seed: int
    jobs: int | None
    json: bool
    cluster: str | None = None
    caps: Mapping[str, int] = field(default_factory=dict)
    rules: Rules = DEFAULT_RULES


def add_ladder_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``ladder`` subparser to ``commands`` (argparse's subparsers action)."""
    from bela.cli.options import (
        COMMANDS,
        MAX_DEAL_PAIRS,
        MAX_JOBS,
        _count,
        add_cluster_option,
        parse_rules,
        parse_seed,
    )

    sub: argparse.ArgumentParser = commands.add_parser(
        "ladder",
        help=_(COMMANDS["ladder"]),
        description=_(
            "Play every pair of the bots on the same duplicate deals and rate them "
            "with a Bradley-Terry fit on the deal pairs won (a tie counts half), as Elo relative "
            "to the first bot, with 95% bootstrap intervals. Each pair's line is what "
            "'bela arena A B' reports for the same deals and seed."
        ),
        epilog=_("example: bela ladder random easy normal --deals 100 --cap normal=50"),
        allow_abbrev=False,
    )
    sub.add_argument(
        "bots", nargs="+", metavar="BOT", help=_("two or more bots (e.g. random easy)")
    )
    sub.add_argument(
        "--deals",
        type=_count(1, MAX_DEAL_PAIRS),
        default=DEFAULT_LADDER_DEALS,
        metavar="N",
        help=_("deal pairs for each pair of bots, 1 to {max} (default {default})").format(
            max=f"{MAX_DEAL_PAIRS:,}", default=DEFAULT_LADDER_DEALS
        ),
    )
    sub.add_argument(
        "--cap",
        type=_cap,
        action="append",
        default=[],
        metavar="BOT=N",
        help=_("pairs with BOT play at most N deal pairs (for slow bots); may be repeated"),
    )
    sub.add_argument("--seed", type=parse_seed, default=1, help=_("seed of the deals (default 1)"))
    sub.add_argument(
        "--jobs",
        type=_count(1, MAX_JOBS),
        metavar="N",
        help=_(
            "worker processes, 1 to {max}; never more than the CPUs bela may use, "
            "which is also the default (the result is the same for any N)"
        ).format(max=MAX_JOBS),
    )
    add_cluster_option(sub)
    sub.add_argument(
        "--rules",
        type=parse_rules,
        default=Rules(),
        metavar="NAMES",
        help=_("house rules for every deal; the names are those of 'bela play --help'"),
    )
    sub.add_argument("--json", action="store_true", help=_("print JSON for machines"))
    return sub


def _cap(text: str) -> tuple[str, int]:
    from bela.cli.options import MAX_DEAL_PAIRS, whole_number

    name, sep, number = text.partition("=")
    count = whole_number(number) if sep else None
    if not name.strip() or count is None or not 1 <= count <= MAX_DEAL_PAIRS:
        raise argparse.ArgumentTypeError(
            _("a cap is BOT=N with N from 1 to {most}, not {text}").format(
                most=f"{MAX_DEAL_PAIRS:,}", text=shown(text)
            )
        )
    return name.strip(), count


def ladder_options(args: argparse.Namespace, sub: argparse.ArgumentParser) -> LadderOptions:
    """Check the parsed ``ladder`` arguments (argparse exits with code 2 on a bad mix)."""
    bots = tuple(name.strip() for name in args.bots)
    if len(bots) < 2:
        sub.error(_("a ladder needs two or more bots"))
    if len(bots) > MAX_BOTS:
        sub.error(
            _("a ladder takes at most {most} bots, not {n}").format(most=MAX_BOTS, n=len(bots))
        )
    seen: set[str] = set()
    for name in bots:
        if name in seen:
            sub.error(_("{name} is named twice: each bot plays once").format(name=shown(name)))
        seen.add(name)
    caps: dict[str, int] = {}
    for name, count in args.cap:
        if name not in seen:
            sub.error(_("--cap names {name}, which is not in the ladder").format(name=shown(name)))
        caps[name] = count
    total = sum(
        min(args.deals, caps.get(a, args.deals), caps.get(b, args.deals))
        for i, a in enumerate(bots)
        for b in bots[i + 1 :]
    )
    if total > MAX_LADDER_DEAL_PAIRS:
        sub.error(
            ngettext(
                "{total} deal pair over all pairs is more than {most}: "
                "fewer --deals, fewer bots, or --cap",
                "{total} deal pairs over all pairs is more than {most}: "
                "fewer --deals, fewer bots, or --cap",
                total,
            ).format(total=f"{total:,}", most=f"{MAX_LADDER_DEAL_PAIRS:,}")
        )
    return LadderOptions(
        bots=bots,
        deal_pairs=args.deals,
        seed=args.seed,
        jobs=args.jobs,
        json=args.json,
        cluster=args.cluster,
        caps=caps,
        rules=args.rules,
    )


def run_ladder_command(options: LadderOptions, out: TextIO, err: TextIO) -> int:
    """Play the ladder and print its table (or its JSON)."""
    from bela.cli.cluster import cluster_errors

    check_bots(options.bots)
    ladder = optional_module("bela.lab.ladder", _("the ladder"))
    jobs = worker_jobs(options.jobs, err)
    with cluster_errors():
        report = ladder.run_ladder(
            options.bots,
            deal_pairs=options.deal_pairs,
            seed=options.seed,
            jobs=jobs,
            cluster=options.cluster,
            caps=options.caps,
            rules=options.rules,
            # the bar goes to stderr, so a terminal gets it even while JSON goes to a file
            progress=not options.json or sys.stderr.isatty(),
        )
    if options.json:
        text = json.dumps(ladder.ladder_to_dict(report))
        with writing_output():
            print(text, file=out)
        return 0
    rendered = ladder.render_ladder(report)
    with writing_output():
        output_console(out).print(rendered)
    return 0
