"""Families of the eighteenth round (issue 19), with sentences of our own: one "yes" for every expense offered
converted when the message also added others, each with the day it was told with (walk Y1: a yes answered only the
first offer, and an offer beside an addition lost its day)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conversations.core.plan import ReadBatch, parse_model_answer
from expenses.interpreter import interpret
from tests.test_families_13 import line, on
from tests.test_families_17 import TRIP
from tests.test_families_21 import _offered
from tests.test_interpreter import request

# ----------------------------------------------------------------- 1. a yes for every one offered beside an addition


def _said_after(told: str, *answers: str):
    """The plans for ``answers``, said one after the other after ``told`` was offered converted."""
    first = _offered(told, **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": told} if first.pending else None
    plans = [first]
    for said in answers:
        parsed = parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))
        assert not isinstance(parsed, ReadBatch)
        plans.append(parsed)
        if parsed.pending:
            pending = {**parsed.pending.model_dump(mode="json"),
                       "message": told if parsed.pending.about and parsed.pending.about in told else said}
        else:
            pending = None
    return plans


@pytest.mark.parametrize(("told", "added"), [
    ("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur",
     [("meals", "40.00", "2026-11-30"), ("taxi", "22.00", "2026-11-30")]),
    ("On Monday I paid the hotel, 300 eur, and a dinner for £40", [("meals", "40.00", "2026-11-30")]),
    ("Tuesday: lunch 14, a museum ticket 25 USD and the bus 30 USD", [("other", "25.00", "2026-12-01"),
                                                                     ("travel", "30.00", "2026-12-01")]),
])
def test_one_yes_adds_every_expense_offered_beside_an_addition_with_its_day(told, added):
    first, yes = _said_after(told, "yes please convert them" if len(added) > 1 else "yes")
    assert first.acts and first.pending is not None and first.pending.args.get("currency")
    assert [(a.args["category"], a.args["amount"], a.args.get("date")) for a in yes.acts] == added
    assert all(a.args.get("currency") for a in yes.acts)  # each converted by the handler, never taken as euros
    assert not any(a.args.get("category") == "hotel" for a in yes.acts)  # what was added then is not added again


def test_a_yes_that_names_one_adds_only_that_one():
    _, yes = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur", "yes for the taxi only")
    assert [a.args["category"] for a in yes.acts] == ["taxi"]


def test_the_offer_still_waits_after_a_message_not_understood_and_names_both():
    _, lost, yes = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur", "hmm what",
                               "yes")
    assert lost.acts == [] and "“monday: dinner £40”, “taxi £22”" in " ".join(a.text for a in lost.answers)
    assert [a.args["category"] for a in yes.acts] == ["meals", "taxi"]


def test_a_yes_with_doubt_adds_nothing():
    _, maybe = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur", "yes but not the taxi")
    assert not any(a.args.get("category") == "taxi" for a in maybe.acts)


# ----------------------------------------------------------------- 2. a stay told by the days of its nights


def _added(text: str, **kwargs) -> list[dict]:
    plan = _offered(text, **kwargs)
    return [dict(a.args) for a in plan.acts if a.act == "add_line"]


@pytest.mark.parametrize(("text", "amount", "nights"), [
    ("Hotel Hyatt, Sunday and Monday night at 239/night", "478.00", 2),
    ("Hotel was the Hyatt Regency McCormick Place, Sunday and Monday night at 239/night.", "478.00", 2),
    ("Hotel Hyatt Sunday and Monday nights at 239 a night", "478.00", 2),
    ("Hotel Hyatt, Sunday and Monday night, 478", "478.00", 2),
    ("hotel hyatt 2 nights (sun and mon) 239/night", "478.00", 2),
])
def test_a_stay_told_by_the_days_of_its_nights_is_one_line_from_the_first(text, amount, nights):
    [line] = _added(text, **on(TRIP))
    assert (line["category"], line["amount"], line.get("quantity"), line["date"]) == ("hotel", amount, nights,
                                                                                       "2026-11-29")


@pytest.mark.parametrize("text", [
    "Hotel Hyatt, Sunday and Tuesday night at 239/night",  # not in a row: which nights?
    "hotel 2 nights at 150 each, the 29th and 30th",  # days without their names: a line a night, or one? asked
])
def test_nights_not_told_as_one_stay_are_asked(text):
    assert not [a for a in _added(text, **on(TRIP)) if a.get("category") == "hotel"]


def test_the_engine_reads_the_nights_named_as_their_count_and_product():
    from registries.numbers import evidence_numbers, quantity_products

    assert [p.value for p in quantity_products("Sunday and Monday night at $239/night")] == [478]
    assert 2 in evidence_numbers("Sunday and Monday night, $478")
    assert quantity_products("Sunday and Tuesday night at $239/night") == []  # not in a row


# ----------------------------------------------------------------- 3. the story between the expenses


def test_a_day_told_by_what_it_was_ends_the_sentence_before_it_and_dates_what_follows():
    lines = _added("Hotel was the Hyatt, Sunday and Monday night at 239/night. Monday was nuts, we scanned like 200 "
                   "badges at the booth. Monday lunch for me and the two clinical specialists at the food court was "
                   "112.60", **on(TRIP))
    assert [(a["category"], a["amount"], a["date"]) for a in lines] == [("hotel", "478.00", "2026-11-29"),
                                                                       ("meals", "112.60", "2026-11-30")]


@pytest.mark.parametrize("text", ["we scanned like 200 badges at the booth", "we had like 300 visitors at the stand"])
def test_a_number_of_things_that_are_no_expense_is_no_price(text):
    plan = _offered(f"taxi 20 on monday. {text}.", **on(TRIP))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts] == [("taxi", "20.00")]


def test_things_bought_by_the_dozen_are_still_asked_about():
    plan = _offered("we bought 20 lanyards, 45", **on(TRIP))
    assert plan.acts == []  # which kind of expense: asked, never a count taken as no price


def test_a_title_given_ends_its_sentence_so_the_trip_told_after_it_is_read():
    plan = _offered('could you open a claim for me please, in euro, call it "Cork study days". I\'m doing this on the '
                    "bus home so forgive the typos. Went down on Tuesday evening after my shift: Irish Rail to Cork "
                    "€67.45 return, a toastie and tea on the train €7.50, and a taxi to the hotel €12.80.", **on(TRIP))
    assert [a.act for a in plan.acts] == ["open_claim", "add_line", "add_line", "add_line"]
    assert [a.args["amount"] for a in plan.acts[1:]] == ["67.45", "7.50", "12.80"]
    assert all(a.args["date"] == "2026-12-01" for a in plan.acts[1:])


def test_a_claim_named_in_the_next_clause_takes_what_follows():
    plan = _offered("new claim pls in GBP - call it 'Amsterdam hackathon'. flew out sunday, easyJet EDI-AMS £142.98 "
                    "return", **on(TRIP))
    assert [(a.act, a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [
        ("open_claim", None, None), ("add_line", "142.98", "2026-11-29")]


def test_what_was_paid_then_a_question_about_it_after_so_is_told():
    lines = _added("The hotel was the Imperial, two nights (Sun and Mon) at €172 a night, so I'm just under — it's 180 "
                   "the limit, isn't it? Monday was the first study day, lunch was provided thank god, but I went for "
                   "dinner with two of the girls after and paid my own share, €31.20.", **on(TRIP))
    assert [(a["category"], a["amount"], a["date"]) for a in lines] == [("hotel", "344.00", "2026-11-29"),
                                                                       ("meals", "31.20", "2026-11-30")]


@pytest.mark.parametrize("text", [
    "if the hotel was 172 a night, so it's under the limit, isn't it?",  # hypothetical: asked, never added
    "lunch 30, is that ok?",
])
def test_a_question_about_a_price_still_adds_nothing(text):
    assert _added(text, **on(TRIP)) == []


def test_the_trip_told_beside_the_opening_dates_no_line():
    plan = _offered('Could you please set up a new claim in pounds called "Edinburgh recce"? I was up there last week '
                    "looking at venues. On the 1st: Cardiff to Edinburgh on the train, £134.60 return, and a taxi from "
                    "Waverley to the hotel £11.20.", **on(TRIP))
    assert [(a.act, a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [
        ("open_claim", None, None), ("add_line", "134.60", "2026-12-01"), ("add_line", "11.20", "2026-12-01")]


@pytest.mark.parametrize(("text", "added"), [
    ("Tuesday the whole day we had meetings with Eurogate about the new slot planning, so only a broodje and coffee "
     "€7.60.", [("meals", "7.60", "2026-12-01")]),
    ("The first things: monday 30 the flight with Lufthansa 214,60 and the taxi from the airport 38,50",
     [("travel", "214.60", "2026-11-30"), ("taxi", "38.50", "2026-11-30")]),
    ("thursday 26 the RER to the airport CDG 11,80", [("travel", "11.80", "2026-11-26")]),
])
def test_a_day_told_in_the_story_dates_what_follows(text, added):
    assert [(a["category"], a["amount"], a["date"]) for a in _added(text, **on(TRIP))] == added


def test_a_place_after_to_the_airport_is_not_who_was_paid():
    [line] = _added("thursday 26 the RER to the airport CDG 11,80", **on(TRIP))
    assert line.get("merchant") == "RER"


def test_staying_told_as_a_verb_is_no_stay_to_add():
    plan = _offered("Hotel: the Rosewood, two nights (Sunday and Monday) at 310 a night. I suspect I've gone over — the "
                    "client insisted we stay near Holborn.", **on(TRIP))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts] == [("hotel", "620.00")]
    assert not plan.answers  # no "how much was the hotel?" for the client's wish


def test_a_yes_in_other_words_takes_the_conversion():
    plans = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur",
                        "Fine, accept the conversion.")
    assert [a.args["category"] for a in plans[1].acts] == ["meals", "taxi"]


def test_a_stay_told_with_was_on_a_claim_without_one_is_added():
    plan = _offered("The hotel was the Imperial on the South Mall, two nights (Sun and Mon) at €172 a night", **on(TRIP))
    assert [(a.act, a.args.get("amount"), a.args.get("quantity")) for a in plan.acts] == [("add_line", "344.00", 2)]


def test_a_stay_told_with_was_beside_a_stay_already_there_is_no_new_line():
    stay = [line("ln_hotl0001", "2026-11-29", "hotel", "300.00")]
    plan = _offered("The hotel was two nights at 172 a night", **on(stay))
    assert not [a for a in plan.acts if a.act == "add_line"]


def test_a_place_a_ride_went_to_the_message_before_is_no_thing_told_before():
    from expenses.interpreter.audit import Audit
    from expenses.interpreter.context import Context

    ctx = replace(Context.of(request("The hotel was the Imperial, 2 nights at 172 a night", **on(TRIP))),
                  previous="a taxi from Kent station to the hotel €12.80")
    assert not Audit(ctx.message, {"acts": []}, ctx)._told_before("The hotel was")
    ctx = replace(ctx, previous="hotel 2 nights 300")
    assert Audit(ctx.message, {"acts": []}, ctx)._told_before("The hotel was")


@pytest.mark.parametrize("said", ["Grand, yes, take the converted figure.", "lovely, go with that"])
def test_a_yes_in_the_words_of_the_isles_takes_the_conversion(said):
    plans = _said_after("monday: dinner £40 and taxi £22, and the hotel 2 nights at 150 eur", said)
    assert [a.args["category"] for a in plans[1].acts] == ["meals", "taxi"]


# ----------------------------------------------------------------- 4. a yes with more, a request in other words


def test_a_yes_then_a_correction_told_with_was_does_both():
    stay = [line("ln_febo0001", "2026-11-30", "meals", "7.65")]
    first = _offered("monday dinner €24.50", **on_claim_gbp(stay))
    pending = {**first.pending.model_dump(mode="json"), "message": "monday dinner €24.50"}
    plan = parse_model_answer(interpret(replace(request("aye go with that. the dinner was £7.95 not 7.65 btw",
                                                        **on_claim_gbp(stay)), pending=pending)))
    assert sorted(a.act for a in plan.acts) == ["add_line", "update_line"]


def test_a_yes_beside_a_question_does_the_yes_and_answers():
    told = "monday night pizza i paid cash, £24.50. is there a limit on food per day?"
    first = _offered(told, **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": told}
    said = "ok yes convert. what is the meal limit per day?"
    plan = parse_model_answer(interpret(replace(request(said, **on(TRIP)), pending=pending)))
    while isinstance(plan, ReadBatch):
        from tests.test_interpreter import _round
        plan = parse_model_answer(interpret(replace(request(said, rounds=[_round(plan)], **on(TRIP)), pending=pending)))
    assert [(a.act, a.args.get("currency")) for a in plan.acts] == [("add_line", "GBP")]
    assert any("60" in a.text for a in plan.answers)


@pytest.mark.parametrize("text", ["tu peux soumettre", "Lovely, submit it please. Diolch!"])
def test_a_submit_said_in_other_words_is_a_submit(text):
    assert [a.act for a in _offered(text, **on(TRIP)).acts] == ["submit_claim"]


def test_a_claim_asked_for_with_tu_peux_is_opened():
    plan = _offered("Bonjour, tu peux m'ouvrir une note de frais « Salon Genève » en euros ? Lundi : TGV Lyon–Genève "
                    "aller-retour 58,00 €", **on(TRIP))
    assert [(a.act, a.args.get("title"), a.args.get("amount")) for a in plan.acts] == [
        ("open_claim", "Salon Genève", None), ("add_line", None, "58.00")]


def on_claim_gbp(lines):
    from tests.test_walkthrough_families import lyon_with

    case = lyon_with(lines)
    view = {**case.view, "currency": "GBP"}
    return {"cases": (replace(case, view=view),), "active": "clm_LYON0001", "today": "2026-12-03"}


# ----------------------------------------------------------------- 5. walk Z1 (a new user in the browser)


def test_the_journey_told_then_what_it_cost_is_one_expense_of_that_day():
    plan = _offered("cheers. ok so Tuesday I flew out from Manchester first thing, the return flight with KLM was "
                    "186.40", **on(TRIP))
    assert [(a.args["category"], a.args["amount"], a.args["date"]) for a in plan.acts] == [
        ("travel", "186.40", "2026-12-01")]


def test_the_journey_the_price_is_of_is_no_day_told_apart():
    plan = _offered("On Tuesday I was going by RegioJet from Prague, ticket 289, and from the station to the hotel taxi "
                    "24.50", **on(TRIP))
    assert [a.args["amount"] for a in plan.acts] == ["289.00", "24.50"]
    assert plan.acts[0].args.get("merchant") == "RegioJet"


def test_a_price_each_night_said_before_the_count_is_the_stay():
    lines = _added("add: hotel 165 a night for 2 nights starting Tuesday, then for Wednesday a taxi 24, client lunch "
                   "62 and a laptop charger 39.99", **on(TRIP))
    assert [(a["category"], a["amount"], a.get("quantity"), a["date"]) for a in lines] == [
        ("hotel", "330.00", 2, "2026-12-01"), ("taxi", "24.00", None, "2026-12-02"),
        ("meals", "62.00", None, "2026-12-02"), ("other", "39.99", None, "2026-12-02")]


def test_a_half_day_and_a_time_in_the_past_change_nothing_of_the_prices():
    lines = _added("nice one. Wednesday was just a half day, breakfast at the hotel 12.80, taxi to Schiphol 41 and "
                   "parking at the airport 54 when I got back", **on(TRIP))
    assert [(a["category"], a["amount"], a["date"]) for a in lines] == [
        ("meals", "12.80", "2026-12-02"), ("taxi", "41.00", "2026-12-02"), ("travel", "54.00", "2026-12-02")]


@pytest.mark.parametrize("text", ["submit it when I get back", "add the taxi 20 after I check the receipt"])
def test_a_request_on_a_condition_still_waits(text):
    assert _offered(text, **on(TRIP)).acts == []


def test_a_ride_taken_back_by_where_it_went_is_removed_when_it_is_the_only_one():
    rides = [line("ln_fly00001", "2026-12-01", "travel", "186.40"), line("ln_taxi0001", "2026-12-03", "taxi", "35.30")]
    plan = _offered("ah wait, scrap the taxi to Schiphol - my colleague Priya paid for that one", **on(rides))
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 2)]
    two = [*rides, line("ln_taxi0002", "2026-12-02", "taxi", "20.00")]
    assert _offered("scrap the taxi to Schiphol", **on(two)).acts == []


def test_words_of_an_apology_are_no_description():
    [line_] = [a for a in _added("sorry, I mean: add my Tuesday expenses - return flight 186.40", **on(TRIP))]
    assert line_.get("description") in (None, "return flight")


# ----------------------------------------------------------------- 6. the review's sentences: asked, never committed


@pytest.mark.parametrize("told", [
    "monday: dinner £40 and taxi £22 (the taxi was Ana's), hotel 2 nights at 150 eur",
    "monday: dinner £40 and maybe a taxi £22, hotel 2 nights at 150 eur",
    "monday: dinner £40 and taxi £22 (I'll add the taxi later), hotel 2 nights at 150 eur",
])
def test_one_yes_never_adds_an_offer_the_message_doubts(told):
    _, yes = _said_after(told, "yes")
    assert not [a for a in yes.acts if a.args.get("category") == "taxi"]


@pytest.mark.parametrize("text", [
    "hotel Sunday and Monday night at 239", "hotel Sunday and Monday night at 239 (per night)",
    "hotel Sunday and Monday night, rate 239", "hotel Sunday and Monday night at 239 plus breakfast",
    "2 rooms Sunday and Monday night at 239/night",
    "hotel Sunday and Monday night at 239/night for me and my colleague, 2 rooms",
])
def test_nights_by_their_days_at_a_price_that_may_be_each_nights_are_asked(text):
    assert not [a for a in _added(text, **on(TRIP)) if a.get("category") == "hotel"]


@pytest.mark.parametrize("text", ["I was up there last week for 3 days. Taxi 30", "We were down there in October. Dinner 60"])
def test_the_trips_time_never_leaves_a_line_dated_today(text):
    assert _added(text, **on(TRIP)) == []


def test_a_stay_named_otherwise_than_the_line_is_never_changed_into_it():
    stay = [line("ln_hotl0001", "2026-11-30", "hotel", "300.00")]
    stay[0]["merchant"] = "Hotel Bristol"
    plan = _offered("The hotel was the Imperial, two nights at €172 a night, so I'm just under — it's 180 the limit, "
                    "isn't it?", **on(stay))
    assert not [a for a in plan.acts if a.act == "update_line"]


def test_a_stay_told_anew_beside_a_line_told_as_accommodation_is_asked():
    other = [line("ln_acco0001", "2026-11-30", "other", "300.00", "2 nights accommodation")]
    assert _offered("The hotel was the Imperial, two nights at 160 a night", **on(other)).acts == []


def test_a_weak_kind_word_names_a_line_of_another_kind():
    ticket = [line("ln_tick0001", "2026-11-30", "other", "15.00", "museum ticket")]
    assert _offered("the ticket 18", **on(ticket)).acts == []


def test_a_day_of_the_month_is_never_a_count_of_nights():
    from registries.numbers import quantity_products

    assert quantity_products("hostel the 27th and 28th nights at 30/night") == []
    assert not [a for a in _added("hostel the 27th and 28th nights at 30/night", **on(TRIP)) if a.get("amount") == "840.00"]
