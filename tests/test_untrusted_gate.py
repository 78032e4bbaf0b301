"""The gate itself (``bela.foundation.untrusted``): whatever text goes in, what comes out
acts on no terminal, is read as no markup, and keeps to its length.

The views that use it are proved in ``tests/cli/test_cli_gate_properties.py`` and
``tests/tui/test_tui_gate_properties.py``; these are the functions' own promises.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from bela.foundation.untrusted import as_markup, as_text, json_for_terminal, oneline, shown
from hostile_text import SEQUENCES, TAGS, acted_on

ANY_TEXT = st.lists(
    st.one_of(st.text(), st.sampled_from(SEQUENCES), st.sampled_from(TAGS)), max_size=8
).map("".join)
LIMIT = st.integers(min_value=1, max_value=500)


@given(ANY_TEXT, LIMIT)
def test_oneline_and_shown_act_on_nothing_and_keep_their_length(text: str, limit: int) -> None:
    line = oneline(text, limit)
    assert not acted_on(line) and "\n" not in line
    assert len(line) <= limit
    quoted = shown(text, limit)
    assert not acted_on(quoted) and quoted.startswith("'") and quoted.endswith("'")


@settings(max_examples=60)
@given(ANY_TEXT, LIMIT)
@example("\\[", 2)  # a backslash before a bracket that opens no tag
@example("a\\\\[b] [x\\", 40)
@example("[a[b]\\[/c]", 40)
def test_as_text_and_as_markup_render_literally(text: str, limit: int) -> None:
    """Rendered by Rich for a colour terminal: the same characters as ``oneline`` (no tag
    eaten, no MarkupError), and no escape sequence but the style's own."""
    expected = oneline(text, limit)
    for renderable in (as_text(text, limit), as_markup(text, limit)):
        buffer = io.StringIO()
        console = Console(file=buffer, width=1000, color_system=None, highlight=False)
        console.print(renderable, end="", soft_wrap=True)
        shown_text = buffer.getvalue()
        # as_markup doubles trailing backslashes, so that a tag put after them in a template
        # stays a tag; rendered alone, that shows them twice
        trailing = len(expected) - len(expected.rstrip("\\"))
        quirk = expected + "\\" * trailing
        assert shown_text in (expected, quirk)
        terminal = io.StringIO()
        Console(file=terminal, force_terminal=True, color_system="truecolor", width=1000).print(
            renderable, soft_wrap=True
        )
        assert "\x1b]8;" not in terminal.getvalue()  # no hyperlink


@pytest.mark.slow
@settings(max_examples=40)
@given(
    st.recursive(
        st.none() | ANY_TEXT | st.integers(),
        lambda inner: st.lists(inner) | st.dictionaries(ANY_TEXT, inner),
        max_leaves=10,
    )
)
def test_json_for_terminal_is_the_same_json_and_acts_on_nothing(data: object) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=2)
    safe = json_for_terminal(text)
    assert json.loads(safe) == data
    assert not acted_on(safe)


def test_the_gate_imports_no_rich_until_asked() -> None:
    """It is on the first screen's path and the engine's neighbours': standard library only."""
    code = (
        "import sys, bela.foundation.untrusted as u; "
        "assert 'rich' not in sys.modules, 'rich imported'; "
        "u.as_text('x'); assert 'rich' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
