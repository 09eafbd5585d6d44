"""Lists of the HTTP API, paged the django-ninja way (``@paginate``) without changing their answer.

A list operation answers the plain JSON list of CONTRACT §6, as it always has: with no query parameters the
first ``default`` items (the fixed cap each list had before); ``?limit=`` (at most ``most``) and ``?offset=``
page through the rest. When more items follow a page, the answer says so in a header — ``Link: <…?offset=N…>;
rel="next"`` (RFC 8288) — so the body stays the list every client already reads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.http import HttpRequest, QueryDict
from ninja import Field, Schema
from ninja.pagination import PaginationBase

NEXT_OFFSET = "_turnframe_next_offset"


class Rows:
    """What a list operation returns: its rows (a queryset, not yet run) and how one becomes its JSON. The
    pager slices it, so only the page is loaded and shaped."""

    def __init__(self, rows: Sequence[Any], shape: Callable[[Any], Any]):
        self.rows, self.shape = rows, shape

    def page(self, offset: int, limit: int) -> tuple[list[Any], bool]:
        """The shaped items from ``offset``, at most ``limit``; and whether more follow."""
        loaded = list(self.rows[offset: offset + limit + 1])
        return [self.shape(row) for row in loaded[:limit]], len(loaded) > limit


class ListPage(PaginationBase):
    """``@paginate(ListPage, default=…, most=…)``: ``limit``/``offset`` over ``Rows``; the answer is the list."""

    Output = None  # the answer keeps the operation's own list schema (no ``{"items", "count"}`` envelope)

    def __init__(self, *, default: int, most: int = 1000, **kwargs: Any) -> None:
        super().__init__(**kwargs)

        class Input(Schema):
            limit: int = Field(default, ge=1, le=most, description=f"How many (default {default}, at most {most})")
            offset: int = Field(0, ge=0, description="How many to skip (the Link header's rel=next gives the next)")

        self.Input = Input

    def paginate_queryset(self, queryset: Rows, pagination: Any, request: HttpRequest, **params: Any) -> list[Any]:
        items, more = queryset.page(pagination.offset, pagination.limit)
        if more:
            setattr(request, NEXT_OFFSET, pagination.offset + pagination.limit)
        return items


def next_page_link(request: HttpRequest, response) -> None:
    """Add the ``Link: rel="next"`` header to a paged list's answer that has more items after it."""
    offset = getattr(request, NEXT_OFFSET, None)
    if offset is None:
        return
    query: QueryDict = request.GET.copy()
    query["offset"] = str(offset)
    response["Link"] = f'<{request.build_absolute_uri(request.path)}?{query.urlencode()}>; rel="next"'
