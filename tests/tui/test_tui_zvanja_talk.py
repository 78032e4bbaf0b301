"""The zvanja exchange in words (issue #12), on deals built for each case.

Seat 3 deals, so the human (seat 0) speaks first, then Ivo (1), Marko (2), Ana (3).
Each deal gives the named seats exactly the declarations listed and nobody
anything else, so the words follow from the rules alone.
"""

from __future__ import annotations

import random

import pytest

from bela.engine import Call, Card, Round, Suit, find_zvanja
from bela.tui.zvanja_talk import height_words, settle_words, zvanja_talk


def deal(declared: dict[int, str], seed: int = 0) -> Round:
    """A round (trump clubs named by the dealer after three passes) where only ``declared`` declare.

    The other cards are dealt at random (seeded) until no seat holds anything more.
    """
    given = {seat: [Card.parse(c) for c in text.split()] for seat, text in declared.items()}
    used = {card for cards in given.values() for card in cards}
    rest = [Card(c) for c in range(32) if Card(c) not in used]
    rng = random.Random(seed)
    for _ in range(10_000):
        rng.shuffle(rest)
        hands: list[list[Card]] = []
        pool = iter(rest)
        for seat in range(4):
            cards = list(given.get(seat, []))
            while len(cards) < 8:
                cards.append(next(pool))
            hands.append(cards)
        found = [[str(z) for z in find_zvanja(h)] for h in hands]
        wanted = [[str(z) for z in find_zvanja(given.get(s, []))] for s in range(4)]
        if found == wanted:
            rnd = Round.from_hands(3, [h[:6] for h in hands], [h[6:] for h in hands])
            for _ in range(3):
                rnd = rnd.apply(rnd.legal_actions()[0])  # dalje
            return rnd.apply(Call(Suit.CLUBS))
    raise AssertionError("no such deal")


def words(rnd: Round) -> list[str]:
    return [said.line() for said in zvanja_talk(rnd).said]


def test_nobody_declares_everyone_says_nemam() -> None:
    talk = zvanja_talk(deal({}))
    assert [s.words for s in talk.said] == ["nemam"] * 4
    assert talk.team is None and not talk.laid and not talk.anyone


def test_a_higher_height_is_said_and_a_lower_one_is_not() -> None:
    rnd = deal({1: "7S 8S 9S 10S", 2: "9D 10D JD"})
    assert words(rnd) == [
        "You: nothing",
        "Ivo: 50",
        "Marko: says nothing",  # his 20 is lower: he stays silent
        "Ana: nothing",
    ]
    talk = zvanja_talk(rnd)
    assert talk.team == 1 and talk.points == 50
    assert [seat for seat, _ in talk.laid] == [1]  # Marko's losing 20 is not laid


def test_equal_heights_are_settled_by_the_top_card_and_the_weaker_stays_silent() -> None:
    rnd = deal({0: "9H 10H JH", 1: "QS KS AS"})
    assert words(rnd) == [
        "You: 20",
        "Ivo: 20",
        "Ivo: 20 to the ace",
        "Marko: nothing",
        "Ana: nothing",
    ]
    talk = zvanja_talk(rnd)
    assert talk.team == 1
    laid = {str(c) for _, zvanja in talk.laid for z in zvanja for c in z.cards}
    assert laid == {"QS", "KS", "AS"}  # the human's losing 9H 10H JH are not laid


def test_the_earlier_player_wins_an_exact_tie_and_says_its_card() -> None:
    rnd = deal({0: "9H 10H JH", 3: "9D 10D JD"})
    assert words(rnd)[-2:] == ["Ana: 20", "You: 20 to the jack"]
    assert zvanja_talk(rnd).team == 0


def test_a_four_beats_a_sequence_of_the_same_height() -> None:
    rnd = deal({1: "7D 8D 9D 10D JD", 2: "KH KD KS KC"})
    assert words(rnd)[1:] == [
        "Ivo: 100",
        "Marko: 100",
        "Marko: 100, four kings",
        "Ana: nothing",
    ]


def test_a_partner_with_a_lower_height_is_silent_but_laid_down() -> None:
    rnd = deal({0: "7S 8S 9S 10S", 2: "9D 10D JD"})
    assert words(rnd) == [
        "You: 50",
        "Ivo: nothing",
        "Marko: says nothing",
        "Ana: nothing",
    ]
    talk = zvanja_talk(rnd)
    assert talk.points == 70 and [seat for seat, _ in talk.laid] == [0, 2]


@pytest.mark.parametrize(
    ("points", "said"),
    [(20, "dvadeset"), (50, "pedeset"), (100, "sto"), (150, "sto pedeset"), (200, "dvjesto")],
)
def test_heights(points: int, said: str) -> None:
    hands = {20: "7H 8H 9H", 50: "7H 8H 9H 10H", 100: "AH AD AS AC", 150: "9H 9D 9S 9C"}
    zvanje = find_zvanja(hands.get(points, "JH JD JS JC"))[0]
    assert height_words(zvanje) == (said, str(points))


def test_settle_words_name_the_top_card() -> None:
    assert settle_words(find_zvanja("JC QC KC")[0]) == ("dvadeset do kralja", "20 to the king")
    assert settle_words(find_zvanja("10H 10D 10S 10C")[0])[0] == "sto, četiri desetke"


def test_before_the_call_nothing_is_said() -> None:
    talk = zvanja_talk(Round.from_seed(18, dealer=3))
    assert talk.said == () and talk.team is None
