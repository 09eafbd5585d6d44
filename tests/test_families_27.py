"""Families of the twentieth round (issue 19), with sentences of our own. First the two wrong commits walk Z3 left
(a note's words that run on into a request, a yes that became an expense's description), then what the worked set
dev-27 showed: a journey said as when or where something else was bought, a claim opened on its own when what follows
it cannot be read, "the Uber amount is 18.40" on a claim with no Uber, a stay told by its nights beside other days (asked), and smaller words (InterCity trains, "sat lunch", farewells abroad, "share the total", a wanted-by date)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conversations.core.plan import ReadBatch, parse_model_answer
from expenses.interpreter import interpret
from tests.test_families_13 import line, on
from tests.test_families_17 import TRIP
from tests.test_families_21 import _offered, _yes
from tests.test_interpreter import answer, plan_of, request


def _said(plan) -> str:
    return " ".join([plan.say or "", *(a.text for a in plan.answers)])


# ----------------------------------------------------------------- 1. a note's words that run on into a request


@pytest.mark.parametrize("text", [
    "line 1 description: outbound flight Dublin-Gdansk, then submit it please",
    "line 1 description: outbound flight Dublin-Gdansk, please submit it",
    "note for line 1: outbound flight Dublin-Gdansk. Send it please",
])
def test_a_note_then_a_submit_sets_the_note_alone_and_asks_to_submit(text):
    plan = plan_of(text, **on(TRIP))
    assert [(a.act, a.args.get("description")) for a in plan.acts] == [
        ("update_line", "outbound flight Dublin-Gdansk"), ("submit_claim", None)]


@pytest.mark.parametrize("text", [
    "line 1 description: outbound flight, and add the parking 8",
    "note for line 1: airport to hotel, then remove the lunch",
])
def test_a_note_that_runs_on_into_another_request_sets_nothing_and_says_why(text):
    plan = plan_of(text, **on(TRIP))
    assert plan.acts == []
    assert "run on into another request" in _said(plan)


def test_a_note_of_several_words_with_then_in_it_is_set_whole():
    plan = plan_of("line 1 description: team dinner then drinks", **on(TRIP))
    assert [a.args.get("description") for a in plan.acts] == ["team dinner then drinks"]


# ----------------------------------------------------------------- 2. a yes, then an expense, in one message


def test_a_yes_before_an_expense_is_no_words_of_the_expense():
    plan = _yes("dinner on tuesday 120 PLN", "fine, use your rate - airport lunch today 14.55")
    added = [a.args for a in plan.acts if a.act == "add_line"]
    assert [(a["category"], a.get("currency"), a.get("description")) for a in added] == [
        ("meals", "PLN", "dinner"), ("meals", None, "airport lunch")]


def test_one_more_of_the_kind_offered_named_apart_adds_both():
    plan = _yes("taxi on tuesday 80 PLN", "yes that's fine - taxi back today 22")
    added = [a.args for a in plan.acts if a.act == "add_line"]
    assert [(a["amount"], a.get("currency")) for a in added] == [("80.00", "PLN"), ("22.00", None)]


def test_a_yes_then_an_expense_whose_day_is_asked_keeps_the_offer():
    told = "taxi on tuesday 80 PLN"
    first = _offered(told, **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    parsed = parse_model_answer(interpret(replace(request("yes that's fine - taxi back about 22", **on(TRIP)),
                                                  pending=pending)))
    assert not isinstance(parsed, ReadBatch)
    assert parsed.acts == []  # the rest asked (an estimate), the yes kept for when it is answered
    assert parsed.pending is not None and parsed.pending.missing == ["amount"]
    assert "say “yes” again" in _said(parsed)


@pytest.mark.parametrize("said", ["yes that's fine - taxi back 22", "ok. taxi back 22", "sure - the other taxi 22"])
def test_an_amount_answer_led_by_a_yes_is_never_the_offered_ones_amount(said):
    told = "taxi on tuesday 80 PLN"
    first = _offered(told, **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    parsed = parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))
    assert not isinstance(parsed, ReadBatch)
    assert not any(a.args.get("amount") == "22.00" and a.args.get("date") == "2026-12-01" for a in parsed.acts)


# ----------------------------------------------------------------- 3. a journey as when or where something was bought


@pytest.mark.parametrize(("text", "category"), [
    ("almoço at Lisbon airport before the flight 12,80", "meals"),
    ("sandwich before the flight 7", "meals"),
    ("coffee on the train 4.50", "meals"),
    ("Cardiff to Edinburgh on the train, 134.60", "travel"),
    ("the train 89", "travel"),
])
def test_a_journey_said_as_when_something_was_bought_never_files_it_as_travel(text, category):
    plan = plan_of(text, **on([]))
    assert [a.args["category"] for a in plan.acts] == [category]


@pytest.mark.parametrize("text", [
    "feed at the airport before the flight 19.30",
    "Kafi und Gipfeli in the train 8.40",
])
def test_something_unknown_bought_before_or_on_a_journey_is_asked_its_kind(text):
    plan = plan_of(text, **on([]))
    assert plan.acts == []


def test_a_city_before_airport_is_no_merchant():
    plan = plan_of("almoço at Lisbon airport 12,80", **on([]))
    assert [a.args.get("merchant") for a in plan.acts] == [None]


def test_words_mixed_in_from_another_language_name_the_meal_for_the_audit_too():
    plan = plan_of("the jantar with the consortium 45", **on([]))
    assert [a.args["category"] for a in plan.acts] == ["meals"]


# ----------------------------------------------------------------- 4. the claim opened on its own


def test_a_claim_asked_for_is_opened_when_the_expenses_after_it_cannot_be_read():
    text = ("Hola! I want to open a new claim, the name \"Milan supplier visit\", in euros. The Monday 30 I took the "
            "flight with Ryanair, 87,45 with the maleta included, we pay each one separate, mine was 31,50.")
    plan = plan_of(text, cases=(), active=None)
    assert [(a.act, a.args.get("title")) for a in plan.acts] == [("open_claim", "Milan supplier visit")]
    assert "did not add any of the expenses" in _said(plan)


def test_a_claim_asked_for_as_a_question_is_opened():
    text = ("First time using this. I need a new claim in US dollars, can we call it \"Montreal walkthrough\"? "
            "Then the round trip was $512.80 on my Amex, we split some of it, I paid 40 of the 80.")
    plan = plan_of(text, cases=(), active=None)
    assert [a.act for a in plan.acts][:1] == ["open_claim"]


@pytest.mark.parametrize("rest", [
    "Actually don't open it, use the existing one: taxi 20 and we split a dinner 40, mine was 20.",
])
def test_an_opening_the_rest_may_take_back_is_never_opened_on_its_own(rest):
    plan = plan_of(f"Please open a claim \"Lyon fair\". {rest}", cases=(), active=None)
    assert not any(a.act == "open_claim" for a in plan.acts)


# ----------------------------------------------------------------- 5. the amount of a thing already told


@pytest.mark.parametrize("text", ["Sorry one more, the Uber amount is 18.40", "the price of the ferry was 22"])
def test_the_amount_of_a_thing_already_told_is_never_a_new_line(text):
    plan = plan_of(text, **on([]))
    assert not any(a.act == "add_line" for a in plan.acts)


def test_the_word_amount_is_no_description():
    plan = plan_of("add the uber, the amount is 18.40", **on([]))
    assert [a.args.get("description") for a in plan.acts if a.act == "add_line"] == [None]


# ----------------------------------------------------------------- 6. a stay told by its nights beside a trip's days


@pytest.mark.parametrize(("lines", "text"), [
    (TRIP, "premier inn 2 nights at 79. wed greggs 5.35, tea from the chippy 11.90"),
    (TRIP, "Hotel 2 nights 180, dinner wednesday 30"),
    (TRIP, "hotel 3 nights 300. wed dinner 20"),
    ([line("ln_reg00001", "2026-11-29", "other", "150.00"), line("ln_taxi0001", "2026-12-01", "taxi", "32.00")],
     "hotel 2 nights 180. mon dinner 20, tue lunch 12"),
])
def test_a_stay_told_by_its_nights_beside_other_days_is_asked_its_first_night(lines, text):
    # (a round tried dating it by the trip's first journey; two reviews found guesses in it: which night it began is
    # the user's to say)
    plan = plan_of(text, **on(lines))
    assert not any(a.args.get("category") == "hotel" for a in plan.acts)
    assert "Which day was" in _said(plan) or plan.acts == []


def test_the_others_told_beside_a_stay_asked_its_day_are_added():
    plan = plan_of("premier inn 2 nights at 79. wed greggs 5.35, tea from the chippy 11.90", **on(TRIP))
    assert [(a.args["category"], a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("meals", "5.35", "2026-12-02"), ("meals", "11.90", "2026-12-02")]


# ----------------------------------------------------------------- 7. smaller words


def test_an_intercity_train_named_by_its_letters_is_travel_and_its_own_sentence():
    plan = plan_of("fri 27/11 IC utrecht-berlin 79,90", **on([]))
    assert [(a.args["category"], a.args["date"]) for a in plan.acts] == [("travel", "2026-11-27")]


@pytest.mark.parametrize(("text", "day"), [("sat lunch 12,50 dinner 24,90", "2026-11-28"),
                                            ("sun train back 79,90", "2026-11-29")])
def test_sat_and_sun_heading_what_was_bought_are_days(text, day):
    plan = plan_of(text, **on([]))
    assert plan.acts and {a.args["date"] for a in plan.acts} == {day}


def test_sat_as_a_verb_is_no_day():
    plan = plan_of("I sat down for lunch 12", **on([]))
    assert all(a.args.get("date") in (None, "2026-12-03") for a in plan.acts)


@pytest.mark.parametrize("text", ["ok submit. doei", "ok submit. tschüss", "Obrigada! Submit please.",
                                  "Ok, good. Submit please. Dziękuję!"])
def test_a_farewell_or_thanks_abroad_never_stops_a_submit(text):
    plan = plan_of(text, **on(TRIP))
    assert [a.act for a in plan.acts] == ["submit_claim"]


@pytest.mark.parametrize("text", ["Kindly share the total now.", "can you give me the list?",
                                  "What is on the claim now, can you give me the list?"])
def test_asked_for_the_total_or_the_list_looks_the_claim_up(text):
    parsed = answer(text, **on(TRIP))
    assert isinstance(parsed, ReadBatch)
    assert [r.tool for r in parsed.reads] == ["get_case"]


@pytest.mark.parametrize("text", ["Go ahead and submit it, they want it today.", "submit it, my boss needs it by friday",
                                  "submit, deadline is friday", "After you can submit, it's all. Merci !"])
def test_when_a_claim_is_wanted_said_beside_the_submit_is_no_request(text):
    plan = plan_of(text, **on(TRIP))
    assert [a.act for a in plan.acts] == ["submit_claim"]


def test_a_question_label_before_a_priced_question_asks_it_and_adds_nothing_of_it():
    told = ("lunch with the customer, 3 persons, I paid 127,50, and taxi back 36,20. Question : the lunch 127,50 for 3 "
            "persons, it is ok with the limit ?")
    plan = _offered(told, **on(TRIP))  # (after the policy is looked up)
    assert sorted(a.args["amount"] for a in plan.acts) == ["127.50", "36.20"]  # the lunch once, never again
    assert "within the meals limit" in _said(plan)


def test_a_price_of_something_unknown_then_a_priced_meal_are_two_things():
    plan = plan_of("Vignette for Austria (10 days) 12,40. Lunch at the Rasthof Irschenberg 16,90.", **on([]))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts] == [("meals", "16.90")]
    assert "What kind of expense is “Vignette" in _said(plan)


# ----------------------------------------------------------------- 8. what the corpus showed once the claim was opened


def test_a_removal_naming_a_route_never_removes_the_ride_told_with_another():
    lines = [line("ln_lnch0001", "2026-11-25", "meals", "88.50", "lunch with the customer"),
             line("ln_taxi0001", "2026-11-25", "taxi", "26.40", "to the customer office")]
    plan = plan_of("Oh no, I see now that my colleague has paid the taxi to the airport with the company card. "
                   "Please delete it.", **on(lines))
    assert not any(a.act == "remove_line" for a in plan.acts)


def test_a_heading_never_carries_to_a_next_sentence_that_tells_something_more():
    plan = plan_of("Hotels: Hampton Inn 164. Friday I also paid 25 to park the van at the Magic Stick", **on([]))
    assert not any(a.args.get("category") == "hotel" and a.args.get("amount") == "25.00" for a in plan.acts)
    # (the stay's day is asked since the twenty-first round: a day told beside it is another expense's)


# ----------------------------------------------------------------- 9. days in the languages people mix in


def test_a_stay_from_one_day_to_another_in_french_starts_on_the_first():
    # told on Thursday 3 December: Monday the 30th to Wednesday, two nights
    plan = plan_of("hotel Cornavin from lundi to mercredi, 2 nuits, 231 per night", **on([]))
    assert [(a.args["amount"], a.args["date"]) for a in plan.acts] == [("462.00", "2026-11-30")]


@pytest.mark.parametrize("text", ["a SIM card 15,00 and the badges printed 42,30, both on segunda",
                                  "almoço na segunda 12"])
def test_portuguese_weekdays_date_what_they_head(text):
    plan = plan_of(text, **on([]))
    assert plan.acts and {a.args["date"] for a in plan.acts} == {"2026-11-30"}


def test_a_portuguese_ordinal_beside_a_noun_is_no_day():
    plan = plan_of("the segunda taxi was 20", **on(TRIP))
    assert not any(a.args.get("date") == "2026-11-30" for a in plan.acts)


# ----------------------------------------------------------------- 10. walk Z4


def test_an_expense_told_right_after_a_question_about_a_limit_waits_for_the_users_word():
    plan = _offered("Is there a max per day for food? Tuesday I have lunch and dinner together 58 euro.", **on(TRIP))
    assert plan.acts == []
    assert "You asked about the limit" in _said(plan) and "60 EUR per day" in _said(plan)


@pytest.mark.parametrize("text", ["Hotel 2 nights from monday, 298 in all. One doubt, what is the hotel limit per night?",
                                  "what's the limit for taxis? add the taxi tuesday 55 anyway"])
def test_an_expense_told_before_a_limit_question_or_asked_to_be_added_is_added(text):
    plan = _offered(text, **on(TRIP))
    assert [a.act for a in plan.acts] == ["add_line"]


# ----------------------------------------------------------------- 11. what the round's review found


@pytest.mark.parametrize("text", [
    "note for line 1: do not submit", "line 1 description: taxi; don't send",
    "line 2 description: lunch with the team, not ready to submit", "note for line 1: to check with Anna before I submit",
    "line 1 description: receipt still to send", "note for line 2: client lunch, receipt to resend",
    "note for line 1: Godsend", "line 1 description: taxi, or should I submit",
])
def test_a_note_that_only_mentions_sending_is_never_a_submit(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.act == "submit_claim" for a in plan.acts)


@pytest.mark.parametrize("text", [
    'Open a claim "Leeds audit 2". Actually no. Train 45, hotel split 200 mine 100.',
    'Open a claim "Rome". Or not. Taxi 20, dinner split 60 mine 30.',
    'Open a claim for Berlin. On second thought, not yet, I\'ll send the 3 receipts tomorrow.',
    'Please open a claim "Berlin offsite" in EUR. Sorry, in GBP I mean. taxi 20, dinner split 60 mine 30',
    'Open a claim "Vienna". Not in EUR, in CHF. taxi 20, dinner split 60 mine 30',
    'Open a claim "Rome" in EUR. I mean "Roma 2026". taxi 20, dinner split 60 mine 30',
    'can you open a claim "Rome"? just asking if it\'s possible. taxi 20, dinner split 60 mine 30',
    'Can we open a claim "Rome" later? taxi 20, dinner split 60 mine 30',
    'Could we open a claim "Hamburg"? My boss must approve first. taxi 20, dinner split 60 mine 30',
    'Open a claim called Prague. taxi 20, dinner split 60 mine 30. Actually make it in CZK.',
])
def test_an_opening_taken_back_changed_or_only_wondered_about_is_never_opened_on_its_own(text):
    plan = plan_of(text, cases=(), active=None)
    assert not any(a.act == "open_claim" for a in plan.acts)


@pytest.mark.parametrize("text", ["submit it, but my boss wants it after I add the hotel",
                                  "submit it, my boss needs it without the lunch",
                                  "submit it, my manager asked for it without the taxi"])
def test_a_wanted_by_that_carries_a_condition_never_lets_the_submit_through(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.act == "submit_claim" for a in plan.acts)


@pytest.mark.parametrize("text", ["Quinta do Lago hotel 2 nights 300", "Quinta da Marinha golf lunch 60"])
def test_a_portuguese_place_is_no_weekday(text):
    plan = plan_of(text, **on([]))
    assert not any(a.args.get("date") == "2026-11-26" for a in plan.acts)


@pytest.mark.parametrize("text", ["IC Hotels Green Park 2 nights 240", "IC card reader 20"])
def test_ic_is_a_train_only_with_its_number_or_route(text):
    plan = plan_of(text, **on([]))
    assert not any(a.args.get("category") == "travel" for a in plan.acts)


def test_a_yes_then_a_figure_naming_nothing_is_asked_never_added_twice():
    plan = _yes("taxi on tuesday 80 PLN", "yes - 18,90 with fees")
    assert plan.acts == []


@pytest.mark.parametrize("said", ["yes - 18.60 on the card statement", "no, 18.90"])
def test_an_amount_answer_after_a_yes_or_no_with_no_thing_of_its_own_is_the_amount(said):
    told = "taxi on tuesday 80 PLN"
    first = _offered(told, **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    parsed = parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))
    assert [(a.args["category"], a.args["date"], a.args.get("description")) for a in parsed.acts] == [
        ("taxi", "2026-12-01", None)]


def test_a_quoted_description_keeps_all_its_words():
    plan = plan_of('Change the description of line 1 to "hotel to Lyon airport, early flight, no tram yet"', **on(TRIP))
    assert [a.args.get("description") for a in plan.acts] == ["hotel to Lyon airport, early flight, no tram yet"]


def test_a_line_that_needs_a_note_gets_it():
    plan = plan_of("Taxi of 32 on tuesday needs the note: hotel to Lyon airport, early flight", **on(TRIP))
    assert [(a.act, a.args.get("line"), a.args.get("description")) for a in plan.acts] == [
        ("update_line", 1, "hotel to Lyon airport, early flight")]


def test_a_stay_with_no_day_beside_expenses_of_other_days_is_never_dated_today():
    plan = plan_of("The hotel was the Memmo Alfama, two nights, 356 all in. Tuesday I had lunch with the client team at a "
                   "tiny place called Taberna da Rua das Flores, 64.80.", **on([]))
    assert not any(a.args.get("category") == "hotel" for a in plan.acts)


# ----------------------------------------------------------------- 12. what the round's second review found


@pytest.mark.parametrize("said", ["Drop it.", "Just a test.", "Nein, doch nicht.", "Não, esquece.", 'Use "Porto Q4".',
                                  "Typo - Oporto.", "Braga pls.", "GBP.", "Should be CHF.", "Add them to Lyon:",
                                  "Ah, there's one already.", "It's for Tom.", "The taxi 20 goes on Lisbon though",
                                  "Manager will confirm.", "Let me check with finance first."])
def test_a_claim_is_never_opened_on_its_own_when_a_sentence_after_it_tells_no_price_or_doubts(said):
    plan = plan_of(f'Open a claim "Porto" in EUR. {said} taxi 20, dinner split 60 mine 30', cases=(), active=None)
    assert not any(a.act == "open_claim" for a in plan.acts)


@pytest.mark.parametrize("text", ['Hypothetically, would you open a claim "Porto"? taxi 20, dinner split 60 mine 30',
                                  'Maybe I should wait, but open a claim "Porto" please. taxi 20, dinner split 60 mine 30'])
def test_a_claim_wondered_about_before_it_is_asked_for_is_never_opened_on_its_own(text):
    plan = plan_of(text, cases=(), active=None)
    assert not any(a.act == "open_claim" for a in plan.acts)


@pytest.mark.parametrize("text", ["jantar na Quinta da Aveleda 40", "jantar na quinta do Zé 30"])
def test_a_portuguese_place_after_na_is_no_weekday(text):
    plan = plan_of(text, **on([]))
    assert not any(a.args.get("date") == "2026-11-26" for a in plan.acts)


@pytest.mark.parametrize("text", ["IC Berlin-Mitte 1 night 180", "IC Amsterdam-Centraal hotel 1 night 240"])
def test_ic_before_a_name_that_is_no_route_between_cities_is_no_train(text):
    plan = plan_of(text, **on([]))
    assert not any(a.args.get("category") == "travel" for a in plan.acts)


@pytest.mark.parametrize("text", ["line 2 note: Tom, not yet, then submit", "note for line 1: shuttle. Hold, then send"])
def test_a_note_with_a_hold_before_its_submit_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.act == "submit_claim" for a in plan.acts)


def test_a_removal_by_where_a_ride_started_takes_the_ride_told_from_there():
    lines = [line("ln_taxi0001", "2026-12-01", "taxi", "25.00", "hotel to office"),
             line("ln_taxi0002", "2026-12-02", "taxi", "30.00", "office to airport")]
    plan = plan_of("remove the taxi from the hotel", **on(lines))
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 1)]
