"""Families of the thirteenth round (issue 19), with sentences of our own: a stay told by its dotted first and last
day; a dotted day beside the weekday it fell on; words that announce corrections; a total the user agrees with; a thing
named before "remove it" that the last line is not; a bare weekday said on that weekday during the trip; thousands
grouped by a space; a sentence that only says the day; an expense whose day is not said beside others whose days
are; rows pasted with semicolons; a currency written in its own letters.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conversations.core.plan import parse_model_answer
from expenses.interpreter import interpret
from tests.test_eval import run_eval, write
from tests.test_interpreter import request
from tests.test_walkthrough_families import added, conversation, lyon_with

TODAY = "2026-12-03"  # a Thursday


def on(lines: list[dict]) -> dict:
    return {"cases": (lyon_with(lines),), "active": "clm_LYON0001", "today": TODAY}


def line(ident: str, day: str, category: str, amount: str, description: str = "") -> dict:
    return {"id": ident, "date": day, "merchant": "", "category": category, "amount": amount,
            **({"description": description} if description else {})}


def edits(plan) -> list[dict]:
    return [dict(a.args) for a in plan.acts if a.act == "update_line"]


TRIP = [line("ln_taxi0001", "2026-12-01", "taxi", "32.00"), line("ln_lnch0001", "2026-12-02", "meals", "14.50", "lunch")]


# ----------------------------------------------------------------- 1. dotted days


def test_a_stay_told_by_its_dotted_first_and_last_day_is_one_hotel_line_dated_at_check_in() -> None:
    [plan] = conversation(["hotel 2 nights 30.11-2.12, 238,00"], **on([]))
    [hotel] = added(plan)
    assert (hotel["category"], hotel["amount"], hotel["date"], hotel.get("quantity")) == ("hotel", "238.00",
                                                                                          "2026-11-30", 2)


def test_dotted_ends_closed_by_their_dots_are_a_stay_too() -> None:
    [plan] = conversation(["Hotel Sacher 29.11.-1.12. 310"], **on([]))
    [hotel] = added(plan)
    assert (hotel["amount"], hotel["date"]) == ("310.00", "2026-11-29")


def test_two_prices_joined_by_a_dash_are_no_stay() -> None:
    [plan] = conversation(["taxi 12.50-14.80"], **on([]))
    assert all(a.args.get("date") != "2026-12-14" for a in plan.acts)


def test_a_dotted_day_beside_its_weekday_is_that_day_never_a_price() -> None:
    [plan] = conversation(["lunch friday 27.11, taxi 15"], **on([]))
    assert all(a.args.get("amount") not in ("27.11",) for a in plan.acts)
    assert not [a for a in added(plan) if a["category"] == "meals" and a["amount"] == "15.00"]


def test_a_price_said_beside_another_kind_is_never_given_to_the_kind_before_it() -> None:
    [plan] = conversation(["lunch on friday, taxi 15"], **on([]))
    assert not [a for a in added(plan) if a["category"] == "meals"]


# ----------------------------------------------------------------- 2. corrections announced


def test_words_that_announce_two_mistakes_open_the_corrections_that_follow() -> None:
    [plan] = conversation(["sorry, 2 mistakes: the taxi was 23 and the lunch 14"], **on(TRIP))
    assert edits(plan) == [{"line": 1, "amount": "23.00"}, {"line": 2, "amount": "14.00"}]


def test_corrections_announced_are_never_added_as_new_lines() -> None:
    [plan] = conversation(["2 corrections: taxi 23, lunch 14"], **on(TRIP))
    assert not added(plan)


def test_a_dotted_day_and_its_weekday_move_the_line_said_with_the_day_it_is_not() -> None:
    breakfast = line("ln_brkf0001", "2026-12-03", "meals", "9.00", "breakfast")
    [plan] = conversation(["the breakfast was tue 1.12, not thu"], **on([*TRIP, breakfast]))
    assert edits(plan) == [{"line": 3, "date": "2026-12-01"}]


# ----------------------------------------------------------------- 3. agreeing with the total


def test_the_total_said_to_be_right_is_agreement_and_the_submit_beside_it_is_read() -> None:
    [plan] = conversation(["46,50 is right, submit it pls"], **on(TRIP))
    assert [a.act for a in plan.acts] == ["submit_claim"]


def test_another_figure_said_to_be_right_is_no_agreement_and_nothing_is_submitted() -> None:
    [plan] = conversation(["50 is right, submit it pls"], **on(TRIP))
    assert not plan.acts


# ----------------------------------------------------------------- 4. "remove it" after a thing the line is not


def test_a_thing_named_before_remove_it_that_the_only_line_is_not_removes_nothing() -> None:
    dinner = line("ln_dinr0001", "2026-12-02", "meals", "38.90", "dinner")
    [plan] = conversation(["The fika I take myself, remove it please."], **on([dinner]))
    assert not [a for a in plan.acts if a.act == "remove_line"]


def test_the_line_itself_named_before_remove_it_is_removed() -> None:
    dinner = line("ln_dinr0001", "2026-12-02", "meals", "38.90", "dinner")
    [plan] = conversation(["the dinner was private, remove it"], **on([dinner]))
    assert [(a.act, a.args) for a in plan.acts] == [("remove_line", {"line": 1})]


# ----------------------------------------------------------------- 5. days


def test_a_bare_weekday_said_on_that_weekday_during_the_trip_is_today() -> None:
    [plan] = conversation(["breakfast 9 thu"], **on(TRIP))
    [meal] = added(plan)
    assert meal["date"] == "2026-12-03"


def test_a_sentence_that_only_says_the_day_dates_the_sentences_after_it() -> None:
    [plan] = conversation(["Day 1, Monday 30th. Flight to Vienna, Austrian, 189.00. Taxi into town 14.90."], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("189.00", "2026-11-30"), ("14.90", "2026-11-30")]


def test_an_expense_whose_day_is_not_said_beside_others_whose_days_are_is_asked_about() -> None:
    [plan] = conversation(["hotel was the Hyatt, 2 nights, 489.20. lunch at the show tuesday 22.40"], **on([]))
    assert [(a["category"], a["date"]) for a in added(plan)] == [("meals", "2026-12-01")]
    assert any("Which day" in a.text for a in plan.answers)


def test_a_day_said_before_carries_to_the_next_sentence_of_the_story() -> None:
    [plan] = conversation(["Tuesday I flew with TAP to Porto, 156,30 euros. Then the metro from the airport, 2,60"],
                          **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("156.30", "2026-12-01"), ("2.60", "2026-12-01")]


def test_a_sentence_that_only_adds_to_the_list_does_not_take_the_day_before() -> None:
    # "Also …", "And …" add to the list, not to the day: the parking may be another day's (issue 19, holdout-13)
    for text in ("Tuesday I flew with TAP to Porto, 156,30 euros. Also the metro from the airport, 2,60",
                 "Taxi from Waverley to the hotel on the 9th, 12.80. And parking at Stevenage station, 38."):
        [plan] = conversation([text], **on([]))
        assert len(added(plan)) == 1
        assert "Which day was" in " ".join(a.text for a in plan.answers)


def test_a_stay_from_a_weekday_is_dated_that_day() -> None:
    [plan] = conversation(["hotel Leonardo 2 nights from tue 264"], **on([]))
    [hotel] = added(plan)
    assert hotel["date"] == "2026-12-01"


# ----------------------------------------------------------------- 6. figures and currencies


def test_thousands_grouped_by_a_space_beside_crowns_are_one_amount() -> None:
    [plan] = conversation(['open a claim "Stockholm visit" in SEK. Hotel Scandic 2 nights, 3 480 kr on 1/12'],
                          cases=(), today=TODAY)
    assert [a["amount"] for a in added(plan)] == ["3480.00"]


def test_a_currency_written_in_its_own_letters_is_never_the_claims() -> None:
    answer = parse_model_answer(interpret(request("taxi to hotel 95 zł on monday", **on([]))))
    # the złoty are converted (their rate is looked up first), never stored as euros
    assert [(r.tool, r.args["from"], r.args["amount"]) for r in answer.reads] == [("exchange_rate", "PLN", "95.00")]


def test_rows_pasted_with_semicolons_keep_each_rows_payee() -> None:
    [plan] = conversation(["add these:\n17/11/2026; Lufthansa; flight HAM-FRA; 214.30\n"
                           "17/11/2026; Steigenberger; hotel 2 nights; 398.00"], **on([]))
    assert [(a["merchant"], a["amount"], a["date"]) for a in added(plan)] == [
        ("Lufthansa", "214.30", "2026-11-17"), ("Steigenberger", "398.00", "2026-11-17")]


def test_a_story_that_opens_the_claim_tells_what_was_paid_even_with_was() -> None:
    [plan] = conversation(['Please open a claim "Stockholm visit" in SEK. Tuesday 1/12 I took the SJ train for 689 kr, '
                           "and the taxi from Centralen to the customer was 312 kr."], cases=(), today=TODAY)
    assert [a.act for a in plan.acts] == ["open_claim", "add_line", "add_line"]
    assert [a["amount"] for a in added(plan)] == ["689.00", "312.00"]


def test_a_deposit_for_a_room_hired_is_no_hotel_and_the_claim_named_is_no_description() -> None:
    [plan] = conversation(["add to the Lyon claim: room hire deposit for the Seehaus, 250, paid on the 20th"], **on([]))
    [deposit] = added(plan)
    assert deposit["category"] == "other" and "claim" not in deposit.get("description", "")


# ----------------------------------------------------------------- 7. walk-through L's families


@pytest.mark.django_db
def test_a_yes_to_a_conversion_adds_the_expense_a_terminal_named_beside_its_price(tmp_path: Path) -> None:
    path = write(tmp_path, "terminal", [
        {"text": "wed 2.12 taxi hotel -> terminal 310 SEK", "expect": {"acts": []}},
        {"text": "yes", "expect": {"acts": [{"act": "add_line", "outcome": "executed"}], "cases": {"Berlin trip": {
            "lines": ["89.90", "180.00", "32.60", {"amount": "28.08", "category": "taxi", "date": "2026-12-02"}]}}}},
    ], today="2026-12-05")
    report, error = run_eval(path)
    assert error is None
    assert [i["verdict"] for c in report["conversations"] for i in c["items"]] == ["passed", "passed"], report


def test_an_estimate_is_asked_about_never_added() -> None:
    for message in ("hotel was about 140 a night", "taxi ~30", "taxi roughly 30 yesterday"):
        [plan] = conversation([message], **on([]))
        assert not added(plan), message


def test_a_clock_time_after_about_is_no_estimate_of_the_price() -> None:
    [plan] = conversation(["taxi 30 at about 8pm"], **on([]))
    assert [a["amount"] for a in added(plan)] == ["30.00"]


def test_dotted_days_opening_parts_of_a_message_before_their_prices_are_days() -> None:
    [plan] = conversation(["2.12 lunch site canteen 13,20 eur; 3.12 coffee at airport 4,50 eur"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("13.20", "2026-12-02"), ("4.50", "2026-12-03")]


def test_the_date_of_a_line_changed_to_a_dotted_day() -> None:
    [plan] = conversation(["change the date of line 2 to 1.12"], **on(TRIP))
    assert edits(plan) == [{"line": 2, "date": "2026-12-01"}]


def test_both_on_a_day_dates_every_expense_of_the_sentence() -> None:
    [plan] = conversation(["airport bus 11.68 EUR and dinner at Heaven 34.87 EUR, both on 1.12"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("11.68", "2026-12-01"), ("34.87", "2026-12-01")]


def test_a_line_named_by_its_day_and_kind_is_that_one() -> None:
    taxis = [line("ln_taxi0001", "2026-12-01", "taxi", "28.08", "hotel to terminal"),
             line("ln_taxi0002", "2026-12-02", "taxi", "44.80", "to the airport")]
    [plan] = conversation(["change the wednesday taxi to 48,80"], **on(taxis))
    assert edits(plan) == [{"line": 2, "amount": "48.80"}]


def test_where_the_user_is_back_from_is_no_request() -> None:
    [plan] = conversation(["hi, back from 3 days in Gothenburg for the port terminal site visit. want to start a new "
                           "expense claim for it, call it Gothenburg site visit"], cases=(), today=TODAY)
    assert [(a.act, a.args.get("title")) for a in plan.acts] == [("open_claim", "Gothenburg site visit")]


# ----------------------------------------------------------------- 8. the round's safety review


def test_a_later_day_ends_the_day_a_sentence_headed() -> None:
    [plan] = conversation(["Day 1, Monday 30th. Taxi from the airport 45.\nDay 2, Tuesday: lunch 14, dinner 30."],
                          **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [
        ("45.00", "2026-11-30"), ("14.00", "2026-12-01"), ("30.00", "2026-12-01")]


def test_a_day_named_without_its_date_ends_the_heading_and_is_asked() -> None:
    for message in ("Day 1, Monday. Taxi 20, lunch 14. Day 2. Dinner 30.",
                    "Monday 30th. Taxi from the airport 45. Next day lunch 14."):
        [plan] = conversation([message], **on([]))
        assert [a["amount"] for a in added(plan) if a.get("date") == "2026-11-30"] in (
            ["20.00", "14.00"], ["45.00"], []), message


def test_a_nightly_rate_beside_the_two_days_of_a_stay_is_never_the_whole_stay() -> None:
    for message in ("hotel 28.11 - 2.12, 120 per night", "Hotel Ibis 30.11-2.12 at 95 a night"):
        [plan] = conversation([message], **on([]))
        assert all(a["amount"] not in ("120.00", "95.00") for a in added(plan)), message


def test_spaced_thousands_never_swallow_a_head_count_or_a_number_of_things() -> None:
    for message in ("dinner for 4 980 kr yesterday", "beers 4 240 kr yesterday"):
        [plan] = conversation([message], **on([]))
        assert all(a["amount"] not in ("4980.00", "4240.00") for a in added(plan)), message


def test_an_undated_expense_never_takes_a_day_said_for_another_in_a_sentence_before() -> None:
    for message, day in (("Flight to Berlin on 30.11 was 180. Train back 89.", "2026-11-30"),
                         ("Taxi to the airport yesterday 35. Hotel 2 nights 240", "2026-12-02")):
        [plan] = conversation([message], **on([]))
        assert [a["date"] for a in added(plan) if a.get("date")] == [day], message


def test_a_was_beside_another_claims_line_while_opening_a_claim_is_asked() -> None:
    taxi = line("ln_taxi0001", "2026-12-02", "taxi", "20.00")
    [plan] = conversation(["open a claim for Munich, the taxi was 25"], cases=(lyon_with([taxi]),), today=TODAY)
    assert [a.act for a in plan.acts] == ["open_claim"]


@pytest.mark.django_db
def test_a_yes_converts_the_foreign_expense_asked_about_and_never_adds_the_others_again(tmp_path: Path) -> None:
    path = write(tmp_path, "beside", [
        {"text": "flight Lyon - Berlin via Zurich 312.40 eur on 30/11, and in Zurich airport a sandwich 14.50 CHF same day",
         "expect": {"acts": [{"act": "add_line", "outcome": "executed"}], "cases": {"Berlin trip": {
             "lines": ["89.90", "180.00", "32.60", "312.40"]}}}},
        {"text": "yes", "expect": {"acts": [{"act": "add_line", "outcome": "executed"}], "cases": {"Berlin trip": {
            "lines": ["89.90", "180.00", "32.60", "312.40", {"amount": "15.54", "date": "2026-11-30"}]}}}},
    ], today="2026-12-03")
    report, error = run_eval(path)
    assert error is None
    assert [i["verdict"] for c in report["conversations"] for i in c["items"]] == ["passed", "passed"], report


def test_a_bare_weekday_is_the_one_the_message_dated_beside_its_name_never_another_date_of_that_weekday() -> None:
    [plan] = conversation(["mon 23/11 fuel shell 78.30, ibis budget 2 nites from mon 138"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("78.30", "2026-11-23"), ("138.00", "2026-11-23")]
    taxi = line("ln_taxi0001", "2026-11-17", "taxi", "25.00")
    [plan] = conversation(["The taxi on the 17th was 30.60, and please add a dinner for 45 on Tuesday"], **on([taxi]))
    assert [a["date"] for a in added(plan)] == ["2026-12-01"]  # the 17th was a Tuesday too, but said of the taxi


def test_a_rate_question_takes_the_currency_said_elsewhere_in_the_message_and_is_answered_once() -> None:
    answer = parse_model_answer(interpret(request(
        "the sandwich in zurich was in CHF, which rate you used? is it the rate of the day?", **on([]))))
    assert [(r.tool, r.args["from"], r.args["to"]) for r in answer.reads] == [("exchange_rate", "CHF", "EUR")]
