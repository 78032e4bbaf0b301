"""The app's words and snapshots without running it: sentences, card order, sheet notes."""

from __future__ import annotations

from bela.ai import BOT_KINDS
from bela.engine import Card, Match, RoundRecord, RoundResult, Suit, find_zvanja, score_round_detail
from bela.session import bot_kind
from bela.table_text import (
    explain_round,
    hand_order,
    sentence,
    suit_order,
    symbolize,
    zvanje_text,
)
from bela.tui.model import sheet_model
from bela.tui.screens.match_end import winner_text
from bela.tui.screens.start import parse_seed
from bela.tui.screens.summary import summary_rows


def result(
    caller: int,
    card_points: tuple[int, int],
    *,
    zvanja: tuple[int, int] = (0, 0),
    bela: tuple[int, int] = (0, 0),
    tricks: tuple[int, int] = (4, 4),
    visi: bool = False,
) -> RoundResult:
    score = score_round_detail(
        caller=caller, card_points=card_points, zvanja=zvanja, bela=bela, tricks=tricks, visi=visi
    )
    return RoundResult(
        points=score.points,
        card_points=card_points,
        zvanja=zvanja,
        bela=bela,
        tricks=tricks,
        totals=score.totals,
        caller=caller,
        trump=Suit.HEARTS,
        fell=score.fell,
        tie=score.tie,
        hanging=score.hanging,
        stiglja=score.stiglja,
        belot=None,
        belot_seat=None,
        redeal=False,
    )


def test_a_made_call_is_explained_in_a_sentence() -> None:
    assert explain_round(result(0, (96, 66))) == (
        "You called hearts. We made 96 of 162, more than half: we write 96, they write 66."
    )


def test_a_fall_says_who_fell_and_what_the_others_write() -> None:
    assert explain_round(result(1, (92, 70), zvanja=(0, 20))) == (
        "Ivo called hearts. They made only 90 of 182, not more than half: "
        "they fall (pad) and we write all 182."
    )


def test_an_exact_tie_is_a_fall_unless_visi() -> None:
    tie = result(2, (81, 81))
    assert tie.fell and tie.tie
    assert "exactly half (81 of 162)" in explain_round(tie)
    assert explain_round(tie).endswith("we fall (pad) and they write all 162.")
    hanging = result(2, (81, 81), visi=True)
    assert explain_round(hanging).endswith(
        "they write their 81 and our 81 hang until a round that is not a tie."
    )


def test_stiglja_is_named_before_the_call() -> None:
    swept = result(3, (162, 0), zvanja=(20, 0), tricks=(8, 0))
    text = explain_round(swept)
    assert text.startswith("We took all eight tricks (štiglja, 90 extra). Ana called hearts. They")
    assert "we write all 272" in text


def test_belot_and_redeal_have_their_own_sentences() -> None:
    base = result(0, (96, 66))
    belot = base._replace(belot=1, belot_seat=3, points=(0, 0))
    assert explain_round(belot) == (
        "Ana holds all eight cards of a suit (belot, trump hearts). "
        "Belot: they win the match outright."
    )
    redeal = base._replace(redeal=True, caller=None, trump=None)
    assert explain_round(redeal).startswith("Everybody said dalje")


def test_engine_card_codes_are_shown_with_suit_symbols() -> None:
    message = "9H is not allowed: you must beat JH with a higher heart (QH or AH)"
    assert symbolize(message) == (
        "9♥ is not allowed: you must beat J♥ with a higher heart (Q♥ or A♥)"
    )
    assert symbolize("10S or 7C") == "10♠ or 7♣"
    assert symbolize("AS IS") == "A♠ IS"  # only rank+suit tokens change
    assert sentence("the dealer may not say dalje") == "The dealer may not say dalje"
    assert sentence("10H is not in your hand") == "10♥ is not in your hand"


def test_zvanja_are_described_with_symbols() -> None:
    [run] = find_zvanja(["9H", "10H", "JH"])
    assert zvanje_text(run) == "tierce 9♥ 10♥ J♥ (20)"
    fours = find_zvanja(["JH", "JD", "JS", "JC"])
    assert zvanje_text(fours[0]) == "four jacks (200)"


def test_the_hand_is_sorted_by_suit_with_trump_first_strongest_first() -> None:
    cards = [Card.parse(c) for c in ("7H", "AS", "9H", "JH", "10S", "KD", "8C", "QC")]
    assert [str(c) for c in hand_order(cards, None)] == [
        "JH",
        "9H",
        "7H",
        "AS",
        "10S",
        "KD",
        "QC",
        "8C",
    ]
    assert [str(c) for c in hand_order(cards, Suit.SPADES)][:2] == ["AS", "10S"]
    trump_hearts = [str(c) for c in hand_order(cards, Suit.HEARTS)]
    assert trump_hearts[:3] == ["JH", "9H", "7H"]  # trump order: J 9 A 10 K Q 8 7
    plain = [str(c) for c in hand_order([Card.parse(c) for c in ("JD", "9D", "AD")], Suit.SPADES)]
    assert plain == ["AD", "JD", "9D"]  # plain order: A 10 K Q J 9 8 7


def test_suits_alternate_colour_after_trump() -> None:
    assert suit_order(None) == (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
    assert suit_order(Suit.DIAMONDS) == (Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS, Suit.CLUBS)
    assert suit_order(Suit.CLUBS) == (Suit.CLUBS, Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS)


def _record(index: int, r: RoundResult) -> RoundRecord:
    return RoundRecord(index=index, dealer=3, seed=1, actions=(), result=r, written=r.points)


def test_the_sheet_marks_pad_and_stiglja() -> None:
    fell = result(1, (92, 70))
    swept = result(0, (162, 0), tricks=(8, 0))
    match = Match(
        seed=1,
        target=501,
        rounds=(_record(0, fell), _record(1, swept)),
        scores=(fell.points[0] + swept.points[0], fell.points[1] + swept.points[1]),
    )
    sheet = sheet_model(match)
    assert [(r.number, r.mi, r.vi, r.note) for r in sheet.rows] == [
        (1, 162, 0, "pad vi"),
        (2, 252, 0, "štiglja mi"),
    ]
    assert sheet.totals == (414, 0) and sheet.target == 501


def test_the_summary_lines_add_up_to_the_total() -> None:
    swept = result(0, (162, 0), zvanja=(0, 50), tricks=(8, 0))
    rows = summary_rows(_record(0, swept), last_trick_team=0)
    by_label = {label.split(" (")[0]: (mi, vi) for label, mi, vi in rows}
    assert by_label["Card points"] == (162, 0)
    assert by_label["Zvanja"] == (0, 50)
    assert by_label["Štiglja"] == (140, -50)  # 90 and the swept team's zvanja
    assert by_label["Total"] == (302, 0)
    assert rows[0][0] == "Card points (last trick +10 to us)"


def test_the_winner_is_named_with_the_score() -> None:
    won = Match(seed=1, target=501, scores=(523, 410), winner=0)
    assert winner_text(won) == "You and Marko won 523 to 410 (we reached 501)."
    lost = Match(seed=1, target=501, scores=(300, 515), winner=1)
    assert winner_text(lost) == "Ivo and Ana won 515 to 300 (they reached 501)."


def test_difficulties_fall_back_to_an_available_bot() -> None:
    assert bot_kind("easy") == ("easy" if "easy" in BOT_KINDS else bot_kind("normal"))
    expected_hard = "hard" if "hard" in BOT_KINDS else bot_kind("normal")
    assert bot_kind("hard") == expected_hard
    assert bot_kind("no-such-level") in BOT_KINDS
    assert bot_kind("no-such-level") == bot_kind("normal")


def test_seeds_are_whole_numbers_in_range() -> None:
    assert parse_seed(" 42 ") == 42
    assert parse_seed(str(2**128 - 1)) == 2**128 - 1
    assert parse_seed(str(2**128)) is None
    assert parse_seed("-1") is None
    assert parse_seed("seven") is None
    assert parse_seed("") is None
