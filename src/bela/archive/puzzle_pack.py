"""The puzzle pack: the shipped puzzles and the player's own, read and checked line by line.

A puzzle is one JSON line (``bela.lab.puzzle_gen`` writes them, ``PUZZLE_FORMAT``):
a moment of a real deal, the accepted answer, every choice's average over the
guessed deals, the themes, and a typical deal. The pack is the shipped file
(``puzzles.jsonl.gz`` beside this module) and every ``<data dir>/puzzles/*.jsonl``
a player generated or was given.

Every line is untrusted: a player may drop any file there. So each one is
checked field by field and *replayed* through the engine before it is believed:
the actions must be legal from the deal of its seed, the seat must be the one to
act, the answer and every choice must be legal there, a typical deal's hands must
agree with what the seat holds and its lines must replay to the points they claim.
A line that fails is skipped and counted (``Pack.skipped``, with the reason), never
shown and never a crash. Nothing from a line reaches the screen but what was parsed
into cards, actions and numbers, and the id (short hex, checked).

Pure data: no rich, no Textual; the command line and the app render puzzles.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

from bela.archive.bid_puzzles import ALSO_GOOD, BID_PACK_NAME, GOOD_CREDIT, BidFacts
from bela.archive.record_basics import RecordError
from bela.archive.records import parse_action
from bela.engine import Action, BelaError, Call, IllegalActionError, Pass, Phase, Play, Round
from bela.engine.actions import choice_of
from bela.engine.cards import Card
from bela.engine.deal import MAX_SEED
from bela.engine.errors import CardParseError
from bela.engine.rules import DEFAULT_RULES
from bela.foundation.files import read_limited
from bela.foundation.numbers import load_json, number_in, whole_in
from bela.foundation.puzzle_themes import THEMES
from bela.foundation.untrusted import oneline

__all__ = [
    "BOTS",
    "PACK_NAME",
    "PUZZLE_FORMAT",
    "THEMES",
    "Pack",
    "Puzzle",
    "PuzzleChoice",
    "Skipped",
    "Typical",
    "TypicalLine",
    "load_pack",
    "moment_id",
    "own_dir",
    "parse_puzzle",
    "puzzle_data",
    "read_lines",
]

PUZZLE_FORMAT: Final = 1
"""The one puzzle shape this bela reads (``bela.lab.puzzle_gen.PUZZLE_FORMAT``; a test keeps
them equal)."""

PACK_NAME: Final = "puzzles.jsonl.gz"
"""The shipped pack, a resource of this package."""


BOTS: Final = ("easy", "normal", "hard")
"""The bots a puzzle says find (or miss) its answer."""

LINE_LIMIT: Final = 64 * 1024
"""The longest line read: a real puzzle is under 2 KB, so anything longer is not one."""
FILE_LIMIT: Final = 64 * 1024 * 1024
"""The largest pack file read (compressed or not; the shipped one is a few hundred KB)."""
_ID: Final = re.compile(r"[0-9a-f]{4,32}")
_ACTION_TEXT_LIMIT: Final = 16
_MAX_ACTIONS: Final = 64
_MAX_CHOICES: Final = 40
_MAX_DEALS: Final = 100_000
_MAX_WRITTEN: Final = 1000.0
_RATING_RANGE: Final = (100.0, 4000.0)


@dataclass(frozen=True, slots=True)
class PuzzleChoice:
    """One choice at the moment: its actions (equivalent cards, or one bid), the mean written
    points of the seat's team minus the other's over the guessed deals, and the share of
    those deals on which it was best."""

    actions: tuple[Action, ...]
    written: float
    best: float


@dataclass(frozen=True, slots=True)
class TypicalLine:
    """The rest of the round after one choice in the typical deal, both teams playing their
    best with every card seen, and the whole round's written points (team 0, team 1)."""

    actions: tuple[Action, ...]
    written: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Typical:
    """A typical guessed deal: every seat's cards at the moment (seats 0-3), and the answer's
    line and the best alternative's on it (none for a bid)."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    lines: tuple[TypicalLine, ...]


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A checked puzzle: a moment of the deal of ``seed`` and its answer.

    ``answer`` holds the accepted actions (a card whatever its bela flag: see
    ``is_right``); ``choices`` every choice, best first, so ``choices[1]`` is the
    best alternative. ``bots`` names the bots known to find the answer. ``shipped``
    is False for a puzzle from the player's own files (the daily puzzle is chosen
    from the shipped ones only, so it is the same for everyone).
    """

    id: str
    seed: int
    dealer: int
    actions: tuple[Action, ...]
    seat: int
    kind: str
    trick: int
    answer: tuple[Action, ...]
    choices: tuple[PuzzleChoice, ...]
    deals: int
    themes: tuple[str, ...]
    rating: float
    bots: frozenset[str]
    typical: Typical | None
    shipped: bool = True
    bid: BidFacts | None = None
    """A bid puzzle's also-good bids and how often each choice wrote more (``bid_puzzles``)."""

    def deal(self) -> Round:
        """The round as dealt, before any bid."""
        return Round.from_seed(self.seed, self.dealer, DEFAULT_RULES)

    def moment(self) -> Round:
        """The round at the puzzle's moment (a fresh copy: push into it freely)."""
        rnd = self.deal()
        for action in self.actions:
            rnd.push(action)
        return rnd

    def is_right(self, action: Action) -> bool:
        """Whether ``action`` is an accepted answer (a card's bela flag does not matter)."""
        key = choice_of(action)
        return any(choice_of(a) == key for a in self.answer)

    def credit(self, action: Action) -> float:
        """What ``action`` scores: 1 for the answer, ``GOOD_CREDIT`` for an also-good bid, 0."""
        if self.is_right(action):
            return 1.0
        if self.bid is not None and choice_of(action) in {choice_of(a) for a in self.bid.good}:
            return GOOD_CREDIT
        return 0.0

    def choice_of(self, action: Action) -> PuzzleChoice | None:
        """The choice ``action`` belongs to (its average and share), or None if it is not one."""
        key = choice_of(action)
        for choice in self.choices:
            if any(choice_of(a) == key for a in choice.actions):
                return choice
        return None

    @property
    def alternative(self) -> PuzzleChoice:
        """The best choice that is not the answer (what the explanation compares with)."""
        return self.choices[1]


def moment_id(seed: int, dealer: int, actions: Sequence[str]) -> str:
    """The id a moment has (``bela.lab.puzzle_gen.puzzle_id``; a test keeps them equal): a
    line whose id is another's cannot borrow that puzzle's attempts and rating."""
    text = f"{seed}/{dealer}/{' '.join(actions)}"
    return hashlib.blake2b(text.encode(), digest_size=5).hexdigest()


def puzzle_data(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as its pack line has it (``PUZZLE_FORMAT``): what ``--json`` prints."""
    typical: dict[str, Any] | None = None
    if puzzle.typical is not None:
        typical = {
            "hands": [[str(c) for c in hand] for hand in puzzle.typical.hands],
            "lines": [
                {"actions": [str(a) for a in line.actions], "written": list(line.written)}
                for line in puzzle.typical.lines
            ],
        }
    data: dict[str, Any] = {
        "format": PUZZLE_FORMAT,
        "id": puzzle.id,
        "seed": puzzle.seed,
        "dealer": puzzle.dealer,
        "actions": [str(a) for a in puzzle.actions],
        "seat": puzzle.seat,
        "kind": puzzle.kind,
        "trick": puzzle.trick,
        "answer": [str(a) for a in puzzle.answer],
        "choices": [
            {"actions": [str(a) for a in c.actions], "written": c.written, "best": c.best}
            for c in puzzle.choices
        ],
        "deals": puzzle.deals,
        "themes": list(puzzle.themes),
        "rating": puzzle.rating,
        "bots": {name: name in puzzle.bots for name in BOTS},
        "typical": typical,
    }
    if puzzle.bid is not None:
        data["bid"] = {
            "good": [str(a) for a in puzzle.bid.good],
            "versus": [list(v) for v in puzzle.bid.versus],
        }
    return data


@dataclass(frozen=True, slots=True)
class Skipped:
    """A line that is not a usable puzzle: where it is and why, in one line (English, for
    ``--json`` and logs; the player sees only how many)."""

    source: str
    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class Pack:
    """Every usable puzzle (the shipped ones first, then the player's files in name order),
    each id once (a later line with an id already read is skipped), and what was skipped."""

    puzzles: tuple[Puzzle, ...]
    skipped: tuple[Skipped, ...] = ()
    by_id: Mapping[str, Puzzle] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.by_id and self.puzzles:
            object.__setattr__(self, "by_id", {p.id: p for p in self.puzzles})

    def themes(self) -> dict[str, int]:
        """How many puzzles each theme has (themes with none left out), in ``THEMES`` order."""
        counts = dict.fromkeys(THEMES, 0)
        for p in self.puzzles:
            for theme in p.themes:
                counts[theme] += 1
        return {t: n for t, n in counts.items() if n}

    @property
    def shipped(self) -> tuple[Puzzle, ...]:
        """The shipped puzzles alone (the daily puzzle's pool)."""
        return tuple(p for p in self.puzzles if p.shipped)


# ---------------------------------------------------------------------- reading


def own_dir(data_dir: Path) -> Path:
    """Where the player's own puzzle files live: ``<data dir>/puzzles``."""
    return data_dir / "puzzles"


def load_pack(data_dir: Path | None, *, shipped: bool = True) -> Pack:
    """The shipped pack plus every ``<data_dir>/puzzles/*.jsonl`` (``data_dir`` None: none).

    A file that cannot be read counts as one skipped line with the reason; an absent
    shipped pack is an empty one.
    """
    puzzles: list[Puzzle] = []
    skipped: list[Skipped] = []
    seen: set[str] = set()
    if shipped:
        for name in (PACK_NAME, BID_PACK_NAME):
            _take(_shipped_lines(name), name, True, puzzles, skipped, seen)
    if data_dir is not None:
        folder = own_dir(data_dir)
        try:
            names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".jsonl"))
        except OSError:
            names = []  # no folder (or unreadable): no own puzzles
        for name in names:
            _take(_file_lines(folder / name), name, False, puzzles, skipped, seen)
    return Pack(tuple(puzzles), tuple(skipped))


def read_lines(lines: Iterable[str], source: str = "-", *, shipped: bool = False) -> Pack:
    """A pack of the given lines alone (for a file named on the command line, and tests)."""
    puzzles: list[Puzzle] = []
    skipped: list[Skipped] = []
    _take(((n, line) for n, line in enumerate(lines, 1)), source, shipped, puzzles, skipped, set())
    return Pack(tuple(puzzles), tuple(skipped))


def _take(
    lines: Iterable[tuple[int, str] | Skipped],
    source: str,
    shipped: bool,
    puzzles: list[Puzzle],
    skipped: list[Skipped],
    seen: set[str],
) -> None:
    for item in lines:
        if isinstance(item, Skipped):
            skipped.append(Skipped(source, item.line, item.reason))
            continue
        number, text = item
        if not text.strip():
            continue
        try:
            puzzle = parse_puzzle(text, shipped=shipped)
        except ValueError as exc:
            skipped.append(Skipped(source, number, oneline(exc, 200)))
            continue
        if puzzle.id in seen:
            skipped.append(Skipped(source, number, f"the id {puzzle.id} is already in the pack"))
            continue
        seen.add(puzzle.id)
        puzzles.append(puzzle)


def _shipped_root() -> Traversable:
    """Where the shipped pack lives: this package's resources (tests point it elsewhere)."""
    return resources.files("bela.archive")


def _shipped_lines(name: str = PACK_NAME) -> Iterator[tuple[int, str] | Skipped]:
    try:
        data = _shipped_root().joinpath(name).read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return  # no pack shipped (a development tree): an empty pack
    except OSError as exc:
        yield Skipped(name, 0, oneline(exc, 200))
        return
    try:
        text = _gunzip(data)
    except ValueError as exc:
        yield Skipped(name, 0, oneline(exc, 200))
        return
    yield from enumerate(text.splitlines(), 1)


def _gunzip(data: bytes) -> str:
    """The text of a gzip file, refusing one that would inflate past ``FILE_LIMIT``."""
    try:
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        raw = inflater.decompress(data, FILE_LIMIT + 1)
        if len(raw) > FILE_LIMIT or inflater.unconsumed_tail:
            raise ValueError("the pack inflates past its limit")
        return raw.decode("utf-8")
    except (zlib.error, gzip.BadGzipFile, UnicodeDecodeError) as exc:
        raise ValueError(f"the pack is not gzip'd UTF-8 text: {exc}") from None


def _file_lines(path: Path) -> Iterator[tuple[int, str] | Skipped]:
    try:
        data = read_limited(path, FILE_LIMIT)
    except OSError as exc:
        yield Skipped(path.name, 0, oneline(exc, 200))
        return
    text = data.decode("utf-8", errors="replace")  # a bad byte fails its own line's JSON checks
    yield from enumerate(text.splitlines(), 1)


# ---------------------------------------------------------------------- checking one line


class _Bad(ValueError):
    """A line that is not a usable puzzle (the message says why, in one line)."""


def parse_puzzle(text: str, *, shipped: bool = False) -> Puzzle:
    """The puzzle of one pack line, fully checked and replayed; ``ValueError`` says why not."""
    if len(text) > LINE_LIMIT:
        raise _Bad(f"the line is longer than {LINE_LIMIT} characters")
    try:
        data = load_json(text)
    except ValueError as exc:
        raise _Bad(f"not JSON: {oneline(exc, 80)}") from None
    if not isinstance(data, dict):
        raise _Bad("not a JSON object")
    if data.get("format") != PUZZLE_FORMAT or isinstance(data.get("format"), bool):
        raise _Bad(f"not a puzzle of format {PUZZLE_FORMAT}")
    ident = data.get("id")
    if not isinstance(ident, str) or not _ID.fullmatch(ident):
        raise _Bad("the id is not a short hex string")
    seed = _int(data, "seed", 0, MAX_SEED)
    dealer = _int(data, "dealer", 0, 3)
    actions = _actions(data.get("actions"), "actions", _MAX_ACTIONS, empty=True)
    rnd = Round.from_seed(seed, dealer, DEFAULT_RULES)
    try:
        _replay(rnd, actions)
    except BelaError as exc:
        raise _Bad(f"the actions do not replay: {oneline(exc, 120)}") from None
    if rnd.phase is Phase.FINISHED or rnd.to_act is None:
        raise _Bad("the round is over at the moment")
    seat = _int(data, "seat", 0, 3)
    if seat != rnd.to_act:
        raise _Bad(f"seat {seat} is not the one to act (seat {rnd.to_act} is)")
    kind = data.get("kind")
    bidding = rnd.phase is Phase.BIDDING
    if kind != ("bid" if bidding else "card"):
        raise _Bad("the kind is not the moment's (card or bid)")
    trick = _int(data, "trick", 0, 8)
    if trick != (0 if bidding else len(rnd.tricks) + 1):
        raise _Bad("the trick is not the moment's")
    legal = {choice_of(a) for a in rnd.view(seat).legal_actions}
    answer = _moves(data.get("answer"), "answer", legal, bidding)
    choices = _choices(data.get("choices"), legal, bidding)
    if {choice_of(a) for a in choices[0].actions} != {choice_of(a) for a in answer}:
        raise _Bad("the first choice is not the answer")
    deals = _int(data, "deals", 1, _MAX_DEALS)
    themes = _themes(data.get("themes"))
    rating = _number(data, "rating", *_RATING_RANGE)
    bots = _bots(data.get("bots"))
    typical = _typical(data.get("typical"), rnd, seat, choices, bidding)
    bid = _bid_facts(data.get("bid"), choices, deals, legal, bidding)
    if ident != moment_id(seed, dealer, [str(a) for a in actions]):
        raise _Bad("the id does not name the puzzle's moment")
    return Puzzle(
        id=ident,
        seed=seed,
        dealer=dealer,
        actions=actions,
        seat=seat,
        kind=str(kind),
        trick=trick,
        answer=answer,
        choices=choices,
        deals=deals,
        themes=themes,
        rating=rating,
        bots=bots,
        typical=typical,
        shipped=shipped,
        bid=bid,
    )


_parse_action = functools.lru_cache(maxsize=512)(parse_action)
"""``parse_action`` remembered: a pack names the same few dozen actions thousands of times
(actions are frozen, so one object may stand in many places)."""


def _replay(rnd: Round, actions: Sequence[Action]) -> None:
    """Push ``actions`` into ``rnd``, each checked; ``BelaError`` for one not allowed.

    From the second trick on a card is checked by the engine's fast test (the card is
    in ``legal_mask``, bela only where it may be announced) and played by ``push_card``:
    the same rule the engine's ``push`` applies, at a fraction of its cost, so that a
    pack of thousands of lines opens in about a second. Bids, the first trick (where
    "šutim" may come between cards) and anything else go through ``push``.
    """
    for action in actions:
        if action.__class__ is Play and rnd.phase is Phase.PLAYING and rnd.tricks_won != (0, 0):
            assert isinstance(action, Play)
            card = int(action.card)
            if not rnd.legal_mask() >> card & 1 or (
                action.bela and not rnd.can_announce_bela(card)
            ):
                rnd.push(action)  # not allowed: push says why, as it would have
                raise IllegalActionError(f"{action} is not allowed")  # not reached
            rnd.push_card(card, action.bela)
        else:
            rnd.push(action)


def _int(data: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = whole_in(data.get(key), low, high)
    if value is None:
        raise _Bad(f"{key} is not a whole number from {low} to {high}")
    return value


def _number(data: Mapping[str, Any], key: str, low: float, high: float) -> float:
    return _real(data.get(key), key, low, high)


def _real(value: object, what: str, low: float, high: float) -> float:
    number = number_in(value, low, high)
    if number is None:
        raise _Bad(f"{what} is not a number from {low:g} to {high:g}")
    return number


def _actions(value: object, what: str, limit: int, *, empty: bool = False) -> tuple[Action, ...]:
    if not isinstance(value, list) or len(value) > limit or (not value and not empty):
        raise _Bad(f"{what} is not a list of up to {limit} actions")
    out: list[Action] = []
    for item in value:
        if not isinstance(item, str) or len(item) > _ACTION_TEXT_LIMIT:
            raise _Bad(f"{what} holds something that is not an action")
        try:
            out.append(_parse_action(item))
        except RecordError:
            raise _Bad(f"{what} holds something that is not an action") from None
    return tuple(out)


def _moves(value: object, what: str, legal: set[object], bidding: bool) -> tuple[Action, ...]:
    """An answer or a choice: legal actions of one kind (cards, or a single bid), each once."""
    moves = _actions(value, what, 8)
    keys = [choice_of(a) for a in moves]
    if len(set(keys)) != len(keys):
        raise _Bad(f"{what} names an action twice")
    if any(k not in legal for k in keys):
        raise _Bad(f"{what} is not legal at the moment")
    if bidding and len(moves) != 1:
        raise _Bad(f"{what} is not one bid")
    if not bidding and not all(isinstance(a, Play) for a in moves):
        raise _Bad(f"{what} is not cards")
    return moves


def _choices(value: object, legal: set[object], bidding: bool) -> tuple[PuzzleChoice, ...]:
    if not isinstance(value, list) or not 2 <= len(value) <= _MAX_CHOICES:
        raise _Bad("the choices are not a list of two or more")
    out: list[PuzzleChoice] = []
    taken: set[object] = set()
    for item in value:
        if not isinstance(item, dict):
            raise _Bad("a choice is not an object")
        moves = _moves(item.get("actions"), "a choice", legal, bidding)
        keys = {choice_of(a) for a in moves}
        if keys & taken:
            raise _Bad("two choices share an action")
        taken |= keys
        written = _real(
            item.get("written"), "a choice's written points", -_MAX_WRITTEN, _MAX_WRITTEN
        )
        best = _real(item.get("best"), "a choice's share", 0.0, 1.0)
        out.append(PuzzleChoice(moves, written, best))
    if any(out[0].written < c.written for c in out[1:]):
        raise _Bad("the first choice is not the best")
    return tuple(out)


def _bid_facts(
    value: object,
    choices: Sequence[PuzzleChoice],
    deals: int,
    legal: set[object],
    bidding: bool,
) -> BidFacts | None:
    """A bid puzzle's ``bid`` object (``bid_puzzles``): also-good bids that are choices within
    ``ALSO_GOOD`` of the answer, and a (more, equal, less) for every choice adding up to the
    deals, the answer's own (0, deals, 0)."""
    if value is None:
        return None
    if not bidding:
        raise _Bad("a card puzzle has no bid facts")
    if not isinstance(value, dict):
        raise _Bad("bid is not an object")
    raw = value.get("good")
    good = () if raw == [] else _actions(raw, "bid's good answers", 4)
    keys = [choice_of(a) for a in good]
    if len(set(keys)) != len(keys) or any(k not in legal for k in keys):
        raise _Bad("bid's good answers are not legal bids, each once")
    top = choices[0].written
    for key in keys:
        found = [c for c in choices[1:] if choice_of(c.actions[0]) == key]
        if not found or found[0].written < top - ALSO_GOOD - 1e-6:
            raise _Bad("bid's good answer is not a choice near the answer")
    versus = value.get("versus")
    if not isinstance(versus, list) or len(versus) != len(choices):
        raise _Bad("bid's versus is not one record a choice")
    counts: list[tuple[int, int, int]] = []
    for item in versus:
        if not isinstance(item, list) or len(item) != 3:
            raise _Bad("bid's versus holds something that is not three counts")
        whole = [whole_in(x, 0, deals) for x in item]
        if any(w is None for w in whole) or sum(w or 0 for w in whole) != deals:
            raise _Bad("bid's versus counts do not add up to the deals")
        counts.append((whole[0] or 0, whole[1] or 0, whole[2] or 0))
    if counts[0] != (0, deals, 0):
        raise _Bad("bid's versus does not give the answer its own record")
    return BidFacts(good, tuple(counts))


def _themes(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > len(THEMES) * 2:
        raise _Bad("the themes are not a list")
    if any(not isinstance(t, str) or t not in THEMES for t in value):
        raise _Bad("a theme is not one of bela's")
    return tuple(t for t in THEMES if t in value)


def _bots(value: object) -> frozenset[str]:
    if not isinstance(value, dict) or len(value) > len(BOTS):
        raise _Bad("bots is not an object of the bots' names")
    if any(k not in BOTS or v.__class__ is not bool for k, v in value.items()):
        raise _Bad("bots holds something other than the bots' names and true or false")
    return frozenset(k for k, v in value.items() if v)


def _cards(value: object, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) > 8:
        raise _Bad(f"{what} is not a list of up to eight cards")
    out: list[Card] = []
    for item in value:
        if not isinstance(item, str) or len(item) > 3:
            raise _Bad(f"{what} holds something that is not a card")
        try:
            out.append(Card.parse(item))
        except (CardParseError, ValueError):
            raise _Bad(f"{what} holds something that is not a card") from None
    return tuple(out)


def _typical(
    value: object, rnd: Round, seat: int, choices: Sequence[PuzzleChoice], bidding: bool
) -> Typical | None:
    """A typical deal that agrees with the moment: the seat's own cards, nobody holding a card
    already played, and (for a card) lines that replay to the written points they claim."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _Bad("typical is not an object")
    raw = value.get("hands")
    if not isinstance(raw, list) or len(raw) != 4:
        raise _Bad("typical's hands are not four hands")
    hands = tuple(_cards(h, "a typical hand") for h in raw)
    every = [c for h in hands for c in h]
    if len(set(every)) != len(every):
        raise _Bad("typical's hands share a card")
    view = rnd.view(seat)
    played = {c for t in view.tricks for c in t.cards} | set(view.trick)
    if set(every) & played:
        raise _Bad("typical's hands hold a card already played")
    if not bidding and (
        set(hands[seat]) != set(view.hand)
        or len(every) + len(played) != 32
        or tuple(len(h) for h in hands) != view.hand_sizes
    ):
        raise _Bad("typical's hands are not the cards left in the deal")
    if bidding and not set(view.hand) <= set(hands[seat]):
        raise _Bad("typical's hands do not give the seat its own cards")
    lines = value.get("lines")
    if not isinstance(lines, list) or len(lines) > 2 or (bidding and lines):
        raise _Bad("typical's lines are not a list of the answer's and the alternative's")
    out: list[TypicalLine] = []
    for at, line in enumerate(lines):
        out.append(_line(line, view, hands, choices[at]))
    return Typical((hands[0], hands[1], hands[2], hands[3]), tuple(out))


def _line(
    value: object, view: Any, hands: Sequence[tuple[Card, ...]], choice: PuzzleChoice
) -> TypicalLine:
    from bela.ai.hard import rebuild_round
    from bela.search.sampling import knowledge_of

    if not isinstance(value, dict):
        raise _Bad("a typical line is not an object")
    actions = _actions(value.get("actions"), "a typical line", 32)
    written = value.get("written")
    if (
        not isinstance(written, list)
        or len(written) != 2
        or any(whole_in(w, 0, int(_MAX_WRITTEN)) is None for w in written)
    ):
        raise _Bad("a typical line's written points are not two numbers")
    if choice_of(actions[0]) not in {choice_of(a) for a in choice.actions}:
        raise _Bad("a typical line does not start with its choice")
    m = [sum(1 << int(c) for c in h) for h in hands]
    masks = (m[0], m[1], m[2], m[3])
    try:
        rnd = rebuild_round(view, knowledge_of(view), masks)
        _replay(rnd, actions)
    except (BelaError, ValueError):
        raise _Bad("a typical line does not replay") from None
    result = rnd.result
    if rnd.phase is not Phase.FINISHED or result is None or list(result.points) != written:
        raise _Bad("a typical line does not end the round with its written points")
    return TypicalLine(actions, (written[0], written[1]))


def is_bid(action: Action) -> bool:
    """Whether ``action`` is a bid (dalje or a call)."""
    return isinstance(action, (Pass, Call))
