"""The claim guard reads a claim in any inflection and with words between (SPEC §18, I16; issue 20 item 4).

The sentences are written from each registered act's own claim phrases, inflected here by lemminflect's
single-form API (the guard builds its tables from the all-forms API), for every act of both installed
domains: with nothing committed the guard refuses them, with the act committed it lets them through,
and sentences that only mention the act (a question, an offer, a negation, a promise) pass either way.
"""

from __future__ import annotations

from functools import lru_cache

import lemminflect
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conversations.core.claims import check_claims, claim_table
from registries import get_registry

REGISTRY = get_registry()
PHRASES = {name: act.claim_phrases for name, act in REGISTRY.acts.items()}
CLAIMS = [(name, phrase) for name, phrases in PHRASES.items() for phrase in phrases]
PURE = settings(max_examples=300, deadline=None)


@lru_cache
def lemma(phrase: str) -> str:
    return lemminflect.getLemma(phrase.split()[0], upos="VERB")[0]


def inflected(phrase: str, tag: str) -> tuple[str, ...]:
    return lemminflect.getInflection(lemma(phrase), tag=tag)


def sharing(phrase: str) -> set[str]:
    """The acts that claim with the same verb ("added" is add_line's and add_traveller's)."""
    return {name for name, p in CLAIMS if lemma(p) == lemma(phrase)}


OBJECTS = ["it", "your claim", "the Berlin claim", "line 2", "the trip", "your trip to Rome", "the second segment"]
GAPS = ["", " to Dana", " to the approver", " right away"]
AROUND = ["", "Thanks for the details. ", "The hotel limit is 180 EUR a night.\n\n", "Anything else? "]
AFTER = ["", " Anything else?", " Let me know if you need more.", "\nYou can undo it from the menu."]

CLAIMING = [  # (tag, template): {v} the inflected verb, {o} its object, {g} words between, {t} the rest of the phrase
    ("VBD", "Done: I {v} {o}{g}{t}."),
    ("VBD", "I went ahead and {v} {o}{g}{t}."),
    ("VBN", "I have gone ahead and {v} {o}{g}{t}."),
    ("VBN", "I've {v} {o}{g}{t} as you asked."),
    ("VBN", "Good news, {o} has been {v}{g}{t}."),
    ("VBN", "{O} was {v}{g}{t} a moment ago."),
    ("VBD", "We {v} {o}{g}{t}, as you asked."),
    ("VBG", "I'm {v} {o}{g}{t} now."),
    ("VBG", "I am going ahead and {v} {o}{g}{t}."),
    ("VBG", "{V} {o}{g}{t} now."),
    ("VB", "OK, I {v} {o}{g}{t}."),
    ("VB", "Done: I hereby {v} {o}{g}{t}."),
]
MENTIONING = [
    ("VB", "You can {v} {o}{g}{t} when you are ready."),
    ("VB", "Shall I {v} {o}{g}{t}?"),
    ("VB", "Do you want me to {v} {o}{g}{t}?"),
    ("VB", "Once you confirm the card, I will {v} {o}{g}{t}."),
    ("VB", "To {v} {o}{g}{t}, confirm the card above."),
    ("VBN", "{O} is not {v}{g}{t} yet."),
    ("VBN", "{O} has not been {v}{g}{t}."),
    ("VBN", "{O} hasn't been {v}{g}{t} yet."),
    ("VBN", "Nothing was {v}{g}{t}."),
    ("VBN", "{O} will be {v}{g}{t} once you confirm the card."),
    ("VBN", "{O} is ready to be {v}{g}{t}."),
    ("VBN", "Has {o} been {v}{g}{t}?"),
    ("VBG", "Before {v} {o}{g}{t}, check the amounts."),
    ("VBG", "I'm not {v} {o}{g}{t}."),
]


@st.composite
def sentences(draw, templates: list[tuple[str, str]], phrase: str) -> str:
    tag, template = draw(st.sampled_from(templates))
    verb = draw(st.sampled_from(inflected(phrase, tag)))
    obj = draw(st.sampled_from(OBJECTS))
    tail = "".join(" " + word for word in phrase.split()[1:])
    text = template.format(v=verb, V=verb.capitalize(), o=obj, O=obj[0].upper() + obj[1:],
                           g=draw(st.sampled_from(GAPS)), t=tail)
    text = draw(st.sampled_from(AROUND)) + text + draw(st.sampled_from(AFTER))
    return text.upper() if draw(st.integers(0, 9)) == 0 else text


def test_every_act_of_both_domains_declares_claim_phrases():
    kinds = {act.case_kind for act in REGISTRY.acts.values()}
    assert {"expense_claim", "trip"} <= kinds
    assert all(act.claim_phrases for act in REGISTRY.acts.values())


@PURE
@given(st.data(), st.sampled_from(CLAIMS))
def test_a_claim_in_any_inflection_is_refused_unless_its_act_committed(data, claim):
    act_name, phrase = claim
    text = data.draw(sentences(CLAIMING, phrase))
    others = data.draw(st.sets(st.sampled_from(sorted(set(PHRASES) - sharing(phrase)))))

    verdict = check_claims(text, PHRASES, backed_acts=others)

    assert not verdict.allowed, text
    assert verdict.act in sharing(phrase), (text, verdict)
    assert check_claims(text, PHRASES, backed_acts=others | sharing(phrase)).allowed, text


@PURE
@given(st.data(), st.sampled_from(CLAIMS))
def test_a_sentence_that_only_mentions_an_act_is_no_claim(data, claim):
    _, phrase = claim
    text = data.draw(sentences(MENTIONING, phrase))

    assert check_claims(text, PHRASES, backed_acts=()).allowed, (text, check_claims(text, PHRASES, ()))


@pytest.mark.parametrize(("text", "act"), [
    ("Done: I withdrew your claim.", "withdraw_claim"),
    ("I sent your claim for approval.", "submit_claim"),
    ("I've gone ahead and sent your Berlin claim to Dana for approval.", "submit_claim"),
    ("Done: I sent your trip to Rome to the approver for approval.", "submit_claim"),  # seven words between
    ("Sending it for approval right now.", "submit_claim"),
    ("OK, I withdraw the Lisbon claim.", "withdraw_claim"),
    ("I'm cancelling the trip now.", "cancel_trip"),
    ("Rebooking it now.", "rebook_segment"),
    ("I\u2019m submitting it for you.", "submit_claim"),
    ("Not yet - I withdrew it.", "withdraw_claim"),
    ("Did you know I submitted it?", "submit_claim"),
    ("Is it fine? I sent it to Dana for approval.", "submit_claim"),
    ("Is there anything else now that it's submitted?", "submit_claim"),
    ("I managed to get it sent for approval.", "submit_claim"),
    ("Nothing else to do, I've added the taxi.", "add_line"),
])
def test_the_claims_of_the_issue_are_refused(text, act):
    verdict = check_claims(text, PHRASES, backed_acts=())
    assert not verdict.allowed and verdict.act == act, verdict


@pytest.mark.parametrize("text", [
    "You can submit it when ready.", "It is not submitted yet.", "Not submitted yet.", "Shall I send it for approval?",
    "Would you like me to withdraw it?", "It will be submitted once you confirm.", "Has it been submitted?",
    "It hasn't been sent to Dana for approval.", "Before submitting, add a receipt.",
    "Cancelling gives up every segment of the trip. Flex fares are refunded in full.",
    "I sent you the summary above.",  # "sent" is submit_claim's only with "for approval"
    "Was it sent for approval?", "Did it get withdrawn?", "It needs to be submitted by Friday.",
    "If I submit it now, Dana sees it tomorrow.", "It could have been sent for approval last week.",
    "I never withdrew it.", "The trip is still open and nothing was cancelled.",
])
def test_a_mention_of_an_act_is_no_claim(text):
    assert check_claims(text, PHRASES, backed_acts=()).allowed


def test_a_phrase_that_is_no_verb_is_matched_as_written():
    phrases = {"submit_claim": ("on its way to approval",)}
    assert not check_claims("Your claim is on its way to approval.", phrases, backed_acts=()).allowed
    assert check_claims("Your claim is on its way to approval.", phrases, backed_acts={"submit_claim"}).allowed
    assert check_claims("It is on its way.", phrases, backed_acts=()).allowed


def test_the_inflection_tables_are_computed_once_for_a_registry():
    first = claim_table({name: tuple(phrases) for name, phrases in PHRASES.items()})
    again = claim_table({name: list(phrases) for name, phrases in PHRASES.items()})

    assert first is again
    assert {"withdrew", "withdrawn", "withdrawing", "withdraws"} <= set(first.heads)


@pytest.mark.parametrize("reply", [
    "It should now be submitted.", "Your claim should now be withdrawn.", "It must be submitted by now.",
    "I sent your claim for Dana's approval.", "I've sent it to your manager for their approval.",
])
def test_the_reviews_unbacked_claims_are_refused(reply):
    """Review of issue 20: a "should"/"must" with "now" claims a state; words inside "for … approval" still claim."""
    assert not check_claims(reply, PHRASES, backed_acts=()).allowed, reply


@pytest.mark.parametrize("reply", ["It should be submitted by Friday.", "You must submit it before the 5th.",
                                   "Shall I send it for approval?"])
def test_advice_with_should_or_must_is_no_claim(reply):
    assert check_claims(reply, PHRASES, backed_acts=()).allowed, reply
