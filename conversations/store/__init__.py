"""The turn store: every hand-written statement of Turnframe, and the only place one is written (issue 21).

A turn sends the same few statements every time; they are written here once (the mechanism, ``_sql``, is
private to this package: SQL over the models' own tables and columns, values converted both ways as the ORM
converts them), each behind a function named by what it does, returning model rows or a typed result: a turn's
own rows in ``_turn``, what it makes and settles (cards, the journal, cases) and the rest in ``_rows``. What a
turn reads at one moment travels with the statement it sends then (a *query* argument: ``ContextQuery``,
``DeliveryQuery``), so a message + click costs at most 20 data statements (``manage.py bench``).
Everything else a turn does goes through the ORM. ``tests/test_store_only.py`` fails when SQL, a cursor or the
mechanism appears outside this package and the migrations; ``conversations.checks`` refuses a database other
than SQLite and PostgreSQL, the two these statements are written for.
"""

from ._rows import (
    CardAtClick,
    Settlement,
    card_at_click,
    card_claim,
    card_insert,
    card_settle,
    cards_expire_in,
    cards_supersede,
    case,
    case_change,
    command_edit,
    commands,
    commands_confirm,
    events_insert,
    journal_insert,
    journal_settle,
    journal_settle_behind,
    journal_settle_confirmed,
    live_token,
    own_case,
    read_connection,
    read_only,
    session_row,
    token_used,
    user_with_session,
)
from ._turn import (
    Admission,
    Begun,
    ContextQuery,
    ConversationState,
    DeliveryQuery,
    DeliveryRead,
    Seen,
    admit,
    begin,
    context,
    conversation_visible,
    delivery_read,
    next_queued,
    next_seq,
    round_record,
    turn_end,
    turn_insert,
    turn_queue,
    turn_record,
    turn_record_reading,
)

__all__ = [
    "Admission", "Begun", "CardAtClick", "ContextQuery", "ConversationState", "DeliveryQuery", "DeliveryRead", "Seen",
    "Settlement", "admit", "begin", "card_at_click", "card_claim", "card_insert", "card_settle", "cards_expire_in",
    "cards_supersede", "case", "case_change", "command_edit", "commands", "commands_confirm", "context",
    "conversation_visible", "delivery_read", "events_insert", "journal_insert", "journal_settle",
    "journal_settle_behind", "journal_settle_confirmed", "live_token", "next_queued", "next_seq", "own_case",
    "read_connection", "read_only", "round_record", "session_row", "token_used", "turn_end", "turn_insert", "turn_queue", "turn_record",
    "turn_record_reading", "user_with_session",
]
