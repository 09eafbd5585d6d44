"""``conversations.store``'s mechanism (``_sql``): statements written once read and write rows exactly as the ORM does.

Every hot statement of a turn goes through it, so a difference here (a JSON value, a turn record, a
timestamp, a missing related row, an empty ``IN``) would be a difference in what a turn sees. Each
test compares with the ORM on the same rows; the PostgreSQL lane runs them on PostgreSQL too.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conversations.core.record import TurnAct, TurnNotice, TurnTrace
from conversations.models import Case, CommandJournalEntry, Conversation, DomainEvent, Interaction, Turn
from conversations.store import _sql as prepared

pytestmark = pytest.mark.django_db

# storable text: no NUL and no lone surrogate (PostgreSQL refuses both; core.text judges what users send)
texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=8)


def fields_of(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def world():
    user = get_user_model().objects.create(username="prepared")
    case = Case.objects.create(id="clm_prep", kind="expense_claim", owner=user, title="Berlin", status="draft",
                               revision=3, state={"lines": [{"id": "l1", "amount": "12.50"}]})
    conversation = Conversation.objects.create(owner=user, active_case=case, pending={"question": "Which?"})
    turn = Turn.objects.create(conversation=conversation, client_message_id="m1", text="hello",
                               acts=[TurnAct(id="a1", act="update_line", case=case.id, outcome="executed")],
                               notices=[TurnNotice(code="declined", text="Left alone.")],
                               trace=TurnTrace(command_ids=["cmd_x"]))
    return user, case, conversation, turn


def test_a_selected_row_equals_the_orm_s_with_its_related_rows(world):
    user, case, conversation, turn = world
    card = Interaction.objects.create(conversation=conversation, turn=turn, owner=user, case=case, case_revision=3,
                                      prompt="Confirm?", options=[{"id": "confirm", "label": "Confirm"}])
    loose = Interaction.objects.create(conversation=conversation, turn=turn, owner=user, kind="selection",
                                       blocking=False, prompt="Which?", candidates=["a", "b"])
    query = prepared.Select(Interaction, "t.conversation_id = %s", order="t.created_at",
                            related=("case", "conversation"))
    got = query.all(conversation.pk)
    want = list(Interaction.objects.filter(conversation=conversation).select_related("case", "conversation"))
    assert [fields_of(g) for g in got] == [fields_of(w) for w in want]
    assert fields_of(got[0].case) == fields_of(card.case) and got[0].conversation.pending == {"question": "Which?"}
    assert got[1].case is None and loose.case_id is None  # no related row: None, and no query to find it
    assert not got[0]._state.adding and got[0]._state.db == "default"


def test_a_turn_record_comes_back_typed(world):
    *_, turn = world
    got = prepared.Select(Turn, "t.id = %s").first(turn.pk)
    assert isinstance(got.trace, TurnTrace) and got.trace.command_ids == ["cmd_x"]
    assert isinstance(got.acts[0], TurnAct) and got.notices[0].code == "declined"
    assert fields_of(got) == fields_of(Turn.objects.get(pk=turn.pk))


def test_a_list_parameter_is_an_in_list_and_an_empty_one_matches_nothing(world):
    _, case, conversation, turn = world
    query = prepared.Select(Turn, "t.id IN %s OR t.text = %s")
    assert [t.pk for t in query.all([turn.pk, "missing"], "")] == [turn.pk]
    assert query.all([], "") == [] and [t.pk for t in query.all(set(), "hello")] == [turn.pk]
    assert prepared.Values(Case, ("title", "revision", "updated_at"), "t.id IN %s").all((case.pk,)) == [
        ("Berlin", 3, Case.objects.get(pk=case.pk).updated_at)]


def test_values_convert_as_the_orm_does_and_no_fields_asks_whether_a_row_exists(world):
    _, case, conversation, turn = world
    got = prepared.Values(Conversation, ("active_case_id", "pending", "created_at"), "t.id = %s").first(conversation.pk)
    assert got == Conversation.objects.values_list("active_case_id", "pending", "created_at").get(pk=conversation.pk)
    assert isinstance(got[2], dt.datetime) and got[2].tzinfo is not None
    exists = prepared.Values(Turn, (), "t.id = %s AND t.stop_requested_at IS NULL", limit=1)
    assert exists.first(turn.pk) is not None
    Turn.objects.filter(pk=turn.pk).update(stop_requested_at=timezone.now())
    assert exists.first(turn.pk) is None


def test_an_update_changes_only_matching_rows_and_says_how_many(world):
    _, case, *_ = world
    change = prepared.Update(Case, ("state", "revision", "updated_at"), "t.id = %s AND t.revision = %s")
    now = timezone.now()
    assert change.run([{"lines": []}, 4, now], case.pk, 2) == 0  # not the live revision: nothing
    assert change.run({"revision": 4, "state": {"lines": [], "note": "ü"}, "updated_at": now}, case.pk, 3) == 1
    after = Case.objects.get(pk=case.pk)
    assert (after.revision, after.state, after.updated_at) == (4, {"lines": [], "note": "ü"}, now)
    bump = prepared.Update(Case, ("revision",), "t.id = %s AND t.revision = %s", returning="revision, %s")
    assert bump.returned([5], case.pk, 4, "said") == (5, "said")
    assert bump.returned([6], case.pk, 4, "said") is None  # no row changed: nothing returned


def test_an_insert_writes_what_save_would(world):
    user, case, conversation, turn = world
    row = CommandJournalEntry(idempotency_key="k1", conversation=conversation, turn=turn, plan_act_id="a1",
                              act="update_line", case=case, args={"amount": "1.00"}, expected_revision=3)
    events = [DomainEvent(case=case, revision=4, sequence=i + 1, type="line_updated", data={"i": i}, command=row)
              for i in range(2)]
    prepared.insert(row)
    prepared.insert(*events)
    assert row.created_at is not None and row.updated_at is not None and not row._state.adding
    assert fields_of(CommandJournalEntry.objects.get(pk=row.pk)) == fields_of(row)
    assert [fields_of(e) for e in DomainEvent.objects.filter(command=row).order_by("sequence")] == [
        fields_of(e) for e in events]
    assert DomainEvent.objects.filter(case=case).aggregate(m=Max("sequence"))["m"] == 2


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, prompt=texts, options=st.lists(json_values, max_size=3), held=json_values,
       revision=st.one_of(st.none(), st.integers(0, 2**31 - 1)), blocking=st.booleans())
def test_any_card_round_trips_like_the_orm(world, text, prompt, options, held, revision, blocking):
    user, case, conversation, _ = world
    turn = Turn(conversation=conversation, client_message_id=f"p:{timezone.now().timestamp()}:{id(text)}", text=text,
                status=Turn.Status.COMPLETED)
    prepared.insert(turn)
    card = Interaction(conversation=conversation, turn=turn, owner=user, case=case, case_revision=revision,
                       prompt=prompt, options=options, held_acts=[held], blocking=blocking,
                       status=Interaction.Status.RESOLVED)  # (one pending blocking card per case)
    prepared.insert(card)
    orm = Interaction.objects.select_related("turn").get(pk=card.pk)
    mine = prepared.Select(Interaction, "t.id = %s", related="turn").first(card.pk)
    assert fields_of(mine) == fields_of(orm) == fields_of(card)
    assert fields_of(mine.turn) == fields_of(orm.turn)


def test_an_insert_of_a_numbered_row_gets_its_key_and_what_it_asked_back(world):
    *_, turn = world
    from conversations.models import ReadRound

    row = ReadRound(turn=turn, round=1, provider="scripted", status="ok", requests=[{"tool": "get_case"}],
                    results=[{"ok": True, "value": {"x": "1.50"}}])
    (said,) = prepared.insert(row, returning="%s", params=["also"])
    assert said == "also" and row.pk is not None and not row._state.adding
    assert fields_of(ReadRound.objects.get(pk=row.pk)) == fields_of(row)


def test_reads_sent_together_return_what_each_returns_alone(world):
    user, case, conversation, turn = world
    Interaction.objects.create(conversation=conversation, turn=turn, owner=user, case=case, case_revision=3,
                               prompt="Confirm?", options=[{"id": "confirm", "label": "Confirm"}])
    Interaction.objects.create(conversation=conversation, turn=turn, owner=user, kind="selection", blocking=False,
                               prompt="Which?", candidates=["a", "b"], status="resolved")
    for i in range(4):
        Turn.objects.create(conversation=conversation, client_message_id=f"m{i + 2}", text=f"t{i}",
                            status=Turn.Status.COMPLETED)
    cards = prepared.Select(Interaction, "t.conversation_id = %s", order="t.created_at", related=("case", "turn"),
                            extra={"open": "t.status = 'pending'"})
    texts_ = prepared.Values(Turn, ("text", "created_at"), "t.conversation_id = %s", order="t.created_at DESC",
                             limit=3)
    none = prepared.Select(Case, "t.id IN %s")
    exists = prepared.Values(Turn, (), "t.id = %s")
    together = prepared.read(cards.bind(conversation.pk), texts_.bind(conversation.pk), none.bind([]),
                             exists.bind(turn.pk))
    alone = [cards.all(conversation.pk), texts_.all(conversation.pk), none.all([]), exists.all(turn.pk)]
    assert [fields_of(c) for c in together[0]] == [fields_of(c) for c in alone[0]]
    assert [fields_of(c.case) if c.case else None for c in together[0]] == [
        fields_of(c.case) if c.case else None for c in alone[0]]
    assert [fields_of(c.turn) for c in together[0]] == [fields_of(c.turn) for c in alone[0]]
    assert [bool(c.open) for c in together[0]] == [bool(c.open) for c in alone[0]] == [True, False]
    assert together[1:] == alone[1:] and together[1][0][0] == "t3" and together[2] == [] and together[3] == [(1,)]


def test_reads_along_an_update_see_what_the_transaction_wrote_before_it(world):
    _, case, conversation, turn = world
    bump = prepared.Update(Turn, ("text",), "t.id = %s AND t.text = %s", returning="text")
    titles = prepared.Values(Case, ("title", "revision", "state"), "t.id = %s")
    with transaction.atomic():
        Case.objects.filter(pk=case.pk).update(title="Munich", revision=4)
        assert bump.returned(["bye"], turn.pk, "hello", along=[titles.bind(case.pk)]) == (
            "bye", [("Munich", 4, {"lines": [{"id": "l1", "amount": "12.50"}]})])
    assert bump.returned(["again"], turn.pk, "hello", along=[titles.bind(case.pk)]) is None  # nothing changed
    plain = prepared.Update(Turn, ("text",), "t.id = %s")
    assert plain.returned(["hi"], turn.pk, along=[titles.bind(case.pk)]) == ([("Munich", 4, case.state)],)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=texts, prompt=texts, options=st.lists(json_values, max_size=3), held=json_values, blocking=st.booleans())
def test_any_card_read_along_round_trips_like_the_orm(world, text, prompt, options, held, blocking):
    user, case, conversation, _ = world
    turn = Turn(conversation=conversation, client_message_id=f"q:{timezone.now().timestamp()}:{id(text)}", text=text,
                status=Turn.Status.COMPLETED, notices=[TurnNotice(code="x", text=text)])
    prepared.insert(turn)
    card = Interaction(conversation=conversation, turn=turn, owner=user, case=case, prompt=prompt, options=options,
                       held_acts=[held], blocking=blocking, status=Interaction.Status.RESOLVED)
    prepared.insert(card)
    query = prepared.Select(Interaction, "t.id = %s", related=("turn", "conversation"))
    (mine,), = prepared.read(query.bind(card.pk))
    orm = Interaction.objects.select_related("turn", "conversation").get(pk=card.pk)
    assert fields_of(mine) == fields_of(orm) == fields_of(card)
    assert fields_of(mine.turn) == fields_of(orm.turn) and fields_of(mine.conversation) == fields_of(orm.conversation)


def test_another_database_engine_is_refused_by_a_system_check(settings):
    """Issue 21 (1): an unsupported vendor raised KeyError in a turn; now ``manage.py check`` says so at start."""
    from conversations.checks import check_database_engine

    assert check_database_engine() == []
    settings.DATABASES = {**settings.DATABASES, "other": {"ENGINE": "django.db.backends.mysql", "NAME": "x"}}
    (error,) = check_database_engine()
    assert error.id == "turnframe.E001" and "mysql" in error.msg


def test_every_field_type_read_through_a_json_array_comes_back_as_the_cursor_gives_it():
    """Issue 21 (1): on PostgreSQL only timestamps were converted back from a read sent along (a JSON array), so a
    date, a decimal or a uuid would have come back as text or a float. Every such column now travels as text and
    its field parses it, on both databases; the real models' round trips are the tests above."""
    import decimal
    import uuid

    from django.db import models
    from django.test.utils import isolate_apps

    with isolate_apps("conversations"):
        class Every(models.Model):
            day = models.DateField()
            at = models.DateTimeField()
            amount = models.DecimalField(max_digits=14, decimal_places=2)
            key = models.UUIDField()
            ratio = models.FloatField()
            count = models.IntegerField()
            name = models.CharField(max_length=10)

            class Meta:
                app_label = "conversations"

        columns = prepared._Columns(Every, "t")
        from django.db import connection

        if connection.vendor == "postgresql":  # as PostgreSQL renders ::text columns inside json_build_array
            row = [1, "2026-12-04", "2026-12-04 03:59:00.123456+00", "12345678901.23",
                   "6f1c1f0e-0d3a-4a3e-9a55-1d6c3f0b1a2e", "0.25", 7, "x"]
        else:  # SQLite's json_array: text for dates and uuids (as its cursor), numbers as numbers
            row = [1, "2026-12-04", "2026-12-04 03:59:00.123456", 12345678901.23,
                   "6f1c1f0e0d3a4a3e9a551d6c3f0b1a2e", 0.25, 7, "x"]
        names = [f.attname for f in columns.fields]
        values = dict(zip(names, columns.convert(columns.from_json(row)), strict=True))
    assert values["day"] == dt.date(2026, 12, 4)
    assert values["at"].replace(tzinfo=None) == dt.datetime(2026, 12, 4, 3, 59, 0, 123456)
    assert values["amount"] == decimal.Decimal("12345678901.23")
    assert values["key"] == uuid.UUID("6f1c1f0e-0d3a-4a3e-9a55-1d6c3f0b1a2e")
    assert values["ratio"] == 0.25 and values["count"] == 7 and values["name"] == "x"
