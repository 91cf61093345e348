"""Admin pages of the plain game records; games and results, with the moderators'
actions on them, are registered by ``moderation/admin_games.py``."""

from __future__ import annotations

from django.contrib import admin

from games.models import Game, Move, Seat


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = ("position", "user", "status", "score", "place", "shared_place", "rating_after")
    readonly_fields = ("status", "score", "place", "shared_place", "rating_after")
    raw_id_fields = ("user",)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin[Seat]):
    list_display = ("id", "game", "user", "position", "score", "place")
    search_fields = ("user__username", "game__id")
    raw_id_fields = ("game", "user")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin[Move]):
    list_display = ("id", "seat", "round", "card", "card_row", "card_col", "rotation", "worker")
    list_filter = ("worker",)
    search_fields = ("seat__user__username", "seat__game__id")
    raw_id_fields = ("seat",)
    readonly_fields = ("created_at",)
