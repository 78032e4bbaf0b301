"""The table talk: what each action means, one sentence a line.

The app's log (``bela.tui``) and the plain mode (``bela play --plain``, ``bela.cli.plain``)
say the same lines, so they live below both.

``action_lines(before, action, seat, after)`` compares the round before and after
one action and says what happened: a bid, the call and the talons taken up, the
zvanja that count, bela, who took a trick. ``round_lines`` replays a whole round
this way, so a resumed match shows the same log; ``bela.tui.events.history_lines``
does it for every finished round of the match, each closed by its result (``result_line``).
"""

from __future__ import annotations

from bela.engine import (
    Action,
    Call,
    Claim,
    Pass,
    Phase,
    Play,
    Round,
    RoundRecord,
    Silent,
)
from bela.i18n import _, ngettext
from bela.table_text import SEAT_NAMES, card_text, team_of, zvanje_text
from bela.wording import is_you, ours, suit_called, suit_name, suit_symbol, you

__all__ = [
    "action_lines",
    "claim_line",
    "forced_call",
    "result_line",
    "round_lines",
    "zvanja_lines",
]


def zvanja_lines(rnd: Round) -> list[str]:
    """Once trump is named: the human's own zvanja and the declarations that count."""
    view = rnd.view(you())  # the reader's seat: 0, or theirs at a network table or puzzle
    lines: list[str] = []
    if view.own_zvanja:
        own = ", ".join(zvanje_text(z) for z in view.own_zvanja)
        counts = view.zvanja_team == team_of(you())
        if counts:
            lines.append(_("Your zvanja: {own}").format(own=own))
        else:
            lines.append(_("Your zvanja: {own} (theirs are better)").format(own=own))
    if view.zvanja_team is not None:
        points = rnd.zvanja_points[view.zvanja_team]
        if ours(view.zvanja_team):
            lines.append(_("Our zvanja count: {points}").format(points=points))
        else:
            lines.append(_("Their zvanja count: {points}").format(points=points))
        for seat, zvanja in view.shown_zvanja:
            shown = ", ".join(zvanje_text(z) for z in zvanja)
            lines.append(f"  {SEAT_NAMES[seat]}: {shown}")
    else:
        lines.append(_("No zvanja this round."))
    return lines


def silent_line(seat: int, after: Round) -> str:
    """The log's line for a "šutim": the seat says it as at a table ("Lucija: šutim", "Ivo:
    šutim"), then which zvanja count now, if any (nothing more when none is left: there
    is nothing to say, issue #35)."""
    said = _("{name}: šutim (zvanja kept back, they do not count).").format(name=SEAT_NAMES[seat])
    team = after.zvanja_team
    if team is None:
        return said
    points = after.zvanja_points[team]
    if ours(team):
        return said + " " + _("Zvanja for us: {points}.").format(points=points)
    return said + " " + _("Zvanja for them: {points}.").format(points=points)


def action_lines(
    before: Round, action: Action, seat: int, after: Round, zvanja: bool = True
) -> list[str]:
    """What one action did, for the log.

    ``zvanja``: at the call, say the zvanja that count (False while the player is
    still to be asked whether to declare: the table says them after the answer)."""
    name = SEAT_NAMES[seat]
    if isinstance(action, Pass):
        lines = [_("{name}: dalje").format(name=name)]
        if after.result is not None and after.result.redeal:
            lines.append(_("All four passed: the cards are dealt again."))
        return lines
    if isinstance(action, Call):
        suit = f"{suit_symbol(action.suit)} {suit_name(action.suit)}"
        if forced_call(before):
            # Croatian tables say the dealer left with the choice is "pod mus" (must call).
            suit = f"{suit_symbol(action.suit)} {suit_called(action.suit)}"  # what is named
            if is_you(seat):
                lines = [_("Pod mus, you name {suit} as trump").format(suit=suit)]
            else:
                lines = [_("{name} (pod mus) names {suit} as trump").format(name=name, suit=suit)]
        else:
            lines = [_("{name}: {suit} is trump").format(name=name, suit=suit)]
        result = after.result
        if result is not None and result.belot_seat is not None:
            if is_you(result.belot_seat):
                lines.append(_("You hold belot: the match is over!"))
            else:
                lines.append(
                    _("{name} holds belot: the match is over!").format(
                        name=SEAT_NAMES[result.belot_seat]
                    )
                )
            return lines
        talon = " ".join(card_text(c) for c in after.talon(you()))
        lines.append(_("Talons taken up. You get {talon}.").format(talon=talon))
        if zvanja:
            lines.extend(zvanja_lines(after))
        return lines
    if isinstance(action, Claim):
        return [claim_line(name, after)]
    if isinstance(action, Silent):
        return [silent_line(seat, after)]
    assert isinstance(action, Play)
    lines = []
    if action.bela:
        if ours(team_of(seat)):
            lines.append(_("{name}: bela! (+20 for us)").format(name=name))
        else:
            lines.append(_("{name}: bela! (+20 for them)").format(name=name))
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        winner = SEAT_NAMES[trick.winner]
        cards = " ".join(card_text(c) for c in trick.cards)
        values = {"n": len(after.tricks), "name": winner, "points": trick.points, "cards": cards}
        if is_you(trick.winner):
            lines.append(_("Trick {n}: you take it, +{points} ({cards})").format(**values))
        else:
            lines.append(_("Trick {n}: {name} takes it, +{points} ({cards})").format(**values))
    return lines


def claim_line(name: str, after: Round) -> str:
    """``Ivo: dosta! The claim holds: vi have reached the target.`` (or that it was wrong)."""
    result = after.result
    if result is None or result.claim is None:  # pragma: no cover - a claim ends the round
        return _("{name}: dosta!").format(name=name)
    if result.claim_ok:
        if ours(result.claim):
            return _("{name}: dosta! The claim holds: we have reached the target.").format(
                name=name
            )
        return _("{name}: dosta! The claim holds: they have reached the target.").format(name=name)
    if ours(result.claim):
        return _("{name}: dosta! The claim is wrong: we have not reached the target.").format(
            name=name
        )
    return _("{name}: dosta! The claim is wrong: they have not reached the target.").format(
        name=name
    )


def forced_call(rnd: Round) -> bool:
    """Whether the seat to speak must name trump ("pod mus"): everybody else said dalje."""
    return (
        rnd.phase is Phase.BIDDING
        and rnd.to_act is not None
        and not any(isinstance(a, Pass) for a in rnd.legal_actions())
    )


def result_line(record: RoundRecord, scores: tuple[int, int]) -> str:
    """A round's result for the log: ``Round 3: mi 102, vi 60 — mi 412 : vi 288``.

    ``scores`` are the match totals after the round.
    """
    result = record.result
    n = record.index + 1
    totals = _("mi {mi} : vi {vi}").format(mi=scores[0], vi=scores[1])
    if result.redeal:
        return _("Round {n}: everybody passed, nothing written — {totals}").format(
            n=n, totals=totals
        )
    if result.belot is not None:
        if ours(result.belot):
            return _("Round {n}: belot — we win the match").format(n=n)
        return _("Round {n}: belot — they win the match").format(n=n)
    notes: list[str] = []
    if result.fell and result.caller is not None and not result.hanging:  # visi hangs
        notes.append(_("we fell (pad)") if ours(team_of(result.caller)) else _("they fell (pad)"))
    if result.hanging:
        notes.append(
            ngettext("{points} point hangs", "{points} points hang", result.hanging).format(
                points=result.hanging
            )
        )
    if result.stiglja is not None:
        notes.append(_("štiglja for us") if ours(result.stiglja) else _("štiglja for them"))
    note = f" ({', '.join(notes)})" if notes else ""
    written = record.written
    return _("Round {n}: mi {mi}, vi {vi}{note} — {totals}").format(
        n=n, mi=written[0], vi=written[1], note=note, totals=totals
    )


def round_lines(start: Round, actions: tuple[Action, ...]) -> list[str]:
    """The whole log of a round replayed from its deal."""
    lines: list[str] = []
    rnd = start
    for action in actions:
        seat = rnd.to_act
        assert seat is not None
        after = rnd.apply(action)
        lines.extend(action_lines(rnd, action, seat, after))
        rnd = after
    return lines
