"""Server copy: what the engine itself says in replies (notices), in one place."""

from __future__ import annotations

import logging
from enum import StrEnum

from ..models import CommandJournalEntry, Turn

log = logging.getLogger(__name__)
Phase, JStatus = Turn.Phase, CommandJournalEntry.Status


NOTICE_COPY = {
    "provider_unavailable": "I could not reach the language model, so nothing was changed. Please try again.",
    "plan_rejected": "I could not make sense of that reliably, so nothing was changed. Could you rephrase?",
    "read_budget_exhausted": "I looked up too many things without reaching an answer, so nothing was changed.",
    "revision_conflict": "It changed while I was working on it, so that change was not applied.",
    "turn_interrupted": "This message was interrupted before anything changed. Please send it again.",
    "declined": "Declined: nothing was changed.",
    "stopped": "Stopped as you asked, before anything was done: nothing was changed.",
    "withdrawn": "Withdrawn as you asked, before it ran: it will not run, and nothing was changed.",
    "interaction_stale": "It changed since this card was made, so nothing was changed. Please ask again.",
    "selection_none": "Nothing was changed.",
    "interaction_expired": "This card expired, so nothing was changed. Ask again to get a new one.",
    "interaction_refused": "This can no longer be confirmed as it stands now, so nothing was changed",
    "edited_before_confirming": "You changed {changes} before confirming.",
    "edit_needs_confirmation": "You changed {changes}; with that change it needs your confirmation again: "
                               "see the new card.",
    "confirmation_stale": "It is not in the state the confirmation was drawn for (a change did not go "
                          "through, or it changed meanwhile), so I did not ask you to confirm. Please ask again.",
}


class Withdrawal(StrEnum):
    """Why a queued message was withdrawn before it ran."""

    USER = "user"  # its user stopped it
    CONVERSATION_DELETED = "conversation_deleted"


# what a withdrawn message's turn says (notice code ``withdrawn`` either way)
WITHDRAWN_COPY = {
    Withdrawal.USER: NOTICE_COPY["withdrawn"],
    Withdrawal.CONVERSATION_DELETED: "Withdrawn before it ran, because its conversation was deleted: it will not run, and "
                            "nothing was changed.",
}
