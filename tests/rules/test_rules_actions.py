"""Actions as text and as choices: ``parse_action`` reads what ``str`` writes, ``choice_of``
tells two plays of one card apart from plays of two cards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bela.engine import Call, Card, Claim, Pass, Play, Silent, Suit
from bela.engine.actions import Action, choice_of, parse_action

CARDS = st.integers(0, 31).map(Card)
ACTIONS: st.SearchStrategy[Action] = st.one_of(
    st.just(Pass()),
    st.just(Claim()),
    st.just(Silent()),
    st.sampled_from(list(Suit)).map(Call),
    st.builds(Play, CARDS, st.booleans()),
)


@given(ACTIONS)
def test_every_action_reads_back_from_its_text(action: Action) -> None:
    assert parse_action(str(action)) == action


@given(ACTIONS, ACTIONS)
def test_two_actions_are_one_choice_exactly_when_they_play_the_same_card_or_are_equal(
    a: Action, b: Action
) -> None:
    same_card = isinstance(a, Play) and isinstance(b, Play) and a.card == b.card
    assert (choice_of(a) == choice_of(b)) == (same_card or a == b)


def test_a_bela_announcement_does_not_change_the_choice() -> None:
    queen = Card.parse("QH")
    assert choice_of(Play(queen, True)) == choice_of(Play(queen)) == queen
    assert choice_of(Play(Card.parse("KH"))) != choice_of(Play(queen))
    assert choice_of(Call(Suit.parse("H"))) == Call(Suit.parse("H"))
