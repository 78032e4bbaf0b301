"""The table talk: what each action means, as short lines for the log.

``action_lines(before, action, seat, after)`` compares the round before and after
one action and says what happened: a bid, the call and the talons taken up, the
zvanja that count, bela, who took a trick. ``round_lines`` replays a whole round
this way, so a resumed match shows the same log; ``history_lines`` does it for
every finished round of the match, each closed by its result (``result_line``).
"""

from __future__ import annotations

from rich.text import Text

from bela.engine import Action, Call, Claim, Match, Pass, Phase, Play, Round, RoundRecord
from bela.tui.text import HUMAN, SEAT_NAMES, TEAM_NAMES, card_text, team_of, zvanje_text

__all__ = [
    "action_lines",
    "claim_line",
    "forced_call",
    "history_lines",
    "result_line",
    "round_lines",
    "zvanja_lines",
]


def zvanja_lines(rnd: Round) -> list[str]:
    """Once trump is named: the human's own zvanja and the declarations that count."""
    view = rnd.view(HUMAN)
    lines: list[str] = []
    if view.own_zvanja:
        own = ", ".join(zvanje_text(z) for z in view.own_zvanja)
        counts = view.zvanja_team == team_of(HUMAN)
        lines.append(f"Your zvanja: {own}" + ("" if counts else " (vi's are better)"))
    if view.zvanja_team is not None:
        team = TEAM_NAMES[view.zvanja_team]
        points = rnd.zvanja_points[view.zvanja_team]
        lines.append(f"Zvanja for {team}: {points}")
        for seat, zvanja in view.shown_zvanja:
            shown = ", ".join(zvanje_text(z) for z in zvanja)
            lines.append(f"  {SEAT_NAMES[seat]}: {shown}")
    else:
        lines.append("No zvanja this round.")
    return lines


def action_lines(before: Round, action: Action, seat: int, after: Round) -> list[str]:
    """What one action did, for the log."""
    name = SEAT_NAMES[seat]
    if isinstance(action, Pass):
        lines = [f"{name}: dalje"]
        if after.result is not None and after.result.redeal:
            lines.append("All four passed: the cards are dealt again.")
        return lines
    if isinstance(action, Call):
        suit = f"{action.suit.symbol} {action.suit.noun}"
        if forced_call(before):
            # Croatian tables say the dealer left with the choice is "pod mus" (must call).
            verb = "name" if seat == HUMAN else "names"
            lines = [f"{name} (pod mus) {verb} {suit} as trump"]
        else:
            lines = [f"{name}: {suit} is trump"]
        result = after.result
        if result is not None and result.belot_seat is not None:
            lines.append(f"{SEAT_NAMES[result.belot_seat]} holds belot: the match is over!")
            return lines
        talon = " ".join(card_text(c) for c in after.talon(HUMAN))
        lines.append(f"Talons taken up. You get {talon}.")
        lines.extend(zvanja_lines(after))
        return lines
    if isinstance(action, Claim):
        return [claim_line(name, after)]
    assert isinstance(action, Play)
    lines = []
    if action.bela:
        lines.append(f"{name}: bela! (+20 for {TEAM_NAMES[team_of(seat)]})")
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        winner = SEAT_NAMES[trick.winner]
        takes = "take" if trick.winner == HUMAN else "takes"
        cards = " ".join(card_text(c) for c in trick.cards)
        lines.append(f"Trick {len(after.tricks)}: {winner} {takes} it, +{trick.points} ({cards})")
    return lines


def claim_line(name: str, after: Round) -> str:
    """``Ivo: dosta! The claim holds: vi have reached the target.`` (or that it was wrong)."""
    result = after.result
    if result is None or result.claim is None:  # pragma: no cover - a claim ends the round
        return f"{name}: dosta!"
    team = TEAM_NAMES[result.claim]
    if result.claim_ok:
        return f"{name}: dosta! The claim holds: {team} have reached the target."
    return f"{name}: dosta! The claim is wrong: {team} have not reached the target."


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
    head = f"Round {record.index + 1}: "
    totals = f"mi {scores[0]} : vi {scores[1]}"
    if result.redeal:
        return f"{head}everybody passed, nothing written — {totals}"
    if result.belot is not None:
        return f"{head}belot — {TEAM_NAMES[result.belot]} win the match"
    notes: list[str] = []
    if result.fell and result.caller is not None:
        notes.append(f"{TEAM_NAMES[team_of(result.caller)]} fell (pad)")
    if result.hanging:
        notes.append(f"{result.hanging} hang")
    if result.stiglja is not None:
        notes.append(f"štiglja {TEAM_NAMES[result.stiglja]}")
    note = f" ({', '.join(notes)})" if notes else ""
    written = record.written
    return f"{head}mi {written[0]}, vi {written[1]}{note} — {totals}"


def history_lines(match: Match) -> list[str | Text]:
    """The finished rounds of a match as the log told them: a heading, the talk, the result.

    Shown when a saved match is resumed, so the table talk goes back to its start.
    """
    lines: list[str | Text] = []
    scores = (0, 0)
    for record in match.rounds:
        lines.append(Text(f"— Round {record.index + 1} —", style="bold"))
        lines.extend(round_lines(match.deal(record.index), record.actions))
        scores = (scores[0] + record.written[0], scores[1] + record.written[1])
        lines.append(Text(result_line(record, scores), style="bold"))
    return lines


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
