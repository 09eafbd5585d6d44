"""Families of the twenty-second round (issue 19), with sentences of our own: a weekday said on that weekday, an
expense with no day told amid a past trip, the answers to "which day?", dotted days the readers did not see, and a
claim's title after "tittel:"."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from conversations.core.plan import ReadBatch, UserTurnPlan, parse_model_answer
from conversations.core.reducer import validate_plan
from expenses.interpreter import interpret
from registries import get_registry
from tests.test_families_13 import TODAY, line, on
from tests.test_interpreter import _round, claim, plan_of, request


def _said(plan) -> str:
    return " ".join([plan.say or "", *(a.text for a in plan.answers)])


def _talk(messages: list[str], **kwargs: Any) -> list[UserTurnPlan]:
    """Each message's plan, with the question a reply leaves open and the user's earlier messages handed on, as the
    server hands them."""
    plans, pending, excerpt = [], None, []
    for message in messages:
        rounds: list = []
        while isinstance(parsed := parse_model_answer(interpret(replace(
                request(message, rounds=rounds, **kwargs), pending=pending, excerpt=list(excerpt)))), ReadBatch):
            rounds.append(_round(parsed))  # (an exchange rate read, as the runtime reads it)
        assert isinstance(parsed, UserTurnPlan), parsed
        validate_plan(parsed, get_registry())
        plans.append(parsed)
        pending = {**parsed.pending.model_dump(mode="json"), "message": message} if parsed.pending else None
        excerpt.append({"role": "user", "text": message})
    return plans


# TODAY is Thursday 3 December 2026
TRIP_LAST_WEEK = [line("ln_trai0001", "2026-11-25", "travel", "29.99")]

# ----------------------------------------------------------------- 1. a weekday said on that weekday


@pytest.mark.parametrize("text", ["taxi thursday 12", "taxi on thursday 12", "thursday taxi 12", "taxi quinta 12",
                                  "taxi donnerstag 12"])
def test_todays_weekday_with_nothing_near_it_is_asked_never_dated_a_week_back(text):
    plan = plan_of(text, **on([]))
    assert plan.acts == []
    assert "today (3 Dec)" in _said(plan) and "26 Nov" in _said(plan)


def test_last_thursday_said_on_a_thursday_is_a_week_back():
    plan = plan_of("taxi last thursday 12", **on([]))
    assert [a.args.get("date") for a in plan.acts] == ["2026-11-26"]


def test_the_claims_lines_of_this_week_still_date_todays_weekday():
    plan = plan_of("taxi thursday 12", **on([line("ln_taxi0001", "2026-12-01", "taxi", "32.00")]))
    assert [a.args.get("date") for a in plan.acts] == ["2026-12-03"]


@pytest.mark.parametrize(("answer", "day"), [("last week", "2026-11-26"), ("the week before", "2026-11-26"),
                                             ("the earlier one", "2026-11-26"), ("a week ago", "2026-11-26"),
                                             ("this week", "2026-12-03"), ("today", "2026-12-03"),
                                             ("letzte Woche", "2026-11-26")])
def test_which_week_is_answered_by_naming_the_week(answer, day):
    plans = _talk(["taxi thursday 12", answer], **on([]))
    assert [(a.args.get("category"), a.args.get("amount"), a.args.get("date")) for a in plans[1].acts] == [
        ("taxi", "12.00", day)]
    assert not plans[1].acts[0].args.get("description")  # ("a week ago" says when, never what it was)


# ----------------------------------------------------------------- 2. no day, amid a past trip


def test_an_expense_with_no_day_after_messages_that_told_a_past_trip_is_asked_its_day():
    plans = _talk(["Wednesday 25.11: train to Lyon 64,20 and lunch 18,50", "taxi 15"], **on([]))
    assert plans[1].acts == []
    assert "Which day was “taxi 15”" in _said(plans[1])


@pytest.mark.parametrize(("answer", "day"), [("the 24th", "2026-11-24"), ("the 26th", "2026-11-26"),
                                             ("26.11", "2026-11-26"), ("on the 26.11", "2026-11-26"),
                                             ("24th", "2026-11-24")])
def test_the_day_asked_for_is_given_alone_and_the_expense_added(answer, day):
    plans = _talk(["Wednesday 25.11: train to Lyon 64,20 and lunch 18,50", "taxi 15", answer], **on(TRIP_LAST_WEEK))
    assert [(a.args.get("category"), a.args.get("amount"), a.args.get("date")) for a in plans[2].acts] == [
        ("taxi", "15.00", day)]


@pytest.mark.parametrize("first", ["add dinner yesterday 34,50", "add the parking, 8, on wednesday"])
def test_a_trip_told_up_to_yesterday_or_no_day_told_keeps_today(first):
    plans = _talk([first, "and a taxi 15"], **on([]))
    assert [a.args.get("date") for a in plans[1].acts] in ([None], ["2026-12-03"])


def test_an_expense_told_today_amid_a_past_trip_is_todays():
    plans = _talk(["Wednesday 25.11: train to Lyon 64,20", "taxi 15 today"], **on([]))
    assert [a.args.get("date") for a in plans[1].acts] == ["2026-12-03"]


# ----------------------------------------------------------------- 3. dotted days the readers did not see


def test_a_dotted_day_opening_a_row_after_a_sentence_dates_the_row():
    plan = plan_of("Here the rest. 27.11 - lunch - 11.20", **on(TRIP_LAST_WEEK))
    assert [(a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [("11.20", "2026-11-27")]


def test_the_dotted_days_of_a_stays_nights_are_never_its_amount():
    plan = plan_of("The hostel in Zurich for 2 nights (25.11 and 26.11), 164 total.", **on(TRIP_LAST_WEEK))
    assert not any(a.args.get("amount") in ("25.11", "26.11") for a in plan.acts)




# ----------------------------------------------------------------- 4. a claim's title after a label in Norwegian


def test_tittel_labels_the_title_never_opens_it():
    plan = plan_of("ny reiseregning i NOK, tittel: Aberdeen turbinservice", **on([]))
    assert [(a.act, a.args.get("title"), a.args.get("currency")) for a in plan.acts] == [
        ("open_claim", "Aberdeen turbinservice", "NOK")]


def test_today_is_a_thursday():
    assert TODAY == "2026-12-03"


# ----------------------------------------------------------------- 5. what the round's safety review found


@pytest.mark.parametrize("text", ["Cheers. 9.10 breakfast, 12.50 lunch", "Right. 13.11 taxi, 1.50 tip",
                                  "Ok. 21.10 lunch and 3.10 coffee", "coffee 3, 9.10 breakfast, 12.50 lunch"])
def test_a_dotted_figure_after_a_sentence_or_comma_never_dates_a_line_by_taking_the_next_price(text):
    plan = plan_of(text, **on(TRIP_LAST_WEEK))
    assert not any(str(a.args.get("date") or "").startswith(("2026-10-", "2026-11-13", "2026-11-21")) for a in plan.acts)


@pytest.mark.parametrize("said", ["actually it was 18", "make that 18", "no wait, it was 18", "it was 18 eur"])
def test_it_while_a_day_is_asked_is_the_expense_asked_about_never_the_claims_last_line(said):
    plans = _talk(["On 24.11 I had a taxi 20 and lunch 14", "taxi 15", said], **on([
        line("ln_taxi0001", "2026-11-24", "taxi", "20.00"), line("ln_lnch0001", "2026-11-24", "meals", "14.00", "lunch")]))
    assert plans[1].acts == []
    assert plans[2].acts == []
    assert "day of “taxi 15”, or its amount" in _said(plans[2])


@pytest.mark.parametrize("first", ["taxi thursday 12 or 13", "taxi thursday about 12", "taxi thursday 12, personal"])
def test_the_week_answered_never_commits_the_other_doubts_of_the_message(first):
    plans = _talk([first, "last week"], **on([]))
    assert plans[1].acts == []


@pytest.mark.parametrize("answer", ["12", "2", "the 1st", "the 19th", "24.11"])
def test_a_day_that_is_neither_of_the_two_offered_answers_nothing(answer):
    plans = _talk(["taxi thursday 12", answer], **on([]))
    assert not [a for a in plans[1].acts if a.act == "add_line"]


@pytest.mark.parametrize(("answer", "day"), [("the first one", "2026-12-03"), ("the second one", "2026-11-26"),
                                             ("the later one", "2026-12-03"), ("the earlier one", "2026-11-26")])
def test_the_first_one_is_the_first_day_the_question_named(answer, day):
    plans = _talk(["taxi thursday 12", answer], **on([]))
    assert [a.args.get("date") for a in plans[1].acts] == [day]


def test_last_week_is_the_calendar_week_before_this_one():
    # Tuesday 8 Dec: "Which Wednesday: 25 Nov or 2 Dec?" — 2 Dec is in last week, 25 Nov the week before
    lines = [line("ln_hotl0001", "2026-11-23", "hotel", "50.00"), line("ln_taxi0001", "2026-11-24", "taxi", "20.00")]
    plans = _talk(["lunch wed 15", "last week"], **{**on(lines), "today": "2026-12-08"})
    assert "25 Nov" in _said(plans[0]) and "2 Dec" in _said(plans[0])
    assert [a.args.get("date") for a in plans[1].acts] in ([], ["2026-12-02"])


def test_this_thursday_said_on_a_thursday_is_today():
    plan = plan_of("taxi this thursday 12", **on([]))
    assert [a.args.get("date") for a in plan.acts] == ["2026-12-03"]


def test_an_answer_to_a_kind_question_still_describes_the_line():
    plans = _talk(["add an expense of 45 on monday", "dinner with the client from Acme"], **on([]))
    assert [a.args.get("description") for a in plans[1].acts] == ["dinner with the client from Acme"]


def test_a_week_said_in_another_language_names_nobody():
    plans = _talk(["taxi thursday 12", "letzte Woche"], **on([]))
    assert [(a.args.get("date"), a.args.get("merchant"), a.args.get("description")) for a in plans[1].acts] == [
        ("2026-11-26", None, None)]


@pytest.mark.parametrize(("text", "merchant"), [("Flew United out of Newark tuesday, $318 roundtrip", "United"),
                                                ("Monday I flew out of O'Hare on United, the fare was $412.60", "United")])
def test_united_flown_is_the_airline_and_a_roundtrip_nobody(text, merchant):
    chicago = claim("clm_CHIC0001", "Chicago distributor visit", [], currency="USD")
    plan = plan_of(text, cases=(chicago,), active="clm_CHIC0001", today="2026-11-19")
    assert [a.args.get("merchant") for a in plan.acts] == [merchant]


@pytest.mark.parametrize("text", ["ok. send inn", "ok, trudno. wysyłaj", "Perfeito, podes submeter. Obrigado!",
                                  "Très bien, vous pouvez soumettre la note. Merci.",
                                  "That is all. Please submit the claim. 감사합니다!"])
def test_a_submit_in_the_words_people_use_abroad_asks_its_card(text):
    plan = plan_of(text, **on(TRIP_LAST_WEEK))
    assert [a.act for a in plan.acts] == ["submit_claim"]


def test_title_it_names_the_claim():
    plan = plan_of("need a new claim in USD, title it NYC deposition trip", **on([]))
    assert [(a.act, a.args.get("title")) for a in plan.acts] == [("open_claim", "NYC deposition trip")]


@pytest.mark.parametrize("text", ["stryk lunsjen 03.11, kunden spanderte", "taxi 04.11 hotel"])
def test_a_figure_written_as_a_recent_day_is_never_an_amount(text):
    plan = plan_of(text, **{**on([]), "today": "2026-11-05"})
    assert not any(a.args.get("amount") in ("3.11", "4.11") for a in plan.acts)


def test_a_yes_to_a_conversion_amid_a_past_trip_asks_the_day_and_promises_no_completion():
    lines = [line("ln_lnch0001", "2026-11-24", "meals", "14.00", "lunch")]
    plans = _talk(["On 24.11 I had lunch 14", "taxi 200 NOK", "yes"], **on(lines))
    assert plans[2].acts == [] and plans[2].pending is None
    assert "again with its day" in _said(plans[2])


# ----------------------------------------------------------------- 6. what the second review and walk Z7 found

_TRIP_TOLD = "On 24.11 I had a taxi 20 and lunch 15"
_TRIP_LINES = [line("ln_taxi0001", "2026-11-24", "taxi", "20.00"), line("ln_lnch0001", "2026-11-24", "meals", "15.00", "lunch")]


@pytest.mark.parametrize("said", ["€18", "18€", "18 €", "$18", "£18", "18,-", "-18", "24.11 €"])
def test_a_money_figure_never_answers_which_day(said):
    plans = _talk([_TRIP_TOLD, "taxi 15", said], **on(_TRIP_LINES))
    assert not any(a.args.get("date") in ("2026-11-18", "2026-11-24") for a in plans[2].acts if a.act == "add_line")


@pytest.mark.parametrize("said", ["sorry, 18 not 15", "18 not 15", "not 15 but 18", "18 rather than 15"])
def test_a_correction_while_a_day_is_asked_is_asked_back_never_a_change_of_another_line(said):
    plans = _talk([_TRIP_TOLD, "taxi 15", said], **on(_TRIP_LINES))
    assert plans[2].acts == []


@pytest.mark.parametrize("text", ["new claim, title it later", "new claim, I'll title it tomorrow",
                                  "open a claim and title it as Berlin offsite", "new claim - title it something like Berlin",
                                  "new claim, title it the same as last time"])
def test_title_it_with_no_name_yet_opens_nothing(text):
    plan = plan_of(text, **on([]))
    assert not [a for a in plan.acts if a.act == "open_claim"]


def test_a_day_to_come_answering_which_day_is_never_last_years():
    plans = _talk([_TRIP_TOLD, "taxi 15", "4.12"], **on(_TRIP_LINES))
    assert not any(str(a.args.get("date") or "").startswith("2025") for a in plans[2].acts)


@pytest.mark.parametrize("said", ["on the 25th I think", "25th, same trip"])
def test_the_other_words_of_a_day_answer_describe_nothing(said):
    plans = _talk([_TRIP_TOLD, "taxi 15", said], **on(_TRIP_LINES))
    assert all(not a.args.get("description") and not a.args.get("merchant") for a in plans[2].acts)


@pytest.mark.parametrize("text", ["shirt at United Colors of Benetton 40 on monday", "dinner at the United Club 40 on monday",
                                  "United States ESTA 21 on monday"])
def test_united_not_flown_is_no_airline(text):
    plan = plan_of(text, **on([]))
    assert not any(a.args.get("merchant") == "United" or (a.args.get("category") == "travel" and "ESTA" not in text)
                   for a in plan.acts)


@pytest.mark.parametrize("text", ["taxi 20 спасибо on monday", "lunch 15 감사합니다 on monday", "dinner 45 gracias on monday"])
def test_thanks_after_an_amount_is_nobody_paid(text):
    plan = plan_of(text, **on([]))
    assert [a.args.get("merchant") for a in plan.acts] in ([None], [])


def test_a_turkish_dinner_near_the_hotel_is_a_meal():
    plan = plan_of("akşam yemeği monday 30 nov near hotel 32,50", **on([]))
    assert [(a.args.get("category"), a.args.get("amount")) for a in plan.acts] == [("meals", "32.50")]


def test_call_it_after_a_request_for_a_claim_that_was_asked_its_name_opens_it():
    plans = _talk(["Hi, I need to do expense claim for my trip to Rotterdam last week, site acceptance test. Paid "
                   "everyting in euro. Can you open claim in EUR pls", "Call it Rotterdam SAT"], cases=(), active=None)
    assert [(a.act, a.args.get("title")) for a in plans[1].acts] == [("open_claim", "Rotterdam SAT")]


def test_call_it_after_a_claim_was_opened_opens_no_second_one():
    plans = _talk(["open a claim for Berlin", "call it Berlin offsite"], cases=(), active=None)
    assert not [a for a in plans[1].acts if a.act == "open_claim"]


def test_a_weekday_answering_which_day_amid_last_weeks_trip_is_the_trips():
    lines = [line("ln_flig0001", "2026-11-30", "travel", "289.40"), line("ln_trai0001", "2026-11-30", "travel", "71.90")]
    plans = _talk(["flight istanbul - amsterdam on monday 30 nov, 289,40 eur", "train schiphol to rotterdam same day 71,90",
                   "also sim card at schiphol 15 eur", "monday"], **{**on(lines), "today": "2026-12-07"})
    assert "Which day was" in _said(plans[2])
    assert [(a.args.get("amount"), a.args.get("date")) for a in plans[3].acts] == [("15.00", "2026-11-30")]


def test_forget_the_thing_a_line_holds_removes_it_on_a_card():
    lines = [line("ln_park0001", "2026-12-01", "travel", "12.00", "parking"), line("ln_lnch0001", "2026-12-01", "meals", "30.00")]
    plan = plan_of("forget the parking, the client paid it", **{**on(lines), "today": "2026-12-07"})
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 1)]


def test_a_take_back_of_an_expense_that_was_asked_about_instead_leaves_a_valid_plan():
    plan = plan_of("taxi 20 on monday and parking 12, forget the parking", **{**on([]), "today": "2026-12-07"})
    assert plan.acts == [] and plan.retractions == []


# ----------------------------------------------------------------- 7. what the third review found


@pytest.mark.parametrize("said", ["forget the parking, it was 12 not 15", "forget the parking amount, it's 12",
                                  "forget the dinner receipt, I'll upload it later"])
def test_forget_a_line_that_was_not_paid_by_someone_else_removes_nothing(said):
    lines = [line("ln_park0001", "2026-12-01", "travel", "15.00", "parking"), line("ln_dinn0001", "2026-12-02", "meals", "40.00", "dinner")]
    plan = plan_of(said, **{**on(lines), "today": "2026-12-07"})
    assert not [a for a in plan.acts if a.act == "remove_line"]


@pytest.mark.parametrize("said", ["call it a day", "name it after the client", "call it whatever"])
def test_call_it_with_no_name_opens_nothing(said):
    plans = _talk(["Hi, I need to do expense claim for my trip, can you open claim in EUR pls", said], cases=(), active=None)
    assert not [a for a in plans[1].acts if a.act == "open_claim"]


@pytest.mark.parametrize("said", ["the monday after", "monday", "wednesday"])
def test_a_weekday_the_trip_has_no_line_on_is_asked_again(said):
    plans = _talk([_TRIP_TOLD, "taxi 15", said], **on(_TRIP_LINES))
    assert not [a for a in plans[2].acts if a.act == "add_line"]


def test_a_claim_line_of_yesterday_never_stops_the_day_question_of_a_trip_told():
    lines = [*_TRIP_LINES, line("ln_taxi0002", "2026-12-02", "taxi", "20.00")]
    plans = _talk([_TRIP_TOLD, "taxi 15"], **on(lines))
    assert plans[1].acts == []
