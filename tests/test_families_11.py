"""Families of the eleventh round (issue 19), with sentences of our own: a day said once covers the expenses told
with it in the sentence; an amount answered completes the expense it was asked about, never the others of that
message; numbers joined to words are no prices; what came with a thing is not what was bought; the page names lines
and conversations by what they are.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from expenses.interpreter.audit import audited
from expenses.interpreter.context import Context
from tests.test_eval import run_eval, write
from tests.test_interpreter import request
from tests.test_walkthrough_families import conversation

TODAY = "2026-12-03"


# ----------------------------------------------------------------- 1. a day said once covers the sentence


@pytest.mark.parametrize("message", ["Flight was 412.60 on Monday, and the Uber from Logan to the hotel was 38.25",
                                     "taxi 12 on monday, coffee 4", "on monday lunch 23 and a taxi 15",
                                     "Monday: lunch 23, taxi 15"])
def test_a_day_said_for_the_first_expense_of_a_sentence_is_the_day_of_the_others_told_with_it(message: str) -> None:
    [plan] = conversation([message], today=TODAY)
    assert [a.args.get("date") for a in plan.acts] == ["2026-11-30", "2026-11-30"] and not plan.constraints


def test_a_new_sentence_does_not_take_the_day_of_the_one_before() -> None:
    [plan] = conversation(["taxi 12 on monday. coffee 4"], today=TODAY)
    assert [a.args.get("date") for a in plan.acts] in ([], ["2026-11-30"], ["2026-11-30", None])  # (asked, or today)


def test_the_audit_asks_when_a_reading_dates_the_second_expense_of_such_a_sentence_today() -> None:
    message = "Flight was 412.60 on Monday, and the Uber from Logan to the hotel was 38.25"
    ctx = Context.of(request(message, today=TODAY))
    today_uber = {"plan": {"acts": [
        {"id": "a1", "act": "add_line", "args": {"amount": "412.60", "category": "travel", "date": "2026-11-30"},
         "evidence": "Flight was 412.60 on Monday"},
        {"id": "a2", "act": "add_line", "args": {"amount": "38.25", "category": "taxi", "merchant": "Uber"},
         "evidence": "and the Uber from Logan to the hotel was 38.25"}]}}
    out = json.loads(audited(json.dumps(today_uber), message, ctx))["plan"]
    assert out["acts"] == [] and "Monday" in out["answers"][-1]["text"]


@pytest.mark.django_db
def test_through_the_runtime_both_lines_land_on_that_day(tmp_path: Path) -> None:
    said = "Flight was 412.60 on Monday, and the Uber from Logan to the hotel was 38.25"
    lines = ["89.90", "180.00", "32.60", {"amount": "412.60", "date": "2026-11-30"},
             {"amount": "38.25", "date": "2026-11-30", "category": "taxi"}]
    path = write(tmp_path, "same-day", [
        {"text": said, "expect": {"acts": [{"act": "add_line", "outcome": "executed"}] * 2,
                                  "cases": {"Berlin trip": {"total": "753.35", "lines": lines}}}}], today=TODAY)
    report, error = run_eval(path)
    assert error is None and [i["verdict"] for c in report["conversations"] for i in c["items"]] == ["passed"], [
        (i["problems"], i["unsafe_reasons"]) for c in report["conversations"] for i in c["items"]]


# ----------------------------------------------------------------- 2. how people write


def test_a_clock_time_is_no_word_of_what_the_expense_was() -> None:
    [plan] = conversation(["Uber 23.40 at 7pm yesterday"], today=TODAY)
    [act] = plan.acts
    assert act.args.get("description") in (None, "") and act.args["amount"] == "23.40"


# ----------------------------------------------------------------- 3. the page


def test_the_panel_calls_a_line_by_who_was_paid_else_by_what_it_was_else_by_its_kind() -> None:
    from expenses.domain import panel
    from registries import CaseSnapshot

    lines = [{"id": "ln_aaaa1", "date": "2026-11-30", "merchant": "", "category": "travel", "amount": "412.60",
              "description": "Flight"},
             {"id": "ln_aaaa2", "date": "2026-11-30", "merchant": "Uber", "category": "taxi", "amount": "38.25",
              "description": "from Logan to the hotel"},
             {"id": "ln_aaaa3", "date": "2026-12-01", "merchant": "", "category": "meals", "amount": "12.00"}]
    snap = CaseSnapshot(id="clm_BOST0001", kind="expense_claim", owner_id=1, title="Boston", status="draft",
                        revision=3, state={"title": "Boston", "currency": "USD", "lines": lines, "line_counter": 3})
    items = panel(snap).to_json()["items"]
    assert [(i["label"], i["meta"]) for i in items] == [
        ("Flight", "2026-11-30 · travel"), ("Uber", "2026-11-30 · taxi · from Logan to the hotel"),
        ("Meals", "2026-12-01")]


# ----------------------------------------------------------------- 4. a short answer to its own question


def test_an_amount_answered_completes_the_expense_asked_about_never_the_others_of_that_message() -> None:
    first, second = conversation(["lunch 12 and a taxi to the airport", "18"], today=TODAY)
    assert [a.args["amount"] for a in first.acts] == ["12.00"] and first.pending is not None
    assert first.pending.about == "a taxi to the airport"
    [taxi] = second.acts
    assert (taxi.args["amount"], taxi.args["category"], taxi.earlier_evidence) == ("18.00", "taxi",
                                                                                   "a taxi to the airport")
    assert not second.constraints  # no day was said anywhere: today's, as for any line told without one


def test_a_day_said_for_the_other_expense_of_that_sentence_is_its_day() -> None:
    _, second = conversation(["lunch 12 on monday and a taxi to the airport", "18"], today=TODAY)
    [taxi] = second.acts
    assert taxi.args["date"] == "2026-11-30" and not second.constraints


def test_another_expense_after_the_question_is_read_afresh() -> None:
    _, second = conversation(["lunch 12 and a taxi to the airport", "coffee 4"], today=TODAY)
    [coffee] = second.acts
    assert (coffee.args["category"], coffee.earlier_evidence) == ("meals", None)


# ----------------------------------------------------------------- 5. numbers that are no prices, expenses not read


@pytest.mark.parametrize(("message", "amount"), [
    ("7-Eleven snacks 6,40 tuesday", "6.40"),
    ("3-day metro pass 24 on monday", "24.00"),
    ("dinner 45 at 5-star hotel", "45.00"),  # never 45 × 5, never a hotel of 5.00
])
def test_a_number_joined_to_a_word_is_part_of_a_name_or_a_count(message: str, amount: str) -> None:
    [plan] = conversation([message], today=TODAY)
    assert [a.args["amount"] for a in plan.acts] == [amount]


def test_a_price_at_the_end_of_a_sentence_is_still_a_unit_price() -> None:
    [plan] = conversation(["2 nights at 150."], today=TODAY)
    assert [(a.args["amount"], a.args.get("quantity")) for a in plan.acts] == [("300.00", 2)]


def test_an_expense_of_another_kind_joined_after_the_amount_is_never_swallowed_into_the_first() -> None:
    [plan] = conversation(["dinner at Luigis 45 and a taxi back to the hotel on monday"], today=TODAY)
    assert plan.acts == [] and plan.answers  # asked: never one dinner "back to the hotel"
    [plan] = conversation(["lunch 12 and a taxi 20, then dinner 30"], today=TODAY)  # each read: none swallowed
    assert sorted(a.args["amount"] for a in plan.acts) == ["12.00", "20.00", "30.00"]


@pytest.mark.parametrize(("message", "category"), [
    ("hotel 120 incl breakfast on monday", "hotel"), ("room with breakfast 95 tuesday", "hotel"),
    ("breakfast 12 incl coffee", "meals"), ("lunch with coffee 14", "meals")])
def test_what_came_with_the_thing_is_not_what_was_bought(message: str, category: str) -> None:
    [plan] = conversation([message], today=TODAY)
    assert [a.args["category"] for a in plan.acts] == [category]


# ----------------------------------------------------------------- 6. the note a taxi above the limit needs


@pytest.mark.parametrize(("message", "note"), [
    ("the taxi was from the airport to the hotel", "from the airport to the hotel"),
    ("the taxi was from the airport to the hotel because the S-Bahn was on strike",
     "from the airport to the hotel because the S-Bahn was on strike"),
])
def test_the_route_of_a_ride_is_its_description(message: str, note: str) -> None:
    from tests.test_walkthrough_families import lyon_with

    lyon = lyon_with([{"id": "ln_taxi0001", "date": "2026-11-30", "merchant": "", "category": "taxi",
                       "amount": "54.00"}])
    [plan] = conversation([message], today=TODAY, cases=(lyon,), active="clm_LYON0001")
    [act] = plan.acts
    assert (act.act, act.args) == ("update_line", {"line": 1, "description": note})


def test_a_taxi_above_the_limit_with_its_note_is_not_asked_for_the_note_again() -> None:
    from expenses.policies import category_limit_notes
    from registries import CaseSnapshot

    lines = [{"id": "ln_aaaa1", "date": "2026-11-30", "merchant": "", "category": "taxi", "amount": "54.00",
              "description": "from the airport, strike"}]
    snap = CaseSnapshot(id="clm_X0000001", kind="expense_claim", owner_id=1, title="X", status="draft", revision=1,
                        state={"title": "X", "currency": "EUR", "lines": lines, "line_counter": 1})

    class Args:
        line, amount, category, description = 1, None, None, None

    [(code, text)] = category_limit_notes(snap, Args())
    assert "your note “from the airport, strike” goes with it" in text


# ----------------------------------------------------------------- 7. a provider's card when unsure, measured


@pytest.mark.django_db
def test_eval_confirm_unsure_confirms_a_provider_s_unsure_card_and_marks_the_item(tmp_path: Path, script) -> None:
    from django.core.management import call_command

    said = "taxi 32 and 14 on monday"
    script(said, {"plan": {"acts": [{"id": "a1", "act": "add_line", "args": {"amount": "14", "category": "taxi"},
                                     "evidence": said}],
                           "constraints": [{"kind": "confirm", "acts": ["*"], "evidence": "32"}]}})
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write(corpus, "unsure", [{"text": said, "expect": {"acts": [{"act": "add_line", "outcome": "executed"}],
                                                      "cases": {"Berlin trip": {"total": "316.50", "lines": [
                                                          "89.90", "180.00", "32.60", "14.00"]}}}}])

    def run(*extra: str) -> dict:
        from io import StringIO

        from django.core.management.base import CommandError
        out = StringIO()
        try:
            call_command("eval", str(corpus), "--provider", "scripted", "--json", *extra, stdout=out)
        except CommandError:
            pass  # the verdicts are in the report
        return json.loads(out.getvalue())["conversations"][0]["items"][0]

    plain, confirmed = run(), run("--confirm-unsure")
    assert (plain["unsure_card"], plain["verdict"], plain["acts"][0]["outcome"]) == (True, "failed",
                                                                                  "awaiting_confirmation")
    assert (confirmed["unsure_card"], confirmed["verdict"]) == (True, "passed"), (confirmed["problems"], confirmed["unsafe_reasons"])


# ----------------------------------------------------------------- 8. found by this round's evaluation and walks


def test_a_stay_told_beside_a_dated_ride_keeps_a_day_of_its_own() -> None:
    [plan] = conversation(["train 84 mon and hotel 2 nites 230 each"], today=TODAY)
    assert [(a.args["category"], a.args.get("date")) for a in plan.acts] in (
        [("travel", "2026-11-30"), ("hotel", None)], [("travel", "2026-11-30")])  # the stay's day is its own, or asked


@pytest.mark.parametrize("message", [
    "Also her flight on Monday, 386.00 - and the airport train, 27.60... actually hold off on the train, she may "
    "have used her GA pass",
    "Then dinner on Wednesday at Sjomagasinet with the plant manager, the bill was 89 but she had the wine so I'm "
    "only claiming the food, that was 64",
])
def test_a_take_back_or_a_part_claimed_beside_the_lines_is_asked_never_added_whole(message: str) -> None:
    [plan] = conversation([message], today=TODAY)
    assert plan.acts == [] and plan.answers


def test_a_unit_price_with_thousands_is_one_price() -> None:
    [plan] = conversation(["2 nights at 1.295,50 each"], today=TODAY)
    assert [(a.args["amount"], a.args.get("quantity")) for a in plan.acts] == [("2591.00", 2)]


def test_forget_the_thing_removes_the_line_it_names_behind_a_card() -> None:
    from tests.test_walkthrough_families import lyon_with

    lyon = lyon_with([{"id": "ln_sim00001", "date": "2026-12-01", "merchant": "", "category": "other",
                       "amount": "15.00", "description": "SIM card"},
                      {"id": "ln_taxi0001", "date": "2026-11-30", "merchant": "", "category": "taxi", "amount": "20.00"}])
    [plan] = conversation(["forget the sim card..."], today=TODAY, cases=(lyon,), active="clm_LYON0001")
    assert [(a.act, a.args) for a in plan.acts] == [("remove_line", {"line": 1})]
    [plan] = conversation(["forget the hotel"], today=TODAY, cases=(lyon,), active="clm_LYON0001")
    assert plan.acts == []  # no hotel on the claim: nothing to take back


def test_a_title_never_ends_on_the_word_that_joins_what_came_next() -> None:
    [plan] = conversation(["open a new claim Brussels EU meetings and then Tuesday the Eurostar there was ninety five"],
                          today="2026-09-28")
    assert [a.args["title"] for a in plan.acts if a.act == "open_claim"] == ["Brussels EU meetings"]


def test_an_amount_said_names_the_line_before_a_word_of_a_description_does() -> None:
    from tests.test_walkthrough_families import lyon_with

    lyon = lyon_with([{"id": "ln_lnch0001", "date": "2026-11-18", "merchant": "", "category": "meals", "amount": "42.00",
                       "description": "lnch"},
                      {"id": "ln_sand0001", "date": "2026-11-19", "merchant": "", "category": "meals", "amount": "24.50",
                       "description": "sandwich"}])
    [plan] = conversation(["remove the 24.50 lunch"], today=TODAY, cases=(lyon,), active="clm_LYON0001")
    assert [(a.act, a.args) for a in plan.acts] == [("remove_line", {"line": 2})]


# ----------------------------------------------------------------- 9. a reviewer's sentences (safety review of the round)


def _two_rides():
    from tests.test_walkthrough_families import lyon_with

    return lyon_with([{"id": "ln_uber0001", "date": "2026-11-30", "merchant": "Uber", "category": "taxi",
                       "amount": "32.00", "description": "from the airport to the hotel"}])


@pytest.mark.parametrize("message", ["the uber went from the hotel to the airport", "the taxi was to the train station",
                                     "the cab was to the client office because the metro was closed"])
def test_a_route_said_of_a_ride_that_has_words_of_its_own_is_asked_never_overwritten(message: str) -> None:
    [plan] = conversation([message], today=TODAY, cases=(_two_rides(),), active="clm_LYON0001")
    assert plan.acts == [] and plan.answers


@pytest.mark.parametrize("message", ["hotel 120 on monday, dinner 40 the following evening",
                                     "train 80 on monday and the return ticket 75 on the way home"])
def test_an_expense_said_to_be_on_another_day_never_takes_the_day_before_it(message: str) -> None:
    [plan] = conversation([message], today=TODAY)
    assert all(a.args.get("date") != "2026-11-30" for a in plan.acts[1:]) and (plan.acts == [] or plan.answers)


def test_an_amount_answered_never_lands_on_the_active_claim_when_the_message_named_another() -> None:
    from tests.test_interpreter import claim

    paris = claim("clm_PARI0001", "Paris sales trip", [])
    first, second = conversation(["for Paris: lunch 12 and a taxi to the airport", "18"], today=TODAY,
                                 cases=(_two_rides(), paris), active="clm_LYON0001")
    # asked and kept open for the claim named (Paris), or not kept: never the active Lyon claim
    assert all(a.case is not None and (a.case.match == "Paris" or a.case.id == "clm_PARI0001") for a in second.acts)
