"""Families of the thirteenth round (issue 19), with sentences of our own: the days, months, "and", "each", "new",
"open" and "send" of the languages people mix into their English; a price a night said in them; a claim's title
kept free of the currency said twice and of the reason why; a submit said twice; the flight back of the same airline.
"""

from __future__ import annotations

import pytest

from tests.test_families_13 import line, on
from tests.test_families_17 import NONE, TRIP, acts, fields, on_claim
from tests.test_interpreter import claim
from tests.test_walkthrough_families import conversation

# TODAY is Thursday 2026-12-03: Monday is 2026-11-30, Tuesday 2026-12-01, Wednesday 2026-12-02


# ----------------------------------------------------------------- 1. a night's price, said in another language


@pytest.mark.parametrize(("text", "currency", "amount"), [
    ("hotel Ibis 2 noches 139 cada una", "CHF", "278.00"),
    ("Novotel 2 nuits 84,50 chaque nuit", "EUR", "169.00"),
    ("hotel 2 noce from monday, 389 zł za noc", "PLN", "778.00"),
    ("Citybox 2 netter from tuesday, 495 kr pr night", "NOK", "990.00"),
    ("albergo 3 notti da lunedì, 132,00 a notte", "EUR", "396.00"),
])
def test_nights_counted_and_priced_each_in_another_language_are_the_stay(text, currency, amount) -> None:
    [plan] = conversation([text], **on_claim(currency))
    assert fields(plan, "category", "amount") == [("hotel", amount)]


@pytest.mark.parametrize("text", [
    "y el hotel Ibis, noches de martes y miercoles, 139,00 cada noche",  # how many nights, said by their days
    "hotel 2 noce, 389 zł",  # ("2" is a count: never a price of 2.00)
])
def test_a_price_a_night_with_the_nights_not_counted_is_never_the_stay(text) -> None:
    [plan] = conversation([text], **on_claim("PLN"))
    assert [a for a in plan.acts if a.args.get("amount") in ("139.00", "2.00")] == []


# ----------------------------------------------------------------- 2. a claim's title, and what is said beside it


@pytest.mark.parametrize(("text", "title", "currency"), [
    ("hola! new claim: Malmö depot visit, en coronas suecas (SEK) porfa", "Malmö depot visit", "SEK"),
    ("I need to start a new expense claim for the Denver expo, in US dollars since everything there was in USD",
     "Denver expo", "USD"),
    ('new claim "Tromsø kundebesøk", NOK takk', "Tromsø kundebesøk", "NOK"),
    ("new claim: Lyon fair. keep it in EUR", "Lyon fair", "EUR"),
])
def test_the_currency_said_twice_and_the_reason_why_are_no_part_of_the_title(text, title, currency) -> None:
    [plan] = conversation([text], **NONE)
    assert acts(plan) == [("open_claim", {"title": title, "currency": currency})]


def test_a_title_with_words_after_a_comma_that_are_no_english_is_asked_about() -> None:
    [plan] = conversation(["new claim: Malmö depot visit, en coronas suecas porfa sí"], **NONE)
    assert plan.acts == [] and plan.answers


# ----------------------------------------------------------------- 3. the words of other languages


def test_days_and_months_of_other_languages_date_the_line() -> None:
    [plan] = conversation(["allora, lunedì: Frecciarossa Roma-Milano 89,90"], **on(TRIP))
    assert fields(plan, "date", "amount") == [("2026-11-30", "89.90")]
    [plan] = conversation(["kolacja środa 236 zł"], **on_claim("PLN"))
    assert fields(plan, "category", "date") == [("meals", "2026-12-02")]
    [plan] = conversation(["Vy tog Oslo-Bergen tirsdag, 749 kr"], **on_claim("NOK"))
    assert fields(plan, "date") == [("2026-12-01",)]
    [plan] = conversation(["taxi am 1. Dezember 23,40"], **on(TRIP))
    assert fields(plan, "date") == [("2026-12-01",)]


def test_and_said_in_another_language_between_two_priced_things_parts_them() -> None:
    [plan] = conversation(["monday taxi dalla stazione 18,50 e pranzo con il cliente 46,00"], **on(TRIP))
    assert fields(plan, "category", "amount") == [("taxi", "18.50"), ("meals", "46.00")]
    assert not str(plan.acts[1].args.get("description") or "").startswith("e ")
    [plan] = conversation(["add taxi til hotellet on tuesday 612 kr og lunsj today 189 kr"], **on_claim("NOK"))
    assert fields(plan, "category", "amount") == [("taxi", "612.00"), ("meals", "189.00")]


def test_a_claim_opened_and_sent_in_another_language() -> None:
    [plan] = conversation(['ciao! apri una nuova nota spese "Trasferta Torino"'], **NONE)
    assert acts(plan) == [("open_claim", {"title": "Trasferta Torino"})]
    [plan] = conversation(["perfetto, invia pure"], **on(TRIP))
    assert [a.act for a in plan.acts] == ["submit_claim"]


def test_letters_of_any_alphabet_make_one_word() -> None:
    [plan] = conversation(["śniadanie wtorek 48 zł"], **on_claim("PLN"))
    assert fields(plan, "category", "amount", "date") == [("meals", "48.00", "2026-12-01")]


# ----------------------------------------------------------------- 4. said twice, said once


def test_a_submit_said_twice_in_one_message_is_one_request() -> None:
    [plan] = conversation(["Parfait, you can envoyer it. submit please"], **on(TRIP))
    assert [a.act for a in plan.acts] == ["submit_claim"]


def test_the_flight_back_with_no_name_of_its_own_is_the_same_airline() -> None:
    [plan] = conversation(["I had the SAS flight from Oslo on Monday, 212.40 euros, and the return flight on Wednesday at "
                           "198.90 euros."], **on(TRIP))
    assert fields(plan, "merchant", "amount", "date") == [("SAS", "212.40", "2026-11-30"), ("SAS", "198.90", "2026-12-02")]


def test_a_flight_back_beside_two_flights_out_takes_no_name() -> None:
    [plan] = conversation(["SAS flight Monday 212.40, Lufthansa flight Tuesday 99, and the return flight on Wednesday "
                           "198.90"], **on(TRIP))
    assert fields(plan, "merchant") == [("SAS",), ("Lufthansa",), (None,)]


def test_the_trip_told_with_its_day_before_the_rows() -> None:
    [plan] = conversation(["Allora, I came back from Graz on Wednesday, here is everything:\n- taxi 30/11 — 42,00\n"
                           "- Motel One, 2 notti 30/11–02/12, totale 236,00"], **on(TRIP))
    assert fields(plan, "category", "amount", "date") == [("taxi", "42.00", "2026-11-30"), ("hotel", "236.00", "2026-11-30")]


def test_a_rate_a_night_corrected_against_the_old_rate_changes_the_stay() -> None:
    hotel = [{**line("ln_htl00001", "2026-11-30", "hotel", "594.00"), "merchant": "Hilton"}]
    [plan] = conversation(["hotel was 3 nights x 189, not 198"], **on(hotel))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("update_line", "567.00")]
    [plan] = conversation(["hotel was 3 nights x 189, not 195"], **on(hotel))  # 3 × 195 is not the stay: asked
    assert plan.acts == []


def test_remove_said_in_another_language() -> None:
    [plan] = conversation(["the taxi was private, fjern den"], **on(TRIP))
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 1)]


@pytest.mark.parametrize(("text", "day"), [
    ("ayer almuerzo en la cantina 15,00", "2026-12-02"),
    ("Taxi gestern 8.80", "2026-12-02"),
    ("pranzo oggi 14,50", "2026-12-03"),
    ("lunsj i går 189", "2026-12-02"),
    ("taxi vorgestern 12", "2026-12-01"),
])
def test_yesterday_and_today_said_in_another_language_date_the_line(text, day) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert fields(plan, "date") == [(day,)]


def test_a_word_that_is_and_in_one_language_and_in_in_another_parts_nothing() -> None:
    [plan] = conversation(["ayer cena 46,80 en el Zum Goldenen Sternen y taxi a la obra 27,50"], **on(TRIP))
    assert [a for a in plan.acts if a.args.get("category") == "taxi" and a.args.get("merchant")] == []


def test_please_in_another_language_is_no_part_of_the_title() -> None:
    [plan] = conversation(["Neue Claim bitte: Zürich Workshop, in CHF"], **NONE)
    assert acts(plan) == [("open_claim", {"title": "Zürich Workshop", "currency": "CHF"})]


def test_a_merchant_corrected_with_in_fact_is_the_name_alone() -> None:
    inn = [{**line("ln_htl00001", "2026-11-30", "hotel", "178.00"), "merchant": "Premier Inn"}]
    [plan] = conversation(["the hotel was in fact the Travelodge, not the Premier Inn"], **on(inn))
    assert [a.args.get("merchant") for a in plan.acts if a.act == "update_line"] == ["Travelodge"]


# ----------------------------------------------------------------- 5. the round's review: names are no days, a share no night


@pytest.mark.parametrize("text", [
    "Hotel Juli 2 nights 240", "lunch with Avril 12 at Nopa, 45.80", "Trattoria Domenica 64", "dinner at Domingo 64.20",
    "Mr Montag's taxi 32", "dinner with Martes, 45", "coffee at Enero 7.80", "dinner at Listopad 12, 45",
])
def test_a_name_that_is_a_day_or_a_month_in_another_language_dates_nothing(text) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert all(a.args.get("date") in (None, "2026-12-03") for a in plan.acts)
    assert all(a.args.get("merchant") not in ("January", "Sunday") for a in plan.acts)


@pytest.mark.parametrize("text", ["Hotel Sol 3 noches 300 por persona", "Hotel Adlon 3 Nächte 300 pro Person",
                                  "Hotel 3 nights 540 la una", "2 taxis 30 a un cliente"])
def test_a_share_a_person_is_never_multiplied_by_the_nights(text) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert [a for a in plan.acts if a.args.get("amount") in ("900.00", "1620.00", "60.00")] == []


@pytest.mark.parametrize("text", [
    "KLM flight Monday 245, return flight Wednesday 198, Transavia",
    "SAS flight Monday 212.40, return flight Wednesday 98.90 (Widerøe)",
    "the Austrian Airlines flight on Monday 312.40 and my colleague's return flight on Wednesday 298.90",
    "Lufthansa flight on Monday 312.40 and the return flight on Wednesday 298.90 on Wizz",
])
def test_a_flight_back_with_a_name_or_a_person_of_its_own_keeps_it(text) -> None:
    [plan] = conversation([text], **on(TRIP))
    assert len({a.args.get("merchant") for a in plan.acts}) == len(plan.acts)


@pytest.mark.parametrize(("text", "title"), [
    ("open a claim for Tech Stack in EUR", "Tech Stack"), ("new claim: Just Cause gala, USD", "Just Cause gala"),
    ("new claim: Stockholm COS store opening, SEK", "Stockholm COS store opening"),
    ("new claim: Sprint review since 2024", "Sprint review since 2024"),
])
def test_a_title_keeps_its_own_words_that_look_like_please_or_a_reason(text, title) -> None:
    [plan] = conversation([text], **NONE)
    assert [a.args.get("title") for a in plan.acts] in ([title], [])


def test_a_day_counted_from_another_is_asked() -> None:
    [plan] = conversation(["lunch 18 e dinner 2 days later 45"], **on(TRIP))
    assert plan.acts == []


def test_a_capital_e_is_no_and() -> None:
    [plan] = conversation(["E Street Cafe 12 today"], **on(TRIP))
    assert fields(plan, "merchant") == [("E Street Cafe",)]


def test_a_place_said_with_a_possessive_names_no_one_s_claim() -> None:
    edinburgh = {"cases": (claim("clm_EDI00001", "Edinburgh Investor Dinner", [], currency="GBP"),),
                 "active": "clm_EDI00001", "today": "2026-02-04"}
    [plan] = conversation(["Please record my LNER rail fare from King's Cross to Edinburgh on Monday, £164.50"], **edinburgh)
    assert fields(plan, "merchant", "amount") == [("LNER", "164.50")]


# ----------------------------------------------------------------- 6. the walk-through's families


def test_a_thing_taken_back_with_its_reason_beside_foreign_amounts_is_not_offered() -> None:
    from conversations.core.plan import parse_model_answer
    from expenses.interpreter import interpret
    from tests.test_interpreter import request

    first = parse_model_answer(interpret(request("on 2 December a Metro ticket, 36,00 DKK, and a coffee at the airport for "
                                                 "58 DKK ... actually not the coffee, that was private.", **on(TRIP))))
    assert [r.args["amount"] for r in first.reads] == ["36.00"]


def test_what_a_merchant_is_not_is_no_take_back() -> None:
    inn = [{**line("ln_htl00001", "2026-11-30", "hotel", "178.00"), "merchant": "Premier Inn"}]
    [plan] = conversation(["the hotel was the Travelodge, not the Premier Inn."], **on(inn))
    assert [a.args.get("merchant") for a in plan.acts] == ["Travelodge"] and not plan.retractions


def test_a_stay_told_by_its_days_before_the_month_and_a_trip_opened_after_a_greeting() -> None:
    [plan] = conversation(["hotel Ibis 1.-3. December, 2 nights, 240"], **on(TRIP))
    assert fields(plan, "amount", "date") == [("240.00", "2026-12-01")]
    [plan] = conversation(['Olá! I am just back from a customer visit in Copenhagen, 1.-3. December. Can you open a new '
                           'claim for it, please? Name it "Copenhagen customer visit" and keep it in EUR, bitte.'], **NONE)
    assert acts(plan) == [("open_claim", {"title": "Copenhagen customer visit", "currency": "EUR"})]
    [plan] = conversation(["taxi 3. Dez 23,40"], **on(TRIP))
    assert fields(plan, "date") == [("2026-12-03",)]


def test_yes_with_words_beside_it_takes_the_conversion_asked_for_in_the_claims_currency() -> None:
    from dataclasses import replace

    from conversations.core.plan import parse_model_answer
    from expenses.interpreter import interpret
    from tests.test_families_17 import converted
    from tests.test_interpreter import request

    told = "Taxi from Kastrup airport to the hotel on 1.12., 385,00 DKK. Please convert to EUR."
    first = converted(told, **on(TRIP))
    assert first.acts == [] and first.pending is not None
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    second = parse_model_answer(interpret(replace(request("Ja, yes, add it at that rate.", **on(TRIP)), pending=pending)))
    assert fields(second, "category", "date") == [("taxi", "2026-12-01")]
    assert [a.args.get("merchant") for a in second.acts] == [None]


def test_coming_back_is_no_description() -> None:
    [plan] = conversation(["Back in München on 3 December: parking at the airport for the 3 days, 67,00 EUR, and the "
                           "S-Bahn home, 13,60 EUR."], **on(TRIP))
    assert plan.acts[0].args.get("description") != "Back"
    assert fields(plan, "amount", "date") == [("67.00", "2026-12-03"), ("13.60", "2026-12-03")]


def test_a_line_changed_to_an_amount_in_another_currency_is_never_offered_as_an_addition() -> None:
    from tests.test_families_17 import converted

    dinner = [{**line("ln_din00001", "2026-12-01", "meals", "166.18"), "merchant": "Restaurant Höst"}]
    plan = converted("the dinner at Höst was 1.420,00 DKK, not 1.240.", **on(dinner))
    assert plan.acts == [] and "add" not in plan.answers[0].text and "change line 1 to" in plan.answers[0].text
    assert plan.pending is None or not (plan.pending.args or {}).get("currency")


def test_a_note_said_to_be_wrong_with_other_changes_beside_it_is_never_stored_as_the_note() -> None:
    lunch = [{**line("ln_lun00001", "2026-12-01", "meals", "63.80"), "merchant": "Currywurst"}]
    [plan] = conversation(["line 1 description is wrong, 'ugh' was me being annoyed :) make it lunch, and merchant "
                           "Curry 36"], **on(lunch))
    assert [a for a in plan.acts if "ugh" in str(a.args.get("description") or "")] == []


def test_a_sigh_is_no_description() -> None:
    [plan] = conversation(["ugh. lunch 14,90 on 1 december"], **on(TRIP))
    assert plan.acts[0].args.get("description") in (None, "lunch")


def test_a_lines_date_said_as_what_it_was_and_not_is_moved() -> None:
    lines = [{**line("ln_trn00001", "2026-11-30", "travel", "289.00"), "merchant": "PKP Intercity"},
             {**line("ln_bvg00001", "2026-12-01", "travel", "41.48"), "merchant": "BVG"}]
    [plan] = conversation(["BVG ticket date was 2 december, not 1"], **on(lines))
    assert [(a.act, dict(a.args)) for a in plan.acts] == [("update_line", {"line": 2, "date": "2026-12-02"})]


# ----------------------------------------------------------------- 7. the second review


@pytest.mark.parametrize("text", [
    "taxi 22 and lunch 14.50 - actually not the cab, that was private",
    "taxi 22 and train 45. Oops not the Uber.",
    "lunch 12 and coffee after lunch 4. not the lunch, it was on me",
    "Taxi 30 to the airport and taxi 25 from the airport. Actually not the first taxi.",
])
def test_a_take_back_that_names_no_one_act_takes_back_nothing_by_default(text) -> None:
    [plan] = conversation([text], **on(TRIP))
    retracted = {r.act for r in plan.retractions}
    kept = [a for a in plan.acts if a.id not in retracted]
    assert kept == []  # asked: never the last act dropped and the one meant kept


def test_a_take_back_that_names_one_act_takes_that_one_back() -> None:
    [plan] = conversation(["taxi 22 and a coffee 4.50, actually not the coffee, that was private"], **on(TRIP))
    retracted = {r.act for r in plan.retractions}
    assert [a.args["amount"] for a in plan.acts if a.id not in retracted] == ["22.00"]


def test_someone_elses_claim_said_with_a_place_is_never_the_users() -> None:
    berlin = {"cases": (claim("clm_BER00001", "Berlin trip", []),), "active": "clm_BER00001", "today": "2026-12-03"}
    [plan] = conversation(["add taxi 30 yesterday to Mark's one in Berlin"], **berlin)
    assert plan.acts == []
