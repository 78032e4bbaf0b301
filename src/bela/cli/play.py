"""``bela play``: hand the validated options to the Textual app."""

from __future__ import annotations

from typing import TextIO

from bela.cli.common import (
    EXIT_UNAVAILABLE,
    CliError,
    optional_module,
    resolve_difficulty,
    writing_output,
)
from bela.cli.options import PlayOptions
from bela.untrusted import oneline

__all__ = ["run_play"]


def run_play(options: PlayOptions, out: TextIO, err: TextIO) -> int:
    """Start the app; it reports its own exit code.

    The app takes ``start_round`` as the 0-based index of the first deal (the
    engine's ``Match.start_index``), so ``--round N`` becomes ``N - 1``.
    """
    from bela.ai import BOT_KINDS

    kind, notice = resolve_difficulty(options.difficulty, BOT_KINDS)
    app = optional_module("bela.tui", "the terminal app")
    run_app = getattr(app, "run_app", None)
    if run_app is None:
        raise CliError("the terminal app is not available yet", EXIT_UNAVAILABLE)
    if options.resume:
        _check_resumable()
    if notice is not None:
        print(f"bela: {notice}", file=err)
    if options.seed_chosen and not options.resume:
        with writing_output():  # flushed now: the app takes the terminal next
            print(
                f"bela: new matches use seed {options.seed} "
                f"(replay with: bela replay --seed {options.seed})",
                file=out,
                flush=True,
            )
    code = run_app(
        target=options.target,
        seed=options.seed,
        difficulty=kind,
        start_round=options.round - 1,
        resume=options.resume,
    )
    return int(code) if code is not None else 0


def _check_resumable() -> None:
    """``--resume`` needs a saved, unfinished match; say so before the app starts."""
    from bela.records import RecordError
    from bela.storage import claim_slot, load_autosave

    try:
        claim_slot()  # the slot the app will use: a second window has its own
        record = load_autosave()
    except RecordError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        reason = oneline(exc.strerror or exc)  # str(exc) names the file, unescaped
        raise CliError(f"cannot read the saved match: {reason}") from None
    if record is None:
        raise CliError("there is no unfinished match to resume")
