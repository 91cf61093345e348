from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"

# Fixed paths first: a catch-all "<name:username>/" profile page goes after them.
urlpatterns = [
    path("settings/", views.account_settings, name="settings"),
    path("settings/delete/", views.account_delete, name="delete"),
    path("<name:username>/", views.profile, name="profile"),
]
