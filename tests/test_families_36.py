"""Families of the twenty-sixth round (issue 19), with sentences of our own: a dollar sign on a claim kept in dollars;
words beside a submission that say nothing about it; a line named by its kind, its place among its kind, its amount
or its weekday; a line named as one known, then told again; a stay's house in lower case; a stay's moment that is no
one's name."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from conversations.core.plan import ReadBatch
from tests.test_families_13 import on
from tests.test_families_17 import acts, fields, on_claim
from tests.test_families_33 import _line, _talk_kept
from tests.test_interpreter import answer
from tests.test_walkthrough_families import conversation

# TODAY is Thursday 3 December 2026

LYON = [
    _line("ln_trai0001", "2026-11-23", "travel", "189.00", "SNCF"),
    _line("ln_ibis0001", "2026-11-23", "hotel", "98.00", "Ibis Lyon"),
    _line("ln_ibis0002", "2026-11-24", "hotel", "98.00", "Ibis Lyon"),
    _line("ln_dinr0001", "2026-11-23", "meals", "31.50", "Bouchon Daniel", "dinner"),
    _line("ln_lnch0001", "2026-11-24", "meals", "17.20", description="lunch"),
    _line("ln_taxi0001", "2026-11-24", "taxi", "24.00"),
    _line("ln_lnch0002", "2026-11-25", "meals", "15.80", description="lunch"),
    _line("ln_taxi0002", "2026-11-26", "taxi", "26.00"),
]

BERLIN = [
    _line("ln_lnch0001", "2026-12-01", "meals", "11.50", "Dean & David"),
    _line("ln_lnch0002", "2026-12-02", "meals", "13.20"),
    _line("ln_lnch0003", "2026-12-03", "meals", "12.80"),
    _line("ln_lnch0004", "2026-11-30", "meals", "14.10", description="lunch"),
]


def _one(messages: list[str], lines: list[dict[str, Any]]):
    return _talk_kept(messages, **on(lines))[-1]


def _edits(plan) -> list[tuple[str, dict[str, Any]]]:
    return [(a.act, dict(a.args)) for a in plan.acts]


# ----------------------------------------------------------------------------- "$" on a claim kept in dollars


@pytest.mark.parametrize("text", ["lunch wed $18.60", "TIM HORTONS TUES MORNING $11.25", "hotel in Boston $189 on tuesday",
                                  "dinner $80 yesterday in Ottawa"])
def test_a_dollar_sign_on_a_claim_kept_in_canadian_dollars_is_never_assumed_its_dollars(text):
    # (the round tried "$" as the claim's dollars where every place named was Canadian; two reviews found foreign
    # places the words do not show as such — towns, airports, landmarks, earlier messages — so it was taken out:
    # which dollars is converted or asked, never assumed)
    assert isinstance(answer(text, **on_claim("CAD")), ReadBatch)


# ----------------------------------------------------------------------------- words beside a submission


@pytest.mark.parametrize("text", ["submit pls im going to bed", "submit it, long day lol",
                                  "ok send it in, finally done with this mess"])
def test_everyday_words_beside_a_submission_ask_nothing_of_it(text):
    [plan] = conversation([text], **on_claim("EUR", [("2026-12-01", "", "taxi", "20.00")]))
    assert [a.act for a in plan.acts] == ["submit_claim"]


@pytest.mark.parametrize("text", ["submit it, except the taxi", "send it once im back", "submit it for Paris",
                                  "submit it i think", "submit it but keep the hotel", "submit it later tonight",
                                  "submit it soon", "submit it eventually", "submit it i suppose",
                                  "submit the complete ones", "submit the old one"])
def test_words_beside_a_submission_that_may_change_it_keep_it_asked(text):
    [plan] = conversation([text], **on_claim("EUR", [("2026-12-01", "", "taxi", "20.00")]))
    assert "submit_claim" not in [a.act for a in plan.acts]


# ----------------------------------------------------------------------------- which line


@pytest.mark.parametrize("text", ["kindly update the lunch amount to 15.60", "remove the lunch"])
def test_a_kind_one_line_was_told_as_names_none_of_several_told_as_nothing(text):
    # four meals, one told as "lunch": the others may be lunches too (d36-07 changed the one told so)
    plan = _one([text], BERLIN)
    assert not [a for a in plan.acts if a.act in ("update_line", "remove_line")]


def test_a_line_named_by_its_amount_alone_is_corrected():
    assert _edits(_one(["the 31.50 one is 35, typo"], LYON)) == [("update_line", {"line": 4, "amount": "35.00"})]


def test_a_line_named_by_its_amount_moves_to_the_day_said():
    assert _edits(_one(["the lunch of 15.80 was on 22.11"], LYON)) == [
        ("update_line", {"line": 7, "date": "2026-11-22"})]


def test_a_day_and_a_figure_that_each_name_another_line_are_asked():
    # 24.11 has the other lunch: the lunch of that day made 15.80, or the lunch of 15.80 moved there?
    assert not _one(["the lunch of 15.80 was on 24.11"], LYON).acts


def test_a_line_named_as_one_known_then_told_again_is_never_added_twice():
    plan = _one(["the dinner of 31.50 euro, put it on 24/11 please"], LYON)
    assert not [a for a in plan.acts if a.act == "add_line"]


@pytest.mark.parametrize(("text", "line", "amount"), [
    ("the second hotel night was 112 actually, they added the city tax at checkout", 3, "112.00"),
    ("the first hotel night was 105", 2, "105.00"),
    ("the second taxi was 28", 8, "28.00"),
    ("the second Ibis night should be 125", 3, "125.00"),
])
def test_a_line_named_by_its_place_among_its_kind(text, line, amount):
    assert _edits(_one([text], LYON)) == [("update_line", {"line": line, "amount": amount})]


def test_a_place_among_a_kind_the_claim_has_once_is_asked():
    # one dinner on the claim: "the second dinner" counts another one
    assert not _one(["the second dinner was 40"], LYON).acts


@pytest.mark.parametrize(("reply", "line"), [("the wednesday one", 7), ("the tuesday one", 5), ("wed", 7)])
def test_which_lunch_answered_by_its_weekday_in_the_trips_week(reply, line):
    plan = _one(["and the lunch should be 18.70", reply], LYON)
    assert _edits(plan) == [("update_line", {"line": line, "amount": "18.70"})]


def test_which_lunch_answered_by_its_weekday_then_submit():
    plan = _one(["and the lunch should be 18.70", "tue one. then submit"], LYON)
    assert _edits(plan) == [("update_line", {"line": 5, "amount": "18.70"}), ("submit_claim", {})]


def test_a_weekday_no_lunch_was_on_answers_nothing():
    assert not _one(["and the lunch should be 18.70", "the friday one"], LYON).acts


# ----------------------------------------------------------------------------- a stay's house, a stay's moment


def test_a_stays_house_in_lower_case_before_inn_is_who_was_paid():
    [plan] = conversation(["uber ord to hotel wed 46.75, hotel 2 nts hampton inn 389.20 checkin wed"],
                          **on_claim("USD"))
    assert fields(plan, "category", "merchant") == [("taxi", "Uber"), ("hotel", "Hampton Inn")]


@pytest.mark.parametrize("text", ["hotel 2 nights 240 checkin monday", "hotel 2 nights 240, paid at checkout"])
def test_a_stays_moment_is_never_who_was_paid(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert [m for (m,) in fields(plan, "merchant") if m] == []


# ----------------------------------------------------------------------------- a line moved to another weekday


@pytest.mark.parametrize(("text", "line", "day"), [
    ("the tuesday lunch was actually on monday", 5, "2026-11-23"),
    ("And the Tuesday lunch should be on the Wednesday actually, the flight was delayed", 5, "2026-11-25"),
    ("Also the Wednesday lunch was in fact on Tuesday, I mixed up the receipts. Can you move it?", 7, "2026-11-24"),
])
def test_a_line_named_by_its_weekday_moves_to_a_weekday_of_its_own_week(text, line, day):
    assert _edits(_one([text], LYON)) == [("update_line", {"line": line, "date": day})]


def test_of_identical_nights_the_one_of_the_day_of_the_month_said():
    nights = [_line(f"ln_ibis000{n}", f"2026-11-{16 + n}", "hotel", "79.00", "Ibis Strasbourg Centre") for n in (1, 2, 3)]
    assert _edits(_one(["the ibis of 18 is 89 not 79"], nights)) == [("update_line", {"line": 2, "amount": "89.00"})]


# ----------------------------------------------------------------------------- days heading expenses, openings


def test_each_expense_headed_by_its_own_weekday_in_one_run():
    [plan] = conversation(["tuesday lunch 11,90 wednesday lunch 12,40 and toll 9,50 on monday"], **on_claim("EUR"))
    assert fields(plan, "amount", "date") == [("11.90", "2026-12-01"), ("12.40", "2026-12-02"), ("9.50", "2026-11-30")]


def test_wed_heading_an_expense_after_a_colon_is_its_day():
    [plan] = conversation(["adding the rest of the trip: wed lunch 10.50, tue lunch 12"], **on_claim("EUR"))
    assert fields(plan, "amount", "date") == [("10.50", "2026-12-02"), ("12.00", "2026-12-01")]


@pytest.mark.parametrize(("text", "title", "currency"), [
    ('New claim, SEK, "Stockholm partner summit"', "Stockholm partner summit", "SEK"),
    ('New claim please:\n- title: "Lyon supplier audit"\n- currency: EUR', "Lyon supplier audit", "EUR"),
    ("new claim:\ntitle: Oslo grid forum\ncurrency: NOK", "Oslo grid forum", "NOK"),
])
def test_a_claim_opened_with_its_currency_set_apart_or_as_a_form(text, title, currency):
    from tests.test_families_17 import NONE

    [plan] = conversation([text], **NONE)
    assert acts(plan) == [("open_claim", {"title": title, "currency": currency})]


# ----------------------------------------------------------------------------- "send", thanks after a yes


@pytest.mark.parametrize("text", ["Ok, then I send now.", "send my claim for approve please",
                                  "Okay, now send to approval please.", "k submit", "yep submit it"])
def test_a_submission_in_everyday_words(text):
    [plan] = conversation([text], **on_claim("EUR", [("2026-12-01", "", "taxi", "20.00")]))
    assert [a.act for a in plan.acts] == ["submit_claim"]


@pytest.mark.parametrize("text", ["I'll send the receipts tomorrow", "send the receipts to finance later"])
def test_send_of_something_else_is_no_submission(text):
    [plan] = _talk_kept([text], **on_claim("EUR", [("2026-12-01", "", "taxi", "20.00")]))
    assert "submit_claim" not in [a.act for a in plan.acts]


@pytest.mark.parametrize("reply", ["yep convert it, no worries", "convert it. Thank you kindly for your help"])
def test_a_yes_to_a_conversion_then_thanks_adds_it_converted(reply):
    plans = _talk_kept(["lunch on monday 25 USD", reply], **on_claim("EUR"))
    assert [(a.act, a.args.get("currency")) for a in plans[-1].acts] == [("add_line", "USD")]


# ----------------------------------------------------------------------------- what the review found (round 26)


@pytest.mark.parametrize("text", [
    "the last taxi was 28",  # the last told, or the last by its day? asked
    "the second hotel was 135",  # the second stay, or its second night? asked
    "the 31.50 one is short by 5", "the 31.50 one is 24 I think", "the 31.50 one is 34 plus tip",
])
def test_a_line_named_loosely_or_a_figure_that_is_no_new_amount_is_asked(text):
    assert not [a for a in _one([text], LYON).acts if a.act == "update_line"]


def test_a_figure_and_also_a_day_is_a_second_one_never_that_one_moved():
    taxis = [_line("ln_taxi0001", "2026-12-01", "taxi", "48.80"), _line("ln_taxi0002", "2026-12-02", "taxi", "30.00")]
    assert not [a for a in _one(["the taxi of 48,80 was also on monday"], taxis).acts if a.act == "update_line"]


@pytest.mark.parametrize("text", ["hotel 120 monday, lovely little inn", "hotel 120 monday, family suites",
                                  "hotel 450 monday incl dinner at the ski lodge"])
def test_everyday_words_before_inn_or_suites_name_no_house(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert [m for (m,) in fields(plan, "merchant") if m] == []


def test_a_pension_of_ones_own_is_no_hotel():
    [plan] = conversation(["pension contribution 200 monday"], **on_claim("EUR"))
    assert not [a for a in plan.acts if a.act == "add_line" and a.args.get("category") == "hotel"]


def test_a_form_whose_name_is_a_persons_opens_nothing_under_it():
    from tests.test_families_17 import NONE

    [plan] = conversation(["New claim please:\n- name: Anna Berg\n- trip: Lyon audit\n- currency: EUR"], **NONE)
    assert not [a for a in plan.acts if a.act == "open_claim" and a.args.get("title") == "Anna Berg"]


# ----------------------------------------------------------------------------- what walk Z12 found (round 26)

ROTTERDAM = [
    _line("ln_htl00001", "2026-11-23", "hotel", "278.00", "Hotel New York Rotterdam"),
    _line("ln_dinr0001", "2026-11-23", "meals", "34.50", description="dinner"),
    _line("ln_lnch0001", "2026-11-24", "meals", "41.80", description="lunch"),
    _line("ln_dinr0002", "2026-11-24", "meals", "29.90", description="dinner"),
]


def test_a_figure_weighed_against_the_limit_is_no_expense():
    # walk Z12: "Ok, so 139 per night is fine then" added a hotel line of 139 beside the day's expenses
    plan = _one(["Ok, so 139 per night is fine then. Now Tuesday 24 Nov: lunch with the supplier 41.80 (I paid), "
                 "taxi to the factory 27.30, dinner 29.90."], ROTTERDAM[:1])
    assert sorted(a.args.get("amount") for a in plan.acts if a.act == "add_line") == ["27.30", "29.90", "41.80"]


@pytest.mark.parametrize("text", ["Change the Tuesday dinner to 32.90.",
                                  "Desculpe, the Tuesday dinner was 32.90, not 29.90. Can you fix it?"])
def test_the_weekdays_meal_of_a_kind_among_that_days_meals(text):
    assert _edits(_one([text], ROTTERDAM)) == [("update_line", {"line": 4, "amount": "32.90"})]


# ----------------------------------------------------------------------------- unsafe items of the blind sets, measured


@pytest.mark.parametrize(("text", "day"), [("put it on November thirtieth", "2026-11-30"),
                                           ("on the twenty-first of November", "2026-11-21"),
                                           ("December first", "2026-12-01")])
def test_a_day_written_as_an_ordinal_word_beside_its_month(text, day):
    from expenses.interpreter.values import find_dates

    assert [d.value for d in find_dates(text, date(2026, 12, 3))] == [day]


def test_a_merchant_the_claim_has_named_small_by_its_first_word():
    wizz = [_line("ln_wizz0001", "2026-11-17", "travel", "89.90", "Wizz Air")]
    plan = _one(["flight back tue 94,50 wizz again"], wizz)
    assert [(a.args.get("merchant"), a.args.get("amount")) for a in plan.acts] == [("Wizz Air", "94.50")]


# ----------------------------------------------------------------------------- the trip's days by their place


def test_the_trips_days_told_by_their_place_after_the_trip_was_told():
    from tests.test_families_29 import _talk

    plans = _talk(["the trip was Mon 16th to Wed 18th Nov",
                   "Day 1: LNER from King's Cross £64.50, taxi to the site £14.20",
                   "Day 2 was all on site. Team dinner at Bundobust £27.40. Last day taxi back to the station £13.80"],
                  **on_claim("GBP"))
    assert [(a.args["amount"], a.args["date"]) for a in plans[1].acts] == [("64.50", "2026-11-16"), ("14.20", "2026-11-16")]
    assert [(a.args["amount"], a.args["date"]) for a in plans[2].acts] == [("27.40", "2026-11-17"), ("13.80", "2026-11-18")]


def test_a_trips_day_by_its_place_with_no_trip_told_is_asked():
    from tests.test_families_29 import _talk

    [plan] = _talk(["Day 2: team dinner £27.40"], **on_claim("GBP"))
    assert not plan.acts


# ----------------------------------------------------------------------------- what the second review found


def test_a_place_among_nights_never_counts_a_line_of_two_nights_as_one():
    stays = [_line("ln_htl00001", "2026-11-23", "hotel", "196.00", "Ibis", "2 nights"),
             _line("ln_htl00002", "2026-11-25", "hotel", "98.00", "Ibis")]
    for text in ("the second hotel night was 112", "the first hotel night was 105"):
        assert not _one([text], stays).acts


@pytest.mark.parametrize("text", ["the dinner of 2 pax was 86", "the dinner of 2 guests was 86", "the dinner of 2 of us was 86"])
def test_a_party_size_is_no_day_of_the_month(text):
    dinners = [_line(f"ln_dinr000{n}", f"2026-12-0{n}", "meals", "40.00", description="dinner") for n in (1, 2, 3)]
    assert not _one([text], dinners).acts


@pytest.mark.parametrize("text", ["the monday dinner was actually on sunday", "the tuesday lunch was on monday too",
                                  "the tuesday lunch was monday i think", "the second taxi was 28 i think"])
def test_a_line_named_loosely_moved_out_of_the_trip_or_in_doubt_is_asked(text):
    assert not [a for a in _one([text], LYON).acts if a.act == "update_line"]


@pytest.mark.parametrize("text", ["the 26 one was 1.12", "the 24 one is 25.11"])
def test_a_day_and_month_said_for_a_line_named_by_its_amount_is_never_its_amount(text):
    assert not [a for a in _one([text], LYON).acts if a.args.get("amount") in ("1.12", "25.11")]


def test_may_the_verb_is_no_month():
    from expenses.interpreter.values import find_dates

    assert not find_dates("taxi 30 - I may first need to find the receipt", date(2026, 12, 3))


@pytest.mark.parametrize("text", ["taxi 22 yesterday to bouchon", "dinner 40 yesterday at a bouchon",
                                  "dinner 40 yesterday, another bouchon"])
def test_a_word_of_a_merchant_the_claim_has_is_it_only_for_a_line_of_its_kind_said_as_it(text):
    plan = _one([text], LYON)
    assert not [a for a in plan.acts if a.args.get("merchant") == "Bouchon Daniel"]


def test_the_last_day_by_its_place_ends_the_day_said_before():
    # blind item h37-02 #4: "Last day the Arlanda Express …" was dated the second day, the heading before it
    from tests.test_families_29 import _talk

    plans = _talk(["the fair was from wednesday 18 to friday 20 november",
                   "Second day lunch at the fair 16,80 € and dinner 38 €. Last day the Arlanda Express to the airport "
                   "33,50 €."], **on_claim("EUR"))
    assert [(a.args["amount"], a.args["date"]) for a in plans[1].acts] == [
        ("16.80", "2026-11-19"), ("38.00", "2026-11-19"), ("33.50", "2026-11-20")]
