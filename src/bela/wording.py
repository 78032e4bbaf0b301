"""The game's words in the player's language: suits, ranks, seats, teams, illegal cards.

The engine names things in English codes (``JH``, ``Suit.HEARTS``) and gives
its reasons as data (``bela.engine.tricks.Illegal``); everything that shows them
to a person (the app, the command line, the bots' hints) takes the words from
here, so a suit is called the same thing everywhere in one language. Above the
engine and below the app in the layers, so the bots' reasons can use it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Final

from bela.deck import is_german
from bela.engine.cards import Card, Rank, Suit
from bela.engine.errors import CardParseError, IllegalBidError, IllegalClaimError, IllegalPlayError
from bela.foundation.untrusted import NAME_LIMIT, oneline
from bela.i18n import _, ngettext, pgettext

if TYPE_CHECKING:
    from bela.engine import RoundRecord, Rules
    from bela.engine.tricks import Illegal

__all__ = [
    "FRENCH_SYMBOLS",
    "GERMAN_SYMBOLS",
    "action_error",
    "at_table",
    "card_list",
    "card_text",
    "company",
    "illegal_text",
    "is_pod_mus",
    "is_you",
    "level_name",
    "mark_words",
    "match_kind",
    "ours",
    "outcome_name",
    "padded",
    "player_name",
    "points",
    "rank_plural",
    "rank_text",
    "read_card",
    "read_suit",
    "seat_name",
    "sequence_word",
    "set_bot_names",
    "set_player_name",
    "sheet_mark_codes",
    "suit_called",
    "suit_name",
    "suit_singular",
    "suit_symbol",
    "symbolize",
    "team_name",
    "typed_card",
    "you",
]


def suit_name(suit: Suit | int) -> str:
    """The suit as players name it: ``hearts`` / ``herc`` (the word after "trump:"); with
    mađarice (``bela.deck``) the German suit's name: ``bells`` / ``bundeva``."""
    if is_german():
        words = (
            pgettext("german suit", "hearts"),
            pgettext("german suit", "bells"),
            pgettext("german suit", "leaves"),
            pgettext("german suit", "acorns"),
        )
    else:
        words = (
            pgettext("suit", "hearts"),
            pgettext("suit", "diamonds"),
            pgettext("suit", "spades"),
            pgettext("suit", "clubs"),
        )
    return words[int(suit)]


def suit_called(suit: Suit | int) -> str:
    """The suit as what is called or named ("you called *it*"): the suit's name
    (``suit_name``), but in hr mađarice's bells are called "bundevu" (accusative: "Zoveš
    bundevu."), where the French suits' names (herc, karo, pik, tref) do not change."""
    if is_german():
        words = (
            pgettext("german suit called", "hearts"),
            pgettext("german suit called", "bells"),
            pgettext("german suit called", "leaves"),
            pgettext("german suit called", "acorns"),
        )
        return words[int(suit)]
    return suit_name(suit)


def suit_singular(suit: Suit | int) -> str:
    """One card's suit: "a higher *heart*" (a separate message: some languages differ)."""
    if is_german():
        words = (
            pgettext("german one card of", "heart"),
            pgettext("german one card of", "bell"),
            pgettext("german one card of", "leaf"),
            pgettext("german one card of", "acorn"),
        )
    else:
        words = (
            pgettext("one card of", "heart"),
            pgettext("one card of", "diamond"),
            pgettext("one card of", "spade"),
            pgettext("one card of", "club"),
        )
    return words[int(suit)]


FRENCH_SYMBOLS: Final = ("♥", "♦", "♠", "♣")
"""The French deck's suit symbols, the same in every language."""

GERMAN_SYMBOLS: Final = ("❤", "◉", "❦", "♁")
"""Mađarice's suits, drawn in one terminal cell each and told apart by shape without
colour: a heart (srce), a round bell seen from below (bundeva), an ivy leaf (list) and
an acorn on its stalk (žir); none of them is a French suit's symbol."""


def suit_symbol(suit: Suit | int) -> str:
    """The suit's symbol in the deck in use: ``♥`` (French) or ``❤`` / ``◉`` (mađarice)."""
    return (GERMAN_SYMBOLS if is_german() else FRENCH_SYMBOLS)[int(suit)]


def rank_text(rank: Rank | int) -> str:
    """The rank as printed on a card's corner: ``7`` to ``10`` in every deck; ``J Q K A``
    in the French deck (in every language, as the cards are printed), and with mađarice
    the language's own initials (hr ``D B K A``: dečko, baba, kralj, as; en ``U O K A``:
    Unter, Ober, King, Ace)."""
    rank = Rank(int(rank))
    if not is_german() or rank < Rank.JACK:
        return str(rank)
    words = {
        Rank.JACK: pgettext("german rank", "U"),
        Rank.QUEEN: pgettext("german rank", "O"),
        Rank.KING: pgettext("german rank", "K"),
        Rank.ACE: pgettext("german rank", "A"),
    }
    return words[rank]


def sequence_word(points: int) -> str:
    """A sequence (zvanje) by the name players give it: terca (three cards, 20), kvarta
    (four, 50), kvinta (five or more, 100), as a table says them, never "a run of N"
    (issue #35). ``points`` is the sequence's value."""
    if points >= 100:
        return pgettext("zvanje", "quint")
    if points >= 50:
        return pgettext("zvanje", "quarte")
    return pgettext("zvanje", "tierce")


def rank_plural(rank: Rank) -> str:
    """ "four *jacks*": the rank's plural, as a four of a kind is called (with mađarice the
    German cards' names: "four unters" / "četiri dečka", "four obers" / "četiri babe")."""
    if is_german() and rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE):
        german = {
            Rank.JACK: pgettext("german four", "unters"),
            Rank.QUEEN: pgettext("german four", "obers"),
            Rank.KING: pgettext("german four", "kings"),
            Rank.ACE: pgettext("german four", "aces"),
        }
        return german[rank]
    words = {
        Rank.JACK: pgettext("four", "jacks"),
        Rank.NINE: pgettext("four", "nines"),
        Rank.ACE: pgettext("four", "aces"),
        Rank.TEN: pgettext("four", "tens"),
        Rank.KING: pgettext("four", "kings"),
        Rank.QUEEN: pgettext("four", "queens"),
        Rank.EIGHT: pgettext("four", "eights"),
        Rank.SEVEN: pgettext("four", "sevens"),
    }
    return words[rank]


_TABLE: ContextVar[tuple[tuple[str, ...], int] | None] = ContextVar("bela_table", default=None)
"""The players of a network match being shown, and the seat of the one reading it."""


@contextmanager
def at_table(players: Sequence[str] | None, me: int | None) -> Iterator[None]:
    """Name the seats by ``players`` (a record's names) from seat ``me``'s side while
    showing it: every seat by its name (``seat_name``), ``me`` spoken to as "you" in
    sentences (``is_you``), "mi" is ``me``'s team. Without
    players (a match against bots) nothing changes. The names come from a file: they are
    made one safe line each, and the callers show them as text, never as markup."""
    table = None if players is None else (tuple(oneline(p, NAME_LIMIT) for p in players), me or 0)
    token = _TABLE.set(table)
    try:
        yield
    finally:
        _TABLE.reset(token)


def you() -> int:
    """The seat of the player the words are for: 0, or their seat at a network table."""
    table = _TABLE.get()
    return 0 if table is None else table[1]


def is_you(seat: int) -> bool:
    """Whether ``seat`` is the reader's own: a sentence about them is said to them ("you take
    the trick"), a separate message from one about a named player, never "You" in a name slot."""
    return seat == you()


def ours(team: int) -> bool:
    """Whether ``team`` is the reader's ("mi", we) rather than the other ("vi"). Every
    sentence about a team has one message for each (we write / you write), so each language
    conjugates its verb for the people it means instead of filling a label into a slot."""
    return team == you() % 2


def player_name(seat: int) -> str | None:
    """Who sits in ``seat`` at a network table being shown ("You" for the reader), else None."""
    table = _TABLE.get()
    return None if table is None else seat_name(seat)


_BOT_NAMES: list[str] = ["Ivo", "Marko", "Ana"]
"""The bots at seats 1, 2 (the partner) and 3: the player's choice (settings), else these."""


def set_bot_names(names: Sequence[str]) -> None:
    """Name the bots at seats 1, 2 and 3 wherever a seat is named (the app, from its settings).

    The names are the player's own text, kept as one safe line each; callers show
    them as text, never as markup."""
    if len(names) != 3:
        raise ValueError(f"three bots' names, not {len(names)}")
    _BOT_NAMES[:] = [oneline(name, 24) for name in names]


_PLAYER_NAME: list[str] = [""]
"""The player's own name from the settings (F2); "" while none is given."""


def set_player_name(name: str) -> None:
    """Name the player at the app's table (F2): the seat badge and the talk's lines say
    "Lucija: dalje" instead of the pronoun "You" used as a name ("Ti: dalje"). "" names
    nobody (the pronoun again). The name is the player's own text, kept as one safe line."""
    _PLAYER_NAME[0] = oneline(name, 24) if name else ""


def _pronouns() -> frozenset[str]:
    """The table's word for the player in every language, folded: an app record whose
    player gave no name in F2 (but named the bots) keeps it in the player's seat
    (``BelaApp.record_names``), in the language it was saved in."""
    from bela.i18n import in_every_language

    if not _PRONOUNS:
        _PRONOUNS.append(frozenset(w.casefold() for w in in_every_language("seat", "You")))
    return _PRONOUNS[0]


_PRONOUNS: list[frozenset[str]] = []


def seat_name(seat: int) -> str:
    """Seat 0 is the player: the name given in F2, else "You"; the bots by the names the
    player gave them (by default Croatian names, in every language). Showing a record
    (``at_table``: a network copy, or an app match whose player named the table in F2)
    every seat by the name the record keeps, the reader's own too, as the table showed it
    ("Lucija: dalje", never "Ti" used as a name); "You" in the reader's language only for
    a record that keeps the pronoun there (saved without the player's name). A sentence
    that speaks to the reader is its own message (``is_you``), whatever the name."""
    table = _TABLE.get()
    if table is not None:
        names, me = table
        if seat == me and names[seat].casefold() in _pronouns():
            return pgettext("seat", "You")  # a record without the player's name (below)
        return names[seat]
    if seat == 0:
        return _PLAYER_NAME[0] or pgettext("seat", "You")
    return _BOT_NAMES[seat - 1]


def team_name(team: int) -> str:
    """``mi`` (we: the player's team) and ``vi`` (you: the other): the table's own words."""
    return pgettext("team", "mi") if team == you() % 2 else pgettext("team", "vi")


def points(n: int) -> str:
    """``1 point`` / ``5 points`` with the language's plural forms."""
    return ngettext("{n} point", "{n} points", n).format(n=n)


def card_text(card: Card) -> str:
    """``10♥``: rank and suit symbol, as printed on the table (the deck in use: ``D❤``
    for the srce dečko of mađarice in hr). Every screen and command draws a card's face
    through this (and ``suit_symbol``), so the deck changes it everywhere at once."""
    return f"{rank_text(card.rank)}{suit_symbol(card.suit)}"


def typed_card(card: Card) -> str:
    """How a player types ``card`` in the deck in use, the example a prompt shows beside
    its face (``card_text``): the engine's code with the French deck (``10H``, ``QS``), and
    with mađarice the rank as printed and the suit's key in the player's language (hr
    ``10s``, ``Bt``: srce, list; the keys of ``bela.keys.bid_keys``). ``read_card`` reads
    both back."""
    if not is_german():
        return str(card)
    from bela.keys import bid_keys

    return f"{rank_text(card.rank)}{bid_keys()[int(card.suit)]}"


def read_suit(text: str) -> Suit | None:
    """The suit of a typed card (``read_card``), or None: with mađarice first the deck's key in the
    player's language (hr ``s`` is srce, hearts, not the engine's spades), then mađarice's
    symbols (in either deck: a face copied from another screen), then the engine's letters,
    the French symbols and the English names (``Suit.parse``). A bid is not read here but
    by ``bela.bid_reading``, with the app's letters (hr ``d`` is dalje, not diamonds)."""
    word = text.strip().casefold()
    if not word:
        return None
    if is_german():
        from bela.keys import bid_keys

        keys = [key.casefold() for key in bid_keys()[:4]]
        if word in keys:
            return Suit(keys.index(word))
    if word in GERMAN_SYMBOLS:
        return Suit(GERMAN_SYMBOLS.index(word))
    try:
        return Suit.parse(word)
    except CardParseError:
        return None


def _read_rank(text: str) -> Rank | None:
    """A rank as typed: with mađarice the deck's letters in the player's language first
    (hr ``D B K A``; none of them is another rank's engine letter), then the engine's
    ``7 8 9 10 J Q K A`` and ``T``."""
    word = text.casefold()
    if is_german():
        for rank in (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE):
            if word == rank_text(rank).casefold():
                return rank
    try:
        return Rank.parse(word)
    except CardParseError:
        return None


def read_card(text: str) -> Card | None:
    """The card a player typed, or None if it names none: every face the deck in use
    shows (``card_text``: ``10♥``, hr mađarice ``D❤``) and every typed code (``typed_card``:
    ``10H``, ``th``, hr mađarice ``Ds``), in any case. The engine's codes stay readable in
    both decks where they mean no other card (``10H`` is srce's 10 under mađarice too);
    where a deck's letter and an engine letter differ (hr mađarice's ``s``), the deck's
    wins, as its prompt shows it. The suit is the last character, the rank what is before."""
    word = text.strip()
    if not is_german():
        try:
            return Card.parse(word)
        except CardParseError:
            pass
    if len(word) < 2:
        return None
    rank, suit = _read_rank(word[:-1]), read_suit(word[-1])
    if rank is None or suit is None:
        return None
    return Card.of(rank, suit)


def card_list(cards: tuple[Card, ...] | list[Card]) -> str:
    """``J♥, 9♥ or A♥``: the allowed cards, joined the language's way."""
    names = [card_text(c) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return _("{cards} or {last}").format(cards=", ".join(names[:-1]), last=names[-1])


def action_error(exc: Exception) -> str:
    """An action the engine refused, as the app says it (first letter capitalised).

    An illegal card is worded from the engine's data (``illegal_text``); the other
    refusals the app can meet have one cause each, worded here by their type.
    """
    if isinstance(exc, IllegalPlayError) and exc.reason is not None:
        text = illegal_text(exc.reason)
    elif isinstance(exc, IllegalClaimError):
        text = _("'dosta' is said by the player who has just won a trick, before the next lead")
    elif isinstance(exc, IllegalBidError):
        text = _("the dealer may not say dalje: name a trump suit")
    else:
        text = symbolize(str(exc))
    return text[:1].upper() + text[1:]


_CARD_CODE: Final = re.compile(r"\b(10|[789JQKA])([HDSC])\b")


def symbolize(message: str) -> str:
    """Engine messages name cards like ``JH``; show them as ``J♥`` instead (in the deck
    in use)."""
    return _CARD_CODE.sub(lambda m: card_text(Card.parse(m.group(0))), message)


def illegal_text(reason: Illegal) -> str:
    """Why a card may not be played, in the player's language, from the engine's data."""
    card = card_text(reason.card)
    if reason.code == "not_in_hand":
        return _("{card} is not in your hand").format(card=card)
    assert reason.led is not None and reason.trump is not None
    values = {
        "card": card,
        "win": card_text(reason.win) if reason.win is not None else "",
        "led": suit_name(reason.led),
        "led_one": suit_singular(reason.led),
        "trump": suit_name(reason.trump),
        "legal": card_list(reason.legal),
    }
    if reason.code == "beat_trump":
        text = _("{card} is not allowed: you must beat {win} with a higher trump ({legal})")
    elif reason.code == "beat_led":
        text = _("{card} is not allowed: you must beat {win} with a higher {led_one} ({legal})")
    elif reason.code == "follow":
        text = _("{card} is not allowed: you must follow {led} ({legal})")
    elif reason.code == "overtrump":
        text = _(
            "{card} is not allowed: you have no {led}, so you must overtrump {win} "
            "with a higher trump ({legal})"
        )
    else:
        text = _("{card} is not allowed: you have no {led}, so you must play a trump ({legal})")
    return text.format(**values)


def level_name(level: str) -> str:
    """A bots' level or kind as the player reads it (``easy``, ``normal``, ``hard``...)."""
    words = {
        "easy": pgettext("bots", "easy"),
        "normal": pgettext("bots", "normal"),
        "hard": pgettext("bots", "hard"),
        "heuristic": pgettext("bots", "heuristic"),
        "random": pgettext("bots", "random"),
        "network": pgettext("bots", "network"),
    }
    # a level not among these came from a file or the index: through the gate
    return words.get(level) or oneline(level, 32)


def company(players: Sequence[str], me: int) -> str:
    """Who a network match was played with, from seat ``me``'s side: the partner and the
    two opponents by name (names come from a file: one safe line each, shown as text)."""
    names = [oneline(name, 24) for name in players]
    return _("with {partner} against {left} and {right}").format(
        partner=names[(me + 2) % 4], left=names[(me + 1) % 4], right=names[(me + 3) % 4]
    )


def match_kind(difficulty: str, players: Sequence[str] | None, me: int | None) -> str:
    """What the history says a match was: the bots' level, or a network match and with whom.

    ``difficulty`` says which (the index files a network match as ``network``,
    ``bela.archive.history.NETWORK``); an app match may have names too (F2), and is still
    a match against bots."""
    if difficulty != "network" or players is None:
        return level_name(difficulty)
    return _("network, {company}").format(company=company(players, me or 0))


def padded(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells (a Chinese character is two)."""
    from rich.cells import cell_len

    return text + " " * max(width - cell_len(text), 0)


def outcome_name(outcome: str) -> str:
    """A match's result (``won``, ``lost``, ``unfinished``, ``damaged``) in the player's words."""
    words = {
        "won": pgettext("outcome", "won"),
        "lost": pgettext("outcome", "lost"),
        "unfinished": pgettext("outcome", "unfinished"),
        "damaged": pgettext("outcome", "damaged"),
    }
    return words.get(outcome, outcome)


def is_pod_mus(played: RoundRecord, rules: Rules) -> bool:
    """Whether the dealer named trump because everybody else said dalje ("pod mus"): the
    dealer speaks last, so a dealer who called was left with it, and had to call unless
    the match lets the dealer pass too (``no_forced_trump``, where it was a choice)."""
    r = played.result
    return not rules.no_forced_trump and r.caller is not None and r.caller == played.dealer


def sheet_mark_codes(played: RoundRecord, rules: Rules | None = None) -> list[str]:
    """What a score sheet notes beside a round, as codes with absolute teams (``pad:1``,
    ``stiglja:0``, ``visi:40``, ``podmus:1``...): data a network host can send every
    reader, each of whom words it for their own team (``mark_words``). ``rules``, the
    match's, also marks a round called pod mus (``is_pod_mus``)."""
    r = played.result
    marks: list[str] = []
    if r.redeal:
        marks.append("redeal")
    if rules is not None and r.caller is not None and is_pod_mus(played, rules):
        marks.append(f"podmus:{r.caller % 2}")
    if r.caller is not None and r.fell and not r.hanging:  # a visi tie hangs, not falls
        marks.append(f"{'padtie' if r.tie else 'pad'}:{r.caller % 2}")
    if r.stiglja is not None:
        marks.append(f"stiglja:{r.stiglja}")
    if r.belot is not None:
        marks.append(f"belot:{r.belot}")
    if r.claim is not None:  # "dosta": the round stopped on a claim of the match
        marks.append(f"{'held' if r.claim_ok else 'wrong'}:{r.claim}")
    if r.hanging:
        marks.append(f"visi:{r.hanging}")
    for team in (0, 1):
        collected = played.written[team] - r.points[team]
        if collected > 0:
            marks.append(f"collect:{team}:{collected}")
    return marks


def mark_words(code: str, ours: int) -> str:
    """A score sheet's mark (``sheet_mark_codes``) in the reader's language, "mi" being team
    ``ours``; a code this bela does not know (a newer host's) is shown as it is, cut short."""
    kind, *values = code.split(":")
    try:
        numbers = [int(v) for v in values]
    except ValueError:
        return code[:24]

    if kind == "redeal" and not numbers:
        return _("redeal")
    if len(numbers) == 1 and numbers[0] in (0, 1):
        we = numbers[0] == ours
        words = {
            "podmus": (_("pod mus mi"), _("pod mus vi")),
            "pad": (_("pad mi"), _("pad vi")),
            "padtie": (_("pad mi (tie)"), _("pad vi (tie)")),
            "stiglja": (_("štiglja mi"), _("štiglja vi")),
            "belot": (_("belot mi"), _("belot vi")),
            "held": (_("dosta mi (held)"), _("dosta vi (held)")),
            "wrong": (_("dosta mi (wrong)"), _("dosta vi (wrong)")),
        }
        if kind in words:
            return words[kind][0 if we else 1]
    if kind == "visi" and len(numbers) == 1:
        n = numbers[0]
        return ngettext("visi: {points} point hangs", "visi: {points} points hang", n).format(
            points=n
        )
    if kind == "collect" and len(numbers) == 2 and numbers[0] in (0, 1):
        n = numbers[1]
        if numbers[0] == ours:
            text = ngettext("+{points} point of visi to mi", "+{points} points of visi to mi", n)
        else:
            text = ngettext("+{points} point of visi to vi", "+{points} points of visi to vi", n)
        return text.format(points=n)
    return code[:24]
