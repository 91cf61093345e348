from __future__ import annotations

from django.urls import path

from leaderboards import views

app_name = "leaderboards"

urlpatterns = [
    path("leaderboards/", views.board_index, name="index"),
    # Before the Limes boards' pattern, which "winter/rating" would match too.
    path("leaderboards/winter/rating/", views.winter_rating_board, name="winter_rating"),
    path("leaderboards/<name:ruleset>/<name:kind>/", views.board_page, name="board"),
    path("lobby/winter/poll/", views.winter_lobby_poll, name="winter_lobby_poll"),
    path("daily/", views.daily_page, name="daily"),
    path("games/<int:pk>/duplicate/", views.game_duplicate, name="game_duplicate"),
    path("daily/start/", views.daily_start, name="daily_start"),
    path("daily/abandon/", views.daily_abandon, name="daily_abandon"),
    path("daily/<name:day>/", views.daily_page, name="daily_day"),
    path("daily/<name:day>/par/", views.daily_par, name="daily_par"),
]
