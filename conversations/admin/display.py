"""What the ledger's columns and fields show: links to other admin pages, JSON as indented text, a case's title."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import quote
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.text import Truncator
from pydantic_core import to_jsonable_python

NOTHING = "—"


def admin_link(model, pk: Any, label: Any = None) -> str:
    """A link to an object's admin page (its primary key quoted the way the admin expects)."""
    if pk in (None, ""):
        return NOTHING
    try:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[quote(str(pk))])
    except NoReverseMatch:
        return format_html("<code>{}</code>", label if label is not None else pk)
    return format_html('<a href="{}">{}</a>', url, label if label is not None else pk)


def json_block(value: Any) -> str:
    value = to_jsonable_python(value)  # the turn record's models as their stored JSON
    if value in (None, "", [], {}):
        return NOTHING
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str))


def inline_json(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def case_title_column():
    """A list column with the case's title alone (its id is long and on the case's own page)."""

    @admin.display(description="case", ordering="case__title")
    def case_title(self, obj):
        return Truncator(obj.case.title).chars(32) if obj.case_id else NOTHING

    return case_title


def pretty(field: str, description: str | None = None):
    """A read-only display of a JSON field as indented text."""

    @admin.display(description=description or field.replace("_", " "))
    def show(self, obj):
        return json_block(getattr(obj, field))

    show.__name__ = f"{field}_pretty"
    return show

