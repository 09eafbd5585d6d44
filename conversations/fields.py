"""A JSON column whose Python value is a pydantic type (the turn record, ``core.record``).

Whatever is assigned or read back is validated into the field's ``schema``: ``turn.trace`` is a
``TurnTrace`` whether the turn was just created, loaded, or given a dict; a value is written as its
JSON dump. Lookups keep working on the stored JSON (``acts=[]``, ``trace__ending="stopped"``).
"""

from __future__ import annotations

from typing import Any, ClassVar, get_args, get_origin

from django.db import models
from django.db.models.expressions import Col
from django.db.models.query_utils import DeferredAttribute
from pydantic import TypeAdapter
from pydantic_core import to_jsonable_python


class _Validated(DeferredAttribute):
    """Assigning to the attribute validates (so an unsaved instance holds the same type a loaded one does)."""

    def __set__(self, instance, value):
        instance.__dict__[self.field.attname] = self.field.to_python(value)


class SchemaField(models.JSONField):
    """Subclass it with ``schema = <a pydantic type>``; the migration names the subclass, not the schema."""

    schema: ClassVar[Any] = Any
    _adapter: ClassVar[TypeAdapter] = TypeAdapter(Any)
    _model: ClassVar[Any] = None
    _many: ClassVar[bool] = False
    descriptor_class = _Validated

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._adapter = TypeAdapter(cls.schema)
        origin, args = get_origin(cls.schema), get_args(cls.schema)
        cls._model, cls._many = (args[0], True) if origin is list else (cls.schema, False)

    def to_python(self, value):
        if value is None or self._holds(value):
            return value  # already the schema's models (validated when they were made)
        return self._adapter.validate_python(value)

    def _holds(self, value) -> bool:
        if not isinstance(self._model, type):
            return False
        if self._many:
            return isinstance(value, list) and all(isinstance(v, self._model) for v in value)
        return isinstance(value, self._model)

    def from_db_value(self, value, expression, connection):
        value = super().from_db_value(value, expression, connection)
        if not (isinstance(expression, Col) and expression.target is self):
            return value  # a key inside the record, or an expression over it: not the record
        return self.to_python(value)

    def get_prep_value(self, value):
        return super().get_prep_value(to_jsonable_python(value))

    def value_to_string(self, obj):  # dumpdata and the serializers: the stored JSON
        return to_jsonable_python(self.value_from_object(obj))

    def validate(self, value, model_instance):  # full_clean: the JSON it would store
        super().validate(to_jsonable_python(value), model_instance)


class Lowered(models.Func):
    """``LOWER(text)`` folding every script: PostgreSQL's LOWER does; on SQLite (ASCII only) it is
    ``unicode_lower``, Python's ``str.lower``, registered on each connection (``turnframe_web.sqlite``)."""

    function = "LOWER"
    output_field = models.TextField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="unicode_lower", **extra_context)
