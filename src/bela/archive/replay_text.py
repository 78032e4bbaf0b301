"""A match or a round told in full, for people (rich text) and for machines (JSON data).

``bela replay`` uses this to show what happened in a deal: every hand and
talon, each bid, the zvanja and who scored them, every trick, bela, and how the
written result came about. Everything is read from the engine's replayed
``Round``; nothing is recomputed here except the split of the card points into
tricks and the last trick's 10, and the štiglja transfer, which the engine
folds into its totals.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from bela import outcome_words
from bela.deck import is_german
from bela.engine import (
    LAST_TRICK_BONUS,
    Call,
    Card,
    Match,
    Rank,
    Round,
    RoundRecord,
    RoundResult,
    Rules,
    Suit,
    Zvanje,
    ZvanjeKind,
    cards_in,
)
from bela.engine.rules import QUICK_TARGET
from bela.foundation.untrusted import as_text
from bela.i18n import _, english
from bela.wording import card_text as card_face
from bela.wording import (
    is_you,
    level_name,
    mark_words,
    ours,
    player_name,
    rank_plural,
    rank_text,
    sequence_word,
    sheet_mark_codes,
    suit_name,
    suit_symbol,
    you,
)
from bela.wording import seat_name as wording_seat

__all__ = [
    "Breakdown",
    "RoundView",
    "breakdown",
    "match_json",
    "match_rounds",
    "render_match",
    "render_round",
    "render_sheet",
    "round_json",
    "rules_json",
    "seat_name",
    "sheet_json",
    "sheet_marks",
    "sheet_table",
    "summary",
]

Pair = tuple[int, int]


class _Teams:
    """``TEAM_NAMES[team]``: "mi" for the reader's team (seat 0's, or at a network table
    the reader's own, ``bela.wording.at_table``), "vi" for the other."""

    def __getitem__(self, team: int) -> str:
        return "mi" if team == you() % 2 else "vi"


TEAM_NAMES = _Teams()
"""The teams as the table calls them: the same words in every language."""
_SUIT_STYLE = ("red", "red", "default", "default")
_GERMAN_STYLE = ("red", "dark_orange3", "green", "default")


def _suit_style(suit: Suit) -> str:
    """The suit's colour (it only repeats the symbol): mađarice's bells orange, leaves green."""
    return (_GERMAN_STYLE if is_german() else _SUIT_STYLE)[int(suit)]


@dataclass(frozen=True, slots=True)
class RoundView:
    """One round of a match as replayed: the engine's round and what the sheet got from it."""

    index: int
    round: Round
    written: Pair | None  # None while the round is in progress

    @property
    def number(self) -> int:
        """The round's number for people (1 = the match's first deal)."""
        return self.index + 1


def match_rounds(match: Match) -> list[RoundView]:
    """Every round of ``match``, finished ones replayed from their actions, then the current one."""
    views = [
        RoundView(played.index, match.deal(played.index).replay(played.actions), played.written)
        for played in match.rounds
    ]
    if match.current is not None and (match.current.actions or not views):
        views.append(RoundView(match.next_index, match.current, None))
    return views


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Where each team's total came from (pairs are mi, vi)."""

    cards: Pair  # trick points, without the last trick's 10
    last_trick: Pair
    zvanja: Pair
    bela: Pair
    stiglja: Pair  # the sweep's 90 (or 100) plus the swept team's zvanja and bela, moved across
    totals: Pair
    written: Pair


def breakdown(result: RoundResult, rnd: Round, written: Pair) -> Breakdown:
    """The written result taken apart into the rows of a score sheet."""
    last = [0, 0]
    if len(rnd.tricks) == 8:
        last[rnd.tricks[-1].winner % 2] = LAST_TRICK_BONUS
    moved = [0, 0]
    if result.stiglja is not None:
        sweeper, swept = result.stiglja, 1 - result.stiglja
        lost = result.zvanja[swept] + result.bela[swept]
        moved[sweeper] = rnd.rules.stiglja_bonus + lost  # 90, or 100 as a house rule
        moved[swept] = -lost
    return Breakdown(
        cards=(result.card_points[0] - last[0], result.card_points[1] - last[1]),
        last_trick=(last[0], last[1]),
        zvanja=result.zvanja,
        bela=result.bela,
        stiglja=(moved[0], moved[1]),
        totals=result.totals,
        written=written,
    )


# ---------------------------------------------------------------------- words


def seat_name(seat: int) -> str:
    """A seat as every place a player reads names it: numbered 1-4 as the network lobby's
    keys number them (the engine's seat 0 is seat 1), with its player's name at a network
    table."""
    text = (_("seat {seat} (mi)") if ours(seat % 2) else _("seat {seat} (vi)")).format(
        seat=seat + 1
    )
    name = player_name(seat)  # a network match: the players' names from its record
    return text if name is None else f"{name} · {text}"


def _display_order(cards: Sequence[Card]) -> list[Card]:
    """Suits H D S C, high cards first within a suit (as a player holds them)."""
    return sorted(cards, key=lambda c: (int(c.suit), -int(c.rank)))


def _zvanje_words(z: Zvanje) -> Text:
    if z.kind is ZvanjeKind.FOUR:
        return Text(
            _("four {rank} ({points})").format(rank=rank_plural(z.top_rank), points=z.points)
        )
    if z.kind is ZvanjeKind.BELOT:
        return Text(_("belot in {suit}").format(suit=suit_name(z.cards[0].suit)))
    return Text.assemble(f"{sequence_word(z.points)} ", cards_text(z.cards), f" ({z.points})")


def summary(result: RoundResult, written: Pair) -> str:
    """The round's outcome in a sentence or two, the teams as the reader's ("we") and the
    other ("they"): the same messages as the table's summary (``bela.outcome_words``)."""
    if result.redeal:
        return _("All four said dalje: nothing is written and the next dealer deals again.")
    if result.belot is not None:
        if result.belot_seat is None:
            return outcome_words.belot_win(result.belot)
        holder = outcome_words.belot_holder(result.belot_seat, result.trump, _replay_names())
        return outcome_words.sentences([holder, outcome_words.belot_win(result.belot)])
    if result.claim is not None:  # "na dosta": the deal stopped on a claim
        return outcome_words.claim(result, written)
    callers = result.caller_team
    assert callers is not None and result.trump is not None
    parts = [outcome_words.called_by_team(callers, result.trump)]
    parts.append(outcome_words.outcome(result, written))
    if result.stiglja is not None:
        parts.append(outcome_words.stiglja(result.stiglja))
    return outcome_words.sentences(parts)


def _replay_names() -> list[str]:
    """The seats as the replay names them ("seat 1 (vi)", or a network player's name)."""
    return [seat_name(seat) for seat in range(4)]


# ---------------------------------------------------------------------- rich text


def card_text(card: Card, *, bold: bool = False) -> Text:
    style = _suit_style(card.suit)
    return Text(card_face(card), style=f"bold {style}" if bold else style)


def cards_text(cards: Sequence[Card]) -> Text:
    return Text(" ").join(card_text(c) for c in cards) if cards else Text("-")


def _suit_words(suit: Suit) -> Text:
    return Text.assemble((suit_symbol(suit), _suit_style(suit)), f" {suit_name(suit)}")


def _deal_table(rnd: Round) -> Table:
    table = Table(title=_("Deal"), title_justify="left", box=None, pad_edge=False)
    table.add_column(_("seat"))
    table.add_column(_("hand (6)"))
    table.add_column(_("talon (2)"))
    for offset in range(4):
        seat = (rnd.first_player + offset) % 4
        marks = " " + _("dealer") if seat == rnd.dealer else ""
        table.add_row(
            Text(seat_name(seat) + marks),  # a player's name is text, never markup
            cards_text(_display_order(cards_in(rnd.deal_hands[seat]))),
            cards_text(_display_order(cards_in(rnd.deal_talons[seat]))),
        )
    return table


def _bids_text(rnd: Round) -> Text:
    parts: list[Text] = []
    for seat, bid in rnd.bids:
        said = _suit_words(bid.suit) if isinstance(bid, Call) else Text(_("dalje"))
        parts.append(Text.assemble(_("seat {seat}: ").format(seat=seat + 1), said))
    line = Text.assemble(_("Bids: "), Text(", ").join(parts) if parts else _("none yet"))
    if rnd.trump is not None and rnd.caller is not None:
        line.append_text(
            Text.assemble(
                _(". Trump "),
                _suit_words(rnd.trump),
                _(", your call")
                if is_you(rnd.caller)
                else _(", called by {name}").format(name=seat_name(rnd.caller)),
            )
        )
    return line


def _zvanja_lines(rnd: Round) -> list[Text]:
    if rnd.trump is None or (rnd.result is not None and rnd.result.belot is not None):
        return []  # nothing to declare yet, or belot ended the round before zvanja counted
    lines: list[Text] = []
    team = rnd.zvanja_team
    for seat in range(4):
        found = [z for z in rnd.declarations(seat) if z.kind is not ZvanjeKind.BELOT]
        if not found:
            continue
        if seat in rnd.silent_seats:  # "šutim": kept back, so they never counted
            counts = _("kept back (šutim)")
        else:
            counts = _("counts") if team == seat % 2 else _("does not count")
        words = Text("; ").join(_zvanje_words(z) for z in found)
        lines.append(Text.assemble(f"  {seat_name(seat)}: ", words, f" ({counts})"))
    if team is None:
        head = _("Zvanja: none")
    else:
        points = rnd.zvanja_points[team]
        if ours(team):
            head = _("Zvanja: ours count, {points}").format(points=points)
        else:
            head = _("Zvanja: theirs count, {points}").format(points=points)
    return [Text(head), *lines]


def _bela_line(rnd: Round) -> Text | None:
    announced, holder = rnd.bela_announced_by, rnd.bela_seat
    if announced is not None:
        name = seat_name(announced)
        if ours(announced % 2):
            return Text(_("Bela ({name}): 20 for us").format(name=name))
        return Text(_("Bela ({name}): 20 for them").format(name=name))
    if holder is not None:
        if rnd.is_finished:
            text = _("Bela: trump {king} and {queen} with {name}, never announced")
        else:
            text = _("Bela: trump {king} and {queen} with {name}, not announced yet")
        king, queen = rank_text(Rank.KING), rank_text(Rank.QUEEN)  # the deck's: hr mađarice K, B
        return Text(text.format(name=seat_name(holder), king=king, queen=queen))
    return None


def _tricks_table(rnd: Round) -> Table:
    table = Table(title=_("Tricks"), title_justify="left", box=None, pad_edge=False)
    names = ("#", _("leader"), _("cards in play order"), _("winner"), _("points"))
    for i, name in enumerate(names):
        table.add_column(name, justify="right" if i in (0, 4) else "left")
    for number, trick in enumerate(rnd.tricks, start=1):
        played = Text("  ").join(
            Text.assemble(
                f"{trick.seat_of(i) + 1}:", card_text(c, bold=trick.seat_of(i) == trick.winner)
            )
            for i, c in enumerate(trick.cards)
        )
        table.add_row(
            str(number),
            _("seat {seat}").format(seat=trick.leader + 1),
            played,
            Text(seat_name(trick.winner)),
            str(trick.points),
        )
    if rnd.trick:
        played = Text("  ").join(
            Text.assemble(f"{(rnd.trick_leader + i) % 4 + 1}:", card_text(c))
            for i, c in enumerate(rnd.trick)
        )
        leader = _("seat {seat}").format(seat=rnd.trick_leader + 1)
        table.add_row(str(len(rnd.tricks) + 1), leader, played, "…", "")
    return table


def _result_table(parts: Breakdown) -> Table:
    table = Table(title=_("Result"), title_justify="left", box=None, pad_edge=False)
    table.add_column("")
    table.add_column(TEAM_NAMES[0], justify="right")  # team 0 (seats 0 and 2), as the reader
    table.add_column(TEAM_NAMES[1], justify="right")
    rows: list[tuple[str, Pair]] = [
        (_("cards"), parts.cards),
        (_("last trick"), parts.last_trick),
        (_("zvanja"), parts.zvanja),
        (_("bela"), parts.bela),
    ]
    if parts.stiglja != (0, 0):
        rows.append((_("štiglja"), parts.stiglja))
    rows.append((_("total"), parts.totals))
    for label, pair in rows:
        table.add_row(label, str(pair[0]), str(pair[1]))
    table.add_row(
        Text(_("written"), style="bold"), *(Text(str(p), style="bold") for p in parts.written)
    )
    return table


def render_round(view: RoundView, bots: Collection[int] = ()) -> RenderableType:
    """One round told in full; ``bots``: the seats a bot played for their player this round."""
    rnd = view.round
    title = _("Round {n} · dealer {dealer} · first to speak {first}").format(
        n=view.number, dealer=seat_name(rnd.dealer), first=seat_name(rnd.first_player)
    )
    # the title holds players' names (a network record's): a Rule reads a str as markup
    parts: list[RenderableType] = [Rule(as_text(title), align="left")]
    for seat in sorted(bots):
        line = (
            _("A bot played your cards for part or all of this round.")
            if seat == you()
            else _("A bot played for {name} for part or all of this round.").format(
                name=seat_name(seat)
            )
        )
        parts.append(Text(line, style="italic"))
    parts.extend([_deal_table(rnd), _bids_text(rnd)])
    parts.extend(_zvanja_lines(rnd))
    bela = _bela_line(rnd)
    if bela is not None:
        parts.append(bela)
    if rnd.tricks or rnd.trick:
        parts.append(_tricks_table(rnd))
    result = rnd.result
    if result is None or view.written is None:
        parts.append(
            Text(
                _("Round in progress: {name} to act.").format(name=seat_name(rnd.to_act or 0)),
                style="italic",
            )
        )
    elif result.redeal or result.belot is not None:
        parts.append(Text(summary(result, view.written), style="bold"))
    else:
        parts.append(_result_table(breakdown(result, rnd, view.written)))
        parts.append(Text(summary(result, view.written), style="bold"))
    return Group(*parts)


def sheet_marks(played: RoundRecord, rules: Rules | None = None) -> list[str]:
    """What a score sheet notes beside a round: pad, štiglja, belot, dosta, visi, a redeal
    (``bela.wording.sheet_mark_codes``, worded for the reader's team)."""
    return [mark_words(code, you() % 2) for code in sheet_mark_codes(played, rules)]


def _called(played: RoundRecord) -> Text:
    r = played.result
    if r.caller is None or r.trump is None:
        return Text("-")
    return Text.assemble(  # by name, as the table calls the seats ("Ivo ♥"), never markup
        f"{wording_seat(r.caller)} ", (suit_symbol(r.trump), _suit_style(r.trump))
    )


def sheet_table(match: Match) -> Table:
    """The score sheet ("blok"): a line for every finished round, both columns summed.

    Every round gets its line, however many there are (nothing is folded away),
    and the last line is the sum of each column, which is the match's score.
    """
    quick = match.target == QUICK_TARGET  # brza 163: three deals, no target to reach
    table = Table(
        title=_("Score sheet · brza 163")
        if quick
        else _("Score sheet · target {target}").format(target=match.target),
        title_justify="left",
        show_footer=bool(match.rounds),
    )
    totals = [0, 0]
    rows: list[tuple[Text | str, ...]] = []
    for played in match.rounds:
        totals[0] += played.written[0]
        totals[1] += played.written[1]
        rows.append(
            (
                str(played.index + 1),
                Text(wording_seat(played.dealer)),
                _called(played),
                str(played.written[0]),
                str(played.written[1]),
                str(totals[0]),
                str(totals[1]),
                ", ".join(sheet_marks(played, match.rules)),
            )
        )
    columns = (
        (_("round"), _("total")),
        (_("dealer"), ""),
        (_("called"), ""),
        (TEAM_NAMES[0], str(totals[0])),
        (TEAM_NAMES[1], str(totals[1])),
        ("Σ " + TEAM_NAMES[0], str(totals[0])),
        ("Σ " + TEAM_NAMES[1], str(totals[1])),
        ("", ""),
    )
    for i, (name, footer) in enumerate(columns):
        table.add_column(
            name,
            footer=footer,
            justify="left" if i in (1, 2, 7) else "right",
            overflow="fold",
        )
    for row in rows:
        table.add_row(*row)
    return table


def render_sheet(match: Match, difficulty: str) -> RenderableType:
    """The match's score sheet alone (``bela replay FILE --sheet``), with how it stands."""
    return Group(_match_head(match, difficulty), sheet_table(match), _standing(match))


def sheet_json(match: Match, difficulty: str) -> dict[str, Any]:
    """The score sheet as JSON-ready data: every round's line and the running sums."""
    lines: list[dict[str, Any]] = []
    totals = [0, 0]
    for played in match.rounds:
        r = played.result
        totals[0] += played.written[0]
        totals[1] += played.written[1]
        lines.append(
            {
                "number": played.index + 1,
                "dealer": played.dealer,
                "caller": r.caller,
                "trump": None if r.trump is None else str(r.trump),
                "written": list(played.written),
                "sums": list(totals),
                "fell": r.fell,
                "tie": r.tie,
                "stiglja": r.stiglja,
                "belot": r.belot,
                "hanging": r.hanging,
                "redeal": r.redeal,
                "marks": _english_marks(played, match.rules),
            }
        )
    return {
        "seed": match.seed,
        "target": match.target,
        "difficulty": difficulty,
        "rules": rules_json(match.rules),
        "rounds": lines,
        "scores": list(match.scores),
        "hanging": match.hanging,
        "winner": match.winner,
        "finished": match.is_over,
    }


def rules_json(rules: Rules) -> dict[str, bool | int]:
    """Every house rule by its ``Rules`` field name (issue #13), for ``--json``."""
    return {field.name: getattr(rules, field.name) for field in fields(rules)}


def _match_head(match: Match, difficulty: str) -> Text:
    from dataclasses import replace

    from bela.settings import rule_names

    quick = match.target == QUICK_TARGET
    # a brza 163 has no target score to claim: "na dosta" does not apply to it
    variants = rule_names(replace(match.rules, dosta=False) if quick else match.rules)
    values = {
        "seed": match.seed,
        "target": match.target,
        "level": level_name(difficulty),
        "rules": ", ".join(variants) if variants else _("standard"),
    }
    if quick:
        text = _("Match seed {seed} · brza 163 · bots {level} · rules {rules}")
    else:
        text = _("Match seed {seed} · target {target} · bots {level} · rules {rules}")
    return Text(text.format(**values), style="bold")


def _standing(match: Match) -> Text:
    if match.winner is not None:
        values = {"ours": match.scores[you() % 2], "theirs": match.scores[1 - you() % 2]}
        # the match is over: said in the past tense, the opponents as "they" (in Croatian
        # "oni", never the "vi" that labels their column)
        if ours(match.winner):
            text = _("We won {ours} : {theirs} (mi : vi)")
        else:
            text = _("They won {ours} : {theirs} (mi : vi)")
        return Text(text.format(**values), style="bold")
    return Text(
        _("Match in progress at {mi} : {vi} (mi : vi)").format(
            mi=match.scores[you() % 2], vi=match.scores[1 - you() % 2]
        )
    )


def render_match(
    match: Match,
    difficulty: str,
    rounds: Sequence[RoundView] | None = None,
    bot_rounds: Iterable[tuple[int, int]] = (),
) -> RenderableType:
    """A match: its settings, the chosen rounds (all by default) and the score sheet;
    ``bot_rounds``: (round index, seat) where a bot played a person's seat (a network match)."""
    shown = match_rounds(match) if rounds is None else rounds
    bots: dict[int, set[int]] = {}
    for index, seat in bot_rounds:
        bots.setdefault(index, set()).add(seat)
    parts: list[RenderableType] = [_match_head(match, difficulty)]
    for view in shown:
        parts.extend([Text(""), render_round(view, bots.get(view.index, ()))])
    parts.append(Text(""))
    parts.append(sheet_table(match) if match.rounds else Text(_("No round finished yet.")))
    parts.append(_standing(match))
    return Group(*parts)


# ---------------------------------------------------------------------- JSON data


def _english_summary(result: RoundResult, written: Pair) -> str:
    """``summary`` in English: ``--json`` reads the same in every language."""
    with english():
        return summary(result, written)


def _english_marks(played: RoundRecord, rules: Rules) -> list[str]:
    with english():
        return sheet_marks(played, rules)


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def round_json(view: RoundView) -> dict[str, Any]:
    """One round as plain JSON-ready data (cards as "10H", pairs as [mi, vi])."""
    rnd = view.round
    declarations = [
        {"seat": seat, "kind": z.kind.value, "points": z.points, "cards": _cards(z.cards)}
        for seat in range(4)
        for z in rnd.declarations(seat)
    ]
    data: dict[str, Any] = {
        "number": view.number,
        "index": view.index,
        "dealer": rnd.dealer,
        "first_player": rnd.first_player,
        "silent": list(rnd.silent_seats),
        "hands": [_cards(cards_in(rnd.deal_hands[s])) for s in range(4)],
        "talons": [_cards(cards_in(rnd.deal_talons[s])) for s in range(4)],
        "bids": [{"seat": seat, "bid": str(bid)} for seat, bid in rnd.bids],
        "trump": None if rnd.trump is None else str(rnd.trump),
        "caller": rnd.caller,
        "zvanja": {
            "team": rnd.zvanja_team,
            "points": list(rnd.zvanja_points),
            "declarations": declarations,
        },
        "bela": {"holder": rnd.bela_seat, "announced_by": rnd.bela_announced_by},
        "tricks": [
            {
                "leader": t.leader,
                "cards": [{"seat": t.seat_of(i), "card": str(c)} for i, c in enumerate(t.cards)],
                "winner": t.winner,
                "points": t.points,
            }
            for t in rnd.tricks
        ],
        "trick_in_progress": _cards(rnd.trick),
        "to_act": rnd.to_act,
        "result": None,
    }
    result = rnd.result
    if result is not None and view.written is not None:
        parts = breakdown(result, rnd, view.written)
        data["result"] = {
            "cards": list(parts.cards),
            "last_trick": list(parts.last_trick),
            "zvanja": list(parts.zvanja),
            "bela": list(parts.bela),
            "stiglja": list(parts.stiglja),
            "stiglja_team": result.stiglja,
            "totals": list(parts.totals),
            "written": list(parts.written),
            "fell": result.fell,
            "tie": result.tie,
            "hanging": result.hanging,
            "belot": result.belot,
            "redeal": result.redeal,
            "summary": _english_summary(result, view.written),
        }
    return data


def match_json(
    match: Match, difficulty: str, rounds: Sequence[RoundView] | None = None
) -> dict[str, Any]:
    """A match as plain JSON-ready data, with the chosen rounds (all by default)."""
    shown = match_rounds(match) if rounds is None else rounds
    return {
        "seed": match.seed,
        "target": match.target,
        "difficulty": difficulty,
        "rules": rules_json(match.rules),
        "first_dealer": match.first_dealer,
        "rounds": [round_json(v) for v in shown],
        "scores": list(match.scores),
        "winner": match.winner,
        "finished": match.is_over,
    }
