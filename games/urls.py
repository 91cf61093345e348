from __future__ import annotations

from django.urls import path

from games import streams, views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules_page, name="rules"),
    path("games/new/", views.game_new, name="new"),
    path("games/<int:pk>/", views.game_detail, name="detail"),
    path("games/<int:pk>/play/", views.game_play, name="play"),
    path("games/<int:pk>/replay/", views.game_replay, name="replay"),
    path("games/<int:pk>/record.json", views.game_record, name="record"),
    path("games/<int:pk>/poll/", views.game_poll, name="poll"),
    path("games/<int:pk>/stream/", streams.game_stream, name="stream"),
    path("games/<int:pk>/join/", views.game_join, name="join_game"),
    path("games/<int:pk>/leave/", views.game_leave, name="leave"),
    path("games/<int:pk>/cancel/", views.game_cancel, name="cancel"),
    path("games/<int:pk>/start/", views.game_start, name="start"),
    path("games/<int:pk>/resign/", views.game_resign, name="resign"),
    path("games/<int:pk>/hint/", views.game_hint, name="hint"),
    path("games/<int:pk>/rematch/", views.game_rematch, name="rematch"),
    path("games/<int:pk>/analysis/", views.game_analysis, name="analysis"),
    path("games/<int:pk>/bots/", views.game_add_bot, name="add_bot"),
    path("games/<int:pk>/bots/<int:seat_pk>/remove/", views.game_remove_bot, name="remove_bot"),
    path("games/new/multi/", views.game_new_multi, name="new_multi"),
    path("games/mine/", views.my_games, name="mine"),
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/poll/", views.lobby_poll, name="lobby_poll"),
    path("lobby/stream/", streams.lobby_stream, name="lobby_stream"),
    path("join/", views.join_by_code, name="join_code"),
    path("join/<code:code>/", views.join_by_code, name="join"),
]
