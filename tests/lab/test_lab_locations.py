"""The card-location model (issue #38): data from self-play, the fit, the play-time half."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bela.ai.base import decision_rng
from bela.ai.locations import FEATURES, LocationModel, free_places
from bela.ai.registry import make_bot
from bela.cli import main
from bela.engine import Phase, Round, round_seed
from bela.lab.locations import examples, fit
from bela.search.sampling import knowledge_of


def views(count: int) -> list[Round]:
    """Rounds of ``normal``'s self-play stopped at a random card decision."""
    rng = random.Random(3)
    bot = make_bot("normal")
    out = []
    while len(out) < count:
        seed = round_seed(3, len(out))
        rnd = Round.from_seed(seed, dealer=len(out) % 4)
        stop = rng.randrange(6, 34)
        step = 0
        while rnd.to_act is not None and step < stop:
            rnd.push(bot.act(rnd.view(rnd.to_act), decision_rng(seed, 0, step)), rnd.to_act)
            step += 1
        if rnd.phase is Phase.PLAYING and rnd.to_act is not None:
            out.append(rnd)
    return out


def test_untrained_it_is_the_baseline_and_it_never_places_a_card_where_it_cannot_be() -> None:
    model = LocationModel()
    for rnd in views(20):
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        k = knowledge_of(view)
        predicted = model.predict(view)
        assert set(predicted) == {c for c in range(32) if k.unseen >> c & 1}
        for card, p in predicted.items():
            base = free_places(k, card)
            assert p == pytest.approx(base) and sum(p) == pytest.approx(1.0)
            for r, s in enumerate(((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)):
                if not k.allowed[s] >> card & 1:
                    assert p[r] == 0.0


def test_the_examples_name_a_seat_that_may_hold_the_card() -> None:
    data = list(examples(2, 6))
    assert data
    for ex in data:
        for features, true, prior in ex.cards:
            assert prior[true] > 0.0 and sum(q > 0.0 for q in prior) >= 2
            assert all(0 <= f < FEATURES for fs in features for f in fs)


def test_the_fit_is_reproducible_and_lowers_the_training_loss(tmp_path: Path) -> None:
    data = list(examples(4, 15))
    one, report = fit(data, epochs=2, seed=9)
    two, _ = fit(data, epochs=2, seed=9)
    assert one.weights == two.weights
    (_, start, _), (_, after, _) = report.epochs[0], report.epochs[1]
    assert start == pytest.approx(report.baseline_train)  # untrained = the baseline
    assert after < start
    path = tmp_path / "w.json.gz"
    one.save(path)
    assert LocationModel.load(path).weights == pytest.approx(one.weights, abs=1e-6)
    bad = tmp_path / "bad.json.gz"
    LocationModel([0.0] * 3).save(bad)
    with pytest.raises(ValueError):
        LocationModel.load(bad)


def test_bela_lab_train_locations_prints_the_loss_and_writes_the_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "loc.json.gz"
    argv = ["lab", "train-locations", "--rounds", "5", "--epochs", "1", "--out", str(path)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "pass 0: loss" in text and "pass 1: loss" in text and "baseline" in text
    assert len(LocationModel.load(path).weights) == FEATURES


def test_the_hard_bot_draws_its_deals_by_the_models_odds() -> None:
    """``HardConfig.location_weights``: the searched deals follow the model (issue #38)."""
    from dataclasses import replace

    from bela.ai.hard import HARD_V3, HardBot
    from bela.ai.locations import pair_features, seat_facts
    from bela.search.sampling import DealSampler

    for rnd in views(30):
        seat = rnd.to_act
        assert seat is not None and rnd.trump is not None and rnd.caller is not None
        view = rnd.view(seat)
        k = knowledge_of(view)
        jack = int(rnd.trump) * 8 + 4  # the trump jack
        holder = rnd.caller
        if holder == seat or not k.unseen >> jack & 1 or not k.allowed[holder] >> jack & 1:
            continue
        if sum(1 for s in range(4) if s != seat and k.allowed[s] >> jack & 1) < 2:
            continue
        # a model sure the caller holds the trump jack: one feature, a large weight
        weights = [0.0] * FEATURES
        (feature, *_) = pair_features(jack, int(rnd.trump), seat_facts(view)[holder], 0)
        weights[feature] = 6.0
        bot = HardBot("loc", replace(HARD_V3, location_weights=tuple(weights)))
        plain = HardBot("plain", HARD_V3)
        sampler = DealSampler(k, HARD_V3.evidence)

        shares = []
        for b in (bot, plain):
            deals = list(b._deals(view, random.Random(1), sampler, 48))
            shares.append(sum(1 for h in deals if h[holder] >> jack & 1) / len(deals))
        assert shares[0] > shares[1] + 0.2
        return
    raise AssertionError("no position with the trump jack unseen and in doubt")
