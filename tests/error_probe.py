"""Hands the engine's public entry points values of the wrong type and prints what each says.

Run by ``test_builds_agree_on_errors.py`` in two processes, the default build and
``BELA_PURE=1``: one line per call, the build first. Each line is the call and either its
result or the error's class and message, so the two builds' lines can be compared as text.

Besides the calls listed by hand (``calls``), ``generated_calls`` makes them from the
signatures (issue #34): every public function of ``bela.engine`` and every public method of
its public classes, and the search's ``Position`` and solver functions, each parameter in
turn given ``True``, ``1.5``, ``"7"``, ``None`` and ``2**70`` while the others get a good
value. The parameters and their annotations are read from the source with ``ast``, the same
in both builds (a compiled function keeps its parameters' names, not their types). A
callable whose parameters have no good value here is left out, and so are the two fast paths
documented as trusting their arguments (``legal_mask``, ``Round.push_card``).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bela.engine import (
    Call,
    Card,
    Match,
    Phase,
    Play,
    Rank,
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


WRONG: tuple[object, ...] = (True, 1.5, "7", None, 2**70)
TRUSTED = frozenset({"legal_mask", "round.push_card"})
"""Fast paths documented as trusting their arguments: the engine and the search call them
in their inner loops with values they made themselves."""


def _source(module: str) -> ast.Module:
    """The source of ``module`` (beside its compiled file, in the compiled build)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    path = Path(spec.origin).with_name(module.rsplit(".", 1)[1] + ".py")
    return ast.parse(path.read_text(encoding="utf-8"))


def generated_calls() -> list[tuple[str, Callable[[], object]]]:
    import bela.engine as engine
    from bela.search import solver
    from bela.search.solver_position import Position

    rnd = playing()
    view = rnd.view(rnd.to_act)
    card = rnd.legal_actions()[0]
    assert isinstance(card, Play)
    pos = Position.from_round(rnd)
    good: dict[str, object] = {
        "int": 0,
        "bool": False,
        "str": "7H",
        "object": 0,
        "Round": rnd,
        "Rules": Rules(),
        "Card": Card(0),
        "Suit": Suit.HEARTS,
        "Suit | None": None,
        "Rank": Rank.ACE,
        "Phase": Phase.PLAYING,
        "Action": card,
        "SeatView": view,
        "Random": random.Random(1),
        "Random | None": None,
        "Position": pos,
        "Pair": (0, 0),
        "tuple[int, int]": (0, 0),
        "int | None": None,
        "Card | str | int": card.card,
    }
    instances: dict[str, object] = {
        "Round": rnd,
        "Match": Match.new(7),
        "Card": Card(0),
        "Rules": Rules(),
        "SeatView": view,
        "Position": pos,
        "Play": Play(Card(0)),
        "Call": Call(Suit.HEARTS),
    }
    targets: list[tuple[str, Any]] = [
        (name, getattr(engine, name)) for name in engine.__all__ if callable(getattr(engine, name))
    ]
    targets.append(("Position", Position))
    for name in ("solve", "solve_value", "remaining_points", "equivalence_classes"):
        targets.append((name, getattr(solver, name)))
    out: list[tuple[str, Callable[[], object]]] = []
    for name, obj in targets:
        for node in _source(obj.__module__).body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                out += _wrong_calls(name, obj, node, good, method=False)
            if not isinstance(node, ast.ClassDef) or node.name != name:
                continue
            for fn in node.body:
                if not isinstance(fn, ast.FunctionDef) or (
                    fn.name.startswith("_") and fn.name != "__init__"
                ):
                    continue
                decorators = {ast.unparse(d) for d in fn.decorator_list}
                if "property" in decorators or any(d.endswith(".setter") for d in decorators):
                    continue
                if fn.name == "__init__":
                    label, target = name, obj
                elif decorators & {"classmethod", "staticmethod"}:
                    label, target = f"{name}.{fn.name}", getattr(obj, fn.name)
                elif name in instances:
                    label, target = f"{name.lower()}.{fn.name}", getattr(instances[name], fn.name)
                else:
                    continue
                out += _wrong_calls(label, target, fn, good, method=True)
    return [(text, call) for text, call in out if text.split("(")[0] not in TRUSTED]


def _wrong_calls(
    label: str, target: Any, fn: ast.FunctionDef, good: dict[str, object], *, method: bool
) -> list[tuple[str, Callable[[], object]]]:
    """``target`` called once per parameter and wrong value, the other parameters good."""
    args = fn.args
    params = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(params) - len(args.defaults))
    defaults += args.defaults
    pairs = list(zip(params, defaults, strict=True))[1 if method else 0 :]
    pairs += list(zip(args.kwonlyargs, args.kw_defaults, strict=True))
    values: dict[str, object] = {}
    for param, default in pairs:
        annotation = "object" if param.annotation is None else ast.unparse(param.annotation)
        if annotation in good:
            values[param.arg] = good[annotation]
        elif default is None:
            return []  # no good value for it here: the callable is left out
    only_positional = [p.arg for p in args.posonlyargs]
    out: list[tuple[str, Callable[[], object]]] = []
    for param, _default in pairs:
        for wrong in WRONG:
            given = {**values, param.arg: wrong}
            positional = [given.pop(name) for name in only_positional if name in given]

            def call(t: Any = target, p: list[object] = positional, k: Any = given) -> object:
                return t(*p, **k)

            out.append((f"{label}({param.arg}={wrong!r})", call))
    return out


def outcome(call: Callable[[], object]) -> str:
    try:
        value = call()
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return f"-> {type(value).__name__}"


def main() -> None:
    print("build", "compiled" if native.build().compiled else "pure")
    for text, call in calls() + generated_calls():
        print(text, "|", outcome(call))


if __name__ == "__main__":
    main()
