from __future__ import annotations

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules_page, name="rules"),
    path("games/new/", views.game_new, name="new"),
    path("games/<int:pk>/", views.game_detail, name="detail"),
    path("games/<int:pk>/play/", views.game_play, name="play"),
    path("games/<int:pk>/replay/", views.game_replay, name="replay"),
    path("games/<int:pk>/record.json", views.game_record, name="record"),
]
