"""Glicko-2 (``bela.archive.glicko``) against Glickman's worked example, and its invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.archive.glicko import Rating, update


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (2013), section "Example calculation"
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games, tau=0.5)
    # the paper rounds its intermediate values (1464.06); the exact computation gives 1464.05
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_game_only_widens_the_deviation() -> None:
    player = Rating(1500, 200, 0.06)
    after = update(player, [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.rd == pytest.approx(200.2714, abs=0.001)  # the paper's "did not compete" step


ratings = st.builds(
    Rating,
    st.floats(800, 2600),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


@settings(max_examples=200, deadline=None)
@given(player=ratings, opponent=ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(
    player: Rating, opponent: Rating
) -> None:
    won = update(player, [(opponent, 1.0)])
    lost = update(player, [(opponent, 0.0)])
    assert lost.rating < player.rating < won.rating
    # a game makes the rating surer (or at most as unsure as the volatility's growth allows)
    assert won.rd <= (player.rd**2 + (won.volatility * 173.7178) ** 2) ** 0.5 + 1e-9
    assert 0 < won.volatility < 1 and 0 < lost.volatility < 1
