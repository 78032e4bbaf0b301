"""The puzzles against hostile files (issue #34): numbers no line can overflow, a journal
that never hangs nor loses an answer, a table that heals, an export that replaces only a
regular file."""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from puzzle_fixtures import sample_data, sample_lines

from bela.archive.history import INDEX_NAME
from bela.archive.puzzle_pack import load_pack, own_dir, read_lines
from bela.archive.puzzle_store import JOURNAL_NAME, PuzzleStore
from bela.cli import main
from bela.foundation import files
from bela.foundation.files import FileRefusedError

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
HUGE = 10**400


def _store(data_dir: Path) -> PuzzleStore:
    data_dir.mkdir(parents=True, exist_ok=True)
    return PuzzleStore(data_dir / INDEX_NAME)


def _answer(store: PuzzleStore, n: int, right: bool = True) -> None:
    pack = read_lines(sample_lines(), shipped=True)
    p = pack.puzzles[n % len(pack.puzzles)]
    action = p.answer[0] if right else p.choices[1].actions[0]
    store.record(p, action, 2.5, T0 + timedelta(minutes=n))


def _rows(data_dir: Path) -> int:
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM puzzle_attempts").fetchone()[0])
    finally:
        conn.close()


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["puzzles", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "path",
    [("rating",), ("choices", 0, "written"), ("choices", 1, "best"), ("seed",), ("deals",)],
)
def test_a_pack_line_with_a_huge_integer_is_skipped_not_a_crash(
    data_dir: Path, capsys: pytest.CaptureFixture[str], path: tuple[str | int, ...]
) -> None:
    good = sample_data()[0]
    bad = json.loads(json.dumps(good))
    place = bad
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = HUGE
    folder = own_dir(data_dir)
    folder.mkdir(parents=True)
    (folder / "own-x.jsonl").write_text(json.dumps(bad) + "\n" + json.dumps(sample_data()[1]))
    pack = load_pack(data_dir)
    assert len(pack.puzzles) == 1 and len(pack.skipped) == 1
    code, _out, err = _run(["--stats"], capsys)
    assert code == 0 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "skipped" in err


@pytest.mark.parametrize(
    "change",
    [
        {"seconds": HUGE},
        {"seconds": -1},
        {"seconds": "3"},
        {"player_after": [HUGE, 50, 0.06]},
        {"puzzle_before": [1500, HUGE, 0.06]},
        {"player_before": [1500, 50, -HUGE]},
    ],
)
def test_a_journal_line_with_a_bad_number_is_skipped_and_the_rest_kept(
    data_dir: Path, capsys: pytest.CaptureFixture[str], change: dict[str, object]
) -> None:
    with _store(data_dir) as store:
        for n in range(3):
            _answer(store, n)
    journal = data_dir / JOURNAL_NAME
    lines = journal.read_text().splitlines()
    bad = {**json.loads(lines[1]), **change}
    journal.write_text("\n".join([lines[0], json.dumps(bad), lines[2]]) + "\n")
    with _store(data_dir) as store:
        assert store.skipped == 1 and len(store.attempts()) == 2
    code, _out, err = _run(["--stats"], capsys)
    assert code == 0 and "Traceback" not in err
    assert len(journal.read_text().splitlines()) == 3  # the bad line is kept, not deleted


# ---------------------------------------------------------------------- appending


def test_a_fifo_as_the_journal_refuses_the_answer_at_once(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    journal = data_dir / JOURNAL_NAME
    os.mkfifo(journal)
    outcome: list[BaseException | None] = []

    def answer() -> None:
        try:
            with _store(data_dir) as store:
                _answer(store, 0)
        except BaseException as exc:
            outcome.append(exc)
        else:
            outcome.append(None)

    worker = threading.Thread(target=answer, daemon=True)
    worker.start()
    worker.join(60)  # a guard against a hang, not a timing: it returns in milliseconds
    assert not worker.is_alive(), "the answer waited for a reader of the FIFO"
    (raised,) = outcome
    assert isinstance(raised, FileRefusedError) and "pipe" in str(raised)
    assert stat.S_ISFIFO(journal.lstat().st_mode)  # left as it was


def test_short_writes_are_written_on_and_every_answer_kept(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = os.write
    monkeypatch.setattr(files.os, "write", lambda fd, data: real_write(fd, bytes(data)[:7]))
    with _store(data_dir) as store:
        for n in range(4):
            _answer(store, n)
    monkeypatch.undo()
    with _store(data_dir) as store:
        assert len(store.attempts()) == 4 and store.skipped == 0


def test_a_full_disk_keeps_no_half_line_and_loses_no_later_answer(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _store(data_dir) as store:
        _answer(store, 0)
    journal = data_dir / JOURNAL_NAME
    size = journal.stat().st_size
    real_write = os.write
    calls = 0

    def full(fd: int, data: bytes) -> int:
        nonlocal calls
        calls += 1
        if calls == 1:
            return real_write(fd, bytes(data)[:20])  # part of the line, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "write", full)
    with _store(data_dir) as store, pytest.raises(OSError):
        _answer(store, 1)
    monkeypatch.undo()
    assert journal.stat().st_size == size  # the cut line was taken back
    with _store(data_dir) as store:
        _answer(store, 2)
    with _store(data_dir) as store:
        assert len(store.attempts()) == 2 and store.skipped == 0


def test_a_cut_last_line_does_not_swallow_the_next_answer(data_dir: Path) -> None:
    with _store(data_dir) as store:
        _answer(store, 0)
    journal = data_dir / JOURNAL_NAME
    with journal.open("ab") as handle:
        handle.write(b'{"puzzle": "cut sho')  # an older bela cut short by a full disk
    with _store(data_dir) as store:
        _answer(store, 1)
    (data_dir / INDEX_NAME).unlink()  # as an index rebuild does: the journal alone is left
    with _store(data_dir) as store:
        assert len(store.attempts()) == 2 and store.skipped == 1


# ---------------------------------------------------------------------- the table


def test_an_unreadable_journal_and_a_failed_answer_leave_the_table_alone(data_dir: Path) -> None:
    with _store(data_dir) as store:
        for n in range(3):
            _answer(store, n)
    journal = data_dir / JOURNAL_NAME
    saved = journal.read_bytes()
    journal.unlink()
    journal.mkdir()  # cannot be read, nor written to
    with _store(data_dir) as store:
        assert store.notice is not None and len(store.attempts()) == 3
        with pytest.raises(OSError):
            _answer(store, 3)
        assert len(store.attempts()) == 3
    assert _rows(data_dir) == 3
    journal.rmdir()
    journal.write_bytes(saved)
    with _store(data_dir) as store:
        assert len(store.attempts()) == 3


def test_a_table_with_more_rows_than_the_journal_does_not_overwrite_it(data_dir: Path) -> None:
    with _store(data_dir) as store:
        for n in range(5):
            _answer(store, n)
        real = store.attempts()
    journal = data_dir / JOURNAL_NAME
    before = journal.read_bytes()
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    rows = conn.execute("SELECT * FROM puzzle_attempts ORDER BY n").fetchall()
    conn.execute("DELETE FROM puzzle_attempts")
    forged = [(n, *rows[0][1:]) for n in range(6)]  # six copies of the first attempt
    conn.executemany(f"INSERT INTO puzzle_attempts VALUES ({', '.join('?' * 12)})", forged)
    conn.commit()
    conn.close()
    with _store(data_dir) as store:
        assert store.attempts() == real  # the journal is the truth
    assert journal.read_bytes() == before
    assert _rows(data_dir) == 5  # and the table its copy again


def test_a_table_of_another_shape_is_made_again_from_the_journal(data_dir: Path) -> None:
    with _store(data_dir) as store:
        for n in range(2):
            _answer(store, n)
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    conn.execute("ALTER TABLE puzzle_attempts DROP COLUMN daily")
    conn.commit()
    conn.close()
    for _ in range(2):  # healed the first time: no notice the second
        with _store(data_dir) as store:
            assert store.notice is None and len(store.attempts()) == 2
    assert _rows(data_dir) == 2


# ---------------------------------------------------------------------- the export


def _exported(argv: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]) -> tuple:
    folder = own_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "own-x.jsonl").write_text("\n".join(sample_lines()) + "\n")
    return _run(argv, capsys)


def test_export_refuses_a_fifo_and_leaves_it(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _out, err = _exported(["--export", str(fifo)], data_dir, capsys)
    assert code != 0 and "pipe" in err and len(err.strip().splitlines()) == 1
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_export_refuses_a_symlink_and_leaves_it(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "real.jsonl"
    target.write_text("mine\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    code, _out, err = _exported(["--export", str(link)], data_dir, capsys)
    assert code != 0 and "link" in err
    assert link.is_symlink() and target.read_text() == "mine\n"


def test_export_keeps_an_existing_files_mode(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    target.chmod(0o644)
    code, _out, err = _exported(["--export", str(target)], data_dir, capsys)
    assert code == 0, err
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert len(target.read_text().splitlines()) == len(sample_lines())


def test_export_refuses_a_char_device_made_here(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A character device in a temp folder (``mknod``, as root), else the real ``/dev/null``
    (not root: it could not be replaced anyway, and the refusal is what is checked)."""
    device, said = Path("/dev/null"), "device"
    if os.geteuid() == 0:  # never the real /dev/null as root: the old code replaced it
        made = tmp_path / "full"
        try:
            os.mknod(made, stat.S_IFCHR | 0o666, os.makedev(1, 7))
            device = made
        except PermissionError:  # a container without CAP_MKNOD: a link to the device
            device, said = tmp_path / "null-link", "link"
            device.symlink_to("/dev/null")
    code, _out, err = _exported(["--export", str(device)], data_dir, capsys)
    assert code != 0 and said in err and len(err.strip().splitlines()) == 1
    assert stat.S_ISCHR(device.stat().st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)


_IN_NAMESPACE = """
set -e
mount --make-rprivate /
mount -t tmpfs tmpfs /dev
mknod -m 666 /dev/full c 1 7
mknod -m 666 /dev/null c 1 3
set +e
"{python}" -c 'import sys; from bela.cli import main; sys.exit(main(sys.argv[1:]))' \
    puzzles --export /dev/full 2>"{err}"
echo "exit=$?"
stat -c %F /dev/full
"""


def test_export_to_dev_full_as_root_leaves_the_device(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's own case, ``/dev/full`` itself, in a private mount namespace (a tmpfs on
    ``/dev`` there, so the machine's ``/dev`` is never at risk). Where there is no
    namespace to make: not root, the same refusal through ``/dev/null``, which such a user
    cannot replace; root (a container without ``CAP_SYS_ADMIN``), a device made in a temp
    folder, as the test before."""
    folder = own_dir(data_dir)
    folder.mkdir(parents=True)
    (folder / "own-x.jsonl").write_text("\n".join(sample_lines()) + "\n")
    unshare = shutil.which("unshare")
    probe = (
        subprocess.run([unshare, "-m", "true"], capture_output=True, check=False)
        if unshare is not None and os.geteuid() == 0
        else None
    )
    if probe is None or probe.returncode != 0:
        if os.geteuid() == 0:  # root without a namespace: never the machine's /dev (see above)
            test_export_refuses_a_char_device_made_here(data_dir, tmp_path, capsys)
            return
        code, _out, err = _run(["--export", "/dev/null"], capsys)
        assert code != 0 and "device" in err
        assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
        return
    err_file = tmp_path / "err.txt"
    script = _IN_NAMESPACE.format(python=sys.executable, err=err_file)
    assert unshare is not None
    done = subprocess.run(
        [unshare, "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "BELA_DATA_DIR": str(data_dir)},
    )
    lines = done.stdout.split()
    assert "exit=0" not in lines, done.stdout + err_file.read_text()
    assert done.stdout.strip().endswith("character special file"), done.stdout
    err = err_file.read_text()
    assert "device" in err and "Traceback" not in err


def test_export_dash_writes_the_lines_to_stdout(
    data_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = _exported(["--export", "-"], data_dir, capsys)
    assert code == 0, err
    assert not (tmp_path / "-").exists()
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(sample_lines()) and all("seed" in r for r in rows)


def test_a_failed_generate_on_a_cluster_leaves_no_empty_file(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    code, _out, err = _run(["generate", "--deals", "2", "--cluster", "local"], capsys)
    assert code != 0 and err.strip().count("\n") <= 1 and "Traceback" not in err
    own = own_dir(data_dir)
    assert not own.exists() or list(own.iterdir()) == []
