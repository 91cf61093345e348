from __future__ import annotations

from django.urls import path

from wintergames import streams, views

app_name = "winter"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules_page, name="rules"),
    path("new/", views.game_new, name="new"),
    path("games/<int:pk>/", views.game_detail, name="detail"),
    path("games/<int:pk>/play/", views.game_play, name="play"),
    path("games/<int:pk>/join/", views.game_join, name="join"),
    path("games/<int:pk>/resign/", views.game_resign, name="resign"),
    path("games/<int:pk>/rematch/", views.game_rematch, name="rematch"),
    path("games/<int:pk>/leave/", views.game_leave, name="leave"),
    path("games/<int:pk>/cancel/", views.game_cancel, name="cancel"),
    path("games/<int:pk>/computers/", views.computer_add, name="computer_add"),
    path(
        "games/<int:pk>/computers/<int:seat>/remove/",
        views.computer_remove,
        name="computer_remove",
    ),
    path("games/<int:pk>/record.json", views.game_record, name="record"),
    path("games/<int:pk>/replay/", views.game_replay, name="replay"),
    path("games/<int:pk>/poll/", views.game_poll, name="poll"),
    path("games/<int:pk>/stream/", streams.game_stream, name="stream"),
]
