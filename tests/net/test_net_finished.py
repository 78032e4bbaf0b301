"""A host that plays match after match holds only the live tables.

A finished table stays ``keep_over`` seconds (a player back in that time is
sent ``Over`` again, see test_net_guarantees), then it is let go: out of the
host's tables, out of the saver, garbage once its players hang up. Its code
then tells a returning player the match is over, without counting as a guess.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from netplay import Player, start_host, wait_for

from bela.archive.storage import matches_dir, read_record
from bela.net.client import JoinError
from bela.net.protocol import Over, State
from bela.net.saves import load_tables
from bela.net.server import normal_code


async def test_finished_tables_are_let_go_and_only_the_live_ones_stay() -> None:
    host = await start_host(wait=30, keep_over=0.2)
    server = host.server
    try:
        live = server.new_table()  # a match under way whose player thinks for ever
        idle = Player(await host.join(live.code, "slow", lead=live.leader_key))
        await idle.client.send({"type": "start"})
        await wait_for(idle, State)
        lobby = server.new_table()  # and a table nobody has started
        finished = []
        for n in range(3):
            table = server.new_table()
            player = Player(await host.join(table.code, f"p{n}", lead=table.leader_key), seed=n)
            await player.client.send({"type": "start"})
            await asyncio.wait_for(player.play(), 30)
            assert player.over is not None
            assert player.client.welcome is not None
            finished.append((weakref.ref(table), table.code, player.client.welcome.token))
            await player.client.close()
            del table, player
        # within keep_over the finished tables are still there, then they go
        for _ in range(200):
            if len(server.tables) == 2:
                break
            await asyncio.sleep(0.02)
        assert set(server.tables) == {normal_code(live.code), normal_code(lobby.code)}
        assert set(server.saver._slots) <= {live.table_id}  # type: ignore[union-attr]
        for _ in range(100):  # the players' connections wind down
            gc.collect()
            if all(ref() is None for ref, _, _ in finished):
                break
            await asyncio.sleep(0.02)
        assert [ref() for ref, _, _ in finished] == [None, None, None], "nothing holds them"
        # a player back later with the right code and token: told the match is over
        for _, code, token in finished:
            with pytest.raises(JoinError, match="over"):
                await host.join(code, "back", token=token)
        assert not server.wrong_codes.seen, "a finished table's code is not a wrong guess"
        # the live table plays on
        assert idle.states[-1].view.to_act == idle.seat
        await idle.client.act(idle.states[-1].view.legal[0])
        assert isinstance(await wait_for(idle, State), State)
    finally:
        await server.close()


async def test_a_finished_match_the_last_host_could_not_archive_is_archived_on_restart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its save stays (nothing is lost); the next host archives it instead of resuming it."""
    import bela.net.saves

    def broken(record: object) -> Path:
        raise OSError("disk full")

    working = bela.net.saves.archive_match
    monkeypatch.setattr(bela.net.saves, "archive_match", broken)
    host = await start_host()
    table = host.server.new_table()
    player = Player(await host.join(table.code, "Ana", lead=table.leader_key), seed=3)
    await player.client.send({"type": "start"})
    await asyncio.wait_for(player.play(), 30)
    assert player.over is not None and player.over.archived is None
    assert player.client.welcome is not None
    token = player.client.welcome.token
    await host.server.close()
    assert host.server.saver is not None and "disk full" in (host.server.saver.problem or "")
    assert not list(matches_dir().glob("*.json"))
    [(save, match)] = load_tables()[0]
    assert match.is_over, "the finished match was kept in its save"

    monkeypatch.setattr(bela.net.saves, "archive_match", working)  # the disk has room again
    again = await start_host()
    try:
        resumed = again.server.resume_table(save, match)
        [archived] = matches_dir().glob("*.json")
        assert read_record(archived).players == ("Ana", "bot 2", "bot 3", "bot 4")
        assert load_tables() == ([], []), "nothing left to resume"
        assert resumed.over is not None
        back = Player(await again.join(table.code, "Ana", token=token))
        over = await wait_for(back, Over)
        assert isinstance(over, Over) and over.record == player.over.record
    finally:
        await again.server.close()


async def test_after_a_restart_an_ended_tables_code_says_it_has_ended() -> None:
    """Issue #33: after a finished match and a host restart, the old code and token counted
    as wrong codes and blocked the player's address for a minute. The host keeps the
    finished tables' codes beside its saves: a restarted host says the match is over (and
    the record's file name, never the host's path), and counts no guess."""
    host = await start_host(wrong=None)
    table = host.server.new_table()
    player = Player(await host.join(table.code, "Ana", lead=table.leader_key), seed=5)
    await player.client.send({"type": "start"})
    await asyncio.wait_for(player.play(), 30)
    assert player.over is not None and player.over.archived
    assert "/" not in player.over.archived and player.over.archived.endswith(".json")
    assert player.client.welcome is not None
    token = player.client.welcome.token
    await player.client.close()
    await host.server.close()

    again = await start_host()
    try:
        for attempt in range(6):  # more than the wrong-code limit: none of them counts
            with pytest.raises(JoinError, match="over") as said:
                await again.join(table.code, "Ana", token=token if attempt % 2 else None)
            assert said.value.code == "code_over_kept"
            assert player.over.archived in str(said.value)
        assert not again.server.wrong_codes.seen
    finally:
        await again.server.close()


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "[]",
        '{"ABCD-EFGH-JK": {"code": "code_over", "score0": 1' + "0" * 400 + ', "score1": 2}}',
        '{"ABCD-EFGH-JK": {"code": "code_over", "score0": NaN, "score1": 2}}',
        '{"ABCD-EFGH-JK": {"code": "code_over", "score0": true, "score1": 2}}',
        '{"ABCD-EFGH-JK": {"code": "closing", "score0": 1, "score1": 2}}',
        '{"ABCD-EFGH-JK": {"code": "code_over_kept", "score0": 1, "score1": 2}}',
        "[" * 100_000,
    ],
)
def test_a_damaged_finished_codes_file_is_ignored(tmp_path: Path, text: str) -> None:
    """The finished codes are a convenience: a file that does not fit gives none, never an
    exception (a huge number, NaN, a bool, an unknown phrase, deep nesting)."""
    from bela.net.finished import FINISHED_FILE, load_finished

    (tmp_path / FINISHED_FILE).write_text(text)
    assert load_finished(tmp_path) == {}


def test_the_finished_codes_come_back_as_they_were_kept(tmp_path: Path) -> None:
    from bela.net.finished import keep_finished, load_finished
    from bela.net.phrases import Phrase

    kept = {
        "ABCD-EFGH-JK": Phrase("code_over", {"score0": 1001, "score1": 420}),
        "BCDE-FGHJ-KL": Phrase("code_over_kept", {"score0": 3, "score1": 501, "file": "x.json"}),
    }
    keep_finished(tmp_path, kept)
    assert load_finished(tmp_path) == kept


_VALUES = st.one_of(
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=300),
    st.lists(st.integers(), max_size=3),
)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=20),
        st.one_of(
            _VALUES,
            st.fixed_dictionaries(
                {"code": st.sampled_from(["code_over", "code_over_kept", "x", 7])},
                optional={"score0": _VALUES, "score1": _VALUES, "file": _VALUES},
            ),
        ),
        max_size=6,
    )
)
def test_any_finished_codes_file_gives_sane_phrases_or_none(data: dict[str, object]) -> None:
    """Whatever an edited ``finished.codes`` holds (huge, negative, non-finite, ill-typed
    numbers), reading it never raises, and every phrase it gives is one the host could
    have kept: a known code, two whole scores in range, a short file name."""
    import json
    import tempfile

    from bela.net.finished import FINISHED_FILE, load_finished

    with tempfile.TemporaryDirectory() as where:
        Path(where, FINISHED_FILE).write_text(json.dumps(data, default=str))
        for code, phrase in load_finished(Path(where)).items():
            assert isinstance(code, str) and 0 < len(code) <= 16
            assert phrase.code in ("code_over", "code_over_kept")
            for score in (phrase.args["score0"], phrase.args["score1"]):
                assert type(score) is int and 0 <= score <= 100_000
            assert phrase.code == "code_over" or 0 < len(str(phrase.args["file"])) <= 200
