"""Families of the twenty-seventh round (issue 19), with sentences of our own: a stay told by its check-in and
check-out; the day a list is of, told before it ("Here are the receipts from Wednesday:") or after it ("that's all for
tuesday, thanks!"); the trip's "Day 1" answered with its date; the user's own share of a bill; a thing said, in its own
words, not to be claimed; bullets."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from expenses.interpreter.audit import audited
from expenses.interpreter.context import Context, day_alone, first_day_answered
from registries.numbers import evidence_numbers, quantity_products
from tests.test_families_13 import on
from tests.test_families_17 import on_claim
from tests.test_families_29 import _talk
from tests.test_families_33 import _line
from tests.test_interpreter import request
from tests.test_walkthrough_families import conversation

TODAY = "2026-12-03"  # a Thursday


def _adds(plan) -> list[tuple[Any, ...]]:
    return [(a.args.get("category"), a.args.get("amount"), a.args.get("date"), a.args.get("quantity"))
            for a in plan.acts if a.act == "add_line"]


# ----------------------------------------------------------------------------- a stay told by its ends


@pytest.mark.parametrize(("text", "expected"), [
    ("hotel Clarion, check-in 29.11, check-out 1.12, 2 nights, 2 980 kr.", [("hotel", "2980.00", "2026-11-29", 2)]),
    ("The hotel : Scandic Continental, check-in the 23, check-out the 25, 2 nights, total 3 980 SEK.",
     [("hotel", "3980.00", "2026-11-23", 2)]),
    ("Hotel 2 nights, 1480 kr per night, paid at checkout Wednesday.", [("hotel", "2960.00", "2026-12-02", 2)]),
])
def test_a_stay_told_by_both_its_ends_is_dated_at_its_check_in_one_paid_at_check_out_that_day(text, expected):
    [plan] = conversation([text], **on_claim("SEK"))
    assert _adds(plan) == expected


@pytest.mark.parametrize(("text", "came", "left"), [
    ("Hotel Clarion Sign, check-out 1.12, 2 nights, 2 980 kr.", "29 Nov", "1 Dec"),
    ("The hotel: Ibis, 2 nights, check-out the 25, 1980 kr", "23 Nov", "25 Nov"),
    ("hotel ibis checked out on the 25th, 1 night, 980 kr", "24 Nov", "25 Nov"),
    ("hotel 2 nts 139 each, checked out wednesday", "30 Nov", "2 Dec"),
])
def test_a_stay_told_by_its_check_out_alone_asks_which_end_dates_it(text, came, left):
    # (blind writers date such a stay either way: at the night it began, or at the day it was paid)
    [plan] = conversation([text], **on_claim("SEK"))
    assert plan.acts == [] and f"the check-in ({came}) or the check-out ({left})" in plan.answers[-1].text


@pytest.mark.parametrize(("answer_", "day"), [("29.11", "2026-11-29"), ("check-in", "2026-11-29"), ("the 29th", "2026-11-29"),
                                               ("the checkout", "2026-12-01"), ("1.12", "2026-12-01")])
def test_the_answer_dates_the_stay_by_the_end_it_picks(answer_, day):
    plans = _talk(["Hotel Clarion Sign, check-out 1.12, 2 nights, 2 980 kr.", answer_], **on_claim("SEK"))
    assert _adds(plans[1]) == [("hotel", "2980.00", day, 2)]


@pytest.mark.parametrize("answer_", ["30.11", "wednesday", "the check-in I think, or the day after"])
def test_an_answer_that_is_neither_end_adds_nothing(answer_):
    plans = _talk(["Hotel Clarion Sign, check-out 1.12, 2 nights, 2 980 kr.", answer_], **on_claim("SEK"))
    assert not [a for a in plans[1].acts if a.args.get("amount") == "2980.00"]


@pytest.mark.parametrize("text", ["hotel ibis, checkout 1.12, 980 kr", "hotel ibis, check-out the 25, 980 kr"])
def test_a_stay_told_by_its_check_out_alone_asks_when_it_began(text):
    [plan] = conversation([text], **on_claim("SEK"))
    assert plan.acts == [] and "check in" in plan.answers[-1].text


def test_the_audit_asks_about_a_stay_dated_the_morning_it_ended():
    message = "Hotel Clarion Sign, check-out 1.12, 2 nights, 2 980 kr."
    ctx = Context.of(request(message, **on_claim("SEK")))
    dated_out = {"plan": {"acts": [{"id": "a1", "act": "add_line", "args": {
        "amount": "2980.00", "category": "hotel", "date": "2026-12-01", "quantity": 2, "merchant": "Hotel Clarion Sign"},
        "evidence": message[:-1]}]}}
    assert json.loads(audited(json.dumps(dated_out), message, ctx))["plan"]["acts"] == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Hotel was the Pantone Hotel, checked in Monday, checked out Wednesday, €131 a night.",
     [("hotel", "262.00", "2026-11-30", 2)]),
    ("hotel Pantone, checked in monday and out wednesday at 131 per night", [("hotel", "262.00", "2026-11-30", 2)]),
])
def test_a_stay_told_by_the_weekdays_of_its_ends_and_its_price_a_night_is_each_night_between(text, expected):
    [plan] = conversation([text], **on([]))
    assert _adds(plan) == expected


def test_the_engine_reads_the_nights_between_the_weekdays_of_a_stay():
    said = "checked in Monday, checked out Wednesday, €131 a night"
    assert [p.value for p in quantity_products(said)] == [262] and 2 in evidence_numbers(said)
    assert quantity_products("checked in Monday, checked out Monday, €131 a night") == []  # (no nights between)
    assert quantity_products("checked in Monday, checked out Wednesday, €131") == []  # (the stay's price, or a night's?)


# ----------------------------------------------------------------------------- the day a list is of


@pytest.mark.parametrize("text", [
    "Good morning! Here are the receipts from Wednesday: breakfast at the bakery 6,80, U-Bahn day ticket 9,20, lunch at "
    "the fair 18,50 and dinner with the colleagues at Augustiner 42 (only my part).",
    "Here are my expenses of Wednesday: breakfast 6,80, metro 9,20, lunch 18,50, dinner 42",
])
def test_a_list_headed_by_the_receipts_of_a_day_is_that_day(text):
    [plan] = conversation([text], today=TODAY)
    assert [a[1:3] for a in _adds(plan)] == [("6.80", "2026-12-02"), ("9.20", "2026-12-02"), ("18.50", "2026-12-02"),
                                              ("42.00", "2026-12-02")]
    assert all((a.args.get("description") or "").lower() != "here" for a in plan.acts)  # (walk Z13: "Here")


@pytest.mark.parametrize("closing", ["that's all for tuesday, thanks!", "All of that was on Tuesday.",
                                     "these were all from tuesday"])
def test_a_list_closed_by_the_day_of_all_of_it_is_that_day(closing):
    text = f"Ok here goes, sorry it's a lot:\n- Aircoach from the airport 8\n- coffee 4.20\n- dinner 38.50\n{closing}"
    [plan] = conversation([text], today=TODAY)
    assert [a[1:3] for a in _adds(plan)] == [("8.00", "2026-12-01"), ("4.20", "2026-12-01"), ("38.50", "2026-12-01")]


def test_a_closing_day_leaves_the_days_the_list_gave_its_lines():
    text = "- taxi 8 on monday\n- coffee 4.20\nthat's all for tuesday"
    [plan] = conversation([text], today=TODAY)
    assert [a[1:3] for a in _adds(plan)] == [("8.00", "2026-11-30"), ("4.20", "2026-12-01")]


@pytest.mark.parametrize("closing", ["that's all for now, thanks!", "that's all for the Berlin claim"])
def test_a_closing_line_without_a_day_dates_nothing(closing):
    plans = conversation([f"- taxi 8\n- coffee 4.20\n{closing}"], today=TODAY)
    assert all(a.args.get("date") in (None, TODAY) for a in plans[-1].acts)


def test_bulleted_lines_are_each_an_expense():
    [plan] = conversation(["wednesday:\n• breakfast 11\n• taxi 4.80\n• dinner 27"], today=TODAY)
    assert [a[1:3] for a in _adds(plan)] == [("11.00", "2026-12-02"), ("4.80", "2026-12-02"), ("27.00", "2026-12-02")]


# ----------------------------------------------------------------------------- "Day 1" answered


def test_day_1_with_no_trip_told_is_asked_then_its_date_dates_the_list_and_the_days_after_it():
    # (the claim holds the lines the answer dated: in the runtime they are committed by the second message)
    monday = [_line("ln_coff0001", "2026-11-30", "meals", "3.20", description="coffee")]
    plans = _talk(["Day 1 — train Paris-Lyon 74 (SNCF), taxi to site 16.50, dinner 28", "Monday 30th",
                        "Day 2 — lunch 13.20 at Paul; dinner 31.40\nDay 3 — taxi to station 15"], **on(monday))
    assert plans[0].acts == [] and "Day 1" in plans[0].answers[-1].text
    assert [a[1:3] for a in _adds(plans[1])] == [("74.00", "2026-11-30"), ("16.50", "2026-11-30"), ("28.00", "2026-11-30")]
    assert [a[1:3] for a in _adds(plans[2])] == [("13.20", "2026-12-01"), ("31.40", "2026-12-01"), ("15.00", "2026-12-02")]


@pytest.mark.parametrize("answer_", ["Monday 30th, and add a taxi 12", "Tuesday 30th", "the 30th I think, or the 1st",
                                     "tomorrow"])
def test_an_answer_that_says_more_than_the_day_of_day_1_adds_nothing_of_the_list(answer_):
    plans = _talk(["Day 1 — train Paris-Lyon 74 (SNCF), dinner 28", answer_], **on([]))
    assert not [a for a in plans[1].acts if a.args.get("amount") in ("74.00", "28.00")]


def test_a_day_1_never_becomes_an_amount():
    [plan] = conversation(["Day 1: train Paris-Lyon 74 (SNCF), taxi to site 16.50, dinner 28"], today=TODAY)
    assert all(a.args.get("amount") != "1.00" for a in plan.acts)


def test_day_alone_and_first_day_answered():
    today = Context.of(request("x", today=TODAY)).today
    assert str(day_alone("Monday 30th", today)) == "2026-11-30" and str(day_alone("30.11", today)) == "2026-11-30"
    assert day_alone("Tuesday 30th", today) is None and day_alone("30th and taxi 12", today) is None
    tuesday = frozenset({date(2026, 12, 1)})
    assert str(first_day_answered(["Day 2 — lunch 12", "tuesday 1.12"], today, tuesday)) == "2026-11-30"
    assert first_day_answered(["Day 2 — lunch 12", "tuesday 1.12"], today) is None  # (nothing the answer dated)
    assert first_day_answered(["lunch 12", "tuesday 1.12"], today, tuesday) is None
    # (the latest "Day N" message decides: a new "Day 1 — …" with no answer after it is no trip answered)
    assert first_day_answered(["Day 1 — lunch 12", "tuesday 1.12", "Day 1 — taxi 20"], today, tuesday) is None


# ----------------------------------------------------------------------------- a share, a thing not claimed


@pytest.mark.parametrize(("text", "amounts"), [
    ("fri: lunch 98; team dinner 420 total, my share 140; taxi 165", ["98.00", "140.00", "165.00"]),
    ("Dinner 52 (colleague Marc paid his part himself, 48, this is only mine) on monday", ["52.00"]),
    ("dinner at Augustiner 42 (only my part) on monday", ["42.00"]),
])
def test_the_users_share_of_a_bill_is_the_line(text, amounts):
    [plan] = conversation([text], **on_claim("DKK"))
    assert [a[1] for a in _adds(plan)] == amounts
    assert all(a.args.get("merchant") != "Marc" for a in plan.acts)


@pytest.mark.parametrize("text", ["dinner 80 my share 40 on monday", "dinner 120 total, my share 140 monday",
                                  "dinner 420 total, his share 140 monday", "dinner 42 yesterday, my share was 21",
                                  "dinner at Augustiner 42 (only my part of 120) yesterday"])
def test_a_share_that_does_not_add_up_or_is_anothers_is_asked(text):
    [plan] = conversation([text], **on_claim("DKK"))
    assert plan.acts == []


def test_a_thing_said_in_its_own_words_not_to_be_claimed_is_left_out_and_said_so():
    text = "monday: lunch 14 ; a scarf for my wife 45 (this one is private, don't put it please) ; taxi 22"
    [plan] = conversation([text], today=TODAY)
    assert [a[1] for a in _adds(plan)] == ["14.00", "22.00"] and any("scarf" in a.text for a in plan.answers)


@pytest.mark.parametrize("text", ["remove the scarf 45 (private)", "change the lunch 45 (private) to 40"])
def test_a_private_aside_on_an_edit_is_never_skipped_silently(text):
    [plan] = conversation([text], **on_claim("EUR", [("2026-12-01", "", "meals", "45.00")]))
    assert all(a.act != "add_line" for a in plan.acts)


def test_a_person_named_beside_a_colleague_word_is_never_the_merchant():
    [plan] = conversation(["dinner 52 on monday, colleague Marc was there too"], today=TODAY)
    assert all(a.args.get("merchant") != "Marc" for a in plan.acts)


def test_a_chain_named_with_its_branch_keeps_it():
    [plan] = conversation(["hotel 2 nights 236 (Ibis Part-Dieu) on monday"], today=TODAY)
    assert [a.args.get("merchant") for a in plan.acts] == ["Ibis Part-Dieu"]


# ----------------------------------------------------------------------------- a whole trip, told in people's words

LEEDS = [_line("ln_lner0001", "2026-11-16", "travel", "64.50", "LNER"), _line("ln_park0001", "2026-11-17", "travel", "6.00",
                                                                             description="parking")]


def test_a_sentence_checked_in_at_a_hotel_is_a_stay_of_its_own_not_the_day_of_the_lunch_before():
    [plan] = conversation(["monday lunch at Greggs 8.95 (don't judge). Checked in at the Premier Inn that evening, 2 nights "
                           "at 89 a night."], **on([]))
    assert [a[:3] for a in _adds(plan)] == [("meals", "8.95", "2026-11-30"), ("hotel", "178.00", "2026-11-30")]


@pytest.mark.parametrize(("text", "amounts"), [("dinner at the Witchery 48 yesterday (just me, don't ask)", ["48.00"]),
                                               ("lunch 12 yesterday (don't add it)", [])])
def test_a_remark_in_brackets_about_the_person_is_no_request_one_about_the_expense_is(text, amounts):
    [plan] = conversation([text], **on([]))
    assert [a[1] for a in _adds(plan)] == amounts


def test_two_things_of_one_kind_bought_on_the_train_are_one_receipt():
    [plan] = conversation(["taxi back to the station 13.80 and a sandwich and coffee on the train 7.35 yesterday"], **on([]))
    assert [a[:2] for a in _adds(plan)] == [("taxi", "13.80"), ("meals", "7.35")]


def test_a_correction_with_its_reason_naming_the_wrong_line_of_an_email():
    [plan] = conversation(["Sorry, the LNER ticket was 68.20 not 64.50, I was looking at the wrong line on the email."],
                          **on(LEEDS))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("update_line", "68.20")]


def test_take_it_off_actually_then_submit():
    [plan] = conversation(["Fine, we were well under. Take the parking off actually, the site manager paid for that one. "
                           "Then submit it please."], **on(LEEDS))
    assert [a.act for a in plan.acts] == ["remove_line", "submit_claim"]


def test_a_bare_weekday_said_on_that_weekday_after_the_trip_was_told_is_the_trips():
    plans = _talk(["trip was monday 16 to wednesday 18 nov",
                   "monday: taxi to the airport 85, flight LOT to vienna 189, CAT train from airport 14,90"],
                  **{**on([]), "today": "2026-11-23"})
    assert [a[1:3] for a in _adds(plans[1])] == [("85.00", "2026-11-16"), ("189.00", "2026-11-16"), ("14.90", "2026-11-16")]


def test_the_return_flight_told_with_the_trips_last_day_is_that_day():
    plans = _talk(["trip was monday 16 to wednesday 18 nov", "wednesday lunch 11,20 and the return flight LOT 176 eur"],
                  **{**on([]), "today": "2026-11-23"})
    assert [a[1:3] for a in _adds(plans[1])] == [("11.20", "2026-11-18"), ("176.00", "2026-11-18")]


def test_a_yes_to_an_offer_then_several_of_another_kind():
    plans = _talk(["taxi 85 zł on saturday", "ok add. tuesday lunch 13,80, dinner 31,50. wednesday lunch 11,20"],
                  **{**on([]), "today": "2026-11-23"})
    assert sorted(a[0] for a in _adds(plans[1])) == ["meals", "meals", "meals", "taxi"]


def test_which_lunch_answered_then_the_total_asked():
    from expenses.interpreter import _TOTAL_ASKED

    lunches = [_line("ln_lnch0001", "2026-11-17", "meals", "13.80", description="lunch"),
               _line("ln_lnch0002", "2026-11-18", "meals", "11.20", description="lunch")]
    plans = _talk(["the lunch should be 15,80", "tuesday one."], **{**on(lunches), "today": "2026-11-23"})
    assert plans[0].acts == []
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plans[1].acts] == [("update_line", 1, "15.80")]
    assert all(_TOTAL_ASKED.fullmatch(t) for t in ("how much is total now?", "what's the total", "and the total now?"))
    assert not any(_TOTAL_ASKED.fullmatch(t) for t in ("how much is the taxi limit?", "total 45", "is the total right?"))


def test_a_removal_with_its_reason_then_submit():
    lines = [_line("ln_flgt0001", "2026-11-16", "travel", "189.00", "LOT", "flight"),
             _line("ln_trai0001", "2026-11-16", "travel", "14.90", description="train from airport")]
    [plan] = conversation(["remove the CAT train, client gave me a transport ticket for it. and submit please"], **on(lines))
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 2), ("submit_claim", None)]


def test_put_the_thing_the_claim_holds_at_a_price_is_asked_new_or_fix():
    dinner = [_line("ln_dinr0001", "2026-12-02", "meals", "42.00", "Augustiner", "dinner with the colleagues")]
    [plan] = conversation(["Ok, then put the dinner at 34,70 so I stay inside the limit"], **on(dinner))
    assert plan.acts == []
    [plan] = conversation(["put the taxi at 20 on monday"], **on(dinner))
    assert [a[:2] for a in _adds(plan)] == [("taxi", "20.00")]


# ----------------------------------------------------------------------------- what the blind sets of the round found

BERLIN_LUNCHES = [_line("ln_lnch0001", "2026-11-17", "meals", "12.50", description="lunch"),
                  _line("ln_lnch0002", "2026-11-18", "meals", "15.80", description="lunch"),
                  _line("ln_lnch0003", "2026-11-19", "meals", "22.00", description="lunch")]


@pytest.mark.parametrize("text", ["berlin claim. lunch shldve been 14.20", "lunch shouldve been 14.20",
                                  "the lunch should've been 14.20"])
def test_a_correction_typed_short_is_never_a_new_line(text):
    # (h39-04 #1: "shldve been" added a fourth lunch)
    [plan] = conversation([text], **{**on(BERLIN_LUNCHES), "today": "2026-11-23"})
    assert all(a.act != "add_line" for a in plan.acts)


def test_the_day_of_the_month_names_the_line_among_those_listed():
    plans = _talk(["lunch shldve been 14.20", "the 18 one"], **{**on(BERLIN_LUNCHES), "today": "2026-11-23"})
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plans[1].acts] == [("update_line", 2, "14.20")]


def test_second_answers_which_of_the_lines_listed():
    taxis = [_line("ln_taxi0001", "2026-12-02", "taxi", "19.60"), _line("ln_lnch0001", "2026-12-03", "meals", "28.50"),
             _line("ln_taxi0002", "2026-12-03", "taxi", "24.30")]
    plans = _talk(["taxi's on the wrong day, should be friday", "second"], **{**on(taxis), "today": "2026-12-07"})
    assert [(a.act, a.args.get("line")) for a in plans[1].acts] == [("update_line", 3)]


def test_a_price_read_out_with_its_code_first_and_its_thousands_spaced():
    [plan] = conversation(["Norwegian Air Shuttle, 17.11.2026, NOK 1 249,00. Flytoget, 17.11.2026, NOK 230,00."],
                          **on_claim("NOK"))
    assert [(a.args.get("amount"), a.args.get("merchant")) for a in plan.acts] == [("1249.00", "Norwegian Air Shuttle"),
                                                                                  ("230.00", "Flytoget")]


def test_a_route_of_airport_codes_is_no_merchant_the_airline_after_it_is():
    [plan] = conversation(["wed: flight SFO->IAD United 412.60 (roundtrip), Uber IAD->hotel 46.20"], **on_claim("USD"))
    assert [a.args.get("merchant") for a in plan.acts] == ["United", "Uber"]


@pytest.mark.parametrize("text", ["hi new here. pls opne a new claim \"Geneva client visit\" in chf",
                                  "Hi! I am new in the company and this is my first expense claim. Can you please open a "
                                  "new claim with the name \"Gothenburg customer visit\", in SEK?",
                                  "hey! brand new on here. need to open a claim, call it \"Denver summit\" and it's in USD."])
def test_a_new_user_saying_so_before_opening_a_claim(text):
    [plan] = conversation([text], today=TODAY)
    assert [a.act for a in plan.acts] == ["open_claim"] and "new" not in plan.acts[0].args["title"].lower()


def test_where_a_thing_was_bought_said_after_it_goes_with_it():
    from expenses.interpreter.clauses import split
    from expenses.interpreter.normalize import spell_out

    text = "Also I have forgotten one lunch the last day, thursday, in the Pret A Manger of the airport, it was 14.50"
    said = [c for c in split(spell_out(text).text, Context.of(request("x", today=TODAY)).today) if c.kind != "context"]
    assert len(said) == 1


# ----------------------------------------------------------------------------- walk Z14 (Marta, Copenhagen)


@pytest.mark.parametrize("answer_", ["last week", "last week, 30 nov", "30 nov", "the earlier one"])
def test_which_monday_asked_of_two_expenses_is_answered_for_both(answer_):
    # (walk Z14: "last week, 30 nov" after "Which Monday do you mean: today (7 Dec) or a week ago (30 Nov)?" asked of
    # the flight and the taxi was not understood; she typed both again)
    plans = _talk(["ok add: SAS flight to copenhagen on monday 214,60 and taxi from airport to hotel monday 38,20",
                   answer_], **{**on([]), "today": "2026-12-07"})
    assert plans[0].acts == []
    assert [a[1:3] for a in _adds(plans[1])] == [("214.60", "2026-11-30"), ("38.20", "2026-11-30")]


@pytest.mark.parametrize("answer_", ["this week, 30 nov", "1 dec", "last week, 7 dec"])
def test_an_answer_whose_week_and_day_disagree_or_name_neither_adds_nothing(answer_):
    plans = _talk(["ok add: SAS flight to copenhagen on monday 214,60 and taxi from airport to hotel monday 38,20",
                   answer_], **{**on([]), "today": "2026-12-07"})
    assert not [a for a in plans[1].acts if a.args.get("amount") in ("214.60", "38.20")]


# ----------------------------------------------------------------------------- what the round's safety review found


@pytest.mark.parametrize("text", [
    "24.11.2026 LUFTHANSA 320,00 EUR\n25.11.2026 LUFTHANSA CREDIT -120,00 EUR\n26.11.2026 LUFTHANSA CREDIT -45,00 EUR",
    "my card statement, refunds are shown with a minus:\n24.11.2026 HOTEL ADLON 480,00 EUR\n25.11.2026 HOTEL ADLON -80,00 "
    "EUR\n26.11.2026 TAXI BERLIN -23,40 EUR",
    "24.11.2026 TAXI BERLIN -23,40 EUR\n25.11.2026 TAXI BERLIN -18,00 EUR\n26.11.2026 HOTEL ADLON GUTSCHRIFT -40,00 EUR",
    "24.11.2026 RYANAIR -89,99 EUR\n25.11.2026 RYANAIR -89,99 EUR\n(second one was a duplicate charge, refunded later)",
])
def test_a_statement_with_credits_refunds_or_signs_explained_never_turns_a_minus_into_an_expense(text):
    [plan] = conversation([text], **on([]))
    assert not [a for a in plan.acts if a.args.get("amount") in ("120.00", "45.00", "80.00", "40.00", "89.99")]


def test_a_statement_of_debits_only_is_read():
    [plan] = conversation(["can you add these from my card\n24.11.2026   CAT CITY AIRPORT TRAIN WIEN    -14,90 EUR\n"
                           "25.11.2026   UBER *TRIP HELP.UBER.COM    -17,60 EUR"], **on([]))
    assert [a[1:3] for a in _adds(plan)] == [("14.90", "2026-11-24"), ("17.60", "2026-11-25")]


@pytest.mark.parametrize("text", ["Flight Ryanair 89.99 and bag checked in 12.11", "Ryanair flight 89.99 + bag checked in 30.10"])
def test_a_bag_checked_in_is_no_stays_day(text):
    [plan] = conversation([text], **on([]))
    assert plan.acts == []


@pytest.mark.parametrize("text", [
    "hotel Pantone checked in monday, checked out wednesday, 131 a night but I paid 240 after the discount",
    "hotel Pantone checked in monday, checked out wednesday, 131 a night, I got 20 off at the desk",
    "hotel Pantone, checked in monday, checked out wednesday, 131 a night, paid 280 with breakfast",
])
def test_nights_times_a_price_are_never_the_stay_when_the_sentence_says_more_figures(text):
    [plan] = conversation([text], **on([]))
    assert not [a for a in plan.acts if a.args.get("amount") == "262.00"]


@pytest.mark.parametrize("text", ["dinner 126 (only my part is a third)",
                                  "team dinner 420 total, my share 140, I paid the whole bill on my card"])
def test_a_share_said_but_not_given_or_a_whole_bill_paid_is_asked(text):
    [plan] = conversation([text], **on([]))
    assert plan.acts == []


def test_a_new_day_1_is_no_trip_answered_before():
    monday = [_line("ln_coff0001", "2026-11-30", "meals", "3.20", description="coffee")]
    plans = _talk(["Day 1 — train Paris-Lyon 74, dinner 28", "Monday 30th", "next trip. Day 1 — taxi 20, lunch 14"],
                  **on(monday))
    assert plans[2].acts == []


@pytest.mark.parametrize("text", ["Here are the receipts from Wednesday: breakfast 6,80, hotel 131 a night for 2 nights",
                                  "- hotel Ibis 3 nights 360\n- taxi 20\nthat's all for friday"])
def test_a_stay_in_a_list_of_a_day_is_asked_its_day(text):
    # (its check-in, or the day it was paid? blind writers date a stay either way)
    [plan] = conversation([text], **on([]))
    assert not [a for a in plan.acts if a.args.get("category") == "hotel"]


def test_a_private_aside_is_only_one_that_says_so_whole():
    [plan] = conversation(["dinner 60 yesterday (for myself and the client)"], **on([]))
    assert [a[1] for a in _adds(plan)] == ["60.00"]


def test_a_return_without_a_kind_never_takes_a_meals_kind():
    [plan] = conversation(["wednesday:\n• breakfast 11\n• Tramlink return 4.80\n• dinner 27"], **on([]))
    assert not [a for a in plan.acts if a.args.get("amount") == "4.80" and a.args.get("category") == "meals"]


def test_a_stay_in_the_list_of_the_trips_first_day_began_that_day():
    flight = [_line("ln_flgt0001", "2026-12-01", "travel", "148.60", "Aer Lingus")]
    [plan] = conversation(["Ok here goes:\n- coffee 4.20\n- hotel (Jurys Inn) 164\nthat's all for tuesday, thanks!"],
                          **on(flight))
    assert [a[:3] for a in _adds(plan)] == [("meals", "4.20", "2026-12-01"), ("hotel", "164.00", "2026-12-01")]
