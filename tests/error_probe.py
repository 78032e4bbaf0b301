"""Hands the engine's public entry points values of the wrong type and prints what each says.

Run by ``test_builds_agree_on_errors.py`` in two processes, the default build and
``BELA_PURE=1``: one line per call, the build first. Each line is the call and either its
result or the error's class and message, so the two builds' lines can be compared as text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from bela.engine import (
    Call,
    Card,
    Match,
    Phase,
    Play,
    Round,
    Rules,
    Suit,
    card_points,
    cards_in,
    deal_from_seed,
    decide_winner,
    legal_plays,
    mask_of,
    resolve_zvanja,
    round_seed,
    score_round,
    trick_winner,
)
from bela.engine.actions import parse_action
from bela.foundation import native


def playing() -> Round:
    """Seeded deal 3, trump named: the first card is to be played."""
    rnd = Round.from_seed(3, 0)
    while rnd.phase is Phase.BIDDING:
        rnd = rnd.apply(rnd.legal_actions()[-1])
    return rnd


def bare(cls: type[Any], **fields: object) -> Any:
    """An action built around its constructor."""
    action = object.__new__(cls)
    for name, value in fields.items():
        object.__setattr__(action, name, value)
    return action


def calls() -> list[tuple[str, Callable[[], object]]]:
    rnd = playing()
    hands = [cards_in(rnd.deal_hands[s] | rnd.deal_talons[s]) for s in range(4)]
    pairs: dict[str, Any] = {"card_points": (82, 80), "zvanja": (0, 0), "bela": (0, 0)}
    return [
        ('Round.from_seed("7")', lambda: Round.from_seed("7")),
        ("Round.from_seed(7, True)", lambda: Round.from_seed(7, True)),
        ("Round.from_seed(7, 1.0)", lambda: Round.from_seed(7, 1.0)),
        ('Round.from_seed(7, 0, "visi")', lambda: Round.from_seed(7, 0, "visi")),
        ("Round(0, None, None)", lambda: Round(0, None, None)),
        ("Round.random(None)", lambda: Round.random(None)),
        ("rnd.view(True)", lambda: rnd.view(True)),
        ('rnd.hand("1")', lambda: rnd.hand("1")),
        ("rnd.hand_mask(1.0)", lambda: rnd.hand_mask(1.0)),
        ("rnd.talon(None)", lambda: rnd.talon(None)),
        ("rnd.declarations(False)", lambda: rnd.declarations(False)),
        ("rnd.can_announce_bela(1.5)", lambda: rnd.can_announce_bela(1.5)),
        ('rnd.apply("QH")', lambda: rnd.apply("QH")),
        ("rnd.apply(legal, True)", lambda: rnd.apply(rnd.legal_actions()[0], True)),
        ("rnd.apply(bare Play)", lambda: rnd.apply(bare(Play))),
        ("rnd.apply(Play 4.5)", lambda: rnd.apply(bare(Play, card=4.5, bela=False))),
        ("rnd.replay(5)", lambda: rnd.replay(5)),
        ('Rules(visi="yes")', lambda: Rules(visi="yes")),
        ("Rules(visi=1)", lambda: Rules(visi=1)),
        ('Rules(stiglja_bonus="90")', lambda: Rules(stiglja_bonus="90")),
        ('Play("QH")', lambda: Play("QH")),
        ("Play(5)", lambda: Play(5)),
        ("Play(True)", lambda: Play(True)),
        ('Play("KH", 1)', lambda: Play("KH", 1)),
        ("Call(31)", lambda: Call(31)),
        ('Call("h")', lambda: Call("h")),
        ("Call(None)", lambda: Call(None)),
        ('Match.new("7")', lambda: Match.new("7")),
        ('Match.new(7, target="1001")', lambda: Match.new(7, target="1001")),
        ("Match.new(7, first_dealer=True)", lambda: Match.new(7, first_dealer=True)),
        ("Match(7, start_index=1.5)", lambda: Match(7, start_index=1.5)),
        ("replace(match, rules=None)", lambda: dataclasses.replace(Match.new(7), rules=None)),
        ('Match.new(7).deal("2")', lambda: Match.new(7).deal("2")),
        ("round_seed(1, True)", lambda: round_seed(1, True)),
        ("deal_from_seed(1, 1.0)", lambda: deal_from_seed(1, 1.0)),
        ("cards_in(True)", lambda: cards_in(True)),
        ('cards_in("7")', lambda: cards_in("7")),
        ("mask_of(None)", lambda: mask_of(None)),
        ("Card(True)", lambda: Card(True)),
        ("Card.parse(3)", lambda: Card.parse(3)),
        ("Card.of(1.5, 0)", lambda: Card.of(1.5, 0)),
        ("Suit.parse(None)", lambda: Suit.parse(None)),
        ("parse_action(7)", lambda: parse_action(7)),
        ("parse_action('call Z')", lambda: parse_action("call Z")),
        ('card_points(True, "H")', lambda: card_points(True, "H")),
        ("card_points(0, 1.0)", lambda: card_points(0, 1.0)),
        ('legal_plays(["7H"], [], True)', lambda: legal_plays(["7H"], [], True)),
        ('trick_winner("7H 8H", None)', lambda: trick_winner("7H 8H", None)),
        ("resolve_zvanja(hands, True)", lambda: resolve_zvanja(hands, True)),
        ("score_round(caller=True)", lambda: score_round(caller=True, tricks=(4, 4), **pairs)),
        ('score_round(tricks="44")', lambda: score_round(caller=0, tricks="44", **pairs)),
        ('decide_winner((1, 2), "501")', lambda: decide_winner((1, 2), "501")),
        ("decide_winner((510, 2), 501, True)", lambda: decide_winner((510, 2), 501, True)),
    ]


def outcome(call: Callable[[], object]) -> str:
    try:
        value = call()
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return f"-> {type(value).__name__}"


def main() -> None:
    print("build", "compiled" if native.build().compiled else "pure")
    for text, call in calls():
        print(text, "|", outcome(call))


if __name__ == "__main__":
    main()
