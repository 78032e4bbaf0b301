"""Invariants of the public server's pieces (issue #39): team Glicko-2, the lobby's decoder,
the private codes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bela.archive.glicko import Rating
from bela.net.lobby_protocol import decode_login, decode_online
from bela.net.online_server import private_code
from bela.net.protocol import ProtocolError
from bela.net.server import CODE_ALPHABET
from bela.net.team_ratings import rate_abandon, rate_match, virtual_opponent

ratings = st.builds(
    Rating,
    rating=st.floats(800, 2400),
    rd=st.floats(30, 350),
    volatility=st.floats(0.03, 0.1),
)
tables = st.lists(ratings, min_size=4, max_size=4)


@given(tables, st.integers(0, 1))
def test_winners_never_lose_points_and_losers_never_gain(four: list[Rating], winner: int) -> None:
    after = rate_match(four, winner)
    for seat in range(4):
        if seat % 2 == winner:
            assert after[seat].rating > four[seat].rating
        else:
            assert after[seat].rating < four[seat].rating
        assert after[seat].rd <= 350.0  # never more unsure than a new player


@given(tables, st.integers(0, 3))
def test_the_virtual_opponent_stands_for_the_pairs_difference(
    four: list[Rating], seat: int
) -> None:
    """Expected score = the pair's: own rating minus the virtual opponent's is our pair's
    mean minus theirs, whoever of the pair is asked."""
    opponent = virtual_opponent(four, seat)
    ours = (four[seat].rating + four[(seat + 2) % 4].rating) / 2
    theirs = (four[(seat + 1) % 4].rating + four[(seat + 3) % 4].rating) / 2
    assert abs((four[seat].rating - opponent.rating) - (ours - theirs)) < 1e-6


@given(tables, st.integers(0, 3))
def test_leaving_is_a_loss(four: list[Rating], seat: int) -> None:
    assert rate_abandon(four, seat).rating < four[seat].rating


@given(st.binary(max_size=3000))
def test_any_bytes_are_a_message_or_a_protocol_error(frame: bytes) -> None:
    for decode in (decode_login, decode_online):
        try:
            decode(frame)
        except ProtocolError as exc:
            assert "\n" not in str(exc) and len(str(exc)) <= 200


def test_a_private_code_is_130_bits_of_the_read_aloud_alphabet() -> None:
    codes = {private_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == 26 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert len(CODE_ALPHABET) ** 26 >= 2**130
