from __future__ import annotations

from django.urls import path

from social import streams, views
from social.models import GameKind

app_name = "social"

# The chat of either game: one view each, told which game by the address.
_WINTER = {"kind": GameKind.WINTER}

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("friends/online/", views.presence_visibility, name="presence_visibility"),
    path("friends/<name:username>/challenge/", views.challenge_new, name="challenge_new"),
    path("friends/<name:username>/<slug:action>/", views.relation_change, name="relation"),
    path("challenges/stream/", streams.challenge_stream, name="challenge_stream"),
    path("challenges/alerts/", views.challenge_alerts, name="challenge_alerts"),
    path("challenges/<int:pk>/", views.challenge, name="challenge"),
    path("challenges/<int:pk>/<slug:answer>/", views.challenge_answer, name="challenge_answer"),
    path("games/<int:pk>/chat/", views.chat, name="chat"),
    path("games/<int:pk>/chat/poll/", views.chat_poll, name="chat_poll"),
    path("winter/games/<int:pk>/chat/", views.chat, _WINTER, name="winter_chat"),
    path("winter/games/<int:pk>/chat/poll/", views.chat_poll, _WINTER, name="winter_chat_poll"),
]
