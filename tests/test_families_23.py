"""Families of the sixteenth round (issue 19), with sentences of our own: answers to a conversion offer in the
languages people answer in (with a count, or a remark about someone else's expense after the yes), submit words of
other languages, "X was A, not B" with no article, someone else paying said first ("the customer paid …"), nights
counted in more languages, a price followed straight away by another kind, pasted columns aligned by spaces, and the
wrong commits the round's sets found (a foreign price split from its currency, "2 nachten Hotel …" read as 2.00, a
Portuguese "um jantar" read as a correction, "Maandag" dated today, a Dutch take-back missed)."""

from __future__ import annotations

import pytest

from expenses.read_tools import exchange_rate
from expenses.schemas import ExchangeRateArgs
from tests.test_families_13 import TODAY, on
from tests.test_families_17 import NONE, TRIP, acts, fields, on_claim
from tests.test_families_21 import _offered, _yes
from tests.test_walkthrough_families import conversation

# TODAY is Thursday 2026-12-03: Monday is 2026-11-30, Tuesday 2026-12-01, Wednesday 2026-12-02
TOLD = "taxi 20 USD on monday and lunch 30 USD on tuesday"


# ----------------------------------------------------------------- 1. answers to "say yes to add it converted"


@pytest.mark.parametrize("said", [
    "ja passt, umrechnen", "ano, převeď to prosím", "tak, przelicz wszystkie", "tak, przelicz oba", "si si convertili",
    "prima, doe maar", "ja is goed", "ok va bene", "D'accord pour la conversion", "pode converter sim", "joo convert",
])
def test_a_yes_in_another_language_adds_every_expense_offered_converted(said):
    plan = _yes(TOLD, said)
    assert [(a.act, a.args.get("currency")) for a in plan.acts] == [("add_line", "USD"), ("add_line", "USD")]


@pytest.mark.parametrize("said", ["ja alla tre", "yes, all 3", "tak, przelicz wszystkie 4"])
def test_a_yes_for_another_count_than_was_offered_adds_nothing_and_asks(said):
    assert _yes(TOLD, said).acts == []  # (never a line of 3.00 or 4.00: a count is no amount)


def test_a_yes_then_submit_in_another_language_converts_and_asks_to_submit():
    plan = _yes(TOLD, "pode converter sim, e depois submete tudo")
    assert [a.act for a in plan.acts] == ["add_line", "add_line", "submit_claim"]


def test_a_yes_then_a_remark_that_someone_else_paid_another_kind_adds_the_offered_and_says_so():
    plan = _yes(TOLD, "ok, convert them. Btw the hotel was paid by the client so don't put that one in")
    assert [a.act for a in plan.acts] == ["add_line", "add_line"]
    assert any("not yours to claim" in a.text for a in plan.answers)


@pytest.mark.parametrize("said", [
    "ok, convert them. Btw the lunch Tuesday was paid by the client so don't put that one in",
    "yes convert. the lunch was paid by the client though",
    "ja passt, umrechnen. das Mittagessen hat aber der Kunde bezahlt",
    "si si convertili. ah il pranzo l'ha pagato il cliente, quindi niente",
])
def test_a_yes_then_a_remark_about_a_kind_it_would_add_adds_nothing(said):
    assert _yes(TOLD, said).acts == []


# ----------------------------------------------------------------- 2. requests in other languages


@pytest.mark.parametrize("text", [
    "dann einreichen bitte", "Perfekt, tak. Indsend den", "to wszystko, wyślij proszę", "skicka in den sen",
    "Dank je, indienen maar", "Vous pouvez soumettre ensuite, merci !", "e depois submete tudo", "poi inviala",
])
def test_a_submit_in_another_languages_words_asks_to_submit(text):
    [plan] = conversation([text], **on(TRIP))
    assert [a.act for a in plan.acts] == ["submit_claim"]


@pytest.mark.parametrize(("text", "title", "currency"), [
    ("neuer claim bitte: Kundenbesuch Zürich, in EUR", "Kundenbesuch Zürich", "EUR"),
    ("hej, nowy claim: Berlin JSConf, waluta PLN", "Berlin JSConf", "PLN"),
    ("Ny claim: Malmö kundworkshop, SEK tack", "Malmö kundworkshop", "SEK"),
])
def test_a_claim_opened_in_another_languages_words_keeps_its_currency_apart(text, title, currency):
    [plan] = conversation([text], **NONE)
    assert acts(plan) == [("open_claim", {"title": title, "currency": currency})]


# ----------------------------------------------------------------- 3. corrections


@pytest.mark.parametrize("text", [
    "lunch was 16.50, not 14.50",
    "Sorry, one correction. Lunch was 16.50, not 14.50. I made mistake. After that please submit.",
])
def test_a_price_said_with_the_one_it_replaces_corrects_the_line(text):
    [plan] = conversation([text], **on(TRIP))
    assert [(a.act, a.args.get("amount")) for a in plan.acts if a.act == "update_line"] == [("update_line", "16.50")]


def test_a_correction_asked_about_holds_the_submit_said_with_it():
    plan = _offered("Lunch was 16.50 USD, not 14.50. Then please submit.", **on(TRIP))
    assert plan.acts == []


# ----------------------------------------------------------------- 4. someone else paid, said first


@pytest.mark.parametrize("text", [
    "wed parking at the site 15.00, lunch wed the customer paid so dont add",
    "parking 15.00, my colleague paid the dinner",
    "parking 15.00. the customer paid for lunch",
])
def test_a_thing_someone_else_paid_said_first_beside_another_kind_adds_only_the_expense(text):
    [plan] = conversation([text], **on(TRIP))
    assert fields(plan, "category", "amount") == [("travel", "15.00")]


@pytest.mark.parametrize("text", [
    "Lunch was provided by the conference so nothing there.",
    "the hotel went on the company card",
])
def test_a_thing_someone_else_paid_without_a_price_adds_nothing(text):
    [plan] = conversation([text], **on(TRIP))
    assert plan.acts == []


def test_a_dinner_someone_else_paid_beside_a_lunch_added_adds_nothing():
    [plan] = conversation(["lunch 14, the customer paid the dinner so dont add it"], **on(TRIP))
    assert [a for a in plan.acts if a.id not in {r.act for r in plan.retractions}] == []


# ----------------------------------------------------------------- 5. nights, prices, days


@pytest.mark.parametrize(("text", "amount"), [
    ("Hotell: Clarion Hotel Malmö Live 2 nätter à 1 390 kr från tisdag.", "2780.00"),
    ("hotel Motel One 3 noci po 1890 kr od pondělí", "5670.00"),
    ("Hotel: 2 nachten Hotel Alexandra à 1150 kr per nacht, vanaf maandag", "2300.00"),
    ("hotel 3 noites a partir de seg 30/11, 960 kr por noite", "2880.00"),
    ("Clarion Hotel 2 nights à 1390 kr", "2780.00"),
])
def test_nights_priced_each_in_more_languages_are_the_stays_total(text, amount):
    [plan] = conversation([text], **on_claim("SEK"))
    assert fields(plan, "category", "amount") == [("hotel", amount)]


@pytest.mark.parametrize("text", [
    "hotel 3 noites no ibis centro perto da praia, 960 kr por noite",
    "hotel 2 nätter, fint ställe, 1390 kr per natt",
])
def test_a_night_price_the_reader_cannot_multiply_is_asked_never_stored_as_the_stay(text):
    [plan] = conversation([text], **on_claim("SEK"))
    assert plan.acts == []


def test_a_price_then_another_kind_with_its_price_is_two_expenses():
    [plan] = conversation(["tue lunch 12.75 dinner 28.40"], **on(TRIP))
    assert fields(plan, "category", "amount", "date") == [("meals", "12.75", "2026-12-01"),
                                                          ("meals", "28.40", "2026-12-01")]


def test_columns_aligned_by_spaces_are_one_expense_a_row():
    text = ("SJ AB  Stockholm C - Malmö C   2026-11-03   1 245,00 kr\n"
            "Espresso House Malmö C        2026-11-03      89,00 kr\n"
            "Taxi Skåne                    2026-11-03     214,00 kr")
    [plan] = conversation([text], **on_claim("SEK"))
    assert fields(plan, "category", "amount") == [("travel", "1245.00"), ("meals", "89.00"), ("taxi", "214.00")]


def test_another_languages_and_after_a_foreign_price_keeps_the_price_in_its_currency():
    plan = _offered("metro 36 DKK en lunch bij Torvehallerne 145 DKK", **on(TRIP))
    assert plan.acts == [] and len(plan.answers) == 2 and all("DKK" in a.text for a in plan.answers)


@pytest.mark.parametrize(("text", "day"), [
    ("Maandag KLM AMS-CPH 246,30 euro", "2026-11-30"),
    ("Mo ICE Stuttgart-Zürich 129,90", "2026-11-30"),
    ("flight to MUC tue 212.40, s-bahn from airport 13.90, dinner at Augustiner same night 38.50", "2026-12-01"),
])
def test_a_day_said_in_other_words_dates_the_line(text, day):
    [plan] = conversation([text], **on(TRIP))
    assert plan.acts and {a.args.get("date") for a in plan.acts} == {day}


def test_a_day_heading_in_another_language_dates_every_line_under_it():
    [plan] = conversation(["Tirsdag: DSB tog Kbh–Aarhus t/r 798,00 kr og Comwell hotel 1 nat 1.245,00 kr."],
                          **on_claim("DKK"))
    assert fields(plan, "category", "amount", "date") == [("travel", "798.00", "2026-12-01"),
                                                          ("hotel", "1245.00", "2026-12-01")]


def test_a_portuguese_a_dinner_is_a_new_expense_not_a_correction():
    [plan] = conversation(["hotel 3 noites a partir de seg 30/11, 96 € por noite. e um jantar ter 1/12, 41,20 €"],
                          **on(TRIP))
    assert plan.corrections == []
    assert fields(plan, "category", "amount") == [("hotel", "288.00"), ("meals", "41.20")]


def test_a_name_after_a_priced_expense_in_a_longer_message_is_its_merchant():
    [plan] = conversation(["and the bus back on Wednesday, 249 again, RegioJet. oh and take the taxi off. then submit"],
                          **on(TRIP))
    assert [(a.act, a.args.get("merchant")) for a in plan.acts if a.act == "add_line"] == [("add_line", "RegioJet")]


@pytest.mark.parametrize("text", [
    "lunch 14,90, parkeren 12,00 en koffie 3,80 — ach nee, de koffie niet, die was gratis",
    "taxi 20 und Kaffee 3,80 — nein, den Kaffee nicht, der war gratis",
])
def test_a_take_back_in_another_language_is_never_passed_over(text):
    [plan] = conversation([text], **on(TRIP))
    assert not any(a.args.get("amount") == "3.80" for a in plan.acts if a.act == "add_line" and a.id not in {
        r.act for r in plan.retractions})


# ----------------------------------------------------------------- 6. the rate of a day not said


def test_a_rate_asked_without_a_day_is_the_one_in_force_on_the_users_day():
    class Ctx:
        today = "2026-01-15"

    early = exchange_rate(ExchangeRateArgs.model_validate({"from": "CHF", "to": "EUR", "amount": "84.00"}), Ctx())
    Ctx.today = TODAY
    late = exchange_rate(ExchangeRateArgs.model_validate({"from": "CHF", "to": "EUR", "amount": "84.00"}), Ctx())
    assert early["effective_date"] <= "2026-01-15" < late["effective_date"]


# ----------------------------------------------------------------- 7. walk X1


def test_a_figure_written_as_a_recent_day_before_the_thing_bought_is_asked_never_an_amount():
    plan = _offered("again: 16.10 coffee + sandwich at the station 185 CZK, and bus back 27,00 EUR", **on(TRIP))
    assert plan.acts == []


@pytest.mark.parametrize("text", ["coffee 16.10", "16.10 lunch 45,00", "lunch 16.10 on 14.10"])
def test_a_figure_after_the_thing_or_beside_a_price_of_its_own_is_read_as_it_was(text):
    [plan] = conversation([text], **on(TRIP))
    assert len([a for a in plan.acts if a.act == "add_line"]) == 1


def test_offers_in_two_currencies_wait_for_one_yes():
    plan = _yes("taxi 450 CZK on monday and bus 25 USD on tuesday", "yes, add both")
    assert sorted(a.args.get("currency") for a in plan.acts) == ["CZK", "USD"]


def test_a_message_not_understood_keeps_the_offer_and_says_so():
    first = _offered(TOLD, **on(TRIP))
    pending = {**first.pending.model_dump(mode="json"), "message": TOLD}
    from dataclasses import replace

    from conversations.core.plan import parse_model_answer
    from expenses.interpreter import interpret
    from tests.test_interpreter import request

    plan = parse_model_answer(interpret(replace(request("yes for the hotel. checkout is not separate cost", **on(TRIP)),
                                                pending=pending)))
    assert plan.acts == [] and plan.pending is not None and plan.pending.about == TOLD
    assert any("still waits" in a.text for a in plan.answers)


def test_the_server_keeps_the_message_a_question_asked_again_quotes():
    from conversations.turns.messages import kept_message

    assert kept_message(TOLD, "hmm what", {"message": TOLD}) == TOLD
    assert kept_message(None, "hmm what", {"message": TOLD}) == "hmm what"
    assert kept_message("taxi", "the taxi 20", {"message": TOLD}) == "the taxi 20"  # words of this message: this one


@pytest.mark.parametrize("text", ["di taxi vom hotel zum kunden 38,50", "Sam and I had dinner 84.50", "Mi taxi al aeropuerto 35",
                                  "Po konferencji kolacja 120", "Taxi 25 to the office, lunch 14. Sam got the coffee 4"])
def test_a_short_day_name_or_a_name_heading_an_undated_line_is_asked(text):
    [plan] = conversation([text], **on(TRIP))
    assert plan.acts == []


@pytest.mark.parametrize("said", [
    "tak, czekaj", "si, aspetta", "Da fehlt noch das Trinkgeld", "Ich rechne selbst um und sage dir den Betrag", "tak",
    "ja, außer dem Mittagessen", "yes 1", "yes, 1", "ja passt, umrechnen, das Mittagessen hat der Kunde bezahlt",
    "si c'est le taux officiel", "prima controllo il cambio", "omregn til kursen på kvitteringen",
])
def test_an_answer_that_says_more_than_yes_adds_nothing(said):
    assert _yes(TOLD, said).acts == []


@pytest.mark.parametrize("text", [
    "Abendessen 80 (hat der Kunde bezahlt) und dann einreichen",
    "Taxi 45 und Abendessen 80 privat, dann einreichen",
    "lunch 18, jantar 40 pago pelo cliente, e depois submete",
    "taxi 25 en lunch 14 heeft de klant betaald",
    "taxi 30, lunch 25 - my boss picked up the lunch",
    "taxi 30 and lunch 25; she paid",
])
def test_a_remark_that_someone_else_paid_or_it_was_private_beside_its_price_is_asked(text):
    [plan] = conversation([text], **on(TRIP))
    assert plan.acts == []


def test_a_word_of_the_request_in_another_language_is_never_who_was_paid():
    [plan] = conversation(["Taxi 45 hinzufügen"], **on(TRIP))
    assert [a.args.get("merchant") for a in plan.acts] == [None]


def test_a_changed_amount_in_another_currency_names_no_line_the_words_leave_in_doubt():
    from tests.test_families_13 import line
    from tests.test_families_17 import converted

    taxis = [{**line("ln_tax00001", "2026-12-01", "taxi", "159.51"), "description": "to the customer"},
             {**line("ln_tax00002", "2026-12-01", "taxi", "162.89")}]
    plan = converted("the taxi back to the hotel on tuesday was 214 USD, not 241", **on(taxis))
    assert plan.acts == [] and not any("change line 1" in a.text for a in plan.answers)
