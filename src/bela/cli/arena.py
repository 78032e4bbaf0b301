"""``bela arena``: two bots on duplicate deals, via ``bela.ai.arena``."""

from __future__ import annotations

import json
import os
import sys
from typing import TextIO

from bela.cli.common import CliError, optional_module
from bela.cli.options import ArenaOptions

__all__ = ["run_arena_command"]


def run_arena_command(options: ArenaOptions, out: TextIO) -> int:
    from bela.ai import BOT_KINDS

    for name in (options.bot_a, options.bot_b):
        if name not in BOT_KINDS:
            raise CliError(f"unknown bot {name!r}: choose from {', '.join(BOT_KINDS)}")
    arena = optional_module("bela.ai.arena", "the arena")
    report = arena.run_arena(
        options.bot_a,
        options.bot_b,
        deal_pairs=options.deal_pairs,
        seed=options.seed,
        jobs=options.jobs if options.jobs is not None else (os.cpu_count() or 1),
        matches=options.matches,
        target=options.target,
        # the bar goes to stderr, so a terminal gets it even while JSON goes to a file
        progress=not options.json or sys.stderr.isatty(),
    )
    if options.json:
        print(json.dumps(arena.report_to_dict(report)), file=out)
        return 0
    rendered = arena.render_report(report)
    if isinstance(rendered, str):
        print(rendered, file=out)
    else:  # a rich renderable
        from rich.console import Console

        Console(file=out, highlight=False).print(rendered)
    return 0
