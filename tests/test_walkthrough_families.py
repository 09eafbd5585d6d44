"""The families behind a new user's rephrasings in the browser (issue 19, the Warsaw walk-through), with sentences of our own.

Each family once made the user say the same thing again: an answer to the interpreter's own question not taken, a
reason or some context beside a clear request, a merchant named and dropped, a hotel stay told by its nights, a
pasted statement with a filter, a stray question after a success, a return trip split at "and", "what is still
missing?" answered with policy text, a merchant corrected as "X, not Y". The fail-closed property still holds:
what carries meaning and is not placed is asked about (tests/test_fail_closed.py).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from conversations.core.context import RoundRecord
from conversations.core.plan import ReadBatch, UserTurnPlan, parse_model_answer
from conversations.core.reducer import validate_plan
from expenses.interpreter import interpret
from expenses.policies import claim_review
from registries import get_registry
from tests.test_interpreter import claim, plan_of, request

TODAY = "2026-12-04"  # a Friday
LYON = claim("clm_LYON0001", "Lyon partner visit", [])
LYON_FULL = claim("clm_LYON0001", "Lyon partner visit", [
    ("2026-11-30", "SNCF", "travel", "89.00"),
    ("2026-12-01", "Le Bouchon", "meals", "52.00"),
    ("2026-12-01", "Paul", "meals", "7.40"),
    ("2026-12-02", "G7", "taxi", "23.00"),
])
ON_LYON = {"cases": (LYON,), "active": "clm_LYON0001", "today": TODAY}
ON_FULL = {"cases": (LYON_FULL,), "active": "clm_LYON0001", "today": TODAY}


def conversation(messages: list[str], **kwargs: Any) -> list[UserTurnPlan]:
    """Each message's plan, the question one reply leaves open handed to the next (as the server keeps it)."""
    plans, pending = [], None
    for message in messages:
        parsed = parse_model_answer(interpret(replace(request(message, **kwargs), pending=pending)))
        assert isinstance(parsed, UserTurnPlan), parsed
        validate_plan(parsed, get_registry())
        plans.append(parsed)
        pending = {**parsed.pending.model_dump(mode="json"), "message": message} if parsed.pending else None
    return plans


def lyon_with(lines: list[dict[str, Any]]) -> Any:
    """The Lyon claim with these lines as its state holds them (ids, descriptions and all)."""
    from conversations.core.context import CaseSummary
    from expenses.domain import project, summarize
    from registries import CaseSnapshot

    state = {"title": "Lyon partner visit", "currency": "EUR", "line_counter": len(lines), "lines": lines}
    snap = CaseSnapshot(id="clm_LYON0001", kind="expense_claim", owner_id=1, title="Lyon partner visit",
                        status="draft", revision=4, state=state)
    return CaseSummary(id=snap.id, kind=snap.kind, title=snap.title, status="draft", revision=4,
                       summary=summarize(snap), view=project(snap))


def added(plan: UserTurnPlan) -> list[dict[str, Any]]:
    return [dict(a.args) for a in plan.acts if a.act == "add_line"]


# ----------------------------------------------------------------- 1. answers to its own questions


def test_a_plain_kind_answer_completes_the_line_and_keeps_the_merchant_of_the_earlier_words():
    first, second = conversation(["bike hire with Velov, 12.00 eur, mon 30 nov", "other, its the bikes"], **ON_LYON)
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["category"]
    [line] = added(second)
    assert (line["amount"], line["category"], line["date"], line.get("merchant")) == (
        "12.00", "other", "2026-11-30", "Velov")


def test_a_plain_day_answer_completes_a_line_told_with_two_days():
    first, second = conversation(["parking 30 eur on 30 nov and 1 dec", "30 nov"], **ON_LYON)
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["date"]
    assert [(a["amount"], a["date"]) for a in added(second)] == [("30.00", "2026-11-30")]
    assert second.acts[0].earlier_evidence


def test_the_first_of_the_days_asked_about_is_a_plain_answer():
    _, second = conversation(["parking 30 eur on 30 nov and 1 dec", "the first one"], **ON_LYON)
    assert [(a["amount"], a["date"]) for a in added(second)] == [("30.00", "2026-11-30")]


def test_new_or_correction_asked_then_a_plain_new_adds_it():
    story = "tuesday night i had dinner with the partners at Le Bouchon again, the bill came to 52 eur"
    first, second = conversation([story, "that's a separate one, add it"], **ON_FULL)
    assert first.acts == [] and first.pending is not None and first.pending.missing == ["new_line"]
    [line] = added(second)
    assert (line["amount"], line["category"], line["date"]) == ("52.00", "meals", "2026-12-01")


def test_an_answer_that_points_at_an_existing_line_is_no_new_one():
    story = "tuesday night i had dinner with the partners at Le Bouchon again, the bill came to 52 eur"
    _, second = conversation([story, "no, the same one, not a new one"], **ON_FULL)
    assert second.acts == []


# ----------------------------------------------------------------- 2. context and reasons beside a clear request


def test_words_about_the_trip_before_opening_a_claim_are_talk():
    plan = plan_of('morning! got some receipts from my lyon visit (mon-wed, partner meetings). pls open a claim '
                   '"Lyon partner visit" in eur', cases=(), active=None, today=TODAY)
    assert [(a.act, a.args.get("title"), a.args.get("currency")) for a in plan.acts] == [
        ("open_claim", "Lyon partner visit", "EUR")]


def test_a_reason_beside_a_removal_is_talk():
    plan = plan_of("take the paul sandwich off, i'll cover that one myself", **ON_FULL)
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 3)]


def test_a_reason_that_makes_an_addition_personal_is_still_asked_about():
    plan = plan_of("add the museum 14 eur and the gift shop 20 eur, i'll pay that one myself", **ON_LYON)
    assert plan.acts == [] or all(a.args.get("amount") != "20.00" for a in plan.acts if a.act == "add_line")


def test_an_expense_named_then_paid_in_a_later_clause_is_one_line():
    [line] = added(plan_of("station parking in lyon, paid it on wednesday when i got back, 36 eur", **ON_LYON))
    assert (line["amount"], line["category"], line["date"]) == ("36.00", "travel", "2026-12-02")


# ----------------------------------------------------------------- 3. merchants plainly named


def test_a_venue_in_lower_case_and_an_airline_in_capitals_are_merchants():
    [lunch] = added(plan_of("lunch at the gerland canteen 11.80 eur on 1 dec", **ON_LYON))
    assert lunch.get("merchant") == "Gerland canteen"
    [flight] = added(plan_of("flight home with KLM, 143.20 eur, wed 2 dec", **ON_LYON))
    assert flight.get("merchant") == "KLM"


# ----------------------------------------------------------------- 4. hotel stays


def test_a_stay_by_nights_and_price_per_night_is_one_line_dated_at_check_in_or_one_question():
    first, second = conversation(["hotel was the ibis part-dieu, 2 nights (mon and tue night), 97 eur per night",
                                  "mon"], **ON_LYON)
    lines = added(first) or added(second)  # one line, or one question whose plain answer (the first night) works
    assert [(a["amount"], a.get("quantity"), a["date"]) for a in lines] == [("194.00", 2, "2026-11-30")]


def test_a_stay_by_check_in_and_check_out_is_one_line_dated_at_check_in():
    [line] = added(plan_of("ibis part-dieu, checked in 30 nov and checked out 2 dec, 194 eur for both nights",
                           **ON_LYON))
    assert (line["amount"], line["date"]) == ("194.00", "2026-11-30")  # no count said: no quantity made up
    [line] = added(plan_of("novotel, 2 nights from 30 nov to 2 dec, 97 eur a night", **ON_LYON))
    assert (line["amount"], line.get("quantity"), line["date"]) == ("194.00", 2, "2026-11-30")


def test_nights_listed_by_their_days_with_no_count_are_never_one_night_of_the_price():
    first, second = conversation(["stayed at the ibis monday and tuesday night, 97 per night", "monday"], **ON_LYON)
    for plan in (first, second):
        assert all(a.args.get("amount") != "97.00" for a in plan.acts)


# ----------------------------------------------------------------- 5. a pasted statement with a filter


def test_a_statement_filtered_by_name_asks_only_about_the_rows_kept():
    plan = plan_of("from my card, only the g7 and the sncf are for work, the rest is mine:\n"
                   "30/11  MONOPRIX LYON      18.20 EUR\n"
                   "30/11  SNCF               44.00 EUR\n"
                   "01/12  FNAC BELLECOUR     35.99 EUR\n"
                   "02/12  G7 TAXI            19.50 EUR", **ON_LYON)
    assert sorted(a["amount"] for a in added(plan)) == ["19.50", "44.00"]


def test_a_filter_that_also_says_skip_the_others_keeps_the_rows_it_names():
    plan = plan_of("card lines below, only the taxi and the hotel are business, skip the other two (personal):\n"
                   "30/11 TAXI RADIO 12.30 EUR\n30/11 CARREFOUR 9.10 EUR\n01/12 HOTEL AMBRE 150.00 EUR\n"
                   "01/12 NETFLIX 13.99 EUR", **ON_LYON)
    assert sorted(a["amount"] for a in added(plan)) == ["12.30", "150.00"]


def test_names_left_out_that_are_none_of_the_lines_do_not_sink_the_request():
    plan = plan_of("just these two: g7 19.50 eur on 2 dec and sncf 44 eur on 30 nov. ignore monoprix and fnac",
                   **ON_LYON)
    assert sorted(a["amount"] for a in added(plan)) == ["19.50", "44.00"]


# ----------------------------------------------------------------- 6. no stray question after a success


def test_a_reason_after_the_line_asks_no_second_amount():
    plan = plan_of("thursday i took the partners to Daniel et Denise for dinner, 88 eur, and i paid it with my card",
                   **ON_LYON)
    assert len(added(plan)) == 1
    assert not any("How much" in a.text for a in plan.answers)


def test_a_heading_before_a_colon_asks_no_amount_of_its_own():
    plan = plan_of("add travel expense: SNCF return lyon grenoble 38.60 eur on 1 dec", **ON_LYON)
    assert [(a["amount"], a["date"]) for a in added(plan)] == [("38.60", "2026-12-01")]
    assert not any("How much" in a.text for a in plan.answers)


# ----------------------------------------------------------------- 7. a return trip is one item


def test_there_and_back_is_one_line():
    [line] = added(plan_of("train to grenoble and back with SNCF, 38.60 eur, tue 1 dec", **ON_LYON))
    assert (line["amount"], line["category"], line["date"]) == ("38.60", "travel", "2026-12-01")


# ----------------------------------------------------------------- 8. what is still missing, from the claim


def test_what_is_missing_is_answered_from_the_claims_lines():
    view = {"currency": "EUR", "lines": [
        {"ordinal": 1, "date": "2026-12-01", "merchant": "", "category": "meals", "amount": "12.00"},
        {"ordinal": 2, "date": "2026-12-01", "merchant": "Le Bouchon", "category": "meals", "amount": "58.00"},
        {"ordinal": 3, "date": "2026-12-01", "merchant": "Ibis", "category": "hotel", "amount": "400.00",
         "quantity": 2}]}
    review = " ".join(claim_review(view))
    assert "lines 2 (Le Bouchon, 58.00) and 3 (Ibis, 400.00)" in review  # receipts over 25 EUR
    assert "merchant for line 1" in review
    assert "70.00 EUR" in review  # meals of the day over 60
    assert "line 3 is 200.00 EUR a night" in review


def test_the_question_before_submitting_names_lines():
    message = "before i send it off, is anything missing on my lines?"
    first = parse_model_answer(interpret(request(message, **ON_FULL)))
    assert isinstance(first, ReadBatch) and [r.tool for r in first.reads] == ["get_case"]
    results = [{"tool": "get_case", "ok": True, "result": LYON_FULL.view}]
    record = RoundRecord(1, "ok", [{"tool": "get_case", "args": dict(first.reads[0].args)}], results)
    plan = parse_model_answer(interpret(request(message, **ON_FULL, rounds=[record])))
    assert isinstance(plan, UserTurnPlan)
    text = " ".join(a.text for a in plan.answers)
    assert "receipt" in text and "line" in text


# ----------------------------------------------------------------- 9. corrections told as "X, not Y"


def test_a_merchant_told_as_x_not_y_changes_that_line():
    plan = plan_of("i mixed up the names: the tuesday dinner was at Café Comptoir, not le bouchon", **ON_FULL)
    assert [(a.act, a.args.get("line"), a.args.get("merchant")) for a in plan.acts] == [
        ("update_line", 2, "Café Comptoir")]


def test_a_merchant_no_line_has_is_not_changed():
    plan = plan_of("the dinner was at Café Comptoir, not brasserie georges", **ON_FULL)
    assert all(a.args.get("merchant") != "Café Comptoir" for a in plan.acts if a.act == "update_line")


def test_the_walkthrough_families_leave_valid_json():
    assert json.loads(interpret(request("ok", **ON_LYON)))


# ----------------------------------------------------------------- "remove it" after an explanation naming another line


def _after_changing(line_index: int, message: str) -> UserTurnPlan:
    line = LYON_FULL.view["lines"][line_index]
    recent = [{"act": "update_line", "case": LYON.id, "event": "line_updated",
               "data": {"line_id": line["id"], "ordinal": line_index + 1}}]
    parsed = parse_model_answer(interpret(replace(request(message, **ON_FULL), recent=recent)))
    assert isinstance(parsed, UserTurnPlan), parsed
    return parsed


def test_remove_it_after_words_naming_another_line_is_not_the_last_line_changed():
    # the taxi (line 4) was changed last; the words name the bouchon dinner, so "it" is not the taxi
    for message in ("hmm no, not the bouchon dinner, the client paid that. please remove it",
                    "actually le bouchon was on the client, remove it"):
        plan = _after_changing(3, message)
        assert [a for a in plan.acts if a.act == "remove_line" and a.args.get("line") == 4] == [], message
    # an explanation that names nothing else still means the line just changed
    plan = _after_changing(3, "wait, i paid that one with the company card, remove that one")
    assert [(a.act, dict(a.args)) for a in plan.acts] == [("remove_line", {"line": 4})]


# ----------------------------------------------------------------- the Copenhagen walk-through's families


def test_what_an_expense_was_is_kept_as_its_description_without_merchant_verbs_or_days():
    [lunch] = added(plan_of("team lunch at Torvehallerne 64 on tuesday", **ON_LYON))
    assert (lunch.get("description"), lunch.get("merchant")) == ("team lunch", "Torvehallerne")
    [card] = added(plan_of("the metro card was 8", **ON_LYON))
    assert card.get("description") == "metro card"
    [ride] = added(plan_of("add a taxi ride, 42.50, yesterday", **ON_LYON))
    assert "description" not in ride  # "taxi ride" says nothing the category does not


def test_a_line_is_found_by_its_description():
    metro = lyon_with([
        {"id": "ln_lyon01", "date": "2026-12-01", "merchant": "", "category": "travel", "amount": "8.00",
         "description": "metro card"},
        {"id": "ln_lyon02", "date": "2026-12-01", "merchant": "SNCF", "category": "travel", "amount": "89.00"}])
    plan = plan_of("change the metro card line to 9", cases=(metro,), active="clm_LYON0001", today=TODAY)
    assert [(a.act, a.args.get("line"), a.args.get("amount")) for a in plan.acts] == [("update_line", 1, "9.00")]


def test_what_the_user_will_do_themselves_beside_a_request_is_an_aside():
    plan = plan_of("submit it pls. i'll upload the receipts separately", **ON_FULL)
    assert [a.act for a in plan.acts] == ["submit_claim"]
    assert [a.act for a in plan_of("taxi 31 yesterday, receipts to follow", **ON_LYON).acts] == ["add_line"]
    assert plan_of("dinner 30 today, i'll pay half myself", **ON_LYON).acts == []  # it changes the line: asked


def test_a_name_told_on_its_own_beside_the_one_expense_is_who_was_paid():
    for message, name in [("flight fra muc 164 on mon, lufthansa", "Lufthansa"),
                          ("the flight back on the 3rd, 164.20, also TAP", "TAP"),
                          ("I bought a Migros sandwich and water for lunch on the 2nd, 9.80", "Migros"),
                          ("dinner tue 71 augustiner", "Augustiner")]:
        [line] = added(plan_of(message, **ON_LYON))
        assert line.get("merchant") == name, (message, line)
    assert len(plan_of("taxi 20 and lunch at Migros", **ON_LYON).acts) <= 1  # another kind: not the taxi's merchant


def test_who_was_paid_is_not_the_city_one_came_from_and_a_hotel_keeps_its_whole_name():
    [flight] = added(plan_of("Flight from Munich to Lyon on the 1st was 187.40 with TAP", **ON_LYON))
    assert flight.get("merchant") == "TAP"
    [stay] = added(plan_of("30/11/2026 – Hotel Amigo – 2 nights – 356.00 EUR.", **ON_LYON))
    assert stay.get("merchant") == "Hotel Amigo"
    [checked] = added(plan_of("I checked into the Clarion Post on Tuesday for two nights, 298 altogether", **ON_LYON))
    assert checked.get("merchant") == "Clarion Post"


def test_rows_kept_by_their_place_in_a_paste_are_the_only_ones_read():
    message = ("my card statement, work ones: the first and third\n01 DEC UBER 12.40\n01 DEC ZARA 59.90\n"
               "02 DEC BOLT 9.80")
    plan = plan_of(message, **ON_LYON)
    assert sorted(a["amount"] for a in added(plan)) in ([], ["12.40", "9.80"])  # read as kept, or asked
    assert "59.90" not in [a["amount"] for a in added(plan)]


def test_the_lunch_is_not_a_line_told_as_a_dinner():
    plans = conversation(["dinner at Le Bouchon 52 on tuesday", "and the lunch was 14 not 12"], **ON_LYON)
    assert [a.act for a in plans[1].acts] != ["update_line"]
    [dinner] = added(plans[0])
    assert dinner.get("description") == "dinner"


def test_make_the_line_is_an_edit_never_a_new_expense():
    lyon = claim("clm_LYON0001", "Lyon partner visit", [("2026-12-01", "Le Bouchon", "meals", "88.00"),
                                                        ("2026-12-01", "", "meals", "24.00")])
    plan = plan_of("Make the dinner 80, the rest was wine", cases=(lyon,), active="clm_LYON0001", today=TODAY)
    assert added(plan) == []


def test_who_a_submission_goes_to_and_why_a_line_goes_are_asides_of_a_carded_request():
    for message in ["please submit it to my manager", "Fine, please submit it on his behalf",
                    "Please do submit the claim, with my thanks."]:
        assert [a.act for a in plan_of(message, **ON_FULL).acts] == ["submit_claim"], message
    assert [a.act for a in plan_of("take the G7 taxi off the client paid it", **ON_FULL).acts] == ["remove_line"]


def test_a_day_heading_a_sentence_carries_to_the_next_expense_told_in_it():
    plan = plan_of("On Tuesday I had a modest lunch, 14.60, and later a taxi to the university, 9.80.", **ON_LYON)
    assert [(a["amount"], a.get("date")) for a in added(plan)] == [("14.60", "2026-12-01"), ("9.80", "2026-12-01")]


# ----------------------------------------------------------------- the Vienna walk-through's families


VIENNA = claim("clm_VIEN0001", "Vienna trip", [("2026-11-30", "Austrian Airlines", "travel", "245.80"),
                                               ("2026-12-02", "", "hotel", "41.00"),
                                               ("2026-11-30", "", "taxi", "38.50")])
ON_VIENNA = {"cases": (VIENNA,), "active": "clm_VIEN0001", "today": TODAY}


def test_the_number_of_a_line_is_never_an_amount():
    plan = plan_of("line 2 is wrong, that's a taxi not a hotel. it was the taxi from the hotel to the airport",
                   **ON_VIENNA)
    assert [(a.act, dict(a.args)) for a in plan.acts] in ([], [("update_line", {"line": 2, "category": "taxi"})])
    assert not any(a.args.get("amount") for a in plan.acts)
    wrong = plan_of("line 3 is wrong, that's a taxi not a hotel", **ON_VIENNA)  # line 3 is no hotel: not changed
    assert not any(a.args.get("amount") or a.args.get("line") == 3 for a in wrong.acts)


def test_a_head_count_and_a_ticket_of_hours_are_no_amounts_of_their_own():
    [lunch] = added(plan_of("tuesday we had a team lunch at Figlmüller, 4 ppl, 112.60", **ON_LYON))
    assert lunch["amount"] == "112.60"
    [ticket] = added(plan_of("and a 24h metro ticket (Wiener Linien) on tuesday 8.00", **ON_LYON))
    assert ticket["amount"] == "8.00"


def test_a_persons_name_is_never_read_as_a_merchant_it_resembles():
    for line in added(plan_of("dinner with the client (Mr Huber from Erste bank) at Steirereck 186 on tuesday",
                              **ON_LYON)):
        assert line.get("merchant") != "Uber"


def test_a_name_that_says_what_it_is_heads_a_message_and_is_said_again_in_short():
    [out] = added(plan_of("Austrian Airlines on monday 30 nov, 245.80", **ON_LYON))
    assert (out.get("merchant"), out["category"]) == ("Austrian Airlines", "travel")
    [back] = added(plan_of("the return flight wednesday 2 dec with austrian too, 198.40", **ON_VIENNA))
    assert back.get("merchant") == "Austrian Airlines"


def test_a_line_told_with_a_typo_is_found_by_the_word_spelt_right():
    lyon = lyon_with([
        {"id": "ln_lyon01", "date": "2026-12-01", "merchant": "Cafe Central", "category": "meals", "amount": "6.90",
         "description": "coffe"},
        {"id": "ln_lyon02", "date": "2026-12-01", "merchant": "Paul", "category": "meals", "amount": "7.40"}])
    plan = plan_of("remove the coffee", cases=(lyon,), active="clm_LYON0001", today=TODAY)
    assert [(a.act, a.args.get("line")) for a in plan.acts] == [("remove_line", 1)]


def test_a_bare_weekday_is_asked_about_when_the_claims_trip_was_the_week_before():
    trip = claim("clm_BCN00001", "Barcelona trip", [("2026-11-24", "Vueling", "travel", "189.40"),
                                                    ("2026-11-26", "Vueling", "travel", "164.20")])
    on_trip = {"cases": (trip,), "active": "clm_BCN00001", "today": TODAY}  # Friday 4 Dec
    assert added(plan_of("taxi from airport to hotel 38.50 on tuesday", **on_trip)) == []  # 1 Dec or 24 Nov?
    [told] = added(plan_of("taxi from airport to hotel 38.50 on 24 nov", **on_trip))
    assert told["date"] == "2026-11-24"
    [today] = added(plan_of("coffee 3.20 today", **on_trip))
    assert today.get("date", TODAY) == TODAY
    [this_week] = added(plan_of("taxi 12 on tuesday", **ON_FULL))  # a trip this week: the last Tuesday
    assert this_week["date"] == "2026-12-01"


BCN = claim("clm_BCN00002", "Barcelona trip", [("2026-11-24", "Vueling", "travel", "189.40"),
                                               ("2026-11-26", "", "travel", "164.20")])
ON_BCN = {"cases": (BCN,), "active": "clm_BCN00002", "today": "2026-11-27"}


def test_a_lines_merchant_is_changed_in_words():
    for message in ["change the merchant of line 2 to Vueling", "line 2 should say Vueling"]:
        plan = plan_of(message, **ON_BCN)
        assert [(a.act, dict(a.args)) for a in plan.acts] == [("update_line", {"line": 2, "merchant": "Vueling"})]


def test_a_merchant_said_with_a_plural_kind_is_every_such_expenses():
    plan = plan_of("flights with Vueling, outbound tuesday 24 nov 189.40 and the return on thursday 26th 164.20",
                   **ON_LYON)
    assert [a.get("merchant") for a in added(plan)] == ["Vueling", "Vueling"]


def test_a_day_corrected_as_this_not_that_changes_the_line_of_that_day():
    lyon = lyon_with([
        {"id": "ln_lyon01", "date": "2026-12-01", "merchant": "", "category": "travel", "amount": "12.15",
         "description": "metro card"},
        {"id": "ln_lyon02", "date": "2026-12-01", "merchant": "SNCF", "category": "travel", "amount": "89.00"}])
    plan = plan_of("the metro card was bought on wednesday the 2nd, not the 1st", cases=(lyon,), active="clm_LYON0001",
                   today=TODAY)
    assert [(a.act, dict(a.args)) for a in plan.acts] == [("update_line", {"line": 1, "date": "2026-12-02"})]


def test_before_i_submit_in_a_question_is_no_request_to_submit():
    plan = parse_model_answer(interpret(request("anything missing or wrong before I submit?", **ON_FULL)))
    assert not isinstance(plan, UserTurnPlan) or not plan.acts


def test_an_answer_to_which_line_may_name_its_merchant_in_lower_case():
    cafe = claim("clm_VIEN0002", "Vienna trip", [("2026-11-30", "Cafe Central", "meals", "6.90"),
                                                 ("2026-12-01", "Figlmüller", "meals", "24.00")])
    on_cafe = {"cases": (cafe,), "active": "clm_VIEN0002", "today": TODAY}
    first, second = conversation(["remove the meals line", "the cafe central one"], **on_cafe)
    assert first.acts == [] and first.pending is not None
    assert [(a.act, a.args.get("line")) for a in second.acts] == [("remove_line", 1)]


def test_a_reason_told_about_a_line_is_never_a_change_of_its_kind():
    taxi = claim("clm_STO00001", "Stockholm audit", [("2026-11-30", "", "taxi", "50.72")])
    on_taxi = {"cases": (taxi,), "active": "clm_STO00001", "today": TODAY}
    plan = plan_of("the reason for the 50.72 taxi on line 1 is that there was no train early enough", **on_taxi)
    assert not any(a.args.get("category") for a in plan.acts)
    assert [dict(a.args) for a in plan_of("line 1 is a hotel", **on_taxi).acts] == [{"line": 1, "category": "hotel"}]
