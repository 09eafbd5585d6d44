"""Families of the tenth round (issue 19), with sentences of our own: a stay's nights corrected; a line removed with
the reason around it; quoted titles kept whole; dotted and slashed days read as the writer's country writes them; a
nightly rate never taken for a stay; a take-back that names nothing told; carriers inside a run of capitals; numbers
the engine reads as the interpreter does.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from conversations.core.plan import ReadBatch
from registries import evidence_numbers, quantity_products
from tests.test_families_13 import line, on
from tests.test_interpreter import _round, answer, claim, plan_of
from tests.test_walkthrough_families import added, conversation

TODAY = "2026-12-03"  # a Thursday

STAY = [line("ln_htl00001", "2026-11-30", "hotel", "267.00") | {"merchant": "Motel One", "quantity": 3},
        line("ln_dnr00001", "2026-12-01", "meals", "38.50", "dinner") | {"merchant": "Augustiner"}]


def edits(plan) -> list[dict]:
    return [dict(a.args) for a in plan.acts if a.act == "update_line"]


def removals(plan) -> list[dict]:
    return [dict(a.args) for a in plan.acts if a.act == "remove_line"]


def answers(plan) -> str:
    return " ".join(a.text for a in plan.answers)


# ----------------------------------------------------------------- 1. a stay's nights corrected


@pytest.mark.parametrize("text", [
    "oops motel one was 2 nights not 3 so 178",
    "no sorry, it was only 2 nights, not 3, so 178",
    "Correction: the Motel One row should be 2 nights only, 178.00 (the third night was refunded).",
    "the Motel One was 2 nights at 89, so 178.00, not 267.00.",
    "Sorry, mistake — it was 2 nights not 3, check-out was 2.12. So 178 EUR.",
])
def test_a_stay_corrected_to_fewer_nights_changes_its_count_and_its_sum(text) -> None:
    [plan] = conversation([text], **on(STAY))
    assert edits(plan) == [{"line": 1, "quantity": 2, "amount": "178.00"}]


def test_a_nights_correction_beside_another_expense_does_both_when_both_read() -> None:
    [plan] = conversation(["motel one was 2 nights not 3, so 178. also a taxi to the station wed 27.60"], **on(STAY))
    assert edits(plan) == [{"line": 1, "quantity": 2, "amount": "178.00"}]
    assert [(a["amount"], a["category"]) for a in added(plan)] == [("27.60", "taxi")]


def test_a_nights_correction_beside_an_expense_it_cannot_read_changes_nothing() -> None:
    [plan] = conversation(["it was only two nights not three, so 178. And on Wednesday a black cab to the venue, 24, "
                           "and one back, 27.50, I think."], **on(STAY))
    assert not plan.acts
    assert "not made it yet" in answers(plan)


def test_a_nights_correction_without_its_sum_offers_the_sum_and_changes_nothing() -> None:
    [plan] = conversation(["the hotel was 2 nights not 3"], **on(STAY))
    assert not plan.acts
    assert "178.00" in answers(plan)  # 267 for 3 nights: 89 a night


def test_a_rate_said_beside_the_nights_offers_the_product_and_changes_nothing() -> None:
    one_night = [line("ln_htl00001", "2026-11-30", "hotel", "172.00") | {"merchant": "Novotel"}]
    [plan] = conversation(["ah and the hotel was 2 nights, the 172 is for each night"], **on(one_night))
    assert not plan.acts
    assert "344.00" in answers(plan)


def test_a_question_about_nights_is_no_correction() -> None:
    first = answer("how much is 3 nights at 165?", **on(STAY))
    assert isinstance(first, ReadBatch)
    assert plan_of("how much is 3 nights at 165?", rounds=[_round(first)], **on(STAY)).acts == []


def test_a_nights_correction_of_a_count_the_line_does_not_have_is_not_made() -> None:
    [plan] = conversation(["the motel one was 2 nights not 4, so 178"], **on(STAY))
    assert not edits(plan)


# ----------------------------------------------------------------- 2. a line removed, the reason around it

SPENT = [line("ln_nord0001", "2026-12-01", "meals", "14.90", "lunch") | {"merchant": "Nordsee"},
         line("ln_bewl0001", "2026-12-01", "meals", "12.60") | {"merchant": "Bewleys Cafe"},
         line("ln_park0001", "2026-12-02", "travel", "18.00", "parking at the Messe"),
         line("ln_lutt0001", "2026-12-02", "meals", "88.00", "dinner") | {"merchant": "Lutter & Wegner"},
         line("ln_lnch0001", "2026-12-02", "meals", "28.40", "lunch"),
         line("ln_fly00001", "2026-12-01", "travel", "148.00") | {"merchant": "British Airways"}]


@pytest.mark.parametrize(("text", "ordinal"), [
    ("remove nordsee pls colleague paid", 1),
    ("Also please delete the Bewleys line, he says it was a personal coffee.", 2),
    ("scratch the parking, the customer has paid it for me", 3),
    ("and the dinner at Lutter & Wegner has to go, the client picked up the bill in the end", 4),
    ("and the lunch of 28,40 was personal, please take it out", 5),
])
def test_a_line_named_with_the_reason_it_goes_is_removed_on_a_card(text, ordinal) -> None:
    [plan] = conversation([text], **on(SPENT))
    assert removals(plan) == [{"line": ordinal}]


@pytest.mark.parametrize("text", [
    "remove the tram tickets the client paid those",  # no line is told as tram tickets
    "drop the Lothian Buses line, I used a day pass",  # a merchant no line has
    "please remove the sandwich, it is not necessary to claim it",
    "don't remove the parking, I paid it myself",
    "the taxi was from the airport to the hotel because the S-Bahn was on strike",
    "taxi drop off at the hotel 20",
])
def test_words_that_name_no_line_or_keep_it_remove_nothing(text) -> None:
    [plan] = conversation([text], **on(SPENT))
    assert not removals(plan) or all(a.outcome != "executed" for a in plan.acts if a.act == "remove_line")
    assert not any(r.get("line") == 6 for r in removals(plan))


# ----------------------------------------------------------------- 3. titles


@pytest.mark.parametrize(("text", "title", "currency"), [
    ('Open a claim "Dublin customer summit - S. Byrne"', "Dublin customer summit - S. Byrne", "EUR"),
    ('Please open claim "Berlin IT fair" in EUR', "Berlin IT fair", "EUR"),
    ('claim "Stockholm datacenter" SEK', "Stockholm datacenter", "SEK"),
    ('Please open "Basel pharma audit" in CHF', "Basel pharma audit", "CHF"),
])
def test_a_quoted_title_is_the_title_whole(text, title, currency) -> None:
    [plan] = conversation([text], cases=(), active=None, today=TODAY)
    assert [(a.act, a.args.get("title"), a.args.get("currency", "EUR")) for a in plan.acts] == [
        ("open_claim", title, currency)]


def test_a_reason_to_hurry_is_no_take_back() -> None:
    [plan] = conversation(["Right, so I've just got back from London and I'd better get this done before I forget "
                           'everything. Can you open a claim called "London board offsite" in pounds?'],
                          cases=(), active=None, today=TODAY)
    assert [(a.act, a.args.get("currency")) for a in plan.acts] == [("open_claim", "GBP")]


# ----------------------------------------------------------------- 4. days as the writer's country writes them


def test_dotted_days_that_close_with_a_dot_date_every_part() -> None:
    [plan] = conversation(["1.12. train Poznań–Warszawa 149, 1.12. taxi from station 42"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("149.00", "2026-12-01"), ("42.00", "2026-12-01")]


def test_a_slashed_day_is_day_first_on_a_european_claim_and_asked_on_an_american_one() -> None:
    [plan] = conversation(["Flight back 2/12 129,80 € and a metro ticket 4,50 €"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("129.80", "2026-12-02"), ("4.50", "2026-12-02")]
    boston = claim("clm_BOST0001", "Boston expo", [], currency="USD")
    plan = plan_of("taxi 11/10 20", cases=(boston,), active="clm_BOST0001", today="2026-11-13")
    assert not plan.acts  # October 11 or November 10: asked


def test_a_month_abbreviation_ends_no_sentence() -> None:
    [plan] = conversation(["3 dec. Ryanair flight 96,20€ and bus from Charleroi 17€"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("96.20", "2026-12-03"), ("17.00", "2026-12-03")]


def test_a_slashed_day_before_a_price_with_a_decimal_comma_is_no_thousands() -> None:
    assert Decimal("129.80") in evidence_numbers("Flight back 12/11 129,80 €")
    assert Decimal("11129") not in evidence_numbers("Flight back 12/11 129,80 €")


def test_a_stay_from_a_slashed_day_at_a_nightly_rate_is_its_product() -> None:
    [found] = quantity_products("Hotel Scandic 3 nights from 30/11, 139 per night")
    assert found.value == Decimal("417")


# ----------------------------------------------------------------- 5. rates, policy, take-backs, names


def test_a_nightly_rate_said_of_a_stay_on_the_claim_is_no_new_sum() -> None:
    rome = on([line("ln_art00001", "2026-11-30", "hotel", "410.00") | {"merchant": "Hotel Artemide"}])
    message = "how much is the hotel limit for one night? the Artemide was 205 per night"
    first = answer(message, **rome)
    assert isinstance(first, ReadBatch) and [r.tool for r in first.reads] == ["lookup_policy"]
    plan = plan_of(message, rounds=[_round(first)], **rome)
    assert not edits(plan)
    assert "180" in answers(plan)


def test_a_take_back_that_names_nothing_told_takes_nothing_back() -> None:
    [plan] = conversation(["lunch 14,50 and taxi 22, oh and forget the snacks"], **on([]))
    assert not plan.acts and not plan.retractions


def test_nights_in_other_languages_count_the_stay() -> None:
    [plan] = conversation(["1/12 hotel Motel One 2 notti 198,00"], **on([]))
    assert [(a["amount"], a.get("quantity")) for a in added(plan)] == [("198.00", 2)]


def test_a_carrier_inside_a_run_of_capitals_is_the_carrier() -> None:
    [plan] = conversation(["Ferry Viking Line Stockholm-Helsinki 30/11, 96 euro"], **on([]))
    assert [a.get("merchant") for a in added(plan)] == ["Viking Line"]


def test_an_unknown_word_between_a_meal_and_its_day_is_where_it_was_eaten() -> None:
    [plan] = conversation(["lunch nordsee wed 14.90"], **on([]))
    assert [(a.get("merchant"), a.get("description")) for a in added(plan)] == [("Nordsee", "lunch")]


# ----------------------------------------------------------------- 6. a fix beside another request; lists; the walk

BRUSSELS = [line("ln_fly00001", "2026-12-01", "travel", "96.20", "flight") | {"merchant": "Ryanair"},
            line("ln_bus00001", "2026-12-01", "travel", "17.00", "bus from Charleroi"),
            line("ln_htl00001", "2026-12-01", "hotel", "168.00") | {"merchant": "Hotel Ibis"},
            line("ln_prt00001", "2026-12-02", "meals", "18.40", "lunch") | {"merchant": "Pret"}]


def test_a_correction_beside_a_new_expense_does_both() -> None:
    [plan] = conversation(["the bus was 17,50 not 17. And dinner on 2/12 at Chez Léon 42,80"], **on(BRUSSELS))
    assert edits(plan) == [{"line": 2, "amount": "17.50"}]
    assert [(a["amount"], a["date"], a.get("merchant")) for a in added(plan)] == [("42.80", "2026-12-02", "Chez Léon")]


def test_a_removal_beside_a_new_expense_does_both_the_removal_on_a_card() -> None:
    [plan] = conversation(["drop the pret lunch. Dinner on 2/12 at Chez Léon 42,80"], **on(BRUSSELS))
    assert removals(plan) == [{"line": 4}]
    assert [a["amount"] for a in added(plan)] == ["42.80"]


def test_an_arrow_from_the_old_amount_to_the_new_one_corrects_the_line() -> None:
    [plan] = conversation(["pret 18.40 -> 14.80"], **on(BRUSSELS))
    assert edits(plan) == [{"line": 4, "amount": "14.80"}]


def test_a_word_of_a_name_beside_a_price_is_no_currency() -> None:
    from registries.currencies import currency_mentions

    assert currency_mentions("dinner at Chez Léon 42,80") == []
    assert [m.codes for m in currency_mentions("paid 30 Swiss Francs")] == [frozenset({"CHF"})]


@pytest.mark.parametrize(("text", "amount", "day"), [
    ("taxi from the airport 23.11 18,50", "18.50", "2026-11-23"),
    ("flight MUC-VIE 30.11 was 289.40", "289.40", "2026-11-30"),
    ("hotel Am Prater 2 nights 23.-25.11, 135 per night", "270.00", "2026-11-23"),
    ("add hotel Am Prater, 2 nights from 23/11, 135 a night", "270.00", "2026-11-23"),
    ("add hotel Am Prater 270 total for 2 nights, check-in 23/11", "270.00", "2026-11-23"),
])
def test_a_dotted_or_slashed_day_beside_its_price_is_the_day(text, amount, day) -> None:
    [plan] = conversation([text], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [(amount, day)]
    assert "= " not in answers(plan)  # "23/11" is no sum to work out


def test_a_count_before_a_list_is_as_many_as_the_list() -> None:
    [plan] = conversation(["ok just these two then: train 2/12 22.00, dinner 2/12 38.50"], **on([]))
    assert [a["amount"] for a in added(plan)] == ["22.00", "38.50"]


def test_an_expense_with_no_day_beside_a_day_said_for_nothing_else_is_asked() -> None:
    [plan] = conversation(["135 is the price per night, 23.11 is the check-in date. taxi was 18,50"], **on([]))
    assert not added(plan)


def test_a_claim_asked_for_after_a_reason_and_an_ellipsis_is_opened() -> None:
    [plan] = conversation(["hi, need to file expenses for my vienna trade fair trip… can you open a new claim called "
                           "Vienna trade fair?"], cases=(), active=None, today=TODAY)
    assert [(a.act, a.args.get("title")) for a in plan.acts] == [("open_claim", "Vienna trade fair")]


def test_a_yes_at_the_head_of_an_expense_is_no_description_of_it() -> None:
    _, plan = conversation(["yes add the border shop at 13.05 EUR", "other"], **on([]))
    assert [a.get("description") for a in added(plan)] in ([], ["border shop"])


def test_a_nights_offer_answered_with_its_sum_changes_the_stay() -> None:
    stay = on([line("ln_htl00001", "2026-11-24", "hotel", "417.00") | {"merchant": "Hotel Hamburg", "quantity": 3}])
    asked, done = conversation(["sorry, hotel was only 2 nights not 3", "yes 278,00"], **stay)
    assert not asked.acts and "278.00" in answers(asked)
    assert edits(done) == [{"line": 1, "quantity": 2, "amount": "278.00"}]


def test_a_dotted_day_after_from_is_the_stays_first_day() -> None:
    [plan] = conversation(["add hotel Hamburg 3 nights 139,00 per night from 24.11."], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("417.00", "2026-11-24")]


def test_a_fix_beside_a_redirect_or_a_change_of_the_rest_is_not_split() -> None:
    geneva = [line("ln_sbb00001", "2026-11-18", "travel", "88.00") | {"merchant": "SBB"},
              line("ln_uber0001", "2026-11-19", "other", "32.00") | {"merchant": "Uber"}]
    [plan] = conversation(['Line 2 is miscategorised: it is a taxi, not other. Merchant should read "Uber Geneva".'],
                          **on(geneva))
    assert all(a.args.get("merchant") in (None, "Uber Geneva") for a in plan.acts)


# ----------------------------------------------------------------- 7. the round's safety review: wrong commits it found

REVIEWED = [line("ln_mot00001", "2026-12-01", "hotel", "267.00") | {"merchant": "Motel One", "quantity": 3},
            line("ln_aug00001", "2026-12-02", "meals", "38.50", "dinner") | {"merchant": "Augustiner"},
            line("ln_nor00001", "2026-12-03", "meals", "14.90", "lunch") | {"merchant": "Nordsee"},
            line("ln_tax00001", "2026-12-04", "taxi", "32.00"),
            line("ln_ubr00001", "2026-12-02", "taxi", "18.40") | {"merchant": "Uber"}]


@pytest.mark.parametrize("text", [
    "remove the taxi, the uber was fine", "take the taxi off, not the uber", "remove the taxi. uber is fine.",
    "remove the lunch, not the dinner at augustiner", "nordsee lunch can stay, drop augustiner",
    "we can go over the augustiner dinner later", "the uber can go as a taxi", "the nordsee lunch must go through as meals",
    "erase the description on the nordsee line", "delete the note on the uber line",
    "remove the merchant name from the uber line", "remove augustiner from the description, it was dinner with the team",
    "take the tip out of the augustiner dinner", "take the tip off the augustiner bill",
])
def test_a_removal_never_lands_on_a_line_kept_or_only_part_of_one(text) -> None:
    [plan] = conversation([text], **on(REVIEWED))
    assert not [r for r in removals(plan) if r["line"] in (2, 3, 5)]


@pytest.mark.parametrize("text", [
    "then Leipzig: stayed 2 nights at Westin, 240 total", "I stayed 2 nights in Berlin at the Adlon, 410",
    "the second hotel is 2 nights, 190",
])
def test_a_new_stay_told_by_its_nights_never_corrects_the_one_on_the_claim(text) -> None:
    [plan] = conversation([text], **on(REVIEWED))
    assert not edits(plan)


@pytest.mark.parametrize("text", [
    "coffee 3.12 and cake 4,10", "coffee 3.12 and cake 4.10 eur", "snacks 1.12, water 2,50", "train 10.11 and bus 2,40",
    "parking 5.10 plus tip 1,50 €", "taxi 12.11 tip 2 eur",
])
def test_a_dotted_price_before_another_things_price_is_never_a_day(text) -> None:
    [plan] = conversation([text], **on([]))
    assert not [a for a in added(plan) if a.get("date") and a["date"] != TODAY]


def test_a_dotted_day_before_the_count_of_nights_is_the_stays_first_day() -> None:
    [plan] = conversation(["hotel ibis 2.12 2 nights 70 each"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("140.00", "2026-12-02")]


def test_a_nights_correction_told_with_who_stayed_or_the_weekday_of_check_out_is_read() -> None:
    [plan] = conversation(["Wait, she only stayed 2 nights, so 178"], **on(STAY))
    assert edits(plan) == [{"line": 1, "quantity": 2, "amount": "178.00"}]
    two = on([line("ln_htl00001", "2026-11-30", "hotel", "198.00")])
    asked, done = conversation(["The hotel was actually 3 nights, not 2, I only checked out on Thursday morning.",
                                "The invoice says 297.00 for the 3 nights."], **two)
    assert not asked.acts and "297.00" in answers(asked)
    assert edits(done) == [{"line": 1, "quantity": 3, "amount": "297.00"}]


def test_a_day_closed_by_its_dot_before_a_comma_is_the_day() -> None:
    [plan] = conversation(["Hotel Motel One 30.11., one night 89,00. Dinner the same evening 42,70"], **on([]))
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("89.00", "2026-11-30"), ("42.70", "2026-11-30")]


# ----------------------------------------------------------------- 8. holdout-14's unsafe items (read after its run)


@pytest.mark.parametrize("text", ["Oh and the hotel was 4 nights, not 3. 165 a night.",
                                  "actually it was 4 nights at the hotel not 3, same 89, i stayed thursday night too"])
def test_a_nights_correction_with_the_rate_offers_the_sum_and_adds_nothing(text) -> None:
    [plan] = conversation([text], **on(STAY))
    assert not plan.acts
    assert any(s in answers(plan) for s in ("660.00", "356.00"))


def test_expenses_after_a_question_for_the_title_are_never_the_title() -> None:
    asked, told = conversation(["New claim. EU summit Brussels.",
                                "Thalys Paris-Brux. Mon. 89. Hotel. Ibis Gare du Midi. 2 nights. 112 a night. From Mon."],
                               cases=(), active=None, today=TODAY)
    assert not [a for a in told.acts if a.act == "open_claim" and "Thalys" in str(a.args.get("title"))]


def test_belgian_and_greek_carriers_are_who_was_paid() -> None:
    [plan] = conversation(["SNCB train Brussels–Luxembourg 2.12. 48,20; Aegean flight back today 228.90"], **on([]))
    assert [a.get("merchant") for a in added(plan)] in (["SNCB", "Aegean"], [])


def test_a_removal_of_two_things_is_left_to_the_reading_that_removes_several() -> None:
    lines = [line("ln_cab00001", "2026-11-23", "taxi", "12.50") | {"merchant": "Cabify"},
             line("ln_dnr00001", "2026-11-24", "meals", "38.40", "dinner") | {"merchant": "Time Out"}]
    [plan] = conversation(["delete the cabify and the dinner"], **on(lines))
    assert sorted(r["line"] for r in removals(plan)) == [1, 2]
