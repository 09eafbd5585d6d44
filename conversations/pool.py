"""A bounded thread pool that gives work to the thread that went idle last (issue 23).

``ThreadPoolExecutor`` hands each task to whichever idle worker its queue wakes, and starts a new worker whenever a
task arrives before the last one's worker has marked itself idle: with one client sending one request at a time,
a daphne process grew to 14 request threads in a minute and served consecutive requests on different ones. Each of
those threads keeps its own database connection (SQLite: its own page and statement caches), and a commit on one
connection empties the page cache of every other at its next transaction. So every request paid for a cold
connection: about 5 % of a message + click's CPU over HTTP.

Here the idle workers form a stack: a task goes to the worker that finished most recently (its connection and
caches warm), a new worker starts only when none is idle, at most ``max_workers`` run, and tasks beyond that wait
in order (first in, first out) for the next worker to finish. Under a steady load the process uses as many
threads (and connections) as it has tasks at once, not as many as it is allowed.

Like ``ThreadPoolExecutor``, its workers are not daemons: at the interpreter's exit every worker is told to stop,
the busy ones after their task. A future's done-callbacks run on the worker once it is idle again: one that waits
for another task of the same pool would wait for itself (asyncio's, which only schedule, are what this pool
serves).
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
from collections import deque
from concurrent.futures import Executor, Future
from typing import Any

log = logging.getLogger(__name__)

_Task = tuple[Future, Any, tuple, dict]
_STOP: Any = object()  # put in an idle worker's inbox: stop

_POOLS: list[LastIdleFirstPool] = []


class LastIdleFirstPool(Executor):
    """An executor whose next task goes to the most recently idle thread (module doc)."""

    def __init__(self, max_workers: int, thread_name_prefix: str = "pool") -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self._max_workers = max_workers
        self._prefix = thread_name_prefix
        self._lock = threading.Lock()
        self._idle: list[queue.SimpleQueue] = []  # the idle workers' inboxes; the last one went idle last
        self._inboxes: dict[threading.Thread, queue.SimpleQueue] = {}  # every worker's, idle or busy
        self._waiting: deque[_Task] = deque()  # tasks no worker was free for
        self._threads: set[threading.Thread] = set()
        self._names = itertools.count()
        self._shutdown = False
        _POOLS.append(self)

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        task = (future, fn, args, kwargs)
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._waiting.append(task)
            try:
                self._dispatch()
            except BaseException:  # no thread could start: the caller learns it, and the task is not kept
                if task in self._waiting:
                    self._waiting.remove(task)
                raise
        return future

    def _dispatch(self) -> None:
        """Hand the waiting tasks to idle workers, the last idle first, then to new ones up to the bound (under the
        lock)."""
        while self._waiting and self._idle:
            self._idle.pop().put(self._waiting.popleft())
        while self._waiting and len(self._threads) < self._max_workers:
            inbox: queue.SimpleQueue = queue.SimpleQueue()
            task = self._waiting.popleft()
            thread = threading.Thread(target=self._work, args=(task, inbox),
                                      name=f"{self._prefix}_{next(self._names)}")
            # counted before it starts: ``start`` may be interrupted after the thread runs, and a running worker
            # must be one shutdown reaches
            self._threads.add(thread)
            self._inboxes[thread] = inbox
            try:
                thread.start()
            except Exception:  # it did not start: not counted, the task waits again, the caller learns why
                self._threads.discard(thread)
                self._inboxes.pop(thread, None)
                self._waiting.appendleft(task)
                raise

    def _work(self, task: Any, inbox: queue.SimpleQueue) -> None:
        running: Any = None  # the task started here whose outcome is not set yet
        try:
            while task is not _STOP:
                running, task = task, None
                done = _run(running)
                # idle (or on to a waiting task) before the caller learns the result: its next task, sent at once,
                # finds this thread idle rather than starting another
                with self._lock:
                    if self._waiting:
                        task = self._waiting.popleft()
                    elif self._shutdown:
                        task = _STOP
                    else:
                        self._idle.append(inbox)
                try:
                    done()
                except BaseException:  # a done-callback's (concurrent.futures logs an Exception's itself)
                    log.exception("a done-callback of a %s task failed", self._prefix)
                running = None
                del done
                if task is None:
                    task = inbox.get()
        finally:
            # a worker that ends (told to stop, or by an error of its own) leaves no task behind: one it started
            # gets an outcome, the ones it had not started wait again
            if running is not None and not running[0].done():
                running[0].set_exception(RuntimeError(f"the {self._prefix} worker running this task failed"))
            with self._lock:
                thread = threading.current_thread()
                self._threads.discard(thread)
                self._inboxes.pop(thread, None)
                if inbox in self._idle:
                    self._idle.remove(inbox)
                left = [task] if task is not None and task is not _STOP else []
                while not inbox.empty():
                    left.append(inbox.get_nowait())
                self._waiting.extendleft(reversed([t for t in left if t is not _STOP]))
                if not self._shutdown or self._waiting:
                    self._dispatch()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shutdown = True
            if cancel_futures:
                while self._waiting:
                    self._waiting.popleft()[0].cancel()
            self._idle = []
            inboxes = list(self._inboxes.values())
            threads = list(self._threads)
        for inbox in inboxes:  # a busy worker reads it only if it was about to wait for a task
            inbox.put(_STOP)
        if wait:
            for thread in threads:
                if thread is not threading.current_thread():
                    thread.join()

    @property
    def threads(self) -> int:
        """How many workers it has now (busy or idle)."""
        with self._lock:
            return len(self._threads)


def _run(task: _Task):
    """Run the task; what sets its future's outcome (called once the worker is idle again)."""
    future, fn, args, kwargs = task
    if not future.set_running_or_notify_cancel():
        return _nothing
    try:
        result = fn(*args, **kwargs)
    except BaseException as exc:
        error = exc  # (``exc`` itself is unbound when the block ends)
        return lambda: future.set_exception(error)
    return lambda: future.set_result(result)


def _nothing() -> None:
    pass


def _stop_all() -> None:
    for pool in _POOLS:
        pool.shutdown(wait=False)


# as concurrent.futures does for its own pools: before the interpreter waits for non-daemon threads at exit, the
# idle workers are told to stop (the busy ones end after their task)
threading._register_atexit(_stop_all)  # type: ignore[attr-defined]
