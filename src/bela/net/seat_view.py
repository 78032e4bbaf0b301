"""The engine's ``SeatView`` rebuilt on the client from the ``ViewInfo`` the host sent.

A seat at a network table gets its hint from the same search the local table
uses (``bela.ai.hard.advise``), and that search reads a ``SeatView``. The host
never computes hints (a search costs up to half a second, and it serves many
tables), so the client rebuilds the view from its own frame: everything in it
is what ``Round.view(seat)`` held, written as text (``bela.net.views``), so
nothing is guessed and nothing hidden is needed. ``tests/net`` checks the round
trip field by field.
"""

from __future__ import annotations

from bela.archive.records import parse_action
from bela.engine import (
    Call,
    Card,
    CompletedTrick,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    Rank,
    Round,
    RoundRecord,
    RoundResult,
    Rules,
    SeatView,
    Suit,
    Zvanje,
)
from bela.engine.zvanja import ZvanjeKind
from bela.net.protocol import RoundEndInfo, ViewInfo, ZvanjeInfo

__all__ = ["played_round_of", "round_record_of", "rules_of", "seat_view_of", "zvanje_of"]


def rules_of(info: ViewInfo) -> Rules:
    """The table's house rules (``RulesInfo`` is ``Rules``' fields, validated)."""
    return Rules(**info.rules.model_dump())


def zvanje_of(info: ZvanjeInfo) -> Zvanje:
    """A declaration from its cards and points: the cards say its kind and top card.

    Four cards of one rank are a four; eight of one suit are belot; anything else is a
    sequence in one suit, topped by its highest rank (natural order, as the engine has it).
    """
    cards = tuple(Card.parse(c) for c in info.cards)
    if not cards:
        raise ValueError("a declaration has cards")
    ranks = {c.rank for c in cards}
    if len(cards) == 4 and len(ranks) == 1:
        return Zvanje(ZvanjeKind.FOUR, info.points, cards, cards[0].rank)
    if len(cards) == 8 and len({c.suit for c in cards}) == 1:
        return Zvanje(ZvanjeKind.BELOT, info.points, cards, Rank.ACE)
    return Zvanje(ZvanjeKind.SEQUENCE, info.points, cards, max(ranks))


def seat_view_of(info: ViewInfo, seat: int) -> SeatView:
    """``Round.view(seat)`` as it was when the host built ``info`` (``ValueError`` if the
    frame does not describe one: it is untrusted input like any other)."""
    return SeatView(
        seat=seat,
        dealer=info.dealer,
        rules=rules_of(info),
        phase=Phase(info.phase),
        hand=tuple(Card.parse(c) for c in info.hand),
        talon=tuple(Card.parse(c) for c in info.talon),
        bids=tuple((bidder, _bid(text)) for bidder, text in info.bids),
        trump=None if info.trump is None else Suit.parse(info.trump),
        caller=info.caller,
        own_zvanja=tuple(zvanje_of(z) for z in info.own_zvanja),
        shown_zvanja=tuple(
            (shower, tuple(zvanje_of(z) for z in zvanja)) for shower, zvanja in info.shown_zvanja
        ),
        zvanja_team=info.zvanja_team,
        tricks=tuple(
            CompletedTrick(t.leader, tuple(Card.parse(c) for c in t.cards), t.winner, t.points)
            for t in info.tricks
        ),
        trick_leader=info.trick_leader,
        trick=tuple(Card.parse(c) for c in info.trick),
        bela_announced=info.bela_announced,
        hand_sizes=info.hand_sizes,
        to_act=info.to_act,
        legal_actions=tuple(parse_action(text) for text in info.legal),
        claim_context=info.claim_context,
        match_context=info.match_context,
        silent=info.silent,
        may_stay_silent=info.may_stay_silent,  # as the engine allows it, said by the host
    )


def _bid(text: str) -> Pass | Call:
    action = parse_action(text)
    if not isinstance(action, Pass | Call):
        raise ValueError(f"a bid is dalje or a call, not {text[:16]!r}")
    return action


def round_record_of(info: RoundEndInfo, dealer: int) -> RoundRecord:
    """A finished round as the summary reads it: its result and what each team writes.

    The actions and the round's seed are not sent (they would show the cards a round
    stopped by dosta, or redealt, left unplayed): the record holds none.
    """
    result = RoundResult(
        points=info.points,
        card_points=info.card_points,
        zvanja=info.zvanja,
        bela=info.bela,
        tricks=info.tricks,
        totals=info.totals,
        caller=info.caller,
        trump=None if info.trump is None else Suit.parse(info.trump),
        fell=info.fell,
        tie=info.tie,
        hanging=info.hanging,
        stiglja=info.stiglja,
        belot=info.belot,
        belot_seat=info.belot_seat,
        redeal=info.redeal,
        claim=info.claim,
        claim_ok=info.claim_ok,
    )
    return RoundRecord(info.index, dealer, 0, (), result, info.written)


def played_round_of(info: ViewInfo, ended: RoundEndInfo) -> Round | None:
    """The finished round, replayed on the client for its post-mortem, or None.

    Once all eight tricks are played every card is public: each seat's eight are the
    cards it played. Which two of them were its talon is not (and stays unknown): the
    rebuilt deal splits them arbitrarily, which changes nothing from the first trick
    on, the only part the analysis looks at. Bids, cards and bela (taken where an
    announcing seat could announce it) are replayed through the engine, and the round
    is given only if it comes to the result the host sent; a round stopped by dosta,
    redealt or ended by belot left cards unplayed and gives None.
    """
    if info.phase != "finished" or len(info.tricks) != 8 or ended.claim is not None:
        return None
    try:
        held = [0, 0, 0, 0]
        plays: list[tuple[int, Card]] = []
        for trick in info.tricks:
            for i, text in enumerate(trick.cards):
                seat, card = (trick.leader + i) % 4, Card.parse(text)
                held[seat] |= 1 << int(card)
                plays.append((seat, card))
        hands = [0, 0, 0, 0]
        talons = [0, 0, 0, 0]
        for seat, mask in enumerate(held):
            cards = [c for c in range(32) if mask >> c & 1]
            if len(cards) != 8:
                return None
            hands[seat] = sum(1 << c for c in cards[:6])
            talons[seat] = sum(1 << c for c in cards[6:])
        rnd = Round(info.dealer, hands, talons, rules_of(info))
        for bidder, text in info.bids:
            rnd.push(_bid(text), bidder)
        announcing = set(info.bela_announced)
        for seat, card in plays:
            announce = Play(card, bela=True)
            if seat in announcing and announce in rnd.legal_actions():
                rnd.push(announce, seat)
            else:
                rnd.push(Play(card), seat)
    except (ValueError, IllegalActionError):
        return None
    result = rnd.result
    if result is None or round_record_of(ended, info.dealer).result != result:
        return None  # not the round the host played: no analysis rather than a wrong one
    return rnd
