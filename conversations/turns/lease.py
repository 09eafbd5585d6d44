"""A running turn's lease (issue 20, 1): which process carries the turn, until when.

A process writes its name and an expiry on every turn it starts (admission, a click, a queued message's
promotion) and renews the expiry while the turn runs — a slow model call included — from one keeper thread
per process. Recovery (``recover_turns`` at every start, and the sweep of every served process) takes a
running turn only in one conditional update that finds its lease expired (or released: a thread of this
process that carried the turn failed, so nobody carries it). So starting or restarting one process never takes
the turns another live process is running; a process killed outright leaves its turns to the others once
their leases expire, and only then.

The point of no return (L, the journal's commit) is fenced by the lease too: it commits only while the turn
is still running under this process's lease, so a process that was paused past its lease and taken over
cannot commit after recovery answered the person.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from ..models import Turn

log = logging.getLogger(__name__)

_identity: tuple[int, str] | None = None
_live: set[str] = set()  # the turns a thread of this process is carrying now
_lock = threading.Lock()
_identity_lock = threading.Lock()
_keeper: threading.Thread | None = None
_sweeper: threading.Thread | None = None


def owner() -> str:
    """This process's name on the leases it holds (host, pid and a random part: a pid can be reused). Made once,
    under a lock: two threads that asked first at the same moment each made a name of their own, and the turn
    written under the name that lost could never be written again by its own thread (its lease "taken over"),
    so it stayed running and its conversation's messages queued behind it until a restart (issue 23, the
    stalled queue under load)."""
    global _identity
    pid = os.getpid()
    found = _identity
    if found is not None and found[0] == pid:
        return found[1]
    with _identity_lock:
        if _identity is None or _identity[0] != pid:  # a forked child is another process
            _identity = (pid, f"{socket.gethostname()[:30]}:{pid}:{uuid.uuid4().hex[:8]}")
        return _identity[1]


def seconds() -> float:
    return float(settings.TURNFRAME["TURN_LEASE_S"])


def expiry(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) + timedelta(seconds=seconds())


def fresh() -> dict[str, object]:
    """The lease fields of a turn this process starts now."""
    return {"lease_owner": owner(), "lease_expires_at": expiry()}


@contextmanager
def carried(turn_id: str) -> Iterator[None]:
    """While a thread of this process carries the turn (from its insert or promotion to its end): the keeper
    renews its lease. Left by an exception with the turn still running (the thread failed or crashed), the lease
    is released: recovery may take the turn at once rather than when the lease expires."""
    with _lock:
        _live.add(turn_id)
    keeper_start()
    try:
        yield
    except BaseException:
        release(turn_id)
        raise
    finally:
        with _lock:
            _live.discard(turn_id)


def release(turn_id: str) -> None:
    """This process gives the running turn up (its thread failed): recovery may take it now."""
    with _lock:
        _live.discard(turn_id)
    try:
        Turn.objects.filter(pk=turn_id, status=Turn.Status.RUNNING, lease_owner=owner()).update(
            lease_expires_at=None)
    except Exception:  # the database is gone too: the lease expires on its own
        log.exception("could not release the lease of turn %s", turn_id)


def carrying() -> set[str]:
    with _lock:
        return set(_live)


def takeable(now: datetime | None = None) -> Q:
    """Running turns recovery may take: the lease expired, or was released (or never written: a turn of an
    earlier version) — but never one a thread of this very process still carries (its renewals may lag behind a
    busy database; the thread is alive and will finish it, and the fence at L could not tell the two apart)."""
    return (Q(status=Turn.Status.RUNNING)
            & (Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now or timezone.now()))
            & ~(Q(lease_owner=owner()) & Q(pk__in=carrying())))


def take(turn_id: str) -> bool:
    """Take a running turn for recovery, in one conditional update: True when this process now holds it."""
    now = timezone.now()
    return bool(Turn.objects.filter(takeable(now), pk=turn_id).update(lease_owner=owner(),
                                                                      lease_expires_at=expiry(now)))


def takeable_ids() -> list[str]:
    return list(Turn.objects.filter(takeable()).order_by("created_at").values_list("pk", flat=True))


def still_mine(turn_id: str) -> bool:
    return Turn.objects.filter(pk=turn_id, status=Turn.Status.RUNNING, lease_owner=owner()).exists()


def renew() -> int:
    """Renew the leases of the turns this process carries (the keeper, every third of a lease)."""
    live = carrying()
    if not live:
        return 0
    return Turn.objects.filter(pk__in=live, status=Turn.Status.RUNNING, lease_owner=owner()).update(
        lease_expires_at=expiry())


def keeper_start(*, sweeper: Callable[[], object] | None = None) -> None:
    """Start this process's keeper thread once: it renews the leases of the turns carried here. In a served
    process, ``sweeper`` (``startup.turns_sweep``: recover the turns whose lease expired, their process having
    died without a restart) runs as often on a thread of its own, so a recovery that waits on a model never
    holds up the renewals."""
    global _keeper, _sweeper
    with _lock:
        if sweeper is not None and _sweeper is None:
            _sweeper = threading.Thread(target=_every, args=(sweeper,), name="turnframe-sweep", daemon=True)
            _sweeper.start()
        if _keeper is None or not _keeper.is_alive():
            _keeper = threading.Thread(target=_every, args=(renew,), name="turnframe-lease", daemon=True)
            _keeper.start()


def _every(beat: Callable[[], object]) -> None:
    while True:
        time.sleep(max(seconds() / 3, 0.2))
        try:
            beat()
        except DatabaseError as exc:  # busy (a long transaction of this process holds SQLite) or restarting
            log.warning("the turn lease keeper could not write (%s); retrying", exc)
        except Exception:
            log.exception("the turn lease keeper failed; retrying")
        finally:
            connection.close()  # this thread's own connection: not held between beats
