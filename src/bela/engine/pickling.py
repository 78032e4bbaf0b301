"""Pickling for the engine's frozen classes, the same in the pure and the compiled build.

The lab sends rules, actions, views and positions to worker processes by pickle. In pure
Python a frozen dataclass with slots pickles by itself; compiled by mypyc it does not (its
state is set back field by field, which ``frozen`` refuses), so ``bela arena --jobs 2`` hung
on the compiled build. Each class's ``__reduce__`` uses these instead: it is rebuilt by its
own constructor from its fields (checked again, as any value from outside).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["by_fields"]


def by_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` of a dataclass: its class called with its fields, in order."""
    return obj.__class__, tuple(getattr(obj, f.name) for f in fields(obj))
