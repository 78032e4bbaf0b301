"""The table at both ends of the window sizes (issue #35).

At 80 x 24 a card just taken up from the talon was labelled "1nova▲", cut to "1nova":
the raised card's ▲ was lost and the word ran into the number. At 160 x 50 and more the
table stopped growing at its 120 x 40 size and left the rest of the window empty.
"""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from tui_pilot import make_app, settle, table

from bela.i18n import LANGUAGES, _, set_language
from bela.keys import bid_keys
from bela.tui.widgets import Hand
from bela.tui.widgets.cards import CARD_WIDTH


@pytest.mark.parametrize("language", ["hr", "en", "es", "ru"])
async def test_a_fresh_chosen_card_keeps_its_whole_label_at_80_by_24(language: str) -> None:
    app = make_app(seed=7, language=language)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        await pilot.press(bid_keys()[0])  # name hearts: the talon is taken up
        await pilot.pause()
        assert await settle(pilot) == "turn"
        hand = screen.query_one(Hand)
        model = hand.model
        fresh = [i for i, card in enumerate(model.cards) if card in model.fresh]
        assert fresh, "the talon's two cards are marked new"
        legal = [i for i in fresh if model.legal is None or model.cards[i] in model.legal]
        target = legal[0] if legal else fresh[0]
        steps = (target - screen.cursor) % len(model.cards)
        await pilot.press(*(["right"] * steps))
        await pilot.pause()
        model = hand.model
        assert model.cursor == target
        word = _("new")
        lines = str(hand.render()).splitlines()
        labels = lines[-1]
        assert f"{target + 1}▲" in labels, labels  # the number and the raised mark, whole
        assert all(str(i + 1) in labels for i in range(len(model.cards)))
        shown = "\n".join(lines[:-1])
        assert shown.count(word) == len([c for c in model.cards if c in model.fresh]), lines
        assert hand.region.right <= 80


async def _sizes(size: tuple[int, int]) -> dict[str, tuple[int, int]]:
    app = make_app(seed=7)
    async with app.run_test(size=size) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        await pilot.pause()
        found = {}
        for selector in ("#middle", "#hand", "#side", "#seat-2", "#centre"):
            region = screen.query_one(selector).region
            found[selector] = (region.width, region.height)
        drawn = str(screen.query_one(Hand).render()).splitlines()
        found["drawn"] = (max(cell_len(line.rstrip()) for line in drawn), 0)
        return found


async def test_the_table_keeps_growing_at_160_by_50() -> None:
    small, roomy, huge = await _sizes((100, 32)), await _sizes((120, 40)), await _sizes((160, 50))
    for selector in ("#middle", "#side", "#seat-2"):
        assert small[selector] <= roomy[selector] < huge[selector], (selector, roomy, huge)
    assert huge["#middle"][1] > roomy["#middle"][1]  # a taller middle: seats further out
    # the hand's eight cards spread apart (wider gaps), not only a wider empty box
    assert huge["#hand"][0] > roomy["#hand"][0] and huge["drawn"][0] > roomy["drawn"][0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_words_under_and_over_a_card_fit_a_small_card(language: str) -> None:
    """ "new" (over a card just taken up) and "talon" (under a face-down one) are shown
    whole in a card's five cells, at 80 x 24 as anywhere."""
    set_language(language)
    for word in (_("new"), _("talon")):
        assert cell_len(word) <= CARD_WIDTH, (language, word)
