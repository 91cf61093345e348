from __future__ import annotations

from django.urls import path

from api import views

app_name = "api"

# Paths named in issue 28: contracts, kept exactly.
urlpatterns = [
    path("embed/games/<int:pk>/", views.embed_game, name="embed"),
    path("games/<int:pk>/landscape.svg", views.landscape_image, name="landscape"),
]
