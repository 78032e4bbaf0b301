"""Whatever bytes or JSON the loader is fed, it answers with a record or ``RecordError``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.archive.records import RecordError, dumps, loads, match_from_record, record_from_match
from bela.archive.storage import CorruptAutosaveError, autosave_path, load_autosave
from bela.engine import Match

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=30,
)


def _good_record() -> dict[str, Any]:
    rng = random.Random(3)
    match = Match.new(3, target=501)
    for _ in range(80):
        assert match.current is not None
        match = match.apply(rng.choice(match.current.legal_actions()))
    data: dict[str, Any] = json.loads(dumps(record_from_match(match, "normal")))
    return data


GOOD = _good_record()


def load_fully(data: str | bytes) -> None:
    """Load and replay; only a ``RecordError`` may escape."""
    try:
        match_from_record(loads(data))
    except RecordError as exc:
        assert str(exc) and "\n" not in str(exc)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes(data: bytes) -> None:
    load_fully(data)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(JSON)
def test_arbitrary_json(value: object) -> None:
    load_fully(json.dumps(value))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(JSON)
def test_arbitrary_json_with_a_good_version(value: object) -> None:
    data = dict(value) if isinstance(value, dict) else {"payload": value}
    data["schema_version"] = 1
    load_fully(json.dumps(data))


def _paths(node: object, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, child in node.items():
            found.extend(_paths(child, (*prefix, key)))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            found.extend(_paths(child, (*prefix, i)))
    return found


PATHS = _paths(GOOD)[1:]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PATHS), JSON)
def test_a_good_record_with_one_value_replaced(path: tuple[Any, ...], value: object) -> None:
    data = json.loads(json.dumps(GOOD))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    load_fully(json.dumps(data))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(json.dumps(GOOD))), st.binary(max_size=8))
def test_a_good_record_damaged_at_any_byte(cut: int, noise: bytes) -> None:
    text = json.dumps(GOOD).encode()
    load_fully(text[:cut] + noise + text[cut + len(noise) :])


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()))
def test_the_autosave_loader_never_crashes(data_dir: Path, content: bytes) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    autosave_path().write_bytes(content)
    try:
        load_autosave()
    except CorruptAutosaveError as exc:
        assert exc.moved_to.read_bytes() == content
        exc.moved_to.unlink()
