"""The store locks and the hook queue's lock: flock on a file, retried until a timeout.

Another holder is played by ``lockholder.held`` (an flock taken with the standard library,
as another memcli process or filelock takes it). The case of a lock won on a file its
holder had just unlinked needs one interleaving (the holder lets go between the waiter's
open and its flock); the OS call is wrapped to produce it, memcli's own code runs as is.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

import pytest
from lockholder import held

from memcli.errors import LockTimeout, StoreError
from memcli.writes.locks import LOCK_NAME, StoreLocks, try_lock, unlock


def _locked_elsewhere(path: Path) -> bool:
    """Whether a fresh open file of PATH cannot take its lock (someone else holds it)."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        assert exc.errno == errno.EWOULDBLOCK
        return True
    finally:
        os.close(fd)
    return False


def test_a_held_store_lock_times_out_with_the_documented_error(tmp_path: Path) -> None:
    with held(tmp_path / LOCK_NAME), pytest.raises(LockTimeout) as caught:
        StoreLocks([tmp_path], timeout=0.2).__enter__()
    message = str(caught.value)
    assert message.startswith(f"another memcli process has held the lock on {tmp_path} for 0.2 s")
    assert "MEMCLI_LOCK_TIMEOUT" in message
    assert LockTimeout.exit_code == 3


def test_a_timeout_of_zero_tries_once(tmp_path: Path) -> None:
    with held(tmp_path / LOCK_NAME), pytest.raises(LockTimeout):
        StoreLocks([tmp_path], timeout=0).__enter__()
    with StoreLocks([tmp_path], timeout=0) as taken:
        assert taken.held == [tmp_path]


def test_a_store_lock_excludes_others_and_leaves_nothing_behind(tmp_path: Path) -> None:
    user, project = tmp_path / "user", tmp_path / "project"
    user.mkdir()
    project.mkdir()
    with StoreLocks([user, project], timeout=1) as taken:
        assert taken.held == sorted([user, project], key=lambda p: str(p.resolve()))
        assert _locked_elsewhere(user / LOCK_NAME) and _locked_elsewhere(project / LOCK_NAME)
        with pytest.raises(LockTimeout):
            StoreLocks([project], timeout=0).__enter__()
    assert sorted(os.listdir(user)) == sorted(os.listdir(project)) == []
    with StoreLocks([project], timeout=0) as again:
        assert again.held == [project]


def test_a_lock_on_a_file_its_holder_unlinked_is_taken_again_on_the_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The holder unlinks the lock file and lets go just after the waiter opened it: the
    # waiter's flock then succeeds on a file nobody else can see. It must open the path
    # again and hold the lock there, or a third process would lock a new file beside it.
    path = tmp_path / LOCK_NAME
    path.write_bytes(b"")
    flock = fcntl.flock
    released = []

    def holder_lets_go_first(fd: int, operation: int) -> None:
        if not released:
            released.append(os.fstat(fd).st_ino)
            path.unlink()
        flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", holder_lets_go_first)
    with StoreLocks([tmp_path], timeout=1) as taken:
        monkeypatch.setattr(fcntl, "flock", flock)
        assert taken.held == [tmp_path]
        assert released and path.exists()
        assert _locked_elsewhere(path)
    assert not path.exists()


def test_a_lock_file_made_anew_and_held_by_another_is_waited_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As above, but a third process created the path anew and locked it before the waiter
    # looked again: the waiter does not count the unlinked file's lock as its own.
    path = tmp_path / LOCK_NAME
    path.write_bytes(b"")
    flock = fcntl.flock
    third: list[int] = []

    def another_takes_the_new_file(fd: int, operation: int) -> None:
        if not third:
            path.unlink()
            third.append(os.open(path, os.O_RDWR | os.O_CREAT, 0o644))
            flock(third[0], fcntl.LOCK_EX | fcntl.LOCK_NB)
        flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", another_takes_the_new_file)
    try:
        with pytest.raises(LockTimeout):
            StoreLocks([tmp_path], timeout=0.2).__enter__()
    finally:
        os.close(third[0])


def test_a_planted_link_is_refused_and_never_followed(tmp_path: Path) -> None:
    store, target = tmp_path / "store", tmp_path / "elsewhere"
    store.mkdir()
    target.write_bytes(b"keep me")
    (store / LOCK_NAME).symlink_to(target)
    with pytest.raises(StoreError) as caught:
        StoreLocks([store], timeout=5).__enter__()
    assert not isinstance(caught.value, LockTimeout)
    assert str(caught.value).startswith(f"cannot lock {store}: {LOCK_NAME}: ")
    assert "\n" not in str(caught.value)
    assert target.read_bytes() == b"keep me"


def test_a_folder_in_place_of_the_lock_file_is_said_at_once(tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).mkdir()
    with pytest.raises(StoreError, match=r"^cannot lock .*: \.memcli\.lock: Is a directory$"):
        StoreLocks([tmp_path], timeout=30).__enter__()


def test_a_missing_store_is_not_locked_unless_created(tmp_path: Path) -> None:
    missing = tmp_path / "a" / "store"
    with StoreLocks([missing], timeout=1) as taken:
        assert taken.held == []
    assert not (tmp_path / "a").exists()
    with StoreLocks([], timeout=1, create=[missing], private=[missing]) as taken:
        assert taken.held == [missing]
        assert (missing.stat().st_mode & 0o777) == (tmp_path / "a").stat().st_mode & 0o777 \
            == 0o700
    assert not (tmp_path / "a").exists()  # created for nothing: removed again


def test_the_queue_lock_is_tried_once_and_let_go(tmp_path: Path) -> None:
    path = tmp_path / ".lock"
    with held(path):
        assert try_lock(path) is None
    fd = try_lock(path)
    assert fd is not None
    try:
        assert _locked_elsewhere(path)
    finally:
        unlock(fd)
    assert not _locked_elsewhere(path)
    assert path.exists()  # the queue's lock file stays


def test_an_flock_failure_that_is_not_a_held_lock_is_raised_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A file system without locks (NFS without lockd) answers ENOLCK: that is no lock held
    # by another process, and waiting out the timeout would say it was.
    def no_locks_here(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "flock", no_locks_here)
    with pytest.raises(StoreError) as caught:
        StoreLocks([tmp_path], timeout=30).__enter__()
    assert not isinstance(caught.value, LockTimeout)
    assert str(caught.value) == f"cannot lock {tmp_path}: {os.strerror(errno.ENOLCK)}"



def test_a_lent_lock_is_taken_again_in_its_thread_alone(tmp_path: Path) -> None:
    """Stores locked with lend=True are taken again, without waiting, by another StoreLocks
    in the same thread (`extract`'s last match reads and applies under the locks it holds);
    another thread still waits (and a lock not lent still excludes its own thread, above).
    When the borrower lets go, the lender still holds the lock; when the lender does,
    nothing is left behind."""
    import threading

    user, project = tmp_path / "user", tmp_path / "project"
    user.mkdir()
    project.mkdir()
    with StoreLocks([user, project], timeout=1, lend=True):
        with StoreLocks([project], timeout=0) as again:
            assert again.held == [project]
        assert _locked_elsewhere(project / LOCK_NAME)
        elsewhere: list[BaseException] = []

        def other_thread() -> None:
            try:
                StoreLocks([project], timeout=0).__enter__()
            except LockTimeout as exc:  # what the thread met is the answer
                elsewhere.append(exc)

        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
        assert len(elsewhere) == 1 and isinstance(elsewhere[0], LockTimeout)
    assert sorted(os.listdir(user)) == sorted(os.listdir(project)) == []
    with StoreLocks([project], timeout=0), pytest.raises(LockTimeout):
        StoreLocks([project], timeout=0).__enter__()  # no longer lent
