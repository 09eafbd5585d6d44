"""The claim guard's fact check (SPEC §18): an answer about a case must match the case after the turn."""

from __future__ import annotations

from conversations.core.facts import CaseFacts, check_facts

BERLIN = CaseFacts("clm_B", "Berlin trip", 4, "312.50", "“Berlin trip” · draft · 4 lines · 312.50 EUR")


def test_a_total_from_before_this_turns_edit_is_replaced_by_the_facts() -> None:
    verdict = check_facts("“Berlin trip” comes to 302.50 EUR over 3 lines.", [BERLIN])
    assert verdict.corrected and "312.50" in verdict.text and "302.50" not in verdict.text


def test_no_lines_said_of_a_case_with_lines_is_replaced() -> None:
    assert check_facts("“Berlin trip” has no other lines.", [BERLIN]).corrected


def test_an_answer_that_matches_passes_unchanged() -> None:
    text = "“Berlin trip” comes to 312.50 EUR over 4 lines."
    assert check_facts(text, [BERLIN]).text == text


def test_a_category_total_is_not_taken_for_the_case_total() -> None:
    text = "On “Berlin trip” hotel lines come to 180.00 EUR (1 line)."
    assert check_facts(text, [BERLIN]).text == text


def test_naming_one_missing_line_is_not_a_claim_of_no_lines():
    from conversations.core.facts import CaseFacts, check_facts

    facts = [CaseFacts("clm_1", "Berlin trip", 3, "302.50", "“Berlin trip” · draft · 3 lines · 302.50 EUR")]
    assert not check_facts("“Berlin trip” has no line 9; it has: 1. Rail, 89.90 EUR.", facts).corrected
    assert check_facts("“Berlin trip” has no lines yet.", facts).corrected
