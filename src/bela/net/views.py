"""What one seat is sent: built from ``Round.view(seat)`` and the public score sheet, nothing else.

This is the only place the server turns game state into a message for a seat,
so the guarantee "no other hand, no talon, nothing the rules keep hidden" rests
on the engine's ``SeatView`` (which holds only the seat's own cards) and on this
module never reading a ``Round`` directly. The match seed, which would deal
every hand, is left out too; the record (which holds it) goes out only in
``Over``, once the match has ended.

Messages are plain dicts matching ``bela.net.protocol.State`` (built by hand:
at 200 tables the server sends thousands a second; tests validate them).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from bela.engine import Card, Match, Round, RoundRecord, SeatView, Zvanje
from bela.wording import sheet_mark_codes

if TYPE_CHECKING:
    from bela.net.phrases import Phrase

__all__ = ["round_end", "round_note", "state_frames", "state_message", "view_info"]

_CARD: Final = tuple(str(Card(c)) for c in range(32))
"""Each card's text by index: the views are built thousands of times a second."""


def _zvanje(z: Zvanje) -> dict[str, Any]:
    return {"text": str(z), "points": z.points, "cards": [str(c) for c in z.cards]}


def view_info(view: SeatView, can_claim: bool) -> dict[str, Any]:
    """``SeatView`` as the protocol's ``ViewInfo``."""
    return {
        "dealer": view.dealer,
        "phase": view.phase.value,
        "hand": [_CARD[c] for c in view.hand],
        "talon": [_CARD[c] for c in view.talon],
        "bids": [[seat, str(bid)] for seat, bid in view.bids],
        "trump": None if view.trump is None else str(view.trump),
        "caller": view.caller,
        "own_zvanja": [_zvanje(z) for z in view.own_zvanja],
        "shown_zvanja": [[seat, [_zvanje(z) for z in zs]] for seat, zs in view.shown_zvanja],
        "zvanja_team": view.zvanja_team,
        "tricks": [
            {
                "leader": t.leader,
                "cards": [_CARD[c] for c in t.cards],
                "winner": t.winner,
                "points": t.points,
            }
            for t in view.tricks
        ],
        "trick_leader": view.trick_leader,
        "trick": [_CARD[c] for c in view.trick],
        "bela_announced": list(view.bela_announced),
        "hand_sizes": list(view.hand_sizes),
        "to_act": view.to_act,
        "legal": [str(a) for a in view.legal_actions],
        "can_claim": can_claim,
        "clockwise": view.rules.clockwise,
        "rules": view.rules.changed(),
        "match_context": None if view.match_context is None else list(view.match_context),
        "claim_context": None if view.claim_context is None else list(view.claim_context),
        "silent": list(view.silent),
        "may_stay_silent": view.may_stay_silent,
    }


def round_end(record: RoundRecord) -> dict[str, Any]:
    """The protocol's ``RoundEndInfo``: a finished round's result, numbers only."""
    r = record.result
    return {
        "index": record.index,
        "written": list(record.written),
        "points": list(r.points),
        "card_points": list(r.card_points),
        "zvanja": list(r.zvanja),
        "bela": list(r.bela),
        "tricks": list(r.tricks),
        "totals": list(r.totals),
        "caller": r.caller,
        "trump": None if r.trump is None else str(r.trump),
        "fell": r.fell,
        "tie": r.tie,
        "hanging": r.hanging,
        "stiglja": r.stiglja,
        "belot": r.belot,
        "belot_seat": r.belot_seat,
        "redeal": r.redeal,
        "claim": r.claim,
        "claim_ok": r.claim_ok,
    }


def _ended(match: Match, shown: Round) -> dict[str, Any] | None:
    """The result of ``shown`` once it has ended (it is then the match's last round)."""
    if shown.result is None or shown is match.current or not match.rounds:
        return None
    return round_end(match.rounds[-1])


def round_note(record: RoundRecord, names: Sequence[str] | None = None) -> str:
    """A finished round in a few words: short for the score sheet (teams by seats, "1+3"),
    or with ``names`` by seat, for the table talk ("Ana & Ivo fell (pad)")."""

    def team(t: int) -> str:
        return f"{names[t]} & {names[t + 2]}" if names is not None else f"{t}+{t + 2}"

    result = record.result
    if result.redeal:
        return "redeal: all passed"
    if result.belot is not None:
        return f"belot: {team(result.belot)} win the match"
    notes: list[str] = []
    if result.caller is not None and result.fell and not result.hanging:  # visi hangs
        notes.append(f"{team(result.caller % 2)} fell (pad)")
    if result.stiglja is not None:
        notes.append(f"štiglja {team(result.stiglja)}")
    if result.claim is not None:
        notes.append("dosta holds" if result.claim_ok else "dosta was wrong")
    return ", ".join(notes)


def _sheet(match: Match) -> list[dict[str, Any]]:
    """The score sheet every seat sees: points written, the English note, the marks' codes."""
    return [
        {
            "index": r.index,
            "written": list(r.written),
            "note": round_note(r),
            "marks": sheet_mark_codes(r, match.rules),
        }
        for r in match.rounds
    ]


def _last(last: Phrase | None) -> dict[str, Any]:
    """The line after an action: the English, and the phrase each app words for itself."""
    if last is None:
        return {"last": None}
    return {"last": last.text[:300], "last_code": last.code, "last_args": last.args}


def state_message(
    match: Match,
    shown: Round,
    seat: int,
    seq: int,
    seats: list[dict[str, Any]],
    last: Phrase | None,
) -> dict[str, Any]:
    """The ``State`` for ``seat``: ``shown`` is the round on the table (the current one, or
    the one that just ended, so its last trick and result can be seen)."""
    view = shown.view(seat)
    can_claim = view.to_act == seat and shown.can_claim()
    return {
        "type": "state",
        "seq": seq,
        "seat": seat,
        "seats": seats,
        "target": match.target,
        "scores": list(match.scores),
        "hanging": match.hanging,
        "round": match.next_index if shown is match.current else match.rounds[-1].index,
        "view": view_info(view, can_claim),
        "sheet": _sheet(match),
        "winner": match.winner,
        **_last(last),
        "ended": _ended(match, shown),
    }


def state_frames(
    match: Match,
    shown: Round,
    seats: list[int],
    seq: int,
    infos: list[dict[str, Any]],
    last: Phrase | None,
    extra: dict[str, Any] | None = None,
) -> dict[int, bytes]:
    """The ``State`` frame for each seat in ``seats``, encoded: what all seats share is
    encoded once, and each seat's own view spliced in (the same JSON ``state_message``
    gives; ``tests/net`` checks both)."""
    common = {
        "type": "state",
        "seq": seq,
        "seats": infos,
        "target": match.target,
        "scores": list(match.scores),
        "hanging": match.hanging,
        "round": match.next_index if shown is match.current else match.rounds[-1].index,
        "sheet": _sheet(match),
        "winner": match.winner,
        **_last(last),
        "ended": _ended(match, shown),
        **(extra or {}),  # what the table adds (the series score)
    }
    head = json.dumps(common, separators=(",", ":"), ensure_ascii=False)[:-1]
    frames: dict[int, bytes] = {}
    for seat in seats:
        view = shown.view(seat)
        can_claim = view.to_act == seat and shown.can_claim()
        body = json.dumps(view_info(view, can_claim), separators=(",", ":"), ensure_ascii=False)
        frames[seat] = f'{head},"seat":{seat},"view":{body}}}\n'.encode()
    return frames
