"""``bela arena``: two bots on duplicate deals, via ``bela.lab.arena``."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from bela.cli.cluster import cluster_errors
from bela.cli.common import (
    check_bots,
    optional_module,
    output_console,
    worker_jobs,
    writing_output,
)
from bela.cli.options import ArenaOptions
from bela.i18n import _

__all__ = ["run_arena_command"]


def run_arena_command(options: ArenaOptions, out: TextIO, err: TextIO) -> int:
    """Run the arena and print its report.

    ``--jobs`` above the usable CPUs gets a notice on ``err``: the work is CPU-bound,
    so extra processes only cost memory and start-up, and ``run_arena`` starts no
    more than there are CPUs whatever it is asked for.
    """
    check_bots((options.bot_a, options.bot_b))
    arena = optional_module("bela.lab.arena", _("the arena"))
    jobs = worker_jobs(options.jobs, err)
    with cluster_errors():
        report = arena.run_arena(
            options.bot_a,
            options.bot_b,
            deal_pairs=options.deal_pairs,
            seed=options.seed,
            jobs=jobs,
            matches=options.matches,
            target=options.target,
            rules=options.rules,
            cluster=options.cluster,
            control=options.control,
            # the bar goes to stderr, so a terminal gets it even while JSON goes to a file
            progress=not options.json or sys.stderr.isatty(),
        )
    if options.json:
        text = json.dumps(arena.report_to_dict(report))
        with writing_output():
            print(text, file=out)
        return 0
    rendered = arena.render_report(report)
    with writing_output():
        if isinstance(rendered, str):
            print(rendered, file=out)
        else:  # a rich renderable
            output_console(out).print(rendered)
    return 0
