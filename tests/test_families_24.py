"""Families of the seventeenth round (issue 19), with sentences of our own: a claim opened with its currency said
before its title ("open a claim in USD: …", "new claim in gbp: …", "w PLN", "v CZK"), titles in the quotes of other
languages („…“, »…«), request words of other languages ("nový", "uusi", "prosím"), a title in another script that
holds no English pronoun, "open one …, titled '…'", and a quoted name that holds no request ("call it "NYC Ad Week"")."""

from __future__ import annotations

import pytest

from conversations.core.plan import parse_model_answer
from tests.test_families_17 import NONE, acts, on_claim
from tests.test_walkthrough_families import conversation

# ----------------------------------------------------------------- 1. opening a claim


@pytest.mark.parametrize(("text", "title", "currency"), [
    ("open a claim in USD: Tokyo partner summit May", "Tokyo partner summit May", "USD"),
    ("new claim in gbp: London Q3 planning", "London Q3 planning", "GBP"),
    ('hey! new claim in CAD pls — call it "NYC Ad Week" 🙂', "NYC Ad Week", "CAD"),
    ("neuer claim bitte, titel „Zürich Kundentermin“", "Zürich Kundentermin", None),
    ("czesc, otworz nowy claim w PLN: 'Berlin wdrożenie marzec'", "Berlin wdrożenie marzec", "PLN"),
    ('Dobrý den, nový claim v CZK prosím, název "Vídeň + Budapešť distributoři"', "Vídeň + Budapešť distributoři", "CZK"),
    ("moi, uusi claim: Tukholma asiakastapaaminen", "Tukholma asiakastapaaminen", None),
    ("Could you open one in pounds sterling, titled 'Dublin workshop June'?", "Dublin workshop June", "GBP"),
    ("Hi there, I need to put together a claim for the client workshop I ran in Dublin this week. Could you open one "
     "in pounds sterling, titled 'Dublin workshop June'? I'll send the receipts through in a moment, bear with me.",
     "Dublin workshop June", "GBP"),
    ("nuova nota spese »Fiera Milano« per favore", "Fiera Milano", None),
    ("Bonjour, pouvez-vous créer une note de frais « Bruxelles réunion fournisseur » ? En euros, merci.",
     "Bruxelles réunion fournisseur", "EUR"),
    ('Hej, vil du oprette en ny udgiftsafregning i danske kroner? Titel: "København og Malmø kundebesøg"',
     "København og Malmø kundebesøg", "DKK"),
    ('Olá! Preciso de abrir uma despesa nova, o título é "Londres feira Maio". Em euros.', "Londres feira Maio", "EUR"),
    ("Hi there! I just got back from a client workshop in New York and I'd like to get my expenses in before the "
     'weekend so I don\'t forget half of it. Could you open a claim in US dollars and call it "NYC client workshop '
     'April"? I\'ll send the details over in a sec, there are quite a few.', "NYC client workshop April", "USD"),
])
def test_a_claim_opened_with_its_currency_before_its_title_or_in_other_quotes_gets_both(text, title, currency):
    [plan] = conversation([text], **NONE)
    [(act, args)] = [a for a in acts(plan) if a[0] == "open_claim"]
    assert args["title"] == title
    assert args.get("currency") == currency


@pytest.mark.parametrize("text", [
    "open a claim in Berlin: Q3 planning",  # a place, not a currency: which is the title is unsure
    "new claim in gbp: please add the taxi",
])
def test_a_claim_whose_title_is_unsure_is_asked_about(text):
    [plan] = conversation([text], **NONE)
    assert all(a[1].get("title") not in ("Berlin", "Please add the taxi", "Add the taxi") for a in acts(plan))


def test_beside_an_opening_words_about_its_currency_are_never_talk():
    [plan] = conversation(['open a claim "Berlin". I got back from New York, don\'t use euros for it'], **NONE)
    assert plan.acts == []  # a currency said with "not" is asked about, never left for the default


# ----------------------------------------------------------------- 3. take-backs and corrections that change nothing


@pytest.mark.parametrize("text", ["dinner 30 - no, bin the dinner", "lunch 14 - no, ditch that, i ate at home",
                                  "dinner 30 - no, hmm the dinner"])
def test_a_take_back_in_a_word_it_may_not_know_never_adds_the_line(text):
    [plan] = conversation([text], **on_claim("EUR"))
    retracted = {r.act for r in plan.retractions}
    assert [a for a in plan.acts if a.act == "add_line" and a.id not in retracted] == []


def test_a_correction_that_names_only_what_the_line_already_is_changes_nothing_and_is_asked():
    [plan] = conversation(["dinner 30 - no, the dinner"], **on_claim("EUR"))
    assert plan.acts == []


# ----------------------------------------------------------------- 4. nights written short, a stay told again


def test_nights_written_short_are_a_count_of_nights():
    [plan] = conversation(["Hotel Tue-Wed 2n 318"], **on_claim("EUR"))
    assert [(a.act, a.args.get("category"), a.args.get("amount"), a.args.get("date")) for a in plan.acts] == [
        ("add_line", "hotel", "318.00", "2026-12-01")]


def test_a_bare_stay_amount_just_after_a_stay_was_told_is_asked_not_added():
    from dataclasses import replace

    from expenses.interpreter import interpret
    from tests.test_interpreter import request

    told = request("Hotel 298.", **on_claim("EUR", [("2026-12-01", "", "hotel", "318.00")]))
    line_id = told.cases[0].view["lines"][0]["id"]
    recent = [{"case": "clm_TRIP0001", "event": "line_added", "data": {"line_id": line_id}}]
    plan = parse_model_answer(interpret(replace(told, recent=recent)))
    assert plan.acts == []


def test_a_bare_stay_amount_beside_a_stay_the_claim_had_before_is_a_new_line():
    [plan] = conversation(["hotel 180"], **on_claim("EUR", [("2026-12-01", "", "hotel", "318.00")]))
    assert [a.act for a in plan.acts] == ["add_line"]


# ----------------------------------------------------------------- 5. "X was A, not B" in other languages: asked

# (a first version read these by the old amount alone; a review showed it changing the wrong line whenever the words
# named another expense of the same category, another meal, another day, or "another" taxi; the reading was taken
# out: only what the English reading and its audit can tell apart is changed, the rest is asked)
FIXED = [("2026-12-01", "", "meals", "14.90"), ("2026-12-01", "Parking", "travel", "52.00"),
         ("2026-12-01", "", "travel", "148.90"), ("2026-12-01", "", "meals", "26.40"), ("2026-12-01", "", "taxi", "465.00"),
         ("2026-12-02", "", "travel", "236.00"), ("2026-12-02", "", "travel", "89.00")]


@pytest.mark.parametrize("text", [
    "il parcheggio era 48 non 89",  # parking said, the train's old amount
    "der Flug war 80, nicht 89", "der Flug war 48 nicht 52", "il volo era 48 non 52",
    "das Frühstück war 20 nicht 26,40",  # a breakfast said, a meal line of another name
    "de maaltijd is 30 en niet 52", "het eten was 30 en niet 52", "de parkeergarage was 40 en niet 148,90",
    "ein weiteres Taxi war 40, nicht 465", "un altro taxi era 40 non 465", "nog een taxi was 40 en niet 465",
    "encore un taxi, c'était 40 et pas 465", "le dîner d'hier, c'était 20 et pas 26,40",
    "mist, rückfahrt di war 129,90 nicht 148,90 (sparpreis)", "paluu oli itse asiassa 198,00€ ei 236 (oli tarjous)",
])
def test_a_correction_in_another_language_never_changes_a_line_its_words_may_not_name(text):
    [plan] = conversation([text], **on_claim("EUR", FIXED))
    assert [a for a in plan.acts if a.act == "update_line"] == []


def test_a_correction_in_french_read_as_english_changes_the_line_its_kind_and_old_amount_name():
    [plan] = conversation(["Petite erreur de ma part : le taxi, c'était 21,60 et pas 465"], **on_claim("EUR", FIXED))
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plan.acts] == [("update_line", 5, "21.60")]


# ----------------------------------------------------------------- 6. pasted rows, store numbers, a stay in a day's sentence

STATEMENT = ("OCT 06  VIA RAIL CANADA TORONTO ON         142.35\nOCT 06  TIM HORTONS #4412 MONTREAL QC        6.85\n"
             "OCT 06  UBER *TRIP HELP.UBER.COM            19.40")


def test_a_store_number_is_never_a_price():
    [plan] = conversation([STATEMENT], **on_claim("CAD"))
    assert sorted(a.args["amount"] for a in plan.acts) == ["142.35", "19.40", "6.85"]


def test_a_pasted_row_taken_back_by_its_merchant_is_retracted():
    [plan] = conversation([STATEMENT + "\n\nskip the tim hortons one, that was personal."], **on_claim("CAD"))
    retracted = {r.act for r in plan.retractions}
    assert sorted(a.args["amount"] for a in plan.acts if a.id not in retracted) == ["142.35", "19.40"]


@pytest.mark.parametrize("text", [
    "The wednesday 2 I take the flight Madrid-Lisbon 132,40€, the hotel is one night 119€ and dinner alone 28,50€.",
    "Wednesday I go with the train Bologna-Munich 89,90 euro, the hotel Leonardo 1 night 119 euro, and a pizza 19,50.",
])
def test_a_stay_in_a_sentence_that_opens_with_its_day_begins_that_night(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert [a.args.get("date") for a in plan.acts if a.args.get("category") == "hotel"] == ["2026-12-02"]


def test_a_stay_in_a_sentence_whose_day_belongs_to_another_expense_is_asked():
    [plan] = conversation(["hotel 2 nights 240, and the lunch at the show on tuesday 22.40"], **on_claim("EUR"))
    assert not [a for a in plan.acts if a.args.get("category") == "hotel" and a.args.get("date")]


def test_a_pasted_stay_told_again_and_asked_about_waits_with_it():
    text = (STATEMENT + "\nOCT 08  HOTEL LE GERMAIN MONTREAL QC       398.00\n\n"
            "the hotel is 2 nights (6th + 7th), 199/night, not sure which day to put")
    [plan] = conversation([text], **on_claim("CAD"))
    assert not [a for a in plan.acts if a.args.get("category") == "hotel"]


# ----------------------------------------------------------------- 7. days heading lines and sentences


def test_a_day_heading_each_line_dates_that_lines_expenses():
    [plan] = conversation(["1.12 - train 169 zł, taxi from station to hotel 38 zł, dinner 94 zł, hotel 2 nights 420 zł "
                           "each one.\n2.12 - lunch 52 zł, taxi to shipyard and back 62 zł together"], **on_claim("PLN"))
    assert [(a.args["amount"], a.args.get("date")) for a in plan.acts] == [
        ("169.00", "2026-12-01"), ("38.00", "2026-12-01"), ("94.00", "2026-12-01"), ("840.00", "2026-12-01"),
        ("52.00", "2026-12-02"), ("62.00", "2026-12-02")]


def test_a_day_told_in_words_heads_the_sentences_after_it():
    [plan] = conversation(["Right, day one, Monday. Flew easyJet to Edinburgh, £96.40. Tram into town £7.50. Dinner on "
                           "my own at a pub round the corner, £24.60."], **on_claim("GBP"))
    assert [(a.args["amount"], a.args.get("date")) for a in plan.acts] == [
        ("96.40", "2026-11-30"), ("7.50", "2026-11-30"), ("24.60", "2026-11-30")]


@pytest.mark.parametrize("text", ["Motel One one night for 2 at 89", "Hotel 1 room for 2 at 140 per night, 1 night",
                                  "Taxi 1 ride for 2 at 30", "Dinner 4 people for 3 courses at 120"])
def test_a_count_for_people_is_never_a_product_of_the_price(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert all(a.args.get("amount") not in ("178.00", "280.00", "60.00", "360.00") for a in plan.acts)


# ----------------------------------------------------------------- 8. bullets, and a thing it cannot place taken back


def test_a_bulleted_line_never_joins_the_line_before_and_an_unplaced_thing_taken_back_is_left_out():
    [plan] = conversation(["- 1/12 train RTD-AMS 17.20\n- 1/12 lunch schiphol 16.40\n- 1/12 safety boots 89.00 -- no, "
                           "drop boots, ordering via stores"], **on_claim("EUR"))
    retracted = {r.act for r in plan.retractions}
    assert sorted(a.args["amount"] for a in plan.acts if a.id not in retracted) == ["16.40", "17.20"]


@pytest.mark.parametrize("text", ["safety boots 89.00 -- no, ignore the taxi", "safety boots 89.00 -- no, drop boots. taxi 20"])
def test_an_unplaced_thing_not_taken_back_by_its_own_words_is_still_asked(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert plan.acts == [] or all(a.args.get("amount") != "89.00" for a in plan.acts)


# ----------------------------------------------------------------- 9. from walk Y1


def test_we_start_is_no_claim_opened():
    [plan] = conversation(["OK so we start. Monday 30 November: the flight with easyJet, 186,40 €."], **on_claim("EUR"))
    assert [(a.act, a.args.get("amount")) for a in plan.acts] == [("add_line", "186.40")]


@pytest.mark.parametrize(("said", "added"), [("Yes, for the three of them.", 3), ("Yes, for the two of them.", 0)])
def test_a_yes_for_the_three_of_them_adds_the_three_offered(said, added):
    from tests.test_families_21 import _yes

    plan = _yes("Tuesday: taxi 14.20 USD, lunch 9.60 USD, and a taxi back to the hotel 15.80 USD.", said)
    assert [a.act for a in plan.acts] == ["add_line"] * added


# ----------------------------------------------------------------- 10. a day told by what it was, someone else's meal


def test_a_sentence_telling_the_days_event_dates_what_follows_and_a_meal_someone_else_paid_is_left_out():
    [plan] = conversation(["Tuesday was the workshop itself. Lunch was catered by the client so nothing there. I grabbed "
                           "a coffee and a bagel on the way in, 11.25."], **on_claim("EUR"))
    assert [(a.args["amount"], a.args.get("date")) for a in plan.acts] == [("11.25", "2026-12-01")]


@pytest.mark.parametrize("text", ["lunch 20, coffee 5. Lunch was catered by the client so nothing there.",
                                  "Tuesday was the day of the taxi. lunch 12"])
def test_a_meal_said_to_be_someone_elses_beside_that_meal_or_a_day_told_by_a_kind_is_asked(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert plan.acts == []


def test_a_route_between_two_places_and_how_it_was_paid_are_one_expense():
    [plan] = conversation(["Monday 30 November, return flight Lyon - Manchester with easyJet, 186,40 € (paid in euros). "
                           "Taxi to the office, 18,90 €."], **on_claim("EUR"))
    assert [(a.args["amount"], a.args.get("category"), a.args.get("date")) for a in plan.acts] == [
        ("186.40", "travel", "2026-11-30")]  # (the taxi's day, not said, is asked)



# ----------------------------------------------------------------- 11. from the round's review


@pytest.mark.parametrize("text", ["dinner 30, taxi 14 - no, bin the dinner", "lunch 14, taxi 20 - ditch the lunch",
                                  "Dinner 30. Taxi 14. Bin the dinner, it was personal."])
def test_bin_or_ditch_takes_back_the_thing_it_names(text):
    [plan] = conversation([text], **on_claim("EUR"))
    retracted = {r.act for r in plan.retractions}
    assert all(a.args.get("category") != "meals" for a in plan.acts if a.id not in retracted)


@pytest.mark.parametrize("text", ["Saturday I came back, taxi 30, the hotel 3 nights 360.",
                                  "Friday I flew home 140 euro, the hotel Leonardo 3 nights 360 euro.",
                                  "Wednesday train back to Milan 89, the hotel before that 2 nights 238."])
def test_a_stay_in_a_sentence_of_leaving_never_takes_that_day(text):
    [plan] = conversation([text], **on_claim("EUR"))
    assert not [a for a in plan.acts if a.args.get("category") == "hotel" and a.args.get("date")]


@pytest.mark.parametrize(("text", "title", "currency"), [
    ("neuer claim „Kundentermin O'Brien“", "Kundentermin O'Brien", None),
    ("neuer claim bitte, titel „McDonald's Kundentag“", "McDonald's Kundentag", None),
])
def test_an_apostrophe_inside_low_quotes_is_part_of_the_title(text, title, currency):
    [plan] = conversation([text], **NONE)
    assert [(a.args["title"], a.args.get("currency")) for a in plan.acts] == [(title, currency)]


@pytest.mark.parametrize("text", ["nowy claim: Szkolenie w CAD Kraków", "nový claim: Školení v CAD Brno",
                                  "new claim in CAD please, hotel in Montreal"])
def test_a_code_inside_a_title_or_an_expense_after_the_request_is_never_taken(text):
    [plan] = conversation([text], **NONE)
    assert all(a.args.get("currency") != "CAD" and not str(a.args.get("title", "")).startswith("Hotel")
               for a in plan.acts) or plan.acts == []


def test_a_day_before_a_colon_after_words_that_tell_nothing_dates_every_expense_after_it():
    [plan] = conversation(["OK, again then, with your euro amounts. On 1 December: taxi hotel to client site 16.49 EUR; "
                           "lunch 11.15 EUR; taxi back to the hotel 18.35 EUR."], **on_claim("EUR"))
    assert [(a.args["amount"], a.args.get("date")) for a in plan.acts] == [
        ("16.49", "2026-12-01"), ("11.15", "2026-12-01"), ("18.35", "2026-12-01")]
