"""What the commands share: the error that becomes an exit code, bot-level fallbacks, and
the guards between bela and the outside (standard output, the CPU count)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

from bela.foundation.untrusted import oneline, shown
from bela.i18n import _

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_ENVIRONMENT",
    "EXIT_UNAVAILABLE",
    "CliError",
    "OutputError",
    "check_bots",
    "optional_module",
    "output_console",
    "resolve_difficulty",
    "usable_cpus",
    "worker_jobs",
    "writing_output",
]

EXIT_ENVIRONMENT = 1
"""Not the input's fault: the surroundings failed (a part not built yet, an unwritable output)."""
EXIT_UNAVAILABLE = EXIT_ENVIRONMENT
EXIT_BAD_INPUT = 2

# The bot kind to use for each difficulty, best first: the bots arrive in stages
# (random first, then easy/normal/heuristic, "hard" later), and each level falls
# back to the nearest one that exists rather than refusing to play.
_FALLBACKS: dict[str, tuple[str, ...]] = {
    "easy": ("easy", "normal", "heuristic", "random"),
    "normal": ("normal", "heuristic", "random"),
    "hard": ("hard", "normal", "heuristic", "random"),
}


class CliError(Exception):
    """A one-line message for the user and the exit code that goes with it."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.code = code


def resolve_difficulty(requested: str, available: Sequence[str]) -> tuple[str, str | None]:
    """The bot kind for ``requested`` among ``available``, and a notice if it had to fall back."""
    for kind in _FALLBACKS.get(requested, (requested,)):
        if kind in available:
            if kind == requested:
                return kind, None
            return (
                kind,
                _("the {level} level is not available yet: playing {kind} instead").format(
                    level=shown(requested), kind=shown(kind)
                ),
            )
    raise CliError(
        _("no computer player is available for {level}").format(level=shown(requested)),
        EXIT_UNAVAILABLE,
    )


def optional_module(name: str, what: str) -> ModuleType:
    """Import a part of bela that may not be built yet; ``CliError`` (exit 1) if it is missing."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing and (name == missing or name.startswith(missing + ".")):
            message = _("{what} is not available yet ({name} is missing)").format(
                what=what, name=name
            )
            raise CliError(message, EXIT_UNAVAILABLE) from None
        raise


class OutputError(Exception):
    """Standard output could not be written: a full disk, a closed pipe, a lost terminal.

    Raised by ``writing_output`` with the ``OSError`` as ``cause``, so ``main`` can tell
    a failed write of our output from any other ``OSError``.
    """

    def __init__(self, cause: OSError) -> None:
        super().__init__(cause.strerror or str(cause))
        self.cause = cause


@contextmanager
def writing_output() -> Iterator[None]:
    """Turn an ``OSError`` raised while writing the command's output into ``OutputError``."""
    try:
        yield
    except OSError as exc:
        raise OutputError(exc) from exc


def output_console(out: TextIO) -> Console:
    """A rich ``Console`` on ``out`` that lets a closed pipe raise ``BrokenPipeError``.

    Rich's own reaction is to point stdout at /dev/null and ``SystemExit(1)`` on the
    spot; ``main`` handles every failed write in one place instead.
    """
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True  # drop what is still buffered: nobody is reading
            raise  # the BrokenPipeError that rich is handling (we are in its except block)

    return _Console(file=out, highlight=False)


def check_bots(names: Sequence[str]) -> None:
    """``CliError`` naming the known bots if any of ``names`` is not one (escaped: user input).

    An outside agent (``module:name``) is loaded here once, so that a wrong name or a module
    that fails to import is one line before any work starts, not an error in every worker.
    """
    from bela.ai import BOT_KINDS
    from bela.ai.registry import is_outside_bot, make_bot

    for name in names:
        if is_outside_bot(name):
            try:
                make_bot(name)
            except ValueError as exc:
                raise CliError(
                    _("the agent {name} cannot be used: {reason}").format(
                        name=shown(name), reason=oneline(str(exc))
                    )
                ) from None
        elif name not in BOT_KINDS:
            raise CliError(
                _("unknown bot {name}: choose from {names}").format(
                    name=shown(name), names=", ".join(BOT_KINDS)
                )
            )


def worker_jobs(requested: int | None, err: TextIO) -> int:
    """The worker processes to start: ``--jobs``, else the usable CPUs.

    ``--jobs`` above the usable CPUs gets a notice on ``err``: the work is CPU-bound,
    so extra processes only cost memory and start-up (the lab's runner starts no more
    than there are CPUs whatever it is asked for).
    """
    cpus = usable_cpus()
    if requested is None:
        return cpus
    if requested > cpus:
        print(
            _("bela: --jobs {jobs} is more than the {cpus} CPUs bela may use: using {cpus}").format(
                jobs=requested, cpus=cpus
            ),
            file=err,
        )
    return requested


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # macOS and Windows have no affinity call
        return os.cpu_count() or 1
