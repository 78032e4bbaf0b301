"""Finding zvanja (declarations) in one player's eight cards: the brief's zvanja table."""

from __future__ import annotations

import pytest
from bela_scenarios import cards

from bela.engine import Zvanje, ZvanjeKind, find_zvanja

SEQ, FOUR, BELOT = ZvanjeKind.SEQUENCE, ZvanjeKind.FOUR, ZvanjeKind.BELOT


def found(hand: str) -> list[tuple[ZvanjeKind, int, set[str]]]:
    """The declarations as (kind, points, cards), sorted by points then cards for comparing."""
    out = [(z.kind, z.points, {str(c) for c in z.cards}) for z in find_zvanja(cards(hand))]
    return sorted(out, key=lambda item: (-item[1], sorted(item[2])))


def only(hand: str) -> Zvanje:
    (zvanje,) = find_zvanja(cards(hand))
    return zvanje


def test_sequence_of_three_is_20() -> None:
    """Brief: "sequence of 3 in one suit | 20"."""
    assert found("7H 8H 9H JD QS AC 7C 9D") == [(SEQ, 20, {"7H", "8H", "9H"})]


def test_sequence_of_four_is_50() -> None:
    """Brief: "sequence of 4 | 50"."""
    assert found("10S JS QS KS 7H 9D 8C AC") == [(SEQ, 50, {"10S", "JS", "QS", "KS"})]


def test_sequence_of_five_is_100() -> None:
    """Brief: "sequence of 5, 6 or 7 | 100" (five)."""
    assert found("7D 8D 9D 10D JD AH KS QC") == [(SEQ, 100, {"7D", "8D", "9D", "10D", "JD"})]


def test_sequence_of_six_is_100() -> None:
    """Brief: "sequence of 5, 6 or 7 | 100" (six)."""
    assert found("9C 10C JC QC KC AC 7H 7D") == [(SEQ, 100, {"9C", "10C", "JC", "QC", "KC", "AC"})]


def test_sequence_of_seven_is_100() -> None:
    """Brief: "sequence of 5, 6 or 7 | 100" (seven)."""
    zvanje = only("7S 8S 9S 10S JS QS KS AH")
    assert (zvanje.kind, zvanje.points, len(zvanje.cards)) == (SEQ, 100, 7)


def test_sequences_do_not_wrap_around() -> None:
    """Brief: sequences use "the natural order 7 8 9 10 J Q K A (no wrap-around)": K A 7 8 of
    one suit is two pairs, not a run."""
    assert found("KH AH 7H 8H 9S JD QD 10C") == []
    assert found("AD 7D 8D 10H QS KC 9S JC") == []


def test_sequences_use_natural_order_not_trump_order() -> None:
    """Brief: natural order "whatever the trump": 9 10 J runs although J and 9 rank top in
    trump; J 9 A (adjacent in trump order) is no run."""
    assert found("9H 10H JH 7S QD KC AD 8C") == [(SEQ, 20, {"9H", "10H", "JH"})]
    assert found("JH 9H AH 7S QD KC 10D 8C") == []


def test_maximal_run_counts_once_at_full_length() -> None:
    """Brief: "Each maximal run counts once at its full length": 7-J is one 5-sequence (100),
    not a 3-sequence plus a 4-sequence or any shorter pieces."""
    assert found("7H 8H 9H 10H JH 9S 10D QC") == [(SEQ, 100, {"7H", "8H", "9H", "10H", "JH"})]


def test_gap_splits_runs() -> None:
    """Brief: "a gap splits runs": 7 8 9 and J Q K with the 10 missing are two 3-sequences."""
    assert found("7H 8H 9H JH QH KH 7S 9D") == [
        (SEQ, 20, {"7H", "8H", "9H"}),
        (SEQ, 20, {"JH", "QH", "KH"}),
    ]


def test_sequences_in_two_suits_both_count() -> None:
    """Brief: each maximal run counts; runs in different suits are separate declarations."""
    assert found("7H 8H 9H 10H QS KS AS 9C") == [
        (SEQ, 50, {"7H", "8H", "9H", "10H"}),
        (SEQ, 20, {"QS", "KS", "AS"}),
    ]


def test_four_jacks_is_200() -> None:
    """Brief: "four jacks | 200"."""
    assert found("JH JD JS JC 7H 9S QD AC") == [(FOUR, 200, {"JH", "JD", "JS", "JC"})]


def test_four_nines_is_150() -> None:
    """Brief: "four nines | 150"."""
    assert found("9H 9D 9S 9C 7H JS QD AC") == [(FOUR, 150, {"9H", "9D", "9S", "9C"})]


@pytest.mark.parametrize("rank", ["A", "10", "K", "Q"])
def test_four_aces_tens_kings_or_queens_is_100(rank: str) -> None:
    """Brief: "four aces, tens, kings or queens | 100"."""
    four = {rank + s for s in "HDSC"}
    assert found(" ".join(sorted(four)) + " 7H 9D 7S 9C") == [(FOUR, 100, four)]


@pytest.mark.parametrize("rank", ["8", "7"])
def test_four_eights_or_sevens_score_nothing(rank: str) -> None:
    """Brief: "Four 8s or four 7s score nothing"."""
    others = "10H QD AS KC" if rank == "8" else "9H JD KS AC"
    assert found(" ".join(rank + s for s in "HDSC") + " " + others) == []


def test_card_counts_in_both_a_four_and_a_sequence() -> None:
    """Brief: "A card may count in both a four-of-a-kind and a sequence": JH is in the four
    jacks (200) and in 9H 10H JH (20)."""
    assert found("JH JD JS JC 9H 10H 7S AC") == [
        (FOUR, 200, {"JH", "JD", "JS", "JC"}),
        (SEQ, 20, {"9H", "10H", "JH"}),
    ]


def test_all_eight_cards_of_a_suit_is_belot() -> None:
    """Brief: "all 8 cards of one suit ("belot") | wins the whole match at once"."""
    kinds = [z.kind for z in find_zvanja(cards("7D 8D 9D 10D JD QD KD AD"))]
    assert BELOT in kinds


def test_no_declaration_in_a_plain_hand() -> None:
    """Brief: no run of 3 and no four (of J 9 A 10 K Q) is no declaration at all."""
    assert found("7H JH 8D QD 9S KS 10C AC") == []
