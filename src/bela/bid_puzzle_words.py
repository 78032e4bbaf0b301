"""A bid puzzle's answer in words: right, also good or not, and why, from the guessed deals.

Built below the app and the command line (both show it: the F6 screen and ``bela
puzzles``). The numbers come from the puzzle's line (``bela.archive.bid_puzzles``):
each choice's average written points (our team's minus theirs) over the guessed deals
consistent with the bids so far, and on how many of them it wrote more than the answer,
as much, or less. One message per subject, plurals through ngettext.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bela.engine import Action, Call, Pass
from bela.i18n import _, ngettext
from bela.puzzle_words import action_name, signed

if TYPE_CHECKING:
    from bela.archive.puzzle_pack import Puzzle

__all__ = ["bid_place", "bid_reasons", "bid_verdict", "credit_text", "typical_hands"]


def bid_verdict(puzzle: Puzzle, action: Action) -> str:
    """Right, also good (half credit) or not, in one sentence that names the answer."""
    answer = action_name(puzzle.answer[0])
    credit = puzzle.credit(action)
    if credit >= 1.0:
        return _("Right: {answer}.").format(answer=answer)
    if credit > 0.0:
        return _("Also good: {mine} is within 5 written points of the best bid, {answer}.").format(
            mine=action_name(action), answer=answer
        )
    return _("Not this time: the answer is {answer}.").format(answer=answer)


def bid_place(puzzle: Puzzle) -> str:
    """Where the seat speaks in the bidding (the player after the dealer first, the dealer
    last and, if all said dalje, made to call)."""
    place = len(puzzle.actions)
    if place == 0:
        return _("You bid first.")
    if place == 1:
        return _("You bid second.")
    if place == 2:
        return _("You bid third.")
    return _("You bid last, as the dealer: everyone said dalje, so you must call (pod mus).")


def credit_text(credit: float) -> str:
    """The score the rating counted: a win, half a win, or a loss."""
    if credit >= 1.0:
        return _("Counted as a win for your rating.")
    if credit > 0.0:
        return _("Counted as half a win for your rating (partial credit).")
    return _("Counted as a loss for your rating.")


def _weighed(puzzle: Puzzle) -> int:
    """The index among the choices of the one a player weighs against the answer: dalje
    against a call, the best call against dalje, the next suit that is not also good pod mus."""
    answer = puzzle.choices[0].actions[0]
    if "pod-mus" in puzzle.themes:
        good = set(puzzle.bid.good) if puzzle.bid is not None else set()
        at = 1
        while at < len(puzzle.choices) - 1 and puzzle.choices[at].actions[0] in good:
            at += 1
        return at
    kind = Pass if isinstance(answer, Call) else Call
    return next(i for i, c in enumerate(puzzle.choices) if isinstance(c.actions[0], kind))


def _weighing(puzzle: Puzzle) -> str:
    """The choice a player weighs, settled: call against dalje, or the suit pod mus."""
    best = puzzle.choices[0]
    answer = best.actions[0]
    n = puzzle.deals
    facts = puzzle.bid
    assert facts is not None
    if "pod-mus" in puzzle.themes:
        alt_at = _weighed(puzzle)
        alt = puzzle.choices[alt_at]
        more, _equal, less = facts.versus[alt_at]
        return ngettext(
            "As dealer you must call (pod mus): {answer} writes more than {alt} on {less} of "
            "the {n} deal and less on {more}, {gap} written points more on average.",
            "As dealer you must call (pod mus): {answer} writes more than {alt} on {less} of "
            "the {n} deals and less on {more}, {gap} written points more on average.",
            n,
        ).format(
            answer=action_name(answer),
            alt=action_name(alt.actions[0]),
            less=less,
            more=more,
            n=n,
            gap=round(best.written - alt.written),
        )
    if isinstance(answer, Call):
        at = _weighed(puzzle)
        more, _equal, less = facts.versus[at]
        return ngettext(
            "Calling {answer} writes more than dalje on {less} of the {n} deal and less on "
            "{more}: {gap} written points more on average.",
            "Calling {answer} writes more than dalje on {less} of the {n} deals and less on "
            "{more}: {gap} written points more on average.",
            n,
        ).format(
            answer=action_name(answer),
            less=less,
            more=more,
            n=n,
            gap=round(best.written - puzzle.choices[at].written),
        )
    at = _weighed(puzzle)
    more, _equal, less = facts.versus[at]
    return ngettext(
        "Dalje writes more than the best call, {alt}, on {less} of the {n} deal and less on "
        "{more}: {gap} written points more on average.",
        "Dalje writes more than the best call, {alt}, on {less} of the {n} deals and less on "
        "{more}: {gap} written points more on average.",
        n,
    ).format(
        alt=action_name(puzzle.choices[at].actions[0]),
        less=less,
        more=more,
        n=n,
        gap=round(best.written - puzzle.choices[at].written),
    )


def bid_reasons(puzzle: Puzzle, action: Action) -> list[str]:
    """Why, in words: the choice weighed, each choice's average, the also-good bids, and
    how often the player's own bid wrote more than the answer."""
    n = puzzle.deals
    best = puzzle.choices[0]
    if puzzle.actions:
        judged = ngettext(
            "Judged on {n} guessed deal that fit the bids so far (a player who said dalje "
            "seldom holds a strong suit), each bid played on by the bots and the last tricks "
            "solved exactly.",
            "Judged on {n} guessed deals that fit the bids so far (a player who said dalje "
            "seldom holds a strong suit), each bid played on by the bots and the last tricks "
            "solved exactly.",
            n,
        )
    else:  # the first to speak: no dalje has been said to read anything into
        judged = ngettext(
            "Judged on {n} guessed deal that fit your cards (nobody has spoken yet), each bid "
            "played on by the bots and the last tricks solved exactly.",
            "Judged on {n} guessed deals that fit your cards (nobody has spoken yet), each bid "
            "played on by the bots and the last tricks solved exactly.",
            n,
        )
    lines = [judged.format(n=n)]
    if puzzle.bid is None:
        return lines
    lines.append(_weighing(puzzle))
    averages = _(", ").join(
        f"{action_name(c.actions[0])} {signed(c.written)}" for c in puzzle.choices
    )
    lines.append(
        _("Average written points, ours minus theirs: {averages}.").format(averages=averages)
    )
    for good in puzzle.bid.good:
        lines.append(
            _("{bid} is also good: within 5 written points of {answer} on average.").format(
                bid=action_name(good), answer=action_name(best.actions[0])
            )
        )
    mine = puzzle.choice_of(action)
    # the bid weighed is already told against the answer: said once
    if mine is not None and mine is not best and puzzle.choices.index(mine) != _weighed(puzzle):
        at = puzzle.choices.index(mine)
        more, _equal, less = puzzle.bid.versus[at]
        lines.append(
            ngettext(
                "Your {mine} writes more than {answer} on {more} of the {n} deal and less on "
                "{less}.",
                "Your {mine} writes more than {answer} on {more} of the {n} deals and less on "
                "{less}.",
                n,
            ).format(
                mine=action_name(action),
                answer=action_name(best.actions[0]),
                more=more,
                less=less,
                n=n,
            )
        )
    return lines


def typical_hands(puzzle: Puzzle) -> list[str]:
    """The typical guessed deal (where the answer's lead over the bid weighed is near its
    median), every seat's eight cards from the puzzle's seat round; none without one."""
    from bela.wording import card_text, seat_name

    typical = puzzle.typical
    if typical is None:
        return []
    lines = [_("A typical guessed deal (eight cards each, the talon taken up):")]
    for s in ((puzzle.seat + k) % 4 for k in range(4)):
        cards = sorted(typical.hands[s], key=lambda c: (int(c.suit), -int(c)))
        lines.append(f"  {seat_name(s)}: " + "  ".join(card_text(c) for c in cards))
    return lines
