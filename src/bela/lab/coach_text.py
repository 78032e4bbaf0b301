"""The coach's report in words (rich text) and as JSON data, for the app and the command line.

``bela coach`` prints it and the app's coach screen (F5) shows it; both build it here,
below them, so neither imports the other's modules. Every sentence is one message
through gettext (plural forms through ngettext); a record's file name is untrusted
text and goes through ``oneline``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bela.foundation.untrusted import oneline
from bela.i18n import _, ngettext

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text

    from bela.lab.coach import CoachReport, Habit

__all__ = [
    "example_text",
    "habit_name",
    "render_report",
    "report_json",
    "role_name",
    "sparkline",
]


def role_name(order: int) -> str:
    return (_("leading"), _("second hand"), _("third hand"), _("fourth hand"))[order]


def habit_name(kind: str) -> str:
    """One message per habit: a role in early or late tricks, or calling and falling."""
    names = {
        "lead:early": _("Leading in tricks 3–5"),
        "lead:late": _("Leading in tricks 6–8"),
        "second:early": _("Second hand in tricks 3–5"),
        "second:late": _("Second hand in tricks 6–8"),
        "third:early": _("Third hand in tricks 3–5"),
        "third:late": _("Third hand in tricks 6–8"),
        "fourth:early": _("Fourth hand in tricks 3–5"),
        "fourth:late": _("Fourth hand in tricks 6–8"),
        "fell": _("Calling trump and falling (pad)"),
        "passed": _("Saying dalje when calling was worth more"),
        "pod_mus_suit": _("Pod mus: naming a weaker suit"),
    }
    return names.get(kind, kind)


def sparkline(values: Sequence[float]) -> str:
    """The values as a row of block characters, lowest ▁ to highest █."""
    bars = "▁▂▃▄▅▆▇█"
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    return "".join(bars[0 if span == 0 else round((v - low) / span * 7)] for v in values)


def _per(total: int, count: int) -> str:
    return f"{total / count:.1f}" if count else "–"


def _suit_words(letter: str) -> str:
    """A suit the engine writes ``"H"`` as a player reads it: ``♥ herc``."""
    from bela.engine import Suit
    from bela.wording import suit_name, suit_symbol

    suit = Suit.parse(letter)
    return f"{suit_symbol(suit)} {suit_name(suit)}"


def example_text(habit: Habit, matches_dir: Path | None = None) -> Text:
    """Where the habit's costliest card (or bid) was, and the command that shows it."""
    from rich.text import Text

    from bela.engine import Card
    from bela.lab.coach import BidSlip

    if habit.example is None:
        return Text("")
    file, slip = habit.example
    where = oneline(str(file if matches_dir is None else matches_dir / file), 300)
    if isinstance(slip, BidSlip):
        if slip.forced:
            words = _(
                "Round {round}, pod mus: you named {chosen}; {best} was worth {lost} more "
                "on average; bela replay {file} --round {round}"
            )
        else:
            words = _(
                "Round {round}, the bidding: you said dalje; naming {best} was worth {lost} "
                "more on average; bela replay {file} --round {round}"
            )
        chosen = "" if slip.chosen == "dalje" else _suit_words(slip.chosen)
        return Text(
            words.format(
                round=slip.round + 1,
                chosen=chosen,
                best=_suit_words(slip.best),
                lost=slip.lost,
                file=where,
            )
        )
    from bela.wording import card_text

    played = Card.parse(slip.played)
    hard = played if slip.hard is None else Card.parse(slip.hard)
    text = _(
        "Round {round}, trick {trick}: you played {played}, the hard bot {hard} from your "
        "cards ({lost} more on average); bela review {file} --round {round}"
    ).format(
        round=slip.round + 1,
        trick=slip.trick,
        played=card_text(played),
        hard=card_text(hard),
        lost=slip.vs_hard,
        file=where,
    )
    return Text(text)


TREND_ROWS = 10
"""The matches the report's match-by-match table lists: the newest ones."""


def _card_pair(example: tuple[str, Any] | None) -> list[str]:
    """The player's card and the hard bot's, as the table shows them ("", "" for none)."""
    from bela.engine import Card
    from bela.wording import card_text

    if example is None or example[1].hard is None:
        return ["", ""]
    slip = example[1]
    return [card_text(Card.parse(slip.played)), card_text(Card.parse(slip.hard))]


def _trend_table(result: CoachReport) -> RenderableType:
    """The newest matches, each with what it gave away a round against the hard bot and its
    costliest card beside the hard bot's (where in the match, for ``bela review``)."""
    from rich.table import Table

    rows = list(enumerate(result.trend, start=1))[-TREND_ROWS:]
    title = ngettext(
        "Match by match against the hard bot, the last {n} (oldest first)",
        "Match by match against the hard bot, the last {n} (oldest first)",
        len(rows),
    ).format(n=len(rows))
    table = Table(title=title, title_justify="left", box=None)
    table.add_column(_("match"), justify="right")
    table.add_column(_("a round"), justify="right")
    table.add_column(_("your costliest"), justify="right")
    table.add_column(_("the hard bot's"))
    table.add_column(_("where"))
    examples = result.trend_examples
    for number, (_key, value) in rows:
        example = examples[number - 1] if len(examples) >= number else None
        where = ""
        if example is not None:
            where = _("round {round}, trick {trick}").format(
                round=example[1].round + 1, trick=example[1].trick
            )
        table.add_row(str(number), f"{value:.1f}", *_card_pair(example), where)
    return table


def render_report(
    result: CoachReport, with_bot: bool, matches_dir: Path | None = None
) -> RenderableType:
    """The coach's report as rich text (plain ``Text`` throughout: nothing is markup)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    head = ngettext(
        "The coach read your last {n} finished match.",
        "The coach read your last {n} finished matches.",
        result.matches,
    ).format(n=result.matches)
    facts = Table(box=None, pad_edge=False, show_header=False)
    facts.add_column("")
    facts.add_column("", justify="right")
    facts.add_row(_("rounds"), str(result.rounds))
    facts.add_row(_("your cards from trick 3 on"), str(result.cards))
    facts.add_row(
        _("written points given away a round, against the best play"),
        _per(result.lost, result.rounds),
    )
    if with_bot:
        facts.add_row(
            _("written points a round given away against the hard bot, from your cards"),
            _per(result.vs_hard, result.rounds),
        )
    # with the hard bot, the tables and the trend say what the habits say: what a card gave
    # away against the hard bot from the player's cards, not against every card seen
    if with_bot:
        by_role, by_trick, trend = result.by_role_hard, result.by_trick_hard, result.trend
        role_title = _("By your place in the trick, against the hard bot from your cards")
        trick_title = _("By trick, against the hard bot from your cards")
        trend_words = _(
            "Given away a round against the hard bot, match by match (oldest first): {line}"
        )
    else:
        by_role, by_trick, trend = result.by_role, result.by_trick, result.trend_best
        role_title = _("By your place in the trick, against the best play")
        trick_title = _("By trick, against the best play")
        trend_words = _("Given away a round, match by match (oldest first): {line}")
    roles = Table(title=role_title, title_justify="left", box=None)
    roles.add_column("")
    roles.add_column(_("cards"), justify="right")
    roles.add_column(_("given away"), justify="right")
    roles.add_column(_("a card"), justify="right")
    if with_bot:  # the costliest card there, the hard bot's beside it
        roles.add_column(_("your costliest"), justify="right")
        roles.add_column(_("the hard bot's"))
    for order, (cards, lost) in enumerate(by_role):
        row = [role_name(order), str(cards), str(lost), _per(lost, cards)]
        if with_bot:
            row += _card_pair(result.role_examples[order] if result.role_examples else None)
        roles.add_row(*row)
    tricks = Table(title=trick_title, title_justify="left", box=None)
    tricks.add_column(_("trick"), justify="right")
    tricks.add_column(_("cards"), justify="right")
    tricks.add_column(_("given away"), justify="right")
    for number, (cards, lost) in enumerate(by_trick, start=1):
        if cards:
            tricks.add_row(str(number), str(cards), str(lost))
    bidding = Table(title=_("Bidding"), title_justify="left", box=None, show_header=False)
    bidding.add_column("")
    bidding.add_column("", justify="right")
    bidding.add_row(_("rounds you called trump"), str(result.called))
    bidding.add_row(_("of them fell (pad)"), str(result.fell))
    bidding.add_row(_("written points lost by falling"), str(result.fell_lost))
    bidding.add_row(_("forced to call as dealer (pod mus)"), str(result.pod_mus))
    bidding.add_row(_("of them fell"), str(result.pod_mus_fell))
    bidding.add_row(_("rounds you said dalje"), str(result.passed))
    if with_bot:
        bidding.add_row(_("of them calling was clearly worth more"), str(result.passed_slips))
        bidding.add_row(_("written points lost by saying dalje"), str(result.passed_lost))
        bidding.add_row(_("pod mus, another suit clearly worth more"), str(result.pod_mus_slips))
        bidding.add_row(_("written points lost by the weaker suit"), str(result.pod_mus_lost))
    parts: list[RenderableType] = [Text(head, style="bold"), facts, roles, tricks, bidding]
    values = [v for _k, v in trend]
    if len(values) > 1:
        parts.append(Text(trend_words.format(line=sparkline(values))))
    if with_bot and values:
        parts.append(_trend_table(result))
    if result.habits:
        parts.append(Text(_("Your costliest habits"), style="bold"))
        parts.append(
            Text(
                _(
                    "A habit is a kind of fault that was a round's costliest at least three "
                    "times; each round counts once."
                )
            )
        )
        for number, habit in enumerate(result.habits, start=1):
            line = ngettext(
                "{n}. {habit}: {lost} written points given away in {count} round",
                "{n}. {habit}: {lost} written points given away in {count} rounds",
                habit.count,
            ).format(n=number, habit=habit_name(habit.kind), lost=habit.lost, count=habit.count)
            parts.append(Text(line))
            example = example_text(habit, matches_dir)
            if example.plain:
                parts.append(Text("   ") + example)
    else:  # where the player looks for their habits, why none is named
        parts.append(
            Text(
                _(
                    "No habit yet: a habit is a kind of fault that was a round's costliest at "
                    "least three times; each round counts once."
                )
            )
        )
    return Group(*parts)


def report_json(result: CoachReport, with_bot: bool = True) -> dict[str, Any]:
    """The report as JSON data (English keys; cards and suits as the engine writes them).

    ``lost`` figures are against the best play with every card seen, ``vs_hard`` ones
    against the hard bot from the player's information. Without the hard bot the cards'
    ``vs_hard`` and the bids are not judged: those figures are null, not 0."""
    return {
        "matches": result.matches,
        "rounds": result.rounds,
        "cards": result.cards,
        "lost": result.lost,
        "vs_hard": result.vs_hard,
        "by_role": [
            {
                "role": r,
                "cards": c,
                "lost": x,
                "vs_hard": h[1] if with_bot else None,
                "example": _example_json(e) if with_bot else None,
            }
            for r, (c, x), h, e in zip(
                ("lead", "second", "third", "fourth"),
                result.by_role,
                result.by_role_hard,
                result.role_examples or [None] * 4,
                strict=True,
            )
        ],
        "by_trick": [
            {"trick": t + 1, "cards": c, "lost": x, "vs_hard": h[1] if with_bot else None}
            for t, ((c, x), h) in enumerate(zip(result.by_trick, result.by_trick_hard, strict=True))
        ],
        "bidding": {
            "called": result.called,
            "fell": result.fell,
            "fell_lost": result.fell_lost,
            "pod_mus": result.pod_mus,
            "pod_mus_fell": result.pod_mus_fell,
            "passed": result.passed,
            "passed_worth_more": (
                {"count": result.passed_slips, "lost": result.passed_lost} if with_bot else None
            ),
            "pod_mus_weaker_suit": (
                {"count": result.pod_mus_slips, "lost": result.pod_mus_lost} if with_bot else None
            ),
        },
        "trend": [
            {
                "file": f,
                "lost_per_round": round(best, 2),
                "vs_hard_per_round": round(hard, 2) if with_bot else None,
                "example": _example_json(e) if with_bot else None,
            }
            for (f, hard), (_f, best), e in zip(
                result.trend,
                result.trend_best,
                result.trend_examples or [None] * len(result.trend),
                strict=True,
            )
        ],
        "habits": [
            {
                "kind": h.kind,
                "count": h.count,
                "lost": h.lost,
                "example": None
                if h.example is None
                else {"file": h.example[0], **_slip_json(h.example[1])},
            }
            for h in result.habits
        ],
    }


def _example_json(example: tuple[str, Any] | None) -> dict[str, Any] | None:
    """A costliest card (by place, or of a match) as JSON data: where, yours, the hard bot's."""
    if example is None:
        return None
    file, slip = example
    return {
        "file": file,
        "round": slip.round + 1,
        "trick": slip.trick,
        "played": slip.played,
        "hard": slip.hard,
        "vs_hard": slip.vs_hard,
    }


def _slip_json(slip: Any) -> dict[str, Any]:
    from bela.lab.coach import BidSlip

    if isinstance(slip, BidSlip):
        return {
            "round": slip.round + 1,
            "trick": 0,
            "bid": slip.chosen,
            "forced": slip.forced,
            "best": slip.best,
            "lost": slip.lost,
            "samples": slip.samples,
        }
    return {
        "round": slip.round + 1,
        "trick": slip.trick,
        "played": slip.played,
        "best": slip.best,
        "hard": slip.hard,
        "lost": slip.lost,
        "vs_hard": slip.vs_hard,
    }
