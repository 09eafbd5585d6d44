"""``manage.py eval``: the corpus plays through the real runtime, and the scoring tells failures from harm."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from conversations.evaluation import CorpusError, corpus_load, evaluation_run
from conversations.models import Case, Conversation, Turn

CORPUS = Path(__file__).parent / "corpus"
BERLIN = {"title": "Berlin trip", "lines": [
    {"date": "2026-11-16", "merchant": "Deutsche Bahn", "category": "travel", "amount": "89.90"},
    {"date": "2026-11-16", "merchant": "Hotel Adlon", "category": "hotel", "amount": "180.00"},
    {"date": "2026-11-17", "merchant": "Taxi Berlin", "category": "taxi", "amount": "32.60"}]}

pytestmark = pytest.mark.django_db


def run_eval(path: Path, *extra: str) -> tuple[dict, CommandError | None]:
    out = StringIO()
    error = None
    try:
        call_command("eval", str(path), "--provider", "local", "--json", *extra, stdout=out)
    except CommandError as exc:
        error = exc
    return json.loads(out.getvalue()), error


def write(tmp_path: Path, name: str, messages: list[dict], **conversation) -> Path:
    body = {"name": name, "user": "alice", "today": "2026-12-02", "cases": [BERLIN], "active": "Berlin trip",
            "messages": messages, **conversation}
    (tmp_path / f"{name}.json").write_text(json.dumps(body), encoding="utf-8")
    return tmp_path


def test_the_corpus_passes_with_the_local_interpreter_and_nothing_is_unsafe() -> None:
    report, error = run_eval(CORPUS)
    totals, parts = report["totals"], report["parts"]
    assert error is None, error
    assert totals["conversations"] >= 300
    assert parts["holdout"]["conversations"] >= 60
    assert totals["unsafe"] == 0, [(c["file"], i["index"], i["unsafe_reasons"]) for c in report["conversations"]
                                   for i in c["items"] if i["unsafe"]]
    assert totals["errors"] == 0
    # the first corpus (001-152) passes whole; the newer entries and the held-out part are measured
    # (docs/evaluation.md) and must not fall below what was reached
    first = [(c["file"], i["index"], i["problems"]) for c in report["conversations"] if c["file"][:3] < "153"
             and "/" not in c["file"] for i in c["items"] if i["verdict"] != "passed"]
    assert not first, first
    # the browser walk-throughs, a whole claim each, pass whole
    walks = [(c["file"], i["index"], i["problems"]) for c in report["conversations"] if c["file"][:4] in ("5001", "5002", "5003")
             for i in c["items"] if i["verdict"] != "passed"]
    assert not walks, walks
    assert parts["main"]["passed"] >= 555
    assert parts["holdout"]["passed"] >= 95
    assert parts["holdout-2"]["passed"] >= 95
    assert parts["holdout-3"]["passed"] >= 72
    # issue 19's held-out set: 160 whole conversations by writers who had not read the interpreter, written before
    # the change that reads them; zero unsafe (above) is the bar, the floor keeps what was reached
    assert parts["holdout-4"]["conversations"] >= 150
    assert parts["holdout-4"]["passed"] >= 158
    # a second set written blind after the round's changes (only its unsafe items were looked at)
    assert parts["holdout-5"]["conversations"] >= 90
    assert parts["holdout-5"]["passed"] >= 57
    # a third round (2026-12-04): whole claims of 9-14 messages, as a new user does one in the browser, written
    # before the change that reads them; holdout-6 blind (only its unsafe items were looked at), dev-8 worked on
    assert parts["holdout-6"]["conversations"] >= 24 and parts["dev-8"]["conversations"] >= 24
    assert parts["holdout-6"]["passed"] >= 38
    assert parts["dev-8"]["passed"] >= 66
    # a fourth (2026-12-04, second session): 20 whole claims of 11-14 messages, written before the round's changes
    # and kept blind (only its unsafe items were looked at)
    assert parts["holdout-7"]["conversations"] >= 20
    assert parts["holdout-7"]["passed"] >= 39
    # a fifth (the same session, later): 16 whole claims with notes on lines and head counts, written blind before
    # the second half of the round (main then: 17 passed, 10 unsafe)
    assert parts["holdout-8"]["conversations"] >= 16
    assert parts["holdout-8"]["passed"] >= 19
    # a sixth round (2026-12-04, third session): 36 whole conversations of 3-6 messages written before the round's
    # changes and kept blind (holdout-9: 48 passed before, 1 unsafe), and 28 more worked on (dev-9: 28 passed, 13 unsafe)
    assert parts["holdout-9"]["conversations"] >= 36 and parts["dev-9"]["conversations"] >= 28
    assert parts["holdout-9"]["passed"] >= 55
    assert parts["dev-9"]["passed"] >= 85
    # a seventh round (2026-12-04, fourth session): 40 whole conversations of 3-6 messages written before the round's
    # changes and kept blind (holdout-10: 70 passed before, 1 unsafe; 75 after, 0 unsafe)
    assert parts["holdout-10"]["conversations"] >= 40
    assert parts["holdout-10"]["passed"] >= 72
    # an eighth round (2026-12-05): 40 whole conversations of 4-6 messages written before the round's changes
    # (holdout-11: 68 passed before, 7 unsafe; 79 after, 0 unsafe; its unsafe items were looked at, nothing else)
    assert parts["holdout-11"]["conversations"] >= 40
    assert parts["holdout-11"]["passed"] >= 76
    # a ninth round (2026-12-05, second session): 40 whole conversations of 4-6 messages written before the round's
    # changes (holdout-12: 22 passed before, 10 unsafe; 28 after, 0 unsafe; its unsafe items were looked at, nothing else)
    assert parts["holdout-12"]["conversations"] >= 40
    assert parts["holdout-12"]["passed"] >= 26
    # a tenth round (2026-12-05, third session): 40 whole conversations written before the round's changes, then worked
    # on (dev-13: 51 passed before, 11 unsafe; read in full), and 40 more kept blind until the round's end (holdout-14)
    assert parts["dev-13"]["conversations"] >= 40
    assert parts["dev-13"]["passed"] >= 80
    assert parts["holdout-14"]["conversations"] >= 40  # blind: 42 passed and 8 unsafe before, 44 and 0 after
    assert parts["holdout-14"]["passed"] >= 42
    # an eleventh round (2026-12-05, fourth session): 20 whole conversations written before the round's changes, then
    # worked on (dev-15: 17 passed before, 1 unsafe), and 24 more kept blind until the round's end (holdout-16: 10 passed
    # before, 3 unsafe; 16 after, 0 unsafe; its unsafe items were looked at, nothing else)
    assert parts["dev-15"]["conversations"] >= 20
    assert parts["dev-15"]["passed"] >= 24
    assert parts["holdout-16"]["conversations"] >= 24
    assert parts["holdout-16"]["passed"] >= 15
    # a twelfth round (2026-12-05, fifth session): 20 whole conversations written before the round's changes, then worked
    # on (dev-17: 10 passed before, 0 unsafe; 36 after), and 24 more kept blind until the round's end (holdout-18: 20
    # passed before, 4 unsafe; 27 after, 0 unsafe; its unsafe items were looked at, nothing else)
    assert parts["dev-17"]["conversations"] >= 20
    assert parts["dev-17"]["passed"] >= 34
    assert parts["holdout-18"]["conversations"] >= 24
    assert parts["holdout-18"]["passed"] >= 25
    # a thirteenth round (2026-12-05, sixth session): 16 whole conversations written before the round's changes, then
    # worked on (dev-20: 26 passed before, 2 unsafe; 51 after), and 24 more kept blind until the round's end (holdout-19:
    # 20 passed before, 8 unsafe; 32 after, 0 unsafe; its unsafe items were looked at, nothing else)
    assert parts["dev-20"]["conversations"] >= 16
    assert parts["dev-20"]["passed"] >= 49
    assert parts["holdout-19"]["conversations"] >= 24
    assert parts["holdout-19"]["passed"] >= 30
    # a fourteenth round (2026-12-05, seventh session): 16 whole conversations written before the round's changes, then
    # worked on (dev-21: 13 passed before, 0 unsafe; 23 after), and 24 more kept blind until the round's end (holdout-21:
    # 29 passed before, 3 unsafe; 31 after, 0 unsafe; its unsafe items were looked at, nothing else)
    assert parts["dev-21"]["conversations"] >= 16
    assert parts["dev-21"]["passed"] >= 21
    assert parts["holdout-21"]["conversations"] >= 24
    assert parts["holdout-21"]["passed"] >= 29
    # a fifteenth round (2026-12-06, eighth session): 16 whole conversations written before the round's changes, then
    # worked on (dev-22: 30 passed before, 4 unsafe; 49 after, 0 unsafe), and 24 more kept blind until the round's end
    # (holdout-22: 16 passed before, 12 unsafe; 23 after, 0 unsafe; its unsafe items were looked at, nothing else)
    assert parts["dev-22"]["conversations"] >= 16
    assert parts["dev-22"]["passed"] >= 47
    assert parts["holdout-22"]["conversations"] >= 24
    assert parts["holdout-22"]["passed"] >= 21
    # a sixteenth round (2026-12-06, ninth session): 16 whole conversations written before the round's changes, then
    # worked on (dev-23: 14 passed before, 1 unsafe; 31 after, 0 unsafe; plus walk X1's conversation, ours), and 24
    # more kept blind until the round's end (holdout-23: 29 passed before, 0 unsafe; 30 after, 0 unsafe; three unsafe
    # items met during the round were looked at and fixed, nothing else)
    assert parts["dev-23"]["conversations"] >= 17
    assert parts["dev-23"]["passed"] >= 35
    assert parts["holdout-23"]["conversations"] >= 24
    assert parts["holdout-23"]["passed"] >= 28
    # a seventeenth round (2026-12-06, eleventh session): 16 whole conversations written before the round's changes,
    # then worked on (dev-24: 18 passed before, 1 unsafe; 31 after, 0 unsafe), and 24 more kept blind until the round's
    # end (holdout-24: 21 passed before, 0 unsafe; 26 after, 0 unsafe; only its totals and unsafe items were looked at)
    assert parts["dev-24"]["conversations"] >= 16
    assert parts["dev-24"]["passed"] >= 29
    assert parts["holdout-24"]["conversations"] >= 24
    assert parts["holdout-24"]["passed"] >= 24
    # an eighteenth round (2026-12-06, twelfth session): 14 whole conversations written before the round's changes,
    # then worked on (dev-25: 6 passed before, 0 unsafe; 10 after), and 22 more kept blind until the round's end
    # (holdout-25: 14 passed before, 0 unsafe; 15 after, 0 unsafe; only its totals and unsafe items were looked at)
    assert parts["dev-25"]["conversations"] >= 14
    assert parts["dev-25"]["passed"] >= 9
    assert parts["holdout-25"]["conversations"] >= 22
    assert parts["holdout-25"]["passed"] >= 14
    # a nineteenth round (2026-12-06, thirteenth session): 14 whole conversations written before the round's changes,
    # then worked on (dev-26: 1 passed before, 0 unsafe; 11 after), and 22 more kept blind until the round's end
    # (holdout-26: 3 passed before, 3 unsafe; 6 after, 0 unsafe; only its totals and unsafe items were looked at)
    assert parts["dev-26"]["conversations"] >= 14
    assert parts["dev-26"]["passed"] >= 10
    assert parts["holdout-26"]["conversations"] >= 22
    assert parts["holdout-26"]["passed"] >= 5
    # a twentieth round (2026-12-06, fourteenth session): 14 whole claims written before the round's changes, then
    # worked on (dev-27: 2 passed before, 3 unsafe; 4 after, 0 unsafe), and 22 more kept blind until the round's end
    # (holdout-27: 9 passed before, 2 unsafe; 11 after, 0 unsafe; only its totals and unsafe items were looked at)
    assert parts["dev-27"]["conversations"] >= 14
    assert parts["dev-27"]["passed"] >= 4
    assert parts["holdout-27"]["conversations"] >= 22
    assert parts["holdout-27"]["passed"] >= 10
    # a twenty-first round (2026-12-06, fifteenth session): 14 whole claims written before the round's changes, then
    # worked on (dev-28: 7 passed before, 3 unsafe; 11 after, 0 unsafe), and 22 more kept blind until the round's end
    # (holdout-28: 16 passed before, 3 unsafe; 16 after, 0 unsafe; only its totals and unsafe items were looked at)
    assert parts["dev-28"]["conversations"] >= 14
    assert parts["dev-28"]["passed"] >= 10
    assert parts["holdout-28"]["conversations"] >= 22
    assert parts["holdout-28"]["passed"] >= 15
    # a twenty-second round (2026-12-07, sixteenth session): 14 whole claims written before the round's changes, then
    # worked on (dev-29: 4 passed before, 5 unsafe; 4 after, 0 unsafe). Its 24 blind conversations (holdout-29: 17
    # passed before, 6 unsafe; 18 after, 1 unsafe left open) are kept apart in tests/heldout/holdout-29, outside the
    # corpus this test holds to zero unsafe: docs/evaluation.md
    assert parts["dev-29"]["conversations"] >= 14
    assert parts["dev-29"]["passed"] >= 4
    # a twenty-third round (2026-12-07, seventeenth session) closed holdout-29's open unsafe item (a stay of several
    # nights dated today told no trip going on today: 22 passed after, 0 unsafe), so it joins the corpus
    assert parts["holdout-29"]["conversations"] >= 24
    assert parts["holdout-29"]["passed"] >= 21
    # its own sets, written before the round's changes: 14 whole claims worked on (dev-30: 2 passed before, 0 unsafe; 9
    # after) and 24 conversations kept blind until the round's end (holdout-30: 27 passed before, 6 unsafe; 39 after, 0
    # unsafe; only its totals and unsafe items were looked at)
    assert parts["dev-30"]["conversations"] >= 14
    assert parts["dev-30"]["passed"] >= 8
    assert parts["holdout-30"]["conversations"] >= 24
    assert parts["holdout-30"]["passed"] >= 37
    # a twenty-fourth round (2026-12-07, eighteenth session): 24 conversations and 14 whole claims written before the
    # round's changes (holdout-31: 35 passed before, 4 unsafe; dev-31: 5 passed before, 4 unsafe; both worked on), and
    # 24 more written in the middle of the round and kept blind to its end (holdout-32: 28 passed before, 8 unsafe; only
    # its totals and unsafe items were looked at): docs/evaluation.md
    assert parts["holdout-31"]["conversations"] >= 24
    assert parts["holdout-31"]["passed"] >= 45
    assert parts["dev-31"]["conversations"] >= 14
    assert parts["dev-31"]["passed"] >= 24
    assert parts["holdout-32"]["conversations"] >= 24
    assert parts["holdout-32"]["passed"] >= 35
    # a twenty-fifth round (2026-12-07, nineteenth session): 12 conversations and 12 whole claims written before the
    # round's changes, then worked on (holdout-33: 21 passed before, 2 unsafe; dev-33: 7 passed before, 2 unsafe), and
    # 14 more written before the changes and kept blind to the round's end (holdout-35: 17 passed before, 0 unsafe).
    # A fourth set written then too (holdout-34: 16 passed before, 2 unsafe; 16 after, 2 unsafe left open) is kept apart
    # in tests/heldout/holdout-34, outside the corpus this test holds to zero unsafe: docs/evaluation.md
    assert parts["holdout-33"]["conversations"] >= 12
    assert parts["holdout-33"]["passed"] >= 40
    assert parts["dev-33"]["conversations"] >= 12
    assert parts["dev-33"]["passed"] >= 16
    assert parts["holdout-35"]["conversations"] >= 14
    assert parts["holdout-35"]["passed"] >= 16
    # a twenty-sixth round (2026-12-07, twentieth session): 12 whole claims on a claim that holds lines already, written
    # before the round's changes and worked on (dev-36: 7 passed before, 1 unsafe), and 13 conversations written then
    # and kept blind until measured after the round's first commit (holdout-36: 7 passed before, 3 unsafe; 8 after, 2
    # unsafe, both closed after). A third set (holdout-37: 14 passed before, 1 unsafe; 15 after, the same 1 left open,
    # a cascade) is kept in tests/heldout/holdout-37: docs/evaluation.md
    assert parts["dev-36"]["conversations"] >= 12
    assert parts["dev-36"]["passed"] >= 18
    assert parts["holdout-36"]["conversations"] >= 13
    assert parts["holdout-36"]["passed"] >= 8
    # a twenty-seventh round (2026-12-07, twenty-first session): 12 conversations of day paragraphs, headings and asides
    # written before the round's changes and worked on (dev-38: 16 passed before, 1 unsafe), and 13 conversations of
    # people fixing up a claim that holds lines, kept blind until measured after the round's first commit (holdout-39:
    # 36 passed before, 1 unsafe; 36 and 1 after it; 44 and 0 at the round's end). A third blind set (holdout-38: a new
    # user's whole claim; 9 passed before, 2 unsafe; 9 and 2 after the first commit; 19 and 1 at the end, a merchant
    # named with the claim's city) is kept in tests/heldout/holdout-38: docs/evaluation.md
    assert parts["dev-38"]["conversations"] >= 12
    assert parts["dev-38"]["passed"] >= 33
    assert parts["holdout-39"]["conversations"] >= 13
    assert parts["holdout-39"]["passed"] >= 44
    # a twenty-eighth round (2026-12-07, twenty-second session): 12 conversations of English written with another
    # language's words and ways (dev-40: 8 passed before, 0 unsafe; worked on), and 13 whole claims of a new user kept
    # blind until measured on the round's first commit (holdout-40: 14 passed before, 1 unsafe; 14 and 1 after it; 16
    # and 0 at the end). holdout-38 (last round's, a new user's whole claim) joins the corpus now that its one unsafe
    # item ("Bergen Taxi") is closed. A third blind set (holdout-41: 13 passed before, 1 unsafe; 15 and 1 after the first
    # commit; 16 and 1 at the end, a cascade of an earlier miss) is kept in tests/heldout/holdout-41: docs/evaluation.md
    assert parts["dev-40"]["conversations"] >= 12
    assert parts["dev-40"]["passed"] >= 26
    assert parts["holdout-40"]["conversations"] >= 13
    assert parts["holdout-40"]["passed"] >= 16
    assert parts["holdout-38"]["conversations"] >= 13
    assert parts["holdout-38"]["passed"] >= 21
    # a twenty-ninth round (2026-12-07, twenty-third session): 12 conversations of long narrative messages with asides
    # (dev-42: 3 passed before, 0 unsafe once one expectation's act name was put right; worked on), and 13 conversations
    # of people telling how they paid, who was there and what the company card covered, kept blind until measured on
    # the round's first commit (holdout-43: 7 passed before, 2 unsafe; 7 and 2 after it; 7 and 0 at the end). A third
    # blind set (holdout-42: a new user's whole claim; 11 passed before, 3 unsafe; 11 and 3 after the first commit; 15
    # and 1 at the end, a hotel's name cut at its digits) is kept in tests/heldout/holdout-42: docs/evaluation.md
    assert parts["dev-42"]["conversations"] >= 12
    assert parts["dev-42"]["passed"] >= 3
    assert parts["holdout-43"]["conversations"] >= 13
    assert parts["holdout-43"]["passed"] >= 7


def test_the_corpus_covers_every_phrasing_family() -> None:
    tags = {tag for _, conversation in corpus_load(CORPUS) for tag in conversation.tags}
    assert {"open", "add", "update", "remove", "submit", "withdraw", "multi", "retraction", "correction", "hold",
            "question", "policy", "case", "exchange", "calculate", "next", "selection", "target", "date",
            "honesty", "mode", "typos", "politeness", "multi-turn"} <= tags


def test_each_conversation_leaves_nothing_behind() -> None:
    before = (Case.objects.count(), Conversation.objects.count(), Turn.objects.count())
    report = evaluation_run(path=CORPUS / "001-open-for-trip-in-eur.json", provider="local")
    assert report.totals()["passed"] == 1
    assert (Case.objects.count(), Conversation.objects.count(), Turn.objects.count()) == before


def test_a_wrong_expectation_of_an_effect_is_failed_and_unsafe(tmp_path: Path) -> None:
    path = write(tmp_path, "wrong-amount", [{"text": "add a taxi ride, 42.50, yesterday", "expect": {
        "acts": [{"act": "add_line", "outcome": "executed"}],
        "cases": {"Berlin trip": {"lines": ["89.90", "180.00", "32.60", "40.00"]}}}}])
    report, error = run_eval(path)
    item = report["conversations"][0]["items"][0]
    assert item["verdict"] == "failed" and item["unsafe"]
    assert any("42.50" in reason for reason in item["unsafe_reasons"])
    assert error is not None and "unsafe" in str(error)


def test_an_effect_on_a_claim_the_corpus_did_not_mention_is_unsafe(tmp_path: Path) -> None:
    path = write(tmp_path, "no-expectation", [{"text": "remove line 1", "click": "confirm", "expect": {
        "acts": [{"act": "remove_line", "outcome": "executed"}]}}])
    report, error = run_eval(path)
    item = report["conversations"][0]["items"][0]
    assert item["unsafe"] and error is not None
    assert any("Berlin trip" in reason for reason in item["unsafe_reasons"])


def test_an_unexpected_act_executing_is_unsafe_even_if_the_state_was_listed(tmp_path: Path) -> None:
    path = write(tmp_path, "extra-act", [{"text": "add a taxi for 20 and submit it", "click": "confirm", "expect": {
        "acts": [{"act": "add_line", "outcome": "executed"}],
        "cases": {"Berlin trip": {"status": "draft", "lines": ["89.90", "180.00", "32.60", "20.00"]}}}}])
    report, _ = run_eval(path)
    item = report["conversations"][0]["items"][0]
    assert item["unsafe"]
    assert any("submit_claim" in reason for reason in item["unsafe_reasons"])


def test_an_act_taken_back_need_not_be_listed_unless_the_corpus_lists_take_backs(tmp_path: Path) -> None:
    said = "add a taxi for 20 and a coffee 3.20 - actually scrap the coffee"
    lines = {"Berlin trip": {"lines": ["89.90", "180.00", "32.60", "20.00"]}}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    unlisted = write(tmp_path / "a", "unlisted", [{"text": said, "expect": {
        "acts": [{"act": "add_line", "outcome": "executed"}], "cases": lines}}])
    listed_wrong = write(tmp_path / "b", "listed", [{"text": said, "expect": {
        "acts": [{"act": "add_line", "outcome": "executed"}, {"act": "add_line", "outcome": "retracted"},
                 {"act": "add_line", "outcome": "retracted"}], "cases": lines}}])
    assert run_eval(unlisted)[0]["conversations"][0]["items"][0]["verdict"] == "passed"
    item = run_eval(listed_wrong)[0]["conversations"][0]["items"][0]
    assert item["verdict"] == "failed" and any("retracted" in p for p in item["problems"])


def test_a_missing_effect_is_not_understood_but_never_unsafe(tmp_path: Path) -> None:
    path = write(tmp_path, "missing", [{"text": "blorp the wizzle", "expect": {
        "acts": [{"act": "add_line", "outcome": "executed"}],
        "cases": {"Berlin trip": {"lines": ["89.90", "180.00", "32.60", "20.00"]}}}}])
    report, error = run_eval(path)
    item = report["conversations"][0]["items"][0]
    assert item["verdict"] == "not_understood" and not item["unsafe"]
    assert error is None  # only --strict fails on a miss
    _, strict_error = run_eval(path, "--strict")
    assert strict_error is not None


def test_answer_and_read_expectations_are_checked(tmp_path: Path) -> None:
    path = write(tmp_path, "answers", [
        {"text": "what's the total?", "expect": {"acts": [], "answer_contains": ["302.50"], "reads": ["get_case"]}},
        {"text": "what's the total?", "expect": {"answer_contains": ["999.99"]}},
        {"text": "what's the total?", "expect": {"reads": ["lookup_policy"]}}])
    report, _ = run_eval(path)
    verdicts = [i["verdict"] for i in report["conversations"][0]["items"]]
    assert verdicts == ["passed", "failed", "failed"]


def test_cards_are_answered_by_option_and_by_claim_title(tmp_path: Path) -> None:
    lisbon = {"title": "Lisbon conference", "lines": [
        {"date": "2026-11-23", "merchant": "TAP", "category": "travel", "amount": "245.00"}]}
    path = write(tmp_path, "cards", [{"text": "submit the claim", "click": ["Lisbon conference", "confirm"], "expect": {
        "acts": [{"act": "submit_claim", "outcome": "executed"}],
        "cases": {"Lisbon conference": {"status": "submitted"}, "Berlin trip": {"status": "draft"}}}}],
        cases=[BERLIN, lisbon], active=None)
    report, error = run_eval(path)
    assert error is None and report["totals"]["passed"] == 1, report


def test_a_corpus_file_with_an_unknown_field_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "typo", [{"text": "hi", "expect": {"act": []}}])
    with pytest.raises(CorpusError):
        corpus_load(tmp_path)
    with pytest.raises(CommandError):
        call_command("eval", str(tmp_path), "--provider", "local", stdout=StringIO())


def test_the_text_report_prints_totals(tmp_path: Path) -> None:
    path = write(tmp_path, "text", [{"text": "what's the total?", "expect": {"acts": []}}])
    out = StringIO()
    call_command("eval", str(path), "--provider", "local", stdout=out)
    assert "1 items: 1 passed, 0 failed, 0 not understood, 0 unsafe" in out.getvalue()
