"""Which card moments the generator judges whatever their trick: ``theme_moment``.

Built on explicit deals (``Round.from_hands``) so that each moment holds one chance of a
rarer theme and nothing else, beside a moment of the same deal that holds none.
"""

from __future__ import annotations

from theme_deals import CLUB_DEAL, DRY_DEAL, FOLLOW_DEAL, LONG_CLUB_DEAL, TEN_DEAL, VOID_DEAL
from theme_deals import deal as _round

from bela.engine import Round
from bela.lab.puzzle_themes import theme_moment


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


def test_a_partner_out_of_trumps_too_gives_no_void_to_lead_into() -> None:
    # seat 2 discarded a club on the spade ace: it has no spades and no trumps either
    assert not theme_moment(_round(DRY_DEAL, "AS 8S 7C QS"))


def test_the_partners_winning_lead_over_two_cards_of_the_suit_is_a_theme_moment() -> None:
    assert theme_moment(_round(CLUB_DEAL, "AS 8S 7H 7S AC 7C"))  # KC 8C under the AC
    assert not theme_moment(_round(LONG_CLUB_DEAL, "AS 8S 7H 7S AC 8C"))  # four clubs


def test_a_card_only_the_unseen_ace_can_beat_and_two_trumps_of_the_callers() -> None:
    # the first lead, seat 0 (a defender) holding 10C with the AC and KC out
    assert theme_moment(_round(TEN_DEAL, ""))
    # the same lead without the ten (seat 0 holds 8C 7D): nothing rarer in it
    assert not theme_moment(_round(VOID_DEAL, ""))
