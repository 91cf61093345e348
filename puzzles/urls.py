from __future__ import annotations

from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("puzzles/", views.index, name="index"),
    path("puzzles/daily/", views.daily, name="daily"),
    path("puzzles/<int:pk>/", views.detail, name="detail"),
    path("puzzles/<int:pk>/answer/", views.answer, name="answer"),
]
