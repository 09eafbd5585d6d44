"""Cutting a message into clauses, each an exact slice of the user's text.

A message is cut at sentence ends, then at commas, colons, dashes and before "and", "then",
"also" and "but". The fragments are then put back together where one does not stand on its own:
"add a taxi ride, 42.50, yesterday" is one request whose parts were separated by commas, while
"add a taxi for 30, and a lunch for 12" is two. What a fragment *is* decides: a verb, a question,
a retraction, a correction or a hold starts a new clause; a bare value joins the clause before it;
a second item (another category or merchant) after an item starts a new one.

Every clause keeps its start and end in the original message, so evidence quoted from it is
always an exact substring of what the user wrote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from rapidfuzz.distance import DamerauLevenshtein

from registries.currencies import currencies_named, currency_mentions

from . import lexicon
from .english import known_word
from .patterns import word_finditer, word_search
from .values import (
    DAY_DOT,
    NUMBERED_DAY,
    closing_day,
    currency_named,
    find_amounts,
    find_categories,
    find_dates,
    find_line_refs,
    find_merchants,
    is_destination,
    mask,
    numbered_day,
    plain,
)

# --------------------------------------------------------------------------- patterns

# words that only announce what follows: "sorry, 2 mistakes:", "a couple of fixes -", "found two errors:"
ANNOUNCED = (r"(?:(?:sorry|oops|argh|ugh|ah|oh)\b[\s,.!-]*)?(?:(?:i\s+(?:made|have|found|noticed|spotted)|there\s+(?:are|were|is)|"
             r"found|spotted|noticed|just)\s+)?(?:a\s+|one\s+|two\s+|three\s+|[1-3]\s+|a\s+couple\s+(?:of\s+)?|couple\s+(?:of\s+)?|"
             r"some\s+|a\s+few\s+|few\s+)(?:small\s+|little\s+|quick\s+|more\s+)?(?:mistakes?|errors?|fix(?:es)?|corrections?|"
             r"changes?|typos?|things\s+to\s+(?:fix|correct|change))(?:\s+(?:to\s+(?:fix|correct|make)|in\s+(?:it|there|the\s+claim)|"
             r"(?:i|we)\s+(?:made|found)))?(?:[\s]*[:;.!-]+[\s]*|\s*$)")

# words that only count what follows: "just these two then:", "the following 3 items:"
LISTED = (r"(?:(?:just|only)\s+)?(?:these|those|the\s+following|following|the\s+next|here\s+are(?:\s+the)?)\s+"
          r"(?:two|three|four|five|six|[2-9])(?:\s+(?:items?|ones?|things?|expenses?|lines?|receipts?|more))?"
          r"(?:\s+(?:then|please|pls|too))?\s*[:;-]+\s*")

# "and" in the languages people mix in, written small ("e pranzo 46,00"; never "E Street Cafe")
AND_ABROAD = r"e|y|und|et|og|och|oraz"
LEADING = re.compile(
    r"^(?:(?:and|then|also|but|so|oh|ok|okay|alright|well|now|next|finally|after\s+that|afterwards|"
    r"please|pls|plz|kindly|hi|hey|hello|thanks|thank\s+you|cheers|right(?=\s*[,.!])|" + lexicon.GREETINGS_ABROAD.replace(" ", "|")
    + r")\b[\s,:;.!-]*|(?-i:" + AND_ABROAD + r")\s+|"
    + ANNOUNCED + r"|" + LISTED + r")+",  # (and in the languages people mix in: "e pranzo 46,00")
    re.IGNORECASE)

_NEG = r"(?:don'?t|dont|do\s+not|never|no\s+need\s+to|not|without|no|hold\s+off\s+(?:on\s+)?|wait\s+(?:with|before)\s+)"
HOLD = re.compile(
    rf"\b{_NEG}\s*(?:\w+\s+){{0,2}}?(submit\w*|send\w*\s+(?:\w+\s+){{0,3}}?(?:for\s+approval|to\s+(?:my\s+|the\s+)?"
    rf"(?:approver|manager|boss))|withdraw\w*|remov\w*|delet\w*)\b[^,;.]*"
    r"|\b(?:keep|leave)\s+(?:it|the\s+claim|them|both)\s+(?:as\s+a\s+|in\s+)?(?:drafts?|unsubmitted)\b[^,;.]*"
    r"|^\s*(?:(?:but|and|hold\s+on|wait)[\s,]+)*not\s+(?:until|till|before)\b[^,;.]*",
    re.IGNORECASE)

RETRACT = re.compile(
    r"^(?:(?:actually|wait|hmm+|oh|no|nah|nope|sorry|oops|on\s+second\s+thoughts?|hold\s+on|scratch\s+that|please|"
    r"pls|just|ok|okay|then)\b[\s,.!-]*)*"
    r"(?:never\s*mind|nvm|forget\s+(?:it|that|this|about\s+(?:it|that)|the\s+[\w'-]+(?:\s+[\w'-]+)?)|"
    r"(?:scratch|bin|ditch)\s+(?:that|it|the\s+[\w'-]+)|"
    # "safety boots 89.00 -- no, drop boots": "drop" after a "no" takes back (alone, it may remove a line or a claim)
    r"(?:(?<=no\s)|(?<=no,\s)|(?<=nope,\s))drop\s+(?:that|it|the\s+)?[\w'-]+|"
    r"cancel\s+(?:that|this)(?!\s+(?:claim|report|one|trip))|ignore\s+(?:that|it|this|the\s+[\w'-]+)|"
    r"leave\s+(?:it|that|things|everything)(?:\s+as\s+(?:it\s+is|is))?|keep\s+(?:it|that|them|both)(?:\s+as\s+(?:it\s+is|is))?(?!\s+(?:in|under|at)\b)|"
    r"don'?t\s+(?:do\s+(?:that|it)|bother|change\s+(?:it|that|anything))|do\s+not\s+do\s+(?:that|it)|"
    r"undo\s+(?:that|it)|skip\s+(?:that|it|the\s+[\w'-]+)|not\s+that|no\s+change|let'?s\s+not|"
    # "… actually not the coffee, that was private": the thing taken back, and why (never "not the 12th, the 13th")
    r"not\s+the\s+[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?(?=\s*,\s*(?:that|it|this)\s*(?:'s|was|is)\s+"
    r"(?:private|personal|mine|on\s+me|not\s+for\s+work|my\s+own)\b[^\d]*$)|"
    r"(?:(?<=actually\s)|(?<=actually,\s)|(?<=oops\s)|(?<=oops,\s))not\s+the\s+[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?"
    r"(?=\s*(?:$|[.!]))|"
    r"i\s+changed\s+my\s+mind|changed\s+my\s+mind)\b[\s\w,.'!-]*$"
    r"|^(?:actually[\s,.!-]*)?(?:no|nope|nah)[\s.!]*$"
    r"|^(?:(?:actually|wait|hmm+|oh|no|nah|nope|sorry|on\s+second\s+thoughts?|hold\s+on)\b[\s,.!-]*)*(?:don'?t|do\s+not)"
    r"(?:\s+(?:do\s+(?:it|that)|bother))?[\s.!]*$",
    re.IGNORECASE)

MARKER = re.compile(
    r"^(?:(?:no\s+wait|wait|no|nope|sorry|oops|i\s+mean|i\s+meant|make\s+(?:that|it)|actually|rather|or\s+rather|"
    # ("um" alone only as a pause: "um jantar 41,20" is the Portuguese "a dinner")
    r"correction|hm+|er+m?|umm+|um(?=\s*[,.:;!…-]|\s+(?:no|actually|wait|sorry|the|that|it|i|make|rather)\b)|uh+|"
    r"on\s+second\s+thoughts?|hold\s+on|my\s+bad|typo)\b[\s,.:;!-]*)+",
    re.IGNORECASE)

QUESTION_START = re.compile(
    r"^(?:what|what's|whats|how|how's|which|when|where|why|who|whose|is|are|am(?=\s+i\b)|was|were|does|do|did|"
    r"can\s+i|could\s+i|may\s+i|should\s+i|shall\s+i|must\s+i|will\s+i|would\s+i|can\s+we|do\s+i|"
    r"tell\s+me|show\s+me|show|list|give\s+me|remind\s+me|explain|any\s+idea|i\s+wonder|i'd\s+like\s+to\s+know|"
    r"i\s+want\s+to\s+know|i\s+need\s+to\s+know|let\s+me\s+know|is\s+there|are\s+there|convert|calculate|"
    r"compute|work\s+out|look\s+up|check|find)\b",
    re.IGNORECASE)

REQUEST_START = re.compile(
    # the polite ways first: "would you be so kind as to", "I would be grateful if you could", "I wonder whether
    # you might", "might you"
    r"^(?:(?:would|could|will)\s+you\s+(?:please\s+|therefore\s+|perhaps\s+|kindly\s+)*be\s+(?:so\s+(?:kind|good)\s+as|kind\s+enough|"
    r"good\s+enough)\s+to|i(?:'d|\s+would)\s+be\s+(?:grateful|thankful|obliged)\s+if\s+you\s+(?:could|would|might)|"
    r"i\s+wonder(?:ed)?\s+(?:whether|if)\s+you\s+(?:might|could|would|can)|might\s+(?:you|i\s+ask\s+you\s+to)|"
    r"may\s+i\s+ask\s+you\s+to|please\s+(?:could|would|can)\s+you|(?:could|can|would)\s+you\s+possibly|"
    r"can\s+you|could\s+you|would\s+you|will\s+you|would\s+you\s+mind|can\s+u|could\s+u|"
    r"i'd\s+like\s+(?:you\s+)?to|i\s+would\s+like\s+(?:you\s+)?to|i\s+want\s+(?:you\s+)?to|i\s+need\s+(?:you\s+)?to|"
    r"let's|lets|let\s+us|go\s+ahead\s+and|please|"
    r"(?:(?:after(?:wards)?|then|after\s+that|and\s+then|now)\s*,?\s+)?(?:you\s+can|u\s+can|you\s+may))\b",
    re.IGNORECASE)

# a full stop ends no sentence after a dotted day before what follows in lower case ("10.11. taxi 42"), nor after an
# initial before a name ("S. Byrne")
NOT_AN_END = r"(?!(?:(?<=(?<![\d.,])\d\.[1-9])|(?<=(?<![\d.,])\d\d\.[1-9])|(?<=(?<![\d.,])\d\.(?:0[1-9]|1[0-2]))|(?<=(?<![\d.,])\d\d\.(?:0[1-9]|1[0-2])))\.\s+(?-i:[a-z\d]))(?!(?<=(?<![\w.])(?-i:[A-Z]))\.\s+(?-i:[A-Z][a-z]))"
_SENTENCE_END = re.compile(rf"[!?;\n…]+|(?!{DAY_DOT.pattern}){NOT_AN_END}\.(?!\d)(?=\s|$)|\s[/|]\s", re.IGNORECASE)  # " / ": a new group
_ABBREVIATIONS = ("st", "mr", "mrs", "ms", "dr", "no", "nr", "vs", "etc", "e.g", "i.e", "approx", "incl", "jan", "feb",
                  "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")  # "3 nov. Ryanair flight …"
_SOFT = re.compile(r",\s+|,(?=[A-Za-z])|\s*:\s+|\s+[-–—]+\s+|\s*[—–]\s*(?<![^\W\d_][—–](?=[^\W\d_]))|(?!(?<=\bme)\s+and\s+(?:the\s+|my\s+|our\s+|two\s+|three\s+|four\s+)*(?:[a-z]+\s+)?(?:colleagues?|clients?|customers?|team|specialists|guests?|boss|manager|engineers|partners?|people|staff|others|friends?|wife|husband)\b)\s+(?=(?:and(?!\s+back\b)|then|also|but|plus)\b|[+&]\s)"
                   # ("to Oslo and back" is one return trip)
                   # a take-back said without punctuation: "change the renfe to 70 actually leave it as is"
                   r"|\s+(?=(?:actually|no\s+wait|wait|hmm+|on\s+second\s+thoughts?)\s+(?:no\b|nah\b|leave|never|"
                   r"forget|don'?t|keep|scratch|ignore|cancel|skip))"
                   r"|\s+(?=(?:never\s*mind|nvm|forget\s+it|scratch\s+that|leave\s+it\s+as\s+(?:it\s+)?is)\b)"
                   # a price taken back as it is said: "was 1 120 no sorry 1 210 at Pelikan", "22 no 26 sry"
                   r"|(?<=\d)\s+(?=(?:no|nope|sorry|sry|oops|no\s+sorry|sorry\s+no|no\s+no|no\s+wait|wait)\s+(?:[€$£]\s?)?\d)",
                   re.IGNORECASE)


# --------------------------------------------------------------------------- what a fragment is


@dataclass
class Clause:
    start: int
    end: int
    text: str
    kind: str  # act | question | retract | hold | correction | marker | item | value | unknown | context
    question: bool = False  # its sentence ended with "?"
    verb: str | None = None  # the act family a verb names (open, add, update, remove, submit, withdraw)
    closed: bool = False  # a record line ("2026-11-18, Thalys, travel, 112.00 EUR"): nothing joins it


# verbs in phrases that do not mean the act: "I've had a look", "got a question", "made a mistake"
_IDIOMS = re.compile(r"\b(?:need|needs|want|wanted|have|has|got)\s+to\s+(?:file|submit|do|sort\s+out|hand\s+in|send\s+in|"
                     r"get\s+in)\s+(?:in\s+)?(?:my|the|some|all\s+(?:my|the)|these|those)?\s*(?:travel\s+)?expenses\b"  # why, not what
                     r"|\b(?:had|have|has|got|get|take|took|make|made)\s+(?:a|an|another|some)?\s*(?:look|think|chat|word|"
                     r"question|problem|issue|moment|minute|second|call|meeting|mistake|feeling|sense|idea|clue)\b"
                     r"|\b(?:make|makes|made)\s+sense\b"
                     # "I just got back from New York": a journey home, no expense got, no claim opened
                     r"|\b(?:got|get|gets|getting|came|come|coming)\s+back\s+(?:from|home|to)\b"
                     # "186,40 € (paid in euros)", "(I paid it by card)": how it was paid, an aside, no request to add
                     r"|\(\s*(?:i\s+|we\s+)?(?:paid|payed|charged|booked|bought)\b[^()]{0,60}\)"
                     # "OK so we start. Monday …": the user beginning to tell, no claim opened
                     r"|\b(?:we|let'?s|let\s+us|i'?ll|i\s+will)\s+(?:start|begin)(?=\s*(?:[.!,:;]|$|with\b|now\b|then\b))"
                     r"|\bnew\s+(?:york|jersey|delhi|zealand|orleans|england|year(?:'s)?|hampshire|mexico|haven)\b"
                     # "the team dinner gets paid by the department": someone else's payment, no request to add
                     r"|\b(?:is|was|are|were|gets|got|get|be|been|being)\s+(?:\w+\s+)?paid\s+(?=(?:directly\s+)?by\s+(?:the|my|our|his|her|their|a)\b)"
                     # "3 nights at 129 starting monday": when a stay began, not a claim opened
                     r"|\bstart(?:ing|s|ed)?\s+(?:on\s+|from\s+)?(?:mon|tue|wed|thu|fri|sat|sun|the\s+\d|\d|today|tomorrow|"
                     r"yesterday|next|last|this)"
                     r"|\b(?:is|are|was|were|looks?|seems?|it'?s|all)\s+(?:all\s+|now\s+|totally\s+|fully\s+)?correct\b"
                     # "anything missing before I submit?": when, not a request to submit
                     r"|\b(?:before|until|till|once|when)\s+(?:i|we)\s+(?:can\s+)?(?:submit|send|file|hand)\b",
                     re.IGNORECASE)


# words that only announce the expenses to come: "I want to put the expenses of my Milan trip in the claim"
_EXPENSES_ANNOUNCED = re.compile(r"\b(?:put|add|enter|log|record|do)\s+(?:in\s+)?(?:all\s+)?(?:the|my|these|those)\s+"
                                 r"(?:expenses|receipts|costs)\b", re.IGNORECASE)
# what follows told as the receipts of a day: "Here are the receipts from Wednesday", "And these are Tuesday 24 Nov's",
# "my expenses of 24.11"
RECEIPTS_OF_A_DAY = re.compile(r"\W*(?:(?:and|so|ok|okay|now|right|then)\W+)*(?:here\s+(?:are|is|come|comes)|these\s+are|below\s+(?:are|is)|"
                                r"(?:and\s+)?now|next)?\s*(?:the\s+|my\s+|all\s+(?:the\s+|my\s+)?|some\s+)?(?:receipts|expenses|costs|"
                                r"things|items|bits|ones)\s+(?:from|of|for|on)\s+(?:the\s+)?[^\W_][\w. /-]{1,30}?\s*", re.IGNORECASE)
def headed_as_receipts(message: str) -> bool:
    """Does the message (after a first sentence of greeting) open with "Here are the receipts from Wednesday:"?"""
    head = re.match(r"^\W*(?:[^.!?\n]*[.!?]\s+)?([^:\n]{3,60}):", message)
    return head is not None and RECEIPTS_OF_A_DAY.fullmatch(head.group(1)) is not None


# a request for a new line before what it is: "Add a new line: hotel, 2 nights at 128 EUR per night, check-in 3 Dec"
_NEW_LINE_ASKED = re.compile(r"\W*(?:(?:please|pls|kindly|can\s+you|could\s+you)\s+)?(?:add|create|make|enter|put)\s+(?:a\s+|one\s+)?"
                             r"(?:new\s+)?(?:line|item|entry|expense|row)(?:\s+(?:to|on|in)\s+(?:the|my|this)\s+claim)?"
                             r"(?:\s+(?:please|pls))?\W*", re.IGNORECASE)
# what the user says of the things they told: "They are two separate things", "those were different expenses"
_SEPARATE_THINGS = re.compile(r"\W*(?:(?:no|sorry|ok|so)\W+)*(?:they|those|these|it|both|all|both\s+of\s+them|all\s+of\s+them)\s*"
                              r"(?:are|were|'re|is|was)\s+(?:(?:two|2|three|3|both|all|a)\s+)?(?:separate|different|distinct|"
                              r"new)(?:\s+(?:things?|items?|expenses?|lines?|ones?|costs?))?\W*", re.IGNORECASE)
# a request to add that names nothing of its own: "Please add.", "kindly add the same", "add them pls"
_BARE_ADD = re.compile(r"\W*(?:(?:so|and|then|ok|okay)\s+)?(?:(?:please|pls|plz|kindly)\s+)?(?:add|enter|put|include)"
                       r"(?:\s+(?:it|them|this|these|that|those|the\s+same|same|all|both|(?:it|them)\s+(?:in|on|to)\s+(?:the\s+)?claim))?"
                       r"(?:\s+(?:please|pls|plz|too|also|as\s+well))?\W*", re.IGNORECASE)
# a label that says a question follows: "Question:", "Also one doubt —", "quick q:"
_ASKED_LABEL = re.compile(r"\W*(?:(?:and|also|oh|ok|so)\s+)*(?:(?:a|one|quick|small|last|another)\s+)*(?:question|q|doubt|query)\s*"
                          r"(?:for\s+you\s*)?[:\-–—]+\s*", re.IGNORECASE)
_STARTING_DAY = re.compile(r"\b(?:starting|started|start)(?=\s+(?:on\s+|from\s+)?(?:the\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun)"
                           r"[a-z]*|\d+|last|this|that)\b)")
_PLACE_NEW = re.compile(r"\b(?:from|to|at|in|into|near|via|the|of|around|outside)\s(New)(?=\s+(?!(?:Claim|Expense|Report|One|"
                        r"Trip)\b)[A-Z](?![^,.;:!?]{0,30}\b(?:claim|trip|report)\b))")
_QUOTED_NAME = re.compile(r"\"[^\"]{1,120}\"|“[^”]{1,120}”|„[^“”]{1,120}[“”]|«[^»]{1,120}»")


def verb_of(core: str) -> tuple[str | None, int]:
    """The act family of the first action verb in ``core`` and where it stands (-1: none)."""
    lowered = _IDIOMS.sub(lambda m: " " * len(m.group(0)), core.lower())
    # a name in quotes holds no request ('call it "NYC Ad Week"' asks for no "add")
    lowered = _QUOTED_NAME.sub(lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[-1], lowered)
    for m in _PLACE_NEW.finditer(core):  # "from New Street", "to New York": a place's name, no request for a new claim
        lowered = lowered[:m.start(1)] + "   " + lowered[m.start(1) + 3:]
    for m in _STARTING_DAY.finditer(lowered):  # "three nights starting on the Monday": when, no claim opened
        lowered = lowered[:m.start()] + " " * (m.end() - m.start()) + lowered[m.end():]
    best: tuple[int, str | None] = (-1, None)
    for family, verbs in lexicon.VERBS.items():
        for verb in verbs:
            m = word_search(verb, lowered, r"\w'-")
            if m and (best[0] < 0 or m.start() < best[0]):
                best = (m.start(), family)
    for typo, verb in lexicon.VERB_TYPOS.items():
        m = word_search(typo, lowered, r"\w'-")
        if m and (best[0] < 0 or m.start() < best[0]):
            best = (m.start(), next(f for f, vs in lexicon.VERBS.items() if verb in vs))
    if best[0] < 0:
        best = _near_verb(core) or best
    if best[0] < 0 and (m := re.search(r"\b(?:a|one)\s+(?:new\s+)?claim\s+(?:called|named|titled|entitled)\b", lowered)):
        best = (m.start(), "open")  # "need a claim called Paris offsite"
    if best[0] < 0 and (m := re.match(r"^\W*(?:(?:a|new)\s+)*claim\s*[:,-]?\s*[\"“]", lowered)):
        best = (m.start(), "open")  # 'claim "Stockholm datacenter" SEK': a claim, named in quotes
    if best[0] < 0 and re.match(r"^(?:spent|paid|expense)\b(?!\s+(?:claim|report))", lowered):
        best = (0, "add")
    m = re.search(r"(?<![\w'-])take\s+(?:[\w'.,€$£-]+\s+){1,4}?(?:off|out)\b|(?<![\w'-])get\s+rid\s+of\b", lowered)
    if m and (best[0] < 0 or m.start() < best[0]):
        best = (m.start(), "remove")
    if best[1] == "submit" and lowered[best[0]:].startswith(("send", "forward")) and not _APPROVAL_CONTEXT.search(
            lowered):
        return None, -1
    return best[1], best[0]


_FUZZY_VERBS = {v: family for family, verbs in lexicon.VERBS.items() for v in verbs if " " not in v and len(v) >= 5}


def _near_verb(core: str) -> tuple[int, str | None] | None:
    """A misspelt action verb ("chnge", "delte", "submitt"): one edit from exactly one verb family, and
    not a word the lexicon knows as something else."""
    first = re.match(r"[^\w]*", core).end()  # the first word, when the text starts with one ("Chnge the taxi …")
    for m in re.finditer(r"[a-z]{4,}", core.lower()):
        word = m.group(0)
        if core[m.start()].isupper() and m.start() != first:
            continue  # "30.11.2026 | Stara Kamienica | dinner": a name, not "start" misspelt
        if word in lexicon.CATEGORY_WORDS or word in lexicon.FILLER or word in lexicon.COMMON_WORDS or (
                word in lexicon.GENERIC_TITLE_WORDS) or known_word(word):  # "summit" is one letter from "submit"
            continue
        families = {family for verb, family in _FUZZY_VERBS.items() if DamerauLevenshtein.distance(word, verb) <= 1}
        if len(families) == 1:
            return m.start(), families.pop()
    return None


_APPROVAL_CONTEXT = re.compile(r"\b(?:for\s+(?:approv\w*|review|sign-?off)|to\s+(?:my\s+|the\s+)?(?:approver|manager|boss|finance)|"
                               r"to\s+approv\w*|send\s+(?:it\s+)?now\s*$|send\s+(?:my|the|this)\s+claim\b|"
                               r"to\s+(?:be\s+)?approved?|off|in|(?:it|the\s+claim|my\s+claim|this\s+claim|the\s+\w+\s+claim)"
                               r"(?:\s+(?:now|please|pls|today))?\s*$)\b",
                               re.IGNORECASE)


def verb_hits(core: str) -> list[tuple[int, frozenset[str]]]:
    """Every action verb in ``core``: (position, the act families it can name), overlaps merged.

    A capitalised word inside the text is a name ("dinner at Drop Inn"), not a verb.
    """
    lowered = core.lower()
    raw: list[tuple[int, int, str]] = []
    for family, verbs in lexicon.VERBS.items():
        for verb in verbs:
            for m in word_finditer(verb, lowered, r"\w'-"):
                raw.append((m.start(), m.end(), family))
    for typo, verb in lexicon.VERB_TYPOS.items():
        for m in word_finditer(typo, lowered, r"\w'-"):
            raw.append((m.start(), m.end(), next(f for f, vs in lexicon.VERBS.items() if verb in vs)))
    for m in re.finditer(r"(?<![\w'-])take\s+(?:[\w'.,€$£-]+\s+){1,4}?(?:off|out)\b|(?<![\w'-])get\s+rid\s+of\b", lowered):
        raw.append((m.start(), m.end(), "remove"))
    hits: list[tuple[int, int, set[str]]] = []
    for start, end, family in sorted(raw):
        word = core[start:end]
        if start > 0 and word[:1].isupper():
            continue
        if family == "submit" and word.lower().startswith(("send", "forward")) and not _APPROVAL_CONTEXT.search(core):
            continue
        if word.lower() == "plus":
            continue
        if family == "open" and word.lower() in ("starting", "started", "start") and re.match(
                r"\s+(?:on\s+|from\s+)?(?:the\s+)?(?:mon|tue|wed|thu|fri|sat|sun|\d|last|this|that)", lowered[end:]):
            continue  # "hotel €165 a night for 2 nights starting Tuesday": when the stay began, no claim opened
        if hits and start < hits[-1][1]:
            hits[-1][2].add(family)
            hits[-1] = (hits[-1][0], max(hits[-1][1], end), hits[-1][2])
        else:
            hits.append((start, end, {family}))
    return [(start, frozenset(families)) for start, _, families in hits]


def conflicting_verbs(core: str) -> bool:
    """Does the clause name two different kinds of act ("submit remove", "withdraw open")?"""
    hits = verb_hits(core)
    return any(not (a & b) for i, (_, a) in enumerate(hits) for _, b in hits[i + 1:])


def strip_leading(text: str) -> tuple[int, str]:
    """Drop connectors and politeness at the start: (how many characters went, the rest)."""
    m = LEADING.match(text)
    cut = m.end() if m else 0
    return cut, text[cut:]


# "should be" as people type it: "shd be", "shld b", "shoud be"
SHOULD = r"(?:should|shoud|shuold|shuld|sould|shoudl|shd|shld)"

# what only an edit says: "the hotel should be 160", "the taxi was actually 30", "the receipt says 172"
STRONG_UPDATE = re.compile(
    rf"\b(?:{SHOULD}\s+(?:be|b|say|read|have\s+been)|{SHOULD}(?:['’]?ve|a|\s+of)\s+been|was\s+actually|is\s+actually|was\s+really|is\s+wrong|"
    r"needs\s+to\s+be|must\s+be|ought\s+to\s+be|says|said|shows|showed|reads)\b",
    re.IGNORECASE)

# a price said with the one it replaces: "was 1,580 yen, not 1,850", "was CHF 87.00 and not 78.00", "war 119,90 nicht 129,90"
_WAS_NOT = re.compile(r"\b(?:was|were|is|cost)\s+(?:[A-Z]{3}\s*|[€$£¥]\s*)?\d[\d.,']*\s*(?:[^\W\d_]{1,5}\.?)?\s*,?\s*"
                      r"(?:and\s+|but\s+)?not\s+(?:[A-Z]{3}\s*|[€$£¥]\s*)?\d", re.IGNORECASE)
# a line named by its amount alone, before what it should be: "the 42 one", "that 13.90 entry", "the €26 item"
LINE_BY_ITS_AMOUNT = re.compile(r"^(?:(?:and|also|oh|ok|okay|sorry)[\s,]+)*(?:the|that|this|my)\s+[€$£¥]?\d+(?:[.,]\d{1,2})?"
                                 r"\s*(?:€|eur|euros?)?\s+(?:one|line|item|entry|expense|receipt)\b")
# what the line named by its amount is: a figure alone (perhaps "not" the old one), or a day alone
_ITS_VALUE = re.compile(r"\s+(?:is|was|should\s+be|should\s+have\s+been|=|s/b)\s+(?:actually\s+|really\s+|in\s+fact\s+)?"
                        r"(?:(?P<amount>(?:[€$£]\s?)?\d+(?:[.,]\d{1,2})?\s*(?:€|eur|euros?)?(?:\s*,?\s*not\s+(?:[€$£]\s?)?"
                        r"\d+(?:[.,]\d{1,2})?\s*(?:€|eur|euros?)?)?)|(?:on\s+)?(?P<day>[^,;!?]{2,24}?))\W*$", re.IGNORECASE)


def line_by_its_amount(core: str, today) -> bool:
    """"the 42 one is 24", "the 13.90 one was actually on 25 Nov": a line named by its amount, then only its new
    figure or its new day (never "the 42 one is short by 5", "… is dinner for 4", "… is 24 I think")."""
    one = LINE_BY_ITS_AMOUNT.match(core.lower())
    value = _ITS_VALUE.match(core, one.end()) if one else None
    if value is None:
        return False
    if value.group("amount"):
        # ("the 26 one was 1.12", "is 25.11": a day and its month, or a figure? asked, never taken as the amount)
        return not re.fullmatch(r"\s*(?:[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\s*", value.group("amount"))
    days = [d for d in find_dates(core, today) if d.start >= value.start("day")]
    return len(days) == 1 and days[0].value is not None and not value.group("day").replace(days[0].text, "").strip(" .")


_UPDATE_SHAPE = re.compile(
    rf"\b(?:{SHOULD}\s+(?:be|b|say|read|have\s+been)|{SHOULD}(?:['’]?ve|a|\s+of)\s+been|was\s+actually|is\s+actually|was\s+really|is\s+wrong|"
    r"was|is|isn['’]?t|wasn['’]?t|needs\s+to\s+be|must\s+be|ought\s+to\s+be|says|said|shows|showed|reads|=)\b",
    re.IGNORECASE)


# a line named by its kind, then the route it took: "the taxi was from the airport to the hotel", "the cab on monday
# was to the client's office because …"
_ROUTE_OF_A_LINE = re.compile(r"^(?:the|my|that|this)\s+(?:[\w'’-]+\s+){0,3}?(?:taxi|cab|uber|lyft|bolt|ride|train|"
                              r"flight|bus|tram|metro|ferry)\s+(?:[\w'’-]+\s+){0,3}?(?:was|went|is)\s+(?:from|to)\s+\S",
                              re.IGNORECASE)


_TAKEN_BACK_PRICE = re.compile(r"^\W*(?:no|nope|sorry|sry|oops|no\s+sorry|sorry\s+no|no\s+no|no\s+wait|wait)\W+(?:[€$£]\s?)?\d",
                               re.IGNORECASE)
# a take-back, why, and the price said again: "no wait, I had the Sparpreis, 89.90"
_TAKEN_BACK_THEN_PRICE = re.compile(r"^\W*(?:no\s+wait|no\s+sorry|sorry\s+no|wait\s+no|actually\s+no|no,?\s+actually|oops)\b"
                                    r"(?P<why>[^.;!?\d]{0,60}?)[\s,:-]*(?:[€$£]\s?)?\d+(?:[.,]\d{1,2})?\s*(?:€|eur|euros?)?\W*$",
                                    re.IGNORECASE)
# a row of notes: its day first, its price last ("12/2 United DEN-IAH 181.40", "11/30 Uber DEN to hotel 64.20")
_DATED_ROW = re.compile(r"\s*\d{1,2}[/.]\d{1,2}(?:[/.](?:20)?\d\d)?\.?\s+[^\n]*?[^\W\d_][^\n]*?\s(?:[€$£]\s?)?\d+(?:[.,]\d{1,2})?"
                        r"\s*(?:€|eur|usd|gbp|chf|\$|£)?\s*", re.IGNORECASE)


def _priced_thing_apart(last: Clause, kind: str, text: str, today) -> bool:
    """"Vignette for Austria (10 days) 12,40 EUR. Lunch at the Rasthof 16,90": a price of a thing of no kind the
    interpreter knows, then a sentence with its own kind and price: two expenses (the first is asked its kind), never
    one with two amounts."""
    return (last.kind == "value" and kind == "item" and _priced(text, today) and _priced(last.text, today)
            and bool([c for c in find_categories(text) if not c.weak])
            and not [c for c in find_categories(last.text) if not c.weak]
            and re.match(r"\W*(?:(?:oh|ah|and|also|plus|then)\W+)*(?:(?:a|an)\s+)?[^\W\d_]{3,}", text, re.IGNORECASE) is not None
            and re.match(r"\W*(?:(?:oh|ah|and|also|plus|then)\W+)*(?:the|that|this|my|our|it|its|it's)\b", text,
                         re.IGNORECASE) is None
            and re.match(r"\W*(?:[^\W\d_]{3,})", last.text) is not None
            and re.match(r"\W*(?:it|that|this|was|is|the\s+same)\b", last.text, re.IGNORECASE) is None)


def _another_thing(text: str, before: str) -> bool:
    """Does ``text`` name a thing the words ``before`` did not: a kind of expense of its own, or a name ("that
    Italian on Wednesday")? "My ticket was first class, 119" after "Train 89" names the same one."""
    own = {plain(c.text) for c in find_categories(text) if not c.weak}
    if own:
        return not own & {plain(c.text) for c in find_categories(before) if not c.weak}
    return bool(re.search(r"(?<!^)(?<![.!?]\s)\b(?-i:[A-Z])[a-z]{2,}", text.strip()))


# words that add to what was told rather than correct its price
_SOMETHING_MORE = re.compile(rf"\b(?:{lexicon.SOMETHING_MORE}|and|one)\b", re.IGNORECASE)
# an aside with its own subject, told after a request: "my phone swapped the numbers", "I always do that"
_ASIDE = re.compile(r"^\W*(?:(?:and|because|since|as|cos|so)\s+)?(?:my|our|i|we|i'?ve|i'?d|i'?m|i\s+always|i\s+just)\s+"
                    r"(?!(?:want|need|would|'d\s+like|like|forgot|also)\b)[a-z]", re.IGNORECASE)
# why a figure was corrected, told after the correction: "there was a glass of wine on it that I took off"
_WHY_THE_FIGURE = re.compile(r"^\W*(?:(?:and|because|since|as|so|cos)\s+)?there\s+(?:was|were)\s+[^.;!?]*\b(?:on\s+it|in\s+it|"
                             r"on\s+the\s+(?:bill|receipt)|included|took\s+(?:it\s+)?off|taken\s+off|removed|deducted|"
                             r"(?:not|n't)\s+(?:claim|claiming|add))", re.IGNORECASE)
# when a claim is wanted, said after the request to send it: "they want it today", "my boss needs it by Friday",
# "deadline is friday", "it's due tomorrow"
_WANTED_BY = re.compile(r"^\W*(?:(?:and|because|since|as|cos|coz|so|but)\s+)?(?:(?:(?:they|he|she|finance|accounts|hr|"
                        r"(?:my|our|the)\s+[^\W\d_]+)\s+(?:want|wants|need|needs|expect|expects)\s+(?:it|them|this|that)|"
                        r"(?:the\s+)?deadline\s+is|it'?s\s+due|(?:it\s+)?(?:is\s+)?due)\s+)"
                        r"(?:(?:by|on|before)\s+)?(?:today|tonight|tomorrow|tmrw|asap|now|soon|urgently|this\s+(?:week|morning|"
                        r"afternoon|evening)|(?:the\s+)?end\s+of\s+(?:the\s+)?(?:day|week|month)|eod|eow|(?:mon|tues|wednes|thurs|"
                        r"fri|satur|sun)day|mon|tue|wed|thu|fri)\W*$", re.IGNORECASE)
# a sentence that says a line is right as it is: "the return one 3/12 is ok", "the hotel is fine"
# a figure said to be within (or over) what is allowed: "so 139 per night is fine then", "60 a day is ok, right"
FIGURE_JUDGED = re.compile(r"\d[\d.,]*\s*(?:€|eur\b|euros?\b)?\s*(?:/\s*night|(?:per|a)\s+(?:night|day|person|head)|each)?\s+"
                            r"(?:is|are|'s|was|would\s+be|seems?|looks?|should\s+be)\s+(?:still\s+|then\s+|also\s+)?"
                            r"(?:fine|ok|okay|good|within|under|below|over|above|allowed|acceptable|too\s+much|in\s+policy|"
                            r"inside|covered)\b", re.IGNORECASE)
_LEFT_AS_IS = re.compile(r"^\W*(?:and\s+|but\s+)?(?:the|that|this|my)\s+[^.;!?\n]{1,40}?\b(?:is|was|are|were)\s+(?:ok|okay|fine|"
                         r"right|correct|good|all\s+right)\W*$", re.IGNORECASE)
# the trip told before what is asked about it: "I'm back from 3 days in Vienna", "so I was in Lyon for the fair"
# something the user says is not theirs to claim: "… so I am not claiming it", "I won't claim that"
NOT_CLAIMED = re.compile(r"\b(?:so|and|therefore|hence|which\s+is\s+why)?\s*(?:i|we)\s*(?:am|'m|are|'re|will|'ll|shall)?\s*"
                         r"(?:not|n't|never)\s+(?:be\s+)?(?:claim|claiming|includ\w+|add|adding|put|putting|expens\w+)\s+"
                         r"(?:it|that|them|this|those)\b|\b(?:i|we)\s+(?:won'?t|don'?t|do\s+not|will\s+not)\s+(?:claim|include|"
                         r"add|expense)\s+(?:it|that|them|this|those)\b", re.IGNORECASE)
# what the message is about to tell, announced: "I should like to add the remaining receipts to my claim"
_RECEIPTS_TO_COME = re.compile(r"\b(?:add|put|enter|log|file|claim|submit)\s+(?:in\s+)?(?:the\s+|my\s+|some\s+)?(?:remaining|rest\s+of"
                               r"(?:\s+the|\s+my)?|other|last|few\s+more|more|following|outstanding)\s+(?:receipts?|expenses?|costs?|"
                               r"items?|bits)\b(?!\s+(?:of|from)\s+(?:the\s+)?\w+\s+(?:claim|trip)\b)", re.IGNORECASE)
# a thing someone else paid for: "dinner was on the client", "the reception was hosted by the department"
_PAYERS_WORDS = (r"client|clients|customer|customers|company|host|hosts|department|dept|organi[sz]ers?|partner|partners|"
                 r"employer|office|firm|boss|colleague|colleagues|team|university|school|project|sponsor|sponsors|"
                 r"colega|collega|kollege|kollegin|coworker|co-worker|manager|supplier|suppliers|vendor|agency|publisher|editor|"
                 r"organisation|organization|travel\s+desk|travel\s+agency|travel\s+team")
_PAYERS = _PAYERS_WORDS + r"|house|them|him|her|us"  # ("was on the house", "was on them")
OTHERS_PAID_IT = re.compile(rf"\b(?:was|were|is|are|got|gets|been)\s+(?:(?:on|paid\s+for\s+by|paid\s+by|covered\s+by|hosted\s+by|catered\s+by|"
                            rf"picked\s+up\s+by|sponsored\s+by|comped\s+by|taken\s+care\s+of\s+by)\s+(?:the\s+|my\s+|our\s+|"
                            rf"their\s+|his\s+|her\s+)?(?:{_PAYERS})\b|(?:comped|free|complimentary)\b)"
                            # "lunch wed the customer paid so dont add", "my manager Ms. Keller paid with her card", "she
                            # paid, so nothing", "Lunch was provided by the conference", "went on the company fuel card"
                            rf"|\b(?:the|my|our|their|his|her|a)\s+(?:{_PAYERS_WORDS}|conference|organiser|organizer)"
                            rf"(?:\s+(?-i:[A-Z][\w.'’-]*)){{0,3}}\s+(?:paid|covered|picked\s+up|took\s+care\s+of|treated)\b"
                            # "one of the clients bought it for me", "the client got that one"
                            rf"|\b(?:the|my|our|their|his|her|a)\s+(?:{_PAYERS_WORDS})\s+(?:bought|got|paid\s+for|invited\s+me\s+to)\s+"
                            rf"(?:it|that|this|them|those)\b"
                            rf"|(?:^|[,;.]\s*|\b(?:so|and|but)\s+)(?:she|he|they)\s+paid\b"
                            # "the museum paid it directly", "the press office paid me back for it", "the charity card paid
                            # for those", "the hosts have reimbursed it", "my cofounder paid it": whoever it was, told with
                            # what they paid (never "the hotel I paid": a person's own payment)
                            rf"|\b(?:the|my|our|their|his|her)\s+(?:(?!(?:i|we|you)\b)[^\W\d_][\w'’-]*\s+){{1,3}}?"
                            rf"(?:has\s+|have\s+|had\s+|already\s+|also\s+)*(?:paid|covered|reimbursed|refunded)\s+"
                            rf"(?:(?:me|us)\s+back|it|that|this|them|those|everything|all|for\s+(?:it|that|this|them|those|"
                            rf"everything|me|us))\b"
                            # "- remove Wed taxi, colleague paid", "I got refunded", "the congress gave us free passes"
                            rf"|(?:^|[,;.]\s*|\b(?:so|and|but)\s+)(?:{_PAYERS_WORDS})\s+paid\b"
                            rf"|\b(?:i|we)\s+(?:got|was|were|have\s+been|'ve\s+been|already\s+got)\s+(?:refunded|reimbursed|"
                            rf"paid\s+back)\b|\bgave\s+(?:us|me)\s+(?:a\s+|the\s+)?free\b"
                            rf"|\b(?:was|were|is|are)\s+(?:provided|included|covered|paid)\s+(?:by|in|with)\s+(?:the\s+)?"
                            rf"(?:conference|event|ticket|fee|registration|organi[sz]ers?|hotel|room\s+rate)\b"
                            rf"|\b(?:was|were)\s+(?:provided|laid\s+on)\b(?!\s+(?:for|at)\s)"  # ("lunch was provided thank god")
                            rf"|\b(?:breakfast|lunch|dinner|meals?|food|coffee)\s+(?:was|were|is|are)\s+(?:also\s+)?included\b(?!\s+in\s+(?:the\s+)?"
                            rf"(?:claim|total|list))"  # ("workshop all day, lunch is included")
                            rf"|\b(?:was|were)\s+(?:invited|treated|offered)\s+by\b"  # ("Lunch was invited by supplier")
                            rf"|\b(?:went|was|were|is|put|charged)\s+on\s+(?:the\s+|our\s+|a\s+)?(?:company|corporate|"
                            rf"fuel)(?:'s)?\s+(?:[\w-]+\s+)?card\b", re.IGNORECASE)
# how it was paid, by someone else: "…, paid at checkout by my colleague" (asked about by the audit when it takes back)
PAID_BY_ANOTHER = re.compile(rf"^\W*(?:and\s+|but\s+)?(?:was\s+)?paid\s+(?:[\w-]+\s+){{0,3}}?by\s+(?:my|the|our|his|her|their|a)\s+"
                              rf"(?:{_PAYERS_WORDS})\b", re.IGNORECASE)
# "I travelled Monday to Wednesday this week", "we were there from Tuesday to Thursday": the trip's days, told
TRAVELLED_DAYS = re.compile(
    r"^\W*(?:(?:so|and|well|ok)\W+)*(?:"
    # "I travelled Monday to Wednesday", "we were away tue - thu", "I travelled from Basel to Zurich on 17 November"
    r"(?:i|we)\s+(?:travell?ed|was\s+there|were\s+there|was\s+away|were\s+away|stayed)\s+(?:from\s+)?(?:on\s+)?(?:the\s+)?"
    r"[^\W\d_]+,?(?:\s+[^\W\d_]+\s+\d{1,2}(?:st|nd|rd|th)?)?\s+(?:to|until|till|through|thru|-|–)\s+"  # ("Monday, November 16 through …")
    # "I was down Tuesday to Thursday this week", "I was in Wroclaw from Monday 9 until Wednesday 11", "I went to New York
    # 12/9 ~ 12/11 for workshop", "trip was Wed Dec 2 to Fri Dec 4": a day, then the day the trip ended
    r"|(?:(?:i|we)\s+(?:had\s+)?(?:travell?ed|was|were|went|been|stayed)(?:\s+(?:there|away|down|up|over|out))?"
    # ("I was at the nursing congress Wed 18 to Fri 20 Nov": the place in words of any case, never a day's)
    r"(?:\s+(?:in|to|at)\s+(?:the\s+)?[^\W\d_][\w'’.-]*(?:\s+(?!(?:mon|tue|wed|thu|fri|sat|sun|from|on|between|since)[a-z]*\b)"
    r"[^\W\d_][\w'’.-]*){0,3})?(?:\s+for\s+[^\W\d_]+(?:\s+[^\W\d_]+){0,4})?"
    # "the training was 9. 11. – 11. 11.", "Trip 1–3 Dec.": the time of what the claim is for
    r"|(?:the\s+|my\s+|our\s+)?(?:business\s+|[^\W\d_]+\s+)?(?:trip|training|conference|course|visit|workshop|fair|meeting|"
    r"audit|seminar|stay|event)\s+(?:was|is|ran|went|lasted)|^(?:the\s+)?trip\s*:?(?=\s+\d))"
    r"\s+(?:from\s+|between\s+)?(?:on\s+)?(?:the\s+|this\s+|last\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|(?:[^\W\d_]{3,10}\s+)?\d|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)"
    # (a dot within a day, "2.11–4.11", "18.11. to 20.11.", is no sentence's end)
    r"(?:[^.;!?]|\.(?=\s?\d)|\.(?=\s*(?:to\b|until\b|till\b|through\b|thru\b|-|–|~))){0,20}?"
    r"\s*(?:\b(?:to|until|till|through|thru)\b|-|–|~)\s*)", re.IGNORECASE)
TRIP_TOLD = re.compile(r"^(?:[^\W\d_]{2,12}[,!]+\s+)?(?:(?:hi|hey|hello|so|ok|okay|right|well|and)\W+)*(?:(?:i'?m|i\s+am|we'?re|we\s+are|i|we|just|finally|"
                       r"now)\s+)*(?:back|returned|home|got\s+back|came\s+back)\s+(?:home\s+)?from\b|"
                       r"^(?:[^\W\d_]{2,12}[,!]+\s+)?(?:(?:hi|hey|hello|so|ok|okay|right|well|and)\W+)*(?:i|we)\s+(?:was|were|went|"
                       r"travell?ed|flew\s+out)\s+"
                       r"(?:to|in|at|for|over|up|down|there)\b", re.IGNORECASE)


def classify(text: str, *, question: bool, today) -> tuple[str, str | None]:
    """What one fragment (or a merged clause) is, and the act family its verb names."""
    _, core = strip_leading(text.strip())
    core = core.strip(" ,.;:!-")
    if not core:
        return "context", None
    lowered = core.lower()
    if re.fullmatch(r"(?:(?:please|pls|but|so)\s+)*(?:do\s+not|don'?t|dont)\s+(?:add|include|claim|put)(?:\s+(?:it|that|this))?(?:\s+"
                    r"(?:please|pls))?", lowered):
        return "unknown", None  # "…, the evening taxi, do not add": which thing it names is read whole, or asked
    if not re.search(r"\d", core) and re.search(r"\b(?:do\s+not|don'?t|dont|not\s+to|never)\s+(?:add|include|claim|put)\b",
                                                lowered) and re.match(r"(?:(?:sorry|oops|ah|oh|and|but)[\s,]+)*(?:the|that|my)\s",
                                                                      lowered):
        return "retract", None  # "Sorry, the lunch please do not add": a take-back of what it names, never an addition
    if (limit := lexicon.LIMIT_TOLD.search(lowered)) and not re.search(
            r"\d", lowered[:limit.start()] + lowered[limit.end():]) and not find_categories(re.sub(
                     r"\b(?:meal|meals|hotel|food|daily|day|night|nightly|taxi)\s+(?:limit|cap|allowance|budget)\b", "", lowered)):
        return "context", None  # "I was over 50 on the meal limit": the limit, no expense of 50
    if not re.search(r"\d", core) and _EXPENSES_ANNOUNCED.search(lowered) and not find_categories(core):
        return "context", None  # "I want to put the expenses of my Milan trip in the claim I have already": what comes next
    if re.fullmatch(r"(?:(?:hmm+|um+|ok|okay|so|and|right|oh|now)[\s,]+)*what\s+else(?:\s+(?:is\s+there|was\s+there))?", lowered):
        return "context", None  # "hmm what else": thinking aloud, no question to answer
    if re.fullmatch(r"(?:(?:and|so|then|now)\s+)?(?:on\s+)?the\s+(?:first|second|third|last|final|next|other)\s+day|"
                    r"(?:and\s+)?(?:the\s+)?same\s+(?:for|with|goes\s+for)\s+(?:line\s+\d+|the\s+\w+)(?:\s+(?:please|pls))?",
                    lowered):
        return "context", None  # "On the last day, 2/12, I took …", "Same for line 5 please: change …": a lead-in
    if not re.search(r"\d", core) and (re.match(r"(?:(?:ok|okay|so|right|now)[\s,]+)*let'?s\s+(?:finish|do|continue|complete|"
                                               r"work\s+on|get\s+on\s+with|go\s+on\s+with)\b", lowered) or re.search(
            r"\b(?:is|'s|are|was|were)\s+already\s+(?:in|on|there|added|done|entered)\b", lowered)):
        return "context", None  # "let's finish the madrid claim. the flight's already in": where we are, no request
    if question and CHECK_ASKED.search(core) and not find_amounts(core):
        return "question", None  # "can you confirm the hotel is on there?": asked, never a request
    if HOLD.search(core):
        return "hold", None
    if MARKER.fullmatch(core + " ") or MARKER.fullmatch(core):
        return "marker", None
    if RETRACT.match(core):
        return "retract", None
    marker = MARKER.match(core)
    verb, at = verb_of(core)
    dates = find_dates(core, today)
    refs = find_line_refs(core)
    masked = mask(core, [(d.start, d.end) for d in dates] + [(r.start, r.end) for r in refs])
    amounts = find_amounts(masked)
    categories = find_categories(masked)
    merchants = find_merchants(masked)
    if TRIP_TOLD.match(lowered) and verb is None and not refs and not [a for a in amounts if a.marked or a.currency] and all(
            c.category == "other" for c in categories) and not any(m.category for m in merchants) and (
            not amounts or dates):  # ("back from Stockholm, 3 days at the Nordic Supplier Summit, 10-12 November")
        return "context", None  # "I am back from 3 days in Vienna", "we were in Lyon for the fair": the trip, told
    if marker and not refs and (amounts or dates or categories or _currency_only(core[marker.end():])):
        rest = core[marker.end():]
        rest_verb, _ = verb_of(rest)
        names_a_line = bool(re.match(r"^\s*(?:the|my|that|this)\s+\S+", rest, re.IGNORECASE)) and bool(
            _UPDATE_SHAPE.search(rest))
        if (rest_verb is None and not names_a_line) or re.match(r"^\s*make\s+(?:it|that)\b", rest, re.IGNORECASE):
            return "correction", None
        if names_a_line and rest_verb is None:
            return "act", "update"
    if marker:
        core = core[marker.end():]
        lowered = core.lower()
        verb, at = verb_of(core)
    if dates and not amounts and not categories and not merchants and re.match(
            r"^(?:it|that|this|which|they|these)\s+(?:was|were|is|are)\s+(?:(?:all|both)\s+)?(?:paid|bought|booked|incurred|"
            r"spent|charged|on|from|dated)\b", lowered):
        return "value", None  # "It was paid on the 20th of November.": the day of the request before it
    if dates and not amounts and re.match(r"^(?:check(?:ed)?[\s-]*in(?:\s+(?:on|was))?|arriv(?:al|ed)(?:\s+on)?|"
                                          r"from(?:\s+the)?)\s*:?\s*\S", lowered) and not re.match(
                                              r"^check(?:ed)?[\s-]*in\s+(?:at|to)\s+", lowered):
        # (never "Checked in at the Premier Inn that evening": where, a stay of its own)
        return "value", None  # "…, check-in 23/11": the day of the stay before it
    if verb is None and re.match(r"^(?:the\s+)?(?:[\w'’&.-]+\s+){1,4}?(?:line|entry|item)\s*(?::|=|should|shd|must|is\b|"
                                 r"was\b|needs)", core, re.IGNORECASE) and (amounts or dates or categories):
        return "act", "update"  # "Hotel Cornavin line: 1 night, amount 238.00 CHF": a line, then its new values
    if not amounts and not dates and _ROUTE_OF_A_LINE.match(core):
        return "act", "update"  # "the taxi was from the airport to the hotel": what a line was (the note it needs)
    if not amounts and re.search(r"\b(?:may|might|could|must|would)\s+have\s+been\b|\b(?:was|were|been|is|are)\s+"
                                 r"(?:paid|covered|booked|settled)\s+by\b", lowered):
        return "context", None  # "it may have been paid by our host": a reason, not a request
    if not question and re.match(r"^(?:(?:it\s+)?(?:is|was|were|are|cost|costs|came\s+to)|it['’]?s)\s+(?:about\s+|around\s+)?"
                                 r"[€$£¥]?\d", lowered):
        return "value", None  # "the hotel is not 176, is 167": the value, its subject said before
    if re.match(r"^(?:(?:please|kindly|pls|can\s+you|could\s+you|would\s+you)\s+)*(?:confirm|state|give\s+me|tell\s+me|"
                r"show(?:\s+me)?|share|send\s+me|let\s+me\s+(?:see|have))\b.*\b(?:total|subtotal|sum|status|balance|"
                r"number\s+of\s+lines|how\s+many|list|summary|overview|breakdown|lines)\b", lowered) and not amounts:
        return "question", None  # "Please confirm the claim total."
    request = REQUEST_START.match(core)
    if request and re.match(r"^(?:\s*(?:kindly|please|pls|just|quickly)\b)*\s*(?:tell\s+me|let\s+me\s+know|explain|"
                            r"check\s+(?:whether|if|what|how|the)|confirm\s+(?:whether|if)|say\s+(?:whether|if)|"
                            r"(?:add|sum|tally|total)\s+up)\b", core[request.end():], re.IGNORECASE):
        return "question", None  # "could you kindly tell me whether I need a receipt for …": asked, not requested
    if not marker and not verb and not amounts and re.fullmatch(r"\s*(?:in|currency:?)?\s*(?:the\s+)?[A-Za-z ]{3,30}",
                                                               core) and (_currency_only(core) or currency_named(core)):
        return "value", None  # ", in Danish kroner": the currency of the request before it
    if not amounts and (kept := re.fullmatch(r"\s*(?:and\s+)?(?:(?:please|pls|also)\s+)?(?:put|keep|make|set|have|do)\s+(?:it|the\s+claim|"
                                             r"that|this)\s+(?:in|to|as)\s+(?:the\s+)?([A-Za-z ]{3,30})", core, re.IGNORECASE)) and (
            _currency_only(kept.group(1)) or currency_named(kept.group(1))):
        return "value", None  # "… and put it in DKK": the currency of the claim the request before it opens
    if verb is not None and re.match(r"^do\s+(?!(?:i|you|we|they|u|it|not)\b)", lowered) and verb_of(core[3:])[1] == 0:
        return "act", verb  # "do change it to 170": an emphatic request, not a question
    if QUESTION_START.match(core) and not request:
        if re.search(r"\b(?:my|the|all|any)\s+(?:open|current|draft)\s+claims\b|\b(?:are|is)\s+(?:still\s+)?open\b", lowered):
            return "question", None  # "which of my claims are still open?": open as a state, not a request
        if verb == "open" and "claim" in lowered and re.match(r"^(?:show|list)\b", lowered) is None:
            return "act", verb
        return "question", None
    if re.search(r"\bmake\s+(?:me\s+)?(?:one|a\s+(?:new\s+)?(?:claim|report|one)|a\s+new\s+one)\b", lowered):
        return "act", "open"  # "could you make one called Lyon onboarding training"
    if verb is not None:
        return "act", verb
    if question and not (amounts or dates or categories or merchants or refs):
        return "question", None
    if question and not amounts and re.search(r"\b(?:cap|caps|capped|limit|limits|max|maximum|allowance|policy|allowed|"
                                              r"covered|reimbursable|rules?)\b", lowered):
        return "question", None  # "hotel cap per night?": a policy asked about, its subject named
    if re.fullmatch(r"(?:(?:the|my|our|what'?s|whats|and)\s+)*(?:total|sum|subtotal|balance|status|summary|overview|"
                    r"lines|limits?|deadline)(?:\s+(?:so\s+far|now|please|pls|plz|thx|thanks|of\s+\w+(?:\s+\w+)?))*\W*",
                    lowered):
        return "question", None  # "ttl pls", "total now", "status?": a noun asks for that fact
    if question and not amounts and re.match(r"^(?:and|also|plus|what\s+about|how\s+about|for)\b", lowered):
        return "question", None  # "and for food per day?", "what about the taxi?": a follow-up question
    if not question and line_by_its_amount(core, today):
        return "act", "update"  # "the 42 one is 24, typo", "the 13.90 one was actually on 25 Nov": a line by its amount
    if (refs or categories or merchants) and amounts and re.search(r"\bto\s+[€$£¥]?\d", core, re.IGNORECASE) and re.match(
            r"^(?:the|line|item|entry|row|#)\b", lowered):
        return "act", "update"  # "… and the third one to 29", "… and the taxi to 30": a second edit, its verb said once
    if refs and not (amounts or dates or categories or merchants) and not (
            re.sub(r"\b(?:and|the|line|item|entry|row|#|too|also|as\s+well)\b", "", mask(core, [(r.start, r.end) for r in refs]),
                   flags=re.IGNORECASE).strip(" ,.&+")):
        return "item", None  # "… and line 3": one more line for the act before it
    if refs and (amounts or dates) and re.search(r"\b(?:date|day|amount|price|sum|merchant|category)\b", mask(
            core, [(d.start, d.end) for d in dates]), re.IGNORECASE) and not re.match(r"^(?:add|and\s+add)\b", lowered):
        return "act", "update"  # "ln3 date 23rd", "line 2 amount 45": a line, a field, its new value
    if not question and (refs or categories or merchants) and _UPDATE_SHAPE.search(core) and (
            amounts or dates or (categories and (refs or STRONG_UPDATE.search(core)))):
        if re.match(r"^(?:the|line|item|entry|row|my|that|this|it|#)\b", lowered) or refs or STRONG_UPDATE.search(core) or \
                _WAS_NOT.search(core):  # ("lunch at Narita was 1,580, not 1,850": the price it was, and the one said)
            return "act", "update"
    first = lowered.split()[0] if lowered.split() else ""
    if first in lexicon.UNKNOWN_ACTION_VERBS:
        return "unknown", None
    if categories or merchants:
        return "item", None
    if amounts or dates:
        return "value", None
    if re.fullmatch(rf"(?:for\s+)?(?:the\s+)?\d{{1,2}}\s+(?:{'|'.join(sorted(lexicon.QUANTITY_UNITS))}|of\s+us)", lowered):
        return "value", None  # "…team lunch at Figlmüller, 4 ppl, 112.60": how many, of what the clause before told
    if numbered_day(core) is not None:
        return "context", None  # "Day 2 was all on site": the trip's day of what is told next
    if re.search(r"\d", core):
        return "unknown", None
    words_ = re.findall(r"[a-z']+", lowered)
    if any(w in lexicon.UNKNOWN_ACTION_VERBS for w in words_[:3]):
        return "unknown", None
    return "context", None


def _currency_only(text: str) -> bool:
    words_ = re.findall(r"[A-Za-z]+", text)
    return bool(words_) and all(w.lower() in lexicon.CURRENCY_WORDS or w.lower() in ("in", "it", "make", "that", "please", "pls", "plz")
                                for w in words_) and any(w.lower() in lexicon.CURRENCY_WORDS for w in words_)


# --------------------------------------------------------------------------- splitting


# a pasted row of fields separated by semicolons: a day, then at least two more fields, one of them a figure
_ROW_LINE = re.compile(r"[ \t]*\d{1,4}[./-]\d{1,2}(?:[./-]\d{1,4})?\.?[ \t]*(?P<sep>[;|])[^;|\n]*(?P=sep)[^\n]*\d[^\n]*")


def _line_at(message: str, at: int) -> str:
    start = message.rfind("\n", 0, at) + 1
    end = message.find("\n", at)
    return message[start:end if end >= 0 else len(message)]


# a heading that says which money the rows after it are in: "Below ones are in DKK only:", "receipts in pounds:"
_IN_A_CURRENCY = re.compile(r"\b(?:in|paid\s+in|payed\s+in)\s+(?:[A-Z]{3}|euros?|dollars?|pounds?|francs?|kron[eo]r|kroner|"
                            r"zloty|złoty|crowns?|yen)\b", re.IGNORECASE)


def _rows_priced_in(rows: str, heading: str) -> bool:
    """Do the rows after a currency heading each say that currency ("90 DKK", "£25.00"), as the heading does?"""
    named = currencies_named(heading)
    mentions = currency_mentions(rows)
    return bool(named) and bool(mentions) and all(m.codes & named for m in mentions)


def sentences(message: str) -> list[tuple[int, int, bool]]:
    """(start, end, ends with "?") for each sentence of ``message``."""
    found: list[tuple[int, int, bool]] = []
    start = 0
    for m in _SENTENCE_END.finditer(message):
        if m.group(0).strip() in (";", "|") and _ROW_LINE.fullmatch(_line_at(message, m.start())):
            continue  # "17/11/2026; Lufthansa; flight HAM-FRA; 214.30", "30.11.2026 | Bolt | …": one pasted row's fields
        if m.group(0).startswith("."):
            before = message[start:m.start()].split()
            if before and before[-1].lower().rstrip(".") in _ABBREVIATIONS and not re.match(
                    r"\s*(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|"
                    r"day\s+\d)\b\.?\s*[:,(]", message[m.end():],
                    re.IGNORECASE):  # (a day's heading after it ends the sentence: "… to Fri 20 Nov. Wednesday: flight …")
                continue
        found.append((start, m.start(), "?" in m.group(0)))
        start = m.end()
    if start < len(message):
        found.append((start, len(message), False))
    found = [cut for s, e, q in found for cut in _after_a_title(message, s, e, q)]
    return [part for s, e, q in found if message[s:e].strip() for part in _asked_after(message, s, e, q)]


# a claim's name in quotes, then the first expense's day with no full stop between: 'can u start a claim "Berlin investor
# week" 🙏 mon 30/11 train … 79.90': the name ends a sentence (never '"Berlin" in GBP', '"Oslo" for the install')
_TITLE_THEN_A_DAY = re.compile(r"\b(?:claim|called|titled|named|title|name)\s*:?\s*(?:\"[^\"\n]{1,80}\"|“[^”\n]{1,80}”|„[^“”\n]{1,80}[“”]|"
                               r"«[^»\n]{1,80}»)(?P<gap>\s*(?:[^\w\s,.;:!?'\"“”„«»()-]\s*)*)(?=(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s"
                               r"|\d{1,2}[/.]\d{1,2}\b)", re.IGNORECASE)


_OPENING = re.compile(r"\b(?:open|opening|start|create|new|set\s+up|begin|make)\b", re.IGNORECASE)
_CURRENCY_WORD = re.compile(r"\b(?:currency|(?-i:[A-Z]{3})|euros?|dollars?|pounds?|francs?|kron[eo]r|kroner|zlot[ey]s?|yen)\b|"
                            r"[€$£¥]", re.IGNORECASE)


def _after_a_title(message: str, start: int, end: int, question: bool) -> list[tuple[int, int, bool]]:
    m = _TITLE_THEN_A_DAY.search(message, start, end)
    if m is None or not m.group("gap") or not _OPENING.search(message, start, m.start()) or currencies_named(
            message[m.end():end]) or _CURRENCY_WORD.search(message, m.end(), end):
        return [(start, end, question)]  # ('claim "Berlin" mon taxi 20': an existing claim named; '"Zurich" 30.11 in
        # CHF': the name's day and currency, told together)
    return [(start, m.start("gap"), False), *_after_a_title(message, m.end("gap"), end, question)]


# "taxi 54 from the airport monday, is that allowed?": a question about what the sentence just told is a sentence of
# its own, as if after a full stop; what it asks about was told, not asked
ABOUT_IT = re.compile(r"[,;:\-–—]+\s*(?:(?:and|but|so)\s+)?(?=(?:is|are|would|will|does|do|was|can|could)\s+(?:that|this|it|"
                      r"these|those|they)\b[^,;:?]*\??\W*$)", re.IGNORECASE)


# "The hotel was … at €172 a night, so I'm just under — it's 180 the limit, isn't it?": what was paid, told, then a
# question about it after ", so": the telling is no question (a "would", "if" or "can" in it keeps it one)
_TOLD_THEN_ASKED = re.compile(r",\s+(?=so\s+(?:i'?m|i\s+am|that'?s|that\s+is|it'?s|it\s+is|we'?re)\b)", re.IGNORECASE)
_PAID_TOLD = re.compile(r"\b(?:was|were|paid|cost|came\s+to|spent|had|took|got)\b", re.IGNORECASE)
_HYPOTHETICAL = re.compile(r"\b(?:if|would|could|can|should|will|might|may|planning|plan|going\s+to|gonna)\b", re.IGNORECASE)


def _asked_after(message: str, start: int, end: int, question: bool) -> list[tuple[int, int, bool]]:
    told = _TOLD_THEN_ASKED.search(message, start, end) if question else None
    if told is not None and _PAID_TOLD.search(message, start, told.start()) and re.search(
            r"\d", message[start:told.start()]) and not _HYPOTHETICAL.search(message, start, told.start()):
        return [(start, told.start(), False), *_asked_after(message, told.end(), end, question)]
    cut = ABOUT_IT.search(message, start, end) if question else None
    if cut is not None and QUESTION_START.match(message[start:cut.start()].strip()):
        cut = None  # "What's the daily limit on food again, is it 60?": one question, the figure its guess
    if cut is None or not message[start:cut.start()].strip():
        return [(start, end, question)]
    return [(start, cut.start(), False), (cut.end(), end, True)]


def fragments(message: str, start: int, end: int) -> list[tuple[int, int]]:
    pieces: list[tuple[int, int]] = []
    cursor = start
    for m in _SOFT.finditer(message, start, end):
        if message.count("(", start, m.start()) > message.count(")", start, m.start()) and \
                message.find(")", m.end(), end) >= 0 and re.search(r"\d", message[cursor:message.rfind("(", start, m.start())]):
            continue  # "a scarf 45 (this one is private, don't put it please)": an aside's words stay together
        if re.fullmatch(r"\s+[-–]\s+", m.group(0)) and re.search(r"\b[A-Z][^\W\d_]+$", message[cursor:m.start()]) and \
                re.match(r"[A-Z][^\W\d_]+\b(?!\s*\d)", message[m.end():end]) and not re.search(r"\d", message[cursor:m.start()]):
            continue  # "return flight Lyon - Manchester with easyJet, 186,40 €": a route between two places, one piece
        if m.start() > cursor:
            pieces.append((cursor, m.start()))
        cursor = m.end()
    if cursor < end:
        pieces.append((cursor, end))
    for n in range(len(pieces) - 2, -1, -1):  # ". I also bought pens 5": a sentence's subject alone goes with its verb
        if n == 0 and pieces[n][0] == start and re.fullmatch(r"\s*(?:i|we)\s*", message[pieces[n][0]:pieces[n][1]],
                                                            re.IGNORECASE):  # (never "They then invited us …")
            pieces[n:n + 2] = [(pieces[n][0], pieces[n + 1][1])]
    pieces = [piece for s, e in pieces for piece in _and_abroad(message, s, e)]
    pieces = [piece for s, e in pieces for piece in _next_priced_kind(message, s, e)]
    split_legs: list[tuple[int, int]] = []
    for s, e in pieces:  # "there on monday 119.90 and back thursday 119.90": priced both ways, two legs
        leg = re.search(r"\s+(?=and\s+back\b)", message[s:e], re.IGNORECASE)
        if leg and re.search(r"\d", message[s:s + leg.start()]) and re.search(r"\d", message[s + leg.end():e]):
            split_legs += [(s, s + leg.start()), (s + leg.end(), e)]
        else:
            split_legs.append((s, e))
    return [_trim(message, s, e) for s, e in split_legs if message[s:e].strip(" ,.;:!-–—")]


# "and" in the languages people mix in, after a price: "taxi 18,50 e pranzo 46,00", "Zug 89 und Taxi 23", "612 kr og lunsj …",
# "metro 36 DKK en lunch 145 DKK" (never the Spanish and French "in": "cena 46,80 en el Zum Goldenen Sternen")
# a price's currency said after it, which stays with the price when a piece is split after it
_AFTER_PRICE = r"(?:\s?(?:(?:eur|euros?|kr|zł|chf|sek|nok|dkk|pln|czk|kč|usd|gbp|cad|jpy|yen)\b|[€$£¥](?!\w)))?"  # ("139 € et")
# a price said per night ("196 € por noite e jantar …", spelled out as "por night"), which the "and" after it ends
_PER_NIGHT = r"(?:\s*(?:/\s*night|(?:\s(?:per|por|pro|par|pr\.?|a|à|the|each|la|al|le))?\s+night|\s+each|\s+ea))?"
_AND_ABROAD = re.compile(r"(?<=\d)" + _AFTER_PRICE + _PER_NIGHT + r"(?P<gap>\s+)(?=(?-i:" + AND_ABROAD + r"|i|en(?!\s+(?:el|la|los|las|le|les|un|une|una|du|del|de|the|a|an)\b))\s+[^\W\d_])",
                         re.IGNORECASE)  # (and the Polish "i", only between two priced things: never at a clause's start)


def _and_abroad(message: str, start: int, end: int) -> list[tuple[int, int]]:
    """A piece split where another language's "and" follows a price and leads to another thing bought with its own
    price; one piece as it was otherwise."""
    for m in _AND_ABROAD.finditer(message, start, end):
        rest = message[m.end():end]
        if message[m.end():m.end() + 3].lower() == "en " and not (
                (first := find_categories(rest[3:])) and first[0].start == 0):
            continue  # the Dutch "en" only before a kind of expense ("… 36 DKK en lunch …"; never "… en Starbucks")
        if not _same_currency(message[start:m.start("gap")], rest):
            continue  # "metro 36 DKK en lunch 145": which currency the second is in, asked
        if re.search(r"\d", rest) and find_categories(message[start:m.start()]) and (find_categories(rest) or (
                message[m.end():m.end() + 3].lower() != "en " and re.match(r"[^\W\d_]+\s+(?:[€$£]\s?)?\d", rest[2:].lstrip()))):
            # ("comida 15,90 y recarga 10": the second thing, of a kind not known, is asked on its own)
            return [(start, m.start("gap")), *_and_abroad(message, m.end(), end)]  # (the price keeps its currency)
    return [(start, end)]


# a price, then straight away another kind of expense with its own price: "tue lunch 12.75 dinner 28.40"
_PRICE_THEN_WORD = re.compile(r"(?<=\d)" + _AFTER_PRICE + r"(?P<gap>\s+)(?=[^\W\d_])", re.IGNORECASE)


# the things bought that are an expense of their own after another's price (never "wine", "breakfast included")
_ONE_THING_EACH = frozenset("lunch dinner brunch supper taxi cab uber bolt train flight bus metro tram parking hotel "
                            "frokost middag lunsj obiad kolacja pranzo cena almuerzo déjeuner dîner mittagessen abendessen "
                            "jantar almoço".split())


def _same_currency(first: str, second: str) -> bool:
    """Do two priced pieces name the same currency (or none)? "36 DKK" and "145": no."""
    def codes(text: str) -> set[str | None]:
        return {a.currency for a in find_amounts(text)}
    return codes(first) == codes(second) and len(codes(first)) == 1


_DAY_FIRST = re.compile(r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|weds|wed|thurs|thur|thu|"
                        r"fri|sat|sun)\.?\s+(?=[^\W\d_])", re.IGNORECASE)


def _next_priced_kind(message: str, start: int, end: int) -> list[tuple[int, int]]:
    """A piece split where a price is followed, with no word between, by a kind of expense (a strong word, not "night"
    or "ticket") that has a price of its own before the piece ends, when the words before the price named a kind too."""
    for m in _PRICE_THEN_WORD.finditer(message, start, end):
        rest = message[m.end():end]
        day = _DAY_FIRST.match(rest)  # "tuesday lunch 11,90 wednesday lunch 12,40": each expense headed by its day
        if day is not None and not _A_WEEKDAY.search(message, start, m.start()):
            day = None  # (only when the expense before was headed by its own day too)
        skip = day.end() if day else 0
        first = find_categories(rest[skip:])
        if first and first[0].start == 0 and not first[0].weak and re.match(r"[^\W\d_]+\s+(?:[€$£¥]\s?)?\d", rest[skip:]) and \
                find_categories(message[start:m.start()]) and not re.search(r"\d", rest[skip:skip + first[0].end]) \
                and plain(first[0].text) in _ONE_THING_EACH and _same_currency(message[start:m.start("gap")], rest) and not \
                re.search(r"\b(?:incl\w*|included|per|each|a\s+(?:day|night|person)|every)\b|/", rest, re.IGNORECASE):
            return [(start, m.start("gap")), *_next_priced_kind(message, m.end(), end)]
    return [(start, end)]


def _trim(message: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (message[start] in " \t,.;:!-–—" or (message[start] in "•·▪◦*" and (
            start == 0 or message[start - 1] in "\n\t ") and message[start + 1:start + 2] in (" ", "\t"))):
        start += 1  # ("• breakfast 11": a bullet before a line's words)
    while end > start and message[end - 1] in " \t,;:!-–—":
        end -= 1
    return start, end


def _one_stay(text: str, today) -> bool:
    """What a hotel heading heads, told as one stay: its days and nights beside one price, and nothing else bought."""
    masked = mask(text, [(d.start, d.end) for d in find_dates(text, today)])
    masked = re.sub(r"\b\d{1,2}\s*(?:nights?|nites?|nts?)\b", " ", masked, flags=re.IGNORECASE)
    return len(find_amounts(masked)) == 1 and re.search(r"check(?:ed|ing)?[\s-]?(?:in|out)|\bnights?\b", text, re.IGNORECASE) \
        is not None and not [c for c in find_categories(text) if not c.weak and c.category != "hotel"]


def split(message: str, today) -> list[Clause]:
    """The clauses of ``message``, each with its kind (see ``classify``)."""
    if (closing := closing_day(message, today)) is not None:
        # "- dinner 38.50\n- hotel 164\nthat's all for tuesday, thanks!": the day of everything told before it
        start, end, _day = closing
        return [*_split(message[:start], today), Clause(start, end, message[start:end], "context", False, None, closed=True)]
    return _split(message, today)


# the words a remark is made with: interjections and asides ("haha", "btw", "honestly", "what a day", "bear with me")
_REMARK_MARK = re.compile(r"\b(?:btw|by\s+the\s+way|ha(?:ha)+|he(?:he)+|lol|lmao|honestly|tbh|ugh+|phew|argh+|sigh|oh\s+well|"
                          r"what\s+an?\s+(?:day|week|trip|night|morning|evening|mess|ride|experience)|bear\s+with\s+me|"
                          r"fingers\s+crossed|thank\s+god|thankfully|luckily|unfortunately|sadly)\b|[\U0001F300-\U0001FAFF\u2600-\u27BF]",
                          re.IGNORECASE)
# what a remark never holds: a request, a take-back, a correction, a negation, a question, a line pointed at, a thing
# pointed at ("that", "it"), a count or a share, who paid or whose it was, a day, a currency, a doubt
_REMARK_NEVER = re.compile(
    r"\b(?:add|put|enter|log|include|claim\w*|change|correct\w*|update|fix|make|remove|delete|drop|take|cancel|skip|ignore|"
    r"forget|scrap|scratch|leave|submit|send|withdraw|open|start|create|undo|disregard|nvm|never\s*mind|nah|nope|jk|kidding|"
    r"joking|test\w*|oops|whoops|bad|double\w*|twice|hold|hang|swap|replace\w*|please|pls|can|could|would|should|need\w*|"
    r"want|actually|instead|wrong|mistake|typo|error|only|just|not|no|never|nothing|none|wait|sorry|same|again|line|"
    r"total|paid|pay\w*|charged|cost|costs|price|bill|refund\w*|reimburs\w*|receipts?|invoice\w*|booked|limit|policy|it|"
    r"that|this|these|those|them|one|ones|half|third|quarter|share\w*|split|per|each|both|whole|part|us|two|three|four|"
    r"five|six|company|card|corporate|amex|visa|manager|boss|client|customer|colleague|wife|husband|partner|friend|"
    r"picked|covered|treated|personal|private|mine|meant|more|less|sure|unsure|maybe|might|think|probably|alcohol|"
    r"money|back|week\w*|month|ago|earlier|later|previous|before|after|next|last|yesterday|today|tomorrow|tonight|"
    r"trip|flight|train|slack|kr|kronor|pounds?|dollars?|euros?|francs?|yen)\b|n't\b|[?€$£¥:]", re.IGNORECASE)
# how a kind of expense may be spoken of in a remark: "the hotel was lovely", "the dinner was great"
_KIND_PRAISED = re.compile(r"\b(?:was|were|is|looked|felt)\s+(?:really\s+|very\s+|so\s+|quite\s+|super\s+|pretty\s+)?"
                           r"(?:lovely|nice|great|good|awful|terrible|horrible|amazing|beautiful|fantastic|excellent|noisy|"
                           r"tiny|old|clean|dirty|busy|packed|crowded|delicious|tasty|cosy|cozy|charming|gorgeous|fun)\b",
                           re.IGNORECASE)


def remark(text: str, today) -> bool:
    """A sentence that only says how the user found things ("Honestly, what a day.", "Everyone had a great time btw,
    even Johan who hates bowling."): said with an interjection or an aside's word, and holding no figure, currency,
    request, take-back, correction, negation, question or line; a kind of expense only as what was praised or
    deplored ("the hotel was lovely btw")."""
    if not _REMARK_MARK.search(text) or re.search(r"\d", text) or _REMARK_NEVER.search(text) or currencies_named(text) or \
            re.search(rf"\b(?:{'|'.join(lexicon.NUMBER_WORDS)})\b", text, re.IGNORECASE) or find_dates(text, today):
        return False
    kinds = [c for c in find_categories(text) if not c.weak]
    return not kinds or bool(_KIND_PRAISED.search(text)) and not verb_of(text)[0]


def _split(message: str, today) -> list[Clause]:
    clauses: list[Clause] = []
    for s_start, s_end, question in sentences(message):
        s_start, s_end = _trim(message, s_start, s_end)
        if (label := _ASKED_LABEL.match(message, s_start, s_end)) is not None and label.end() < s_end and (
                question or not re.search(r"\d", message[label.end():s_end])):
            # "Question: I want to know my total until now.": what follows the label is asked, "?" or not
            clauses.append(Clause(s_start, label.end(), message[s_start:label.end()], "context", question, None, closed=True))
            s_start, question = label.end(), True
            s_start, s_end = _trim(message, s_start, s_end)
            if re.search(r"\d", message[s_start:s_end]):
                # "Question : the lunch 127,50 € for 3 persons, it is ok with the limit ?": a priced thing asked about
                # whole, never an expense told
                clauses.append(Clause(s_start, s_end, message[s_start:s_end], "question", True, None, closed=True))
                continue
        if remark(message[s_start:s_end], today):
            # "Honestly, what a day." "The hotel was lovely btw, very old building with huge windows.": the user's
            # feelings about the day, nothing to act on or answer
            clauses.append(Clause(s_start, s_end, message[s_start:s_end], "context", question, None, closed=True))
            continue
        if (lead := NUMBERED_DAY.match(message, s_start, s_end)) is not None and lead.end() < s_end and re.match(
                r"(?:\s*[—–]|\s+-)?\s+(?!(?:was|is|were|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|of)\b)"
                r"[^\W\d_]", message[lead.end():s_end], re.IGNORECASE):
            # "Last day taxi back to the station £13.80 …": the trip's day, then what was spent on it
            clauses.append(Clause(s_start, lead.end(), message[s_start:lead.end()], "context", question, None, closed=True))
            s_start, s_end = _trim(message, lead.end(), s_end)
        colon = message.find(":", s_start, s_end)
        if colon > s_start and not clauses and (heading := heading_kind(message[s_start:colon], today)) is not None:
            # "And the taxis, both on 1/12: taxi hotel to client office 18,40 and …": the heading before the colon
            clauses.append(Clause(s_start, colon, message[s_start:colon], "heading", question, heading, closed=True))
            s_start = colon + 1
            s_start, s_end = _trim(message, s_start, s_end)
            if heading == "hotel" and _one_stay(message[s_start:s_end], today):
                # "The hotel : Scandic Continental, check-in the 18, check-out the 20, 2 nights, total 3 980 SEK.": one stay
                clauses.append(Clause(s_start, s_end, message[s_start:s_end], "item", question, None, closed=True))
                continue
        elif colon > s_start and (re.search(r"\bday\s*\d", message[s_start:colon], re.IGNORECASE) or (
                re.fullmatch(r"\s*\d{1,2}/\d{1,2}\s*\(\s*(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*\)\s*", message[s_start:colon],
                             re.IGNORECASE)) or (
                clauses and (all(c.kind == "context" for c in clauses) or not re.search(r"\d", clauses[-1].text)) and re.match(
                    r"\s*(?:on\s+)?(?:the\s+)?\d|\s*(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)", message[s_start:colon],
                    re.IGNORECASE))) and _only_a_day(
                re.sub(r"^\s*(?:on\s+)?(?:the\s+)?", "", message[s_start:colon], flags=re.IGNORECASE), today):
            # ("OK, again then. On 1 December: taxi …; lunch …": after words that tell nothing, the day of what follows)
            # "Day 2, Tuesday: lunch 14, dinner 30": the day of what follows
            clauses.append(Clause(s_start, colon, message[s_start:colon], "context", question, None, closed=True))
            s_start = colon + 1
            s_start, s_end = _trim(message, s_start, s_end)
        elif colon > s_start and not re.match(r"\s*\d", message[colon + 1:]) and re.fullmatch(
                r"\s*[^\W\d_]{2,3}\.?\s+\d{1,2}[./]\d{1,2}(?:[./](?:20)?\d\d)?\.?\s*", message[s_start:colon]) and not \
                find_categories(message[s_start:colon]) and len(find_dates(message[s_start:colon], today)) == 1:
            # "wo 18/11: diner 31.50, …", "mer. 25.11: …": a short weekday of any language before the date of what follows
            clauses.append(Clause(s_start, colon, message[s_start:colon], "context", question, None, closed=True))
            s_start = colon + 1
            s_start, s_end = _trim(message, s_start, s_end)
        elif colon > s_start and not re.match(r"\s*\d", message[colon + 1:]) and (day_told(message[s_start:colon], today) or (
                RECEIPTS_OF_A_DAY.fullmatch(message[s_start:colon]) and len(
                    {d.value for d in find_dates(message[s_start:colon], today)} - {None}) == 1)):
            # ("Here are the receipts from Wednesday: breakfast …, lunch …": the day of what follows)
            # "Wednesday the meetings were out in the Berlaymont: taxi out there €18.00, …": the day of what follows
            clauses.append(Clause(s_start, colon, message[s_start:colon], "value", question, None, closed=True))
            s_start = colon + 1
            s_start, s_end = _trim(message, s_start, s_end)
        elif colon > s_start and _IN_A_CURRENCY.search(message[s_start:colon]) and not re.search(r"\d", message[s_start:colon]) \
                and not [c for c in find_categories(message[s_start:colon]) if not c.weak] and len(message[s_start:colon]) <= 60 \
                and _rows_priced_in(message[colon + 1:s_end], message[s_start:colon]):
            # "Below ones are in DKK only: metro card Tuesday 90 DKK, …", "The rest I payed in dollars: hotel … $289.00":
            # the currency the rows after it are in, each row saying it again
            clauses.append(Clause(s_start, colon, message[s_start:colon], "context", question, None, closed=True))
            s_start = colon + 1
            s_start, s_end = _trim(message, s_start, s_end)
        elif colon > s_start and (_SEPARATE_THINGS.fullmatch(message[s_start:colon]) or _NEW_LINE_ASKED.fullmatch(
                message[s_start:colon]) or (
                _EXPENSES_ANNOUNCED.search(message[s_start:colon]) and not re.search(r"\d", message[s_start:colon]))):
            # ("I want to put the expenses of my Lyon trip in the claim: train 89, taxi 20": what follows is told)
            # "They are two separate things: flight back …, and the train …": what the user says of their own words
            clauses.append(Clause(s_start, colon, message[s_start:colon], "context", question, None, closed=True))
            s_start = colon + 1
            s_start, s_end = _trim(message, s_start, s_end)
        elif _SEPARATE_THINGS.fullmatch(message[s_start:s_end]):
            # "Both are new expenses.": what the user says of the things told (the question's answer), nothing to act on
            clauses.append(Clause(s_start, s_end, message[s_start:s_end], "context", question, None, closed=True))
            continue
        elif is_record(message[s_start:s_end], today):
            clauses.append(Clause(s_start, s_end, message[s_start:s_end], "item", question, None, closed=True))
            continue
        elif not question and NOT_CLAIMED.search(message[s_start:s_end]) and not re.search(r"\d", message[s_start:s_end]):
            # "The flight was booked by our travel desk so I am not claiming it.": said of something not told here
            clauses.append(Clause(s_start, s_end, message[s_start:s_end], "context", question, None, closed=True))
            continue
        elif not question and TRAVELLED_DAYS.match(message[s_start:s_end]) and not find_amounts(
                mask(message[s_start:s_end], [(d.start, d.end) for d in find_dates(message[s_start:s_end], today)])):
            # "I travelled Monday to Wednesday this week.": when the trip was, nothing to add
            clauses.append(Clause(s_start, s_end, message[s_start:s_end], "context", question, None, closed=True))
            continue
        elif not question and _day_heading_sentence(strip_leading(message[s_start:s_end])[1], today):
            # "Day 1, Monday 16th." "Day 2, Tuesday.": a sentence that only says the day of what follows it
            clauses.append(Clause(s_start, s_end, message[s_start:s_end], "context", question, None, closed=True))
            continue
        day_first: int | None = None
        for f_start, f_end in fragments(message, s_start, s_end):
            if day_first is not None:
                f_start, day_first = day_first, None
            text = message[f_start:f_end]
            if clauses and f_start == s_start and (colon := re.match(r"\s*:[ \t]?", message[f_end:])) and _only_a_day(
                    message[f_start:f_end + colon.end()], today):
                day_first = f_start  # "… on my card statement. Tue: lunch 38,50": the day heads what follows it
                continue
            if (f_end == s_end or re.match(r"\s*:|,\s*[A-Z]", message[f_end:])) and message[f_end:].strip(" .:;!\n") and all(
                    c.kind in ("context", "heading") for c in clauses if c.start >= s_start):
                if (heading := heading_kind(text, today)) is not None:
                    # "right, next the hotel." "oh the dinners." "taxis:": what the expenses after it are
                    clauses.append(Clause(f_start, f_end, text, "heading", question, heading, closed=True))
                    continue
            kind, verb = classify(text, question=question, today=today)
            if kind in ("item", "act", "value", "context") and not question and not re.search(r"\d", text) and (
                    OTHERS_PAID_IT.search(text) or _RECEIPTS_TO_COME.search(text) or PAID_BY_ANOTHER.match(text)) and not (
                    clauses and clauses[-1].kind in ("retract", "marker") and not (
                        clauses[-1].kind == "retract" and re.match(r"\W*(?:forget|scrap|drop|skip|ignore)\s+(?:the|that|my)\s+"
                                                                   r"[^\W\d_]", clauses[-1].text, re.IGNORECASE)
                        and re.search(r"\b(?:it|that|this|them)\b", text, re.IGNORECASE))):  # ("taxi 20 - no, my colleague paid his
                # own lunch": what the "no" takes back is asked; "Forget the coffee, one of the clients bought it": why)
                # "…, dinner was on the client so nothing there", "the reception was hosted by the department": not
                # the user's to claim, said of a thing with no price
                clauses.append(Clause(f_start, f_end, text, "context", question, None, closed=True))
                continue
            if clauses and _TAKEN_BACK_PRICE.match(text) and re.search(r"\d\s*$", message[clauses[-1].start:f_start]):
                kind, verb = "correction", None  # "Breakfast 12 no sorry 21 at Hotel 7": the price said again

            if kind == "context" and clauses and clauses[-1].kind in ("act", "item") and re.search(r"\d", clauses[-1].text) \
                    and _ASIDE.match(text) and not re.search(r"\d", text) and not re.search(
                        rf"\b(?:{'|'.join(lexicon.NUMBER_WORDS)})\b", text, re.IGNORECASE):  # ("I swapped two digits")
                # "the hotel isn't 420, it's 402, my phone swapped the numbers": why, told after the request
                clauses.append(Clause(f_start, f_end, text, "context", question, None))
                continue
            if kind in ("item", "context", "act") and clauses and clauses[-1].kind in ("act", "item", "correction") and re.search(
                    r"\d", clauses[-1].text) and re.search(r"\bnot\b|\bno\b|\bwas\b", clauses[-1].text, re.IGNORECASE) and \
                    not question and not re.search(r"\d", text) and _WHY_THE_FIGURE.match(text):
                # "… the team dinner on Tuesday was 36.50 not 38.50, there was a glass of wine on it that I took off": why
                clauses.append(Clause(f_start, f_end, text, "context", question, None))
                continue
            if clauses and clauses[-1].kind == "act" and clauses[-1].verb in ("submit", "withdraw") and not question and \
                    _WANTED_BY.match(text) and not re.search(r"\d", text):
                # "go ahead and submit it, they want it today": when it is wanted, told after the request
                clauses.append(Clause(f_start, f_end, text, "context", question, None, closed=True))
                continue
            if FIGURE_JUDGED.search(text) and verb_of(text)[0] is None:
                # "Ok, so 139 per night is fine then": a figure weighed against the policy, no expense told
                clauses.append(Clause(f_start, f_end, text, "context", question, None, closed=True))
                continue
            if f_start == s_start and f_end == s_end and not question and clauses and _LEFT_AS_IS.search(text):
                # "… was 49,90 not 59,90. the return one 3/12 is ok": a line said to be right, nothing to do
                clauses.append(Clause(f_start, f_end, text, "context", question, None, closed=True))
                continue
            if kind == "value" and _RETURN_LEG.match(text):
                kind = "item"  # "and back thursday 119.90": the way back, an expense of its own
            last = clauses[-1] if clauses else None
            if last is not None and any(c.kind == "heading" for c in clauses) and kind in ("value", "item") and \
                    _priced_and_dated(text, today) and _priced_and_dated(last.text, today):
                kind = "item"  # "taxis: 32 from the airport monday, 14 on tuesday, …": one expense each
                clauses.append(Clause(f_start, f_end, text, kind, question, verb))
                continue
            line_end = message.find("\n", f_end)
            line = message[f_start:line_end if line_end >= 0 else len(message)]
            if f_start == s_start and message[:f_start].rstrip(" \t").endswith("\n") and re.match(
                    r"[ \t]*[-–—:]", message[f_end:]) and (days := find_dates(line, today)) and days[0].start == 0 and \
                    days[0].end >= len(text.rstrip()) and days[0].value:
                # "…each one.\n7.07 - lunch 52 zł": a day heading its own line, never a value of the line before
                clauses.append(Clause(f_start, f_end, text, "context", question, None))
                continue
            after = re.split(r",\s+|\s+[-–—]\s+|\s+(?:and|so)\s+", message[f_end:s_end].strip(" ,;:-–—"), maxsplit=1)[0]
            if f_start == s_start and kind != "question" and not question and day_told(text, today) is not None and (
                    not _priced(after, today) or [c for c in find_categories(after) if not c.weak]):
                # (not "On Tuesday I was going by RegioJet from Prague, ticket 289 Kč": the journey the price is of)
                # "… at $239/night. Monday was nuts, …": the story's next day, never the day of the sentence before
                clauses.append(Clause(f_start, f_end, text, "value", question, None, closed=True))
                continue
            bulleted = f_start == s_start and re.search(r"\n[ \t]*[-–•*·][ \t]*$", message[:f_start]) is not None
            if f_start == s_start and last is not None and _TITLE_GIVEN.search(last.text) and not re.match(
                    r"\s*\(", message[f_start:]) and not ((currency_named(text) or _currency_only(text)) and not _priced(
                        text, today)):
                # "… call it "Cork study days". I'm doing this on the bus …": the title is said, the next sentence
                # is another thing
                clauses.append(Clause(f_start, f_end, text, kind, question, verb))
                continue
            if last is not None and not bulleted and not (
                    f_start == s_start and last.kind == "act" and last.verb == "open" and kind == "item"
                    and _has_thing(text, today, strong=True)) and not (
                    f_start == s_start and last.kind == "context" and kind == "item" and TRIP_TOLD.match(
                        strip_leading(last.text)[1].strip())) and not _kind_from_the_next_sentence(
                    last, kind, text, message[s_start:s_end] if f_start == s_start else None, today) and not (
                    f_start == s_start and _priced(text, today) and not re.match(r"\s*\(", text) and (last.kind == "unknown" or (
                        last.kind == "act" and last.verb == "open"))) and not (
                    f_start == s_start and kind == "context" and re.fullmatch(
                        r"\W*(?:oh|ah|and|also|right|ok|okay|so|plus|btw|oops|um+|hmm+)\W*", text, re.IGNORECASE)
                    and _priced(message[f_end:s_end], today) and last.kind in ("act", "item")) and not (
                    f_start == s_start and last.kind in ("act", "item") and _priced(message[f_start:s_end], today)
                    and _priced(last.text, today) and _another_thing(message[f_start:s_end], last.text)
                    and ((kind == "act" and verb in ("update", "add")) or (kind == "item" and re.match(
                        r"\W*(?:(?:oh|ah|and|also|plus|then)\W+)*(?:(?:the|a|an|my|our)\s+)?[^\W\d_]{3,}", text, re.IGNORECASE)) or (
                        kind == "value" and re.match(
                        r"\W*(?:(?:oh|ah|and|also|plus)\W+)*(?:that|the|this|my|our)\s+(?!(?:one|same|total|price|amount|bill|"
                        r"ticket|fare|cost)\b)[^\W\d_]{3,}", text, re.IGNORECASE)))) and not (
                    f_start == s_start and _priced_thing_apart(last, kind, text, today)) and not (
                    f_start == s_start and message[:s_start].rstrip(" \t").endswith("\n") and _DATED_ROW.fullmatch(
                        message[s_start:s_end]) and _DATED_ROW.fullmatch(last.text.rsplit("\n", 1)[-1])) and _joins(
                        last, kind, question, text, today, verb):
                # (a pasted row of its own day and price is its own: "12/2 Uber hotel to DEN 61.80 / 12/2 United …")
                # (a sentence with its own request and its own price is its own: "… the train home was £79.10. That
                # Italian on Wednesday was £24.80, not £22.80")
                # (a sentence after the request for a claim that names a thing is an expense of its own: "open a
                # claim … in SEK. Hotel Scandic 2 nights, 3 480 kr")
                _merge(last, f_end, message, question, today)
            else:
                if last is not None and f_start == s_start and _priced_thing_apart(last, kind, text, today):
                    last.kind = "item"  # (its kind is asked)
                clauses.append(Clause(f_start, f_end, text, kind, question, verb))
    for i, clause in enumerate(clauses):  # "please add the following:" before record lines only introduces them
        if clause.kind == "act" and clause.verb == "add" and i + 1 < len(clauses) and clauses[i + 1].closed and (
                re.search(r"\b(?:following|these|below|them|lines?)\W*$|:\s*$", clause.text, re.IGNORECASE)):
            clause.kind, clause.verb = "context", None
    headed = False
    for clause in clauses:  # under a heading ("ok so first the flights."), a name and a price are an expense
        headed = headed or clause.kind == "heading"
        if headed and clause.kind in ("value", "context") and _priced(clause.text, today):
            clause.kind = "item"
    for last, clause in pairwise(clauses):
        if clause.kind in ("item", "act") and last.kind in ("item", "act") and (
                again := _TAKEN_BACK_THEN_PRICE.match(clause.text)) and re.search(
                    r"\d\s*(?:€|eur|euros?|[$£])?\W*$", message[last.start:clause.start], re.IGNORECASE) and {
                        c.category for c in find_categories(again.group("why")) if not c.weak} <= {
                        c.category for c in find_categories(last.text)}:
            # "ICE back 139.90 — no wait, I had the Sparpreis, 89.90": the price said again, with why (never "no wait,
            # plus a coffee, 3", "oops, I forgot the tip, 3": something more)
            if not _SOMETHING_MORE.search(again.group("why")):
                clause.kind, clause.verb = "correction", None
    for last, clause in pairwise(clauses):
        if clause.kind == "act" and clause.verb == "add" and (last.kind == "item" or (
                last.kind == "act" and last.verb == "add" and re.search(r"\d", last.text))) and _BARE_ADD.fullmatch(clause.text):
            # "…, ticket was 36 DKK. Please add.", "I took the Flytoget …, 230 NOK. Put it on the claim.": the request for
            # what was told
            clause.kind, clause.verb = "context", None
    if len(clauses) > 1 and (said := _I_MEANT_A_DAY.fullmatch(clauses[0].text.strip(" .!;:"))) and find_dates(
            said.group("day"), today) and not re.search(r"[^\W\d_]{3,}", re.sub(
                r"\b(?:the|on|of|(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|wed|thu|fri|sat|sun)\b", "", mask(
                    said.group("day"), [(d.start, d.end) for d in find_dates(said.group("day"), today)]), flags=re.IGNORECASE)
    ) and any(c.kind in ("item", "act") for c in clauses[1:]) and {d.value for d in find_dates(said.group("day"), today)} & {
            d.value for d in find_dates(message[clauses[1].start:], today)} - {None}:
        # "Sorry, I mean Tuesday 1/12. On 1/12: flight … 189,40 €, …": what the last message meant, then all of it told
        # again with that day (never "Sorry, I mean Tuesday. Taxi 20", whose taxi may be one told before)
        clauses[0].kind, clauses[0].verb = "context", None
    for last, clause in pairwise(clauses):
        if clause.kind == "correction" and (thing := _NO_THING.fullmatch(clause.text.strip())) and not re.search(
                r"\d", last.text) and re.search(rf"\b{re.escape(thing.group('thing'))}\b", last.text, re.IGNORECASE) and \
                lexicon.CATEGORY_WORDS.get(thing.group("thing").lower()):
            # "parking... no sorry, no parking": the thing just told with no price, taken back (never "taxi 20, lunch
            # 15, oh no sorry, no taxi": which one goes is the reader's and the audit's)
            clause.kind = "retract"
    for clause in clauses:  # a leftover marker ("actually, no") said no: it is a retraction
        if clause.kind == "marker":
            clause.kind = "retract" if re.search(r"\b(?:no|nope|nah)\b", clause.text, re.IGNORECASE) else "context"
    return _form_joined(message, clauses)


def _form_joined(message: str, clauses: list[Clause]) -> list[Clause]:
    """"New claim please:\n- title: \"Lyon supplier audit\"\n- currency: EUR": a request to open a claim, then its
    fields written as a form on lines of their own, is one request (its title and currency read from the fields)."""
    out: list[Clause] = []
    for clause in clauses:
        last = out[-1] if out else None
        if last is not None and last.kind == "act" and last.verb == "open" and _FORM_FIELD.match(clause.text) and not (
                re.search(r"\d", clause.text)):
            out[-1] = Clause(last.start, clause.end, message[last.start:clause.end], "act", last.question, "open",
                             closed=last.closed)
            continue
        out.append(clause)
    return out


# "no sorry, no parking": a marker, then the thing it takes back
_NO_THING = re.compile(r"\W*(?:(?:oh|ah|hmm+|wait|no|nope|sorry|sry|oops|actually)[\s,.!]+)+(?:no|not)\s+(?:the\s+)?"
                       r"(?P<thing>[^\W\d_]+)\W*", re.IGNORECASE)


# "Sorry, I mean Tuesday 1/12": the day the user meant, said before telling it all again
_I_MEANT_A_DAY = re.compile(r"\W*(?:(?:sorry|sry|oops|oh|ah|ok|okay|no)[\s,]+)*i\s+mean[t]?\s+(?P<day>.{2,40})", re.IGNORECASE)


# a question whether (or how) an expense is on the claim: "did you get the taxi?", "what did I put for tuesday lunch?"
CHECK_ASKED = re.compile(r"\bdid\s+(?:you|it)\s+(?:get|add|put|record|catch|take|save|include|log)\b|\bwhat\s+did\s+(?:i|we)\s+"
                         r"(?:put|enter|say|add|write|claim|log)\b|\b(?:is|are)\s+(?:the\s+|my\s+|our\s+)?[\w' ]{2,30}?\s+(?:on|in)\s+"
                         r"(?:there|it|the\s+claim|this\s+claim|now)\b|\bconfirm\s+(?:the|that|my)\b|\bhave\s+you\s+(?:got|added)\b",
                         re.IGNORECASE)
_HEADING_FILLER = frozenset("ok okay so right now next then first firstly second secondly finally and also oh hmm um "
                            "what else the my our all of those these for there were was both on".split())


# the second leg of a round trip told after the first: "and back thursday 119.90", ", return on wed 81.49"
RETURN_LEG = _RETURN_LEG = re.compile(r"^\s*(?:and\s+)?(?:the\s+)?(?:back|return|returning|home|inbound|way\s+back)\b",
                                      re.IGNORECASE)


# words that go on about the expense before them rather than start another
_GOES_ON = re.compile(r"\s*(?:total|in\s+total|each|per|a\s+night|tip|incl\w*|includ\w*|so|which|that|it|its|it'?s|this|was|were|"
                      r"came|cost|costs|paid|for|with|at|in|on|from|to|plus|minus|less|and|or|but|not|no|then|x)\b",
                      re.IGNORECASE)


# a journey told with its day and nothing else: "flew out sunday", "we drove back on Tuesday", "took the train home mon"
_TRAVEL_TOLD = re.compile(r"\W*(?:(?:cheers|thanks|ok|okay|so|right|well|and|then)\W+)*(?:on\s+)?(?:the\s+)?\W*"
                          r"(?:i\s+|we\s+)?(?:flew|flying|flown|drove|driving|went|travell?ed|"
                          r"took\s+the\s+(?:train|bus|ferry|flight|plane|coach)|got\s+the\s+(?:train|bus|ferry|flight|plane)|"
                          r"came\s+back|returned)(?:\s+(?:out|back|home|there|in|down|up|over))?"
                          r"(?:\s+(?:from|to|into)\s+[^\W\d_]+(?:\s+[A-Z][^\W\d_]+)?)?"
                          r"(?:\s+(?:first\s+thing|early|late|in\s+the\s+(?:morning|evening|afternoon)))?"
                          r"\s*(?:on\s+)?(?:the\s+)?\W*", re.IGNORECASE)
# a claim's name given in quotes, ending the words: "call it "Cork study days"", "titled 'Q3 kickoff'"
_TITLE_GIVEN = re.compile(r"\b(?:call(?:ed)?|name[d]?|titled?|entitled)\s+(?:it\s+)?:?\s*[\"“„'‘«»][^\"”“'’»«\n]{2,80}[\"”“'’»«]\W*$",
                          re.IGNORECASE)


def _priced(text: str, today) -> bool:
    return bool(find_amounts(mask(text, [(d.start, d.end) for d in find_dates(text, today)])))


def _one_kind(text: str) -> bool:
    """Do the words name things of one kind only (a sandwich and a coffee), and at least two of them?"""
    aboard = [m.span() for m in re.finditer(r"\b(?:on|in)\s+the\s+(?:train|plane|flight|ferry|bus|airport|station)\b", text,
                                            re.IGNORECASE)]  # ("a sandwich and coffee on the train": where, not what)
    found = [c for c in find_categories(text) if not c.weak and not any(s <= c.start < e for s, e in aboard)]
    return len(found) >= 2 and len({c.category for c in found}) == 1


def _priced_in_currency(text: str, last: str) -> bool:
    """"dinner 4,200 yen, USB cable for the test bench 1,480 yen": each priced with its currency, two things."""
    return any(a.currency for a in find_amounts(text)) and any(a.currency for a in find_amounts(last))


def _priced_and_dated(text: str, today) -> bool:
    days = find_dates(text, today)
    return bool(days) and bool(find_amounts(mask(text, [(d.start, d.end) for d in days])))


def day_told(text: str, today) -> str | None:
    """A sentence of the trip's story that tells its one day and nothing to act on ("Tuesday was the workshop
    itself.", "Monday was nuts", "27th was audit day at supplier plant"): the day of what follows, like a heading. No
    figure, kind of expense, line, claim, verb of a request, negation or question."""
    found = find_dates(text, today)
    days = [d for d in found if d.value]
    if len(days) != 1 or len({d.value for d in found}) != 1:
        return None
    rest = mask(text, [(d.start, d.end) for d in days])
    told = re.sub(r"\b(?:we|i)\s+had\b", " ", rest, flags=re.IGNORECASE)  # ("we had meetings …": no expense had)
    if re.search(r"\d|\?", rest) or find_categories(rest) or find_line_refs(rest) or verb_of(told)[0] not in (None, "open") \
            or re.search(r"\b(?:not|no|never|don'?t|n't|forget|skip|cancel|instead|wrong|sorry|actually|claim|"
                         r"paid|pay|cost|costs|was\s+on|spent|bought|got|took)\b", rest, re.IGNORECASE):
        return None
    if not re.fullmatch(r"\W*(?:the|on)?\s*", text[:days[0].start], re.IGNORECASE) or not re.fullmatch(
            r"\s*(?:(?:was|were|is)\s+(?:(?:the|a|an|our|my|all|pretty|so|very|really|super|quite|such|just|mostly)\s+)*"
            r"[^\W\d_]+(?:\s+[^\W\d_]+){0,5}|,?\s*the\s+[^\W\d_]+\s+(?:was|were)\s+[^\W\d_]+(?:\s+[^\W\d_'’-]+){0,8}"
            r"|,?\s*(?:the\s+whole\s+day|all\s+day|in\s+the\s+(?:morning|afternoon))?,?\s*"
            r"(?:we|i)\s+(?:had|were|was|did|visited|met|worked|passed|went|stayed|spent\s+the\s+day)\s+[^\W\d_]+(?:\s+[^\W\d_'’-]+){0,10})\W*",
            rest[days[0].end:], re.IGNORECASE):
        return None  # (only "<day> was the workshop (itself)", "<day> was nuts", "Tuesday the whole day we had
        # meetings with Eurogate": a day told by what it was)
    return str(days[0].value)


def _day_heading_sentence(text: str, today) -> bool:
    """"Day 1, Monday 16th", "Tuesday 17 Nov", "day 3 - wed": one day, said alone (optionally numbered as the trip's)."""
    days = [d for d in find_dates(text, today) if d.value is not None]
    rest = mask(text, [(d.start, d.end) for d in days])
    if not days and re.fullmatch(r"\W*day\s*\d{1,2}\W*", text, re.IGNORECASE):
        return True  # "Day 2.": the next day of the trip, whose date is not said
    if not re.search(r"\bday\s*\d|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", text, re.IGNORECASE):
        return False  # a bare "27.11.2026" line is part of what was pasted, not a heading
    return bool(days) and len({d.value for d in days}) == 1 and not re.sub(
        r"\b(?:day\s*\d{1,2}|on|the|and|so|then|now|ok|okay|next|first|last|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|"
        r"sun)(?:day)?)\b|[\s,.;:!()\-–—]", "", rest, flags=re.IGNORECASE)


def _only_a_day(text: str, today) -> bool:
    days = find_dates(text, today)
    if not days and re.fullmatch(r"\W*day\s*\d{1,2}\W*", text, re.IGNORECASE):
        return True  # "Day 2:": which day of the trip (its date is the lines', or asked)
    return bool(days) and not re.sub(r"\bday\s*\d{1,2}\b|\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b\.?", "", mask(
        text, [(d.start, d.end) for d in days]), flags=re.IGNORECASE).strip(" ,.;:!-–—()")  # ("Day 2, Tuesday:",
    # "12/3 (Thu)", "Monday 30/11": a weekday beside its date is part of it)


def heading_kind(text: str, today) -> str | None:
    """The category a fragment names and nothing else ("next the hotel", "oh the dinners", "ok so first the flights",
    "taxis"): a heading over the expenses that follow it; None for anything with a value, a verb, a name or a day."""
    days = find_dates(text, today)
    if days and not re.search(r":\s*$|^\s*$", text[days[-1].end:]):
        return None  # a day is a heading's only when the heading ends with it ("the taxis, both on 1/12:")
    text = mask(text, [(d.start, d.end) for d in days])
    if find_amounts(text) or verb_of(text)[0] is not None or re.search(r"\d|\?", text):
        return None
    words = [w.lower() for w in re.findall(r"[A-Za-z']+", text)]
    named = [w for w in words if w not in _HEADING_FILLER]
    if named and set(named) <= {"food", "drinks", "drink", "eating", "meals"}:
        return "meals"  # "Food: lunch Tuesday 14.50, dinner Tuesday 31"
    kinds = {c.category for c in find_categories(text) if not c.weak}
    if not named or len(named) > 2 or len(kinds) != 1 or any(w[:1].isupper() for w in re.findall(r"[A-Za-z']+", text)
                                                                if w.lower() in named and w.lower() not in lexicon.CATEGORY_WORDS):
        return None
    if any(w not in lexicon.CATEGORY_WORDS for w in named):
        return None
    return kinds.pop()


def is_record(text: str, today) -> bool:
    """One expense typed as fields: a date, a name or a category, an amount, separated by commas
    ("2026-11-18, Hotel Amigo, hotel, 1 night, 179.00 EUR"; "17/11 PRET A MANGER LONDON GBP 8.45")."""
    fields = [f.strip() for f in re.split(r"\s*(?:[;|\t]|(?<!\d),|,(?!\d)| {2,}(?=\S))\s*", text.strip(" .")) if f.strip()]
    # (columns aligned by spaces are fields too: "Espresso House Malmö C        2026-11-03      89,00 kr")
    if verb_of(text)[0] is not None or "?" in text:  # (a comma between digits is a number's: "¥2,340", "12,50")
        return False
    if sum(1 for f in fields if re.match(r"(?:and|then|but|also|plus|so)\b", f, re.IGNORECASE)) and len(fields) >= 3:
        return False  # "the hotel, Hotel Amigo, the 9th and the 10th, …, and on the 10th dinner at …, 52": told, not typed
    dated = [f for f in fields if (d := find_dates(f, today)) and d[0].value and len(
        "".join(x.text for x in d)) >= 0.6 * len(re.sub(r"\s*(?:to|-|–)\s*.*$", "", f))]
    priced = [f for f in fields if find_amounts(mask(f, [(d.start, d.end) for d in find_dates(f, today)]))]
    if re.match(r"\W*\d{1,2}[./-]\d{1,2}\.?(?:\s*[-–—:]|\s+[^\W\d_])", text) and sum(
            1 for f in priced if find_categories(f)) >= 2:
        return False  # "6.07 - train … 169 zł, taxi … 38 zł, dinner 94 zł", "3/12 lunch … 9,50, uber … 11,20, dinner 38":
        # several expenses told on a dated line
    if len(fields) >= 3:
        return bool(dated) and bool(priced)
    # a statement line: a leading date, capitalised words, an amount with its currency
    return bool(re.fullmatch(r"\d{1,2}[./]\d{1,2}(?:[./]\d{2,4})?\s+[A-Z0-9][A-Z0-9 &'*.-]{2,}\s+(?:[A-Z]{3}\s*)?"
                             r"[€$£]?\d+[.,]\d{2}(?:\s*(?:[A-Z]{3}|€))?", text.strip()))


def _kind_from_the_next_sentence(last: Clause, kind: str, text: str, sentence: str | None, today) -> bool:
    """"… and it's 124, I always swap digits. Then Thursday I checked out of the hotel": a sentence that only tells
    of a kind of expense never gives its kind (or its day) to a price the sentence before said alone."""
    new_sentence = sentence is not None
    if sentence is not None and last.kind == "act" and last.verb == "open" and kind in ("context", "value") and find_dates(
            text, today) and any(a.currency or re.search(r"\d[.,]\d{2}\b", a.text) for a in find_amounts(
                mask(sentence, [(d.start, d.end) for d in find_dates(sentence, today)]))):
        return True  # "please open a claim: 'London summit'. I arrived on Tuesday, the … was £25": an expense's day
    if new_sentence and kind in ("context", "value", "item") and last.kind in ("context", "value", "item") and \
            _ANOTHER_THING.match(text) and _priced(last.text, today) and not _priced(text, today) and (
                told := {c.category for c in find_categories(text)}) and not told & {
                c.category for c in find_categories(last.text)}:
        return True  # "printing the drawings 310 kr. the hotel in malmö was paid by the office": another thing
    return new_sentence and kind in ("context", "value", "item") and last.kind in ("context", "value") and bool(
        _NEXT_EVENT.match(text)) and _priced(last.text, today) and not _priced(
        text, today) and bool(find_categories(text)) and not find_categories(last.text)


# a sentence that starts on a thing of its own ("the hotel in malmö was paid by the office"): not what came before


_ANOTHER_THING = re.compile(r"^\W*(?:and\s+|but\s+|oh\s+and\s+)?(?:the|my|our)\s+(?:[^\W\d_]+\s+)?(?:hotel|taxi|cab|uber|"
                            r"train|flight|dinner|lunch|breakfast|parking|car|bus|ferry|metro|fuel|room|stay)\b", re.IGNORECASE)


# a sentence that starts on what happened next ("Then Thursday I …", "After that …", "Next morning …")
_NEXT_EVENT = re.compile(r"^\W*(?:and\s+)?(?:then|after\s+that|afterwards|later|next|the\s+next\s+(?:day|morning|evening)|"
                         r"on\s+(?:the\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
                         re.IGNORECASE)


# a stay of several nights ("htl 2 nites mon 298"): a night said after it may be one of them (asked, never a new line)
_NIGHTS_COUNTED = re.compile(r"\b(?:[2-9]|1\d|two|three|four|five|six|seven)\s*(?:nights?|nites?|nts?|n)\b", re.IGNORECASE)
_A_WEEKDAY = re.compile(r"\b(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day)?\b", re.IGNORECASE)


# a field of a request to open a claim, written as a form: "title: …", "name: …", "currency: EUR"
_FORM_FIELD = re.compile(r"\W*(?:claim\s+)?(?:title|currency|called)\s*[:=]\s*\S|\W*claim\s+name\s*[:=]\s*\S", re.IGNORECASE)


def _joins(last: Clause, kind: str, question: bool, text: str, today, verb: str | None = None) -> bool:
    if last.closed:
        return False
    if kind in ("item", "value") and last.kind == "item" and re.match(r"\s*(?:in|at)\s+(?:the\s+)?[^\W\d_]", text, re.IGNORECASE) \
            and not _priced(last.text, today) and not re.search(r"\d", last.text) and _kinds(
                last.text, today) and not [c for c in find_categories(text) if not c.weak]:
        return True  # "one lunch the last day, thursday, in the Pret A Manger of the airport, it was 14.50 pounds": where, and
        # what it cost, of the thing told before
    if kind in ("item", "value", "context") and (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and (
            pair := re.match(r"\s*(?:and|&|\+)\s+(?!(?:a|an|the|my|some|one|two)\b)(?P<thing>[^\W\d_]+)\b", text,
                             re.IGNORECASE)) and not re.search(r"\d", text) and _priced(last.text, today) and (
            kinds := _kinds(pair.group("thing"), today)) and kinds <= _kinds(last.text, today) and re.search(
                r"\b(?:a|an|one)\s+(?:[€$£]\s?)?\d[\d.,]*\s*(?:€|eur|euros?|chf|gbp|usd|sek|nok|dkk|pln|czk|kr)?\s*[^\W\d_]+\s*$",
                last.text, re.IGNORECASE):
        return True  # "a €12 coffee and croissant at the airport": one price before both, the thing said in two words
    if kind == "item" and last.kind == "context" and re.search(r"\d", last.text) and _priced(text, today):
        return False  # "I was over 50 on the meal limit, dinner 65": the limit told, then an expense of its own
    if kind in ("value", "context", "item") and last.kind in ("item", "act") and last.verb in (None, "add") and re.match(
            r"\s*(?:and|&|plus|then)\s+(?:a\s+|an\s+|the\s+|my\s+)?", text, re.IGNORECASE) and not re.search(
                r"\d", text) and _priced(last.text, today) and [c for c in find_categories(text) if not c.weak and not
                                                                is_destination(text, c)]:
        return False  # "I had a bacon roll on site, £3.95, and dinner at a place round the corner, £22.80": another
    if kind == "question" and last.kind == "question" and re.fullmatch(
            r"\s*(?:by\s+the\s+way,?\s*)?(?:or\s+)?(?:is|was|isn'?t|wasn'?t|am\s+i|are\s+we)\s+(?:it|that|this|(?:fine|ok|okay|"
            r"good|under|within|alright)(?:\s+(?:at|with))?)\s+(?:about\s+|around\s+|still\s+)?[€$£]?\d+(?:[.,]\d+)?"
            r"\s*(?:€|eur|euros?|pounds?|a\s+day|a\s+night|per\s+day|per\s+night)?\W*", text, re.IGNORECASE):
        return True  # "What's the daily limit on food again, is it 60?", "…, or am I fine at 89?": the question's guess
    if last.kind in ("item", "act") and re.fullmatch(r"\s*(?:and\s+)?(?:i\s+|we\s+)?(?:paid|charged|billed)\s+in\s+[^\W\d_]+(?:\s+[^\W\d_]+)?\W*",
                                                      text, re.IGNORECASE) and currency_named(text):
        return True  # "the taxi home … was £38, paid in pounds": the currency of the price just told
    if kind == "question" and last.kind == "question" and re.fullmatch(r"\s*(?:by\s+the\s+way|btw|though|then|again)\W*",
                                                                       text, re.IGNORECASE):
        return True  # "Is there a cap on the hotel per night, by the way, …?"
    if kind in ("item", "value", "context", "question") and "?" not in text and last.kind in ("item", "act") and \
            _STAY_DAY.match(text) and re.search(r"\b(?:hotel|hostel|htl|nights?|nts?|nites?)\b", last.text,
                                                re.IGNORECASE) and not _STAY_DAY.search(last.text):
        return True  # "hotel Motel One 2 nights 258,00 EUR, check-out 26.11.": the day the stay ended
    if last.kind == "marker" or (last.kind == kind == "retract"):
        return True
    if kind in ("item", "value") and (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and re.match(
            r"^\s*(?:[€$£]\s*)?\d", text) and not _priced(last.text, today) and not re.search(r"\d", last.text):
        return True  # "… I ate a sandwich at the airport in Anker bakery, 9,80 (lunch)": its price, after it
    undated = _ROW_DAY.sub("", last.text)  # (a dotted day heading a row of a list, "7.10 coffee", is no price)
    if kind == "item" and last.kind in ("item", "act", "value") and re.match(r"^\s*(?:and|&|\+)\s", text) and not _priced(
            undated, today) and not re.search(r"\d", undated) and _one_kind(last.text + " " + text):
        return True  # "Pressbyrån sandwich and coffee on 25 November, 8,88": one receipt of one kind
    if kind == "item" and last.kind in ("item", "act") and re.match(r"^\s*(?:and|&|\+)\s", text) and not re.search(
            r"\d", last.text) and _priced(text, today) and len(re.findall(r"[^\W\d_]+", last.text)) <= 3 and (
                told := _kinds(last.text, today)) and (other := _kinds(text, today)) and not told & other:
        return True  # "taxi and train 45": one figure for two kinds, read together (and asked how it splits)
    if kind == "act" and last.kind == "item" and re.match(r"^\s*(?:and\s+)?(?:i\s+|we\s+)?paid\s+(?:for\s+)?(?:it|that|them)\b",
                                                          text, re.IGNORECASE) and not re.search(r"\d", last.text):
        return True  # "airport parking back home, paid it yesterday when i landed, 45 eur": the thing, then its price
    if kind in ("item", "act") and verb in (None, "update", "add") and last.kind == "item" and _priced(text, today) and (
            days := find_dates(last.text, today)) and len(days) == 1 and not _priced(last.text, today) and (
                _TRAVEL_TOLD.fullmatch(mask(last.text, [(days[0].start, days[0].end)]).replace("\x00", ""))):
        return True  # "flew out sunday, easyJet EDI-AMS £142.98 return", "ok so Tuesday I flew out from Manchester
        # first thing, the return flight with KLM was £186.40": the journey told, then what it cost
    if kind in ("item", "value") and (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and re.match(
            r"^\s*[^\W\d_]", text) and not _GOES_ON.match(re.sub(r"^\s*and\s+(?=[^\W\d_])", "", text, flags=re.IGNORECASE)) \
            and _priced(text, today) and _priced(last.text, today) \
            and (_has_thing(text, today) or find_dates(text, today) or _priced_in_currency(text, last.text)) and not re.search(
                r"\b(?:a|per|each|every|the)\s+(?:night|nite|day|person|head|ride)\b|\beach\b|\bpp\b", text, re.IGNORECASE):
        return False  # "flight … was 212.40 on mon 30th, malpensa express into town 13 same day": a second expense (also
        # after "and": "taxi … £31.00 on Monday, and Malmaison 2 nights at £128/night from Monday")
    if kind in ("item", "value") and last.kind in ("item", "act") and re.match(r"^\s*(?:for\s+)?\d+\s*(?:nights?|nts?|nites?)\b",
                                                                           text, re.IGNORECASE) and _priced(text, today) \
            and re.search(r"\b(?:hotel|hostel|htl)\b", last.text, re.IGNORECASE) and not re.search(
                r"\b(?:nights?|nts?|nites?)\b", last.text, re.IGNORECASE):
        return True  # "hotel Pod 39 checked in tuesday, 2 nights 412.60 total": the stay's nights and what they cost
    if _RETURN_LEG.match(text) and last.kind in ("item", "act", "value", "context") and _priced(text, today) and _priced(
            last.text, today):
        return False  # "Deutsche Bahn there on monday 119.90 and back thursday 119.90": the way back, its own
    if last.kind in ("context", "item") and kind == "correction" and find_line_refs(last.text) and re.match(
            r"^\s*(?:make|change|set)\s+(?:it|that)\b", text, re.IGNORECASE):
        return True  # "the last line, make it 28": the line is named first, then what to make it
    if kind == "context" and last.kind == "act" and last.verb in ("remove", "submit", "withdraw") and len(
            re.findall(r"[A-Za-z']+", text)) >= 2 and not find_line_refs(text):
        return False  # "remove the train, company booked it": the reason, said after the request
    if kind == "value" and (days := find_dates(text, today)) and not mask(text, [(d.start, d.end) for d in days]).strip(
            " ,.;:-–—") and find_dates(last.text, today) and _priced(last.text, today):
        return False  # "…22.50 EUR; 01/12/2026 – Belga Queen – dinner – 63.00": a new row starts with its day
    if kind in ("value", "item") and (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and re.match(
            r"\s*(?:and|&|\+|plus)?\s*[^\W\d_]", text, re.IGNORECASE) and _priced(last.text, today) and _priced(
                text, today) and (find_dates(text, today) or _A_WEEKDAY.search(text)) and _kinds(last.text, today) and not (
            _kinds(text, today)) and not _NIGHTS_COUNTED.search(last.text):
        return False  # "htl tue nite 149 + wed nite 149": the next night, with its own day and price
    if kind in ("value", "context"):
        return last.kind not in ("retract", "hold") or kind == "context"
    if (kind != "act" or verb == "update") and (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and re.match(
            r"^\s*(?:and\s+)?(?:it|that|this|which|they|the\s+(?:ticket|tickets|fare|price|bill|cost|total|receipt))\s+"
            r"(?:was|were|came|cost|costs|totall?ed)\b|^\s*and\s+came\s+to\b",
            text, re.IGNORECASE) and verb_of(text)[0] in (None, "update"):
        return True  # "… add a dinner to my claim? It was at The Witchery on the 18th and came to £64.50."
    if kind == "act" and (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and re.match(
            r"^\s*(?:and\s+)?(?:i\s+|we\s+)?(?:paid|spent|cost|costs|was|came\s+to)\s+(?:(?:my|our)\s+(?:own\s+)?"
            r"(?:share|part|half|bit|portion)\s*(?:[,:-]?\s*[€$£¥]?\d|$)|[€$£¥]?\d|in\s+[^\W\d_]+\s*(?:,?\s*[€$£¥]?\d|$))", text,
            re.IGNORECASE) and not _has_thing(text, today) and (not find_amounts(
                mask(last.text, [(d.start, d.end) for d in find_dates(last.text, today)])) or re.search(
                    r"\b(?:my|our)\s+(?:own\s+)?(?:share|part|half|bit|portion)\b", text, re.IGNORECASE)):
        # "a museum ticket in salzburg, paid 30 chf": the price of the thing just named; "dinner with the team 150,
        # paid my own share, €31.20": what of it was the user's
        return True
    if (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and (days := find_dates(text, today)) and \
            re.fullmatch(r"\s*(?:and\s+)?(?:(?:i|we)\s+)?(?:paid|bought|booked|charged|settled)?\s*(?:it|that|them|this)?\s*"
                         r"(?:on|dated)?\s*(?:itself|already|too|as\s+well)?\s*",
                         mask(text, [(d.start, d.end) for d in days]).replace("\x00", ""),
                         re.IGNORECASE) and not find_dates(last.text, today):
        return True  # "summit registration fee was £450, paid on 10/20": the day of the thing just named
    if kind == "item" and last.kind == "question" and last.question and question:
        return True
    if kind == "item" and (last.kind == "item" or (last.kind == "act" and last.verb == "add")) and _price_of_it(
            text, last.text, today):
        return True  # "record my flight … on the 15th, 156.90 euros with Lufthansa": the price of the thing just named
    if kind == "item" and re.match(r"^\s*(?:from|to|via)\s+[A-Z]", text) and not find_amounts(text):
        return last.kind not in ("retract", "hold", "question", "correction")  # "…, from Stuttgart": the route
    if last.kind == "act" and last.verb == "open" and re.match(
            r"\s*(?:called|titled|entitled|named|title|name|(?:call|name|title)\s+it)\s*:?\s*(?:[\"“„'‘«]|(?-i:[A-Z])[^\d]{2,60}$)", text,
            re.IGNORECASE) and not re.search(
            r"\b(?:claim|report)\s+(?:called|titled|entitled|named)\b", last.text, re.IGNORECASE):
        return True  # "Could you open one in pounds sterling, titled 'Dublin workshop June'?": its title, quoted
    if last.kind == "act" and last.verb == "open" and _UNTITLED.search(last.text) and kind in ("item", "context", "act", "unknown") \
            and verb in (None, "open") and not find_amounts(text) and not find_dates(text, today) and len(text) <= 80 \
            and not [c for c in find_categories(text) if not c.weak]:
        return True  # "new claim please, Barcelona partner summit": the title, after the request for a claim
    if kind == "item" and last.kind == "act" and last.verb == "open" and _has_thing(text, today, strong=True) and (
            _priced(text, today)):
        return False  # "new claim Frankfurt workshop and then on Monday the flight was 212": an expense of its own
    if kind == "item":
        if last.kind == "act" and last.verb == "remove" and re.match(r"^\s*(?:and|&|plus)\b", text, re.IGNORECASE):
            if find_line_refs(text):
                return False  # "remove line 1 and line 3": a second removal
            return not (_has_thing(last.text, today) and _has_thing(text, today, strong=True))
        if last.kind == "act" and last.verb == "update" and _has_thing(text, today, strong=True) and find_amounts(
                mask(text, [(d.start, d.end) for d in find_dates(text, today)])):
            return False  # "the hotel should be 160 and the taxi 25": a second edit, its verb said once
        if last.kind == "act" and last.verb == "add" and not _priced(last.text, today) and not re.search(
                r"\d", last.text) and (kinds := _kinds(last.text, today)) and len(kinds) == 1 and _kinds(
                    text, today) == kinds and find_merchants(text):
            return True  # "In Paris I paid the hotel in euros — Ibis Gare du Nord, 1 night Wednesday, €139": which one
        if (last.kind in ("item", "value") or (last.kind == "act" and last.verb == "add")) and _priced(last.text, today) and not (
                _priced(text, today)) and _has_thing(text, today, strong=True) and not _has_thing(last.text, today) and \
                re.match(r"^\s*(?:and\s+)?(?:a|an|the|some|my)\s", text, re.IGNORECASE) and not _GOES_ON.match(text):
            return False  # "the entry of the fair 35 €, a coffee and a sfogliatella … 4,20 €": a thing of its own
        if last.kind in ("item", "value") and _priced(last.text, today) and _priced(text, today) and _has_thing(
                text, today, strong=True) and re.match(r"\s*(?:and\s+)?(?:also\s+)?(?:the|a|an|my|our)\s", text, re.IGNORECASE):
            return False  # "…: Monday 146.00 and Tuesday 146.00. And the easyJet flight back … 79.40": a thing of its
            # own, with its own price (the night before it has its price already)
        if last.kind == "item" or (last.kind == "act" and last.verb == "add"):
            # a new item names its own thing; "2 nights" or "room" only says more about the last one, and so
            # does a bare category after a name with no amount yet ("Café Majestic, meals, 21.30 EUR")
            if not _priced(last.text, today) and (
                    re.fullmatch(r"\s*[A-Za-z]+\s*", text) and find_categories(text)):
                return True
            if re.match(r"\s*(?:and\s+)?then\b", text, re.IGNORECASE) and find_categories(text) and find_amounts(
                    mask(text, [(d.start, d.end) for d in find_dates(text, today)])) and find_amounts(
                    mask(last.text, [(d.start, d.end) for d in find_dates(last.text, today)])):
                return False  # "…, 19 euros, then at midday I eat … for 34,60": the next thing, with its own price
            return not _has_thing(last.text, today) or not _has_thing(text, today, strong=True)
        return last.kind not in ("retract", "hold", "question", "correction")
    return False


_STAY_DAY = re.compile(r"^\W*(?:check(?:ed)?[- ]?(?:out|in)|(?:checked|checking)\s+(?:out|in))\b(?:\s+(?:on\s+)?[\w./-]{1,12}){0,3}"
                       r"\W*$", re.IGNORECASE)
_ROW_DAY = re.compile(r"^\W*\d{1,2}\.\d{1,2}\.?(?=\s+[^\W\d_])")
# a request for a new claim that ends before its title: "new claim please,", "New claim:", "ok new one:", "open a claim"
_UNTITLED = re.compile(r"\b(?:(?:new|another)\s+(?:expense\s+)?(?:claim|one|report)|(?:open|start|create|make)\s+(?:a\s+|an\s+|me\s+a\s+)?"
                       r"(?:new\s+)?(?:expense\s+)?(?:claim|report|one))(?:\s+(?:in|w|v|i|en|em)\s+(?:[A-Za-z]{3}\b|[€$£¥]|"
                       r"(?:us\s+|swiss\s+|canadian\s+)?(?:euros?|dollars?|pounds?(?:\s+sterling)?|francs?|yen|kron[eo]r|zloty|złoty)\b))?"
                       r"(?:\s+(?:please|pls|plz))?\W*$", re.IGNORECASE)  # "new claim in gbp: London Q3 planning"


def _price_of_it(text: str, last: str, today) -> bool:
    """A clause that is a price and perhaps who was paid ("156.90 euros with Lufthansa"), after one that names a
    thing with no price of its own: that thing's price."""
    if not re.match(r"^\s*(?:[€$£¥]\s?)?\d", text) or find_categories(text) or len(find_amounts(text)) != 1:
        return False
    if _priced(last, today) or not _has_thing(last, today):
        return False
    return all(re.search(r"\b(?:with|by|from|at|via)\s+(?:the\s+)?$", text[:m.start], re.IGNORECASE)
               for m in find_merchants(text))


def _kinds(text: str, today) -> set[str]:
    """The kinds of expense the clause names, by a category noun or a merchant known for one."""
    masked = mask(text, [(d.start, d.end) for d in find_dates(text, today)])
    return {c.category for c in find_categories(masked) if not c.weak} | {
        m.category for m in find_merchants(masked) if m.category}


def _has_thing(text: str, today, *, strong: bool = False) -> bool:
    """Does the clause name what was bought (a category noun, or a merchant)?"""
    dates = find_dates(text, today)
    masked = mask(text, [(d.start, d.end) for d in dates])
    categories = [c for c in find_categories(masked) if not (strong and c.weak)]
    return bool(categories or find_merchants(masked))


def _merge(clause: Clause, end: int, message: str, question: bool, today) -> None:
    clause.end = end
    clause.text = message[clause.start:end]
    clause.question = clause.question or question
    if clause.kind in ("marker", "value", "context", "item", "correction", "act"):
        kind, verb = classify(clause.text, question=clause.question, today=today)
        if clause.kind == "act" and kind != "act":
            return  # a value joined an act: it is still that act
        if clause.kind == "item" and kind in ("value", "context"):
            return
        if clause.kind == "correction" and kind not in ("act",):
            return
        clause.kind, clause.verb = kind, verb


def evidence_bounds(message: str, start: int, end: int) -> tuple[int, int]:
    """The clause without leading connectors ("and", "but", "please"): still an exact slice."""
    cut, _ = strip_leading(message[start:end])
    start += cut
    return _trim(message, start, end)
