"""Families of the fourteenth round (issue 19), with sentences of our own: a place whose name ends in a number, how
an expense was paid said beside it, and a yes to a conversion that picks some of the expenses offered."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from conversations.core.plan import ReadBatch, parse_model_answer
from expenses.interpreter import interpret
from tests.test_families_13 import line, on
from tests.test_families_17 import TRIP, fields
from tests.test_interpreter import _round, answer, plan_of, request
from tests.test_walkthrough_families import conversation

# TODAY is Thursday 2026-12-03: Monday is 2026-11-30, Tuesday 2026-12-01, Wednesday 2026-12-02


# ----------------------------------------------------------------- 1. a name that ends in a number


@pytest.mark.parametrize(("text", "merchant", "amount"), [
    ("dinner at Curry 36 yesterday, 12,50", "Curry 36", "12.50"),
    ("lunch at Café 1900 on monday 18.40", "Café 1900", "18.40"),
    ("drinks at Bar 7 on tuesday, €23.00", "Bar 7", "23.00"),
])
def test_a_number_ending_a_name_said_after_at_is_the_name_when_the_price_is_written_as_money(text, merchant, amount):
    [plan] = conversation([text], **on(TRIP))
    assert fields(plan, "merchant", "amount") == [(merchant, amount)]


@pytest.mark.parametrize("text", [
    "dinner at Vapiano 36",  # the one number: its price
    "dinner at Vapiano 36 and a taxi 12.50",  # two expenses
    "lunch at Nordsee 12, tip 2.50",  # a tip of its own
])
def test_a_number_after_a_name_stays_a_price_when_nothing_else_is_one(text):
    [plan] = conversation([text], **on(TRIP))
    assert all(a.args.get("merchant") not in ("Vapiano 36", "Nordsee 12") for a in plan.acts)
    assert plan.acts == [] or "36.00" in [a.args.get("amount") for a in plan.acts] or "12.00" in [
        a.args.get("amount") for a in plan.acts]


# ----------------------------------------------------------------- 2. how it was paid, said beside it


@pytest.mark.parametrize("text", [
    "hotel Adina 2 nights 258, paid at checkout",
    "taxi 31 from Hbf, paid by card",
    "lunch 14,50 - paid cash",
    "hotel 2 nights 258, settled at the front desk",
])
def test_how_an_expense_was_paid_is_no_expense_of_its_own(text):
    [plan] = conversation([text], **on(TRIP))
    assert len(plan.acts) == 1 and plan.acts[0].act == "add_line" and plan.pending is None
    assert not any("How much" in a.text for a in plan.answers)


def test_paid_by_someone_else_beside_an_addition_is_still_no_aside():
    [plan] = conversation(["dinner 48, the client paid it"], **on(TRIP))
    assert not [a for a in plan.acts if a.args.get("amount") == "48.00"]


# ----------------------------------------------------------------- 3. a yes to a conversion, for some of them


def _offered(told: str, **kwargs):
    """The plan for ``told`` after every exchange rate it asks for is read (the real read tool)."""
    rounds = []
    while isinstance(first := answer(told, rounds=rounds, **kwargs), ReadBatch):
        rounds.append(_round(first))
    return plan_of(told, rounds=rounds, **kwargs)


def _yes(told: str, said: str):
    first = _offered(told, **on(TRIP))
    assert first.acts == [] and first.pending is not None
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    return parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))


TOLD = "metro ticket 3,40 USD and lunch 22 USD"


@pytest.mark.parametrize(("said", "kinds"), [
    ("Yes for the Metro ticket only", ["travel"]),
    ("only the metro", ["travel"]),
    ("just the lunch please", ["meals"]),
    ("yes please for both", ["travel", "meals"]),
    ("ja bitte", ["travel", "meals"]),
])
def test_a_yes_that_says_only_adds_the_expenses_it_names(said, kinds):
    plan = _yes(TOLD, said)
    assert [a.args["category"] for a in plan.acts] == kinds
    assert all(a.args.get("currency") == "USD" for a in plan.acts)


@pytest.mark.parametrize("said", ["yes only the lunch and the metro", "only the hotel", "yes only"])
def test_a_yes_with_only_that_names_none_or_all_adds_nothing(said):
    plan = _yes(TOLD, said)
    assert plan.acts == []


# ----------------------------------------------------------------- 4. what the user said before, taken back


def test_i_said_the_cab_was_then_its_right_figure_corrects_the_cab():
    from tests.test_families_13 import line

    lines = [line("ln_taxi0001", "2026-12-01", "taxi", "142.00"), line("ln_lnch0001", "2026-12-02", "meals", "85.00")]
    [plan] = conversation(["Oh and I said the cab was 142, I've just dug the receipt out of my bag and it's 124, I always "
                           "swap digits."], **on(lines))
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plan.acts] == [("update_line", 1, "124.00")]


def test_a_sentence_that_tells_what_came_next_never_gives_its_kind_to_a_price_said_alone_before():
    [plan] = conversation(["I've just dug the receipt out of my bag and it's 124, I always swap digits. Then Thursday I "
                           "checked out of the hotel"], **on([]))
    assert plan.acts == []


# ----------------------------------------------------------------- 5. days: short names abroad, and the day one arrived


def test_other_languages_short_day_names_heading_a_line_date_what_follows():
    [plan] = conversation(["So. Mo: ICE Hamburg - Stuttgart with Deutsche Bahn 139,90 EUR, Taxi to the hotel 18,40 EUR. "
                           "Di: business lunch with the customer 54,80"], **on([]))
    assert fields(plan, "amount", "date") == [("139.90", "2026-11-30"), ("18.40", "2026-11-30"), ("54.80", "2026-12-01")]


@pytest.mark.parametrize("text", ["So do: the taxi was 12", "Do: lunch 12"])  # an English word, never a day
def test_a_short_day_name_that_is_an_english_word_dates_nothing(text):
    [plan] = conversation([text], **on([]))
    assert all(a.args.get("date") in (None, "2026-12-03") for a in plan.acts)


@pytest.mark.parametrize(("text", "currency", "day"), [
    ("Hello, please open a new claim in pounds: 'London media summit'. I arrived on Tuesday, the Heathrow Express into "
     "Paddington was £25.", "GBP", "2026-12-01"),
    ("Hello, I need new claim for Prague warehouse audit, currency PLN. Monday I drive own car Wrocław to Prague, fuel "
     "286,40 zł at Orlen before border.", "PLN", "2026-11-30"),
])
def test_a_claim_opened_then_the_day_one_arrived_dates_the_expense_told_with_it(text, currency, day):
    from tests.test_families_17 import NONE

    [plan] = conversation([text], **NONE)
    assert [a.act for a in plan.acts] == ["open_claim", "add_line"]
    assert plan.acts[0].args["currency"] == currency and plan.acts[1].args["date"] == day


def test_a_claim_opened_then_the_days_of_the_trip_is_still_only_the_claim():
    from tests.test_families_17 import NONE

    [plan] = conversation(['Hello, please can you open a new claim "EICMA Milano" in euros? I was in the fair from '
                           'monday 9 until thursday 12.'], **NONE)
    assert [a.act for a in plan.acts] == ["open_claim"]


# ----------------------------------------------------------------- 6. a currency said as "Currency is yen"


def test_currency_is_yen_opens_the_claim_in_jpy():
    from tests.test_families_17 import NONE

    [plan] = conversation(["Please make new claim. Title: Osaka line test. Currency is yen."], **NONE)
    assert [(a.act, a.args.get("currency")) for a in plan.acts] == [("open_claim", "JPY")]


def test_the_engine_grounds_a_currency_said_after_currency_is():
    from conversations.core.grounding import currency_grounded

    assert currency_grounded("JPY", "Title: Osaka line test. Currency is yen.", "EUR")
    assert not currency_grounded("JPY", "Title: Osaka line test.", "EUR")


# ----------------------------------------------------------------- 7. the receipts, said beside a request


@pytest.mark.parametrize("text", [
    "deadly, submit away. receipts are in me bag, I'll upload them tonight",
    "Thank you, that's all, submit please. The receipts I have in my bag, I send them to accounting tomorrow.",
])
def test_where_the_receipts_are_beside_a_submit_is_no_request(text):
    [plan] = conversation([text], **on(TRIP))
    assert [a.act for a in plan.acts] == ["submit_claim"]


# ----------------------------------------------------------------- 8. a ride's brand said as what it was


def test_the_uber_was_a_bolt_changes_who_was_paid_not_the_kind():
    from tests.test_families_13 import line

    lines = [line("ln_metr0001", "2026-11-30", "travel", "1.85"),
             {**line("ln_uber0001", "2026-11-30", "taxi", "12.40"), "merchant": "Uber"}]
    [plan] = conversation(["and the uber on monday was a Bolt actually"], **on(lines))
    assert [(a.act, dict(a.args)) for a in plan.acts] == [("update_line", {"line": 2, "merchant": "Bolt"})]


# ----------------------------------------------------------------- 9. where a meal was eaten, an English word capitalised


def test_a_capitalised_word_where_a_meal_was_eaten_is_the_place():
    [plan] = conversation(["Friday: a taxi to dinner €17.40, and the board dinner at Rules was €212.00"], **on([]))
    assert ("meals", "Rules") in fields(plan, "category", "merchant")
    assert all(a.args.get("description") not in ("She", "I've") for a in plan.acts)


# ----------------------------------------------------------------- 10. a claim opened, then what was told on it


def test_a_claim_opened_then_an_expense_the_first_reading_could_not_date_goes_on_the_new_claim():
    from tests.test_families_17 import NONE

    [plan] = conversation(["Hi! Please create a claim 'Zurich ML summit' in EUR. The conference registration was 420 EUR, "
                           "paid on Monday itself."], **NONE)
    assert [(a.act, a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [
        ("open_claim", None, None), ("add_line", "420.00", "2026-11-30")]
    assert all(not a.case for a in plan.acts)


def test_a_sentence_saying_a_thing_of_another_kind_is_not_claimed_beside_the_expenses_is_no_take_back():
    [plan] = conversation(["The flight was booked by our travel desk so I am not claiming it. On Monday the taxi from the "
                           "airport was 38.50 and dinner 23.40."], **on([]))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("add_line", "38.50"), ("add_line", "23.40")]


@pytest.mark.parametrize("text", [
    "Taxi 30 yesterday. My boss paid it so I am not claiming it.",  # "it" is the taxi just told
    "Dinner 60 yesterday. The client picked up the bill, so I'm not claiming it.",
    "taxi 30 yesterday, dinner at Nobu 80 yesterday. The client paid the meal so I am not claiming it.",
    "uber 25 on tuesday, flight 240 on monday. The airfare was booked by our travel desk so I am not claiming it.",
    'Please open a new claim titled "Hamburg audit". The flight was booked by our travel desk so I am not claiming '
    'it. On Monday the S-Bahn from the airport was 3.90.',  # a thing of the kind the message adds: asked
])
def test_not_claiming_what_may_be_an_expense_of_the_message_adds_nothing(text):
    [plan] = conversation([text], **on([]))
    assert not [a for a in plan.acts if a.act == "add_line"]


def test_not_claiming_what_the_message_adds_is_asked():
    [plan] = conversation(["On Monday the S-Bahn from the airport was 3.90 and the flight 120. The flight was booked by "
                           "our travel desk so I am not claiming it."], **on([]))
    assert plan.acts == []


# ----------------------------------------------------------------- 11. "don't add that", after what was just told


def test_dont_add_that_after_the_thing_named_again_takes_it_back():
    [plan] = conversation(["Add team dinner Tuesday 39.90 and lunch at the airport Wednesday 18.20. And printing of my "
                           "poster 35 euros on Tuesday - oh wait, the lab paid the poster directly, so don't add that."],
                          **on([]))
    assert [a.args["amount"] for a in plan.acts] == ["39.90", "18.20", "35.00"]
    assert [r.act for r in plan.retractions] == [plan.acts[2].id]


def test_dont_add_that_after_words_about_something_else_does_nothing():
    [plan] = conversation(["taxi 20 and lunch 14. My colleague paid for his own coffee, so don't add that."], **on([]))
    assert not [a for a in plan.acts if a.id not in {r.act for r in plan.retractions}] or plan.acts == []


# ----------------------------------------------------------------- 12. a yes, then more


def test_a_yes_ending_its_sentence_takes_the_conversion_and_the_rest_is_read_on_its_own():
    told = "the flight went on ma own card in pounds tho, £142 return wi easyJet, that was monday"
    plan = _yes(told, "aye fine, add that. tuesday dinner 26 at a wee italian place")
    assert [(a.args["category"], a.args.get("currency")) for a in plan.acts] == [("travel", "GBP"), ("meals", None)]


@pytest.mark.parametrize("said", ["ok, then put 16 EUR for the lunch", "ok. 19.89 eur then", "ok. actually no, wait"])
def test_a_yes_followed_by_the_amount_restated_or_a_doubt_never_adds_it_converted(said):
    plan = _yes("lunch 22 USD", said)
    assert not [a for a in plan.acts if (a.args or {}).get("currency") == "USD"]


# ----------------------------------------------------------------- 13. a stay told twice, a hotel's name with a number


def test_a_nights_price_then_the_stays_sum_is_one_stay_asked_never_two_lines():
    [plan] = conversation(["hotel Ibis 89, 2 nights 178.00 total"], **on([]))
    assert len([a for a in plan.acts if a.args.get("category") == "hotel"]) <= 1


@pytest.mark.parametrize(("text", "merchant", "amount"), [
    ("hotel Pod 39 checked in tuesday, 2 nights 412.60 total", "Pod 39", "412.60"),
    ("taxi 20, hotel Ibis 2 nights 178, lunch 12", "Ibis", "178.00"),
    ("Monday also the hotel: 25hours Hotel HafenCity, 2 nights at 139 each.", "25hours Hotel HafenCity", "278.00"),
    ("htl nh 1 nt wed 164", "NH", "164.00"),
])
def test_a_hotels_name_with_a_number_and_a_count_of_nights(text, merchant, amount):
    [plan] = conversation([text], **on([]))
    assert (merchant, amount) in fields(plan, "merchant", "amount")


# ----------------------------------------------------------------- 14. a take-back that names the thing just told


@pytest.mark.parametrize(("text", "kept", "taken"), [
    ("coffee 6.20 wednesday morning, n wednesday cab tae BER 41 - actually naw, the promoter paid that cab, leave it out",
     "6.20", "41.00"),
    ("lunch 14 and dinner at Cervejaria Ramiro 52.30 with the client... ah não, the client paid that dinner, forget it",
     "14.00", "52.30"),
    ("Tuesday lunch 78,50. Tuesday dinner 212 at Far i Hatten - no wait, that was the team dinner the boss paid.",
     "78.50", "212.00"),
])
def test_a_take_back_naming_the_expense_just_told_takes_that_one_back(text, kept, taken):
    [plan] = conversation([text], **on([]))
    retracted = {r.act for r in plan.retractions}
    assert [a.args["amount"] for a in plan.acts if a.id not in retracted] == [kept]
    assert [a.args["amount"] for a in plan.acts if a.id in retracted] == [taken]


@pytest.mark.parametrize("text", [
    "lunch 14 and a taxi 20 - actually no, the client paid the dinner, forget it",  # names nothing told: asked
    "taxi 20 - no, my colleague paid his own lunch",
])
def test_a_take_back_naming_nothing_just_told_takes_nothing_back_silently(text):
    [plan] = conversation([text], **on([]))
    assert plan.acts == [] and plan.answers


def test_two_things_each_priced_in_yen_are_two_expenses():
    from tests.test_families_17 import on_claim

    [plan] = conversation(["13 April: Shinkansen Tokyo to Shin-Osaka 14,720 yen. Taxi station to factory 2,300."],
                          **on_claim("JPY"))
    assert fields(plan, "category", "amount") == [("travel", "14720.00"), ("taxi", "2300.00")]
    assert all(a.args.get("merchant") != "Shinkansen Tokyo" for a in plan.acts)


# ----------------------------------------------------------------- 15. walk U: what a new user met


GOTHENBURG = [line("ln_flig0001", "2026-11-23", "travel", "412.60"), line("ln_park0001", "2026-11-25", "travel", "36.00"),
              line("ln_dinn0001", "2026-11-23", "meals", "32.43"), line("ln_buss0001", "2026-11-23", "travel", "11.68"),
              {**line("ln_hote0001", "2026-11-25", "hotel", "269.93"), "merchant": "Scandic Rubinen"}]


def test_an_amount_said_to_be_fine_is_never_changed_to():
    [plan] = conversation(["Good, 180 is fine then, no change needed. But desculpa, I got the hotel name wrong: it was "
                           "Clarion Hotel Post, not Scandic Rubinen. Please rename line 5."], **on(GOTHENBURG))
    assert not [a for a in plan.acts if "amount" in a.args]


def test_a_bare_weekday_beside_a_date_of_the_week_before_is_asked():
    [plan] = conversation(["the flight with Lufthansa, 412,60 EUR, on Monday 23 Nov. And parking at the airport for the "
                           "3 days, 36,00 EUR (I paid it on Wednesday when I came back)."], **on([]))
    assert not [a for a in plan.acts if a.args.get("date") == "2026-12-02"]


def test_two_corrections_each_in_its_sentence_are_both_made():
    [plan] = conversation(["Two corrections. The hotel was at Clarion Hotel Post, not Scandic Rubinen. The dinner on "
                           "23 Nov was 34,87, not 32,43."], **on(GOTHENBURG))
    assert sorted((a.args["line"], a.args.get("merchant") or a.args.get("amount")) for a in plan.acts) == [
        (3, "34.87"), (5, "Clarion Hotel Post")]


def test_a_merchant_with_a_figure_in_its_name_is_corrected():
    lines = [{**line("ln_dies0001", "2026-11-30", "travel", "612.30"), "merchant": "Circle K"}]
    [plan] = conversation(["the diesel was at Q8, not Circle K"], **on(lines))
    assert [dict(a.args) for a in plan.acts] == [{"line": 1, "merchant": "Q8"}]


def test_one_receipt_for_two_things_of_one_kind_is_one_line():
    [plan] = conversation(["add a taxi to the airport on 25 November, 47,10, and Pressbyrån sandwich and coffee on 25 "
                           "November, 8,88."], **on([]))
    assert fields(plan, "category", "amount") == [("taxi", "47.10"), ("meals", "8.88")] and plan.pending is None


def test_a_portuguese_perfect_is_no_description():
    [plan] = conversation(["Perfeito. Tuesday 24 November: lunch with the supplier team at Restaurang Kometen, 24.50"],
                          **on([]))
    assert [a.args.get("description") for a in plan.acts] != ["Perfeito"]


def test_a_weekday_and_its_day_heading_what_follows_is_a_day_never_an_amount():
    gothenburg = GOTHENBURG[:2]
    plan = _offered("Obrigada! Now Monday 23, in Swedish kronor: the Flygbussarna airport bus from Landvetter to the "
                    "city centre, 129 SEK, and dinner at Sjöbaren, 358 SEK.", **on(gothenburg))
    assert plan.acts == [] and plan.pending is not None  # both offered converted: one "yes" adds them


@pytest.mark.parametrize("text", ["lunch tue 28, taxi to client tue 24, dinner tue alone 41", "Tue 10:20 taxi £34",
                                  "premier inn from mon 3 nts 387 total"])
def test_a_weekday_beside_a_price_a_time_or_a_count_keeps_them(text):
    from datetime import date

    from expenses.interpreter.normalize import weekdays_with_their_day

    assert weekdays_with_their_day(text, date(2026, 11, 25)) == []


# ----------------------------------------------------------------- 16. the round's review: what it broke, held


@pytest.mark.parametrize("text", [
    "I entered the taxi at 142, that's correct. Parking was 12",
    "like I said the taxi was 142, and the dinner on tuesday was 25",
    "I told you the cab was 142, the hotel was 124",
    "I entered 30 for the meal, that's right. Taxi is 124",
])
def test_what_the_user_said_before_beside_another_things_price_changes_nothing(text):
    lines = [line("ln_taxi0001", "2026-12-01", "taxi", "142.00"), line("ln_meal0001", "2026-12-02", "meals", "30.00")]
    [plan] = conversation([text], **on(lines))
    assert not [a for a in plan.acts if a.act == "update_line"]


@pytest.mark.parametrize("text", [
    "lunch at Vapiano 14 yesterday, 2.50 tip", "dinner at Luigi 45 yesterday, €5 tip", "hotel Ibis 89 yesterday, 12.50 city tax",
    "dinner at Vapiano 1 Dec, 45.00", "dinner at Luigi 8pm yesterday, 45.00", "dinner at Nobu 2 of us yesterday 90.00",
    "lunch at Pret 2 sandwiches yesterday 9.80", "taxi at Gate 12 yesterday 35.00", "parking at Terminal 5 yesterday 24.00",
    "hotel Ibis 89 per night, 178.00 total",
])
def test_a_figure_beside_a_name_that_is_a_day_time_count_rate_or_price_is_no_part_of_the_name(text):
    [plan] = conversation([text], **on([]))
    assert not [a for a in plan.acts if re.search(r"\d", str(a.args.get("merchant") or ""))]


@pytest.mark.parametrize("text", [
    "lunch with the client 15 yesterday, taxi to the client 30 yesterday. oh wait, the client paid the lunch, so don't add that",
    "dinner at the hotel 40 yesterday, hotel 120 yesterday. wait, the dinner was on the hotel bill, so don't add that",
    "hotel 120 on monday, taxi from the hotel 25 on tuesday. the hotel was prepaid by the company, so don't add that",
])
def test_dont_add_that_naming_an_earlier_thing_never_takes_back_the_last(text):
    [plan] = conversation([text], **on([]))
    retracted = {r.act for r in plan.retractions}
    kept = [a for a in plan.acts if a.id not in retracted]
    assert plan.acts == [] or not kept


@pytest.mark.parametrize(("told", "said"), [
    ("flight 300 USD, train 40 USD and dinner 60 USD on monday", "only the train"),
    ("taxi 40 USD, lunch 20 USD and parking 30 USD on monday", "only the taxi, lunch was free"),
    ("taxi 40 USD on monday", "Jo paid for it"),
    ("dinner 60 USD on monday", "Si covered that one"),
    ("dinner 60 USD on monday", "sure, minus the wine. taxi 20 yesterday"),
    ("dinner 60 USD on monday", "ok, as a personal expense. taxi 20 yesterday"),
])
def test_an_answer_to_a_conversion_with_a_condition_or_a_name_takes_no_conversion_it_does_not_say(told, said):
    plan = _yes(told, said)
    assert not [a for a in plan.acts if (a.args or {}).get("currency") == "USD" and (a.args or {}).get(
        "category") != "travel"] or said == "only the train"
    if said == "only the train":
        assert [a.args["category"] for a in plan.acts if (a.args or {}).get("currency")] in ([], ["travel"])
        assert len(plan.acts) <= 1


@pytest.mark.parametrize("text", ["taxi 30 yesterday. Sam: lunch 12", "Dom: taxi 30", "PO: taxi 30", "St: Pancras taxi 20"])
def test_one_short_day_name_alone_or_in_capitals_dates_nothing(text):
    [plan] = conversation([text], **on([]))
    assert all(a.args.get("date") in (None, "2026-12-02", "2026-12-03") for a in plan.acts)


def test_a_brand_said_in_passing_never_becomes_the_merchant():
    lines = [{**line("ln_uber0001", "2026-11-30", "taxi", "25.00"), "merchant": "Uber"}]
    for text in ("the uber on monday was cheaper than a Bolt", "the uber on monday was 25, same as a Bolt"):
        [plan] = conversation([text], **on(lines))
        assert not [a for a in plan.acts if a.args.get("merchant") == "Bolt"]


@pytest.mark.parametrize("text", ["Yesterday, team lunch at Noon, 48", "quick drinks at Conference 25 yesterday"])
def test_a_time_or_a_place_word_after_at_is_no_merchant(text):
    [plan] = conversation([text], **on([]))
    assert all(a.args.get("merchant") in (None, "") for a in plan.acts)


def test_a_take_back_beside_an_expense_of_the_other_kind_never_crashes_the_turn():
    [plan] = conversation(["The registration was 420 EUR, paid on Monday itself. Dinner 45, not the lunch."], **on([]))
    assert plan is not None
