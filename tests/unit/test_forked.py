"""Work done ahead in a forked process: the same answer either way, nothing left behind."""

from __future__ import annotations

import os
import threading
import time

import pytest

from kobook.forked import WORTH_FROM, ahead, worth_it


def where(*args: object) -> tuple[int, tuple[object, ...]]:
    return os.getpid(), args


def test_the_answer_comes_from_a_forked_process() -> None:
    with ahead(where, "책", [1, 2], worth=True) as later:
        assert later.file is not None and later.file.exists()
        pid, args = later.result()
    assert pid != os.getpid() and args == ("책", [1, 2])
    assert later.file is None  # read and removed


def test_little_work_is_done_here_when_asked_for() -> None:
    assert worth_it(WORTH_FROM) and not worth_it(WORTH_FROM - 1)
    with ahead(where, 1, worth=worth_it(WORTH_FROM - 1)) as later:
        assert later.pid == 0  # forking would cost more than the work
        assert later.result() == (os.getpid(), (1,))


def test_with_another_thread_the_work_is_done_when_asked_for() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with ahead(where, 1, worth=True) as later:
            assert later.pid == 0  # no child: forking a threaded process can deadlock it
            assert later.result() == (os.getpid(), (1,))
    finally:
        stop.set()
        thread.join()


def test_a_child_that_fails_leaves_the_work_to_this_process() -> None:
    parent = os.getpid()

    def dies_in_a_child() -> str:
        if os.getpid() != parent:
            os._exit(3)
        return "여기서"

    def unpicklable() -> object:
        return lambda: os.getpid()  # a child cannot send it back

    with ahead(dies_in_a_child, worth=True) as later:
        assert later.result() == "여기서"
    with ahead(unpicklable, worth=True) as later:
        answer = later.result()
    assert callable(answer) and answer() == parent


def test_a_child_whose_answer_is_not_asked_for_is_stopped() -> None:
    with pytest.raises(RuntimeError), ahead(time.sleep, 600, worth=True) as later:
        pid, file = later.pid, later.file
        raise RuntimeError("the build stopped early")
    assert file is not None and not file.exists()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no such child any more
