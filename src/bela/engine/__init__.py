"""The Bela rules engine: pure, exact and fast.

No I/O, no UI, no randomness it was not handed. Cards are ints, hands are
bitmasks; ``Round`` is the state machine of one deal and ``Match`` strings
rounds together to a target score. See ``docs/rules.md`` for the rules as
implemented.

The public API checks what it is handed: anything it cannot take raises a
``BelaError`` (a ``ValueError``), never a stray ``IndexError`` or ``TypeError``
and never a quietly wrong answer. The documented fast paths (``legal_mask``,
``Round.push_card``) trust their arguments.

The errors, the rules and the seeds are imported with the package; the rest
(cards, actions, ``Round``, ``Match``, the tables built at import time) when a
name is first used (PEP 562). The app's start screen and the command line's
parser need only ``TARGETS`` and ``MAX_SEED``, and draw sooner without the
rest (issue #12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bela.engine.deal import check_seed, deal_from_seed, round_seed
from bela.engine.errors import (
    BelaError,
    CardParseError,
    IllegalActionError,
    IllegalBelaError,
    IllegalBidError,
    IllegalClaimError,
    IllegalPlayError,
    InvalidValueError,
    MalformedActionError,
    OutOfTurnError,
    RoundOverError,
    SeatError,
    WrongPhaseError,
)
from bela.engine.rules import LEGACY_RULES, QUICK_TARGET, TARGETS, Rules
from bela.foundation.lazy import lazy_names

if TYPE_CHECKING:
    from bela.engine.actions import Action, Call, Claim, Pass, Play, Silent
    from bela.engine.cards import Card, Rank, Suit, cards_in, mask_of
    from bela.engine.match import Match, RoundRecord, decide_winner
    from bela.engine.round import BELA_POINTS, LAST_TRICK_BONUS, Round, RoundResult
    from bela.engine.scoring import STIGLJA_BONUS, Score, score_round, score_round_detail
    from bela.engine.tricks import (
        card_points,
        explain_illegal,
        legal_mask,
        legal_plays,
        trick_winner,
    )
    from bela.engine.view import CompletedTrick, Phase, SeatView
    from bela.engine.zvanja import Zvanje, ZvanjeKind, find_zvanja, resolve_zvanja

__all__ = [
    "BELA_POINTS",
    "LAST_TRICK_BONUS",
    "LEGACY_RULES",
    "QUICK_TARGET",
    "STIGLJA_BONUS",
    "TARGETS",
    "Action",
    "BelaError",
    "Call",
    "Card",
    "CardParseError",
    "Claim",
    "CompletedTrick",
    "IllegalActionError",
    "IllegalBelaError",
    "IllegalBidError",
    "IllegalClaimError",
    "IllegalPlayError",
    "InvalidValueError",
    "MalformedActionError",
    "Match",
    "OutOfTurnError",
    "Pass",
    "Phase",
    "Play",
    "Rank",
    "Round",
    "RoundOverError",
    "RoundRecord",
    "RoundResult",
    "Rules",
    "Score",
    "SeatError",
    "SeatView",
    "Silent",
    "Suit",
    "WrongPhaseError",
    "Zvanje",
    "ZvanjeKind",
    "card_points",
    "cards_in",
    "check_seed",
    "deal_from_seed",
    "decide_winner",
    "explain_illegal",
    "find_zvanja",
    "legal_mask",
    "legal_plays",
    "mask_of",
    "resolve_zvanja",
    "round_seed",
    "score_round",
    "score_round_detail",
    "trick_winner",
]

_LAZY: dict[str, str] = {
    **dict.fromkeys(("Action", "Call", "Claim", "Pass", "Play", "Silent"), "actions"),
    **dict.fromkeys(("Card", "Rank", "Suit", "cards_in", "mask_of"), "cards"),
    **dict.fromkeys(("Match", "RoundRecord", "decide_winner"), "match"),
    **dict.fromkeys(("BELA_POINTS", "LAST_TRICK_BONUS", "Round", "RoundResult"), "round"),
    **dict.fromkeys(("STIGLJA_BONUS", "Score", "score_round", "score_round_detail"), "scoring"),
    **dict.fromkeys(
        ("card_points", "explain_illegal", "legal_mask", "legal_plays", "trick_winner"), "tricks"
    ),
    **dict.fromkeys(("CompletedTrick", "Phase", "SeatView"), "view"),
    **dict.fromkeys(("Zvanje", "ZvanjeKind", "find_zvanja", "resolve_zvanja"), "zvanja"),
}


__getattr__ = lazy_names(__name__, _LAZY, globals())
"""A name of the engine's heavier modules, imported on first use and kept here."""
