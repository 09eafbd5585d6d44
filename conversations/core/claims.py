"""The claim guard (SPEC §18, I16): model prose may not claim an effect no committed event backs.

A model-written block that contains any act's claim phrase, when that act committed no event in
this turn, is refused whole and replaced by a notice. It is never edited.

An act declares its claim phrases as it would write a receipt: a past form and, for some, the words
that follow it ("submitted", "sent for approval", "withdrawn"). A model writes them in any
inflection and with words between ("Done: I withdrew your claim", "I sent your claim for approval",
"I'm cancelling it now"), so a phrase whose first word is a verb's past form is read as that verb:
its every inflection comes from a morphology library (``lemminflect``), computed once per set of
phrases, and its other words may follow within a few words in the same sentence. Which inflections
claim is decided by the words just before them, in the same clause:

- a past form ("withdrew", "withdrawn", "sent") claims, unless the verb group is negated ("not
  submitted yet", "hasn't been sent for approval"), modal or infinitive ("will be submitted", "ready
  to be sent"), or the sentence is a question with no "I"/"we" as its subject ("Has it been
  submitted?");
- a progressive form claims after a form of "be" ("I'm cancelling it", "it is being…" is a past form
  anyway), or alone at the start of a clause that says "now" ("Submitting it now.");
- a plain present claims only as "I"/"we" opening a clause ("Done: I withdraw your claim."): "you can
  submit it when ready" and "Shall I send it for approval?" mention the act, they do not claim it.

Refusing an innocent sentence costs a notice; letting a claim through costs the user's trust: where
the words are unclear, the guard refuses. A phrase whose first word is no verb's past form is matched
as written, word for word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

UNBACKED_CLAIM = "unbacked_claim_removed"
UNBACKED_CLAIM_TEXT = "A sentence of the assistant's reply was removed: it described a change that did not happen."

MAX_GAP = 10  # words allowed between a phrase's verb and the rest of it ("sent your Berlin claim to Dana for approval")


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    allowed: bool
    act: str | None = None
    phrase: str | None = None  # the act's declared phrase
    words: str | None = None  # the words of the reply that claimed it (for the trace)


class Form(Enum):
    """How an inflection of a claim verb is read."""

    PAST = "past"  # VBD, VBN: withdrew, withdrawn, sent
    PROGRESSIVE = "progressive"  # VBG: withdrawing
    PRESENT = "present"  # VB, VBP, VBZ: withdraw, withdraws


_TAGS = {"VBD": Form.PAST, "VBN": Form.PAST, "VBG": Form.PROGRESSIVE, "VB": Form.PRESENT, "VBP": Form.PRESENT,
         "VBZ": Form.PRESENT}


@dataclass(frozen=True, slots=True)
class _Entry:
    """One way a word of a reply may start a claim: the act, its declared phrase, the words that must follow."""

    act: str
    phrase: str
    form: Form
    tail: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Table:
    heads: Mapping[str, tuple[_Entry, ...]]  # an inflected verb -> the claims it may start
    literal: tuple[tuple[str, str, re.Pattern[str]], ...]  # (act, phrase, pattern): phrases matched as written


# ------------------------------------------------------------------------------------------ reading

def as_read(text: str) -> str:
    """The text as a person reads it: compatibility forms folded (NFKC: fullwidth letters, ligatures)
    and invisible format characters (soft hyphen, zero-width space and joiners) removed, so a claim
    cannot hide from the guard behind characters the browser does not show."""
    if not text or text.isascii():
        return text or ""  # NFKC leaves ASCII as it is, and ASCII has no format characters
    folded = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")


# a word (letters, with inner apostrophes: "I'm", "hasn't"), a sentence's end (or a blank line), or a pause that ends a clause
# (a comma, brackets, quotes, a spaced dash, a line break). A hyphen inside a word separates words
# ("submitted-and-approved" still says submitted), and so does a digit or an underscore.
_WORD = r"[^\W\d_]+(?:['\u2019\u02bc][^\W\d_]+)*"
_WORDS = re.compile(_WORD)
_PIECE = re.compile(rf"(?P<word>{_WORD})|(?P<end>[.!?;:]+|\n\s*\n)"
                    r"|(?P<pause>[,()\[\]{}\"\u201c\u201d]|\s[-\u2012-\u2015]+\s|[\u2012-\u2015]|\n)")


class _Word(NamedTuple):  # a tuple: a reply has many words, and this is made for each
    text: str  # lower case, plain apostrophes
    opens_clause: bool  # nothing of its clause before it (a sentence start or just after a pause)


@dataclass(frozen=True, slots=True)
class _Sentence:
    words: tuple[_Word, ...]
    question: bool  # ends with "?" and opens as a question does ("Has it…", "Shall I…", "What…")


_QUESTION_OPENERS = frozenset(
    "shall should will would can could may might must do does did is are was were has have had am what which who "
    "whom whose when where why how want wanna isn't aren't wasn't weren't hasn't haven't hadn't didn't don't doesn't "
    "won't wouldn't shouldn't can't couldn't".split())


def _sentences(text: str) -> list[_Sentence]:
    found: list[_Sentence] = []
    words: list[_Word] = []
    opens = True
    for piece in _PIECE.finditer(text):
        if piece.lastgroup == "word":
            words.append(_Word(piece.group().lower().replace("\u2019", "'").replace("\u02bc", "'"), opens))
            opens = False
        elif piece.lastgroup == "pause":
            opens = True
        else:
            if words:
                found.append(_Sentence(tuple(words), "?" in piece.group() and words[0].text in _QUESTION_OPENERS))
            words, opens = [], True
    if words:
        found.append(_Sentence(tuple(words), False))
    return found


# ------------------------------------------------------------------------------------------ the verb group

_NEGATORS = frozenset({"not", "never", "no", "nothing", "neither", "nor", "cannot", "without", "nobody", "none"})
# "to" only before "be" ("ready to be submitted"): "I managed to get it submitted" claims
_MODALS = frozenset({"will", "would", "shall", "should", "can", "could", "may", "might", "must", "ought"})
# modals that claim a state when "now" or "already" goes with them ("It should now be submitted", "must be
# withdrawn by now"); without it they advise ("it should be submitted by Friday")
_SETTLING = frozenset({"should", "must", "ought"})
_DONE_WORDS = frozenset({"now", "already"})
_BE = frozenset({"am", "is", "are", "was", "were"})
_FIRST_PERSON = frozenset({"i", "we"})
_TENSED = frozenset({"has", "have", "had", "got", "gets"})
# words a verb group carries between its subject (or its start) and its verb; they decide nothing
_FILLERS = frozenset(
    "be been being have has had having get gets got gotten getting it them this that yet still already just now also "
    "hereby then finally successfully officially actually really fully ever even only since automatically right "
    "quickly all both ahead and go goes going gone went".split())


@dataclass(frozen=True, slots=True)
class _Group:
    """What the words before a verb, in its clause, say about it."""

    negated: bool = False
    modal: bool = False  # "will", "could", "ready to be" …: not (yet) a claim
    be: bool = False
    first_person: bool = False
    subject_opens: bool = False  # the first-person subject opens its clause ("Done: I withdraw…")
    opens: bool = False  # only fillers between the clause's start and the verb
    finite: bool = False  # the group has its own tensed "be", "have" or "get" ("…now that it's submitted?")
    settling: bool = False  # its modal is "should"/"must" ("it should now be submitted": claimed with "now")


def _contracted(word: str) -> tuple[str, str]:
    """("i", "'m") for "i'm", ("has", "n't") for "hasn't", (word, "") for a plain word."""
    if word.endswith("n't"):
        return word[:-3], "n't"
    head, _, rest = word.partition("'")
    return (head, "'" + rest) if rest else (word, "")


def _group(words: tuple[_Word, ...], at: int) -> _Group:
    """Read back from the verb at ``at`` over its verb group, at most seven words and never past its clause."""
    negated = modal = be = finite = settling = False
    if words[at].opens_clause:
        return _Group(opens=True)
    for i in range(at - 1, max(-1, at - 8), -1):
        word = words[i]
        stem, suffix = _contracted(word.text)
        if suffix == "n't" or stem in _NEGATORS:
            negated = True
        elif suffix == "'ll" or stem in _MODALS or (suffix == "'d" and stem not in _FIRST_PERSON) or (
                stem == "to" and words[i + 1].text == "be"):
            modal = True
            settling = settling or stem in _SETTLING
        elif stem in _FIRST_PERSON:
            return _Group(negated, modal, be or suffix in ("'m", "'re"), True, word.opens_clause, word.opens_clause,
                          finite, settling)
        elif stem in _BE or suffix in ("'m", "'re", "'s"):
            be = True
            finite = finite or i > 0  # the question's own opener ("Is it…") is no verb of an inner clause
        elif stem not in _FILLERS and suffix != "'ve":
            return _Group(negated, modal, be, finite=finite, settling=settling)
        elif i > 0 and (stem in _TENSED or suffix == "'ve"):
            finite = True
        if word.opens_clause:
            return _Group(negated, modal, be, opens=True, finite=finite, settling=settling)
    return _Group(negated, modal, be, finite=finite, settling=settling)


def _claims(sentence: _Sentence, at: int, form: Form) -> bool:
    group = _group(sentence.words, at)
    settled = group.settling and any(w.text in _DONE_WORDS for w in sentence.words[max(0, at - 7):at + 4])
    if group.negated or (group.modal and not settled):
        return False  # "not submitted yet", "will be sent for approval", "ready to be withdrawn"
    if sentence.question and at < 8 and not (group.first_person or group.finite):
        # "Has your claim been opened?", "Shall I mark it as submitted?"; but a claim inside a question has
        # a subject and a tense of its own: "Anything else now that it's submitted?", "Did you see I sent it…?"
        return False
    if form is Form.PAST:
        return True
    if form is Form.PROGRESSIVE:
        # "I'm cancelling it", "it is being…" (a past form); alone only as a clause that says it happens now
        rest = {w.text for w in sentence.words[at + 1:]}
        return group.be or (group.opens and not group.first_person and bool(rest & {"now", "away"}))
    # "Done: I withdraw your claim."; "Shall I send it for approval?" and "if I submit it" have "I" inside
    return group.first_person and group.subject_opens and not group.be


def _tail_follows(words: tuple[_Word, ...], at: int, tail: tuple[str, ...]) -> int | None:
    """Where the rest of a phrase ends when it follows the verb at ``at`` within ``MAX_GAP`` words, else None."""
    if not tail:
        return at + 1
    for start in range(at + 1, min(len(words), at + 2 + MAX_GAP)):
        if words[start].text != tail[0]:
            continue
        end = _rest_follows(words, start + 1, tail[1:])
        if end is not None:
            return end
    return None


TAIL_GAP = 2  # words allowed inside the rest of a phrase ("for Dana's approval", "for their approval")


def _rest_follows(words: tuple[_Word, ...], at: int, rest: tuple[str, ...]) -> int | None:
    for word in rest:
        found = next((i for i in range(at, min(len(words), at + 1 + TAIL_GAP)) if words[i].text == word), None)
        if found is None:
            return None
        at = found + 1
    return at


# ------------------------------------------------------------------------------------------ the tables

@lru_cache(maxsize=256)
def inflections(phrase: str) -> tuple[tuple[str, Form], ...]:
    """Every inflection of a claim phrase's verb, with how it is read; () when its first word is no
    verb's past form (the phrase is then matched as written)."""
    import lemminflect  # loaded once, on the first reply: its tables take a moment to read

    head = phrase.split()[0].lower()
    found: dict[str, Form] = {}
    for lemma in lemminflect.getLemma(head, upos="VERB") or (head,):
        table = lemminflect.getAllInflections(lemma, upos="VERB") or lemminflect.getAllInflectionsOOV(
            lemma, upos="VERB")
        for tag, words in table.items():
            form = _TAGS.get(tag)
            for word in (w.lower() for w in words):
                if form is not None and found.get(word) is not Form.PAST:  # "sent" is VBD and VBN: past wins
                    found[word] = form
    if found.get(head) is not Form.PAST:
        return ()
    return tuple(sorted(found.items(), key=lambda item: item[0]))


@lru_cache(maxsize=512)
def _pattern(phrase: str) -> re.Pattern[str]:
    words = r"[\s\-\u2010\u2011]+".join(re.escape(w) for w in phrase.split())  # "sent-for-approval" too
    # a whole word, also inside a hyphenated compound ("submitted-and-approved" still says submitted):
    # refusing an innocent "added-value" costs a notice, letting a claim through costs the user's trust
    return re.compile(rf"(?<!\w){words}(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=32)
def _table(phrases: tuple[tuple[str, tuple[str, ...]], ...]) -> _Table:
    heads: dict[str, list[_Entry]] = {}
    literal: list[tuple[str, str, re.Pattern[str]]] = []
    for act, declared in phrases:
        for phrase in declared:
            forms = inflections(phrase)
            if not forms:
                literal.append((act, phrase, _pattern(phrase)))
                continue
            tail = tuple(w.lower() for w in phrase.split()[1:])
            for word, form in forms:
                heads.setdefault(word, []).append(_Entry(act, phrase, form, tail))
    return _Table({word: tuple(entries) for word, entries in heads.items()}, tuple(literal))


def claim_table(claim_phrases: Mapping[str, Iterable[str]]) -> _Table:
    """The inflection table of a registry's phrases, computed once and reused for every reply."""
    return _table(tuple((act, tuple(phrases)) for act, phrases in claim_phrases.items()))


# ------------------------------------------------------------------------------------------ the guard

def check_claims(text: str, claim_phrases: Mapping[str, Iterable[str]], backed_acts: Iterable[str]) -> ClaimCheck:
    """Is ``text`` free of unbacked claims? ``backed_acts``: acts with a committed event this turn."""
    backed = set(backed_acts)
    table = claim_table(claim_phrases)
    text = as_read(text)
    for act, phrase, pattern in table.literal:
        if act not in backed and (found := pattern.search(text)):
            return ClaimCheck(False, act, phrase, found.group())
    if table.heads.keys().isdisjoint(_WORDS.findall(text.lower())):
        return ClaimCheck(True)  # most replies: no word of any claim, nothing to read closely
    for sentence in _sentences(text):
        words = sentence.words
        for at, word in enumerate(words):
            for entry in table.heads.get(word.text, ()):
                if entry.act in backed:
                    continue
                end = _tail_follows(words, at, entry.tail)
                if end is not None and _claims(sentence, at, entry.form):
                    return ClaimCheck(False, entry.act, entry.phrase, " ".join(w.text for w in words[at:end]))
    return ClaimCheck(True)
