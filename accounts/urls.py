from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"

# Below /players/. The profile page, "<str:username>/" (accounts:profile), shows the boards'
# statistics, so its view is leaderboards.views.profile; limes_site/urls.py adds it here,
# after these fixed paths, which its catch-all would otherwise hide.
urlpatterns = [
    path("", views.player_search, name="search"),
    path("settings/", views.account_settings, name="settings"),
    path("settings/vacation/", views.vacation, name="vacation"),
    path("settings/delete/", views.account_delete, name="delete"),
    path(
        "turn-mail/unsubscribe/<str:token>/",
        views.turn_mail_unsubscribe,
        name="turn_mail_unsubscribe",
    ),
]
