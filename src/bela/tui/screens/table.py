"""The card table: where a match is played.

The screen holds the one piece of game state, an immutable ``Match``, and a
little display state (the card under the cursor, a finished trick still on
show, the message line). Every change goes through ``_commit``: the engine
applies the action, the log says what happened, the match is autosaved, and the
widgets get fresh snapshots.

Bots take their turns in a worker (``_drive``): each decision is computed in a
thread so the interface never freezes, then shown after a short delay the
player can skip. The worker is exclusive and belongs to this screen, so leaving
the table (new match, quit) cancels it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from bela.ai import Bot
from bela.ai.driver import bot_action
from bela.engine import (
    QUICK_TARGET,
    Action,
    Call,
    Card,
    Claim,
    CompletedTrick,
    IllegalActionError,
    Match,
    Pass,
    Phase,
    Play,
    Round,
    RoundRecord,
    SeatView,
    Silent,
)
from bela.i18n import N_, _
from bela.keys import bid_keys, bind_letters, letter
from bela.session import archive, autosave, bot_kind, make_bots
from bela.table_talk import (
    action_lines,
    forced_call,
    result_line,
    round_lines,
    zvanja_lines,
)
from bela.table_text import HUMAN, SEAT_NAMES, TEAM_NAMES
from bela.tui.events import history_lines
from bela.tui.model import (
    HandModel,
    TrickModel,
    bid_model,
    bid_options,
    hand_order,
    seat_model,
    sheet_model,
    status_line,
    taken_text,
    trick_cards,
)
from bela.tui.moments import bela_callout, first_trick_zvanja, zvanja_moment
from bela.tui.screens.fresh import event_clock
from bela.tui.screens.table_parts import (
    CHOOSE_BINDINGS,
    TABLE_LETTERS,
    HintBook,
    choose_first,
    mark_huge,
    no_such_bid,
    no_such_card,
    table_layout,
)
from bela.tui.standing import deal_heading, deals_played
from bela.tui.widgets import BidMenu, Hand, ScoreSheet, SeatBadge, TrickView
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.language import LanguageRedraw
from bela.tui.widgets.table_talk import TableTalk
from bela.tui.widgets.zvanja import ZvanjaPanel
from bela.wording import action_error, is_you, level_name

if TYPE_CHECKING:
    from bela.ai.hard import Advice
    from bela.tui.app import BelaApp

__all__ = ["TableScreen"]

_NUMBER_KEYS: Final = tuple(str(n) for n in range(1, 9))


def _rules_named(match: Match) -> str:
    """The match's house rules for the score sheet's header; empty for the standard game.

    A brza 163 has no target score to claim, so "na dosta" does not apply to it and is
    not named there (issue #35)."""
    from dataclasses import replace

    from bela.settings import rules_summary

    rules = replace(match.rules, dosta=False) if match.target == QUICK_TARGET else match.rules
    summary = rules_summary(rules)
    return "" if summary == _("standard") else summary


class TableScreen(LanguageRedraw, Screen[None]):
    """One match against three bots; the human is seat 0 (team "mi")."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *CHOOSE_BINDINGS,
        Binding("space", "skip", N_("Skip")),
        Binding("plus,equals_sign", "speed(-1)", N_("Faster"), show=False),
        Binding("minus", "speed(1)", N_("Slower"), show=False),
    ]

    def __init__(self, match: Match, difficulty: str) -> None:
        super().__init__()
        self.match = match
        self.difficulty = difficulty
        self.bots: dict[int, Bot] = make_bots(difficulty)
        self.shown: Round | None = match.current
        """The round on the table: the current one, or a finished one until its summary closes."""
        self.held: CompletedTrick | None = None
        """A finished trick still shown in the middle."""
        self.finished: RoundRecord | None = None
        """A round that just ended and whose summary has not been shown yet."""
        self.cursor = 0
        self.unchosen = False
        """A number key named a card the player does not hold: no card is chosen, so
        Enter plays nothing until a card is (an arrow, a number key or a click)."""
        self.bid_cursor = 0
        self._skip = asyncio.Event()
        self._save_problem: str | None = None
        self._message: tuple[str, str] = ("", "")
        self._zvanja_heard: int | None = None
        self._declare_heard: int | None = None
        self._declare_answered: int | None = None
        """The round (index) in which the player answered the zvanja question: until then
        the side panel shows nobody's zvanja (issue #35: the partner's were on show while
        the player was still choosing to declare or to keep theirs back)."""
        """The round whose zvanja have been said (the moment comes once a round)."""
        self._opened_at: float | None = None
        """When the human's turn opened (``event_clock``); None while it is not their turn.
        A key typed before then never acts: it was meant for an earlier moment."""
        self._key_at: float | None = None
        """When the key now being handled was typed (set by ``on_key``, taken by the action)."""

    @property
    def bela_app(self) -> BelaApp:
        from bela.tui.app import BelaApp

        app = self.app
        assert isinstance(app, BelaApp)
        return app

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        sheet = ScoreSheet(id="sheet")
        sheet.border_title = f"{TEAM_NAMES[0]} / {TEAM_NAMES[1]}"
        sheet.rules = _rules_named(self.match)
        # the house rule "clockwise" seats Ivo (1) on the left, Ana (3) on the right
        yield from table_layout(clockwise=self.match.rules.clockwise, sheet=sheet)

    def on_mount(self) -> None:
        bind_letters(self, (*TABLE_LETTERS, "new_match"))
        rnd = self.match.current
        log = self.query_one("#log", TableTalk)
        level = level_name(bot_kind(self.difficulty))
        if self.match.target == QUICK_TARGET:  # not a race to 163: three deals
            opening = _("Brza 163 (three deals), seed {seed}, bots: {level}.")
        else:
            opening = _("Match to {target}, seed {seed}, bots: {level}.")
        log.say(opening.format(target=self.match.target, seed=self.match.seed, level=level))
        for entry in history_lines(self.match):  # a resumed match: the rounds before this one
            log.say(entry)
        if rnd is not None:
            index = self.match.next_index
            log.say(self._round_heading(index))
            for line in round_lines(self.match.deal(index), rnd.actions):
                log.say(line)
        self._save()
        self.refresh_view()
        self._drive()

    # ------------------------------------------------------------------ state helpers

    def human_turn(self) -> bool:
        """Whether the human may act now (their turn is open and nothing is left to show)."""
        rnd = self.match.current
        return (
            self._opened_at is not None
            and self.held is None
            and self.finished is None
            and rnd is not None
            and rnd is self.shown
            and rnd.to_act == HUMAN
        )

    def hand_cards(self) -> tuple[Card, ...]:
        rnd = self.shown
        if rnd is None:
            return ()
        return hand_order(rnd.hand(HUMAN), rnd.trump)

    def say(self, text: str, kind: str = "info") -> None:
        """Put a line in the message area (``kind`` is info, hint or error)."""
        self._message = (text, kind)
        self._show_message()

    def _show_message(self) -> None:
        text, kind = self._message
        message = self.query_one("#message", Static)
        message.update(Text(text))
        message.set_class(kind == "error", "-error")

    def on_resize(self, event: events.Resize) -> None:
        mark_huge(self, event.size.width, event.size.height)

    def redraw_language(self) -> None:
        """The language changed: redraw what is drawn from words (the talk keeps its lines)."""
        self.query_one("#log", TableTalk).border_title = _("Table talk")
        bind_letters(self, (*TABLE_LETTERS, "new_match"))
        for footer in self.query(Footer):
            footer.refresh(recompose=True)
        self.refresh_view()

    def _prompt(self) -> str:
        """The standing hint for the current moment (when no other message is up)."""
        rnd = self.shown
        if rnd is None:
            return ""
        if self.finished is not None:
            return _("The round is over. Enter or Space: see the result.")
        if self.held is not None:
            return _("{taken}. Enter or Space: carry on.").format(taken=taken_text(rnd, self.held))
        if rnd.to_act is None:
            return ""
        if rnd.to_act != HUMAN:
            name = SEAT_NAMES[rnd.to_act]
            if rnd.phase is Phase.BIDDING:
                return _("{name} is choosing trump… (Space: skip the wait)").format(name=name)
            return _("{name} is thinking… (Space: skip the wait)").format(name=name)
        if rnd.phase is Phase.BIDDING:
            if forced_call(rnd):
                return _(
                    "Pod mus: the others all said dalje, so you must name trump ({suits})."
                ).format(suits=" ".join(bid_keys()[:4]))
            return _(
                "Your 6 cards are below; the 2 talon cards stay face down until trump is named."
            )
        left = len(rnd.hand(HUMAN))
        keys = (
            _("Enter to play your last card.")
            if left == 1
            else _("←/→ or 1-{left} to choose, Enter to play.").format(left=left)
        )
        if not rnd.trick:
            points = rnd.counted(0)
            if rnd.can_claim() and points >= self.match.target:  # na dosta, and enough counted
                return _("Your lead: {keys} Or {key}: say dosta (we have {points}).").format(
                    keys=keys, key=letter("dosta"), points=points
                )
            return _("Your lead: {keys}").format(keys=keys)
        if len(self._legal_cards(rnd)) < len(rnd.hand(HUMAN)):
            return _("Your turn: {keys} Dimmed cards are not allowed here.").format(keys=keys)
        return _("Your turn: {keys}").format(keys=keys)

    # ------------------------------------------------------------------ drawing

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is "Play" in the footer, and "Bid" while the player names trump."""
        if action == "choose":
            return not self._bidding_now()
        if action == "choose_bid":
            return self._bidding_now()
        return True

    def action_choose_bid(self) -> None:
        self.action_choose()

    def _refresh_enter_word(self) -> None:
        """The footer's word for Enter follows the phase: refreshed when it changes only
        (the footer is composed anew on every refresh of the bindings)."""
        bidding = self._bidding_now()
        if bidding != getattr(self, "_footer_bidding", False):
            self._footer_bidding = bidding
            self.refresh_bindings()

    def refresh_view(self) -> None:
        """Hand every widget a fresh snapshot of the state."""
        rnd = self.shown
        if rnd is None:
            return
        self._refresh_enter_word()
        held = self.held is not None
        round_number = self.match.next_index if self.finished is None else self.finished.index
        self.query_one("#status", Static).update(
            Text("\n").join(
                [
                    Text(self._quick_status(rnd), style="bold")
                    if self.match.target == QUICK_TARGET
                    else Text(
                        (
                            # the player dealing is said to them ("dijeliš ti"), never
                            # the pronoun in a name's place ("dijeli Ti")
                            _(
                                "Round {n} · you deal · {mi} {mi_score} · {vi} {vi_score} (to {target})"  # noqa: E501
                            )
                            if is_you(rnd.dealer)
                            else _(
                                "Round {n} · dealer {dealer} · {mi} {mi_score} · {vi} {vi_score} (to {target})"  # noqa: E501
                            )
                        ).format(
                            n=round_number + 1,
                            dealer=SEAT_NAMES[rnd.dealer],
                            mi=TEAM_NAMES[0],
                            vi=TEAM_NAMES[1],
                            mi_score=self.match.scores[0],
                            vi_score=self.match.scores[1],
                            target=self.match.target,
                        ),
                        style="bold",
                    ),
                    Text(status_line(rnd, held)),
                ]
            )
        )
        for seat in range(4):
            self.query_one(f"#seat-{seat}", SeatBadge).model = seat_model(rnd, seat, held)
        self._refresh_moments(rnd)
        self._refresh_centre(rnd)
        self.query_one("#hand", Hand).model = self._hand_model(rnd)
        self.query_one("#sheet", ScoreSheet).model = sheet_model(self.match)
        if self._message[1] != "error":
            self._message = (self._prompt(), "hint")
        self._show_message()

    def _round_heading(self, index: int) -> Text:
        """The talk's line at a new deal, naming it as the status line does: "— Round 4 —",
        or in a brza 163 "— Deal 2 of 3 —" (issue #35: the talk said "Runda 2" under a
        header saying "Dijeljenje 2 od 3")."""
        if self.match.target == QUICK_TARGET:
            heading = deal_heading(deals_played(self.match.rounds) + 1)
            return Text(f"— {heading} —", style="bold")
        return Text(_("— Round {n} —").format(n=index + 1), style="bold")

    def _quick_status(self, rnd: Round) -> str:
        """The status line of a brza 163: which of its three deals this is, not "(to 163)"."""
        match = self.match
        if self.finished is None:
            deal = deals_played(match.rounds) + 1
        else:
            deal = deals_played(r for r in match.rounds if r.index <= self.finished.index)
        if is_you(rnd.dealer):
            text = _("{progress} · you deal · {mi} {mi_score} · {vi} {vi_score}")
        else:
            text = _("{progress} · dealer {dealer} · {mi} {mi_score} · {vi} {vi_score}")
        return text.format(
            progress=deal_heading(deal),
            dealer=SEAT_NAMES[rnd.dealer],
            mi=TEAM_NAMES[0],
            vi=TEAM_NAMES[1],
            mi_score=match.scores[0],
            vi_score=match.scores[1],
        )

    def _refresh_moments(self, rnd: Round) -> None:
        """The zvanja on show during the first trick, "bela!" by its card, motion on or off."""
        trick = self.query_one("#trick", TrickView)
        trick.motion = self.bela_app.motion
        trick.callout = bela_callout(rnd, self.held)
        deciding = (
            self._zvanja_wait_for() is not None
            and self._declare_answered != self.match.next_index
            and rnd is self.match.current
        )
        talk = None if deciding else first_trick_zvanja(rnd, self.held)
        self.query_one("#zvanja", ZvanjaPanel).talk = talk

    def _refresh_centre(self, rnd: Round) -> None:
        bidding = rnd.phase is Phase.BIDDING and self.human_turn()
        bids = self.query_one("#bids", BidMenu)
        trick = self.query_one("#trick", TrickView)
        bids.display = bidding
        trick.display = not bidding
        if bidding:
            bids.model = bid_model(rnd, self.bid_cursor)
        if self.held is not None:
            trick.model = TrickModel(
                trick_cards(self.held.leader, self.held.cards),
                winner=self.held.winner,
                trump=rnd.trump,
            )
        elif rnd.phase is Phase.PLAYING:
            trick.model = TrickModel(
                trick_cards(rnd.trick_leader, rnd.trick), waiting=rnd.to_act, trump=rnd.trump
            )
        else:
            trick.model = TrickModel(trump=rnd.trump)

    def _hand_model(self, rnd: Round) -> HandModel:
        cards = self.hand_cards()
        if rnd.phase is Phase.BIDDING:
            return HandModel(cards, face_down=len(rnd.talon(HUMAN)))
        fresh: frozenset[Card] = frozenset()
        human_played = any(
            trick.seat_of(i) == HUMAN for trick in rnd.tricks for i in range(len(trick.cards))
        ) or (HUMAN in {s for s, _ in trick_cards(rnd.trick_leader, rnd.trick)})
        if rnd.phase is Phase.PLAYING and not human_played:
            fresh = frozenset(rnd.talon(HUMAN))
        if not self.human_turn() or rnd.phase is not Phase.PLAYING:
            return HandModel(cards, fresh=fresh, trump=rnd.trump)
        legal = self._legal_cards(rnd)
        self.cursor = min(max(self.cursor, 0), len(cards) - 1)
        cursor = None if self.unchosen else self.cursor
        return HandModel(cards, legal, cursor, fresh=fresh, trump=rnd.trump)

    @staticmethod
    def _legal_cards(rnd: Round) -> frozenset[Card]:
        return frozenset(Card(c) for c in range(32) if rnd.legal_mask() >> c & 1)

    def _start_human_turn(self) -> None:
        """Open the human's turn (from now on their keys act), pointing at a safe choice:
        dalje if allowed (else hearts), or a card that may be played."""
        rnd = self.match.current
        self._opened_at = event_clock() if rnd is not None and rnd.to_act == HUMAN else None
        if rnd is not None and rnd.phase is Phase.BIDDING and self.human_turn():
            may_pass = any(isinstance(a, Pass) for a in rnd.legal_actions())
            self.bid_cursor = len(bid_options()) - 1 if may_pass else 0
        if rnd is not None and rnd.phase is Phase.PLAYING and self.human_turn():
            cards = self.hand_cards()
            legal = self._legal_cards(rnd)
            if not 0 <= self.cursor < len(cards) or cards[self.cursor] not in legal:
                self.cursor = next(i for i, c in enumerate(cards) if c in legal)
        self.refresh_view()

    # ------------------------------------------------------------------ the game

    def _save(self) -> None:
        """Autosave; a failure is shown once (not after every card) until saving works again."""
        names = self.bela_app.record_names()
        problem = autosave(self.match, self.difficulty, names) if not self.match.is_over else None
        if problem is not None and problem != self._save_problem:
            self.notify(problem, severity="warning", timeout=8)
        self._save_problem = problem

    def _commit(self, action: Action, seat: int) -> None:
        """Apply one action (already known to be legal) and show what it did."""
        self._opened_at = None  # whoever acted, the human's turn (if it was open) is over
        before = self.match
        rnd_before = before.current
        assert rnd_before is not None
        rnd_after = rnd_before.apply(action, seat)
        self.match = before.apply(action, seat)
        # the finished round stays on the table until its summary is closed
        self.shown = rnd_after if rnd_after.result is not None else self.match.current
        log = self.query_one("#log", TableTalk)
        asking = self._zvanja_wait_for() is not None  # the human is still to be asked
        for line in action_lines(rnd_before, action, seat, rnd_after, zvanja=not asking):
            log.say(line)
        if isinstance(action, Play):
            self.held = (
                rnd_after.tricks[-1] if len(rnd_after.tricks) > len(rnd_before.tricks) else None
            )
        if isinstance(action, Call):
            self.cursor = 0
        self.unchosen = False
        if rnd_after.result is not None:
            self.finished = self.match.rounds[-1]
            log.say(Text(result_line(self.finished, self.match.scores), style="bold"))
        if self.match.is_over:
            problem = archive(self.match, self.difficulty, self.bela_app.record_names())
            if problem is not None:
                self.notify(problem, severity="warning", timeout=6)
        else:
            self._save()
        if seat == HUMAN:
            self._message = ("", "")
        self.refresh_view()

    async def _wait(self, seconds: float) -> None:
        """Sleep, unless the player presses the skip key first."""
        if seconds <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._skip.wait(), seconds)

    async def _hold_trick(self) -> None:
        """Keep a finished trick on show for the hold (a key may end it sooner), then clear it.

        Used before the human leads: until the trick is cleared their cards are not
        playable, so a second Enter meant for the trick's last card never leads one.
        """
        if self.held is None:
            return
        self._skip.clear()
        await self._wait(self.bela_app.hold_delay)
        self.held = None

    @work(exclusive=True, group="table-driver")
    async def _drive(self) -> None:
        """Let the bots act, one at a time, until the human must act or a round ends."""
        app = self.bela_app
        while True:
            if self.finished is not None:
                self._skip.clear()
                if self.held is not None:
                    await self._wait(app.hold_delay)
                self._show_summary()
                return
            if self._declare_asked() or self._zvanja_said():
                return
            rnd = self.match.current
            if rnd is None or rnd.to_act is None or rnd.to_act == HUMAN:
                await self._hold_trick()
                self._start_human_turn()
                return
            seat = rnd.to_act
            match = self.match
            self._skip.clear()
            delay = app.hold_delay if self.held is not None else app.bot_delay
            started = time.monotonic()
            action = await asyncio.to_thread(bot_action, match, self.bots[seat])
            await self._wait(delay - (time.monotonic() - started))
            if self.match is not match:
                return
            if not rnd.is_legal(action):
                # A bot bug must not end the player's match: say so and play on.
                fallback = rnd.legal_actions()[0]
                self.notify(
                    _(
                        "{name}'s bot chose {action}, which is not allowed; playing {fallback} instead."  # noqa: E501
                    ).format(name=SEAT_NAMES[seat], action=action, fallback=fallback),
                    severity="error",
                    timeout=8,
                )
                action = fallback
            self._commit(action, seat)

    def _declare_asked(self) -> bool:
        """Ask the human whether to declare their zvanja, if it is due; True if asked.

        Only with the setting "declare my zvanja for me" off, once a round, at the
        human's turn in the first trick (before their card, when "šutim" may be
        said). Kept back, "šutim" is committed at once; either way the zvanja moment
        follows, telling what was really declared.
        """
        rnd = self.match.current
        index = self.match.next_index
        if (
            self.bela_app.always_declare
            or rnd is None
            or rnd.to_act != HUMAN
            or self._declare_heard == index
            or not rnd.can_stay_silent()
        ):
            return False
        from bela.tui.screens.prompts import DeclarePrompt

        self._declare_heard = index
        self.app.push_screen(DeclarePrompt(rnd.declarations(HUMAN)), self._after_declare)
        return True

    def _after_declare(self, declare: bool | None) -> None:
        self._declare_answered = self.match.next_index
        rnd = self.match.current
        if declare is False and rnd is not None and rnd.can_stay_silent():
            self._commit(Silent(), HUMAN)  # its line says who now has the zvanja
        elif rnd is not None:
            log = self.query_one("#log", TableTalk)
            for line in zvanja_lines(rnd):  # held back at the call until the answer
                log.say(line)
        self.refresh_view()
        self._drive()

    def _zvanja_wait_for(self) -> int | None:
        """The human, while they are still to be asked about their zvanja (else None)."""
        rnd = self.match.current
        if self.bela_app.always_declare or rnd is None or not rnd.declarations(HUMAN):
            return None
        return HUMAN

    def _zvanja_said(self) -> bool:
        """Hold the zvanja moment if it is due (once a round, not at instant speed); True if so.

        The bots wait until it is closed; closing it drives the table on.
        """
        talk = zvanja_moment(self.match.current, self._zvanja_wait_for())
        index = self.match.next_index
        if talk is None or self._zvanja_heard == index or self.bela_app.hold_delay <= 0:
            return False
        from bela.tui.screens.zvanja import ZvanjaScreen

        self._zvanja_heard = index
        self.app.push_screen(ZvanjaScreen(talk), self._after_zvanja)
        return True

    def _after_zvanja(self, _result: None = None) -> None:
        self.refresh_view()
        self._drive()

    def _show_summary(self) -> None:
        from bela.tui.screens.summary import RoundSummaryScreen

        record = self.finished
        assert record is not None
        summary = RoundSummaryScreen.of_match(self.match, record, bot_kind(self.difficulty))
        self.app.push_screen(summary, self._after_summary)

    def _after_summary(self, _result: None = None) -> None:
        self.finished = None
        self.held = None
        self.shown = self.match.current if self.match.current is not None else self.shown
        if self.match.is_over:
            from bela.tui.screens.match_end import MatchEndScreen

            self.app.push_screen(MatchEndScreen(self.match), self._after_match_end)
            return
        index = self.match.next_index
        self.query_one("#log", TableTalk).say(self._round_heading(index))
        self.bid_cursor = 0
        self.refresh_view()
        self._drive()

    def _after_match_end(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit()
        else:
            self.app.call_later(self.bela_app.action_new_match)

    # ------------------------------------------------------------------ the human's moves

    def _not_your_turn(self, typed: float | None = None) -> bool:
        """Say why the human's key cannot act now; True if so.

        ``typed`` is when the key was pressed (None: now). A key pressed before the
        turn opened but read after it (the app was busy) is refused too: it was
        meant for an earlier moment, such as the trick the player just finished.
        """
        if self.human_turn():
            opened = self._opened_at
            if typed is None or opened is None or typed >= opened:
                return False
            self.say(_("That key was pressed before your turn: press it again."), "hint")
            return True
        rnd = self.match.current
        if self.finished is not None or rnd is None:
            self.say(_("The round is over: Enter or Space to see the result."), "hint")
        elif self.held is not None:
            self.say(_("The trick is still on show: Enter or Space to carry on."), "hint")
        elif rnd.to_act is not None and rnd.to_act != HUMAN:
            self.say(_("Wait: it is {name}'s turn.").format(name=SEAT_NAMES[rnd.to_act]), "hint")
        return True

    def _take_key_time(self) -> float | None:
        """When the key being handled was pressed (once: the next action reads None)."""
        typed, self._key_at = self._key_at, None
        return typed

    def on_key(self, event: events.Key) -> None:
        """Note when each key was pressed, before its binding acts (see ``_not_your_turn``)."""
        self._key_at = event.time

    def _play(self, index: int, typed: float | None = None) -> None:
        rnd = self.match.current
        if self._not_your_turn(typed) or rnd is None:
            return
        if rnd.phase is not Phase.PLAYING:
            suits, dalje = " ".join(bid_keys()[:4]), bid_keys()[4]
            self.say(
                _("Name trump first ({suits}) or say dalje ({key}).").format(
                    suits=suits, key=dalje
                ),
                "error",
            )
            return
        cards = self.hand_cards()
        if not 0 <= index < len(cards):
            return
        card = cards[index]
        try:
            rnd.apply(Play(card), HUMAN)
        except IllegalActionError as exc:
            self.say(f"✗ {action_error(exc)}", "error")
            return
        bela = rnd.can_announce_bela(card)
        if bela and not self.bela_app.auto_bela:
            from bela.tui.screens.prompts import BelaPrompt

            def answered(bela: bool | None) -> None:
                if bela is None or not self.human_turn():
                    return
                self._human_act(Play(card, bela))

            self.app.push_screen(BelaPrompt(card, second=self.match.rules.bela_on_second), answered)
            return
        self._human_act(Play(card, bela))  # bela said for the human (``auto_bela``)

    def action_claim(self) -> None:
        """Say "dosta" (house rule na dosta): claim that mi have reached the target.

        Only the player who has just won a trick may, before leading again; the
        engine checks the claim, and a wrong one loses the match. Short of the target
        the key only says how many points are missing (a claim then always loses, so it
        is never offered: a stray key and Enter must not lose the match). At or past it
        the key asks (``DostaPrompt``, Enter plays on); the claim is made once the player
        confirms, if the moment has not passed.
        """
        rnd = self.match.current
        if self._not_your_turn(self._take_key_time()) or rnd is None:
            return
        if not self.match.rules.dosta:
            self.say(_("This match is played na prolaz: there is no dosta."), "hint")
            return
        try:
            rnd.apply(Claim(), HUMAN)
        except IllegalActionError as exc:
            self.say(f"✗ {action_error(exc)}", "error")
            return
        from bela.tui.screens.prompts import DostaPrompt, short_of_dosta

        points, target = rnd.counted(0), self.match.target
        if points < target:
            self.say(short_of_dosta(points, target), "hint")
            return

        asked = self.match

        def answered(say_it: bool | None) -> None:
            if say_it and self.match is asked and self.human_turn():
                self._human_act(Claim())

        self.app.push_screen(DostaPrompt(points, target), answered)

    def _bid(self, index: int, typed: float | None = None) -> None:
        rnd = self.match.current
        if self._not_your_turn(typed) or rnd is None:
            return
        if rnd.phase is not Phase.BIDDING:
            self.say(_("Trump is already named: play a card."), "error")
            return
        action = bid_options()[index]
        try:
            rnd.apply(action, HUMAN)
        except IllegalActionError as exc:
            self.say(f"✗ {action_error(exc)}", "error")
            return
        self._human_act(action)

    def _human_act(self, action: Action) -> None:
        self._commit(action, HUMAN)
        self._drive()

    # ------------------------------------------------------------------ actions (keys)

    def _bidding_now(self) -> bool:
        rnd = self.match.current
        return rnd is not None and rnd.phase is Phase.BIDDING and self.human_turn()

    def action_move(self, step: int) -> None:
        if self._not_your_turn(self._take_key_time()):
            return  # the cursor is the player's: keys typed before their turn leave it alone
        if self._bidding_now():
            self.bid_cursor = (self.bid_cursor + step) % len(bid_options())
        else:
            cards = self.hand_cards()
            if cards:
                self.cursor = (self.cursor + step) % len(cards)
            self.unchosen = False
        if self._message[1] == "error":
            self._message = ("", "")
        self.refresh_view()

    def action_pick(self, index: int) -> None:
        if self._not_your_turn(self._take_key_time()):
            return
        if self._bidding_now():
            if index >= len(bid_options()):
                self.say(no_such_bid(index), "error")
                return
            self.bid_cursor = index
        elif index < len(self.hand_cards()):
            self.cursor = index
            self.unchosen = False
        else:
            self.unchosen = True
            self.refresh_view()
            self.say(no_such_card(index, len(self.hand_cards())), "error")
            return
        if self._message[1] == "error":
            self._message = ("", "")
        self.refresh_view()

    def action_choose(self) -> None:
        """Enter: play the chosen card or bid; while a finished trick is on show (or the
        round's result is coming) it only carries on, and that press is spent."""
        typed = self._take_key_time()
        if self.finished is not None or self.held is not None:
            self.action_skip()
        elif self._bidding_now():
            self._bid(self.bid_cursor, typed)
        elif self.unchosen and self.human_turn():
            self.say(choose_first(len(self.hand_cards())), "error")
        else:
            self._play(self.cursor, typed)

    def action_bid(self, index: int) -> None:
        self._bid(index, self._take_key_time())

    def action_skip(self) -> None:
        """Space: end the wait now (a bot's pause, the finished trick on show)."""
        self._skip.set()
        if self.held is not None:
            self.held = None
            self.refresh_view()

    def action_last_trick(self) -> None:
        """Show the most recent finished trick (the previous round's last, early in a round)."""
        from bela.tui.screens.prompts import LastTrickScreen

        if self.match.rules.hide_played_tricks:
            self.say(_("House rule: played tricks are not looked at again."), "hint")
            return
        rnd = self.shown
        tricks = rnd.tricks if rnd is not None else ()
        if not tricks and self.match.rounds:
            last = self.match.rounds[-1]
            tricks = self.match.deal(last.index).replay(last.actions).tricks
        if tricks:
            clockwise = self.match.rules.clockwise
            self.app.push_screen(LastTrickScreen(tricks[-1], len(tricks), clockwise=clockwise))
        else:
            self.say(_("No trick has been played yet."), "hint")

    def action_hint(self) -> None:
        """Ask the hard bot what it would do here, and why (computed off the UI thread)."""
        rnd = self.match.current
        if not self.human_turn() or rnd is None:
            self.say(_("A hint is for your own turn."), "hint")
            return
        self.say(_("Thinking about a hint…"), "hint")
        self._hint(self.match, rnd.view(HUMAN))

    _hints: HintBook | None = None
    """The last hint and the position (the match) it was for: asking again is instant."""

    @work(thread=True, exclusive=True, group="hint")
    def _hint(self, match: Match, view: SeatView) -> None:
        from bela.ai.base import decision_rng
        from bela.ai.hard import advise

        advice = self._hints.known(match) if self._hints is not None else None
        if advice is None:
            rnd = match.current
            step = len(rnd.actions) if rnd is not None else 0
            advice = advise(view, decision_rng(match.seed, match.next_index, step))
        self.app.call_from_thread(self._show_hint, match, advice)

    def _show_hint(self, asked: Match, advice: Advice) -> None:
        """The hint in a player's words; asked again in the same position, the numbers."""
        if self.match is not asked:
            return  # the game moved on while the hint was being worked out
        if self._hints is None:
            self._hints = HintBook()
        self.say(self._hints.words(asked, advice), "hint")

    def action_speed(self, step: int) -> None:
        delay = self.bela_app.change_speed(step)
        label = _("instant") if delay == 0 else _("{seconds:.1f} s per card").format(seconds=delay)
        self.bela_app.notify(_("Bot speed: {label}").format(label=label), timeout=2, topic="speed")

    # ------------------------------------------------------------------ mouse

    def on_hand_card_clicked(self, message: Hand.CardClicked) -> None:
        if self.finished is not None or self.held is not None:
            self.action_skip()  # like Enter: a click on the trick's last moment only carries on
            return
        if self._not_your_turn(message.time):
            return
        self.cursor = message.index
        self.unchosen = False
        self._play(message.index)

    def on_bid_menu_chosen(self, message: BidMenu.Chosen) -> None:
        if self._not_your_turn(message.time):
            return
        self.bid_cursor = message.index
        self._bid(message.index)

    @on(events.Key)
    async def _skip_gather(self, event: events.Key) -> None:
        """A key while a trick is being gathered only finishes the gathering (never plays)."""
        if await self.query_one("#trick", TrickView).skip_gather():
            event.stop()
            event.prevent_default()

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "table-driver")
        self.workers.cancel_group(self, "hint")
