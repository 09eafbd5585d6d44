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
