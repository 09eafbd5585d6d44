"""What every admin page of the project shares: the read-only permissions of an audit console (style convention 9).

The ledger (``conversations.admin``) and the registry mirror (``registries.admin``) show and never write: no add, no
change, no delete, on their pages and their inlines alike. One mixin says so once; ``registries`` holds it because
both apps build on it and ``registries`` imports nothing of ``conversations``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.admin.options import BaseModelAdmin
from django.http import HttpRequest


class ReadOnlyAdminMixin(BaseModelAdmin):
    """No add, no change, no delete, for a ``ModelAdmin`` and an inline alike. A page that may delete (API tokens:
    listed, revoked and deleted, never added or edited) sets ``may_delete = True`` and keeps Django's own check of
    the delete permission."""

    may_delete: ClassVar[bool] = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.may_delete and super().has_delete_permission(request, obj)
