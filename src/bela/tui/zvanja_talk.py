"""The zvanja as a Croatian table says them: heights in turn, "nemam", "do koje karte".

At the first trick each player, in playing order from the first player, says
the height of their best declaration ("dvadeset", "pedeset", "sto", "sto
pedeset", "dvjesto") or "nemam". A height lower than the one standing is not
said at all: that player stays silent. When a player of the other side matches
the standing height, "do koje karte" settles it: the stronger of the two names
its top card ("dvadeset do kralja", or "sto, četiri kralja" for a four) and the
weaker stays silent. The engine decides who wins (``Round.zvanja_team``); this
module only tells it the way a table would, and lays down what the rules make
public: the winning team's declarations (``SeatView.shown_zvanja``), nothing of
the losing side's.

Pure functions of a ``Round``, no widgets, so the words can be tested alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bela.engine import Rank, Round, Zvanje, ZvanjeKind
from bela.i18n import N_, _, current_language
from bela.table_text import HUMAN, SEAT_NAMES
from bela.wording import rank_plural

__all__ = ["Said", "ZvanjaTalk", "height_words", "settle_words", "zvanja_talk"]

HEIGHTS: Final = {20: "dvadeset", 50: "pedeset", 100: "sto", 150: "sto pedeset", 200: "dvjesto"}
"""A declaration's points as said at the table."""

# "do <card>": the top card of a sequence, in the genitive.
_TO_CARD: Final = {
    Rank.NINE: ("devetke", N_("{points} to the nine")),
    Rank.TEN: ("desetke", N_("{points} to the ten")),
    Rank.JACK: ("dečka", N_("{points} to the jack")),
    Rank.QUEEN: ("dame", N_("{points} to the queen")),
    Rank.KING: ("kralja", N_("{points} to the king")),
    Rank.ACE: ("asa", N_("{points} to the ace")),
}
# "četiri <cards>": a four, named after "four".
_FOUR_OF: Final = {
    Rank.NINE: "devetke",
    Rank.TEN: "desetke",
    Rank.JACK: "dečka",
    Rank.QUEEN: "dame",
    Rank.KING: "kralja",
    Rank.ACE: "asa",
}


@dataclass(frozen=True, slots=True)
class Said:
    """One thing said at the table: who, the Croatian words, and what they mean.

    ``words`` are what a Croatian table says; ``english`` is their meaning in the
    player's language (made with ``_`` when the talk is built). Each player reads the
    talk in their own language (issue #33: an English player read "dvadeset"): the
    Croatian words in Croatian, the meaning alone in every other language.
    """

    seat: int
    words: str
    english: str

    @property
    def silent(self) -> bool:
        return not self.words

    def line(self, names: tuple[str, ...] | None = None) -> str:
        """``Ivo: pedeset (50)``; a silent player is shown with an ellipsis.

        ``names``: the seats' names (a network table's players), else the local table's."""
        name = SEAT_NAMES[self.seat] if names is None else names[self.seat]
        if current_language() == "hr":
            return f"{name}: {self.words or '…'}"
        return f"{name}: {self.english or self.words or '…'}"


@dataclass(frozen=True, slots=True)
class ZvanjaTalk:
    """The whole exchange, and what is laid on the table afterwards.

    ``laid`` holds only the winning team's declarations, by seat; ``team`` is
    that team (None when nobody declared) and ``points`` its total. ``names``
    are the seats' names when they are not the local table's (a network seat).
    """

    said: tuple[Said, ...]
    team: int | None
    points: int
    laid: tuple[tuple[int, tuple[Zvanje, ...]], ...]
    names: tuple[str, ...] | None = None

    def name(self, seat: int) -> str:
        return SEAT_NAMES[seat] if self.names is None else self.names[seat]

    @property
    def anyone(self) -> bool:
        """Whether anybody had anything to declare (else everyone said "nemam")."""
        return self.team is not None


def height_words(zvanje: Zvanje) -> tuple[str, str]:
    """The height alone: ``("pedeset", "50")``."""
    return HEIGHTS[zvanje.points], str(zvanje.points)


def settle_words(zvanje: Zvanje) -> tuple[str, str]:
    """The height with "do koje karte": ``("dvadeset do kralja", "20 to the king")``."""
    height, points = height_words(zvanje)
    if zvanje.kind is ZvanjeKind.FOUR:
        word = _FOUR_OF[zvanje.top_rank]
        english = _("{points}, four {rank}").format(
            points=points, rank=rank_plural(zvanje.top_rank)
        )
        return f"{height}, četiri {word}", english
    word, to_card = _TO_CARD[zvanje.top_rank]
    return f"{height} do {word}", _(to_card).format(points=points)


def _best(rnd: Round, seat: int) -> Zvanje | None:
    """A seat's strongest declaration (belot never reaches a played round); none when the
    seat kept its zvanja back ("šutim")."""
    found = [z for z in rnd.declared(seat) if z.kind is not ZvanjeKind.BELOT]
    return max(found, key=lambda z: z.key, default=None)


def zvanja_talk(rnd: Round) -> ZvanjaTalk:
    """The exchange for a round whose trump is named (empty before the call)."""
    if rnd.trump is None:
        return ZvanjaTalk((), None, 0, ())
    said: list[Said] = []
    standing: tuple[int, Zvanje] | None = None  # the strongest so far, earlier wins ties
    for offset in range(4):
        seat = (rnd.first_player + offset) % 4
        best = _best(rnd, seat)
        if seat in rnd.silent_seats:  # kept back: silence, not "nemam" (that would be a lie)
            said.append(Said(seat, "", _("says nothing") if seat != HUMAN else _("say nothing")))
            continue
        if best is None:
            said.append(Said(seat, "nemam", _("nothing")))
            continue
        if standing is None or best.points > standing[1].points:
            words, english = height_words(best)
            said.append(Said(seat, words, english))
            standing = (seat, best)
            continue
        stronger = best.key > standing[1].key
        if best.points == standing[1].points and seat % 2 != standing[0] % 2:
            words, english = height_words(best)
            said.append(Said(seat, words, english))
            if stronger:
                standing = (seat, best)
            words, english = settle_words(standing[1])
            said.append(Said(standing[0], words, english))
            continue
        said.append(Said(seat, "", _("says nothing") if seat != HUMAN else _("say nothing")))
        if stronger:  # a partner's equal height: the team's best for a later "do koje karte"
            standing = (seat, best)
    team = rnd.zvanja_team
    laid = rnd.view(HUMAN).shown_zvanja if team is not None else ()
    points = rnd.zvanja_points[team] if team is not None else 0
    return ZvanjaTalk(tuple(said), team, points, laid)
