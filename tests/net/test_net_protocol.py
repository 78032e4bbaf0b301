"""Whatever bytes arrive, decoding gives a valid message or ``ProtocolError``, nothing else."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.net.protocol import (
    CLIENT_FRAME_LIMIT,
    Act,
    Hello,
    ProtocolError,
    decode_client,
    decode_server,
    encode,
)

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_TYPES = st.sampled_from(["hello", "sit", "start", "act", "chat", "leave", "state", "x", ""])


@settings(max_examples=300, deadline=None)
@given(frame=st.binary(max_size=300))
def test_any_bytes_decode_to_a_message_or_a_protocol_error(frame: bytes) -> None:
    for decode in (decode_client, decode_server):
        try:
            decode(frame)
        except ProtocolError as exc:
            assert str(exc) and "\n" not in str(exc)


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(kind=_TYPES, fields=st.dictionaries(st.text(max_size=8), _JSON, max_size=5))
def test_any_json_object_decodes_to_a_message_or_a_protocol_error(
    kind: str, fields: dict[str, object]
) -> None:
    frame = json.dumps({**fields, "type": kind}).encode()
    for decode in (decode_client, decode_server):
        try:
            decode(frame)
        except ProtocolError as exc:
            assert str(exc) and "\n" not in str(exc)


def test_messages_round_trip_and_the_limits_hold() -> None:
    hello = Hello(type="hello", v=1, code="ABCD-EFGH-JK", name="Ana")
    assert decode_client(encode(hello)) == hello
    assert decode_client(b'{"type":"act","action":"QH bela"}\n') == Act(
        type="act", action="QH bela"
    )
    with pytest.raises(ProtocolError, match="too large"):
        decode_client(b'{"type":"chat","text":"' + b"x" * CLIENT_FRAME_LIMIT + b'"}')
    with pytest.raises(ProtocolError, match="unknown message type"):
        decode_client(b'{"type":"state"}')  # a server message from a client
    with pytest.raises(ProtocolError, match="extra"):
        decode_client(b'{"type":"start","admin":true}')
    # a key of the peer's own, with a newline and an escape, is quoted back escaped, on one line
    with pytest.raises(ProtocolError) as caught:
        decode_client(b'{"type":"start","\\n\\u001b[31m":1}')
    assert "\n" not in str(caught.value) and "\x1b" not in str(caught.value)
