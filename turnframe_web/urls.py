import re

from django.conf import settings
from django.contrib import admin
from django.contrib.staticfiles.views import serve as serve_static
from django.urls import include, path, re_path

from .api import api

admin.site.site_header = "Turnframe web admin"
admin.site.site_title = "Turnframe web admin"
admin.site.enable_nav_sidebar = False  # the lists need the width at 1366 px; breadcrumbs lead back
admin.site.index_title = "Audit console: the ledger, the registries and who may sign in"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("", include("conversations.urls")),
    # daphne serves no files: the chat page's few static files come through Django's finders (also
    # with DEBUG off); put a CDN or a file server in front of /static/ for heavy traffic
    re_path(rf"^{re.escape(settings.STATIC_URL.lstrip('/'))}(?P<path>.+)$", serve_static, {"insecure": True}),
]

handler404 = "turnframe_web.views.not_found"
handler500 = "turnframe_web.views.server_error"
