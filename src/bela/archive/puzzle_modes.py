"""Puzzle modes and the themes a player misses most.

* **Streak**: puzzles one after another until the first miss; the score is how many were
  solved in a row (Lichess's Puzzle Streak).
* **Storm**: as many puzzles as the player can solve in three minutes (``STORM_SECONDS``);
  a miss does not end it, and an answer given after the time is up does not count (Lichess's
  Puzzle Storm).

Every answer in a mode is an attempt like any other (``bela.archive.puzzle_store`` keeps
and rates it); this module keeps each mode's best score in ``puzzle-modes.json`` in the
data directory, replaced atomically (a crash leaves the old file or the new one) and
read as untrusted (a value that is not a whole number in range counts as no score).

``weakest_themes`` ranks the themes by how often the player's *first* try at a puzzle of
the theme was right (a puzzle solved on the third try is not a strength), among themes
tried at least a few times: the dashboard the app and ``bela puzzles --stats`` show.

Pure data, no language: ``bela.puzzle_words`` says it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bela.foundation.files import read_limited, replace_atomically
from bela.foundation.numbers import load_json, whole_in

__all__ = [
    "MODES",
    "MODES_NAME",
    "STORM_SECONDS",
    "ModeRun",
    "RunResult",
    "WeakTheme",
    "read_best",
    "record_run",
    "weakest_themes",
]

MODES: Final = ("streak", "storm")
STORM_SECONDS: Final = 180.0
"""A storm's length: three minutes."""
MODES_NAME: Final = "puzzle-modes.json"
"""The best scores, in the data directory."""
_MAX_SCORE: Final = 1_000_000
_FILE_LIMIT: Final = 64 * 1024
WEAK_LEAST: Final = 3
"""A theme is ranked once the player has tried at least this many of its puzzles."""


@dataclass
class ModeRun:
    """One run of a mode: when it started (a monotonic clock's seconds), what was solved and
    missed, and whether it is over."""

    mode: str
    started: float
    solved: int = 0
    missed: int = 0
    over: bool = False

    def left(self, now: float) -> float:
        """A storm's seconds left (never below zero); a streak has no clock (infinity)."""
        if self.mode != "storm":
            return float("inf")
        return max(0.0, self.started + STORM_SECONDS - now)

    def expired(self, now: float) -> bool:
        """Whether a storm's time is up (and the run so over)."""
        if self.mode == "storm" and now >= self.started + STORM_SECONDS:
            self.over = True
        return self.over

    def answer(self, right: bool, now: float) -> bool:
        """Count an answer given at ``now``; False when it came too late (or the run was
        over) and so does not count. A streak ends at its first miss."""
        if self.over or self.expired(now):
            return False
        if right:
            self.solved += 1
        else:
            self.missed += 1
            if self.mode == "streak":
                self.over = True
        return True


@dataclass(frozen=True, slots=True)
class RunResult:
    """A finished run: its score, the best before it, and the best now."""

    mode: str
    score: int
    best_before: int
    best: int

    @property
    def new_best(self) -> bool:
        return self.score > self.best_before


def _path(data_dir: Path) -> Path:
    return data_dir / MODES_NAME


def read_best(data_dir: Path) -> dict[str, int]:
    """Each mode's best score (0 for one never played, or whose value is not believable)."""
    best = dict.fromkeys(MODES, 0)
    try:
        data = load_json(read_limited(_path(data_dir), _FILE_LIMIT).decode("utf-8", "replace"))
    except (OSError, ValueError):
        return best
    if isinstance(data, dict):
        for mode in MODES:
            value = whole_in(data.get(mode), 0, _MAX_SCORE)
            if value is not None:
                best[mode] = value
    return best


def record_run(data_dir: Path, run: ModeRun) -> RunResult:
    """End ``run`` and keep its score if it is the mode's best; ``OSError`` when the file
    cannot be written (the run's result is still what it was)."""
    run.over = True
    best = read_best(data_dir)
    before = best[run.mode]
    if run.solved > before:
        best[run.mode] = run.solved
        data_dir.mkdir(parents=True, exist_ok=True)
        replace_atomically(_path(data_dir), json.dumps(best) + "\n", ".bela-modes-", 0o644)
    return RunResult(run.mode, run.solved, before, max(before, run.solved))


@dataclass(frozen=True, slots=True)
class WeakTheme:
    """A theme and the player's first tries at its puzzles: how many were right, of how
    many tried."""

    theme: str
    right: int
    tried: int

    @property
    def share(self) -> float:
        return self.right / self.tried if self.tried else 0.0


def weakest_themes(
    themes_of: dict[str, Sequence[str]],
    attempts: Iterable[tuple[str, bool]],
    least: int = WEAK_LEAST,
    most: int = 5,
) -> list[WeakTheme]:
    """The themes whose puzzles the player gets right least often on the first try, weakest
    first (``least`` first tries at least; at most ``most`` of them).

    ``themes_of``: each puzzle id's themes; ``attempts``: (puzzle id, right) oldest first.
    """
    first: dict[str, bool] = {}
    for puzzle, ok in attempts:
        first.setdefault(puzzle, ok)
    right: dict[str, int] = {}
    tried: dict[str, int] = {}
    for puzzle, ok in first.items():
        for theme in themes_of.get(puzzle, ()):
            tried[theme] = tried.get(theme, 0) + 1
            right[theme] = right.get(theme, 0) + ok
    ranked = [WeakTheme(t, right[t], n) for t, n in tried.items() if n >= least]
    ranked.sort(key=lambda w: (w.share, -w.tried, w.theme))
    return ranked[:most]
