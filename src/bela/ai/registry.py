"""Bots by name, so the command line and the app can offer them.

``normal`` is the heuristic player (the app's default partner and opponents);
``easy`` is a weaker but sensible player; ``random`` plays any legal card.
``normal-v1`` and ``hard-v1`` are the players as they were before issue #14,
``hard-v2`` the hard bot before issue #26 and ``hard-v3`` before issue #38, kept so that
every change to ``normal`` and ``hard`` is measured against them.

Each factory imports its bot when first called: the names are all the start
screen and the command line need, and the bots (the hard bot's solver above
all) would otherwise load before the app draws anything (issue #12).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from bela.ai.base import Bot

__all__ = ["BOT_KINDS", "is_outside_bot", "make_bot"]


def _heuristic() -> Bot:
    from bela.ai.levels import make_normal

    return make_normal("heuristic")


def _normal() -> Bot:
    from bela.ai.levels import make_normal

    return make_normal()


def _normal_v1() -> Bot:
    from bela.ai.levels import make_normal_v1

    return make_normal_v1()


def _easy() -> Bot:
    from bela.ai.levels import make_easy

    return make_easy()


def _hard() -> Bot:
    from bela.ai.hard import make_hard

    return make_hard()


def _hard_v1() -> Bot:
    from bela.ai.hard import make_hard_v1

    return make_hard_v1()


def _hard_v2() -> Bot:
    from bela.ai.hard import make_hard_v2

    return make_hard_v2()


def _hard_v3() -> Bot:
    from bela.ai.hard import make_hard_v3

    return make_hard_v3()


def _random() -> Bot:
    from bela.ai.random_bot import RandomBot

    return RandomBot()


_FACTORIES: dict[str, Callable[[], Bot]] = {
    "heuristic": _heuristic,
    "normal": _normal,
    "easy": _easy,
    "hard": _hard,
    "random": _random,
    "normal-v1": _normal_v1,
    "hard-v1": _hard_v1,
    "hard-v2": _hard_v2,
    "hard-v3": _hard_v3,
}
BOT_KINDS: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(kind: str) -> Bot:
    """A new bot of the given kind; ``ValueError`` names the known kinds otherwise.

    ``module:name`` is an outside agent: ``name`` in the importable ``module``, called with no
    arguments, must give an object with ``act(view, rng)`` (the ``Bot`` protocol). The arena
    and the ladder take it like any bot (docs/bots.md, "An outside agent in the arena").
    """
    if ":" in kind:
        return _outside_bot(kind)
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}: choose from {', '.join(BOT_KINDS)}") from None
    return factory()


def is_outside_bot(kind: str) -> bool:
    """Whether ``kind`` names an outside agent (``module:name``) rather than one of bela's."""
    return ":" in kind


def _outside_bot(kind: str) -> Bot:
    import importlib

    module_name, _, attr = kind.partition(":")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ValueError(f"cannot load the agent {kind!r}: {exc}") from None
    try:
        bot: Any = factory() if callable(factory) else None
    except Exception as exc:  # the agent's own code: whatever it raises, say so in one line
        raise ValueError(f"{kind!r} failed when called: {exc!r}") from None
    if not callable(getattr(bot, "act", None)):
        raise ValueError(f"{kind!r} did not give an agent with act(view, rng)")
    if not isinstance(getattr(bot, "name", None), str):
        bot.name = kind
    return cast("Bot", bot)
