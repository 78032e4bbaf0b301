"""Matches played at random from a seed: the raw material of the storage and record tests."""

from __future__ import annotations

import random

from bela.engine import Match


def played(seed: int, steps: int | None = None, target: int = 501) -> Match:
    """The match of ``seed`` after ``steps`` random legal actions (all of them when None)."""
    rng = random.Random(seed)
    match = Match.new(seed, target=target)
    done = 0
    while match.current is not None and (steps is None or done < steps):
        match = match.apply(rng.choice(match.current.legal_actions()))
        done += 1
    return match
