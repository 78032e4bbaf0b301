"""A puzzle in sentences: its themes, the question, the explanation, the rating's change.

The command line (``bela puzzles``) and the app's puzzle screen both speak through
here, so a puzzle is explained the same way in both. The player sits in the puzzle's
seat: "we" is that seat's team and "they" the other, each its own message (never a
team in a placeholder); counts go through ngettext.

The numbers come from the checked puzzle (``bela.archive.puzzle_pack``): the written
points are the mean over the guessed deals of the seat's team's written points minus
the other team's, so they are shown signed ("+12", "−58").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from bela.engine import Action, Call, Pass, Play, Suit
from bela.i18n import _, ngettext, pgettext
from bela.outcome_words import sentences
from bela.wording import card_text, seat_name, suit_name, suit_symbol

if TYPE_CHECKING:
    from bela.archive.puzzle_modes import ModeRun, RunResult, WeakTheme
    from bela.archive.puzzle_pack import Puzzle, PuzzleChoice
    from bela.archive.puzzle_store import Outcome, Streak
    from bela.engine import SeatView
    from bela.lab.puzzle_reasons import Reasons

__all__ = [
    "PROVISIONAL_RD",
    "THEME_NAMES",
    "action_name",
    "choices_name",
    "explanation",
    "mode_label",
    "puzzle_reasons",
    "question",
    "rating_change",
    "reason_sentences",
    "reasons_ready",
    "run_over",
    "run_status",
    "shown_voids",
    "signed",
    "streak_text",
    "table_names",
    "theme_lines",
    "theme_name",
    "themes_text",
    "typical_text",
    "typical_tricks",
    "verdict",
    "void_sentences",
    "weak_lines",
    "with_typical",
]

PROVISIONAL_RD: Final = 110.0
"""A rating this unsure is called provisional (as chess sites call it): it still moves a lot."""


def _theme_names() -> dict[str, str]:
    """Each theme as a player names it (``bela.archive.puzzle_pack.THEMES``), in the player's
    language: a context of their own, since "lead" or "bela" alone mean other things."""
    return {
        "lead": pgettext("puzzle theme", "lead"),
        "second": pgettext("puzzle theme", "second hand"),
        "third": pgettext("puzzle theme", "third hand"),
        "fourth": pgettext("puzzle theme", "fourth hand"),
        "count-to-pad": pgettext("puzzle theme", "counting to the fall"),
        "stiglja": pgettext("puzzle theme", "štiglja"),
        "draw-trumps": pgettext("puzzle theme", "drawing trumps"),
        "drive-out-ace": pgettext("puzzle theme", "driving out the ace"),
        "unblock": pgettext("puzzle theme", "unblocking"),
        "partner-void": pgettext("puzzle theme", "leading to the partner's void"),
        "overtrump": pgettext("puzzle theme", "overtrumping"),
        "namazati": pgettext("puzzle theme", "giving points to the partner"),
        "save-ten": pgettext("puzzle theme", "saving a ten"),
        "bela": pgettext("puzzle theme", "bela"),
        "last-trick": pgettext("puzzle theme", "keeping the last trick"),
        "last-tricks": pgettext("puzzle theme", "the last tricks"),
        "call": pgettext("puzzle theme", "to call"),
        "pass": pgettext("puzzle theme", "to pass"),
        "pod-mus": pgettext("puzzle theme", "pod mus"),
        "yours": pgettext("puzzle theme", "from your games"),
    }


def _theme_descriptions() -> dict[str, str]:
    """What each idea theme is about, one sentence a player reads after the answer (the
    place in the trick and the bids need none: their names say it)."""
    return {
        "count-to-pad": pgettext(
            "puzzle theme description",
            "This card decides whether the call passes or falls: count the points to more "
            "than half.",
        ),
        "stiglja": pgettext(
            "puzzle theme description",
            "This card wins or stops štiglja: all eight tricks, 90 points more.",
        ),
        "draw-trumps": pgettext(
            "puzzle theme description",
            "Lead trumps to pull the opponents' trumps before they ruff your winners.",
        ),
        "drive-out-ace": pgettext(
            "puzzle theme description",
            "Lead the card only the ace can beat: its holder must give it up, and your next "
            "cards of the suit win.",
        ),
        "unblock": pgettext(
            "puzzle theme description",
            "Play the high card under your partner's winner, so that his other cards of the "
            "suit can run.",
        ),
        "partner-void": pgettext(
            "puzzle theme description",
            "Lead a suit your partner has shown he lacks: he takes it with a trump.",
        ),
        "overtrump": pgettext(
            "puzzle theme description",
            "Go over the trump on the table, and choose which trump to do it with.",
        ),
        "namazati": pgettext(
            "puzzle theme description",
            "Your partner takes the trick: give him an ace or a ten.",
        ),
        "save-ten": pgettext(
            "puzzle theme description", "Keep your ten: the other card would throw it away."
        ),
        "bela": pgettext(
            "puzzle theme description",
            "Play the trump king or queen and announce bela: 20 points.",
        ),
        "last-trick": pgettext(
            "puzzle theme description",
            "Take the eighth trick: it is worth 10 points more than its cards.",
        ),
        "last-tricks": pgettext(
            "puzzle theme description",
            "The end of the deal: count the cards left and the last trick's 10.",
        ),
    }


def theme_lines(themes: Sequence[str]) -> list[str]:
    """What the puzzle's idea themes are about, a sentence each, in ``THEMES`` order."""
    described = _theme_descriptions()
    return [described[t] for t in themes if t in described]


THEME_NAMES: Final = tuple(_theme_names())
"""The themes that have a name (every one of ``THEMES``: a test keeps it so)."""


def theme_name(theme: str) -> str:
    """The theme in the player's words (an unknown theme as it is: the pack checks them)."""
    return _theme_names().get(theme, theme)


def themes_text(themes: Sequence[str]) -> str:
    """The themes, comma-separated in the player's words."""
    return _(", ").join(theme_name(t) for t in themes)


def signed(value: float) -> str:
    """A mean written-point difference, rounded and signed: ``+12``, ``−58``, ``0``."""
    n = round(value)
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "0"


def action_name(action: Action) -> str:
    """An action as the table shows it: ``10♥``, ``K♥ with bela``, ``dalje``, ``♥ hearts``."""
    if isinstance(action, Play):
        if action.bela:
            return _("{card} with bela").format(card=card_text(action.card))
        return card_text(action.card)
    if isinstance(action, Pass):
        return _("dalje")
    if isinstance(action, Call):
        return f"{suit_symbol(action.suit)} {suit_name(action.suit)}"
    return str(action)  # dosta and šutim are never a puzzle's choice; said as the table says them


def choices_name(choice: PuzzleChoice) -> str:
    """A choice's actions (equivalent cards: ``7♠ or 9♠``)."""
    names = [action_name(a) for a in choice.actions]
    if len(names) == 1:
        return names[0]
    return _("{cards} or {last}").format(cards=_(", ").join(names[:-1]), last=names[-1])


def question(puzzle: Puzzle) -> str:
    """What the player is asked: the best card, or the best bid (pod mus: the trump)."""
    if puzzle.kind == "card":
        return _("Find the best card.")
    if "pod-mus" in puzzle.themes:
        return _("You must call: find the best trump.")
    return _("Find the best bid: call a trump or say dalje.")


def verdict(puzzle: Puzzle, action: Action) -> str:
    """Right or not, in one sentence that names the answer."""
    answer = choices_name(puzzle.choices[0])
    if puzzle.is_right(action):
        return _("Right: {answer}.").format(answer=answer)
    return _("Not this time: the answer is {answer}.").format(answer=answer)


def explanation(puzzle: Puzzle, action: Action) -> str:
    """The averages over the guessed deals: the answer's against the player's choice and the
    best alternative, and how often the answer was best."""
    deals = puzzle.deals
    best = puzzle.choices[0]
    alt = puzzle.alternative
    mine = puzzle.choice_of(action)
    parts = [
        ngettext(
            "Over {n} guessed deal consistent with what you see, {answer} averages {value} "
            "written points (ours minus theirs) and is best on {best} of them.",
            "Over {n} guessed deals consistent with what you see, {answer} averages {value} "
            "written points (ours minus theirs) and is best on {best} of them.",
            deals,
        ).format(
            n=deals,
            answer=choices_name(best),
            value=signed(best.written),
            best=round(best.best * deals),
        )
    ]
    if mine is None or mine is best:
        parts.append(
            _("The best alternative, {alt}, averages {value}.").format(
                alt=choices_name(alt), value=signed(alt.written)
            )
        )
    elif mine is alt:
        parts.append(
            _("Your {mine} averages {value}: it is the best alternative, and still worse.").format(
                mine=action_name(action), value=signed(alt.written)
            )
        )
    else:
        parts.append(
            _(
                "Your {mine} averages {value}; the best alternative, {alt}, averages {alt_value}."
            ).format(
                mine=action_name(action),
                value=signed(mine.written),
                alt=choices_name(alt),
                alt_value=signed(alt.written),
            )
        )
    return sentences(parts)


def typical_text(puzzle: Puzzle, reasons: Reasons | None = None) -> str | None:
    """What happens in a typical deal after the answer and after the best alternative (both
    teams then playing their best with every card seen); None without a typical line.

    With ``reasons`` (whose typical deal ``with_typical`` put in), the deal shown is one
    where the answer does better; where that is so on fewer than half of the guessed
    deals (7 of 96, the other 89 the same), it is said as one of those few, not as the
    typical deal: "in a typical deal we write 145" beside "the answer averages −123" read
    as a contradiction."""
    typical = puzzle.typical
    if typical is None or not typical.lines:
        return None
    team = puzzle.seat % 2
    few = reasons is not None and 2 * reasons.worse < reasons.deals
    parts: list[str] = []
    for line, choice in zip(typical.lines, puzzle.choices, strict=False):
        ours, theirs = line.written[team], line.written[1 - team]
        action = action_name(line.actions[0])
        if choice is not puzzle.choices[0]:
            text = _("After {action} we write {ours} and they write {theirs}.")
        elif few:
            text = _(
                "The two cards write differently on {k} of the {n} deals; on a typical one of "
                "them, after {action} we write {ours} and they write {theirs}."
            )
        else:
            text = _("In a typical deal, after {action} we write {ours} and they write {theirs}.")
        parts.append(
            text.format(
                action=action,
                ours=ours,
                theirs=theirs,
                k=reasons.worse if reasons is not None else 0,
                n=reasons.deals if reasons is not None else 0,
            )
        )
    return sentences(parts)


def typical_tricks(puzzle: Puzzle) -> list[str]:
    """The typical deal played out after the answer and after the choice compared, trick
    by trick with who played what and who took it, as the app's puzzles screen and the
    command line both show it: a heading per line ("After 9♠, both sides at their best:")
    and an indented line per trick ("trick 7: You 9♠, Ivo 8♥, Marko 10♠, Ana 10♥ →
    Marko"). Said inside ``bela.wording.at_table`` for the puzzle's seat; empty without a
    typical deal."""
    from bela.ai.hard import rebuild_round
    from bela.search.sampling import knowledge_of

    typical = puzzle.typical
    if typical is None:
        return []
    view = puzzle.moment().view(puzzle.seat)
    hands = tuple(sum(1 << int(c) for c in hand) for hand in typical.hands)
    out: list[str] = []
    for line in typical.lines:
        out.append(
            _("After {choice}, both sides at their best:").format(
                choice=action_name(line.actions[0])
            )
        )
        rnd = rebuild_round(view, knowledge_of(view), (hands[0], hands[1], hands[2], hands[3]))
        leader = rnd.trick_leader
        parts = [  # the cards already on the table when the player was asked
            f"{seat_name((leader + i) % 4)} {card_text(card)}" for i, card in enumerate(rnd.trick)
        ]
        number = len(rnd.tricks) + 1
        for action in line.actions:
            seat = rnd.to_act
            if seat is None:
                break
            rnd.push(action)
            if isinstance(action, Play):
                parts.append(f"{seat_name(seat)} {card_text(action.card)}")
            if len(rnd.tricks) == number:  # the trick just ended
                out.append(
                    "    "
                    + _("trick {n}: {cards} → {name}").format(
                        n=number, cards=", ".join(parts), name=seat_name(rnd.tricks[-1].winner)
                    )
                )
                parts, number = [], number + 1
    return out


def rating_change(outcome: Outcome) -> str:
    """``Your rating: 1500 → 1532 (+32).``, or that a puzzle tried before is not rated again."""
    before, after = round(outcome.before.rating), round(outcome.after.rating)
    if not outcome.rated:
        return _("Your rating stays {rating}: a puzzle is rated on its first try.").format(
            rating=after
        )
    text = _("Your rating: {before} → {after} ({change}).").format(
        before=before, after=after, change=signed(after - before)
    )
    if outcome.after.rd > PROVISIONAL_RD:
        text = sentences([text, _("It is provisional: it settles after a few more puzzles.")])
    return text


def streak_text(streak: Streak) -> str:
    """The streak now and the best, with the language's plural forms."""
    # not called a streak: the streak mode's best is a number of its own, said beside it
    return ngettext(
        "{n} right answer in a row (best {best}).",
        "{n} right answers in a row (best {best}).",
        streak.current,
    ).format(n=streak.current, best=streak.best)


def table_names(seat: int) -> tuple[str, str, str, str]:
    """The table's names seen from the puzzle's seat: "You" there, the bots' names around it
    (the one after you, the partner, the one before you), as at the player's own table.
    Show a puzzle inside ``bela.wording.at_table(table_names(seat), seat)``."""
    names = ["", "", "", ""]
    for k in range(4):
        names[(seat + k) % 4] = seat_name(k)
    return names[0], names[1], names[2], names[3]


def shown_voids(seat: int, view: SeatView) -> dict[int, tuple[Suit, ...]]:
    """The suits each other seat has shown it lacks by its play, as a player at the table sees
    them: a seat that did not follow the suit led has none of it, and one that did not trump
    either (it must when it can) has no trump. Seat -> suits in suit order; the asking seat
    (its voids are its own cards), seats that showed none and seats with no cards left out.
    The app's table and the command line both say what this finds."""
    lacking: dict[int, set[Suit]] = {}
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick and view.trick_leader is not None:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        led = cards[0].suit
        for i, card in enumerate(cards[1:], start=1):
            if card.suit != led:
                other = (leader + i) % 4
                lacking.setdefault(other, set()).add(led)
                if view.trump is not None and card.suit != view.trump:
                    lacking[other].add(view.trump)
    return {
        other: tuple(s for s in Suit if s in suits)
        for other, suits in sorted(lacking.items())
        if other != seat and view.hand_sizes[other]
    }


def void_sentences(seat: int, view: SeatView) -> list[str]:
    """Who has shown to be void in which suit (``shown_voids``), one sentence each."""
    return [
        _("{name} has no {suits}.").format(
            name=seat_name(other), suits=_(", ").join(suit_name(s) for s in suits)
        )
        for other, suits in shown_voids(seat, view).items()
    ]


# ---------------------------------------------------------------------- reasons


def puzzle_reasons(puzzle: Puzzle, action: Action) -> Reasons | None:
    """Why the answer beats ``action`` (or, when it is the answer, the best alternative),
    computed from fresh guessed deals (``bela.lab.puzzle_reasons``; about a second of CPU at
    the second trick, far less later: the app runs it off the UI's thread). Seeded by the
    puzzle's id, so the app and the command line give the same reasons."""
    import hashlib
    from random import Random

    from bela.lab.puzzle_reasons import reasons

    digest = hashlib.blake2b(f"reasons:{puzzle.id}".encode(), digest_size=8).digest()
    rng = Random(int.from_bytes(digest, "big"))
    return reasons(puzzle.moment(), puzzle.answer, action, rng)


def reasons_ready() -> bool:
    """Import what ``puzzle_reasons`` needs (a worker process warms up with it, so that the
    first answer does not wait for the imports)."""
    import bela.lab.puzzle_reasons  # noqa: F401

    return True


def _names(actions: Sequence[Action]) -> str:
    names = [action_name(a) for a in actions]
    if len(names) == 1:
        return names[0]
    return _("{cards} or {last}").format(cards=_(", ").join(names[:-1]), last=names[-1])


def reason_sentences(reasons: Reasons) -> list[str]:
    """The reasons in words: how often the compared card does better, the same, worse; the
    hidden fact that decides it; what is at stake. One message per kind of reason.

    The reasons are read from new guessed deals, not the pack's (``puzzle_reasons``), and
    say so: "10♦ is best on 92 of 96" (the pack's) beside "J♦ does better on 9 of 96"
    read as a sum that does not add up."""
    answer = _names(reasons.answer)
    other = _names(reasons.other)
    n = reasons.deals
    counts = {"better": reasons.better, "equal": reasons.equal, "worse": reasons.worse}
    if reasons.mine:
        head = ngettext(
            "Against {answer}, your {mine} does better on {better}, the same on {equal} and "
            "worse on {worse} of {n} new guessed deal.",
            "Against {answer}, your {mine} does better on {better}, the same on {equal} and "
            "worse on {worse} of {n} new guessed deals.",
            n,
        )
    else:
        head = ngettext(
            "Against {answer}, the best alternative, {mine}, does better on {better}, the same "
            "on {equal} and worse on {worse} of {n} new guessed deal.",
            "Against {answer}, the best alternative, {mine}, does better on {better}, the same "
            "on {equal} and worse on {worse} of {n} new guessed deals.",
            n,
        )
    out = [head.format(answer=answer, mine=other, n=n, **counts)]
    holding = reasons.holding
    if holding is not None:
        loss = max(1, round(holding.loss))
        out.append(
            ngettext(
                "What decides it: if {name} holds {card} (on {k} of the {n} deals), {mine} does "
                "worse than {answer} on {worse} of those deals, by {loss} written point on "
                "average there.",
                "What decides it: if {name} holds {card} (on {k} of the {n} deals), {mine} does "
                "worse than {answer} on {worse} of those deals, by {loss} written points on "
                "average there.",
                loss,
            ).format(
                name=seat_name(holding.seat),
                card=card_text(holding.card),
                k=holding.deals,
                n=n,
                mine=other,
                answer=answer,
                worse=holding.worse,
                loss=loss,
            )
        )
    for stake in reasons.stakes:
        text = _stake_sentence(stake.kind, stake.deals, stake.value, answer, other)
        if text is not None:
            out.append(text)
    return out


def _stake_sentence(kind: str, k: int, value: float, answer: str, other: str) -> str | None:
    """What is at stake, one message per kind (``bela.lab.puzzle_reasons.Stake``)."""
    if kind == "fall-ours":
        text = ngettext(
            "At stake is our call: on {k} of these deals {mine} makes us fall, where {answer} "
            "makes it.",
            "At stake is our call: on {k} of these deals {mine} makes us fall, where {answer} "
            "makes it.",
            k,
        )
    elif kind == "fall-theirs":
        text = ngettext(
            "At stake is their call: on {k} of these deals {answer} makes them fall, where "
            "{mine} lets them make it.",
            "At stake is their call: on {k} of these deals {answer} makes them fall, where "
            "{mine} lets them make it.",
            k,
        )
    elif kind == "stiglja-ours":
        text = ngettext(
            "At stake is štiglja: on {k} of these deals {answer} takes every trick for us, and "
            "{mine} does not.",
            "At stake is štiglja: on {k} of these deals {answer} takes every trick for us, and "
            "{mine} does not.",
            k,
        )
    elif kind == "stiglja-theirs":
        text = ngettext(
            "At stake is štiglja: on {k} of these deals {mine} lets them take every trick, and "
            "{answer} does not.",
            "At stake is štiglja: on {k} of these deals {mine} lets them take every trick, and "
            "{answer} does not.",
            k,
        )
    elif kind == "last-trick":
        text = ngettext(
            "At stake is the last trick's 10: on {k} of these deals {answer} takes the last "
            "trick for us, where {mine} gives it to them.",
            "At stake is the last trick's 10: on {k} of these deals {answer} takes the last "
            "trick for us, where {mine} gives it to them.",
            k,
        )
    elif kind == "bela-ours":
        text = ngettext(
            "At stake is our bela: on {k} of these deals {mine} loses our 20 for bela (to a "
            "fall or a štiglja), where {answer} keeps them.",
            "At stake is our bela: on {k} of these deals {mine} loses our 20 for bela (to a "
            "fall or a štiglja), where {answer} keeps them.",
            k,
        )
    elif kind == "bela-theirs":
        text = ngettext(
            "At stake is their bela: on {k} of these deals {answer} costs them their 20 for "
            "bela (by a fall or a štiglja), where with {mine} they write them.",
            "At stake is their bela: on {k} of these deals {answer} costs them their 20 for "
            "bela (by a fall or a štiglja), where with {mine} they write them.",
            k,
        )
    elif kind == "points":
        points = round(value)
        if points <= 0:
            return None
        return ngettext(
            "At stake are card points: {answer} takes {points} more card point for us on "
            "average than {mine}.",
            "At stake are card points: {answer} takes {points} more card points for us on "
            "average than {mine}.",
            points,
        ).format(answer=answer, mine=other, points=points)
    else:
        return None
    return text.format(k=k, answer=answer, mine=other)


def with_typical(puzzle: Puzzle, reasons: Reasons | None) -> Puzzle:
    """The puzzle with the reasons' typical deal in place of the pack's: the deal of the
    median advantage, played out after the answer and after the card compared (the
    player's own when it was not the answer). Without reasons, the puzzle as it is."""
    import dataclasses

    from bela.archive.puzzle_pack import Typical, TypicalLine
    from bela.engine.cards import Card, cards_in

    if reasons is None:
        return puzzle
    h = [tuple(Card(c) for c in cards_in(mask)) for mask in reasons.typical]
    lines = tuple(TypicalLine(line.actions, line.written) for line in reasons.lines)
    return dataclasses.replace(puzzle, typical=Typical((h[0], h[1], h[2], h[3]), lines))


# ---------------------------------------------------------------------- modes


def mode_label(mode: str, best: int) -> str:
    """A mode as the player chooses it, with the best score kept."""
    if mode == "storm":
        return _(
            "Storm: as many puzzles as you can solve in three minutes (your best: {best})"
        ).format(best=best)
    return _("Streak: puzzles one after another until the first miss (your best: {best})").format(
        best=best
    )


def run_status(run: ModeRun, now: float) -> str:
    """A run as it goes: ``Puzzle storm: 2:31 left, 4 solved``."""
    if run.mode == "storm":
        left = int(run.left(now) + 0.999)
        return ngettext(
            "Puzzle storm: {time} left, {n} solved",
            "Puzzle storm: {time} left, {n} solved",
            run.solved,
        ).format(time=f"{left // 60}:{left % 60:02d}", n=run.solved)
    return ngettext(
        "Puzzle streak: {n} solved in a row", "Puzzle streak: {n} solved in a row", run.solved
    ).format(n=run.solved)


def run_over(result: RunResult) -> str:
    """A finished run's score and the best kept, and a new best said as one."""
    if result.mode == "storm":
        text = ngettext(
            "The storm is over: {n} puzzle solved in three minutes (your best: {best}).",
            "The storm is over: {n} puzzles solved in three minutes (your best: {best}).",
            result.score,
        )
    else:
        text = ngettext(
            "The streak is over: {n} puzzle solved in a row (your best: {best}).",
            "The streak is over: {n} puzzles solved in a row (your best: {best}).",
            result.score,
        )
    said = text.format(n=result.score, best=result.best)
    if result.new_best and result.score:
        said = sentences([said, _("A new best!")])
    return said


def weak_lines(weak: Sequence[WeakTheme]) -> list[str]:
    """The dashboard of the weakest themes: each with its first tries right of tried."""
    if not weak:
        return [_("Your weakest themes show once you have tried a few puzzles of a theme.")]
    lines = [_("Your weakest themes (first tries right):")]
    for w in weak:
        lines.append(
            "  "
            + ngettext(
                "{theme}: {right} of {n} right ({share}%)",
                "{theme}: {right} of {n} right ({share}%)",
                w.tried,
            ).format(
                theme=theme_name(w.theme), right=w.right, n=w.tried, share=round(100 * w.share)
            )
        )
    return lines
