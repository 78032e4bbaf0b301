"""Choosing the card to lead: a linear score over features of each candidate.

Leading is the freest choice in Bela (following is mostly forced by the
must-follow, must-beat and must-trump rules), and the one where the
single-trick value of ``heuristic.card_values`` sees least: it knows nothing
of drawing the opponents' trumps, of not leading away from an ace, or of
leading into a partner's void. So each legal lead is described by a handful
of features a player would weigh (is it a trump, the master trump, how many
trumps each side may still hold, is it a master ace, would an opponent ruff
it, could the partner ruff it, does it lead away from a master or leave a ten
bare, ...) and the lead with the highest weighted sum is played.

The weights were fitted (ridge regression, ``lead_training.py``) to the
double-dummy value of every legal lead in positions from thousands of played
deals, relative to the other leads of the same position, so they say how many
points a feature is worth on average given only what the leader can see.
"""

from __future__ import annotations

from typing import Final

from bela.ai.normal.judgement import Table, card_values, trick_chance
from bela.engine.cards import SUIT_MASK
from bela.engine.tricks import BEATS, CARD_POINTS

__all__ = ["LEAD_FEATURES", "LEAD_WEIGHTS", "choose_lead", "convention_bonus", "lead_features"]

LEAD_FEATURES: Final = (
    "value",  # the single-trick value from heuristic.card_values, / 10
    "p_win",  # our chance to take the trick
    "trump",
    "trump_master",
    "trump_second",  # one trump still out is higher
    "trump_low",
    "trump_x_mine",  # my trumps / 4
    "trump_x_opp",  # the opponents' expected trumps / 4
    "trump_x_we_called",
    "trump_x_partner_higher",  # chance the partner holds a higher trump
    "trump_x_early",
    "ace_master",
    "ten_master",
    "ten_not_master",
    "king",
    "queen",
    "jack",
    "low",  # a plain 7, 8 or 9
    "suit_length",  # my cards in the suit / 4
    "singleton_with_trumps",
    "suit_out",  # cards of the suit still out / 4
    "ruff_risk",  # chance an opponent is void and holds a trump
    "partner_ruff",  # chance the partner is void and holds a trump
    "under_master",  # a lower card of a suit whose master I hold
    "leaves_ten_bare",
    "partner_master",  # chance the partner holds the suit's master
    "plain_x_we_called",
    "ace_x_early",
    "points",  # / 10
    "master_x_opp_trumps",
    "trump_x_opp_none",  # a trump lead when no opponent can hold a trump
    "trump_x_opp_count",  # trumps the opponents may hold (cards, not expectation) / 4
    "trump_master_x_opp",
    "trump_low_x_opp",
    "master_x_opp_none",  # a plain master when no opponent can hold a trump: safe to cash
    "plain_x_my_trumps",
    "trump_x_partner_none",  # a trump lead when the partner can hold no trump
    "partner_led_suit",  # the partner has led this suit before
    "opponent_led_suit",  # an opponent has led this suit before
    "partner_discarded_suit",  # the partner threw a card of this suit on another suit's trick
)

# Fitted by lead_training.py to 10,639 positions; see docs/bots.md for the commands.
LEAD_WEIGHTS: Final[tuple[float, ...]] = (
    +3.575,  # value
    +0.923,  # p_win
    +1.398,  # trump
    +19.558,  # trump_master
    -12.116,  # trump_second
    -6.044,  # trump_low
    -4.117,  # trump_x_mine
    +1.384,  # trump_x_opp
    +1.686,  # trump_x_we_called
    +9.818,  # trump_x_partner_higher
    +4.310,  # trump_x_early
    -5.811,  # ace_master
    -0.398,  # ten_master
    -6.541,  # ten_not_master
    +0.855,  # king
    +2.682,  # queen
    +3.779,  # jack
    +4.035,  # low
    +1.853,  # suit_length
    -1.315,  # singleton_with_trumps
    -2.766,  # suit_out
    +1.784,  # ruff_risk
    +10.279,  # partner_ruff
    -19.052,  # under_master
    -0.650,  # leaves_ten_bare
    +8.670,  # partner_master
    -1.686,  # plain_x_we_called
    +11.602,  # ace_x_early
    +3.250,  # points
    -2.902,  # master_x_opp_trumps
    -11.320,  # trump_x_opp_none
    +0.209,  # trump_x_opp_count
    -4.412,  # trump_master_x_opp
    +2.897,  # trump_low_x_opp
    +14.864,  # master_x_opp_none
    +4.117,  # plain_x_my_trumps
    +2.855,  # trump_x_partner_none
    -3.278,  # partner_led_suit
    -0.088,  # opponent_led_suit
    +0.044,  # partner_discarded_suit
)


def lead_features(t: Table, legal: int) -> list[tuple[int, list[float]]]:
    """Each legal lead with its feature vector (in ``LEAD_FEATURES`` order)."""
    view, mem = t.view, t.mem
    trump, base, hand = t.trump, t.base, mem.hand
    trump_mask = SUIT_MASK[trump]
    opps = (t.seat ^ 1, t.seat ^ 3)
    my_trumps = (hand & trump_mask).bit_count()
    opp_trumps = sum(t.prob[o][c] for o in opps for c in range(trump * 8, trump * 8 + 8))
    we_called = 1.0 if view.caller is not None and (view.caller & 1) == t.team else 0.0
    early = max(0.0, 1.0 - len(view.tricks) / 6)
    later = [(t.seat + i) & 3 for i in (1, 2, 3)]
    opp_may = (mem.possible[opps[0]] | mem.possible[opps[1]]) & trump_mask
    opp_none = 0.0 if opp_may else 1.0
    opp_count = opp_may.bit_count() / 4
    partner_none = 0.0 if mem.possible[t.partner] & trump_mask else 1.0
    partner_led, opponent_led, partner_threw = _suit_history(t)
    out: list[tuple[int, list[float]]] = []
    for card, value in card_values(t, legal):
        f = [0.0] * len(LEAD_FEATURES)
        suit, rank = card >> 3, card & 7
        master = mem.is_master(card)
        f[0] = value / 10
        f[1] = trick_chance(t, later, suit, card, t.seat)
        f[28] = CARD_POINTS[base + card] / 10
        higher_out = BEATS[base + card] & SUIT_MASK[suit] & mem.unseen
        f[37] = 1.0 if partner_led >> suit & 1 else 0.0
        f[38] = 1.0 if opponent_led >> suit & 1 else 0.0
        f[39] = 1.0 if partner_threw >> suit & 1 else 0.0
        if suit == trump:
            f[2] = 1.0
            if master:
                f[3] = 1.0
            elif higher_out.bit_count() == 1:
                f[4] = 1.0
            else:
                f[5] = 1.0
            f[6] = my_trumps / 4
            f[7] = opp_trumps / 4
            f[8] = we_called
            f[9] = t.p_any(t.partner, higher_out) if higher_out else 0.0
            f[10] = early
            f[30] = opp_none
            f[31] = opp_count
            f[32] = f[3] * opp_trumps / 4
            f[33] = f[5] * opp_trumps / 4
            f[36] = partner_none
        else:
            mine = hand & SUIT_MASK[suit]
            if rank == 7:
                f[11] = 1.0
                f[27] = early
            elif rank == 3:
                f[12 if master else 13] = 1.0
            elif rank == 6:
                f[14] = 1.0
            elif rank == 5:
                f[15] = 1.0
            elif rank == 4:
                f[16] = 1.0
            else:
                f[17] = 1.0
            n_mine = mine.bit_count()
            f[18] = n_mine / 4
            f[19] = 1.0 if n_mine == 1 and my_trumps else 0.0
            f[20] = (mem.unseen & SUIT_MASK[suit]).bit_count() / 4
            f[21] = max(t.p_void(o, suit) * t.p_any(o, trump_mask & mem.possible[o]) for o in opps)
            f[22] = t.p_void(t.partner, suit) * t.p_any(
                t.partner, trump_mask & mem.possible[t.partner]
            )
            if not master:
                rest = mine & ~(1 << card)
                while rest:
                    low = rest & -rest
                    rest ^= low
                    if mem.is_master(low.bit_length() - 1):
                        f[23] = 1.0
                        break
                top_out = _highest(higher_out, trump)
                if top_out >= 0:
                    f[25] = t.prob[t.partner][top_out]
            ten = suit * 8 + 3
            if card != ten and mine >> ten & 1 and n_mine == 2 and not mem.is_master(ten):
                f[24] = 1.0
            f[26] = we_called
            if master:
                f[29] = opp_trumps / 4
                f[34] = opp_none
            f[35] = my_trumps / 4
        out.append((card, f))
    return out


def _suit_history(t: Table) -> tuple[int, int, int]:
    """Suits (bit per suit) the partner led, an opponent led, the partner discarded."""
    partner_led = opponent_led = partner_threw = 0
    for trick in t.view.tricks:
        led = trick.cards[0] >> 3
        if trick.leader == t.partner:
            partner_led |= 1 << led
        elif trick.leader != t.seat:
            opponent_led |= 1 << led
        for i in range(1, len(trick.cards)):
            suit = trick.cards[i] >> 3
            if trick.seat_of(i) == t.partner and suit != led and suit != t.trump:
                partner_threw |= 1 << suit
    return partner_led, opponent_led, partner_threw


def _highest(mask: int, trump: int) -> int:
    """The strongest card of ``mask`` (cards of one suit), or -1."""
    best = -1
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        if best < 0 or BEATS[trump * 32 + best] >> card & 1:
            best = card
    return best


def choose_lead(t: Table, legal: int, weights: tuple[float, ...] = LEAD_WEIGHTS) -> int:
    """The legal lead with the highest weighted feature sum (plus the style's conventions)."""
    best_card, best_score = -1, -1e9
    for card, f in lead_features(t, legal):
        score = 0.0
        for w, x in zip(weights, f, strict=True):
            score += w * x
        score += convention_bonus(t, card, f)
        if score > best_score:
            best_card, best_score = card, score
    return best_card


def convention_bonus(t: Table, card: int, f: list[float]) -> float:
    """What the table's conventions add to a lead's score (0 with the default style).

    *Podigravati*: lead back the suit the partner led (``lead_back``), and a
    trump when the partner named trump and may still hold one
    (``partner_trump``). Not trumps over and over: each trump our team led
    before costs a trump lead ``trump_again``. *Potkovana desetka*: a lead
    that leaves a ten bare under an ace still out costs ``ten_guard`` (with
    ``ten_guard_leads``). The fitted weights say what the double-dummy data
    thinks of the same features; docs/bots.md, "Conventions", says where the
    two disagree.
    """
    style = t.style
    bonus = 0.0
    if style.lead_back and f[37] and not f[2]:
        bonus += style.lead_back
    if style.partner_trump and f[2]:
        caller = t.view.caller
        if caller == t.partner and t.mem.possible[t.partner] & SUIT_MASK[t.trump]:
            bonus += style.partner_trump
    if style.ten_guard and style.ten_guard_leads and f[24]:
        bonus -= style.ten_guard
    if style.trump_again and f[2]:
        bonus -= style.trump_again * _team_trump_leads(t)
    return bonus


def _team_trump_leads(t: Table) -> int:
    """How many tricks our team has led with a trump this round."""
    return sum(
        1
        for trick in t.view.tricks
        if trick.leader & 1 == t.team and trick.cards[0] >> 3 == t.trump
    )
