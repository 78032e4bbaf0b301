"""What the commands share: the error that becomes an exit code, and bot-level fallbacks."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_UNAVAILABLE",
    "CliError",
    "optional_module",
    "resolve_difficulty",
]

EXIT_UNAVAILABLE = 1
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
            return kind, f"the {requested!r} level is not available yet: playing {kind!r} instead"
    raise CliError(f"no computer player is available for {requested!r}", EXIT_UNAVAILABLE)


def optional_module(name: str, what: str) -> ModuleType:
    """Import a part of bela that may not be built yet; ``CliError`` (exit 1) if it is missing."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing and (name == missing or name.startswith(missing + ".")):
            message = f"{what} is not available yet ({name} is missing)"
            raise CliError(message, EXIT_UNAVAILABLE) from None
        raise
