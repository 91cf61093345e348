from __future__ import annotations

from django.urls import path

from tournaments import streams, views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.index, name="index"),
    path("tournaments/<int:pk>/", views.detail, name="detail"),
    path("tournaments/<int:pk>/next/", views.live_next, name="live_next"),
    path("tournaments/<int:pk>/stream/", streams.tournament_stream, name="stream"),
    path("tournaments/<int:pk>/join/", views.join, name="join"),
    path("tournaments/<int:pk>/deals/<int:number>/play/", views.play, name="play"),
    path("tournaments/players/<name:username>/", views.record, name="record"),
]
