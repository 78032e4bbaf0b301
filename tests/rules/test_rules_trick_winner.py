"""Who wins a trick: "The highest trump wins the trick; with no trump on it, the highest card
of L wins" (L = the suit led), and the brief's worked example."""

from __future__ import annotations

from bela_scenarios import DEAL_W, PLAY_W_FIRST_TRICK, call, cards, new_round, play

from bela.engine import Phase, Suit, card_points, legal_plays, trick_winner


def test_lowest_trump_beats_the_ace_led() -> None:
    """Brief: "The highest trump wins the trick": even 7 of trump beats the ace led."""
    assert trick_winner(cards("AD 7H 10D KD"), Suit.HEARTS) == 1


def test_highest_trump_wins_when_several_trumps() -> None:
    """Brief: "The highest trump wins the trick" (trump order J 9 A 10 K Q 8 7)."""
    assert trick_winner(cards("AS 10C 9C AC"), Suit.CLUBS) == 2
    assert trick_winner(cards("AS 10C JC 9C"), Suit.CLUBS) == 2


def test_without_trump_highest_card_of_the_suit_led_wins() -> None:
    """Brief: "with no trump on it, the highest card of L wins"."""
    assert trick_winner(cards("KD 10D 7D AD"), Suit.HEARTS) == 3
    assert trick_winner(cards("QS JS 7S 9S"), Suit.HEARTS) == 0


def test_card_of_another_plain_suit_never_wins() -> None:
    """Brief: only trump or the suit led can win: an ace of a third suit loses to the 7 led."""
    assert trick_winner(cards("7D AS AC 8D"), Suit.HEARTS) == 3


def test_trump_led_highest_trump_wins() -> None:
    """Brief: "The highest trump wins the trick", also when trump is the suit led."""
    assert trick_winner(cards("AH 10H 9H KH"), Suit.HEARTS) == 2


def test_worked_example_with_legal_plays_and_trick_winner() -> None:
    """Brief, worked example: "trump hearts ... Player 3 leads A♦; player 1 has no diamonds and
    must trump: 7♥; player 2 follows: 8♦; player 4 has no diamonds and must overtrump: Q♥.
    Player 4 wins: 11 + 0 + 0 + 3 = 14 points." """
    trump = Suit.HEARTS
    # Player 1 holds no diamond: the only legal cards are trumps.
    player1 = cards("7H AS 10S KS QS 9C 10C")
    assert set(legal_plays(player1, cards("AD"), trump)) == set(cards("7H"))
    # Player 2 holds diamonds and must follow (he cannot beat the ace: any diamond).
    player2 = cards("8D 9D JD QS JS JC")
    assert set(legal_plays(player2, cards("AD 7H"), trump)) == set(cards("8D 9D JD"))
    # Player 4 holds no diamond and must overtrump 7H: QH, not a club.
    player4 = cards("QH AC KC")
    assert set(legal_plays(player4, cards("AD 7H 8D"), trump)) == set(cards("QH"))
    trick = cards("AD 7H 8D QH")
    assert trick_winner(trick, trump) == 3
    assert sum(card_points(c, trump) for c in trick) == 11 + 0 + 0 + 3 == 14


def test_worked_example_played_in_a_round() -> None:
    """Brief, worked example, at a table: the player who overtrumps with Q♥ takes the trick
    and its 14 points (11 + 0 + 0 + 3), and, as its winner, leads the next trick."""
    rnd = call(new_round(0, DEAL_W), "H")
    rnd = play(rnd, PLAY_W_FIRST_TRICK)
    (trick,) = rnd.tricks
    assert trick.leader == 1
    assert [str(c) for c in trick.cards] == ["AD", "7H", "8D", "QH"]
    assert trick.winner == 0
    assert trick.points == 14
    assert rnd.card_points == (14, 0)
    assert rnd.phase is Phase.PLAYING
    assert rnd.to_act == 0
