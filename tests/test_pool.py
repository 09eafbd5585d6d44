"""conversations.pool: the next task goes to the thread that went idle last; bounded; tasks beyond the bound wait
in order; failures reach the caller; shutdown stops the idle workers."""

from __future__ import annotations

import threading
import time

import pytest

from conversations.pool import LastIdleFirstPool


def _on_thread() -> str:
    return threading.current_thread().name


def test_one_task_at_a_time_stays_on_one_thread():
    pool = LastIdleFirstPool(8, "t")
    try:
        names = {pool.submit(_on_thread).result() for _ in range(200)}
        assert len(names) == 1
        assert pool.threads == 1
    finally:
        pool.shutdown()


def test_the_thread_that_went_idle_last_takes_the_next_task():
    pool = LastIdleFirstPool(4, "t")
    try:
        release = [threading.Event() for _ in range(3)]
        busy = [pool.submit(lambda e=e: (e.wait(5), _on_thread())[1]) for e in release]
        for i in (2, 0, 1):  # they finish in this order: the one of index 1 is idle last
            release[i].set()
            time.sleep(0.05)
        assert pool.submit(_on_thread).result() == busy[1].result()
        assert pool.threads == 3
    finally:
        pool.shutdown()


def test_at_most_max_workers_run_and_the_rest_wait_in_order():
    pool = LastIdleFirstPool(2, "t")
    try:
        gate = threading.Event()
        running = []
        lock = threading.Lock()
        peak = [0]
        order: list[int] = []

        def task(i: int) -> int:
            with lock:
                running.append(i)
                peak[0] = max(peak[0], len(running))
            gate.wait(5)
            with lock:
                running.remove(i)
                order.append(i)
            return i

        futures = [pool.submit(task, i) for i in range(6)]
        time.sleep(0.1)
        assert sorted(running) == [0, 1]
        gate.set()
        assert [f.result(5) for f in futures] == list(range(6))
        assert peak[0] == 2 and pool.threads == 2
    finally:
        pool.shutdown()


def test_tasks_beyond_the_bound_run_in_the_order_they_came():
    pool = LastIdleFirstPool(1, "t")
    try:
        gate = threading.Event()
        order: list[int] = []
        first = pool.submit(gate.wait, 5)
        futures = [pool.submit(order.append, i) for i in range(20)]
        gate.set()
        first.result(5)
        [f.result(5) for f in futures]
        assert order == list(range(20))
    finally:
        pool.shutdown()


def test_a_failure_reaches_the_caller_and_the_worker_goes_on():
    pool = LastIdleFirstPool(1, "t")
    try:
        with pytest.raises(ZeroDivisionError):
            pool.submit(lambda: 1 / 0).result()
        assert pool.submit(lambda: 42).result() == 42
    finally:
        pool.shutdown()


def test_shutdown_stops_idle_workers_and_refuses_new_tasks():
    pool = LastIdleFirstPool(3, "t")
    gate = threading.Event()
    futures = [pool.submit(gate.wait, 5) for _ in range(3)]
    gate.set()
    [f.result() for f in futures]
    pool.shutdown(wait=True)
    assert pool.threads == 0
    with pytest.raises(RuntimeError):
        pool.submit(_on_thread)


def test_shutdown_can_cancel_the_tasks_still_waiting():
    pool = LastIdleFirstPool(1, "t")
    gate = threading.Event()
    first = pool.submit(gate.wait, 5)
    waiting = pool.submit(_on_thread)
    pool.shutdown(wait=False, cancel_futures=True)
    gate.set()
    assert first.result(5) is True
    assert waiting.cancelled()


def test_a_done_callback_that_raises_loses_no_later_task():
    pool = LastIdleFirstPool(1, "t")
    try:
        future = pool.submit(lambda: 1)

        def callback(_):
            raise SystemExit("from a callback")

        future.add_done_callback(callback)
        future.result(5)
        assert pool.submit(lambda: 42).result(5) == 42
        assert pool.threads == 1
    finally:
        pool.shutdown()


def test_a_thread_that_cannot_start_is_not_counted(monkeypatch):
    pool = LastIdleFirstPool(1, "t")
    try:
        start = threading.Thread.start

        def fails(self):
            raise RuntimeError("can't start new thread")

        monkeypatch.setattr(threading.Thread, "start", fails)
        with pytest.raises(RuntimeError):
            pool.submit(lambda: 1)
        monkeypatch.setattr(threading.Thread, "start", start)
        assert pool.threads == 0
        assert pool.submit(lambda: 2).result(5) == 2
    finally:
        pool.shutdown()


def test_shutdown_stops_a_worker_that_waits_outside_the_idle_stack():
    """(as after an interrupt between taking an idle worker and sending it the task)"""
    pool = LastIdleFirstPool(2, "t")
    pool.submit(lambda: 1).result(5)
    time.sleep(0.05)
    with pool._lock:
        pool._idle.pop()  # the worker now waits for a task nobody will send
    stopper = threading.Thread(target=pool.shutdown)
    stopper.start()
    stopper.join(5)
    assert not stopper.is_alive()
    assert pool.threads == 0


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_worker_that_dies_after_starting_a_task_fails_that_task_and_runs_the_rest(monkeypatch):
    """(a task already started is never run again; its caller learns the worker failed)"""
    from conversations import pool as pool_module

    real_run = pool_module._run
    calls = []

    def run_then_die(task):
        calls.append(task)
        done = real_run(task)
        if len(calls) == 1:
            raise MemoryError("while handing the result over")
        return done

    monkeypatch.setattr(pool_module, "_run", run_then_die)
    pool = LastIdleFirstPool(1, "t")
    try:
        gate = threading.Event()
        first = pool.submit(gate.wait, 5)
        second = pool.submit(lambda: "after")
        gate.set()
        with pytest.raises(RuntimeError):
            first.result(5)
        assert second.result(5) == "after"
        assert len(calls) == 2
    finally:
        pool.shutdown()
