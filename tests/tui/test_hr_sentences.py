"""Croatian as the app must say it (issue #22, "the grammar, fixed at its cause").

Each sentence below is written out as a Croatian Bela player says it at the table,
and checked against what the app's own wording functions produce for a situation
built here (a round's result, a record, a match, a phrase from the host): the round
summaries for each team, pad, visi, štiglja, dosta, bela and belot, zvanja, the
score sheet's marks, the network's round line and the match's end. "Mi" is the
reader's team; the opponents are "oni" / "njih" / "njima" or their names, each with its
own verb ("mi pišemo", "oni pišu"): to a Croatian reader "vi" in a sentence is the
player's own side (issue #35), so "mi" and "vi" stay only the score sheet's column
labels. The reader is "ti"; a named player gets a present tense or "Ana: ..." so no
sentence has to guess a gender; and every count agrees with its noun, signed ones too.

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

from bela.archive.replay_text import _bela_line, _standing, _zvanja_lines, sheet_marks
from bela.archive.replay_text import summary as replay_summary
from bela.engine import (
    Call,
    Card,
    Match,
    Play,
    Round,
    RoundRecord,
    RoundResult,
    Rules,
    Silent,
    Suit,
    score_round_detail,
)
from bela.i18n import LOCALE_DIR, set_language
from bela.net.phrases import Phrase, render, round_over
from bela.table_talk import action_lines, claim_line, result_line, silent_line, zvanja_lines
from bela.table_text import explain_round
from bela.tui.model import status_line, taken_text
from bela.tui.screens.match_end import winner_text
from bela.tui.screens.start import _intro
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


def _won_by_claim(scores: tuple[int, int], winner: int, claim: RoundResult) -> Match:
    rounds = (record(claim),)
    return Match(seed=1, target=501, rounds=rounds, scores=scores, winner=winner)


def _quick(scores: tuple[int, int], winner: int) -> Match:
    rounds = tuple(record(THEY_MADE, index=i) for i in range(3))
    return Match(seed=1, target=163, rounds=rounds, scores=scores, winner=winner)


def _net(me: int, r: RoundResult, written: tuple[int, int], scores: tuple[int, int]) -> str:
    phrase = round_over(record(r, written=written), ["Ana", "Ivo", "Mara", "Luka"], scores)
    return render(phrase.text, phrase.code, phrase.args, me)


def _took(me: int, seat: int) -> str:
    phrase = Phrase("takes_trick", {"name": "Luka", "seat": seat, "points": 14})
    return render(phrase.text, phrase.code, phrase.args, me)


def _ivo_calls() -> tuple[Round, Round]:
    """A deal in which Ivo (seat 1, an opponent) names hearts holding the trump K and Q and
    two tercas (7-8-9 of spades and of clubs): the opponents' bela and zvanja. Nobody else
    holds a sequence; the dealer is seat 0, so Ivo speaks and leads first."""
    hands = (
        "AH 7D 10S JD AC QS 9D KC",
        "KH QH 7S 8S 9S 7C 8C 9C",
        "10H 8H 8D KD 10C QC JS AD",
        "7H 9H JH 10D QD KS AS JC",
    )
    full = [[Card.parse(c) for c in hand.split()] for hand in hands]
    deal = Round.from_hands(0, [h[:6] for h in full], [h[6:] for h in full], rules=Rules())
    return deal, deal.apply(Call(Suit.HEARTS), seat=1)


def _sequence(cards: str) -> str:
    from bela.engine import find_zvanja
    from bela.table_text import zvanje_text

    [run] = find_zvanja(cards.split())
    return zvanje_text(run)


def _lead_hint(card: str, *, bela: bool = False) -> str:
    from bela.ai.reasons import _play_reason

    _, called = _ivo_calls()
    return _play_reason(called.view(1), Play(Card.parse(card), bela=bela))


def _ivo_bela() -> str:
    _, called = _ivo_calls()
    play = Play(Card.parse("KH"), bela=True)
    (line,) = action_lines(called, play, 1, called.apply(play, seat=1))
    return line


def _my_zvanja_beaten() -> list[str]:
    """Seat 1's tercas read from seat 3's hand turned to ours: we hold zvanja, theirs win."""
    hands = (
        "AH 7D 10S JD AC QS 9D KC",
        "KH QH 7S 8S 9S 7C 8C 9C",
        "10H 8H 8D KD 10C QC JS AD",
        "7H 9H JH 10D QD KS AS JC",
    )
    # seat 0 gets a terca of diamonds (7-8-9) instead: still beaten by Ivo's two tercas
    # on the first to declare's side (Ivo speaks first)
    mine = "AH 7D 8D 9D AC QS JD KC"
    partner = "10H 8H 10S KD 10C QC JS AD"
    full = [[Card.parse(c) for c in hand.split()] for hand in (mine, hands[1], partner, hands[3])]
    deal = Round.from_hands(0, [h[:6] for h in full], [h[6:] for h in full], rules=Rules())
    return zvanja_lines(deal.apply(Call(Suit.HEARTS), seat=1))


def _replayed_ivo() -> Round:
    _, called = _ivo_calls()
    return called.apply(Play(Card.parse("KH"), bela=True), seat=1)


SENTENCES: list[tuple[Callable[[], str], str]] = [
    # issue #35: the opponents are "oni" / "njih" / their names, never "vi"
    (lambda: _ivo_bela(), "Ivo: bela! (+20 za njih)"),
    (lambda: zvanja_lines(_ivo_calls()[1])[0], "Zvanja za njih: 40"),
    # the hint names a lead as the table does: "izađi s ..." (issue #35)
    (lambda: _lead_hint("KH", bela=True).split(":")[0], "izađi s KH i zovi belu (20 bodova)"),
    (lambda: _lead_hint("7S").split(":")[0], "izađi s 7S"),
    # šutim is said as at a table, and nothing more when no zvanja are left to count
    (lambda: silent_line(1, _ivo_calls()[1].apply(Silent(), seat=1)), "Ivo: šutim."),
    # zvanja by the names players give them: terca, kvarta, kvinta (never "niz")
    (lambda: zvanja_lines(_ivo_calls()[1])[1], "  Ivo: terca 7♠ 8♠ 9♠ (20), terca 7♣ 8♣ 9♣ (20)"),
    (lambda: _sequence("9H 10H JH QH"), "kvarta 9♥ 10♥ J♥ Q♥ (50)"),
    (lambda: _sequence("9H 10H JH QH KH AH"), "kvinta 9♥ 10♥ J♥ Q♥ K♥ A♥ (100)"),
    (lambda: _my_zvanja_beaten()[0], "Tvoja zvanja: terca 7♦ 8♦ 9♦ (20) (njihova su jača)"),
    (lambda: str(_zvanja_lines(_replayed_ivo())[0]), "Zvanja: vrijede njihova, 40"),
    (lambda: str(_bela_line(_replayed_ivo())), "Bela (mjesto 2 (vi)): 20 za njih"),
    (
        lambda: str(_standing(_won((252, 434), 1))),
        "Oni su pobijedili 252 : 434 (mi : vi)",  # a lost match: never "Vi pobjeđujete"
    ),
    (lambda: str(_standing(_won((523, 410), 0))), "Pobijedili smo 523 : 410 (mi : vi)"),
    (
        lambda: claim_line("Ana", SimpleNamespace(result=CLAIM_WRONG_THEY)),  # type: ignore[arg-type]
        "Ana: dosta! Krivo: nisu dosegli cilj.",
    ),
    (
        lambda: winner_text(_won_by_claim((300, 515), 1, CLAIM_OK_THEY)),
        "Ivo i Ana su pobijedili 515 : 300 (njihov točan dosta).",
    ),
    (
        lambda: winner_text(_won_by_claim((515, 300), 0, CLAIM_WRONG_THEY)),
        "Ti i Marko ste pobijedili 515 : 300 (njihov krivi dosta).",
    ),
    (
        lambda: winner_text(_won_by_claim((300, 515), 1, CLAIM_WRONG_WE)),
        "Ivo i Ana su pobijedili 515 : 300 (naš krivi dosta).",
    ),
    (
        lambda: winner_text(_quick((90, 180), 1)),
        "Ivo i Ana su pobijedili 180 : 90 (brza 163: veći zbroj nakon 3 dijeljenja).",
    ),
    (
        lambda: winner_text(_belot_match(3)),
        "Ivo i Ana su pobijedili: Ana ima belot, svih osam karata iste boje!",
    ),
    (
        lambda: summary_rows(record(THEY_MADE), last_trick_team=1)[0][0],
        "Bodovi u kartama (zadnji štih +10 njima)",
    ),
    (lambda: mark_words("held:1", 0), "njihov dosta (točno)"),
    (
        lambda: mark_words("pad:1", 0) + " / " + mark_words("padtie:1", 0),
        "pali su / pali su (pola-pola)",
    ),
    (lambda: mark_words("collect:1:81", 0), "njima +81 bod iz visi"),
    (
        lambda: _net(0, THEY_MADE, (62, 100), (300, 400)),
        "Runda 3 je gotova: mi pišemo 62, oni pišu 100; stanje je 300 : 400.",
    ),
    # mi / vi are the blok's labels: the start screen says so, never "Ivo i Ana su vi"
    (lambda: _intro(), "Hrvatska bela: ti i Marko ste na bloku „mi”, a Ivo i Ana „vi”."),
    # the round's summary, for each subject
    (
        lambda: explain_round(MADE),
        "Zoveš herc. Mi imamo 96 od 162, više od pola: mi pišemo 96, oni pišu 66.",
    ),
    (
        lambda: explain_round(THEY_MADE),
        "Ivo zove herc. Oni imaju 100 od 162, više od pola: oni pišu 100, mi pišemo 62.",
    ),
    (
        lambda: explain_round(WE_FELL),
        "Zoveš herc. Mi imamo samo 70 od 162, ne više od pola: pali smo i oni pišu svih 162.",
    ),
    (
        lambda: explain_round(THEY_FELL),
        "Ivo zove herc. Oni imaju samo 90 od 182, ne više od pola: pali su i mi pišemo svih 182.",
    ),
    (
        lambda: explain_round(PARTNER_TIE),
        "Marko zove herc. Mi imamo točno pola (81 od 162), a to nije više od pola: "
        "pali smo i oni pišu svih 162.",
    ),
    (
        lambda: explain_round(THEY_TIE),
        "Ana zove herc. Oni imaju točno pola (81 od 162), a to nije više od pola: "
        "pali su i mi pišemo svih 162.",
    ),
    (
        lambda: explain_round(PARTNER_VISI),
        "Marko zove herc. Mi imamo točno pola (81 od 162): oni pišu svojih 81, "
        "a naših 81 visi do prve runde koja nije izjednačena.",
    ),
    (
        lambda: explain_round(THEY_VISI),
        "Ivo zove herc. Oni imaju točno pola (81 od 162): mi pišemo svojih 81, "
        "a njihovih 81 visi do prve runde koja nije izjednačena.",
    ),
    (
        lambda: explain_round(WE_SWEEP),
        "Mi smo uzeli svih osam štihova (štiglja, još 90). Zoveš herc. "
        "Mi imamo 252 od 252, više od pola: mi pišemo 252, oni pišu 0.",
    ),
    (
        lambda: explain_round(THEY_SWEEP),
        "Oni su uzeli svih osam štihova (štiglja, još 90). Ana zove herc. "
        "Oni imaju 252 od 252, više od pola: oni pišu 252, mi pišemo 0.",
    ),
    (
        lambda: explain_round(BELOT_MINE),
        "Imaš svih osam karata iste boje (belot, adut herc). Belot: mi odmah dobivamo partiju.",
    ),
    (
        lambda: explain_round(BELOT_ANA),
        "Ana ima svih osam karata iste boje (belot, adut herc). Belot: oni odmah dobivaju partiju.",
    ),
    (
        lambda: explain_round(BELOT_MARKO),
        "Marko ima svih osam karata iste boje (belot, adut herc). "
        "Belot: mi odmah dobivamo partiju.",
    ),
    (
        lambda: explain_round(CLAIM_OK_WE),
        "Mi smo rekli dosta i dosegli cilj: igra staje, mi pišemo 96, oni pišu 66 "
        "i mi dobivamo partiju.",
    ),
    (
        lambda: explain_round(CLAIM_OK_THEY),
        "Oni su rekli dosta i dosegli cilj: igra staje, oni pišu 100, mi pišemo 62 "
        "i oni dobivaju partiju.",
    ),
    (
        lambda: explain_round(CLAIM_WRONG_WE),
        "Mi smo rekli dosta, a nismo dosegli cilj: piše se kao pad (mi 0, oni 162) "
        "i oni dobivaju partiju.",
    ),
    (
        lambda: explain_round(CLAIM_WRONG_THEY),
        "Oni su rekli dosta, a nisu dosegli cilj: piše se kao pad (oni 0, mi 162) "
        "i mi dobivamo partiju.",
    ),
    (
        lambda: explain_round(REDEAL),
        "Svi su rekli dalje: ništa se ne piše i sljedeći djelitelj dijeli ponovno.",
    ),
    # the replay's summary names the team that called
    (
        lambda: replay_summary(PARTNER_VISI, PARTNER_VISI.points),
        "Mi smo zvali herc. Mi imamo točno pola (81 od 162): oni pišu svojih 81, "
        "a naših 81 visi do prve runde koja nije izjednačena.",
    ),
    (
        lambda: replay_summary(THEY_FELL, THEY_FELL.points),
        "Oni su zvali herc. Oni imaju samo 90 od 182, ne više od pola: "
        "pali su i mi pišemo svih 182.",
    ),
    # the table talk's lines
    (
        lambda: result_line(record(THEY_FELL), (412, 288)),
        "Runda 3: mi 182, vi 0 (pali su) — mi 412 : vi 288",
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
        "Runda 3: belot — oni dobivaju partiju",
    ),
    (
        lambda: result_line(record(REDEAL), (120, 80)),
        "Runda 3: svi su rekli dalje, ništa se ne piše — mi 120 : vi 80",
    ),
    (
        lambda: claim_line("Ivo", SimpleNamespace(result=CLAIM_OK_THEY)),  # type: ignore[arg-type]
        "Ivo: dosta! Točno: dosegli su cilj.",
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
        "Bodovi u kartama (zadnji štih +10 njima)",
    ),
    # pod mus: the dealer named trump because everybody else said dalje (issue #35)
    (lambda: summary_title(record(THEY_TIE), rules=Rules()), "Runda 3: pod mus, Ana zove ♥ herc"),
    (
        lambda: summary_title(record(THEY_TIE), rules=Rules(no_forced_trump=True)),
        "Runda 3: Ana zove ♥ herc",  # the dealer could have passed: no pod mus
    ),
    (
        lambda: ", ".join(sheet_marks(record(THEY_TIE), Rules())),
        "pod mus vi, pali su (pola-pola)",
    ),
    # the match's end
    (
        lambda: winner_text(_won((523, 410), 0)),
        "Ti i Marko ste pobijedili 523 : 410 (dosegli smo 501).",
    ),
    (
        lambda: winner_text(_won((300, 515), 1)),
        "Ivo i Ana su pobijedili 515 : 300 (dosegli su 501).",
    ),
    (
        lambda: winner_text(_belot_match(0)),
        "Ti i Marko ste pobijedili: tvoj belot, svih osam karata iste boje!",
    ),
    # the score sheet's marks, from the reader's side
    (lambda: mark_words("pad:0", 0), "pali smo"),
    (lambda: mark_words("pad:0", 1), "pali su"),
    (lambda: mark_words("stiglja:1", 0), "štiglja vi"),  # a mark: the blok's labels
    (lambda: mark_words("belot:0", 0), "belot mi"),
    (lambda: mark_words("held:1", 1), "naš dosta (točno)"),
    (lambda: mark_words("wrong:1", 0), "njihov dosta (krivo)"),
    (lambda: mark_words("visi:20", 0), "visi: 20 bodova"),
    (lambda: mark_words("collect:0:81", 0), "nama +81 bod iz visi"),
    # a network table: each seat words the host's codes from its own side
    (
        lambda: _net(0, MADE, (96, 66), (412, 288)),
        "Runda 3 je gotova: mi pišemo 96, oni pišu 66; stanje je 412 : 288.",
    ),
    (
        lambda: _net(1, MADE, (96, 66), (412, 288)),
        "Runda 3 je gotova: mi pišemo 66, oni pišu 96; stanje je 288 : 412.",
    ),
    (
        lambda: _net(1, THEY_FELL._replace(stiglja=0), (182, 0), (500, 100)),
        "Runda 3 je gotova (pali smo, njihova štiglja): mi pišemo 0, oni pišu 182; "
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


THEY: re.Pattern[str] = re.compile(r"\b(they|them|their|theirs)\b", re.IGNORECASE)
SECOND_PLURAL: dict[str, re.Pattern[str]] = {
    "hr": re.compile(
        r"\b(vi|vas|vama|vam|vaš\w*|ste|niste|pišete|imate|dobivate|pobjeđujete|uzimate"
        r"|zovete|padate)\b",
        re.IGNORECASE,
    ),
    "es": re.compile(r"\b(vosotros|os|vuestr\w*|sois|\w+áis|\w+éis)\b", re.IGNORECASE),
    "ru": re.compile(r"(?<!\w)(вы|вас|вам|вами|ваш\w*)(?!\w)", re.IGNORECASE),
}
"""The player's own side in a sentence ("you", plural): never the opponents (issue #35)."""


@pytest.mark.parametrize("language", sorted(SECOND_PLURAL))
def test_a_sentence_about_the_opponents_never_calls_them_vi(language: str) -> None:
    """Every message whose English speaks of the opponents as "they" ("they write 66",
    "+20 for them") says "they" in hr, es and ru too (oni / ellos / они), never the
    second person plural, which a reader takes for their own side. Messages that speak
    to the player as well ("you and ...") or hold the columns' labels (mi / vi) are left
    to the table above."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / "bela.po"
    with path.open("rb") as po:
        catalog = read_po(po)
    wrong = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        english = " ".join(ids)
        if not english or not THEY.search(english):
            continue
        if re.search(r"\byou\b|\byour\b|\bvi\b", english, re.IGNORECASE):
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if text and SECOND_PLURAL[language].search(text):
                wrong.append((ids[0], text))
    assert not wrong


ES_RU: list[tuple[str, Callable[[], str], str]] = [
    (
        "es",
        lambda: winner_text(_won((300, 515), 1)),
        "Ivo y Ana ganaron 515 a 300 (ellos llegaron a 501).",
    ),
    ("es", lambda: _ivo_bela(), "Ivo: ¡bela! (+20 para ellos)"),
    ("es", lambda: str(_standing(_won((252, 434), 1))), "Ganaron ellos 252 : 434 (mi : vi)"),
    (
        "ru",
        lambda: winner_text(_won((300, 515), 1)),
        "Ivo и Ana победили 515 : 300 (они достигли 501).",
    ),
    ("ru", lambda: _ivo_bela(), "Ivo: бела! (+20 им)"),
    (
        "ru",
        lambda: explain_round(THEY_MADE).split(". ", 1)[1],
        "Они набрали 100 из 162, больше половины: они записывают 100, мы — 62.",
    ),
]


@pytest.mark.parametrize(("language", "said", "expected"), ES_RU, ids=[e for _, _, e in ES_RU])
def test_es_and_ru_say_they_for_the_opponents(
    language: str, said: Callable[[], str], expected: str
) -> None:
    set_language(language)
    assert said() == expected


GENDERED: re.Pattern[str] = re.compile(r"\b\w+(ao|io|eo|la|le) si\b|\bsi \w+(ao|io|eo)\b")
"""A Croatian past tense said to the player ("zvao si", "si bacio"): it has a gender, and the
app cannot know the player's, so it says the same in the present tense or with a noun."""


def test_no_croatian_sentence_guesses_the_players_gender() -> None:
    """Issue #35: the coach said "zvao si", "rekao si", "bacio si" (a man's words), and the
    puzzles "najbolja druga mogućnost" where Croatian says "druga najbolja"."""
    path = LOCALE_DIR / "hr" / "LC_MESSAGES" / "bela.po"
    with path.open("rb") as po:
        catalog = read_po(po)
    wrong = []
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if text and (GENDERED.search(text) or "najbolja druga" in text.lower()):
                wrong.append(text)
    assert not wrong


def test_the_panels_note_for_a_pod_mus_pad_fits_its_column() -> None:
    """Issue #35 (seen at 80x24): "pod mus mi pali smo" broke the panel's row in two; the
    panel says the pad there, and "pod mus" where nothing else is noted."""
    from bela.tui.model import sheet_model

    fell = record(WE_FELL._replace(caller=3), index=0)  # the dealer (seat 3) called and fell
    made = record(MADE._replace(caller=3), index=1)
    match = Match(seed=1, target=501, rounds=(fell, made), scores=(0, 0))
    notes = [row.note for row in sheet_model(match).rows]
    assert notes == ["pali su", "pod mus vi"]
