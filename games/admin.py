from __future__ import annotations

from django.contrib import admin

from games.models import Game, Move, Seat, SoloResult


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "score", "place", "shared_place")
    readonly_fields = ("score", "place", "shared_place")
    raw_id_fields = ("user",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "mode",
        "ruleset",
        "status",
        "round",
        "created_by",
        "created_at",
        "hidden",
    )
    list_filter = ("mode", "ruleset", "status", "hidden")
    search_fields = ("id", "seats__user__username")
    date_hierarchy = "created_at"
    raw_id_fields = ("created_by",)
    # The card sequence and seed decide the game; they are not edited by hand.
    readonly_fields = ("seed", "cards", "deck_name", "round", "created_at", "finished_at")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "user", "position", "score", "place")
    search_fields = ("user__username", "game__id")
    raw_id_fields = ("game", "user")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("id", "seat", "round", "card", "card_row", "card_col", "rotation", "worker")
    list_filter = ("worker",)
    search_fields = ("seat__user__username", "seat__game__id")
    raw_id_fields = ("seat",)
    readonly_fields = ("created_at",)


@admin.register(SoloResult)
class SoloResultAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "ruleset", "score", "rating", "finished_at", "hidden")
    list_filter = ("ruleset", "rating", "hidden")
    search_fields = ("user__username",)
    raw_id_fields = ("game", "user")
    date_hierarchy = "finished_at"
