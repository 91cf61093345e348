"""Admin pages: look at the boards' tables. They are derived data; rebuild rather than edit."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from leaderboards.models import PlayerRating, PlayerResult, SoloStanding, WeeklyBest, WinterRating


class _DerivedAdmin(admin.ModelAdmin[Any]):
    # Rows follow from the games (services.player_stats_rebuild, manage.py
    # recompute_ratings): an edit here would be overwritten and would mislead meanwhile.
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(_DerivedAdmin):
    list_display = ["user", "ruleset", "ordinal", "mu", "sigma", "games", "last_game_at"]
    list_filter = ["ruleset"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    ordering = ["ruleset", "-ordinal"]


@admin.register(WinterRating)
class WinterRatingAdmin(_DerivedAdmin):
    list_display = ["user", "ordinal", "mu", "sigma", "games", "last_game_at"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    ordering = ["-ordinal"]


@admin.register(SoloStanding)
class SoloStandingAdmin(_DerivedAdmin):
    list_display = ["user", "ruleset", "best_score", "best_at", "recent_average", "games"]
    list_filter = ["ruleset"]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    ordering = ["ruleset", "-best_score"]


@admin.register(WeeklyBest)
class WeeklyBestAdmin(_DerivedAdmin):
    list_display = ["user", "ruleset", "week", "score", "achieved_at"]
    list_filter = ["ruleset", "week"]
    search_fields = ["user__username"]
    list_select_related = ["user"]


@admin.register(PlayerResult)
class PlayerResultAdmin(_DerivedAdmin):
    list_display = ["user", "game", "mode", "ruleset", "score", "place", "hidden", "finished_at"]
    list_filter = ["mode", "ruleset", "hidden"]
    search_fields = ["user__username"]
    list_select_related = ["user", "game"]
    raw_id_fields = ["seat", "game", "user"]
