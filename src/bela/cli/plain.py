"""``bela play --plain``: the whole match as lines of text, for screen readers and dumb terminals.

Nothing is drawn or redrawn: every event is one whole sentence on a line of its own, in the
player's language (the same table talk as the app's log, ``bela.table_talk``, plus a line for
each card with who played it), and the player answers on a line of their own:

- a card: its number in the hand as listed (``1``-``8``) or its code (``10H``, ``10♥``, ``qs``;
  ``QH bela`` says bela with it); with mađarice also as the deck shows and names it (hr
  ``D❤``, ``Ds``: ``bela.wording.read_card``);
- a bid: the app's letters of the language and deck (``h d s c`` and ``p`` in English, ``h k p t``
  and ``d`` in Croatian), ``dalje``, a suit's name, or ``call h`` (``bela.bid_reading``: the
  same keys as the app's, never another bid's letter);
- ``?`` lists the legal moves, ``i`` (or ``hint``) asks the hard bot, ``s`` (``score``; ``r``
  in Croatian and ``m`` in Spanish, whose ``s`` is dosta and dalje) says the score, ``b``
  (``blok``) reads the score sheet a round a line, ``q`` (``quit``, or the end of the input)
  saves and quits. The table's own letters come first: in English ``h`` and ``s`` name hearts
  and spades while trump is being named, and ``h`` is the hint while cards are played.

It is the app's match: the same settings (target, bots, house rules, names, bela and zvanja
asked or not), the same autosave after every action, the same archive at the end (history,
statistics, ``bela replay FILE``), and an unfinished match resumed (``--new`` starts another;
the unfinished one is kept in the archive, as in the app). The app's building blocks below
``bela.tui`` are used (``bela.session``, ``bela.table_talk``, ``bela.keys``); this module
imports nothing of the app.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TextIO

from bela.bid_reading import read_bid, refusal
from bela.engine import (
    QUICK_TARGET,
    Action,
    Call,
    Card,
    Claim,
    IllegalActionError,
    Match,
    Pass,
    Phase,
    Play,
    Round,
    Silent,
    Suit,
)
from bela.foundation.untrusted import oneline
from bela.i18n import _
from bela.keys import bid_keys, letter
from bela.table_talk import action_lines, forced_call, result_line, round_lines, zvanja_lines
from bela.table_text import (
    HUMAN,
    SEAT_NAMES,
    explain_round,
    hand_order,
    symbolize,
    zvanje_text,
)
from bela.wording import (
    FRENCH_SYMBOLS,
    GERMAN_SYMBOLS,
    action_error,
    card_text,
    level_name,
    read_card,
    suit_name,
    typed_card,
)

if TYPE_CHECKING:
    from bela.ai import Bot
    from bela.cli.options import PlayOptions

__all__ = [
    "PlainTable",
    "named_card",
    "plain_text",
    "run_plain",
    "spoken",
    "terminal_width",
]

_QUIT: Final = frozenset({"q", "quit", "exit"})
_CHOICES: Final = frozenset({"?", "help"})
_HINT: Final = frozenset({"hint"})
_SCORE: Final = frozenset({"score", "="})
_SHEET: Final = frozenset({"blok", "sheet"})
_YES: Final = frozenset({"y", "yes", "d", "da", "j", "ja", "s", "si", "sí", "o", "oui", "д", "да"})
_SCORE_LETTER: Final = {"hr": "r", "es": "m"}
"""The score's letter where ``s`` is the table's (Croatian dosta; Spanish dalje, paso): rezultat,
marcador."""
_CLAIM_WORDS: Final = frozenset({"dosta", "claim"})
_SILENT_WORDS: Final = frozenset({"šutim", "sutim"})


class _Quit(Exception):
    """The player asked to stop (``q``, or the input ended): save and leave."""


class PlainTable:
    """One match at a table of text: ``inp`` gives the player's lines, ``out`` takes the talk.

    ``bots`` play seats 1-3; ``save`` and ``archive`` are the app's (``bela.session``), each
    returning a problem in words or None, shown once.
    """

    def __init__(
        self,
        match: Match,
        difficulty: str,
        bots: dict[int, Bot],
        inp: TextIO,
        out: TextIO,
        *,
        auto_bela: bool = True,
        always_declare: bool = True,
        save: Callable[[Match], str | None] | None = None,
        archive: Callable[[Match], str | None] | None = None,
        words: bool = False,
        width: int | None = None,
    ) -> None:
        self.match = match
        self.difficulty = difficulty
        self.bots = bots
        self.inp = inp
        self.out = out
        self.auto_bela = auto_bela
        self.always_declare = always_declare
        self._save = save
        self._archive = archive
        self.words = words
        """Cards with their suit as a word (``--words``): "9 of spades", not "9♠"."""
        self.width = width
        """A terminal's columns: a longer sentence is broken between words, not where the
        terminal would cut it ("O / dgovaraš" at 40 columns in tmux); None for a pipe."""
        self._save_problem: str | None = None
        self._declare_asked: int | None = None
        self._hint_for: tuple[object, str] | None = None

    # ------------------------------------------------------------------ talk

    def say(self, line: str) -> None:
        """One whole line, at once (a screen reader reads what has arrived); the app's
        indentation (a zvanje under its team's line) means nothing to the ear."""
        self.out.write(plain_text(line, self.words, self.width) + "\n")
        self.out.flush()

    def ask(self, prompt: str | None) -> str:
        """The player's answer to ``prompt`` (stripped); the end of the input quits. The
        prompt is said once a turn: an answer to ``?`` or a refusal is the last line then."""
        if prompt is not None:
            self.say(prompt)
        line = self.inp.readline()
        if not line:
            raise _Quit
        return line.strip()

    # ------------------------------------------------------------------ the match

    def play(self) -> int:
        """Play until the match is over or the player quits; 0 either way."""
        match = self.match
        self.say(_plain_opening(match, self.difficulty))
        self.say(_keys_line())
        if match.rounds or (match.current is not None and match.current.actions):
            self.say(_("Resuming your unfinished match."))
            self._retell()
        elif match.current is not None:
            self._open_round()
        try:
            while not self.match.is_over:
                self._step()
        except _Quit:
            self._keep()
            self.say(_("Saved: bela play --plain goes on with this match."))
            return 0
        self._match_over()
        return 0

    def _retell(self) -> None:
        """A resumed match: each finished round's talk and result, then the round so far."""
        match = self.match
        scores = (0, 0)
        for record in match.rounds:
            self.say(_("— Round {n} —").format(n=record.index + 1))
            for line in round_lines(match.deal(record.index), record.actions):
                self.say(line)
            scores = (scores[0] + record.written[0], scores[1] + record.written[1])
            self.say(result_line(record, scores))
        rnd = match.current
        if rnd is not None:
            self._open_round(told=False)
            for line in round_lines(match.deal(match.next_index), rnd.actions):
                self.say(line)

    def _open_round(self, told: bool = True) -> None:
        match = self.match
        rnd = match.current
        assert rnd is not None
        self.say(_("— Round {n} —").format(n=match.next_index + 1))
        if rnd.dealer == HUMAN:
            self.say(_("You deal."))
        else:
            self.say(_("{name} deals.").format(name=SEAT_NAMES[rnd.dealer]))
        if told:
            self.say(self._hand_line(rnd))

    def _step(self) -> None:
        rnd = self.match.current
        assert rnd is not None and rnd.to_act is not None
        seat = rnd.to_act
        if seat != HUMAN:
            self._commit(self._bot_action(seat), seat)
            return
        if self._ask_declare(rnd):
            return
        self._commit(self._human_action(rnd), HUMAN)

    def _bot_action(self, seat: int) -> Action:
        from bela.ai.driver import bot_action

        rnd = self.match.current
        assert rnd is not None
        action = bot_action(self.match, self.bots[seat])
        try:
            rnd.apply(action, seat)
        except IllegalActionError:  # a bot's mistake must not stop the match: any legal one
            action = rnd.legal_actions()[0]
        return action

    def _commit(self, action: Action, seat: int) -> None:
        before = self.match
        rnd_before = before.current
        assert rnd_before is not None
        rnd_after = rnd_before.apply(action, seat)
        self.match = before.apply(action, seat)
        if isinstance(action, Play):
            self.say(_played_line(seat, action.card))
        asking = self._declare_pending(rnd_after)
        for line in action_lines(rnd_before, action, seat, rnd_after, zvanja=not asking):
            self.say(symbolize(line))
        if isinstance(action, Call) and rnd_after.result is None:
            self.say(self._hand_line(rnd_after))
        if rnd_after.result is not None:
            record = self.match.rounds[-1]
            self.say(result_line(record, self.match.scores))
            self.say(explain_round(record.result, record.written))
            self._keep()
            if not self.match.is_over:
                self._open_round()
        else:
            self._keep()

    def _keep(self) -> None:
        """Autosave (or, once the match is over, archive); a problem is said once."""
        if self.match.is_over:
            problem = self._archive(self.match) if self._archive else None
        else:
            problem = self._save(self.match) if self._save else None
        if problem is not None and problem != self._save_problem:
            self.say(problem)
        self._save_problem = problem

    def _match_over(self) -> None:
        ours, theirs = self.match.scores
        winner = self.match.winner
        if winner == 0:
            self.say(_("We win {ours} : {theirs} (mi : vi)").format(ours=ours, theirs=theirs))
        else:
            self.say(_("They win {ours} : {theirs} (mi : vi)").format(ours=ours, theirs=theirs))

    # ------------------------------------------------------------------ zvanja and bela

    def _declare_pending(self, rnd: Round) -> bool:
        """The player is still to be asked whether to declare their zvanja this round."""
        return (
            not self.always_declare
            and bool(rnd.declarations(HUMAN))
            and self._declare_asked != self.match.next_index
        )

    def _ask_declare(self, rnd: Round) -> bool:
        """At the player's first card, when "šutim" may be said and the setting asks: ask.
        True when the answer was to keep them back (the šutim is committed)."""
        if not self._declare_pending(rnd) or not rnd.can_stay_silent():
            return False
        self._declare_asked = self.match.next_index
        own = ", ".join(zvanje_text(z) for z in rnd.declarations(HUMAN))
        answer = self._answer(
            _("Declare your zvanja ({own})? y: declare them, n: keep them back (šutim).").format(
                own=own
            )
        )
        if answer:
            for line in zvanja_lines(rnd):
                self.say(line)
            return False
        self._commit(Silent(), HUMAN)
        return True

    def _answer(self, question: str) -> bool:
        """A yes or no; anything else asks again (the end of the input quits)."""
        while True:
            text = self.ask(question).casefold()
            if text in _YES or text.startswith("y"):
                return True
            if text in {"n", "no", "ne", "nein", "н", "нет", "否", "لا"} or text.startswith("n"):
                return False
            if text in _QUIT:
                raise _Quit

    def _with_bela(self, rnd: Round, card: Card, said: bool | None) -> Play:
        if not rnd.can_announce_bela(card):
            return Play(card)
        if said is not None:
            return Play(card, said)
        if self.auto_bela:
            return Play(card, True)
        return Play(card, self._answer(_("Say bela with {card}? (y/n)").format(card=_card(card))))

    # ------------------------------------------------------------------ the player's turn

    def _human_action(self, rnd: Round) -> Action:
        prompt: str | None = self._prompt(rnd)
        while True:
            text = self.ask(prompt)
            prompt = None
            action = self._read(rnd, text)
            if action is not None:
                return action

    def _prompt(self, rnd: Round) -> str:
        suits = " ".join(bid_keys()[:4])
        if rnd.phase is Phase.BIDDING:
            if forced_call(rnd):
                return _(
                    "Pod mus: the others all said dalje, so you must name trump ({suits})."
                ).format(suits=suits)
            keys = ("hearts", "diamonds", "spades", "clubs")
            names = {key: suit_name(suit) for key, suit in zip(keys, Suit, strict=True)}
            return _(  # the suits named in the deck in use (hr mađarice: srce, bundeva, ...)
                "Your bid: {suits} names trump ({hearts}, {diamonds}, {spades}, {clubs}), "
                "{dalje} says dalje; ? lists the choices."
            ).format(suits=suits, dalje=bid_keys()[4], **names)
        table = self._table_line(rnd)
        if not rnd.trick and rnd.can_claim() and rnd.counted(0) >= self.match.target:
            turn = _(
                "Your lead: a card's number or code, or {key}: say dosta (we have {points})."
            ).format(key=letter("dosta"), points=rnd.counted(0))
        elif not rnd.trick:
            turn = _("Your lead: a card's number or code; ? lists the cards you may play.")
        else:
            turn = _("Your turn: a card's number or code; ? lists the cards you may play.")
        return f"{table} {turn}" if table else turn

    def _read(self, rnd: Round, text: str) -> Action | None:
        """The action ``text`` names, or None after saying what was wrong or answering a
        question (``?``, the hint, the score, the blok)."""
        word = text.casefold()
        bidding = rnd.phase is Phase.BIDDING
        if not word:
            return None
        if bidding and word in bid_keys():
            return self._checked(rnd, _bids()[bid_keys().index(word)])
        if not bidding and word == letter("dosta"):
            return self._checked(rnd, Claim())
        if word in _QUIT:
            raise _Quit
        if word in _CHOICES:
            self.say(self._choices(rnd))
            return None
        if word in _HINT or word == letter("hint") or (word == "h" and not bidding):
            self._hint(rnd)
            return None
        if word in _SCORE or word == _score_letter():
            self.say(self._score_line())
            return None
        if word in _SHEET or word == letter("sheet"):
            for line in self._sheet_lines():
                self.say(line)
            return None
        if word in _CLAIM_WORDS:
            return self._checked(rnd, Claim())
        if word in _SILENT_WORDS:
            return self._checked(rnd, Silent())
        if bidding:
            return self._read_bid(rnd, text)
        return self._read_card(rnd, text)

    def _read_bid(self, rnd: Round, text: str) -> Action | None:
        """The bid ``text`` names as the app's keys and words do (``bela.bid_reading``), or
        None after one line that lists the letters."""
        index = read_bid(text)
        if index is None:
            self.say(refusal(text, not forced_call(rnd)))
            return None
        return self._checked(rnd, _bids()[index])

    def _read_card(self, rnd: Round, text: str) -> Action | None:
        named = named_card(text, _hand(rnd))
        if named is None:
            self.say(_not_understood(text))
            return None
        card, said = named
        try:
            rnd.apply(Play(card), HUMAN)
        except IllegalActionError as exc:
            self.say(symbolize(action_error(exc)))
            return None
        return self._checked(rnd, self._with_bela(rnd, card, said))

    def _checked(self, rnd: Round, action: Action) -> Action | None:
        try:
            rnd.apply(action, HUMAN)
        except IllegalActionError as exc:
            self.say(symbolize(action_error(exc)))
            return None
        return action

    # ------------------------------------------------------------------ what is said on asking

    def _hand_line(self, rnd: Round) -> str:
        cards = ", ".join(f"{i}: {_card(card)}" for i, card in enumerate(_hand(rnd), start=1))
        return _("Your cards: {cards}.").format(cards=cards)

    def _table_line(self, rnd: Round) -> str:
        """The cards of the trick so far, each with who played it ("" when it is empty)."""
        if not rnd.trick:
            return ""
        leader = rnd.trick_leader
        played = ", ".join(
            _("{name}: {card}").format(name=SEAT_NAMES[(leader + i) % 4], card=_card(card))
            for i, card in enumerate(rnd.trick)
        )
        return _("On the table: {cards}.").format(cards=played)

    def _choices(self, rnd: Round) -> str:
        if rnd.phase is Phase.BIDDING:
            named: list[str] = []
            for key, bid in zip(bid_keys(), _bids(), strict=True):
                try:
                    rnd.apply(bid, HUMAN)
                except IllegalActionError:
                    continue
                what = _("dalje") if isinstance(bid, Pass) else suit_name(bid.suit)
                named.append(f"{key}: {what}")
            return _("You may say: {choices}.").format(choices=", ".join(named))
        hand = _hand(rnd)
        mask = rnd.legal_mask()
        legal = [f"{i}: {_card(c)}" for i, c in enumerate(hand, start=1) if mask >> int(c) & 1]
        line = _("You may play: {cards}.").format(cards=", ".join(legal))
        if rnd.can_claim() and not rnd.trick:
            line += " " + _("Or {key}: say dosta.").format(key=letter("dosta"))
        return line

    def _hint(self, rnd: Round) -> None:
        """The hard bot's card or bid and why; asked again in the same place, its numbers."""
        from bela.ai.base import decision_rng
        from bela.ai.hard import advise

        if self._hint_for is not None and self._hint_for[0] is self.match:
            self.say(self._hint_for[1])
            return
        self.say(_("Thinking about a hint…"))
        step = len(rnd.actions)
        advice = advise(rnd.view(HUMAN), decision_rng(self.match.seed, self.match.next_index, step))
        self.say(_("Hint: {why}.").format(why=symbolize(advice.why)))
        numbers = (
            _("Hint, the numbers: {details}. (i: in words)").format(
                details=symbolize(advice.details)
            )
            if advice.details
            else _("Hint: {why}.").format(why=symbolize(advice.why))
        )
        self._hint_for = (self.match, numbers)

    def _score_line(self) -> str:
        ours, theirs = self.match.scores
        if self.match.target == QUICK_TARGET:
            return _("Score: mi {mi}, vi {vi}; brza 163, three deals.").format(mi=ours, vi=theirs)
        return _("Score: mi {mi}, vi {vi}; the match is to {target}.").format(
            mi=ours, vi=theirs, target=self.match.target
        )

    def _sheet_lines(self) -> list[str]:
        """The blok: every round's line as the table talk closed it, then the score."""
        lines: list[str] = []
        scores = (0, 0)
        for record in self.match.rounds:
            scores = (scores[0] + record.written[0], scores[1] + record.written[1])
            lines.append(result_line(record, scores))
        if not lines:
            lines.append(_("No round has been written yet."))
        lines.append(self._score_line())
        return lines


_SYMBOLS: Final = "".join(FRENCH_SYMBOLS + GERMAN_SYMBOLS)  # either deck's (bela.deck)
_SUIT_THEN_NAME: Final = re.compile(rf"(?<!\S)[{_SYMBOLS}] (?=\w)")
_CARD: Final = re.compile(rf"(?<!\w)(10|\w)([{_SYMBOLS}])")


def named_card(text: str, hand: tuple[Card, ...]) -> tuple[Card, bool | None] | None:
    """The card ``text`` names, by its number in ``hand`` as listed (``3``) or its code
    (``10H``, ``10♥``; with mađarice also hr ``D❤``, ``Ds``: ``bela.wording.read_card``),
    and whether bela was said with it (``QH bela``: True; not said: None); None when it
    names none. Whether it may be played is the table's to say."""
    parts = text.split()
    said: bool | None = None
    if len(parts) == 2 and parts[1].casefold() == "bela":
        said = True
    elif len(parts) != 1:
        return None
    if parts[0].isdecimal():  # also the digits of other scripts (Arabic-Indic)
        index = int(parts[0]) - 1
        if not 0 <= index < len(hand):
            return None
        return hand[index], said
    card = read_card(parts[0])  # every face and typed code of the deck in use
    return None if card is None else (card, said)


def plain_text(line: str, words: bool, width: int | None) -> str:
    """One line as plain mode writes it: spoken (``spoken``), and a sentence longer than a
    terminal's ``width`` broken between words, not where the terminal would cut it."""
    text = spoken(line.strip(), words)
    if width is not None and len(text) > width:
        text = "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False))
    return text


def spoken(line: str, words: bool) -> str:
    """``line`` as it reads aloud: a suit's symbol before its own name is left out (a screen
    reader said "diamonds diamonds" for "♦ diamonds"); with ``words`` each card's suit is a
    word ("9 of spades": espeak-ng read "9♠" as "nine spade suit")."""
    line = _SUIT_THEN_NAME.sub("", line)
    if not words:
        return line
    return _CARD.sub(
        lambda m: _("{rank} of {suit}").format(
            rank=m.group(1), suit=suit_name(_SYMBOLS.index(m.group(2)) % 4)
        ),
        line,
    )


def terminal_width(out: TextIO) -> int | None:
    """The columns of the terminal ``out`` is (at least 20), or None when it is not one."""
    try:
        if not out.isatty():
            return None
    except (AttributeError, ValueError):
        return None
    return max(20, shutil.get_terminal_size().columns)


def _bids() -> tuple[Call | Pass, ...]:
    """The bids in the order of the table's letters (``bid_keys``): four suits, then dalje."""
    return (*(Call(s) for s in Suit), Pass())


def _hand(rnd: Round) -> tuple[Card, ...]:
    """The player's cards in the order they are listed (the app's: by suit, strongest first)."""
    return hand_order(rnd.hand(HUMAN), rnd.trump)


def _card(card: Card) -> str:
    return card_text(card)


def _played_line(seat: int, card: Card) -> str:
    if seat == HUMAN:
        return _("You play {card}.").format(card=_card(card))
    return _("{name} plays {card}.").format(name=SEAT_NAMES[seat], card=_card(card))


def _not_understood(text: str) -> str:
    return _("{text}: not a card you hold or a choice here; ? lists them.").format(
        text=oneline(text, 40)
    )


def _plain_opening(match: Match, difficulty: str) -> str:
    from bela.session import bot_kind

    level = level_name(bot_kind(difficulty))
    if match.target == QUICK_TARGET:
        opening = _("Brza 163 (three deals), seed {seed}, bots: {level}.")
    else:
        opening = _("Match to {target}, seed {seed}, bots: {level}.")
    return opening.format(target=match.target, seed=match.seed, level=level)


def _keys_line() -> str:
    return _(
        "Plain mode: a line for each event. Answer with a card's number or code ({code}), a "
        "trump letter or dalje; ? lists your choices, {hint} a hint, {score} the score, "
        "{sheet} the blok, q saves and quits."
    ).format(
        code=typed_card(Card.parse("10H")),
        hint=letter("hint"),
        sheet=letter("sheet"),
        score=_score_letter(),
    )


def _score_letter() -> str:
    from bela.i18n import current_language

    return _SCORE_LETTER.get(current_language(), "s")


def run_plain(options: PlayOptions, inp: TextIO, out: TextIO, err: TextIO) -> int:
    """``bela play --plain``: the app's settings and saves, a table of text."""
    from bela.ai import BOT_KINDS
    from bela.archive.storage import claim_slot, release_slot
    from bela.cli.common import resolve_difficulty
    from bela.i18n import pgettext, set_language
    from bela.session import archive, autosave, load_saved, make_bots, shelve_unfinished
    from bela.settings import DEFAULT_BOT_NAMES, SettingsStore
    from bela.wording import set_bot_names

    stored = SettingsStore.load().saved
    set_language(options.lang, stored.language)
    set_bot_names(stored.bot_names)
    names: tuple[str, str, str, str] | None = None
    if stored.player_name or stored.bot_names != DEFAULT_BOT_NAMES:
        names = (stored.player_name or pgettext("seat", "You"), *stored.bot_names)
    difficulty = stored.difficulty
    if options.difficulty is not None:
        kind, notice = resolve_difficulty(options.difficulty, BOT_KINDS)
        difficulty = kind
        if notice is not None:
            print(f"bela: {notice}", file=err)
    try:
        claim_slot()
    except OSError as exc:
        out.write(oneline(_("{error}: this window's match will not be saved").format(error=exc)))
        out.write("\n")
    try:
        match: Match | None = None
        if options.resume is not False:
            saved, problem = load_saved()
            if problem is not None:
                print(f"bela: {problem}", file=err)
            if saved is not None:
                match, difficulty = saved.match, saved.difficulty
            elif options.resume:
                print("bela: " + _("there is no unfinished match to resume"), file=err)
                return 1
        if match is None:
            kept = shelve_unfinished()
            if kept is not None:
                out.write(kept + "\n")
            target = options.target if options.target is not None else stored.target
            rules = options.rules if options.rules is not None else stored.rules
            match = Match.new(options.seed, target, rules, start_index=options.round - 1)
        level = difficulty

        table = PlainTable(
            match,
            level,
            make_bots(level),
            inp,
            out,
            auto_bela=stored.auto_bela,
            always_declare=stored.always_declare,
            save=lambda m: autosave(m, level, names),
            archive=lambda m: archive(m, level, names),
            words=options.words,
            width=terminal_width(out),
        )
        code = table.play()
        table.say(
            _(
                "bela: your match used seed {seed} (the same cards: bela play --seed {seed} "
                "--new; your match: bela history)"
            ).format(seed=table.match.seed)
        )
        return code
    finally:
        release_slot()
