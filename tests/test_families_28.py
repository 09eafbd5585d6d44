"""Families of the twenty-first round (issue 19), with sentences of our own. First the wrong commits earlier rounds
left (a "Question:" label without "?", a bill told with its parts, "1st class" read as a day, a figure after a yes
to a conversion offer taken as the offered amount)."""

from __future__ import annotations

import pytest

from tests.test_families_13 import line, on
from tests.test_families_17 import TRIP
from tests.test_families_21 import _offered, _yes
from tests.test_interpreter import plan_of


def _said(plan) -> str:
    return " ".join([plan.say or "", *(a.text for a in plan.answers)])


# ----------------------------------------------------------------- 1. wrong commits left by earlier rounds


@pytest.mark.parametrize("text", ["Question: taxi 45", "Quick question - the hotel 180", "One doubt: lunch 22 on monday"])
def test_what_follows_a_question_label_is_asked_never_added(text):
    plan = plan_of(text, **on(TRIP))
    assert plan.acts == []


@pytest.mark.parametrize("text", [
    "Restaurant bill 80. Dinner was 60 of it, wine 20.",
    "hotel 300, of which 40 was the minibar, and taxi 20",
    "dinner 90, 30 out of that was drinks, and lunch 12",
])
def test_a_bill_told_with_its_parts_is_asked_never_added_whole_and_in_parts(text):
    plan = plan_of(text, **on(TRIP))
    assert not [a for a in plan.acts if a.act == "add_line"]


@pytest.mark.parametrize("text", ["1st class upgrade on the train back 25", "2nd class ticket Lyon-Paris 45"])
def test_a_class_of_travel_is_no_day_of_the_month(text):
    plan = plan_of(text, **on(TRIP))
    assert all(a.args.get("date") not in ("2026-12-01", "2026-12-02", "2026-11-01", "2026-11-02") for a in plan.acts)


@pytest.mark.parametrize("said", ["yes - tip 5", "ok - parking 5", "sure. tip 5"])
def test_a_figure_after_a_yes_that_names_another_thing_is_never_the_offered_amount(said):
    plan = _yes("taxi on tuesday 80 PLN", said)
    assert not any(a.args.get("category") == "taxi" and a.args.get("amount") in ("5.00", "90.00") for a in plan.acts)


@pytest.mark.parametrize(("said", "amount"), [("yes - 21.44 EUR", "21.44"), ("ok. 22.10 eur it was", "22.10"),
                                             ("yes - with the tip 25", "25.00"), ("yes. 22.10 EUR incl fees", "22.10"),
                                             ("ok - 25 mit Trinkgeld", "25.00")])
def test_a_figure_in_the_claims_currency_after_a_yes_is_the_offered_amount(said, amount):
    plan = _yes("taxi on tuesday 80 PLN", said)
    assert [(a.args.get("category"), a.args.get("amount")) for a in plan.acts] == [("taxi", amount)]


# ----------------------------------------------------------------- 2. what the worked set dev-28 showed


def test_a_day_heading_a_later_sentence_is_never_the_day_of_a_stay_before_it():
    plan = plan_of("The hotel was near Part-Dieu, two nights at 112 a night. Friday was the fair itself - I bought "
                   "gaffer tape for the stand, 24.30, then lunch at the fair was 16.50.", **on([]))
    assert not any(a.args.get("category") == "hotel" and a.args.get("date") == "2026-11-27" for a in plan.acts)


@pytest.mark.parametrize("text", ["hotel Motel One, 2 nachten à 94.\nwo 2/12: diner 31.50, taxi terminal-hotel 18.00",
                                  "hotel Ibis, 2 nuits à 94.\nmer. 2/12: dîner 31.50, taxi 18.00"])
def test_a_short_weekday_of_another_language_before_a_date_heads_what_follows_only(text):
    plan = plan_of(text, **on([]))
    assert not any(a.args.get("category") == "hotel" and a.args.get("date") for a in plan.acts)
    assert all(a.args.get("date") == "2026-12-02" for a in plan.acts if a.args.get("category") in ("meals", "taxi"))


@pytest.mark.parametrize(("text", "merchant"), [
    ("HDMI adapter from Currys cos theirs was broken 24.99", "Currys"),
    ("bought a USB hub from Maplin 19.99", "Maplin"),
])
def test_a_thing_bought_from_a_shop_names_the_shop_never_the_things_abbreviation(text, merchant):
    plan = plan_of(text, **on([]))
    assert [a.args.get("merchant") for a in plan.acts] in ([merchant], [None])
    assert not any(a.args.get("merchant") in ("HDMI", "USB") for a in plan.acts)


# ----------------------------------------------------------------- 3. what walk Z5 and the blind set's unsafe items showed


@pytest.mark.parametrize("text", ["taxi 20 CHF. Please add.", "airport train on 30 Nov, ticket was 36 DKK. Kindly add the same."])
def test_a_bare_request_to_add_after_an_expense_asks_nothing_of_its_own(text):
    plan = _offered(text, **on(TRIP))
    assert "How much was the expense" not in _said(plan)


@pytest.mark.parametrize("text", [
    "Lunch is fine as it was for 3 persons only, so per head it is 32 EUR.",
    "breakfast 12 per person",
    "lunch 14 each for me and Anna",
])
def test_a_figure_said_per_head_is_never_a_lines_amount(text):
    plan = plan_of(text, **on(TRIP))
    assert plan.acts == []


@pytest.mark.parametrize("text", ["2 coffees at 3.50 each", "dinner 90 for 3 people, 30 per head"])
def test_a_figure_per_head_times_its_count_is_the_lines_amount(text):
    plan = plan_of(text, **on(TRIP))
    assert [a.act for a in plan.acts] == ["add_line"]


@pytest.mark.parametrize("text", ["Perdona, la cena fue 68,50, no 86,50.", "the taxi was 20, no 25", "o jantar foi 68,50, não 86,50"])
def test_was_one_figure_no_another_is_asked_never_added(text):
    plan = plan_of(text, **on(TRIP))
    assert not [a for a in plan.acts if a.act == "add_line"]


def test_a_portuguese_weekday_beside_an_expense_or_alone_between_commas_is_its_day():
    plan = plan_of("Hotel em Matosinhos, 1 noite, segunda, 78,00. Jantar segunda 19,80 e almoço terça com o encarregado "
                   "da obra 31,60.", **on([]))
    assert [(a.args["category"], a.args["date"]) for a in plan.acts] == [
        ("hotel", "2026-11-30"), ("meals", "2026-11-30"), ("meals", "2026-12-01")]


@pytest.mark.parametrize("text", ["a segunda noite foi 80", "la deuxième nuit 80", "hotel 2 nights, first night 90, second night 80"])
def test_one_night_of_a_stay_told_by_its_place_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    assert not [a for a in plan.acts if a.act == "add_line"]


@pytest.mark.parametrize("text", ["parking 12 - ach nein, vergiss es", "dîner 40, et un parking 12 - non, laisse tomber",
                                  "parking 12, lascia perdere", "parking 12 - glöm det"])
def test_a_take_back_in_another_language_is_never_added(text):
    plan = plan_of(text, **on(TRIP))
    taken_back = {r.act for r in plan.retractions}
    assert not any(a.act == "add_line" and a.args.get("amount") == "12.00" and a.id not in taken_back for a in plan.acts)


@pytest.mark.parametrize("text", ["Taxi to the station 29.50. I also bought pens 5.", "Taxi to the station 29.50. We then had dinner 30."])
def test_a_pronoun_before_also_or_then_goes_with_its_verb_never_with_the_expense_before(text):
    plan = plan_of(text, **on([]))
    assert "I did not understand" not in _said(plan)
    assert [a.args.get("amount") for a in plan.acts][:1] == ["29.50"]


@pytest.mark.parametrize("text", ["hotel last nite 220", "dinner last night at Fiskeriet, 41", "hotel 2nd night 180 on the 1st"])
def test_last_night_and_a_night_told_with_its_day_are_added(text):
    plan = plan_of(text, **on(TRIP))
    assert [a.act for a in plan.acts] == ["add_line"]


@pytest.mark.parametrize("text", ["comboio segunda classe 30", "taxi segunda vez 12", "parking quinta planta 15",
                                  "taxi quarta volta 10"])
def test_a_portuguese_ordinal_after_an_expense_is_no_day(text):
    plan = plan_of(text, **on(TRIP))
    assert all(a.args.get("date") in (None, "2026-12-03") for a in plan.acts)


@pytest.mark.parametrize("text", ["got from Canary Wharf to Soho by taxi 25", "Train: got from Kings Cross to York 45"])
def test_got_from_a_place_to_another_is_a_journey_never_a_shop(text):
    plan = plan_of(text, **on(TRIP))
    assert not any(a.args.get("merchant") for a in plan.acts)


@pytest.mark.parametrize("text", ["Pregunta: taxi 45", "Frage: Taxi 45", "cena 30 por persona", "hotel was 100, no. 5 on the receipt",
                                  "hotel quinta noche 80"])
def test_the_new_cues_in_the_languages_people_mix_in_ask(text):
    plan = plan_of(text, **on(TRIP))
    assert not [a for a in plan.acts if a.act == "add_line"]


def test_a_correction_beside_another_expense_never_adds_the_corrected_one():
    lines = [line("ln_trn00001", "2026-11-24", "travel", "34.10")]
    plan = plan_of("the train was 35.10 not 34.10, and coffee 3 on tuesday", **on(lines))
    assert not any(a.act == "add_line" and a.args.get("amount") == "35.10" for a in plan.acts)


def test_one_mistake_announced_is_its_sentences_and_the_next_sentence_adds():
    lines = [line("ln_lnch0001", "2026-12-01", "meals", "12.00", "lunch")]
    plan = plan_of("Sorry, mistake: lunch was 14 not 12. Taxi 20 on tuesday", **on(lines))
    assert sorted((a.act, a.args.get("amount")) for a in plan.acts) == [("add_line", "20.00"), ("update_line", "14.00")]


def test_an_undated_expense_beside_a_correction_of_another_day_asks_its_day():
    lines = [line("ln_trn00001", "2026-11-24", "travel", "31.40", "train")]
    plan = plan_of("found it - cardiff parking was 8.50. oh n the train was 34.10 not 31.40", **on(lines))
    assert not any(a.act == "add_line" for a in plan.acts)


# ----------------------------------------------------------------- 4. the dearer cities' hotel limit, a franc by its German name


def test_a_hotel_night_asked_about_in_a_dearer_city_is_measured_against_its_own_limit():
    plan = _offered("is 238 a night ok for the hotel in Zurich?", **on(TRIP))
    assert "within the hotel limit (250 EUR a night)" in _said(plan)


def test_an_amount_in_franken_asked_about_is_converted_before_it_is_measured():
    plan = _offered("Kurze Frage: what is the hotel limit per night in Zürich? Hoffentlich waren die 238 Franken ok.",
                    **on(TRIP))
    assert "238.00 CHF a night (about" in _said(plan)


def test_a_hotel_line_in_a_dearer_city_gets_no_note_below_its_limit():
    from types import SimpleNamespace

    from expenses.policies import category_limit_notes

    args = SimpleNamespace(line=None, category="hotel", amount="476.00", quantity=2, date="2026-11-23", merchant=None,
                           description=None)
    case = SimpleNamespace(title="Zürich Kundentermin", state={"currency": "EUR", "lines": []})
    assert category_limit_notes(case, args) == ()
    case = SimpleNamespace(title="Lyon trip", state={"currency": "EUR", "lines": []})
    assert [code for code, _ in category_limit_notes(case, args)] == ["over_policy_limit"]


@pytest.mark.parametrize("text", ["again: taxi 20", "ok so, easier: taxi 20", "ok, simpler: taxi 20"])
def test_words_leading_in_are_no_description(text):
    plan = plan_of(text, **on(TRIP))
    assert [a.args.get("description") for a in plan.acts] == [None]


def test_a_pasted_row_of_its_own_day_and_price_is_its_own_expense():
    plan = plan_of("12/1 Uber hotel to DEN 61.80\n12/1 United flight DEN-IAH 181.40", **on([]))
    assert [(a.args["category"], a.args["amount"]) for a in plan.acts] == [("taxi", "61.80"), ("travel", "181.40")]


def test_the_reason_a_line_goes_beside_its_removal_takes_nothing_back():
    lines = [line("ln_lnch0001", "2026-12-01", "meals", "18.90", "lunch at gardermoen")]
    plan = plan_of("drop the gardermoen lunch, lost the receipt, not worth it", **on(lines))
    assert [a.act for a in plan.acts] == ["remove_line"]


@pytest.mark.parametrize("text", [
    "Add a new line: hotel in Madrid, 2 nights at 128 EUR per night, check-in 1 Dec",
    "Both are new expenses. Add the hotel, 2 nights x 128 EUR, check-in 1 Dec",
])
def test_a_request_or_an_answer_before_a_stay_told_whole_leaves_the_stay_read(text):
    plan = plan_of(text, **on([]))
    assert [(a.args["category"], a.args["amount"], a.args["date"]) for a in plan.acts] == [("hotel", "256.00", "2026-12-01")]


# ----------------------------------------------------------------- 5. what the second review found


@pytest.mark.parametrize("text", ["Typo in the taxi: 28. Taxi 28 on the 1st", "Sorry, mistake: lunch 16.50 not 14.50. Lunch 16.50 wednesday",
                                  "Mistake! Lunch 16.50. Taxi 28 on the 1st."])
def test_after_one_mistake_announced_an_expense_of_a_kind_the_claim_has_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    assert not [a for a in plan.acts if a.act == "add_line"]


@pytest.mark.parametrize(("text", "amounts"), [("Flight 230 we also paid a taxi 40", ["230.00", "40.00"]),
                                               ("Train 45 I then took a taxi 12", ["45.00", "12.00"])])
def test_a_pronoun_inside_a_sentence_never_joins_two_priced_things(text, amounts):
    plan = plan_of(text, **on([]))
    assert [a.args.get("amount") for a in plan.acts] in (amounts, [])


@pytest.mark.parametrize("text", ["lunch 15 yesterday, taxi 20 yesterday, vergiss das Mittagessen",
                                  "dinner 30 yesterday and parking 8 yesterday - lascia perdere la cena",
                                  "parking 12 - vergiss es nicht"])
def test_a_take_back_abroad_followed_by_words_is_asked(text):
    plan = plan_of(text, **on(TRIP))
    taken_back = {r.act for r in plan.retractions}
    assert not [a for a in plan.acts if a.act == "add_line" and a.id not in taken_back]


@pytest.mark.parametrize("text", ["taxi segunda e terceira viagem 24", "comboio segunda e terceira classe 60"])
def test_a_portuguese_ordinal_before_e_and_another_ordinal_is_no_day(text):
    plan = plan_of(text, **on(TRIP))
    assert all(a.args.get("date") in (None, "2026-12-03") for a in plan.acts)


def test_a_yes_for_one_of_several_offered_is_asked():
    plan = _yes("metro ticket 3,40 USD and lunch 22 USD on tuesday",
                "yes please for one of them, thank you, the company rate is fine. Taxi 12 yesterday")
    assert not any(a.args.get("currency") == "USD" for a in plan.acts)


def test_a_carrier_named_with_its_airlines_word_is_paid_by_its_whole_name():
    plan = plan_of("Aegean Airlines ATH-AMS 10/11 EUR 286.40", **on([]))
    assert [(a.args.get("merchant"), a.args.get("category")) for a in plan.acts] == [("Aegean Airlines", "travel")]


def test_a_thing_told_in_an_earlier_message_and_priced_now_with_no_day_asks_its_day():
    from dataclasses import replace as _replace

    from conversations.core.plan import parse_model_answer
    from expenses.interpreter import interpret
    from tests.test_interpreter import request

    said = _replace(request("found it - cardiff parking was 8.50", **on([])), excerpt=[
        {"role": "user", "text": "tues train to cardiff 31.40, parking at cardiff too but no receipt yet"}])
    plan = parse_model_answer(interpret(said))
    assert not [a for a in plan.acts if a.act == "add_line"]


def test_a_mistake_announced_first_corrects_the_line_its_old_amount_names():
    lines = [line("ln_kola0001", "2026-11-25", "meals", "96.00", "kolacja with colleagues")]
    plan = plan_of("Sorry, mistake: kolacja was 86, not 96.", **on(lines))
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plan.acts] == [("update_line", 1, "86.00")]



# ----------------------------------------------------------------- 6. what the third review found


@pytest.mark.parametrize("text", ["Sorry, mistake: the taxi on the 1st was actually a train. Train 32 on the 1st.",
                                  "Both are new expenses. The taxi was 28 and the lunch 16",
                                  "Add a new line: the taxi was 28 not 32",
                                  "parking 8 yesterday, taxi 20 yesterday - laat maar, de parkeerkosten betaalt de klant",
                                  "Taxi 29.50. They then invited us to dinner 40.",
                                  "Courier DHL-UPS 25 yesterday"])
def test_what_the_third_review_found_commits_nothing_wrong(text):
    plan = plan_of(text, **on(TRIP))
    taken_back = {r.act for r in plan.retractions}
    acts = [a for a in plan.acts if a.id not in taken_back]
    assert not any(a.act == "update_line" for a in acts)
    assert not any(a.act == "add_line" and (a.args.get("category") in ("travel", "meals") or a.args.get("amount") in (
        "8.00", "20.00")) for a in acts)


@pytest.mark.parametrize(("text", "limit"), [("is 240 ok for the hotel in Bergen? Oslo was cheaper", None),
                                              ("the hotel in Lyon was 240 a night, more than in London, is that ok?", None),
                                              ("is 240 ok for the hotel in Oslo?", "250 EUR a night")])
def test_the_dearer_limit_is_the_city_the_hotel_was_in(text, limit):
    plan = _offered(text, **on(TRIP))
    assert ("within the hotel limit" in _said(plan)) == (limit is not None)
