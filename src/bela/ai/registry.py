"""Bots by name, so the command line and the app can offer them.

``normal`` is the heuristic player (the app's default partner and opponents);
``easy`` is a weaker but sensible player; ``random`` plays any legal card.
"""

from __future__ import annotations

from collections.abc import Callable

from bela.ai.base import Bot
from bela.ai.hard import make_hard
from bela.ai.levels import make_easy, make_normal
from bela.ai.random_bot import RandomBot

__all__ = ["BOT_KINDS", "make_bot"]

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "heuristic": lambda: make_normal("heuristic"),
    "normal": make_normal,
    "easy": make_easy,
    "hard": make_hard,
    "random": RandomBot,
}
BOT_KINDS: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(kind: str) -> Bot:
    """A new bot of the given kind; ``ValueError`` names the known kinds otherwise."""
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}: choose from {', '.join(BOT_KINDS)}") from None
    return factory()
