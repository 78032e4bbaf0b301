"""The ``bela`` command: ``play`` (the default), ``replay`` and ``arena``.

``main`` is the console-script entry point. Bad input of any kind ends with a
one-line message on stderr and exit code 2; a part of bela that is not built
yet (the app, the arena) with exit code 1.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bela.cli.analyze import AnalyzeOptions
from bela.cli.common import CliError
from bela.cli.options import ArenaOptions, PlayOptions, ReplayOptions, parse

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bela`` with ``argv`` (default: the process's arguments) and return the exit code."""
    try:
        options = parse(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # argparse: --help, --version, or a one-line usage error
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    out, err = sys.stdout, sys.stderr
    try:
        if isinstance(options, PlayOptions):
            from bela.cli.play import run_play

            return run_play(options, out, err)
        if isinstance(options, ReplayOptions):
            from bela.cli.replay import run_replay

            return run_replay(options, out, err)
        if isinstance(options, AnalyzeOptions):
            from bela.cli.analyze import run_analyze

            return run_analyze(options, out, err)
        from bela.cli.arena import run_arena_command

        assert isinstance(options, ArenaOptions)
        return run_arena_command(options, out)
    except CliError as exc:
        print(f"bela: error: {exc}", file=err)
        return exc.code
    except KeyboardInterrupt:
        print("bela: interrupted", file=err)
        return 130
    except BrokenPipeError:  # e.g. `bela replay ... | head`
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
