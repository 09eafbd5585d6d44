"""The chat page and sign-in (the HTTP API is under ``/api``, the socket under ``/ws``)."""

from django.contrib.auth.views import LogoutView
from django.urls import path

from . import views

urlpatterns = [
    path("login/", views.SignInView.as_view(), name="login"),
    path("logout/", LogoutView.as_view(), name="logout"),  # POST only
    path("", views.chat_home, name="chat"),
    path("c/<str:conversation_id>/", views.chat_conversation, name="conversation"),
]
