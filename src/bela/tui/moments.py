"""When the table's moments happen: the zvanja exchange, the zvanja on show, the bela callout.

Pure functions of the round on the table and the finished trick still shown
(``held``), so the table screen only asks "is it time?" and draws the answer.
"""

from __future__ import annotations

from bela.engine import CompletedTrick, Phase, Play, Round
from bela.tui.zvanja_talk import ZvanjaTalk, zvanja_talk

__all__ = ["bela_callout", "first_trick_zvanja", "zvanja_moment"]


def zvanja_moment(rnd: Round | None, wait_for: int | None = None) -> ZvanjaTalk | None:
    """The exchange to hold now: trump named, no card played yet, and somebody declares.

    ``wait_for``: a seat still to say whether it declares (the human, when asked): the
    exchange is held at that seat's turn in the first trick instead, once it has
    answered, so it tells what was really declared.
    """
    if rnd is None or rnd.phase is not Phase.PLAYING or rnd.tricks:
        return None
    if rnd.trick if wait_for is None else rnd.to_act != wait_for:
        return None
    talk = zvanja_talk(rnd)
    return talk if talk.anyone else None


def first_trick_zvanja(rnd: Round | None, held: CompletedTrick | None) -> ZvanjaTalk | None:
    """The declarations that count, for as long as the first trick is on the table."""
    if rnd is None or rnd.trump is None or rnd.zvanja_team is None:
        return None
    first_trick = (not rnd.tricks and rnd.phase is Phase.PLAYING) or (
        len(rnd.tricks) == 1 and held == rnd.tricks[0]
    )
    return zvanja_talk(rnd) if first_trick else None


def bela_callout(rnd: Round | None, held: CompletedTrick | None) -> int | None:
    """The seat whose "bela!" is still heard: its card is in the trick on the table."""
    if rnd is None or rnd.bela_announced_by is None:
        return None
    plays = [a for a in rnd.actions if isinstance(a, Play)]
    said_at = next(i for i, play in enumerate(plays) if play.bela)
    on_table = len(rnd.tricks) - 1 if held is not None else len(rnd.tricks)
    return rnd.bela_announced_by if said_at // 4 == on_table else None
