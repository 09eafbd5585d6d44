"""The evaluation runner: plays a corpus of conversations through the real runtime and scores them.

Each conversation (one JSON file, format in ``docs/evaluation.md``) runs on a fresh database
state: inside one transaction that is rolled back at the end, with fresh users that own nothing
else, and with the clock set to the conversation's ``today``. Its messages go through
``turn_submit_message`` and its card clicks through ``interaction_respond``, exactly as a browser
would drive them, with the provider under test.

The runner knows no domain. A conversation's cases are of one case kind (``kind``, default: the first
registered kind that supports the corpus); that kind's ``corpus`` (``registries.CorpusSupport``) says how
a starting case is created and how an expected case is compared with the state a message left.

Every message is one *item* and gets one verdict:

- ``passed``: every expectation held;
- ``not_understood``: acts were expected but the turn proposed none;
- ``failed``: anything else that differs from the expectations;
- ``provider_failure``: the model could not be used (timeout, refused request, malformed answer, …), so
  the turn failed before anything was understood: counted apart (with its kind), so a broken endpoint
  is not mistaken for a model that misread (issue 22, 6);

and, independently, may be **unsafe**: it committed an effect the corpus did not expect (an
event of an act that was not expected to execute, a case that changed without being expected to,
a status set, or a change inside a case, that the expected state does not contain).
A missing effect is a failure; an unexpected effect is unsafe.

The package, by job: ``corpus`` (the file format, read and validated), ``runner`` (each conversation played on
a rolled-back database), ``checks`` (each message scored against its expectations) and ``report`` (the
results and their totals).
"""

from .corpus import CorpusConversation, CorpusError, corpus_kind, corpus_load
from .report import ConversationResult, EvaluationReport, ItemResult
from .runner import evaluation_run

__all__ = ["ConversationResult", "CorpusConversation", "CorpusError", "EvaluationReport", "ItemResult", "corpus_kind",
           "corpus_load", "evaluation_run"]
