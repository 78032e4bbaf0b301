"""Croatian as the app must say it (issue #22, "the grammar, fixed at its cause").

Each sentence below is written out as a Croatian Bela player says it at the table,
and checked against what the app's own wording functions produce for a situation
built here (a round's result, a record, a match, a phrase from the host): the round
summaries for each team, pad, visi, štiglja, dosta, bela and belot, zvanja, the
score sheet's marks, the network's round line and the match's end. "Mi" is the
reader's team and "vi" the other, each with its own verb ("mi pišemo", "vi pišete");
the reader is "ti"; a named player gets a present tense or "Ana: ..." so no sentence
has to guess a gender; and every count agrees with its noun, signed ones too.

A second test keeps the cause away: no message in the catalogue takes a team or a
subject as a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from types import SimpleNamespace

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.archive.replay_text import summary as replay_summary
from bela.engine import Match, Play, RoundRecord, RoundResult, Suit, score_round_detail
from bela.i18n import LOCALE_DIR, set_language
from bela.net.phrases import Phrase, render, round_over
from bela.table_talk import action_lines, claim_line, result_line
from bela.table_text import explain_round
from bela.tui.model import status_line, taken_text
from bela.tui.screens.match_end import winner_text
from bela.tui.screens.summary import summary_rows, summary_title
from bela.wording import mark_words, points


@pytest.fixture(autouse=True)
def croatian() -> Iterator[None]:
    set_language("hr")
    yield
    set_language("en")


def result(
    caller: int,
    card_points: tuple[int, int],
    *,
    zvanja: tuple[int, int] = (0, 0),
    tricks: tuple[int, int] = (4, 4),
    visi: bool = False,
    trump: Suit = Suit.HEARTS,
) -> RoundResult:
    score = score_round_detail(
        caller=caller, card_points=card_points, zvanja=zvanja, bela=(0, 0), tricks=tricks, visi=visi
    )
    return RoundResult(
        points=score.points,
        card_points=card_points,
        zvanja=zvanja,
        bela=(0, 0),
        tricks=tricks,
        totals=score.totals,
        caller=caller,
        trump=trump,
        fell=score.fell,
        tie=score.tie,
        hanging=score.hanging,
        stiglja=score.stiglja,
        belot=None,
        belot_seat=None,
        redeal=False,
    )


def record(r: RoundResult, index: int = 2, written: tuple[int, int] | None = None) -> RoundRecord:
    return RoundRecord(
        index=index, dealer=3, seed=1, actions=(), result=r, written=written or r.points
    )


MADE = result(0, (96, 66))
THEY_MADE = result(1, (62, 100))
WE_FELL = result(0, (70, 92))
THEY_FELL = result(1, (92, 70), zvanja=(0, 20))
PARTNER_TIE = result(2, (81, 81))
THEY_TIE = result(3, (81, 81))
PARTNER_VISI = result(2, (81, 81), visi=True)
THEY_VISI = result(1, (81, 81), visi=True)
WE_SWEEP = result(0, (162, 0), tricks=(8, 0))
THEY_SWEEP = result(3, (0, 162), tricks=(0, 8))
BELOT_MINE = MADE._replace(belot=0, belot_seat=0, points=(0, 0))
BELOT_ANA = MADE._replace(belot=1, belot_seat=3, points=(0, 0))
BELOT_MARKO = MADE._replace(belot=0, belot_seat=2, points=(0, 0))
CLAIM_OK_WE = MADE._replace(claim=0, claim_ok=True)
CLAIM_OK_THEY = THEY_MADE._replace(claim=1, claim_ok=True)
CLAIM_WRONG_WE = MADE._replace(claim=0, claim_ok=False, points=(0, 162))
CLAIM_WRONG_THEY = THEY_MADE._replace(claim=1, claim_ok=False, points=(162, 0))
REDEAL = MADE._replace(redeal=True, caller=None, trump=None, points=(0, 0))


def _won(scores: tuple[int, int], winner: int) -> Match:
    return Match(seed=1, target=501, scores=scores, winner=winner)


def _belot_match(seat: int) -> Match:
    belot = MADE._replace(belot=seat % 2, belot_seat=seat, points=(0, 0))
    return Match(seed=1, target=1001, rounds=(record(belot),), scores=(40, 0), winner=seat % 2)


def _net(me: int, r: RoundResult, written: tuple[int, int], scores: tuple[int, int]) -> str:
    phrase = round_over(record(r, written=written), ["Ana", "Ivo", "Mara", "Luka"], scores)
    return render(phrase.text, phrase.code, phrase.args, me)


def _took(me: int, seat: int) -> str:
    phrase = Phrase("takes_trick", {"name": "Luka", "seat": seat, "points": 14})
    return render(phrase.text, phrase.code, phrase.args, me)


SENTENCES: list[tuple[Callable[[], str], str]] = [
    # the round's summary, for each subject
    (
        lambda: explain_round(MADE),
        "Zoveš herc. Mi imamo 96 od 162, više od pola: mi pišemo 96, vi pišete 66.",
    ),
    (
        lambda: explain_round(THEY_MADE),
        "Ivo zove herc. Vi imate 100 od 162, više od pola: vi pišete 100, mi pišemo 62.",
    ),
    (
        lambda: explain_round(WE_FELL),
        "Zoveš herc. Mi imamo samo 70 od 162, ne više od pola: pali smo i vi pišete svih 162.",
    ),
    (
        lambda: explain_round(THEY_FELL),
        "Ivo zove herc. Vi imate samo 90 od 182, ne više od pola: pali ste i mi pišemo svih 182.",
    ),
    (
        lambda: explain_round(PARTNER_TIE),
        "Marko zove herc. Mi imamo točno pola (81 od 162), a to nije više od pola: "
        "pali smo i vi pišete svih 162.",
    ),
    (
        lambda: explain_round(THEY_TIE),
        "Ana zove herc. Vi imate točno pola (81 od 162), a to nije više od pola: "
        "pali ste i mi pišemo svih 162.",
    ),
    (
        lambda: explain_round(PARTNER_VISI),
        "Marko zove herc. Mi imamo točno pola (81 od 162): vi pišete svojih 81, "
        "a naših 81 visi do prve runde koja nije izjednačena.",
    ),
    (
        lambda: explain_round(THEY_VISI),
        "Ivo zove herc. Vi imate točno pola (81 od 162): mi pišemo svojih 81, "
        "a vaših 81 visi do prve runde koja nije izjednačena.",
    ),
    (
        lambda: explain_round(WE_SWEEP),
        "Mi smo uzeli svih osam štihova (štiglja, još 90). Zoveš herc. "
        "Mi imamo 252 od 252, više od pola: mi pišemo 252, vi pišete 0.",
    ),
    (
        lambda: explain_round(THEY_SWEEP),
        "Vi ste uzeli svih osam štihova (štiglja, još 90). Ana zove herc. "
        "Vi imate 252 od 252, više od pola: vi pišete 252, mi pišemo 0.",
    ),
    (
        lambda: explain_round(BELOT_MINE),
        "Imaš svih osam karata iste boje (belot, adut herc). Belot: mi odmah dobivamo partiju.",
    ),
    (
        lambda: explain_round(BELOT_ANA),
        "Ana ima svih osam karata iste boje (belot, adut herc). Belot: vi odmah dobivate partiju.",
    ),
    (
        lambda: explain_round(BELOT_MARKO),
        "Marko ima svih osam karata iste boje (belot, adut herc). "
        "Belot: mi odmah dobivamo partiju.",
    ),
    (
        lambda: explain_round(CLAIM_OK_WE),
        "Mi smo rekli dosta i dosegli cilj: igra staje, mi pišemo 96, vi pišete 66 "
        "i mi dobivamo partiju.",
    ),
    (
        lambda: explain_round(CLAIM_OK_THEY),
        "Vi ste rekli dosta i dosegli cilj: igra staje, vi pišete 100, mi pišemo 62 "
        "i vi dobivate partiju.",
    ),
    (
        lambda: explain_round(CLAIM_WRONG_WE),
        "Mi smo rekli dosta, a nismo dosegli cilj: piše se kao pad (mi 0, vi 162) "
        "i vi dobivate partiju.",
    ),
    (
        lambda: explain_round(CLAIM_WRONG_THEY),
        "Vi ste rekli dosta, a niste dosegli cilj: piše se kao pad (vi 0, mi 162) "
        "i mi dobivamo partiju.",
    ),
    (
        lambda: explain_round(REDEAL),
        "Svi su rekli dalje: ništa se ne piše i sljedeći djelitelj dijeli ponovno.",
    ),
    # the replay's summary names the team that called
    (
        lambda: replay_summary(PARTNER_VISI, PARTNER_VISI.points),
        "Mi smo zvali herc. Mi imamo točno pola (81 od 162): vi pišete svojih 81, "
        "a naših 81 visi do prve runde koja nije izjednačena.",
    ),
    (
        lambda: replay_summary(THEY_FELL, THEY_FELL.points),
        "Vi ste zvali herc. Vi imate samo 90 od 182, ne više od pola: "
        "pali ste i mi pišemo svih 182.",
    ),
    # the table talk's lines
    (
        lambda: result_line(record(THEY_FELL), (412, 288)),
        "Runda 3: mi 182, vi 0 (pali ste) — mi 412 : vi 288",
    ),
    (
        lambda: result_line(record(WE_SWEEP), (252, 0)),
        "Runda 3: mi 252, vi 0 (naša štiglja) — mi 252 : vi 0",
    ),
    (
        lambda: result_line(record(PARTNER_VISI), (300, 381)),
        "Runda 3: mi 0, vi 81 (visi 81 bod) — mi 300 : vi 381",
    ),
    (
        lambda: result_line(record(BELOT_ANA), (0, 0)),
        "Runda 3: belot — vi dobivate partiju",
    ),
    (
        lambda: result_line(record(REDEAL), (120, 80)),
        "Runda 3: svi su rekli dalje, ništa se ne piše — mi 120 : vi 80",
    ),
    (
        lambda: claim_line("Ivo", SimpleNamespace(result=CLAIM_OK_THEY)),  # type: ignore[arg-type]
        "Ivo: dosta! Točno: dosegli ste cilj.",
    ),
    (
        lambda: claim_line("Ti", SimpleNamespace(result=CLAIM_WRONG_WE)),  # type: ignore[arg-type]
        "Ti: dosta! Krivo: nismo dosegli cilj.",
    ),
    # the summary dialog
    (lambda: summary_title(record(MADE)), "Runda 3: zoveš ♥ herc"),
    (lambda: summary_title(record(THEY_TIE)), "Runda 3: Ana zove ♥ herc"),
    (lambda: summary_title(record(REDEAL)), "Runda 3: svi su rekli dalje"),
    (
        lambda: summary_rows(record(MADE), last_trick_team=0)[0][0],
        "Bodovi u kartama (zadnji štih +10 nama)",
    ),
    (
        lambda: summary_rows(record(MADE), last_trick_team=1)[0][0],
        "Bodovi u kartama (zadnji štih +10 vama)",
    ),
    # the match's end
    (
        lambda: winner_text(_won((523, 410), 0)),
        "Ti i Marko pobjeđujete 523 : 410 (dosegli smo 501).",
    ),
    (
        lambda: winner_text(_won((300, 515), 1)),
        "Ivo i Ana pobjeđuju 515 : 300 (dosegli ste 501).",
    ),
    (
        lambda: winner_text(_belot_match(0)),
        "Ti i Marko pobjeđujete: tvoj belot, svih osam karata iste boje!",
    ),
    # the score sheet's marks, from the reader's side
    (lambda: mark_words("pad:0", 0), "pali smo"),
    (lambda: mark_words("pad:0", 1), "pali ste"),
    (lambda: mark_words("stiglja:1", 0), "štiglja vi"),  # a mark: the blok's labels
    (lambda: mark_words("belot:0", 0), "belot mi"),
    (lambda: mark_words("held:1", 1), "naš dosta (točno)"),
    (lambda: mark_words("wrong:1", 0), "vaš dosta (krivo)"),
    (lambda: mark_words("visi:20", 0), "visi: 20 bodova"),
    (lambda: mark_words("collect:0:81", 0), "nama +81 bod iz visi"),
    # a network table: each seat words the host's codes from its own side
    (
        lambda: _net(0, MADE, (96, 66), (412, 288)),
        "Runda 3 je gotova: mi pišemo 96, vi pišete 66; stanje je 412 : 288.",
    ),
    (
        lambda: _net(1, MADE, (96, 66), (412, 288)),
        "Runda 3 je gotova: mi pišemo 66, vi pišete 96; stanje je 288 : 412.",
    ),
    (
        lambda: _net(1, THEY_FELL._replace(stiglja=0), (182, 0), (500, 100)),
        "Runda 3 je gotova (pali smo, vaša štiglja): mi pišemo 0, vi pišete 182; "
        "stanje je 100 : 500.",
    ),
    (lambda: _took(3, 3), "Uzimaš štih (+14)."),
    (lambda: _took(1, 3), "Luka nosi štih (+14)."),
    (
        lambda: render("", "sits_down", {"name": "Luka", "seat": 2}, 2),
        "Sjedaš na mjesto 3.",  # the protocol's 0-3 said 1-4, as the lobby's keys
    ),
    # counts agree with their nouns, signed ones by their size
    (lambda: points(1), "1 bod"),
    (lambda: points(22), "22 boda"),
    (lambda: points(21), "21 bod"),
    (lambda: points(12), "12 bodova"),
    (lambda: points(-2), "-2 boda"),
    (lambda: points(-1), "-1 bod"),
    (lambda: points(-25), "-25 bodova"),
]


@pytest.mark.parametrize(("said", "expected"), SENTENCES, ids=[e for _, e in SENTENCES])
def test_the_app_says_it_as_a_croatian_player_does(said: Callable[[], str], expected: str) -> None:
    assert said() == expected


def test_there_are_at_least_forty_sentences() -> None:
    assert len({expected for _, expected in SENTENCES}) >= 40


FORBIDDEN: frozenset[str] = frozenset(
    {
        "team",
        "team0",
        "team1",
        "teams",
        "who",
        "side",
        "claimers",
        "others",
        "other",
        "callers",
        "defenders",
        "holder",
        "subject",
        "winner",
        "winners",
        "loser",
    }
)
"""Placeholder names that stand for a team or a subject: a sentence built around one
fills "mi", "vi" or "Ti" into a verb's subject ("mi pišu", "Ti uzima"), which no
language's grammar can follow. Each subject gets its own message instead."""


def test_no_message_takes_a_team_or_a_subject_as_a_placeholder() -> None:
    with (LOCALE_DIR / "bela.pot").open("rb") as pot:
        catalog = read_po(pot)
    found = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            names = set(re.findall(r"\{(\w+)[^{}]*\}", text))
            if names & FORBIDDEN:
                found.append((sorted(names & FORBIDDEN), text))
    assert not found


def _lines(seed: int) -> Iterator[str]:
    """Every line the local table says while a seeded match is played by random choices."""
    import random

    rng = random.Random(seed)
    match = Match.new(seed, 501)
    while match.current is not None:
        rnd = match.current
        seat = rnd.to_act
        assert seat is not None
        action = rng.choice(rnd.legal_actions())
        after_match = match.apply(action)
        after = after_match.rounds[-1] if len(after_match.rounds) > len(match.rounds) else None
        played = (
            after_match.current
            if after is None
            else after_match.deal(after.index).replay(after.actions)
        )
        assert played is not None
        yield from action_lines(rnd, action, seat, played)
        if isinstance(action, Play) and len(played.tricks) > len(rnd.tricks):
            yield taken_text(played, played.tricks[-1])
            yield status_line(played, finished_trick=True)
        else:
            yield status_line(played, finished_trick=False)
        if after is not None:
            yield explain_round(after.result, after.written)
            yield replay_summary(after.result, after.written)
            yield summary_title(after)
            yield result_line(after, after_match.scores)
        match = after_match
        if len(match.rounds) >= 3:
            return


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_ti_is_never_put_where_a_name_goes(seed: int) -> None:
    """In Croatian "Ti" ("You") appears only as a line's label ("Ti: dalje"), never as the
    subject of a verb written for a third person ("Ti uzima", "Ti zove"): a sentence about
    the player is its own message, in the second person."""
    for line in _lines(seed):
        assert not re.search(r"\bTi\b(?!:)", line), line


THIRD_PERSON: re.Pattern[str] = re.compile(
    r"\b(mi|vi) (su|imaju|pišu|dobivaju|padaju|uzimaju|zovu)\b", re.IGNORECASE
)
"""A verb in the third person plural after "mi" or "vi": the label-in-a-slot mistake."""


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_mi_and_vi_take_their_own_verbs(seed: int) -> None:
    """Whatever happens in a round, no line says "mi pišu" or "vi su uzeli": "mi" takes the
    first person plural and "vi" the second."""
    for line in _lines(seed):
        assert not THIRD_PERSON.search(line), line
