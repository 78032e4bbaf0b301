"""Hand-built deals and card sequences for the rule scenario tests.

Every deal here is written out card by card, and every number a test expects
is derived in the comments below from the brief's tables (card points, last
trick 10, zvanja values, bela 20), never read back from the engine. The plays
are fed to ``Round.apply``, which validates each card, so a sequence that
broke a rule would fail loudly instead of proving something false.

Notation: a hand is a string of eight cards, the first six dealt face up and
the last two the player's talon. In a play string a card ending in ``!`` is
played with a bela announcement; ``|`` separates tricks for the reader only.
Bela is announced with the first of the two cards (the default since rules
revision 2); the ``..._BELA_SECOND`` lines announce it with the second, for
``Rules(bela_on_second=True)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bela.engine import Call, Card, Match, Pass, Play, Round, Rules, Suit

# ------------------------------------------------------------------------------------------
# Small helpers.


def cards(text: str) -> list[Card]:
    """Cards from text such as ``"JH 9H AH"``."""
    return [Card.parse(token) for token in text.split()]


def full_deal(*hands: str) -> list[list[Card]]:
    """Four 8-card hands by seat, checked to use each of the 32 cards exactly once.

    The check guards the scenarios themselves: a mistyped deal fails here, not
    as a puzzling rules failure.
    """
    assert len(hands) == 4, "a deal has four hands"
    parsed = [cards(h) for h in hands]
    for seat, hand in enumerate(parsed):
        assert len(hand) == 8, f"seat {seat} holds {len(hand)} cards, not 8"
    every = [c for hand in parsed for c in hand]
    assert sorted(every) == list(range(32)), "the deal must use each of the 32 cards once"
    return parsed


def rotate(hands: Sequence[str], k: int) -> list[str]:
    """The same deal turned ``k`` seats on: seat s's cards go to seat s + k.

    With the dealer also moved by ``k`` the play is the same card for card, but
    the teams swap when ``k`` is odd.
    """
    return [hands[(seat - k) % 4] for seat in range(4)]


def new_round(dealer: int, hands: Sequence[str], rules: Rules | None = None) -> Round:
    """A round from four 8-card hand strings: six cards dealt, the last two the talon."""
    full = full_deal(*hands)
    return Round.from_hands(
        dealer,
        [hand[:6] for hand in full],
        [hand[6:] for hand in full],
        rules=rules if rules is not None else Rules(),
    )


def call(rnd: Round, bids: str) -> Round:
    """Apply bids in turn: ``"-"`` is a pass ("dalje"), a suit letter names trump."""
    for token in bids.split():
        rnd = rnd.apply(Pass() if token == "-" else Call(Suit.parse(token)), seat=rnd.to_act)
    return rnd


def play(rnd: Round, moves: str) -> Round:
    """Play cards in turn through the validated ``apply`` path (``KH!`` announces bela)."""
    for token in moves.replace("|", " ").split():
        bela = token.endswith("!")
        card = Card.parse(token.rstrip("!"))
        rnd = rnd.apply(Play(card, bela=bela), seat=rnd.to_act)
    return rnd


def finish_first_legal(rnd: Round) -> Round:
    """Play the round out taking the first legal action each time, announcing bela when allowed.

    Used where the rule under test does not depend on the cards played (which
    team's zvanja count, which team's bela counts).
    """
    while not rnd.is_finished:
        legal = rnd.legal_actions()
        with_bela = [a for a in legal if isinstance(a, Play) and a.bela]
        rnd = rnd.apply(with_bela[0] if with_bela else legal[0])
    return rnd


def match_around(
    rnd: Round,
    *,
    target: int = 1001,
    rules: Rules | None = None,
    scores: tuple[int, int] = (0, 0),
    hanging: int = 0,
) -> Match:
    """A match whose current round is the hand-built ``rnd``, with the given score so far.

    A match deals from its seed; swapping in a built round (same dealer) lets a
    test reach a known result, then the match rules decide what follows.
    """
    match = Match.new(1, target=target, rules=rules or Rules(), first_dealer=rnd.dealer)
    return dataclasses.replace(match, current=rnd, scores=scores, hanging=hanging)


def play_match(match: Match, bids: str, moves: str) -> Match:
    """Bids then cards in the match's current round, each applied to the match."""
    for token in bids.split():
        match = match.apply(Pass() if token == "-" else Call(Suit.parse(token)))
    for token in moves.replace("|", " ").split():
        match = match.apply(Play(Card.parse(token.rstrip("!")), bela=token.endswith("!")))
    return match


# ------------------------------------------------------------------------------------------
# Deal T: the "tie" deal. Dealer 0, so seat 1 is the first player; seat 1 names hearts, so
# the callers are team 1 (seats 1 and 3) and the defenders team 0 (seats 0 and 2). Every seat
# holds exactly two cards of each suit, so every trick is followed in the suit led.
# Nobody has a declaration: no seat holds three of a suit, and no seat holds a rank in all
# four suits. Seat 3 holds trump KH and QH (bela); seat 2 holds KS QS and KC QC (not trump).

DEAL_T = (
    "AH 10H 8D QD AS 10S AC 10C",  # seat 0 (dealer)
    "JH 9H 10D 7D 9S JS 9C JC",  # seat 1 (first player, calls hearts)
    "8H 7H AD JD KS QS KC QC",  # seat 2
    "KH QH 9D KD 7S 8S 7C 8C",  # seat 3
)

# Line A (tricks in order, leader first; points from the brief's table, trump hearts):
#  1. s1 JH  s2 7H  s3 QH  s0 10H   -> s1 (JH is the top trump)   20 + 0 + 3 + 10 = 33
#  2. s1 9H  s2 8H  s3 KH  s0 AH    -> s1 (9 beats A in trump)    14 + 0 + 4 + 11 = 29
#     (QH in trick 1 is seat 3's first bela card, KH here the second: the bela line
#     announces with QH, the ..._SECOND line, for the old rule, with KH)
#  3. s1 10D s2 AD  s3 9D  s0 8D    -> s2 (s2 must overtake: AD)   10 + 11 + 0 + 0 = 21
#  4. s2 JD  s3 KD  s0 QD  s1 7D    -> s3 (s3 must overtake: KD)    2 + 4 + 3 + 0 =  9
#  5. s3 7S  s0 10S s1 9S  s2 QS    -> s0                           0 + 10 + 0 + 3 = 13
#  6. s0 AS  s1 JS  s2 KS  s3 8S    -> s0                          11 + 2 + 4 + 0 = 17
#  7. s0 AC  s1 9C  s2 QC  s3 7C    -> s0                          11 + 0 + 3 + 0 = 14
#  8. s0 10C s1 JC  s2 KC  s3 8C    -> s0, last trick          10 + 2 + 4 + 0 + 10 = 26
# Callers (team 1): 33 + 29 + 9 = 71. Defenders (team 0): 21 + 13 + 17 + 14 + 26 = 91.
# 71 + 91 = 162.
PLAY_T_A = (
    "JH 7H QH 10H | 9H 8H KH AH | 10D AD 9D 8D | JD KD QD 7D | "
    "7S 10S 9S QS | AS JS KS 8S | AC 9C QC 7C | 10C JC KC 8C"
)
PLAY_T_A_BELA = PLAY_T_A.replace("QH", "QH!")
PLAY_T_A_BELA_SECOND = PLAY_T_A.replace("KH", "KH!")
T_A_CALLERS_CARDS = 33 + 29 + 9  # 71
T_A_DEFENDERS_CARDS = 21 + 13 + 17 + 14 + 26  # 91
T_A_LAST_TRICK = 10 + 2 + 4 + 0 + 10  # 26

# Line B differs from trick 3 on: seat 1 leads 7D instead of 10D.
#  3. s1 7D  s2 AD  s3 9D  s0 8D    -> s2                           0 + 11 + 0 + 0 = 11
#  4. s2 JD  s3 KD  s0 QD  s1 10D   -> s1 (10D must overtake KD)    2 + 4 + 3 + 10 = 19
#  5. s1 9S  s2 QS  s3 7S  s0 10S   -> s0                           0 + 3 + 0 + 10 = 13
#  6. s0 AS  s1 JS  s2 KS  s3 8S    -> s0                          11 + 2 + 4 + 0 = 17
#  7. s0 AC  s1 9C  s2 QC  s3 7C    -> s0                          11 + 0 + 3 + 0 = 14
#  8. s0 10C s1 JC  s2 KC  s3 8C    -> s0, last trick          10 + 2 + 4 + 0 + 10 = 26
# Callers: 33 + 29 + 19 = 81. Defenders: 11 + 13 + 17 + 14 + 26 = 81. An exact card tie.
PLAY_T_B = (
    "JH 7H QH 10H | 9H 8H KH AH | 7D AD 9D 8D | JD KD QD 10D | "
    "9S QS 7S 10S | AS JS KS 8S | AC 9C QC 7C | 10C JC KC 8C"
)
PLAY_T_B_BELA = PLAY_T_B.replace("QH", "QH!")
PLAY_T_B_BELA_SECOND = PLAY_T_B.replace("KH", "KH!")
T_B_CALLERS_CARDS = 33 + 29 + 19  # 81
T_B_DEFENDERS_CARDS = 11 + 13 + 17 + 14 + 26  # 81

# ------------------------------------------------------------------------------------------
# Deal P: deal T with 10S (seat 0) and 9C (seat 1) swapped, which gives seat 1 (a caller) the
# sequence 9S 10S JS: 20 points of zvanja, the only declaration at the table.

DEAL_P = (
    "AH 10H 8D QD AS 9C AC 10C",  # seat 0 (dealer)
    "JH 9H 10D 7D 9S 10S JS JC",  # seat 1 (first player, calls hearts): 9S 10S JS = 20
    "8H 7H AD JD KS QS KC QC",  # seat 2
    "KH QH 9D KD 7S 8S 7C 8C",  # seat 3
)

# Tricks 1-4 as line A of deal T (callers 33 + 29 + 9 = 71, defenders 21 so far), then:
#  5. s3 7S  s0 AS  s1 9S  s2 QS    -> s0 (AS is seat 0's only spade)   0 + 11 + 0 + 3 = 14
#  6. s0 AC  s1 JC  s2 QC  s3 7C    -> s0                              11 + 2 + 3 + 0 = 16
#  7. s0 10C s1 10S s2 KC  s3 8C    -> s0 (seat 1 has no club, no trump) 10 + 10 + 4 + 0 = 24
#  8. s0 9C  s1 JS  s2 KS  s3 8S    -> s0, last trick               0 + 2 + 4 + 0 + 10 = 16
# Callers 71 card points, defenders 21 + 14 + 16 + 24 + 16 = 91.
PLAY_P = (
    "JH 7H QH 10H | 9H 8H KH AH | 10D AD 9D 8D | JD KD QD 7D | "
    "7S AS 9S QS | AC JC QC 7C | 10C 10S KC 8C | 9C JS KS 8S"
)
PLAY_P_BELA = PLAY_P.replace("QH", "QH!")
P_CALLERS_CARDS = 33 + 29 + 9  # 71
P_DEFENDERS_CARDS = 21 + 14 + 16 + 24 + 16  # 91
P_CALLERS_ZVANJA = 20

# ------------------------------------------------------------------------------------------
# Deal S: a sweep. Dealer 0; seat 1 leads every trick and wins all eight.
# Declarations: seat 1 has 9H 10H JH (20); seat 2 has 7S 8S 9S 10S (50), the best, so team 0
# (seats 0 and 2) holds the zvanja: 50 (seat 0 declares nothing). Seat 0 holds trump KH QH.

DEAL_S = (
    "KH QH 8D QD QS KS 8C 10C",  # seat 0 (dealer): bela in hearts
    "JH 9H AH 10H AD AS KD 10D",  # seat 1 (first player): 9H 10H JH = 20
    "8H 7S 8S 9S 10S JD QC AC",  # seat 2: 7S 8S 9S 10S = 50
    "7H 7D 9D JS 7C 9C JC KC",  # seat 3
)

#  1. s1 JH  s2 8H  s3 7H  s0 QH    20 + 0 + 0 + 3 = 23
#  2. s1 9H  s2 QC  s3 7C  s0 KH    14 + 3 + 0 + 4 = 21   (seat 0 announced bela with QH)
#  3. s1 AH  s2 AC  s3 9C  s0 8C    11 + 11 + 0 + 0 = 22
#  4. s1 10H s2 7S  s3 JC  s0 10C   10 + 0 + 2 + 10 = 22
#  5. s1 AD  s2 JD  s3 7D  s0 8D    11 + 2 + 0 + 0 = 13
#  6. s1 KD  s2 8S  s3 9D  s0 QD     4 + 0 + 0 + 3 = 7
#  7. s1 10D s2 9S  s3 KC  s0 QS    10 + 0 + 4 + 3 = 17
#  8. s1 AS  s2 10S s3 JS  s0 KS    11 + 10 + 2 + 4 + 10 (last trick) = 37
# Seat 1's team takes every trick: 23 + 21 + 22 + 22 + 13 + 7 + 17 + 37 = 162.
PLAY_S = (
    "JH 8H 7H QH! | 9H QC 7C KH | AH AC 9C 8C | 10H 7S JC 10C | "
    "AD JD 7D 8D | KD 8S 9D QD | 10D 9S KC QS | AS 10S JS KS"
)
S_SWEPT_ZVANJA = 50
S_SWEPT_BELA = 20
S_SWEEPER_TOTAL = 162 + 90 + S_SWEPT_ZVANJA + S_SWEPT_BELA  # 322

# ------------------------------------------------------------------------------------------
# Deal W: the brief's worked example. Trump hearts, dealer 0. The sheet's players 3, 1, 2, 4
# in playing order are seats 1, 2, 3, 0 here, so the sheet's pairs 1 + 4 and 2 + 3 are seats
# 2 + 0 (team 0) and 3 + 1 (team 1), partners opposite as at the table. Seats 2 and 0 hold no
# diamonds.

DEAL_W = (
    "QH JH 10H AH KH 8H AC KC",  # seat 0 = sheet player 4: no diamonds
    "AD 10D KD 7S 8S 9S 7C 8C",  # seat 1 = sheet player 3 (leads AD)
    "7H 9H AS 10S KS QS 9C 10C",  # seat 2 = sheet player 1: no diamonds, trumps 7H 9H
    "8D 9D JD QD 7D JS JC QC",  # seat 3 = sheet player 2
)
# Trick 1: s1 AD, s2 7H (must trump), s3 8D (must follow), s0 QH (must overtrump):
# seat 0 wins 11 + 0 + 0 + 3 = 14.
PLAY_W_FIRST_TRICK = "AD 7H 8D QH"

# ------------------------------------------------------------------------------------------
# Deal Z1: zvanja on both teams. Seat 1 has 7S-10S (50, the best), seat 3 has 7C 8C 9C (20),
# seat 0 has QD KD AD (20). Team 1 scores 50 + 20 = 70; team 0 none. Seat 0 also holds QD KD,
# bela when diamonds are trump.
DEAL_Z1 = (
    "QD KD AD 8D 7H 9H JS 10C",  # seat 0: QD KD AD = 20
    "8H 10H 7D JC 7S 8S 9S 10S",  # seat 1: 7S 8S 9S 10S = 50 (9S 10S are the talon)
    "QH AH 10D JD KS AS QC KC",  # seat 2: none
    "7C 8C 9C AC JH KH 9D QS",  # seat 3: 7C 8C 9C = 20
)

# ------------------------------------------------------------------------------------------
# Deal B: belot. Seat 2 holds all eight clubs once the talon (KC AC) is taken up.

DEAL_BELOT = (
    "7H 8H 9H 10H 7S 8S 7D 8D",  # seat 0
    "JH QH KH AH 9S 10S 9D 10D",  # seat 1
    "7C 8C 9C 10C JC QC KC AC",  # seat 2: six clubs dealt, KC AC in the talon
    "JD QD KD AD JS QS KS AS",  # seat 3
)
