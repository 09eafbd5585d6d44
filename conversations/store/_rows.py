"""The store's statements of what a turn makes and settles: cards, journal rows, cases and their events; and the
API's tokens and a read-only transaction's settings. Re-exported by ``conversations.store``."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from registries.models import EntryStatus, RegistryEntry

from ..models import ApiToken, Case, CommandJournalEntry, DomainEvent, Interaction
from ._sql import Select, Update, Values, column_of, db, execute, field_of, insert, read

_PENDING = Interaction.Status.PENDING


# --------------------------------------------------------------------------- cards (SPEC §17)


def card_insert(card: Interaction) -> None:
    insert(card)


class CardAtClick(NamedTuple):
    card: Interaction  # with its case and conversation
    commands: list[CommandJournalEntry]  # the commands it names, in plan order
    out_of_service: dict[str, str]  # the audit mirror's entries not active: name -> status


_CARD = Select(Interaction, "t.id = %s AND t.owner_id = %s", related=("case", "conversation"))
_CARD_COMMANDS = Select(CommandJournalEntry, "t.interaction_id = %s", order="t.sequence")
_OUT_OF_SERVICE = Values(RegistryEntry, ("name", "status"), "t.status <> %s")


def card_at_click(card_id: str, owner_id: int) -> CardAtClick | None:
    """The owner's card as a click finds it, with its commands and the mirror's entries out of service (one
    statement); None: no such card of theirs."""
    found, commands, out_of_service = read(_CARD.bind(card_id, owner_id), _CARD_COMMANDS.bind(card_id),
                                           _OUT_OF_SERVICE.bind(EntryStatus.ACTIVE))
    return CardAtClick(found[0], commands, dict(out_of_service)) if found else None


_CLAIM = Update(Interaction, ("status", "chosen_option", "answered_by_id", "result_turn_id"),
                "t.id = %s AND t.status = %s")


def card_claim(card_id: str, option: str, user_id: int, turn_id: str) -> bool:
    """The one conditional update that decides who answers a card: only from pending, naming the click's turn."""
    return _CLAIM.run([Interaction.Status.RESOLVING, option, user_id, turn_id], card_id, _PENDING) == 1


# a card leaves a status only from the one it was read in: the database decides a race
_SETTLE_CARD = Update(Interaction, ("status", "resolved_at"), "t.id = %s AND t.status = %s")


def card_settle(card_id: str, status: str, at: datetime, *, from_status: str = _PENDING) -> bool:
    """Move a card to ``status`` only from ``from_status``; False: it was no longer in it."""
    return _SETTLE_CARD.run([status, at], card_id, from_status) == 1


_SUPERSEDE = Update(Interaction, ("status", "resolved_at"), "t.case_id = %s AND t.blocking AND t.status = %s",
                    returning="id")
_EXPIRE_IN = Update(Interaction, ("status", "resolved_at"), "t.conversation_id = %s AND t.status = %s",
                    returning="id")


def cards_supersede(case_id: str, at: datetime) -> list[str]:
    """Supersede the case's open blocking cards (only from pending); their ids."""
    return [pk for (pk,) in _SUPERSEDE.returned_all([Interaction.Status.SUPERSEDED, at], case_id, _PENDING)]


def cards_expire_in(conversation_id: str, at: datetime) -> list[str]:
    """Expire the conversation's open cards (only from pending); their ids."""
    return [pk for (pk,) in _EXPIRE_IN.returned_all([Interaction.Status.EXPIRED, at], conversation_id, _PENDING)]


# --------------------------------------------------------------------------- the journal and the cases (SPEC §16)


def journal_insert(row: CommandJournalEntry) -> None:
    insert(row)


_COMMANDS = Select(CommandJournalEntry, "t.id IN %s", order="t.created_at, t.sequence")


def commands(ids: Iterable[str]) -> list[CommandJournalEntry]:
    """Journal rows by id, in the order they were journaled."""
    return _COMMANDS.all(list(ids))


_SETTLE_FIELDS = ("status", "case_id", "origin", "origin_kind", "result", "updated_at")
_SETTLE = Update(CommandJournalEntry, _SETTLE_FIELDS, "t.id = %s AND t.status IN %s")
_SETTLE_CONFIRMED = Update(CommandJournalEntry, _SETTLE_FIELDS, f"""t.id = %s AND t.status IN %s AND EXISTS (
    SELECT 1 FROM {Interaction._meta.db_table} i
    WHERE i.id = %s AND i.owner_id = %s AND i.status = %s AND i.id = t.interaction_id)""")


@dataclass(frozen=True)
class Settlement:
    """A committed command's journal row as it settles."""

    status: str
    case_id: str
    origin: dict[str, Any]
    origin_kind: str
    result: dict[str, Any]
    updated_at: datetime


def journal_settle(entry_id: str, settled: Settlement, from_statuses: Collection[str]) -> bool:
    """Settle a row only from one of ``from_statuses`` (a second executor of the same row changes nothing)."""
    return _SETTLE.run(_settlement(settled), entry_id, tuple(from_statuses)) == 1


def journal_settle_confirmed(entry_id: str, settled: Settlement, from_statuses: Collection[str], *, card_id: str,
                             owner_id: int) -> bool:
    """``journal_settle`` of a confirmed row, checking I19 in the same statement: the card exists, is the
    clicking user's, is being answered, and names this row."""
    return _SETTLE_CONFIRMED.run(_settlement(settled), entry_id, tuple(from_statuses), card_id, owner_id,
                                 Interaction.Status.RESOLVING) == 1


def _settlement(s: Settlement) -> list[Any]:
    return [s.status, s.case_id, s.origin, s.origin_kind, s.result, s.updated_at]


_SETTLE_BEHIND = Update(CommandJournalEntry, ("status", "updated_at"), "t.interaction_id IN %s AND t.status = %s")


def journal_settle_behind(card_ids: Collection[str], status: str, at: datetime) -> int:
    """Settle the rows awaiting the cards ``card_ids``: they never run."""
    return _SETTLE_BEHIND.run([status, at], list(card_ids), CommandJournalEntry.Status.AWAITING_CONFIRMATION)


_CONFIRMED = Update(CommandJournalEntry, ("status", "origin", "origin_kind"), "t.id IN %s AND t.status = %s")


def commands_confirm(ids: Collection[str], origin: dict[str, Any], origin_kind: str) -> int:
    """Make rows awaiting their card pending under ``origin`` (only from awaiting); how many moved."""
    return _CONFIRMED.run([CommandJournalEntry.Status.PENDING, origin, origin_kind], list(ids),
                          CommandJournalEntry.Status.AWAITING_CONFIRMATION)


# (updated_at is stamped by the update, as ``save`` stamps auto_now)
_EDITED = Update(CommandJournalEntry, ("args",), "t.id = %s AND t.status = %s AND t.interaction_id = %s")


def command_edit(command_id: str, args: dict[str, Any], *, status: str, card_id: str) -> bool:
    """The person's edited arguments, on a row of the card being answered, only in ``status``."""
    return _EDITED.run([args], command_id, status, card_id) == 1


_CASE = Select(Case, "t.id = %s")
_OWN_CASE = Select(Case, "t.id = %s AND t.owner_id = %s")


def case(case_id: str) -> Case | None:
    return _CASE.first(case_id)


def own_case(case_id: str, owner_id: int) -> Case | None:
    return _OWN_CASE.first(case_id, owner_id)


_CASE_CHANGE = Update(Case, ("state", "status", "title", "revision", "updated_at"), "t.id = %s AND t.revision = %s",
                      returning=f"(SELECT COALESCE(MAX(e.sequence), 0) FROM {DomainEvent._meta.db_table} e"
                                " WHERE e.case_id = %s)")


def case_change(case_id: str, expected_revision: int, *, state: dict[str, Any], status: str, title: str,
                at: datetime) -> int | None:
    """Move a case from ``expected_revision`` to the next with its new state; the number of its last event (for
    the events appended next). None: the revision moved on (nothing changed)."""
    returned = _CASE_CHANGE.returned([state, status, title, expected_revision + 1, at], case_id, expected_revision,
                                     case_id)
    return None if returned is None else int(returned[0])


def events_insert(events: Sequence[DomainEvent]) -> None:
    """Insert a command's events in one statement."""
    insert(*events)


# --------------------------------------------------------------------------- API tokens


_LIVE_TOKEN = Select(ApiToken, "t.key_hash = %s AND r1.is_active AND t.revoked_at IS NULL"
                               " AND (t.expires_at IS NULL OR t.expires_at > %s)", related="user")
_USED = Update(ApiToken, ("last_used_at",), "t.id = %s")


def live_token(key_hash: str, now: datetime) -> ApiToken | None:
    """The live token with this hash (not revoked, not expired, its user active), its ``user`` loaded."""
    return _LIVE_TOKEN.first(key_hash, now)


def token_used(token_id: int, at: datetime) -> None:
    _USED.run([at], token_id)


# --------------------------------------------------------------------------- a session and the user it names


_SESSIONS: dict[type[models.Model], Select] = {}


def session_row(session_model: type[models.Model], session_key: str | None, now: datetime) -> models.Model | None:
    """The session row ``session_key`` while it is unexpired at ``now`` (what ``SessionStore`` reads with
    ``objects.get``; written once, not built per request)."""
    query = _SESSIONS.get(session_model)
    if query is None:
        query = _SESSIONS[session_model] = Select(session_model, f"t.{_column(session_model, 'session_key')} = %s"
                                                                 f" AND t.{_column(session_model, 'expire_date')} > %s")
    return query.first(session_key, field_of(session_model, "expire_date").get_db_prep_value(now, db()))


def _column(model: type[models.Model], name: str) -> str:
    return column_of(field_of(model, name))


_USERS_WITH_SESSION: dict[tuple[type[models.Model], type[models.Model]], Select] = {}


def user_with_session(user_id: Any, session_model: type[models.Model], session_key: str, now: datetime
                      ) -> models.Model | None:
    """The user ``user_id`` with ``session_data``: the data of the session row ``session_key`` while it is stored
    and unexpired at ``now``, else None (one statement where reading the session and then its user makes two;
    written once, not built per call). None: no such user."""
    user_model = get_user_model()
    query = _USERS_WITH_SESSION.get((user_model, session_model))
    if query is None:
        connection = db()
        data, key, expires = (column_of(field_of(session_model, name), connection)
                              for name in ("session_data", "session_key", "expire_date"))
        assert user_model._meta.pk is not None
        query = _USERS_WITH_SESSION[(user_model, session_model)] = Select(
            user_model, f"t.{column_of(user_model._meta.pk, connection)} = %s",
            extra={"session_data": f"(SELECT s.{data} FROM {connection.ops.quote_name(session_model._meta.db_table)}"
                                   f" s WHERE s.{key} = %s AND s.{expires} > %s)"})
    connection = db()
    at = field_of(session_model, "expire_date").get_db_prep_value(now, connection)
    return query.first(session_key, at, user_id)


# --------------------------------------------------------------------------- a read-only transaction's settings


def read_only() -> Callable[[], object] | None:
    """Make the current transaction read-only as the database keeps it (``conversations.readloop``); what puts the
    connection's setting back once the transaction is rolled back (None: nothing to put back). PostgreSQL: ``SET
    TRANSACTION READ ONLY`` (undone by the rollback) and the session's default, so that a transaction a smuggled
    ``COMMIT`` would start is read-only too. SQLite: ``PRAGMA query_only`` belongs to the connection (already on
    for ``read_connection``'s, which is left as it is). Other databases: nothing."""
    connection = db()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SHOW default_transaction_read_only")
            restore = f"SET default_transaction_read_only = {cursor.fetchone()[0]}"
            cursor.execute("SET TRANSACTION READ ONLY")
            cursor.execute("SET default_transaction_read_only = on")
        elif connection.vendor == "sqlite":
            cursor.execute("PRAGMA query_only")
            if cursor.fetchone()[0]:
                return None
            restore = "PRAGMA query_only = 0"
            cursor.execute("PRAGMA query_only = ON")
        else:
            return None
    return functools.partial(execute, restore)


_READERS = threading.local()


@contextmanager
def read_connection() -> Iterator[None]:
    """While a read runs on SQLite outside any transaction: this thread's read-only connection stands in for its
    connection (``django.db.connection``, the ORM), sharing its execute wrappers (the write guard, a counter).

    ``PRAGMA query_only`` is a flag pragma, and SQLite expires every statement a connection has prepared when one
    is set (``OP_Expire``): switching it on and off around each read made the connection prepare every statement
    of the turn again after each read round (about half of the SQLite time of a message + click: the admission's
    statement alone costs ten times its run to prepare). The read connection is opened once per thread with
    ``query_only`` on for good, so neither connection's statements expire. Its transactions begin ``DEFERRED``:
    SQLite refuses ``BEGIN IMMEDIATE`` (it takes the write lock) on a connection that may not write; a read
    transaction in WAL mode reads one snapshot either way. Inside a transaction (which the read must see), on an
    in-memory database and on PostgreSQL (``SET TRANSACTION READ ONLY`` expires nothing) the connection is used as
    before."""
    main = connections[DEFAULT_DB_ALIAS]
    if main.vendor != "sqlite" or main.in_atomic_block or _in_memory(main):
        yield
        return
    reader = _reader(main)
    reader.execute_wrappers = main.execute_wrappers  # (the same list: a wrapper added meanwhile is on both)
    connections[DEFAULT_DB_ALIAS] = reader
    try:
        yield
    finally:
        connections[DEFAULT_DB_ALIAS] = main


def _in_memory(main: BaseDatabaseWrapper) -> bool:
    """An in-memory SQLite database: a second connection to it would open another database."""
    name = str(main.settings_dict.get("NAME") or "")
    return not name or name == ":memory:" or "mode=memory" in name


def _reader(main: BaseDatabaseWrapper) -> BaseDatabaseWrapper:
    """This thread's read-only connection to ``main``'s database (opened when first used)."""
    reader = getattr(_READERS, "connection", None)
    if reader is not None and reader.settings_dict["NAME"] == main.settings_dict["NAME"]:
        return reader
    if reader is not None:
        reader.close()
    options = dict(main.settings_dict.get("OPTIONS") or {})
    options["transaction_mode"] = "DEFERRED"
    options["init_command"] = f"{options.get('init_command') or ''}; PRAGMA query_only = ON"
    reader = _READERS.connection = type(main)({**main.settings_dict, "OPTIONS": options}, main.alias)
    return reader
