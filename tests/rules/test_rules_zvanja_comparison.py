"""Which team's zvanja count: the brief's "Comparison" rule, on full four-hand deals.

Each deal lists every seat's eight cards and, in a comment, every declaration in it (checked
by hand against the zvanja table: no other run of three in a suit, no other four).
"""

from __future__ import annotations

import pytest
from bela_scenarios import DEAL_P, DEAL_Z1, call, finish_first_legal, full_deal, new_round

from bela.engine import resolve_zvanja

# Z2: seat 0 has four queens (100); seat 1 has 7S-JS (100).
Z2 = (
    "QH QD QS QC 7H 9H KD AC",  # seat 0: four queens = 100
    "7S 8S 9S 10S JS 8H 10H 7D",  # seat 1: 7S 8S 9S 10S JS = 100
    "JH KH 8D 10D AD KS 7C 9C",  # seat 2: none
    "AH 9D JD AS 8C 10C JC KC",  # seat 3: none
)

# Z3: two 3-sequences of 20: seat 1 has 7D 8D 9D (top 9), seat 2 has JC QC KC (top K).
Z3 = (
    "7H 9H JH QS KS 8C 10C AC",  # seat 0: none
    "7D 8D 9D 8H 10H 9S JS 7C",  # seat 1: 7D 8D 9D = 20
    "JC QC KC QH AH 10D QD 7S",  # seat 2: JC QC KC = 20
    "KH JD KD AD 8S 10S AS 9C",  # seat 3: none
)

# Fours of 100 against each other: seat 1 holds the lower four, seat 0 (the dealer, last in
# playing order) the higher. The other cards are spread so no further declaration exists.
FOURS_A_OVER_K = (
    "AH AD AS AC JH QD JS QC",  # seat 0: four aces = 100
    "KH KD KS KC QH JD QS JC",  # seat 1: four kings = 100
    "7H 9H 8D 10D 7S 9S 8C 10C",  # seat 2: none
    "8H 10H 7D 9D 8S 10S 7C 9C",  # seat 3: none
)
FOURS_K_OVER_Q = (
    "KH KD KS KC JH AD JS AC",  # seat 0: four kings = 100
    "QH QD QS QC AH JD AS JC",  # seat 1: four queens = 100
    "7H 9H 8D 10D 7S 9S 8C 10C",  # seat 2: none
    "8H 10H 7D 9D 8S 10S 7C 9C",  # seat 3: none
)
FOURS_Q_OVER_10 = (
    "QH QD QS QC KH AD KS AC",  # seat 0: four queens = 100
    "10H 10D 10S 10C AH KD AS KC",  # seat 1: four tens = 100
    "7H 9H 8D JD 7S 9S 8C JC",  # seat 2: none
    "8H JH 7D 9D 8S JS 7C 9C",  # seat 3: none
)

# Z5: seat 1 has 7S-KS (7 cards, top K, 100); seat 0 has 10H-AH (5 cards, top A, 100).
Z5 = (
    "10H JH QH KH AH 7H 8D AS",  # seat 0: 10H JH QH KH AH = 100
    "7S 8S 9S 10S JS QS KS 7D",  # seat 1: 7S..KS = 100
    "8H 9D JD KD 7C 9C JC KC",  # seat 2: none
    "9H 10D QD AD 8C 10C QC AC",  # seat 3: none
)

# Z4: two hands with equal declarations (a 3-sequence to the king, 20) and two without;
# tests seat them in different places.
TIE_A = "JH QH KH 7H 9H 8S 10S QC"  # JH QH KH = 20
TIE_B = "JD QD KD 7D 9D 7S 9S JC"  # JD QD KD = 20
TIE_C = "10H AH 8D 10D JS KS 7C 9C"  # none
TIE_D = "8H AD QS AS 8C 10C KC AC"  # none

# Nobody declares: each seat holds two cards of a suit four ranks apart, no rank four times.
QUIET = (
    "7H JH 8D QD 9S KS 10C AC",
    "8H QH 9D KD 10S AS 7C JC",
    "9H KH 10D AD 7S JS 8C QC",
    "10H AH 7D JD 8S QS 9C KC",
)
FOUR_EIGHTS = (
    "8H JH 8D QD 8S KS 8C AC",  # seat 0: four 8s, nothing else
    "7H QH 9D KD 10S AS 7C JC",
    "9H KH 10D AD 7S JS 10C QC",
    "10H AH 7D JD 9S QS 9C KC",
)
FOUR_SEVENS = (
    "7H JH 7D QD 7S KS 7C AC",  # seat 0: four 7s, nothing else
    "8H QH 9D KD 10S AS 10C JC",
    "9H KH 10D AD 9S JS 8C QC",
    "10H AH 8D JD 8S QS 9C KC",
)


def resolve(hands: tuple[str, ...] | list[str], first_player: int) -> tuple[int | None, int]:
    return resolve_zvanja(full_deal(*hands), first_player)


def test_more_points_wins() -> None:
    """Brief: "Best = most points": seat 1's 4-sequence (50) beats seat 0's 3-sequence (20)."""
    team, _ = resolve(DEAL_Z1, first_player=1)
    assert team == 1


def test_winning_team_scores_all_declarations_of_both_players() -> None:
    """Brief: the team with the best declaration "scores all declarations of both its players":
    seat 1's 50 + seat 3's 20 = 70."""
    assert resolve(DEAL_Z1, first_player=1) == (1, 50 + 20)


def test_other_team_scores_no_zvanja() -> None:
    """Brief: "the other team scores none": at a table seat 0's 20 is not counted; the round
    records 70 for team 1 and 0 for team 0."""
    rnd = call(new_round(0, DEAL_Z1), "C")
    assert rnd.zvanja_team == 1
    assert rnd.zvanja_points == (0, 50 + 20)


def test_four_beats_sequence_at_equal_points() -> None:
    """Brief: "at equal points a four-of-a-kind beats a sequence": seat 0's four queens (100)
    beat seat 1's five-card sequence (100), although seat 1 comes first in playing order."""
    assert resolve(Z2, first_player=1) == (0, 100)


def test_higher_top_card_wins_between_equal_sequences() -> None:
    """Brief: "then the higher top card (natural order)": JC QC KC beats 7D 8D 9D (both 20)
    although the 7-9 is held by the first player."""
    assert resolve(Z3, first_player=1) == (0, 20)


def test_four_aces_beat_four_kings() -> None:
    """Brief: "for two 100-point fours A > K > Q > 10" (aces over kings)."""
    assert resolve(FOURS_A_OVER_K, first_player=1) == (0, 100)


def test_four_kings_beat_four_queens() -> None:
    """Brief: "for two 100-point fours A > K > Q > 10" (kings over queens)."""
    assert resolve(FOURS_K_OVER_Q, first_player=1) == (0, 100)


def test_four_queens_beat_four_tens() -> None:
    """Brief: "for two 100-point fours A > K > Q > 10" (queens over tens)."""
    assert resolve(FOURS_Q_OVER_10, first_player=1) == (0, 100)


def test_five_sequence_to_ace_beats_seven_sequence_to_king() -> None:
    """Brief: sequences of 5, 6 or 7 are all 100, so the higher top card decides: 10-A (top A)
    beats the seven cards 7-K (top K), length notwithstanding."""
    assert resolve(Z5, first_player=1) == (0, 100)


@pytest.mark.parametrize(
    ("tied_seats", "first_player", "team"),
    [
        ((0, 1), 1, 1),  # order 1 2 3 0: seat 1 (first player) before seat 0 (dealer)
        ((2, 3), 1, 0),  # seat 2 (dealer + 2) before seat 3 (dealer + 3)
        ((3, 0), 1, 1),  # seat 3 (dealer + 3) before seat 0 (dealer)
        ((1, 2), 1, 1),  # the first player before dealer + 2
        ((0, 1), 3, 0),  # order 3 0 1 2: seat 0 before seat 1
        ((1, 2), 3, 1),  # seat 1 before seat 2
        ((2, 3), 3, 1),  # seat 3 is the first player
    ],
)
def test_exact_tie_goes_to_first_in_playing_order(
    tied_seats: tuple[int, int], first_player: int, team: int
) -> None:
    """Brief: "then the player who comes first in playing order from the first player (first
    player, dealer+2, dealer+3, dealer)". Two equal 3-sequences to the king."""
    hands = ["", "", "", ""]
    free = [s for s in range(4) if s not in tied_seats]
    hands[free[0]], hands[free[1]] = TIE_C, TIE_D
    hands[tied_seats[0]], hands[tied_seats[1]] = TIE_A, TIE_B
    assert resolve(hands, first_player) == (team, 20)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_exact_tie_at_the_table_goes_to_the_first_player(dealer: int) -> None:
    """Brief: on an exact tie the first player (dealer + 1) comes first, whoever calls; here he
    and the dealer hold equal 3-sequences to the king."""
    hands = ["", "", "", ""]
    first = (dealer + 1) % 4
    hands[first], hands[dealer] = TIE_A, TIE_B
    hands[(dealer + 2) % 4], hands[(dealer + 3) % 4] = TIE_C, TIE_D
    rnd = call(new_round(dealer, hands), "- - - S")
    assert rnd.zvanja_team == first % 2
    expected = (20, 0) if first % 2 == 0 else (0, 20)
    assert rnd.zvanja_points == expected


def test_nobody_declares() -> None:
    """Brief: with no declaration at the table no team scores zvanja: ``(None, 0)``."""
    assert resolve(QUIET, first_player=1) == (None, 0)


def test_four_eights_are_no_declaration() -> None:
    """Brief: "Four 8s or four 7s score nothing": a table whose only four is of 8s has no
    zvanja."""
    assert resolve(FOUR_EIGHTS, first_player=1) == (None, 0)


def test_four_sevens_are_no_declaration() -> None:
    """Brief: "Four 8s or four 7s score nothing" (sevens)."""
    assert resolve(FOUR_SEVENS, first_player=2) == (None, 0)


def test_zvanja_are_counted_from_eight_cards_including_the_talon() -> None:
    """Brief: zvanja are "Determined from each player's 8 cards after the talon is taken up":
    seat 1's 7S 8S 9S 10S needs the talon cards 9S 10S. Nothing is declared before the call."""
    rnd = new_round(0, DEAL_Z1)
    assert rnd.zvanja_team is None
    called = call(rnd, "- - D")
    assert [z.points for z in called.declarations(1)] == [50]
    assert called.zvanja_team == 1
    assert called.zvanja_points == (0, 70)


def test_sequence_in_trump_counts_in_natural_order() -> None:
    """Brief: "Sequences use the natural order ... whatever the trump": with spades trump, 9S
    10S JS is still a 3-sequence (20) for seat 1's team."""
    rnd = call(new_round(0, DEAL_P), "S")  # seat 1 holds 9S 10S JS, nobody else declares
    assert rnd.zvanja_points == (0, 20)


def test_only_the_winning_teams_declarations_are_shown() -> None:
    """Brief: "Only the winning team's declarations are shown to the table": every seat sees
    seats 1 and 3's declarations and not seat 0's 3-sequence."""
    rnd = call(new_round(0, DEAL_Z1), "H")
    for seat in range(4):
        shown = dict(rnd.view(seat).shown_zvanja)
        assert set(shown) == {1, 3}
        assert [z.points for z in shown[1]] == [50]
        assert [z.points for z in shown[3]] == [20]


def test_played_round_writes_zvanja_for_the_winning_team_only() -> None:
    """Brief: "Each team's total = its card points ... + its recognised zvanja": after a played
    round of deal Z1 (clubs trump), team 1's 70 is in the result and team 0's 20 is not."""
    result = finish_first_legal(call(new_round(0, DEAL_Z1), "C")).result
    assert result is not None
    assert result.zvanja == (0, 70)
    assert result.stiglja is None  # no sweep, so nothing moves between teams
    assert result.totals == (result.card_points[0] + result.bela[0], result.card_points[1] + 70)


def test_played_round_writes_zvanja_for_team_0() -> None:
    """Brief: the four queens of seat 0 (the dealer, who also names trump) win the comparison
    for team 0: 100 in the result, and seat 1's five-card sequence counts for nobody."""
    result = finish_first_legal(call(new_round(0, Z2), "- - - S")).result
    assert result is not None
    assert result.caller == 0
    assert result.zvanja == (100, 0)
