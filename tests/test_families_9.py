"""Families of the ninth round (issue 19), with sentences of our own: an expense named in a question whether it may be
claimed, added by a later "ok, add it"; a price said in words ("twelve fifty"); a stay told as nights times a price
with the total said too; a day pass and an S-Bahn. Each must act once, or ask: never guess.
"""

from __future__ import annotations

from typing import Any

import pytest

from expenses.interpreter import _expense_asked_about
from registries.numbers import evidence_numbers, money_phrases
from tests.test_interpreter import claim, plan_of
from tests.test_walkthrough_families import added, conversation

TODAY = "2026-11-20"  # a Friday
MUNICH = claim("clm_MUNI0001", "Munich fair", [("2026-11-16", "Lufthansa", "travel", "189.00")])
ON_MUNICH = {"cases": (MUNICH,), "active": "clm_MUNI0001", "today": TODAY, "mode": "deterministic"}


# ----------------------------------------------------------------- 1. "can I claim X?" … "ok, add it"


@pytest.mark.parametrize(("question", "answer", "line"), [
    ("can I claim a laundry bill of 35 from wednesday?", "ok please add it then",
     {"amount": "35.00", "category": "other", "date": "2026-11-18"}),
    ("is a taxi of 62 from the airport on monday allowed?", "great, then yes please add it",
     {"amount": "62.00", "category": "taxi", "date": "2026-11-16"}),
    ("Could we expense the team dinner, 58.40 on tuesday?", "ok, put it in",
     {"amount": "58.40", "category": "meals", "date": "2026-11-17"}),
])
def test_an_expense_asked_about_waits_and_the_yes_adds_it(question: str, answer: str, line: dict[str, Any]) -> None:
    first, second = conversation([question, answer], **ON_MUNICH)
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["allowed"]
    assert "did not add" in first.answers[-1].text
    assert len(added(second)) == 1 and {k: added(second)[0].get(k) for k in line} == line
    assert second.acts[0].evidence == answer


@pytest.mark.parametrize("answer", ["no, leave it", "ok thanks", "what about the hotel?", "add 40 instead"])
def test_anything_but_a_plain_yes_to_add_adds_nothing(answer: str) -> None:
    _first, second = conversation(["can I claim a laundry bill of 35 from wednesday?", answer], **ON_MUNICH)
    assert not any(a.act == "add_line" and a.args.get("amount") == "35.00" for a in second.acts)


@pytest.mark.parametrize(("message", "words"), [
    ("can I claim a laundry bill of 35 from wednesday?", "a laundry bill of 35 from wednesday"),
    ("is a taxi of 62 from the airport on monday allowed?", "a taxi of 62 from the airport on monday"),
    ("is the hotel limit 180?", None),  # no expense of the user's: "the hotel limit" asks about the policy
    ("can I claim laundry?", None),  # no amount: nothing to hold
    ("can I claim the taxi? and the 12 for coffee?", None),  # two questions
])
def test_the_expense_a_question_names(message: str, words: str | None) -> None:
    found = _expense_asked_about(message)
    assert found == words or (words is None and found is not None and not plan_of(message, **ON_MUNICH).pending)


def test_a_question_about_the_policy_with_a_figure_holds_nothing_it_cannot_read_whole() -> None:
    plan = plan_of("is the hotel limit 180?", **ON_MUNICH)
    assert plan.acts == [] and plan.pending is None


# ----------------------------------------------------------------- 2. a price said in words


@pytest.mark.parametrize(("words", "value"), [
    ("twelve fifty", "12.50"), ("eleven sixty", "11.60"), ("four twenty-five", "4.25"), ("thirty two fifty", "32.50"),
])
def test_a_price_said_in_words_is_units_then_cents(words: str, value: str) -> None:
    from decimal import Decimal

    assert [f.value for f in money_phrases(f"lunch {words} monday") if not f.hundreds] == [Decimal(value)]
    assert Decimal(value) in evidence_numbers(f"lunch {words} monday")


@pytest.mark.parametrize("words", ["twenty twenty-six", "one hundred twenty five", "a thousand twenty",
                                   "two hundred sixty eight"])
def test_a_year_or_a_longer_number_is_no_spoken_price(words: str) -> None:
    assert money_phrases(words) == []


@pytest.mark.parametrize(("message", "line"), [
    ("lunch monday at the central station twelve fifty", {"amount": "12.50", "category": "meals",
                                                          "date": "2026-11-16"}),
    ("s-bahn from the airport into town eleven sixty monday", {"amount": "11.60", "category": "travel",
                                                               "date": "2026-11-16"}),
])
def test_an_expense_with_a_spoken_price_is_added(message: str, line: dict[str, Any]) -> None:
    lines = added(plan_of(message, **ON_MUNICH))
    assert len(lines) == 1 and {k: lines[0].get(k) for k in line} == line
    assert "fifty" not in str(lines[0].get("description")) and "sixty" not in str(lines[0].get("description"))


# ----------------------------------------------------------------- 3. nights times a price, and the total


def test_a_stay_told_with_its_total_too_is_one_line_of_the_total() -> None:
    lines = added(plan_of("the hotel was 2 nights at 109 each, so 218 total, checked in monday", **ON_MUNICH))
    assert [(x["amount"], x["category"], x.get("date")) for x in lines] == [("218.00", "hotel", "2026-11-16")]


def test_a_total_that_is_not_the_product_is_asked_about() -> None:
    plan = plan_of("hotel 2 nights 150 each, 310 total", **ON_MUNICH)
    assert plan.acts == [] and "more than one amount" in plan.answers[-1].text


# ----------------------------------------------------------------- 4. passes and S-Bahn are travel


@pytest.mark.parametrize(("message", "line"), [
    ("Metro from the airport 1.85 on the 11th and a 24h pass on the 12th for 6.80",
     [("1.85", "travel", "2026-11-11"), ("6.80", "travel", "2026-11-12")]),
    ("s bahn from the airport into town 11.60 monday", [("11.60", "travel", "2026-11-16")]),
])
def test_passes_and_the_s_bahn_are_travel(message: str, line: list[tuple[str, str, str]]) -> None:
    assert [(x["amount"], x["category"], x.get("date")) for x in added(plan_of(message, **ON_MUNICH))] == line


# ----------------------------------------------------------------- 5. notes on a line (a walk-through: a duplicate taxi)

LISBON = claim("clm_LISB0009", "Lisbon client workshop", [
    ("2026-11-23", "TAP", "travel", "189.40"), ("2026-11-23", "", "taxi", "18.50"),
    ("2026-11-25", "Hotel Lisboa Plaza", "hotel", "310.00"), ("2026-11-25", "", "taxi", "54.00")])
ON_LISBON = {"cases": (LISBON,), "active": "clm_LISB0009", "today": "2026-12-04", "mode": "deterministic"}


@pytest.mark.parametrize(("message", "line", "text"), [
    ("note for the 54 EUR taxi: hotel to airport in rush hour with the workshop materials", 4,
     "hotel to airport in rush hour with the workshop materials"),
    ("add a note to line 2: airport to hotel", 2, "airport to hotel"),
    ("change the description of line 4 to: hotel to airport, carrying workshop materials", 4,
     "hotel to airport, carrying workshop materials"),
    ("line 4 description should be: carrying heavy equipment", 4, "carrying heavy equipment"),
    ("ok so for line 4 the reason is: no metro with the boxes", 4, "no metro with the boxes"),
    ("the reason for the taxi on line 4 is that there was no train early enough", 4,
     "there was no train early enough"),
])
def test_a_note_on_a_line_describes_that_line_and_adds_nothing(message: str, line: int, text: str) -> None:
    plan = plan_of(message, **ON_LISBON)
    assert [(a.act, dict(a.args)) for a in plan.acts] == [("update_line", {"line": line, "description": text})]


@pytest.mark.parametrize("message", ["note for the taxi: late night", "note for the 99 taxi: late night"])
def test_a_note_for_no_one_line_is_asked_about_and_adds_nothing(message: str) -> None:
    plan = plan_of(message, **ON_LISBON)
    assert plan.acts == [] and "Which line" in plan.answers[-1].text


def test_a_merchant_named_with_a_capital_a_keeps_it() -> None:
    plan = plan_of("change the merchant of line 3 to A Cevicheria", **ON_LISBON)
    assert [dict(a.args) for a in plan.acts] == [{"line": 3, "merchant": "A Cevicheria"}]


# ----------------------------------------------------------------- 6. who was paid, and of what kind

STOCKHOLM = claim("clm_STOC0001", "Stockholm vendor visit", [("2026-11-09", "", "travel", "320.00"),
                                                           ("2026-11-10", "Scandic", "hotel", "945.00")])
ON_STOCKHOLM = {"cases": (STOCKHOLM,), "active": "clm_STOC0001", "today": "2026-11-11", "mode": "deterministic"}


@pytest.mark.parametrize(("message", "merchant"), [
    ("Thon hotel, 2 nights from Monday, 348 total", "Thon"),
    ("dinner monday dishoom 41.20", "Dishoom"),
])
def test_a_name_beside_the_kind_is_who_was_paid(message: str, merchant: str) -> None:
    lines = added(plan_of(message, **ON_STOCKHOLM))
    assert len(lines) == 1 and lines[0].get("merchant") == merchant


@pytest.mark.parametrize("message", ["dinner yestrday 30", "lunch monday 12"])
def test_a_slip_of_a_day_is_no_merchant(message: str) -> None:
    assert all(not line.get("merchant") for line in added(plan_of(message, **ON_STOCKHOLM)))


def test_the_way_back_with_another_merchant_is_not_the_kind_of_the_ride_before() -> None:
    plan = plan_of("Wednesday: taxi to the airport 47.90 and SAS back 231.40", **ON_STOCKHOLM)
    assert not any(a.args.get("category") == "taxi" and a.args.get("amount") == "231.40" for a in plan.acts)


def test_todays_weekday_on_a_claim_of_this_week_is_asked_not_dated_a_week_back() -> None:
    plan = plan_of("Wed: 24h metro ticket 175 and airport train 320", **ON_STOCKHOLM)
    assert not any(a.args.get("date") == "2026-11-04" for a in plan.acts)


# ----------------------------------------------------------------- 7. what "it" and "then" point at

BARCELONA = claim("clm_BARC0001", "Barcelona roadshow", [("2026-11-02", "Catalonia", "hotel", "276.00"),
                                                       ("2026-11-04", "", "taxi", "32.00"),
                                                       ("2026-11-04", "Vueling", "travel", "104.30")])
LAST_ADDED = [{"event": "line_added", "case": "clm_BARC0001",
               "data": {"line_id": "ln_000102", "date": "2026-11-04", "category": "travel", "amount": "104.30"}}]


def _with_recent(message: str, recent: list[dict[str, Any]], **kwargs: Any) -> Any:
    from dataclasses import replace

    from conversations.core.plan import UserTurnPlan, parse_model_answer
    from expenses.interpreter import interpret
    from tests.test_interpreter import request

    parsed = parse_model_answer(interpret(replace(request(message, **kwargs), recent=recent)))
    assert isinstance(parsed, UserTurnPlan)
    return parsed


def test_it_is_never_a_line_of_another_kind_and_day_than_the_words_say() -> None:
    plan = _with_recent("wait, the Monday dinner was the welcome dinner and the company is paying it directly, pls "
                        "remove it", LAST_ADDED, cases=(BARCELONA,), active="clm_BARC0001", today="2026-11-04",
                        mode="deterministic")
    assert plan.acts == []


def test_it_is_the_line_just_added_when_the_words_fit_it() -> None:
    plan = _with_recent("that flight was paid by the company, pls remove it", LAST_ADDED, cases=(BARCELONA,),
                        active="clm_BARC0001", today="2026-11-04", mode="deterministic")
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 3)]


def test_then_goes_on_from_the_day_of_the_expense_told_before() -> None:
    plan = _with_recent("then a taxi from gare du nord to the hotel 24", LAST_ADDED, cases=(BARCELONA,),
                        active="clm_BARC0001", today="2026-11-06", mode="deterministic")
    assert [(a.args["amount"], a.args.get("date"), a.args.get("merchant")) for a in plan.acts] == [
        ("24.00", "2026-11-04", None)]


def test_an_ordinal_told_with_a_new_expense_is_a_day_it_must_use() -> None:
    plan = plan_of("The 5th taxi to airport 42 euro", cases=(BARCELONA,), active="clm_BARC0001", today="2026-11-06",
                   mode="deterministic")
    assert not any(a.args.get("date") not in (None, "2026-11-05") for a in plan.acts)
    assert all(a.args.get("date") == "2026-11-05" for a in plan.acts)


@pytest.mark.parametrize("weekday", ["wednesday", "Wed", "on wednesday"])
def test_a_full_weekday_is_read_against_the_trip_as_its_short_form_is(weekday: str) -> None:
    plan = plan_of(f"{weekday} lunch 12.40", cases=(STOCKHOLM,), active="clm_STOC0001", today="2026-11-11",
                   mode="deterministic")
    assert not any(a.args.get("date") == "2026-11-04" for a in plan.acts)


def test_then_with_no_day_known_before_is_asked_not_dated_today() -> None:
    plan = _with_recent("then a taxi from gare du nord to the hotel 24", [], cases=(BARCELONA,),
                        active="clm_BARC0001", today="2026-11-06", mode="deterministic")
    assert plan.acts == []


# ----------------------------------------------------------------- 8. a fourth walk-through (Lisbon, 24 rephrasings)

LISBON_WALK = claim("clm_LISB0010", "Lisbon client workshop", [
    ("2026-11-23", "TAP", "travel", "189.40"), ("2026-11-23", "", "taxi", "18.50"),
    ("2026-11-24", "Taberna da Rua das Flores", "meals", "38.50")])
ON_WALK = {"cases": (LISBON_WALK,), "active": "clm_LISB0010", "today": "2026-12-04", "mode": "deterministic"}


def test_a_title_asked_for_is_taken_from_the_answer_with_its_currency() -> None:
    first, second = conversation([
        "Hi, I just got back from Lisbon - client workshop Mon 23 to Wed 25 Nov. I need to make a new expense claim "
        "for it, in EUR please.", "ok call it Lisbon client workshop, in EUR"], cases=(), active=None,
        today="2026-12-04", mode="deterministic")
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["title"]
    assert [(a.act, dict(a.args)) for a in second.acts] == [
        ("open_claim", {"title": "Lisbon client workshop", "currency": "EUR"})]


def test_that_morning_is_the_day_just_told() -> None:
    lines = added(plan_of("taxi 20 on the 24th and a coffee that afternoon 3", **ON_WALK))
    assert [(x["amount"], x.get("date"), x.get("merchant")) for x in lines] == [
        ("20.00", "2026-11-24", None), ("3.00", "2026-11-24", None)]


def test_never_mind_that_before_new_requests_leaves_the_topic_and_reads_them() -> None:
    plan = plan_of("never mind that. On the 25th: taxi to the airport 54 EUR, and the flight home with TAP 212.60",
                   **ON_WALK)
    assert [(x["amount"], x.get("date")) for x in added(plan)] == [("54.00", "2026-11-25"), ("212.60", "2026-11-25")]
    assert not plan.answers  # no "I left everything as it is" beside what is done


def test_a_merchant_said_as_what_it_was_not_then_what_it_was() -> None:
    plan = plan_of("and the dinner on the 24th wasn't at Taberna da Rua das Flores, it was at A Cevicheria", **ON_WALK)
    assert [(a.act, dict(a.args)) for a in plan.acts] == [("update_line", {"line": 3, "merchant": "A Cevicheria"})]


@pytest.mark.parametrize("count", ["4 of us", "3 ppl", "5 colleagues"])
def test_a_head_count_is_never_the_amount(count: str) -> None:
    plan = plan_of(f"lunch with the client on the 24th, {count}, 136 at Time Out Market", **ON_WALK)
    assert [x["amount"] for x in added(plan)] in (["136.00"], [])


def test_a_weekday_of_the_trip_a_week_back_is_asked_with_both_days_and_the_answer_dates_it() -> None:
    first, second = conversation(["lunch with the client tuesday 136 at Time Out Market", "the 24th"], **ON_WALK)
    assert first.acts == [] and "24 Nov" in first.answers[-1].text and "1 Dec" in first.answers[-1].text
    assert [(x["amount"], x.get("date")) for x in added(second)] == [("136.00", "2026-11-24")]


# ----------------------------------------------------------------- 9. holdout-8's unsafe items, in our own words

BRUGES = claim("clm_BRUG0001", "Bruges supplier visit", [("2026-11-09", "", "travel", "48.00"),
                                                        ("2026-11-11", "SNCB", "travel", "52.30")])
LAST_TRAIN = [{"event": "line_added", "case": "clm_BRUG0001",
               "data": {"line_id": "ln_000101", "date": "2026-11-11", "category": "travel", "amount": "52.30"}}]


def test_it_is_not_the_train_told_last_when_the_words_name_the_laundry() -> None:
    plan = _with_recent("The laundry is actually a private thing, I should not claim it. Please remove it.",
                        LAST_TRAIN, cases=(BRUGES,), active="clm_BRUG0001", today="2026-11-12", mode="deterministic")
    assert plan.acts == []


def test_a_justification_recorded_on_a_line_by_its_amount_is_a_note() -> None:
    taxi = claim("clm_LUXE0001", "Luxembourg audit", [("2026-11-04", "", "taxi", "54.00")])
    plan = plan_of("Please record the following justification on the EUR 54.00 taxi: the meeting overran and the "
                   "last bus had left.", cases=(taxi,), active="clm_LUXE0001", today="2026-11-06", mode="deterministic")
    assert [(a.act, dict(a.args)) for a in plan.acts] == [
        ("update_line", {"line": 1, "description": "the meeting overran and the last bus had left"})]


@pytest.mark.parametrize(("message", "merchant", "category"), [
    ("02/11 NH Eurobuilding hotel 2 nights 286.00", "NH Eurobuilding", "hotel"),
    ("hotl Berna 2 nts from mon 352", "Hotel Berna", "hotel"),
    ("The meeting room at Dogpatch Labs for Thursday was 240.", "Dogpatch Labs", "other"),
])
def test_who_was_paid_and_what_it_was(message: str, merchant: str, category: str) -> None:
    lines = added(plan_of(message, cases=(BRUGES,), active="clm_BRUG0001", today="2026-11-13", mode="deterministic"))
    assert [(x.get("merchant"), x["category"]) for x in lines] == [(merchant, category)]


def test_a_narrative_with_an_infinitive_is_no_place_and_which_came_to_is_its_amount() -> None:
    lines = added(plan_of("I should like to record the train fare from York to Edinburgh on Monday the 9th of November, "
                          "which came to 58.40.", cases=(BRUGES,), active="clm_BRUG0001", today="2026-11-13",
                          mode="deterministic"))
    assert [(x["amount"], x["category"], x.get("date")) for x in lines] == [("58.40", "travel", "2026-11-09")]


def test_expenses_split_by_a_slash_and_a_count_of_guests_with_an_adjective() -> None:
    lines = added(plan_of("12/11 lunch 14.50€ / dinner 22€", cases=(BRUGES,), active="clm_BRUG0001",
                          today="2026-11-13", mode="deterministic"))
    assert [(x["amount"], x.get("date")) for x in lines] == [("14.50", "2026-11-12"), ("22.00", "2026-11-12")]
    lines = added(plan_of("Dinner with two board members on the 11th at Le Grand Véfour, 186", cases=(BRUGES,),
                          active="clm_BRUG0001", today="2026-11-13", mode="deterministic"))
    assert [(x["amount"], x.get("merchant")) for x in lines] == [("186.00", "Le Grand Véfour")]


# ----------------------------------------------------------------- 10. a fifth walk-through (Hamburg, 22 rephrasings)

HAMBURG = claim("clm_HAMB0001", "Hamburg trade fair", [
    ("2026-11-24", "Deutsche Bahn", "travel", "89.90"), ("2026-11-24", "", "taxi", "18.50"),
    ("2026-11-25", "", "meals", "14.80"), ("2026-11-25", "Balzac Coffee", "meals", "3.90"),
    ("2026-11-25", "Fischereihafen Restaurant", "meals", "186.40")])
ON_HAMBURG = {"cases": (HAMBURG,), "active": "clm_HAMB0001", "today": "2026-12-04", "mode": "deterministic"}


def test_a_weekday_answered_with_the_line_is_read_against_the_trip_never_this_week() -> None:
    _first, second = conversation(["and the coffee was thursday actually, not wed", "balzac"], **ON_HAMBURG)
    assert not any(a.args.get("date") == "2026-12-03" for a in second.acts)


def test_a_merchant_fixed_by_the_first_word_of_its_name_and_written_as_a_name() -> None:
    plan = plan_of("hmm actually the coffee wasnt at balzac, it was at elbgold", **ON_HAMBURG)
    assert [(a.act, dict(a.args)) for a in plan.acts] == [("update_line", {"line": 4, "merchant": "Elbgold"})]


def test_the_dinner_never_names_a_coffee() -> None:
    plan = plan_of("the dinner should be 128.40", **ON_HAMBURG)
    assert "Balzac" not in " ".join(a.text for a in plan.answers)
    assert not any(a.args.get("line") == 4 for a in plan.acts)


def test_a_known_name_inside_the_longer_name_told_is_one_merchant_and_no_junk_description() -> None:
    lines = added(plan_of("hotel was the Motel One Hamburg Altona, 2 nights at 119 each, from the 24th", **ON_HAMBURG))
    assert len(lines) == 1 and lines[0]["amount"] == "238.00" and lines[0].get("merchant", "").startswith("Motel One")
    assert lines[0].get("description") in (None, "")


@pytest.mark.parametrize(("message", "description"), [
    ("a coffee 2.80 on the 24th", "coffee"), ("checked in 24th, 2 nights, 238 total", None)])
def test_what_a_line_was_is_kept_when_it_says_more_than_its_kind(message: str, description: str | None) -> None:
    lines = added(plan_of(message, **ON_HAMBURG))
    assert len(lines) == 1 and lines[0].get("description") == description


# ----------------------------------------------------------------- 11. whole names, routes, and take-backs


@pytest.mark.parametrize(("message", "merchant"), [
    ("hotel Novotel Centrum two nights 214 euros, from the 10th", "Novotel Centrum"),
    ("Hotel Mercure Gare de Lyon, two nights, together 318,00 €, from the 10th", "Hotel Mercure Gare de Lyon"),
    ("Eurostar Brussels-London on the 10th, 178 return", "Eurostar"),
])
def test_a_place_keeps_its_whole_name_and_a_train_its_operator(message: str, merchant: str) -> None:
    lines = added(plan_of(message, cases=(BRUGES,), active="clm_BRUG0001", today="2026-11-13", mode="deterministic"))
    assert [x.get("merchant") for x in lines] == [merchant]


def test_an_expense_told_and_struck_in_one_message_is_taken_back_whatever_the_claim_holds() -> None:
    hotel = claim("clm_LOND0001", "London pitch", [("2026-11-10", "The Connaught", "hotel", "596.40")])
    plan = plan_of("Client dinner on the 11th at Hawksmoor, four of us, I paid 286.50. Breakfast on the 12th at the "
                   "hotel 32 - strike the breakfast, it was in the room rate.", cases=(hotel,), active="clm_LOND0001",
                   today="2026-11-13", mode="deterministic")
    assert not any(a.act == "remove_line" for a in plan.acts)
    kept = {a.id for a in plan.acts} - {r.act for r in plan.retractions}
    assert [a.args["amount"] for a in plan.acts if a.id in kept] == ["286.50"]


def test_the_verb_grab_is_no_ride_app_and_after_lunch_asks_which_day() -> None:
    plan = plan_of("and after lunch I took a taxi back to the hotel to grab my laptop, which was 31", cases=(BRUGES,),
                   active="clm_BRUG0001", today="2026-11-13", mode="deterministic")
    assert not any(a.args.get("merchant") == "Grab" or a.args.get("category") == "meals" for a in plan.acts)
    assert not any(a.args.get("date") == "2026-11-13" for a in plan.acts)


def test_a_weekday_after_the_trips_last_line_but_in_its_week_is_asked_with_both_days() -> None:
    hamburg = claim("clm_HAMB0002", "Hamburg trade fair", [("2026-11-24", "Deutsche Bahn", "travel", "89.90"),
                                                          ("2026-11-25", "", "meals", "14.80")])
    first, second = conversation(["thu taxi 58", "the 26th"], cases=(hamburg,), active="clm_HAMB0002",
                                 today="2026-12-04", mode="deterministic")
    assert first.acts == [] and "26 Nov" in first.answers[-1].text and "3 Dec" in first.answers[-1].text
    assert [(x["amount"], x.get("date"), x.get("description")) for x in added(second)] == [("58.00", "2026-11-26", None)]


def test_a_day_heading_the_message_dates_every_expense_after_its_colon() -> None:
    hamburg = claim("clm_HAMB0002", "Hamburg trade fair", [("2026-11-24", "Deutsche Bahn", "travel", "89.90")])
    lines = added(plan_of("wed 25th: lunch at the fair 14.80, coffee 3.90 at Balzac Coffee, and dinner with a customer "
                          "at Fischereihafen Restaurant 186.40", cases=(hamburg,), active="clm_HAMB0002",
                          today="2026-12-04", mode="deterministic"))
    assert [(x["amount"], x.get("date")) for x in lines] == [
        ("14.80", "2026-11-25"), ("3.90", "2026-11-25"), ("186.40", "2026-11-25")]


@pytest.mark.parametrize(("message", "description"), [
    ("taxi 58 on the 12th because the s-bahn was on strike", "because the s-bahn was on strike"),
    ("taxi 58 on the 12th (s-bahn strike)", "s-bahn strike"),
    ("taxi 58 on the 12th from the messe to the station because the s-bahn was on strike",
     "from the messe to the station because the s-bahn was on strike"),
    ("taxi from the messe to the station 58 on the 12th because of the strike", "from the messe to the station"),
])
def test_a_reason_told_with_an_expense_is_kept_as_what_it_was(message: str, description: str) -> None:
    lines = added(plan_of(message, cases=(BRUGES,), active="clm_BRUG0001", today="2026-11-13", mode="deterministic"))
    assert len(lines) == 1 and lines[0]["amount"] == "58.00" and lines[0].get("description") == description


def test_a_weekday_in_an_edit_is_asked_with_both_days_and_the_answer_changes_the_line() -> None:
    paris = claim("clm_PARI0001", "Paris partner meeting", [("2026-11-23", "ITA Airways", "travel", "189.40"),
                                                          ("2026-11-24", "Café Marly", "meals", "26.50")])
    first, second = conversation(["the lunch at Café Marly was actually on Wednesday.",
                                  "The 25th of November, of course."], cases=(paris,), active="clm_PARI0001",
                                 today="2026-12-04", mode="deterministic")
    assert first.acts == [] and "did not change it yet" in first.answers[-1].text
    assert [(a.act, dict(a.args)) for a in second.acts] == [("update_line", {"line": 2, "date": "2026-11-25"})]
    # (issue 19's twenty-sixth round: the line's own weekday said beside the new one dates the week, "…, not on
    # Tuesday": the Wednesday of that Tuesday's week, no question)
    [moved] = conversation(["the lunch at Café Marly was actually on Wednesday, not on Tuesday."], cases=(paris,),
                           active="clm_PARI0001", today="2026-12-04", mode="deterministic")
    assert [(a.act, dict(a.args)) for a in moved.acts] == [("update_line", {"line": 2, "date": "2026-11-25"})]
