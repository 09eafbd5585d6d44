"""The admin's audit pages share one read-only mixin, and a turn's "why did this run" section is a template
(issue 21, 6): the permissions are said once, the page's HTML lives with the other admin templates."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.test import Client

from registries.admin_base import ReadOnlyAdminMixin
from tests.test_admin import ledger, staff, url, users  # noqa: F401  (the ledger of three turns and a staff client)

PERMISSIONS = ("has_add_permission", "has_change_permission", "has_delete_permission")


def our_pages() -> list:
    """Every admin page of ours, as the site runs it: the registered pages of conversations and registries and
    their inlines."""
    pages = [model_admin for model, model_admin in admin.site._registry.items()
             if model._meta.app_label in ("conversations", "registries")]
    return pages + [inline(page.model, admin.site) for page in pages for inline in page.inlines]


def test_every_admin_page_and_inline_of_ours_takes_its_permissions_from_the_one_mixin():
    pages = [type(page) for page in our_pages()]
    assert len(pages) > 10 and any(issubclass(page, InlineModelAdmin) for page in pages)
    outside = [page.__name__ for page in pages if not issubclass(page, ReadOnlyAdminMixin)]
    assert outside == []
    # and none writes its own: the mixin's are the ones that run
    overridden = [f"{page.__name__}.{name}" for page in pages for name in PERMISSIONS
                  if getattr(page, name) is not getattr(ReadOnlyAdminMixin, name)]
    assert overridden == []


@pytest.mark.django_db
def test_only_the_token_page_may_delete_and_no_page_may_add_or_change(rf, users):  # noqa: F811
    request = rf.get("/admin/")
    request.user = users["admin"]
    may_delete = set()
    for page in our_pages():
        if isinstance(page, InlineModelAdmin):
            assert not page.has_add_permission(request, None)
        else:
            assert not page.has_add_permission(request)
        assert not page.has_change_permission(request)
        if page.has_delete_permission(request):
            may_delete.add(type(page).__name__)
    assert may_delete == {"ApiTokenAdmin"}


@pytest.mark.django_db
def test_the_why_did_this_run_section_is_rendered_from_its_admin_template(staff: Client, ledger):  # noqa: F811
    from conversations.models import Turn

    response = staff.get(url(Turn, "change", ledger["added"].pk))
    assert response.status_code == 200
    assert "admin/conversations/turn/why.html" in [t.name for t in response.templates]
    assert "<h3>Acts</h3>" in response.content.decode()
