"""The store's mechanism (private to ``conversations.store``): statements written once per process for the rows
every turn reads and writes (issue 11).

The ORM builds each statement anew on every call: resolving lookups, ordering, joins and the column
list costs a turn more than the database takes to run the statement (a profile put it at 40 % of a
message + click). The few statements a turn sends every time are written once, as SQL over the
model's own table and columns, and each call only binds its parameters. Values still go through
Django's field machinery both ways: ``get_db_prep_save`` on the way in, the backend's and the field's
converters and ``Model.from_db`` on the way out, so an instance loaded here equals one the ORM loads
(``tests/test_prepared.py`` checks it on SQLite and PostgreSQL). Everything else keeps the ORM.

Where clauses name columns as the main table ``t`` and a joined one ``r`` have them
(``"t.conversation_id = %s"``). A list, tuple or set parameter stands for ``IN (...)``: written
``t.id IN %s``; an empty one matches nothing.

Reads can travel together: ``q.bind(*params)`` is a read not sent yet; ``read(*bound)`` sends several in
one statement, and ``along=`` sends them with an update or an insert (its ``RETURNING``). Each comes back
as one JSON value (its rows as arrays, in its order) and is converted as if it had been read alone, so a
turn pays one round trip for what it reads at the same moment, not one per table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

_LISTS = (list, tuple, set, frozenset)


def field_of(model: type[models.Model], name: str) -> models.Field:
    """The model's concrete field ``name`` (a reverse relation has no column)."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), f"{model.__name__}.{name} is not a column"
    return field


def db() -> BaseDatabaseWrapper:
    """This thread's connection to the database the store writes to. Taken once per statement: each attribute read
    through ``django.db.connection`` (a proxy) is a thread-local lookup of its own (about 2 µs: a few hundred per
    message + click when the store read ``connection.ops``, ``.vendor`` and ``.alias`` that way)."""
    return connections[DEFAULT_DB_ALIAS]


def column_of(field: models.Field, connection: BaseDatabaseWrapper | None = None) -> str:
    """The field's column, quoted for this database."""
    assert field.column is not None, f"{field} has no column"
    return (connection or db()).ops.quote_name(field.column)


class _Columns:
    """Columns of a model as selected from ``alias`` (every concrete one unless ``fields`` names some), and how
    a row of them is converted as the ORM would (the backend's converters, then the field's)."""

    def __init__(self, model: type[models.Model], alias: str, fields: Sequence[str] | None = None):
        connection = db()
        self.model = model
        self.fields = (list(model._meta.concrete_fields) if fields is None
                       else [field_of(model, name) for name in fields])
        self.names = [f.attname for f in self.fields]
        pk = model._meta.pk.attname if model._meta.pk is not None else None
        self.pk = self.names.index(pk) if pk in self.names else None
        self.sql = ", ".join(f"{alias}.{column_of(f, connection)}" for f in self.fields)
        # the same columns inside a JSON array (``read``, ``along``): PostgreSQL would nest a jsonb value, and
        # render a timestamp, a date, a decimal or a uuid as JSON text or a JSON number (a decimal would lose
        # digits as a float). Every column JSON does not carry as its cursor would is sent as text and parsed back
        # by its field (``to_python``), as the cursor's value would be
        postgres = connection.vendor == "postgresql"
        self.json_sql = ", ".join(f"{alias}.{column_of(f, connection)}" + ("::text" if postgres and _as_text(f) else "")
                                  for f in self.fields)
        self.texts = [(i, f) for i, f in enumerate(self.fields) if postgres and _as_text(f) and not _is_json(f)]
        self.converters: list[tuple[int, Any, list[Any]]] = []
        for i, f in enumerate(self.fields):
            col = f.get_col(alias)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if found:
                self.converters.append((i, col, found))

    def from_json(self, row: list[Any]) -> list[Any]:
        """A row as a JSON array holds it, as the cursor would have returned it."""
        for i, field in self.texts:
            if row[i] is not None:
                row[i] = field.to_python(row[i])
        return row

    def convert(self, row: Sequence[Any], connection: BaseDatabaseWrapper | None = None) -> list[Any]:
        values = list(row)
        if self.converters:
            connection = connection or db()
            for i, col, converters in self.converters:
                for convert in converters:
                    values[i] = convert(values[i], col, connection)
        return values

    def instance(self, row: Sequence[Any], connection: BaseDatabaseWrapper | None = None) -> models.Model:
        return self.model.from_db(DEFAULT_DB_ALIAS, self.names, self.convert(row, connection))


def _is_json(field: models.Field) -> bool:
    return field.get_internal_type() == "JSONField"


# what a JSON array carries as the cursor would: text, integers, booleans (and a foreign key of those); the
# rest goes as text (``_Columns.json_sql``)
_JSON_AS_IS = {"CharField", "TextField", "SlugField", "EmailField", "URLField", "IntegerField", "BigIntegerField",
               "SmallIntegerField", "PositiveIntegerField", "PositiveBigIntegerField", "PositiveSmallIntegerField",
               "AutoField", "BigAutoField", "SmallAutoField", "BooleanField"}


def _as_text(field: models.Field) -> bool:
    target = field.target_field if isinstance(field, models.ForeignKey) else field
    return target.get_internal_type() not in _JSON_AS_IS


_CONVERTERS: dict[tuple[str, type[models.Model], tuple[str, ...]], _Columns] = {}


def converted(model: type[models.Model], fields: Sequence[str], row: Sequence[Any]) -> tuple:
    """Values of ``fields`` as the database returned them (e.g. by ``RETURNING``), converted as the ORM would."""
    connection = db()
    key = (connection.vendor, model, tuple(fields))
    columns = _CONVERTERS.get(key)
    if columns is None:
        columns = _CONVERTERS[key] = _Columns(model, "t", fields)
    return tuple(columns.convert(row, connection))


def expanded(sql: str, params: Sequence[Any]) -> tuple[str, list[Any]]:
    """Expand each list parameter into ``(%s, %s, …)``."""
    for p in params:  # (a plain loop: most statements have no list, and a generator costs each one a frame)
        if isinstance(p, _LISTS):
            break
    else:
        return sql, list(params)
    parts, bound = sql.split("%s"), []
    out = [parts[0]]
    for p, rest in zip(params, parts[1:], strict=True):
        if isinstance(p, _LISTS):
            values = list(p)
            out.append("(" + ", ".join(["%s"] * len(values)) + ")" if values else "(NULL)")
            bound.extend(values)
        else:
            out.append("%s")
            bound.append(p)
        out.append(rest)
    return "".join(out), bound


def execute(sql: str, params: Sequence[Any] = ()) -> tuple | None:
    """One statement written by hand (list parameters expanded); its first row, if it returns rows."""
    with db().cursor() as cursor:
        cursor.execute(*expanded(sql, params))
        return cursor.fetchone() if cursor.description else None


def _fetch(sql: str, params: Sequence[Any]) -> list[tuple]:
    with db().cursor() as cursor:
        cursor.execute(*expanded(sql, params))
        return cursor.fetchall()


class _Query:
    """What Select and Values share: ``SELECT <columns> FROM <source> WHERE … [ORDER BY …] [LIMIT n]``,
    written once per database vendor."""

    def __init__(self, where: str, order: str, limit: int | None):
        self.where, self.order, self.limit = where, order, limit
        self._compiled: dict[str, tuple[str, str, Any]] = {}

    def _sql(self) -> tuple[str, str, Any]:
        """The statement, the same read as one JSON value (a scalar subquery), and the shape of a row."""
        vendor = db().vendor
        found = self._compiled.get(vendor)
        if found is None:
            columns, json_columns, source, shape = self._shape()
            rest = f" FROM {source} WHERE {self.where}"
            rest += f" ORDER BY {self.order}" if self.order else ""
            rest += f" LIMIT {int(self.limit)}" if self.limit is not None else ""
            if vendor == "postgresql":  # (the rows' order given to the aggregate, not left to the plan)
                number = f", row_number() OVER (ORDER BY {self.order}) AS n" if self.order else ""
                as_json = (f"(SELECT COALESCE(json_agg(s.j{' ORDER BY s.n' if self.order else ''}), '[]') FROM"
                           f" (SELECT json_build_array({json_columns}) AS j{number}{rest}) s)")
            else:  # json(): a value read from a subquery is text to SQLite's JSON functions until parsed again
                as_json = f"(SELECT json_group_array(json(s.j)) FROM (SELECT json_array({json_columns}) AS j{rest}) s)"
            found = self._compiled[vendor] = (f"SELECT {columns}{rest}", as_json, shape)
        return found

    def _shape(self) -> tuple[str, str, str, Any]:
        raise NotImplementedError

    def _made(self, rows: Iterable[Sequence[Any]], shape: Any) -> list[Any]:
        raise NotImplementedError

    def _from_json(self, value: Any, shape: Any) -> list[Any]:
        raise NotImplementedError

    def bind(self, *params: Any) -> Bound:
        """This read with its parameters, to send with others (``read``, ``along=``)."""
        return Bound(self, params)

    def first(self, *params: Any) -> Any:
        rows = self.all(*params)
        return rows[0] if rows else None

    def all(self, *params: Any) -> list[Any]:
        sql, _, shape = self._sql()
        return self._made(_fetch(sql, params), shape)


class Bound(NamedTuple):
    query: _Query
    params: tuple


def along_sql(reads: Sequence[Bound]) -> tuple[str, list[Any]]:
    """Reads as scalar subqueries, each one JSON value: ``", (…), (…)"`` and their parameters."""
    params: list[Any]
    sql, params = "", []
    for query, bound in reads:
        sql += ", " + query._sql()[1]
        params.extend(bound)
    return sql, params


def decoded(reads: Sequence[Bound], values: Sequence[Any]) -> list[list[Any]]:
    """The rows of each read, from the JSON values ``along``'s subqueries returned."""
    out = []
    for (query, _), value in zip(reads, values, strict=True):
        shape = query._sql()[2]
        rows = json.loads(value) if isinstance(value, str) else value or []
        out.append(query._made([query._from_json(row, shape) for row in rows], shape))
    return out


def read(*reads: Bound) -> list[list[Any]]:
    """Several reads in one statement (``SELECT (…), (…)``): each one's rows, as its ``all`` returns them."""
    sql, params = along_sql(reads)
    return decoded(reads, _fetch("SELECT " + sql[2:], params)[0])


class Select(_Query):
    """``SELECT <every column> FROM <model's table> t [LEFT JOIN <related table> r1 …] WHERE … [ORDER BY …]``.

    ``related``: foreign keys of the model whose rows come along (``select_related``), joined as r1, r2, …;
    ``extra``: attribute name -> SQL expression, set on each instance as the database returns it (``annotate``)."""

    def __init__(self, model: type[models.Model], where: str, *, order: str = "", limit: int | None = None,
                 related: Sequence[str] = (), extra: dict[str, str] | None = None):
        super().__init__(where, order, limit)
        self.model = model
        self.related = (related,) if isinstance(related, str) else tuple(related)
        self.extra = dict(extra or {})

    def _shape(self) -> tuple[str, str, str, list[_Columns]]:
        connection = db()
        quote = connection.ops.quote_name
        tables = [_Columns(self.model, "t")]
        source = f"{quote(self.model._meta.db_table)} t"
        for n, name in enumerate(self.related, start=1):
            fk = field_of(self.model, name)
            assert isinstance(fk, models.ForeignKey) and isinstance(fk.related_model, type), f"{name}: not a key"
            tables.append(_Columns(fk.related_model, f"r{n}"))
            source += (f" LEFT JOIN {quote(fk.related_model._meta.db_table)} r{n}"
                       f" ON r{n}.{column_of(fk.target_field, connection)} = t.{column_of(fk, connection)}")
        extra = list(self.extra.values())
        columns = [c.sql for c in tables] + [f"{expression} AS {quote(name)}" for name, expression in self.extra.items()]
        return ", ".join(columns), ", ".join([c.json_sql for c in tables] + extra), source, tables

    def _from_json(self, row: list[Any], tables: list[_Columns]) -> list[Any]:
        start = 0
        for columns in tables:
            row[start:start + len(columns.fields)] = columns.from_json(row[start:start + len(columns.fields)])
            start += len(columns.fields)
        return row

    def _made(self, rows: Iterable[Sequence[Any]], tables: list[_Columns]) -> list[models.Model]:
        out, connection = [], db()
        for row in rows:
            start = len(tables[0].fields)
            obj = tables[0].instance(row[:start], connection)
            for name, joined in zip(self.related, tables[1:], strict=True):
                part, start = row[start:start + len(joined.fields)], start + len(joined.fields)
                found = joined.pk is not None and part[joined.pk] is not None  # (a left join that found no row)
                setattr(obj, name, joined.instance(part, connection) if found else None)
            for name, value in zip(self.extra, row[start:], strict=True):
                setattr(obj, name, value)
            out.append(obj)
        return out


class Values(_Query):
    """``SELECT <some columns> FROM <model's table> t WHERE …``: rows as tuples (``values_list``), each
    value converted as the field reads it. With no fields it selects ``1``: ``first`` then says whether a row
    exists."""

    def __init__(self, model: type[models.Model], fields: Sequence[str], where: str, *, order: str = "",
                 limit: int | None = None):
        super().__init__(where, order, limit)
        self.model, self.names = model, tuple(fields)

    def _shape(self) -> tuple[str, str, str, _Columns]:
        columns = _Columns(self.model, "t", self.names)
        return (columns.sql or "1", columns.json_sql or "1", f"{db().ops.quote_name(self.model._meta.db_table)} t",
                columns)

    def _from_json(self, row: list[Any], columns: _Columns) -> list[Any]:
        return columns.from_json(row)

    def _made(self, rows: Iterable[Sequence[Any]], columns: _Columns) -> list[tuple]:
        connection = db()
        return [tuple(columns.convert(row, connection)) for row in rows]


class Update:
    """``UPDATE <model's table> AS t SET <fields> WHERE … [RETURNING …]``. ``run`` takes the values in the
    fields' order (or by name), then the where clause's parameters (then the returning clause's), and returns
    the rows it changed; with ``returning``, ``returned`` gives the changed row's returned values (None: no row),
    then the rows of each read sent ``along``. Those see what the transaction wrote before this statement, not
    what this statement changes (PostgreSQL reads them as of the statement's start; SQLite after it).
    (SQLite does not let a subquery in RETURNING name the table's alias: pass the value as a parameter.)"""

    def __init__(self, model: type[models.Model], fields: Iterable[str], where: str, *, returning: str = ""):
        self.model, self.where, self.names, self.returning = model, where, tuple(fields), returning
        self.fields = [field_of(model, name) for name in self.names]
        # as ``save`` does: every ``auto_now`` field the update does not set itself is set to now
        self.stamped = [f for f in model._meta.concrete_fields if getattr(f, "auto_now", False)
                        and f.name not in self.names]
        self._compiled: dict[str, str] = {}

    def _execute(self, connection: BaseDatabaseWrapper, cursor, values: Sequence[Any] | dict[str, Any],
                 params: Sequence[Any], along: Sequence[Bound] = ()) -> None:
        sql = self._compiled.get(connection.vendor)
        if sql is None:
            quote = connection.ops.quote_name
            sets = ", ".join(f"{column_of(f, connection)} = %s" for f in [*self.fields, *self.stamped])
            # the table is named t, as in Select, so a where clause reads the same in both
            sql = self._compiled[connection.vendor] = (
                f"UPDATE {quote(self.model._meta.db_table)} AS t SET {sets} WHERE {self.where}")
        reads, read_params = along_sql(along)
        returning = (self.returning + reads) if self.returning else reads[2:]
        if isinstance(values, dict):
            values = [values[name] for name in self.names]
        prepared = [f.get_db_prep_save(v, connection) for f, v in zip(self.fields, values, strict=True)]
        now = timezone.now()
        prepared += [f.get_db_prep_save(now, connection) for f in self.stamped]
        cursor.execute(*expanded(sql + (f" RETURNING {returning}" if returning else ""),
                              [*prepared, *params, *read_params]))

    def run(self, values: Sequence[Any] | dict[str, Any], *params: Any) -> int:
        connection = db()
        with connection.cursor() as cursor:
            self._execute(connection, cursor, values, params)
            return cursor.rowcount

    def returned_all(self, values: Sequence[Any] | dict[str, Any], *params: Any) -> list[tuple]:
        """What ``returning`` gives for every row the update changed."""
        connection = db()
        with connection.cursor() as cursor:
            self._execute(connection, cursor, values, params)
            return cursor.fetchall()

    def returned(self, values: Sequence[Any] | dict[str, Any], *params: Any, along: Sequence[Bound] = ()
                 ) -> tuple | None:
        connection = db()
        with connection.cursor() as cursor:
            self._execute(connection, cursor, values, params, along)
            row = cursor.fetchone()
        if row is None or not along:
            return row
        return (*row[:len(row) - len(along)], *decoded(along, row[len(row) - len(along):]))


class _Insert(NamedTuple):
    """An insert's parts written once per model (and database, and ``RETURNING``): the fields it writes, its start
    (``INSERT INTO <table> (<columns>)``), one row's placeholders and its end (`` RETURNING …``)."""

    fields: list[models.Field]
    head: str
    row: str
    tail: str
    numbered: bool


_INSERTS: dict[tuple[str, type[models.Model], str], _Insert] = {}


def _insert_of(connection: BaseDatabaseWrapper, model: type[models.Model], returning: str) -> _Insert:
    key = (connection.vendor, model, returning)
    found = _INSERTS.get(key)
    if found is None:
        numbered = isinstance(model._meta.pk, models.AutoField)
        fields = [f for f in model._meta.concrete_fields if not (numbered and f.primary_key)]
        back = (([column_of(model._meta.pk, connection)] if numbered and model._meta.pk else [])
                + ([returning] if returning else []))
        found = _INSERTS[key] = _Insert(
            fields, f"INSERT INTO {connection.ops.quote_name(model._meta.db_table)}"
                    f" ({', '.join(column_of(f, connection) for f in fields)})",
            "(" + ", ".join(["%s"] * len(fields)) + ")", f" RETURNING {', '.join(back)}" if back else "", numbered)
    return found


def insert(*instances: models.Model, returning: str = "", params: Sequence[Any] = ()) -> tuple | None:
    """``INSERT`` new rows of one model in one statement, as ``save`` would write them (``auto_now`` and
    ``auto_now_add`` filled in on the instances). A model whose key the database numbers (an AutoField) is
    inserted one row at a time and gets its key back. ``returning``: SQL the statement also returns for the
    (one) row, with ``params``; returned."""
    if not instances:
        return None
    connection = db()
    model = type(instances[0])
    shape = _insert_of(connection, model, returning)
    assert len(instances) == 1 or not (shape.numbered or returning), "one row at a time: RETURNING has no order"
    sql = f"{shape.head} VALUES {', '.join([shape.row] * len(instances))}{shape.tail}"
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in instances for f in shape.fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, *params])
        returned = cursor.fetchone() if shape.tail else None
    for obj in instances:
        obj._state.adding, obj._state.db = False, connection.alias
    if shape.numbered:
        assert returned is not None  # (RETURNING the key)
        instances[0].pk, returned = returned[0], returned[1:]
    return returned


def insert_if(instance: models.Model, condition: str, params: Sequence[Any] = ()) -> bool:
    """``INSERT INTO <table> (…) SELECT <values> WHERE <condition>``: one new row (a model whose key is not
    numbered by the database), written as ``save`` would, only when ``condition`` holds as the statement runs.
    True when it was inserted."""
    connection = db()
    model = type(instance)
    fields = list(model._meta.concrete_fields)
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(column_of(f, connection) for f in fields)}) "
           f"SELECT {', '.join(['%s'] * len(fields))} WHERE {condition}")
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, *params])
        inserted = cursor.rowcount == 1
    if inserted:
        instance._state.adding, instance._state.db = False, connection.alias
    return inserted
