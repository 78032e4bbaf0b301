"""The rule variants a game is played under, all in one place.

The defaults are the brief's standard game (rules revision 2): the dealer must
name trump after three passes, an exact tie is a plain pad, bela is announced
with the first of the trump K and Q, štiglja is worth 90 and every deal is
played out ("na prolaz"). Each field is a house rule a Croatian table may
agree on instead; ``docs/rules.md`` § 15 says what each one changes and why.

Two fields change nothing in the engine: ``clockwise`` and
``hide_played_tricks`` are table customs the app reads (where the seats sit on
the screen, whether a finished trick may be looked at again). They live here
so a match record keeps them with the rest of the rules it was played under.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bela.engine.errors import InvalidValueError, shown
from bela.engine.guards import check_flag
from bela.engine.pickling import by_fields

__all__ = ["LEGACY_RULES", "QUICK_DEALS", "QUICK_TARGET", "STIGLJA_BONUSES", "TARGETS", "Rules"]

QUICK_TARGET = 163
"""The "target" of a quick match ("brza 163"): three deals, the higher total wins."""
QUICK_DEALS = 3
"""How many played deals a quick match lasts (more only while the totals are equal)."""
TARGETS = (QUICK_TARGET, 501, 701, 1001)
STIGLJA_BONUSES = (90, 100)

_FLAGS = (
    "no_forced_trump",
    "visi",
    "bela_on_second",
    "no_zvanja",
    "no_bela",
    "bela_always_counts",
    "dosta",
    "tens_over_kings",
    "clockwise",
    "hide_played_tricks",
)


@dataclass(frozen=True, slots=True)
class Rules:
    """House rules; ``Rules()`` is the brief's standard game (revision 2).

    ``no_forced_trump``: the dealer may pass too; when all four pass the round
    is void and the next dealer deals again (a foreign variant: no Croatian
    source describes it).
    ``visi``: on an exact tie the defenders write their own total and the
    callers' total hangs, going to the team that wins the next round that
    does not tie.
    ``bela_on_second``: bela is announced with the second of the trump K and Q
    (the rule before revision 2, and what every schema-1 match record means)
    instead of the first.
    ``no_zvanja``: no declarations at all (belot included); bela still counts.
    ``no_bela``: trump K and Q are worth nothing together.
    ``bela_always_counts`` ("bela se uvijek piše"): callers who fall still
    write their own announced bela.
    ``stiglja_bonus``: what taking all eight tricks adds, 90 or 100.
    ``dosta`` ("na dosta"): the match ends as soon as a player who has just
    won a trick claims, rightly, that his team has reached the target.
    ``tens_over_kings``: two 100-point fours rank A > 10 > K > Q (trick
    order) instead of A > K > Q > 10 (natural order).
    ``clockwise``, ``hide_played_tricks``: for the app only (see the module).
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)  # the compiled build's dataclasses do not pickle by themselves

    no_forced_trump: bool = False
    visi: bool = False
    bela_on_second: bool = False
    no_zvanja: bool = False
    no_bela: bool = False
    bela_always_counts: bool = False
    stiglja_bonus: int = 90
    dosta: bool = False
    tens_over_kings: bool = False
    clockwise: bool = False
    hide_played_tricks: bool = False

    # The constructor is written out, taking ``object``: compiled by mypyc, the generated one
    # would refuse ``visi="yes"`` with a ``TypeError`` (and take ``visi=1`` as True) before any
    # check of ours ran; both builds must say what is wrong with an ``InvalidValueError``.
    def __init__(
        self,
        no_forced_trump: object = False,
        visi: object = False,
        bela_on_second: object = False,
        no_zvanja: object = False,
        no_bela: object = False,
        bela_always_counts: object = False,
        stiglja_bonus: object = 90,
        dosta: object = False,
        tens_over_kings: object = False,
        clockwise: object = False,
        hide_played_tricks: object = False,
    ) -> None:
        set_field = object.__setattr__  # frozen
        set_field(self, "no_forced_trump", check_flag(no_forced_trump, "no_forced_trump"))
        set_field(self, "visi", check_flag(visi, "visi"))
        set_field(self, "bela_on_second", check_flag(bela_on_second, "bela_on_second"))
        set_field(self, "no_zvanja", check_flag(no_zvanja, "no_zvanja"))
        set_field(self, "no_bela", check_flag(no_bela, "no_bela"))
        set_field(self, "bela_always_counts", check_flag(bela_always_counts, "bela_always_counts"))
        set_field(self, "dosta", check_flag(dosta, "dosta"))
        set_field(self, "tens_over_kings", check_flag(tens_over_kings, "tens_over_kings"))
        set_field(self, "clockwise", check_flag(clockwise, "clockwise"))
        set_field(self, "hide_played_tricks", check_flag(hide_played_tricks, "hide_played_tricks"))
        if type(stiglja_bonus) is not int or stiglja_bonus not in STIGLJA_BONUSES:
            raise InvalidValueError(f"stiglja_bonus is 90 or 100, not {shown(stiglja_bonus)}")
        set_field(self, "stiglja_bonus", stiglja_bonus)

    def changed(self) -> dict[str, bool | int]:
        """The fields that differ from the standard game, by name (for messages and help)."""
        return {
            name: getattr(self, name)
            for name in (*_FLAGS, "stiglja_bonus")
            if getattr(self, name) != getattr(DEFAULT_RULES, name)
        }


DEFAULT_RULES = Rules()
LEGACY_RULES = Rules(bela_on_second=True)
"""The rules a record written before rules revision 2 (schema 1) was played under."""
