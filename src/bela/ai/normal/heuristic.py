"""The heuristic player (``normal``): hand evaluation for the call, judgement for play.

A decision, in order:

* bidding: ``bidding.choose_bid`` (hand evaluation against a threshold; the
  forced dealer names its best suit);
* one legal card: play it;
* the last two or three tricks: exact search over the deals the card memory
  allows (``endgame.py``);
* a lead, when our team named trump and the opponents may still hold trumps:
  the master trump if we hold it (draw trumps);
* any other lead: the fitted lead score (``leads.py``);
* following: the single-trick value of ``judgement.py``, *(2 · P(we take the
  trick) − 1) · what the trick is worth − what the card is worth kept*, from
  which come feeding aces and tens to a partner who surely wins, keeping them
  out of the opponents' tricks, winning with the cheapest card that holds;
* bela is always announced.

Every decision is a pure function of the view: the memory is rebuilt from it
each time and the endgame's sampling is seeded from it, so the RNG handed to
``act`` is not needed.
"""

from __future__ import annotations

from random import Random

from bela.ai.base import claim_action, play_action
from bela.ai.normal.bidding import BidModel, choose_bid
from bela.ai.normal.endgame import endgame_choice
from bela.ai.normal.judgement import PlayStyle, Table, bits, card_judgements, card_values
from bela.ai.normal.leads import choose_lead
from bela.engine import Action, Phase, Play, SeatView
from bela.engine.cards import SUIT_MASK
from bela.engine.tricks import CARD_POINTS, TRUMP_STRENGTH
from bela.search.memory import CardMemory

__all__ = ["HeuristicBot", "PlayStyle", "choose_card", "table_of"]


class HeuristicBot:
    """The default computer player (``normal``); ``easy`` is the same class with weaker knobs."""

    def __init__(
        self,
        name: str = "heuristic",
        bid_model: BidModel | None = None,
        style: PlayStyle | None = None,
    ) -> None:
        self.name = name
        self.bid_model = bid_model if bid_model is not None else BidModel()
        self.style = style if style is not None else PlayStyle()

    def act(self, view: SeatView, rng: Random) -> Action:
        if view.phase is Phase.BIDDING:
            return choose_bid(view, self.bid_model)
        claim = claim_action(view)
        if claim is not None:
            return claim
        return play_action(view, choose_card(view, self.style))


def choose_card(view: SeatView, style: PlayStyle, memory: CardMemory | None = None) -> int:
    """The card (an int) the heuristic plays from this view.

    A pure function of the view: where the exact endgame samples deals, its
    random choice is seeded from the view itself, so the same view always
    gives the same card (and both seatings of a duplicate deal mirror).
    ``memory`` replaces the deductions from the view; experiments use it to
    measure what more knowledge (say, the partner's hand) would be worth.
    """
    legal = 0
    for action in view.legal_actions:
        if isinstance(action, Play):
            legal |= 1 << action.card
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if memory is not None:
        mem = memory
    else:
        mem = CardMemory.from_view(view) if style.memory else _counting_memory(view)
    tricks_left = 8 - len(view.tricks)
    if tricks_left <= 2 and style.endgame_deals:
        card = endgame_choice(
            view,
            mem,
            legal,
            style.endgame_deals,
            _view_rng(view),
            style.endgame_sample,
            style.match_play,
        )
        if card is not None:
            return card
    elif tricks_left == 3 and style.endgame3_deals:
        card = endgame_choice(
            view,
            mem,
            legal,
            style.endgame3_deals,
            _view_rng(view),
            style.endgame3_sample,
            style.match_play,
        )
        if card is not None:
            return card
    table = _table(view, mem, style)
    if not view.trick:
        drawn = _draw_trump(table, legal)
        if drawn is not None:
            return drawn
        if style.learned_leads:
            if style.lead_weights is not None:
                return choose_lead(table, legal, style.lead_weights)
            return choose_lead(table, legal)
    best = _best_by_value(table, legal)
    loaded = _load(table, legal)
    if loaded is not None and (
        style.load_spare or CARD_POINTS[table.base + loaded] >= CARD_POINTS[table.base + best]
    ):
        return loaded
    return best


def _view_rng(view: SeatView) -> Random:
    """An RNG seeded by what the seat has seen (its hand and every card played, in order)."""
    seed = view.seat
    for card in (*view.hand, -1, *view.played):
        seed = (seed * 33 + card + 1) & 0xFFFFFFFFFFFF
    return Random(seed)


def table_of(view: SeatView, style: PlayStyle | None = None) -> Table:
    """The judgement table of a play-phase view (memory and card probabilities)."""
    style = style if style is not None else PlayStyle()
    mem = CardMemory.from_view(view) if style.memory else _counting_memory(view)
    return _table(view, mem, style)


def _table(view: SeatView, mem: CardMemory, style: PlayStyle) -> Table:
    if view.trump is None:
        raise ValueError("cards are judged once trump is named")
    trump = int(view.trump)
    table = Table(
        view, mem, style, trump, trump * 32, view.seat, view.seat & 1, (view.seat + 2) & 3
    )
    table.build()
    return table


def _counting_memory(view: SeatView) -> CardMemory:
    """A memory that knows only which cards are gone (no voids, no inferences)."""
    mem = CardMemory.from_view(view)
    seat = view.seat
    for s in range(4):
        if s != seat:
            mem.possible[s] = mem.unseen
            mem.known[s] = 0
    return mem


def _draw_trump(t: Table, legal: int) -> int | None:
    """Lead trumps while the opponents may still hold some, to make our side winners safe.

    The master trump is led when our team called (and, by style, when it did
    not); a low trump when holding many trumps.
    """
    view, mem, style = t.view, t.mem, t.style
    if not style.draw_trumps or view.caller is None:
        return None
    we_called = (view.caller & 1) == t.team
    trumps = legal & SUIT_MASK[t.trump]
    if not trumps:
        return None
    opp_trumps = (mem.possible[t.seat ^ 1] | mem.possible[t.seat ^ 3]) & SUIT_MASK[t.trump]
    if not opp_trumps:
        return None
    if style.draw_limit and _trump_leads(t) >= style.draw_limit:
        return None  # not over and over: the fitted leads judge the next trump lead
    ranked = sorted(bits(trumps), key=lambda c: TRUMP_STRENGTH[c & 7])
    top = ranked[-1]
    if mem.is_master(top) and (we_called or style.draw_as_defender):
        return top
    if (
        style.draw_low_min
        and len(ranked) >= style.draw_low_min
        and (we_called or style.draw_low_defender)
    ):
        return ranked[0]
    return None


def _trump_leads(t: Table) -> int:
    """How many tricks this seat has led with a trump this round."""
    return sum(
        1 for trick in t.view.tricks if trick.leader == t.seat and trick.cards[0] >> 3 == t.trump
    )


def _load(t: Table, legal: int) -> int | None:
    """*Upuniti*: the trick is likely ours and not by this card: add the most points.

    Only plain cards that do not take the trick themselves are loaded, the
    masters too by style (else only cards a higher one still out may catch
    later); among them the most points, the better single-trick value on a
    tie. The caller plays it when it carries at least the points of the card
    judgement picks, or with ``load_spare`` always: then the masters and
    trumps are spared for tricks of their own even if fewer points go on this one.
    None when the style does not load or the trick is not likely enough ours.
    """
    if not t.style.load_p or len(t.view.trick) < 1:
        return None
    best: tuple[float, float, int] | None = None
    for card, value, p, leads in card_judgements(t, legal):
        if leads or card >> 3 == t.trump or p < t.style.load_p:
            continue
        if not t.style.load_masters and t.mem.is_master(card):
            continue
        key = (CARD_POINTS[t.base + card], value, card)
        if best is None or key > best:
            best = key
    if best is None or best[0] == 0:
        return None
    return best[2]


def _best_by_value(t: Table, legal: int) -> int:
    """The legal card with the best (trick worth × our chance) less its worth kept."""
    best_card, best_value = -1, -1e9
    for card, value in card_values(t, legal):
        if value > best_value:
            best_card, best_value = card, value
    return best_card
