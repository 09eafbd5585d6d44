"""Families of the twenty-third round (issue 19), with sentences of our own: a stay of several nights dated today
tells no trip going on today, "this am", "the lunch of day 24", a price that hides a second figure of the same value,
Swedish and Danish "i fredags", a request's words abroad in no description, and the currency told after a claim's name."""

from __future__ import annotations

import pytest

from tests.test_families_13 import TODAY, line, on
from tests.test_families_29 import _said, _talk
from tests.test_interpreter import plan_of

# TODAY is Thursday 3 December 2026
LAST_WEEK = [line("ln_trai0001", "2026-11-30", "travel", "29.99"), line("ln_lunc0001", "2026-11-30", "meals", "12.50")]


def _dates(plan) -> list[tuple[str, str | None]]:
    return [(a.args.get("category"), a.args.get("date")) for a in plan.acts]


# ----------------------------------------------------------------- 1. a stay dated today tells no trip going on today


def test_an_expense_with_no_day_after_a_stay_dated_today_on_a_claim_of_last_week_is_asked_its_day():
    stay = {**line("ln_hote0001", TODAY, "hotel", "198.00"), "quantity": 2}
    plans = _talk(["hotel 2 nites 198", "taxi 15"], **on([*LAST_WEEK, stay]))
    assert plans[1].acts == []
    assert "Which day was" in _said(plans[1])


def test_a_meal_dated_today_on_such_a_claim_still_tells_the_trip_goes_on_today():
    lunch = line("ln_lunc0002", TODAY, "meals", "22.00")
    plans = _talk(["lunch 22", "dinner 40 at giordanos"], **on([*LAST_WEEK, lunch]))
    assert _dates(plans[1]) in ([("meals", TODAY)], [("meals", None)])  # (no day: the runtime's today)


def test_a_one_night_stay_dated_today_tells_the_trip_goes_on_today():
    stay = {**line("ln_hote0001", TODAY, "hotel", "99.00"), "quantity": 1}
    plans = _talk(["hotel tonight 99", "taxi 15"], **on([*LAST_WEEK, stay]))
    assert _dates(plans[1]) in ([("taxi", TODAY)], [("taxi", None)])


# ----------------------------------------------------------------- 2. days said the way people say them


@pytest.mark.parametrize("text", ["and 2 coffees 7.60 this am", "coffee 3.20 this a.m.", "taxi this am 18"])
def test_this_am_is_today(text):
    plans = _talk(["metro tix 30", text], **on(LAST_WEEK))
    assert [a.args.get("date") for a in plans[1].acts] in ([TODAY], [None])


@pytest.mark.parametrize(("text", "day"), [("I need to put the lunch of day 24, it was 24 eur", "2026-11-24"),
                                           ("taxi on day 23, 18 eur", "2026-11-23"),
                                           ("dinner dia 23 31 eur", "2026-11-23"),
                                           ("cena giorno 30 42 eur", "2026-11-30")])
def test_day_and_its_number_is_that_day_of_the_month(text, day):
    plan = plan_of(text, **on([]))
    assert [a.args.get("date") for a in plan.acts] == [day]
    assert all(a.args.get("description") in (None, "", "lunch", "dinner", "cena") for a in plan.acts)


@pytest.mark.parametrize("text", ["day 2 of the trip, lunch 14", "Day 3: lunch 14"])
def test_a_small_day_number_is_the_trips_day_never_a_day_of_the_month(text):
    plan = plan_of(text, **on([]))
    assert all(a.args.get("date") != "2026-12-02" and a.args.get("date") != "2026-12-03" for a in plan.acts)


def test_a_price_said_beside_another_figure_of_its_value_is_asked():
    """"on day 5 …, it was 5": one 5 is the price; the other is neither read as a day nor as anything else."""
    plan = plan_of("lunch on day 5 in town, it was 5 eur", **on([]))
    assert plan.acts == []


@pytest.mark.parametrize("text", ["hotel 2 nights 90 each, 180", "taxi 24", "lunch 24 eur with a colleague"])
def test_a_price_said_once_or_as_its_own_product_still_adds(text):
    plan = plan_of(text, **on([]))
    assert [a.act for a in plan.acts] == ["add_line"]


@pytest.mark.parametrize(("text", "day"), [("kan du lägga till en taxi 24 euro, kvittot är från i fredags", "2026-11-27"),
                                           ("taxa 12 euro i mandags", "2026-11-30"),
                                           ("taxi 80 i torsdags", "2026-11-26")])
def test_swedish_and_danish_last_weekday(text, day):
    plan = plan_of(text, **on([]))
    assert [a.args.get("date") for a in plan.acts] == [day]
    assert not {"kan", "du", "lägga", "en"} & set(str(plan.acts[0].args.get("description") or "").split())


def test_i_need_to_is_no_description():
    plan = plan_of("I need to put the dinner, it was 45 eur yesterday", **on([]))
    assert [a.args.get("description") for a in plan.acts] in ([None], [""], ["dinner"])


# ----------------------------------------------------------------- 3. the currency told after the claim's name


@pytest.mark.parametrize("text", [
    "please open new claim for my trip to Gothenburg, name it Gothenburg workshop and the currency SEK because all "
    "the receipts are in kronor",
    "open a claim called Gothenburg workshop, currency SEK"])
def test_the_currency_told_after_the_name_is_no_part_of_it(text):
    plan = plan_of(text, **on([]))
    opened = [a.args for a in plan.acts if a.act == "open_claim"]
    assert [(o.get("title"), o.get("currency")) for o in opened] == [("Gothenburg workshop", "SEK")]


# ----------------------------------------------------------------- 4. what the first review found (d54af51)


@pytest.mark.parametrize("text", ["dinner 45, 45 with tip", "taxi 32, 32 with tip", "dinner 45 (45 incl tip)"])
def test_a_price_said_again_with_the_tip_is_never_a_second_line(text):
    plan = plan_of(text, **on([]))
    assert len([a for a in plan.acts if a.act == "add_line"]) <= 1


@pytest.mark.parametrize("text", ["open a new claim for my London trip, currency is the pound",
                                  "open a claim called Warsaw and the currency is the zloty",
                                  "new claim for Oslo trip, the currency is the krone"])
def test_a_currency_told_as_the_name_of_one_never_opens_the_claim_in_euros(text):
    plan = plan_of(text, **on([]))
    opened = [a.args for a in plan.acts if a.act == "open_claim"]
    assert all(o.get("currency") not in (None, "EUR") and "the" not in str(o.get("title")).split() for o in opened)


@pytest.mark.parametrize("text", ["On day 10 of this trip, taxi 30", "on day 12 of Web Summit, lunch 20",
                                  "We arrived on day 1 and on day 10 we flew back, flight 220", "Dia 9: almoço 14",
                                  "on day 10 in Lisbon we had dinner 48", "cena el día 28 de octubre, 40",
                                  "il giorno 12 di ottobre, cena 40", "bom dia 15 taxi 20", "jantar no dia 10 da viagem 45",
                                  "on day 15, October, taxi 20", "lunch on day 12 and dinner on day 13"])
def test_a_numbered_day_that_may_be_the_trips_or_has_its_month_is_never_dated_this_month(text):
    plan = plan_of(text, **on([]))
    assert not any(str(a.args.get("date") or "").startswith("2026-11") for a in plan.acts)


def test_a_restaurant_named_with_an_apostrophe_s_is_its_merchant():
    plan = plan_of("lunch at Joe's Pizza 14.25 yesterday, dinner at Carmine's 41.10 yesterday", **on([]))
    assert [a.args.get("merchant") for a in plan.acts] == ["Joe's Pizza", "Carmine's"]


@pytest.mark.parametrize(("text", "day"), [("lunch 125 i måndags", "2026-11-30"), ("taxi 245 i fredags", "2026-11-27")])
def test_last_weekday_in_swedish_is_what_the_audit_reads_too(text, day):
    """The claim holds that very line already: the same figure on the same day is asked about, never added today."""
    category = "meals" if "lunch" in text else "taxi"
    amount = "125.00" if "lunch" in text else "245.00"
    plan = plan_of(text, **on([line("ln_same0001", day, category, amount)]))
    assert all(a.args.get("date") == day for a in plan.acts)


# ----------------------------------------------------------------- 5. the trip's days told in a sentence of their own


@pytest.mark.parametrize("text", ["trip was 2.11–4.11\n2.11 arlanda express 32 eur",
                                  "I was at the conference from onsdag 4/11 to fredag 6/11. On the 4th: train 42,90 eur",
                                  "I went over 11/23 thru 11/25. Flight on 11/23 was 245 eur"])
def test_a_sentence_telling_the_trips_days_dates_nothing_and_the_expenses_keep_their_own(text):
    plan = plan_of(text, **on([]))
    assert [a.act for a in plan.acts] == ["add_line"]
    assert plan.acts[0].args.get("date") in ("2026-11-02", "2026-11-04", "2026-11-23")


def test_put_it_in_dkk_is_the_currency_of_the_claim_opened():
    plan = plan_of('I need to make a new claim, please call it "Aarhus conference" and put it in DKK.', **on([]))
    assert [(a.args.get("title"), a.args.get("currency")) for a in plan.acts if a.act == "open_claim"] == [
        ("Aarhus conference", "DKK")]


def test_put_it_in_dkk_beside_an_expense_is_never_its_currency():
    plan = plan_of("taxi 30 and put it in DKK", **on([]))
    assert plan.acts == []


def test_new_york_in_a_quoted_title_is_a_city():
    plan = plan_of('Please open a new claim titled "New York deposition", in Canadian dollars.', **on([]))
    assert [(a.args.get("title"), a.args.get("currency")) for a in plan.acts] == [("New York deposition", "CAD")]


def test_a_day_and_month_dotted_with_a_space_is_a_day():
    plan = plan_of("Hotel Ibis, 2 nights from 9. 11., 348 eur", **on([]))
    assert [(a.args.get("category"), a.args.get("date")) for a in plan.acts] == [("hotel", "2026-11-09")]


def test_an_expense_with_no_day_the_day_after_a_trip_told_to_end_yesterday_is_asked():
    plans = _talk(["Training was 30. 11. – 2. 12. Hotel 348 eur on 30.11.", "Taxi 42 eur."], **on([]))
    assert plans[1].acts == [] and "Which day was" in _said(plans[1])


# ----------------------------------------------------------------- 6. what the second review found (f36cd40)


@pytest.mark.parametrize("text", ["I went over 11/23 thru 11/25. Dinner on Tuesday was 60 eur.",
                                  "The conference was 23.11-25.11. Dinner on Tuesday 45"])
def test_a_weekday_after_the_trips_days_is_never_a_day_outside_them(text):
    plan = plan_of(text, **on([]))
    assert all(a.args.get("date") in (None, "2026-11-24") for a in plan.acts)
    assert all(a.args.get("date") != "2026-12-01" for a in plan.acts)


def test_each_weekday_after_the_trips_days_dates_its_own_expense():
    plan = plan_of("Trip 30.11–2.12. Tuesday taxi 30, Wednesday lunch 14", **on([]))
    assert [(a.args.get("category"), a.args.get("date")) for a in plan.acts] in (
        [("taxi", "2026-12-01"), ("meals", "2026-12-02")], [])


@pytest.mark.parametrize("text", ["Car rental for the day 29, petrol 25", "Parking for the day 18. Taxi 12",
                                  "menu of the day 18, coffee 3", "parking 1 dia 15", "parking 1 dia 15 e jantar 30",
                                  "taxi 25, parking 1 día 18"])
def test_a_day_hired_or_counted_is_no_day_of_the_month(text):
    plan = plan_of(text, **on([]))
    assert not any(str(a.args.get("date") or "").startswith("2026-11") for a in plan.acts)


@pytest.mark.parametrize(("text", "title", "currency"), [
    ("open a claim called Oslo and the currency NOK", "Oslo", "NOK"),
    ("open a claim called New York and the currency USD", "New York", "USD"),
    ("new claim Gothenburg workshop, the currency SEK", "Gothenburg workshop", "SEK")])
def test_and_the_currency_is_never_part_of_the_title(text, title, currency):
    plan = plan_of(text, **on([]))
    assert [(a.args.get("title"), a.args.get("currency")) for a in plan.acts if a.act == "open_claim"] in (
        [(title, currency)], [])


@pytest.mark.parametrize("text", ["Expenses: 1. train 45. 2. taxi 12. 3. lunch 9.", "Taxi 25. 3. lunch 14"])
def test_a_numbered_list_after_a_price_is_no_day(text):
    plan = plan_of(text, **on([]))
    assert not any(str(a.args.get("date") or "") < "2026-09-01" and a.args.get("date") for a in plan.acts)
    assert all(a.args.get("category") != "taxi" or a.args.get("amount") != "9.00" for a in plan.acts)


def test_a_weekday_pair_with_its_days_is_never_a_price():
    plan = plan_of("The hotel was the Marriott, 2 noches (lunes 30 and martes 1), 524 eur total", **on([]))
    assert all(a.args.get("amount") not in ("30.00", "1.00") for a in plan.acts)


def test_taxi_thursday_12_is_still_a_price_on_a_thursday():
    plan = plan_of("taxi tuesday 12", **on([]))
    assert [(a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [("12.00", "2026-12-01")]


def test_a_change_by_kind_after_two_of_that_kind_were_told_and_one_is_on_the_claim_is_asked():
    taxi = line("ln_taxi0001", "2026-12-01", "taxi", "19.80")
    plans = _talk(["on tuesday there were two times taxi, to the plant and back, both 19.80 EUR. Please add the second "
                   "one also.", "Also please change the taxi amount to 21.30 EUR."], **on([taxi]))
    assert plans[1].acts == []


def test_a_question_about_the_assistants_note_adds_nothing():
    [plan] = _talk(["about the note for meals 72 on tuesday: the lunch was with the supplier, is it still in the 60 "
                    "limit? do I need to do something?"], **on([line("ln_lunc0001", "2026-12-01", "meals", "27.80")]))
    assert all(a.act != "add_line" for a in plan.acts)


def test_about_my_trip_then_an_expense_still_adds_it():
    plan = plan_of("about my trip: taxi 20 yesterday", **on([]))
    assert [a.act for a in plan.acts] == ["add_line"]


def test_a_restaurant_near_the_hotel_tells_no_second_stay():
    plan = plan_of("Hotel Motel One, 2 nuits (30/11 and 1/12), total 238.00. Also dinner on monday evening at a "
                   "restaurant near the hotel 34,90", **on([line("ln_trai0001", "2026-11-30", "travel", "189.40")]))
    assert [(a.args.get("category"), a.args.get("amount")) for a in plan.acts][:1] == [("hotel", "238.00")]
    assert "nuits" not in str(plan.acts[0].args.get("description") or "")


def test_year_first_days_are_days():
    plan = plan_of("2026.11.16. dinner 96,00 eur\n2026/11/17 lunch 54,00 eur", **on([]))
    assert [(a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [("96.00", "2026-11-16"),
                                                                               ("54.00", "2026-11-17")]


def test_first_day_heading_keeps_every_row_and_the_claim_opened():
    plan = plan_of('Please open claim "Poznan audit", currency PLN. First day:\n16.11.2026 dinner 38,50 PLN\n'
                   "16.11.2026 lunch 18,50 PLN", cases=(), active=None, today="2026-12-03")
    assert [a.act for a in plan.acts] == ["open_claim", "add_line", "add_line"]
