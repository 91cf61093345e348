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
    path(
        "settings/notifications/",
        views.notification_preferences,
        name="notification_preferences",
    ),
    path("settings/push/", views.push_subscribe, name="push_subscribe"),
    path("settings/push/<int:pk>/remove/", views.push_unsubscribe, name="push_unsubscribe"),
    path("settings/delete/", views.account_delete, name="delete"),
    path(
        "turn-mail/unsubscribe/<str:token>/",
        views.turn_mail_unsubscribe,
        name="turn_mail_unsubscribe",
    ),
]
