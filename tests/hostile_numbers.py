"""Hostile numbers for the file properties (issue #34), and where to put them in a document.

Every number bela reads comes from a JSON file a player may have edited. These are the
values that broke the readers before: integers beyond a double (``math.isfinite`` raised
``OverflowError``), negative ones, 2**63 (beyond SQLite's integers), non-finite floats
(JSON has none, Python's ``json`` writes and reads them), and values of the wrong type
where a number belongs (a bool is an ``int`` to ``isinstance``; a string of digits).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

EDGES: tuple[object, ...] = (
    10**400,
    -(10**400),
    2**63,
    2**64,
    -(2**63) - 1,
    -1,
    -6,
    777_777,
    1e308,
    -1e308,
    0.5,
    -0.0,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    False,
    None,
    "1",
    "[/]",
    [],
    {},
    [1, 2],
)

hostile_numbers = st.one_of(
    st.sampled_from(EDGES),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**1000),
    st.floats(),
)
"""Any of the edges, any integer however large, any float NaN and infinities included."""


def number_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The paths of every number (an int or a float, bools too) in a JSON document."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from number_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from number_paths(item, (*path, index))
    elif isinstance(value, int | float):
        yield path


def replaced(document: Any, path: tuple[Any, ...], value: object) -> Any:
    """A copy of ``document`` with ``value`` at ``path``."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(document, dict):
        return {k: replaced(v, rest, value) if k == head else v for k, v in document.items()}
    return [replaced(v, rest, value) if i == head else v for i, v in enumerate(document)]


@st.composite
def with_a_hostile_number(draw: st.DrawFn, document: Any) -> Any:
    """``document`` with one of its numbers (chosen by hypothesis) made hostile."""
    paths = list(number_paths(document))
    path = draw(st.sampled_from(paths))
    return replaced(document, path, draw(hostile_numbers))
