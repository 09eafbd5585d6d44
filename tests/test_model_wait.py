"""A turn waiting on its model holds no database connection (issue 11, 5): ``readloop._complete``."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from conversations.readloop import _complete

pytestmark = pytest.mark.django_db(transaction=True)  # outside a test transaction, as a real turn runs


class Model:
    in_process = False

    def __init__(self):
        self.saw_connection: bool | None = None

    def complete(self, request) -> str:
        self.saw_connection = connection.connection is not None
        return "{}"


@pytest.fixture
def opened():
    if connection.vendor != "postgresql":
        pytest.skip("a SQLite connection is a file handle of the process: only PostgreSQL's is given back "
                    "(run with TURNFRAME_TEST_POSTGRES=1)")
    connection.ensure_connection()
    return connection


def test_the_connection_is_given_back_while_the_model_is_asked(opened):
    model = Model()
    _complete(model, request=None)
    assert model.saw_connection is False
    with connection.cursor() as cursor:  # the turn's next statement takes one again
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)


def test_an_in_process_model_or_an_open_transaction_keeps_it(opened):
    local = Model()
    local.in_process = True
    _complete(local, request=None)
    assert local.saw_connection is True
    model = Model()
    with transaction.atomic():
        connection.ensure_connection()
        _complete(model, request=None)
    assert model.saw_connection is True  # closing would have ended the caller's transaction
