"""Any combination of house rules, for the properties that must hold under every one.

Built from ``Rules``' own fields, so a rule added to the engine is covered by
every such property at once instead of by whichever copy of a list remembered it.
"""

from __future__ import annotations

from dataclasses import fields

from hypothesis import strategies as st

from bela.engine import Rules
from bela.engine.rules import STIGLJA_BONUSES

_VALUES: dict[str, st.SearchStrategy[object]] = {"stiglja_bonus": st.sampled_from(STIGLJA_BONUSES)}

ANY_RULES: st.SearchStrategy[Rules] = st.builds(
    Rules,
    **{field.name: _VALUES.get(field.name, st.booleans()) for field in fields(Rules)},
)
