"""Admin pages of the plain game records; games and results, with the moderators'
actions on them, are registered by ``moderation/admin_games.py``."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.framing import titles_of
from games.models import DailyPar, Game, GameAnalysis, Move, Seat
from games.policy import cards_secret


class SeatInline(admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    fields = (
        "position",
        "user",
        "bot_level",
        "status",
        "score",
        "place",
        "shared_place",
        "rating_after",
    )
    readonly_fields = ("bot_level", "status", "score", "place", "shared_place", "rating_after")
    raw_id_fields = ("user",)


# Where a changelist's seat keeps its game's title (``SeatAdmin.get_changelist_instance``).
_GAME_TITLE = "_game_title"


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin[Seat]):
    list_display = ("id", "game_column", "user", "bot_level", "position", "score", "place")
    list_select_related = ("game", "user")
    search_fields = ("user__username", "game__id")
    raw_id_fields = ("game", "user")

    def get_changelist_instance(self, request: HttpRequest) -> ChangeList:
        changelist = super().get_changelist_instance(request)
        # The page's games named at once, each on its seat: the admin is shared between
        # requests, the seats are this request's own.
        titles = titles_of(seat.game for seat in changelist.result_list)
        for seat in changelist.result_list:
            setattr(seat, _GAME_TITLE, titles[seat.game_id])
        return changelist

    @admin.display(description=_("game"), ordering="game")
    def game_column(self, seat: Seat) -> str:
        # As the game's own page names it (a tournament's deal: by its tournament).
        title = getattr(seat, _GAME_TITLE, None)
        return title if title is not None else titles_of([seat.game])[seat.game_id]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin[Move]):
    list_display = ("id", "seat", "round", "card", "card_row", "card_col", "rotation", "worker")
    list_filter = ("worker",)
    search_fields = ("seat__user__username", "seat__game__id")
    raw_id_fields = ("seat",)
    readonly_fields = ("created_at",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        # A move names its card: none of a day or a sealed game whose cards this user may
        # not see yet.
        secret = cards_secret(request.user, game="seat__game__")
        return super().get_queryset(request).exclude(secret)


@admin.register(GameAnalysis)
class GameAnalysisAdmin(admin.ModelAdmin[GameAnalysis]):
    """Read-only: analyses are computed by the worker, never edited."""

    list_display = ("id", "game", "status", "requested_at", "completed_at")
    list_filter = ("status",)
    search_fields = ("game__id",)
    readonly_fields = ("game", "status", "requested_at", "completed_at")


@admin.register(DailyPar)
class DailyParAdmin(admin.ModelAdmin[DailyPar]):
    """Read-only: ``manage.py compute_daily_par`` computes a day that failed again."""

    list_display = ("day", "ruleset", "status", "bot_score", "best_score", "completed_at")
    list_filter = ("status", "ruleset")
    readonly_fields = (
        "day",
        "ruleset",
        "status",
        "bot_score",
        "best_score",
        "requested_at",
        "completed_at",
    )
