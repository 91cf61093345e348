from __future__ import annotations

from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("puzzles/", views.index, name="index"),
    path("puzzles/daily/", views.daily, name="daily"),
    path("puzzles/<int:pk>/", views.detail, name="detail"),
    path("puzzles/<int:pk>/answer/", views.answer, name="answer"),
    path("puzzles/<int:pk>/retry/", views.retry, name="retry"),
    path("puzzles/<int:pk>/retry/answer/", views.retry_answer, name="retry_answer"),
    path("puzzles/history/", views.history, name="history"),
]
