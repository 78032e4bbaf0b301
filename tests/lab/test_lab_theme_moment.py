"""Which card moments the generator judges whatever their trick: ``theme_moment``.

Built on explicit deals (``Round.from_hands``) so that each moment holds one chance of a
rarer theme and nothing else, beside a moment of the same deal that holds none.
"""

from __future__ import annotations

from bela.engine import Pass, Round
from bela.engine.actions import parse_action
from bela.lab.puzzle_themes import theme_moment

# trump hearts; seat 3 deals, so seat 0 speaks and leads first. No zvanja anywhere.
VOID_DEAL = (
    "AS 10S 9S JH 8H AD 7D 8C",  # seat 0
    "KS 8S AH 10D 9D KC QC 9C",  # seat 1
    "7H 9H QD JD 8D AC 10C JC",  # seat 2: no spades
    "QS JS 7S 10H QH KH KD 7C",  # seat 3: bela (KH QH)
)
FOLLOW_DEAL = (  # the same, but seat 2 holds the 7S and seat 3 the AC
    "AS 10S 9S JH 8H AD 7D 8C",
    "KS 8S AH 10D 9D KC QC 9C",
    "7H 9H QD JD 8D 7S 10C JC",
    "QS JS AC 10H QH KH KD 7C",
)


def _round(eights: tuple[str, str, str, str], plays: str, caller: int = 1) -> Round:
    """Seat ``caller`` names hearts (the seats before it say dalje), then ``plays``."""
    hands = [h.split() for h in eights]
    rnd = Round.from_hands(3, [h[:6] for h in hands], [h[6:] for h in hands])
    for _ in range(caller):
        rnd.push(Pass())
    rnd.push(parse_action("call H"))
    for text in plays.split():
        rnd.push(parse_action(text))
    return rnd


def test_leading_with_a_suit_the_partner_has_shown_void_in_is_a_theme_moment() -> None:
    # seat 2 trumped the spade ace; seat 0 wins the diamonds and leads, holding 10S 9S
    void = _round(VOID_DEAL, "AS 8S 7H 7S QD KD AD 9D")
    assert void.to_act == 0 and not void.trick
    assert theme_moment(void)
    # the partner followed spades: the same lead, holding the same cards, is no chance
    follow = _round(FOLLOW_DEAL, "AS 8S 7S QS")
    assert follow.to_act == 0 and not follow.trick
    assert not theme_moment(follow)


def test_the_trump_king_or_queen_of_a_seat_holding_both_is_a_theme_moment() -> None:
    # trumps led; seat 3 cannot beat the jack and may play 10H, QH or KH
    assert theme_moment(_round(VOID_DEAL, "JH AH 7H"))
    # spades led and trumped: seat 3 must follow with any spade, nothing rarer in it
    assert not theme_moment(_round(VOID_DEAL, "AS 8S 7H"))


def test_a_moment_of_one_legal_card_or_of_the_bidding_is_never_one() -> None:
    assert not theme_moment(_round(VOID_DEAL, "AS 8S 7H 7S QD"))  # seat 3 must play KD
    rnd = Round.from_hands(
        3, [h.split()[:6] for h in VOID_DEAL], [h.split()[6:] for h in VOID_DEAL]
    )
    assert not theme_moment(rnd)
